"""Rests (H9): short and long rests of the entities of a state.

A rest happens outside turns (it resets nothing of a turn: action points,
movement, reaction and Hand points are set at the next start of turn, O1).
What it changes, per resting entity, in this order:

1. HP regained: the request's ``hp`` amount for it, capped at max HP (H3);
   regaining HP at 0 HP ends what 0 HP gave and resets the death-save
   counts (H8, through :func:`linguo_cli.rulesets.linguomancy.damage.apply_healing`).
2. Flux regained: its ``flux`` amount, capped at ``flux_max`` (F1).
3. Exhaustion tiers removed: its ``exhaustion`` amount, never below 0 (F5).
4. A long rest only: temporary HP end (H3) and every condition whose
   catalog entry says a long rest ends it (C2: ``ends_on_long_rest``, with
   ``long_rest_except_sources``: in the default catalog Drained, Lethargic,
   Stunned, Prone and Unconscious not from 0 HP).

A short rest changes only what its inputs say. A dead, Dying or Stable (at
0 HP) entity cannot rest: naming it (``entities``, ``hp``, ``flux`` or
``exhaustion``) is a rules violation (:class:`RulesError` ``H9``, exit 4);
without ``entities`` every entity that can rest rests and the others are
skipped, listed with their reason in the result's ``skipped``. Amounts are
whole numbers of HP, Flux points and tiers; no die is rolled.

The request handler of kind ``rest`` (registered in
:data:`linguo_cli.rulesets.linguomancy.requests.HANDLERS`) is :func:`resolve_rest_request`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.core.evolve import evolve
from linguo_cli.rulesets.linguomancy import conditions as conditions_
from linguo_cli.rulesets.linguomancy.damage import EntityReport, apply_healing, state_entities
from linguo_cli.rulesets.linguomancy.model import Condition, Entity, state_fields

#: The fields of the state shape listed in a rest report's ``before``/``after``.
REST_FIELDS: tuple[str, ...] = (
    "hp", "max_hp", "temp_hp", "flux", "flux_max", "exhaustion", "conditions", "death_saves",
)

#: The per-entity amount fields of a rest request, in the order they apply.
AMOUNT_FIELDS: tuple[str, ...] = ("hp", "flux", "exhaustion")

#: Why an entity cannot rest (H9) -> the words outputs use.
REFUSAL_TEXT: dict[str, str] = {"dead": "dead", "dying": "Dying", "stable": "Stable at 0 HP"}


def rest_refusal(entity: Entity) -> str | None:
    """Why ``entity`` cannot rest (H9): ``dead``, ``dying`` or ``stable``
    (Stable at 0 HP); ``None`` when it may rest (a living entity that is
    neither Dying nor Stable, at 0 HP included)."""
    if entity.dead:
        return "dead"
    if entity.has("Dying"):
        return "dying"
    if entity.has("Stable") and entity.hp == 0:
        return "stable"
    return None


@dataclass(frozen=True, slots=True)
class RestInput:
    """What one entity's rest is given: HP and Flux regained, Exhaustion
    tiers removed (whole numbers >= 0; 0 = nothing)."""

    hp: int = 0
    flux: int = 0
    exhaustion: int = 0


def _fields(entity: Entity) -> dict[str, Any]:
    return state_fields(entity, REST_FIELDS)


def _regain_hp(entity: Entity, amount: int, steps: list[Step], events: list[str]
               ) -> tuple[Entity, int]:
    """HP regained by a rest: healing by ``amount`` (H3 cap, H8 at 0 HP)."""
    if amount == 0:
        return entity, 0
    new, rep = apply_healing(entity, amount)
    steps.append(Step("H9", f"rest: regains up to {amount} HP (input)"))
    steps.extend(rep.steps)
    events.extend(rep.events)
    return new, int(rep.details.hp_regained)


def _regain_flux(entity: Entity, amount: int, steps: list[Step]) -> tuple[Entity, int]:
    """Flux regained by a rest: ``amount``, capped at ``flux_max`` (F1)."""
    if amount == 0:
        return entity, 0
    new_flux = min(entity.flux + amount, entity.flux_max)
    capped = entity.flux + amount > entity.flux_max
    steps.append(Step("H9", f"rest: regains up to {amount} Flux (input)"))
    steps.append(Step("F1", f"Flux {entity.flux} + {amount} = {new_flux}"
                      + (f" (capped at flux_max {entity.flux_max})" if capped else "")))
    return evolve(entity, flux=new_flux), new_flux - entity.flux


def _remove_exhaustion(entity: Entity, amount: int, steps: list[Step]) -> tuple[Entity, int]:
    """Exhaustion tiers removed by a rest: ``amount``, never below 0 (F5, H9)."""
    if amount == 0:
        return entity, 0
    removed = min(amount, entity.exhaustion)
    steps.append(Step("H9", f"rest: removes up to {amount} Exhaustion tier(s) (input)"))
    steps.append(Step("F5", f"Exhaustion tiers {entity.exhaustion} -> "
                            f"{entity.exhaustion - removed}"
                      + (" (never below 0)" if amount > entity.exhaustion else "")))
    return evolve(entity, exhaustion=entity.exhaustion - removed), removed


def _long_rest_ends(entity: Entity, catalog: conditions_.Catalog, steps: list[Step],
                    events: list[str]) -> tuple[Entity, int, list[str]]:
    """A long rest's own effects: temporary HP end (H3) and the conditions
    the catalog says a long rest ends (C2). Returns the entity, the
    temporary HP ended and the names of the conditions ended."""
    temp = entity.temp_hp
    if temp:
        steps.append(Step("H3", f"long rest: its {temp} temporary HP end"))
        events.append("temp_hp_ends")
    kept: list[Condition] = []
    ended: list[str] = []
    for c in entity.conditions:
        if catalog.ended_by_long_rest(c):
            ended.append(c.name)
            events.append(f"condition_ends:{c.name}")
            steps.append(Step("C2", f"long rest ends {c.name}"
                              + (f" (source {c.source})" if c.source else "")
                              + f": the condition catalog ({catalog.name}) says so"))
        else:
            kept.append(c)
            why = ("not in the condition catalog" if catalog.get(c.name) is None
                   else "its catalog entry does not end it on a long rest"
                        + (f" from source {c.source}" if c.source else ""))
            steps.append(Step("C2", f"{c.name} stays: {why}"))
    return evolve(entity, temp_hp=0, conditions=tuple(kept)), temp, ended


def rest_entity(entity: Entity, given: RestInput, *, long: bool,
                catalog: conditions_.Catalog) -> tuple[Entity, EntityReport]:
    """One entity's rest (H9): HP (H3, H8), Flux (F1) and Exhaustion (F5)
    from ``given``, then on a ``long`` rest the end of temporary HP and of
    the conditions ``catalog`` ends on a long rest (C2). Nothing of a turn
    (AP, movement, reaction, Hand points) changes.

    ``details`` of the report: ``hp_regained``, ``flux_regained``,
    ``exhaustion_removed``, ``temp_hp_ended``, ``conditions_ended``.
    Raises :class:`RulesError` ``H9`` when the entity cannot rest
    (:func:`rest_refusal`).
    """
    reason = rest_refusal(entity)
    if reason is not None:
        raise RulesError("H9", f"{entity.id} cannot rest: it is {REFUSAL_TEXT[reason]} (a dead, "
                               "Dying or Stable-at-0-HP entity cannot rest)",
                         {"entity": entity.id, "reason": reason})
    steps: list[Step] = []
    events: list[str] = []
    e, hp = _regain_hp(entity, given.hp, steps, events)
    e, flux = _regain_flux(e, given.flux, steps)
    e, tiers = _remove_exhaustion(e, given.exhaustion, steps)
    temp = 0
    ended: list[str] = []
    if long:
        e, temp, ended = _long_rest_ends(e, catalog, steps, events)
    elif given == RestInput():
        steps.append(Step("H9", "short rest without inputs: nothing changes"))
    details = {"hp_regained": hp, "flux_regained": flux, "exhaustion_removed": tiers,
               "temp_hp_ended": temp, "conditions_ended": ended}
    return e, EntityReport(entity.id, _fields(entity), _fields(e), events, steps, details)


# ---------------------------------------------------------------------------
# The request (kind ``rest``)


def _missing(entities: Mapping[str, Entity], eid: str) -> str:
    import difflib

    hint = difflib.get_close_matches(eid, list(entities), n=1)
    msg = f"no entity with id {eid!r} in the state"
    if hint:
        return msg + f" (did you mean {hint[0]!r}?)"
    return msg + (f"; ids: {', '.join(list(entities)[:20])}" if entities else "")


def _named(request: Mapping[str, Any], entities: Mapping[str, Entity]
           ) -> tuple[list[str] | None, dict[str, RestInput]]:
    """The ``entities`` list (``None`` when absent) and the amounts per id,
    checked against the state: unknown or repeated ids, and amounts for an
    entity the ``entities`` list leaves out, are invalid input (exit 3, with
    the field)."""
    diags: list[Diagnostic] = []
    chosen: list[str] | None = None
    if request.get("entities") is not None:
        chosen = []
        for i, eid in enumerate(request["entities"]):
            if eid in chosen:
                diags.append(Diagnostic("request", f"entities[{i}]", f"{eid!r} is listed twice"))
            elif eid not in entities:
                diags.append(Diagnostic("request", f"entities[{i}]", _missing(entities, eid)))
            chosen.append(eid)
    amounts: dict[str, dict[str, int]] = {}
    for name in AMOUNT_FIELDS:
        for eid, n in (request.get(name) or {}).items():
            if eid not in entities:
                diags.append(Diagnostic("request", f"{name}.{eid}", _missing(entities, eid)))
            elif chosen is not None and eid not in chosen:
                diags.append(Diagnostic("request", f"{name}.{eid}", (
                    f"{eid!r} does not rest: entities lists {', '.join(chosen) or 'nobody'}")))
            amounts.setdefault(eid, {})[name] = int(n)
    if diags:
        raise InputError(diags)
    return chosen, {eid: RestInput(**a) for eid, a in amounts.items()}


def _who_rests(entities: Mapping[str, Entity], chosen: list[str] | None,
               amounts: Mapping[str, RestInput]) -> tuple[list[str], dict[str, str]]:
    """The ids that rest, in state order, and the skipped ones with their
    reason. Without ``chosen`` every entity that can rest rests; an entity
    named (``chosen`` or an amount) that cannot rest is refused (H9)."""
    named = list(chosen) if chosen is not None else []
    named += [eid for eid in amounts if eid not in named]
    for eid in named:
        reason = rest_refusal(entities[eid])
        if reason is not None:
            raise RulesError("H9", f"{eid} cannot rest: it is {REFUSAL_TEXT[reason]} (a dead, "
                                   "Dying or Stable-at-0-HP entity cannot rest)",
                             {"entity": eid, "reason": reason})
    if chosen is not None:
        return [eid for eid in entities if eid in chosen], {}
    resting: list[str] = []
    skipped: dict[str, str] = {}
    for eid, e in entities.items():
        reason = rest_refusal(e)
        if reason is None:
            resting.append(eid)
        else:
            skipped[eid] = reason
    return resting, skipped


@dataclass(frozen=True, slots=True)
class RestResult:
    """The result of kind ``rest`` (fields in JSON order): ``long``,
    ``resting`` (ids, state order), ``skipped`` (id -> ``dead``, ``dying`` or
    ``stable``), ``entities`` (id -> the JSON of its
    :class:`~linguo_cli.rulesets.linguomancy.damage.EntityReport`), ``state``
    (the whole new state, state-file shape), ``rules``, ``steps`` (JSON
    ``explanation``), ``rolls_used`` (empty: nothing is rolled)."""

    kind: str
    long: bool
    resting: tuple[str, ...]
    skipped: dict[str, str]
    entities: dict[str, dict[str, Any]]
    state: dict[str, Any]
    rules: tuple[str, ...]
    steps: tuple[Step, ...] = field(metadata={"json": "explanation"})
    rolls_used: tuple[int, ...] = ()


def resolve_rest_request(request: Mapping[str, Any], dice: DiceSource) -> RestResult:
    """Handler of kind ``rest`` (H9, with C2, H3, H8, F1, F5): a short rest,
    or a long one with ``long: true``, for the entities of ``state``.

    Fields: ``entities`` (ids that rest; absent: every entity that can),
    ``hp``, ``flux``, ``exhaustion`` (mappings id -> whole number: HP and
    Flux regained, tiers removed), ``conditions`` (inline catalog, C2).
    Result: :class:`RestResult`. No die is rolled (``dice`` must be empty).
    Raises :class:`InputError` (exit 3) for unknown or misplaced ids and
    :class:`RulesError` ``H9`` (exit 4) for a named entity that cannot rest.
    """
    del dice  # a rest rolls nothing; requests.resolve checks no face is left
    entities = state_entities(request["state"])
    chosen, amounts = _named(request, entities)
    catalog = conditions_.catalog_from_request(request.get("conditions"))
    long = bool(request.get("long", False))
    resting, skipped = _who_rests(entities, chosen, amounts)
    log = Derivation()
    log.note("H9", f"{'long' if long else 'short'} rest, outside turns")
    log.note("O1", "a rest resets nothing of a turn: AP, movement, reaction and Hand points "
                   "are set at the next start of turn")
    for eid, reason in skipped.items():
        log.note("H9", f"{eid} does not rest: it is {REFUSAL_TEXT[reason]}")
    reports: list[EntityReport] = []
    for eid in resting:
        entities[eid], rep = rest_entity(entities[eid], amounts.get(eid, RestInput()),
                                         long=long, catalog=catalog)
        reports.append(rep)
        log.extend(rep.steps, prefix=f"{eid}: ")
    state = request["state"]
    new_state = {k: v for k, v in state.items() if k != "entities"}
    new_state["entities"] = [e.as_dict() for e in entities.values()]
    return RestResult(
        kind="rest", long=long, resting=tuple(resting), skipped=skipped,
        entities={rep.id: rep.as_dict() for rep in reports}, state=new_state,
        rules=log.rules, steps=tuple(log.steps))
