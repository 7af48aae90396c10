"""Damage amounts as pure functions: the one copy of T4's floor and R1-R3
that rolled damage (:mod:`~linguo_cli.rulesets.linguomancy.damage`) and exact
odds (:mod:`~linguo_cli.rulesets.linguomancy.odds`) both apply. Amounts are
whole HP."""

from __future__ import annotations


def floored(raw: int) -> int:
    """Rules T4/T7: a damage or healing amount is never negative:
    ``max(raw, 0)``."""
    return max(raw, 0)


def halved(amount: int) -> int:
    """Rule R1 resistance: halved, rounded down (amounts are >= 0)."""
    return amount // 2


def doubled(amount: int) -> int:
    """Rule R1 vulnerability: doubled."""
    return amount * 2


def resisted(amount: int, *, immune: bool, resistant: bool, vulnerable: bool) -> int:
    """Rules R1-R3: immunity makes 0 (and wins over both others);
    resistance halves (rounded down), then vulnerability doubles (R3's
    order); each counts once (R2)."""
    if immune:
        return 0
    if resistant:
        amount = halved(amount)
    if vulnerable:
        amount = doubled(amount)
    return amount


def damage_amount(total: int, *, flat: int, resistant: bool, vulnerable: bool,
                  immune: bool) -> int:
    """One damage outcome: ``floored(total + flat)`` (T4), then R1-R3
    (:func:`resisted`)."""
    return resisted(floored(total + flat), immune=immune, resistant=resistant,
                    vulnerable=vulnerable)
