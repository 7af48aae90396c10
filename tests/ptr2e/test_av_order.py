"""The current initiative order under ``scheduler: av`` (PV3: ascending
current AV, ties as in PV7) and the timeline followed while a round plays:
the ranks, their ties, and ``linguo ptr2e initiative`` agreeing with the
rounds that the ``round`` request plays."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from linguo_cli.conformance import golden
from linguo_cli.core import requests
from linguo_cli.rulesets.ptr2e import av
from linguo_cli.rulesets.ptr2e import priority as prio

from ..conftest import ROOT, run_cli

AV_CASES = [c for c in golden.load_suite(ROOT / "golden" / "ptr2e").cases
            if c.id.startswith("av-pv3-")]
OPTS = {"av_tiebreak": "base_av", "round_av": 150}


def _state(initiative: list[str] | None = None) -> dict[str, Any]:
    """a and b tie at AV 40 with different Base AVs; c and d tie at AV 90
    with the same Base AV and Speed; e stands alone at 10."""
    spec = {"speed": 90, "movement": {"overland": 10}, "actions": {}}
    combatants = {"a": {**spec, "base_av": 60, "av": 40}, "b": {**spec, "base_av": 50, "av": 40},
                  "c": {**spec, "base_av": 80, "av": 90}, "d": {**spec, "base_av": 80, "av": 90},
                  "e": {**spec, "base_av": 70, "av": 10}}
    state: dict[str, Any] = {"round": 1, "combatants": combatants}
    if initiative is not None:
        state["initiative"] = initiative
    return state


def test_ranks_follow_the_current_av_then_the_pv7_ties() -> None:
    state = _state(["d", "c"])
    ranks = av.ranks(av.Timeline.of(state, 150), state, OPTS)
    order = sorted(ranks, key=lambda n: ranks[n])
    # e (10) first; a and b tie at 40, b's lower Base AV first; c and d tie on
    # everything, the initiative list [d, c] puts d first
    assert order == ["e", "b", "a", "d", "c"]
    assert prio.earlier(ranks["b"], ranks["a"]) is True
    assert prio.earlier(ranks["d"], ranks["c"]) is True
    assert prio.earlier(ranks["c"], ranks["e"]) is False


def test_a_tie_the_list_cannot_break_has_no_order() -> None:
    state = _state(["d", "a"])  # c missing from the list
    ranks = av.ranks(av.Timeline.of(state, 150), state, OPTS)
    assert prio.earlier(ranks["c"], ranks["d"]) is None
    assert prio.earlier(ranks["d"], ranks["c"]) is None
    # c is still ordered against creatures at other AVs
    assert prio.earlier(ranks["a"], ranks["c"]) is True


def test_the_speed_tiebreak_orders_by_speed() -> None:
    state = _state()
    state["combatants"]["a"]["speed"] = 120
    ranks = av.ranks(av.Timeline.of(state, 150), state, {**OPTS, "av_tiebreak": "speed"})
    assert prio.earlier(ranks["a"], ranks["b"]) is True
    ranks = av.ranks(av.Timeline.of(state, 150), state, OPTS)
    assert prio.earlier(ranks["a"], ranks["b"]) is False


def test_arrive_then_settle_is_one_step_of_the_timeline() -> None:
    state = _state(["a", "b", "c", "d", "e"])
    tl = av.Timeline.of(state, 150)
    assert av.arrive(tl, state, OPTS, "stream 1") == "e"
    assert tl.av["e"] == 0 and tl.av["a"] == 30 and tl.marker == 140
    av.settle(tl, "e", OPTS)
    assert tl.av["e"] == Fraction(70)
    whole = av.Timeline.of(state, 150)
    assert av.come_next(whole, state, OPTS, "stream 1") == "e"
    assert (whole.av, whole.marker) == (tl.av, tl.marker)


def test_the_suite_holds_the_av_order_cases() -> None:
    # four of them would be refused or reordered by the stream's index
    # order; the last two pin the final tie-breaks
    assert len(AV_CASES) == 6
    assert {c.id for c in AV_CASES if c.expect is not None} >= {
        "av-pv3-batch-by-current-av", "av-pv3-free-tie-base-av", "av-pv3-free-tie-speed"}


def test_initiative_command_agrees_with_the_round(tmp_path: Path) -> None:
    for case in AV_CASES:
        if case.expect is None:
            continue
        request = copy.deepcopy(case.request)
        result = requests.resolve(copy.deepcopy(request))
        path = tmp_path / f"{case.id}.json"
        path.write_text(json.dumps(request["state"]), encoding="utf-8")
        args = ["ptr2e", "initiative", str(path), "--rounds", str(len(request["rounds"])),
                "--json"]
        for name, value in request.get("options", {}).items():
            args += ["--option", f"{name}={value}"]
        run = run_cli(*args)
        assert run.exit_code == 0, run.stderr
        shown = run.json()
        assert [r["stream"] for r in shown["rounds"]] == [r["stream"] for r in result["rounds"]]
        after = result["state_after"]
        assert shown["av"] == {n: c["av"] for n, c in after["combatants"].items()}
        assert shown["round_marker_av"] == after["round_marker_av"]
