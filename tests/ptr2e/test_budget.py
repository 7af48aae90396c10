"""An Activation's budget (PA2, PA3, PA5, PA6, PD1, PD7, PI5): every sequence
of action costs up to length 5 against the rule's formula."""

from __future__ import annotations

import itertools

import pytest

from linguo_cli.rulesets.ptr2e.budget import Step, play
from linguo_cli.rulesets.ptr2e.options import OPTIONS
from linguo_cli.rulesets.ptr2e.refusals import Refusal

DEFAULTS = OPTIONS.defaults()


def _expected_refusal(costs: tuple[str, ...]) -> tuple[int, str] | None:
    """The first step breaking PA2 and its code, written from the rule's table."""
    s = c = 0
    for i, cost in enumerate(costs, 1):
        if cost == "complex":
            if s:
                return i, "budget_mixed"
            if c:
                return i, "budget_complex"
            c += 1
        elif cost == "simple":
            if c:
                return i, "budget_mixed"
            if s == 2:
                return i, "budget_simple"
            s += 1
    return None


@pytest.mark.parametrize("length", range(6))
def test_every_sequence_follows_pa2(length: int) -> None:
    for costs in itertools.product(("simple", "complex", "free", "move"), repeat=length):
        expected = _expected_refusal(costs)
        s, c = costs.count("simple"), costs.count("complex")
        assert (expected is None) == ((c == 0 and s <= 2) or (c == 1 and s == 0))
        steps = [Step(cost) for cost in costs]
        if expected is None:
            used = play(steps, DEFAULTS)
            assert (used.simple, used.complex) == (s, c)
            assert used.free + used.moves == length - s - c
        else:
            with pytest.raises(Refusal) as info:
                play(steps, DEFAULTS)
            assert (info.value.place, info.value.refusal, info.value.rule) == (
                f"step {expected[0]}", expected[1], "PA2")


def test_power_points_are_spent_per_use() -> None:  # PA5
    used = play([Step("free", "shout", pp=1)] * 2, DEFAULTS, pp=2)
    assert used.pp == 0
    with pytest.raises(Refusal) as info:
        play([Step("free", "shout", pp=1)] * 3, DEFAULTS, pp=2)
    assert info.value.refusal == "pp_insufficient" and info.value.place == "step 3"
    assert play([Step("free", pp=4)], DEFAULTS).warnings  # untracked: a warning only


def test_owed_cost_counts_as_simple_actions() -> None:  # PI5
    options = {**DEFAULTS, "interrupt_effect": "cost"}
    assert play([Step("simple")], options, owed_cost=1).simple == 2
    with pytest.raises(Refusal):
        play([Step("complex")], options, owed_cost=1)


def test_delays() -> None:  # PD1, PD7, PA6
    assert play([Step("complex", delay=True)], {**DEFAULTS, "delay_cost": "none"}).complex == 0
    for step, options, code in [
            (Step("free", delay=True), DEFAULTS, "not_delayable"),
            (Step("simple", delay=True), {**DEFAULTS, "delayable": "complex"}, "not_delayable"),
            (Step("simple", interrupt=4), DEFAULTS, "interrupt_only"),
            (Step("simple", interrupt=4, delay=True), DEFAULTS, "interrupt_only")]:
        with pytest.raises(Refusal) as info:
            play([step], options)
        assert info.value.refusal == code
    allowed = {**DEFAULTS, "delay_interrupt_actions": "allowed"}
    assert play([Step("simple", interrupt=4, delay=True)], allowed).simple == 1
