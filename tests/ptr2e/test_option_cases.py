"""Every alternative of every PTR 2e option has a golden case that selects
it (issue 20: the suite covers each option's alternative), in a request's
``options`` (or through ``preset``, for the options a preset sets)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from linguo_cli.core import ruleset
from linguo_cli.io.read import load

SUITE = Path(__file__).parents[2] / "golden" / "ptr2e"


def _selected(node: Any, out: set[tuple[str, str]]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("options"), dict):
            out.update((k, json.dumps(v)) for k, v in node["options"].items())
        for v in node.values():
            _selected(v, out)
    elif isinstance(node, list):
        for v in node:
            _selected(v, out)


def test_every_option_alternative_has_a_case() -> None:
    table = ruleset.get("ptr2e").option_table()
    selected: set[tuple[str, str]] = set()
    for path in sorted(SUITE.rglob("*.yaml")):
        if path.name not in ("RULES.yaml", "EXAMPLES.yaml"):
            _selected(load(str(path)).data, selected)
    by_preset = {(name, json.dumps(value)) for option in table.options.values()
                 if option.name == "preset" for alt in option.alternatives
                 if ("preset", json.dumps(alt)) in selected
                 for name, value in (option.sets.get(alt) or {}).items()}
    missing = [f"{o.name}={alt}" for o in table.options.values() for alt in o.alternatives
               if (o.name, json.dumps(alt)) not in selected | by_preset]
    assert table.options and not missing, missing
