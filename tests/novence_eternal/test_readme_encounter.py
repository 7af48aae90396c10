"""Issue 19: the README's Novence Eternal encounter
(``examples/novence-eternal/encounter.*``) is the hand-worked golden case
``readme-encounter``: the case's request is those very files, and the
encounter holds what the issue asks for (three rounds, three combatants,
cover, armor wear, a crit at CRR -20 or below, a Parry that breaks a weapon,
a KO with its location roll, an Ultimate). The case's expected values are
checked by the golden suite (tests/novence_eternal/test_golden_cases.py)."""

from __future__ import annotations

from typing import Any

from linguo_cli.conformance import golden
from linguo_cli.io.document import to_plain
from linguo_cli.io.read import load

from ..conftest import ROOT

EXAMPLES = ROOT / "examples" / "novence-eternal"
CASE = next(c for c in golden.load_suite(ROOT / "golden" / "novence-eternal").cases
            if c.id == "readme-encounter")
STATE = to_plain(load(str(EXAMPLES / "encounter.state.yaml")).data)
SCRIPT = to_plain(load(str(EXAMPLES / "encounter.script.yaml")).data)
TOUR = ("linguo novence script examples/novence-eternal/encounter.state.yaml "
        "examples/novence-eternal/encounter.script.yaml --dry-run")


def _steps() -> list[tuple[str, dict[str, Any]]]:
    """Every (actor, step) of the script, in order."""
    return [(turn["actor"], step) for element in SCRIPT["rounds"]
            for turn in element.get("turns", ()) for step in turn.get("steps", ())]


def _creature(cid: str) -> dict[str, Any]:
    return next(c for c in STATE["combatants"] if c["id"] == cid)


def test_the_case_request_is_the_example_files() -> None:
    assert CASE.request["state"] == STATE
    assert {k: CASE.request[k] for k in SCRIPT} == SCRIPT
    assert set(CASE.request) - set(SCRIPT) == {"ruleset", "kind", "state"}
    assert CASE.request["kind"] == "script"


def test_the_encounter_holds_what_issue_19_asks() -> None:
    assert len(SCRIPT["rounds"]) >= 3 and len(STATE["combatants"]) >= 3
    steps = _steps()
    ranged_through_cover = [s for a, s in steps if s["kind"] == "attack" and "cover" in s
                            and _creature(a)["weapons"][_creature(a)["equipped"]]["kind"]
                            == "ranged"]
    assert ranged_through_cover
    assert any(s["kind"] == "attack" and _creature(a).get("crr", 0) <= -20 for a, s in steps)
    assert any(s["kind"] == "ultimate" and s["name"] in STATE["catalogs"]["ultimates"]
               for _, s in steps)
    parrier = {a for a, s in steps if s["kind"] == "prepare" and s["charge"] == "parry"}
    assert any(s["kind"] == "attack" and s["target"] in parrier for _, s in steps)
    # the KO'd creature stands at Injury IV or more, so its stack rolls a location (NK4)
    expect = CASE.expect
    assert expect is not None
    ends = {c["id"]: c for c in expect["state"]["combatants"]}
    knocked = [cid for cid, c in ends.items() if c.get("ko")]
    assert knocked and all(_creature(cid).get("injury", 0) >= 4 and ends[cid]["locations"]
                           for cid in knocked)
    assert any(w.get("broken") for c in ends.values() for w in c.get("weapons", {}).values())
    worn = [c for c in ends.values() if "armor" in c]
    assert worn and all(c["armor"]["pc"] < c["armor"]["pc_max"] for c in worn)
    assert any(c.get("ultimates_used") for c in ends.values()) and expect["state"]["zp"] > 0


def test_the_case_checks_every_round_and_the_faces_in_order() -> None:
    expect = CASE.expect
    assert expect is not None
    assert [r["round"] for r in expect["rounds"]] == [1, 2, 3]
    assert len(expect["rolls_used"]) == len(SCRIPT["rolls"])
    assert [int(f.split(":")[1]) for f in SCRIPT["rolls"]] == expect["rolls_used"]


def test_the_readme_tour_plays_the_example() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "### Novence Eternal tour" in readme
    assert TOUR in readme.splitlines()


def test_a_knockout_in_a_script_lists_each_event_once() -> None:
    """NV5: the events of a KO by an attack step (``ko``, the location NK4
    rolled, the new Injury) appear once each, not once from the attack and
    again from the script (the encounter's round 3, ogre on Cato)."""
    from linguo_cli.core import requests

    state = {"round": 1, "combatants": [
        {"id": "ogre", "kind": "enemy", "hit_die": 10, "hp": 60, "max_hp": 60,
         "stats": {"STR": 4}, "equipped": "club",
         "weapons": {"club": {"kind": "melee", "to_hit": 0, "stat": "STR",
                              "damage": [{"dice": "1d10", "static": 4, "type": "bludgeoning"}]}}},
        {"id": "cato", "kind": "player", "hit_die": 8, "ac_bonus": 5, "injury": 4,
         "hp": 2, "max_hp": 28}]}
    result = requests.resolve({"ruleset": "novence-eternal", "kind": "script", "state": state,
                               "rounds": [{"turns": [{"actor": "ogre", "steps": [
                                   {"kind": "attack", "target": "cato"}]}]}],
                               "rolls": ["d20:10", "d10:8", "d10:6"]})
    assert result["combatants"]["cato"]["events"] == ["ko", "location:left_arm", "injury:5"]
