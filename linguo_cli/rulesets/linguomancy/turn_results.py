"""Typed results of kind ``turn``: frozen values, JSON only through
:func:`linguo_cli.core.results.to_plain` (keys and order as documented in
``golden/README.md``, "turn").

Units: action points, metres (a :func:`~linguo_cli.rulesets.linguomancy.model.metres`
value: an int, a binary-exact float or a fraction string such as ``"10/3"``),
Hand points, Flux points. The parts of a step that other rules produce (the
attack's d20 test, its damage and the target's report, a cast's result, a
death save) are held as those rules give them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from linguo_cli.core.derivation import Step

# _Omit at run time: the annotations resolve, so to_plain compiles each
# result type's conversion field by field (core.results._compiled)
from linguo_cli.core.results import OMIT, _Omit, to_plain
from linguo_cli.rulesets.linguomancy.model import Entity

#: A distance for output (see :func:`linguo_cli.rulesets.linguomancy.model.metres`).
Metres = int | float | str


@dataclass(frozen=True, slots=True)
class Remaining:
    """The resources an entity has left: ``action_points``, ``movement``
    (metres), ``hands_free`` (Hand points, P5), ``flux``, ``reaction_available``."""

    action_points: int
    movement: Metres
    hands_free: int
    flux: int
    reaction_available: bool

    __json_plain__ = True

    def __json__(self) -> dict[str, Any]:
        """The five values in field order (each already a JSON scalar: whole
        numbers, a :func:`~linguo_cli.rulesets.linguomancy.model.metres`
        value, a boolean)."""
        return {"action_points": self.action_points, "movement": self.movement,
                "hands_free": self.hands_free, "flux": self.flux,
                "reaction_available": self.reaction_available}


@dataclass(frozen=True, slots=True)
class StepDetail:
    """What a step did beyond its costs, each key present only for the step
    kinds that give it: ``target`` (attack), ``idiom`` (cast), ``attack`` (the
    d20 attack roll), ``damage`` (the damage amount), ``target_report`` (the
    damage applied), ``cast`` (the cast's result), ``final_cost``,
    ``overclocked``, ``missing`` (a cast checked only), ``events`` (every
    step), ``cost`` (metres: move, stand_up), ``name`` and ``cost_class``
    (action), ``entity`` (reaction: who reacts)."""

    target: str | _Omit = OMIT
    idiom: str | _Omit = OMIT
    attack: Mapping[str, Any] | _Omit = OMIT
    damage: Mapping[str, Any] | _Omit = OMIT
    target_report: Mapping[str, Any] | _Omit = OMIT
    cast: Mapping[str, Any] | _Omit = OMIT
    final_cost: int | _Omit = OMIT
    overclocked: bool | _Omit = OMIT
    missing: int | _Omit = OMIT
    events: tuple[str, ...] = ()
    cost: Metres | _Omit = OMIT
    name: str | _Omit = OMIT
    cost_class: str | _Omit = OMIT
    entity: str | _Omit = OMIT


@dataclass(frozen=True, slots=True)
class StepReport:
    """One step played: its 1-based ``step`` index and ``kind``, the
    ``action_points`` and ``movement`` (metres) it spent, its ``detail``
    (flattened into the step's JSON object), the faces of its own ``rolls``
    (``rolls_used``, only when it had some), the ``remaining`` resources after
    it and the ``rules`` it applied (first-use order)."""

    step: int
    kind: str
    action_points: int
    movement: Metres
    detail: StepDetail
    rolls_used: tuple[int, ...] | _Omit
    remaining: Remaining
    rules: tuple[str, ...]

    __json_plain__ = True

    def __json__(self) -> dict[str, Any]:
        """The step's JSON object: the detail's keys flattened in."""
        out: dict[str, Any] = {"step": self.step, "kind": self.kind,
                               "action_points": self.action_points,
                               "movement": self.movement}
        out.update(to_plain(self.detail))
        if isinstance(self.rolls_used, tuple):
            out["rolls_used"] = list(self.rolls_used)
        out["remaining"] = to_plain(self.remaining)
        out["rules"] = list(self.rules)
        return out


@dataclass(frozen=True, slots=True)
class StartReport:
    """The start of a turn (O1): ``events``, the ``death_save`` when the
    entity was Dying (as the death-save rules report it, or ``{"skipped":
    true}`` when checking only), the ``remaining`` resources and the ``rules``."""

    events: tuple[str, ...]
    death_save: Mapping[str, Any] | _Omit
    remaining: Remaining
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EndReport:
    """The end of a turn (C1, P1): ``events`` (conditions ending) and ``rules``."""

    events: tuple[str, ...]
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnReport:
    """One turn: its 1-based index ``turn``, its ``entity``, its ``round``
    and whether it starts that round (``round_start``, O1), then ``start``,
    ``steps``, ``end`` and the ``remaining`` resources after the turn."""

    turn: int
    entity: str
    round: int
    round_start: bool
    start: StartReport
    steps: tuple[StepReport, ...]
    end: EndReport
    remaining: Remaining


@dataclass(frozen=True, slots=True)
class EntityChange:
    """An entity a script touched: ``before`` and ``after`` (state-file shape
    in JSON) and its ``events`` in order."""

    before: Entity
    after: Entity
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StateAfter:
    """The state after the script: the request state's other fields as given
    (``fields``, in their order), ``round`` and ``acted_this_round`` after the
    last turn (O1 rev. 2) and the ``entities`` in state order. JSON: the given
    fields in order (``round`` and ``acted_this_round`` keep their place when
    given, else follow them), then ``entities``."""

    fields: Mapping[str, Any]
    round: int
    acted_this_round: tuple[str, ...]
    entities: tuple[Entity, ...]

    __json_plain__ = True

    def __json__(self) -> dict[str, Any]:
        """The state's JSON object (see the class docstring)."""
        out: dict[str, Any] = {k: to_plain(v) for k, v in self.fields.items()}
        out["round"] = self.round
        out["acted_this_round"] = list(self.acted_this_round)
        out["entities"] = [e.as_dict() for e in self.entities]
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnResult:
    """The result of kind ``turn``: ``legal`` (always true: an illegal script
    raises), ``check`` (legality only, no die rolled), the ``turns``, the
    ``state`` after, the touched ``entities`` by id, the ``rules`` applied
    (first-use order), the ``explanation`` and the faces used (``rolls_used``,
    set by the dispatcher; JSON keys in this order)."""

    kind: str = "turn"
    legal: bool = True
    check: bool
    turns: tuple[TurnReport, ...]
    state: StateAfter
    entities: Mapping[str, EntityChange]
    rules: tuple[str, ...]
    explanation: tuple[Step, ...]
    rolls_used: tuple[int, ...] | _Omit = OMIT
