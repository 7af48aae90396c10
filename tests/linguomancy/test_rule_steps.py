"""Which rule each explanation step cites (issue 13, "explanations and rule
IDs"): the step that applies a rule cites it, also where the rule decides
that nothing happens (H4 below max HP, H6 for a Stable entity, T3 for a tick
without a dice range), and at both sides of each boundary. Values are worked
by hand in each test's comment (rulings revision 2).
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.errors import RulesError
from linguo_cli.io.document import Document
from linguo_cli.rulesets.linguomancy.state import SCHEMAS


def resolve(request: dict[str, Any]) -> dict[str, Any]:
    """Validate (schema and state checks) and resolve, as ``linguo resolve`` does."""
    SCHEMAS.validate(Document("request", request), "request")
    return requests.resolve(request)


def steps(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The explanation as (rule, text) pairs."""
    return [(s["rule"], s["text"]) for s in result["explanation"]]


def rules_of(result: dict[str, Any]) -> list[str]:
    return [rule for rule, _ in steps(result)]


def _damage(hp: int, max_hp: int, face: int, kind: str = "player", **extra: Any
            ) -> dict[str, Any]:
    entity = {"id": "t", "kind": kind, "hp": hp, "max_hp": max_hp, **extra}
    return resolve({"kind": "damage", "tick": "tiny", "dice": "1d4", "rolls": [face],
                    "state": {"entities": [entity]}, "targets": ["t"]})


# ---------------------------------------------------------------------------
# H4: damage left over at 0 HP, both sides of max HP


def test_h4_step_when_the_leftover_is_one_below_max_hp() -> None:
    # HP 1 of max 4 takes 1d4 = 4: HP 1 - 1 = 0, 3 left over < 4: no massive
    # damage (H4), the player starts Dying (H5).
    result = _damage(1, 4, 4)
    assert ("H4", "t: leftover 3 < max HP 4: no massive damage") in steps(result)
    assert rules_of(result)[-3:] == ["H1", "H4", "H5"]
    assert result["entities"]["t"]["after"]["dead"] is False


def test_h4_step_when_the_leftover_equals_max_hp() -> None:
    # HP 1 of max 3 takes 4: 3 left over >= 3: massive damage, dead (H4, H10).
    result = _damage(1, 3, 4)
    assert ("H4", "t: massive damage: leftover 3 >= max HP 3") in steps(result)
    assert "H5" not in rules_of(result)
    assert result["entities"]["t"]["after"]["death"]["cause"] == "massive_damage"


def test_no_h4_step_without_damage_left_over() -> None:
    # HP 4 takes exactly 4: HP 0 with nothing left over: H4 does not apply.
    result = _damage(4, 20, 4)
    assert "H4" not in rules_of(result)
    assert rules_of(result)[-2:] == ["H1", "H5"]


def test_h4_step_for_an_enemy_before_it_dies_at_zero_hp() -> None:
    # An enemy at 2 of 20 takes 4: 2 left over < 20 (H4), then it dies at 0 HP (H5).
    result = _damage(2, 20, 4, kind="enemy")
    assert rules_of(result)[-4:] == ["H1", "H4", "H5", "H10"]
    assert result["entities"]["t"]["after"]["death"]["cause"] == "zero_hp"


# ---------------------------------------------------------------------------
# H5 / H7: lethal damage at 0 HP


def test_h5_step_when_damage_at_zero_hp_finds_the_player_neither_dying_nor_stable() -> None:
    # A player at 0 HP without Dying or Stable takes 3: H5 makes it Dying and
    # Unconscious, then H7 adds one failure (0 -> 1).
    result = _damage(0, 20, 3)
    assert steps(result)[-2:] == [
        ("H5", "t: 0 HP: t starts Dying and falls Unconscious (at_zero_hp: dying)"),
        ("H7", "t: damage at 0 HP: 1 death-save failure (0 -> 1)")]


def test_a_stable_player_taking_damage_at_zero_hp_is_h7_only() -> None:
    # Stable at 0 HP takes 3: Dying again, counts at 0 (H7), one failure (H7).
    result = _damage(0, 20, 3, conditions=[{"name": "Unconscious", "source": "dying"},
                                           {"name": "Stable", "source": "dying"}])
    assert rules_of(result)[-2:] == ["H7", "H7"]
    assert "H5" not in rules_of(result)


# ---------------------------------------------------------------------------
# Healing: Complete (H3), Resurrection with dice (T3)


def _heal(tick: str, entity: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return resolve({"kind": "heal", "tick": tick, "state": {"entities": [entity]},
                    "targets": [entity["id"]], **extra})


def test_complete_healing_of_a_target_is_an_h3_step() -> None:
    # Complete: 3 -> 20 HP; the 4 temporary HP stay (H3); T2 names the tick.
    result = _heal("complete", {"id": "a", "kind": "player", "hp": 3, "max_hp": 20,
                                "temp_hp": 4}, rolls=[])
    assert steps(result)[-1] == ("H3", "a: Complete: HP 3 -> max HP 20; temporary HP unchanged")
    assert rules_of(result) == ["T2", "H3"]


def test_complete_healing_without_temporary_hp_says_nothing_of_them() -> None:
    result = _heal("complete", {"id": "a", "kind": "player", "hp": 3, "max_hp": 20}, rolls=[])
    assert steps(result)[-1] == ("H3", "a: Complete: HP 3 -> max HP 20")


def test_resurrection_dice_get_a_t3_step_without_a_range() -> None:
    # Resurrection with 1d4 (face 2): no dice range applies (T3 rev. 2): 2 HP.
    result = resolve({"kind": "heal", "tick": "resurrection", "dice": "1d4", "rolls": [2]})
    assert ("T3", "1d4: the Resurrection tick rolls nothing by itself, no dice range "
                  "applies: conforming") in steps(result)
    assert result["amount"] == 2


def test_resurrection_with_a_fixed_amount_has_no_t3_step() -> None:
    result = resolve({"kind": "heal", "tick": "resurrection", "amount": 5, "rolls": []})
    assert "T3" not in rules_of(result)


# ---------------------------------------------------------------------------
# Odds: R3 when immunity wins


def _odds(**damage: Any) -> dict[str, Any]:
    return resolve({"kind": "odds", "test": {"kind": "attack", "ac": None},
                    "damage": {"dice": "2d6", "tick": "low", **damage}, "rolls": []})


@pytest.mark.parametrize("other", ["resistant", "vulnerable"])
def test_odds_cite_r3_when_immunity_wins_over(other: str) -> None:
    result = _odds(immune=True, **{other: True})
    assert ("R3", "immunity wins over resistance and vulnerability") in steps(result)
    assert result["damage"]["expected"] == "0"


def test_odds_of_immunity_alone_do_not_cite_r3() -> None:
    assert "R3" not in rules_of(_odds(immune=True))


# ---------------------------------------------------------------------------
# The overclock request: F1 spends the cost when the Flux covers it


def test_overclock_request_with_flux_enough_spends_the_cost_by_f1() -> None:
    # Cost 5 with 7 Flux: no overclocking (F4), Flux 7 - 5 = 2 (F1).
    result = resolve({"kind": "overclock", "cost": 5, "flux": 7, "rolls": []})
    assert steps(result) == [("F4", "7 Flux covers the cost 5: no overclocking, "
                                    "no consequence"), ("F1", "Flux 7 - 5 = 2")]
    assert result["flux_after"] == 2


def test_overclock_request_short_of_flux_has_no_f1_step() -> None:
    # Cost 5 with 4 Flux: 1 missing, all 4 spent (F4): no F1 spending step.
    result = resolve({"kind": "overclock", "cost": 5, "flux": 4, "rolls": []})
    assert "F1" not in rules_of(result)
    assert result["flux_after"] == 0


# ---------------------------------------------------------------------------
# Start of a turn: Flux regeneration (F2, F1 floor, C2 change), H6 for Stable


def _turn(entity: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return resolve({"kind": "turn", "state": {"entities": [entity]}, "rolls": [],
                    "turns": [{"entity": entity["id"], "steps": []}], **extra})


def _m(**fields: Any) -> dict[str, Any]:
    return {"id": "m", "kind": "player", "hp": 20, "max_hp": 20, **fields}


def test_regeneration_below_zero_is_floored_by_f1() -> None:
    # Flux 1 with flux_regen -2: 1 - 2 = -1, floored at 0 (F1).
    result = _turn(_m(flux=1, flux_regen=-2))
    assert ("F2", "turn 1 (m), start: Flux 1 -2 = -1") in steps(result)
    assert ("F1", "turn 1 (m), start: Flux never goes below 0: 1 -2 = -1, floored at 0"
            ) in steps(result)


def test_regeneration_above_the_maximum_says_it_is_capped() -> None:
    # Flux 10 of 10 with flux_regen 1: 10 + 1 = 11, capped at 10 (F2).
    result = _turn(_m(flux=10, flux_max=10, flux_regen=1))
    assert ("F2", "turn 1 (m), start: Flux 10 +1 = 11, capped at its maximum 10"
            ) in steps(result)
    assert result["state"]["entities"][0]["flux"] == 10


def test_regeneration_down_to_exactly_zero_needs_no_floor() -> None:
    # Flux 2 with flux_regen -2: 2 - 2 = 0: no floor, no F1 step.
    result = _turn(_m(flux=2, flux_regen=-2))
    assert "F1" not in rules_of(result)
    assert result["state"]["entities"][0]["flux"] == 0


def test_a_catalogs_regeneration_change_is_its_own_c2_step_before_f2() -> None:
    # A table's Drained: -1 Flux regeneration. Flux 4, regen 1 - 1 = 0: Flux 4.
    result = _turn(_m(flux=4, conditions=[{"name": "Drained", "source": "x",
                                          "remaining_turns": 1}]),
                   conditions=[{"name": "Drained", "effects": {"flux_regen_change": -1}}])
    pairs = steps(result)
    c2 = ("C2", "turn 1 (m), start: m: Flux regeneration 1 -1 from Drained = 0")
    f2 = ("F2", "turn 1 (m), start: Flux 4 +0 = 4 (max 10)")
    assert c2 in pairs and f2 in pairs and pairs.index(c2) + 1 == pairs.index(f2)


def test_a_stable_entity_rolls_no_death_save_by_h6() -> None:
    stable = _m(hp=0, conditions=[{"name": "Unconscious", "source": "dying"},
                                  {"name": "Stable", "source": "dying"}])
    result = _turn(stable)
    assert ("H6", "turn 1 (m), start: m is Stable: no death saving throw") in steps(result)
    assert result["rolls_used"] == []


def test_a_dying_entity_gets_no_stable_note() -> None:
    # Dying at 0 HP: the death save d20 (12) is a success, no "Stable" line.
    dying = _m(hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                 {"name": "Unconscious", "source": "dying"}])
    result = resolve({"kind": "turn", "state": {"entities": [dying]}, "rolls": [12],
                      "turns": [{"entity": "m", "steps": []}]})
    assert not any("is Stable" in text for _, text in steps(result))
    assert "H6" in rules_of(result)


# ---------------------------------------------------------------------------
# The dead: refused with C2, in a turn as in a one-off cast


def test_a_dead_entitys_turn_step_is_refused_with_c2() -> None:
    dead = {"id": "e", "kind": "enemy", "hp": 0, "max_hp": 10, "movement_max": 10,
            "dead": True, "death": {"cause": "zero_hp"}}
    with pytest.raises(RulesError) as err:
        resolve({"kind": "turn", "state": {"entities": [dead]}, "rolls": [],
                 "turns": [{"entity": "e", "steps": [{"kind": "move", "metres": 1}]}]})
    assert err.value.rule == "C2"


# ---------------------------------------------------------------------------
# A one-off cast: C2 notes for the caster's conditions without an effect


def _smith(conditions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    ayla = {"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20, "idioms": ["Smith"],
            "conditions": [{"name": "Stunned", "source": "overclocking",
                            "remaining_turns": 1}]}
    request: dict[str, Any] = {"kind": "cast", "caster": "ayla", "idiom": "Smith",
                               "state": {"entities": [ayla]}, "rolls": []}
    if conditions is not None:
        request["conditions"] = conditions
    return resolve(request)


def test_a_one_off_cast_says_first_that_a_condition_has_no_effect() -> None:
    result = _smith([{"name": "Stunned", "effects": {}}])
    rule, text = steps(result)[0]
    assert rule == "C2" and text.startswith("ayla: Stunned has no enforced effect")
    assert result["rules"][0] == "C2"


def test_a_one_off_cast_by_a_stunned_caster_is_refused_with_c2() -> None:
    with pytest.raises(RulesError) as err:
        _smith()
    assert err.value.rule == "C2"


# ---------------------------------------------------------------------------
# Which rule each line of a test, a turn, a cast and a rest cites (rulings
# text: the rule that says what the line does)


def rules_of_lines(result: dict[str, Any], fragment: str) -> set[str]:
    """The rules of the explanation lines whose text holds ``fragment``
    (at least one line must)."""
    found = {rule for rule, text in steps(result) if fragment in text}
    assert found, f"no explanation line holds {fragment!r}: {steps(result)}"
    return found


@pytest.mark.parametrize(("face", "expected"), [
    # D3 natural, D1 total against the target, D4 degree, D1 the outcome.
    (10, ["D3", "D1", "D4", "D1"]),
    # A natural 20 adds D5's shift before the outcome.
    (20, ["D3", "D1", "D4", "D5", "D1"]),
])
def test_a_checks_lines_cite_d3_d1_d4_d5_d1(face: int, expected: list[str]) -> None:
    result = resolve({"kind": "check", "dc": 15, "rolls": [face]})
    assert rules_of(result) == expected
    assert rules_of_lines(result, "the check ") == {"D1"}


def test_the_start_and_end_of_a_turn_cite_o1s_order() -> None:
    # O1: the round line and the start line, then reaction back (P4), action
    # points (P1), movement (P2), Hand points (P5), Flux regeneration (F2);
    # the end: durations tick (C1), unspent action points lost (P1).
    result = _turn(_m(flux=5))
    assert rules_of(result) == ["O1", "O1", "P4", "P1", "P2", "P5", "F2", "C1", "P1"]
    assert rules_of_lines(result, "reaction is available again") == {"P4"}


def test_a_third_death_save_failure_is_h6s_death() -> None:
    # Dying with 2 failures rolls 3 (< 10): the third failure kills (H6), then
    # every condition ends (H10).
    dying = _m(hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                 {"name": "Unconscious", "source": "dying"}],
               death_saves={"successes": 0, "failures": 2})
    result = resolve({"kind": "turn", "state": {"entities": [dying]}, "rolls": [3],
                      "turns": [{"entity": "m", "steps": []}]})
    assert rules_of_lines(result, "three failures") == {"H6"}
    assert rules_of_lines(result, "every condition it had ends") == {"H10"}


def _cast(entity: dict[str, Any], idiom: str, **extra: Any) -> dict[str, Any]:
    return resolve({"kind": "cast", "caster": entity["id"], "idiom": idiom,
                    "state": {"entities": [entity]}, "rolls": [], **extra})


def test_a_cast_not_maintained_for_want_of_hand_points_cites_p6() -> None:
    # Holding a sword: 1 free Hand point, Shape - Fire takes it (P5); keeping
    # it maintained needs 1 more (P6): resolved, not maintained.
    ayla = {"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20,
            "held_items": ["sword"], "idioms": ["Shape - Fire"]}
    result = _cast(ayla, "Shape - Fire")
    assert result["maintained"] is False
    assert rules_of_lines(result, "maintaining Shape - Fire needs") == {"P6"}
    assert rules_of_lines(result, "not maintained") == {"P6"}
    assert rules_of_lines(result, "Hand point(s) of the") == {"P5"}


def test_an_overclocked_cast_spends_all_its_flux_by_f4() -> None:
    # Hurl - Fire costs 3 with 1 Flux: overclocking spends the 1 (F4), 2
    # missing: Lethargic and Drained (F4's table).
    ayla = {"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20, "flux": 1,
            "idioms": ["Hurl - Fire"]}
    goblin = {"id": "g", "kind": "enemy", "hp": 30, "max_hp": 30, "ac": 30}
    result = resolve({"kind": "cast", "caster": "ayla", "idiom": "Hurl - Fire",
                      "overclock": True, "targets": ["g"], "rolls": [2],
                      "state": {"entities": [ayla, goblin]}})
    assert result["overclocked"] is True and result["missing"] == 2
    assert rules_of_lines(result, "spends all its 1 Flux") == {"F4"}


def test_a_check_bonus_idiom_reports_its_bonus_by_f3() -> None:
    # Smith (0 Flux, no upcast): its check bonus, base + upcast x per point, is
    # reported (F3), not stored.
    ayla = {"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20, "idioms": ["Smith"]}
    result = _cast(ayla, "Smith")
    assert rules_of_lines(result, "check bonus to") == {"F3"}


def test_a_rest_removing_exhaustion_tiers_cites_h9() -> None:
    # Exhaustion tiers go only when the input says how many (H9): 2 of 3;
    # the tiers themselves are F5's (3 -> 1).
    result = resolve({"kind": "rest", "long": True, "exhaustion": {"ayla": 2},
                      "state": {"entities": [{"id": "ayla", "kind": "player", "hp": 20,
                                              "max_hp": 20, "exhaustion": 3}]}})
    assert result["entities"]["ayla"]["after"]["exhaustion"] == 1
    assert rules_of_lines(result, "removes up to 2 Exhaustion") == {"H9"}
    assert rules_of_lines(result, "Exhaustion tiers 3 -> 1") == {"F5"}


def test_stopping_a_maintained_idiom_in_a_turn_cites_p6() -> None:
    # Stopping on purpose is free (P6): its Hand point comes back at once.
    ayla = _m(maintained=[{"idiom": "Shape - Fire", "hand_cost": 1}])
    result = resolve({"kind": "turn", "state": {"entities": [ayla]}, "rolls": [],
                      "turns": [{"entity": "m", "steps": [
                          {"kind": "stop_maintaining", "idiom": "Shape - Fire"}]}]})
    assert rules_of_lines(result, "stops maintaining Shape - Fire") == {"P6"}


def test_odds_of_a_check_cite_d1_for_the_modifiers_against_the_dc() -> None:
    result = resolve({"kind": "odds", "test": {"kind": "check", "dc": 15,
                                               "modifiers": [{"label": "x", "value": 3}]},
                      "rolls": []})
    assert rules_of_lines(result, "modifiers +3 against") == {"D1"}


def test_a_cast_maintained_with_hand_points_left_cites_p6() -> None:
    # No held item: 2 free, the cast takes 1 (P5), 1 left covers maintaining (P6).
    ayla = {"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20,
            "idioms": ["Shape - Fire"]}
    result = _cast(ayla, "Shape - Fire")
    assert result["maintained"] is True
    assert rules_of_lines(result, "maintaining Shape - Fire needs 1 Hand point(s): "
                                  "1 free after the cast") == {"P6"}


def test_hand_points_a_turns_cast_spends_until_the_next_turn_cite_p5() -> None:
    # Holding a sword: 1 free; Shape - Fire is not maintained (P6), so its
    # Hand point is spent until the next turn (P5): 0 free.
    ayla = _m(held_items=["sword"], idioms=["Shape - Fire"])
    result = resolve({"kind": "turn", "state": {"entities": [ayla]}, "rolls": [],
                      "turns": [{"entity": "m", "steps": [
                          {"kind": "cast", "idiom": "Shape - Fire"}]}]})
    assert rules_of_lines(result, "Hand point(s) until the next turn") == {"P5"}


def test_upcast_dice_of_a_cast_cite_f3() -> None:
    # Expertise 6 in Fire: Hurl - Fire upcast by 3 (final cost 6, F3's cap
    # min(6, 10, 10)); 2d6+1 + 3 x 1 = 2d6+4 (F3's intensity step per point).
    # d20 15 + 2 = 17 hits AC 12; 3 + 4 + 4 = 11, + Potential 2 = 13.
    ayla = {"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20,
            "abilities": {"potential": 2}, "expertise": {"Fire": 6}, "idioms": ["Hurl - Fire"]}
    gob = {"id": "gob", "kind": "enemy", "hp": 30, "max_hp": 30, "ac": 12}
    result = resolve({"kind": "cast", "caster": "ayla", "idiom": "Hurl - Fire", "upcast": 3,
                      "targets": ["gob"], "rolls": [15, 3, 4],
                      "state": {"entities": [ayla, gob]}})
    assert rules_of_lines(result, "upcast by 3: 2d6+1 + 3 x 1") == {"F3"}
    assert result["amount"]["amount"] == 13
