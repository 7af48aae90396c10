"""The NV3 ``injury`` request: Injury stacks gained on a given creature,
each through NK4's steps (NK4-NK6, NK10, NK12), with its typed NV5 result.

A stack runs :func:`.injury.gain_stack`: a Second Chance absorbs it first
(NK10); from Injury IV up the location is fixed (the request's
``location``, else a d10, NK5; a head gains +2); Injury = min(9, Injury +
gain); IX is death (NK12); a rise to VII or VIII sets the 12-round timer
and KO (NK6, ``critical_forces_ko``); a stack ``from_damage`` ends
stabilization (NK7). Stacks run in turn; once the creature is dead the
rest change nothing and roll no die (NK12: the dead make no rolls). A
creature the stacks make KO loses its charges (NR3, ``charges_end_on_ko``).
Dice: one location d10 per stack that needs one (NO7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from linguo_cli.core.derivation import Derivation, rules_of
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.results import OMIT, Omit, to_plain

from .documents import Doc
from .injury import InjuryEvent, Track, gain_stack
from .model import Charges, Creature, Refusal
from .options import DEFAULTS, Options
from .recovery import hp_text
from .recovery_requests import CareResult, named, read
from .results import creature_view
from .state_results import written_state


def add_stacks(track: Track, stacks: int, dice: DiceSource, *, from_damage: bool = False,
               location: str | None = None, options: Options = DEFAULTS,
               log: Derivation | None = None) -> None:
    """NK4 ``stacks`` times on ``track`` (cause ``input``), in turn; stops
    once the creature is dead. ``location`` names the location of every
    stack that fixes one (no d10 then)."""
    log = log if log is not None else Derivation()
    was_ko = track.creature.ko
    for n in range(stacks):
        if track.creature.dead:
            log.note("NK12", f"{track.creature.id} is dead: the {stacks - n} stack(s) left "
                     "change nothing")
            break
        was_stabilized = track.creature.stabilized
        gain_stack(track, "input", dice, location=location, from_damage=from_damage,
                   options=options, log=log)
        if was_stabilized:
            log.note("NK7", f"{track.creature.id}: " + (
                "a stack from damage ends the stabilization" if not track.creature.stabilized
                else "a stack not from damage leaves the stabilization"))
    _charges_end(track, was_ko, options, log)


def _charges_end(track: Track, was_ko: bool, options: Options, log: Derivation) -> None:
    """NR3 (``charges_end_on_ko``): a creature the stacks made KO (NK4 step
    5, VII-VIII) loses all its charges at once."""
    c = track.creature
    if was_ko or not c.ko or c.charges == Charges():
        return
    log.note("NK1", f"{c.id} is KO: it can no longer fight")
    if not options.flag("charges_end_on_ko"):
        log.note("NR3", f"{c.id} is KO; its charges last until its next turn "
                 "(charges_end_on_ko: false)")
        return
    log.note("NR3", f"{c.id} is KO: its charges end")
    track.creature = replace(c, charges=Charges())


@dataclass(frozen=True, slots=True)
class InjuryResult(CareResult):
    """NV5 ``injury``: ``injury_events`` (one per stack, in order), with
    ``combatants`` (the target's ``{before, after, events}``), ``hp`` and,
    with Second Chances, ``party`` (``{before, after}`` of the pool)."""

    injury_events: tuple[Any, ...] = ()
    party: Mapping[str, Any] | Omit = OMIT


def _events(before: Creature, after: Creature, events: list[InjuryEvent]) -> list[str]:
    """NV5 event strings, in the order the stacks happened."""
    out: list[str] = []
    for e in events:
        if e.absorbed:
            out.append("second_chance")
            continue
        if e.location:
            out.append(f"location:{e.location}")
        out.append(f"injury:{e.injury_after}")
        if e.critical_timer is not None and e.injury_after in (7, 8):
            out.append(f"critical_timer:{e.critical_timer}")
        if e.dead:
            out.append("dead")
    if after.ko and not before.ko:
        out.append("ko")
    if before.stabilized and not after.stabilized:
        out.append("stabilization_ends")
    return out


def _view(c: Creature) -> dict[str, Any]:
    view = creature_view(c)
    view["true_max_hp"] = c.true_max_hp if c.true_max_hp is not None else c.max_hp
    return view


def resolve_injury_request(request: Doc, dice: DiceSource) -> InjuryResult:
    """NV3 ``injury`` (NK4): ``target`` (an id of the state, or a combatant
    object), ``stacks`` (1-9, default 1), ``from_damage`` (default false)
    and ``location`` (default null: a d10 where one is due). A dead target
    is refused before any die (``target_dead``, NL4: NK12's dead gain
    nothing and roll nothing)."""
    reading = read(request)
    target = named(reading, request["target"], "target", "request target")
    if target.dead:
        raise Refusal("target_dead", "NL4", f"{target.id} is dead: only a resurrection "
                      "changes it (NK12)")
    track = Track(target, reading.chances, [])
    add_stacks(track, request.get("stacks", 1), dice,
               from_damage=bool(request.get("from_damage", False)),
               location=request.get("location"), options=reading.options, log=reading.log)
    after = track.creature
    party: dict[str, Any] | Omit = OMIT
    if reading.chances is not None and track.chances is not None:
        party = {"before": {"second_chances": {"max": reading.chances.max,
                                               "pool": reading.chances.pool}},
                 "after": {"second_chances": {"max": track.chances.max,
                                              "pool": track.chances.pool}}}
    return InjuryResult(
        kind="injury", rules=tuple(dict.fromkeys(("NV3", *rules_of(reading.log.steps),
                                                  "NV5"))),
        explanation=tuple(reading.log.steps), options=reading.options.non_default(),
        combatants={target.id: {"before": _view(target), "after": _view(after),
                                "events": _events(target, after, track.events)}},
        hp={target.id: hp_text(after)}, injury_events=to_plain(tuple(track.events)),
        party=party, state=written_state(reading.state, reading.objects, {target.id: after},
                                         track.chances))
