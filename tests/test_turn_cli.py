"""`linguo turn`: files in, state and per-turn result out, all or nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ruamel.yaml import YAML

from .conftest import ROOT, run_cli

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
    assert "Turn 1: ayla" in r.stdout and "Turn 10: bram" in r.stdout
    after = YAML(typ="safe").load(out.read_text(encoding="utf-8"))
    hp = {e["id"]: e["hp"] for e in after["entities"]}
    assert hp == {"ayla": 5, "bram": 11, "cole": 7, "ogre": 0}
    assert "fire-shaper" in out.read_text()


def test_example_keeps_comments_and_default_prints_state(tmp_path: Path) -> None:
    r = run_cli("turn", str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml"))
    assert r.exit_code == 0, r.stderr
    assert "# takes one of her 2 Hand points" in r.stdout
    assert "Turn 1: ayla" in r.stderr


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
