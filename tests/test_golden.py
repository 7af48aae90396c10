"""Run every golden case against linguo itself: one pytest id per case
(``file::case``), one per case file that must load, and one per worked
example and rule ID that must be covered (``EXAMPLES.yaml::RE-12``,
``RULES.yaml::H4``).

Known gaps go in :data:`SKIP`, the only skip list, each with its reason.
"""

from __future__ import annotations

import pytest

from linguo_cli import golden

from .conftest import ROOT

SUITE = ROOT / "golden"
LOADED = golden.load_suite(SUITE)
CASES = LOADED.cases
CATALOG = golden.load_catalog(SUITE)
CITED = {x for c in CASES for x in (*c.examples, *c.rules)}

#: Known gaps: test id -> reason. Keep this the only skip list.
SKIP: dict[str, str] = {}


def skip_if_known(test_id: str) -> None:
    if test_id in SKIP:
        pytest.skip(SKIP[test_id])


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_case(case: golden.Case) -> None:
    skip_if_known(case.test_id)
    outcome = golden.run_case(case)
    assert outcome.passed, "\n".join(outcome.lines())


@pytest.mark.parametrize("rel", LOADED.files)
def test_case_file_loads(rel: str) -> None:
    skip_if_known(rel)
    problems = LOADED.broken_files.get(rel, [])
    assert not problems, "\n".join(str(d) for d in problems)


@pytest.mark.parametrize("item", [*(f"EXAMPLES.yaml::{x}" for x in CATALOG.examples),
                                  *(f"RULES.yaml::{x}" for x in CATALOG.rules)])
def test_covered(item: str) -> None:
    skip_if_known(item)
    assert item.split("::")[1] in CITED, f"no golden case cites {item.split('::')[1]}"


def test_catalog_loads() -> None:
    assert not CATALOG.problems, "\n".join(str(d) for d in CATALOG.problems)
    # rulings rev. 2: D1-D7, A1-A4, S1-S3, T1-T7, R1-R3, H1-H10, F1-F5, P1-P6, C1-C2, O1, V1
    assert len(CATALOG.examples) == 34 and len(CATALOG.rules) == 49


def test_suite_has_no_structural_problem() -> None:
    """Schema, JSON-compatible YAML, unique ids and descriptions, known IDs
    (coverage gaps are the test_covered items)."""
    report = golden.check_suite(SUITE)
    assert not report.structural_problems, "\n".join(str(d) for d in report.structural_problems)


def test_suite_is_not_empty() -> None:
    assert len(CASES) > 0


def test_skip_list_names_real_tests() -> None:
    known = {c.test_id for c in CASES} | set(LOADED.files) | {
        f"EXAMPLES.yaml::{x}" for x in CATALOG.examples} | {
        f"RULES.yaml::{x}" for x in CATALOG.rules}
    assert set(SKIP) <= known, sorted(set(SKIP) - known)
