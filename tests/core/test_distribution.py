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
    # 1d6rr1e>1: the base is 2..6 and explodes; an extra 1 stops the chain, so the
    # smallest is 2 + 1; the largest is twenty-one 6s.
    assert distribution.bounds(parse("1d6rr1e>1")) == (3, 126)
    # 1d30e<25: faces 1..24 explode. Smallest: a 1 and twenty extra 1s (the bound);
    # largest: twenty 24s and a last 30.
    assert distribution.bounds(parse("1d30e<25")) == (21, 24 * 20 + 30)
    # 2d4e<2 (a face below 2, i.e. 1, explodes): per die 5/2 + 1/4 x (5/2) / (3/4) = 10/3.
    assert distribution.expected_value(parse("2d4e<2")) == Fraction(20, 3)


# ---------------------------------------------------------------------------
# The work of whole expressions, counted by hand; each is computed with
# MAX_WORK set to exactly its work and refused with one step less.


def _work_is(text: str, work: int, monkeypatch: pytest.MonkeyPatch) -> None:
    expr = parse(text)
    monkeypatch.setattr(distribution, "MAX_WORK", work)
    assert sum(distribution.distribution(expr).values()) == 1
    monkeypatch.setattr(distribution, "MAX_WORK", work - 1)
    with pytest.raises(InputError, match="MAX_WORK"):
        distribution.distribution(expr)


def test_work_of_an_exploding_die(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1d2e2: the chain of 20 extra faces grows by one value per round, 19 rounds
    # of 2 x (2, 3, ..., 20) = 418; the die's 2 x 21 = 42 (base values x chain
    # values); its 22 values convolved into the term (22) and the expression (22).
    _work_is("1d2e2", 418 + 42 + 22 + 22, monkeypatch)


def test_work_of_a_keep_window(monkeypatch: pytest.MonkeyPatch) -> None:
    # 3d2dl1: values 2 then 1, each 4 x states x (3 + 1): 4 x 1 x 4 + 4 x 2 x 4
    # (after the 2s: none placed yet, or one 2 placed); its 3 sums (2, 3, 4) convolved
    # into the expression: 3.
    _work_is("3d2dl1", 16 + 32 + 3, monkeypatch)


def test_work_of_a_product_of_big_totals(monkeypatch: pytest.MonkeyPatch) -> None:
    # 50d6mi2 (a die of 5 values, 2..6): the i-th die convolved into 4i+1 sums
    # (1 for i = 0): 5 x (1 + 5 + 9 + ... + 197) = 24,750 per term, totals
    # below 2^256. The product: 201 x 201 pairs on 6^100 ways (259 bits: twice).
    _work_is("(50d6mi2)*(50d6mi2)", 2 * 24_750 + 2 * 201 * 201, monkeypatch)


def test_bounds_of_a_subtracted_term_whose_die_does_not_start_at_1() -> None:
    # -2d6mi3: each die 3..6, two subtracted: -12..-6; plus 1d4: -11..-2.
    expr = parse("1d4-2d6mi3")
    assert distribution.bounds(expr) == (-11, -2)
    assert (expr.minimum(), expr.maximum()) == (-11, -2)
    dist = distribution.expression_distribution(expr)
    assert (min(dist), max(dist)) == (-11, -2)


@pytest.mark.parametrize(("text", "what", "work"), [
    ("53d356", "53d356", 53 * 53 * 356),                         # count^2 x sides
    ("177d2kh53", "177d2kh53", 2 * (53 + 2 * 53 * 52 // 2) * 178),  # sides x pairs x (count+1)
    ("1d101+10d991", "this dice expression", 101 * 9_901),      # outcomes x outcomes
])
def test_a_refused_plain_expression_states_its_work(text: str, what: str, work: int) -> None:
    with pytest.raises(InputError) as info:
        distribution.expression_distribution(parse(text))
    assert info.value.diagnostics[0].message == (
        f"{what} is too large to compute exactly (about {work:,} steps; the limit is 1,000,000)")


def test_work_of_a_term_whose_totals_pass_256_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    # 100d6mi2: the i-th die convolved into 4i+1 sums (1 for i = 0), 5 values each:
    # 5 x (1 + 5 + ... + 397) = 99,500; the products 6^99 (256 bits) and 6^100
    # (259 bits) of the last two count twice (5 x 393 + 5 x 397 more); the term's
    # 401 sums into the expression, on 6^100 ways: 2 x 401.
    _work_is("100d6mi2", 99_500 + 5 * 393 + 5 * 397 + 2 * 401, monkeypatch)
