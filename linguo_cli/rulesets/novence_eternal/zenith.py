"""Ultimate Points and the Zenith meter (NU1-NU7) as pure functions.

Units: UP is an integer 0..100 (NU1); ZP a count (the Zenith meter, NU4);
the Zenith Level ``floor(ZP / 9)`` (no cap). Dice are d4s drawn from the
injected source in NU7's order: at the start of a turn the N class d4s,
then the level-V d4; on Meditate its d4, then the level-VII d4. Every
function notes what it applied in a :class:`~linguo_cli.core.derivation.
Derivation` with its rule ID.

Where the meter stands (NV1): under ``zenith_meter: shared`` (default) the
state's top-level ``zp``, shared by every combatant; under ``per_creature``
each combatant's own ``zp`` (the top-level one stays 0). A creature's UP is
its ``up`` (default 0), the class's N its ``ultimate_dice`` (default 0), and
the Ultimates it used in this encounter its ``ultimates_used`` (default
``[]``).

:func:`up_gain_at_turn_start` is NO3 step 5 for the ``turn_start`` request
and scripts (wired in by their builder): the NU2 gain of one creature.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice import DiceSource

from .model import Refusal
from .options import Options

#: NU1: the most UP a creature holds.
UP_MAX = 100
#: NU4: ZP per Zenith Level.
ZP_PER_LEVEL = 9


@dataclass(frozen=True, slots=True)
class UpGain:
    """One UP gain (NV5 ``up_gain``): ``faces`` (every d4, NU7's order),
    ``bonus`` (the static Zenith bonuses, +1 and +2, NU5), ``gained`` (UP
    actually added, after the cap), ``lost`` (the excess above 100, NU1) and
    ``up_after``."""

    faces: tuple[int, ...]
    bonus: int
    gained: int
    lost: int
    up_after: int


@dataclass(frozen=True, slots=True)
class Ultimate:
    """An Ultimate's catalog entry (NV2): ``cost`` UP 0..100, the ``zp`` it
    adds, its ``min_level`` (minimum Zenith Level) and ``aa_cost``."""

    name: str
    cost: int
    zp: int
    min_level: int = 0
    aa_cost: int = 1


@dataclass(frozen=True, slots=True)
class Cast:
    """NU6's effect on the caster and the meter: UP and ZP before and after,
    and the Zenith Level before and after (recomputed at once)."""

    up_before: int
    up_after: int
    zp_before: int
    zp_after: int
    level_before: int
    level_after: int


def roman(level: int) -> str:
    """A Zenith Level as the chapter writes it (0, I, II, ... X, ...)."""
    if level <= 0:
        return "0"
    out, rest = "", level
    for value, text in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                        (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                        (4, "IV"), (1, "I")):
        while rest >= value:
            out, rest = out + text, rest - value
    return out


def zenith_level(zp: int) -> int:
    """NU4: Zenith Level = floor(ZP / 9), no cap (ZP 8 -> 0, 9 -> I, 81 -> IX)."""
    return zp // ZP_PER_LEVEL


def add_up(up: int, amount: int) -> tuple[int, int, int]:
    """NU1: ``up`` + ``amount`` capped at 100; returns ``(up_after, gained,
    lost)``, the excess being lost."""
    total = up + amount
    after = min(UP_MAX, total)
    return after, after - up, total - after


def start_bonus(level: int, options: Options) -> tuple[int, int]:
    """NU5 at the start of a turn: ``(static, d4s)``. Level I: +1; V: +1d4;
    IX: +2 (every gain). ``zenith_bonus_mode: cumulative`` adds them up;
    ``highest_per_track`` keeps only the highest of I and V (IX still adds)."""
    static, dice = _track(level, options, low=1, high=5)
    return static + (2 if level >= 9 else 0), dice


def meditate_bonus(level: int, options: Options) -> tuple[int, int]:
    """NU5 on Meditate: ``(static, d4s)``. Level III: +1; VII: +1d4; IX: +2.
    Modes as :func:`start_bonus`, the track being III and VII."""
    static, dice = _track(level, options, low=3, high=7)
    return static + (2 if level >= 9 else 0), dice


def other_bonus(level: int) -> int:
    """NU5: level IX or higher adds +2 to any other effect that grants UP."""
    return 2 if level >= 9 else 0


def _track(level: int, options: Options, *, low: int, high: int) -> tuple[int, int]:
    has_low, has_high = level >= low, level >= high
    if options.is_("zenith_bonus_mode", "highest_per_track") and has_high:
        return 0, 1
    return (1 if has_low else 0), (1 if has_high else 0)


def _bonus_text(static: int, dice: int, level: int) -> str:
    parts = ([f"+{static}"] if static else []) + (["+1d4"] if dice else [])
    return f"Zenith {roman(level)}: " + (" ".join(parts) if parts else "no bonus")


def gain(up: int, base_dice: int, level: int, bonus: tuple[int, int], dice: DiceSource,
         log: Derivation, rule: str, who: str) -> UpGain:
    """Roll ``base_dice`` d4, then the bonus d4s, add the static bonus and
    cap (NU1); ``bonus`` is ``(static, d4s)`` from :func:`start_bonus` or
    :func:`meditate_bonus`; ``rule`` is NU2 or NU3. Faces in NU7's order."""
    faces = tuple(dice.roll(4) for _ in range(base_dice + bonus[1]))
    log.note("NU5", _bonus_text(bonus[0], bonus[1], level))
    if faces:
        log.note("NU7", "d4s in order: " + ", ".join(map(str, faces)))
    amount = sum(faces) + bonus[0]
    after, gained, lost = add_up(up, amount)
    terms = [str(f) for f in faces] + ([str(bonus[0])] if bonus[0] else [])
    log.note(rule, f"{who}: gains " + (" + ".join(terms) if terms else "0")
             + (f" = {amount}" if len(terms) > 1 else ""))
    log.note("NU1", f"{who}: UP {up} + {amount} = {up + amount}"
             + (f", capped at 100 ({lost} lost)" if lost else ""))
    return UpGain(faces, bonus[0], gained, lost, after)


def turn_start_gain(up: int, n: int, level: int, *, ko: bool, dead: bool, options: Options,
                    dice: DiceSource, log: Derivation, who: str = "creature") -> UpGain | None:
    """NU2 (NO3 step 5): N d4 + the start-of-turn Zenith bonuses, capped
    (NU1). A dead creature gains nothing, nor one still KO after NK2 unless
    ``up_while_ko: gain``: then ``None`` and no die is rolled."""
    if dead or (ko and options.is_("up_while_ko", "none")):
        log.note("NU2", f"{who}: " + ("dead" if dead else "still KO") + ": no UP gain")
        return None
    if ko:
        log.note("NU2", f"{who}: still KO, but gains UP (up_while_ko: gain)")
    return gain(up, n, level, start_bonus(level, options), dice, log, "NU2", who)


def meditate_gain(up: int, level: int, options: Options, dice: DiceSource, log: Derivation,
                  who: str = "creature") -> UpGain:
    """NU3: Meditate's 1 d4 + the Meditate Zenith bonuses, capped (NU1)."""
    return gain(up, 1, level, meditate_bonus(level, options), dice, log, "NU3", who)


def effect_gain(up: int, amount: int, level: int, log: Derivation,
                who: str = "creature") -> UpGain:
    """NU1, NU5: UP an effect grants (``amount``), +2 at level IX or higher,
    capped at 100; no die."""
    extra = other_bonus(level)
    after, gained, lost = add_up(up, amount + extra)
    log.note("NU5", f"Zenith {roman(level)}: " + ("+2 on this UP gain" if extra
                                                  else "no bonus (below IX)"))
    log.note("NU1", f"{who}: UP {up} + {amount + extra} = {up + amount + extra}"
             + (f", capped at 100 ({lost} lost)" if lost else ""))
    return UpGain((), extra, gained, lost, after)


def check_cast(ultimate: Ultimate, used: bool, level: int, up: int) -> None:
    """NU6's requirements, in its order: not yet used in this encounter
    (``ultimate_used``), Zenith Level >= its minimum (``zenith_too_low``), UP
    >= its cost (``up_insufficient``). Raises :class:`~.model.Refusal`
    (exit 4, rule NU6) with the first that fails."""
    if used:
        raise Refusal("ultimate_used", "NU6", f"{ultimate.name} was already used in this "
                      "encounter")
    if level < ultimate.min_level:
        raise Refusal("zenith_too_low", "NU6", f"Zenith {roman(level)} is below the minimum "
                      f"{roman(ultimate.min_level)} of {ultimate.name}")
    if up < ultimate.cost:
        raise Refusal("up_insufficient", "NU6", f"UP {up} is below the cost {ultimate.cost} "
                      f"of {ultimate.name}")


def cast(ultimate: Ultimate, up: int, zp: int, log: Derivation) -> Cast:
    """NU6's effect: UP = 0 (not UP - cost), ZP += the Ultimate's ZP, and
    the level is recomputed at once (NU4). Call :func:`check_cast` first."""
    before, after = zenith_level(zp), zenith_level(zp + ultimate.zp)
    log.note("NU6", f"{ultimate.name} (cost {ultimate.cost}): UP {up} -> 0")
    log.note("NU4", f"ZP {zp} + {ultimate.zp} = {zp + ultimate.zp}: Zenith "
             f"{roman(before)} -> {roman(after)} (floor(ZP / 9))")
    return Cast(up, 0, zp, zp + ultimate.zp, before, after)


# ---------------------------------------------------------------------------
# The meter in NV1's documents


def meter_of(state: Mapping[str, Any], creature: Mapping[str, Any], options: Options) -> int:
    """NU4, NV1: the ZP that counts for ``creature`` (a combatant object):
    the state's ``zp`` under ``zenith_meter: shared``, its own under
    ``per_creature`` (default 0)."""
    if options.is_("zenith_meter", "per_creature"):
        return int(creature.get("zp", 0))
    return int(state.get("zp", 0))


def zenith_reset(state: Mapping[str, Any], options: Options,
                 log: Derivation | None = None) -> dict[str, Any]:
    """NU4 at an ``encounter_end`` (NV4): under ``zenith_reset: encounter``
    ZP goes to 0 (the state's, or every combatant's under
    ``zenith_meter: per_creature``); under ``never`` it stays. Every
    ``ultimates_used`` is emptied either way (NU6: once per encounter).
    Returns a new state object (shallow copies where changed)."""
    log = log if log is not None else Derivation()
    out = dict(state)
    reset = options.is_("zenith_reset", "encounter")
    per = options.is_("zenith_meter", "per_creature")
    if reset and not per:
        out["zp"] = 0
    combatants = []
    for c in state.get("combatants", ()):
        new = dict(c)
        new["ultimates_used"] = []
        if reset and per:
            new["zp"] = 0
        combatants.append(new)
    out["combatants"] = combatants
    log.note("NU4", "the encounter ends: " + ("ZP resets to 0" if reset else
                                              "ZP stays (zenith_reset: never)"))
    log.note("NU6", "every Ultimate may be used again")
    return out


def grant_up(state: Mapping[str, Any], target: dict[str, Any], amount: int, options: Options,
             log: Derivation) -> dict[str, Any]:
    """An ``up`` event (NV4) on one target (a combatant object of ``state``,
    changed in place): ``amount`` UP, +2 at its meter's level IX or higher
    (NU5), capped at 100 (NU1); no die. The ``ultimate`` request's effects
    and every script event use it. Returns the NV5 effect record ``{kind:
    up, target, faces, bonus, gained, lost, up_after}``."""
    who = str(target.get("id", "creature"))
    level = zenith_level(meter_of(state, target, options))
    record = effect_gain(int(target.get("up", 0)), amount, level, log, who=who)
    target["up"] = record.up_after
    return {"kind": "up", "target": who, "faces": list(record.faces), "bonus": record.bonus,
            "gained": record.gained, "lost": record.lost, "up_after": record.up_after}


def up_gain_at_turn_start(creature: Mapping[str, Any], state: Mapping[str, Any],
                          options: Options, dice: DiceSource
                          ) -> tuple[dict[str, Any], UpGain | None, tuple[Step, ...]]:
    """NO3 step 5 (NU2, NU5, NU7, NU1) for one combatant object of an NV1
    ``state``, after its KO roll (NK2): the creature (its ``ko`` and
    ``dead`` as they stand then) gains N d4 (``ultimate_dice``) + the
    start-of-turn bonuses of its meter's level (:func:`meter_of`), capped
    at 100. Returns ``(the combatant object with its new up, the NV5
    up_gain record or None when no gain is made (dead, or KO under
    up_while_ko: none; no die), the derivation steps)``. Dice: the class
    d4s, then the level-V d4."""
    log = Derivation()
    who = str(creature.get("id", "creature"))
    level = zenith_level(meter_of(state, creature, options))
    record = turn_start_gain(int(creature.get("up", 0)), int(creature.get("ultimate_dice", 0)),
                             level, ko=bool(creature.get("ko", False)),
                             dead=bool(creature.get("dead", False)), options=options,
                             dice=dice, log=log, who=who)
    out = dict(creature)
    if record is not None:
        out["up"] = record.up_after
    return out, record, tuple(log.steps)
