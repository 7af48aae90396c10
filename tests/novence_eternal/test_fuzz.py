"""Fuzzing over the request schemas of the installed rulesets other than
Linguomancy (Novence Eternal first): requests generated from each kind's
own schema are validated and resolved with seeded dice (only a LinguoError
escapes; a result replays from its faces), and mutated request texts are
refused with exit 3 and a place, never a traceback (bounded for CI, as
``tests/linguomancy/test_fuzz.py``)."""

from __future__ import annotations

import json

import pytest

from .. import fuzzing
from ..conftest import run_cli

#: The rulesets fuzzed here (fuzzing.other_ruleset_kinds lists every installed
#: one; PTR 2e's schemas are left to its own tests).
KINDS = [(r, k) for r, k in fuzzing.other_ruleset_kinds() if r == "novence-eternal"]
NOVENCE = [k for _, k in KINDS]


def test_every_novence_kind_is_fuzzed() -> None:
    assert {"attack", "dc_effect", "modifiers", "heal", "thp", "ko_roll", "stabilize", "rest",
            "resurrect"} <= set(NOVENCE)


@pytest.mark.parametrize(("ruleset", "kind"), KINDS, ids=[f"{r}/{k}" for r, k in KINDS])
def test_generated_requests_resolve_cleanly(ruleset: str, kind: str) -> None:
    fuzzing.fuzz_generated_requests(ruleset, kind, max_examples=10)


@pytest.mark.parametrize(("ruleset", "kind"), KINDS, ids=[f"{r}/{k}" for r, k in KINDS])
def test_mutated_requests_are_refused_with_a_place(ruleset: str, kind: str) -> None:
    fuzzing.fuzz_mutated_requests(ruleset, kind, max_examples=8)


@pytest.mark.parametrize("kind", NOVENCE)
def test_a_request_with_a_wrong_field_is_exit_3_with_its_place(kind: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Through the command line: a Novence request of each kind whose fields
    are all wrong types is one ``linguo: error:`` line per problem, each with
    ``file:line:col``, exit 3."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"ruleset": "novence-eternal", "kind": kind, "targets": 5,
                                "actor": [], "target": 7, "options": {"no_such_option": 1}},
                               indent=1))
    run = run_cli("resolve", str(path))
    assert run.exit_code == 3, run.stdout + run.stderr
    lines = run.stderr.strip().splitlines()
    assert lines and "Traceback" not in run.stderr
    assert all(line.startswith("linguo: error: ") and f"{path}:" in line for line in lines), (
        run.stderr)


def _damage_request(kind: str, **more: object) -> dict[str, object]:
    enemy = {"kind": "enemy", "hp": 5, "max_hp": 5}
    if kind == "attack":
        return {"ruleset": "novence-eternal", "kind": "attack",
                "attacker": {"kind": "player", "hp": 1, "max_hp": 1, **more},
                "target": enemy, "weapon": {"name": "w", "kind": "melee", "damage": [
                    {"dice": "1000d1000", "type": "kinetic"}]}}
    return {"ruleset": "novence-eternal", "kind": "dc_effect", "dc": 10, "save": "DEX",
            "on_success": "half", "damage": [{"dice": "1000d1000", "type": "fire"}],
            "targets": [{"target": {**enemy, "id": f"t{i}"}} for i in range(101)], **more}


@pytest.mark.parametrize(("request_", "refused"), [
    (_damage_request("attack", crr=-1000000), True),     # 1000 x (50000 + 2) sets
    (_damage_request("attack", crr=-1960), False),       # 1000 x (98 + 2) = 100,000
    (_damage_request("attack", crr=-1980), True),        # 1000 x 101
    (_damage_request("dc_effect", options={"aoe_damage_roll": "per_target"}), True),
])
def test_damage_faces_are_bounded_before_any_die(request_: dict[str, object], refused: bool,
                                                 tmp_path) -> None:  # type: ignore[no-untyped-def]
    """NO1 step 11 and NO2 step 1 roll at most 100,000 damage faces: more is
    exit 3 (bad_input) at the damage, before any die, never a long run."""
    from linguo_cli.core import requests
    from linguo_cli.core.dice import ScriptedDice
    from linguo_cli.core.errors import DiceError, InputError

    try:
        requests.resolve(request_, ScriptedDice([]))
    except InputError as exc:
        assert refused and "100,000 faces" in str(exc)
    except DiceError:        # faces ran out: it got to the dice, so it was not refused
        assert not refused
    else:
        raise AssertionError("no face was given, yet it resolved")
