"""Damage and healing ticks (T1, T2) as data, and tick conformity (T3).

The tables live in ``linguo_cli/data/ticks.json`` (schema
``schemas/ticks.schema.json``). Expected values are exact fractions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

from linguo_cli.dice import DiceExpression
from linguo_cli.errors import Diagnostic, InputError


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

    def conforms(self, expected: Fraction) -> bool:
        """Rule T3: ``min <= expected <= max`` (bounds included)."""
        if self.min is None:
            return True
        return self.min <= expected and (self.max is None or expected <= self.max)


@cache
def tables() -> dict[str, tuple[Tick, ...]]:
    """``{"damage": (...), "healing": (...)}`` in rulebook order."""
    raw = json.loads(resources.files("linguo_cli").joinpath("data/ticks.json").read_text(
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
    """Every tick (with a dice range) whose range holds the exact expected
    value of ``expr`` (T3)."""
    ev = expr.expected_value()
    return [t for t in tables()["healing" if healing else "damage"]
            if t.has_range and t.conforms(ev)]
