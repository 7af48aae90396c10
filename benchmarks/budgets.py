"""Budgets of the benchmark figures and their verdicts (no timing here).

A figure of issue 16 is a ratio measured in one run: this checkout's figure
divided by its peer's (d20, icepool or previous main), or, for peak memory, an
absolute figure. A budget says which way is better:

* a *rate* (checks per second, cases per second): the ratio this / peer must
  be at least the budget (``>= 1.2x``); equal is PASS;
* a *cost* (CPU time, wall time, memory): the ratio this / peer (or the
  absolute figure) must be at most the budget (``<= 0.8x``); equal is PASS.

A stretch goal is a second budget, judged on the same ratio or on an absolute
figure of its own (the turns' ``>= 10,000/s``); it never changes PASS/MISS,
only the note printed beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PASS, MISS = "PASS", "MISS"


@dataclass(frozen=True)
class Budget:
    """One bound on a figure.

    ``limit``: the bound; ``higher_better``: ``True`` for a rate (PASS when
    the value is >= ``limit``), ``False`` for a cost (PASS when <= ``limit``);
    ``unit``: how the limit prints (``"x"`` for a ratio, else e.g. ``"/s"``
    or ``" MiB"``).
    """

    limit: float
    higher_better: bool
    unit: str = "x"

    def met(self, value: float) -> bool:
        """Whether ``value`` is within the budget (the limit itself is).
        ``NaN`` never is."""
        if math.isnan(value):
            return False
        return value >= self.limit if self.higher_better else value <= self.limit

    def text(self) -> str:
        """``">= 1.2x"``, ``"<= 100 MiB"``, ``">= 10,000/s"``."""
        sign = ">=" if self.higher_better else "<="
        if self.unit == "x":
            return f"{sign} {self.limit:g}x"
        return f"{sign} {self.limit:,.0f}{self.unit}"


def at_least(limit: float, unit: str = "x") -> Budget:
    """A rate budget: the value must be >= ``limit``."""
    return Budget(limit, True, unit)


def at_most(limit: float, unit: str = "x") -> Budget:
    """A cost budget: the value must be <= ``limit``."""
    return Budget(limit, False, unit)


def ratio(this: float, peer: float) -> float:
    """``this / peer`` (a rate ratio > 1 or a cost ratio < 1 is this checkout
    doing better); ``inf`` when the peer is 0 and ``this`` is not.

    Raises :class:`ValueError` for a negative figure.
    """
    if this < 0 or peer < 0:
        raise ValueError(f"a figure is never negative: {this}, {peer}")
    if peer == 0:
        return math.nan if this == 0 else math.inf
    return this / peer


def verdict(budget: Budget, value: float) -> str:
    """``PASS`` when ``value`` is within ``budget``, else ``MISS``."""
    return PASS if budget.met(value) else MISS


def stretch_note(stretch: Budget | None, value: float | None) -> str:
    """``"stretch met"``, ``"stretch missed"``, or ``""`` without a stretch
    goal (or without a value to judge it on)."""
    if stretch is None or value is None:
        return ""
    return "stretch met" if stretch.met(value) else "stretch missed"


def budget_text(budget: Budget, stretch: Budget | None) -> str:
    """The budget column: ``">= 1.2x (stretch 1.5x)"``; a stretch goal in the
    same unit and direction prints its limit only."""
    if stretch is None:
        return budget.text()
    same = stretch.unit == budget.unit and stretch.higher_better == budget.higher_better
    inner = stretch.text().split(" ", 1)[1] if same else stretch.text()
    return f"{budget.text()} (stretch {inner})"
