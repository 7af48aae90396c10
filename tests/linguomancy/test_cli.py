"""CLI tests of the d20 commands (check, attack, save, resolve): the
acceptance points of issue 2, exit codes, help examples, replay.

Every invocation goes through ``run_cli`` (in-process, stdout and stderr
apart). Expected values are worked out by hand in the comments.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer

from linguo_cli.cli.app import app

from ..conftest import Run, run_cli


def shows_an_example(text: str) -> bool:
    """True when help text has an "Example:"/"Examples:" line that runs linguo."""
    m = re.search(r"Examples?:", text)
    return m is not None and re.search(r"\blinguo\b", text[m.end():]) is not None


def no_traceback(run: Run) -> None:
    assert "Traceback" not in run.stdout + run.stderr
    assert "Error:" not in run.stdout  # no Click/Typer error box on stdout


def fails(run: Run, code: int) -> None:
    """An error: the code, nothing on stdout, one or more prefixed lines on stderr."""
    assert run.exit_code == code, (run.stdout, run.stderr)
    assert run.stdout == ""
    assert run.stderr.startswith("linguo: ")
    no_traceback(run)


# ---------------------------------------------------------------------------
# Acceptance points


def test_acceptance_natural_20_against_dc_30() -> None:
    # 20 + 3 = 23 against DC 30: margin -7 is a failure; the natural 20
    # lifts it one step to a partial failure (D4, D5).
    run = run_cli("check", "--mod", "3", "--dc", "30", "--rolls", "20", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert r["total"] == 23
    assert r["margin"] == -7
    assert r["unadjusted_degree"] == "failure"
    assert r["degree"] == "partial_failure"
    assert r["shift"] == "natural_20"
    assert r["rolls_used"] == [20]
    assert run.stderr == ""


def test_acceptance_attack_natural_1_is_a_critical_miss() -> None:
    # 1 + 5 = 6 against AC 15: margin -9 failure; natural 1 drops it to a
    # critical failure, which is a critical miss (A2).
    run = run_cli("attack", "--mod", "5", "--ac", "15", "--rolls", "1", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert r["total"] == 6
    assert r["unadjusted_degree"] == "failure"
    assert r["degree"] == "critical_failure"
    assert r["hit"] is False
    assert r["critical_miss"] is True
    assert r["critical_hit"] is False


def test_acceptance_advantage_and_disadvantage_roll_one_die() -> None:
    run = run_cli("check", "--mod", "2", "--dc", "15", "--adv", "--dis", "--rolls", "13",
                  "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert r["rolls_used"] == [13]
    assert r["faces"] == [{"die": 20, "face": 13, "kept": True}]
    assert (r["total"], r["margin"], r["degree"]) == (15, 0, "success")


def test_advantage_and_disadvantage_leave_a_second_face_unused() -> None:
    run = run_cli("check", "--mod", "2", "--dc", "15", "--adv", "--dis", "--rolls", "13,14")
    fails(run, 3)
    assert "unused" in run.stderr


def test_acceptance_request_file_with_a_word_for_dc(tmp_path: Path) -> None:
    path = tmp_path / "high.yaml"
    path.write_text('kind: check\ndc: "high"\nrolls: [12]\n', encoding="utf-8")
    run = run_cli("resolve", str(path))
    fails(run, 3)
    # file, line 2, column 5 (where the value "high" starts), and the field
    assert f"{path}:2:5: dc:" in run.stderr


def test_acceptance_rolls_banana_is_a_usage_error() -> None:
    run = run_cli("check", "--dc", "15", "--rolls", "banana")
    fails(run, 2)
    assert "--rolls" in run.stderr
    assert "banana" in run.stderr


def test_acceptance_top_level_help_shows_an_example() -> None:
    run = run_cli("--help")
    assert run.exit_code == 0
    assert shows_an_example(run.stdout)
    assert "Exit codes" in run.stdout


def _commands(group: Any, prefix: tuple[str, ...] = (), parent: Any = None
              ) -> list[tuple[str, ...]]:
    """Every command and group under ``group`` (through Click's
    ``list_commands``/``get_command``: the commands are built on first use),
    but the other rulesets' (tests/novence_eternal, tests/ptr2e)."""
    from linguo_cli.core.ruleset import DEFAULT, names

    out: list[tuple[str, ...]] = []
    if not hasattr(group, "list_commands"):
        return out
    ctx = typer.Context(group, info_name=prefix[-1] if prefix else "linguo", parent=parent)
    others = set() if prefix else set(names()) - {DEFAULT}
    for name in sorted(set(group.list_commands(ctx)) - others):
        out.append(prefix + (name,))
        out.extend(_commands(group.get_command(ctx, name), prefix + (name,), ctx))
    return out


COMMANDS = _commands(typer.main.get_command(app))


def test_the_d20_commands_are_registered() -> None:
    for name in ("check", "attack", "save", "resolve"):
        assert (name,) in COMMANDS


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_acceptance_every_command_help_shows_an_example(command: tuple[str, ...]) -> None:
    run = run_cli(*command, "--help")
    assert run.exit_code == 0, run.stderr
    assert shows_an_example(run.stdout), run.stdout


# ---------------------------------------------------------------------------
# check


def test_check_modifiers_keep_their_labels() -> None:
    # 10 + 3 + 2 = 15 against DC 15 (DR-01): margin 0, success.
    run = run_cli("check", "--mod", "strength=3", "--mod", "idiom=+2", "--dc", "15",
                  "--rolls", "10", "--json")
    r = run.json()
    assert r["modifiers"] == [{"label": "strength", "value": 3}, {"label": "idiom", "value": 2}]
    assert (r["modifier_total"], r["total"], r["margin"], r["success"]) == (5, 15, 0, True)


def test_check_negative_modifier() -> None:
    run = run_cli("check", "--mod=-2", "--dc", "10", "--rolls", "11", "--json")
    assert run.exit_code == 0, run.stderr
    assert (run.json()["total"], run.json()["degree"]) == (9, "partial_success")


@pytest.mark.parametrize("bad", ["strength", "strength=three", "=3", "x=1.5"])
def test_check_bad_modifier_is_a_usage_error(bad: str) -> None:
    fails(run_cli("check", "--mod", bad, "--dc", "10", "--rolls", "10"), 2)


def test_several_advantage_flags_still_roll_two_dice() -> None:
    # D2: sources of the same kind count once -> two dice, the higher kept.
    run = run_cli("check", "--adv", "--adv", "--adv", "--dc", "12", "--rolls", "5,16",
                  "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert r["rolls_used"] == [5, 16]
    assert r["natural"] == 16
    fails(run_cli("check", "--adv", "--adv", "--dc", "12", "--rolls", "5,16,18"), 3)


def test_disadvantage_keeps_the_lower() -> None:
    run = run_cli("check", "--dis", "--dc", "12", "--rolls", "16,5", "--json")
    r = run.json()
    assert r["natural"] == 5
    assert [f["kept"] for f in r["faces"]] == [False, True]


def test_advantage_with_one_face_runs_out_of_dice() -> None:
    run = run_cli("check", "--adv", "--dc", "12", "--rolls", "16")
    fails(run, 3)
    assert "too few" in run.stderr


def test_face_that_does_not_fit_a_d20() -> None:
    run = run_cli("check", "--dc", "12", "--rolls", "21")
    fails(run, 3)
    assert "21" in run.stderr and "d20" in run.stderr


@pytest.mark.parametrize("rolls", ["0", "", "3,,4", "-1", "1.5", "2000"])
def test_bad_rolls_are_usage_errors(rolls: str) -> None:
    fails(run_cli("check", "--dc", "12", "--rolls", rolls), 2)


def test_rolls_and_seed_together_are_a_usage_error() -> None:
    fails(run_cli("check", "--dc", "12", "--rolls", "4", "--seed", "3"), 2)


def test_missing_dc_is_a_usage_error() -> None:
    fails(run_cli("check", "--rolls", "4"), 2)


def test_dc_not_a_number_is_a_usage_error() -> None:
    fails(run_cli("check", "--dc", "high", "--rolls", "4"), 2)


def test_unknown_command_is_a_usage_error() -> None:
    fails(run_cli("juggle"), 2)


def test_noun_check_without_the_idiom_is_a_rules_violation() -> None:
    run = run_cli("check", "--noun", "Fire", "--dc", "12", "--rolls", "15")
    fails(run, 4)
    assert "D7" in run.stderr


@pytest.mark.parametrize("idiom", ["Shape - Fire", "Speak - Fire"])
def test_noun_check_with_the_idiom(idiom: str) -> None:
    run = run_cli("check", "--noun", "Fire", "--knows", idiom, "--dc", "12", "--rolls", "15",
                  "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["degree"] == "success"
    assert "D7" in run.json()["rules"]


def test_noun_check_about_flux_with_smith() -> None:
    run = run_cli("check", "--noun", "Flux", "--knows", "Smith", "--dc", "12", "--rolls", "12",
                  "--json")
    assert run.exit_code == 0, run.stderr
    fails(run_cli("check", "--noun", "Fire", "--knows", "Smith", "--dc", "12", "--rolls", "12"),
          4)


# ---------------------------------------------------------------------------
# attack


def test_attack_no_ac_hits_without_a_die() -> None:
    run = run_cli("attack", "--no-ac", "--mod", "5", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert (r["hit"], r["critical_hit"], r["critical_miss"]) == (True, False, False)
    assert r["rolls_used"] == [] and r["faces"] == [] and r["natural"] is None


def test_attack_no_ac_refuses_a_scripted_face() -> None:
    fails(run_cli("attack", "--no-ac", "--rolls", "20"), 3)


@pytest.mark.parametrize("args", [(), ("--ac", "12", "--no-ac")])
def test_attack_needs_exactly_one_of_ac_and_no_ac(args: tuple[str, ...]) -> None:
    fails(run_cli("attack", *args, "--rolls", "10"), 2)


def test_attack_partial_success_hits_ruling() -> None:
    # 9 + 5 = 14 against AC 15: margin -1 partial success.
    default = run_cli("attack", "--mod", "5", "--ac", "15", "--rolls", "9", "--json").json()
    ruling = run_cli("attack", "--mod", "5", "--ac", "15", "--rolls", "9", "--json",
                     "--ruling", "partial-success-hits").json()
    assert default["degree"] == ruling["degree"] == "partial_success"
    assert default["hit"] is False
    assert ruling["hit"] is True


def test_attack_unknown_ruling_is_a_usage_error() -> None:
    fails(run_cli("attack", "--ac", "15", "--rolls", "9", "--ruling", "generous"), 2)


def test_attack_critical_hit() -> None:
    # natural 20 + 2 = 22 against AC 20: success lifted to critical success.
    r = run_cli("attack", "--mod", "2", "--ac", "20", "--rolls", "20", "--json").json()
    assert (r["degree"], r["hit"], r["critical_hit"]) == ("critical_success", True, True)


# ---------------------------------------------------------------------------
# save


def test_save_no_ability_fails_without_a_die() -> None:
    run = run_cli("save", "--dc", "14", "--no-ability", "--mod", "10", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert (r["degree"], r["success"], r["rolls_used"]) == ("failure", False, [])


def test_save_at_the_dc_succeeds() -> None:
    r = run_cli("save", "--mod", "constitution=1", "--dc", "14", "--rolls", "13", "--json").json()
    assert (r["kind"], r["total"], r["success"], r["degree"]) == ("save", 14, True, "success")
    assert "hit" not in r


# ---------------------------------------------------------------------------
# Text output, --explain, replay


def test_text_output_shows_the_outcome_and_the_replay() -> None:
    run = run_cli("check", "--mod", "3", "--dc", "30", "--rolls", "20")
    assert run.exit_code == 0, run.stderr
    assert "23" in run.stdout
    assert "Partial Failure" in run.stdout
    assert "natural 20" in run.stdout
    assert "--rolls 20" in run.stdout


def test_text_output_of_an_attack_says_hit_or_miss() -> None:
    miss = run_cli("attack", "--mod", "5", "--ac", "15", "--rolls", "1")
    assert "MISS" in miss.stdout and "critical miss" in miss.stdout
    hit = run_cli("attack", "--mod", "5", "--ac", "15", "--rolls", "12")
    assert "HIT" in hit.stdout


def test_explain_lists_rule_ids() -> None:
    run = run_cli("check", "--mod", "3", "--dc", "30", "--rolls", "20", "--explain")
    assert run.exit_code == 0, run.stderr
    for rule in ("[D1]", "[D3]", "[D4]", "[D5]"):
        assert rule in run.stdout


def test_json_explanation_cites_rules() -> None:
    r = run_cli("check", "--mod", "3", "--dc", "30", "--rolls", "20", "--json").json()
    assert {s["rule"] for s in r["explanation"]} >= {"D1", "D4", "D5"}
    assert all(set(s) == {"rule", "text"} for s in r["explanation"])


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--dc", "14", "--mod", "3"),
        ("check", "--dc", "14", "--adv"),
        ("attack", "--ac", "13", "--dis", "--mod", "signature=2"),
        ("save", "--dc", "12", "--adv", "--dis"),
    ],
)
@pytest.mark.parametrize("seed", [0, 7, 2024])
def test_seeded_result_replays_from_its_printed_faces(args: tuple[str, ...], seed: int) -> None:
    seeded = run_cli(*args, "--seed", str(seed), "--json")
    assert seeded.exit_code == 0, seeded.stderr
    first = seeded.json()
    faces = ",".join(str(f) for f in first["rolls_used"])
    replay = run_cli(*args, "--rolls", faces, "--json")
    assert replay.exit_code == 0, replay.stderr
    assert replay.json() == first
    again = run_cli(*args, "--seed", str(seed), "--json")
    assert again.json() == first


def test_text_replay_hint_replays(tmp_path: Path) -> None:
    run = run_cli("check", "--adv", "--dc", "11", "--seed", "5")
    hint = re.search(r"--rolls (\S+)", run.stdout)
    assert hint is not None
    replay = run_cli("check", "--adv", "--dc", "11", "--rolls", hint.group(1), "--json")
    seeded = run_cli("check", "--adv", "--dc", "11", "--seed", "5", "--json")
    assert replay.json() == seeded.json()


# ---------------------------------------------------------------------------
# resolve


def test_resolve_a_yaml_file(tmp_path: Path) -> None:
    path = tmp_path / "save.yaml"
    path.write_text(
        "# Constitution save against an idiom: DC 10 + 3 + 2 = 15\n"
        "kind: save\n"
        "idiom_dc: {flux_cost: 3, potential: 2}\n"
        "modifiers: [{label: constitution, value: 2}]\n"
        "rolls: [13]\n", encoding="utf-8")
    run = run_cli("resolve", str(path), "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert (r["target"], r["total"], r["degree"]) == (15, 15, "success")


def test_resolve_json_from_stdin() -> None:
    request = {"kind": "attack", "ac": {"armour": 14, "signature": 2, "shield": 2},
               "modifiers": [{"label": "signature", "value": 6}], "rolls": [12]}
    run = run_cli("resolve", "-", "--json", input=json.dumps(request))
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert (r["target"], r["total"], r["hit"]) == (18, 18, True)


def test_resolve_rolls_option_overrides_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("kind: check\ndc: 12\nrolls: [3]\n", encoding="utf-8")
    r = run_cli("resolve", str(path), "--rolls", "15", "--json").json()
    assert r["rolls_used"] == [15]


def test_resolve_noun_check_refused_exits_4(tmp_path: Path) -> None:
    path = tmp_path / "fire.yaml"
    path.write_text("kind: check\ndc: 12\nnoun: Fire\nentity: {idioms: [Smith]}\nrolls: []\n",
                    encoding="utf-8")
    fails(run_cli("resolve", str(path)), 4)


def test_resolve_missing_file_exits_3(tmp_path: Path) -> None:
    run = run_cli("resolve", str(tmp_path / "nope.yaml"))
    fails(run, 3)
    assert "nope.yaml" in run.stderr
