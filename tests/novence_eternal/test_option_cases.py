"""Every alternative of every Novence Eternal option has a golden case that
selects it (issue 19: "a case for every option's alternative"), in the
``options`` of a request or of its state, unless it stands in
:data:`PENDING` with the reason it cannot have one yet (the request kind
or the part of the rules it needs is not built). The gap stays visible in
one place: a pending alternative that gains a case must leave the list, so
the list only ever shrinks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from linguo_cli.io.read import load
from linguo_cli.rulesets.novence_eternal.options import OPTION_ROWS

SUITE = Path(__file__).parents[2] / "golden" / "novence-eternal"


#: "name=value" (the value in JSON) -> why no case selects it yet.
PENDING: dict[str, str] = {
}


def _selected(node: Any, out: set[str]) -> None:
    """Every ``name=value`` an ``options`` object under ``node`` sets."""
    if isinstance(node, dict):
        if isinstance(node.get("options"), dict):
            out.update(f"{k}={json.dumps(v)}" for k, v in node["options"].items())
        for v in node.values():
            _selected(v, out)
    elif isinstance(node, list):
        for v in node:
            _selected(v, out)


def _cases_select() -> set[str]:
    selected: set[str] = set()
    for path in sorted(SUITE.rglob("*.yaml")):
        if path.name not in ("RULES.yaml", "EXAMPLES.yaml"):
            for case in load(str(path)).data["cases"]:
                _selected(case["request"], selected)
    return selected


def _alternatives() -> list[str]:
    return [f"{row.name}={json.dumps(alt)}" for row in OPTION_ROWS for alt in row.alternatives]


def test_every_option_alternative_has_a_case_or_a_reason() -> None:
    selected = _cases_select()
    missing = [a for a in _alternatives() if a not in selected and a not in PENDING]
    assert len(OPTION_ROWS) == 86 and not missing, (
        f"{len(missing)} option alternatives have no golden case and no PENDING reason: "
        + ", ".join(missing))


def test_a_pending_alternative_with_a_case_leaves_the_list() -> None:
    selected = _cases_select()
    covered = sorted(a for a in PENDING if a in selected)
    assert not covered, f"these now have a case; remove them from PENDING: {covered}"


def test_pending_names_only_real_alternatives() -> None:
    unknown = sorted(set(PENDING) - set(_alternatives()))
    assert not unknown, f"PENDING names no alternative of the Options table: {unknown}"
