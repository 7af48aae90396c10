"""Damage and healing amounts (issue 13, mutation runs of ``amounts`` and
``amount_rules``): T1-T5, T7 and R1-R3 through
:func:`~linguo_cli.rulesets.linguomancy.amounts.roll_amount` and the pure
functions of :mod:`~linguo_cli.rulesets.linguomancy.amount_rules`, each branch
taken both ways and each comparison at its edge. Values are worked by hand
from ``RULINGS.md`` in each test's comment.
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.dice import ScriptedDice, parse
from linguo_cli.core.errors import InputError, RulesError
from linguo_cli.core.results import to_plain
from linguo_cli.rulesets.linguomancy import amount_rules
from linguo_cli.rulesets.linguomancy.amounts import AmountRoll, roll_amount
from linguo_cli.rulesets.linguomancy.model import Modifier
from linguo_cli.rulesets.linguomancy.ticks import get_tick


def roll(dice: str | None, tick: str, faces: list[int], *, healing: bool = False,
         **kw: Any) -> AmountRoll:
    expr = None if dice is None else parse(dice)
    return roll_amount(expr, tick=get_tick(tick, healing=healing), dice=ScriptedDice(faces),
                       **kw)


def steps(r: AmountRoll) -> list[tuple[str, str]]:
    return [(s.rule, s.text) for s in r.steps]


# ---------------------------------------------------------------------------
# amount_rules: T4/T7 floor, R1-R3


@pytest.mark.parametrize(("raw", "out"), [(-3, 0), (-1, 0), (0, 0), (1, 1), (5, 5)])
def test_floored(raw: int, out: int) -> None:
    assert amount_rules.floored(raw) == out


@pytest.mark.parametrize(("amount", "half", "double"), [(0, 0, 0), (1, 0, 2), (5, 2, 10),
                                                         (6, 3, 12)])
def test_halved_rounds_down_and_doubled(amount: int, half: int, double: int) -> None:
    assert amount_rules.halved(amount) == half and type(amount_rules.halved(amount)) is int
    assert amount_rules.doubled(amount) == double


@pytest.mark.parametrize(("immune", "resistant", "vulnerable", "out"), [
    (False, False, False, 9), (True, False, False, 0), (True, True, True, 0),
    (False, True, False, 4), (False, False, True, 18), (False, True, True, 8),
])
def test_resisted(immune: bool, resistant: bool, vulnerable: bool, out: int) -> None:
    # R1-R3 on 9: immune 0 (wins), resistant 4, vulnerable 18, both 4 -> 8.
    assert amount_rules.resisted(9, immune=immune, resistant=resistant,
                                 vulnerable=vulnerable) == out


def test_damage_amount_adds_the_flat_modifiers_then_floors_then_resists() -> None:
    # T4: 5 + 2 = 7; resisted: 3. 2 - 5 = -3 floored 0, doubled 0.
    assert amount_rules.damage_amount(5, flat=2, resistant=False, vulnerable=False,
                                      immune=False) == 7
    assert amount_rules.damage_amount(5, flat=2, resistant=True, vulnerable=False,
                                      immune=False) == 3
    assert amount_rules.damage_amount(2, flat=-5, resistant=False, vulnerable=True,
                                      immune=False) == 0


# ---------------------------------------------------------------------------
# roll_amount: T3, T4, T5, T7


def test_a_damage_roll_by_default_multiplies_nothing_and_is_not_critical() -> None:
    # 2d4 [3, 2] = 5 + Potential 0 x 1: 5; the roll is not doubled.
    r = roll("2d4", "low", [3, 2])
    assert (r.amount, r.ability_modifier, r.critical) == (5, 0, False)
    assert r.rolled is not None and r.rolled.text() == "2d4"


def test_a_nonconforming_roll_is_refused_unless_allowed() -> None:
    # T3: 1d4 has expected value 5/2, outside Low 4-8.
    with pytest.raises(RulesError) as info:
        roll("1d4", "low", [3])
    assert info.value.rule == "T3"
    r = roll("1d4", "low", [3], allow_nonconforming=True)
    assert r.conforming is False and r.amount == 3
    assert r.warnings == ["1d4 has expected value 5/2, outside the Low damage tick's range "
                          "4-8 (T3); allowed on request"]


def test_a_conforming_roll_at_the_bounds_of_its_range() -> None:
    # T3: Low 4-8: 2d6+1 has expected value 8, the upper bound: conforms.
    r = roll("2d6+1", "low", [6, 6])
    assert r.conforming is True and r.amount == 13
    assert ("T3", "2d6+1: expected value 8 lies in 4-8: conforming") in steps(r)


def test_a_dieless_formula_for_a_dice_tick_is_refused() -> None:
    # T3 rev. 2: "6" (expected value 6, inside Low 4-8) has no die.
    with pytest.raises(RulesError) as info:
        roll("6", "low", [])
    assert info.value.rule == "T3"
    assert "has no die" in info.value.message


def test_damage_sum_with_multiplier_and_flat_modifiers() -> None:
    # T4: Strong (x2): 4d6 [3, 3, 4, 4] = 14 + Potential 3 x 2 = 6 + bless 1 = 21.
    r = roll("4d6", "strong", [3, 3, 4, 4], ability_modifier=3,
             modifiers=[Modifier("bless", 1)])
    assert (r.dice_total, r.multiplier, r.amount) == (14, 2, 21)
    assert steps(r)[-1] == ("T4", "damage = dice 4d6 [3, 3, 4, 4] = 14 + potential +3 x 2 = +6 "
                                  "+ bless +1 = 21")


def test_dropped_faces_are_shown_dropped() -> None:
    # 2d6kh1+2 (expected value 161/36 + 2, inside Low 4-8) [2, 5]: keeps 5.
    r = roll("2d6kh1+2", "low", [2, 5])
    assert r.amount == 5 + 2
    assert steps(r)[-1][1].startswith("damage = dice 2d6kh1+2 [2 dropped, 5] = 7")


@pytest.mark.parametrize(("mod", "amount", "floored"), [(-3, 0, True), (-2, 0, False),
                                                        (-1, 1, False)])
def test_floor_at_zero_is_said_only_below_zero(mod: int, amount: int, floored: bool) -> None:
    # T4: 1d4 [2] + Potential mod x 1: -1 floored 0; 0 is no floor; 1.
    r = roll("1d4", "tiny", [2], ability_modifier=mod)
    assert r.amount == amount
    assert steps(r)[-1][1].endswith(", floored at 0") is floored


def test_critical_doubles_the_dice_only() -> None:
    # T5: 2d6+1 rolls 2d6+2d6+1: [1, 2, 3, 4] + 1 = 11; Potential 1 x 1 not doubled.
    r = roll("2d6+1", "moderate", [1, 2, 3, 4], ability_modifier=1, critical=True)
    assert r.rolled is not None and r.rolled.text() == "2d6+2d6+1"
    assert (r.dice_total, r.amount, r.critical) == (11, 12, True)
    assert any(rule == "T5" for rule, _ in steps(r))
    assert r.expression is not None and r.expression.text() == "2d6+1"


def test_a_critical_healing_roll_is_invalid() -> None:
    with pytest.raises(InputError):
        roll("2d4", "low", [1, 1], healing=True, critical=True)


def test_healing_multiplies_cohesion() -> None:
    # T7: Strong healing (15-30, x2): 5d6 (17.5) [4, 4, 4, 4, 4] = 20 + Cohesion
    # 2 x 2 = 24.
    r = roll("5d6", "strong", [4, 4, 4, 4, 4], healing=True, ability_modifier=2)
    assert (r.ability, r.amount) == ("cohesion", 24)
    assert [rule for rule, _ in steps(r)] == ["T2", "T3", "T7"]
    rec = to_plain(r.record())
    assert rec["full_restoration"] is False and rec["ability"] == "cohesion"


def test_a_damage_record_has_no_full_restoration_field() -> None:
    rec = to_plain(roll("2d4", "low", [1, 1]).record())
    assert "full_restoration" not in rec
    assert (rec["dice"], rec["rolled_dice"], rec["expected_value"]) == ("2d4", "2d4", "5")
    assert [rule for rule, _ in steps(roll("2d4", "low", [1, 1]))] == ["T1", "T3", "T4"]


# ---------------------------------------------------------------------------
# The ticks that roll nothing: damage/healing None, Complete, Resurrection


def test_damage_tick_none_without_dice() -> None:
    r = roll(None, "none", [])
    rec = to_plain(r.record())
    assert (rec["amount"], rec["dice_total"], rec["expected_value"]) == (0, 0, "0")
    assert (rec["dice"], rec["rolled_dice"], rec["conforming"]) == (None, None, True)
    assert steps(r) == [("T1", "damage tick None: expected-value range 0-0, potential "
                               "multiplier x0"),
                        ("T3", "no dice: expected value 0 lies in 0-0: conforming"),
                        ("T1", "damage tick None: no damage")]
    assert r.warnings == []


def test_tick_none_ignores_flat_modifiers_with_a_warning_only_when_they_count() -> None:
    r = roll(None, "none", [], modifiers=[Modifier("bless", 2)])
    assert r.amount == 0
    assert r.warnings == ["damage tick None: flat modifiers ignored, no damage is done"]
    assert roll(None, "none", [], modifiers=[Modifier("zero", 0)]).warnings == []


def test_tick_none_with_dice_of_expected_value_zero_says_what_was_rolled() -> None:
    # 1d4-1d4 has expected value 0 (None's range 0-0) and a die: [3, 1] = 2,
    # but the None tick does no damage.
    r = roll("1d4-1d4", "none", [3, 1])
    assert (r.dice_total, r.amount) == (2, 0)
    assert steps(r)[-1] == ("T1", "damage tick None: no damage (2 HP)")


@pytest.mark.parametrize("tick", ["tiny", "low"])
def test_a_dice_tick_without_dice_is_invalid_input(tick: str) -> None:
    with pytest.raises(InputError) as info:
        roll(None, tick, [])
    assert "needs dice" in info.value.message


def test_complete_takes_no_dice_and_gives_no_amount() -> None:
    r = roll(None, "complete", [], healing=True)
    rec = to_plain(r.record())
    assert (rec["amount"], rec["dice_total"], rec["conforming"], rec["critical"]) == (
        None, 0, True, False)
    assert rec["full_restoration"] is True
    assert [rule for rule, _ in steps(r)] == ["T2"]
    with pytest.raises(InputError):
        roll("2d4", "complete", [1, 1], healing=True)


def test_resurrection_takes_an_amount_or_dice_not_both_nor_neither() -> None:
    with pytest.raises(InputError):
        roll("2d4", "resurrection", [1, 1], healing=True, amount=5)
    with pytest.raises(InputError):
        roll(None, "resurrection", [], healing=True)


@pytest.mark.parametrize(("given", "amount"), [(0, 0), (5, 5), (-2, 0)])
def test_resurrection_with_a_fixed_amount(given: int, amount: int) -> None:
    r = roll(None, "resurrection", [], healing=True, amount=given)
    rec = to_plain(r.record())
    assert (rec["amount"], rec["dice_total"], rec["conforming"], rec["critical"]) == (
        amount, 0, True, False)
    assert steps(r) == [("T2", f"healing tick Resurrection: the effect gives {given} HP")]


def test_resurrection_with_dice_conforms_to_no_range() -> None:
    r = roll("2d6", "resurrection", [3, 4], healing=True)
    assert (r.amount, r.conforming) == (7, True)
    assert ("T3", "2d6: the Resurrection tick rolls nothing by itself, no dice range applies: "
                  "conforming") in steps(r)


@pytest.mark.parametrize(("tick", "healing"), [("low", True), ("tiny", False)])
def test_a_fixed_amount_is_only_for_resurrection(tick: str, healing: bool) -> None:
    with pytest.raises(InputError) as info:
        roll("1d6+1", tick, [1], healing=healing, amount=5)
    assert info.value.diagnostics[0].field == "amount"
