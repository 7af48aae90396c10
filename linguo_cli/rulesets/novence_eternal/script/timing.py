"""Time in a script: conditions and their durations (NT1, NT2), status-effect
damage (ND7), the start of a turn (NO3), the end of a turn, the end of the
round (NO4) and the start of the round (NO5).

Durations are counted in rounds (``rounds_left``) or turns (``turns_left``,
NT1); ``seconds`` are turned into rounds on reading (ceil by default,
``seconds_to_rounds``). Every counted duration ticks once at the end of the
round (NT2), after the status damage of the effects that tick there (ND7);
under ``duration_tick: end_of_holder_turn`` (or ``turn_means: holder_turn``
for a duration in turns) at the end of each of the holder's turns instead.
Damage is exact until ND8's floor; HP are integers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..exact import exact, parse_exact
from ..injury import Track, after_damage, gain_stack
from ..model import KoWindow
from ..modifiers import ModEntry, resolve_modifiers
from ..recovery import ko_roll
from ..zenith import meter_of, roman, up_gain_at_turn_start, zenith_level
from .world import World

_NO_WINDOW = {"damage": 0, "stacked": False}


def seconds_to_rounds(seconds: int, world: World) -> int:
    """NT1: s seconds last s/10 rounds, rounded up (``seconds_to_rounds:
    ceil``) or down (``floor``)."""
    if world.options.is_("seconds_to_rounds", "floor"):
        return seconds // 10
    return -(-seconds // 10)


def read_conditions(world: World) -> None:
    """NV1: a held condition's ``seconds`` is read as ``rounds_left``; one
    that makes 0 rounds is not held at all."""
    for c in world.state["combatants"]:
        kept = []
        for cond in c.get("conditions") or ():
            if "seconds" in cond:
                seconds = cond.pop("seconds")
                rounds = seconds_to_rounds(seconds, world)
                world.log.note("NT1", f"{c['id']}'s {cond['name']}: {seconds} s is {rounds} "
                               "round(s)")
                if rounds == 0:
                    continue
                cond["rounds_left"] = rounds
            kept.append(cond)
        if c.get("conditions"):
            c["conditions"] = kept


def gain_condition(world: World, cid: str, name: str, *, stacks: int = 1,
                   value: Any = None, duration: Mapping[str, int] | None = None,
                   inflicter: str | None = None) -> None:
    """NV1's gain of a condition: merged into one of that name held (stacks
    and values add, the duration, ``started_round`` and ``inflicter``
    replace), else appended. ``duration``: ``{rounds|turns|seconds: n}``; a
    seconds duration of 0 rounds changes nothing (NT1)."""
    dur = dict(duration or {})
    if "seconds" in dur:
        seconds = dur.pop("seconds")
        rounds = seconds_to_rounds(seconds, world)
        world.log.note("NT1", f"{name}: {seconds} s is {rounds} round(s) ("
                       f"{world.options.text('seconds_to_rounds')})")
        if rounds == 0:
            world.log.note("NT1", f"{name}: 0 rounds, not held")
            return
        dur["rounds"] = rounds
    doc = world.doc(cid)
    held = doc.setdefault("conditions", [])
    cond = next((c for c in held if c["name"] == name), None)
    if cond is None:
        cond = {"name": name, "stacks": 0}
        held.append(cond)
        world.event(cid, f"condition:{name}")
    cond["stacks"] = cond.get("stacks", 1) + stacks if cond["stacks"] else stacks
    if value is not None or cond.get("value") is not None:
        total = parse_exact(cond.get("value") or 0) + parse_exact(value or 0)
        cond["value"] = exact(total).__json__()
    for key in ("rounds_left", "turns_left"):
        cond.pop(key, None)
    if "rounds" in dur:
        cond["rounds_left"] = dur["rounds"]
    if "turns" in dur:
        cond["turns_left"] = dur["turns"]
    cond["started_round"] = world.state.get("round", 1)
    if inflicter is not None or "inflicter" in cond:
        cond["inflicter"] = inflicter
    world.log.note("NT2", f"{cid} gains {name} ({cond['stacks']} stack(s)"
                   + (f", {cond.get('rounds_left') or cond.get('turns_left')} "
                      f"{'rounds' if 'rounds_left' in cond else 'turns'}"
                      if dur else "") + ")")


def _ticks_at_holder_turn(cond: Mapping[str, Any], world: World) -> bool:
    """NT1, NT2: whether the duration ticks at its holder's turn end."""
    if "turns_left" in cond and world.options.is_("turn_means", "holder_turn"):
        return True
    counted = "rounds_left" in cond or "turns_left" in cond
    return counted and world.options.is_("duration_tick", "end_of_holder_turn")


def _tick(world: World, cid: str, cond: dict[str, Any], record: list[dict[str, Any]]) -> bool:
    """One tick of ``cond``'s duration (NT2); True when it ends."""
    key = "rounds_left" if "rounds_left" in cond else "turns_left"
    if key not in cond:
        return False
    if (not world.options.flag("duration_counts_current_round")
            and cond.get("started_round") == world.state.get("round", 1)
            and not _ticks_at_holder_turn(cond, world)):
        world.log.note("NT2", f"{cid}'s {cond['name']}: its first round does not count")
        return False
    cond[key] -= 1
    world.log.note("NT2", f"{cid}'s {cond['name']}: {key} {cond[key] + 1} -> {cond[key]}")
    if cond[key] > 0:
        return False
    world.event(cid, f"condition_ends:{cond['name']}")
    record.append({"creature": cid, "condition": cond["name"]})
    return True


def _apply(world: World, cid: str, damage: int, record: dict[str, Any]) -> None:
    """NL2 then NO1 step 13's KO hooks (NK1, NK3) for ``damage`` final HP."""
    c = world.creature(cid)
    absorbed = min(c.thp, damage)
    lost = min(c.hp, damage - absorbed)
    hp = c.hp - lost
    held = c.thp > absorbed
    after = replace(c, thp=c.thp - absorbed, thp_source=c.thp_source if held else None,
                    thp_granted=c.thp_granted if held else None, hp=hp,
                    ko=c.ko or (hp == 0 and c.hp > 0))
    world.log.note("NL2", f"{cid}: THP {c.thp} -> {after.thp}, HP {c.hp} -> {hp}")
    track = Track(after, world.chances(), [])
    after_damage(track, was_ko=c.ko, hp_before=c.hp, damage=damage, absorbed=absorbed,
                 dice=world.dice, location=None, new_window=False, options=world.options,
                 log=world.log)
    if track.creature.ko and not c.ko:
        world.event(cid, "ko")
    world.store(track.creature)
    world.set_chances(track.chances)
    record.update(thp_absorbed=absorbed, hp_lost=lost, injury_events=list(track.events))


def status_damage(world: World, cid: str, cond: Mapping[str, Any]) -> dict[str, Any] | None:
    """ND7: one tick of ``cond`` on ``cid``: amount × stacks (``per_stack``)
    × value (``times_value``) of its type; the inflicter's AFF and the
    holder's RES apply (no ATK, DEF, cover, armor or charges); floor (ND8);
    then NL2 and the KO hooks. None when its entry has no ``tick``."""
    entry = world.catalogs.get("conditions", {}).get(cond["name"]) or {}
    tick = entry.get("tick")
    if not tick:
        return None
    amount = parse_exact(tick["amount"])
    if tick.get("per_stack", False):
        amount *= cond.get("stacks", 1)
    if tick.get("times_value", False):
        amount *= parse_exact(cond.get("value") or 0)
    entries: list[ModEntry] = []
    inflicter = cond.get("inflicter")
    if inflicter is not None:
        entries += [e for e in world.creature(inflicter).modifiers if e.kind == "AFF"]
    entries += [e for e in world.creature(cid).modifiers if e.kind == "RES"]
    world.log.note("ND7", f"{cid}'s {cond['name']} ticks: {exact(amount).__json__()} "
                   f"{tick['type']}")
    result = resolve_modifiers({tick["type"]: Fraction(amount)}, entries, status=True,
                               options=world.options, log=world.log)
    record: dict[str, Any] = {"target": cid, "condition": cond["name"],
                              "exact": exact(result.exact).__json__(), "damage": result.damage}
    _apply(world, cid, result.damage, record)
    return record


def _statuses_and_ticks(world: World, cid: str, at_holder_turn: bool,
                        record: dict[str, list[Any]]) -> None:
    """NO4 steps 1-2 for one creature's effects that tick here."""
    doc = world.doc(cid)
    conds = [c for c in doc.get("conditions") or ()
             if _ticks_at_holder_turn(c, world) == at_holder_turn]
    if world.options.is_("status_damage_at", "duration_tick") and not doc.get("dead"):
        for cond in conds:
            tick = status_damage(world, cid, cond)
            if tick is not None:
                record["status_damage"].append(tick)
    ended = [c for c in conds if _tick(world, cid, c, record["ended"])]
    if ended:
        doc["conditions"] = [c for c in doc["conditions"] if c not in ended]


def new_windows(world: World) -> None:
    """NK3: every KO damage window restarts (``ko_damage_window: turn``)."""
    if not world.options.is_("ko_damage_window", "turn"):
        return
    for c in world.state["combatants"]:
        if c.get("ko_window", _NO_WINDOW) != _NO_WINDOW:
            c["ko_window"] = dict(_NO_WINDOW)


def end_of_turn(world: World, cid: str) -> dict[str, list[Any]]:
    """The end of a turn (NV4): effects whose durations tick at the end of
    their holder's turn run NO4 steps 1-2 here, in the turn's window."""
    record: dict[str, list[Any]] = {"status_damage": [], "ended": []}
    _statuses_and_ticks(world, cid, True, record)
    return record


def _critical_timer(world: World, cid: str, record: dict[str, list[Any]]) -> None:
    """NK6: the timer ticks; at 0 a stack through NK4 (its location d10);
    absorbed: the timer restarts at 12 (``timer_after_absorb: restart``) or
    stops."""
    c = world.creature(cid)
    if c.critical_timer is None or c.dead:
        return
    left = c.critical_timer - 1
    world.log.note("NK6", f"{cid}: critical timer {c.critical_timer} -> {left}")
    c = replace(c, critical_timer=left)
    record["critical_timers"].append({"creature": cid, "left": left})
    if left == 0:
        track = Track(c, world.chances(), [])
        gain_stack(track, "timer", world.dice, options=world.options, log=world.log)
        c = track.creature
        if track.events and track.events[-1].absorbed:
            restart = world.options.is_("timer_after_absorb", "restart")
            c = replace(c, critical_timer=12 if restart else None)
        elif c.critical_timer == 0:
            c = replace(c, critical_timer=None)
        world.set_chances(track.chances)
        record["injury_events"].extend(track.events)
    world.store(c)


def end_of_round(world: World) -> dict[str, list[Any]]:
    """NO4: its own KO window; then, each for every creature in listed order
    before the next: status damage (ND7), durations (NT2), critical timers
    (NK6). Returns NV5's ``end_of_round`` record."""
    new_windows(world)
    record: dict[str, list[Any]] = {"status_damage": [], "ended": [], "critical_timers": [],
                                    "injury_events": []}
    world.log.note("NO4", f"end of round {world.state.get('round', 1)}")
    ids = world.ids()
    if not world.options.is_("status_damage_at", "duration_tick"):
        world.log.note("ND7", "status damage is dealt at its holder's turn start, not here")
    if world.options.is_("status_damage_at", "duration_tick"):
        for cid in ids:
            conds = [c for c in world.doc(cid).get("conditions") or ()
                     if not _ticks_at_holder_turn(c, world)]
            for cond in conds if not world.doc(cid).get("dead") else ():
                tick = status_damage(world, cid, cond)
                if tick is not None:
                    record["status_damage"].append(tick)
    for cid in ids:
        doc = world.doc(cid)
        conds = [c for c in doc.get("conditions") or () if not _ticks_at_holder_turn(c, world)]
        ended = [c for c in conds if _tick(world, cid, c, record["ended"])]
        if ended:
            doc["conditions"] = [c for c in doc["conditions"] if c not in ended]
    for cid in ids:
        _critical_timer(world, cid, record)
    return record


def start_of_round(world: World) -> None:
    """NO5: the party's Legendary action is restored (NT7); under
    ``ko_damage_window: round`` every KO window restarts (NK3)."""
    world.log.note("NO5", f"round {world.state.get('round', 1)} starts")
    if not world.party.get("legendary_available", True):
        world.party["legendary_available"] = True
    world.log.note("NT7", "the party's Legendary action is available")
    if world.options.is_("ko_damage_window", "round"):
        for c in world.state["combatants"]:
            if c.get("ko_window", _NO_WINDOW) != _NO_WINDOW:
                c["ko_window"] = dict(_NO_WINDOW)


def _end_own(world: World, cid: str) -> list[str]:
    """NO3 step 2: the actor's charges, readied action and the Help it gave
    end (NR3, NR1, NT8); its Aim stacks under ``aim_stack_lifetime:
    until_next_turn`` (NM2); its RA and reaction counters are restored."""
    doc = world.doc(cid)
    ended: list[str] = []
    charges = doc.get("charges") or {}
    ended += [f"charge:{k}" for k in ("parry", "dodge", "guard") if charges.get(k, 0)]
    if any(charges.get(k, 0) for k in charges):
        doc["charges"] = {"parry": 0, "dodge": 0, "guard": 0}
        world.log.note("NR3", f"{cid}'s charges end")
    if doc.get("readied") is not None:
        doc["readied"] = None
        ended.append("readied")
        world.log.note("NR1", f"{cid}'s readied action ends")
    if world.options.is_("help_expires", "helper_next_turn"):
        for other in world.state["combatants"]:
            if other.get("helped_by") == cid:
                other["helped_by"] = None
                ended.append(f"help:{other['id']}")
                world.log.note("NT8", f"the Help {cid} gave {other['id']} ends")
    if world.options.is_("aim_stack_lifetime", "until_next_turn"):
        for key, w in (doc.get("weapons") or {}).items():
            if w.get("aim", 0):
                w["aim"] = 0
                ended.append(f"aim:{key}")
                world.log.note("NM2", f"{cid}'s Aim stacks on {key} end")
    for key, default in (("ra_used", False), ("bonus_reactions_used", 0),
                         ("dodge_spent", False)):
        if doc.get(key, default) != default:
            doc[key] = default
    return ended


def up_gain_hook(world: World, cid: str) -> dict[str, Any] | None:
    """NO3 step 5, the UP gain (NU2, NU5, NU7, NU1) through
    :func:`..zenith.up_gain_at_turn_start`, after the KO roll: N d4 then
    the level-V d4, capped at 100. Returns NV5's ``up_gain`` (``{faces,
    bonus, gained, lost, up_after}``), or None when no gain is made (dead,
    or KO under ``up_while_ko: none``: no die)."""
    doc = world.doc(cid)
    zp = meter_of(world.state, doc, world.options)
    if zp:
        world.log.note("NU4", f"{cid}: Zenith meter {zp}, level {roman(zenith_level(zp))}")
    after, gain, steps = up_gain_at_turn_start(doc, world.state, world.options, world.dice)
    world.log.extend(steps)
    if gain is None:
        return None
    if after.get("up", 0) != doc.get("up", 0):
        doc["up"] = after["up"]
    return {"faces": list(gain.faces), "bonus": gain.bonus, "gained": gain.gained,
            "lost": gain.lost, "up_after": gain.up_after}


def turn_start(world: World, cid: str) -> dict[str, Any]:
    """NO3 for ``cid``: (1) every KO window restarts (NK3); (2) its charges,
    readied action, Help given (and Aim under ``until_next_turn``) end; (3)
    under ``status_damage_at: holder_turn_start`` its status damage (ND7);
    (4) the KO roll (NK2) if it was KO when the turn started; (5) the UP gain
    (:func:`up_gain_hook`); (6) the budget (the caller opens it). Returns
    NV5's ``turn_start`` record."""
    world.log.note("NO3", f"{cid}'s turn starts")
    was_ko = world.doc(cid).get("ko", False)
    new_windows(world)
    record: dict[str, Any] = {"actor": cid, "ended": _end_own(world, cid),
                              "status_damage": [], "ko_roll": None, "up_gain": None,
                              "injury_events": []}
    if world.options.is_("status_damage_at", "holder_turn_start"):
        for cond in list(world.doc(cid).get("conditions") or ()):
            tick = status_damage(world, cid, cond)
            if tick is not None:
                record["status_damage"].append(tick)
                record["injury_events"].extend(tick["injury_events"])
    if was_ko:
        c = world.creature(cid)
        track = Track(c, world.chances(), [])
        roll = ko_roll(track, world.dice, world.options, world.log)
        if roll.result == "wakes":
            world.event(cid, "wakes")
        world.store(track.creature)
        world.set_chances(track.chances)
        record["ko_roll"] = {"rolled": roll.rolled, "face": roll.face, "result": roll.result,
                             "reason": roll.reason}
        record["injury_events"].extend(track.events)
    record["up_gain"] = up_gain_hook(world, cid)
    return record


__all__ = ["KoWindow", "end_of_round", "end_of_turn", "gain_condition", "read_conditions",
           "start_of_round", "status_damage", "turn_start", "up_gain_hook"]
