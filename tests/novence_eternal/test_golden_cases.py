"""The Novence Eternal golden suite (``golden/novence-eternal/``) through the
real runner: one pytest id per case (``novence-eternal/FILE::ID``, run by
:func:`golden.run_case`, i.e. the ruleset's schema check and the core's
``resolve``), one per catalog entry that must be covered, the suite's own
checks (schema, catalogs, every entry covered or declared pending), its schema copy, and linguo's
results against the result schemas. Expected values in the files are
hand-worked; this checks that the engine agrees with them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from linguo_cli.conformance import golden
from linguo_cli.conformance import schema_copy as golden_schemas
from linguo_cli.core import ruleset as rulesets

from ..conftest import ROOT

SUITE = ROOT / "golden" / "novence-eternal"
SCHEMAS = ROOT / "linguo_cli" / "rulesets" / "novence_eternal" / "schemas"
LOADED = golden.load_suite(SUITE)
CASES = LOADED.cases
CATALOG = golden.load_catalog(SUITE)
CITED = {x for c in CASES for x in (*c.examples, *c.rules)}


def test_the_suite_is_the_installed_rulesets() -> None:
    assert golden.suite_dir("novence-eternal").resolve() == SUITE.resolve()
    assert {p.split("/")[0] for p in LOADED.files} >= {"attack", "dc_effect", "modifiers"}
    assert not LOADED.problems, "\n".join(str(d) for d in LOADED.problems)


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_case(case: golden.Case) -> None:
    assert case.ruleset == "novence-eternal"
    assert case.rules and all(r[0] == "N" for r in case.rules)
    outcome = golden.run_case(case)
    assert outcome.passed, "\n".join(outcome.lines())


@pytest.mark.parametrize("case", [c for c in CASES if c.expect is not None],
                         ids=[c.test_id for c in CASES if c.expect is not None])
def test_cited_rules_appear_in_the_result(case: golden.Case) -> None:
    reply = golden.run_in_process(case.request)
    assert reply.result is not None, reply.message
    assert set(case.rules) <= set(reply.result["rules"]), (case.rules, reply.result["rules"])


ENTRIES = {**{f"EXAMPLES.yaml::{k}": v for k, v in CATALOG.examples.items()},
           **{f"RULES.yaml::{k}": v for k, v in CATALOG.rules.items()}}


@pytest.mark.parametrize("item", list(ENTRIES))
def test_covered_or_declared_pending(item: str) -> None:
    """Every catalog entry is cited by a case, or says why not (``pending``),
    never both."""
    entry, cited = ENTRIES[item], item.split("::")[1] in CITED
    assert cited != bool(entry.pending), (
        f"{item}: cited by a case and still pending" if cited
        else f"{item}: no golden case cites it and it is not declared pending")
    if entry.pending:
        assert "not built yet" in entry.pending


SPEC = ROOT.parent / "shared" / "spec" / "novence-eternal"


@pytest.mark.skipif(not (SPEC / "RULINGS.md").is_file(), reason="no rulings beside the repo")
def test_the_catalogs_list_every_rule_and_example_of_the_spec() -> None:
    """The catalogs hide no gap: every rule ID of RULINGS.md and every NE/NG
    example of WORKED_EXAMPLES.md is listed (covered or pending)."""
    import re

    rulings = (SPEC / "RULINGS.md").read_text(encoding="utf-8")
    examples = (SPEC / "WORKED_EXAMPLES.md").read_text(encoding="utf-8")
    rule_ids = set(re.findall(r"^- \*\*(N[A-Z]\d+)\b", rulings, re.MULTILINE))
    example_ids = set(re.findall(r"^- \*\*(N[EG]-\d\d)\*\*", examples, re.MULTILINE))
    assert len(rule_ids) > 100 and len(example_ids) > 100
    assert rule_ids == set(CATALOG.rules)
    assert example_ids == set(CATALOG.examples)


def test_golden_check_is_clean_and_complete() -> None:
    report = golden.check_suite(SUITE)
    assert report.ok, "\n".join(str(d) for d in report.problems)
    assert CATALOG.version == 1
    assert all(r.startswith("N") for r in CATALOG.rules)
    assert all(e[:3] in ("NE-", "NG-") for e in CATALOG.examples)


def test_the_suite_copy_of_the_schemas_is_current() -> None:
    diff = golden_schemas.differences(SCHEMAS, SUITE / "schemas")
    assert not diff, ("golden/novence-eternal/schemas/ differs from the ruleset's schemas/ "
                      f"(run python -m linguo_cli.conformance.schema_copy): {diff}")


def _validator(kind: str) -> Any:
    schema = json.loads((SCHEMAS / "results" / f"{kind}.result.schema.json")
                        .read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_there_is_a_result_schema_per_kind() -> None:
    names = {p.name for p in (SCHEMAS / "results").glob("*.result.schema.json")}
    kinds = rulesets.get("novence-eternal").kinds
    assert names == {f"{k}.result.schema.json" for k in kinds}


@pytest.mark.parametrize("kind", ["attack", "dc_effect", "modifiers", "script", "turn_start",
                                  "event"])
def test_results_fit_the_result_schema_of_their_kind(kind: str) -> None:
    validator = _validator(kind)
    cases = [c for c in CASES if c.request.get("kind") == kind and c.expect is not None]
    assert cases
    for case in cases:
        reply = golden.run_in_process(case.request)
        assert reply.result is not None, reply.message
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator.iter_errors(reply.result)]
        assert not errors, f"{case.test_id}: {errors[:3]}"
