"""The party and travel (NP1-NP4) one rule at a time, and the commands
``linguo novence ultimate | meditate | traverse | party-check`` (with
``--state FILE``). Expected values are worked by hand from the rulings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linguo_cli.core.derivation import Derivation
from linguo_cli.rulesets.novence_eternal.model import Refusal
from linguo_cli.rulesets.novence_eternal.party import (
    Control,
    bank_gain,
    check_purchase,
    check_roster,
    distance_change,
    traversal,
)

from ..conftest import run_cli

#: NP1's table as the rulings write it, row by row.
TABLE = [((20,), "special_location"), ((19,), "fast_travel"), ((17, 18), "friendly_encounter"),
         ((15, 16), "good_weather"), ((13, 14), "materials"), (tuple(range(7, 13)), "nothing"),
         ((5, 6), "bad_weather"), ((3, 4), "hostile_encounter"), ((2,), "forced_rest_day"),
         ((1,), "cryptid")]


@pytest.mark.parametrize(("faces", "outcome"), TABLE)
def test_traversal_table_np1(faces: tuple[int, ...], outcome: str) -> None:
    for face in faces:
        t = traversal(face, Derivation())
        assert (t.outcome, t.regional_exclusive) == (outcome, face == 14)


def test_traversal_face_outside_the_d20() -> None:
    with pytest.raises(ValueError):
        traversal(21, Derivation())


def test_weather_np2() -> None:
    assert distance_change("good_weather", 500) == 500
    assert distance_change("bad_weather", 300) == -300
    assert distance_change("nothing", 300) == 0


def _controls(*items: str) -> list[Control]:
    out = []
    for item in items:
        player, character, own = item.split(":")
        out.append(Control(character, player, own == "own"))
    return out


@pytest.mark.parametrize(("players", "roster", "code"), [
    (["P1"], ["P1:A:own", "P1:B:", "P1:C:"], "control_count"),
    (["P1", "P2"], ["P1:A:own"], "control_count"),
    (["P1"], ["P1:A:own", "P1:B:own"], "own_pc_twice"),
    ([f"P{i}" for i in range(6)], [f"P{i}:{c}{i}:" for i in range(6) for c in "AB"][:11],
     "roster_full"),
])
def test_roster_refusals_np3(players: list[str], roster: list[str], code: str) -> None:
    with pytest.raises(Refusal) as info:
        check_roster(players, _controls(*roster), Derivation())
    assert (info.value.refusal, info.value.rule) == (code, "NP3")


def test_roster_legal_np3() -> None:
    check_roster(["P1", "P2"], _controls("P1:A:own", "P1:B:", "P2:C:own"), Derivation())
    players = [f"P{i}" for i in range(5)]
    check_roster(players, _controls(*[f"P{i}:{c}{i}:" for i in range(5) for c in "AB"]),
                 Derivation())  # exactly 10


def test_bank_and_purchase_np4() -> None:
    assert bank_gain(230, 5, Derivation()) == 730  # NE-03
    assert bank_gain(0, 0, Derivation()) == 0
    check_purchase(False, False, Derivation())
    check_purchase(True, True, Derivation())
    with pytest.raises(Refusal) as info:
        check_purchase(True, False, Derivation())
    assert (info.value.refusal, info.value.rule) == ("purchase_unapproved", "NP4")


# ---------------------------------------------------------------------------
# Commands


def test_ultimate_command() -> None:
    # NG-54 (c): Starfall at UP 65, ZP 81: UP 0, ZP 93, level IX -> X
    run = run_cli("novence", "ultimate", "--name", "Starfall", "--cost", "60", "--ult-zp", "12",
                  "--min-level", "5", "--up", "65", "--zp", "81")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[0] == ("actor casts Starfall: UP 65 -> 0; ZP 81 -> 93; "
                                          "Zenith level 9 -> 10")
    run = run_cli("novence", "ultimate", "--name", "Nova", "--cost", "70", "--up", "65")
    assert run.exit_code == 4 and "up_insufficient" in run.stderr
    run = run_cli("novence", "ultimate", "--name", "Nova", "--cost", "0", "--used")
    assert run.exit_code == 4 and "ultimate_used" in run.stderr
    assert run_cli("novence", "ultimate", "--name", "Nova").exit_code == 2


def test_meditate_command_and_option() -> None:
    # ZP 30 (III): d4 2 + 1 = 3: UP 50 -> 53
    run = run_cli("novence", "meditate", "--up", "50", "--zp", "30", "--rolls", "d4:2")
    assert run.exit_code == 0, run.stderr
    assert "UP gain: d4 2 + 1: UP +3 = 53" in run.stdout
    run = run_cli("novence", "meditate", "--zp", "63", "--rolls", "3,2", "--json", "--option",
                  "zenith_bonus_mode=highest_per_track")
    assert json.loads(run.stdout)["up_gain"]["gained"] == 5  # VII: 3 + 2, no +1
    run = run_cli("novence", "meditate", "--option", "meditate_scope=one", "--rolls", "2")
    assert run.exit_code == 3


def test_commands_read_a_state_file(tmp_path: Path) -> None:
    state = {"zp": 63, "catalogs": {"conditions": {"Fear": {"mental": True, "save_ability": "WIS"}},
                                    "ultimates": {"Nova": {"cost": 20, "zp": 18}}},
             "combatants": [{"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20, "up": 20,
                             "conditions": [{"name": "Fear", "stacks": 2}]}]}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    # VII: d4 4 + 1 + d4 1 = 6: UP 26; Fear 2 -> 1
    run = run_cli("novence", "meditate", "--state", str(path), "--actor", "ayla", "--rolls",
                  "4,1", "--json")
    assert run.exit_code == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["state"]["combatants"][0]["up"] == 26
    assert result["debuffs"] == [{"name": "Fear", "stacks_before": 2, "stacks_after": 1,
                                  "save": None}]
    # Nova (cost 20) at UP 20 and ZP 63: UP 0, ZP 63 + 18 = 81: level VII -> IX
    run = run_cli("novence", "ultimate", "--state", str(path), "--actor", "ayla", "--name",
                  "Nova", "--json")
    result = json.loads(run.stdout)
    assert (result["zp_after"], result["level_before"], result["level_after"]) == (81, 7, 9)
    run = run_cli("novence", "meditate", "--state", str(path), "--actor", "nobody")
    assert run.exit_code == 3 and "request actor" in run.stderr


def test_traverse_command() -> None:
    run = run_cli("novence", "traverse", "--rolls", "14")
    assert run.stdout.splitlines()[0] == "Traversal d20 14: materials (regional exclusive)"
    run = run_cli("novence", "traverse", "--weather-feet", "300", "--rolls", "5")
    assert "distance -300 ft" in run.stdout
    follow = json.dumps({"cryptid": {"character": {"kind": "enemy", "hp": 20, "max_hp": 30,
                                                   "stats": {"STR": 1}}, "stat": "STR",
                                     "dc": 15, "damage": 6}})
    run = run_cli("novence", "traverse", "--follow-ups", follow, "--rolls", "1,10")
    assert "check 11 against DC 15: failure; 6 damage" in run.stdout
    assert "character: HP 14 / 30" in run.stdout
    assert run_cli("novence", "traverse", "--follow-ups", "{", "--rolls", "1").exit_code == 2


def test_party_check_command() -> None:
    run = run_cli("novence", "party-check", "--control", "P1=A:own", "--control", "P1=B",
                  "--control", "P2=C:own", "--bank", "230", "--attending", "5")
    assert run.exit_code == 0 and run.stdout.strip() == "legal party of 3; bank 230 -> 730 gp"
    run = run_cli("novence", "party-check", "--control", "P1=A:own", "--player", "P2")
    assert run.exit_code == 4 and "control_count" in run.stderr
    run = run_cli("novence", "party-check", "--control", "P1=A:own", "--purchase-for-one",
                  "--json")
    assert run.exit_code == 4
    assert json.loads(run.stdout)["error"]["code"] == "purchase_unapproved"
    assert run_cli("novence", "party-check", "--control", "P1").exit_code == 2
