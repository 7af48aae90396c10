"""Ordering a batch (PP4, PP5, PV3, PI5): unit cases and the order's
properties over random batches."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linguo_cli.rulesets.ptr2e.options import OPTIONS
from linguo_cli.rulesets.ptr2e.priority import Entry, check_entries, current_order, order
from linguo_cli.rulesets.ptr2e.refusals import Refusal

DEFAULTS = OPTIONS.defaults()


def test_level_then_speed_then_initiative() -> None:  # PP4
    entries = [Entry(1, "a", "priority", 2, None, 80), Entry(2, "b", "priority", 2, None, 95),
               Entry(3, "c", "priority", 5, None, 70), Entry(4, "d", "priority", 2, None, 95)]
    ranks = current_order(None, ["d", "b"], None)
    out, why = order(entries, DEFAULTS, ranks)
    assert [e.actor for e in out] == ["c", "d", "b", "a"]
    assert why == ["higher level", "earlier in initiative order", "higher Speed"]
    slower, _ = order(entries, {**DEFAULTS, "speed_order": "slower_first"}, ranks)
    assert [e.actor for e in slower] == ["c", "a", "d", "b"]


def test_current_order_groups() -> None:  # PV3
    ranks = current_order("x", ["y", "x"], ["z", "y"])
    assert ranks == {"x": (0, 0), "y": (1, 0), "z": (2, 0)}


def test_unplaced_creatures_tie_unresolved() -> None:  # PV3
    entries = [Entry(1, "a", "priority", 2, None, 90), Entry(2, "b", "priority", 2, None, 90)]
    with pytest.raises(Refusal) as info:
        order(entries, DEFAULTS, current_order(None, [], ["b"]))
    assert info.value.refusal == "tie_unresolved"
    out, _ = order(entries, DEFAULTS, current_order(None, ["a"], None))
    assert [e.actor for e in out] == ["a", "b"]


def test_one_skip_at_a_time() -> None:  # PP5
    twice = [Entry(1, "a", "priority", 2, None, 90), Entry(2, "a", "priority", 2, None, 90)]
    with pytest.raises(Refusal) as info:
        check_entries(twice, DEFAULTS, {})
    assert (info.value.refusal, info.value.place) == ("duplicate_in_batch", "entry 2 (a)")
    check_entries(twice, {**DEFAULTS, "skips": "stack"}, {})
    fire = [Entry(1, "a", "fire", 1, None, 90), Entry(2, "a", "priority", 2, None, 90)]
    check_entries(fire, DEFAULTS, {})  # a fire is no declaration
    with pytest.raises(Refusal):
        check_entries(fire, DEFAULTS, {"a": 1})


entry_lists = st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from(
    ["priority", "interrupt", "fire"]), st.integers(1, 7), st.integers(50, 52)), min_size=1,
    max_size=8)


@given(entry_lists, st.sampled_from(["merged", "interrupts_first"]))
def test_the_order_is_a_permutation_by_level(raw: list[tuple[str, str, int, int]],
                                             batch_order: str) -> None:
    speeds = {"a": 50, "b": 51, "c": 52, "d": 50}
    entries = [Entry(i, actor, kind, 1 if kind == "fire" else level, None, speeds[actor])
               for i, (actor, kind, level, _) in enumerate(raw, 1)]
    options = {**DEFAULTS, "batch_order": batch_order}
    out, why = order(entries, options, current_order(None, [], list("abcd")))
    assert sorted(e.index for e in out) == list(range(1, len(entries) + 1))
    assert len(why) == len(out) - 1
    groups = [out] if batch_order == "merged" else [
        [e for e in out if e.interrupting], [e for e in out if not e.interrupting]]
    for g in groups:
        assert [e.level for e in g] == sorted((e.level for e in g), reverse=True)
        for x, y in zip(g, g[1:], strict=False):
            if x.actor == y.actor and x.level == y.level:
                assert x.index < y.index  # one creature's ties keep script order
