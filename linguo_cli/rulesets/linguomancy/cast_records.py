"""The typed records of a cast (kind ``cast``): :class:`CastResult` and the
per-target pieces it holds. JSON through
:func:`linguo_cli.core.results.to_plain`, keys in field order (see
``golden/README.md``, "cast, overclock"). Units: Flux points, Hand points,
HP.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from linguo_cli.core.derivation import Step
from linguo_cli.core.results import OMIT, _Omit
from linguo_cli.rulesets.linguomancy.amounts import Amount
from linguo_cli.rulesets.linguomancy.overclock import Consequence

#: Entity fields listed in a cast's per-entity ``before``/``after``.
REPORT_FIELDS: tuple[str, ...] = (
    "hp", "temp_hp", "conditions", "death_saves", "dead", "death",
    "flux", "exhaustion", "maintained",
)


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """A target's attack roll in a cast: ``hit`` and the ``degree`` (D1, A1)."""

    kind: str
    hit: bool | None
    degree: str


@dataclass(frozen=True, slots=True)
class SaveOutcome:
    """A target's saving throw in a cast: ``success`` (the degree after D5,
    S1 rev. 2), the ``degree`` and the ``effect`` it leaves (``none``,
    ``half``, ``full``)."""

    kind: str
    success: bool
    degree: str
    effect: str


@dataclass(frozen=True, slots=True)
class CastDamage:
    """The damage a target of a cast took (HP): ``amount`` (after a save's
    halving), then the numbers of :class:`~linguo_cli.rulesets.linguomancy.hp.DamageChange`."""

    amount: int | None
    damage: int
    damage_after_resistance: int
    temp_hp_absorbed: int
    hp_lost: int
    leftover: int


@dataclass(frozen=True, slots=True)
class CastHealing:
    """The healing a target of a cast took (HP): ``amount`` offered (after a
    save's halving; ``None`` for Complete), ``healing`` and ``hp_regained``."""

    amount: int | None
    healing: int | None
    hp_regained: int


@dataclass(frozen=True, slots=True)
class CastEntity:
    """What a cast did to one entity (the caster first, then each target):
    ``before``/``after`` (:data:`REPORT_FIELDS`), ``events``, and when it
    was tested or took the effect, its ``test`` and ``damage`` or
    ``healing``."""

    before: Mapping[str, Any]
    after: Mapping[str, Any]
    events: tuple[str, ...]
    test: AttackOutcome | SaveOutcome | _Omit = OMIT
    damage: CastDamage | _Omit = OMIT
    healing: CastHealing | _Omit = OMIT


@dataclass(frozen=True, slots=True)
class CastAdjective:
    """An Adjective used by a cast: its ``name`` and ``effect`` in words,
    never ``enforced`` by the engine."""

    name: str
    effect: str
    enforced: bool = False


@dataclass(frozen=True, slots=True)
class CheckBonus:
    """A check bonus an idiom gives (``value``, base + upcast x per point) to
    the checks named by ``applies_to``; not stored in the state."""

    applies_to: str
    value: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CastResult:
    """Result of a cast (kind ``cast``; see ``golden/README.md``, "cast,
    overclock"): the idiom, its costs and cap (F1, F3), Flux before/after and
    spent, overclocking and its ``consequence`` (F4, F5), Adjectives, action
    points and Hand cost, maintaining (P6), the save DC (S3), the d20
    ``tests``, the shared ``amount`` roll (T6), a ``check_bonus``, ``notes``
    (C2), per-entity records, rules, derivation; ``state`` (the request's
    state after) and ``rolls_used`` are set by the request handler and the
    dispatcher. Units: Flux points, Hand points, HP."""

    kind: str = "cast"
    caster: str
    idiom: str
    verb: str
    noun: str
    sample: bool
    base_cost: int
    upcast: int
    final_cost: int
    cap: int
    cap_set_by: tuple[str, ...]
    cap_parts: Mapping[str, int]
    cap_applies: bool
    flux_before: int
    flux_after: int
    flux_spent: int
    overclocked: bool
    missing: int
    consequence: Consequence | None
    adjectives: tuple[CastAdjective, ...]
    action_points: int
    hand_cost: int
    complex: bool
    maintainable: bool
    maintained: bool
    not_maintained: str | None
    hands_free: int | None
    save_dc: int | None
    tests: tuple[Mapping[str, Any], ...]
    amount: Amount | None
    check_bonus: CheckBonus | None
    notes: tuple[str, ...]
    entities: Mapping[str, CastEntity]
    rules: tuple[str, ...]
    explanation: tuple[Step, ...]
    state: Mapping[str, Any] | _Omit = OMIT
    rolls_used: tuple[int, ...] | _Omit = OMIT
