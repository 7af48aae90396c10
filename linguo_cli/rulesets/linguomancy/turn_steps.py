"""The plain steps of a turn (P1-P6, C2): move, drop prone, stand up, a
named action, hold, drop, stop maintaining, another entity's reaction, end
the turn. Attacks and casts are :mod:`.turn_actions`.

Each step is a function ``(engine, eid, step) -> StepDetail`` of the acting
entity's id and the step's mapping (schema-valid); it changes the engine's
working entities (:meth:`TurnEngine.put`) and raises
:class:`~linguo_cli.core.errors.RulesError` (exit 4) through
:meth:`TurnEngine.illegal` for an illegal step (nothing of it happens).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from linguo_cli.core.conditions import Condition
from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.rulesets.linguomancy.turn_results import StepDetail
from linguo_cli.rulesets.linguomancy.turn_rules import (
    COST_CLASSES,
    NAMED_ACTIONS,
    hands_free,
    move_cost,
    num,
    stand_up_cost,
)

if TYPE_CHECKING:
    from linguo_cli.rulesets.linguomancy.turn_engine import TurnEngine

def move(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """A ``move`` step (P2, P3; P1 rev. 2 for a jump): ``metres`` in ``mode``
    (walk, crawl, jump, swim, climb, fly) over ``terrain``; costs
    :func:`move_cost` metres of movement, and a jump 1 action point as well.
    A Prone entity can only crawl; no movement while a condition forbids it
    (C2). :class:`RulesError` when illegal."""
    e = engine.entities[eid]
    raw = st["metres"]
    # an int directly (the same value as from its text, without parsing it)
    distance = Fraction(raw) if type(raw) is int else Fraction(str(raw))
    mode = str(st.get("mode", "walk"))
    terrain = str(st.get("terrain", "normal"))
    eff = engine.require_able(e, "move", "no_movement")
    if eff.crawl_only and mode != "crawl":
        raise engine.illegal("P3", f"{eid} is {engine.by(e, 'crawl_only')} and can only "
                                 f"crawl, not {mode}", mode=mode)
    cost = move_cost(distance, mode, terrain)
    extra = []
    if mode == "crawl":
        extra.append("crawling +1 m per m")
    if terrain == "difficult":
        extra.append("difficult terrain +1 m per m")
    if cost > e.movement:
        raise engine.illegal("P2", f"{mode} {num(distance)} m costs {num(cost)} m of "
                                 f"movement, {eid} has {num(e.movement)} m left",
                           needed=num(cost), left=num(e.movement))
    if mode == "jump":
        engine.require_able(e, "jump")
        e = engine.spend_ap(e, COST_CLASSES["quick"], "a jump (quick action, P1 rev. 2)")
    if e.has("Prone"):
        engine.log.note("P3", f"{eid} is Prone: crawling is allowed")
    metres, spent, left = num(distance), num(cost), e.movement - cost
    engine.log.note("P2", f"{mode} {metres} m"
                  + (f" ({', '.join(extra)})" if extra else "")
                  + f" costs {spent} m, {num(left)} m left")
    engine.put(engine.update(e, movement=left))
    return StepDetail(events=(f"moves:{metres}",), cost=spent)


def drop_prone(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """A ``drop_prone`` step (P3): free; the entity gains Prone."""
    e = engine.entities[eid]
    engine.require_able(e, "drop prone")
    if e.has("Prone"):
        raise engine.illegal("P3", f"{eid} is already Prone")
    engine.log.note("P3", f"{eid} drops Prone: no movement, no action point")
    engine.put(engine.update(e, conditions=e.conditions + (Condition("Prone", "dropped prone"),)),
               "drops_prone")
    return StepDetail(events=("drops_prone",))


def stand_up(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """A ``stand_up`` step (P3): 1 action point (quick action) and half the
    max movement; illegal when not Prone, with max movement 0, while a
    condition forbids moving (C2) or with too little movement left."""
    e = engine.entities[eid]
    engine.require_able(e, "stand up")
    if not e.has("Prone"):
        raise engine.illegal("P3", f"{eid} is not Prone: nothing to stand up from")
    need = stand_up_cost(e)
    if e.movement_max == 0:
        raise engine.illegal("P3", f"{eid} has max movement 0 and cannot stand up",
                           needed=0, left=num(e.movement), movement_max=0)
    eff = engine.effects(e)
    if eff.no_movement:
        names = engine.by(e, "no_movement")
        raise engine.illegal("C2", f"{eid} cannot move while {names}, so cannot stand up",
                           entity=eid)
    if need > e.movement:
        raise engine.illegal("P3", f"standing up costs half of max movement "
                                 f"{num(e.movement_max)} m = {num(need)} m, {eid} has "
                                 f"{num(e.movement)} m left",
                           needed=num(need), left=num(e.movement))
    e = engine.spend_ap(e, COST_CLASSES["quick"], "standing up (quick action)")
    spent, left = num(need), e.movement - need
    engine.log.note("P3", f"standing up costs {spent} m (half of "
                        f"{num(e.movement_max)} m), {num(left)} m left")
    kept = tuple(c for c in e.conditions if c.name != "Prone")
    engine.put(engine.update(e, movement=left, conditions=kept), "stands_up")
    return StepDetail(events=("stands_up",), cost=spent)


def action(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """An ``action`` step (P1, P5): a named action with its cost class (the
    rulebook's, or the step's ``cost``; :class:`InputError` for an unnamed
    action without one), its action points and ``hands``."""
    e = engine.entities[eid]
    name = str(st["name"])
    cls = st.get("cost")
    if cls is None:
        cls = NAMED_ACTIONS.get(name.casefold().replace(" ", "_").replace("-", "_"))
        if cls is None:
            raise InputError(Diagnostic(
                "request", f"turns[{engine.turn_index - 1}].steps[{engine.step_index - 1}].cost"
                if engine.step_index else "cost",
                f"action {name!r} is not one the rulebook names: give its cost "
                f"(quick, standard, complex or free)"))
    ap = engine.step_ap(st, COST_CLASSES[str(cls)])
    engine.require_able(e, name)
    e = engine.spend_ap(e, ap, f"{name} ({cls} action)")
    e = engine.spend_hands(e, int(st.get("hands", 0)), name)
    engine.put(e)
    return StepDetail(events=(f"action:{name}",), name=name, cost_class=str(cls))


def hold(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """A ``hold`` step (P5): the item takes one free Hand point until dropped;
    ``action_points`` when given (default 0)."""
    e = engine.entities[eid]
    item = str(st["item"])
    engine.require_able(e, f"hold {item}")
    free = hands_free(e, engine.costs(e))
    if free < 1:
        raise engine.illegal("P5", f"holding {item} takes a Hand point, {eid} has none free",
                           needed=1, left=free)
    ap = engine.step_ap(st, 0)
    if ap:
        e = engine.spend_ap(e, ap, f"holding {item}")
    engine.log.note("P5", f"{eid} holds {item}: one Hand point until dropped, {free - 1} free")
    engine.put(engine.update(e, held_items=e.held_items + (item,)), f"holds:{item}")
    return StepDetail(events=(f"holds:{item}",))


def drop(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """A ``drop`` step (P1, P5): free; the item's Hand point is free again."""
    e = engine.entities[eid]
    item = str(st["item"])
    engine.require_able(e, f"drop {item}")
    if item not in e.held_items:
        raise engine.illegal("P5", f"{eid} does not hold {item!r} (holds: "
                                 f"{', '.join(e.held_items) or 'nothing'})",
                           item=item, held=list(e.held_items))
    held = list(e.held_items)
    held.remove(item)
    engine.log.note("P1", f"dropping {item} is free (0 action points)")
    engine.log.note("P5", f"{eid} drops {item}: its Hand point is free again")
    engine.put(engine.update(e, held_items=tuple(held)), f"drops:{item}")
    return StepDetail(events=(f"drops:{item}",))


def stop_maintaining(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """A ``stop_maintaining`` step (P6): free; the idiom's effects end at once."""
    e = engine.entities[eid]
    idiom = str(st["idiom"])
    engine.require_able(e, f"stop maintaining {idiom}")
    names = [m.idiom for m in e.maintained]
    if idiom not in names:
        raise engine.illegal("P6", f"{eid} does not maintain {idiom!r} (maintains: "
                                 f"{', '.join(names) or 'nothing'})",
                           idiom=idiom, maintained=names)
    i = names.index(idiom)
    engine.log.note("P6", f"{eid} stops maintaining {idiom} (free): its effects end")
    e = engine.update(e, maintained=e.maintained[:i] + e.maintained[i + 1:])
    e = engine.end_idiom_effects(e, idiom)
    engine.put(e, f"stops_maintaining:{idiom}")
    return StepDetail(events=(f"stops_maintaining:{idiom}",))


def reaction(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """A ``reaction`` step (P4): another ``entity`` spends its reaction now,
    during this turn (illegal when it has none left or may not react, C2)."""
    rid = str(st["entity"])
    where = f"turns[{engine.turn_index - 1}].steps[{(engine.step_index or 1) - 1}].entity"
    r = engine.entity(rid, where)
    what = str(st.get("name", "a reaction"))
    engine.require_able(r, "react", "no_reactions")
    if not r.reaction_available:
        raise engine.illegal("P4", f"{rid} has already taken its reaction this round",
                           entity=rid, needed=1, left=0)
    engine.log.note("P4", f"{rid} reacts ({what}) during {eid}'s turn: no reaction until the "
                        f"start of its next turn; the turn continues")
    engine.put(engine.update(r, reaction_available=False), "reaction_spent")
    return StepDetail(events=(f"reaction:{rid}",), entity=rid)


def end_turn(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """An ``end_turn`` step (P1): the turn ends; unspent action points are lost."""
    e = engine.entities[eid]
    engine.log.note("P1", f"{eid} ends its turn with {e.action_points} action point(s) left; "
                        "they are lost at the end of the turn")
    return StepDetail(events=("ends_turn",))


#: A step function: ``(engine, eid, step) -> StepDetail``.
StepFunction = Callable[["TurnEngine", str, Mapping[str, Any]], StepDetail]

#: The plain step kinds and their functions.
PLAIN_STEPS: dict[str, StepFunction] = {
    "move": move, "drop_prone": drop_prone, "stand_up": stand_up, "action": action,
    "hold": hold, "drop": drop, "stop_maintaining": stop_maintaining, "reaction": reaction,
    "end_turn": end_turn,
}
