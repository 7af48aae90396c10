"""Damage and healing ticks (T1, T2) as data, and tick conformity (T3).

The tables live in ``linguo_cli/rulesets/linguomancy/data/ticks.json`` (schema
``schemas/ticks.schema.json``). Expected values are exact fractions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from linguo_cli.core.dice import DiceExpression
from linguo_cli.core.errors import Diagnostic, InputError
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

    def nonconformity(self, formula: DiceExpression | Fraction) -> str | None:
        """Rule T3 (rev. 2): why ``formula`` does not conform to this tick, or
        ``None`` when it does. A tick without a dice range accepts anything;
        a dice tick refuses a formula without a die (``6``: "has no die") and
        one whose exact expected value (constants included) lies outside
        ``[min, max]``, bounds included. The reason reads after the formula,
        e.g. ``"has expected value 3, outside the Low damage tick's range
        4-8"``."""
        if self.min is None:
            return None
        table = "healing" if self.healing else "damage"
        if isinstance(formula, DiceExpression):
            if self.rolls_dice and not formula.terms:
                return (f"has no die: a formula for the {self.title} {table} tick needs at "
                        "least one die (a bare constant is not a tick roll)")
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
