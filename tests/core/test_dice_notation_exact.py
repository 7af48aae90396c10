"""Exact distributions of the dice notation (linguo_cli.core.distribution), for every
operator: equal to enumeration over every face sequence the roller can
consume (small dice, bounds lowered), equal to icepool where icepool has the
operator, and the closed-form expected value of exploding dice."""

from __future__ import annotations

from fractions import Fraction
from typing import Any
from unittest import mock

import icepool
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from linguo_cli.core import dice
from linguo_cli.core import distribution as dice_exact
from linguo_cli.core.dice import DiceExpression, DiceSource, DiceTerm, matches, parse, roll
from linguo_cli.core.errors import InputError


class _Need(Exception):
    def __init__(self, options: list[int]) -> None:
        super().__init__()
        self.options = options


class _Prefix(DiceSource):
    """Hands out a given prefix of faces, then asks for the next one."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        super().__init__()
        self.prefix = prefix
        self.i = 0

    def _next(self, options: list[int]) -> int:
        if self.i < len(self.prefix):
            self.i += 1
            return self.prefix[self.i - 1]
        raise _Need(options)

    def _draw(self, sides: int) -> int:
        return self._next(list(range(1, sides + 1)))

    def _draw_among(self, sides: int, allowed: list[int]) -> int:
        return self._next(allowed)


def enumerate_rolls(expr: DiceExpression) -> dict[int, Fraction]:
    """The distribution of ``roll(expr)`` over every face sequence a random
    source can hand out (each face equally likely among its options)."""
    out: dict[int, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            total = roll(expr, _Prefix(prefix)).total
        except _Need as need:
            stack.extend((prefix + (f,), p / len(need.options)) for f in need.options)
            continue
        out[total] = out.get(total, Fraction(0)) + p
    return dict(sorted(out.items()))


SMALL_BOUNDS = {"MAX_REROLLS": 2, "MAX_EXPLOSIONS": 2}


def small_bounds() -> Any:
    return mock.patch.multiple(dice, **SMALL_BOUNDS)


@st.composite
def terms(draw: st.DrawFn, allow_explode: bool = True) -> str:
    """Text of one small dice term with random operators in grammar order."""
    sides = draw(st.integers(1, 4))
    heavy = False
    text = ""
    compare = st.tuples(st.sampled_from(["", "<", ">"]), st.integers(0, 5))
    if draw(st.booleans()):
        op = draw(st.sampled_from(["ro", "rr", "ra"]))
        c, n = draw(compare)
        text += f"{op}{c}{n}"
        heavy = op == "rr"
    explode = allow_explode and draw(st.booleans())
    if explode:
        c, n = draw(compare)
        text += f"e{c}{n}"
        heavy = True
    else:
        if draw(st.booleans()):
            text += f"mi{draw(st.integers(0, 6))}"
        if draw(st.booleans()):
            text += f"ma{draw(st.integers(0, 6))}"
    count = draw(st.integers(1, 2 if heavy else 3))
    if not explode:
        for _ in range(draw(st.integers(0, 2))):
            op = draw(st.sampled_from(["kh", "kl", "k", "dh", "dl"]))
            text += f"{op}{draw(st.integers(1, 3))}"
    return f"{count}d{sides}{text}"


def _parse_or_skip(text: str) -> DiceExpression:
    try:
        return parse(text)
    except InputError:
        assume(False)
        raise


@given(terms())
def test_term_distribution_equals_enumeration(text: str) -> None:
    expr = _parse_or_skip(text)
    with small_bounds():
        exact = dice_exact.distribution(expr)
        assert exact == enumerate_rolls(expr), text
        assert (min(exact), max(exact)) == (expr.minimum(), expr.maximum())
        if not any(t.explode for t in expr.terms):
            mean = sum((v * p for v, p in exact.items()), Fraction(0))
            assert expr.expected_value() == mean


@given(terms(allow_explode=False), st.sampled_from(["+", "-", "*", "/"]),
       st.one_of(terms(allow_explode=False), st.integers(-3, 3).map(str)), st.booleans())
def test_tree_distribution_equals_enumeration(left: str, op: str, right: str,
                                              brackets: bool) -> None:
    text = f"({left}+1){op}({right})" if brackets else f"{left}{op}{right}"
    expr = _parse_or_skip(text)
    with small_bounds():
        exact = dice_exact.distribution(expr)
        assert exact == enumerate_rolls(expr), text
    assert (min(exact), max(exact)) == (expr.minimum(), expr.maximum())
    assert expr.expected_value() == sum((v * p for v, p in exact.items()), Fraction(0))


def icepool_term(t: DiceTerm) -> icepool.Die:
    """The same term built with icepool's own operators."""
    s = t.sides
    base = icepool.d(s)
    die = base
    if t.reroll is not None:
        op, compare = t.reroll
        faces = [f for f in range(1, s + 1) if matches(compare, f)]
        if op == "ro" and len(faces) == s:
            die = base  # every face rerolled once: a fresh die (icepool divides by 0 here)
        elif op == "ro":
            die = base.reroll(faces, depth=1)
        elif op == "rr":
            die = base.reroll(faces, depth="inf")
        else:
            die = base.map(lambda v: v + icepool.d(s) if matches(compare, v) else v)
    if t.explode is not None:
        faces = [f for f in range(1, s + 1) if matches(t.explode, f)]
        die = base.explode(faces, depth=dice.MAX_EXPLOSIONS)
    if t.minimum is not None or t.maximum is not None:
        die = die.clip(t.minimum, t.maximum)
    low, high = t.window()
    pooled = (t.count @ die) if (low, high) == (0, t.count) else die.pool(t.count)[low:high].sum()
    return -pooled if t.sign < 0 else pooled


@given(terms())
def test_icepool_agrees(text: str) -> None:
    expr = _parse_or_skip(text)
    t = expr.terms[0]
    assume(not (t.explode and t.reroll))  # icepool's explode rerolls the whole die
    ice = icepool_term(t)
    exact = dice_exact.distribution(expr)
    assert exact == {int(v): Fraction(ice.quantity(v), ice.denominator()) for v in ice}


@pytest.mark.parametrize(("text", "ice"), [
    ("(1d4+1)*2", (icepool.d4 + 1) * 2),
    ("3d6/2", (3 @ icepool.d6) // 2),
    ("(1d6-4)/1d2", (icepool.d6 - 4) // icepool.d2),
    ("-(2d4kh1)+1d6*1d4", -icepool.d4.pool(2)[1:].sum() + icepool.d6 * icepool.d4),
    ("d%", icepool.d100),
])
def test_icepool_agrees_on_trees(text: str, ice: icepool.Die) -> None:
    exact = dice_exact.distribution(parse(text))
    assert exact == {int(v): Fraction(ice.quantity(v), ice.denominator()) for v in ice}


@pytest.mark.parametrize("text", ["1d6e6", "1d20e20", "1d6e>4", "1d4ro1e4", "1d6rr<3e>5",
                                  "1d2e2", "1d6ra1e6"])
def test_exploding_expected_value_is_the_closed_form(text: str) -> None:
    expr = parse(text)
    t = expr.terms[0]
    p = Fraction(sum(1 for f in range(1, t.sides + 1) if matches(t.explode or ("=", 0), f)),
                 t.sides)
    chain_mean = Fraction(t.sides + 1, 2) / (1 - p)
    capped = dice_exact.distribution(expr)
    capped_mean = sum((v * q for v, q in capped.items()), Fraction(0))
    # what the bound cut off: from a die that reached it, the unbounded roll adds a whole chain
    assert expr.expected_value() == capped_mean + dice_exact.truncated_mass(expr) * chain_mean
    assert sum(capped.values()) == 1


def test_exploding_d20_truncated_mass_is_stated() -> None:
    expr = parse("1d20e20")
    assert dice_exact.truncated_mass(expr) == Fraction(1, 20) ** (dice.MAX_EXPLOSIONS + 1)
    assert expr.expected_value() == Fraction(21, 2) * Fraction(20, 19)


@pytest.mark.parametrize("text", ["1000d1000mi2", "1000d6e6", "999d999dl1"])
def test_too_large_distributions_name_the_bound(text: str) -> None:
    with pytest.raises(InputError, match="MAX_WORK"):
        dice_exact.distribution(parse(text))
