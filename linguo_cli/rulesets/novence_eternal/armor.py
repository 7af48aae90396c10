"""Cover (NC1-NC4) and armor (NA1-NA6): NO1 steps 9 and 10.

Cover needs no die. Armor acts once per damage type, in the order in which
each type's first component is listed; components of one type share one AP
split, one PC test, one level effect and at most one d2 (NO1 step 10). A d2
"chance" wears on a face of 2 (Conventions: Dice). The wear of all types,
plus AP's 1, is applied after the attack: PC = max(0, PC - wear) (NA4).
Factors are exact fractions of the component's damage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import DiceSource

from .exact import Exact, exact, exact_text
from .model import Armor, ArmorType, Cover
from .options import DEFAULTS, Options


def cover_class(cover: Cover, options: Options = DEFAULTS) -> int:
    """NC2: the CC (0-10). Given directly, it is used as it is. From a
    coverage ``p`` (percent): graded, floor(p / 10) (``cover_class_divisor:
    5``: min(10, floor(p / 5))); simple scale (``cover_scale: simple``):
    p >= 80 gives 8, 50 <= p < 80 gives 5, else 0."""
    if cover.cc is not None:
        return cover.cc
    p = cover.p or 0
    if options.is_("cover_scale", "simple"):
        return 8 if p >= 80 else 5 if p >= 50 else 0
    return min(10, p // options.number("cover_class_divisor"))


@dataclass(frozen=True, slots=True)
class CoverResult:
    """NV5 ``cover``: ``cc``, ``cdm``, ``min_thr`` (None without Aim),
    ``thr_c`` = max(THR, min_thr), ``result`` (exposed or cover) and the
    component ``factor`` (1, or cdm)."""

    cc: int
    cdm: Exact
    min_thr: int | None
    thr_c: int
    result: str
    factor: Exact

    @property
    def stops(self) -> bool:
        """A shot on cover with cdm 0 stops there: no armor, no damage dice (NC4)."""
        return self.result == "cover" and self.factor == 0


def resolve_cover(cover: Cover | None, ranged: bool, thr: int, minimum: int | None,
                  options: Options = DEFAULTS, log: Derivation | None = None
                  ) -> CoverResult | None:
    """NC1-NC4 for a landed AC-based attack: ``None`` for a melee attack or
    CC 0 (no cover step). THR_c = max(THR, Aim's ``minimum`` THR, NM5);
    THR_c > CC hits the exposed part (factor 1), else the covered part
    (factor cdm; cdm 0 stops the shot)."""
    log = log if log is not None else Derivation()
    if cover is None or not ranged:
        if cover is not None:
            log.note("NC1", "a melee attack skips the cover step")
        return None
    cc = cover_class(cover, options)
    if cc <= 0:
        return None
    thr_c = max(thr, minimum) if minimum is not None else thr
    exposed = thr_c > cc
    factor = Fraction(1) if exposed else Fraction(cover.cdm)
    log.note("NC2", f"Cover Class {cc}")
    if minimum is not None:
        log.note("NM5", f"Aim's minimum THR {minimum}: THR_c = max({thr}, {minimum})")
    log.note("NC3", f"THR_c {thr_c} against CC {cc}: {'exposed' if exposed else 'cover'}")
    if not exposed:
        log.note("NC4", f"cover damage modifier {exact_text(factor)}")
    return CoverResult(cc, exact(cover.cdm), minimum, thr_c,
                       "exposed" if exposed else "cover", exact(factor))


@dataclass(frozen=True, slots=True)
class TypeArmor:
    """NV5 ``armor.types[t]``: ``level``, ``thr_a``, ``ap_share`` (the share
    that bypasses), ``result`` (penetrated, deflected, bypassed, unlisted or
    piercing_aim), ``factor`` (the share left in the normal pool), ``res``
    (the armor RES that joins the normal pool, or None), ``d2`` (face or
    None), ``wear`` (this type's PC wear)."""

    level: int | None
    thr_a: int | None
    ap_share: Exact
    result: str
    factor: Exact
    res: int | None
    d2: int | None
    wear: int


@dataclass(frozen=True, slots=True)
class ArmorResult:
    """NV5 ``armor``: ``pc_before``, ``pc_after``, total ``wear`` and per type."""

    pc_before: int
    pc_after: int
    wear: int
    types: Mapping[str, TypeArmor]


_HALF = Fraction(1, 2)


def level_effect(level: int, penetrates: bool, dice: DiceSource,
                 options: Options = DEFAULTS) -> tuple[Fraction, bool, int, int | None]:
    """NA3 with the inheritance ruling: ``(factor, RES joins, wear, d2 face)``.

    | level | penetrates | deflected |
    | I | x1, RES | x0, no RES |
    | II | x1, RES, wear 1 | x1/2, RES |
    | III | x1, RES, wear 2 | x1/2, RES, wear 1 on d2 = 2 |
    | IV, V | x1, RES, wear 1 + d2 | x1/2, RES, wear 1 |

    Under ``vuln_inherit: restated_only`` deflections at III-V pass at x1."""
    if penetrates:
        if level >= 4:
            d2 = dice.roll(2)
            return Fraction(1), True, 1 + d2, d2
        return Fraction(1), True, {1: 0, 2: 1, 3: 2}[level], None
    if level == 1:
        return Fraction(0), False, 0, None
    half = _HALF if level == 2 or options.is_("vuln_inherit", "carry") else Fraction(1)
    if level == 3:
        d2 = dice.roll(2)
        return half, True, 1 if d2 == 2 else 0, d2
    return half, True, 0 if level == 2 else 1, None


def _entry_of(armor: Armor, dtype: str, options: Options,
              log: Derivation) -> ArmorType | None:
    """NA1: the armor's entry for ``dtype``; an unlisted type bypasses the
    armor (``None``), or is level I with RES 0 under ``unlisted_damage_type:
    level_1``."""
    entry = armor.types.get(dtype)
    if entry is None and options.is_("unlisted_damage_type", "level_1"):
        log.note("NA1", f"{dtype}: not listed by the armor, treated as level I with RES 0")
        return ArmorType(1, 0)
    return entry


def _one_type(dtype: str, entry: ArmorType, pc: int, thr: int, ap: int | None,
              piercing_aim: bool, dice: DiceSource, options: Options) -> tuple[TypeArmor, bool]:
    """NA2-NA6 for one damage type; returns its record and whether the whole
    type bypassed through AP >= PC (which wears PC by 1 once per attack)."""
    full_ap = piercing_aim and options.is_("piercing_aim", "full_ap")
    if full_ap or (ap is not None and ap >= pc):
        return TypeArmor(entry.level, None, exact(1), "bypassed", exact(0), None, None, 0), True
    share = Fraction(ap, pc) if ap is not None else Fraction(0)
    thr_a = 2 * thr if entry.level == 5 else thr
    penetrates = piercing_aim or thr_a > pc
    factor, res_joins, wear, d2 = (Fraction(1), True, 0, None)
    if not (piercing_aim and options.is_("piercing_aim", "penetrate_no_wear")):
        factor, res_joins, wear, d2 = level_effect(entry.level, penetrates, dice, options)
    if penetrates and options.is_("ap_share_when", "deflected_only"):
        share = Fraction(0)
    result = "piercing_aim" if piercing_aim else "penetrated" if penetrates else "deflected"
    return TypeArmor(entry.level, None if piercing_aim else thr_a, exact(share), result,
                     exact((1 - share) * factor), entry.res if res_joins else None, d2,
                     wear), False


def resolve_armor(armor: Armor | None, types: Sequence[str], thr: int, ap: int | None,
                  dice: DiceSource, *, piercing_aim: bool = False,
                  options: Options = DEFAULTS, log: Derivation | None = None
                  ) -> ArmorResult | None:
    """NO1 step 10: armor on each damage type of ``types`` (in first-listed
    order) at ``thr`` (the THR for armor: the actual THR, NM5), with the
    attack's ``ap`` (None: no AP; AP 0 is inert under ``ap_zero: inert``).
    ``piercing_aim`` marks a piercing component under melee Aim (NA6).
    ``None`` when the target wears no armor."""
    log = log if log is not None else Derivation()
    if armor is None:
        return None
    if ap == 0 and options.is_("ap_zero", "inert"):
        log.note("NA5", "AP 0 is inert (ap_zero: inert)")
        ap = None
    if ap is not None:
        log.note("NA5", f"AP {ap} against PC {armor.pc}")
    pc = armor.pc
    out: dict[str, TypeArmor] = {}
    ap_wear = 0
    for dtype in types:
        entry = _entry_of(armor, dtype, options, log)
        if entry is None:
            out[dtype] = TypeArmor(None, None, exact(0), "unlisted", exact(1), None, None, 0)
            log.note("NA1", f"{dtype}: not listed by the armor, passes untouched")
            continue
        aimed = piercing_aim and dtype == "piercing"
        record, bypass = _one_type(dtype, entry, pc, thr, ap, aimed, dice, options)
        ap_wear = 1 if bypass else ap_wear
        out[dtype] = record
        _note_type(log, dtype, record, pc, aimed)
    wear = sum(r.wear for r in out.values()) + ap_wear
    after = max(0, pc - wear)
    log.note("NA4", f"PC {pc} - wear {wear} = {after}")
    return ArmorResult(pc, after, wear, out)


def _note_type(log: Derivation, dtype: str, r: TypeArmor, pc: int, aimed: bool) -> None:
    if r.result == "bypassed":
        if aimed:
            log.note("NA6", f"{dtype}: piercing melee Aim as AP >= PC (piercing_aim: full_ap)")
        log.note("NA5", f"{dtype}: all of it bypasses the armor, PC wears 1")
        return
    if r.ap_share:
        log.note("NA5", f"{dtype}: AP share {exact_text(r.ap_share)} bypasses the armor")
    if r.result == "piercing_aim":
        log.note("NA6", f"{dtype}: piercing melee Aim skips the PC test")
    else:
        log.note("NA2", f"{dtype}: THR_a {r.thr_a} against PC {pc}: {r.result}")
    log.note("NA3", f"{dtype}: level {r.level}, factor {exact_text(r.factor)}, "
             f"RES {r.res if r.res is not None else 'none'}, wear {r.wear}"
             + (f" (d2 {r.d2})" if r.d2 is not None else ""))
