"""The d100 skill test (PS1-PS5): unit tests at the degree borders and
properties of the degree formulas."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linguo_cli.core.errors import InputError
from linguo_cli.rulesets.ptr2e.options import CHALLENGE_RATINGS
from linguo_cli.rulesets.ptr2e.skill import cr_modifier, degrees, skill_test, target


def test_the_cr_ladder_runs_in_tens() -> None:  # PS1
    values = list(CHALLENGE_RATINGS.values())
    assert values[0] == 60 and values[-1] == -60 and CHALLENGE_RATINGS["demanding"] == 0
    assert all(a - b == 10 for a, b in zip(values, values[1:], strict=False))
    assert target(55, "challenging") == 35 and target(55, "challenging", 5) == 40


def test_an_unknown_cr_is_bad_parameter() -> None:  # PS1
    with pytest.raises(InputError) as info:
        cr_modifier("hard")
    assert info.value.refusal == "bad_parameter" and info.value.rule == "PV1"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("roll", "expected"), [
    (1, (True, 4)), (5, (True, 4)), (6, (True, 3)), (25, (True, 2)), (26, (True, 1)),
    (35, (True, 1)), (36, (False, 1)), (45, (False, 2)), (100, (False, 7))])
def test_degrees_at_dc_35(roll: int, expected: tuple[bool, int]) -> None:  # PS3 (PG-07)
    assert degrees(35, roll) == expected


def test_full_intervals_drop_the_plus_one_on_success_only() -> None:  # PS3
    assert degrees(35, 26, "full_intervals") == (True, 0)
    assert degrees(35, 45, "full_intervals") == (False, 2)


def test_no_face_is_special() -> None:  # PS2
    assert degrees(100, 100)[0] and not degrees(0, 1)[0]
    assert skill_test(130, "challenging", 0, 100).success


@given(st.integers(-200, 300), st.integers(1, 100))
def test_success_iff_roll_within_dc(dc: int, roll: int) -> None:  # PS2, PS3
    success, degree = degrees(dc, roll)
    assert success == (roll <= dc)
    assert degree >= 1
    full = degrees(dc, roll, "full_intervals")[1]
    assert full == (degree - 1 if success else degree)


@given(st.integers(-100, 200), st.integers(1, 99))
def test_a_higher_roll_is_never_better(dc: int, roll: int) -> None:  # PS3
    def score(r: int) -> int:
        ok, d = degrees(dc, r)
        return d if ok else -d
    assert score(roll + 1) <= score(roll)
