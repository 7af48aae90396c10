"""Derivations: the steps a ruling took, each with the rule ID it applied.

Every result explains itself as a list of :class:`Step` (``{"rule", "text"}``
in JSON) and lists the rule IDs it applied in first-use order. This module is
the one place that bookkeeping lives: :class:`Derivation` collects the steps
and :func:`rules_of` gives the rule IDs of any steps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter


@dataclass(frozen=True, slots=True)
class Step:
    """One line of a derivation: the rule applied and what it did, in words."""

    rule: str
    text: str

    def as_dict(self) -> dict[str, str]:
        """``{"rule": ..., "text": ...}``, the JSON form of a step."""
        return {"rule": self.rule, "text": self.text}

    __json__ = as_dict
    __json_plain__ = True  # as_dict gives fresh JSON-ready values (core.results.to_plain)


def rules_of(steps: Iterable[Step]) -> tuple[str, ...]:
    """The rule IDs of ``steps``, each once, in first-use order."""
    return tuple(dict.fromkeys(map(_RULE, steps)))


_RULE = attrgetter("rule")


@dataclass
class Derivation:
    """A growing derivation: ``note`` adds a step (with the current ``prefix``,
    e.g. ``"ayla: "``), ``rules`` and ``rules_since`` read the rule IDs in
    first-use order."""

    steps: list[Step] = field(default_factory=list)
    prefix: str = ""

    def note(self, rule: str, text: str) -> Step:
        """Add one step (``prefix`` + ``text``) citing ``rule``; returns it."""
        step = Step(rule, self.prefix + text)
        self.steps.append(step)
        return step

    def extend(self, steps: Iterable[Step], prefix: str = "") -> None:
        """Add ``steps`` (each text after ``self.prefix`` + ``prefix``)."""
        for s in steps:
            self.note(s.rule, prefix + s.text)

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule ID noted so far, in first-use order."""
        return rules_of(self.steps)

    def rules_since(self, mark: int) -> tuple[str, ...]:
        """Rule IDs of the steps noted since ``len(steps) == mark``."""
        return rules_of(self.steps[mark:])
