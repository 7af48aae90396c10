"""Exact distributions (linguo_cli.core.distribution) at their edges: the work
budget's count (MAX_WORK, big numbers costing more), percentages rounded half
to even, fraction text. Expected values are worked out by hand from the
module's documented contract (docstrings), never copied from its output."""

from __future__ import annotations

from fractions import Fraction

import pytest

from linguo_cli.core import distribution
from linguo_cli.core.dice import parse
from linguo_cli.core.errors import InputError

# ---------------------------------------------------------------------------
# The work budget: each step counts 1, plus 1 per whole 256 bits of the numbers


def test_a_budget_counts_one_more_step_per_256_bits() -> None:
    budget = distribution._Budget("x")
    budget.spend(10, 2**255 - 1)  # 255 bits: 10 x (1 + 0)
    assert budget.done == 10
    budget.spend(10, 2**255)  # 256 bits: 10 x (1 + 1)
    assert budget.done == 30
    budget.spend(3, 2**767)  # 768 bits: 3 x (1 + 3)
    assert budget.done == 42
    budget.spend(5)  # small numbers: one step each
    assert budget.done == 47


def test_a_budget_allows_max_work_exactly_and_refuses_one_more() -> None:
    budget = distribution._Budget("the dice expression 9d9")
    budget.spend(distribution.MAX_WORK - 1)
    budget.spend(1)
    assert budget.done == 1_000_000
    with pytest.raises(InputError) as info:
        budget.spend(1)
    assert info.value.code == 3
    assert info.value.diagnostics[0].message == (
        "the dice expression 9d9 is too large to compute exactly (more than 1,000,000 "
        "steps: the bound MAX_WORK)")


# ---------------------------------------------------------------------------
# Percentages: two decimals, half to even from the exact value


@pytest.mark.parametrize(("value", "text"), [
    (Fraction(1, 20000), "0.00"),    # 0.005 %: half, 0 is even: down
    (Fraction(3, 20000), "0.02"),    # 0.015 %: half, 1 is odd: up
    (Fraction(5, 20000), "0.02"),    # 0.025 %: half, 2 is even: down
    (Fraction(1, 30000), "0.00"),    # 0.0033 %: below half: down
    (Fraction(2, 30000), "0.01"),    # 0.0067 %: above half: up
    (Fraction(2, 3), "66.67"),
    (Fraction(199999, 200000), "100.00"),  # 99.9995 %: half, 9999 odd: up to 100.00
    (Fraction(0), "0.00"),
    (Fraction(-1, 3), "-33.33"),
    (Fraction(-3, 20000), "-0.02"),
    (Fraction(-1, 20000), "0.00"),   # rounds to zero: no minus sign
    (Fraction(123, 1), "12300.00"),
])
def test_percent_is_rounded_half_to_even(value: Fraction, text: str) -> None:
    assert distribution.percent_text(value) == text


def test_fraction_and_probability_text() -> None:
    assert distribution.fraction_text(Fraction(7, 20)) == "7/20"
    assert distribution.fraction_text(Fraction(8)) == "8"
    assert distribution.fraction_text(3) == "3"
    assert distribution.fraction_text(True) == "1"
    assert distribution.probability_dict(Fraction(3, 20000)) == {
        "probability": "3/20000", "percent": "0.02"}
    assert distribution.probability_dict(Fraction(1)) == {"probability": "1",
                                                          "percent": "100.00"}


# ---------------------------------------------------------------------------
# Exploding on the face 1 (the lowest face counts among the exploding ones)


def test_a_die_exploding_on_1_by_hand() -> None:
    # 1d6e1: E = 7/2 + P(1) x (7/2) / (1 - 1/6) = 7/2 + 1/6 x 21/5 = 21/5.
    expr = parse("1d6e1")
    assert distribution.expected_value(expr) == Fraction(21, 5)
    # The bound is reached when the base and all 20 extra faces are 1s: (1/6)^21.
    assert distribution.truncated_mass(expr) == Fraction(1, 6) ** 21
    # Smallest: a 2 (a 1 explodes into at least 1 + 1); largest: twenty 1s and a 6.
    assert distribution.bounds(expr) == (2, 26)
    # 2d4e<2 (a face below 2, i.e. 1, explodes): per die 5/2 + 1/4 x (5/2) / (3/4) = 10/3.
    assert distribution.expected_value(parse("2d4e<2")) == Fraction(20, 3)
