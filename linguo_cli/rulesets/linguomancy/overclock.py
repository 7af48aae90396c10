"""Overclocking (F4, F5): the table, applying one row to the caster, and the
one-off ``overclock`` request.

* :func:`overclock_row` reads one row of the F4 table
  (``linguo_cli/rulesets/linguomancy/data/overclock.json``).
* :func:`apply_overclock` applies a row to an entity: conditions with
  durations (C1), Exhaustion tiers (6 or more is death, F5), death with its
  kind (rows 9 and 10) through the one
  :func:`~linguo_cli.rulesets.linguomancy.dying.die` (H10).
* :func:`resolve_overclock_request` is the handler of kind ``overclock``.

Results are frozen dataclasses whose JSON is their fields in order
(:func:`linguo_cli.core.results.to_plain`). Units: Flux points and
Exhaustion tiers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.errors import RulesError
from linguo_cli.core.evolve import evolve
from linguo_cli.core.results import OMIT, _Omit
from linguo_cli.rulesets.linguomancy import conditions as conditions_
from linguo_cli.rulesets.linguomancy import dying, packaged
from linguo_cli.rulesets.linguomancy.model import Entity

#: Highest final cost of any cast, overclocked or not (F3, F4).
MAX_COST = 10

#: Exhaustion tiers at which an entity dies (F5).
DEATH_EXHAUSTION = 6


@dataclass(frozen=True, slots=True)
class Gain:
    """A condition gained: its ``name`` and duration in ``turns`` of its
    holder (C1; ``None``: no duration, until removed)."""

    name: str
    turns: int | None


@dataclass(frozen=True, slots=True)
class DeathRecord:
    """A death: its ``cause`` (a ``death.cause`` of the state schema) and how
    hard ``resurrection`` is (``very_hard``, ``impossible`` or ``None``)."""

    cause: str | None
    resurrection: str | None


@dataclass(frozen=True, slots=True)
class OverclockRow:
    """One row of the F4 table: ``missing`` Flux points, its ``text``, the
    ``conditions`` gained, the ``exhaustion`` tiers gained, and a direct
    ``death`` or ``None`` (row 8 kills through its 6 tiers, F5)."""

    missing: int
    text: str
    conditions: tuple[Gain, ...] = ()
    exhaustion: int = 0
    death: DeathRecord | None = None


@cache
def overclock_table() -> tuple[OverclockRow, ...]:
    """The rows of ``linguo_cli/rulesets/linguomancy/data/overclock.json`` (missing 1 to 10)."""
    raw = json.loads(packaged("data/overclock.json").read_text(encoding="utf-8"))
    return tuple(
        OverclockRow(
            missing=r["missing"], text=r["text"],
            conditions=tuple(Gain(c["name"], c["turns"]) for c in r["conditions"]),
            exhaustion=r["exhaustion"],
            death=None if r["death"] is None else DeathRecord(r["death"]["cause"],
                                                              r["death"]["resurrection"]))
        for r in raw["rows"])


def overclock_row(missing: int) -> OverclockRow:
    """The F4 row for ``missing`` Flux points (1-10); ``ValueError`` otherwise."""
    for row in overclock_table():
        if row.missing == missing:
            return row
    raise ValueError(f"no overclocking row for {missing} missing Flux points")


@dataclass(frozen=True, slots=True)
class Consequence:
    """What an overclocking row did to its entity (JSON in this order): the
    ``row``, the ``conditions`` gained, ``exhaustion_before``,
    ``exhaustion_gained`` and ``exhaustion_after`` (tiers, the held value is
    capped at 6), ``dead``, its ``death`` (``None`` when alive), the
    ``events`` and ``notes`` (C2: conditions with no enforced effect)."""

    row: OverclockRow
    conditions: tuple[Gain, ...]
    exhaustion_before: int
    exhaustion_gained: int
    exhaustion_after: int
    dead: bool
    death: DeathRecord | None
    events: tuple[str, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Overclocking:
    """:func:`apply_overclock`'s account: the typed :class:`Consequence` and
    the derivation ``steps``."""

    consequence: Consequence
    steps: tuple[Step, ...]

    @property
    def events(self) -> tuple[str, ...]:
        """The consequence's events (``becomes_drained``, ``dies``, ...)."""
        return self.consequence.events

    @property
    def notes(self) -> tuple[str, ...]:
        """The consequence's C2 notes."""
        return self.consequence.notes

    @property
    def dead(self) -> bool:
        """Whether the entity is dead after the consequence."""
        return self.consequence.dead


def _condition_event(name: str) -> str:
    return "falls_unconscious" if name == "Unconscious" else f"becomes_{name.lower()}"


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def apply_overclock(entity: Entity, missing: int, *, catalog: conditions_.Catalog,
                    source: str = "overclocking") -> tuple[Entity, Overclocking]:
    """Apply the F4 row for ``missing`` (1-10) Flux points to ``entity``.

    Conditions are gained from ``source`` with the row's durations (C1);
    Exhaustion tiers are added, and 6 or more tiers kill (F5; the tiers are
    capped at 6 in the state); rows 9 and 10 kill with their own cause and
    resurrection. Every death goes through
    :func:`~linguo_cli.rulesets.linguomancy.dying.die` (H10): every
    condition the entity had, those the row just gave included, ends, and
    the events list each as ``condition_ends:NAME`` after ``dies``
    (``Consequence.conditions`` still lists what the row gave). A dead
    entity gains nothing more. Conditions the catalog gives no enforced
    effect get a note (C2). Raises ``ValueError`` for ``missing`` outside
    1-10.
    """
    row = overclock_row(missing)
    log = Derivation()
    log.note("F4", f"{missing} Flux point(s) missing: {row.text}")
    events: list[str] = []
    notes: list[str] = []
    gained: tuple[Gain, ...] = ()
    e = entity
    if e.dead:
        log.note("F4", f"{e.id} is already dead: the consequence changes nothing")
    elif row.death is not None:
        cause, resurrection = row.death.cause or "", row.death.resurrection
        log.note("F4", f"{e.id} dies ({cause.replace('_', ' ')}); resurrection "
                       f"{str(resurrection).replace('_', ' ')}")
        e = dying.record_death(e, cause, events, log.steps, resurrection)
    else:
        e = _gain_conditions(e, row, source, catalog, events, notes, log)
        gained = row.conditions
        e = _gain_exhaustion(e, row, events, log)
    death = DeathRecord(e.death_cause, e.resurrection) if e.dead else None
    cons = Consequence(row, gained, entity.exhaustion, e.exhaustion - entity.exhaustion,
                       e.exhaustion, e.dead, death, tuple(events), tuple(notes))
    return e, Overclocking(cons, tuple(log.steps))


def _gain_conditions(e: Entity, row: OverclockRow, source: str, catalog: conditions_.Catalog,
                     events: list[str], notes: list[str], log: Derivation) -> Entity:
    """The row's conditions, with their durations (C1) and C2 notes."""
    for g in row.conditions:
        e = conditions_.gain(e, g.name, source, g.turns)
        events.append(_condition_event(g.name))
        how = "no duration (until removed)" if g.turns is None else (
            f"{g.turns} turn(s): until the end of its {_ordinal(g.turns)} turn that starts "
            "after now")
        log.note("C1", f"{e.id} gains {g.name} from {source}, {how}")
        note = catalog.note(g.name)
        if note:
            notes.append(note)
            log.note("C2", note)
    return e


def _gain_exhaustion(e: Entity, row: OverclockRow, events: list[str], log: Derivation
                     ) -> Entity:
    """The row's Exhaustion tiers (F5): 6 or more is death (H10)."""
    if not row.exhaustion:
        return e
    before = e.exhaustion
    total = before + row.exhaustion
    after = min(total, DEATH_EXHAUSTION)
    e = evolve(e, exhaustion=after)
    events.append("gains_exhaustion")
    log.note("F5", f"Exhaustion {before} + {row.exhaustion} = {total}"
                   + (f" (held as {after})" if after != total else ""))
    if total >= DEATH_EXHAUSTION:
        log.note("F5", f"{DEATH_EXHAUSTION} or more Exhaustion tiers: {e.id} dies")
        e = dying.record_death(e, "exhaustion", events, log.steps)
    return e


@dataclass(frozen=True, slots=True, kw_only=True)
class OverclockResult:
    """Result of kind ``overclock``: the ``cost`` (final cost, Flux points),
    ``flux_before``/``flux_after``, ``missing``, ``overclocked``,
    ``exhaustion_before``, then the row and what it does (``row`` ``None``
    and nothing gained when the Flux covers the cost), ``rules``,
    ``explanation`` and ``rolls_used``."""

    kind: str = "overclock"
    cost: int
    flux_before: int
    flux_after: int
    missing: int
    overclocked: bool
    exhaustion_before: int
    row: OverclockRow | None
    conditions: tuple[Gain, ...]
    exhaustion_gained: int
    exhaustion_after: int
    dead: bool
    death: DeathRecord | None
    events: tuple[str, ...]
    notes: tuple[str, ...]
    rules: tuple[str, ...]
    explanation: tuple[Step, ...]
    rolls_used: tuple[int, ...] | _Omit = OMIT


def resolve_overclock_request(request: Mapping[str, Any], dice: DiceSource
                              ) -> OverclockResult:
    """Handler of kind ``overclock``: the F4 row for a final ``cost`` cast
    with ``flux`` Flux and ``exhaustion`` tiers already held, and what it
    does (F5), as a one-off without a state. A cost above 10 is refused
    (F4, exit 4); a cost the Flux covers needs no overclocking (missing 0)."""
    cost = int(request["cost"])
    flux = int(request["flux"])
    exhaustion = int(request.get("exhaustion", 0))
    cond = conditions_.catalog_from_request(request.get("conditions"))
    if cost > MAX_COST:
        raise RulesError("F4", f"an idiom cannot be overclocked above a final cost of "
                               f"{MAX_COST}; got {cost}", {"cost": cost})
    missing = max(cost - flux, 0)
    log = Derivation()
    cons = None
    if not missing:
        log.note("F4", f"{flux} Flux covers the cost {cost}: no overclocking, no consequence")
        log.note("F1", f"Flux {flux} - {cost} = {flux - cost}")
    else:
        log.note("F4", f"cost {cost} with {flux} Flux: spends all of it, {missing} point(s) "
                       "missing")
        entity = Entity(id="caster", kind="player", hp=1, max_hp=1, flux=0,
                        exhaustion=exhaustion)
        _, oc = apply_overclock(entity, missing, catalog=cond)
        log.extend(oc.steps)
        cons = oc.consequence
    return OverclockResult(
        cost=cost, flux_before=flux, flux_after=0 if missing else flux - cost, missing=missing,
        overclocked=bool(missing), exhaustion_before=exhaustion,
        row=None if cons is None else cons.row,
        conditions=() if cons is None else cons.conditions,
        exhaustion_gained=0 if cons is None else cons.exhaustion_gained,
        exhaustion_after=exhaustion if cons is None else cons.exhaustion_after,
        dead=False if cons is None else cons.dead,
        death=None if cons is None else cons.death,
        events=() if cons is None else cons.events, notes=() if cons is None else cons.notes,
        rules=log.rules, explanation=tuple(log.steps))
