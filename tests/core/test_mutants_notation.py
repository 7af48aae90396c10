"""Dice notation (issue 13): the leading minus (``-1d4+5``) through every
use of an expression - parse, canonical text, expected value, minimum and
maximum, a roll with scripted faces, the exact distribution, a damage roll -
and accepted and refused examples for every branch of the grammar of
:func:`linguo_cli.core.dice.parse`::

    expr  := term (("+" | "-") term)*      (one leading "-" allowed)
    term  := INT | [INT] "d" INT [("kh" | "kl") INT]

Values here are worked by hand from the notation, never copied from output.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from linguo_cli.core import requests
from linguo_cli.core.dice import DiceTerm, ScriptedDice, parse, roll
from linguo_cli.core.distribution import expression_distribution
from linguo_cli.core.errors import InputError

from ..conftest import run_cli

# ---------------------------------------------------------------------------
# The leading minus


def test_leading_minus_parses_as_a_subtracted_term() -> None:
    expr = parse("-1d4+5")
    assert expr.terms == (DiceTerm(-1, 1, 4, None),)
    assert expr.constant == 5


def test_leading_minus_text_round_trip() -> None:
    for text in ("-1d4+5", "-1d4", "-5", "-4d6kh3+2", "-2d6-1d4-3", "-1d4+1d6"):
        assert parse(text).text() == text
        assert parse(parse(text).text()) == parse(text)


def test_leading_minus_before_a_constant_then_dice() -> None:
    expr = parse("-5+1d4")
    assert expr.terms == (DiceTerm(1, 1, 4, None),) and expr.constant == -5
    assert expr.text() == "1d4-5"


def test_leading_minus_expected_value_minimum_maximum() -> None:
    expr = parse("-1d4+5")
    # 5 - E[1d4] = 5 - 5/2 = 5/2; the die shows 1..4: 5-4 = 1 .. 5-1 = 4.
    assert expr.expected_value() == Fraction(5, 2)
    assert (expr.minimum(), expr.maximum()) == (1, 4)
    const = parse("-5")
    assert const.expected_value() == -5
    assert (const.minimum(), const.maximum()) == (-5, -5)


def test_leading_minus_on_a_keep_term() -> None:
    expr = parse("-4d6kh3")
    # E[4d6kh3] = 15869/1296 (the classic value); kept sum 3..18, negated.
    assert expr.expected_value() == -Fraction(15869, 1296)
    assert (expr.minimum(), expr.maximum()) == (-18, -3)
    low = parse("-4d6kl3")
    # the 3 lowest of 4d6 = 3 x 7 - the 3 highest of (7 - face): 21 - 15869/1296.
    assert low.expected_value() == -(21 - Fraction(15869, 1296))
    assert (low.minimum(), low.maximum()) == (-18, -3)


def test_leading_minus_roll_with_scripted_faces() -> None:
    src = ScriptedDice([3])
    result = roll(parse("-1d4+5"), src)
    assert result.total == 2  # 5 - 3
    assert result.rolls[0].subtotal == -3
    assert result.face_records() == [{"die": 4, "face": 3, "kept": True}]
    src.finish()
    keep = roll(parse("-4d6kh3"), ScriptedDice([6, 5, 4, 1]))
    assert keep.total == -15  # -(6 + 5 + 4), the 1 dropped
    assert list(keep.rolls[0].kept) == [True, True, True, False]


def test_leading_minus_distribution() -> None:
    quarter = Fraction(1, 4)
    assert expression_distribution(parse("-1d4+5")) == {1: quarter, 2: quarter, 3: quarter,
                                                        4: quarter}
    assert expression_distribution(parse("-1d4")) == {-4: quarter, -3: quarter, -2: quarter,
                                                      -1: quarter}
    dist = expression_distribution(parse("-4d6kh3"))
    assert (min(dist), max(dist)) == (-18, -3)
    assert sum(v * p for v, p in dist.items()) == -Fraction(15869, 1296)
    # P(-18) = P(three 6s kept) = P(at least three 6s of four) = (1 + 4 x 5) / 6^4.
    assert dist[-18] == Fraction(21, 1296)


def test_leading_minus_damage_roll_and_ticks_view() -> None:
    result = requests.resolve({"kind": "damage", "tick": "tiny", "dice": "-1d4+5",
                               "rolls": [3]})
    assert result["dice_total"] == 2 and result["amount"] == 2
    assert result["expected_value"] == "5/2" and result["conforming"] is True
    assert result["rolls_used"] == [3]
    run = run_cli("ticks", "--json", "--", "-1d4+5")
    assert run.exit_code == 0, run.stderr
    out = run.json()
    assert (out["dice"], out["expected_value"], out["minimum"], out["maximum"]) == (
        "-1d4+5", "5/2", 1, 4)


def test_a_damage_roll_below_zero_is_floored() -> None:
    # -1d4+1 with a 4: 1 - 4 = -3 -> 0 (T4); its expected value -3/2 is in no
    # tick, so the request allows it.
    result = requests.resolve({"kind": "damage", "tick": "tiny", "dice": "-1d4+1",
                               "allow_nonconforming": True, "rolls": [4]})
    assert result["dice_total"] == -3 and result["amount"] == 0


@pytest.mark.parametrize(("text", "column"), [
    ("-", 2), ("- ", 3), ("-+1d4", 2), ("+1d4", 1), ("+-1d4", 1),
    ("1d4-", 5), ("-1d4-", 6),
])
def test_refused_signs(text: str, column: int) -> None:
    with pytest.raises(InputError) as info:
        parse(text)
    assert info.value.code == 3
    assert f"column {column}:" in info.value.message, info.value.message


def test_a_minus_after_a_term_is_a_subtraction_not_a_second_leading_sign() -> None:
    expr = parse("1d4-2")
    assert expr.terms == (DiceTerm(1, 1, 4, None),) and expr.constant == -2
    expr = parse("2-1d4")
    assert expr.terms == (DiceTerm(-1, 1, 4, None),) and expr.constant == 2
    assert parse("-1d4-1d6").terms == (DiceTerm(-1, 1, 4, None), DiceTerm(-1, 1, 6, None))
    assert parse("-1d4+1d6").terms == (DiceTerm(-1, 1, 4, None), DiceTerm(1, 1, 6, None))


# The extended notation (issue 17) reads these, which the first grammar refused:
# nested unary minus, a sign after an operator, k for kh, upper case,
# arithmetic and parentheses. Expected values worked by hand: 1d4 is 5/2;
# 4d6kh3 is 15869/1296 (the classic 12.24...).
@pytest.mark.parametrize(("text", "expected"), [
    ("--1d4", "5/2"), ("- -1d4", "5/2"), ("1d4+-2", "1/2"), ("1d4--2", "9/2"),
    ("1d4k1", "5/2"), ("4d6KH3", "15869/1296"), ("1d4*2", "5"), ("(1d4)", "5/2"),
])
def test_forms_the_extended_notation_reads(text: str, expected: str) -> None:
    assert str(parse(text).expected_value()) == expected


def test_leading_minus_through_the_cli() -> None:
    run = run_cli("ticks", "--json", "--", "--1d4")  # minus minus: 1d4 again
    assert run.exit_code == 0 and run.json()["expected_value"] == "5/2"
    assert run_cli("ticks", "--json", "--", "-").exit_code == 3
    assert run_cli("damage", "--tick", "tiny", "--dice=-1d4+5", "--rolls", "3", "--json"
                   ).json()["amount"] == 2


# ---------------------------------------------------------------------------
# Every branch of the grammar


@pytest.mark.parametrize(("text", "terms", "constant", "canonical"), [
    # INT
    ("3", (), 3, "3"),
    ("0", (), 0, "0"),
    (" 7 ", (), 7, "7"),
    # "d" INT (count 1 by default), upper-case D
    ("d20", ((1, 1, 20, None),), 0, "1d20"),
    ("D20", ((1, 1, 20, None),), 0, "1d20"),
    ("2D6", ((1, 2, 6, None),), 0, "2d6"),
    # INT "d" INT
    ("2d6", ((1, 2, 6, None),), 0, "2d6"),
    # keep highest / lowest
    ("4d6kh3", ((1, 4, 6, ("h", 3)),), 0, "4d6kh3"),
    ("4d6kl3", ((1, 4, 6, ("l", 3)),), 0, "4d6kl3"),
    ("d20kh1", ((1, 1, 20, ("h", 1)),), 0, "1d20kh1"),
    # "+" and "-" between terms, spaces anywhere between tokens
    ("2d6+1", ((1, 2, 6, None),), 1, "2d6+1"),
    ("d20 - 2", ((1, 1, 20, None),), -2, "1d20-2"),
    ("3d8 + 1d4 + 2", ((1, 3, 8, None), (1, 1, 4, None)), 2, "3d8+1d4+2"),
    ("1d4-1d4", ((1, 1, 4, None), (-1, 1, 4, None)), 0, "1d4-1d4"),
    ("1+2-3", (), 0, "0"),
    ("1d4+0", ((1, 1, 4, None),), 0, "1d4"),
    ("\t1d4\t+\t1", ((1, 1, 4, None),), 1, "1d4+1"),
    # constants are summed wherever they stand
    ("1+1d6+2", ((1, 1, 6, None),), 3, "1d6+3"),
    # leading zeros are plain integers
    ("01d06", ((1, 1, 6, None),), 0, "1d6"),
])
def test_accepted_forms(text: str, terms: tuple[tuple[int, int, int, tuple[str, int] | None],
                                                ...], constant: int, canonical: str) -> None:
    expr = parse(text)
    assert expr.terms == tuple(DiceTerm(*t) for t in terms)
    assert expr.constant == constant
    assert expr.text() == canonical


@pytest.mark.parametrize(("text", "column"), [
    ("", 1),            # nothing
    ("   ", 4),         # only spaces
    ("d", 1),           # no sides
    ("2d", 2),          # no sides
    ("1dd4", 2),
    ("1d4kh", 4),       # keep without its count
    ("4d6kx1", 4),
    ("1d4 2", 5),       # two terms without an operator
    ("1d4 1d6", 5),
    ("2x", 2),
    ("1.5", 2),
    ("1d4+", 5),        # operator without a term
    ("1d4++1", 5),
    ("abc", 1),
    ("1d-4", 2),
])
def test_refused_forms(text: str, column: int) -> None:
    with pytest.raises(InputError) as info:
        parse(text)
    assert info.value.code == 3
    assert f"column {column}:" in info.value.message, info.value.message


def test_refusals_name_the_field() -> None:
    with pytest.raises(InputError) as info:
        parse("1d4+", field="damage.dice")
    assert "damage.dice" in info.value.message


def test_non_string_notation_refused() -> None:
    with pytest.raises(InputError) as info:
        parse(4)  # type: ignore[arg-type]
    assert info.value.code == 3 and "column 1: dice notation must be a string" in (
        info.value.message)


@pytest.mark.parametrize(("text", "expected"), [
    ("1d4 2", "expected '+' or '-', found '2'"),
    ("1d4++1", "expected a term such as 2d6 or 3, found '+'"),
    ("1d4+", "expected a term such as 2d6 or 3 at the end"),
])
def test_refusals_say_what_was_expected(text: str, expected: str) -> None:
    with pytest.raises(InputError) as info:
        parse(text)
    assert expected in info.value.message


@pytest.mark.parametrize(("text", "expected", "low", "high"), [
    ("2d6+1", Fraction(8), 3, 13),
    ("d20-2", Fraction(17, 2), -1, 18),
    ("1d4-1d4", Fraction(0), -3, 3),
    ("3", Fraction(3), 3, 3),
    ("4d6kl3", 21 - Fraction(15869, 1296), 3, 18),
    ("2d20kh1", Fraction(553, 40), 1, 20),  # E[max of 2d20] = 553/40 = 13.825
])
def test_expected_value_minimum_maximum_per_form(text: str, expected: Fraction, low: int,
                                                  high: int) -> None:
    expr = parse(text)
    assert expr.expected_value() == expected
    assert (expr.minimum(), expr.maximum()) == (low, high)
    dist = expression_distribution(expr)
    assert (min(dist), max(dist)) == (low, high)
    assert sum(v * p for v, p in dist.items()) == expected


# ---------------------------------------------------------------------------
# Limits of the extended notation at both sides of each edge (README "Dice
# notation": 20 levels of parentheses or signs, 50,000 faces per roll at the
# reroll/explosion bounds; golden/README.md: LABEL is 1-30 characters, mi <= ma).
# The numbers are written out so that moving an edge fails a test.


def _refused_with(text: str, words: str) -> str:
    with pytest.raises(InputError) as info:
        parse(text)
    assert info.value.code == 3
    assert words in info.value.message, info.value.message
    return info.value.message


def test_twenty_levels_of_parentheses_accepted_twenty_one_refused() -> None:
    assert parse("(" * 20 + "1d6" + ")" * 20).text() == "1d6"
    _refused_with("(" * 21 + "1d6" + ")" * 21, "more than 20 nested parentheses or signs")
    # a level is left again at its ')': 21 groups side by side nest one deep
    assert parse("+".join(["(1d2)"] * 21)).dice_count() == 21


def test_twenty_signs_accepted_twenty_one_refused() -> None:
    assert parse("-" * 20 + "1d6").text() == "1d6"  # an even number of minus signs
    _refused_with("-" * 21 + "1d6", "more than 20 nested parentheses or signs")
    assert parse("+".join(["-1d2"] * 21)).dice_count() == 21


# Faces one roll can consume at the bounds: a plain die 1, ro/ra 1 + 1,
# rr 1 + 20, e 1 + 20, rr and e 1 + 20 + 20.
_FACES_50000 = [
    # 1000 x 21 (rr) + 1000 x 21 (e) + 4 x 1000 x 2 (ro, ra)
    "1000d6rr1+1000d6e6+1000d6ro1+1000d6ro1+1000d6ra1+1000d6ra1",
    # 1000 x 41 (rr and e) + 428 x 21 (rr) + 12 plain dice
    "1000d6rr1e6+428d6rr1+12d6",
]


@pytest.mark.parametrize("text", _FACES_50000)
def test_fifty_thousand_faces_accepted_one_more_refused(text: str) -> None:
    assert parse(text).text() == text
    _refused_with(text + "+1d6", "can consume more than 50000 faces "
                  "(rerolls at 20, explosions at 20 per die)")


def test_a_label_of_thirty_characters_accepted_thirty_one_refused() -> None:
    label = "a" * 30
    assert parse(f"1d8[{label}]").terms[0].label == label
    _refused_with(f"1d8[{label}b]", "an annotation is [label] with up to 30 letters")


def test_min_equal_to_max_is_accepted_min_above_max_refused() -> None:
    expr = parse("2d6mi3ma3")
    assert (expr.minimum(), expr.maximum(), expr.expected_value()) == (6, 6, 6)
    _refused_with("2d6mi4ma3", "mi4 is above ma3")
    _refused_with("2d6ma3mi4", "mi4 is above ma3")


def test_clamps_after_a_selector_are_refused() -> None:
    _refused_with("4d6kh3mi2", "must come before")
    _refused_with("4d6dl1ma5", "must come before")
    assert parse("4d6mi2ma5kh3").text() == "4d6mi2ma5kh3"


def test_an_explosion_comes_once_and_before_the_clamps() -> None:
    """The modifier order (README "Dice notation": ro/rr/ra, e, mi/ma,
    keep/drop), explosions: a second ``e`` and an ``e`` after a clamp are
    refused at the column of that ``e``; ``e`` after a reroll is read."""
    message = _refused_with("2d6e6e5", "an explosion (e) must come before")
    assert "column 6" in message
    message = _refused_with("2d6mi2e6", "an explosion (e) must come before")
    assert "column 7" in message
    assert parse("2d6ro1e6").text() == "2d6ro1e6"


def test_bounds_of_a_subtraction_inside_a_tree() -> None:
    """Minimum and maximum of ``A - B`` where ``B`` is a die (a tree: the
    product makes it one): 2*1d6 runs 2..12 and 1d4 runs 1..4, so the
    difference runs 2 - 4 = -2 .. 12 - 1 = 11."""
    expr = parse("2*1d6-1d4")
    assert (expr.minimum(), expr.maximum()) == (-2, 11)
    dist = expression_distribution(expr)
    assert (min(dist), max(dist)) == (-2, 11)


def test_bounds_of_an_addition_inside_a_tree() -> None:
    """Minimum and maximum of ``A + B`` where ``A`` is a product (a tree):
    2*1d6 runs 2..12 and 1d4 runs 1..4, so the sum runs 2 + 1 = 3 ..
    12 + 4 = 16."""
    expr = parse("2*1d6+1d4")
    assert (expr.minimum(), expr.maximum()) == (3, 16)
    dist = expression_distribution(expr)
    assert (min(dist), max(dist)) == (3, 16)


def test_reroll_once_of_a_d1_is_accepted() -> None:
    # ro rerolls once only, so even a face every roll matches stops (unlike rr).
    expr = parse("1d1ro1")
    assert expr.expected_value() == 1 and (expr.minimum(), expr.maximum()) == (1, 1)


@pytest.mark.parametrize(("text", "column"), [
    ("1d6/0", 4), ("2+1d6/(1d2-1)", 6), ("1d20 / (1d2-2)", 6),
])
def test_a_divisor_that_can_be_zero_names_the_column_of_the_slash(text: str,
                                                                  column: int) -> None:
    # 1d2-1 is 0..1 and 1d2-2 is -1..0: both can be 0.
    message = _refused_with(text, "can be 0")
    assert f"column {column}:" in message


@pytest.mark.parametrize(("text", "value"), [("000000005", 5), ("1d000000006", 6)])
def test_a_number_of_nine_digits_is_read(text: str, value: int) -> None:
    expr = parse(text)
    assert (expr.constant if expr.terms == () else expr.terms[0].sides) == value


@pytest.mark.parametrize(("text", "words"), [
    ("0000000005", "constant above 1000000"),
    ("1d0000000006", "a number of sides above 1000000000"),
    ("1d1000000000", "a number of sides above 1000000000"),
    ("1d999999999", "dice sides must be 1..1000, got 999999999"),
])
def test_a_number_of_ten_digits_is_refused_whatever_its_value(text: str, words: str) -> None:
    assert _refused_with(text, words).endswith(words)


def test_a_sign_gives_its_level_back_after_its_operand() -> None:
    # "-1d2" nests one level and leaves it: 20 parentheses may follow, not 21.
    assert parse("-1d2+" + "(" * 20 + "1d6" + ")" * 20).dice_count() == 2
    _refused_with("-1d2+" + "(" * 21 + "1d6" + ")" * 21,
                  "more than 20 nested parentheses or signs")
    _refused_with("(1d2)+" + "(" * 21 + "1d6" + ")" * 21,
                  "more than 20 nested parentheses or signs")


def test_a_missing_closing_parenthesis_says_where() -> None:
    assert _refused_with("(1d6", "expected ')'").endswith("column 5: expected ')' at the end")
    assert _refused_with("(1d6]", "expected ')'").endswith("column 5: expected ')'")


def test_strict_comparisons_do_not_match_their_own_face() -> None:
    # >4 and <3 are strict (README: "C is a face, <N or >N (strict)"): a 4
    # does not explode under e>4 and a 3 is not rerolled under rr<3.
    src = ScriptedDice([4])
    assert roll(parse("1d6e>4"), src).total == 4
    src.finish()
    src = ScriptedDice([3])
    assert roll(parse("1d6rr<3"), src).total == 3
    src.finish()
    src = ScriptedDice([5, 2])
    assert roll(parse("1d6e>4"), src).total == 7
    src.finish()


@pytest.mark.parametrize(("text", "window"), [
    # the kept ranks [low, high) of the dice sorted ascending
    ("4d6kh3", (1, 4)), ("4d6kl3", (0, 3)), ("4d6dh1", (0, 3)), ("4d6dl1", (1, 4)),
    ("5d6kh4kl2", (1, 3)), ("5d6dh1dl1", (1, 4)), ("6d6dl1dh2kh2", (2, 4)),
])
def test_the_kept_window_of_each_selector(text: str, window: tuple[int, int]) -> None:
    term = parse(text).terms[0]
    assert term.window() == window
    assert term.kept_count() == window[1] - window[0]


def test_a_selector_after_drop_highest_counts_the_dice_left() -> None:
    assert parse("4d6dh1kh3").terms[0].kept_count() == 3
    _refused_with("4d6dh1kh4", "keep count must be 1..3 for 3 dice, got 4")
    # dh1 of 4d6 keeps the 3 lowest: 3 x 7 - E[3 highest of 4d6] = 21 - 15869/1296.
    expr = parse("4d6dh1")
    assert expr.expected_value() == Fraction(11347, 1296)
    assert (expr.minimum(), expr.maximum()) == (3, 18)


@pytest.mark.parametrize(("text", "canonical"), [
    # parentheses only where precedence needs them: a lower-precedence left
    # operand, a right operand of lower or equal precedence, a signed right operand
    ("1d4*2*3", "1d4*2*3"), ("1d4*(2*3)", "1d4*(2*3)"), ("(1d4+1)*2", "(1d4+1)*2"),
    ("2*(1d4+1)", "2*(1d4+1)"), ("1d4*2+1", "1d4*2+1"), ("1+1d4*2", "1+1d4*2"),
    ("1d4*2-(1d6+1)", "1d4*2-(1d6+1)"), ("1d4*2-(1d6*3)", "1d4*2-1d6*3"),
    ("1d4/(2*1d6)", "1d4/(2*1d6)"), ("1d4*-2", "1d4*(-2)"), ("1d4*-1d6", "1d4*(-1d6)"),
    ("-(1d4*2)", "-(1d4*2)"), ("-1d4*2", "-1d4*2"), ("(1d4-1d6)*2", "(1d4-1d6)*2"),
    ("-(-(1d4*2))", "-(-(1d4*2))"), ("(1d4*2)/3", "1d4*2/3"), ("1d4*(2/3)", "1d4*(2/3)"),
])
def test_canonical_text_of_a_tree(text: str, canonical: str) -> None:
    expr = parse(text)
    assert expr.tree is not None
    assert expr.constant == 0  # DiceExpression: with a tree, constant is 0
    assert expr.text() == canonical
    assert parse(canonical) == expr


def test_a_doubled_tree_equals_the_tree_written_doubled() -> None:
    assert parse("(1d4+1)*2").doubled() == parse("(1d4+1d4+1)*2")
    assert parse("(2d6+1)/1d2").doubled() == parse("(2d6+2d6+1)/1d2")


@pytest.mark.parametrize(("base", "times", "text", "expected"), [
    # E[1d4] = 5/2, E[1d6*2] = 7
    ("-1d4+2", 1, "-1d4+2+1d6*2", Fraction(13, 2)),
    ("1d4-3", 2, "1d4-3+1d6*2+1d6*2", Fraction(27, 2)),
    ("5", 1, "5+1d6*2", Fraction(12)),
    ("1d4+1", 1, "1d4+1+1d6*2", Fraction(21, 2)),
    ("1d4", 0, "1d4", Fraction(5, 2)),
    ("1d4+1d6", 1, "1d4+1d6+1d6*2", Fraction(13)),
    ("-1d4-1d6", 1, "-1d4+(-1d6)+1d6*2", Fraction(1)),
])
def test_added_copies_of_a_tree_after_a_flat_base(base: str, times: int, text: str,
                                                   expected: Fraction) -> None:
    from linguo_cli.core.dice import added

    expr = added(parse(base), parse("1d6*2"), times)
    assert expr.tree is not None and expr.constant == 0
    assert expr.text() == text
    assert expr.expected_value() == expected
    assert len(expr.terms) == len(parse(base).terms) + times
