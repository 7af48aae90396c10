"""Tests of one die plus modifiers against a target, ruleset-neutral.

A ruleset describes its test as data (:class:`TestSpec`): the die, the
comparator and a degree ladder. The same spec serves the roller (one natural
face at a time, :meth:`TestSpec.outcome`) and exact odds (every face weighed,
:func:`kept_face_weights`), so rolls and odds apply one copy of the rule.

- **Comparator** (:class:`Comparator`): ``>=`` (the total meets the target),
  ``>`` (the total beats it) or ``roll-under`` (a d100-style test: the total
  must be at most the target). Each is read through a *margin* that is ``>= 0``
  exactly when the test is met: ``total - target``, ``total - target - 1`` and
  ``target - total`` respectively.
- **Degree ladder** (:class:`Ladder`): rows of (lowest margin, degree), best
  first, and the degree below every row; ``natural_shifts`` moves the degree
  along the ladder for some natural faces (e.g. a natural 20 one step up),
  never past its ends. Degrees are any hashable values listed worst to best
  in ``order`` (a ruleset's enum).

Everything is pure integer arithmetic; nothing here is rolled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, TypeVar

D = TypeVar("D")


class Comparator(StrEnum):
    """How a total is compared with its target (see the module docstring)."""

    AT_LEAST = ">="
    ABOVE = ">"
    ROLL_UNDER = "roll-under"

    def margin(self, total: int, target: int) -> int:
        """The margin of ``total`` against ``target``: ``>= 0`` exactly when
        the test is met (``>=``: ``total - target``; ``>``: ``total - target
        - 1``; ``roll-under``: ``target - total``)."""
        if self is Comparator.AT_LEAST:
            return total - target
        if self is Comparator.ABOVE:
            return total - target - 1
        return target - total


@dataclass(frozen=True, slots=True)
class Ladder(Generic[D]):
    """A degree ladder as data.

    ``order``: every degree, worst to best (the steps a shift moves along);
    ``rows``: (lowest margin, degree), best first: the first row whose lowest
    margin the margin reaches gives the degree; ``bottom``: the degree below
    every row; ``natural_shifts``: natural face -> steps (``+1`` one degree
    better), applied after the margin and stopped at the ladder's ends.
    """

    order: tuple[D, ...]
    rows: tuple[tuple[int, D], ...]
    bottom: D
    natural_shifts: Mapping[int, int] = field(default_factory=dict)

    def for_margin(self, margin: int) -> D:
        """The degree of ``margin`` before any natural shift."""
        for lowest, degree in self.rows:
            if margin >= lowest:
                return degree
        return self.bottom

    def shifted(self, degree: D, steps: int) -> D:
        """``degree`` moved ``steps`` along :attr:`order`, stopped at its ends."""
        i = self.order.index(degree) + steps
        return self.order[min(max(i, 0), len(self.order) - 1)]

    def shift_of(self, natural: int) -> int:
        """The steps a natural face moves the degree (0 for most faces)."""
        return self.natural_shifts.get(natural, 0)


@dataclass(frozen=True, slots=True)
class Outcome(Generic[D]):
    """One face's outcome: ``total`` (natural + modifiers), ``margin`` (see
    :class:`Comparator`), ``unadjusted`` (the ladder's degree of the margin),
    ``degree`` (after the natural's shift) and ``shift`` (its steps)."""

    total: int
    margin: int
    unadjusted: D
    degree: D
    shift: int


@dataclass(frozen=True, slots=True)
class TestSpec(Generic[D]):
    """One kind of test: a die of ``sides`` faces, a ``comparator`` and a
    degree ``ladder``."""

    __test__ = False  # not a pytest test class

    sides: int
    comparator: Comparator
    ladder: Ladder[D]

    def outcome(self, natural: int, modifier_total: int, target: int) -> Outcome[D]:
        """The outcome of natural face ``natural`` with ``modifier_total``
        added, against ``target``: margin by the comparator, degree by the
        ladder, then the natural's shift."""
        return Outcome(*self._parts(natural, modifier_total, target))

    def _parts(self, natural: int, modifier_total: int, target: int
               ) -> tuple[int, int, D, D, int]:
        """The fields of :meth:`outcome` in order: (total, margin,
        unadjusted degree, degree, shift steps)."""
        total = natural + modifier_total
        margin = self.comparator.margin(total, target)
        ladder = self.ladder
        unadjusted = ladder.for_margin(margin)
        steps = ladder.shift_of(natural)
        degree = ladder.shifted(unadjusted, steps) if steps else unadjusted
        return total, margin, unadjusted, degree, steps

    def degree_weights(self, modifier_total: int, target: int,
                       weights: tuple[int, ...]) -> dict[D, int]:
        """Weight of each degree when face ``k`` (1-based) has ``weights[k-1]``
        equally likely ways (see :func:`kept_face_weights`); every degree of
        the ladder is listed, worst to best, 0 when unreachable."""
        out = dict.fromkeys(self.ladder.order, 0)
        degree_of = self.degree
        for natural, w in enumerate(weights, start=1):
            out[degree_of(natural, modifier_total, target)] += w
        return out

    def degree(self, natural: int, modifier_total: int, target: int) -> D:
        """The degree of :meth:`outcome` alone (no :class:`Outcome` built)."""
        return self._parts(natural, modifier_total, target)[3]


def kept_face_weights(sides: int, keep: str | None = None) -> tuple[tuple[int, ...], int]:
    """Ways for each kept face ``1..sides`` and their total.

    ``keep=None``: one die, one way per face out of ``sides``. ``"high"``: the
    higher of two dice, ``2k - 1`` ways out of ``sides ** 2``; ``"low"``: the
    lower of two, ``2 (sides - k) + 1`` ways. Raises :class:`ValueError` for
    another ``keep``.
    """
    if keep is None:
        return (1,) * sides, sides
    if keep == "high":
        return tuple(2 * k - 1 for k in range(1, sides + 1)), sides * sides
    if keep == "low":
        return tuple(2 * (sides - k) + 1 for k in range(1, sides + 1)), sides * sides
    raise ValueError(f"keep must be None, 'high' or 'low', not {keep!r}")
