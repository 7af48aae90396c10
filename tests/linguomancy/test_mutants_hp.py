"""Hit points rule by rule (issue 13, mutation run of ``hp``): R1-R3, H1-H8
and the Complete/Resurrection ticks of T2 through the public functions of
:mod:`linguo_cli.rulesets.linguomancy.hp`, each branch and each edge of its
comparisons (one below, at, one above). Values are worked by hand from
``RULINGS.md`` in each test's comment.
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.core.errors import DiceError, InputError, RulesError
from linguo_cli.core.results import to_plain
from linguo_cli.rulesets.linguomancy import hp
from linguo_cli.rulesets.linguomancy.model import Entity
from linguo_cli.rulesets.linguomancy.ticks import get_tick

DYING = [{"name": "Dying", "source": "dying"}, {"name": "Unconscious", "source": "dying"}]
STABLE = [{"name": "Unconscious", "source": "dying"}, {"name": "Stable", "source": "dying"}]


def ent(**kw: Any) -> Entity:
    base: dict[str, Any] = {"id": "x", "kind": "player", "hp": 10, "max_hp": 20}
    base.update(kw)
    return Entity.from_dict(base)


def names(e: Entity) -> list[str]:
    return [c.name for c in e.conditions]


def rules(rep: hp.EntityReport) -> list[str]:
    return [s.rule for s in rep.steps]


def texts(rep: hp.EntityReport) -> list[str]:
    return [s.text for s in rep.steps]


# ---------------------------------------------------------------------------
# The report's JSON


def test_a_report_with_a_change_is_the_change_as_json() -> None:
    _, rep = hp.apply_damage(ent(), 3)
    out = rep.as_dict()
    assert out == to_plain(rep.details)
    assert list(out) == ["before", "after", "events", "damage", "damage_after_resistance",
                         "temp_hp_absorbed", "hp_lost", "leftover"]
    assert (out["before"]["hp"], out["after"]["hp"], out["hp_lost"]) == (10, 7, 3)


def test_a_report_with_plain_details_adds_them_after_the_events() -> None:
    rep = hp.EntityReport("x", {"hp": 1}, {"hp": 2}, ["e"], [], {"n": 3})
    assert rep.as_dict() == {"before": {"hp": 1}, "after": {"hp": 2}, "events": ["e"], "n": 3}


# ---------------------------------------------------------------------------
# R1-R3: resisted_amount


def test_no_damage_type_leaves_the_amount_even_for_an_immune_entity() -> None:
    e = ent(immunities=["fire"], resistances=["fire"])
    assert hp.resisted_amount(e, 9, None) == (9, [])


def test_a_type_the_entity_has_nothing_against_is_unchanged() -> None:
    e = ent(immunities=["fire"], resistances=["acid"], vulnerabilities=["frost"])
    assert hp.resisted_amount(e, 9, "cold") == (9, [])


def test_immunity_alone_makes_zero_without_r3() -> None:
    amount, steps = hp.resisted_amount(ent(immunities=["fire"]), 9, "fire")
    assert amount == 0
    assert [(s.rule, s.text) for s in steps] == [("R1", "immune to fire: 9 -> 0")]


@pytest.mark.parametrize("other", [{"resistances": ["fire"]}, {"vulnerabilities": ["fire"]},
                                   {"resistances": ["fire"], "vulnerabilities": ["fire"]}])
def test_immunity_wins_over_resistance_or_vulnerability(other: dict[str, Any]) -> None:
    # R3: immunity wins over either of the others (or both): 9 -> 0.
    amount, steps = hp.resisted_amount(ent(immunities=["fire"], **other), 9, "fire")
    assert amount == 0
    assert [s.rule for s in steps] == ["R1", "R3"]
    assert steps[0].text.endswith("(wins over resistance and vulnerability)")


def test_resistance_alone_halves_rounded_down_without_r3() -> None:
    # R1: 9 halved = 4.5, rounded down 4.
    amount, steps = hp.resisted_amount(ent(resistances=["fire"]), 9, "fire")
    assert amount == 4
    assert [s.rule for s in steps] == ["R1"]
    assert "9 halved" in steps[0].text and steps[0].text.endswith("-> 4")


def test_vulnerability_alone_doubles_without_r3() -> None:
    amount, steps = hp.resisted_amount(ent(vulnerabilities=["fire"]), 9, "fire")
    assert amount == 18
    assert [s.rule for s in steps] == ["R1"]


def test_resistance_and_vulnerability_halve_then_double() -> None:
    # R3: 9 -> 4 (halved, rounded down) -> 8; doubling first would give 9.
    amount, steps = hp.resisted_amount(ent(resistances=["fire"], vulnerabilities=["fire"]),
                                       9, "fire")
    assert amount == 8
    assert [s.rule for s in steps] == ["R1", "R1", "R3"]


# ---------------------------------------------------------------------------
# apply_damage: input, dead targets, R2, H1


def test_defaults_are_lethal_and_not_critical() -> None:
    # A player at 0 HP (Dying, no failures) takes 3: H7 adds one failure (not
    # two: no critical hit by default; a failure: not nonlethal by default).
    e, rep = hp.apply_damage(ent(hp=0, conditions=DYING), 3)
    assert e.death_failures == 1
    assert "Stable" not in names(e)


def test_negative_damage_is_invalid_and_zero_is_not() -> None:
    with pytest.raises(InputError):
        hp.apply_damage(ent(), -1)
    e, rep = hp.apply_damage(ent(), 0)
    assert e.hp == 10
    assert rep.details.hp_lost == 0


def test_damage_to_a_dead_entity_changes_nothing_and_reports_zeros() -> None:
    dead = ent(hp=0, dead=True, death={"cause": "zero_hp"})
    e, rep = hp.apply_damage(dead, 7)
    assert e == dead
    d = rep.details
    assert (d.damage, d.damage_after_resistance, d.temp_hp_absorbed, d.hp_lost,
            d.leftover) == (7, 0, 0, 0, 0)
    assert rep.events == [] and rules(rep) == ["H3"]


def test_r2_is_cited_only_when_resistance_applied() -> None:
    _, plain = hp.apply_damage(ent(), 4, damage_type="fire")
    assert "R2" not in rules(plain) and "R1" not in rules(plain)
    _, resisted = hp.apply_damage(ent(resistances=["fire"]), 4, damage_type="fire")
    assert rules(resisted)[:2] == ["R1", "R2"]
    assert resisted.details.damage == 4 and resisted.details.damage_after_resistance == 2


def test_temporary_hp_absorb_first() -> None:
    # RE-12: 10 temporary HP, 13 damage: temporary HP gone, 3 to HP (15 -> 12).
    e, rep = hp.apply_damage(ent(hp=15, temp_hp=10), 13)
    assert (e.temp_hp, e.hp) == (0, 12)
    assert (rep.details.temp_hp_absorbed, rep.details.hp_lost) == (10, 3)
    assert rules(rep) == ["H1", "H1"]
    # Less damage than temporary HP: 4 of 10 absorbed, HP untouched.
    e, rep = hp.apply_damage(ent(hp=15, temp_hp=10), 4)
    assert (e.temp_hp, e.hp) == (6, 15)
    assert (rep.details.temp_hp_absorbed, rep.details.hp_lost) == (4, 0)


def test_no_temporary_hp_step_without_temporary_hp() -> None:
    _, rep = hp.apply_damage(ent(hp=15), 3)
    assert rules(rep) == ["H1"]
    assert texts(rep) == ["HP 15 - 3 = 12"]


# ---------------------------------------------------------------------------
# apply_damage above 0 HP: H1, H4, H5


def test_one_hp_and_one_damage_drops_to_zero_and_starts_dying() -> None:
    # HP 1 > 0: H1 1 - 1 = 0, then H5 (player): Dying and Unconscious, no failure.
    e, rep = hp.apply_damage(ent(hp=1), 1)
    assert e.hp == 0 and names(e) == ["Dying", "Unconscious"]
    assert e.death_failures == 0
    assert (rep.details.hp_lost, rep.details.leftover) == (1, 0)
    assert rep.events == ["falls_unconscious", "starts_dying"]
    assert rules(rep) == ["H1", "H5"]


def test_leftover_is_reported_and_said() -> None:
    # HP 10, 14 damage: 10 lost, 4 left over (< max 20: no massive damage).
    e, rep = hp.apply_damage(ent(), 14)
    assert (rep.details.hp_lost, rep.details.leftover) == (10, 4)
    assert texts(rep)[0] == "HP 10 - 10 = 0; 4 damage left over"
    assert rules(rep) == ["H1", "H4", "H5"]
    assert names(e) == ["Dying", "Unconscious"]


def test_hp_left_above_zero_changes_no_condition() -> None:
    e, rep = hp.apply_damage(ent(), 9)
    assert e.hp == 1 and e.conditions == () and rep.events == []


@pytest.mark.parametrize(("damage", "dies"), [(29, False), (30, True), (31, True)])
def test_massive_damage_at_the_edge_of_max_hp(damage: int, dies: bool) -> None:
    # H4: HP 10, max 20: leftover = damage - 10; dies when leftover >= 20.
    e, rep = hp.apply_damage(ent(), damage)
    assert e.dead is dies
    assert rep.details.leftover == damage - 10
    if dies:
        assert e.death_cause == "massive_damage"
    else:
        assert names(e) == ["Dying", "Unconscious"]


def test_enemy_dies_at_zero_hp_and_player_becomes_dying() -> None:
    # H5: at_zero_hp dies (enemy default) -> dead; dying (player default) -> Dying.
    enemy, rep = hp.apply_damage(ent(kind="enemy"), 10)
    assert enemy.dead and enemy.death_cause == "zero_hp"
    assert rep.events == ["dies"]
    player, _ = hp.apply_damage(ent(), 10)
    assert not player.dead and names(player) == ["Dying", "Unconscious"]


def test_nonlethal_spares_an_enemy_and_a_massive_hit() -> None:
    # H5 rev. 2: nonlethal where H5 or H4 would kill: 0 HP, Unconscious, Stable.
    enemy, _ = hp.apply_damage(ent(kind="enemy"), 10, nonlethal=True)
    assert not enemy.dead and names(enemy) == ["Unconscious", "Stable"]
    massive, _ = hp.apply_damage(ent(), 40, nonlethal=True)
    assert not massive.dead and names(massive) == ["Unconscious", "Stable"]


# ---------------------------------------------------------------------------
# apply_damage at 0 HP: H7


@pytest.mark.parametrize(("damage", "failures"), [(0, 0), (1, 1), (2, 1)])
def test_damage_at_zero_hp_adds_a_failure_only_above_zero(damage: int, failures: int) -> None:
    e, rep = hp.apply_damage(ent(hp=0, conditions=DYING), damage)
    assert e.death_failures == failures
    assert (rep.details.hp_lost, rep.details.leftover) == (0, damage)
    assert rep.events == ["death_save_failure"] * failures
    assert rules(rep) == ["H7"]


def test_nonlethal_damage_at_zero_hp_stabilises_a_dying_player() -> None:
    e, rep = hp.apply_damage(ent(hp=0, conditions=DYING, death_saves={"failures": 1}), 3,
                             nonlethal=True)
    assert names(e) == ["Unconscious", "Stable"]
    assert (e.death_failures, e.death_successes) == (0, 0)
    assert rep.events == ["stable"]


def test_lethal_damage_kills_a_knocked_out_enemy() -> None:
    ko = [{"name": "Unconscious", "source": "nonlethal"}, {"name": "Stable",
                                                          "source": "nonlethal"}]
    e, rep = hp.apply_damage(ent(kind="enemy", hp=0, conditions=ko), 1)
    assert e.dead and e.death_cause == "zero_hp"
    assert rep.events[0] == "dies"


def test_a_stable_player_taking_damage_is_dying_again_with_one_failure() -> None:
    # H7: Stable -> Dying with counts 0, then one failure.
    e, rep = hp.apply_damage(ent(hp=0, conditions=STABLE), 2)
    assert names(e) == ["Unconscious", "Dying"]
    assert e.death_failures == 1
    assert rep.events == ["starts_dying", "death_save_failure"]


def test_a_dying_player_is_not_made_dying_again() -> None:
    e, rep = hp.apply_damage(ent(hp=0, conditions=DYING, death_saves={"successes": 2}), 2)
    assert names(e) == ["Dying", "Unconscious"]
    assert (e.death_successes, e.death_failures) == (2, 1)
    assert rep.events == ["death_save_failure"]


@pytest.mark.parametrize(("damage", "dies"), [(19, False), (20, True)])
def test_damage_at_zero_hp_reaching_max_hp_kills_at_once(damage: int, dies: bool) -> None:
    # H7: damage reaching HP >= max HP 20 kills; 19 adds one failure.
    e, _ = hp.apply_damage(ent(hp=0, conditions=DYING), damage)
    assert e.dead is dies
    assert e.death_failures == (0 if dies else 1)


def test_temporary_hp_absorbing_damage_at_zero_hp_still_adds_a_failure() -> None:
    # H7: "any damage", even if temporary HP absorbed it: 5 of temp 8.
    e, rep = hp.apply_damage(ent(hp=0, temp_hp=8, conditions=DYING), 5)
    assert e.temp_hp == 3 and e.death_failures == 1
    assert "(absorbed by temporary HP)" in texts(rep)[-1]


@pytest.mark.parametrize(("before", "critical", "after", "dead"), [
    (0, False, 1, False), (0, True, 2, False), (1, True, 3, True), (2, False, 3, True),
    (1, False, 2, False),
])
def test_failures_from_damage_at_zero_hp(before: int, critical: bool, after: int,
                                         dead: bool) -> None:
    # H7: one failure, two from a critical hit; three failures: dead (H6).
    e, rep = hp.apply_damage(ent(hp=0, conditions=DYING, death_saves={"failures": before}), 3,
                             critical=critical)
    assert e.dead is dead
    assert rep.events[:after - before] == ["death_save_failure"] * (after - before)
    if dead:
        assert e.death_cause == "death_saves"
        assert rules(rep)[-2:] == ["H6", "H10"]
    else:
        assert e.death_failures == after


# ---------------------------------------------------------------------------
# apply_healing


def test_negative_healing_is_invalid_and_zero_heals_nothing() -> None:
    with pytest.raises(InputError):
        hp.apply_healing(ent(), -1)
    e, rep = hp.apply_healing(ent(hp=5), 0)
    assert e.hp == 5 and rep.details.hp_regained == 0 and rep.details.healing == 0
    assert texts(rep) == ["HP 5 + 0 = 5"]


def test_healing_up_to_max_is_not_capped_and_past_max_is() -> None:
    e, rep = hp.apply_healing(ent(hp=15), 5)
    assert e.hp == 20 and texts(rep) == ["HP 15 + 5 = 20"]
    e, rep = hp.apply_healing(ent(hp=15), 6)
    assert e.hp == 20 and rep.details.hp_regained == 5
    assert texts(rep) == ["HP 15 + 6 = 20 (capped at max HP 20)"]
    e, rep = hp.apply_healing(ent(hp=20), 0)
    assert texts(rep) == ["HP 20 + 0 = 20"]


def test_healing_says_temporary_hp_are_unchanged() -> None:
    e, rep = hp.apply_healing(ent(hp=5, temp_hp=3), 4)
    assert (e.hp, e.temp_hp) == (9, 3)
    assert texts(rep) == ["HP 5 + 4 = 9; temporary HP unchanged"]
    e, rep = hp.apply_healing(ent(hp=5, temp_hp=3), None)
    assert texts(rep) == ["Complete: HP 5 -> max HP 20; temporary HP unchanged"]
    e, rep = hp.apply_healing(ent(hp=5), None)
    assert texts(rep) == ["Complete: HP 5 -> max HP 20"]


def test_complete_tick_restores_max_hp_whatever_the_amount() -> None:
    e, rep = hp.apply_healing(ent(hp=5), 3, tick=get_tick("complete", healing=True))
    assert e.hp == 20 and rep.details.healing is None and rep.details.hp_regained == 15


def test_a_damage_tick_named_complete_is_no_full_restoration() -> None:
    # Only the healing table's Complete restores to max HP; the None damage
    # tick (healing False) heals the amount given.
    e, _ = hp.apply_healing(ent(hp=5), 3, tick=get_tick("none"))
    assert e.hp == 8


def test_healing_above_zero_hp_is_no_h8() -> None:
    e, rep = hp.apply_healing(ent(hp=5), 3)
    assert rules(rep) == ["H3"] and rep.events == []


@pytest.mark.parametrize(("amount", "wakes"), [(0, False), (1, True), (2, True)])
def test_regaining_hp_at_zero_ends_dying(amount: int, wakes: bool) -> None:
    # H8: any HP regained at 0 HP ends Dying and the Unconscious from 0 HP and
    # resets the counts; healing 0 regains nothing and changes nothing.
    start = ent(hp=0, conditions=DYING, death_saves={"successes": 1, "failures": 2})
    e, rep = hp.apply_healing(start, amount)
    assert e.hp == amount
    if wakes:
        assert e.conditions == ()
        assert (e.death_successes, e.death_failures) == (0, 0)
        assert rep.events == ["regains_consciousness"]
        assert rules(rep) == ["H3", "H8"]
    else:
        assert names(e) == ["Dying", "Unconscious"]
        assert (e.death_successes, e.death_failures) == (1, 2)
        assert rep.events == [] and rules(rep) == ["H3"]


def test_regaining_hp_keeps_an_unconscious_of_no_source_and_says_so() -> None:
    start = ent(hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                  {"name": "Unconscious"}])
    e, rep = hp.apply_healing(start, 2)
    assert names(e) == ["Unconscious"] and rep.events == []
    assert texts(rep)[-1].endswith("; still Unconscious (no source): it does not wake")


def test_healing_a_dead_entity_does_nothing() -> None:
    dead = ent(hp=0, dead=True, death={"cause": "zero_hp"})
    e, rep = hp.apply_healing(dead, 5)
    assert e == dead and rep.details.hp_regained == 0 and rules(rep) == ["H3"]


RES = get_tick("resurrection", healing=True)


@pytest.mark.parametrize(("amount", "back"), [(0, 1), (1, 1), (5, 5), (25, 20), (None, 20)])
def test_resurrection_brings_back_at_least_one_hp(amount: int | None, back: int) -> None:
    dead = ent(hp=0, dead=True, death={"cause": "death_saves"},
               death_saves={"successes": 1, "failures": 3}, conditions=[])
    e, rep = hp.apply_healing(dead, amount, tick=RES)
    assert not e.dead and e.hp == back and e.death_cause is None
    assert (e.death_successes, e.death_failures) == (0, 0)
    assert rep.events == ["returns_to_life"] and rep.details.hp_regained == back


def test_resurrection_on_a_living_entity_heals_like_any_healing() -> None:
    e, rep = hp.apply_healing(ent(hp=5), 4, tick=RES)
    assert e.hp == 9 and rep.events == []


@pytest.mark.parametrize(("tiers", "refused"), [(5, False), (6, True)])
def test_resurrection_refused_at_six_exhaustion_tiers(tiers: int, refused: bool) -> None:
    dead = ent(hp=0, dead=True, death={"cause": "exhaustion"}, exhaustion=tiers)
    if refused:
        with pytest.raises(RulesError) as info:
            hp.apply_healing(dead, 3, tick=RES)
        assert info.value.rule == "F5"
    else:
        assert hp.apply_healing(dead, 3, tick=RES)[0].hp == 3


@pytest.mark.parametrize(("how", "refused"), [("impossible", True), ("very_hard", False)])
def test_resurrection_of_a_shattered_essence_is_refused(how: str, refused: bool) -> None:
    dead = ent(hp=0, dead=True, death={"cause": "overclock", "resurrection": how})
    if refused:
        with pytest.raises(RulesError) as info:
            hp.apply_healing(dead, 3, tick=RES)
        assert info.value.rule == "F4"
    else:
        assert not hp.apply_healing(dead, 3, tick=RES)[0].dead


# ---------------------------------------------------------------------------
# grant_temp_hp (H2, H3)


def test_temp_hp_keep_must_be_known_and_amount_not_negative() -> None:
    with pytest.raises(InputError):
        hp.grant_temp_hp(ent(), 5, "sum")
    with pytest.raises(InputError):
        hp.grant_temp_hp(ent(), -1)
    for keep in hp.KEEP_CHOICES:
        assert hp.grant_temp_hp(ent(), 0, keep)[0].temp_hp == 0


def test_temp_hp_on_a_dead_entity_do_nothing() -> None:
    dead = ent(hp=0, dead=True, death={"cause": "zero_hp"})
    e, rep = hp.grant_temp_hp(dead, 5)
    assert e == dead and rep.details.kept == "old" and rules(rep) == ["H3"]


def test_first_temp_hp_are_gained() -> None:
    e, rep = hp.grant_temp_hp(ent(), 5)
    assert e.temp_hp == 5 and rep.details.kept == "new"
    assert texts(rep) == ["no temporary HP held: gains 5"]


@pytest.mark.parametrize(("old", "new", "keep", "kept", "temp"), [
    (1, 5, "larger", "new", 5), (13, 20, "larger", "new", 20), (20, 13, "larger", "old", 20),
    (7, 7, "larger", "old", 7), (13, 20, "old", "old", 13), (20, 13, "new", "new", 13),
])
def test_one_set_of_temporary_hp(old: int, new: int, keep: str, kept: str, temp: int) -> None:
    # RE-13 / H2: 13 held, 20 granted -> 13 or 20, never 33.
    e, rep = hp.grant_temp_hp(ent(temp_hp=old), new, keep)
    assert e.temp_hp == temp and rep.details.kept == kept
    how = "the larger" if keep == "larger" else f"keep: {keep}"
    assert texts(rep) == [f"{old} temporary HP held, {new} granted: keeps {temp} ({how}), "
                          f"never {old + new}"]


def test_temp_hp_default_keeps_the_larger() -> None:
    assert hp.grant_temp_hp(ent(temp_hp=13), 20)[0].temp_hp == 20


@pytest.mark.parametrize(("start_hp", "h3"), [(0, True), (1, False)])
def test_temp_hp_at_zero_hp_neither_wake_nor_stabilise(start_hp: int, h3: bool) -> None:
    conds = DYING if start_hp == 0 else []
    e, rep = hp.grant_temp_hp(ent(hp=start_hp, conditions=conds), 6)
    assert e.temp_hp == 6 and [c.name for c in e.conditions] == [c["name"] for c in conds]
    assert ("H3" in rules(rep)) is h3


# ---------------------------------------------------------------------------
# roll_death_save (H6)


@pytest.mark.parametrize(("fields", "state"), [
    ({"hp": 0, "dead": True, "death": {"cause": "zero_hp"}}, "dead"),
    ({"hp": 0, "conditions": STABLE}, "Stable"),
    ({"hp": 0, "conditions": [*DYING, {"name": "Stable", "source": "dying"}]}, "Stable"),
    ({"hp": 5}, "at 5 HP"),
    ({"hp": 1, "conditions": DYING}, "at 1 HP"),
    ({"hp": 0}, "not Dying"),
])
def test_only_a_dying_entity_at_zero_hp_rolls(fields: dict[str, Any], state: str) -> None:
    with pytest.raises(RulesError) as info:
        hp.roll_death_save(ent(**fields), ScriptedDice([10]))
    assert info.value.rule == "H6"
    assert info.value.message.endswith(f"x is {state} [rule H6]")


def save(face: int, successes: int = 0, failures: int = 0, conditions: Any = None
         ) -> tuple[Entity, hp.EntityReport]:
    start = ent(hp=0, conditions=DYING if conditions is None else conditions,
                death_saves={"successes": successes, "failures": failures})
    return hp.roll_death_save(start, ScriptedDice([face]))


def test_death_save_rolls_a_d20() -> None:
    # H6: a plain d20: a scripted 20 fits, a 21 does not.
    assert save(20)[1].details.natural == 20
    with pytest.raises(DiceError):
        save(21)


def test_death_save_records_a_d20_face() -> None:
    _, rep = save(12)
    assert to_plain(rep.details.face) == {"die": 20, "face": 12, "kept": True}
    assert rep.details.natural == 12


def test_natural_20_regains_one_hp_and_resets_the_counts() -> None:
    e, rep = save(20, successes=2, failures=2)
    assert e.hp == 1 and e.conditions == ()
    assert (e.death_successes, e.death_failures) == (0, 0)
    assert rep.details.outcome == "natural_20"
    assert rep.events == ["death_save_success", "regains_consciousness"]


def test_natural_20_under_another_unconscious_does_not_wake() -> None:
    conds = [*DYING, {"name": "Unconscious", "source": "overclocking Smith"}]
    e, rep = save(20, conditions=conds)
    assert rep.events == ["death_save_success"]
    assert [c.source for c in e.conditions] == ["overclocking Smith"]


@pytest.mark.parametrize(("face", "outcome"), [(19, "success"), (10, "success"),
                                               (9, "failure"), (2, "failure"),
                                               (1, "two_failures")])
def test_death_save_faces(face: int, outcome: str) -> None:
    # H6: 10 or more succeeds, less fails, a natural 1 is two failures.
    e, rep = save(face)
    assert rep.details.outcome == outcome
    if outcome == "success":
        assert (e.death_successes, e.death_failures) == (1, 0)
        assert rep.events == ["death_save_success"]
    else:
        n = 2 if face == 1 else 1
        assert (e.death_successes, e.death_failures) == (0, n)
        assert rep.events == ["death_save_failure"] * n
        how = ": natural 1, two failures" if face == 1 else " < 10: failure"
        assert texts(rep)[0] == f"death save {face}{how} (0 -> {n})"


@pytest.mark.parametrize(("successes", "stable"), [(1, False), (2, True)])
def test_third_success_is_stable_with_counts_reset(successes: int, stable: bool) -> None:
    e, rep = save(15, successes=successes, failures=1)
    if stable:
        assert names(e) == ["Unconscious", "Stable"]
        assert (e.death_successes, e.death_failures) == (0, 0)
        assert rep.events == ["death_save_success", "stable"]
    else:
        assert names(e) == ["Dying", "Unconscious"]
        assert (e.death_successes, e.death_failures) == (2, 1)
        assert rep.events == ["death_save_success"]


@pytest.mark.parametrize(("failures", "face", "dead"), [(1, 5, False), (2, 5, True),
                                                        (1, 1, True), (0, 1, False)])
def test_third_failure_kills(failures: int, face: int, dead: bool) -> None:
    e, _ = save(face, failures=failures)
    assert e.dead is dead
    if dead:
        assert e.death_cause == "death_saves" and e.death_failures == 3
