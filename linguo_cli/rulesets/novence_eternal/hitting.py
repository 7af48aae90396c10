"""Hitting (NH1-NH5), the Aim floor and minimum THR (NM3-NM5), crits and
crit fails (NX1-NX6): steps 3-7 of NO1.

Dice are consumed from an injected :class:`~linguo_cli.core.dice.DiceSource`
in NO1's order: the to-hit d20 (two with advantage or disadvantage, first
then second), then, for a landed attack with CRR <= -20, the bonus crit d20
(``bonus_crit_die: new_d20``). Comparisons are strict where the text says
"exceed" (NH2). Distances are in feet.
"""

from __future__ import annotations

from dataclasses import dataclass

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import DiceSource

from .model import Refusal
from .options import DEFAULTS, Options

#: NM3: the d20 floor for 0-8 Aim stacks (the chapter's own list).
AIM_FLOOR = (1, 7, 11, 14, 16, 17, 18, 19, 20)


def range_band(distance: int, range_ft: int, options: Options = DEFAULTS) -> str:
    """NH5: the band of a ranged attack at ``distance`` feet with a weapon of
    range ``range_ft`` feet: ``short`` (advantage), ``medium``, ``long``
    (disadvantage) or ``out``. Each named distance belongs to the band it
    names (``range_edges: nearer_band``): R/2 is short, R medium, 2R long;
    under ``farther_band`` the edges go to the farther band."""
    twice = 2 * distance
    if options.is_("range_edges", "farther_band"):
        bounds = (twice < range_ft, distance < range_ft, distance < 2 * range_ft)
    else:
        bounds = (twice <= range_ft, distance <= range_ft, distance <= 2 * range_ft)
    for band, inside in zip(("short", "medium", "long"), bounds, strict=True):
        if inside:
            return band
    return "out"


def band_effect(kind: str, band: str, options: Options = DEFAULTS) -> tuple[bool, bool]:
    """NH4/NH5: ``(advantage, disadvantage)`` from a band; ``out`` raises
    :class:`Refusal` (``out_of_reach``, NH4, for melee; ``out_of_range``,
    NH5, for ranged unless ``beyond_long_range: disadvantage``)."""
    if band == "out":
        if kind == "melee":
            raise Refusal("out_of_reach", "NH4", "the target is beyond the weapon's reach")
        if options.is_("beyond_long_range", "disadvantage"):
            return False, True
        raise Refusal("out_of_range", "NH5", "the target is beyond long range")
    return band == "short", band == "long"


def aim_effective(stacks: int, dodge_held: bool, dodge_spent: bool,
                  options: Options = DEFAULTS) -> int:
    """NM4: s_eff = floor(s / 2) when the target holds a Dodge charge as the
    attack is declared (also when one was spent since its last turn, under
    ``aim_dodge_halving: until_next_turn``); else s. 5 -> 2, 1 -> 0, 8 -> 4."""
    halve = dodge_held or (dodge_spent and options.is_("aim_dodge_halving", "until_next_turn"))
    return stacks // 2 if halve else stacks


def min_thr(s_eff: int, options: Options = DEFAULTS) -> int | None:
    """NM5: Aim's minimum THR, base + min(2 × s_eff, 10) with base 1
    (``aim_min_thr_base``); ``None`` at s_eff 0. 1-5 stacks: 3, 5, 7, 9, 11."""
    if s_eff < 1:
        return None
    return options.number("aim_min_thr_base") + min(2 * s_eff, 10)


@dataclass(frozen=True, slots=True)
class D20Face:
    """One to-hit d20 face and whether it was kept (NS3)."""

    face: int
    kept: bool


def roll_d20(dice: DiceSource, advantage: bool, disadvantage: bool) -> tuple[D20Face, ...]:
    """NS3: one d20, or two (first then second) with advantage (keep the
    higher) or disadvantage (keep the lower); both at once roll one. Of two
    equal faces the first is marked kept."""
    if advantage == disadvantage:
        return (D20Face(dice.roll(20), True),)
    a, b = dice.roll(20), dice.roll(20)
    first = a >= b if advantage else a <= b
    return D20Face(a, first), D20Face(b, not first)


@dataclass(frozen=True, slots=True)
class CritTest:
    """NX1, NX2, NX6 on the natural: ``crits`` held before landing (1 for a
    crit at CRR > -20, g at CRR <= -20), ``auto_crits`` g, ``residual`` r,
    ``crit_fail`` after ``crit_vs_fail``."""

    crits: int
    auto_crits: int
    residual: int
    crit_fail: bool


def crit_test(natural: int, effective: int, crr: int, far: int,
              options: Options = DEFAULTS) -> CritTest:
    """NX1-NX3, NX6. For -19 <= CRR <= 0 a crit iff the die >= 20 + CRR (the
    natural; the effective die under ``aim_floor_crits: true``). At CRR <= -20,
    g = floor(-CRR / 20) automatic crits and every natural is in range,
    r = CRR + 20g. A crit fail iff natural <= 1 + FAR. In both ranges the crit
    wins (``crit_vs_fail``); under fail_wins it is a crit fail with no crit."""
    die = effective if options.flag("aim_floor_crits") else natural
    if crr <= -20:
        g = -crr // 20
        r, in_crit, held = crr + 20 * g, True, g
    else:
        g, r, held = 0, crr, 1
        in_crit = die >= 20 + crr
    in_fail = natural <= 1 + far
    if in_crit and in_fail:
        if options.is_("crit_vs_fail", "crit_wins"):
            in_fail = False
        else:
            in_crit = False
    return CritTest(held if in_crit else 0, g, r, in_fail)


@dataclass(frozen=True, slots=True)
class ToHit:
    """NO1 steps 4-7 (NV5 ``attack`` fields): to-hit ``faces``, ``natural``,
    ``aim_stacks``, ``aim_effective`` (s_eff), ``floor``, ``effective_die``,
    ``total``, ``against`` (AC), ``auto_crits`` g, ``residual`` r,
    ``bonus_die`` (face or None), ``crit_fail``, ``crits``, ``landed``,
    ``thr`` (None when not landed)."""

    faces: tuple[D20Face, ...]
    natural: int
    aim_stacks: int
    aim_effective: int
    floor: int
    effective_die: int
    total: int
    against: int
    auto_crits: int
    residual: int
    bonus_die: int | None
    crit_fail: bool
    crits: int
    landed: bool
    thr: int | None


def _lands(total: int, ac: int, test: CritTest, options: Options) -> bool:
    """NH2, NX4, NX6: a crit fail misses (``crit_fail_effect: auto_miss``); a
    crit lands (``crit_auto_lands``); else total > AC (``hit_rule: meet``: >=)."""
    if test.crit_fail and options.is_("crit_fail_effect", "auto_miss"):
        return False
    if test.crits >= 1 and options.flag("crit_auto_lands"):
        return True
    return total >= ac if options.is_("hit_rule", "meet") else total > ac


def _bonus_crit(dice: DiceSource, natural: int, residual: int,
                options: Options) -> tuple[int | None, bool]:
    """NX2: the bonus crit test at CRR <= -20: a new d20 (or the natural
    under ``bonus_crit_die: same_natural``) against 20 + r (20 under
    ``bonus_crit_range: normal``). Returns (die face or None, crits)."""
    threshold = 20 + residual if options.is_("bonus_crit_range", "residual") else 20
    if options.is_("bonus_crit_die", "same_natural"):
        return None, natural >= threshold
    face = dice.roll(20)
    return face, face >= threshold


def _note_crit_test(log: Derivation, natural: int, effective: int, crr: int, far: int,
                    test: CritTest) -> None:
    """The derivation of NX1-NX3 and NX6 for one to-hit roll."""
    if effective != natural:
        log.note("NX3", f"the crit test reads the natural {natural}, "
                 f"not the effective die {effective}")
    if test.auto_crits:
        log.note("NX2", f"CRR {crr}: (x{test.auto_crits}, {test.residual})")
    elif test.crits:
        log.note("NX1", f"natural {natural} is in the crit range of CRR {crr}")
    if natural <= 1 + far:
        log.note("NX6", f"natural {natural} is in the fail range of FAR {far}: "
                 + ("a crit fail" if test.crit_fail else "the crit wins"))


def resolve_to_hit(dice: DiceSource, *, advantage: bool, disadvantage: bool, bonus: int,
                   ac: int, crr: int, far: int, aim_stacks: int, s_eff: int,
                   options: Options = DEFAULTS, log: Derivation | None = None,
                   defence: str = "AC") -> ToHit:
    """NO1 steps 4-7: roll the to-hit d20(s) (NS3), apply the Aim floor of
    s_eff stacks (NM3), total = effective die + ``bonus`` (NH1: the weapon's
    to-hit, stat, PROF and other bonuses, in points), the crit and crit-fail
    tests (NX1-NX6), landing (NH2, NX4), the bonus crit d20 at CRR <= -20
    (NX2), and THR = max(0, total - AC) for a landed attack (NH3). An
    SC-based attack (NH6, NO6 steps 3-5) passes its SC as ``ac`` and
    ``defence="SC"``, the name the derivation gives it."""
    log = log if log is not None else Derivation()
    faces = roll_d20(dice, advantage, disadvantage)
    natural = next(f.face for f in faces if f.kept)
    floor = AIM_FLOOR[min(max(s_eff, 0), 8)]
    effective = max(natural, floor)
    total = effective + bonus
    if advantage and disadvantage:
        log.note("NS3", "advantage and disadvantage together: one d20")
    if len(faces) == 2:
        log.note("NS3", f"{'advantage' if advantage else 'disadvantage'}: "
                 f"{faces[0].face} and {faces[1].face}, keeps {natural}")
    if s_eff:
        log.note("NM3", f"{s_eff} Aim stack(s): floor {floor}, effective die {effective}")
    log.note("NH1", f"to-hit total {effective} {bonus:+d} = {total}")
    test = crit_test(natural, effective, crr, far, options)
    _note_crit_test(log, natural, effective, crr, far, test)
    landed = _lands(total, ac, test, options)
    rule = "NX4" if test.crits and total <= ac and not test.crit_fail else "NH2"
    log.note(rule, f"total {total} against {defence} {ac}: "
             f"{'lands' if landed else 'misses' if defence == 'AC' else 'does not land'}")
    crits = test.crits if landed else 0
    bonus_face = None
    if landed and crr <= -20:
        bonus_face, extra = _bonus_crit(dice, natural, test.residual, options)
        crits += 1 if extra else 0
        log.note("NX2", f"bonus crit test {bonus_face if bonus_face is not None else natural}: "
                 f"{'crit' if extra else 'no crit'}; crits {crits}")
    thr = max(0, total - ac) if landed else None
    if thr is not None:
        log.note("NH3", f"THR {thr}")
    return ToHit(faces, natural, aim_stacks, s_eff, floor, effective, total, ac,
                 test.auto_crits, test.residual, bonus_face, test.crit_fail, crits, landed, thr)
