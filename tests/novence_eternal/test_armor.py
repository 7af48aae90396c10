"""Armor, AP and melee Aim through NO1 (NA1-NA6, NM6, ND6); hand values from
WORKED_EXAMPLES.md."""

from __future__ import annotations

from fractions import Fraction

import pytest

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.rulesets.novence_eternal.armor import level_effect, resolve_armor
from linguo_cli.rulesets.novence_eternal.model import Cover, Refusal
from linguo_cli.rulesets.novence_eternal.modifiers import ModEntry, resolve_modifiers
from linguo_cli.rulesets.novence_eternal.options import DEFAULTS, resolve_options

from .helpers import armor, attack, comp, creature, res, weapon

SWORD = weapon("melee", "1d8", 4, "slashing")
SPEAR = weapon("melee", "1d8", 4, "piercing", ap=2)


def test_ne31_pc_against_thr() -> None:
    a = creature("a", stats={"DEX": 0})
    bow = weapon("ranged", None, 1, "kinetic", to_hit=0, proficient=False)
    for pc, result in ((5, "deflected"), (4, "penetrated")):
        t = creature("t", stats={"DEX": 4}, armor=armor(pc, kinetic=(1, 0)))
        out = attack(a, t, bow, [19])
        assert out.record.thr == 5
        assert out.record.armor is not None
        assert out.record.armor.types["kinetic"].result == result


# NE-46: a component worth 10, PC 5, armor RES 20: (level, THR, d2 faces, damage, PC after)
NE46 = [(1, 6, [], 8, 5), (1, 5, [], 0, 5), (2, 6, [], 8, 4), (2, 3, [], 4, 5),
        (3, 6, [], 8, 3), (3, 3, [1], 4, 5), (3, 3, [2], 4, 4), (4, 6, [2], 8, 2),
        (4, 3, [], 4, 4), (5, 3, [1], 8, 3), (5, 2, [], 4, 4)]


@pytest.mark.parametrize(("level", "thr", "d2", "damage", "pc"), NE46)
def test_ne46_vulnerability_levels(level: int, thr: int, d2: list[int], damage: int,
                                   pc: int) -> None:
    dice = ScriptedDice(d2)
    result = resolve_armor(armor(5, kinetic=(level, 20)), ["kinetic"], thr, None, dice)
    dice.finish()
    assert result is not None and result.pc_after == pc
    t = result.types["kinetic"]
    entries = [ModEntry("RES", t.res, "kinetic", armor=True)] if t.res is not None else []
    mods = resolve_modifiers({"kinetic": 10 * Fraction(t.factor)}, entries)
    assert mods.damage == damage


def test_ne46_alt_restated_only() -> None:
    restated = resolve_options({"vuln_inherit": "restated_only"})
    for level, faces in ((3, [1]), (4, []), (5, [])):
        factor, joins, _wear, _d2 = level_effect(level, False, ScriptedDice(faces), restated)
        assert factor * 10 * Fraction(4, 5) == 8 and joins


def test_ng14_thr_equal_to_pc_is_deflected() -> None:
    a = creature("a", stats={"STR": 4}, prof=2)
    t = creature("t", 40, stats={"DEX": 2}, armor=armor(5, slashing=(1, 20)))
    out = attack(a, t, SWORD, [11])
    assert (out.record.total, out.record.thr, out.record.components[0].rolled) == (17, 5, None)
    assert (out.target.hp, out.record.armor and out.record.armor.pc_after) == (40, 5)
    t = creature("t", 40, stats={"DEX": 2}, armor=armor(5, slashing=(2, 20)))
    out = attack(a, t, SWORD, [11, 6])
    assert (out.record.damage, out.target.hp) == (4, 36)


def test_ng15_full_ranged_pipeline() -> None:
    a = creature("a", stats={"DEX": 3}, prof=2, modifiers=(ModEntry("ATK", 20),))
    rifle = weapon("ranged", "2d10", 2, "kinetic", to_hit=1)
    t = creature("t", stats={"DEX": 3}, armor=armor(7, 8, kinetic=(3, 25)),
                 modifiers=res("kinetic", 15, -10), thp=5, thp_source="shield")
    cover = Cover(p=70, cdm=Fraction(1, 2))
    out = attack(a, t, rifle, [14, 2, 9, 3], cover=cover)
    r = out.record
    assert (r.total, r.thr) == (20, 7)
    assert r.cover is not None and (r.cover.result, str(r.cover.factor)) == ("cover", "1/2")
    assert r.armor is not None and r.armor.types["kinetic"].result == "deflected"
    assert (r.armor.pc_after, str(r.components[0].factor)) == (6, "1/4")
    assert r.pools is not None and str(r.pools["normal"].multiplier) == "21/20"
    assert (str(r.exact), r.damage, out.target.thp, out.target.hp) == ("147/40", 3, 2, 30)
    alt = attack(a, t, rifle, [14, 2, 9, 3], {"vuln_inherit": "restated_only"}, cover=cover)
    assert (str(alt.record.exact), alt.record.damage, alt.target.thp, alt.target.hp) == (
        "147/20", 7, 0, 28)
    alt = attack(a, t, rifle, [14, 9, 3], {"overpen_armor": "skip"}, cover=cover)
    assert (str(alt.record.exact), alt.record.damage, alt.target.thp, alt.target.hp) == (
        "161/20", 8, 0, 27)
    assert alt.target.armor is not None and alt.target.armor.pc == 7


def test_ng16_ng17_levels_iv_and_v() -> None:
    a = creature("a", stats={"STR": 2}, prof=2)
    club = weapon("melee", "1d6", 2, "bludgeoning")
    t = creature("t", 20, stats={"DEX": 4}, armor=armor(8, bludgeoning=(4, 0)))
    out = attack(a, t, club, [13, 6])
    assert (out.record.thr, out.record.damage, out.target.hp) == (3, 4, 16)
    assert out.target.armor is not None and out.target.armor.pc == 7
    t = creature("t", 20, stats={"DEX": 4}, armor=armor(5, bludgeoning=(5, -10)))
    out = attack(a, t, club, [13, 2, 5])
    assert out.record.armor is not None
    assert (out.record.armor.types["bludgeoning"].thr_a, out.record.armor.pc_after) == (6, 2)
    assert (str(out.record.exact), out.record.damage, out.target.hp) == ("77/10", 7, 13)


def test_ng18_ap_below_pc_two_pools() -> None:
    a = creature("a", stats={"STR": 4}, prof=3)
    t = creature("t", stats={"DEX": 1}, armor=armor(5, piercing=(2, 30)),
                 modifiers=res("piercing", 10, -20))
    out = attack(a, t, SPEAR, [13, 6])
    r = out.record
    assert (r.total, r.thr) == (20, 9)
    assert r.pools is not None
    assert (str(r.pools["ap"].raw["piercing"]), str(r.pools["normal"].raw["piercing"])) == (
        "4", "6")
    assert (str(r.pools["normal"].exact), str(r.pools["ap"].exact)) == ("27/5", "24/5")
    assert (str(r.exact), r.damage, out.target.hp) == ("51/5", 10, 20)
    assert out.target.armor is not None and out.target.armor.pc == 4
    alt = attack(a, t, SPEAR, [13, 6], {"ap_ignores": "armor_res_only"})
    assert (str(alt.record.exact), alt.record.damage, alt.target.hp) == ("49/5", 9, 21)
    alt = attack(a, t, SPEAR, [13, 6], {"damage_rounding": "floor_each_step"})
    assert (alt.record.damage, alt.target.hp) == (9, 21)
    alt = attack(a, t, SPEAR, [13, 6], {"ap_share_when": "deflected_only"})
    assert (alt.record.damage, alt.target.hp) == (9, 21)
    assert alt.target.armor is not None and alt.target.armor.pc == 4


def test_ng19_ap_equal_to_pc_bypasses() -> None:
    a = creature("a", stats={"STR": 4}, prof=3)
    spear5 = weapon("melee", "1d8", 4, "piercing", ap=5)
    t = creature("t", stats={"DEX": 1}, armor=armor(5, piercing=(1, 40)),
                 modifiers=res("piercing", -10))
    out = attack(a, t, spear5, [10, 3])
    assert out.record.armor is not None and out.record.armor.types["piercing"].result == (
        "bypassed")
    assert (out.record.total, out.record.armor.pc_after) == (17, 4)
    assert (str(out.record.exact), out.record.damage, out.target.hp) == ("77/10", 7, 23)
    t_b = creature("t", stats={"DEX": 1}, armor=armor(5, piercing=(1, -20)),
                   modifiers=res("piercing", -10))
    out = attack(a, t_b, spear5, [10, 3])
    assert (str(out.record.exact), out.record.damage, out.target.hp) == ("42/5", 8, 22)
    alt = attack(a, t_b, spear5, [10, 3], {"ap_armor_negative_res": "bypassed"})
    assert (str(alt.record.exact), alt.record.damage, alt.target.hp) == ("77/10", 7, 23)
    spear0 = weapon("melee", "1d8", 4, "piercing", ap=0)
    t_c = creature("t", stats={"DEX": 1}, armor=armor(0, 5, piercing=(1, 40)),
                   modifiers=res("piercing", -10))
    out = attack(a, t_c, spear0, [10, 3])
    assert (out.record.thr, out.record.damage, out.target.hp) == (6, 7, 23)
    assert out.target.armor is not None and out.target.armor.pc == 0
    alt = attack(a, t_c, spear0, [10, 3], {"ap_zero": "inert"})
    assert (str(alt.record.exact), alt.record.damage, alt.target.hp) == ("49/10", 4, 26)


def test_ng20_ap_through_level_i_deflection() -> None:
    a = creature("a", stats={"STR": 4}, prof=3)
    t = creature("t", stats={"DEX": 1}, armor=armor(8, piercing=(1, 50)))
    out = attack(a, t, SPEAR, [5, 8])
    assert (out.record.total, out.record.thr) == (12, 1)
    assert out.record.armor is not None
    assert str(out.record.armor.types["piercing"].ap_share) == "1/4"
    assert (out.record.damage, out.target.hp, out.record.armor.pc_after) == (3, 27, 8)


def test_ne37_ap() -> None:
    dice = ScriptedDice([])
    full = resolve_armor(armor(5, piercing=(2, 0)), ["piercing"], 9, 5, dice)
    assert full is not None and (full.types["piercing"].result, full.pc_after) == (
        "bypassed", 4)
    part = resolve_armor(armor(5, piercing=(2, 0)), ["piercing"], 9, 2, dice)
    assert part is not None and 10 * Fraction(part.types["piercing"].ap_share) == 4


def test_ng21_piercing_melee_aim() -> None:
    a = creature("a", stats={"STR": 3}, prof=2)
    spear = weapon("melee", "1d6", 3, "piercing")
    t = creature("t", 20, stats={"DEX": 0}, conditions=("Bound",),
                 armor=armor(9, piercing=(3, 20)))
    out = attack(a, t, spear, [6, 4], melee_aim=True)
    assert (out.record.total, out.record.thr) == (11, 1)
    assert out.record.armor is not None and out.record.armor.pc_after == 7
    assert (str(out.record.exact), out.record.damage, out.target.hp) == ("28/5", 5, 15)
    alt = attack(a, t, spear, [6, 4], {"piercing_aim": "penetrate_no_wear"}, melee_aim=True)
    assert alt.record.armor is not None and (alt.record.armor.pc_after, alt.target.hp) == (9, 15)
    alt = attack(a, t, spear, [6, 4], {"piercing_aim": "full_ap"}, melee_aim=True)
    assert alt.record.armor is not None
    assert (alt.record.armor.pc_after, alt.record.damage, alt.target.hp) == (8, 7, 13)


def test_ng22_slashing_melee_aim_bleed() -> None:
    a = creature("a", stats={"STR": 4}, prof=2)
    t = creature("t", stats={"DEX": 3}, conditions=("Prone",), modifiers=res("slashing", 50))
    out = attack(a, t, SWORD, [12, 7], melee_aim=True)
    r = out.record
    assert (r.total, r.thr, r.components[0].raw, str(r.exact), r.damage, out.target.hp) == (
        18, 5, 11, "11/2", 5, 25)
    assert r.melee_aim is not None and r.melee_aim.bleed is not None
    assert (r.melee_aim.bleed.stacks, str(r.melee_aim.bleed.value)) == (1, "11/2")
    cases = [({"bleed_basis": "damage_dealt"}, 1, "5/2"), ({"bleed_form": "n_stacks"}, 5, None),
             ({"bleed_form": "n_stacks", "bleed_basis": "damage_dealt"}, 2, None)]
    for opts, stacks, value in cases:
        alt = attack(a, t, SWORD, [12, 7], opts, melee_aim=True)
        bleed = alt.record.melee_aim and alt.record.melee_aim.bleed
        assert bleed and bleed.stacks == stacks
        assert (None if bleed.value is None else str(bleed.value)) == value
    free = creature("t", stats={"DEX": 3})
    with pytest.raises(Refusal) as exc:
        attack(a, free, SWORD, [], melee_aim=True)
    assert (exc.value.refusal, exc.value.rule) == ("target_not_restricted", "NM6")
    grappled = creature("t", stats={"DEX": 3}, conditions=("Grappled",))
    restricting = frozenset({"Bound", "Prone", "Staggered", "Grappled"})
    attack(a, grappled, SWORD, [1], melee_aim=True, restricting=restricting)
    with pytest.raises(Refusal):
        attack(a, grappled, SWORD, [], melee_aim=True)


def test_ne11_melee_aim_effects() -> None:
    a = creature("a")
    prone = creature("t", 100, conditions=("Prone",))
    axe = weapon("melee", None, 9, "slashing", proficient=False,
                 extra=(comp(None, 1, "bludgeoning"),))
    out = attack(a, prone, axe, [15], melee_aim=True)
    effects = out.record.melee_aim
    assert effects is not None and effects.bleed is not None
    assert (str(effects.bleed.value), effects.staggered) == ("9/2", True)
    alt = attack(a, prone, axe, [15], {"bleed_form": "n_stacks"}, melee_aim=True)
    assert alt.record.melee_aim and alt.record.melee_aim.bleed
    assert alt.record.melee_aim.bleed.stacks == 4


def test_ng62_unlisted_type_and_damaging_types() -> None:
    a = creature("a", stats={"STR": 3}, prof=2)
    blade = weapon("melee", "1d8", 3, "slashing", extra=(comp("1d6", 0, "psychic"),))
    t = creature("t", stats={"DEX": 2}, armor=armor(8, slashing=(1, 30)),
                 modifiers=res("psychic", 40))
    out = attack(a, t, blade, [10, 5])
    r = out.record
    assert (r.total, r.thr, r.components[0].rolled, r.components[1].raw) == (15, 3, None, 5)
    assert (r.damage, out.target.hp) == (3, 27)
    assert r.armor is not None and r.armor.pc_after == 8
    alt = attack(a, t, blade, [10, 5], {"average_over": "all_attack_types"})
    assert (alt.record.damage, alt.target.hp) == (4, 26)
    alt = attack(a, t, blade, [10], {"unlisted_damage_type": "level_1"})
    assert alt.target.hp == 30


def test_ng68_melee_aim_nullified_slashing() -> None:
    a = creature("a", stats={"STR": 4}, prof=2)
    t = creature("t", stats={"DEX": 3}, conditions=("Prone",), armor=armor(9, slashing=(1, 0)))
    out = attack(a, t, SWORD, [12], melee_aim=True)
    assert (out.record.total, out.record.thr, out.target.hp) == (18, 5, 30)
    assert out.record.melee_aim is not None and out.record.melee_aim.bleed is None
    alt = attack(a, t, SWORD, [12, 7], {"melee_aim_effect_on": "landed"}, melee_aim=True)
    bleed = alt.record.melee_aim and alt.record.melee_aim.bleed
    assert alt.record.damage == 0 and bleed and str(bleed.value) == "11/2"


def test_ng80_two_components_one_type() -> None:
    a = creature("a", stats={"STR": 3}, prof=2)
    twin = weapon("melee", "1d6", 3, "slashing", extra=(comp("1d4", 0, "slashing"),))
    t = creature("t", stats={"DEX": 2}, armor=armor(4, slashing=(3, 0)))
    out = attack(a, t, twin, [10, 2, 5, 3])
    r = out.record
    assert r.armor is not None and (r.armor.types["slashing"].d2, r.armor.pc_after) == (2, 3)
    assert [c.raw for c in r.components] == [8, 3]
    assert (str(r.exact), r.damage, out.target.hp) == ("11/2", 5, 25)


def test_defaults_are_unchanged_by_reading() -> None:
    assert DEFAULTS.text("vuln_inherit") == "carry"
