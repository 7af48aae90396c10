"""Declared-pending coverage in a suite's catalogs (``pending:`` with a
reason): an uncovered entry so declared is reported, not a gap; a pending
entry that a case covers is a problem, so the declaration cannot outlive
its gap."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from linguo_cli.conformance.catalog import check_json, check_lines, check_suite

COINFLIP = Path(__file__).parents[1] / "fixtures" / "coinflip" / "golden" / "coinflip"

EXTRA_RULE = """  - id: F9
    section: Flips
    title: A rule no case covers
    statement: >-
      A rule stated in full so that the statement check is satisfied by it, with
      enough words to pass the minimum number that the suite demands of rules.
"""


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    root = tmp_path / "coinflip"
    shutil.copytree(COINFLIP, root)
    return root


def add_rule(root: Path, extra: str = "") -> None:
    rules = root / "RULES.yaml"
    rules.write_text(rules.read_text() + EXTRA_RULE + extra)


def test_the_fixture_suite_is_complete(suite: Path) -> None:
    report = check_suite(suite)
    assert report.ok and report.pending_rules == [] and report.uncovered_rules == []


def test_an_uncovered_rule_is_a_gap(suite: Path) -> None:
    add_rule(suite)
    report = check_suite(suite)
    assert not report.ok
    assert [g.message for g in report.gaps] == [
        "rule F9 (A rule no case covers) is cited by no case"]
    assert "uncovered rule IDs: F9" in check_lines(report)


def test_a_pending_rule_is_reported_and_not_a_gap(suite: Path) -> None:
    add_rule(suite, "    pending: needs the coin-toss round, not built yet\n")
    report = check_suite(suite)
    assert report.ok, report.problems
    assert report.uncovered_rules == ["F9"] and report.pending_rules == ["F9"]
    lines = check_lines(report)
    assert "pending rule IDs (declared not built yet): F9" in lines
    assert not any(line.startswith("uncovered rule IDs") for line in lines)
    assert check_json(report)["rules"]["pending"] == ["F9"]


def test_a_pending_rule_that_a_case_covers_is_a_problem(suite: Path) -> None:
    rules = suite / "RULES.yaml"
    rules.write_text(rules.read_text().replace(
        "    title: A flip rolls one d2\n",
        "    title: A flip rolls one d2\n    pending: not built yet\n"))
    report = check_suite(suite)
    assert not report.ok
    assert [d.message for d in report.problems] == [
        "rule F1 (A flip rolls one d2) is covered now: remove its 'pending'"]


@pytest.mark.parametrize("value", ['""', "3", "[a]", "'   '"])
def test_pending_must_give_a_reason(suite: Path, value: str) -> None:
    add_rule(suite, f"    pending: {value}\n")
    report = check_suite(suite)
    messages = [d.message for d in report.problems]
    assert "must say why no case covers it yet (a text)" in messages
    assert "rule F9 (A rule no case covers) is cited by no case" in messages
