"""Odds a mutation run could change unnoticed (issue 13): the explanation
of ``odds`` results (D1-D5, A1-A3, S1, T3-T5, R1-R3), under rulings
revision 2 (``RULINGS.md``). Each expected value is worked by hand in the
test's comment.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.dice import parse
from linguo_cli.core.errors import InputError
from linguo_cli.io.document import Document
from linguo_cli.rulesets.linguomancy.odds import Chance, OddsResult, damage_odds, odds_for_test
from linguo_cli.rulesets.linguomancy.requests import build_test
from linguo_cli.rulesets.linguomancy.state import SCHEMAS
from linguo_cli.rulesets.linguomancy.ticks import get_tick


def odds(test: dict[str, Any], damage: dict[str, Any] | None = None) -> dict[str, Any]:
    """Validate and resolve an ``odds`` request, as ``linguo resolve`` does."""
    req: dict[str, Any] = {"kind": "odds", "test": test}
    if damage is not None:
        req["damage"] = damage
    SCHEMAS.validate(Document("request", req), "request")
    return requests.resolve(req)


def lines(result: dict[str, Any], rule: str) -> list[str]:
    return [s["text"] for s in result["explanation"] if s["rule"] == rule]


@pytest.mark.parametrize(("dc", "mod", "reach"), [
    (11, 10, "every natural reaches it"),           # needs 11 - 10 = 1
    (10, 10, "every natural reaches it"),           # needs 0
    (12, 10, "a natural of 2 or more reaches it"),  # needs 2
    (20, 0, "a natural of 20 or more reaches it"),  # needs 20
    (21, 0, "no natural reaches it"),               # needs 21
])
def test_which_naturals_reach_the_target(dc: int, mod: int, reach: str) -> None:
    r = odds({"kind": "check", "dc": dc, "modifiers": [{"label": "m", "value": mod}]})
    assert lines(r, "D1")[0] == f"modifiers {mod:+d} against DC {dc}: {reach}"
    assert lines(r, "D4") == [f"each natural's margin is natural {mod - dc:+d}, read on the "
                              "degree ladder"]


@pytest.mark.parametrize(("adv", "dis", "dice", "d2"), [
    (True, False, "2d20kh1", ["advantage: two d20, the higher kept; 400 equally likely face "
                              "pairs, P(natural = k) = (2k - 1)/400"]),
    (False, True, "2d20kl1", ["disadvantage: two d20, the lower kept; 400 equally likely face "
                              "pairs, P(natural = k) = (41 - 2k)/400"]),
    (True, True, "1d20", ["advantage and disadvantage together: one d20"]),
    (False, False, "1d20", []),
])
def test_the_dice_rolled_are_explained(adv: bool, dis: bool, dice: str, d2: list[str]) -> None:
    # D2/D3: advantage alone keeps the higher of two, disadvantage alone the
    # lower; both at once, or neither, roll one d20.
    r = odds({"kind": "check", "dc": 10, "advantage": adv, "disadvantage": dis})
    assert r["test"]["dice"] == dice
    assert lines(r, "D2") == d2
    one = "one d20: each natural 1-20 has probability 1/20"
    assert lines(r, "D3") == (["the natural is the kept face"] if adv != dis else [one])


def test_each_kind_of_test_explains_its_own_outcome() -> None:
    # Attack +3 vs AC 12: naturals 9-20 hit (m >= 0): 12/20 = 3/5; 8 (m = -1)
    # is a partial success, a hit only by the ruling partial-success-hits:
    # 13/20. Critical hits: 19 (m = 10) and 20: 1/10; critical miss: 1 (1/20).
    attack = {"kind": "attack", "ac": 12, "modifiers": [{"label": "m", "value": 3}]}
    r = odds(attack)
    assert lines(r, "A1") == ["P(hit) = 3/5 (success or critical success; partial success "
                              "does not hit)"]
    assert lines(r, "A2") == ["P(critical hit) = 1/10, P(critical miss) = 1/20"]
    assert lines(r, "S1") == []
    r = odds({**attack, "partial_success_hits": True})
    assert lines(r, "A1") == ["P(hit) = 13/20 (success or critical success, and partial "
                              "success by the ruling partial-success-hits)"]
    save = odds({"kind": "save", "dc": 12})
    assert lines(save, "S1") == ["the save succeeds at success or critical success (D1); the "
                                 "effect decides what each degree changes"]
    assert lines(save, "A1") == []
    check = odds({"kind": "check", "dc": 12})
    assert lines(check, "S1") == [] and lines(check, "A1") == []
    assert check["rules"] == ["D3", "D1", "D4", "D5"]


ATTACK = {"kind": "attack", "ac": 12, "modifiers": [{"label": "m", "value": 3}]}


def test_resistance_lines_follow_r1_to_r3() -> None:
    # R3: resistant and vulnerable: halve (down) then double; 1d8 on a hit:
    # 0, 2, 2, 4, 4, 6, 6, 8 -> 4; a critical 2d8: E[s] - P(s odd) = 9 - 1/2
    # = 17/2. Per attack: P(hit, not critical) 1/2 x 4 + 1/10 x 17/2 = 57/20.
    r = odds(ATTACK, {"dice": "1d8", "tick": "low", "resistant": True, "vulnerable": True})
    assert lines(r, "R1") == ["resistant: each outcome halved, rounded down",
                              "vulnerable: each outcome doubled"]
    assert lines(r, "R3") == ["resistant and vulnerable: halve first (rounded down), then "
                              "double"]
    assert lines(r, "R2") == ["applied after every other modifier, once each"]
    assert r["damage"]["expected"] == "57/20"
    only = odds(ATTACK, {"dice": "1d8", "tick": "low", "resistant": True})
    assert lines(only, "R1") == ["resistant: each outcome halved, rounded down"]
    assert lines(only, "R3") == []
    vul = odds(ATTACK, {"dice": "1d8", "tick": "low", "vulnerable": True})
    assert lines(vul, "R1") == ["vulnerable: each outcome doubled"] and lines(vul, "R3") == []
    plain = odds(ATTACK, {"dice": "1d8", "tick": "low"})
    assert lines(plain, "R1") == lines(plain, "R2") == lines(plain, "R3") == []
    immune = odds(ATTACK, {"dice": "1d8", "tick": "low", "immune": True})
    assert lines(immune, "R1") == ["immune: every damage outcome becomes 0"]
    assert lines(immune, "R3") == [] and lines(immune, "R2") != []
    both = odds(ATTACK, {"dice": "1d8", "tick": "low", "immune": True, "vulnerable": True})
    assert lines(both, "R3") == ["immunity wins over resistance and vulnerability"]


def test_damage_without_a_possible_critical_hit_and_not_conforming() -> None:
    # A3: no AC: always hit, never critically. T3: 1d20 (21/2) is outside Low
    # (4-8); allowed by request, with a warning.
    r = odds({"kind": "attack", "ac": None},
             {"dice": "1d20", "tick": "low", "allow_nonconforming": True})
    assert lines(r, "T5") == ["a critical hit rolls 1d20+1d20 (dice doubled, constants and "
                              "modifiers not); no critical hit is possible here"]
    assert lines(r, "T3") == ["1d20 has expected value 21/2: NOT CONFORMING, allowed by "
                              "request: 1d20 has expected value 21/2, outside the Low damage "
                              "tick's range 4-8"]
    assert r["warnings"] == ["1d20 does not conform to the Low damage tick (4-8) (T3)"]
    assert r["damage"]["conforming"] is False
    ok = odds(ATTACK, {"dice": "1d8", "tick": "low"})
    assert lines(ok, "T5") == ["a critical hit rolls 1d8+1d8 (dice doubled, constants and "
                               "modifiers not)"]
    assert lines(ok, "T3") == ["1d8 has expected value 9/2: within the Low damage tick (4-8)"]
    assert "warnings" not in ok


def test_damage_odds_need_an_attack() -> None:
    with pytest.raises(InputError) as info:
        odds({"kind": "check", "dc": 10}, {"dice": "1d8", "tick": "low"})
    d = info.value.diagnostics[0]
    assert (d.field, d.message) == ("damage", "damage odds need an attack test, not a check")


# ---------------------------------------------------------------------------
# After the full run of 2026-12-02: A3's certain hit, T4's multiplier, the
# public API's defaults and the degree mapping's equality


def test_an_attack_on_no_ac_succeeds_and_hits_with_probability_one() -> None:
    # A3: no AC: the attack hits automatically, probability 1; no critical
    # hit, no critical miss; success (the degree) is certain as well.
    r = odds({"kind": "attack", "ac": None})
    one = {"probability": "1", "percent": "100.00"}
    zero = {"probability": "0", "percent": "0.00"}
    assert (r["success"], r["hit"]) == (one, one)
    assert (r["critical_hit"], r["critical_miss"]) == (zero, zero)


def test_the_potential_multiplier_of_a_strong_tick_is_two() -> None:
    # T1/T4: 4d6 has expected value 14: Strong (12-16), Potential x 2.
    # Potential +3 -> +6 flat: expected on a hit 14 + 6 = 20; on a critical
    # hit the dice double (8d6, expected 28) and the flat part does not: 34.
    r = odds(ATTACK, {"dice": "4d6", "tick": "strong", "potential": 3})
    dmg = r["damage"]
    assert (dmg["multiplier"], dmg["potential"]) == (2, 3)
    assert (dmg["expected_on_hit"], dmg["expected_on_critical_hit"]) == ("20", "34")


def test_a_check_has_no_normal_hit() -> None:
    # TestOdds.normal_hit: P(hit and not a critical hit), 0 for a check.
    assert odds_for_test(build_test({"kind": "check", "dc": 10})).normal_hit == 0


def test_damage_odds_list_the_distribution_only_when_asked() -> None:
    # damage_odds' show_distribution defaults to False: the damage part has
    # no per-amount list unless asked for (as the request's distribution).
    test = odds_for_test(build_test({"kind": "attack", "ac": None}))
    plain = damage_odds(parse("1d4"), tick=get_tick("tiny"), test=test)
    assert "distribution" not in plain.as_dict()
    shown = damage_odds(parse("1d4"), tick=get_tick("tiny"), test=test, show_distribution=True)
    # a certain hit, never a critical: 1d4, each amount 1/4
    assert [d["probability"] for d in shown.as_dict()["distribution"]] == ["1/4"] * 4


def test_the_degree_chances_compare_like_the_mapping_they_show() -> None:
    # DC 11 with +0 on one d20, margin = natural - 11 (D4, D5): natural 1
    # (-10) critical failure; 2-7 (-9..-4) failure, 6/20; 8-9 partial
    # failure; 10 (-1) partial success; 11-19 (0..8) success, 9/20; 20
    # (margin 9, success) moves up to critical success.
    result = OddsResult.of(odds_for_test(build_test({"kind": "check", "dc": 11})))
    degrees = result.degrees
    as_dict = {label: degrees[label] for label in degrees}
    assert degrees == as_dict and as_dict == degrees
    assert degrees["success"] == Chance(Fraction(9, 20))
    assert degrees["failure"] == Chance(Fraction(3, 10))
    assert degrees["partial_failure"] == Chance(Fraction(1, 10))
    changed = {**as_dict, "success": Chance(Fraction(1, 2))}
    assert degrees != changed
    assert degrees != 5
