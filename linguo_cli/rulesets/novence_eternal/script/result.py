"""NV5 results of the ``script``, ``turn_start`` and ``event`` kinds.

Every result has ``kind``, ``ruleset``, ``rules`` (first-use order),
``explanation`` (``[{rule, text}]``), ``options`` (non-default),
``warnings`` (``[{code, rule, place}]``), ``combatants`` (``{id: {before,
after, events}}``, the creatures touched), ``state`` (the whole state after)
and ``rolls_used`` (set by the core). Each kind adds its own fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.derivation import Step

RULESET_NAME = "novence-eternal"


@dataclass(frozen=True, slots=True)
class StateResult:
    """The fields of every result of these kinds."""

    kind: str = ""
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[Mapping[str, str], ...] = ()
    combatants: Mapping[str, Any] = field(default_factory=dict)
    state: Mapping[str, Any] = field(default_factory=dict)
    rolls_used: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ScriptResult(StateResult):
    """NV5 ``script``: ``rounds``, one record per element: a round
    ``{round, started, start, turns, end_of_round, end}`` (a turn ``{actor,
    extra, start, steps, end}``, a step ``{step, kind, paid, before, after,
    result}``), or an interlude ``{events}``."""

    kind: str = "script"
    rounds: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnStartResult(StateResult):
    """NV5 ``turn_start``: ``actor``, ``ended`` (what NO3 step 2 ended),
    ``status_damage``, ``ko_roll`` (``{rolled, face, result, reason}`` or
    null when the actor was not KO), ``up_gain`` (null until NU is wired),
    ``injury_events``."""

    kind: str = "turn_start"
    actor: str = ""
    ended: tuple[str, ...] = ()
    status_damage: tuple[Any, ...] = ()
    ko_roll: Mapping[str, Any] | None = None
    up_gain: Mapping[str, Any] | None = None
    injury_events: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class EventResult(StateResult):
    """NV5 ``event``: ``party`` (``{before, after}``) and ``events`` (one
    record per event)."""

    kind: str = "event"
    party: Mapping[str, Any] = field(default_factory=dict)
    events: tuple[Any, ...] = ()
