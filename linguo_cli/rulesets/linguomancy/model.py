"""Frozen values and enums of the rulebook's nouns shared by the rules modules."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter
from typing import Any

from linguo_cli.core import entity as core_entity
from linguo_cli.core.conditions import Condition
from linguo_cli.io.document import to_plain as plain
from linguo_cli.rulesets.linguomancy.d20_model import (  # re-exported
    Degree,
    Modifier,
    TestKind,
    ability_modifier_from_score,
    modifiers_from,
)

__all__ = ["Condition", "Degree", "Entity", "Maintained", "Modifier", "TestKind",
           "ability_modifier_from_score", "modifiers_from"]


# ---------------------------------------------------------------------------
# Entities of a state file (schemas/state.schema.json)


#: Longest distance a state holds, metres (schemas/state.schema.json).
MAX_METRES = Fraction(100_000)


#: Whole distances already built (Fractions are immutable values: one per
#: whole number of metres is shared by every entity that holds it).
_WHOLE: dict[int, Fraction] = {}


def _fraction(value: Any) -> Fraction:
    """A state's distance (an int, a number or a fraction string such as
    ``"10/3"``) as an exact :class:`Fraction`, read from its text (so
    ``7.1`` is 71/10); an int or a Fraction directly (the same value,
    without parsing a text; a whole distance up to :data:`MAX_METRES` is
    built once)."""
    if type(value) is int:
        found = _WHOLE.get(value)
        if found is None:
            found = Fraction(value)
            if 0 <= value <= MAX_METRES:
                _WHOLE[value] = found
        return found
    if type(value) is Fraction:
        return value
    return Fraction(str(value))


#: Types whose values :func:`~linguo_cli.io.document.to_plain` gives back as
#: they are (exactly these types: a subclass takes the call).
_PLAIN_AS_IS = frozenset({str, int, float, bool, type(None)})


def _plain(value: Any) -> Any:
    """:func:`~linguo_cli.io.document.to_plain` of ``value``, without the
    call for a value that is already plain."""
    return value if type(value) in _PLAIN_AS_IS else plain(value)


def metres(value: Fraction) -> int | float | str:
    """A distance in metres for output, always exact: an int when whole
    (``15``), a number when the value is exact in binary (``7.5``, ``3.75``:
    the denominator is a power of two), else a fraction string (``"10/3"``)."""
    n, d = value.as_integer_ratio()  # one call, not a property per part
    if d == 1:
        return n  # int(value)
    if d & (d - 1) == 0:
        return n / d  # float(value): numbers.Rational.__float__ divides the same ints
    return f"{n}/{d}"


@dataclass(frozen=True, slots=True)
class Maintained:
    """A maintained idiom (P6); ``hand_cost`` ``None`` = the idiom's own."""

    idiom: str
    hand_cost: int | None = None

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"idiom": self.idiom}
        if self.hand_cost is not None:
            out["hand_cost"] = self.hand_cost
        return out


@dataclass(frozen=True, slots=True)
class Entity(core_entity.Entity):
    """One entity of a state file, with every default filled in: the neutral
    fields of :class:`linguo_cli.core.entity.Entity` (id, kind, hp, max_hp,
    temp_hp, conditions, dead) and Linguomancy's own. Its JSON form is
    :meth:`as_dict` (the state-file shape).

    Units: HP, Flux points, metres (``Fraction``), action points, Hand points.
    Field meanings are documented in ``schemas/state.schema.json``.
    """

    name: str = ""
    at_zero_hp: str = "dies"
    abilities: tuple[tuple[str, int], ...] = ()
    ac: object = None
    resistances: frozenset[str] = frozenset()
    vulnerabilities: frozenset[str] = frozenset()
    immunities: frozenset[str] = frozenset()
    death_successes: int = 0
    death_failures: int = 0
    death_cause: str | None = None
    resurrection: str | None = None
    flux: int = 10
    flux_max: int = 10
    flux_regen: int = 1
    exhaustion: int = 0
    wordsmithing_level: int = 10
    expertise: tuple[tuple[str, int], ...] = ()
    idioms: tuple[str, ...] = ()
    action_points_per_turn: int = 3
    action_points: int = 3
    movement_max: Fraction = Fraction(0)
    movement: Fraction = Fraction(0)
    hand_points: int = 2
    hands_spent: int = 0
    held_items: tuple[str, ...] = ()
    maintained: tuple[Maintained, ...] = ()
    reaction_available: bool = True

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Entity:
        """Build from a schema-valid mapping, filling defaults. ``d`` may be
        a loaded document's tree: every value is converted to a plain one
        (the scalars by their type, ``ac`` and the free-form values through
        :func:`linguo_cli.io.document.to_plain`, a fresh copy), so the
        entity shares nothing mutable with ``d``."""
        kind = str(d["kind"])
        get = d.get
        flux_max = int(get("flux_max", 10))
        apt = int(get("action_points_per_turn", 3))
        mmax = _fraction(get("movement_max", 0))
        ds = get("death_saves") or {}
        death = get("death") or {}
        abilities = get("abilities")
        expertise = get("expertise")
        conditions = get("conditions")
        maintained = get("maintained")
        return cls(
            id=str(d["id"]), kind=kind, hp=int(d["hp"]), max_hp=int(d["max_hp"]),
            name=str(get("name", "")),
            temp_hp=int(get("temp_hp", 0)),
            at_zero_hp=str(get("at_zero_hp", "dying" if kind == "player" else "dies")),
            abilities=tuple([(str(k), int(v)) for k, v in abilities.items()])
            if abilities else (),
            ac=_plain(get("ac")),
            resistances=frozenset(get("resistances") or ()),
            vulnerabilities=frozenset(get("vulnerabilities") or ()),
            immunities=frozenset(get("immunities") or ()),
            conditions=tuple([
                Condition(str(c["name"]), str(c.get("source", "")),
                          _plain(c.get("remaining_turns")))
                for c in conditions]) if conditions else (),
            death_successes=int(ds.get("successes", 0)),
            death_failures=int(ds.get("failures", 0)),
            dead=bool(get("dead", False)),
            death_cause=_plain(death.get("cause")),
            resurrection=_plain(death.get("resurrection")),
            flux=int(get("flux", flux_max)),
            flux_max=flux_max,
            flux_regen=int(get("flux_regen", 1)),
            exhaustion=int(get("exhaustion", 0)),
            wordsmithing_level=int(get("wordsmithing_level", 10)),
            expertise=tuple([(str(k), int(v)) for k, v in expertise.items()])
            if expertise else (),
            idioms=tuple([str(i) for i in get("idioms") or ()]),
            action_points_per_turn=apt,
            action_points=int(get("action_points", apt)),
            movement_max=mmax,
            movement=_fraction(get("movement", mmax)),
            hand_points=int(get("hand_points", 2)),
            hands_spent=int(get("hands_spent", 0)),
            held_items=tuple([str(i) for i in get("held_items") or ()]),
            maintained=tuple([Maintained(str(m["idiom"]), _plain(m.get("hand_cost")))
                              for m in maintained]) if maintained else (),
            reaction_available=bool(get("reaction_available", True)),
        )

    def as_dict(self) -> dict[str, Any]:
        """Every field in the state-file shape (defaults included)."""
        return {
            "id": self.id, "name": self.name, "kind": self.kind,
            "hp": self.hp, "max_hp": self.max_hp, "temp_hp": self.temp_hp,
            "at_zero_hp": self.at_zero_hp,
            "abilities": dict(self.abilities),
            "ac": self.ac,
            # the shapes of _REPORTED written out (no call for what is empty)
            "resistances": sorted(self.resistances) if self.resistances else [],
            "vulnerabilities": sorted(self.vulnerabilities) if self.vulnerabilities else [],
            "immunities": sorted(self.immunities) if self.immunities else [],
            "conditions": [c.as_dict() for c in self.conditions] if self.conditions else [],
            "death_saves": {"successes": self.death_successes, "failures": self.death_failures},
            "dead": self.dead,
            "death": None if self.death_cause is None else _death_shape(self),
            "flux": self.flux, "flux_max": self.flux_max, "flux_regen": self.flux_regen,
            "exhaustion": self.exhaustion,
            "wordsmithing_level": self.wordsmithing_level,
            "expertise": dict(self.expertise),
            "idioms": list(self.idioms),
            "action_points_per_turn": self.action_points_per_turn,
            "action_points": self.action_points,
            "movement_max": metres(self.movement_max),
            "movement": metres(self.movement),
            "hand_points": self.hand_points,
            "hands_spent": self.hands_spent,
            "held_items": list(self.held_items),
            "maintained": [m.as_dict() for m in self.maintained] if self.maintained else [],
            "reaction_available": self.reaction_available,
        }

    #: JSON form for :func:`linguo_cli.core.results.to_plain`: :meth:`as_dict`,
    #: fresh JSON-ready values (taken as they are).
    __json__ = as_dict
    __json_plain__ = True

    def ability(self, name: str) -> int | None:
        """The modifier for ability ``name``, or ``None`` when it has none."""
        return dict(self.abilities).get(name)

    def expertise_in(self, noun: str) -> int:
        """Expertise in ``noun`` (case-insensitive); 0 when absent (F3)."""
        for k, v in self.expertise:
            if k.casefold() == noun.casefold():
                return v
        return 0


# ---------------------------------------------------------------------------
# Consistent states (rule V1)

#: Death-save count that ends the saves: three failures kill, three successes
#: stabilise (H6).
DEATH_SAVE_COUNT = 3
#: Exhaustion tiers that are death (F5).
EXHAUSTION_DEATH = 6


#: One fact that contradicts the rules: (field path inside the entity, message).
Fact = tuple[tuple[Any, ...], str]


def contradictions(e: Entity) -> list[tuple[tuple[Any, ...], str]]:
    """Rule V1: every fact of entity ``e`` that contradicts the rules, as
    ``(field path inside the entity, message)`` pairs, in field order; empty
    for a consistent entity. Pure: no rule is applied.

    Checked: HP in ``0..max_hp``, Flux in ``0..flux_max``, temporary HP at
    least 0 (H1, F1); a dead entity above 0 HP (H4, H5, H7); Dying or Stable
    above 0 HP (H5, H8); an entity whose ``at_zero_hp`` is ``dies`` at 0 HP
    that is neither dead nor knocked out (Unconscious and Stable, whatever
    their source; H5); three death-save failures on an entity that is not
    dead, three successes on one still Dying (H6); 6 or more Exhaustion tiers
    on a living entity (F5). Each message cites V1 and the rule it breaks.
    """
    return _hp_facts(e) + _dying_facts(e) + _flux_facts(e)


def _hp_facts(e: Entity) -> list[Fact]:
    """V1 for HP and temporary HP (H1, H3, H4, H5, H7)."""
    out: list[Fact] = []
    if e.hp > e.max_hp:
        out.append((("hp",), f"hp {e.hp} is above max_hp {e.max_hp} (H3, V1)"))
    if e.hp < 0:
        out.append((("hp",), f"hp {e.hp} is below 0 (H1, V1)"))
    if e.dead and e.hp > 0:
        out.append((("hp",), f"hp {e.hp} on a dead entity: death leaves 0 HP "
                             "(H4, H5, H7, V1)"))
    if not e.dead and e.hp == 0 and e.at_zero_hp == "dies" \
            and not (e.has("Unconscious") and e.has("Stable")):
        out.append((("hp",), "0 HP on a living entity whose at_zero_hp is dies: it is dead "
                             "(dead: true) or knocked out (Unconscious and Stable) (H5, V1)"))
    if e.temp_hp < 0:
        out.append((("temp_hp",), f"temp_hp {e.temp_hp} is below 0 (H1, V1)"))
    return out


def _dying_facts(e: Entity) -> list[Fact]:
    """V1 for Dying, Stable, death saves (H5, H6, H8) and Exhaustion (F5)."""
    out: list[Fact] = []
    for j, c in enumerate(e.conditions):
        if c.name in ("Dying", "Stable") and e.hp > 0:
            out.append((("conditions", j, "name"),
                        f"{c.name} at {e.hp} HP: only an entity at 0 HP can be {c.name} "
                        "(H5, H8, V1)"))
    if e.death_successes >= DEATH_SAVE_COUNT and e.has("Dying"):
        out.append((("death_saves", "successes"),
                    f"{e.death_successes} death-save successes on an entity still Dying: "
                    "three make it Stable (H6, V1)"))
    if e.death_failures >= DEATH_SAVE_COUNT and not e.dead:
        out.append((("death_saves", "failures"),
                    f"{e.death_failures} death-save failures on an entity that is not dead: "
                    "three kill it (H6, V1)"))
    if e.exhaustion >= EXHAUSTION_DEATH and not e.dead:
        out.append((("exhaustion",), f"{e.exhaustion} Exhaustion tiers on a living entity: "
                                     f"{EXHAUSTION_DEATH} or more is death (F5, V1)"))
    return out


def _flux_facts(e: Entity) -> list[Fact]:
    """V1 for Flux (F1)."""
    out: list[Fact] = []
    if e.flux > e.flux_max:
        out.append((("flux",), f"flux {e.flux} is above flux_max {e.flux_max} (F1, V1)"))
    if e.flux < 0:
        out.append((("flux",), f"flux {e.flux} is below 0 (F1, V1)"))
    return out


def _conditions_shape(e: Entity) -> list[dict[str, object]]:
    return [c.as_dict() for c in e.conditions]


def _death_saves_shape(e: Entity) -> dict[str, int]:
    return {"successes": e.death_successes, "failures": e.death_failures}


def _death_shape(e: Entity) -> dict[str, Any] | None:
    if e.death_cause is None:
        return None
    return {"cause": e.death_cause,
            **({"resurrection": e.resurrection} if e.resurrection else {})}


#: Readers of the keys of :meth:`Entity.as_dict` that reports show (damage,
#: casts, rests), each giving what ``as_dict()[key]`` gives (the same
#: functions for the composite keys), without building the whole shape.
_REPORTED: dict[str, Callable[[Entity], Any]] = {
    "hp": attrgetter("hp"), "max_hp": attrgetter("max_hp"), "temp_hp": attrgetter("temp_hp"),
    "conditions": _conditions_shape, "death_saves": _death_saves_shape,
    "dead": attrgetter("dead"), "death": _death_shape, "flux": attrgetter("flux"),
    "flux_max": attrgetter("flux_max"), "exhaustion": attrgetter("exhaustion"),
}


def state_fields(entity: Entity, names: Iterable[str]) -> dict[str, Any]:
    """The fields ``names`` of ``entity``'s state shape (:meth:`Entity.as_dict`),
    in that order: the ``before``/``after`` of the reports of damage, casts
    and rests (fresh values: the readers of :data:`_REPORTED` where they
    cover every name, else from the whole shape)."""
    names = tuple(names)
    if all(k in _REPORTED for k in names):
        return {k: _REPORTED[k](entity) for k in names}
    shape = entity.as_dict()
    return {k: shape[k] for k in names}
