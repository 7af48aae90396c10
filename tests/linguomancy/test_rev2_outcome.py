"""Rulings revision 2, finding 1 (D1, S1): every "succeeded" reads the degree.

The outcome of a d20 test is its degree after the D5 shift: success or
critical success succeeds, every other degree fails; ``success``, ``hit`` and
a save's outcome agree, and so do the odds. Only ``hit`` departs, under A1's
alternative ``partial-success-hits`` (true at partial success).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from linguo_cli.rulesets.linguomancy.requests import resolve_plain as resolve

from ..conftest import run_cli


def cli_json(*args: str) -> dict[str, Any]:
    run = run_cli(*args, "--json")
    assert run.exit_code == 0, run.stderr
    result: dict[str, Any] = run.json()
    return result


def test_attack_nat20_at_margin_minus_1_hits_and_succeeds() -> None:
    # 20 + 0 = 20 vs AC 21: margin -1, partial success, lifted to success.
    r = cli_json("attack", "--ac", "21", "--rolls", "20")
    assert (r["margin"], r["degree"]) == (-1, "success")
    assert (r["success"], r["hit"]) == (True, True)


def test_attack_nat1_at_margin_0_neither_hits_nor_succeeds() -> None:
    # 1 + 14 = 15 vs AC 15: margin 0, success, dropped to partial success.
    r = cli_json("attack", "--mod", "14", "--ac", "15", "--rolls", "1")
    assert (r["margin"], r["degree"]) == (0, "partial_success")
    assert (r["success"], r["hit"]) == (False, False)


def test_partial_success_hits_changes_hit_only() -> None:
    r = cli_json("attack", "--mod", "14", "--ac", "15", "--rolls", "1",
                 "--ruling", "partial-success-hits")
    assert r["degree"] == "partial_success"
    assert (r["success"], r["hit"]) == (False, True)


@pytest.mark.parametrize("kind,target", [("check", "--dc"), ("save", "--dc")])
def test_check_and_save_read_the_degree(kind: str, target: str) -> None:
    # natural 20 with +0 against 21: margin -1 -> success: succeeds.
    up = cli_json(kind, target, "21", "--rolls", "20")
    assert (up["margin"], up["degree"], up["success"]) == (-1, "success", True)
    # natural 1 with +9 against 10: margin 0 -> partial success: fails.
    down = cli_json(kind, target, "10", "--mod", "9", "--rolls", "1")
    assert (down["margin"], down["degree"], down["success"]) == (0, "partial_success", False)


def test_odds_attack_ac21_success_equals_hit() -> None:
    # With +0 only a natural 20 (margin -1, lifted to success) succeeds: 1/20.
    r = cli_json("odds", "attack", "--ac", "21")
    assert r["success"]["probability"] == "1/20"
    assert r["hit"]["probability"] == "1/20"


def test_odds_success_excludes_nat1_at_margin_0() -> None:
    # +14 against AC 15: naturals 1..20; natural 1 (margin 0) drops to partial
    # success, so P(success) = P(hit) = 19/20 (was 1 under total >= AC).
    r = cli_json("odds", "attack", "--ac", "15", "--mod", "14")
    assert r["success"]["probability"] == r["hit"]["probability"] == "19/20"
    check = cli_json("odds", "check", "--dc", "15", "--mod", "14")
    assert check["success"]["probability"] == "19/20"


def test_odds_request_agrees_with_every_resolved_face() -> None:
    # The odds' success is the share of faces whose resolved result succeeds.
    for mod in range(-2, 16):
        base = {"kind": "save", "dc": 15, "modifiers": [{"label": "m", "value": mod}]}
        odds = resolve({"kind": "odds", "test": base})
        want = sum(Fraction(int(resolve({**base, "rolls": [f]})["success"]), 20)
                   for f in range(1, 21))
        assert Fraction(odds["success"]["probability"]) == want, mod


def test_text_views_say_the_degree_outcome() -> None:
    run = run_cli("check", "--dc", "10", "--mod", "9", "--rolls", "1")
    assert run.exit_code == 0 and "FAILS" in run.stdout
    run = run_cli("save", "--dc", "21", "--rolls", "20")
    assert run.exit_code == 0 and "SUCCEEDS" in run.stdout
    run = run_cli("odds", "attack", "--ac", "21")
    assert "Total >=" not in run.stdout and "5.00% (1/20)" in run.stdout


def test_save_idiom_w_saves_s_does_not() -> None:
    # Burst - Frost (cost 4) by Potential +3: save DC 10 + 4 + 3 = 17.
    # W (Signature -4) natural 20: 16, margin -1 -> success: saves, half.
    # S (Signature +16) natural 1: 17, margin 0 -> partial success: full.
    # 4d6 [3, 4, 5, 2] = 14 + 3 x 2 = 20: W 30 - 10 = 20, S 30 - 20 = 10.
    ents = [
        {"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20, "flux": 10,
         "abilities": {"potential": 3}, "idioms": ["Burst - Frost"]},
        {"id": "w", "kind": "enemy", "hp": 30, "max_hp": 30, "abilities": {"signature": -4}},
        {"id": "s", "kind": "enemy", "hp": 30, "max_hp": 30, "abilities": {"signature": 16}},
    ]
    request = {"kind": "cast", "caster": "ayla", "idiom": "Burst - Frost",
               "targets": ["w", "s"], "state": {"entities": ents},
               "rolls": [20, 1, 3, 4, 5, 2]}
    r = resolve(request)
    assert [(t["entity"], t["success"]) for t in r["tests"]] == [("w", True), ("s", False)]
    assert r["entities"]["w"]["after"]["hp"] == 20
    assert r["entities"]["s"]["after"]["hp"] == 10
    text = run_cli("resolve", "-", input=json.dumps(request))
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    assert any("save on w" in line and "SAVES" in line for line in lines)
    assert any("save on s" in line and "FAILS" in line for line in lines)
