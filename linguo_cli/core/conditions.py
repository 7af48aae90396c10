"""Conditions, ruleset-neutral: held conditions, catalogs, durations.

- :class:`Condition`: one condition held by an entity: its ``name``, its
  ``source`` and its counted duration left (``remaining_turns``; ``None`` = no
  duration: it lasts until something removes it). What one unit of duration
  is belongs to the ruleset (Linguomancy C1: a turn of the holder; a ruleset
  counting rounds ticks once a round).
- :class:`Catalog`: the entries a ruleset enforces, looked up by name
  ignoring case. Each ruleset brings its own *effect vocabulary*: an entry's
  ``effects`` is any value of the ruleset's effects type (an
  :class:`EffectSet`: ``empty`` and ``combine``); :meth:`Catalog.held` combines
  the effects of the conditions an entity holds and sorts their names into
  enforced, unenforced (in the catalog with no effect and no rule) and unknown
  (not in the catalog).
- Durations: :func:`gain` (the same name from the same source is held once,
  the longer duration kept), :func:`remove`, and :func:`tick`, the one count
  down (each ruleset decides *when* it ticks and *which* conditions count,
  e.g. Linguomancy's end of the holder's turn for the conditions held when it
  started).

Pure: entities are frozen and returned anew (``core.evolve``, so a
ruleset's entity subclass keeps its type).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from linguo_cli.core.evolve import evolve

if TYPE_CHECKING:
    from linguo_cli.core.entity import Entity


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition held: ``name`` (from the ruleset's catalog), its ``source``
    (free text: what gave it) and ``remaining_turns`` (counted duration left,
    in the ruleset's unit; ``None`` = no duration). A ``Condition`` is its own
    identity: two with the same three values are the same holding."""

    name: str
    source: str = ""
    remaining_turns: int | None = None

    def as_dict(self) -> dict[str, object]:
        """``{"name", "source"?, "remaining_turns"?}``: the state-file shape
        (an empty source and no duration are left out)."""
        out: dict[str, object] = {"name": self.name}
        if self.source:
            out["source"] = self.source
        if self.remaining_turns is not None:
            out["remaining_turns"] = self.remaining_turns
        return out


# ---------------------------------------------------------------------------
# Catalogs


E = TypeVar("E", bound="EffectSet")


class EffectSet(Protocol):
    """What a ruleset's effects type offers the catalog: ``empty`` (no effect
    of the vocabulary is set) and ``combine`` (two sets together, the
    ruleset's own rules: flags by *or*, changes by sum...)."""

    @property
    def empty(self) -> bool: ...

    def combine(self: E, other: E, /) -> E: ...


E_co = TypeVar("E_co", bound="EffectSet", covariant=True)


class CatalogEntry(Protocol[E_co]):
    """An entry of a catalog: its ``name``, its ``effects`` (the ruleset's
    vocabulary) and whether the engine ``enforced`` anything for it (an effect,
    or rules applied elsewhere such as Linguomancy's Dying)."""

    @property
    def name(self) -> str: ...

    @property
    def effects(self) -> E_co: ...

    @property
    def enforced(self) -> bool: ...


EntryT = TypeVar("EntryT", bound="CatalogEntry")  # type: ignore[type-arg]


@dataclass(frozen=True, slots=True)
class Held(Generic[E]):
    """The conditions an entity holds, as a catalog sees them: ``effects``
    (the combination of every enforced effect), ``conditions`` (names of the
    held entries the engine enforces something for), ``unenforced`` (entries
    with no effect and no rule) and ``unknown`` (names the catalog lacks);
    each in the order held."""

    effects: E
    conditions: tuple[str, ...] = ()
    unenforced: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Catalog(Generic[EntryT]):
    """A condition catalog: its entries in file order (``conditions``) and the
    ``name`` outputs call it by. Lookups ignore case."""

    conditions: tuple[EntryT, ...]
    name: str = "default"

    def get(self, name: str) -> EntryT | None:
        """The entry called ``name`` (ignoring case), or ``None``."""
        key = name.casefold()
        for c in self.conditions:
            if c.name.casefold() == key:
                return c
        return None

    def enforced(self, name: str) -> bool:
        """True when the catalog enforces an effect or a rule for ``name``."""
        entry = self.get(name)
        return entry is not None and entry.enforced

    def held(self, names: Iterable[str], none: E) -> Held[E]:
        """The combined effects of the conditions called ``names`` (each once,
        ignoring case), starting from ``none`` (the ruleset's empty effects):
        entries with effects add them; entries with none count as enforced
        when they carry rules, else as unenforced; names the catalog lacks are
        unknown."""
        total = none
        enforced: list[str] = []
        unenforced: list[str] = []
        unknown: list[str] = []
        for n in distinct(names):
            entry = self.get(n)
            if entry is None:
                unknown.append(n)
                continue
            if not entry.effects.empty:
                total = total.combine(entry.effects)
                enforced.append(entry.name)
            elif entry.enforced:
                enforced.append(entry.name)
            else:
                unenforced.append(entry.name)
        return Held(total, tuple(enforced), tuple(unenforced), tuple(unknown))


def distinct(names: Iterable[str]) -> list[str]:
    """``names`` each once ignoring case (the first spelling kept), in order."""
    out: list[str] = []
    seen: set[str] = set()
    for n in names:
        key = n.casefold()
        if key not in seen:
            seen.add(key)
            out.append(n)
    return out


# ---------------------------------------------------------------------------
# Gaining, removing, counting down


EntityT = TypeVar("EntityT", bound="Entity")


def gain(entity: EntityT, name: str, source: str, turns: int | None) -> EntityT:
    """``entity`` with condition ``name`` gained from ``source`` for ``turns``
    units of duration (``None`` = no duration, until removed).

    The same condition from the same source is held once: the longer
    duration is kept (no duration is the longest). From another source it is
    held again, separately (each source ends on its own). Raises
    :class:`ValueError` for a duration below 1.
    """
    if turns is not None and turns < 1:
        raise ValueError(f"a condition lasts at least 1 turn, got {turns}")
    new = Condition(name, source, turns)
    kept: list[Condition] = []
    merged = False
    for c in entity.conditions:
        if c.name == name and c.source == source and not merged:
            merged = True
            longer = (None if c.remaining_turns is None or turns is None
                      else max(c.remaining_turns, turns))
            kept.append(c if longer == c.remaining_turns else new)
        else:
            kept.append(c)
    if not merged:
        kept.append(new)
    return evolve(entity, conditions=tuple(kept))


def remove(entity: EntityT, name: str, source: str | None = None) -> EntityT:
    """``entity`` without condition ``name`` (only from ``source`` when given)."""
    return evolve(entity, conditions=tuple(
        c for c in entity.conditions
        if not (c.name == name and (source is None or c.source == source))))


def tick(entity: EntityT, counted: Collection[Condition]) -> tuple[EntityT, list[str]]:
    """One unit of duration passes for the conditions of ``entity`` that are
    in ``counted`` and have a duration: each counts one down, and those that
    reach 0 end. Conditions outside ``counted`` (e.g. gained since the tick's
    reference point) and conditions without a duration are kept as they are.

    Returns the new entity and the names of the conditions that ended, in the
    order held."""
    kept, ended = ticked(entity.conditions, counted)
    return evolve(entity, conditions=kept), ended


def ticked(conditions: Iterable[Condition], counted: Collection[Condition]
           ) -> tuple[tuple[Condition, ...], list[str]]:
    """What :func:`tick` does to an entity's ``conditions``: the conditions
    kept (those of ``counted`` with a duration one unit shorter) and the
    names of those that ended, each in the order held."""
    started = set(counted)
    kept: list[Condition] = []
    ended: list[str] = []
    for c in conditions:
        if c.remaining_turns is None or c not in started:
            kept.append(c)
        elif c.remaining_turns <= 1:
            ended.append(c.name)
        else:
            kept.append(evolve(c, remaining_turns=c.remaining_turns - 1))
    return tuple(kept), ended


def names(conditions: Sequence[Condition] | Iterable[Condition]) -> list[str]:
    """Distinct condition names (exact case) in the order held."""
    out: list[str] = []
    for c in conditions:
        if c.name not in out:
            out.append(c.name)
    return out
