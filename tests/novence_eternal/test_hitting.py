"""To-hit, crits, Aim and cover through the NO1 pipeline (NH, NX, NM3-NM5, NC).

Expected values are the hand-worked numbers of WORKED_EXAMPLES.md (the NE
and NG IDs in each test's name or docstring), never program output."""

from __future__ import annotations

import pytest

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.rulesets.novence_eternal.armor import cover_class
from linguo_cli.rulesets.novence_eternal.hitting import (
    AIM_FLOOR,
    aim_effective,
    crit_test,
    min_thr,
    range_band,
)
from linguo_cli.rulesets.novence_eternal.model import Cover, Creature, Refusal
from linguo_cli.rulesets.novence_eternal.options import DEFAULTS, resolve_options

from .helpers import attack, creature, weapon

MACE = weapon("melee", "1d6", 3, "bludgeoning", to_hit=1)
LONGSWORD = weapon("melee", "1d8", 3, "slashing")
RIFLE = weapon("ranged", "2d8", 0, "kinetic", name="rifle")


def test_ng01_equal_to_ac_misses() -> None:
    a = creature("a", stats={"STR": 3}, prof=2)
    t = creature("t", stats={"DEX": 4})
    out = attack(a, t, MACE, [8])
    assert (out.record.total, out.record.landed, out.target.hp) == (14, False, 30)
    alt = attack(a, t, MACE, [8, 4], {"hit_rule": "meet"})
    assert (alt.record.landed, alt.record.thr, alt.record.damage, alt.target.hp) == (
        True, 0, 7, 23)


def test_ng02_crit_fail_misses_whatever_the_total() -> None:
    a = creature("a", stats={"STR": 5}, prof=4)
    t = creature("t", stats={"DEX": 2})
    axe = weapon("melee", "1d8", 5, "slashing", to_hit=3)
    out = attack(a, t, axe, [1])
    assert (out.record.total, out.record.crit_fail, out.record.landed) == (13, True, False)
    assert out.target.hp == 30
    alt = attack(a, t, axe, [1, 6], {"crit_fail_effect": "none"})
    assert (alt.record.thr, alt.record.damage, alt.target.hp) == (1, 11, 19)


def test_ng03_crr_minus_19_natural_1_crit_wins() -> None:
    a = creature("a", stats={"STR": 3}, prof=2, crr=-19)
    t = creature("t", 40, stats={"DEX": 2})
    out = attack(a, t, LONGSWORD, [1, 4, 8])
    r = out.record
    assert (r.crits, r.total, r.landed, r.thr, r.damage, out.target.hp) == (
        1, 6, True, 0, 15, 25)
    for opts in ({"crit_vs_fail": "fail_wins"}, {"crit_auto_lands": False}):
        alt = attack(a, t, LONGSWORD, [1], opts)
        assert (alt.record.landed, alt.target.hp) == (False, 40)


def test_ng04_crr_minus_20() -> None:
    a = creature("a", stats={"STR": 3}, prof=2, crr=-20)
    t = creature("t", 40, stats={"DEX": 2})
    out = attack(a, t, LONGSWORD, [11, 19, 5, 7])
    r = out.record
    assert (r.total, r.thr, r.auto_crits, r.residual, r.bonus_die, r.crits) == (
        16, 4, 1, 0, 19, 1)
    assert out.target.hp == 25
    out = attack(a, t, LONGSWORD, [1, 20, 2, 3, 4])
    assert (out.record.total, out.record.thr, out.record.crits, out.target.hp) == (6, 0, 2, 28)
    alt = attack(a, t, LONGSWORD, [1], {"crit_vs_fail": "fail_wins"})
    assert (alt.record.crit_fail, alt.record.landed, alt.target.hp) == (True, False, 40)
    alt = attack(a, t, LONGSWORD, [1, 2, 3], {"bonus_crit_die": "same_natural"})
    assert (alt.record.crits, alt.record.bonus_die, alt.target.hp) == (1, None, 32)


def test_ng05_crr_minus_25_bonus_die_crits() -> None:
    a = creature("a", stats={"STR": 3}, prof=2, crr=-25)
    t = creature("t", 60, stats={"DEX": 2})
    greatsword = weapon("melee", "2d6", 4, "slashing")
    out = attack(a, t, greatsword, [9, 15, 1, 2, 3, 4, 5, 6])
    assert (out.record.total, out.record.thr, out.record.crits) == (14, 2, 2)
    assert (out.record.components[0].raw, out.target.hp) == (25, 35)
    alt = attack(a, t, greatsword, [9, 15, 1, 2, 3, 4], {"bonus_crit_range": "normal"})
    assert (alt.record.crits, alt.target.hp) == (1, 46)
    alt = attack(a, t, greatsword, [9, 1, 2, 3, 4], {"bonus_crit_die": "same_natural"})
    assert (alt.record.crits, alt.target.hp) == (1, 46)


def test_ng06_crr_minus_45_lands_below_ac() -> None:
    a = creature("a", stats={"STR": 3}, prof=2, crr=-45)
    t = creature("t", 60, stats={"DEX": 2})
    pike = weapon("melee", "1d10", 2, "piercing")
    out = attack(a, t, pike, [3, 14, 10, 1, 4])
    r = out.record
    assert (r.total, r.landed, r.thr, r.auto_crits, r.residual, r.crits) == (
        8, True, 0, 2, -5, 2)
    assert (r.components[0].raw, out.target.hp) == (17, 43)


@pytest.mark.parametrize(("crr", "faces"), [
    (0, {20}), (-5, set(range(15, 21))), (-19, set(range(1, 21)))])
def test_ne35_crit_ranges(crr: int, faces: set[int]) -> None:
    # at -19 the natural 1 is in the fail range too: the crit wins (NX6)
    assert {n for n in range(1, 21) if crit_test(n, n, crr, 0).crits} == faces


@pytest.mark.parametrize(("crr", "g", "r"), [(-20, 1, 0), (-25, 1, -5), (-40, 2, 0),
                                             (-45, 2, -5)])
def test_ne35_written_xg_r(crr: int, g: int, r: int) -> None:
    test = crit_test(7, 7, crr, 0)
    assert (test.auto_crits, test.residual, test.crits) == (g, r, g)


@pytest.mark.parametrize(("far", "fails"), [(0, {1}), (2, {1, 2, 3}), (19, set(range(1, 21)))])
def test_ne36_far(far: int, fails: set[int]) -> None:
    # CRR 0: the natural 20 is a crit, which wins over the fail at FAR 19 (NX6)
    got = {n for n in range(1, 21) if crit_test(n, n, 0, far).crit_fail}
    assert got == fails - ({20} if far == 19 else set())


def test_ne42_to_hit_and_thr() -> None:
    a = creature("a", stats={"DEX": 4}, prof=3)
    bow = weapon("ranged", "1d6", 0, "piercing", to_hit=2)
    out = attack(a, creature("t", stats={"DEX": 6}), bow, [12, 1])
    assert (out.record.total, out.record.landed, out.record.thr) == (21, True, 5)
    out = attack(a, creature("t", stats={"DEX": 11}), bow, [12])
    assert (out.record.total, out.record.landed) == (21, False)


def test_ne53_crits() -> None:
    assert crit_test(20, 20, 0, 0).crits == 1
    a = creature("a", stats={"STR": 0}, crr=-20)
    w = weapon("melee", "2d6", 4, "slashing", proficient=False)
    out = attack(a, creature("t", 40), w, [15, 20, 1, 2, 3, 4, 5, 6])
    assert (out.record.crits, out.record.damage) == (2, 25)
    a = creature("a", crr=-25)
    out = attack(a, creature("t", 40), w, [15, 15, 1, 2, 3, 4, 5, 6])
    assert out.record.crits == 2


def test_ng07_range_bands() -> None:
    got = [range_band(d, 80) for d in (40, 41, 80, 81, 160, 161)]
    assert got == ["short", "medium", "medium", "long", "long", "out"]
    farther = resolve_options({"range_edges": "farther_band"})
    got = [range_band(d, 80, farther) for d in (40, 41, 80, 81, 160, 161)]
    assert got == ["medium", "medium", "long", "long", "out", "out"]
    bow = weapon("ranged", "1d8", 0, "piercing", range=80)
    with pytest.raises(Refusal) as exc:
        attack(creature("a"), creature("t"), bow, [], map=True, distance=161)
    assert (exc.value.refusal, exc.value.rule) == ("out_of_range", "NH5")
    out = attack(creature("a"), creature("t", stats={"DEX": 20}), bow, [3, 4],
                 {"beyond_long_range": "disadvantage"}, map=True, distance=161)
    assert out.record.disadvantage and out.record.natural == 3
    out = attack(creature("a"), creature("t", stats={"DEX": 20}), bow, [3], distance=500)
    assert not out.record.disadvantage and out.record.band is None


def test_ng08_help_cancels_long_range_disadvantage() -> None:
    c = creature("c", stats={"DEX": 2}, prof=2)
    t = creature("t", 20, stats={"DEX": 2})
    bow = weapon("ranged", "1d8", 0, "piercing", range=80)
    first = attack(c, t, bow, [3], map=True, distance=120, helped=True)
    assert (first.record.total, first.record.landed) == (7, False)
    assert "help_spent" in first.events["c"]
    second = attack(c, t, bow, [15, 9, 5], map=True, distance=120)
    assert (second.record.natural, second.record.total, second.record.thr) == (9, 13, 1)
    assert second.target.hp == 15


def test_ng09_aim_with_disadvantage() -> None:
    a = creature("a", stats={"DEX": 4}, prof=3)
    t = creature("t", 50, stats={"DEX": 3})
    rifle = weapon("ranged", "2d8", 0, "kinetic", to_hit=1, range=60, aim=3, name="rifle")
    a = creature("a", stats={"DEX": 4}, prof=3, equipped=rifle)
    out = attack(a, t, rifle, [5, 17, 4, 4], map=True, distance=100)
    r = out.record
    assert (r.natural, r.floor, r.effective_die, r.total, r.thr, r.crits) == (
        5, 14, 14, 22, 9, 0)
    assert (r.damage, out.target.hp) == (8, 42)
    assert out.attacker.equipped is not None and out.attacker.equipped.aim == 0
    rifle8 = weapon("ranged", "2d8", 0, "kinetic", to_hit=1, range=60, aim=8, name="rifle")
    out = attack(a, t, rifle8, [3, 2, 5])
    assert (out.record.effective_die, out.record.total, out.record.thr) == (20, 28, 15)
    assert (out.record.crits, out.record.damage, out.target.hp) == (0, 7, 43)
    alt = attack(a, t, rifle8, [3, 2, 5, 6, 1], {"aim_floor_crits": True})
    assert (alt.record.crits, alt.record.damage, alt.target.hp) == (1, 14, 36)


def test_ne12_ne13_aim_floors_and_dodge() -> None:
    assert AIM_FLOOR == (1, 7, 11, 14, 16, 17, 18, 19, 20)
    assert (max(9, AIM_FLOOR[3]), max(15, AIM_FLOOR[3])) == (14, 15)
    effective = [aim_effective(s, True, False) for s in (5, 1, 8)]
    assert effective == [2, 0, 4]
    assert [AIM_FLOOR[s] for s in effective] == [11, 1, 16]


def test_ne14_min_thr() -> None:
    assert [min_thr(s) for s in (0, 1, 3, 5, 8)] == [None, 3, 7, 11, 11]
    base0 = resolve_options({"aim_min_thr_base": 0})
    assert [min_thr(s, base0) for s in (1, 3, 5, 8)] == [2, 6, 10, 10]


def test_ng10_aim_against_dodge() -> None:
    a = creature("a", stats={"DEX": 4}, prof=3)
    rifle = weapon("ranged", "2d8", 0, "kinetic", aim=5, name="rifle")
    from linguo_cli.rulesets.novence_eternal.model import Charges
    t = creature("t", 50, stats={"DEX": 3}, charges=Charges(dodge=1))
    out = attack(a, t, rifle, [6, 2, 3, 7, 5])
    r = out.record
    assert (r.charge, r.aim_effective, r.floor, r.effective_die, r.total, r.thr) == (
        "dodge", 2, 11, 11, 18, 5)
    assert r.defense is not None and (r.defense.total, r.defense.result) == (16, "failed")
    assert (str(r.charge_factor), str(r.exact), r.damage, out.target.hp) == (
        "4/5", "48/5", 9, 41)
    assert out.target.charges.dodge == 0


def test_ng11_min_thr_beats_cover_armor_uses_thr() -> None:
    from .helpers import armor
    a = creature("a", stats={"DEX": 1}, prof=2)
    bow = weapon("ranged", "1d10", 2, "piercing", to_hit=-3, aim=3)
    t = creature("t", stats={"DEX": 2}, armor=armor(3, piercing=(2, 10)))
    cover = Cover(p=65)
    out = attack(a, t, bow, [4, 8], cover=cover)
    r = out.record
    assert (r.effective_die, r.total, r.thr) == (14, 14, 2)
    assert r.cover is not None and (r.cover.min_thr, r.cover.thr_c, r.cover.result) == (
        7, 7, "exposed")
    assert r.armor is not None and r.armor.types["piercing"].result == "deflected"
    assert (str(r.exact), r.damage, out.target.hp, r.armor.pc_after) == ("9/2", 4, 26, 3)
    alt = attack(a, t, bow, [4, 8], {"aim_min_thr_scope": "cover_and_armor"}, cover=cover)
    assert alt.record.armor is not None
    assert (alt.record.armor.pc_after, alt.record.damage, alt.target.hp) == (2, 9, 21)
    alt = attack(a, t, bow, [4], {"aim_min_thr_base": 0}, cover=cover)
    assert alt.record.cover is not None and alt.record.cover.result == "cover"
    assert (alt.record.armor, alt.target.hp) == (None, 30)


def test_ng12_thr_equal_to_cc_hits_cover() -> None:
    a = creature("a", stats={"DEX": 4}, prof=3)
    t = creature("t", 50, stats={"DEX": 3})
    cover = Cover(p=62)
    out = attack(a, t, RIFLE, [12], cover=cover)
    assert (out.record.thr, out.record.components, out.target.hp) == (6, (), 50)
    out = attack(a, t, RIFLE, [13, 3, 6], cover=cover)
    assert (out.record.thr, out.record.damage, out.target.hp) == (7, 9, 41)
    alt = attack(a, t, RIFLE, [13], {"cover_class_divisor": 5}, cover=cover)
    assert alt.record.cover is not None and alt.record.cover.cc == 10
    assert alt.target.hp == 50


def test_ne43_cover_class() -> None:
    assert [cover_class(Cover(p=p)) for p in (60, 35, 100)] == [6, 3, 10]
    literal = resolve_options({"cover_class_divisor": 5})
    assert [cover_class(Cover(p=p), literal) for p in (60, 35, 100)] == [10, 7, 10]
    simple = resolve_options({"cover_scale": "simple"})
    assert [cover_class(Cover(p=p), simple) for p in (49, 50, 79, 80, 100)] == [0, 5, 5, 8, 8]
    assert cover_class(Cover(cc=4), DEFAULTS) == 4


def test_ng63_melee_ignores_cover_and_simple_scale() -> None:
    a = creature("a", stats={"STR": 4}, prof=2)
    sword = weapon("melee", "1d8", 4, "slashing")
    out = attack(a, creature("t", 40, stats={"DEX": 2}), sword, [8, 3], cover=Cover(p=90))
    assert (out.record.total, out.record.thr, out.record.cover) == (14, 2, None)
    assert (out.record.damage, out.target.hp) == (7, 33)
    shooter = creature("a", stats={"DEX": 4}, prof=3)
    t = creature("t", 50, stats={"DEX": 3})
    out = attack(shooter, t, RIFLE, [12], cover=Cover(p=65))
    assert out.record.cover is not None and out.record.cover.cc == 6 and out.target.hp == 50
    alt = attack(shooter, t, RIFLE, [12, 3, 6], {"cover_scale": "simple"}, cover=Cover(p=65))
    assert (alt.record.damage, alt.target.hp) == (9, 41)


def test_ng73_aim_halving_after_dodge_spent() -> None:
    a = creature("a", stats={"DEX": 4}, prof=3)
    rifle = weapon("ranged", "2d8", 0, "kinetic", aim=5)
    t = creature("t", 50, stats={"DEX": 3}, dodge_spent=True)
    cover = Cover(p=75)
    out = attack(a, t, rifle, [6, 3, 3], cover=cover)
    r = out.record
    assert (r.aim_effective, r.floor, r.total, r.thr) == (5, 17, 24, 11)
    assert r.cover is not None and (r.cover.thr_c, r.cover.result) == (11, "exposed")
    assert (r.damage, out.target.hp) == (6, 44)
    alt = attack(a, t, rifle, [6], {"aim_dodge_halving": "until_next_turn"}, cover=cover)
    r = alt.record
    assert (r.aim_effective, r.floor, r.total, r.thr) == (2, 11, 18, 5)
    assert r.cover is not None and (r.cover.min_thr, r.cover.result) == (5, "cover")
    assert alt.target.hp == 50


def test_ng82_inline_attack_and_out_of_reach() -> None:
    a = creature("attacker", 20, stats={"STR": 3}, prof=2)
    t = creature("target", 30, stats={"DEX": 4})
    out = attack(a, t, MACE, [15, 4])
    assert (out.record.total, out.record.thr, out.record.damage, out.target.hp) == (
        21, 7, 7, 23)
    assert out.rolls_used == (15, 4)
    reach = weapon("melee", "1d6", 3, "bludgeoning", to_hit=1, reach=5)
    dice = ScriptedDice([15, 4])
    from linguo_cli.rulesets.novence_eternal.attack import resolve_attack
    from linguo_cli.rulesets.novence_eternal.model import AttackSpec
    with pytest.raises(Refusal) as exc:
        resolve_attack(AttackSpec(a, t, reach, map=True, distance=10), dice)
    assert (exc.value.refusal, exc.value.rule) == ("out_of_reach", "NH4")
    assert dice.used == []  # before any die; the unused faces are no fault


def test_ne06_no_map_everything_in_range() -> None:
    bow = weapon("ranged", "1d4", 0, "piercing", range=30)
    out = attack(creature("a"), creature("t", stats={"DEX": 20}), bow, [10], distance=1000)
    assert len(out.record.faces) == 1
    club = weapon("melee", "1d4", 0, "bludgeoning", reach=5)
    out = attack(creature("a"), creature("t", stats={"DEX": 20}), club, [10], distance=1000)
    assert not out.record.landed


def test_ne21_hidden_target_and_ng75b_hide_ends() -> None:
    from linguo_cli.rulesets.novence_eternal.model import Hidden
    hidden = creature("t", stats={"DEX": 20}, hidden=Hidden(17))
    with pytest.raises(Refusal) as exc:
        attack(creature("a", passive_perception=17), hidden, MACE, [])
    assert (exc.value.refusal, exc.value.rule) == ("target_hidden", "NT9")
    attack(creature("a", passive_perception=18), hidden, MACE, [5])
    attack(creature("a", passive_perception=10), replace_found(hidden, "a"), MACE, [5])
    hider = creature("a", hidden=Hidden(15))
    out = attack(hider, creature("t", stats={"DEX": 20}), MACE, [5])
    assert out.attacker.hidden is None and "hidden_ends" in out.events["a"]
    alt = attack(hider, creature("t", stats={"DEX": 20}), MACE, [5],
                 {"hide_ends": "when_found_only"})
    assert alt.attacker.hidden == Hidden(15)


def replace_found(c: Creature, finder: str) -> Creature:
    from dataclasses import replace

    from linguo_cli.rulesets.novence_eternal.model import Hidden
    assert c.hidden is not None
    return replace(c, hidden=Hidden(c.hidden.stealth, (finder,)))


def test_ne30_ng51_ac() -> None:
    assert creature("t", stats={"DEX": 4}).ac() == 14
    assert creature("t", stats={"DEX": 12}, ac_bonus=10).ac() == 30
    assert creature("t", stats={"DEX": 12}, ac_bonus=10, ac_cap=32).ac() == 32
    acs = [creature("t", stats={"DEX": 4}, ac_bonus=2, injury=i).ac() for i in (0, 3, 4, 5, 6, 8)]
    assert acs == [16, 14, 13, 11, 8, 8]
    rolls_only = resolve_options({"injury_penalty_scope": "rolls_only"})
    assert {creature("t", stats={"DEX": 4}, ac_bonus=2, injury=i).ac(rolls_only)
            for i in (0, 3, 4, 5, 6, 8)} == {16}
    zero = resolve_options({"injury_penalty_vii_viii": 0})
    assert creature("t", stats={"DEX": 4}, ac_bonus=2, injury=8).ac(zero) == 16
