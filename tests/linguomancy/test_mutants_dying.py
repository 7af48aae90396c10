"""Dying and death (issue 13, mutation run of ``dying``): H5-H8 and H10
through the functions of :mod:`linguo_cli.rulesets.linguomancy.dying`, each
branch taken both ways. Values are worked by hand from ``RULINGS.md``.
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.conditions import Condition
from linguo_cli.core.derivation import Step
from linguo_cli.rulesets.linguomancy import dying, hp
from linguo_cli.rulesets.linguomancy.model import Entity

DYING = [{"name": "Dying", "source": "dying"}, {"name": "Unconscious", "source": "dying"}]
OVERCLOCK_KO = {"name": "Unconscious", "source": "overclocking Smith"}


def ent(**kw: Any) -> Entity:
    base: dict[str, Any] = {"id": "x", "kind": "player", "hp": 0, "max_hp": 20}
    base.update(kw)
    return Entity.from_dict(base)


def pairs(conditions: tuple[Condition, ...]) -> list[tuple[str, str]]:
    return [(c.name, c.source) for c in conditions]


def test_three_death_saves_is_the_limit() -> None:
    # H6: three successes Stable, three failures dead.
    assert dying.DEATH_SAVE_LIMIT == 3
    e, _ = hp.apply_damage(ent(conditions=DYING, death_saves={"failures": 2}), 1)
    assert e.dead


def test_without_removes_by_name_and_optionally_by_source() -> None:
    conds = (Condition("Unconscious", "dying"), Condition("Prone", "x"),
             Condition("Unconscious", "overclocking Smith"), Condition("Dying", "dying"))
    assert pairs(dying.without(conds, "Unconscious")) == [("Prone", "x"), ("Dying", "dying")]
    assert pairs(dying.without(conds, "Unconscious", frozenset({"dying"}))) == [
        ("Prone", "x"), ("Unconscious", "overclocking Smith"), ("Dying", "dying")]
    assert dying.without(conds, "Stable") == conds


def test_with_condition_adds_once() -> None:
    conds = (Condition("Prone", "x"),)
    assert pairs(dying.with_condition(conds, "Stable", "dying")) == [("Prone", "x"),
                                                                     ("Stable", "dying")]
    assert dying.with_condition(conds, "Prone", "other") == conds


def test_die_at_any_hp_leaves_zero_hp_dead_with_no_condition() -> None:
    # H10: an overclocking death at 15 HP: dead, HP 0, every condition ended.
    alive = ent(hp=15, conditions=[{"name": "Stunned", "source": "overclocking Smith"},
                                   {"name": "Prone", "source": "x"}])
    dead, events = dying.die(alive, "overclock", "very_hard")
    assert (dead.hp, dead.dead, dead.conditions) == (0, True, ())
    assert (dead.death_cause, dead.resurrection) == ("overclock", "very_hard")
    assert events == ["dies", "condition_ends:Stunned", "condition_ends:Prone"]


def test_record_death_lists_the_conditions_that_ended_or_none() -> None:
    events: list[str] = []
    steps: list[Step] = []
    dying.record_death(ent(conditions=DYING), "death_saves", events, steps)
    assert events == ["dies", "condition_ends:Dying", "condition_ends:Unconscious"]
    assert [(s.rule, s.text) for s in steps] == [
        ("H10", "death (death saves): every condition it had ends (Dying, Unconscious)")]
    steps.clear()
    dying.record_death(ent(kind="enemy", hp=4), "zero_hp", [], steps)
    assert steps[0].text == "death (zero hp): every condition it had ends (it had none)"


@pytest.mark.parametrize(("before", "after", "woke"), [
    ([{"name": "Unconscious", "source": "dying"}], [], True),
    ([{"name": "Unconscious", "source": "dying"}], [OVERCLOCK_KO], False),
    ([], [], False),
    ([], [OVERCLOCK_KO], False),
])
def test_wakes_only_when_no_unconscious_is_left(before: list[Any], after: list[Any],
                                                woke: bool) -> None:
    assert dying.wakes(ent(conditions=before), ent(conditions=after)) is woke


def test_knock_out_of_a_dying_player() -> None:
    # H5 rev. 2: Dying ends, already Unconscious, becomes Stable; counts 0.
    events: list[str] = []
    steps: list[Step] = []
    e = dying.knock_out(ent(conditions=DYING, death_saves={"successes": 1, "failures": 2}),
                        events, steps)
    assert pairs(e.conditions) == [("Unconscious", "dying"), ("Stable", "nonlethal")]
    assert (e.hp, e.death_successes, e.death_failures) == (0, 0, 0)
    assert events == ["stable"]
    assert steps[0].text.endswith("Unconscious and Stable (no longer Dying), counts 0")


def test_knock_out_of_a_conscious_entity_and_of_a_stable_one() -> None:
    events: list[str] = []
    steps: list[Step] = []
    e = dying.knock_out(ent(kind="enemy"), events, steps)
    assert pairs(e.conditions) == [("Unconscious", "nonlethal"), ("Stable", "nonlethal")]
    assert events == ["falls_unconscious", "stable"]
    assert steps[0].text.endswith("Unconscious and Stable, counts 0")
    stable = [{"name": "Unconscious", "source": "dying"}, {"name": "Stable", "source": "dying"}]
    events.clear()
    e = dying.knock_out(ent(conditions=stable), events, [])
    assert pairs(e.conditions) == [("Unconscious", "dying"), ("Stable", "dying")]
    assert events == []


def test_start_dying_by_h5_and_by_h7() -> None:
    events: list[str] = []
    steps: list[Step] = []
    e = dying.start_dying(ent(death_saves={"successes": 2, "failures": 1}), events, steps, "H5")
    assert pairs(e.conditions) == [("Dying", "dying"), ("Unconscious", "dying")]
    assert (e.death_successes, e.death_failures) == (0, 0)
    assert events == ["falls_unconscious", "starts_dying"]
    assert [s.rule for s in steps] == ["H5"]
    events.clear()
    steps.clear()
    e = dying.start_dying(ent(conditions=[OVERCLOCK_KO]), events, steps, "H7")
    assert pairs(e.conditions) == [("Unconscious", "overclocking Smith"), ("Dying", "dying")]
    assert events == ["starts_dying"] and steps == []


def test_counts_reset_when_damage_at_zero_hp_starts_dying() -> None:
    # H5 then H7: a player at 0 HP, neither Dying nor Stable, with counts 2/1:
    # becomes Dying with counts 0, then one failure: 0/1.
    e, _ = hp.apply_damage(ent(death_saves={"successes": 2, "failures": 1}), 3)
    assert (e.death_successes, e.death_failures) == (0, 1)


def test_regained_conditions_keep_what_zero_hp_did_not_give() -> None:
    e = ent(conditions=[*DYING, {"name": "Stable", "source": "nonlethal"}, OVERCLOCK_KO,
                        {"name": "Prone", "source": "x"}])
    assert pairs(dying.regained_conditions(e)) == [("Unconscious", "overclocking Smith"),
                                                   ("Prone", "x")]


def test_h8_step_names_the_sources_of_the_unconscious_left() -> None:
    before = ent(conditions=DYING)
    woke = dying.h8_step(before, ent(hp=1))
    assert woke.rule == "H8" and woke.text == (
        "HP regained at 0 HP: Dying, Stable and Unconscious from 0 HP end; "
        "death-save counts reset")
    left = ent(hp=1, conditions=[{"name": "Prone", "source": "x"}, OVERCLOCK_KO,
                                 {"name": "Unconscious"}])
    assert dying.h8_step(before, left).text.endswith(
        "; still Unconscious (overclocking Smith, no source): it does not wake")
