"""NV4 events: what the table says happens (``start``/``end`` lists,
interludes, ``event`` steps, an ``ability``'s ``effects``, the ``event``
request). Each event's ``source`` is the actor of the step whose
``effects`` hold it, else its ``by`` (default null); it inflicts the
conditions the event gives (ND7). The hit-point events reuse the one-off
rules (:mod:`..recovery`). Returns one record per event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..documents import DocumentError
from ..recovery import events_of, grant_thp, heal, refill, rest_injury
from ..zenith import grant_up, zenith_reset
from .timing import _apply, gain_condition
from .world import World

Event = Mapping[str, Any]


def _condition(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NT1, NT2: each target gains the condition (merged, NV1)."""
    duration = {k.removesuffix("_left"): e[k] for k in ("rounds_left", "turns_left", "seconds")
                if k in e}
    duration = {("rounds" if k == "rounds" else k): v for k, v in duration.items()}
    for t in e["targets"]:
        gain_condition(world, t, e["name"], stacks=e.get("stacks", 1), value=e.get("value"),
                       duration=duration or None, inflicter=source)
    return {"kind": "condition", "targets": list(e["targets"]), "name": e["name"]}


def _remove_condition(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NV4: the targets lose ``stacks`` of the condition (default: all)."""
    for t in e["targets"]:
        doc = world.doc(t)
        held = doc.get("conditions") or []
        cond = next((c for c in held if c["name"] == e["name"]), None)
        if cond is None:
            continue
        left = cond.get("stacks", 1) - e["stacks"] if "stacks" in e else 0
        if left > 0:
            cond["stacks"] = left
        else:
            doc["conditions"] = [c for c in held if c is not cond]
            world.event(t, f"condition_ends:{e['name']}")
        world.log.note("NT2", f"{t}: {e['name']} " + (f"{left} stack(s) left" if left > 0
                                                      else "ends"))
    return {"kind": "remove_condition", "targets": list(e["targets"]), "name": e["name"]}


def _thp(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NL3 through :func:`..recovery.grant_thp` (``thp_compare`` as the
    ``thp`` request reads it, with ``thp_granted``)."""
    granted = world.options.is_("thp_compare", "granted")
    for t in e["targets"]:
        before = world.creature(t)
        after, _grant = grant_thp(before, e["amount"], e["source"], world.log, granted)
        world.store(after)
        for ev in events_of(before, after):
            world.event(t, ev)
    return {"kind": "thp", "targets": list(e["targets"]), "amount": e["amount"]}


def _heal(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NL4 through :func:`..recovery.heal` (``amount``; a ``roll`` is rolled
    once for every target)."""
    amount = e.get("amount", 0)
    if "roll" in e:
        n, _, sides = e["roll"]["dice"].partition("d")
        faces = [world.dice.roll(int(sides)) for _ in range(int(n))]
        amount = max(0, sum(faces) + e["roll"].get("static", 0))
        world.log.note("NL4", f"healing roll {e['roll']['dice']}: {faces} = {amount}")
    for t in e["targets"]:
        before = world.creature(t)
        after, _rec = heal(before, amount, world.options, world.log)
        world.store(after)
        for ev in events_of(before, after):
            world.event(t, ev)
    return {"kind": "heal", "targets": list(e["targets"]), "amount": amount}


def _damage(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NL2 with NO1 step 13's KO hooks: ``amount`` is the final damage."""
    if "amount" not in e:
        raise DocumentError("bad_input", "NV4", "components",
                            "a damage event with components is not built yet: give amount")
    records = []
    for t in e["targets"]:
        record: dict[str, Any] = {"target": t, "damage": e["amount"]}
        _apply(world, t, e["amount"], record)
        records.append(record)
    return {"kind": "damage", "targets": records}


def _flags(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NK6 ``care`` (the timer stops), ``wake`` (KO ends, ``hp`` if given),
    NA4 ``repair`` (armor PC back to its max)."""
    kind = e["kind"]
    for t in e["creatures"]:
        doc = world.doc(t)
        if kind == "care" and doc.get("critical_timer") is not None:
            doc["critical_timer"] = None
            world.event(t, "care")
            world.log.note("NK6", f"{t} receives care: its critical timer stops")
        elif kind == "wake" and doc.get("ko"):
            doc["ko"] = False
            if "hp" in e:
                doc["hp"] = e["hp"]
            world.event(t, "wakes")
            world.log.note("NK6", f"{t} wakes")
        elif kind == "repair" and doc.get("armor"):
            doc["armor"]["pc"] = doc["armor"]["pc_max"]
            world.log.note("NA4", f"{t}'s armor is repaired to PC {doc['armor']['pc_max']}")
    return {"kind": kind, "creatures": list(e["creatures"])}


def _max_hp(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NL1: the new modified max; HP above it drops to it (``max_hp_drop:
    clamp``)."""
    for t in e["targets"]:
        doc = world.doc(t)
        doc.setdefault("true_max_hp", doc["max_hp"])
        doc["max_hp"] = e["max_hp"]
        if doc["hp"] > e["max_hp"] and world.options.is_("max_hp_drop", "clamp"):
            doc["hp"] = e["max_hp"]
        world.log.note("NL1", f"{t}: max HP {e['max_hp']}")
    return {"kind": "max_hp", "targets": list(e["targets"]), "max_hp": e["max_hp"]}


def _rest(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NK9, NK10 through :func:`..recovery.rest_injury` and ``refill``."""
    for t in e["creatures"]:
        before = world.creature(t)
        after = rest_injury(before, e["rest"], world.log)
        world.store(after)
    chances = world.chances()
    if chances is not None:
        world.set_chances(refill(chances, e["rest"], world.options))
        world.log.note("NK10", f"{e['rest']} rest: Second Chances refilled")
    return {"kind": "rest", "rest": e["rest"], "creatures": list(e["creatures"])}


def _boss_phase(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NK10: the end of a boss phase refills Second Chances as a short rest."""
    chances = world.chances()
    if chances is not None:
        world.set_chances(refill(chances, "short", world.options))
        world.log.note("NK10", "boss phase: Second Chances refilled as after a short rest")
    return {"kind": "boss_phase"}


def _encounter_end(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NV4: ZP to 0 (``zenith_reset: encounter``) and ``ultimates_used``
    emptied through :func:`..zenith.zenith_reset` (NU4, NU6), the KO of
    creatures off the injury track ends (NK1), ``round`` back to 1 with
    ``turns_taken`` empty."""
    reset = zenith_reset(world.state, world.options, world.log)
    if reset.get("zp", 0) != world.state.get("zp", 0):
        world.state["zp"] = reset["zp"]
    for c, new in zip(world.state["combatants"], reset["combatants"], strict=True):
        for key, default in (("zp", 0), ("ultimates_used", [])):
            if c.get(key, default) != new.get(key, default):
                c[key] = new[key]
        creature = world.creature(c["id"])
        if creature.ko and not creature.on_track and not creature.dead:
            world.store(replace(creature, ko=False))
            world.event(c["id"], "wakes")
            world.log.note("NK1", f"{c['id']} is off the injury track: its KO ends")
    world.state["round"] = 1
    world.state["turns_taken"] = []
    world.log.note("NV4", "the encounter ends")
    return {"kind": "encounter_end"}


def _bank(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NP4: the bank gains 100 gp per attending player."""
    before = world.party.get("bank", 0)
    world.party["bank"] = before + 100 * e["attending"]
    world.log.note("NP4", f"bank {before} + 100 x {e['attending']} = {world.party['bank']}")
    return {"kind": "bank", "bank_before": before, "bank_after": world.party["bank"]}


def _up(world: World, e: Event, source: str | None) -> dict[str, Any]:
    """NU1, NU5 through :func:`..zenith.grant_up` (as the ``ultimate``
    request's effects): each target gains ``amount`` UP, +2 at its meter's
    level IX or higher, capped at 100; no die."""
    gains = [grant_up(world.state, world.doc(t), e["amount"], world.options, world.log)
             for t in e["targets"]]
    return {"kind": "up", "targets": list(e["targets"]), "amount": e["amount"],
            "gains": gains}


def _not_built(world: World, e: Event, source: str | None) -> dict[str, Any]:
    raise DocumentError("bad_input", "NV4", "kind",
                        f"the {e['kind']} event is not built yet in this engine")


HANDLERS: dict[str, Callable[[World, Event, str | None], dict[str, Any]]] = {
    "condition": _condition, "remove_condition": _remove_condition, "thp": _thp,
    "heal": _heal, "damage": _damage, "care": _flags, "wake": _flags, "repair": _flags,
    "max_hp": _max_hp, "rest": _rest, "boss_phase": _boss_phase,
    "encounter_end": _encounter_end, "bank": _bank, "rehabilitation_done": _not_built,
    "resurrect": _not_built, "up": _up,
}


def run_events(world: World, events: Sequence[Event], place: str,
               source: str | None = None, part: str = "event") -> list[dict[str, Any]]:
    """Apply ``events`` in order; ``place`` names their list (``R1 end``),
    each is ``<place> <part> <e>`` in errors."""
    records = []
    for i, e in enumerate(events, 1):
        who = source if source is not None else e.get("by")
        try:
            records.append(HANDLERS[e["kind"]](world, e, who))
        except DocumentError as exc:
            diag = exc.diagnostics[0]
            raise DocumentError(exc.refusal, exc.rule, f"{place} {part} {i} {diag.place}",
                                diag.message) from None
    return records
