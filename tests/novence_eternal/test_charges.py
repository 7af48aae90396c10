"""Parry, Dodge and Guard on an attack (NR4-NR8, NR10, NO1 step 8); hand
values from WORKED_EXAMPLES.md (NE-15..NE-18, NG-30..NG-34, NG-65)."""

from __future__ import annotations

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.rulesets.novence_eternal.defense import (
    BreakageRoll,
    DefenseResult,
    answering_charge,
    defense_roll,
)
from linguo_cli.rulesets.novence_eternal.model import Charges, Creature, Weapon
from linguo_cli.rulesets.novence_eternal.modifiers import ModEntry, resolve_modifiers
from linguo_cli.rulesets.novence_eternal.options import resolve_options

from .helpers import attack, creature, weapon

MACE = weapon("melee", "1d10", 4, "bludgeoning", name="mace")


def _defense(kind: str, defender: Creature, total: int, faces: list[int],
             attacker_weapon: Weapon = MACE
             ) -> tuple[DefenseResult, tuple[BreakageRoll, ...]]:
    dice = ScriptedDice(faces)
    out = defense_roll(dice, kind, defender, total, attacker_weapon)
    dice.finish()
    return out


def test_ne15_parry() -> None:
    sword = weapon("melee", "1d8", 0, "slashing", parry_mod=0)
    d = creature("d", stats={"DEX": 3, "STR": 1}, prof=2, equipped=sword,
                 charges=Charges(parry=1))
    result, _ = _defense("parry", d, 16, [12])
    assert (result.total, result.result) == (17, "parried")
    result, _ = _defense("parry", d, 16, [11])
    assert (result.total, result.result) == (16, "failed")
    mods = resolve_modifiers({"slashing": 20}, [], charge_factor=result.factor)
    assert mods.damage == 16


def test_ne16_breakage() -> None:
    club = weapon("melee", "1d4", 0, "bludgeoning", parry_mod=0, breakage=5, name="club")
    d = creature("d", stats={"STR": 5}, equipped=club, charges=Charges(parry=1))
    _, rolls = _defense("parry", d, 30, [1, 4])
    assert [r.broken for r in rolls] == [True]
    _, rolls = _defense("parry", d, 30, [1, 5])
    assert [r.broken for r in rolls] == [False]
    heavy = weapon("melee", "1d4", 0, "bludgeoning", heavy=True)
    _, rolls = _defense("parry", d, 30, [1, 4], heavy)
    assert [(r.die, r.broken) for r in rolls] == [(20, True)]


def test_ne17_dodge() -> None:
    d = creature("d", stats={"DEX": 2}, charges=Charges(dodge=1))
    result, _ = _defense("dodge", d, 18, [3, 7])
    assert (result.total, result.result) == (19, "dodged")
    heavy = weapon("melee", "1d4", 0, "bludgeoning", heavy=True, dodge_mod=-2)
    d = creature("d", stats={"DEX": 2}, charges=Charges(dodge=1), equipped=heavy)
    result, _ = _defense("dodge", d, 18, [3, 7])
    assert (result.total, str(result.factor)) == (7, "4/5")


def test_ne18_guard() -> None:
    d = creature("d", stats={"CON": 3}, charges=Charges(guard=1))
    result, _ = _defense("guard", d, 18, [15, 2])
    mods = resolve_modifiers({"kinetic": 25}, [], charge_factor=result.factor)
    assert (result.total, mods.damage) == (18, 20)
    result, _ = _defense("guard", d, 18, [16, 2])
    mods = resolve_modifiers({"kinetic": 25}, [], charge_factor=result.factor)
    assert (result.total, mods.damage) == (19, 15)


def test_nr4_which_charge() -> None:
    t = creature("t", charges=Charges(parry=1, dodge=1, guard=1))
    bow = weapon("ranged", "1d4", 0, "piercing")
    assert answering_charge(t, MACE) == "parry"
    assert answering_charge(t, bow) == "dodge"
    assert answering_charge(t, MACE, "guard") == "guard"
    assert answering_charge(t, weapon("melee", "1d4", 0, "x", parryable=False)) == "guard"


def test_ng30_parry_beats_heavy_weapon() -> None:
    a = creature("a", stats={"STR": 4}, prof=3)
    greataxe = weapon("melee", "1d12", 4, "slashing", heavy=True, breakage=3, name="greataxe")
    longsword = weapon("melee", "1d8", 0, "slashing", parry_mod=2, breakage=4,
                       name="longsword")
    t = creature("t", stats={"STR": 3, "DEX": 1}, prof=2, equipped=longsword,
                 charges=Charges(parry=1))
    out = attack(a, t, greataxe, [9, 12, 3, 2])
    r = out.record
    assert r.defense is not None and (r.total, r.defense.total, r.defense.result) == (
        16, 19, "parried")
    assert [(b.side, b.die, b.broken) for b in r.breakage] == [
        ("attacker", 20, False), ("defender", 20, True)]
    assert (r.damage, out.target.hp, out.target.charges.parry) == (0, 30, 0)
    assert "weapon_broken:longsword" in out.events["t"]
    assert out.target.equipped is not None and out.target.equipped.broken
    alt = attack(a, t, greataxe, [9, 12, 3, 2], {"heavy_breakage_die": "defender_only"})
    assert [(b.die, b.broken) for b in alt.record.breakage] == [(100, False), (20, True)]


def test_ng31_failed_parry_still_rolls_breakage() -> None:
    a = creature("a", stats={"STR": 4}, prof=3)
    longsword = weapon("melee", "1d8", 4, "slashing", breakage=2, name="longsword")
    dagger = weapon("melee", "1d4", 0, "piercing", parry_mod=-1, breakage=10, name="dagger")
    t = creature("t", 25, stats={"STR": 1, "DEX": 2}, prof=2, equipped=dagger,
                 charges=Charges(parry=1))
    out = attack(a, t, longsword, [15, 17, 2, 10, 8])
    r = out.record
    assert r.defense is not None and (r.total, r.defense.total, r.defense.result) == (
        22, 20, "failed")
    assert [b.broken for b in r.breakage] == [False, False]
    assert (str(r.exact), r.damage, out.target.hp) == ("48/5", 9, 16)
    alt = attack(a, t, longsword, [15, 17, 8], {"breakage_on": "success_only"})
    assert (alt.record.breakage, alt.record.damage, alt.target.hp) == ((), 9, 16)
    bv0 = weapon("melee", "1d4", 0, "piercing", parry_mod=-1, breakage=0, name="dagger")
    t0 = creature("t", 25, stats={"STR": 1, "DEX": 2}, prof=2, equipped=bv0,
                  charges=Charges(parry=1))
    out = attack(a, t0, longsword, [15, 17, 2, 1, 8])
    assert [b.broken for b in out.record.breakage] == [False, False] and out.target.hp == 16
    none = weapon("melee", "1d4", 0, "piercing", parry_mod=-1, name="dagger")
    tn = creature("t", 25, stats={"STR": 1, "DEX": 2}, prof=2, equipped=none,
                  charges=Charges(parry=1))
    out = attack(a, tn, longsword, [15, 17, 2, 8])
    assert [b.side for b in out.record.breakage] == ["attacker"] and out.target.hp == 16


def test_ng32_guard_equal_then_greater() -> None:
    a = creature("a", stats={"STR": 4}, prof=3)
    t = creature("t", 40, stats={"CON": 3, "DEX": 2}, charges=Charges(guard=1))
    out = attack(a, t, MACE, [11, 7, 15, 6])
    assert out.record.defense is not None
    assert (out.record.total, out.record.defense.total) == (18, 18)
    assert (out.record.damage, out.target.hp) == (8, 32)
    out = attack(a, t, MACE, [11, 16, 2, 6])
    assert out.record.defense is not None and out.record.defense.result == "guarded"
    assert (out.record.damage, out.target.hp) == (6, 34)


def test_ng33_unarmed_dodge() -> None:
    a = creature("a", stats={"DEX": 5}, prof=3)
    pistol = weapon("ranged", "1d10", 1, "kinetic", to_hit=1)
    t = creature("t", 20, stats={"DEX": 2}, prof=2, proficient_saves=frozenset({"DEX"}),
                 charges=Charges(dodge=1))
    out = attack(a, t, pistol, [10, 4, 6])
    r = out.record
    assert r.defense is not None and (r.total, r.defense.total, r.defense.result) == (
        19, 20, "dodged")
    assert (r.damage, r.components, out.target.hp, out.target.charges.dodge) == (0, (), 20, 0)


def test_ng34_charge_spent_on_a_miss() -> None:
    club = weapon("melee", "1d6", 0, "bludgeoning", proficient=False)
    t = creature("t", stats={"DEX": 5}, charges=Charges(guard=1))
    out = attack(creature("a"), t, club, [7])
    assert (out.record.total, out.record.landed, out.target.charges.guard) == (7, False, 0)
    assert out.record.charge == "guard"
    alt = attack(creature("a"), t, club, [7], {"charge_consumed": "on_landed"})
    assert alt.target.charges.guard == 1


def test_ng65_charge_factor_is_not_a_def_entry() -> None:
    a = creature("a", stats={"STR": 4}, prof=3)
    t = creature("t", 40, stats={"CON": 3, "DEX": 2}, charges=Charges(guard=1),
                 modifiers=(ModEntry("DEF", 40),))
    out = attack(a, t, MACE, [11, 7, 15, 6])
    assert (str(out.record.exact), out.record.damage, out.target.hp) == ("24/5", 4, 36)
    alt = attack(a, t, MACE, [11, 7, 15, 6], {"charge_reduction_as": "def_modifier"})
    assert (alt.record.damage, alt.target.hp) == (6, 34)
    assert resolve_options({"charge_reduction_as": "def_modifier"}).non_default() == {
        "charge_reduction_as": "def_modifier"}
