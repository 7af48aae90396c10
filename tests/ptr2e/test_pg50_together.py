"""PG-50's last item (PV4): a bad index, an unknown trigger delay id and an
options combination the rules cannot run, in one round request, are
reported together (exit 3), each with its place; the options error alone
is still refused by itself (code bad_option, rule PP6)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.errors import InputError
from linguo_cli.io.read import load

CASES = Path(__file__).parents[2] / "golden" / "ptr2e" / "round" / "whole.yaml"


def _base() -> dict[str, Any]:
    data = load(str(CASES)).data
    cases = data["cases"] if isinstance(data, dict) else data
    case = next(c for c in cases if c["id"] == "pg50-bad-index")
    request: dict[str, Any] = copy.deepcopy(case["request"])
    request["script"] = {"activations": []}
    return request


def test_three_errors_are_reported_together() -> None:
    request = _base()
    request["options"] = {"priority_effect": "advance"}
    request["script"]["activations"] = [
        {"index": 3, "steps": [{"act": "growl"}]},
        {"index": 1, "steps": [{"act": "growl", "interrupts": [{"fire": "d7"}]}]}]
    with pytest.raises(InputError) as info:
        requests.resolve(request)
    messages = [d.message for d in info.value.diagnostics]
    assert info.value.code == 3 and len(messages) == 3, messages
    assert messages[0].startswith("#3: bad_index")
    assert messages[1].startswith("#1 step 1 interrupt 1 (fire d7): unknown_id")
    assert messages[2].startswith("options.priority_effect: bad_option: priority_effect")


def test_the_options_error_alone_keeps_its_rule() -> None:
    request = _base()
    request["options"] = {"priority_effect": "advance"}
    request["script"]["activations"] = [{"index": 1, "steps": [{"act": "growl"}]}]
    with pytest.raises(InputError) as info:
        requests.resolve(request)
    error = info.value
    assert (error.code, error.refusal, error.rule) == (3, "bad_option", "PP6")
    assert [d.field for d in error.diagnostics] == ["options.priority_effect"]


def test_a_catalog_above_priority_max_is_refused_before_play() -> None:
    """PE-08: with priority_max 5, a's dash [Priority 7] and blink
    [Priority 6] are each level_out_of_range at their catalog entry, before
    any Activation is played (no die rolled, nothing declared)."""
    request = _base()
    request["options"] = {"priority_max": 5}
    request["state"]["combatants"]["a"]["actions"].update(
        {"dash": {"cost": "simple", "priority": 7}, "blink": {"cost": "simple", "priority": 6}})
    request["script"]["activations"] = [{"index": 1, "steps": [{"act": "growl"}]}]
    with pytest.raises(InputError) as info:
        requests.resolve(request)
    error = info.value
    assert (error.code, error.refusal, error.rule) == (3, "level_out_of_range", "PP1")
    assert [d.message.split(":")[0] for d in error.diagnostics] == [
        "state combatants.a.actions.dash", "state combatants.a.actions.blink"]
