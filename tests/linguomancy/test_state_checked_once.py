"""A state file is checked once per command (issue 16): the request around
it is checked with a stand-in state, which gives the same errors, and its
entities are read once by the semantic checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from linguo_cli.core.errors import InputError
from linguo_cli.io.document import Document
from linguo_cli.rulesets.linguomancy import state as state_mod
from linguo_cli.rulesets.linguomancy.commands.state import (
    load_state,
    validate_with_checked_state,
)
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

from ..conftest import ROOT, run_cli

#: Top-level keywords whose errors never show the whole request (so never its state).
SAFE_TOP = {"$schema", "$id", "$defs", "title", "description", "type", "required",
            "additionalProperties", "properties"}


def kinds_with_state() -> list[str]:
    return [name for name in SCHEMAS.names() if name.endswith("-request")
            and "state" in SCHEMAS.schema(name).get("properties", {})]


def test_every_kind_with_a_state_refers_to_the_state_schema_for_it() -> None:
    names = kinds_with_state()
    assert {"turn-request", "cast-request", "damage-request", "heal-request",
            "rest-request", "temp_hp-request", "death_save-request"} <= set(names)
    for name in names:
        schema = SCHEMAS.schema(name)
        prop = {k: v for k, v in schema["properties"]["state"].items() if k != "description"}
        assert prop == {"$ref": "urn:linguo:state"}, name
        assert set(schema) <= SAFE_TOP, (name, set(schema) - SAFE_TOP)


def test_the_stand_in_state_is_a_valid_state() -> None:
    SCHEMAS.validate(Document("stand-in", {"entities": []}), "state")


def state_of(n: int) -> dict[str, Any]:
    return {"round": 2, "entities": [
        {"id": f"e{i}", "kind": "enemy", "hp": 5 + i, "max_hp": 50} for i in range(n)]}


@pytest.mark.parametrize("request_", [
    {"kind": "turn", "turns": [{"entity": "e0", "steps": [{"kind": "teleport"}]}]},
    {"kind": "turn", "turns": "all", "extra": 1},
    {"kind": "damage", "tick": "moderate", "targets": ["e0"], "dice": "2d6",
     "ability": "potency"},
    {"kind": "heal", "targets": [], "tick": "nope"},
    {"kind": "rest", "rest": "long", "targetz": ["e0"]},
    {"kind": "cast", "caster": "e0"},
])
def test_stand_in_gives_the_errors_of_the_whole_request(request_: dict[str, Any]) -> None:
    whole = {**request_, "state": state_of(30)}
    with pytest.raises(InputError) as real:
        SCHEMAS.validate(Document("<options>", whole), "request")
    with pytest.raises(InputError) as stand_in:
        validate_with_checked_state(dict(request_))
    assert [str(d) for d in stand_in.value.diagnostics] == \
        [str(d) for d in real.value.diagnostics]


def test_a_turn_checks_each_entity_of_its_state_once(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    problems = state_mod._entity_problems

    def counting(e: Any, raw: Any, known_ids: Any) -> Any:
        seen.append(e.id)
        return problems(e, raw, known_ids)

    monkeypatch.setattr(state_mod, "_entity_problems", counting)
    st = tmp_path / "state.json"
    st.write_text(json.dumps(state_of(40)), encoding="utf-8")
    turns = tmp_path / "turns.json"
    turns.write_text(json.dumps({"turns": [{"entity": "e0", "steps": [
        {"kind": "drop_prone"}, {"kind": "end_turn"}]}]}), encoding="utf-8")
    r = run_cli("turn", str(st), str(turns), "-o", str(tmp_path / "out.json"))
    assert r.exit_code == 0, r.stderr
    assert sorted(seen) == sorted(f"e{i}" for i in range(40))


def test_checked_entities_are_those_of_the_state_and_dropped_when_it_changes() -> None:
    doc = load_state(str(ROOT / "examples" / "state.yaml"))
    try:
        got = state_mod.checked_entities(doc)
        assert got == state_mod.entities_of(doc) and got
        doc.snapshot()  # the tree is about to change: what was checked no longer holds
        assert doc.checked == {}
    finally:
        doc.release()
