"""``linguo novence check-state FILE``: a state or request checked without
resolving it (NV1-NV3), every problem one placed line (NV6), exit 0 or 3."""

from __future__ import annotations

import json
from pathlib import Path

from ..conftest import ROOT, run_cli

GOOD = "examples/novence-eternal/ayla-and-ogre.state.yaml"
BAD = "examples/novence-eternal/contradictions.state.yaml"


def test_a_valid_state_exits_0() -> None:
    run = run_cli("novence", "check-state", str(ROOT / GOOD))
    assert run.exit_code == 0, run.stderr
    assert run.stdout.strip().endswith("a valid state (2 combatants)")
    data = json.loads(run_cli("novence", "check-state", str(ROOT / GOOD), "--json").stdout)
    assert data == {"valid": True, "document": "state", "combatants": 2}


def test_every_problem_of_a_state_is_one_placed_line() -> None:
    run = run_cli("novence-eternal", "check-state", str(ROOT / BAD))
    assert run.exit_code == 3
    lines = run.stderr.splitlines()
    # by hand: turns_taken names ayla (no combatant) at 3:15; cole's thp 5
    # has no thp_source (its object starts at 5:5); cole's Injury 9 at 9:13
    assert [line.removeprefix("linguo: error: ").split(": ", 1) for line in lines] == [
        [f"{ROOT / BAD}:3:15", "state turns_taken.1: 'ayla' names no combatant [bad_input, NV1]"],
        [f"{ROOT / BAD}:5:5", "state combatants.cole.thp_source: thp 5 needs its thp_source "
                              "[missing_input, NV1]"],
        [f"{ROOT / BAD}:9:13", "state combatants.cole.injury: Injury IX is death: dead must be "
                               "true [bad_input, NV1]"]]


def test_the_json_error_object_names_the_first_code_and_rule() -> None:
    run = run_cli("novence", "check-state", str(ROOT / BAD), "--json")
    error = json.loads(run.stdout)["error"]
    assert run.exit_code == 3
    assert (error["exit"], error["code"], error["rule"]) == (3, "bad_input", "NV1")


def test_a_state_that_misses_its_schema(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("round: 0\n", encoding="utf-8")
    run = run_cli("novence", "check-state", str(path), "--json")
    error = json.loads(run.stdout)["error"]
    assert run.exit_code == 3 and error["code"] == "missing_input"
    assert len(run.stderr.splitlines()) == 2  # combatants required, round below 1


def test_a_request_is_checked_with_its_state(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    request = {"ruleset": "novence-eternal", "kind": "heal", "amount": 3,
               "state": {"combatants": [{"id": "a", "kind": "player", "hp": 5, "max_hp": 9}]},
               "targets": ["a", "b"]}
    path.write_text(json.dumps(request), encoding="utf-8")
    run = run_cli("novence", "check-state", str(path))
    assert run.exit_code == 3
    assert "request targets.2: 'b' names no combatant of the state [bad_input, NV3]" in run.stderr
    request["targets"] = ["a"]
    path.write_text(json.dumps(request), encoding="utf-8")
    run = run_cli("novence", "check-state", str(path))
    assert run.exit_code == 0 and run.stdout.strip().endswith("a valid heal request")


def test_command_line_options_apply(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("combatants:\n  - {id: a, kind: player, hp: 50, max_hp: 40}\n",
                    encoding="utf-8")
    assert run_cli("novence", "check-state", str(path)).exit_code == 3
    assert run_cli("novence", "check-state", str(path), "--option",
                   "max_hp_drop=keep").exit_code == 0
    bad = run_cli("novence", "check-state", str(path), "--option", "max_hp_drop=nope")
    assert bad.exit_code == 3 and "max_hp_drop" in bad.stderr
