"""The benchmarks' verdict logic (benchmarks/budgets.py, issue16.judged) and
house rules, without timing anything: a rate ratio at or above its budget is
PASS, a cost ratio above its budget is MISS, stretch goals only annotate."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"


@pytest.fixture()
def bench(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The benchmark modules (benchmarks/ is a folder of scripts, not a package)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import budgets
    import issue16

    return argparse.Namespace(budgets=budgets, issue16=issue16)


def test_rate_budget_passes_at_and_above_the_limit(bench: Any) -> None:
    b = bench.budgets
    rate = b.at_least(1.2)
    assert b.verdict(rate, 1.2) == "PASS"
    assert b.verdict(rate, 1.5) == "PASS"
    assert b.verdict(rate, 1.19) == "MISS"
    assert b.verdict(rate, 0.4) == "MISS"


def test_cost_budget_misses_above_the_limit(bench: Any) -> None:
    b = bench.budgets
    cost = b.at_most(0.8)
    assert b.verdict(cost, 0.81) == "MISS"
    assert b.verdict(cost, 2.0) == "MISS"
    assert b.verdict(cost, 0.8) == "PASS"
    assert b.verdict(cost, 0.3) == "PASS"


def test_no_figure_is_never_a_pass(bench: Any) -> None:
    b = bench.budgets
    assert b.verdict(b.at_least(1.2), math.nan) == "MISS"
    assert b.verdict(b.at_most(0.8), math.nan) == "MISS"
    assert math.isnan(b.ratio(0, 0))
    assert b.ratio(3, 0) == math.inf
    with pytest.raises(ValueError):
        b.ratio(-1, 2)


def test_ratio_is_this_over_peer(bench: Any) -> None:
    assert bench.budgets.ratio(57_000, 150_000) == pytest.approx(0.38)
    assert bench.budgets.ratio(0.3, 0.1) == pytest.approx(3.0)


def test_stretch_note_and_budget_text(bench: Any) -> None:
    b = bench.budgets
    assert b.stretch_note(b.at_least(1.5), 1.5) == "stretch met"
    assert b.stretch_note(b.at_least(1.5), 1.3) == "stretch missed"
    assert b.stretch_note(None, 9.0) == ""
    assert b.budget_text(b.at_least(1.2), b.at_least(1.5)) == ">= 1.2x (stretch 1.5x)"
    assert b.budget_text(b.at_most(0.8), b.at_most(0.6)) == "<= 0.8x (stretch 0.6x)"
    assert (b.budget_text(b.at_least(3), b.at_least(10_000, "/s"))
            == ">= 3x (stretch >= 10,000/s)")
    assert b.budget_text(b.at_most(100, " MiB"), None) == "<= 100 MiB"


def test_judged_rate_row(bench: Any) -> None:
    b, i16 = bench.budgets, bench.issue16
    row = i16.judged("checks", "checks vs d20", 240_000.0, 200_000.0, b.at_least(1.2),
                     stretch=b.at_least(1.5), show=i16.fmt_rate, peer_name="d20")
    assert (row.mark, row.stretch) == ("PASS", "stretch missed")
    assert row.value == pytest.approx(1.2)
    assert row.measured == "240,000/s vs 200,000/s = 1.20x"
    assert row.budget == ">= 1.2x (stretch 1.5x)"
    assert row.detail is not None and row.detail["peer"] == 200_000.0
    slow = i16.judged("checks", "checks vs d20", 57_000.0, 150_000.0, b.at_least(1.2),
                      show=i16.fmt_rate, peer_name="d20")
    assert slow.mark == "MISS"


def test_judged_cost_row_and_absolute_stretch(bench: Any) -> None:
    b, i16 = bench.budgets, bench.issue16
    over = i16.judged("verify", "verify", 0.5, 1.0, b.at_most(0.35), show=i16.fmt_cpu,
                      peer_name="previous main")
    assert over.mark == "MISS" and over.value == pytest.approx(0.5)
    under = i16.judged("verify", "verify", 0.3, 1.0, b.at_most(0.35), show=i16.fmt_cpu,
                       peer_name="previous main")
    assert under.mark == "PASS" and under.stretch == ""
    # turns: the ratio passes, the stretch goal is judged on the absolute rate
    turns = i16.judged("turns", "turns", 9_000.0, 3_000.0, b.at_least(3),
                       stretch=b.at_least(10_000, "/s"), stretch_value=9_000.0,
                       show=i16.fmt_rate, peer_name="previous main")
    assert (turns.mark, turns.stretch) == ("PASS", "stretch missed")


def test_alternate_reverses_the_order_every_other_round(bench: Any) -> None:
    import harness

    calls: list[str] = []

    def measure(name: str) -> Any:
        return lambda: calls.append(name) or float(len(calls))

    got = harness.alternate({"this": measure("this"), "peer": measure("peer")}, 3)
    assert calls == ["this", "peer", "peer", "this", "this", "peer"]
    assert got == {"this": [1.0, 4.0, 5.0], "peer": [2.0, 3.0, 6.0]}


BENCH_MODULES = sorted(BENCHMARKS.glob("*.py"))


@pytest.mark.parametrize("path", BENCH_MODULES, ids=[p.name for p in BENCH_MODULES])
def test_benchmark_module_is_at_most_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= 600, f"benchmarks/{path.name} has {lines} lines (at most 600)"
