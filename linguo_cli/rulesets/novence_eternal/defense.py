"""Defensive charges on an AC-based attack (NR4-NR8, NR10): which charge
answers, the defense roll and breakage (NO1 steps 2 and 8).

Dice, in NO1 step 8's order: one d20 for Parry, two (advantage) for Dodge
or Guard; after a Parry roll the breakage dice, attacker first, then
defender, one for each weapon that has a Breakage Value (0 included): a
d100, or a d20 when the attacking weapon is Heavy. The charge factor (4/5,
3/5) is applied after ND (NR10).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import DiceSource

from .exact import Exact, exact
from .model import Creature, Weapon
from .options import DEFAULTS, Options

KINDS = ("parry", "dodge", "guard")


def answering_charge(target: Creature, weapon: Weapon, choice: str | None = None) -> str | None:
    """NR4: the charge kind the target spends, or ``None``. Parry answers
    melee, Dodge ranged, Guard any AC-based attack; a weapon flagged not
    parryable/dodgeable/guardable spends no charge of that kind. ``choice``
    (the target's ``defense``) wins when it matches; else the first of
    parry, dodge, guard that matches and is held."""
    allowed = {
        "parry": weapon.kind == "melee" and weapon.parryable,
        "dodge": weapon.kind == "ranged" and weapon.dodgeable,
        "guard": weapon.guardable,
    }
    held = [k for k in KINDS if allowed[k] and target.charges.of(k) > 0]
    if choice in held:
        return choice
    return held[0] if held else None


@dataclass(frozen=True, slots=True)
class BreakageRoll:
    """One breakage die (NR6): ``side`` attacker/defender, the ``weapon``'s
    name, ``die`` 100 or 20, ``face``, its ``breakage`` value, ``broken``
    (face < breakage)."""

    side: str
    weapon: str
    die: int
    face: int
    breakage: int
    broken: bool


@dataclass(frozen=True, slots=True)
class DefenseResult:
    """NV5 ``defense``: the charge ``kind``, its d20 ``faces``, ``total``,
    ``result`` (parried, dodged, guarded or failed) and the charge ``factor``."""

    kind: str
    faces: tuple[int, ...]
    total: int
    result: str
    factor: Exact


def _breakage(dice: DiceSource, attacker_weapon: Weapon, defender_weapon: Weapon | None,
              options: Options) -> tuple[BreakageRoll, ...]:
    """NR6: the attacker's then the defender's breakage die, for each weapon
    with a Breakage Value (an unarmed strike never rolls)."""
    heavy = attacker_weapon.heavy
    rolls = []
    for side, w in (("attacker", attacker_weapon), ("defender", defender_weapon)):
        if w is None or w.unarmed or w.breakage is None:
            continue
        d20 = heavy and (side == "defender" or options.is_("heavy_breakage_die", "both"))
        sides = 20 if d20 else 100
        face = dice.roll(sides)
        rolls.append(BreakageRoll(side, w.name, sides, face, w.breakage, face < w.breakage))
    return tuple(rolls)


def _parry(dice: DiceSource, target: Creature, parry_stat: str | None,
           options: Options) -> tuple[tuple[int, ...], int]:
    """NR5: d20 + STR or DEX (the choice, else the higher) + the weapon's
    Parry modifier + PROF if proficient with it."""
    stat = parry_stat or max(("STR", "DEX"), key=lambda s: target.stat(s, options))
    w = target.parry_weapon
    face = dice.roll(20)
    total = face + target.stat(stat, options) + (w.parry_mod if w else 0)
    total += target.prof if w is not None and w.proficient else 0
    return (face,), total


def _advantaged(dice: DiceSource) -> tuple[tuple[int, ...], int]:
    a, b = dice.roll(20), dice.roll(20)
    return (a, b), max(a, b)


def _dodge(dice: DiceSource, target: Creature, options: Options) -> tuple[tuple[int, ...], int]:
    """NR7: advantaged d20 + DEX + PROF if proficient in DEX saves + the
    wielded weapon's Dodge modifier (+10 unarmed)."""
    faces, kept = _advantaged(dice)
    mod = target.equipped.dodge_mod if target.equipped is not None else 10
    prof = target.prof if "DEX" in target.proficient_saves else 0
    return faces, kept + target.stat("DEX", options) + prof + mod


def _guard(dice: DiceSource, target: Creature, options: Options) -> tuple[tuple[int, ...], int]:
    """NR8: advantaged d20 + CON + PROF if proficient in CON saves."""
    faces, kept = _advantaged(dice)
    prof = target.prof if "CON" in target.proficient_saves else 0
    return faces, kept + target.stat("CON", options) + prof


_FOUR_FIFTHS = Fraction(4, 5)


def defense_roll(dice: DiceSource, kind: str, target: Creature, to_hit_total: int,
                 attacker_weapon: Weapon, *, parry_stat: str | None = None,
                 options: Options = DEFAULTS, log: Derivation | None = None
                 ) -> tuple[DefenseResult, tuple[BreakageRoll, ...]]:
    """NO1 step 8 for a spent charge of ``kind`` on a landed attack. A roll
    greater than the to-hit total parries or dodges (factor 0: no damage) or
    guards (3/5); otherwise the factor is 4/5 (NR5, NR7, NR8, NR10). After a
    Parry roll the breakage dice (NR6; under ``breakage_on: success_only``
    only after a successful parry)."""
    log = log if log is not None else Derivation()
    if kind == "parry":
        faces, total = _parry(dice, target, parry_stat, options)
    elif kind == "dodge":
        faces, total = _dodge(dice, target, options)
    else:
        faces, total = _guard(dice, target, options)
    beats = total > to_hit_total
    result, factor = {
        "parry": ("parried", Fraction(0)), "dodge": ("dodged", Fraction(0)),
        "guard": ("guarded", Fraction(3, 5)),
    }[kind] if beats else ("failed", _FOUR_FIFTHS)
    rule = {"parry": "NR5", "dodge": "NR7", "guard": "NR8"}[kind]
    log.note(rule, f"{kind} roll {total} against to-hit {to_hit_total}: {result}")
    breakage: tuple[BreakageRoll, ...] = ()
    if kind == "parry" and not beats and options.is_("breakage_on", "success_only"):
        log.note("NR6", "a failed parry rolls no breakage (breakage_on: success_only)")
    if kind == "parry" and (beats or options.is_("breakage_on", "every_roll")):
        breakage = _breakage(dice, attacker_weapon, target.parry_weapon, options)
        for b in breakage:
            log.note("NR6", f"{b.side}'s {b.weapon}: d{b.die} {b.face} against BV "
                     f"{b.breakage}: {'breaks' if b.broken else 'holds'}")
    return DefenseResult(kind, faces, total, result, exact(factor)), breakage
