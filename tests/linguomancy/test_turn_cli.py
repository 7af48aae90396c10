"""`linguo turn`: files in, state and per-turn result out, all or nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ruamel.yaml import YAML

from linguo_cli.rulesets.linguomancy.model import Entity

from ..conftest import ROOT, run_cli

EXAMPLE = ROOT / "examples" / "encounter"


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


PRONE_STATE = """\
# a prone scout
entities:
  - id: scout   # keep this comment
    kind: player
    hp: 8
    max_hp: 8
    movement_max: 15
    conditions: [{name: Prone}]
"""

CRAWL_THEN_STAND = """\
turns:
  - entity: scout
    steps:
      - {kind: move, metres: 3, mode: crawl, terrain: difficult}
      - {kind: stand_up}
"""


def test_example_encounter_runs(tmp_path: Path) -> None:
    out = tmp_path / "after.yaml"
    r = run_cli("turn", str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml"), "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert "Turn 1, ayla" in r.stdout and "Turn 10, bram" in r.stdout  # the log (default)
    after = YAML(typ="safe").load(out.read_text(encoding="utf-8"))
    hp = {e["id"]: e["hp"] for e in after["entities"]}
    assert hp == {"ayla": 5, "bram": 11, "cole": 7, "ogre": 0}
    assert "fire-shaper" in out.read_text()


def test_example_keeps_comments_and_default_prints_state(tmp_path: Path) -> None:
    r = run_cli("turn", str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml"))
    assert r.exit_code == 0, r.stderr
    assert "# takes one of her 2 Hand points" in r.stdout
    assert "Turn 1, ayla" in r.stderr


def test_json_result_matches_golden_shape() -> None:
    r = run_cli("turn", str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml"), "--json")
    assert r.exit_code == 0, r.stderr
    data = r.json()
    assert data["kind"] == "turn" and data["legal"] is True
    assert len(data["turns"]) == 10
    assert data["rolls_used"] == [13, 4, 5, 9, 3, 6, 11, 3, 2, 7, 3, 4, 2, 5]
    assert set(data["turns"][0]["remaining"]) == {
        "action_points", "movement", "hands_free", "flux", "reaction_available"}


def test_illegal_turn_exits_4_and_leaves_file_unchanged(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", PRONE_STATE)
    turns = write(tmp_path / "turns.yaml", CRAWL_THEN_STAND)
    r = run_cli("turn", state, turns, "--in-place")
    assert r.exit_code == 4
    assert "step 2" in r.stderr and "P3" in r.stderr
    assert "7.5" in r.stderr and "6 m left" in r.stderr
    assert Path(state).read_text(encoding="utf-8") == PRONE_STATE
    assert r.stdout == ""
    out = tmp_path / "out.yaml"
    r = run_cli("turn", state, turns, "-o", str(out))
    assert r.exit_code == 4 and not out.exists()


def test_in_place_writes_atomically_and_keeps_comments(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", PRONE_STATE)
    turns = write(tmp_path / "turns.yaml", """\
turns:
  - entity: scout
    steps: [{kind: stand_up}, {kind: move, metres: 2.5}]
""")
    r = run_cli("turn", state, turns, "--in-place", "--json")
    assert r.exit_code == 0, r.stderr
    text = Path(state).read_text(encoding="utf-8")
    assert "# keep this comment" in text
    data = YAML(typ="safe").load(text)["entities"][0]
    # 3 - 1 for standing = 2 AP, lost at the end of the turn (P1 rev. 2)
    assert data["movement"] == 5 and data["action_points"] == 0
    assert data["conditions"] == []
    assert r.json()["turns"][0]["remaining"]["movement"] == 5


def test_check_validates_without_dice_or_writing(tmp_path: Path) -> None:
    state = tmp_path / "state.yaml"
    shutil.copy(EXAMPLE / "state.yaml", state)
    before = state.read_text(encoding="utf-8")
    doc = YAML(typ="safe").load((EXAMPLE / "turns.yaml").read_text(encoding="utf-8"))
    round1 = tmp_path / "round1.json"
    round1.write_text(json.dumps({"turns": doc["turns"][:4]}), encoding="utf-8")
    r = run_cli("turn", str(state), str(round1), "--check", "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["check"] is True and r.json()["rolls_used"] == []
    assert state.read_text(encoding="utf-8") == before
    # Without dice Bram's healing is not applied, so Cole is still Unconscious in
    # round 2 and standing up is refused: --check cannot see dice outcomes.
    r = run_cli("turn", str(state), str(EXAMPLE / "turns.yaml"), "--check")
    assert r.exit_code == 4 and "C2" in r.stderr
    bad = write(tmp_path / "turns.yaml", CRAWL_THEN_STAND)
    prone = write(tmp_path / "prone.yaml", PRONE_STATE)
    assert run_cli("turn", prone, bad, "--check").exit_code == 4
    assert run_cli("turn", prone, bad, "--check", "--in-place").exit_code == 2


def test_explain_shows_rule_ids(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", PRONE_STATE)
    turns = write(tmp_path / "turns.yaml", "turns: [{entity: scout, steps: "
                                           "[{kind: move, metres: 2, mode: crawl}]}]\n")
    r = run_cli("turn", state, turns, "-o", str(tmp_path / "o.yaml"), "--explain")
    assert r.exit_code == 0, r.stderr
    assert "[P2]" in r.stdout and "[O1]" in r.stdout and "[P3]" in r.stdout


def test_rolls_option_overrides_document_faces(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", """\
entities:
  - id: cole
    kind: player
    hp: 0
    max_hp: 9
    conditions: [{name: Dying, source: dying}, {name: Unconscious, source: dying}]
""")
    turns = write(tmp_path / "turns.yaml", "rolls: [12]\nturns: [{entity: cole}]\n")
    r = run_cli("turn", state, turns, "--json", "--rolls", "20")
    assert r.exit_code == 0, r.stderr
    cole = r.json()["state"]["entities"][0]
    assert cole["hp"] == 1 and r.json()["rolls_used"] == [20]
    r = run_cli("turn", state, turns, "--json")
    assert r.json()["state"]["entities"][0]["death_saves"]["successes"] == 1
    r = run_cli("turn", state, turns, "--json", "--rolls", "12,3")
    assert r.exit_code == 3  # a face left unused


def test_conditions_file_changes_outcome(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", """\
entities:
  - {id: ayla, kind: player, hp: 9, max_hp: 9, conditions: [{name: Drained, remaining_turns: 1}]}
""")
    turns = write(tmp_path / "turns.yaml",
                  "turns: [{entity: ayla, steps: [{kind: action, name: sprint}]}]\n")
    catalog = write(tmp_path / "conditions.yaml", """\
conditions:
  - name: Drained
    effects: {ap_change: -1}
""")
    assert run_cli("turn", state, turns, "--json").exit_code == 0
    r = run_cli("turn", state, turns, "--json", "--conditions", catalog)
    assert r.exit_code == 4 and "P1" in r.stderr


def test_bad_turns_document_names_file_and_line(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", PRONE_STATE)
    turns = write(tmp_path / "turns.yaml", """\
turns:
  - entity: scout
    steps:
      - {kind: move, metres: 3, mode: teleport}
""")
    r = run_cli("turn", state, turns)
    assert r.exit_code == 3
    assert "turns.yaml:4:" in r.stderr and "teleport" in r.stderr


def test_bad_catalog_file_is_invalid_input(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", PRONE_STATE)
    turns = write(tmp_path / "turns.yaml", "turns: [{entity: scout}]\n")
    catalog = write(tmp_path / "c.yaml", "conditions: [{name: Drained, effects: {fly: true}}]\n")
    r = run_cli("turn", state, turns, "--conditions", catalog)
    assert r.exit_code == 3 and "Traceback" not in r.stderr


def test_json_output_is_exact_numbers(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", PRONE_STATE)
    turns = write(tmp_path / "turns.yaml", "turns: [{entity: scout, steps: [{kind: stand_up}]}]\n")
    r = run_cli("turn", state, turns, "--json")
    data = json.loads(r.stdout)
    assert data["turns"][0]["steps"][0]["movement"] == 7.5
    assert data["state"]["entities"][0]["movement"] == 7.5


# ---------------------------------------------------------------------------
# Rulings revision 2 (issue 12): rounds (O1), AP (P1), T4, H5, places

DUEL_STATE = """\
round: 1
entities:
  - {id: hero, kind: player, hp: 10, max_hp: 10, ac: 10, abilities: {potential: 1},
     movement_max: 10}
  - {id: orc, kind: enemy, hp: 10, max_hp: 10, ac: 10, abilities: {strength: 3}, movement_max: 10}
"""


def test_example_encounter_ends_in_round_three(tmp_path: Path) -> None:
    # Finding 10: three rounds played, the state says round 3 (it said 1).
    out = tmp_path / "after.yaml"
    r = run_cli("turn", str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml"), "-o", str(out),
                "--explain", "--table")
    assert r.exit_code == 0, r.stderr
    after = YAML(typ="safe").load(out.read_text(encoding="utf-8"))
    assert after["round"] == 3 and after["acted_this_round"] == ["ayla", "bram"]
    assert all(e["action_points"] == 0 for e in after["entities"])
    # The table and --explain mark where each round starts.
    assert r.stdout.count("Round 2\n") == 1 and r.stdout.count("Round 3\n") == 1
    assert "Turn 5: ayla (round 2)" in r.stdout
    assert "round 3 starts with ayla's turn" in r.stdout
    # The log (the default view) marks them too.
    r = run_cli("turn", str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml"), "-o", str(out),
                "--explain")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.count("Round 2\n") == 1 and r.stdout.count("Round 3\n") == 1
    assert "Turn 5, ayla" in r.stdout and "round 3 starts with ayla's turn" in r.stdout


def test_turns_split_over_two_runs_count_rounds_as_one_run(tmp_path: Path) -> None:
    doc = YAML(typ="safe").load((EXAMPLE / "turns.yaml").read_text(encoding="utf-8"))
    whole = tmp_path / "whole.yaml"
    assert run_cli("turn", str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml"),
                   "-o", str(whole)).exit_code == 0
    # Round 1 and Ayla's turn of round 2 (9 faces), then the rest (mid-round: the
    # second run must know Ayla acted in round 2), each written back in place.
    state = tmp_path / "state.yaml"
    shutil.copy(EXAMPLE / "state.yaml", state)
    for turns, rolls in ((doc["turns"][:5], doc["rolls"][:9]),
                         (doc["turns"][5:], doc["rolls"][9:])):
        part = tmp_path / "part.json"
        part.write_text(json.dumps({"turns": turns, "rolls": rolls}), encoding="utf-8")
        r = run_cli("turn", str(state), str(part), "--in-place")
        assert r.exit_code == 0, r.stderr
    split = YAML(typ="safe").load(state.read_text(encoding="utf-8"))
    one = YAML(typ="safe").load(whole.read_text(encoding="utf-8"))
    assert (split["round"], split["acted_this_round"]) == (3, ["ayla", "bram"])
    assert {k: v for k, v in split.items() if k != "entities"} == {
        k: v for k, v in one.items() if k != "entities"}
    # The same entities (a field written back at its default may stay spelled out).
    assert [Entity.from_dict(e) for e in split["entities"]] == [
        Entity.from_dict(e) for e in one["entities"]]


def test_end_turn_shows_and_writes_zero_action_points(tmp_path: Path) -> None:
    # Finding 11: after end_turn the table and the written state show 0 left.
    state = write(tmp_path / "state.yaml", DUEL_STATE)
    turns = write(tmp_path / "turns.yaml", "turns: [{entity: hero, steps: "
                                           "[{kind: action, name: help}, {kind: end_turn}]}]\n")
    r = run_cli("turn", state, turns, "--in-place", "--table")
    assert r.exit_code == 0, r.stderr
    end_row = next(line for line in r.stdout.splitlines() if "end of turn" in line)
    assert end_row.split()[3] == "0"
    hero = YAML(typ="safe").load(Path(state).read_text(encoding="utf-8"))["entities"][0]
    assert hero["action_points"] == 0


def test_three_jumps_and_a_sprint_exit_4(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", DUEL_STATE)
    turns = write(tmp_path / "turns.yaml", """\
turns:
  - entity: hero
    steps:
      - {kind: move, metres: 1, mode: jump}
      - {kind: move, metres: 1, mode: jump}
      - {kind: move, metres: 1, mode: jump}
      - {kind: action, name: sprint}
""")
    r = run_cli("turn", state, turns)
    assert r.exit_code == 4 and "P1" in r.stderr and "step 4" in r.stderr


def test_action_cost_above_three_exits_3_with_place(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", DUEL_STATE)
    turns = write(tmp_path / "turns.yaml", """\
turns:
  - entity: hero
    steps:
      - {kind: action, name: ritual, cost: complex, action_points: 4}
""")
    r = run_cli("turn", state, turns)
    assert r.exit_code == 3 and "turns.yaml:4:" in r.stderr and "action_points" in r.stderr


def test_strength_multiplied_by_a_tick_exits_4(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", DUEL_STATE)
    turns = write(tmp_path / "turns.yaml", """\
rolls: [15, 3, 3, 4, 4]
turns:
  - entity: orc
    steps:
      - {kind: attack, target: hero, damage: {dice: 4d6, tick: strong, ability: strength}}
""")
    r = run_cli("turn", state, turns, "--in-place")
    assert r.exit_code == 4 and "T4" in r.stderr and "turn 1, step 1" in r.stderr
    assert Path(state).read_text(encoding="utf-8") == DUEL_STATE


def test_enemy_nonlethal_attack_exits_4(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", DUEL_STATE.replace("hp: 10, max_hp: 10, ac",
                                                              "hp: 5, max_hp: 10, ac", 1))
    turns = write(tmp_path / "turns.yaml", """\
rolls: [15, 6, 6, 6, 6]
turns:
  - entity: orc
    steps:
      - {kind: attack, target: hero, damage: {dice: 4d6, tick: strong, nonlethal: true}}
""")
    r = run_cli("turn", state, turns)
    assert r.exit_code == 4 and "H5" in r.stderr and "turn 1, step 1" in r.stderr


def test_missing_attack_ability_is_placed_in_the_turns_file(tmp_path: Path) -> None:
    state = write(tmp_path / "state.yaml", DUEL_STATE)
    turns = write(tmp_path / "turns.yaml", """\
rolls: [15, 3]
turns:
  - entity: hero
    steps:
      - {kind: attack, target: orc, ability: strength, damage: {dice: 1d6}}
""")
    for extra in ((), ("--check",)):
        r = run_cli("turn", state, turns, *extra)
        assert r.exit_code == 3, r.stderr
        assert "<options>" not in r.stderr
        assert "turns.yaml:5:" in r.stderr and "turn 1, step 1" in r.stderr
