"""The damage, heal, temp-hp and death-save commands and their requests
through ``linguo resolve``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..conftest import ROOT, run_cli

STATE = """\
# encounter state
entities:
- id: ayla      # the hero
  kind: player
  hp: 10
  max_hp: 15
  temp_hp: 8
- id: goblin
  kind: enemy
  hp: 10
  max_hp: 15
  resistances: [fire]
"""


@pytest.fixture
def state(tmp_path: Path) -> Path:
    p = tmp_path / "state.yaml"
    p.write_text(STATE, encoding="utf-8")
    return p


def test_acceptance_crit_json() -> None:
    r = run_cli("damage", "--tick", "strong", "--dice", "4d6", "--mod", "potential=2", "--crit",
                "--rolls", "3,3,4,6,1,2,5,6", "--json")
    assert r.exit_code == 0, r.stderr
    out = r.json()
    assert out["amount"] == 34
    assert out["dice_total"] == 30 and out["ability_modifier"] == 2 and out["multiplier"] == 2
    assert out["rolled_dice"] == "4d6+4d6" and out["rolls_used"] == [3, 3, 4, 6, 1, 2, 5, 6]


def test_acceptance_nonconforming_exit_4() -> None:
    r = run_cli("damage", "--tick", "low", "--dice", "3d6")
    assert r.exit_code == 4
    assert "T3" in r.stderr and "21/2" in r.stderr and "4-8" in r.stderr
    assert r.stdout == ""


def test_allow_nonconforming_warns() -> None:
    r = run_cli("damage", "--tick", "low", "--dice", "3d6", "--allow-nonconforming",
                "--rolls", "1,2,3")
    assert r.exit_code == 0
    assert "6" in r.stdout and "warning" in r.stdout


def test_text_and_explain() -> None:
    r = run_cli("damage", "--tick", "Strong", "--dice", "4d6", "--mod", "potential=2",
                "--mod", "bless=1", "--rolls", "1,2,3,4", "--explain")
    assert r.exit_code == 0, r.stderr
    assert "= 15" in r.stdout  # 10 + 2 x 2 + 1
    assert "[T4]" in r.stdout and "[T3]" in r.stdout


def test_one_off_heal_with_cohesion() -> None:
    r = run_cli("heal", "--tick", "moderate", "--dice", "2d10", "--mod", "cohesion=2",
                "--rolls", "3,9", "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["amount"] == 14 and r.json()["ability"] == "cohesion"


@pytest.mark.parametrize("args", [
    ["damage", "--tick", "low", "--dice", "2d6", "--target", "a"],
    ["damage", "--tick", "low", "--dice", "2d6", "--in-place"],
    ["damage", "--tick", "low", "--dice", "2d6", "--rolls", "1,2", "--seed", "3"],
    ["damage", "--tick", "low", "--dice", "2d6", "--rolls", "x"],
    ["damage", "--dice", "2d6"],
])
def test_usage_errors(args: list[str]) -> None:
    r = run_cli(*args)
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(("args", "needle"), [
    (["--tick", "lwo", "--dice", "2d6"], "did you mean 'low'"),
    (["--tick", "low", "--dice", "2d6", "--type", "fier"], "did you mean 'fire'"),
    (["--tick", "low", "--dice", "2d6+"], "column 5"),
])
def test_invalid_input_exit_3(args: list[str], needle: str) -> None:
    r = run_cli("damage", *args)
    assert r.exit_code == 3
    assert needle in r.stderr


def test_scripted_faces_must_all_be_used() -> None:
    assert run_cli("damage", "--tick", "low", "--dice", "2d6", "--rolls", "1,2,3").exit_code == 3
    assert run_cli("damage", "--tick", "low", "--dice", "2d6", "--rolls", "1").exit_code == 3


def test_state_to_stdout_keeps_comments(state: Path) -> None:
    r = run_cli("damage", "--tick", "major", "--dice", "5d8", "--state", str(state),
                "--target", "ayla", "--target", "goblin", "--type", "fire",
                "--rolls", "6,6,6,6,6")
    assert r.exit_code == 0, r.stderr
    assert "# encounter state" in r.stdout and "# the hero" in r.stdout
    assert "starts_dying" in r.stderr  # the result goes to stderr
    assert state.read_text(encoding="utf-8") == STATE  # untouched


def test_state_json_acceptance(state: Path) -> None:
    # 30 damage: ayla's 8 temporary HP absorb 8, 22 reach HP 10, leftover 12 < 15: Dying.
    # goblin (fire resistance): 15, HP 10 -> 0, leftover 5: dies at 0 HP.
    r = run_cli("damage", "--tick", "major", "--dice", "5d8", "--state", str(state),
                "--target", "ayla", "--target", "goblin", "--type", "fire",
                "--rolls", "6,6,6,6,6", "--json")
    assert r.exit_code == 0, r.stderr
    out = r.json()
    ayla, goblin = out["entities"]["ayla"], out["entities"]["goblin"]
    assert ayla["before"]["hp"] == 10 and ayla["after"]["hp"] == 0
    assert ayla["after"]["dead"] is False and ayla["events"] == ["falls_unconscious",
                                                                  "starts_dying"]
    assert goblin["after"]["dead"] is True and goblin["damage_after_resistance"] == 15
    assert [e["id"] for e in out["state"]["entities"]] == ["ayla", "goblin"]


def test_output_file(state: Path, tmp_path: Path) -> None:
    out = tmp_path / "new.yaml"
    r = run_cli("heal", "--tick", "tiny", "--dice", "1d4", "--state", str(state), "--target",
                "ayla", "--rolls", "4", "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert "HP 10 -> 14" in r.stdout
    assert "hp: 14" in out.read_text() and "# the hero" in out.read_text()
    assert state.read_text() == STATE


def test_temp_hp_and_death_save_commands(state: Path) -> None:
    r = run_cli("temp-hp", str(state), "--target", "ayla", "--amount", "5", "--keep", "new",
                "--in-place", "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["entities"]["ayla"]["after"]["temp_hp"] == 5
    assert "temp_hp: 5" in state.read_text()
    # ayla is not Dying: refused, file untouched
    before = state.read_text()
    r = run_cli("death-save", str(state), "--entity", "ayla", "--rolls", "12", "--in-place")
    assert r.exit_code == 4 and "H6" in r.stderr
    assert state.read_text() == before
    run_cli("damage", "--tick", "major", "--dice", "5d8", "--state", str(state), "--target",
            "ayla", "--rolls", "3,3,3,3,3", "--in-place")  # 15: 5 temp, 10 HP -> Dying
    r = run_cli("death-save", str(state), "--entity", "ayla", "--rolls", "1", "--in-place",
                "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["outcome"] == "two_failures"
    assert "failures: 2" in state.read_text()


def test_unknown_target_suggests(state: Path) -> None:
    r = run_cli("damage", "--tick", "low", "--dice", "2d6", "--state", str(state), "--target",
                "goblni", "--rolls", "1,1")
    assert r.exit_code == 3 and "did you mean 'goblin'" in r.stderr
    assert state.read_text() == STATE


def test_resolve_kinds(tmp_path: Path) -> None:
    req = {"kind": "temp_hp", "amount": 20, "targets": ["a"],
           "state": {"entities": [{"id": "a", "kind": "player", "hp": 5, "max_hp": 9,
                                   "temp_hp": 13}]}}
    p = tmp_path / "req.json"
    p.write_text(json.dumps(req))
    r = run_cli("resolve", str(p), "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["entities"]["a"]["after"]["temp_hp"] == 20
    req["keeep"] = "old"
    p.write_text(json.dumps(req))
    r = run_cli("resolve", str(p))
    assert r.exit_code == 3 and "did you mean 'keep'" in r.stderr


def test_example_state_is_valid() -> None:
    r = run_cli("damage", "--tick", "low", "--dice", "2d6", "--type", "fire", "--state",
                str(ROOT / "examples" / "state.yaml"), "--target", "goblin", "--target",
                "elemental", "--rolls", "2,3", "--json")
    assert r.exit_code == 0, r.stderr
    ents = r.json()["entities"]
    assert ents["goblin"]["after"]["dead"] is True  # vulnerable: 10 >= 7 HP
    assert ents["elemental"]["after"]["hp"] == 40  # immune


def test_state_unknown_damage_type_and_field_suggest(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("entities:\n- id: gob\n  kind: enemy\n  hp: 5\n  max_hp: 7\n"
                   "  resistances: [fier]\n  temp_hpp: 3\n", encoding="utf-8")
    r = run_cli("damage", "--tick", "low", "--dice", "2d6", "--state", str(bad), "--target",
                "gob", "--rolls", "1,1", "--in-place")
    assert r.exit_code == 3
    lines = r.stderr.strip().splitlines()
    assert any(":6:" in ln and "did you mean 'fire'" in ln for ln in lines), r.stderr
    assert any(":7:3:" in ln and "unknown field 'temp_hpp'" in ln
               and "did you mean 'temp_hp'" in ln for ln in lines), r.stderr
    assert "temp_hpp: 3" in bad.read_text()  # untouched


def test_text_view_shows_the_parts_and_what_resistance_did() -> None:
    state = str(ROOT / "examples" / "state.yaml")
    # the goblin of the example state is vulnerable to fire (R1): 2d6 = 3 + 4 = 7, doubled to 14
    r = run_cli("damage", "--tick", "low", "--dice", "2d6", "--type", "fire", "--state", state,
                "--target", "goblin", "--rolls", "3,4", "--json")
    assert r.exit_code == 0
    assert r.json()["entities"]["goblin"]["damage_after_resistance"] == 14
    text = run_cli("damage", "--tick", "low", "--dice", "2d6", "--type", "fire", "--state", state,
                   "--target", "goblin", "--rolls", "3,4")
    assert "2d6 [3, 4] = 7" in text.stderr and "vulnerable: 7 -> 14" in text.stderr
