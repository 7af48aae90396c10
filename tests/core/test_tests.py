"""Unit tests of :mod:`linguo_cli.core.tests`: comparators, degree ladders as
data, natural shifts and kept-face weights (ruleset-neutral)."""

from __future__ import annotations

from enum import IntEnum

import pytest

from linguo_cli.core.tests import Comparator, Ladder, TestSpec, kept_face_weights


class Grade(IntEnum):
    FAIL = 0
    PASS = 1
    GREAT = 2


LADDER = Ladder(order=tuple(Grade), rows=((5, Grade.GREAT), (0, Grade.PASS)),
                bottom=Grade.FAIL, natural_shifts={20: +1, 1: -1})


@pytest.mark.parametrize(("comparator", "total", "target", "margin"), [
    (Comparator.AT_LEAST, 12, 12, 0), (Comparator.AT_LEAST, 11, 12, -1),
    (Comparator.ABOVE, 12, 12, -1), (Comparator.ABOVE, 13, 12, 0),
    (Comparator.ROLL_UNDER, 40, 45, 5), (Comparator.ROLL_UNDER, 46, 45, -1),
])
def test_margin_is_non_negative_exactly_when_met(comparator: Comparator, total: int,
                                                 target: int, margin: int) -> None:
    assert comparator.margin(total, target) == margin


def test_ladder_rows_bottom_and_clamped_shifts() -> None:
    assert [LADDER.for_margin(m) for m in (-1, 0, 4, 5, 99)] == [
        Grade.FAIL, Grade.PASS, Grade.PASS, Grade.GREAT, Grade.GREAT]
    assert LADDER.shifted(Grade.GREAT, +1) is Grade.GREAT
    assert LADDER.shifted(Grade.FAIL, -1) is Grade.FAIL
    assert LADDER.shifted(Grade.PASS, -1) is Grade.FAIL
    assert LADDER.shift_of(20) == 1 and LADDER.shift_of(7) == 0


def test_outcome_applies_margin_then_shift() -> None:
    spec = TestSpec(20, Comparator.AT_LEAST, LADDER)
    out = spec.outcome(20, 0, 21)  # margin -1: FAIL, natural 20 lifts it
    assert (out.total, out.margin, out.unadjusted, out.degree, out.shift) == (
        20, -1, Grade.FAIL, Grade.PASS, 1)
    under = TestSpec(100, Comparator.ROLL_UNDER, Ladder((Grade.FAIL, Grade.PASS),
                                                        ((0, Grade.PASS),), Grade.FAIL))
    assert under.outcome(30, 0, 45).degree is Grade.PASS
    assert under.outcome(46, 0, 45).degree is Grade.FAIL


@pytest.mark.parametrize("keep", [None, "high", "low"])
def test_kept_face_weights_count_every_way(keep: str | None) -> None:
    weights, total = kept_face_weights(6, keep)
    assert sum(weights) == total
    if keep is not None:  # brute force over both dice
        pick = max if keep == "high" else min
        ways = [0] * 6
        for a in range(1, 7):
            for b in range(1, 7):
                ways[pick(a, b) - 1] += 1
        assert list(weights) == ways
    with pytest.raises(ValueError, match="keep"):
        kept_face_weights(6, "middle")


def test_degree_weights_cover_the_whole_ladder() -> None:
    spec = TestSpec(20, Comparator.AT_LEAST, LADDER)
    weights, total = kept_face_weights(20)
    got = spec.degree_weights(0, 11, weights)
    assert list(got) == list(Grade) and sum(got.values()) == total
    # naturals 11-15 PASS, 16-19 GREAT, 20 GREAT (already best); 2-10 FAIL; 1 FAIL
    assert got == {Grade.FAIL: 10, Grade.PASS: 5, Grade.GREAT: 5}
