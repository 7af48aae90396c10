"""The suite is self-contained (issue 18): every rule it cites is stated in
full in RULES.yaml, every request kind has a result schema that linguo's
results for every golden case satisfy, and the suite folder carries an
identical copy of the schemas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from linguo_cli.conformance import golden
from linguo_cli.conformance import schema_copy as golden_schemas
from linguo_cli.core import ruleset as rulesets
from linguo_cli.io.document import Document, to_plain
from linguo_cli.io.read import load
from linguo_cli.rulesets.linguomancy.state import SCHEMAS as SCHEMA_SET

from ..conftest import ROOT, run_cli

SUITE = ROOT / "golden" / "linguomancy"
SCHEMAS = ROOT / "linguo_cli" / "rulesets" / "linguomancy" / "schemas"
RESULTS = SCHEMAS / "results"
CASES = golden.load_suite(SUITE).cases


def test_every_cited_rule_has_a_full_statement() -> None:
    catalog = golden.load_catalog(SUITE)
    cited = {r for c in CASES for r in c.rules}
    assert cited, "the suite cites no rule"
    short = {r: len(catalog.rules[r].statement.split()) for r in cited
             if r in catalog.rules
             and len(catalog.rules[r].statement.split()) < golden.MIN_STATEMENT_WORDS}
    assert not short, f"rules without a full statement: {short}"
    assert cited <= set(catalog.rules)


def test_golden_check_refuses_a_rule_without_statement(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    for name in ("EXAMPLES.yaml", "RULES.yaml"):
        (suite / name).parent.mkdir(parents=True, exist_ok=True)
        (suite / name).write_text((SUITE / name).read_text(encoding="utf-8"), encoding="utf-8")
    data = to_plain(load(str(suite / "RULES.yaml")).data)
    data["rules"][3]["statement"] = "Too short."
    del data["rules"][4]["statement"]
    (suite / "RULES.yaml").write_text(json.dumps(data), encoding="utf-8")
    report = golden.check_suite(suite)
    fields = {d.field for d in report.structural_problems}
    assert "rules[3].statement" in fields and "rules[4].statement" in fields
    run = run_cli("golden", "check", str(suite))
    assert run.exit_code == 1 and "needs its full statement" in run.stdout


def _validator(kind: str) -> Any:
    schema = json.loads((RESULTS / f"{kind}.result.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_there_is_a_result_schema_per_kind() -> None:
    names = {p.name for p in RESULTS.glob("*.result.schema.json")}
    assert names == {f"{k}.result.schema.json" for k in rulesets.default().kinds}


@pytest.mark.parametrize("kind", rulesets.default().kinds)
def test_linguo_results_fit_the_result_schema_of_their_kind(kind: str) -> None:
    validator = _validator(kind)
    cases = [c for c in CASES if c.request.get("kind") == kind and c.expect is not None]
    assert cases, f"no golden case of kind {kind}"
    for case in cases:
        reply = golden.run_in_process(case.request)
        if reply.result is None:  # failing right now: other tests report it
            continue
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator.iter_errors(reply.result)]
        assert not errors, f"{case.test_id}: {errors[:3]}"


def test_a_result_schema_can_fail() -> None:
    validator = _validator("check")
    good = golden.run_in_process({"kind": "check", "dc": 10, "rolls": [12]}).result
    assert not list(validator.iter_errors(good))
    broken = dict(good)
    del broken["degree"]
    broken["success"] = "yes"
    assert len(list(validator.iter_errors(broken))) == 2


def test_the_suite_carries_an_identical_copy_of_the_schemas() -> None:
    diff = golden_schemas.differences(SCHEMAS, SUITE / "schemas")
    assert not diff, ("golden/schemas/ differs from schemas/ (run python -m "
                      f"linguo_cli.conformance.schema_copy): {diff}")


def test_schema_copy_sync_writes_and_removes(tmp_path: Path) -> None:
    src, dst = tmp_path / "src", tmp_path / "dst"
    (src / "results").mkdir(parents=True)
    (src / "a.schema.json").write_text("{}", encoding="utf-8")
    (src / "results" / "b.result.schema.json").write_text("{}", encoding="utf-8")
    (dst).mkdir()
    (dst / "old.schema.json").write_text("{}", encoding="utf-8")
    assert golden_schemas.sync(src, dst) == ["a.schema.json", "old.schema.json",
                                             "results/b.result.schema.json"]
    assert golden_schemas.differences(src, dst) == []


def test_the_schema_copy_is_no_case_file_and_is_exported(tmp_path: Path) -> None:
    assert not any(f.startswith("schemas/") for f in golden.load_suite(SUITE).files)
    out = tmp_path / "export"
    run = run_cli("golden", "export", str(out))
    assert run.exit_code == 0, run.stderr
    assert (out / "schemas" / "results" / "check.result.schema.json").is_file()
    assert (out / "RULES.json").is_file()


def test_the_case_schema_takes_an_error_object() -> None:
    def errors(expect_error: Any) -> list[str]:
        doc = Document("x.yaml", {"cases": [{
            "id": "x", "description": "a refused noun check", "rules": ["D7"],
            "request": {"kind": "check", "dc": 10, "noun": "Fire", "rolls": []},
            "expect_error": expect_error}]})
        return [d.message for d in SCHEMA_SET.errors(doc, "golden-case-file")]

    assert errors(4) == []
    assert errors({"exit": 4, "rule": "D7", "code": None}) == []
    assert errors({"exit": 4, "message": "free text"}) != []  # never compared: not written
    assert errors({"rule": "D7"}) != []
    assert errors(5) != []
