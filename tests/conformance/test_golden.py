"""Run every golden case against linguo itself: one pytest id per case
(``linguomancy/file::case``), one per case file that must load, and one per worked
example and rule ID that must be covered (``EXAMPLES.yaml::RE-12``,
``RULES.yaml::H4``).

Known gaps go in :data:`SKIP`, the only skip list, each with its reason.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from linguo_cli.conformance import golden

from ..conftest import ROOT

SUITE = ROOT / "golden" / "linguomancy"
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


# ---------------------------------------------------------------------------
# Rule IDs: linguo's own results agree with the cases' citations (issue 13)
#
# A self-consistency check of linguo, not a demand on other implementations:
# (a) every rule ID a case cites appears in the ``rules`` of linguo's result
#     for it; for a case refused with a rule (exit 4), the refusal's rule is
#     one the case cites;
# (b) every rule ID in a result (``rules``, each explanation step's ``rule``,
#     and the nested ``rules`` of turn results) is a rule ID of RULES.yaml,
#     and so is the rule of a refusal;
# (c) a result's ``rules`` are the distinct rules of its explanation steps,
#     never empty (a cast's rules above all).
#
# Cases that fail (a) would be listed in RULE_CITATION_GAPS (test id -> the
# reason), each a strict xfail: fix the case or linguo, then remove the entry.
# The list is empty: a case cites the rules that decide its result, and
# linguo lists a rule wherever it applies it (a rule whose condition does not
# hold, such as D5 without a natural 20 or 1, or A2 without a critical
# success or failure, is neither applied nor cited; a negative case says in
# its description which rule does not fire).

#: Known gaps of check (a): test id -> reason. Keep it empty.
_GAPS_IN_SUITE: dict[str, str] = {}
#: The gaps by test id (``RULESET/FILE::ID``).
RULE_CITATION_GAPS = {f"linguomancy/{k}": v for k, v in _GAPS_IN_SUITE.items()}


@dataclass(frozen=True)
class _Resolved:
    """linguo's answer to a case: the result, or the refusal's code and rule."""

    result: dict[str, Any] | None
    code: int | None = None
    rule: str | None = None


@cache
def _resolve(test_id: str) -> _Resolved:
    """Resolve a case as the golden runner does (schema and state checks, no
    dice unless the case scripts them), keeping a refusal's rule ID."""
    from linguo_cli.core import requests
    from linguo_cli.core.dice import ScriptedDice
    from linguo_cli.core.errors import LinguoError
    from linguo_cli.io.document import Document
    from linguo_cli.rulesets.linguomancy.state import SCHEMAS

    request = copy.deepcopy(dict(_BY_ID[test_id].request))
    dice = None if "rolls" in request or "seed" in request else ScriptedDice([])
    try:
        SCHEMAS.validate(Document("request", request), "request")
        return _Resolved(requests.resolve(request, dice))
    except LinguoError as exc:
        return _Resolved(None, exc.code, getattr(exc, "rule", None))


_BY_ID = {c.test_id: c for c in CASES}


def _rule_ids(node: Any) -> Iterator[str]:
    """Every rule ID in a result: ``rule`` values and ``rules`` lists, at any depth."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "rule" and isinstance(value, str):
                yield value
            elif key == "rules" and isinstance(value, list):
                yield from (v for v in value if isinstance(v, str))
            else:
                yield from _rule_ids(value)
    elif isinstance(node, list):
        for item in node:
            yield from _rule_ids(item)


def _citation_params() -> list[Any]:
    return [pytest.param(c, id=c.test_id,
                         marks=[pytest.mark.xfail(strict=True, reason=RULE_CITATION_GAPS[
                             c.test_id])] if c.test_id in RULE_CITATION_GAPS else [])
            for c in CASES]


@pytest.mark.parametrize("case", _citation_params())
def test_cited_rules_appear_in_linguos_rules(case: golden.Case) -> None:
    """(a) Every rule ID the case cites is in linguo's ``rules``; a refusal's
    rule is cited by the case."""
    skip_if_known(case.test_id)
    got = _resolve(case.test_id)
    if got.result is None:
        if got.rule is not None:
            assert got.rule in case.rules, (
                f"refused with rule {got.rule}, which the case does not cite ({case.rules})")
        return
    listed = got.result.get("rules") or []
    missing = [r for r in case.rules if r not in listed]
    assert not missing, f"cited but not in linguo's rules {listed}: {missing}"


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_result_rule_ids_are_rule_ids_of_the_ruleset(case: golden.Case) -> None:
    """(b) Every rule ID of the result or refusal is in RULES.yaml; (c) the
    ``rules`` list is the distinct rules of the explanation, never empty."""
    skip_if_known(case.test_id)
    got = _resolve(case.test_id)
    known = set(CATALOG.rules)
    if got.result is None:
        assert got.rule is None or got.rule in known, f"refusal rule {got.rule} not in RULES"
        return
    unknown = sorted({r for r in _rule_ids(got.result) if r not in known})
    assert not unknown, f"rule IDs not in RULES.yaml: {unknown}"
    if "rules" in got.result or got.result.get("kind") == "cast":
        rules = got.result.get("rules")
        assert rules, "empty or missing rules list"
        assert len(rules) == len(set(rules)), f"rules listed twice: {rules}"
        steps = {s["rule"] for s in got.result.get("explanation") or []}
        assert set(rules) == steps, f"rules {rules} differ from the explanation's {sorted(steps)}"


def test_rule_citation_gaps_name_real_cases() -> None:
    known = {c.test_id for c in CASES}
    assert set(RULE_CITATION_GAPS) <= known, sorted(set(RULE_CITATION_GAPS) - known)
