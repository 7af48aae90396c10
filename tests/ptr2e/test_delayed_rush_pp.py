"""A delayed Rush's pp_boost is paid once, when it is delayed (PA5), not
again when it resolves (PD4, RULINGS on delayed Rushes): PG-32's delayed
Rush with a boost of 2 under rush_yield per_two_dos and 5 Power Points."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from linguo_cli.core import requests
from linguo_cli.io.read import load

CASES = Path(__file__).parents[2] / "golden" / "ptr2e" / "round" / "delay.yaml"


def _request() -> dict[str, Any]:
    data = load(str(CASES)).data
    cases = data["cases"] if isinstance(data, dict) else data
    case = next(c for c in cases if c["id"] == "pg32-delayed-rush")
    request: dict[str, Any] = copy.deepcopy(case["request"])
    request["options"] = {"rush_yield": "per_two_dos"}
    request["state"]["combatants"]["charizard"]["pp"] = 5
    request["script"]["activations"][0]["steps"][0]["pp_boost"] = 2
    return request


def test_the_boost_is_paid_once() -> None:
    result = requests.resolve(_request())
    assert result["state_after"]["combatants"]["charizard"]["pp"] == 5 - 2
    # running 55 - 20 = DC 35, roll 15: DoS floor(20 / 10) + 1 = 3; per two DoS
    # with the boost's 2 added: floor((3 + 2) / 2) = 2
    assert result["rush"][0]["bonus"] == 2
