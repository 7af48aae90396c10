"""Conditions: the condition catalog (C2) and condition durations (C1).

The catalog says which effects the engine enforces for each condition. It
ships with defaults (``linguo_cli/rulesets/linguomancy/data/conditions.yaml``, schema
``schemas/conditions.schema.json``) and a table may replace it with its own
(``--conditions FILE``, or ``conditions: [...]`` inline in a request). The
effect vocabulary is small and closed (:class:`Effects`); an unknown effect
is a validation error. A condition with no effects and no rules has *no
enforced effect* (Drained and Lethargic by default) and outputs say so
(:meth:`Catalog.note`).

Durations (C1): a condition gained with a duration of N turns lasts until the
end of its holder's N-th turn that *starts after it was gained*.
``remaining_turns`` counts those turns; :func:`tick_end_of_turn` counts one
down at the end of each of the holder's turns, except for conditions gained
during that very turn. A condition without a duration is never ended here.

This module keeps Linguomancy's vocabulary (:class:`Effects`), its catalog
entries (:class:`ConditionDef`: long rests, H9) and its C1 ruling on when a
duration counts down; the neutral parts (held conditions, catalog lookup and
combination, gain/remove/count down) are :mod:`linguo_cli.core.conditions`.

Everything here is pure: entities are frozen and returned anew.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from linguo_cli.core import conditions as core
from linguo_cli.core.conditions import Condition, gain, names, remove
from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.core.evolve import evolve
from linguo_cli.rulesets.linguomancy.model import Entity

__all__ = ["EFFECT_NAMES", "Catalog", "ConditionDef", "Effects", "catalog_from_request",
           "default_catalog", "gain", "identities", "load_catalog", "names", "remove",
           "tick_end_of_turn", "ticked_end_of_turn"]

#: The closed effect vocabulary of a catalog entry (C2).
EFFECT_NAMES: tuple[str, ...] = (
    "no_actions", "no_movement", "no_reactions", "crawl_only", "ap_change",
    "movement_factor", "flux_regen_change", "advantage", "disadvantage",
)


@dataclass(frozen=True, slots=True)
class Effects:
    """Enforced effects of one condition, or the combination of several.

    Flags (``no_actions``, ``no_movement``, ``no_reactions``, ``crawl_only``)
    combine by *or*; ``ap_change`` (action points per turn, P1) and
    ``flux_regen_change`` (Flux points per turn, F2) by sum;
    ``movement_factor`` (exact multiplier of the maximum movement, P2) by
    product; ``advantage``/``disadvantage`` (test kinds ``check``, ``attack``,
    ``save`` of the holder's own tests, D2) by union.

    In a combination, ``conditions`` names the held conditions with enforced
    effects, ``unenforced`` those held with none (C2: outputs must say so)
    and ``unknown`` those held that the catalog does not list.
    """

    no_actions: bool = False
    no_movement: bool = False
    no_reactions: bool = False
    crawl_only: bool = False
    ap_change: int = 0
    movement_factor: Fraction = Fraction(1)
    flux_regen_change: int = 0
    advantage: frozenset[str] = frozenset()
    disadvantage: frozenset[str] = frozenset()
    conditions: tuple[str, ...] = ()
    unenforced: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        """True when no effect of the vocabulary is set."""
        return self.as_dict() == {}

    def combine(self, other: Effects) -> Effects:
        """Both effects together (see the class docstring for the rules)."""
        return Effects(
            no_actions=self.no_actions or other.no_actions,
            no_movement=self.no_movement or other.no_movement,
            no_reactions=self.no_reactions or other.no_reactions,
            crawl_only=self.crawl_only or other.crawl_only,
            ap_change=self.ap_change + other.ap_change,
            movement_factor=self.movement_factor * other.movement_factor,
            flux_regen_change=self.flux_regen_change + other.flux_regen_change,
            advantage=self.advantage | other.advantage,
            disadvantage=self.disadvantage | other.disadvantage,
            conditions=self.conditions + other.conditions,
            unenforced=self.unenforced + other.unenforced,
            unknown=self.unknown + other.unknown,
        )

    def as_dict(self) -> dict[str, Any]:
        """The effects that are set, in the catalog's vocabulary (fractions as
        strings, test kinds sorted)."""
        out: dict[str, Any] = {}
        for flag in ("no_actions", "no_movement", "no_reactions", "crawl_only"):
            if getattr(self, flag):
                out[flag] = True
        if self.ap_change:
            out["ap_change"] = self.ap_change
        if self.movement_factor != 1:
            out["movement_factor"] = str(self.movement_factor)
        if self.flux_regen_change:
            out["flux_regen_change"] = self.flux_regen_change
        if self.advantage:
            out["advantage"] = sorted(self.advantage)
        if self.disadvantage:
            out["disadvantage"] = sorted(self.disadvantage)
        return out


#: No effect at all (what an entity holding no condition has).
_NONE = Effects()


def _effects_from(raw: Mapping[str, Any]) -> Effects:
    return Effects(
        no_actions=bool(raw.get("no_actions", False)),
        no_movement=bool(raw.get("no_movement", False)),
        no_reactions=bool(raw.get("no_reactions", False)),
        crawl_only=bool(raw.get("crawl_only", False)),
        ap_change=int(raw.get("ap_change", 0)),
        movement_factor=Fraction(str(raw.get("movement_factor", "1"))),
        flux_regen_change=int(raw.get("flux_regen_change", 0)),
        advantage=frozenset(raw.get("advantage") or ()),
        disadvantage=frozenset(raw.get("disadvantage") or ()),
    )


@dataclass(frozen=True, slots=True)
class ConditionDef:
    """One catalog entry: ``name``, ``description``, ``rules`` enforced for it
    elsewhere (e.g. Dying: H5-H8) and its ``effects``.

    ``ends_on_long_rest`` (C2, H9; default ``False``, so a catalog written
    before the field ends nothing on a long rest): a long rest ends the
    condition, except when held from one of ``long_rest_except_sources``
    (casefolded; default Unconscious: ``dying``, ``nonlethal``)."""

    name: str
    description: str = ""
    rules: tuple[str, ...] = ()
    effects: Effects = field(default_factory=Effects)
    ends_on_long_rest: bool = False
    long_rest_except_sources: tuple[str, ...] = ()

    def ended_by_long_rest(self, source: str) -> bool:
        """True when a long rest ends this condition held from ``source`` (H9)."""
        return self.ends_on_long_rest and source.casefold() not in self.long_rest_except_sources

    @property
    def enforced(self) -> bool:
        """False when the engine enforces nothing for it (C2)."""
        return bool(self.rules) or not self.effects.empty

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.description:
            out["description"] = self.description
        if self.rules:
            out["rules"] = list(self.rules)
        out["effects"] = self.effects.as_dict()
        if self.ends_on_long_rest:
            out["ends_on_long_rest"] = True
        if self.long_rest_except_sources:
            out["long_rest_except_sources"] = list(self.long_rest_except_sources)
        return out


#: Most condition sets a catalog remembers the combined effects of
#: (:meth:`Catalog.effects_for`); past it the memory starts again.
_EFFECTS_MEMO = 1024


@dataclass(frozen=True, slots=True)
class Catalog(core.Catalog[ConditionDef]):
    """A condition catalog: its entries in file order. Lookups ignore case
    (:class:`linguo_cli.core.conditions.Catalog`). The combined effects of
    each condition set asked for are kept (``_memo``: the entries are frozen,
    so a set's effects never change; not part of the value), and so is an
    index of the entries by casefolded name (``_index``)."""

    _memo: dict[tuple[tuple[str, ...], bool], Effects] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False)
    _index: dict[str, ConditionDef] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def get(self, name: str) -> ConditionDef | None:
        """The entry called ``name`` (ignoring case), or ``None``: the first
        entry of that name, as the core catalog's scan finds it, from an index
        of the casefolded names built at the first lookup."""
        index = self._index
        if not index:
            for c in self.conditions:
                index.setdefault(c.name.casefold(), c)
        return index.get(name.casefold())

    def note(self, name: str) -> str | None:
        """The plain statement an output must carry when ``name`` has no
        enforced effect (C2), else ``None``."""
        entry = self.get(name)
        if entry is None:
            return (f"{name} is not in the condition catalog ({self.name}): "
                    "it is tracked but has no enforced effect")
        if not entry.enforced:
            return (f"{name} has no enforced effect (the condition catalog ({self.name}) "
                    "lists none): it is tracked with its source and duration only")
        return None

    def ended_by_long_rest(self, condition: Condition) -> bool:
        """True when a long rest ends ``condition`` (its entry's
        ``ends_on_long_rest`` and source exceptions, H9); a condition the
        catalog does not list is never ended by a rest."""
        entry = self.get(condition.name)
        return entry is not None and entry.ended_by_long_rest(condition.source)

    def effects_for(self, entity: Entity) -> Effects:
        """The combined enforced effects of every condition ``entity`` holds
        (each name counts once), plus the catalog's ``Exhaustion`` effects
        while ``entity.exhaustion`` >= 1 (F5 tiers live in that field)."""
        key = (tuple([c.name for c in entity.conditions]), entity.exhaustion > 0)
        memo = self._memo
        effects = memo.get(key)
        if effects is None:
            if len(memo) >= _EFFECTS_MEMO:
                memo.clear()
            effects = memo[key] = self._combined(*key)
        return effects

    def _combined(self, names: tuple[str, ...], exhausted: bool) -> Effects:
        """What :meth:`effects_for` gives for conditions called ``names`` (in
        the order held) and Exhaustion tiers when ``exhausted``."""
        held = core.distinct(names)
        if exhausted and not any(n.casefold() == "exhaustion" for n in held):
            held.append("Exhaustion")
        found = self.held(held, _NONE)
        if not held:
            return found.effects
        return evolve(found.effects, conditions=found.conditions,
                      unenforced=found.unenforced, unknown=found.unknown)

    def as_list(self) -> list[dict[str, Any]]:
        """The entries in the catalog-file shape (what a request inlines)."""
        return [c.as_dict() for c in self.conditions]


def load_catalog(data: Mapping[str, Any] | Sequence[Mapping[str, Any]], *,
                 name: str = "conditions", document: Any = None,
                 base: Sequence[Any] = ()) -> Catalog:
    """Build a :class:`Catalog` from a catalog document (``{conditions:
    [...]}``) or the bare list of entries a request inlines.

    Validates against ``schemas/conditions.schema.json`` (unknown effects are
    errors) and refuses duplicate names. ``document`` (a
    :class:`~linguo_cli.io.document.Document` holding ``data``) and ``base``
    (the path of ``data`` inside it) let errors name ``file:line:col``.
    Raises :class:`InputError` (exit 3) with every problem found.
    """
    from linguo_cli.io.places import field_path
    from linguo_cli.rulesets.linguomancy.state import checked_catalog

    plain, outer, doc = checked_catalog(
        data, "conditions", schema="conditions", name=name, document=document, base=base)
    entries: list[ConditionDef] = []
    seen: set[str] = set()
    problems: list[Diagnostic] = []
    for i, raw in enumerate(plain["conditions"]):
        key = raw["name"].casefold()
        if key in seen:
            path = outer + ["conditions", i, "name"]
            problems.append(Diagnostic(doc.place(path) if document is not None else name,
                                       field_path(path),
                                       f"condition {raw['name']!r} is listed twice"))
        seen.add(key)
        entries.append(ConditionDef(
            name=raw["name"], description=raw.get("description", ""),
            rules=tuple(raw.get("rules") or ()), effects=_effects_from(raw.get("effects") or {}),
            ends_on_long_rest=bool(raw.get("ends_on_long_rest", False)),
            long_rest_except_sources=tuple(
                str(x).casefold() for x in raw.get("long_rest_except_sources") or ())))
    if problems:
        raise InputError(problems)
    return Catalog(tuple(entries), name=name)


@cache
def default_catalog() -> Catalog:
    """The catalog shipped with linguo (``data/conditions.yaml`` of this package),
    read from its JSON copy (:mod:`~linguo_cli.rulesets.linguomancy.catalog_copy`:
    no YAML reader needed)."""
    from linguo_cli.io.read import parse
    from linguo_cli.rulesets.linguomancy.catalog_copy import default_text

    name, text = default_text("conditions")
    doc = parse(text, name)
    return load_catalog(doc.data, name="default", document=doc)


def catalog_from_request(entries: Sequence[Mapping[str, Any]] | None) -> Catalog:
    """A request's inline ``conditions`` entries, or the default catalog when
    absent (``None``)."""
    if entries is None:
        return default_catalog()
    return _inline_catalog(json.dumps(entries))


@lru_cache(maxsize=64)
def _inline_catalog(text: str) -> Catalog:
    """An inline catalog, checked once per distinct content (a batch of
    requests carrying the same catalog validates it once; catalogs are frozen)."""
    return load_catalog(json.loads(text), name="request conditions", base=["conditions"])


# ---------------------------------------------------------------------------
# Gaining, losing and counting down (C1)


def identities(entity: Entity) -> frozenset[Condition]:
    """What :func:`tick_end_of_turn` needs as ``started_with``: the conditions
    held at the start of the holder's turn (``Condition`` values are their own
    identity: name, source and remaining turns)."""
    return frozenset(entity.conditions)


def tick_end_of_turn(entity: Entity, started_with: Collection[Condition]
                     ) -> tuple[Entity, list[str]]:
    """End of ``entity``'s own turn (C1, O1): every condition with a duration
    that it already held when the turn started (``started_with``, from
    :func:`identities`) counts one turn down; those reaching 0 end. A
    condition gained (or renewed) during this turn is not counted down, so
    "for 1 turn" gained on its holder's turn lasts until the end of its next
    turn. Conditions without a duration never end here
    (:func:`linguo_cli.core.conditions.tick`).

    Returns the new entity and the names of the conditions that ended, in
    the order held.
    """
    return core.tick(entity, started_with)


def ticked_end_of_turn(entity: Entity, started_with: Collection[Condition]
                       ) -> tuple[tuple[Condition, ...], list[str]]:
    """:func:`tick_end_of_turn` as the conditions ``entity`` keeps (not a new
    entity) and the names of those that ended, in the order held (C1)."""
    return core.ticked(entity.conditions, started_with)
