"""Unit tests of :mod:`linguo_cli.core.dice`: dice sources and dice notation."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from linguo_cli.core import dice
from linguo_cli.core.dice import (
    DiceExpression,
    DiceTerm,
    ScriptedDice,
    SeededDice,
    SystemDice,
    face_record,
    make_source,
    parse,
)
from linguo_cli.core.errors import DiceError, InputError

# ---------------------------------------------------------------------------
# Sources


def test_scripted_faces_come_out_in_order_and_are_recorded() -> None:
    src = ScriptedDice([17, 4, 6])
    assert [src.roll(20), src.roll(20), src.roll(6)] == [17, 4, 6]
    assert src.used == [17, 4, 6]
    src.finish()
    assert src.scripted is True


def test_scripted_too_few_faces() -> None:
    src = ScriptedDice([17])
    src.roll(20)
    with pytest.raises(DiceError) as info:
        src.roll(20)
    assert info.value.code == 3
    assert "d20" in info.value.message
    assert src.used == [17]


@pytest.mark.parametrize(("face", "sides"), [(21, 20), (0, 20), (7, 6), (-1, 4), (2, 1)])
def test_scripted_face_that_does_not_fit_the_die(face: int, sides: int) -> None:
    src = ScriptedDice([face])
    with pytest.raises(DiceError) as info:
        src.roll(sides)
    assert f"d{sides}" in info.value.message
    assert str(face) in info.value.message
    assert src.used == []


@pytest.mark.parametrize(("face", "sides"), [(1, 20), (20, 20), (1, 1), (6, 6), (1000, 1000)])
def test_scripted_face_at_the_ends_of_the_die_fits(face: int, sides: int) -> None:
    assert ScriptedDice([face]).roll(sides) == face


def test_scripted_unused_faces_raise_on_finish() -> None:
    src = ScriptedDice([3, 4, 5])
    src.roll(6)
    with pytest.raises(DiceError) as info:
        src.finish()
    assert "4, 5" in info.value.message
    assert info.value.code == 3


def test_scripted_empty_finishes_cleanly() -> None:
    ScriptedDice([]).finish()


def test_seeded_dice_replay_with_the_same_seed() -> None:
    a, b = SeededDice(42), SeededDice(42)
    faces_a = [a.roll(20) for _ in range(50)]
    faces_b = [b.roll(20) for _ in range(50)]
    assert faces_a == faces_b
    assert a.used == faces_a
    assert all(1 <= f <= 20 for f in faces_a)
    assert a.scripted is False
    a.finish()  # never raises


def test_different_seeds_give_different_sequences() -> None:
    a, b = SeededDice(1), SeededDice(2)
    assert [a.roll(20) for _ in range(30)] != [b.roll(20) for _ in range(30)]


def test_seeded_faces_replay_as_scripted() -> None:
    seeded = SeededDice(7)
    faces = [seeded.roll(s) for s in (20, 20, 6, 8)]
    scripted = ScriptedDice(seeded.used)
    assert [scripted.roll(s) for s in (20, 20, 6, 8)] == faces
    scripted.finish()


def test_system_dice_stay_on_the_die() -> None:
    src = SystemDice()
    faces = [src.roll(6) for _ in range(200)]
    assert set(faces) <= set(range(1, 7))
    assert src.used == faces


def test_make_source() -> None:
    assert isinstance(make_source([3], 5), ScriptedDice)  # faces win over a seed
    assert isinstance(make_source(None, 5), SeededDice)
    assert isinstance(make_source([], None), ScriptedDice)  # [] is "no faces", not "random"
    assert isinstance(make_source(None, None), SystemDice)


def test_face_record() -> None:
    assert face_record(20, 17) == {"die": 20, "face": 17, "kept": True}
    assert face_record(6, 2, False) == {"die": 6, "face": 2, "kept": False}


def test_random_is_imported_only_by_the_dice_sources() -> None:
    from pathlib import Path

    package = Path(dice.__file__).parent.parent  # all of linguo_cli
    offenders = [
        p.name for p in package.rglob("*.py")
        if p.name != "dice_sources.py" and any(
            line.strip().startswith(("import random", "from random"))
            for line in p.read_text(encoding="utf-8").splitlines())
    ]
    assert offenders == []


# ---------------------------------------------------------------------------
# Notation


@pytest.mark.parametrize(
    ("text", "terms", "constant", "canonical"),
    [
        ("2d6+1", [(1, 2, 6, None)], 1, "2d6+1"),
        ("d20 - 2", [(1, 1, 20, None)], -2, "1d20-2"),
        ("4d6kh3", [(1, 4, 6, ("h", 3))], 0, "4d6kh3"),
        ("2d20kl1", [(1, 2, 20, ("l", 1))], 0, "2d20kl1"),
        ("3d8 + 1d4 + 2", [(1, 3, 8, None), (1, 1, 4, None)], 2, "3d8+1d4+2"),
        ("1d6-1d4", [(1, 1, 6, None), (-1, 1, 4, None)], 0, "1d6-1d4"),
        ("5", [], 5, "5"),
        ("2 + 3", [], 5, "5"),
        ("2D6", [(1, 2, 6, None)], 0, "2d6"),
    ],
)
def test_parse(text: str, terms: list[tuple[int, int, int, tuple[str, int] | None]],
               constant: int, canonical: str) -> None:
    expr = parse(text)
    assert [(t.sign, t.count, t.sides, t.keep) for t in expr.terms] == terms
    assert expr.constant == constant
    assert expr.text() == canonical
    assert parse(expr.text()) == expr


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("", 1),
        ("2d", 2),
        ("2d6+", 5),
        ("2d6 +", 6),
        ("0d6", 1),
        ("2d0", 1),
        ("4d6kh5", 1),
        ("4d6kh0", 1),
        ("2x6", 2),
        ("2d6 3", 5),
        ("+2d6", 1),
        ("1001d6", 1),
        ("1d1001", 1),
        ("2d6+1000001", 5),
    ],
)
def test_parse_errors_name_the_column(text: str, column: int) -> None:
    with pytest.raises(InputError) as info:
        parse(text, field="damage.dice")
    diag = info.value.diagnostics[0]
    assert "damage.dice" in (diag.place, diag.field)  # the error names where the text came from
    assert diag.message.startswith(f"column {column}:")
    assert info.value.code == 3


def test_parse_refuses_overlong_and_non_strings() -> None:
    with pytest.raises(InputError):
        parse("1+" * 200 + "1")
    with pytest.raises(InputError):
        parse(12)  # type: ignore[arg-type]


def test_parse_refuses_too_many_terms() -> None:
    with pytest.raises(InputError):
        parse("+".join(["1d4"] * (dice.MAX_TERMS + 1)))


def brute_expected(count: int, sides: int, keep: tuple[str, int] | None) -> Fraction:
    """Exact mean by enumerating every outcome (the oracle for keep terms)."""
    total = 0
    outcomes = 0
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        ordered = sorted(faces, reverse=(keep is None or keep[0] == "h"))
        kept = ordered[: keep[1]] if keep else ordered
        total += sum(kept)
        outcomes += 1
    return Fraction(total, outcomes)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1d20", Fraction(21, 2)),
        ("2d6+1", Fraction(8)),
        ("1d6-1d4", Fraction(1)),
        ("2d20kh1", Fraction(553, 40)),   # 20 - (0^2+...+19^2)/400 = 13.825
        ("2d20kl1", Fraction(287, 40)),   # 21 - 13.825 = 7.175
        ("4d6kh3", Fraction(15869, 1296)),
        ("3d6kh3", Fraction(21, 2)),
        ("7", Fraction(7)),
    ],
)
def test_expected_value(text: str, expected: Fraction) -> None:
    assert parse(text).expected_value() == expected


@pytest.mark.parametrize(
    ("count", "sides", "keep"),
    [(3, 4, ("h", 2)), (3, 6, ("l", 1)), (4, 4, ("h", 2)), (4, 3, ("l", 3)), (2, 8, ("h", 1)),
     (3, 5, None)],
)
def test_expected_value_of_keep_terms_matches_enumeration(
        count: int, sides: int, keep: tuple[str, int] | None) -> None:
    expr = DiceExpression((DiceTerm(1, count, sides, keep),))
    assert expr.expected_value() == brute_expected(count, sides, keep)


@pytest.mark.parametrize(
    ("text", "low", "high", "count"),
    [("2d6+1", 3, 13, 2), ("1d6-1d4", -3, 5, 2), ("4d6kh3", 3, 18, 4), ("5", 5, 5, 0)],
)
def test_minimum_maximum_and_count(text: str, low: int, high: int, count: int) -> None:
    expr = parse(text)
    assert (expr.minimum(), expr.maximum(), expr.dice_count()) == (low, high, count)


def test_doubled_rolls_each_term_again_as_its_own_group() -> None:
    # T5 rev. 2: each dice term a second time, same sign, right after it;
    # the constant once.
    assert parse("2d6+1").doubled().text() == "2d6+2d6+1"
    assert parse("4d6kh3-2").doubled().text() == "4d6kh3+4d6kh3-2"
    assert parse("3d6-1d4+1").doubled().text() == "3d6+3d6-1d4-1d4+1"
    assert parse("1d8+1d4+3").doubled().text() == "1d8+1d8+1d4+1d4+3"
    assert parse("3").doubled().text() == "3"


def test_doubled_keep_term_is_two_groups_not_one_bigger_pool() -> None:
    # 4d6kh3 on a critical hit, faces 6,6,6,6 then 1,1,1,1: two groups keep
    # 6+6+6 = 18 and 1+1+1 = 3, total 21 (one pool 8d6kh6 would keep 26).
    src = ScriptedDice([6, 6, 6, 6, 1, 1, 1, 1])
    result = dice.roll(parse("4d6kh3").doubled(), src)
    src.finish()
    assert result.total == 21
    assert [r["kept"] for r in result.face_records()] == [
        True, True, True, False, True, True, True, False]


def test_doubled_keep_term_doubles_the_expected_value_exactly() -> None:
    # E[4d6kh3] = 15869/1296 (classic); the critical expression is twice it.
    one = parse("4d6kh3")
    assert one.expected_value() == Fraction(15869, 1296)
    assert one.doubled().expected_value() == Fraction(15869, 648)
    assert (one.doubled().minimum(), one.doubled().maximum()) == (6, 36)
    # 3d6-1d4+1: 10.5 - 2.5 + 1 = 9; doubled 21 - 5 + 1 = 17 (dice doubled, +1 once)
    mixed = parse("3d6-1d4+1").doubled()
    assert mixed.expected_value() == 17
    assert (mixed.minimum(), mixed.maximum()) == (6 - 8 + 1, 36 - 2 + 1)


def test_doubled_dice_are_consumed_in_the_written_order() -> None:
    # 3d6+3d6-1d4-1d4+1: three d6, three d6, one d4, one d4.
    src = ScriptedDice([1, 2, 3, 4, 5, 6, 2, 3])
    result = dice.roll(parse("3d6-1d4+1").doubled(), src)
    src.finish()
    assert [r["die"] for r in result.face_records()] == [6] * 6 + [4, 4]
    assert result.total == 21 - 2 - 3 + 1


# ---------------------------------------------------------------------------
# Rolling


def test_roll_consumes_terms_left_to_right() -> None:
    src = ScriptedDice([4, 2, 7, 3])
    result = dice.roll(parse("2d6+1d8-1d4+1"), src)
    src.finish()
    assert src.used == [4, 2, 7, 3]
    assert result.total == 4 + 2 + 7 - 3 + 1
    assert result.face_records() == [
        {"die": 6, "face": 4, "kept": True},
        {"die": 6, "face": 2, "kept": True},
        {"die": 8, "face": 7, "kept": True},
        {"die": 4, "face": 3, "kept": True},
    ]


def test_roll_keep_highest_marks_the_dropped_die() -> None:
    src = ScriptedDice([3, 6, 1, 5])
    result = dice.roll(parse("4d6kh3"), src)
    assert result.total == 14
    assert [r["kept"] for r in result.face_records()] == [True, True, False, True]


def test_roll_keep_lowest() -> None:
    result = dice.roll(parse("3d6kl2"), ScriptedDice([5, 2, 4]))
    assert result.total == 6
    assert [r["kept"] for r in result.face_records()] == [False, True, True]


def test_roll_keep_ties_keep_the_earlier_face() -> None:
    result = dice.roll(parse("3d6kh2"), ScriptedDice([4, 6, 4]))
    assert [r["kept"] for r in result.face_records()] == [True, True, False]
    low = dice.roll(parse("3d6kl1"), ScriptedDice([2, 2, 5]))
    assert [r["kept"] for r in low.face_records()] == [True, False, False]


def test_roll_can_be_negative() -> None:
    assert dice.roll(parse("1d4-6"), ScriptedDice([2])).total == -4


def test_roll_of_a_doubled_expression_asks_twice_the_dice() -> None:
    src = ScriptedDice([1, 2, 3, 4])
    result = dice.roll(parse("2d6+1").doubled(), src)
    src.finish()
    assert result.total == 11
