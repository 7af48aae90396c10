"""The d20 tests' values (D1, D4, D5, D6): degrees, test kinds, modifiers.

Kept apart from :mod:`.model` (entities and states, re-exported there) so
that a one-off check imports no entity, condition or state code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

__all__ = ["Degree", "Modifier", "TestKind", "ability_modifier_from_score", "modifiers_from"]


class Degree(IntEnum):
    """The six degrees of success, worst to best (rule D4).

    ``shifted(n)`` moves ``n`` steps along the ladder and stops at its ends
    (rule D5). ``label`` is the spelling used in JSON (``partial_success``).
    """

    CRITICAL_FAILURE = 0
    FAILURE = 1
    PARTIAL_FAILURE = 2
    PARTIAL_SUCCESS = 3
    SUCCESS = 4
    CRITICAL_SUCCESS = 5

    @property
    def label(self) -> str:
        return _DEGREE_LABELS[self]

    @property
    def title(self) -> str:
        return _DEGREE_TITLES[self]

    def shifted(self, steps: int) -> Degree:
        return Degree(min(max(int(self) + steps, 0), len(Degree) - 1))

    @classmethod
    def from_label(cls, label: str) -> Degree:
        return cls[label.upper()]

    def __json__(self) -> str:
        """The JSON form of a degree is its :attr:`label`."""
        return _DEGREE_LABELS[self]


#: Labels and titles of the degrees, computed once (results use them on every test).
_DEGREE_LABELS: dict[Degree, str] = {d: d.name.lower() for d in Degree}
_DEGREE_TITLES: dict[Degree, str] = {d: d.name.replace("_", " ").title() for d in Degree}
Degree.__json_plain__ = True  # type: ignore[attr-defined]  # __json__ gives a str


class TestKind(StrEnum):
    """The three d20 tests (rule D1)."""

    __test__ = False  # not a pytest test class

    CHECK = "check"
    ATTACK = "attack"
    SAVE = "save"


@dataclass(frozen=True, slots=True)
class Modifier:
    """A labelled bonus (positive) or penalty (negative) added to a total."""

    label: str
    value: int

    def as_dict(self) -> dict[str, object]:
        return {"label": self.label, "value": self.value}

    __json__ = as_dict  # the JSON form, already plain (core.results.to_plain)
    __json_plain__ = True


def modifiers_from(items: Iterable[Mapping[str, Any]] | None) -> tuple[Modifier, ...]:
    """The one parser of ``modifiers`` lists (requests, turns, casts,
    damage): each ``{label?, value}`` -> :class:`Modifier` (label defaults
    to ``modifier``; value an int). ``None`` -> ``()``."""
    return tuple(Modifier(str(m.get("label", "modifier")), int(m["value"])) for m in items or ())


def ability_modifier_from_score(score: int) -> int:
    """Rule D6: ``floor((score - 10) / 2)``, e.g. 15 -> 2, 9 -> -1, 8 -> -1."""
    return (score - 10) // 2
