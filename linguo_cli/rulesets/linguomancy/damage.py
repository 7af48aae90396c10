"""Damage and healing requests: kinds ``damage``, ``heal``, ``temp_hp`` and
``death_save`` (registered in
:data:`linguo_cli.rulesets.linguomancy.requests.HANDLERS`), with their typed
results.

The rules live beside: :mod:`~linguo_cli.rulesets.linguomancy.amounts`
(rolling an amount, T1-T7), :mod:`~linguo_cli.rulesets.linguomancy.hp`
(R1-R3, H1-H8: damage, healing, temporary HP, death saves) and
:mod:`~linguo_cli.rulesets.linguomancy.dying` (the one :func:`die`, H10).
Their public names are re-exported here.

Results are frozen dataclasses; their JSON (:func:`linguo_cli.core.results.to_plain`)
is the shape of ``golden/README.md``: ``damage`` and ``heal`` give an
:class:`~linguo_cli.rulesets.linguomancy.amounts.Amount` with ``kind``,
``temp_hp`` a :class:`TempHpResult`, ``death_save`` a :class:`DeathSaveResult`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice import DiceExpression, DiceSource
from linguo_cli.core.dice import parse as parse_dice
from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.core.results import OMIT, PlainDict, _Omit, to_plain
from linguo_cli.rulesets.linguomancy import ticks as ticks_
from linguo_cli.rulesets.linguomancy.amounts import Amount, AmountRoll, roll_amount
from linguo_cli.rulesets.linguomancy.dying import (
    DEATH_SAVE_LIMIT,
    ZERO_HP_SOURCES,
    die,
    record_death,
)
from linguo_cli.rulesets.linguomancy.hp import (
    KEEP_CHOICES,
    REPORT_FIELDS,
    Change,
    DamageChange,
    DeathSaveChange,
    EntityReport,
    HealChange,
    TempHpChange,
    apply_damage,
    apply_healing,
    grant_temp_hp,
    resisted_amount,
    roll_death_save,
)
from linguo_cli.rulesets.linguomancy.model import Entity
from linguo_cli.rulesets.linguomancy.requests import modifiers_from

__all__ = [
    "DEATH_SAVE_LIMIT", "KEEP_CHOICES", "REPORT_FIELDS", "ZERO_HP_SOURCES", "Amount",
    "AmountRoll", "Change", "DamageChange", "DeathSaveChange", "DeathSaveResult",
    "EntityReport", "HealChange", "TempHpChange", "TempHpResult", "annotated_damage_type",
    "apply_damage", "apply_healing", "die", "grant_temp_hp", "record_death",
    "resisted_amount", "resolve_damage_request", "resolve_death_save_request",
    "resolve_heal_request", "resolve_targets", "resolve_temp_hp_request", "roll_amount",
    "roll_death_save", "state_entities",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class TempHpResult:
    """Result of kind ``temp_hp``: the ``amount`` granted, the ``keep``
    choice (H2), each target's :class:`TempHpChange`, the state after, the
    rules and derivation, ``rolls_used`` (none)."""

    kind: str = "temp_hp"
    amount: int
    keep: str
    entities: Mapping[str, TempHpChange]
    state: Mapping[str, Any]
    rules: tuple[str, ...]
    explanation: tuple[Step, ...]
    rolls_used: tuple[int, ...] | _Omit = OMIT


@dataclass(frozen=True, slots=True, kw_only=True)
class DeathSaveResult:
    """Result of kind ``death_save`` (H6): the ``entity`` id, the d20
    ``face`` record, its ``natural`` value, the ``outcome``, the entity's
    :class:`DeathSaveChange`, the state after, rules, derivation and
    ``rolls_used``."""

    kind: str = "death_save"
    entity: str
    face: Mapping[str, object]
    natural: int
    outcome: str
    entities: Mapping[str, DeathSaveChange]
    state: Mapping[str, Any]
    rules: tuple[str, ...]
    explanation: tuple[Step, ...]
    rolls_used: tuple[int, ...] | _Omit = OMIT


def state_entities(state: Mapping[str, Any]) -> dict[str, Entity]:
    """The entities of an inline request ``state`` by id, in order; semantic
    errors (duplicate ids, hp above max_hp, ...) raise :class:`InputError`."""
    from linguo_cli.io.document import Document
    from linguo_cli.rulesets.linguomancy.state import entities_of

    doc = Document("request", {"entities": list(state.get("entities") or [])})
    return entities_of(doc)


def resolve_targets(entities: Mapping[str, Entity], ids: Sequence[str],
                    field_name: str = "targets") -> list[str]:
    """Check that every id of ``ids`` is an entity of the state (exit 3 with
    a suggestion otherwise) and that none repeats; returns them in order."""
    diags: list[Diagnostic] = []
    seen: set[str] = set()
    for i, tid in enumerate(ids):
        where = f"{field_name}[{i}]" if field_name == "targets" else field_name
        if tid in seen:
            diags.append(Diagnostic("request", where, f"target {tid!r} is listed twice"))
        seen.add(tid)
        if tid not in entities:
            hint = difflib.get_close_matches(tid, list(entities), n=1)
            msg = f"no entity with id {tid!r} in the state"
            msg += f" (did you mean {hint[0]!r}?)" if hint else (
                f"; ids: {', '.join(list(entities)[:20])}" if entities else "")
            diags.append(Diagnostic("request", where, msg))
    if diags:
        raise InputError(diags)
    return list(ids)


def _state_and_targets(request: Mapping[str, Any]
                       ) -> tuple[dict[str, Entity] | None, list[str]]:
    state = request.get("state")
    targets = list(request.get("targets") or [])
    if state is None:
        if targets:
            raise InputError(Diagnostic("request", "targets",
                                        "targets need a state to apply to (state / --state)"))
        return None, []
    entities = state_entities(state)
    if not targets:
        raise InputError(Diagnostic("request", "targets",
                                    "a request on a state needs at least one target "
                                    "(targets / --target)"))
    return entities, resolve_targets(entities, targets)


def _expression(request: Mapping[str, Any]) -> DiceExpression | None:
    text = request.get("dice")
    return None if text is None else parse_dice(str(text), field="dice")


def annotated_damage_type(expr: DiceExpression | None, given: str | None) -> str | None:
    """The damage type of a roll: a Linguomancy damage roll has one. An
    annotation (``1d8[fire]``) sets it where the request gives none; two
    different annotations, or one that differs from ``given``, are invalid
    input (:class:`InputError`, exit 3, field ``dice``)."""
    labels = expr.labels() if expr is not None else []
    if len(labels) > 1:
        raise InputError(Diagnostic("request", "dice", "a damage roll has one damage type; "
                                    f"the dice are annotated {', '.join(labels)}"))
    if labels and given is not None and labels[0] != given:
        raise InputError(Diagnostic("request", "dice", f"the annotation [{labels[0]}] "
                                    f"contradicts damage_type {given!r}"))
    return given if given is not None else (labels[0] if labels else None)


def state_after(state: Mapping[str, Any], entities: Mapping[str, Entity]) -> dict[str, Any]:
    """The whole state after (a JSON document): its other top-level keys
    kept (as JSON values), ``entities`` in full (``Entity.as_dict()``), in
    state order. Built JSON-ready once: a :class:`PlainDict`, which the
    result's conversion does not walk again."""
    out = PlainDict({k: to_plain(v) for k, v in state.items() if k != "entities"})
    out["entities"] = [e.as_dict() for e in entities.values()]
    return out


def _apply_all(entities: dict[str, Entity], targets: Sequence[str], log: Derivation,
               apply: Any) -> dict[str, Any]:
    """``apply(entity) -> (entity, report)`` on each target in order; the
    reports' steps go to ``log`` (``ID: text``); returns id -> record."""
    records: dict[str, Any] = {}
    reports = []
    for tid in targets:
        new, rep = apply(entities[tid])
        entities[tid] = new
        reports.append(rep)
        records[tid] = rep.details
    for rep in reports:
        log.extend(rep.steps, prefix=f"{rep.id}: ")
    return records


def resolve_damage_request(request: Mapping[str, Any], dice: DiceSource) -> Amount:
    """Handler of kind ``damage``: one roll (T3-T5) shared by every target
    (T6), then R1-R3 and H1/H4/H5/H7 per target when a state is given."""
    tick = ticks_.get_tick(str(request["tick"]), healing=False, field="tick")
    expr = _expression(request)
    entities, targets = _state_and_targets(request)
    critical = bool(request.get("critical"))
    nonlethal = bool(request.get("nonlethal"))
    damage_type = annotated_damage_type(expr, request.get("damage_type"))
    rolled = roll_amount(
        expr, tick=tick, ability_modifier=int(request.get("potential", 0)),
        modifiers=modifiers_from(request.get("modifiers")), critical=critical, dice=dice,
        allow_nonconforming=bool(request.get("allow_nonconforming")))
    log = Derivation(list(rolled.steps))
    extra: dict[str, Any] = {}
    if entities is not None:
        if len(targets) > 1:
            log.note("T6", f"{len(targets)} targets share the one damage roll "
                           f"of {rolled.amount}")
        extra["entities"] = _apply_all(entities, targets, log, lambda e: apply_damage(
            e, int(rolled.amount or 0), damage_type=damage_type, critical=critical,
            nonlethal=nonlethal))
        extra["state"] = state_after(request["state"], entities)
    return rolled.record(kind="damage", damage_type=damage_type, nonlethal=nonlethal,
                         **extra, rules=log.rules, explanation=tuple(log.steps))


def resolve_heal_request(request: Mapping[str, Any], dice: DiceSource) -> Amount:
    """Handler of kind ``heal``: one roll (T3, T7) shared by every target,
    then H3/H8 per target (Complete: each to max HP; Resurrection: back to
    life)."""
    tick = ticks_.get_tick(str(request["tick"]), healing=True, field="tick")
    expr = _expression(request)
    entities, targets = _state_and_targets(request)
    amount = request.get("amount")
    rolled = roll_amount(
        expr, tick=tick, ability_modifier=int(request.get("cohesion", 0)),
        modifiers=modifiers_from(request.get("modifiers")), dice=dice,
        allow_nonconforming=bool(request.get("allow_nonconforming")),
        amount=None if amount is None else int(amount))
    log = Derivation(list(rolled.steps))
    extra: dict[str, Any] = {}
    if entities is not None:
        if len(targets) > 1:
            log.note("T6", f"{len(targets)} targets share the one healing roll")
        extra["entities"] = _apply_all(entities, targets, log,
                                       lambda e: apply_healing(e, rolled.amount, tick=tick))
        extra["state"] = state_after(request["state"], entities)
    return rolled.record(kind="heal", **extra, rules=log.rules,
                         explanation=tuple(log.steps))


def resolve_temp_hp_request(request: Mapping[str, Any], dice: DiceSource) -> TempHpResult:
    """Handler of kind ``temp_hp``: grant ``amount`` temporary HP to every
    target (H2: ``keep`` larger|old|new; H3)."""
    entities, targets = _state_and_targets(request)
    if entities is None:
        raise InputError(Diagnostic("request", "state", "temp_hp needs a state"))
    amount = int(request["amount"])
    keep = str(request.get("keep", "larger"))
    log = Derivation()
    records = _apply_all(entities, targets, log, lambda e: grant_temp_hp(e, amount, keep))
    return TempHpResult(amount=amount, keep=keep, entities=records,
                        state=state_after(request["state"], entities), rules=log.rules,
                        explanation=tuple(log.steps))


def resolve_death_save_request(request: Mapping[str, Any], dice: DiceSource
                               ) -> DeathSaveResult:
    """Handler of kind ``death_save``: one death saving throw (H6) for
    ``entity`` of the state."""
    entities = state_entities(request["state"])
    eid = str(request["entity"])
    resolve_targets(entities, [eid], "entity")
    log = Derivation()
    records = _apply_all(entities, [eid], log, lambda e: roll_death_save(e, dice))
    rec: DeathSaveChange = records[eid]
    return DeathSaveResult(entity=eid, face=rec.face, natural=rec.natural,
                           outcome=rec.outcome, entities=records,
                           state=state_after(request["state"], entities), rules=log.rules,
                           explanation=tuple(log.steps))
