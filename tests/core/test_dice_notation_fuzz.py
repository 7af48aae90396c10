"""Fuzzing the dice notation (issue 17): any text is parsed or refused with
exit 3 and a column; what parses rolls within its bounds, replays exactly,
and its exact odds are computed or refused by a named bound, quickly."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.core import distribution as dice_exact
from linguo_cli.core.dice import ScriptedDice, SeededDice, parse, roll
from linguo_cli.core.errors import InputError

from ..fuzzing import dice_notations

TIME_BUDGET = 2.0  # seconds of work per expression, far above what the bounds allow


@settings(max_examples=150)
@given(st.one_of(dice_notations(), st.text(max_size=60)), st.integers(0, 2**32))
def test_any_notation_is_parsed_or_refused_quickly(text: str, seed: int) -> None:
    start = time.process_time()
    try:
        expr = parse(text, field="expression")
    except InputError as exc:
        assert exc.code == 3
        assert exc.diagnostics[0].message.startswith("column ")
        return
    assert parse(expr.text()) == expr  # the canonical text reads back the same
    src = SeededDice(seed)
    result = roll(expr, src)
    assert expr.minimum() <= result.total <= expr.maximum()
    if expr.tree is None:  # flat: the total is the sum of what the kept faces count as
        counted = 0
        for r in result.rolls:
            counted += r.term.sign * sum(int(str(f.get("counts_as", f["face"])))
                                         for f in r.records if f["kept"])
        assert counted + expr.constant == result.total
    again = ScriptedDice(list(src.used))
    assert roll(expr, again).total == result.total
    again.finish()
    try:
        ev = expr.expected_value()
        assert expr.minimum() <= ev or any(t.explode for t in expr.terms)
        dist = dice_exact.distribution(expr)
        assert sum(dist.values()) == 1
    except InputError as exc:
        assert "MAX_WORK" in exc.message or "too large" in exc.message
    assert time.process_time() - start < TIME_BUDGET, text
