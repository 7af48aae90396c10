"""Builders for the Novence Eternal tests: creatures, weapons and one attack
with scripted faces (every face must be used)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.rulesets.novence_eternal.attack import AttackOutcome, resolve_attack
from linguo_cli.rulesets.novence_eternal.model import (
    Armor,
    ArmorType,
    AttackSpec,
    Component,
    Cover,
    Creature,
    Weapon,
)
from linguo_cli.rulesets.novence_eternal.modifiers import ModEntry
from linguo_cli.rulesets.novence_eternal.options import resolve_options


def weapon(kind: str, dice: str | None, static: int, dtype: str, *, to_hit: int = 0,
           stat: str | None = None, proficient: bool = True, name: str = "weapon",
           extra: tuple[Component, ...] = (), **kw: Any) -> Weapon:
    """A weapon of one component (plus ``extra``); ``dice`` as ``"1d8"``."""
    parsed = None
    if dice is not None:
        n, s = dice.split("d")
        parsed = (int(n), int(s))
    stat = stat if stat is not None else ("STR" if kind == "melee" else "DEX")
    return Weapon(name, kind, (Component(dtype, parsed, static), *extra), stat=stat,
                  to_hit=to_hit, proficient=proficient, **kw)


def comp(dice: str | None, static: int, dtype: str) -> Component:
    """One damage component."""
    parsed = None
    if dice is not None:
        n, s = dice.split("d")
        parsed = (int(n), int(s))
    return Component(dtype, parsed, static)


def creature(id_: str = "t", hp: int = 30, max_hp: int | None = None, **kw: Any) -> Creature:
    """A creature; ``stats`` etc. as keywords (``STR=3`` style via ``stats``)."""
    return Creature(id_, hp, max_hp if max_hp is not None else hp, **kw)


def armor(pc: int, pc_max: int | None = None, **types: tuple[int, int]) -> Armor:
    """Armor with ``type=(level, res)`` entries."""
    return Armor(pc, pc_max if pc_max is not None else pc,
                 {t: ArmorType(lv, res) for t, (lv, res) in types.items()})


def res(dtype: str, *values: int) -> tuple[ModEntry, ...]:
    """RES entries of one damage type."""
    return tuple(ModEntry("RES", v, dtype) for v in values)


def attack(attacker: Creature, target: Creature, w: Weapon, rolls: list[int],
           options: dict[str, Any] | None = None, **kw: Any) -> AttackOutcome:
    """Resolve one attack with ``rolls``; fails if a face is left over."""
    dice = ScriptedDice(rolls)
    out = resolve_attack(AttackSpec(attacker, target, w, **kw), dice,
                         resolve_options(options))
    dice.finish()
    return out


__all__ = ["Cover", "Fraction", "ModEntry", "armor", "attack", "comp", "creature", "res",
           "weapon"]
