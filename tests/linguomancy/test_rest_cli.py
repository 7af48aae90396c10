"""``linguo rest``: its options, errors, write-back and the README lines (H9)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from ..conftest import ROOT, run_cli

STATE = """\
# camp after the fight
round: 4
entities:
- id: ayla      # the hero
  kind: player
  hp: 10
  max_hp: 20
  temp_hp: 6
  flux: 2
  exhaustion: 3
  action_points: 1
  movement_max: 6
  movement: 2
  reaction_available: false
  hands_spent: 1
  conditions:
  - {name: Stunned, source: overclocking Smith, remaining_turns: 1}
- id: bram
  kind: player
  hp: 0
  max_hp: 20
  conditions:
  - {name: Dying, source: dying}
  - {name: Unconscious, source: dying}
- id: goblin
  kind: enemy
  hp: 7
  max_hp: 7
"""


@pytest.fixture
def state(tmp_path: Path) -> Path:
    p = tmp_path / "state.yaml"
    p.write_text(STATE, encoding="utf-8")
    return p


def test_finding_12_long_rest_in_place_ends_temporary_hp(state: Path) -> None:
    r = run_cli("rest", str(state), "--long", "--in-place")
    assert r.exit_code == 0, r.stderr
    text = state.read_text(encoding="utf-8")
    # temp HP and the Stunned end; nothing else of the file changes (AP, movement,
    # reaction and Hand points included: a rest resets nothing of a turn)
    expected = STATE.replace("  temp_hp: 6\n", "  temp_hp: 0\n").replace(
        "  conditions:\n  - {name: Stunned, source: overclocking Smith, remaining_turns: 1}\n",
        "  conditions: []\n")
    assert text == expected
    assert "bram: does not rest (Dying, H9)" in r.stdout


def test_json_result(state: Path) -> None:
    r = run_cli("rest", str(state), "--long", "--hp", "ayla=15", "--flux", "ayla=3",
                "--exhaustion", "ayla=1", "--json")
    assert r.exit_code == 0, r.stderr
    out = r.json()
    assert out["kind"] == "rest" and out["long"] is True
    assert out["resting"] == ["ayla", "goblin"] and out["skipped"] == {"bram": "dying"}
    a = out["entities"]["ayla"]
    assert (a["before"]["hp"], a["after"]["hp"], a["hp_regained"]) == (10, 20, 10)
    assert (a["after"]["flux"], a["after"]["exhaustion"], a["after"]["temp_hp"]) == (5, 2, 0)
    assert a["events"] == ["temp_hp_ends", "condition_ends:Stunned"]
    assert out["rules"][0] == "H9"
    ayla = out["state"]["entities"][0]
    assert (ayla["action_points"], ayla["movement"], ayla["reaction_available"],
            ayla["hands_spent"]) == (1, 2, False, 1)
    assert out["state"]["round"] == 4
    assert STATE == state.read_text(encoding="utf-8")  # --json alone writes nothing


def test_short_rest_by_default_changes_only_the_options(state: Path) -> None:
    r = run_cli("rest", str(state), "--flux", "ayla=3", "--json")
    assert r.exit_code == 0, r.stderr
    a = r.json()["entities"]["ayla"]
    assert r.json()["long"] is False
    assert a["after"]["flux"] == 5 and a["after"]["temp_hp"] == 6
    assert a["after"]["conditions"] == a["before"]["conditions"] and a["events"] == []


def test_state_to_stdout_result_to_stderr(state: Path) -> None:
    r = run_cli("rest", str(state), "--long", "--entity", "ayla")
    assert r.exit_code == 0, r.stderr
    assert "# camp after the fight" in r.stdout and "temp_hp: 0" in r.stdout
    assert "Long rest: 1 resting" in r.stderr and "temp HP 6 -> 0" in r.stderr
    assert state.read_text(encoding="utf-8") == STATE


def test_output_file_and_explain(state: Path, tmp_path: Path) -> None:
    out = tmp_path / "after.yaml"
    r = run_cli("rest", str(state), "--long", "--hp", "ayla=4", "-o", str(out), "--explain")
    assert r.exit_code == 0, r.stderr
    assert "hp: 14" in out.read_text(encoding="utf-8")
    assert state.read_text(encoding="utf-8") == STATE
    for rule in ("[H9]", "[H3]", "[C2]"):
        assert rule in r.stdout
    assert "HP 10 -> 14/20" in r.stdout


def test_entity_selects_who_rests(state: Path) -> None:
    r = run_cli("rest", str(state), "--long", "--entity", "goblin", "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["resting"] == ["goblin"] and r.json()["skipped"] == {}
    assert r.json()["state"]["entities"][0]["temp_hp"] == 6  # ayla did not rest


def test_conditions_catalog_option(state: Path, tmp_path: Path) -> None:
    cat = tmp_path / "conditions.yaml"
    cat.write_text("conditions:\n  - name: Stunned\n    effects: {no_actions: true}\n",
                   encoding="utf-8")
    r = run_cli("rest", str(state), "--long", "--conditions", str(cat), "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["entities"]["ayla"]["after"]["conditions"][0]["name"] == "Stunned"


@pytest.mark.parametrize("args", [
    ["--hp", "ayla"], ["--hp", "ayla="], ["--hp", "=3"], ["--hp", "ayla=-1"],
    ["--flux", "ayla=x"], ["--exhaustion", "ayla=1.5"], ["--hp", "ayla=1000001"],
    ["--hp", "ayla=\u00b2"], ["--hp", "ayla=" + "9" * 5000],
    ["--hp", "ayla=1", "--hp", "ayla=2"],
    ["--in-place", "-o", "x.yaml"],
])
def test_usage_errors_write_nothing(state: Path, args: list[str]) -> None:
    r = run_cli("rest", str(state), "--in-place", *args)
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert "linguo: error: " in r.stderr and "Traceback" not in r.stderr
    assert state.read_text(encoding="utf-8") == STATE


@pytest.mark.parametrize(("args", "code", "needle"), [
    (["--hp", "aylaa=3"], 3, "hp.aylaa: no entity with id 'aylaa' in the state (did you mean"),
    (["--flux", "nobody=1"], 3, "flux.nobody"),
    (["--exhaustion", "gobln=1"], 3, "exhaustion.gobln"),
    (["--entity", "nobody"], 3, "entities[0]"),
    (["--entity", "ayla", "--hp", "goblin=3"], 3, "hp.goblin: 'goblin' does not rest"),
    (["--entity", "bram"], 4, "rule H9"),
    (["--hp", "bram=5"], 4, "bram cannot rest: it is Dying"),
    (["--long", "--entity", "ayla", "--entity", "bram"], 4, "rule H9"),
])
def test_errors_write_nothing(state: Path, tmp_path: Path, args: list[str], code: int,
                              needle: str) -> None:
    before = state.read_bytes()
    stamp = state.stat().st_mtime_ns
    out = tmp_path / "out.yaml"
    for where in (["--in-place"], ["-o", str(out)], []):
        r = run_cli("rest", str(state), *args, *where)
        assert r.exit_code == code, r.stderr
        assert needle in r.stderr
        assert r.stdout == ""
    assert state.read_bytes() == before and state.stat().st_mtime_ns == stamp
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["state.yaml"]  # no temporary left


def test_unknown_id_has_its_place_in_a_request_file(tmp_path: Path) -> None:
    req = tmp_path / "rest.yaml"
    req.write_text("kind: rest\nhp:\n  aylaa: 3\nstate:\n  entities:\n"
                   "  - {id: ayla, kind: player, hp: 1, max_hp: 5}\n", encoding="utf-8")
    r = run_cli("resolve", str(req))
    assert r.exit_code == 3
    assert f"{req}:3:" in r.stderr and "hp.aylaa" in r.stderr


def test_state_from_stdin(state: Path) -> None:
    r = run_cli("rest", "-", "--long", "--json", input=STATE)
    assert r.exit_code == 0, r.stderr
    assert r.json()["entities"]["ayla"]["after"]["temp_hp"] == 0
    assert run_cli("rest", "-", "--in-place", input=STATE).exit_code == 2


def test_resolve_request_file(tmp_path: Path) -> None:
    req = {"kind": "rest", "long": True, "hp": {"a": 2},
           "state": {"entities": [{"id": "a", "kind": "player", "hp": 5, "max_hp": 9,
                                   "temp_hp": 13}]}}
    p = tmp_path / "req.json"
    p.write_text(json.dumps(req), encoding="utf-8")
    r = run_cli("resolve", str(p), "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["entities"]["a"]["after"] == {**r.json()["entities"]["a"]["after"],
                                                  "hp": 7, "temp_hp": 0}
    req["lnog"] = True
    p.write_text(json.dumps(req), encoding="utf-8")
    r = run_cli("resolve", str(p))
    assert r.exit_code == 3 and "did you mean 'long'" in r.stderr


def _documented() -> list[tuple[list[str], int]]:
    """The ``linguo rest`` lines of the README tour and the command's epilog,
    with the exit code their comment announces."""
    from typer.main import get_command

    from linguo_cli.cli.app import app

    from ..cli.test_help_examples import help_examples

    lines = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("linguo rest ")]
    import click

    group = get_command(app)
    # The top-level group builds a command only when asked for it (cli/lazy.py).
    rest = group.get_command(click.Context(group), "rest")  # type: ignore[attr-defined]
    epilog = rest.epilog or ""
    lines += help_examples(epilog)
    out = []
    for line in lines:
        command, _, comment = line.partition("#")
        out.append((shlex.split(command.strip())[1:], 4 if "exit 4" in comment else 0))
    return out


def test_documented_rest_lines_run(tmp_path: Path) -> None:
    """The README's rest lines (on a copy of examples/state.yaml, as the tour's
    s.yaml) and the epilog's run with the exit code they announce; the example
    files are never changed."""
    examples = {p: p.read_bytes() for p in (ROOT / "examples").glob("*.yaml")}
    copy = tmp_path / "s.yaml"
    copy.write_bytes((ROOT / "examples" / "state.yaml").read_bytes())
    runs = _documented()
    assert len(runs) >= 3
    for args, code in runs:
        args = [str(ROOT / a) if a.startswith("examples/") else str(tmp_path / a)
                if a.endswith(".yaml") else a for a in args]
        r = run_cli(*args)
        assert r.exit_code == code, (args, r.stderr)
    assert "temp_hp: 0" in copy.read_text(encoding="utf-8")
    assert "hp: 24" in (tmp_path / "rested.yaml").read_text(encoding="utf-8")
    assert {p: p.read_bytes() for p in examples} == examples
