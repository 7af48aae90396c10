"""Idioms as data: the idiom catalog and its model.

An idiom is a Verb and a Noun (``Shape - Fire``) or carries its own name
(``Smith`` is Shape + Flux). A catalog entry gives its base Flux cost (0-10,
F1), Hand cost (0-2, P5), action-point cost (P1), complex and maintainable
flags (P1, P6), the Adjectives it allows, its effect (an attack roll or a
saving throw, damage or healing with a tick, or a bonus to a kind of ability
check) and what each upcast Flux point adds (F3).

The default catalog ships in ``linguo_cli/rulesets/linguomancy/data/idioms.yaml`` (a byte-for-byte
copy of ``examples/idioms.yaml``, checked by a test); schema
``schemas/idioms.schema.json``. A table's own catalog comes from ``--idioms
FILE`` or ``idioms: [...]`` inline in a request. Everything here is pure
except :func:`default_catalog`, which reads the packaged file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from linguo_cli.core import dice as dice_mod
from linguo_cli.core.dice import DiceExpression, DiceTerm
from linguo_cli.core.errors import Diagnostic, InputError, LinguoError
from linguo_cli.rulesets.linguomancy import ticks
from linguo_cli.rulesets.linguomancy.model import Degree

#: What a save changes for one target (S1): ``none`` no effect, ``half``
#: half the damage (rounded down), ``full`` the whole effect.
SAVE_EFFECTS = ("none", "half", "full")


@dataclass(frozen=True, slots=True)
class Adjective:
    """An Adjective an idiom allows, with its effect in words (not enforced)."""

    name: str
    effect: str

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "effect": self.effect}


@dataclass(frozen=True, slots=True)
class Amount:
    """The damage or healing of an idiom: its ``tick`` (T1/T2), base ``dice``
    (``None`` only for the Complete healing tick) and ``damage_type``
    (damage only). ``ability`` is the ability the entry names to multiply by
    the tick (``None``: not named, i.e. Potential for damage, Cohesion for
    healing); any other is refused when cast (T4, T7)."""

    tick: ticks.Tick
    dice: DiceExpression | None
    damage_type: str | None = None
    ability: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tick": self.tick.name}
        if self.damage_type is not None:
            out["type"] = self.damage_type
        if self.ability is not None:
            out["ability"] = self.ability
        if self.dice is not None:
            out["dice"] = self.dice.text()
        return out


@dataclass(frozen=True, slots=True)
class Idiom:
    """One idiom of a catalog.

    Costs: ``flux_cost`` base Flux points (0-10); ``hand_cost`` Hand points
    (0-2); ``own_action_points`` the idiom's own action-point cost or
    ``None`` (then :attr:`action_points` is 3 when ``complex``, else 2, P1).
    Effect: ``test`` is ``"attack"`` (attack roll with the caster's
    ``attack_ability`` modifier against one target's AC), ``"save"`` (each
    target saves with ``save_ability`` against the idiom save DC, S3;
    ``save_on_success`` ``"none"`` cancels, ``"half"`` halves the damage on
    success and critical success, S1; ``save_by_degree``, when not empty,
    gives the effect of each of the six degrees instead, worst first, in
    the order of :class:`~linguo_cli.rulesets.linguomancy.model.Degree`) or ``None``;
    ``damage``/``healing`` an :class:`Amount`; ``check_bonus_to`` names
    the kind of ability check that gets ``check_bonus`` (plus
    ``upcast_check_bonus`` per upcast point). ``upcast_dice`` is added to the
    damage or healing dice per upcast point.
    """

    name: str
    verb: str
    noun: str
    flux_cost: int
    hand_cost: int = 0
    own_action_points: int | None = None
    complex: bool = False
    maintainable: bool = False
    adjectives: tuple[Adjective, ...] = ()
    test: str | None = None
    attack_ability: str = "potential"
    save_ability: str | None = None
    save_on_success: str = "none"
    save_by_degree: tuple[str, ...] = ()
    damage: Amount | None = None
    healing: Amount | None = None
    check_bonus_to: str | None = None
    check_bonus: int = 0
    upcast_check_bonus: int = 0
    upcast_dice: DiceExpression | None = None
    upcast_text: str = ""
    description: str = ""
    effect_text: str = ""
    sample: bool = False

    @property
    def action_points(self) -> int:
        """Action points to cast it (P1): its own cost, else 3 when complex, else 2."""
        if self.own_action_points is not None:
            return self.own_action_points
        return 3 if self.complex else 2

    @property
    def amount(self) -> Amount | None:
        """Its damage or healing, whichever it has."""
        return self.damage or self.healing

    def adjective(self, name: str) -> Adjective | None:
        """The allowed Adjective called ``name`` (case-insensitive), or ``None``."""
        for a in self.adjectives:
            if a.name.casefold() == name.strip().casefold():
                return a
        return None

    def dice_at(self, upcast: int) -> DiceExpression | None:
        """The damage/healing dice with ``upcast`` extra Flux points: the base
        dice plus ``upcast`` times :attr:`upcast_dice` (terms of the same die
        merged: ``2d4`` + 2 x ``1d4`` = ``4d4``)."""
        amount = self.amount
        if amount is None or amount.dice is None:
            return None
        if upcast <= 0 or self.upcast_dice is None:
            return amount.dice
        return add_dice(amount.dice, self.upcast_dice, upcast)

    def save_effect(self, degree: Degree) -> str:
        """What a target's save of ``degree`` (after D5) leaves of the effect
        (S1 rev. 2): ``none``, ``half`` or ``full``. With ``save_by_degree``
        its entry for the degree; otherwise ``save_on_success`` at success and
        critical success, ``full`` at every other degree."""
        if self.save_by_degree:
            return self.save_by_degree[int(degree)]
        return self.save_on_success if degree >= Degree.SUCCESS else "full"

    def check_bonus_at(self, upcast: int) -> int:
        """The check bonus with ``upcast`` extra Flux points (F3)."""
        return self.check_bonus + self.upcast_check_bonus * max(upcast, 0)

    def as_dict(self) -> dict[str, Any]:
        """The catalog-entry shape (what a request inlines)."""
        out: dict[str, Any] = {"name": self.name}
        if self.sample:
            out["sample"] = True
        if self.description:
            out["description"] = self.description
        out.update({"verb": self.verb, "noun": self.noun, "flux_cost": self.flux_cost,
                    "hand_cost": self.hand_cost})
        if self.own_action_points is not None:
            out["action_points"] = self.own_action_points
        out["complex"] = self.complex
        out["maintainable"] = self.maintainable
        if self.adjectives:
            out["adjectives"] = [a.as_dict() for a in self.adjectives]
        out["effect"] = self._effect_dict()
        upcast = self._upcast_dict()
        if upcast:
            out["upcast"] = upcast
        return out

    def _effect_dict(self) -> dict[str, Any]:
        """The catalog-entry ``effect``: description, attack or save, damage,
        healing, check bonus."""
        effect: dict[str, Any] = {}
        if self.effect_text:
            effect["description"] = self.effect_text
        if self.test == "attack":
            effect["attack"] = {"ability": self.attack_ability}
        elif self.test == "save":
            save: dict[str, Any] = {"ability": self.save_ability}
            if self.save_by_degree:
                save["by_degree"] = {d.label: self.save_by_degree[int(d)] for d in
                                     sorted(Degree, reverse=True)}
            else:
                save["on_success"] = self.save_on_success
            effect["save"] = save
        if self.damage:
            effect["damage"] = self.damage.as_dict()
        if self.healing:
            effect["healing"] = self.healing.as_dict()
        if self.check_bonus_to is not None:
            effect["check_bonus"] = {"applies_to": self.check_bonus_to, "value": self.check_bonus}
        return effect

    def _upcast_dict(self) -> dict[str, Any]:
        """The catalog-entry ``upcast`` (empty when the idiom has none)."""
        upcast: dict[str, Any] = {}
        if self.upcast_text:
            upcast["description"] = self.upcast_text
        if self.upcast_check_bonus:
            upcast["check_bonus"] = self.upcast_check_bonus
        if self.upcast_dice is not None:
            upcast["dice"] = self.upcast_dice.text()
        return upcast


def add_dice(base: DiceExpression, extra: DiceExpression, times: int) -> DiceExpression:
    """``base`` plus ``times`` copies of ``extra``; plain terms of the same
    die and sign are merged (``2d4+1`` + 2 x ``1d4`` -> ``4d4+1``)."""
    if base.tree is not None or extra.tree is not None:  # extended notation: no merging
        return dice_mod.added(base, extra, times)
    terms = list(base.terms)
    for _ in range(times):
        for t in extra.terms:
            for i, b in enumerate(terms):
                if (b.keep is None and t.keep is None and b.sides == t.sides
                        and b.sign == t.sign and b.plain and t.plain and not b.label
                        and not t.label):
                    terms[i] = DiceTerm(b.sign, b.count + t.count, b.sides)
                    break
            else:
                terms.append(t)
    return DiceExpression(tuple(terms), base.constant + extra.constant * times)


def key(name: str) -> str:
    """Lookup key of an idiom name: case-insensitive, spaces around ``-``
    normalised (``shape-fire`` = ``Shape - Fire``)."""
    if "-" in name:
        verb, _, noun = name.partition("-")
        return f"{verb.strip()} - {noun.strip()}".casefold()
    return " ".join(name.split()).casefold()


@dataclass(frozen=True, slots=True)
class Catalog:
    """An idiom catalog: its idioms in file order; lookups by :func:`key`."""

    idioms: tuple[Idiom, ...]
    name: str = "default"

    def get(self, name: str) -> Idiom | None:
        """The idiom called ``name``, or ``None``."""
        k = key(name)
        for i in self.idioms:
            if key(i.name) == k:
                return i
        return None

    def verb_noun(self, name: str) -> tuple[str, str] | None:
        """``(Verb, Noun)`` of a known idiom name, or of any ``"Verb - Noun"``
        name even when not in the catalog (D7); ``None`` otherwise."""
        idiom = self.get(name)
        if idiom is not None:
            return idiom.verb, idiom.noun
        if " - " in name:
            verb, _, noun = name.partition(" - ")
            return verb.strip(), noun.strip()
        return None

    def as_list(self) -> list[dict[str, Any]]:
        """The entries in the catalog-file shape."""
        return [i.as_dict() for i in self.idioms]


class _Problems:
    """Collects the problems of one catalog entry at ``where`` (+ a path)."""

    def __init__(self, where: list[Any], problems: list[tuple[list[Any], str]]) -> None:
        self.where = where
        self.problems = problems

    def bad(self, path: list[Any], message: str) -> None:
        self.problems.append((self.where + path, message))

    def parse_dice(self, text: str, path: list[Any]) -> DiceExpression | None:
        try:
            return dice_mod.parse(text, field="dice")
        except LinguoError as exc:
            self.bad(path, f"bad dice notation {text!r}: {exc.message.split(': ', 1)[-1]}")
            return None


def _amount_from(effect: Mapping[str, Any], kind: str, p: _Problems) -> Amount | None:
    """The entry's ``effect.damage`` or ``effect.healing`` (T1-T3), or
    ``None`` (absent or with a problem noted)."""
    part = effect.get(kind)
    if part is None:
        return None
    healing = kind == "healing"
    try:
        tick = ticks.get_tick(part["tick"], healing=healing)
    except InputError:
        p.bad(["effect", kind, "tick"],
              f"unknown {kind} tick {part['tick']!r}; known: "
              f"{', '.join(ticks.tick_names(healing))}")
        return None
    if tick.name == "resurrection":
        p.bad(["effect", kind, "tick"], "Resurrection idioms are not supported by cast")
        return None
    expr = None
    if "dice" in part:
        expr = p.parse_dice(part["dice"], ["effect", kind, "dice"])
        if expr is None:
            return None
        why = tick.nonconformity(expr)  # T3 (rev. 2: a dice tick needs a die)
        if why is not None:
            p.bad(["effect", kind, "dice"], f"dice {expr.text()} {why} (T3)")
    elif tick.has_range:
        p.bad(["effect", kind], f"the {tick.title} {kind} tick needs dice")
        return None
    if not tick.has_range and expr is not None:
        p.bad(["effect", kind, "dice"], f"the {tick.title} tick takes no dice")
    return Amount(tick, expr, part.get("type"), part.get("ability"))


def _upcast_dice_from(upcast: Mapping[str, Any], damage: Amount | None,
                      healing: Amount | None, p: _Problems) -> DiceExpression | None:
    """The entry's ``upcast.dice``: they need a damage or healing effect with
    base dice."""
    if "dice" not in upcast:
        return None
    upcast_dice = p.parse_dice(upcast["dice"], ["upcast", "dice"])
    if damage is None and healing is None:
        p.bad(["upcast", "dice"], "upcast dice need a damage or healing effect")
    else:
        base_amount = damage or healing
        if base_amount is not None and base_amount.dice is None:
            p.bad(["upcast", "dice"], "upcast dice need base dice")
    return upcast_dice


def _check_test(test: str | None, damage: Amount | None, healing: Amount | None,
                p: _Problems) -> None:
    """A test with a healing effect, or without a damage effect to decide."""
    if healing is not None and test is not None:
        p.bad(["effect"], "a healing idiom takes no attack roll or saving throw")
    if test is not None and damage is None:
        p.bad(["effect", test], f"an {test} needs a damage effect to decide")


def _check_rest(raw: Mapping[str, Any], effect: Mapping[str, Any],
                upcast: Mapping[str, Any], p: _Problems) -> None:
    """An upcast check bonus without a check bonus; an Adjective listed twice."""
    if upcast.get("check_bonus") and effect.get("check_bonus") is None:
        p.bad(["upcast", "check_bonus"], "an upcast check bonus needs effect.check_bonus")
    names = [a["name"].casefold() for a in raw.get("adjectives") or ()]
    for i, n in enumerate(names):
        if n in names[:i]:
            p.bad(["adjectives", i, "name"], f"Adjective {raw['adjectives'][i]['name']!r} "
                  "is listed twice")


def _idiom_from(raw: Mapping[str, Any], where: list[Any], problems: list[tuple[list[Any], str]]
                ) -> Idiom | None:
    effect = raw.get("effect") or {}
    upcast = raw.get("upcast") or {}
    p = _Problems(where, problems)
    damage = _amount_from(effect, "damage", p)
    healing = _amount_from(effect, "healing", p)
    test = "attack" if "attack" in effect else ("save" if "save" in effect else None)
    _check_test(test, damage, healing, p)
    upcast_dice = _upcast_dice_from(upcast, damage, healing, p)
    _check_rest(raw, effect, upcast, p)
    check = effect.get("check_bonus")
    save = effect.get("save") or {}
    return Idiom(
        name=raw["name"], verb=raw["verb"], noun=raw["noun"], flux_cost=raw["flux_cost"],
        hand_cost=raw.get("hand_cost", 0), own_action_points=raw.get("action_points"),
        complex=raw.get("complex", False), maintainable=raw.get("maintainable", False),
        adjectives=tuple(Adjective(a["name"], a["effect"]) for a in raw.get("adjectives") or ()),
        test=test,
        attack_ability=(effect.get("attack") or {}).get("ability", "potential"),
        save_ability=save.get("ability"), save_on_success=save.get("on_success", "none"),
        save_by_degree=_by_degree(save.get("by_degree")),
        damage=damage, healing=healing,
        check_bonus_to=None if check is None else check["applies_to"],
        check_bonus=0 if check is None else check.get("value", 0),
        upcast_check_bonus=upcast.get("check_bonus", 0), upcast_dice=upcast_dice,
        upcast_text=upcast.get("description", ""),
        description=raw.get("description", ""), effect_text=effect.get("description", ""),
        sample=raw.get("sample", False),
    )


def _by_degree(table: Mapping[str, str] | None) -> tuple[str, ...]:
    """A save's ``by_degree`` table (S1 rev. 2; the schema requires all six
    degrees) as a tuple indexed by :class:`Degree` (worst first); ``()``
    when absent."""
    if not table:
        return ()
    return tuple(table[d.label] for d in Degree)


def load_catalog(data: Mapping[str, Any] | Sequence[Mapping[str, Any]], *,
                 name: str = "idioms", document: Any = None,
                 base: Sequence[Any] = ()) -> Catalog:
    """Build a :class:`Catalog` from a catalog document (``{idioms: [...]}``)
    or the bare list of entries a request inlines (under its ``idioms`` key).

    Checks the schema (``schemas/idioms.schema.json``), then tick names, dice
    notation, tick conformity of the base dice (T3), unique idiom names and
    Adjectives. ``document``/``base`` (the loaded file and the path of
    ``data`` in it) give errors their ``file:line:col``. Raises
    :class:`InputError` (exit 3) with every problem found.
    """
    from linguo_cli.io.places import field_path
    from linguo_cli.rulesets.linguomancy.state import checked_catalog

    plain, outer, doc = checked_catalog(
        data, "idioms", schema="idioms", name=name, document=document, base=base)
    problems: list[tuple[list[Any], str]] = []
    idioms: list[Idiom] = []
    seen: set[str] = set()
    for i, raw in enumerate(plain["idioms"]):
        where: list[Any] = ["idioms", i]
        k = key(raw["name"])
        if k in seen:
            problems.append((where + ["name"], f"idiom {raw['name']!r} is listed twice"))
        seen.add(k)
        idiom = _idiom_from(raw, where, problems)
        if idiom is not None:
            idioms.append(idiom)
    if problems:
        raise InputError([
            Diagnostic(doc.place(outer + p) if document is not None else name,
                       field_path(outer + p), msg)
            for p, msg in problems])
    return Catalog(tuple(idioms), name=name)


@cache
def default_catalog() -> Catalog:
    """The catalog shipped with linguo (``linguo_cli/rulesets/linguomancy/data/idioms.yaml``): the
    published idioms Smith and Creator and a few labelled sample idioms. Read
    from its JSON copy (:mod:`~linguo_cli.rulesets.linguomancy.catalog_copy`:
    no YAML reader needed)."""
    from linguo_cli.io.read import parse
    from linguo_cli.rulesets.linguomancy.catalog_copy import default_text

    name, text = default_text("idioms")
    doc = parse(text, name)
    return load_catalog(doc.data, name="default", document=doc)


def catalog_from_request(entries: Sequence[Mapping[str, Any]] | None) -> Catalog:
    """A request's inline ``idioms`` entries, or the default catalog when absent."""
    if entries is None:
        return default_catalog()
    return _inline_catalog(json.dumps(entries))


@lru_cache(maxsize=64)
def _inline_catalog(text: str) -> Catalog:
    """An inline catalog, checked once per distinct content (a batch of
    requests carrying the same catalog validates it once; catalogs are frozen)."""
    return load_catalog(json.loads(text), name="request idioms", base=["idioms"])
