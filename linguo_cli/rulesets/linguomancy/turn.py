"""Kind ``turn``: a state, the turns its entities take, dice -> the new state.

The request handler (:func:`resolve_turn_request`) over Linguomancy's turn
engine (:class:`~.turn_engine.TurnEngine`, played by the core turn player
:mod:`linguo_cli.core.turns`); the steps are :mod:`.turn_steps` and
:mod:`.turn_actions`, the numbers :mod:`.turn_rules`, the typed result
:mod:`.turn_results`.

All or nothing: the first illegal step raises
:class:`~linguo_cli.core.errors.RulesError` (exit 4) with the 1-based turn and
step indices (``turn T, step S: ...``, details ``turn``, ``step``), the rule
ID and the numbers involved; the caller then writes nothing.

Dice: a step with its own ``rolls`` uses exactly those faces (all of them);
every other die comes from the document's source, in this order: for each
turn, the start-of-turn death save, then each step in order (an attack: its
d20 test, then its damage dice; a cast: the order of the cast kind).

Units: action points, metres (``Fraction`` inside, :func:`model.metres` out),
Hand points, Flux points, turns. Pure: no I/O; chance only from the given
:class:`~linguo_cli.core.dice.DiceSource`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.rulesets.linguomancy import conditions as conditions_
from linguo_cli.rulesets.linguomancy import idioms as idioms_
from linguo_cli.rulesets.linguomancy.model import Entity
from linguo_cli.rulesets.linguomancy.turn_engine import TurnEngine
from linguo_cli.rulesets.linguomancy.turn_results import (
    EntityChange,
    StateAfter,
    TurnReport,
    TurnResult,
)
from linguo_cli.rulesets.linguomancy.turn_rules import (
    ATTACK_AP,
    CAST_AP,
    COMPLEX_CAST_AP,
    COST_CLASSES,
    MAX_ACTION_COST,
    MOVE_MODES,
    NAMED_ACTIONS,
    STEP_KINDS,
    givers,
    hands_free,
    move_cost,
    remaining,
    stand_up_cost,
)

__all__ = [
    "ATTACK_AP", "CAST_AP", "COMPLEX_CAST_AP", "COST_CLASSES", "MAX_ACTION_COST", "MOVE_MODES",
    "NAMED_ACTIONS", "STEP_KINDS", "Played", "TurnEngine", "givers", "hands_free", "move_cost",
    "remaining", "resolve_turn_request", "resolve_turns", "round_of", "stand_up_cost",
]


@dataclass(frozen=True, slots=True)
class Played:
    """What a script of turns did: the ``turns`` reports, the touched
    ``entities`` by id (before, after, events), the ``rules`` applied
    (first-use order), the ``explanation``, and the ``round`` of the last turn
    with who acted in it (``acted_this_round``, O1 rev. 2)."""

    turns: tuple[TurnReport, ...]
    entities: Mapping[str, EntityChange]
    rules: tuple[str, ...]
    explanation: tuple[Step, ...]
    round: int
    acted_this_round: tuple[str, ...]


def resolve_turns(entities: Mapping[str, Entity], turns: Sequence[Mapping[str, Any]],
                  dice: DiceSource, *, idioms: Any = None, conditions: Any = None,
                  check_only: bool = False, round: int = 0,
                  acted_this_round: Sequence[str] = ()
                  ) -> tuple[dict[str, Entity], Played]:
    """Play ``turns`` on ``entities`` (by id, in state order), starting in
    round ``round`` where ``acted_this_round`` have acted (O1 rev. 2).

    Returns the entities after and what was played (:class:`Played`). Raises
    :class:`~linguo_cli.core.errors.RulesError` (exit 4) for the first illegal
    step (``details``: turn, step, needed, left, ...), :class:`InputError`
    for unknown entities/idioms and :class:`~linguo_cli.core.errors.DiceError`
    when a step's own faces do not fit.
    """
    engine = TurnEngine(entities, dice, idioms=idioms, conditions=conditions,
                        check_only=check_only, round=round,
                        acted_this_round=acted_this_round)
    reports = engine.play(turns)
    actors = {t.entity for t in reports}
    touched: dict[str, EntityChange] = {}
    for eid, e in engine.entities.items():
        old = engine.before[eid]
        events = engine.entity_events.get(eid, [])
        if events or eid in actors or (e is not old and e != old):
            touched[eid] = EntityChange(old, e, tuple(events))
    played = Played(tuple(reports), MappingProxyType(touched), engine.log.rules,
                    tuple(engine.log.steps), engine.round, tuple(engine.acted))
    return engine.entities, played


def round_of(state: Mapping[str, Any], entities: Mapping[str, Entity]) -> tuple[int, list[str]]:
    """The state's ``round`` (absent: 0, no round played yet) and
    ``acted_this_round`` (absent: nobody), O1 rev. 2. :class:`InputError`
    (exit 3, ``state.acted_this_round[i]``) for an id that is not an entity
    of the state or is listed twice."""
    acted = [str(x) for x in state.get("acted_this_round") or ()]
    for i, eid in enumerate(acted):
        where = f"state.acted_this_round[{i}]"
        if eid not in entities:
            known = ", ".join(entities) or "none"
            raise InputError(Diagnostic("request", where, f"no entity with id {eid!r} in the "
                                                          f"state (known: {known})"))
        if eid in acted[:i]:
            raise InputError(Diagnostic("request", where, f"{eid!r} is listed twice"))
    return int(state.get("round", 0)), acted


def resolve_turn_request(request: Mapping[str, Any], dice: DiceSource) -> TurnResult:
    """Handler of kind ``turn`` (see ``golden/README.md`` "turn").

    Request: ``{kind: turn, state, turns: [{entity, steps}], rolls?, idioms?,
    conditions?, check?}``. Result: a :class:`TurnResult` (JSON ``{kind,
    legal, check, turns, state, entities, rules, explanation}``); ``state``
    carries ``round`` and ``acted_this_round`` after the last turn (O1 rev. 2)
    (``rolls_used`` is set by the dispatcher). Raises :class:`InputError`
    (exit 3) for a duplicate entity id, and what :func:`resolve_turns` raises.
    """
    entities = {}
    for i, raw in enumerate(request["state"]["entities"]):
        e = Entity.from_dict(raw)
        if e.id in entities:
            raise InputError(Diagnostic("request", f"state.entities[{i}].id",
                                        f"duplicate entity id {e.id!r}"))
        entities[e.id] = e
    idioms = idioms_.catalog_from_request(request.get("idioms"))
    conds = conditions_.catalog_from_request(request.get("conditions"))
    check_only = bool(request.get("check", False))
    round_, acted = round_of(request["state"], entities)
    after, played = resolve_turns(entities, request["turns"], dice, idioms=idioms,
                                  conditions=conds, check_only=check_only, round=round_,
                                  acted_this_round=acted)
    fields = {k: v for k, v in request["state"].items() if k != "entities"}
    state = StateAfter(MappingProxyType(fields), played.round, played.acted_this_round,
                       tuple(after.values()))
    return TurnResult(check=check_only, turns=played.turns, state=state,
                      entities=played.entities, rules=played.rules,
                      explanation=played.explanation)
