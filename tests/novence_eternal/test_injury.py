"""NO1 step 13: THP then HP, KO, Injury stacks, damage while KO and
dismemberment (NL2, NK1, NK3-NK5, NK10, NK11, NK14); hand values from
WORKED_EXAMPLES.md."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.rulesets.novence_eternal.attack import AttackOutcome
from linguo_cli.rulesets.novence_eternal.injury import Track, dismember, gain_stack, ko_threshold
from linguo_cli.rulesets.novence_eternal.model import Charges, Creature, SecondChances, Weapon
from linguo_cli.rulesets.novence_eternal.options import resolve_options

from .helpers import attack, creature, weapon

SWORD = weapon("melee", "1d8", 3, "slashing")


def flat(n: int) -> Weapon:
    """A weapon that deals exactly ``n`` (no dice), never proficient."""
    return weapon("melee", None, n, "kinetic", proficient=False)


def hit(target: Creature, n: int, rolls: list[int] | None = None,
        options: dict[str, Any] | None = None, **kw: Any) -> AttackOutcome:
    """An attack of exactly ``n`` damage with a to-hit face 20 (or ``rolls``)."""
    return attack(creature("a"), target, flat(n), rolls or [20], options, **kw)


def test_ne51_taking_damage_and_ko() -> None:
    t = creature("t", 30)
    out = hit(t, 12)
    assert out.target.hp == 18
    out = hit(out.target, 40)
    assert (out.target.hp, out.target.ko) == (0, True)
    assert "ko" in out.events["t"]


def test_ne52_ng36_thp_first() -> None:
    out = hit(creature("t", 30, thp=10, thp_source="shield"), 25)
    assert (out.target.thp, out.target.hp) == (0, 15)
    t = creature("t", 30, thp=10, thp_source="shield")
    out = attack(creature("a"), t, weapon("melee", None, 25, "kinetic", proficient=False,
                                           ignores_thp=True), [20])
    assert (out.target.thp, out.target.hp) == (10, 5)
    out = hit(creature("t", 40, thp=30, thp_source="shield"), 35)
    assert (out.target.thp, out.target.thp_source, out.target.hp) == (0, None, 35)


def pc(hp: int, max_hp: int, **kw: object) -> Creature:
    return creature("t", hp, max_hp, kind="player", **kw)


def test_ne54_ko_gives_injury_and_threshold() -> None:
    out = hit(pc(5, 30, stats={"CON": 2}, hit_die=10), 9)
    t = out.target
    assert (t.hp, t.ko, t.injury) == (0, True, 1)
    assert ko_threshold(t) == 20
    assert hit(t, 21).target.injury == 2
    assert hit(t, 20).target.injury == 1
    assert ko_threshold(replace(t, stats={"CON": -1})) == 1


def test_ng42_damage_while_ko_with_penalized_con() -> None:
    t = pc(0, 40, ko=True, injury=6, stabilized=True, stats={"CON": 2}, hit_die=10)
    out = hit(t, 2, [20, 1])
    after = out.target
    assert (after.injury, after.critical_timer, after.stabilized) == (8, 12, False)
    assert after.locations == ("head",)
    for opts in ({"injury_penalty_scope": "rolls_only"}, {"ko_threshold_min": "con"}):
        alt = hit(t, 2, [20], options=opts)
        assert (alt.target.injury, alt.target.stabilized) == (6, True)


def test_ng43_at_vii_head_kills_torso_gives_viii() -> None:
    t = pc(0, 40, ko=True, injury=7, critical_timer=5, stats={"CON": 3}, hit_die=8)
    out = hit(t, 4, [20, 1])
    assert (out.target.injury, out.target.dead) == (9, True)
    out = hit(t, 4, [20, 2])
    assert (out.target.injury, out.target.critical_timer) == (8, 12)


def test_ng44_damage_windows() -> None:
    def play(options: dict[str, str] | None) -> int:
        t = pc(0, 40, ko=True, injury=1, stats={"CON": 2}, hit_die=10)
        for turn in ((12, 8, 1), (25, 5), (2,)):
            for i, n in enumerate(turn):
                t = hit(t, n, options=options, new_window=(i == 0)).target
        return t.injury
    assert play(None) == 4
    assert play({"ko_damage_window": "hit"}) == 2


def test_ng44_alt_round_window() -> None:
    t = pc(0, 40, ko=True, injury=1, stats={"CON": 2}, hit_die=10)
    for n in (12, 8, 1, 25, 5, 2):
        t = hit(t, n, options={"ko_damage_window": "round"}).target
    assert t.injury == 2


def test_ng45_the_knockout_hit_does_not_count() -> None:
    t = pc(8, 30, stats={"CON": 1}, hit_die=8)
    out = hit(t, 30)
    after = out.target
    assert (after.ko, after.injury, after.ko_window.damage) == (True, 1, 0)
    assert hit(after, 5).target.injury == 1
    alt = hit(t, 30, options={"ko_overflow_counts": True}).target
    assert alt.injury == 2
    assert hit(alt, 5, options={"ko_overflow_counts": True}).target.injury == 2


def test_ng70_window_counts_before_thp() -> None:
    t = pc(0, 40, ko=True, thp=15, thp_source="shield", injury=1, stats={"CON": 2}, hit_die=10)
    out = hit(t, 25)
    assert (out.target.thp, out.target.hp, out.target.injury) == (0, 0, 2)
    alt = hit(t, 25, options={"ko_damage_counts": "after_thp"})
    assert alt.target.injury == 1


def test_ne55_location_on_a_stack_from_iv() -> None:
    for face, location, level in ((6, "left_arm", 5), (1, "head", 6)):
        track = Track(pc(0, 40, injury=4, ko=True), None, [])
        gain_stack(track, "input", ScriptedDice([face]))
        assert (track.creature.injury, track.events[0].location) == (level, location)


def test_ng48_ne59_second_chances() -> None:
    chances = SecondChances(5, 1)
    a = pc(10, 30, hit_die=8)
    out = hit(a, 10, second_chances=chances)
    assert (out.target.injury, out.second_chances) == (0, SecondChances(5, 0))
    assert "second_chance" in out.events["t"]
    b = pc(10, 30, injury=4, hit_die=8)
    out = hit(b, 10, [20, 7], second_chances=SecondChances(5, 0))
    assert (out.target.injury, out.target.locations) == (5, ("left_leg",))


def test_ng49_dismemberment() -> None:
    a = creature("a", stats={"STR": 4}, prof=3)
    katana = weapon("melee", "1d10", 4, "slashing", can_dismember=True)
    t = pc(24, 100, injury=1, stats={"CON": 1, "DEX": 2}, hit_die=8)
    out = attack(a, t, katana, [20, 6, 3, 8])
    r = out.record
    assert (r.crits, r.total, r.thr, r.components[0].raw, out.target.hp) == (1, 27, 15, 13, 11)
    assert r.dismember is not None and r.dismember.eligible
    assert r.dismember.save is not None and r.dismember.save.total == 9
    assert (r.dismember.band, out.target.injury, out.target.ko, out.target.critical_timer) == (
        "limb", 7, True, 12)
    assert out.target.locations == ()
    alt = attack(a, t, katana, [20, 6, 3], {"dismember_hp_check": "before_damage"})
    assert alt.record.dismember is not None and not alt.record.dismember.eligible
    assert (alt.target.hp, alt.target.injury) == (11, 1)


def test_ne58_dismember_bands() -> None:
    for total, level, dead in ((15, 2, False), (14, 6, False), (10, 6, False), (9, 7, False),
                               (5, 7, False), (4, 2, True)):
        track = Track(pc(19, 100, injury=2, stats={"CON": 0}), None, [])
        result = dismember(track, eligible=True, dice=ScriptedDice([total]))
        assert (result.injury_after, result.dead) == (level, dead), total


def test_ng71_the_dismemberment_step_alone() -> None:
    # NG-71 (a) gives "CON 1" and a total of 12 on d20:11 at Injury VII; NK8's
    # -8 at VII (NS1: effective stat = base + penalty) makes that an effective
    # CON 1, i.e. base 9 (with base 1 the total would be 4: beheaded). Reported.
    target = pc(10, 100, injury=7, ko=True, critical_timer=4, stats={"CON": 9})
    track = Track(target, None, [])
    result = dismember(track, eligible=True, dice=ScriptedDice([11]))
    assert result.save is not None and (result.save.total, result.band) == (12, "wrist")
    assert (track.creature.injury, track.creature.critical_timer) == (7, 4)
    exact = resolve_options({"dismember_injury": "exact"})
    track = Track(target, None, [])
    dismember(track, eligible=True, dice=ScriptedDice([11]), options=exact)
    assert (track.creature.injury, track.creature.critical_timer, track.creature.ko) == (
        6, None, True)
    b = pc(10, 100, injury=2, stats={"CON": 1})
    track = Track(b, SecondChances(3, 3), [])
    dismember(track, eligible=True, dice=ScriptedDice([6]))
    assert (track.creature.injury, track.creature.ko, track.creature.critical_timer) == (
        7, True, 12)
    assert track.chances == SecondChances(3, 3)
    track = Track(b, SecondChances(3, 3), [])
    dismember(track, eligible=True, dice=ScriptedDice([6]),
              options=resolve_options({"dismember_second_chance": "absorb_per_stack"}))
    assert (track.creature.injury, track.creature.ko, track.chances) == (
        4, False, SecondChances(3, 0))
    track = Track(b, None, [])
    dismember(track, eligible=True, dice=ScriptedDice([6]),
              options=resolve_options({"critical_forces_ko": False}))
    assert (track.creature.injury, track.creature.critical_timer, track.creature.ko) == (
        7, 12, False)
    guarded = replace(b, charges=Charges(guard=1))
    track = Track(guarded, None, [])
    result = dismember(track, eligible=True, dice=ScriptedDice([8, 16]))
    assert result.save is not None and (result.save.total, result.band) == (17, "none")
    assert (track.creature.injury, track.creature.charges.guard) == (2, 0)


def test_ng72_attack_on_a_ko_creature() -> None:
    a = creature("a", stats={"STR": 3}, prof=2)
    sword = weapon("melee", "1d8", 3, "slashing", reach=5)
    t = pc(0, 40, ko=True, injury=1, stats={"DEX": 2, "CON": 2}, hit_die=10)
    out = attack(a, t, sword, [9, 4], map=True, distance=5)
    assert (out.record.total, out.record.thr, out.record.damage) == (14, 2, 7)
    assert (out.target.injury, out.target.ko_window.damage) == (1, 7)
    alt = attack(a, t, sword, [9, 3, 4, 6], {"ko_target": "dnd5e_unconscious"}, map=True,
                 distance=5)
    assert (alt.record.natural, alt.record.crits, alt.record.components[0].raw) == (9, 1, 13)
    assert alt.target.injury == 1


def test_ng75f_charges_end_on_ko() -> None:
    b = creature("b", 5, charges=Charges(guard=1))
    # A's attack (ranged: no Guard roll on a miss... it lands, the Guard fails) knocks B out
    bow = weapon("ranged", None, 10, "kinetic", proficient=False, guardable=False)
    out = attack(creature("a"), b, bow, [20])
    assert (out.target.ko, out.target.charges.guard) == (True, 0)
    alt = attack(creature("a"), b, bow, [20], {"charges_end_on_ko": False})
    assert (alt.target.ko, alt.target.charges.guard) == (True, 1)
