"""Hit points and the KO/Injury machine outside an attack (NL1, NL3, NL4,
NK2, NK7, NK9, NK10, NK13): the rules one by one, the request kinds'
refusals and places, and the ``linguo novence`` commands. Expected values
are worked by hand from the rulings."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import ScriptedDice
from linguo_cli.rulesets.novence_eternal.injury import Track
from linguo_cli.rulesets.novence_eternal.model import Creature, Refusal, SecondChances
from linguo_cli.rulesets.novence_eternal.options import DEFAULTS, resolve_options
from linguo_cli.rulesets.novence_eternal.recovery import (
    RollKeys,
    grant_thp,
    heal,
    hp_text,
    ko_roll,
    refill,
    resurrect,
    skill_check,
)

from ..conftest import run_cli

PC = Creature("pc", 0, 40, kind="player", ko=True, hit_die=10)


def test_hp_notation_shows_the_true_max_only_when_it_differs() -> None:
    assert hp_text(replace(PC, hp=40, max_hp=45, true_max_hp=60)) == "40 / 45 | 60"
    assert hp_text(replace(PC, hp=40, max_hp=45, true_max_hp=45)) == "40 / 45"
    assert hp_text(replace(PC, hp=7, max_hp=45)) == "7 / 45"


@pytest.mark.parametrize(("held", "grant", "kept", "after"), [
    (3, 4, "new", 4), (4, 3, "old", 4), (5, 5, "old", 5), (0, 1, "new", 1)])
def test_thp_grant_replaces_only_when_greater(held: int, grant: int, kept: str,
                                               after: int) -> None:
    c = replace(PC, thp=held, thp_source="old source" if held else None)
    new, record = grant_thp(c, grant, "new source", Derivation())
    assert (record.kept, new.thp) == (kept, after)
    assert new.thp_source == ("new source" if kept == "new" else c.thp_source)


def test_heal_caps_wakes_and_refuses_the_dead() -> None:
    c, rec = heal(replace(PC, injury=6), 3, DEFAULTS, Derivation())
    assert (c.hp, c.ko, rec.woke) == (3, False, True)          # VI still wakes
    c, rec = heal(replace(PC, injury=8, critical_timer=3), 3, DEFAULTS, Derivation())
    assert (c.hp, c.ko, rec.woke) == (3, True, False)          # VIII does not
    c, _ = heal(replace(PC, hp=39, ko=False), 5, DEFAULTS, Derivation())
    assert c.hp == 40
    with pytest.raises(Refusal) as err:
        heal(replace(PC, dead=True), 5, DEFAULTS, Derivation())
    assert (err.value.refusal, err.value.rule) == ("target_dead", "NL4")


def test_heal_under_keep_never_lowers_hp_above_the_max() -> None:
    keep = resolve_options({"max_hp_drop": "keep"})
    c, _ = heal(replace(PC, hp=45, ko=False), 10, keep, Derivation())
    assert c.hp == 45


@pytest.mark.parametrize(("creature", "reason"), [
    (replace(PC, ko=False, hp=3), "not_ko"), (replace(PC, dead=True, injury=9), "dead"),
    (replace(PC, kind="enemy"), "off_track"), (replace(PC, stabilized=True), "stabilized"),
    (replace(PC, injury=8, critical_timer=4), "critical")])
def test_ko_roll_says_why_no_die_is_rolled(creature: Creature, reason: str) -> None:
    dice = ScriptedDice([])
    record = ko_roll(Track(creature, None, []), dice, DEFAULTS, Derivation())
    assert (record.rolled, record.reason, dice.used) == (False, reason, [])


def test_ko_roll_stack_meets_second_chances_first() -> None:
    track = Track(replace(PC, injury=4), SecondChances(3, 1), [])
    record = ko_roll(track, ScriptedDice([9]), DEFAULTS, Derivation())
    assert record.result == "stack" and track.creature.injury == 4   # absorbed: no d10
    assert track.chances == SecondChances(3, 0) and track.events[0].absorbed


@pytest.mark.parametrize(("mode", "pool", "short"), [
    ("half_max_floor", 0, 2), ("half_max_ceil", 0, 3), ("half_missing_floor", 0, 2),
    ("half_max_floor", 4, 5), ("half_missing_floor", 4, 4)])
def test_second_chance_refill(mode: str, pool: int, short: int) -> None:
    options = resolve_options({"second_chance_refill": mode})
    assert refill(SecondChances(5, pool), "short", options).pool == short
    assert refill(SecondChances(5, pool), "long", options).pool == 5


def test_resurrection_bounds_over_every_face() -> None:
    for face in range(1, 11):
        for seconds, expected in ((60, max(1, 9 - face)), (61, min(8, face + 4))):
            track = Track(replace(PC, dead=True, injury=9), None, [])
            record = resurrect(track, 5, seconds, ScriptedDice([face]), DEFAULTS,
                               Derivation())
            assert record.injury == expected and 1 <= record.injury <= 8
            assert record.ko == (expected >= 7) and record.critical_timer is None
            assert not track.creature.dead and track.creature.hp == 5


def test_a_check_with_advantage_and_disadvantage_rolls_one_die() -> None:
    actor = Creature("a", 5, 5, stats={"WIS": 1})
    dice = ScriptedDice([12])
    check = skill_check(actor, "medicine", "WIS", 13, RollKeys(True, True), dice, DEFAULTS,
                        Derivation())
    assert (check.faces, check.total, check.success) == ((12,), 13, True)


@pytest.mark.parametrize(("request_", "code"), [
    ({"kind": "heal", "targets": [{"kind": "player", "hp": 1, "max_hp": 2}]}, 3),
    ({"kind": "heal", "targets": [{"kind": "player", "hp": 1, "max_hp": 2}], "amount": 1,
      "roll": {"dice": "1d4"}}, 3),
    ({"kind": "thp", "targets": [], "amount": 1, "source": "x"}, 3),
    ({"kind": "ko_roll", "actor": "cole"}, 3),
    ({"kind": "resurrect", "target": {"kind": "player", "hp": 0, "max_hp": 2, "dead": True},
      "hp": 0, "seconds_since_death": 1}, 3),
    ({"kind": "rest", "state": {"combatants": []}, "rest": "nap", "creatures": []}, 3),
    ({"kind": "thp", "targets": [{"kind": "player", "hp": 1, "max_hp": 2, "thp": 3,
      "thp_source": "x", "thp_granted": 2}], "amount": 1, "source": "x",
      "options": {"thp_compare": "granted"}}, 3),
])
def test_bad_requests_are_exit_3_with_a_place(request_: dict[str, Any], code: int,
                                              tmp_path: Any) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"ruleset": "novence-eternal", **request_}))
    run = run_cli("resolve", str(path))
    assert run.exit_code == code, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) >= 1


def test_commands_resolve_and_show_hp_notation() -> None:
    run = run_cli("novence", "heal", "--hp", "40", "--max-hp", "50", "--true-max-hp", "60",
                  "--amount", "15")
    assert run.exit_code == 0 and "HP 50 / 50 | 60" in run.stdout
    run = run_cli("novence", "ko-roll", "--injury", "4", "--rolls", "9,1", "--json")
    plain = json.loads(run.stdout)
    assert plain["combatants"]["creature"]["after"]["injury"] == 6
    assert plain["combatants"]["creature"]["events"] == ["location:head", "injury:6"]
    run = run_cli("novence", "resurrect", "--seconds", "5", "--hp", "3")
    assert run.exit_code == 0 and "resurrected" in run.stdout     # system dice
    assert run_cli("novence", "heal", "--hp", "0", "--dead", "--amount", "5").exit_code == 4
    assert run_cli("novence", "heal", "--hp", "1", "--roll", "2d4+x").exit_code == 2
