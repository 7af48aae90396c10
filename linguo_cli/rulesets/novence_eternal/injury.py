"""KO, Injury stacks and dismemberment after an attack's damage (NK1,
NK3-NK5, NK11, NO1 step 13).

Dice, in NO1 step 13's order: a location d10 for a stack that reaches
Injury V or more (NK4 step 2, unless the attack names the location or a
Second Chance absorbs the stack), then the dismemberment CON save (one d20,
two with a Guard charge's advantage, NR9). HP are integers; the KO
threshold H is in HP.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import DiceSource

from .model import Creature, KoWindow, SecondChances
from .options import DEFAULTS, Options

#: NK5: location by d10 face.
LOCATIONS = ("head", "torso", "torso", "torso", "right_arm", "left_arm", "left_leg",
             "left_leg", "right_leg", "right_leg")
CRITICAL_TIMER = 12


@dataclass(frozen=True, slots=True)
class InjuryEvent:
    """NV5's Injury event: one stack gained (or absorbed) or a level set."""

    creature: str
    cause: str
    absorbed: bool
    pool_after: int | None
    location: str | None
    location_face: int | None
    gain: int
    injury_before: int
    injury_after: int
    critical_timer: int | None
    ko: bool
    dead: bool


@dataclass
class Track:
    """The working Injury state of one creature (mutable inside the engine)."""

    creature: Creature
    chances: SecondChances | None
    events: list[InjuryEvent]


def gain_stack(track: Track, cause: str, dice: DiceSource, *, location: str | None = None,
               from_damage: bool = False, options: Options = DEFAULTS,
               log: Derivation | None = None) -> None:
    """NK4: one stack through steps 1-6: a Second Chance absorbs it (NK10);
    from IV up the location is fixed (named, else a d10, NK5; a head gains
    +2); Injury = min(9, Injury + gain); IX is death (NK12); VII-VIII set the
    12-round timer and KO (``critical_forces_ko``, NK6); a stack from damage
    ends stabilization (NK7)."""
    log = log if log is not None else Derivation()
    c = track.creature
    if track.chances is not None and track.chances.pool == 0:
        log.note("NK10", f"{c.id}: the Second Chance pool is empty")
    if track.chances is not None and track.chances.pool > 0:
        track.chances = replace(track.chances, pool=track.chances.pool - 1)
        log.note("NK4", f"{c.id}: a stack ({cause}) meets Second Chances first (step 1)")
        log.note("NK10", f"{c.id}: a Second Chance absorbs the stack (pool "
                 f"{track.chances.pool})")
        track.events.append(InjuryEvent(c.id, cause, True, track.chances.pool, None, None, 0,
                                        c.injury, c.injury, c.critical_timer, c.ko, c.dead))
        return
    face = None
    where = None
    if c.injury >= 4:
        where = location
        if where is None:
            face = dice.roll(10)
            where = LOCATIONS[face - 1]
        log.note("NK5", f"{c.id}: location {where}" + (f" (d10 {face})" if face else ""))
    gain = 2 if where == "head" else 1
    after = min(9, c.injury + gain)
    timer = c.critical_timer
    ko = c.ko
    if after in (7, 8) and after != c.injury:
        timer = CRITICAL_TIMER
        ko = ko or options.flag("critical_forces_ko")
    dead = after >= 9
    log.note("NK4", f"{c.id}: Injury {c.injury} -> {after}")
    if dead:
        log.note("NK12", f"{c.id} is dead at Injury IX")
    elif timer != c.critical_timer:
        log.note("NK6", f"{c.id}: critical timer {timer} rounds")
    track.creature = replace(
        c, injury=after, critical_timer=None if dead else timer, ko=ko, dead=c.dead or dead,
        stabilized=c.stabilized and not from_damage,
        locations=(*c.locations, where) if where else c.locations)
    track.events.append(InjuryEvent(c.id, cause, False, None, where, face, gain, c.injury,
                                    after, track.creature.critical_timer, ko, dead))


def ko_threshold(c: Creature, options: Options = DEFAULTS,
                 log: Derivation | None = None) -> int:
    """NK3: H = max(1, CON × hit die faces) with the effective CON (NK8;
    without the penalty under ``injury_penalty_scope: rolls_only``);
    ``ko_threshold_min: con``: max(1, CON) × faces."""
    con = (c.stats.get("CON", 0) + c.stat_bonuses.get("CON", 0)
           if options.is_("injury_penalty_scope", "rolls_only") else c.stat("CON", options))
    faces = c.hit_die or 0
    if log is not None and c.injury >= 3:
        log.note("NK8", f"{c.id}: CON {con} at Injury {c.injury} "
                 + ("(penalty left out: rolls_only)"
                    if options.is_("injury_penalty_scope", "rolls_only") else "(penalized)"))
    if options.is_("ko_threshold_min", "con"):
        return max(1, con) * faces
    return max(1, con * faces)


def after_damage(track: Track, *, was_ko: bool, hp_before: int, damage: int, absorbed: int,
                 dice: DiceSource, location: str | None, new_window: bool,
                 options: Options = DEFAULTS, log: Derivation | None = None) -> None:
    """NO1 step 13's KO (NK1) and damage while KO (NK3) for ``damage`` final
    HP of which THP ``absorbed`` some. A creature that drops to 0 is KO, its
    charges end (``charges_end_on_ko``) and, on the injury track, it gains a
    stack; the damage that knocked it out does not count in the window
    (``ko_overflow_counts``). A creature already KO adds the damage (before
    THP, ``ko_damage_counts``) to its window; the first sum above H gives a
    stack (``ko_damage_window: hit``: every hit above H)."""
    log = log if log is not None else Derivation()
    c = track.creature
    if new_window:
        track.creature = c = replace(c, ko_window=KoWindow())
    if not was_ko and c.ko and c.hp == 0:
        log.note("NK1", f"{c.id} is knocked out")
        if options.flag("charges_end_on_ko"):
            track.creature = c = replace(c, charges=replace(c.charges, parry=0, dodge=0,
                                                            guard=0))
        if c.on_track:
            gain_stack(track, "ko", dice, location=location, options=options, log=log)
            if not options.flag("ko_overflow_counts"):
                log.note("NK3", "the damage that knocked it out does not count")
        if options.flag("ko_overflow_counts") and track.creature.on_track:
            overflow = damage - absorbed - hp_before
            _window(track, overflow, dice, location, options, log)
        return
    if was_ko and c.on_track and not c.dead:
        counted = damage if options.is_("ko_damage_counts", "before_thp") else damage - absorbed
        _window(track, counted, dice, location, options, log)


def _window(track: Track, amount: int, dice: DiceSource, location: str | None,
            options: Options, log: Derivation) -> None:
    c = track.creature
    h = ko_threshold(c, options, log)
    if options.is_("ko_damage_window", "hit"):
        over = amount > h
        log.note("NK3", f"{c.id}: {amount} against H {h}" + (": a stack" if over else ""))
        if over:
            gain_stack(track, "ko_damage", dice, location=location, from_damage=True,
                       options=options, log=log)
        return
    total = c.ko_window.damage + amount
    over = total > h and not c.ko_window.stacked
    log.note("NK3", f"{c.id}: window {total} against H {h}" + (": a stack" if over else ""))
    track.creature = replace(c, ko_window=KoWindow(total, c.ko_window.stacked or over))
    if over:
        gain_stack(track, "ko_damage", dice, location=location, from_damage=True,
                   options=options, log=log)


@dataclass(frozen=True, slots=True)
class DismemberSave:
    """The CON save of NK11: its d20 ``faces``, ``total``, and the Guard
    ``charge`` it spent (NR9) or None."""

    faces: tuple[int, ...]
    total: int
    charge: str | None


@dataclass(frozen=True, slots=True)
class Dismemberment:
    """NV5 ``dismember``: ``eligible``, the ``save`` (None when not
    eligible), the ``band`` (none, wrist, limb, beheaded), ``injury_after``
    and ``dead``."""

    eligible: bool
    save: DismemberSave | None
    band: str | None
    injury_after: int
    dead: bool


_BAND_LEVEL = {"wrist": 6, "limb": 7}


def _band(total: int) -> str:
    """NK11's bands: 15+ none; 10-14 wrist; 5-9 limb; 4 or less beheaded."""
    return "none" if total >= 15 else "wrist" if total >= 10 else "limb" if total >= 5 else (
        "beheaded")


def dismember(track: Track, *, eligible: bool, dice: DiceSource, options: Options = DEFAULTS,
              log: Derivation | None = None) -> Dismemberment:
    """NK11 for an eligible target (a can_dismember attack with a crit, HP
    below 20% of max): the CON save (a held Guard charge is spent for
    advantage, NR9), then the band: Injury to at least VI or VII
    (``dismember_injury``; VII starts the timer and KO), or beheading
    (death unless ``beheading_exception``). Second Chances do not absorb it
    (``dismember_second_chance: absorb_per_stack``: one per stack)."""
    log = log if log is not None else Derivation()
    c = track.creature
    if not eligible:
        return Dismemberment(False, None, None, c.injury, c.dead)
    charge = "guard" if c.charges.guard > 0 else None
    faces = (dice.roll(20), dice.roll(20)) if charge else (dice.roll(20),)
    if charge:
        c = replace(c, charges=replace(c.charges, guard=c.charges.guard - 1))
        log.note("NR9", f"{c.id} spends a Guard charge: the save has advantage")
    prof = c.prof if "CON" in c.proficient_saves else 0
    total = max(faces) + c.stat("CON", options) + prof
    band = _band(total)
    log.note("NK11", f"{c.id}: CON save {total}: {band}")
    if band == "beheaded" and not c.beheading_exception:
        log.note("NK12", f"{c.id} is beheaded and dead")
        c = replace(c, dead=True, critical_timer=None)
    elif band in _BAND_LEVEL:
        c = _set_level(track, c, _BAND_LEVEL[band], options, log)
    track.creature = c
    return Dismemberment(True, DismemberSave(faces, total, charge), band, c.injury, c.dead)


def _set_level(track: Track, c: Creature, level: int, options: Options,
               log: Derivation) -> Creature:
    """NK11: Injury set to ``level`` (at least, or exactly); at VII the timer
    and KO (NK4 step 5); Second Chances absorb only under absorb_per_stack."""
    target = max(c.injury, level) if options.is_("dismember_injury", "at_least") else level
    if target > c.injury and track.chances is not None and options.is_(
            "dismember_second_chance", "absorb_per_stack"):
        absorbed = min(track.chances.pool, target - c.injury)
        track.chances = replace(track.chances, pool=track.chances.pool - absorbed)
        log.note("NK10", f"{c.id}: Second Chances absorb {absorbed} of the {target - c.injury} "
                 f"stacks (pool {track.chances.pool})")
        target -= absorbed
    if target == c.injury:
        return c
    critical = target >= 7
    timer = CRITICAL_TIMER if critical and c.injury < 7 else (c.critical_timer if critical
                                                                 else None)
    ko = c.ko or (critical and options.flag("critical_forces_ko"))
    if critical and c.injury < 7:
        log.note("NK4", f"{c.id}: Injury {target} is critical: KO "
                 f"({'critical_forces_ko' if ko else 'not forced'})")
        log.note("NK6", f"{c.id}: critical timer {timer} rounds")
    track.events.append(InjuryEvent(c.id, "dismember", False,
                                    track.chances.pool if track.chances else None, None, None,
                                    target - c.injury, c.injury, target, timer, ko, False))
    return replace(c, injury=target, critical_timer=timer, ko=ko)
