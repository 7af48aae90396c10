"""Damage dice and the split into pools (NX5, NO1 steps 11-12, ND6, ND8).

Each listed component (never merged) rolls when its type's factor (normal
share plus bypassing share) is > 0: the base set, then one set per crit,
faces in the order of the dice within a set; its static modifier is added
once (NX5). Raw damage is in HP; factors and pool values stay exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import DiceSource

from .exact import Exact, exact, exact_text
from .model import Component
from .options import DEFAULTS, Options


@dataclass(frozen=True, slots=True)
class ComponentRoll:
    """NV5 ``components`` item: ``type``, ``dice`` (``"NdS"`` or None),
    ``sets`` (faces per set: the base set, then one per crit), ``rolled``
    (their sum, None when no die was rolled), ``static``, ``raw`` (HP:
    rolled + static, 0 when the component was not rolled), ``factor`` (the
    share in the normal pool) and ``ap_factor`` (the share that bypasses)."""

    type: str
    dice: str | None
    sets: tuple[tuple[int, ...], ...]
    rolled: int | None
    static: int
    raw: int
    factor: Exact
    ap_factor: Exact


def roll_component(c: Component, crits: int, dice: DiceSource) -> tuple[tuple[int, ...], ...]:
    """NX5: the component's dice rolled 1 + ``crits`` times (sets in order)."""
    if c.dice is None:
        return ()
    count, sides = c.dice
    return tuple(tuple(dice.roll(sides) for _ in range(count)) for _ in range(1 + crits))


def roll_components(components: Sequence[Component], crits: int,
                    factors: Mapping[str, tuple[Fraction, Fraction]], dice: DiceSource, *,
                    force_types: frozenset[str] = frozenset(),
                    log: Derivation | None = None) -> tuple[ComponentRoll, ...]:
    """NO1 step 11: each component in listed order, rolled when its type's
    ``factors`` (normal, AP) sum above 0 or its type is in ``force_types``
    (melee Aim's Bleed under ``melee_aim_effect_on: landed``, NM6)."""
    log = log if log is not None else Derivation()
    out = []
    for c in components:
        normal, ap = factors.get(c.type, (Fraction(1), Fraction(0)))
        if normal + ap <= 0 and c.type not in force_types:
            out.append(ComponentRoll(c.type, _dice_text(c), (), None, c.static, 0,
                                     exact(normal), exact(ap)))
            continue
        sets = roll_component(c, crits, dice)
        rolled = sum(sum(s) for s in sets) if sets else None
        raw = (rolled or 0) + c.static
        if sets:
            log.note("NX5" if crits else "NO1", f"{c.type} {_dice_text(c)} x{1 + crits}: "
                     f"{' | '.join(', '.join(map(str, s)) for s in sets)} + {c.static} = {raw}")
        out.append(ComponentRoll(c.type, _dice_text(c), sets, rolled, c.static, raw,
                                 exact(normal), exact(ap)))
    return tuple(out)


def _dice_text(c: Component) -> str | None:
    return None if c.dice is None else f"{c.dice[0]}d{c.dice[1]}"


def split_pools(rolls: Sequence[ComponentRoll], cover_factor: Fraction,
                type_factors: Mapping[str, tuple[Fraction, Fraction]],
                options: Options = DEFAULTS, log: Derivation | None = None
                ) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """ND6: per damage type, the normal pool Σ raw × cover × (normal share)
    and the AP pool Σ raw × cover × (AP share). Under ``damage_rounding:
    floor_each_step`` each component is floored after cover and after armor."""
    log = log if log is not None else Derivation()
    each = options.is_("damage_rounding", "floor_each_step")
    normal: dict[str, Fraction] = {}
    ap: dict[str, Fraction] = {}
    for r in rolls:
        share, ap_share = type_factors.get(r.type, (Fraction(1), Fraction(0)))
        after_cover = Fraction(r.raw) * cover_factor
        if each:
            after_cover = Fraction(floor(after_cover))
        n, a = after_cover * share, after_cover * ap_share
        if each:
            n, a = Fraction(floor(n)), Fraction(floor(a))
        normal[r.type] = normal.get(r.type, Fraction(0)) + n
        if a:
            ap[r.type] = ap.get(r.type, Fraction(0)) + a
    log.note("ND6", "normal pool " + _pool_text(normal) + "; AP pool " + _pool_text(ap))
    return normal, ap


def _pool_text(pool: Mapping[str, Fraction]) -> str:
    return ", ".join(f"{t} {exact_text(v)}" for t, v in pool.items()) or "empty"
