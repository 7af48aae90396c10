"""Linguomancy's option partial_success_hits (A1) through requests, states
and --option; expected values worked from D4/A1: d20 14 against AC 15 is
margin -1, partial success, which hits only under the option."""

from __future__ import annotations

import json
from pathlib import Path

from ..conftest import run_cli


def _hit(*args: str) -> bool:
    run = run_cli("attack", "--ac", "15", "--rolls", "14", "--json", *args)
    assert run.exit_code == 0, run.stderr
    return bool(run.json()["hit"])


def test_option_on_the_command_line_equals_the_ruling_alias() -> None:
    assert _hit() is False
    assert _hit("--option", "partial_success_hits=true") is True
    assert _hit("--ruling", "partial-success-hits") is True
    assert _hit("--option", "partial_success_hits=false") is False


def test_bad_command_line_options() -> None:
    unknown = run_cli("attack", "--ac", "15", "--rolls", "14", "--option", "nope=1")
    assert unknown.exit_code == 3 and "unknown option 'nope'" in unknown.stderr
    assert run_cli("attack", "--ac", "15", "--rolls", "14", "--option", "nope").exit_code == 2
    bad = run_cli("attack", "--ac", "15", "--rolls", "14", "--json",
                  "--option", "partial_success_hits=maybe")
    assert bad.exit_code == 3
    assert json.loads(bad.stdout)["error"]["rule"] == "A1"  # the option table's check


def test_command_line_wins_over_the_request(tmp_path: Path) -> None:
    req = tmp_path / "req.yaml"
    req.write_text("kind: attack\nac: 15\noptions: {partial_success_hits: true}\n"
                   "rolls: [14]\n", encoding="utf-8")
    assert run_cli("resolve", str(req), "--json").json()["hit"] is True
    over = run_cli("resolve", str(req), "--json", "--option", "partial_success_hits=false")
    assert over.json()["hit"] is False


def test_a_state_option_is_placed_in_the_state_file(tmp_path: Path) -> None:
    state = tmp_path / "s.yaml"
    state.write_text("entities: []\noptions: {partial_success_hits: 1}\n", encoding="utf-8")
    run = run_cli("rest", str(state), "--long")
    assert run.exit_code == 3
    assert f"{state}:2:" in run.stderr and "options.partial_success_hits" in run.stderr


def test_turn_attack_steps_follow_the_state_option_unless_the_request_overrides(
        tmp_path: Path) -> None:
    base = {"entities": [
        {"id": "ayla", "kind": "player", "hp": 10, "max_hp": 10},
        {"id": "goblin", "kind": "enemy", "hp": 7, "max_hp": 7, "ac": 15}]}
    turns = {"turns": [{"entity": "ayla", "steps": [{"kind": "attack", "target": "goblin"}]}],
             "rolls": [14]}
    (tmp_path / "t.json").write_text(json.dumps(turns), encoding="utf-8")

    def hits(state_options: dict[str, bool] | None, *extra: str) -> bool:
        doc = dict(base, **({"options": state_options} if state_options is not None else {}))
        (tmp_path / "s.json").write_text(json.dumps(doc), encoding="utf-8")
        run = run_cli("turn", str(tmp_path / "s.json"), str(tmp_path / "t.json"), "--json",
                      *extra)
        assert run.exit_code == 0, run.stderr
        attack = run.json()["turns"][0]["steps"][0]["attack"]
        assert (attack["margin"], attack["degree"]) == (-1, "partial_success")
        return bool(attack["hit"])

    assert hits(None) is False
    assert hits({"partial_success_hits": True}) is True
    assert hits({"partial_success_hits": True}, "--option", "partial_success_hits=false") is False


def test_the_options_schema_lists_exactly_the_option_table() -> None:
    from linguo_cli.rulesets.linguomancy import packaged
    from linguo_cli.rulesets.linguomancy.options import OPTIONS

    defs = json.loads(packaged("schemas/defs.schema.json").read_text(encoding="utf-8"))
    props = defs["$defs"]["options"]["properties"]
    assert sorted(props) == sorted(OPTIONS.options)
    for name, option in OPTIONS.options.items():
        assert props[name]["type"] == {bool: "boolean", int: "integer", str: "string"}[
            type(option.default)]
