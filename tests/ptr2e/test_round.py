"""``linguo ptr2e round`` and the ``round`` request kind (PV1-PV5): the
command's write-back (all or nothing), errors with their codes, the
text timeline, and a script of several rounds equal to the chained
single-round requests (PV2)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

from linguo_cli.conformance import golden
from linguo_cli.core import requests

from ..conftest import ROOT, run_cli

EXAMPLES = ROOT / "examples" / "ptr2e"
ROUND_CASES = [c for c in golden.load_suite(ROOT / "golden" / "ptr2e").cases
               if c.request.get("kind") == "round"]


def _copy(tmp_path: Path) -> tuple[Path, Path]:
    state, script = tmp_path / "state.yaml", tmp_path / "round.yaml"
    shutil.copy(EXAMPLES / "state.yaml", state)
    shutil.copy(EXAMPLES / "round.yaml", script)
    return state, script


def test_in_place_writes_only_what_changed(tmp_path: Path) -> None:
    state, script = _copy(tmp_path)
    before = state.read_text(encoding="utf-8")
    run = run_cli("ptr2e", "round", str(state), str(script), "--in-place")
    assert run.exit_code == 0, run.stderr
    after = state.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True)
               if a != b]
    # round 1 -> 2; squirtle's Interrupt in #6 owes a skip that round 1 cannot pay (PP3)
    assert changed == [("round: 1", "round: 2"), ("    owed_skips: 0", "    owed_skips: 1")]
    assert "# fallback order (PV3)" in after  # comments kept


def test_refused_round_writes_nothing(tmp_path: Path) -> None:
    state, script = _copy(tmp_path)
    text = script.read_text(encoding="utf-8").replace(
        "{act: rush, type: fly}", "{act: flamethrower}")  # complex then simple: PA2
    script.write_text(text, encoding="utf-8")
    before = state.read_text(encoding="utf-8")
    out = tmp_path / "next.yaml"
    run = run_cli("ptr2e", "round", str(state), str(script), "-o", str(out), "--json")
    assert run.exit_code == 4
    error = json.loads(run.stdout)["error"]
    assert (error["code"], error["rule"], error["place"]) == ("budget_mixed", "PA2", "#6 step 2")
    assert "#6 step 2" in run.stderr
    assert not out.exists() and state.read_text(encoding="utf-8") == before


def test_bad_input_is_exit_3_with_its_code(tmp_path: Path) -> None:
    state, script = _copy(tmp_path)
    script.write_text(script.read_text(encoding="utf-8").replace(
        "{move: swim, m: 4}", "{move: swim, m: 0}"), encoding="utf-8")
    run = run_cli("ptr2e", "round", str(state), str(script), "--json")
    assert run.exit_code == 3
    assert json.loads(run.stdout)["error"]["code"] == "bad_distance"
    assert "#3 step 1" in run.stderr
    script.write_text("stream: [a]\nturns: []\n", encoding="utf-8")
    assert run_cli("ptr2e", "round", str(state), str(script)).exit_code == 3


def test_text_timeline_and_output_file(tmp_path: Path) -> None:
    state, script = _copy(tmp_path)
    out = tmp_path / "next.yaml"
    run = run_cli("ptr2e", "round", str(state), str(script), "-o", str(out))
    assert run.exit_code == 0, run.stderr
    assert "17 A6 charizard rush fly {overland 7, fly 10}" in run.stdout
    assert "skipped: #2 pikachu, #4 eevee, #5 charizard" in run.stdout
    assert out.read_text(encoding="utf-8").startswith("# A PTR 2e combat state")
    # the same script on round 2: squirtle's carried skip falls on its #3, which has steps
    again = run_cli("ptr2e", "round", str(out), str(script), "--json")
    assert again.exit_code == 4
    assert json.loads(again.stdout)["error"]["code"] == "steps_for_skipped"


def _chain(request: dict[str, Any], per_round_faces: list[list[int]]
           ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play the rounds of ``request`` as chained single-round requests (PV2)."""
    state, rounds = request["state"], []
    for item, faces in zip(request["rounds"], per_round_faces, strict=True):
        single = {"ruleset": "ptr2e", "kind": "round", "state": state, **item,
                  "rolls": faces}
        if "options" in request:
            single["options"] = request["options"]
        result = requests.resolve(single)
        state = result["state_after"]
        rounds.append(result)
    return rounds, state


def test_several_rounds_equal_the_chain() -> None:
    multi = [c.request for c in ROUND_CASES if "rounds" in c.request and c.expect is not None]
    assert multi
    for request in multi:
        result = requests.resolve(copy.deepcopy(request))
        faces = [one["rolls_used"] for one in result["rounds"]]
        assert sum(faces, []) == result["rolls_used"]
        rounds, state = _chain(copy.deepcopy(request), faces)
        assert result["state_after"] == state
        for got, single in zip(result["rounds"], rounds, strict=True):
            assert got["timeline"] == single["timeline"]
            assert got["skipped"] == single["skipped"]


def test_round_results_fit_the_result_schema() -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "linguo_cli" / "rulesets" / "ptr2e" / "schemas" / "results"
                         / "round.result.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    for case in ROUND_CASES:
        if case.expect is None:
            continue
        result = requests.resolve(copy.deepcopy(case.request))
        assert not list(validator.iter_errors(result)), case.id
        for one in result.get("rounds") or [result]:
            assert [e["n"] for e in one["log"]] == list(range(1, len(one["log"]) + 1))
            assert one["timeline"][-1].endswith("- - end of round")


def test_round_command_help_example_runs() -> None:
    help_text = " ".join(run_cli("ptr2e", "round", "--help").stdout.split())
    assert "Example: linguo ptr2e round examples/ptr2e/state.yaml" in help_text


def test_initiative_command_prints_the_timeline() -> None:
    run = run_cli("ptr2e", "initiative", str(EXAMPLES / "state.yaml"), "--rounds", "2")
    assert run.exit_code == 0, run.stderr
    # L = 50: Speeds 100, 120, 60, 95 give Base AV 92, 74, 124, 101 (PV6); by hand: pikachu
    # up at 74, charizard at 18, eevee at 9, squirtle at 23, pikachu at 24, marker at 2
    assert "Base AV: charizard 92, pikachu 74, squirtle 124, eevee 101" in run.stdout
    assert "round 1: pikachu, charizard, eevee, squirtle, pikachu" in run.stdout
    data = run_cli("ptr2e", "initiative", str(EXAMPLES / "state.yaml"), "--rounds", "2",
                   "--json").json()
    assert data["rounds"][1]["stream"] == ["charizard", "eevee", "pikachu", "squirtle",
                                           "charizard", "pikachu"]
    assert data["av"] == {"charizard": 68, "pikachu": 70, "squirtle": 72, "eevee": 3}


def test_the_example_round_is_the_hand_worked_golden_case() -> None:
    """Issue 20: the README's example round (examples/ptr2e/) has its full
    result in the suite; the case's request must be those very files."""
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import load

    case = next(c for c in ROUND_CASES if c.id == "readme-example-round")
    state = to_plain(load(str(EXAMPLES / "state.yaml")).data)
    script = to_plain(load(str(EXAMPLES / "round.yaml")).data)
    assert case.request["state"] == state
    assert {k: case.request[k] for k in script} == script
    assert set(case.request) - set(script) <= {"ruleset", "kind", "state", "options"}
    result = requests.resolve(copy.deepcopy(case.request))
    assert len(state["combatants"]) >= 4 and result["rush"] and result["skipped"]


def test_av_rounds_written_back_go_on_along_the_timeline(tmp_path: Path) -> None:
    """Under ``scheduler: av`` the written state carries every ``av`` and
    ``round_marker_av`` (PV5, PV7): two rounds played file to file equal a
    script of two rounds (PV2)."""
    state = tmp_path / "state.yaml"
    shutil.copy(EXAMPLES / "state.yaml", state)
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text("rounds: [{}]\noptions: {scheduler: av}\n", encoding="utf-8")
    two.write_text("rounds: [{}, {}]\noptions: {scheduler: av}\n", encoding="utf-8")
    both = run_cli("ptr2e", "round", str(state), str(two), "--json")
    assert both.exit_code == 0, both.stderr
    for _ in range(2):
        run = run_cli("ptr2e", "round", str(state), str(one), "--in-place", "--json")
        assert run.exit_code == 0, run.stderr
    assert run.json()["state_after"] == both.json()["state_after"]
    again = run_cli("ptr2e", "round", str(state), str(one), "--json").json()
    assert "round_marker_av" in state.read_text(encoding="utf-8")
    assert again["rounds"][0]["round"] == 3
