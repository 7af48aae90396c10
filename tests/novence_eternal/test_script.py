"""The ``script`` request (NV4), its budget (NT4-NT7), its places (NV6) and
``linguo novence script`` (all or nothing, atomic write-back).

Expected numbers are worked by hand in each test's comment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.errors import InputError
from linguo_cli.io.document import Document
from linguo_cli.rulesets.novence_eternal.documents import NamedFaces
from linguo_cli.rulesets.novence_eternal.model import Refusal
from linguo_cli.rulesets.novence_eternal.script.budget import Budget, aa_count
from linguo_cli.rulesets.novence_eternal.script.documents import ScriptError
from linguo_cli.rulesets.novence_eternal.script.steps import move_roll_hook
from linguo_cli.rulesets.novence_eternal.script.timing import up_gain_hook
from linguo_cli.rulesets.novence_eternal.script.world import World
from linguo_cli.rulesets.novence_eternal.validation import SCHEMAS

from ..conftest import run_cli

CLUB = {"kind": "melee", "to_hit": 0, "stat": "STR",
        "damage": [{"dice": "1d6", "type": "bludgeoning"}]}
STATE = {"round": 1, "turns_taken": [], "initiative": ["a", "b"], "combatants": [
    {"id": "a", "kind": "ally", "stats": {"CON": 2}, "hp": 20, "max_hp": 20},
    {"id": "b", "kind": "enemy", "hp": 20, "max_hp": 20, "equipped": "club",
     "weapons": {"club": CLUB}}]}
ROUNDS = [{"turns": [{"actor": "a", "steps": [{"kind": "prepare", "charge": "guard"}]},
                     {"actor": "b", "steps": [{"kind": "attack", "target": "a"}]}]}]
ROLLS = ["d20:15", "d20:4", "d20:9", "d6:5"]


def _script(rounds: list[Any], rolls: list[Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"ruleset": "novence-eternal", "kind": "script", "state": STATE, "rounds": rounds,
            "rolls": ROLLS if rolls is None else rolls, **extra}


def _resolve(request: dict[str, Any]) -> dict[str, Any]:
    SCHEMAS.validate(Document("<request>", request), "request")
    result: dict[str, Any] = requests.resolve(request)
    return result


@pytest.mark.parametrize(("tiers", "aa"), [([], 1), ([1], 1), ([1, 2], 2), ([1, 2, 3], 3),
                                           ([3], 2)])
def test_aa_per_class_tier(tiers: list[int], aa: int) -> None:
    # NT4: 1 AA, +1 for a Tier-2 class, +1 for a Tier-3 class.
    assert aa_count({"class_tiers": tiers}) == aa


def test_the_budget_pays_ta_then_aa_as_ta_and_refuses_beyond() -> None:
    b = Budget(1, 1)
    b.start_step()
    assert b.pay_ta() == "ta" and b.pay_ta() == "aa"      # NT5: an AA spent as a TA
    with pytest.raises(Refusal) as e:
        b.pay_ta()
    assert e.value.refusal == "budget_ta" and e.value.rule == "NT4"
    with pytest.raises(Refusal) as e:
        Budget(1, 0).pay_aa(1)
    assert e.value.refusal == "budget_aa"
    with pytest.raises(Refusal) as e:
        Budget(1, 1).pay_aa(1, "ta")                     # NT5: the TA never pays an AA
    assert e.value.refusal == "ta_as_aa" and e.value.rule == "NT5"


def test_a_refusal_names_its_place() -> None:
    # NV6: round 1, turn 1 (a), step 2: a second Legendary action in round 1.
    rounds = [{"turns": [{"actor": "a", "steps": [{"kind": "legendary"},
                                                  {"kind": "legendary"}]}]}]
    with pytest.raises(Refusal) as e:
        _resolve(_script(rounds, []))
    assert e.value.refusal == "legendary_used"
    assert "R1 turn 1 (a) step 2" in e.value.message


def test_document_faults_come_together_before_any_die() -> None:
    # NV1 hit_die of a player; NV4 a second turn of b in round 1; NV2 no Bleed tick for
    # the ogre's melee Aim (a slashing sword): three faults, one error.
    state = {"combatants": [
        {"id": "p", "kind": "player", "hp": 10, "max_hp": 10},
        {"id": "o", "kind": "enemy", "hp": 30, "max_hp": 30, "equipped": "sword",
         "weapons": {"sword": {"kind": "melee", "stat": "STR",
                               "damage": [{"dice": "1d8", "type": "slashing"}]}}}]}
    rounds = [{"turns": [{"actor": "o", "steps": [{"kind": "aim", "target": "p"}]},
                         {"actor": "o"}]}]
    with pytest.raises(ScriptError) as e:
        _resolve({**_script(rounds, ["d20:3"]), "state": state})
    places = [d.place for d in e.value.diagnostics]
    assert places == ["state combatants.p.hit_die", "R1 turn 2 (o)",
                      "catalog conditions.Bleed.tick"]
    assert e.value.codes == ["missing_input", "bad_input", "missing_input"]


def test_the_result_state_holds_every_default_and_fits_the_state_schema() -> None:
    result = _resolve(_script(ROUNDS))
    a = result["state"]["combatants"][0]
    # NV1: every key with a value is written: defaults included.
    assert a["dead"] is False and a["stats"]["WIS"] == 0 and a["true_max_hp"] == 20
    assert a["hp"] == 16  # 5 x 4/5 after a failed Guard roll (9 + 2 = 11 <= 15)
    request = {"ruleset": "novence-eternal", "kind": "event", "state": result["state"],
               "events": []}
    assert SCHEMAS.errors(Document("<r>", request), "request") == []


def test_the_hooks_call_the_rules_built_elsewhere() -> None:
    state = {"combatants": [{"id": "a", "kind": "ally", "hp": 20, "max_hp": 20,
                             "stats": {"DEX": 3}, "ultimate_dice": 1, "up": 10}]}
    world = World.of({"state": state}, NamedFaces(["d4:3", "d20:7"]))
    gain = up_gain_hook(world, "a")                  # NU2: 1 d4, no Zenith bonus at ZP 0
    assert gain is not None and gain["faces"] == [3] and gain["up_after"] == 13
    assert world.doc("a")["up"] == 13
    move = move_roll_hook(world, "a")                # NM1: max(7, 10) + DEX 3 = 13 ft
    assert (move["face"], move["feet"]) == (7, "13")


def test_an_ultimate_the_catalogs_lack_is_refused_before_any_die() -> None:
    with pytest.raises(InputError):
        _resolve(_script([{"turns": [{"actor": "a", "steps": [
            {"kind": "ultimate", "name": "Nova"}]}]}], ["d4:1"]))


def test_a_dead_actors_turn_runs_no_turn_start() -> None:
    state = {"combatants": [{"id": "a", "kind": "ally", "hp": 0, "max_hp": 9, "dead": True,
                             "injury": 9, "charges": {"guard": 1}}]}
    result = _resolve({**_script([{"turns": [{"actor": "a"}]}], []), "state": state})
    assert result["rounds"][0]["turns"][0]["start"] is None
    assert result["state"]["combatants"][0]["charges"]["guard"] == 1  # NK12: no NO3


def _files(tmp_path: Path, rounds: list[Any]) -> tuple[Path, Path]:
    state = tmp_path / "state.yaml"
    state.write_text("# the fight\n" + json.dumps(STATE, indent=2) + "\n", encoding="utf-8")
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"rounds": rounds, "rolls": ROLLS}), encoding="utf-8")
    return state, script


def test_cli_writes_the_state_back(tmp_path: Path) -> None:
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import load

    state, script = _files(tmp_path, ROUNDS)
    run = run_cli("novence", "script", str(state), str(script), "--json")
    assert run.exit_code == 0, run.stderr
    result = run.json()
    assert result["state"]["round"] == 2
    assert state.read_text(encoding="utf-8").startswith("# the fight\n")  # comments kept
    assert to_plain(load(str(state)).data) == result["state"]  # reads back as the result


def test_cli_all_or_nothing(tmp_path: Path) -> None:
    rounds = [{"turns": [{"actor": "a", "steps": [{"kind": "legendary"},
                                                  {"kind": "legendary"}]}]}]
    state, script = _files(tmp_path, rounds)
    before = state.read_bytes()
    run = run_cli("novence", "script", str(state), str(script))
    assert run.exit_code == 4 and "R1 turn 1 (a) step 2" in run.stderr
    assert state.read_bytes() == before


def test_cli_dry_run_and_out(tmp_path: Path) -> None:
    state, script = _files(tmp_path, ROUNDS)
    before = state.read_bytes()
    assert run_cli("novence", "script", str(state), str(script), "--dry-run").exit_code == 0
    assert state.read_bytes() == before
    out = tmp_path / "after.yaml"
    run = run_cli("novence", "script", str(state), str(script), "--out", str(out), "--explain")
    assert run.exit_code == 0 and "[NO4] end of round 1" in run.stdout
    assert state.read_bytes() == before
    from linguo_cli.io.read import load

    assert load(str(out)).data["combatants"][0]["hp"] == 16
