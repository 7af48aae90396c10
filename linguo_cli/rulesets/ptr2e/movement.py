"""The movement ledger of one creature in one round (PM1-PM5, PR3).

Scores are ``movement: {type: score}`` (PM1, open type names, integers);
``cur[T] = score[T] + rush[T]`` (PR2). Three models (option
``movement_model``, PM4):

* ``pool`` (default): a move of d with T charges ``spent[T]`` and
  ``spent[U]`` of every other type whose ``cur[U] >= cur[T]`` (PM3, "as
  high or higher" on current scores), and ``moved``;
  ``allowance[T] = max(0, min(cur[T] - spent[T], H - moved))`` with
  ``H = max cur`` (the round maximum, PM4);
* ``cascade``: the same charges, ``allowance[T] = max(0, cur[T] - spent[T])``;
* ``per_metre``: the allowances themselves are kept; before a move of d with
  T, each other type U loses d if ``a[U] >= a[T]``, else becomes
  ``min(a[U], a[T] - d)``; a Rush bonus b adds b to ``a[T]``.

A move is legal iff ``d <= allowance[T]`` (PM4, else
``move_exceeds_allowance``, nothing moves). The ledger is never clamped: a
type charged past what it had shows 0 and a later Rush first covers the
debt. A new ledger is a new round (PM5: nothing carries).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from linguo_cli.rulesets.ptr2e.refusals import refuse

MODELS = ("pool", "cascade", "per_metre")


@dataclass(slots=True)
class Ledger:
    """One creature's movement in one round (PM3). ``scores`` in the
    creature's order; ``rush``, ``spent`` per type; ``moved`` metres in all;
    ``left`` the per_metre allowances (that model only)."""

    scores: dict[str, int]
    model: str = "pool"
    rush: dict[str, int] = field(default_factory=dict)
    spent: dict[str, int] = field(default_factory=dict)
    moved: int = 0
    left: dict[str, int] = field(default_factory=dict)

    @classmethod
    def fresh(cls, scores: Mapping[str, int], model: str = "pool") -> Ledger:
        """A ledger at the start of a round: every allowance its score (PM5)."""
        s = dict(scores)
        return cls(s, model, {t: 0 for t in s}, {t: 0 for t in s}, 0, dict(s))

    def cur(self, kind: str) -> int:
        """``cur[T] = score[T] + rush[T]`` (PM3, PR2)."""
        return self.scores[kind] + self.rush[kind]

    def highest(self) -> int:
        """``H``: the highest current score, the most the creature can move
        this round (PM4)."""
        return max((self.cur(t) for t in self.scores), default=0)

    def allowance(self, kind: str) -> int:
        """What a move with ``kind`` may cover now (PM4, by the model)."""
        if self.model == "per_metre":
            return self.left[kind]
        own = self.cur(kind) - self.spent[kind]
        if self.model == "cascade":
            return max(0, own)
        return max(0, min(own, self.highest() - self.moved))

    def allowances(self) -> dict[str, int]:
        """Every type's allowance, in the creature's order."""
        return {t: self.allowance(t) for t in self.scores}

    def check_type(self, kind: str, field_: str, rule: str = "PM1") -> None:
        """``unknown_movement_type`` (exit 3; ``rule`` PM1 for a move, PR1 for
        a Rush) when the creature lacks ``kind``."""
        if kind not in self.scores:
            refuse("unknown_movement_type", f"no movement type {kind!r} (has "
                   f"{', '.join(self.scores) or 'none'})", field=field_, rule=rule)

    def move(self, kind: str, metres: int, *, place: str = "", field_: str = "") -> list[str]:
        """Move ``metres`` with ``kind`` (PM3, PM4); returns the types charged.

        Raises ``unknown_movement_type`` / ``bad_distance`` (exit 3, PM1) and
        ``move_exceeds_allowance`` (exit 4, PM4; nothing is charged)."""
        self.check_type(kind, field_)
        if metres < 1:
            refuse("bad_distance", f"a distance is a positive whole number of metres, "
                   f"not {metres}", field=field_)
        allowed = self.allowance(kind)
        if metres > allowed:
            refuse("move_exceeds_allowance", f"{kind} {metres} m: the allowance is {allowed}",
                   place=place, details={"needed": metres, "left": allowed})
        if self.model == "per_metre":
            return self._move_per_metre(kind, metres)
        base = self.cur(kind)
        charged = [t for t in self.scores if t == kind or self.cur(t) >= base]
        for t in charged:
            self.spent[t] += metres
        self.moved += metres
        return charged

    def _move_per_metre(self, kind: str, metres: int) -> list[str]:
        before = dict(self.left)
        charged = []
        for t, a in before.items():
            if t == kind or a >= before[kind]:
                self.left[t] = a - metres
                charged.append(t)
            else:
                self.left[t] = min(a, before[kind] - metres)
        self.moved += metres
        return charged

    def add_rush(self, kind: str, bonus: int) -> None:
        """A Rush's bonus b on ``kind`` until the round ends (PR2, PR3):
        ``cur[T]`` rises by b (per_metre: ``a[T]`` rises by b)."""
        self.rush[kind] += bonus
        if self.model == "per_metre":
            self.left[kind] += bonus
