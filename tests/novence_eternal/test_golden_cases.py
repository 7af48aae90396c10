"""The Novence Eternal golden case files, run through this slice's engine
(``results.resolve_request``) until the ruleset is wired into the suite
runner. Expected values in the files are hand-worked; this only checks that
the engine agrees with them and that every case cites NE/NG IDs and rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from linguo_cli.conformance.golden import compare
from linguo_cli.core.error_object import error_object, expectation
from linguo_cli.core.errors import LinguoError
from linguo_cli.rulesets.novence_eternal.results import resolve_request

SUITE = Path(__file__).resolve().parents[2] / "golden" / "novence-eternal"
FILES = sorted(SUITE.rglob("*.yaml"))


def _cases() -> list[Any]:
    out = []
    for path in FILES:
        doc = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        for case in doc["cases"]:
            out.append(pytest.param(case, id=f"{path.relative_to(SUITE)}::{case['id']}"))
    return out


def test_the_suite_has_files() -> None:
    assert {p.parent.name for p in FILES} >= {"attack", "modifiers"}


@pytest.mark.parametrize("case", _cases())
def test_case(case: dict[str, Any]) -> None:
    request = case["request"]
    assert request["ruleset"] == "novence-eternal"
    assert case["rules"] and all(r[0] == "N" for r in case["rules"])
    if "expect_error" in case:
        with pytest.raises(LinguoError) as exc:
            resolve_request(request)
        got = error_object(exc.value)
        want = expectation(case["expect_error"])
        assert {k: got[k] for k in want} == want
        return
    result = resolve_request(request)
    mismatches = compare(case["expect"], result)
    assert not mismatches, [str(m) for m in mismatches]
    assert set(case["rules"]) <= set(result["rules"]), (case["rules"], result["rules"])
