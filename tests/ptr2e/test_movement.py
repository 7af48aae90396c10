"""The movement ledger (PM1-PM5, PR3): the seed's Charizard example, the
three models, and invariants under random moves and Rushes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linguo_cli.core.errors import InputError
from linguo_cli.rulesets.ptr2e.movement import MODELS, Ledger
from linguo_cli.rulesets.ptr2e.refusals import Refusal

CHARIZARD = {"overland": 10, "fly": 15}


def test_the_seed_example() -> None:  # PM3, PM4 (l. 22)
    led = Ledger.fresh(CHARIZARD)
    assert led.move("overland", 3) == ["overland", "fly"]
    assert led.allowances() == {"overland": 7, "fly": 12}
    assert led.move("fly", 4) == ["fly"]
    assert led.allowances() == {"overland": 7, "fly": 8}


@pytest.mark.parametrize(("model", "after"), [
    ("pool", {"overland": 3, "fly": 3}), ("cascade", {"overland": 10, "fly": 3}),
    ("per_metre", {"overland": 3, "fly": 3})])
def test_the_models_after_flying_12(model: str, after: dict[str, int]) -> None:  # PM4
    led = Ledger.fresh(CHARIZARD, model)
    led.move("fly", 12)
    assert led.allowances() == after


def test_a_refused_move_changes_nothing() -> None:  # PM4
    led = Ledger.fresh(CHARIZARD)
    led.move("overland", 3)
    with pytest.raises(Refusal) as info:
        led.move("overland", 8)
    assert info.value.refusal == "move_exceeds_allowance" and info.value.rule == "PM4"
    assert info.value.details == {"needed": 8, "left": 7}
    assert led.allowances() == {"overland": 7, "fly": 12} and led.moved == 3


def test_unknown_type_and_bad_distance_are_input_errors() -> None:  # PM1
    led = Ledger.fresh({"overland": 5})
    for kind, metres, code in (("fly", 1, "unknown_movement_type"),
                               ("overland", 0, "bad_distance")):
        with pytest.raises(InputError) as info:
            led.move(kind, metres)
        assert info.value.code == 3 and info.value.refusal == code  # type: ignore[attr-defined]


def test_a_rush_that_makes_a_type_the_highest_raises_the_round_maximum() -> None:  # PR3
    led = Ledger.fresh(CHARIZARD)
    led.add_rush("overland", 6)
    assert led.highest() == 16 and led.allowances() == {"overland": 16, "fly": 15}


scores = st.dictionaries(st.sampled_from(["overland", "fly", "swim", "burrow"]),
                         st.integers(0, 20), min_size=1)
actions = st.lists(st.tuples(st.booleans(), st.integers(0, 3), st.integers(1, 12)), max_size=12)


def _play(led: Ledger, plan: list[tuple[bool, int, int]]) -> None:
    kinds = list(led.scores)
    for is_rush, which, amount in plan:
        kind = kinds[which % len(kinds)]
        if is_rush:
            led.add_rush(kind, amount % 4)
        elif amount <= led.allowance(kind):
            led.move(kind, amount)


@given(scores, actions, st.sampled_from(MODELS))
def test_allowances_are_never_negative(s: dict[str, int], plan: list[tuple[bool, int, int]],
                                       model: str) -> None:  # PM4
    led = Ledger.fresh(s, model)
    _play(led, plan)
    assert all(a >= 0 for a in led.allowances().values())


@given(scores, actions)
def test_pool_never_moves_past_the_highest_score(s: dict[str, int],
                                                 plan: list[tuple[bool, int, int]]) -> None:
    led = Ledger.fresh(s)  # PM4: the round maximum
    _play(led, plan)
    assert led.moved <= led.highest()
    assert all(a <= led.highest() - led.moved for a in led.allowances().values())


@given(scores, actions)
def test_pool_allows_no_more_than_the_literal_cascade(s: dict[str, int],
                                                      plan: list[tuple[bool, int, int]]) -> None:
    pool, cascade = Ledger.fresh(s, "pool"), Ledger.fresh(s, "cascade")
    _play(pool, plan)
    cascade.rush, cascade.spent, cascade.moved = dict(pool.rush), dict(pool.spent), pool.moved
    for kind in s:
        assert pool.allowance(kind) <= cascade.allowance(kind)


@given(scores, st.integers(0, 3), st.integers(1, 30), st.sampled_from(MODELS))
def test_a_move_is_legal_iff_within_the_allowance(s: dict[str, int], which: int, metres: int,
                                                  model: str) -> None:
    led = Ledger.fresh(s, model)
    kind = list(s)[which % len(s)]
    allowed = led.allowance(kind)
    if metres <= allowed:
        led.move(kind, metres)
        assert led.allowance(kind) == allowed - metres
    else:
        with pytest.raises(Refusal):
            led.move(kind, metres)


@given(scores, actions)
def test_without_rush_allowances_only_shrink(s: dict[str, int],
                                             plan: list[tuple[bool, int, int]]) -> None:
    led = Ledger.fresh(s)
    before = led.allowances()
    _play(led, [(False, w, a) for _, w, a in plan])
    assert all(led.allowance(k) <= before[k] for k in s)
