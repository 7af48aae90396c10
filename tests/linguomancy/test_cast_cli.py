"""The ``linguo cast`` and ``linguo overclock`` commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import ROOT, run_cli

STATE = """\
# an encounter
entities:
  - id: ayla   # the caster
    kind: player
    hp: 20
    max_hp: 20
    flux: {flux}
    exhaustion: {exhaustion}
    abilities: {{potential: 2}}
    expertise: {{Fire: {expertise}, Flux: 10}}
    wordsmithing_level: 8
    idioms: [Hurl - Fire, Smith, Shape - Fire]
  - id: gob
    kind: enemy
    hp: 30
    max_hp: 30
    ac: 12
"""


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return write_state(tmp_path)


def write_state(tmp_path: Path, flux: int = 10, exhaustion: int = 0, expertise: int = 6
                ) -> Path:
    p = tmp_path / "state.yaml"
    p.write_text(STATE.format(flux=flux, exhaustion=exhaustion, expertise=expertise))
    return p


def test_upcast_to_7_exits_4_citing_f3_and_writes_nothing(state: Path) -> None:
    before = state.read_text()
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Hurl - Fire",
                "--upcast", "4", "--target", "gob", "--in-place", "--rolls", "15,3,4")
    assert r.exit_code == 4
    assert "rule F3" in r.stderr and r.stdout == ""
    assert state.read_text() == before


def test_upcast_to_6_spends_6_flux(state: Path, tmp_path: Path) -> None:
    out = tmp_path / "after.yaml"
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Hurl - Fire",
                "--upcast", "3", "--target", "gob", "-o", str(out), "--rolls", "15,3,4",
                "--json")
    assert r.exit_code == 0, r.stderr
    result = r.json()
    assert (result["final_cost"], result["flux_spent"], result["flux_after"]) == (6, 6, 4)
    text = out.read_text()
    assert "flux: 4" in text and "# the caster" in text and "hp: 17" in text


def test_overclock_cost_7_with_3_flux(tmp_path: Path) -> None:
    state = write_state(tmp_path, flux=3, expertise=7)
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Hurl - Fire",
                "--upcast", "4", "--overclock", "--target", "gob", "--rolls", "5",
                "--in-place", "--json")
    assert r.exit_code == 0, r.stderr
    ayla = r.json()["entities"]["ayla"]["after"]
    assert ayla["flux"] == 0 and ayla["exhaustion"] == 2
    assert ayla["conditions"] == [{"name": "Stunned", "source": "overclocking Hurl - Fire",
                                   "remaining_turns": 1}]
    assert "remaining_turns: 1" in state.read_text()


def test_overclock_cost_8_with_1_flux_and_1_exhaustion_dies(tmp_path: Path) -> None:
    state = write_state(tmp_path, flux=1, exhaustion=1)
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Smith", "--upcast", "8",
                "--overclock", "--json")
    assert r.exit_code == 0, r.stderr
    after = r.json()["entities"]["ayla"]["after"]
    assert after["dead"] is True and after["death"] == {"cause": "exhaustion"}
    assert after["exhaustion"] == 6


@pytest.mark.parametrize(
    "args",
    [
        ["--idiom", "Smith", "--upcast", "11", "--overclock"],
        ["--idiom", "Smith", "--upcast", "11"],
        ["--idiom", "Shape - Fire", "--adjective", "Wide", "--overclock"],
        ["--idiom", "Hurl - Fire", "--target", "gob", "--upcast", "1"],  # flux 0, no overclock
        ["--idiom", "Shape - Water"],
    ],
)
def test_illegal_casts_exit_4_and_write_nothing(tmp_path: Path, args: list[str]) -> None:
    state = write_state(tmp_path, flux=0)
    before = state.read_text()
    r = run_cli("cast", str(state), "--caster", "ayla", *args, "--in-place")
    assert r.exit_code == 4, r.stderr
    assert "rule F" in r.stderr
    assert state.read_text() == before


def test_text_output_mentions_overclocking(tmp_path: Path) -> None:
    state = write_state(tmp_path, flux=2)
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Smith", "--upcast", "3",
                "--overclock", "-o", str(tmp_path / "out.yaml"))
    assert r.exit_code == 0, r.stderr
    assert "OVERCLOCKED" in r.stdout and "Drained" in r.stdout
    assert "no enforced effect" in r.stdout


def test_stdout_gets_state_and_stderr_result_without_output(state: Path) -> None:
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Smith", "--upcast", "2")
    assert r.exit_code == 0, r.stderr
    assert "flux: 8" in r.stdout and "casts Smith" in r.stderr


def test_user_idiom_catalog(tmp_path: Path, state: Path) -> None:
    cat = tmp_path / "mine.yaml"
    cat.write_text("idioms:\n  - name: Smith\n    verb: Shape\n    noun: Flux\n"
                   "    flux_cost: 2\n    effect: {check_bonus: {applies_to: forging, value: 1}}\n"
                   "    upcast: {check_bonus: 2}\n")
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Smith", "--upcast", "1",
                "--idioms", str(cat), "--json")
    assert r.exit_code == 0, r.stderr
    result = r.json()
    assert result["final_cost"] == 3 and result["check_bonus"] == {"applies_to": "forging",
                                                                   "value": 3}


def test_bad_idiom_catalog_names_file_and_line(tmp_path: Path, state: Path) -> None:
    cat = tmp_path / "bad.yaml"
    cat.write_text("idioms:\n  - name: Zap - Storm\n    verb: Zap\n    noun: Storm\n"
                   "    flux_cost: 2\n    effect:\n      damage: {tick: low, type: electric, "
                   "dice: 1d4}\n")
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Smith", "--idioms", str(cat))
    assert r.exit_code == 3
    assert f"{cat}:7:" in r.stderr and "T3" in r.stderr


def test_user_condition_catalog_unknown_effect(tmp_path: Path, state: Path) -> None:
    cat = tmp_path / "conds.yaml"
    cat.write_text("conditions:\n  - name: Drained\n    effects: {sleepy: true}\n")
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Smith",
                "--conditions", str(cat))
    assert r.exit_code == 3 and f"{cat}:3:" in r.stderr and "sleepy" in r.stderr


def test_user_condition_catalog_stunned_without_effect(tmp_path: Path) -> None:
    state = tmp_path / "s.yaml"
    state.write_text("entities:\n  - {id: ayla, kind: player, hp: 5, max_hp: 5, idioms: [Smith],"
                     " conditions: [{name: Stunned, source: x, remaining_turns: 1}]}\n")
    cat = tmp_path / "conds.yaml"
    cat.write_text("conditions:\n  - name: Stunned\n")
    assert run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Smith").exit_code == 4
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Smith",
                "--conditions", str(cat), "--json")
    assert r.exit_code == 0, r.stderr


def test_example_catalog_file_works_as_user_catalog(state: Path) -> None:
    r = run_cli("cast", str(state), "--caster", "ayla", "--idiom", "Shape - Fire",
                "--adjective", "Wide", "--idioms", str(ROOT / "examples" / "idioms.yaml"),
                "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["adjectives"][0]["name"] == "Wide"


def test_overclock_one_off() -> None:
    r = run_cli("overclock", "--cost", "7", "--flux", "3", "--json")
    assert r.exit_code == 0
    res = r.json()
    assert res["row"]["missing"] == 4 and res["exhaustion_after"] == 2
    r = run_cli("overclock", "--cost", "8", "--flux", "1", "--exhaustion", "1")
    assert r.exit_code == 0 and "DIES" in r.stdout
    r = run_cli("overclock", "--cost", "11", "--flux", "0")
    assert r.exit_code == 4 and "rule F4" in r.stderr


def test_overclock_explain() -> None:
    r = run_cli("overclock", "--cost", "10", "--flux", "0", "--explain")
    assert r.exit_code == 0 and "[F4]" in r.stdout and "essence" in r.stdout


def test_cast_resolve_request_file(tmp_path: Path) -> None:
    req = tmp_path / "req.yaml"
    req.write_text("kind: cast\ncaster: k\nidiom: Creator\nupcast: 2\nstate:\n  entities:\n"
                   "    - {id: k, kind: player, hp: 5, max_hp: 5, expertise: {Flux: 2},"
                   " idioms: [Creator]}\nrolls: []\n")
    r = run_cli("resolve", str(req), "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["flux_after"] == 8


def test_cast_request_schema_errors(tmp_path: Path) -> None:
    req = tmp_path / "req.yaml"
    req.write_text("kind: cast\ncaster: k\nidiom: Creator\nupcast: -1\nstate: {entities: []}\n")
    r = run_cli("resolve", str(req))
    assert r.exit_code == 3 and "upcast" in r.stderr


def test_usage_errors() -> None:
    assert run_cli("cast", "--caster", "a").exit_code == 2
    assert run_cli("overclock", "--cost", "x", "--flux", "1").exit_code == 2
