"""Damage and healing ticks (T1, T2) as data, tick conformity (T3), and
tick design: dice suggestions and the request kind ``ticks``.

The tables live in ``linguo_cli/rulesets/linguomancy/data/ticks.json`` (schema
``schemas/ticks.schema.json``). Expected values are exact fractions.
:func:`suggest_dice` lists simple dice whose expected value fits a tick (T3);
:func:`resolve_ticks_request` is the handler of kind ``ticks`` (typed result
:class:`TicksResult`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice import DiceExpression, DiceSource, DiceTerm, parse
from linguo_cli.core.distribution import fraction_text
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.core.results import OMIT, Omit, to_plain
from linguo_cli.rulesets.linguomancy import packaged


@dataclass(frozen=True, slots=True)
class Tick:
    """One tick: ``name`` (``low``), rulebook ``title`` (``Low``), conforming
    expected-value range ``[min, max]`` (``max`` ``None`` = no upper bound;
    both ``None`` = no dice range), ``multiplier`` of the Potential (damage) or
    Cohesion (healing) modifier, ``healing`` flag and optional ``effect``."""

    name: str
    title: str
    min: int | None
    max: int | None
    multiplier: int
    healing: bool
    effect: str = ""

    @property
    def has_range(self) -> bool:
        return self.min is not None

    def range_text(self) -> str:
        if self.min is None:
            return "no dice range"
        return f"{self.min}-{self.max}" if self.max is not None else f"{self.min} and up"

    @property
    def rolls_dice(self) -> bool:
        """Rule T3 (rev. 2): ``False`` for the ticks that roll nothing (damage
        None; healing None, Complete, Resurrection), ``True`` for every dice
        tick, whose formula must contain at least one die."""
        return self.has_range and self.name != "none"

    def conforms(self, formula: DiceExpression | Fraction) -> bool:
        """Rule T3: whether ``formula`` conforms to this tick (see
        :meth:`nonconformity`). Given a bare expected value (a
        :class:`~fractions.Fraction`), only the range is checked; give the
        formula so that a die-less formula is refused too (T3 rev. 2)."""
        return self.nonconformity(formula) is None

    def nonconformity(self, formula: DiceExpression | Fraction,
                      expected: Fraction | None = None) -> str | None:
        """Rule T3 (rev. 2): why ``formula`` does not conform to this tick, or
        ``None`` when it does. A tick without a dice range accepts anything;
        a dice tick refuses a formula without a die (``6``: "has no die") and
        one whose exact expected value (constants included) lies outside
        ``[min, max]``, bounds included. The reason reads after the formula,
        e.g. ``"has expected value 3, outside the Low damage tick's range
        4-8"``. ``expected``: the formula's expected value when the caller
        has it already (not computed again)."""
        if self.min is None:
            return None
        table = "healing" if self.healing else "damage"
        if isinstance(formula, DiceExpression):
            if self.rolls_dice and not formula.terms:
                return (f"has no die: a formula for the {self.title} {table} tick needs at "
                        "least one die (a bare constant is not a tick roll)")
            if expected is None:
                expected = formula.expected_value()
        else:
            expected = formula
        if self.min <= expected and (self.max is None or expected <= self.max):
            return None
        shown = str(expected.numerator) if expected.denominator == 1 else str(expected)
        return (f"has expected value {shown}, outside the {self.title} {table} tick's range "
                f"{self.range_text()}")


@cache
def tables() -> dict[str, tuple[Tick, ...]]:
    """``{"damage": (...), "healing": (...)}`` in rulebook order."""
    raw = json.loads(packaged("data/ticks.json").read_text(
        encoding="utf-8"))
    return {
        table: tuple(
            Tick(t["name"], t["title"], t["min"], t["max"], t["multiplier"],
                 table == "healing", t.get("effect", ""))
            for t in raw[table])
        for table in ("damage", "healing")
    }


def tick_names(healing: bool = False) -> list[str]:
    """Names of the damage (or healing) ticks in rulebook order."""
    return [t.name for t in tables()["healing" if healing else "damage"]]


def get_tick(name: str, healing: bool = False, field: str = "tick") -> Tick:
    """The tick called ``name`` (case and spaces/hyphens ignored: ``Small
    Mending`` = ``small_mending``); :class:`InputError` naming ``field`` if unknown."""
    key = name.strip().lower().replace(" ", "_").replace("-", "_")
    for t in tables()["healing" if healing else "damage"]:
        if t.name == key:
            return t
    kind = "healing" if healing else "damage"
    raise InputError(Diagnostic(field, "", f"unknown {kind} tick {name!r}; known: "
                                           f"{', '.join(tick_names(healing))}"))


def conforming_ticks(expr: DiceExpression, healing: bool = False) -> list[Tick]:
    """Every tick (with a dice range) that ``expr`` conforms to (T3): its range
    holds the exact expected value of ``expr``, and a dice tick needs at least
    one die in ``expr`` (rev. 2), so ``6`` conforms to no dice tick and ``0``
    to the None tick only."""
    return [t for t in tables()["healing" if healing else "damage"]
            if t.has_range and t.conforms(expr)]


#: The dice kinds :func:`suggest_dice` draws from, and its bounds.
SUGGEST_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
SUGGEST_MAX_COUNT = 100  # dice of one kind when a single kind is used
SUGGEST_MAX_PAIR_COUNT = 10  # dice of each kind when two kinds are combined
SUGGEST_MAX_CONSTANT = 20
SUGGEST_LIMIT = 10


# ---------------------------------------------------------------------------
# Tick design (T1-T3)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A simple dice expression whose expected value fits a tick (T3).

    ``distance`` = |expected value - target of the tick|, exact.
    """

    expression: DiceExpression
    expected_value: Fraction
    distance: Fraction

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: dice, expected_value, minimum, maximum, distance."""
        return {
            "dice": self.expression.text(),
            "expected_value": fraction_text(self.expected_value),
            "minimum": self.expression.minimum(),
            "maximum": self.expression.maximum(),
            "distance": fraction_text(self.distance),
        }

    __json__ = as_dict


@dataclass(frozen=True, slots=True)
class Suggestions:
    """What :func:`suggest_dice` found: the ``target`` expected value it aims
    at (``None`` for a tick without dice), a ``note`` on how, and the dice."""

    tick: Tick
    target: Fraction | None
    note: str
    dice: tuple[Suggestion, ...]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: tick, healing, range, target, note, dice."""
        return {
            "tick": self.tick.name,
            "healing": self.tick.healing,
            "range": self.tick.range_text(),
            "target": None if self.target is None else fraction_text(self.target),
            "note": self.note,
            "dice": [s.as_dict() for s in self.dice],
        }

    __json__ = as_dict


def _dice_kinds(top: int) -> Iterator[tuple[int, int, int, int, int]]:
    """(twice EV of the dice, N1, S1, N2, S2) for every ``N1dS1`` (N2 = 0) and
    ``N1dS1 + N2dS2`` with S1 > S2 whose twice EV is at most ``top``."""
    for s1 in SUGGEST_SIDES:
        for n1 in range(1, SUGGEST_MAX_COUNT + 1):
            if n1 * (s1 + 1) > top:
                break
            yield n1 * (s1 + 1), n1, s1, 0, 0
    for i, s1 in enumerate(SUGGEST_SIDES):
        for s2 in SUGGEST_SIDES[:i]:
            for n1 in range(1, SUGGEST_MAX_PAIR_COUNT + 1):
                for n2 in range(1, SUGGEST_MAX_PAIR_COUNT + 1):
                    dice2 = n1 * (s1 + 1) + n2 * (s2 + 1)
                    if dice2 > top:
                        break
                    yield dice2, n1, s1, n2, s2


def _candidates(lo2: int, hi2: int | None, cap2: int) -> list[tuple[int, ...]]:
    """Every (twice EV, N1, S1, N2, S2, c) with ``lo2 <= 2 EV <= hi2``: one kind
    ``N1dS1 + c`` (N2 = 0) or two kinds ``N1dS1 + N2dS2 + c`` with S1 > S2.
    ``cap2`` bounds twice the EV of the dice alone when there is no upper bound."""
    top = cap2 if hi2 is None else hi2
    out: list[tuple[int, ...]] = []
    for dice2, n1, s1, n2, s2 in _dice_kinds(top):
        for c in range(SUGGEST_MAX_CONSTANT + 1):
            ev2 = dice2 + 2 * c
            if ev2 > top:
                break
            if ev2 >= lo2:
                out.append((ev2, n1, s1, n2, s2, c))
    return out


def suggest_dice(tick: Tick, limit: int = SUGGEST_LIMIT) -> Suggestions:
    """Simple dice whose exact expected value conforms to ``tick`` (T3).

    Candidates: ``NdS`` with S in :data:`SUGGEST_SIDES` (N up to
    :data:`SUGGEST_MAX_COUNT`), or two kinds ``N1dS1 + N2dS2`` (each up to
    :data:`SUGGEST_MAX_PAIR_COUNT` dice), plus a constant 0 to
    :data:`SUGGEST_MAX_CONSTANT`. Ordered by distance of the expected value
    from the middle of the tick's range, then simplicity (one kind before
    two, fewer dice, smaller constant, larger dice), then notation; at most
    ``limit``. A tick with no upper bound (Ultimate) aims at its lower bound;
    a tick whose range is 0 (None) is met only by no dice (``0``); a tick
    without a dice range (Complete, Resurrection) gets no suggestion.
    """
    if not tick.has_range:
        return Suggestions(tick, None, f"the {tick.title} tick has no dice range "
                           f"({tick.effect or 'no dice'}): no dice to suggest", ())
    assert tick.min is not None
    if tick.max == 0:
        zero = DiceExpression((), 0)
        return Suggestions(tick, Fraction(0), f"the {tick.title} tick deals nothing: no dice",
                           (Suggestion(zero, Fraction(0), Fraction(0)),))
    if tick.max is None:
        target = Fraction(tick.min)
        note = (f"the {tick.title} tick has no upper bound: dice ordered by closeness "
                f"to its lower bound {tick.min}")
        cap2 = 4 * tick.min
    else:
        target = Fraction(tick.min + tick.max, 2)
        note = (f"dice ordered by closeness to the middle of {tick.range_text()}, "
                f"{fraction_text(target)}, then simplicity")
        cap2 = 2 * tick.max
    target2 = int(2 * target)  # an integer: comparisons stay cheap
    hi2 = None if tick.max is None else 2 * tick.max

    def key(c: tuple[int, ...]) -> tuple[Any, ...]:
        ev2, n1, s1, n2, s2, const = c
        return (abs(ev2 - target2), 1 if n2 else 0, n1 + n2, const, -s1, -s2)

    ranked = sorted(_candidates(2 * tick.min, hi2, cap2), key=key)
    chosen: list[Suggestion] = []
    for ev2, n1, s1, n2, s2, const in ranked[:limit]:
        terms = [DiceTerm(1, n1, s1)] + ([DiceTerm(1, n2, s2)] if n2 else [])
        ev = Fraction(ev2, 2)
        chosen.append(Suggestion(DiceExpression(tuple(terms), const), ev, abs(ev - target)))
    return Suggestions(tick, target, note, tuple(chosen))


@dataclass(frozen=True, slots=True)
class TickInfo:
    """A tick as JSON: name, title, table, range, multiplier and whether the
    dice checked conform (always ``True`` in a result: a non-conforming
    formula is refused)."""

    name: str
    title: str
    healing: bool
    min: int | None
    max: int | None
    range: str
    multiplier: int
    conforming: bool | Omit = OMIT

    @classmethod
    def of(cls, tick: Tick, conforms: bool | None = None) -> TickInfo:
        """The JSON view of ``tick`` (with ``conforming`` when given)."""
        return cls(tick.name, tick.title, tick.healing, tick.min, tick.max, tick.range_text(),
                   tick.multiplier, OMIT if conforms is None else conforms)


def tick_dict(tick: Tick, conforms: bool | None = None) -> dict[str, Any]:
    """A tick as JSON: name, title, table, range, multiplier (and ``conforming``)."""
    out: dict[str, Any] = to_plain(TickInfo.of(tick, conforms))
    return out


@dataclass(frozen=True, slots=True)
class TicksResult:
    """The result of kind ``ticks`` (fields in JSON order; absent parts are
    :data:`~linguo_cli.core.results.OMIT`): for ``dice``, its canonical text,
    exact ``expected_value`` (fraction text), ``minimum``, ``maximum`` and the
    names of the damage (T1) and healing (T2) ticks it conforms to (T3);
    ``tick``: the tick checked; ``suggestions``; ``rules``, ``steps``
    (JSON ``explanation``), ``rolls_used`` (always empty: nothing is rolled)."""

    kind: str
    dice: str | Omit = OMIT
    expected_value: str | Omit = OMIT
    minimum: int | Omit = OMIT
    maximum: int | Omit = OMIT
    damage_ticks: tuple[str, ...] | Omit = OMIT
    healing_ticks: tuple[str, ...] | Omit = OMIT
    tick: TickInfo | Omit = OMIT
    suggestions: Suggestions | Omit = OMIT
    rules: tuple[str, ...] = ()
    steps: tuple[Step, ...] = field(default=(), metadata={"json": "explanation"})
    rolls_used: tuple[int, ...] = ()


def _tick_titles(ticks: Sequence[Tick]) -> str:
    return ", ".join(f"{t.title} ({t.range_text()})" for t in ticks) or "none"


def _dice_part(request: Mapping[str, Any], text: str, healing: bool, log: Derivation
               ) -> dict[str, Any]:
    """The fields of a ticks result about ``dice`` (and the ``tick`` checked)."""
    table = "healing" if healing else "damage"
    expr = parse(text, field="dice")
    ev = expr.expected_value()
    damage_ticks = conforming_ticks(expr)
    healing_ticks = conforming_ticks(expr, healing=True)
    out: dict[str, Any] = {
        "dice": expr.text(), "expected_value": fraction_text(ev),
        "minimum": expr.minimum(), "maximum": expr.maximum(),
        "damage_ticks": tuple(t.name for t in damage_ticks),
        "healing_ticks": tuple(t.name for t in healing_ticks)}
    log.note("T3", f"{expr.text()}: exact expected value {fraction_text(ev)} "
             f"(minimum {expr.minimum()}, maximum {expr.maximum()}); a tick conforms when "
             "its range holds it, bounds included, and a dice tick needs at least one die "
             "(rev. 2)")
    log.note("T1", f"damage ticks: {_tick_titles(damage_ticks)}")
    log.note("T2", f"healing ticks: {_tick_titles(healing_ticks)}")
    name = request.get("tick")
    if name is not None:
        tick = get_tick(name, healing=healing, field="tick")
        why = (tick.nonconformity(expr) if tick.has_range else
               f"has expected value {fraction_text(ev)}, but the {tick.title} {table} "
               "tick takes no dice")
        if why is not None:
            raise RulesError(
                "T3", f"{expr.text()} {why}",
                {"dice": expr.text(), "expected_value": fraction_text(ev),
                 "tick": tick.name, "healing": healing, "range": tick.range_text()})
        out["tick"] = TickInfo.of(tick, conforms=True)
        log.note("T3", f"conforms to the {tick.title} {table} tick ({tick.range_text()})")
    return out


def resolve_ticks_request(request: Mapping[str, Any], dice: DiceSource) -> TicksResult:
    """Handler of kind ``ticks``: expected value, minimum and maximum of
    ``dice`` and every damage (T1) and healing (T2) tick it conforms to (T3);
    ``tick`` checks one tick of the table chosen by ``healing`` and raises
    :class:`RulesError` ``T3`` (exit 4) when the dice do not conform (a tick
    without a dice range takes no dice and never conforms); ``suggest`` lists
    simple conforming dice (:func:`suggest_dice`). No die is rolled.
    Raises :class:`InputError` for a ``tick`` without ``dice`` or neither
    ``dice`` nor ``suggest``."""
    del dice  # nothing is rolled
    log = Derivation()
    healing = bool(request.get("healing"))
    fields: dict[str, Any] = {}
    text = request.get("dice")
    if text is not None:
        fields.update(_dice_part(request, text, healing, log))
    elif request.get("tick") is not None:
        raise InputError(Diagnostic("request", "tick", "checking a tick needs the dice"))
    name = request.get("suggest")
    if name is not None:
        tick = get_tick(name, healing=healing, field="suggest")
        found = suggest_dice(tick, int(request.get("limit", SUGGEST_LIMIT)))
        fields["suggestions"] = found
        log.note("T2" if healing else "T1", f"{tick.title} {'healing' if healing else 'damage'}"
                 f" tick: range {tick.range_text()}, multiplier {tick.multiplier}")
        log.note("T3", f"{found.note}; {len(found.dice)} suggestion(s)")
    if text is None and name is None:
        raise InputError(Diagnostic("request", "dice", "give dice, suggest, or both"))
    return TicksResult(kind="ticks", **fields, rules=log.rules, steps=tuple(log.steps))
