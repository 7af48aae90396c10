"""Turn rules a mutation run could change unnoticed (issue 13): the modules
``turn_rules``, ``turn_steps``, ``turn_actions`` and ``turn_engine``, under
rulings revision 2 (``RULINGS.md``). Each expected value is worked by hand
in the test's comment, from the rule it cites.
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.errors import InputError

from .test_turn import by_id, ent, foe, illegal, play

# ---------------------------------------------------------------------------
# C2: which conditions a refusal names (turn_rules.givers)

#: A table's catalog (C2): Exhaustion tiers forbid actions, Stunned too,
#: Prone only limits movement to crawling.
CATALOG = [{"name": "Exhaustion", "effects": {"no_actions": True}},
           {"name": "Stunned", "effects": {"no_actions": True}},
           {"name": "Prone", "effects": {"crawl_only": True}}]


def test_one_exhaustion_tier_with_a_table_effect_is_named_in_the_refusal() -> None:
    # C2: the catalog's Exhaustion effects apply from 1 tier; talking is an
    # action, so it is refused, and Exhaustion is the condition named.
    err = illegal([ent(exhaustion=1)], [{"entity": "ayla", "steps": [
        {"kind": "action", "name": "talk"}]}], conditions=CATALOG)
    assert (err.rule, err.step) == ("C2", 1)
    assert err.details["conditions"] == ["Exhaustion"]
    assert "no actions while Exhaustion" in err.message


def test_a_refusal_names_only_the_conditions_that_forbid() -> None:
    # Stunned (no actions) and Prone (crawl only), no Exhaustion tier: only
    # Stunned forbids the action; Prone and Exhaustion are not named.
    err = illegal([ent(conditions=[{"name": "Prone"}, {"name": "Stunned"}])],
                  [{"entity": "ayla", "steps": [{"kind": "action", "name": "talk"}]}],
                  conditions=CATALOG)
    assert err.details["conditions"] == ["Stunned"]
    assert "ayla cannot talk: no actions while Stunned [rule C2]" in err.message


def test_a_condition_held_twice_is_named_once() -> None:
    # Stunned from two sources: one name in the refusal.
    stunned = [{"name": "Stunned", "source": "a"}, {"name": "Stunned", "source": "b"}]
    err = illegal([ent(conditions=stunned)],
                  [{"entity": "ayla", "steps": [{"kind": "action", "name": "talk"}]}])
    assert err.details["conditions"] == ["Stunned"]


# ---------------------------------------------------------------------------
# Plain steps (turn_steps): P2, P3, P4, P5, P6


def texts(result: dict[str, Any]) -> list[str]:
    """The explanation lines of a turn result, in order."""
    return [s["text"] for s in result["explanation"]]


def steps_of(result: dict[str, Any], turn: int = 0) -> list[dict[str, Any]]:
    return list(result["turns"][turn]["steps"])


def test_move_explains_what_each_metre_costs() -> None:
    # P2/P3: Prone, crawl 1 m on difficult terrain = 1 x (1 + 1 + 1) = 3 m of
    # 15, 12 left; then crawl 1 m on normal ground = 2 m, 10 left. Standing
    # (not Prone), walking 5 m costs 5 m, and the line names no extra cost.
    r = play([ent(conditions=[{"name": "Prone"}])], [{"entity": "ayla", "steps": [
        {"kind": "move", "metres": 1, "mode": "crawl", "terrain": "difficult"},
        {"kind": "move", "metres": 1, "mode": "crawl"}]}])
    lines = texts(r)
    assert "turn 1 (ayla), step 1: ayla is Prone: crawling is allowed" in lines
    assert ("turn 1 (ayla), step 1: crawl 1 m (crawling +1 m per m, difficult terrain "
            "+1 m per m) costs 3 m, 12 m left") in lines
    assert "turn 1 (ayla), step 2: crawl 1 m (crawling +1 m per m) costs 2 m, 10 m left" in lines
    walk = play([ent()], [{"entity": "ayla", "steps": [{"kind": "move", "metres": 5}]}])
    step_lines = [t for t in texts(walk) if t.startswith("turn 1 (ayla), step 1: ")]
    assert step_lines == ["turn 1 (ayla), step 1: walk 5 m costs 5 m, 10 m left"]
    assert steps_of(walk)[0]["rules"] == ["P2"]


def test_dropping_prone_is_free_and_twice_is_illegal() -> None:
    # P3: dropping prone costs no movement and no action point.
    r = play([ent()], [{"entity": "ayla", "steps": [{"kind": "drop_prone"}]}])
    step = steps_of(r)[0]
    assert (step["action_points"], step["movement"]) == (0, 0)
    assert step["events"] == ["drops_prone"]
    assert [c["name"] for c in by_id(r, "ayla")["conditions"]] == ["Prone"]
    err = illegal([ent(conditions=[{"name": "Prone"}])],
                  [{"entity": "ayla", "steps": [{"kind": "drop_prone"}]}])
    assert (err.rule, err.step) == ("P3", 1)
    assert "ayla is already Prone" in err.message


def test_standing_up_when_not_prone_is_illegal() -> None:
    err = illegal([ent()], [{"entity": "ayla", "steps": [{"kind": "stand_up"}]}])
    assert (err.rule, err.step) == ("P3", 1)
    assert "ayla is not Prone: nothing to stand up from" in err.message


def test_standing_up_with_max_movement_zero_needs_nothing_and_has_nothing() -> None:
    # P3: max movement 0 -> standing is impossible; needed 0 m, left 0 m.
    err = illegal([ent(movement_max=0, conditions=[{"name": "Prone"}])],
                  [{"entity": "ayla", "steps": [{"kind": "stand_up"}]}])
    assert err.rule == "P3"
    assert err.details == {"turn": 1, "step": 1, "needed": 0, "left": 0, "movement_max": 0}


def test_standing_up_with_exactly_half_the_max_left() -> None:
    # RE-05/P3: max 20 m; crawling 5 m costs 10 m, 10 m left; standing costs
    # 20 / 2 = 10 m and 1 AP: legal, 0 m and 2 AP left, no longer Prone.
    r = play([ent(movement_max=20, conditions=[{"name": "Prone"}])],
             [{"entity": "ayla", "steps": [{"kind": "move", "metres": 5, "mode": "crawl"},
                                           {"kind": "stand_up"}]}])
    stand = steps_of(r)[1]
    assert (stand["action_points"], stand["movement"], stand["cost"]) == (1, 10, 10)
    assert stand["remaining"]["movement"] == 0 and stand["remaining"]["action_points"] == 2
    assert stand["events"] == ["stands_up"]
    assert by_id(r, "ayla")["conditions"] == []
    assert ("turn 1 (ayla), step 2: standing up costs 10 m (half of 20 m), 0 m left"
            in texts(r))


def test_standing_up_keeps_other_conditions() -> None:
    # Standing up ends Prone only; Drained (no effect) stays.
    r = play([ent(conditions=[{"name": "Drained", "source": "x", "remaining_turns": 2},
                              {"name": "Prone"}])],
             [{"entity": "ayla", "steps": [{"kind": "stand_up"}]}])
    assert [c["name"] for c in by_id(r, "ayla")["conditions"]] == ["Drained"]


def test_standing_up_while_a_condition_forbids_moving_is_c2() -> None:
    # C2: a table's Rooted forbids movement (not actions): standing up is
    # refused by C2 before its P3 movement check.
    catalog = [{"name": "Rooted", "effects": {"no_movement": True}},
               {"name": "Prone", "effects": {"crawl_only": True}}]
    err = illegal([ent(conditions=[{"name": "Rooted"}, {"name": "Prone"}])],
                  [{"entity": "ayla", "steps": [{"kind": "stand_up"}]}], conditions=catalog)
    assert (err.rule, err.step) == ("C2", 1)
    assert "ayla cannot move while Rooted, so cannot stand up" in err.message
    assert err.details["entity"] == "ayla"


def test_unknown_action_cost_error_names_the_step_field() -> None:
    with pytest.raises(InputError) as info:
        play([ent()], [{"entity": "ayla", "steps": [{"kind": "move", "metres": 1},
                                                    {"kind": "action", "name": "juggle"}]}])
    assert [d.field for d in info.value.diagnostics] == ["turns[0].steps[1].cost"]


def test_an_action_without_hands_takes_no_hand_point() -> None:
    # P5: "help" (standard, 2 AP) without hands leaves both Hand points free;
    # with hands 1, one is spent until the next turn.
    r = play([ent()], [{"entity": "ayla", "steps": [{"kind": "action", "name": "help"}]}])
    assert steps_of(r)[0]["remaining"]["hands_free"] == 2
    r = play([ent()], [{"entity": "ayla", "steps": [
        {"kind": "action", "name": "help", "hands": 1}]}])
    assert steps_of(r)[0]["remaining"]["hands_free"] == 1


def test_holding_with_one_hand_point_free_costs_no_action_point() -> None:
    # P5: 2 Hand points, 1 held item -> 1 free: holding a second item is
    # legal, 0 free after; a hold costs 0 AP unless it gives action_points.
    r = play([ent(held_items=["torch"])], [{"entity": "ayla", "steps": [
        {"kind": "hold", "item": "rope"}]}])
    step = steps_of(r)[0]
    assert step["action_points"] == 0
    assert step["remaining"]["hands_free"] == 0 and step["remaining"]["action_points"] == 3
    assert by_id(r, "ayla")["held_items"] == ["torch", "rope"]
    assert ("turn 1 (ayla), step 1: ayla holds rope: one Hand point until dropped, 0 free"
            in texts(r))
    assert not any(t.startswith("turn 1 (ayla), step 1: holding") for t in texts(r))
    r = play([ent()], [{"entity": "ayla", "steps": [
        {"kind": "hold", "item": "rope", "action_points": 1}]}])
    assert steps_of(r)[0]["action_points"] == 1
    assert steps_of(r)[0]["remaining"]["action_points"] == 2


def test_dropping_an_item_frees_its_hand_point() -> None:
    # RE-07/P5: dropping is free (0 AP) and gives the Hand point back.
    r = play([ent(held_items=["torch", "rope"])], [{"entity": "ayla", "steps": [
        {"kind": "drop", "item": "torch"}]}])
    step = steps_of(r)[0]
    assert step["action_points"] == 0 and step["remaining"]["hands_free"] == 1
    assert by_id(r, "ayla")["held_items"] == ["rope"]
    err = illegal([ent(held_items=["rope"])], [{"entity": "ayla", "steps": [
        {"kind": "drop", "item": "torch"}]}])
    assert (err.rule, err.step) == ("P5", 1)
    assert err.details["item"] == "torch" and err.details["held"] == ["rope"]


def test_stopping_one_of_two_maintained_idioms_keeps_the_other() -> None:
    # P6: stopping is free; only the idiom named stops.
    maintained = [{"idiom": "Ward", "hand_cost": 0}, {"idiom": "Glow", "hand_cost": 0}]
    for stop, kept in (("Ward", ["Glow"]), ("Glow", ["Ward"])):
        r = play([ent(maintained=maintained)], [{"entity": "ayla", "steps": [
            {"kind": "stop_maintaining", "idiom": stop}]}])
        assert [m["idiom"] for m in by_id(r, "ayla")["maintained"]] == kept
        assert steps_of(r)[0]["events"] == [f"stops_maintaining:{stop}"]
    r = play([ent(maintained=maintained[:1])], [{"entity": "ayla", "steps": [
        {"kind": "stop_maintaining", "idiom": "Ward"}]}])
    assert by_id(r, "ayla")["maintained"] == []


def test_a_second_reaction_names_what_is_left() -> None:
    # P4: one reaction per round; the second needs 1 and has 0 left.
    err = illegal([ent(), ent("grunt", kind="enemy")],
                  [{"entity": "ayla", "steps": [{"kind": "reaction", "entity": "grunt"},
                                                {"kind": "reaction", "entity": "grunt"}]}])
    assert err.details == {"turn": 1, "step": 2, "entity": "grunt", "needed": 1, "left": 0}


# ---------------------------------------------------------------------------
# Attacks in a turn (turn_actions): P1, P5, D1-D5, A1, A2, T1-T4, H1


def _attack(rolls: list[int], *, foe_fields: dict[str, Any] | None = None,
            ayla: dict[str, Any] | None = None, catalog: Any = None,
            **step: Any) -> dict[str, Any]:
    extra = {} if catalog is None else {"conditions": catalog}
    return play([ent(**(ayla or {})), foe(**{"hp": 30, "max_hp": 30, "ac": 10,
                                              **(foe_fields or {})})],
                [{"entity": "ayla", "steps": [{"kind": "attack", "target": "grunt", **step}]}],
                rolls=rolls, **extra)


def test_a_named_damage_tick_is_read_from_the_damage_table() -> None:
    # T1: Major (20-30, Potential x 2) exists only as a damage tick. 6d6 has
    # expected value 21 (conforms). d20 15 vs AC 10: m = 5, success, hit;
    # 6d6 [1] x 6 = 6, no Potential: 30 - 6 = 24.
    r = _attack([15, 1, 1, 1, 1, 1, 1], damage={"dice": "6d6", "tick": "major"})
    step = steps_of(r)[0]
    assert step["damage"]["tick"] == "major" and step["damage"]["multiplier"] == 2
    assert by_id(r, "grunt")["hp"] == 24


def test_without_a_named_tick_the_first_tick_holding_the_expected_value_is_used() -> None:
    # T1/T3: 2d6+5 has expected value 12, in Moderate (8-12, x 1) and Strong
    # (12-16, x 2); the first in T1 order is Moderate. Hit (15 vs 10);
    # [3, 4] + 5 = 12, + Potential 2 x 1 = 14: 30 - 14 = 16.
    r = _attack([15, 3, 4], ayla={"abilities": {"potential": 2}},
                damage={"dice": "2d6+5", "ability": "potential"})
    step = steps_of(r)[0]
    assert step["damage"]["tick"] == "moderate" and step["damage"]["amount"] == 14
    assert by_id(r, "grunt")["hp"] == 16


def test_damage_dice_no_tick_holds_are_invalid_input_at_the_step() -> None:
    # T3: 1d2-1 has expected value 1/2: below Tiny (1-4), no tick holds it.
    with pytest.raises(InputError) as info:
        _attack([15, 1], damage={"dice": "1d2-1"})
    assert [d.field for d in info.value.diagnostics] == ["turns[0].steps[0].damage.dice"]


@pytest.mark.parametrize(("face", "event"), [
    (20, "critical_hit"),   # m = 10: critical success (nat 20 cannot go higher)
    (10, "hit"),            # m = 0: success
    (9, "miss"),            # m = -1: partial success does not hit (A1)
    (5, "miss"),            # m = -5: failure
    (1, "critical_miss"),   # m = -9: failure, nat 1 one step down: critical failure (A2)
])
def test_attack_events_name_the_outcome(face: int, event: str) -> None:
    r = _attack([face])
    assert steps_of(r)[0]["events"] == ["attacks:grunt", event]


def test_a_miss_rolls_no_damage() -> None:
    # d20 5 vs AC 10: miss; the damage dice are not rolled (one face used).
    r = _attack([5], damage={"dice": "1d4"})
    step = steps_of(r)[0]
    assert "damage" not in step and "target_report" not in step
    assert r["rolls_used"] == [5]
    assert by_id(r, "grunt")["hp"] == 30


def test_damage_floored_at_zero_takes_no_hp() -> None:
    # T4: 1d4 [2] - 10 = -8, floored at 0: the target keeps its 30 HP.
    r = _attack([15, 2], damage={"dice": "1d4", "modifiers": [{"label": "weak",
                                                                "value": -10}]})
    assert steps_of(r)[0]["damage"]["amount"] == 0
    assert steps_of(r)[0]["target_report"]["damage"] == 0
    assert by_id(r, "grunt")["hp"] == 30


def test_attack_modifiers_and_hands() -> None:
    # D1: 12 + bless 3 = 15 vs AC 15: m = 0, success, hit. P5: no hands
    # given, none spent; hands 1 spends one of the 2.
    r = _attack([12], foe_fields={"ac": 15}, modifiers=[{"label": "bless", "value": 3}])
    step = steps_of(r)[0]
    assert step["attack"]["total"] == 15 and step["events"][1] == "hit"
    assert step["remaining"]["hands_free"] == 2
    r = _attack([12], hands=1)
    assert steps_of(r)[0]["remaining"]["hands_free"] == 1


def test_step_advantage_and_disadvantage_keep_the_right_die() -> None:
    # D2: advantage keeps 15 of [3, 15] (hit); disadvantage keeps 3 (miss).
    assert steps_of(_attack([3, 15], advantage=True))[0]["events"][1] == "hit"
    assert steps_of(_attack([15, 3], disadvantage=True))[0]["events"][1] == "miss"


def test_condition_advantage_on_attacks_is_applied_and_explained() -> None:
    # C2: a table's Hasted gives advantage on attacks, Hexed disadvantage.
    catalog = [{"name": "Hasted", "effects": {"advantage": ["attack"]}},
               {"name": "Hexed", "effects": {"disadvantage": ["attack"]}}]
    r = _attack([3, 15], ayla={"conditions": [{"name": "Hasted"}]}, catalog=catalog)
    assert steps_of(r)[0]["events"][1] == "hit"
    lines = [t for t in texts(r) if "on the attack from" in t]
    assert lines == ["turn 1 (ayla), step 1: advantage on the attack from Hasted"]
    r = _attack([15, 3], ayla={"conditions": [{"name": "Hexed"}]}, catalog=catalog)
    assert steps_of(r)[0]["events"][1] == "miss"
    lines = [t for t in texts(r) if "on the attack from" in t]
    assert lines == ["turn 1 (ayla), step 1: disadvantage on the attack from Hexed"]


# ---------------------------------------------------------------------------
# Casts in a turn (turn_actions): F1, P1, P5, P6


def test_casting_an_idiom_missing_from_the_catalog_is_f1_at_the_step() -> None:
    err = illegal([ent()], [{"entity": "ayla", "steps": [{"kind": "cast",
                                                          "idiom": "Sing - Song"}]}])
    assert (err.rule, err.step) == ("F1", 1)
    assert err.details == {"turn": 1, "step": 1, "idiom": "Sing - Song"}


BLINK = {"name": "Blink - Air", "verb": "Blink", "noun": "Air", "flux_cost": 1,
         "hand_cost": 0, "action_points": 1,
         "effect": {"description": "A short hop through the air."}}


def test_cast_action_points_step_then_idiom_then_default() -> None:
    # P1: Shape - Fire costs 2 AP by default, 1 when the step says so; an
    # idiom's own cost (Blink - Air: 1) wins over the default.
    shaper = ent(idioms=["Shape - Fire"])
    r = play([shaper], [{"entity": "ayla", "steps": [{"kind": "cast", "idiom": "Shape - Fire"}]}])
    assert steps_of(r)[0]["action_points"] == 2
    r = play([shaper], [{"entity": "ayla", "steps": [
        {"kind": "cast", "idiom": "Shape - Fire", "action_points": 1}]}])
    assert steps_of(r)[0]["action_points"] == 1
    assert "turn 1 (ayla), step 1: casting Shape - Fire (given by the step): 1 action " \
        "point(s), 2 left" in texts(r)
    r = play([ent(idioms=["Blink - Air"])], [{"entity": "ayla", "steps": [
        {"kind": "cast", "idiom": "Blink - Air"}]}], idioms=[BLINK])
    assert steps_of(r)[0]["action_points"] == 1
    assert "turn 1 (ayla), step 1: casting Blink - Air (the idiom's own cost): 1 action " \
        "point(s), 2 left" in texts(r)


def test_a_cast_may_take_the_last_free_hand_point() -> None:
    # P5/P6: 1 Hand point, Shape - Fire costs 1: the cast is legal; 0 left
    # after it, so it is not maintained, and its Hand point is spent until
    # the next turn.
    r = play([ent(idioms=["Shape - Fire"], hand_points=1)], [{"entity": "ayla", "steps": [
        {"kind": "cast", "idiom": "Shape - Fire"}]}])
    step = steps_of(r)[0]
    assert step["cast"]["maintained"] is False
    assert step["remaining"]["hands_free"] == 0
    assert by_id(r, "ayla")["maintained"] == [] and by_id(r, "ayla")["hands_spent"] == 1


def test_a_non_maintainable_cast_spends_its_hand_point_for_the_turn() -> None:
    # P5: Hurl - Fire takes 1 of 2 Hand points until the next turn. d20 15 vs
    # AC 10 hits (Potential not given: +0); 2d6+1 [1, 1] + 1 = 3: 30 - 3 = 27.
    r = play([ent(idioms=["Hurl - Fire"]), foe(hp=30, max_hp=30, ac=10)],
             [{"entity": "ayla", "steps": [{"kind": "cast", "idiom": "Hurl - Fire",
                                            "targets": ["grunt"]}]}], rolls=[15, 1, 1])
    step = steps_of(r)[0]
    assert step["remaining"]["hands_free"] == 1
    assert by_id(r, "ayla")["hands_spent"] == 1
    # the caster's events bare, the target's prefixed with its id
    assert step["events"][0] == "casts"
    assert all(ev.startswith("grunt:") for ev in step["events"][1:])
    assert by_id(r, "grunt")["hp"] == 27


def test_adjectives_of_a_turn_cast_are_recorded() -> None:
    r = play([ent(idioms=["Shape - Fire"])], [{"entity": "ayla", "steps": [
        {"kind": "cast", "idiom": "Shape - Fire", "adjectives": ["Wide"]}]}])
    assert [a["name"] for a in steps_of(r)[0]["cast"]["adjectives"]] == ["Wide"]


def test_check_only_casts_settle_maintaining_and_hands() -> None:
    # check only (no die): Shape - Fire with 2 Hand points is maintained
    # (1 left after the cast's own 1); with 1 Hand point it is not, and its
    # Hand point is spent for the turn.
    turns = [{"entity": "ayla", "steps": [{"kind": "cast", "idiom": "Shape - Fire"}]}]
    r = play([ent(idioms=["Shape - Fire"])], turns, check=True)
    step = steps_of(r)[0]
    assert step["events"] == ["casts", "starts_maintaining"]
    assert (step["final_cost"], step["overclocked"], step["missing"]) == (1, False, 0)
    assert step["remaining"]["hands_free"] == 1
    assert by_id(r, "ayla")["maintained"] == [{"idiom": "Shape - Fire"}]
    r = play([ent(idioms=["Shape - Fire"], hand_points=1)], turns, check=True)
    step = steps_of(r)[0]
    assert step["events"] == ["casts"]
    assert step["remaining"]["hands_free"] == 0
    assert by_id(r, "ayla")["maintained"] == []


def test_check_only_overclocked_cast_applies_its_consequence() -> None:
    # F4: Hurl - Fire costs 3; Flux 1 + 1 regenerated = 2: 1 missing, row 1:
    # Drained for 1 turn; all Flux spent.
    r = play([ent(idioms=["Hurl - Fire"], flux=1), foe()],
             [{"entity": "ayla", "steps": [{"kind": "cast", "idiom": "Hurl - Fire",
                                            "targets": ["grunt"], "overclock": True}]}],
             check=True)
    step = steps_of(r)[0]
    assert (step["final_cost"], step["overclocked"], step["missing"]) == (3, True, 1)
    assert step["events"] == ["casts", "becomes_drained"]
    assert step["remaining"]["flux"] == 0
    assert "turn 1 (ayla), step 1: Hurl - Fire: effect not resolved (check only)" in texts(r)


# ---------------------------------------------------------------------------
# The turn engine (turn_engine): O1, P1, P4-P6, F1, F2, C1, C2, H6


def rule_lines(result: dict[str, Any], rule: str) -> list[str]:
    return [s["text"] for s in result["explanation"] if s["rule"] == rule]


def test_where_each_turn_falls_in_the_rounds_is_explained() -> None:
    # O1 rev. 2: ayla starts round 1 (the first), grunt continues it, ayla
    # again starts round 2; from a state in round 3 where nobody has acted,
    # grunt's turn starts round 3 with no reason given.
    r = play([ent(), foe()], [{"entity": "ayla", "steps": []},
                              {"entity": "grunt", "steps": []},
                              {"entity": "ayla", "steps": []}])
    assert [t for t in rule_lines(r, "O1") if "round" in t] == [
        "turn 1 (ayla): round 1 starts with ayla's turn (the first round)",
        "turn 2 (grunt): round 1 continues: grunt has not acted in it yet (acted: ayla)",
        "turn 3 (ayla): round 2 starts with ayla's turn (ayla already acted in round 1)"]
    r = play([ent(), foe()], [{"entity": "grunt", "steps": []}],
             state_fields={"round": 3, "acted_this_round": []})
    assert rule_lines(r, "O1")[0] == "turn 1 (grunt): round 3 starts with grunt's turn"


def test_end_turn_not_last_names_its_own_step() -> None:
    with pytest.raises(InputError) as info:
        play([ent()], [{"entity": "ayla", "steps": [{"kind": "move", "metres": 1},
                                                    {"kind": "end_turn"},
                                                    {"kind": "move", "metres": 1}]}])
    assert [d.field for d in info.value.diagnostics] == ["turns[0].steps[1]"]


def test_an_unknown_target_names_the_known_entities() -> None:
    with pytest.raises(InputError) as info:
        play([ent()], [{"entity": "ayla", "steps": [{"kind": "attack", "target": "nobody"}]}])
    d = info.value.diagnostics[0]
    assert d.field == "turns[0].steps[0].target"
    assert "no entity with id 'nobody' in the state (known: ayla)" in d.message


def test_a_dead_entity_takes_no_turn_and_no_step() -> None:
    # O1: a dead entity's turn is none; any step it is given is refused (C2).
    dead = ent(hp=0, dead=True, death={"cause": "zero_hp"})
    r = play([dead], [{"entity": "ayla", "steps": []}])
    assert r["turns"][0]["start"]["events"] == ["dead"]
    assert "turn 1 (ayla), start: ayla is dead: no turn" in texts(r)
    err = illegal([dead], [{"entity": "ayla", "steps": [{"kind": "move", "metres": 1}]}])
    assert (err.rule, err.details) == ("C2", {"turn": 1, "step": 1, "entity": "ayla"})
    assert "ayla is dead and cannot move" in err.message


def test_start_of_turn_reaction_and_flux_events() -> None:
    # P4: a reaction spent before the turn comes back ("reaction_back");
    # F2: Flux 5 + 1 = 6 (max 10) gives "flux_regenerates:+1"; at its
    # maximum 10 + 1 = 11 is capped at 10: no event.
    r = play([ent(reaction_available=False, flux=5)], [{"entity": "ayla", "steps": []}])
    assert r["turns"][0]["start"]["events"] == ["reaction_back", "flux_regenerates:+1"]
    assert "turn 1 (ayla), start: Flux 5 +1 = 6 (max 10)" in texts(r)
    r = play([ent()], [{"entity": "ayla", "steps": []}])
    assert r["turns"][0]["start"]["events"] == []
    assert "turn 1 (ayla), start: Flux 10 +1 = 11, capped at its maximum 10" in texts(r)


def test_flux_regeneration_reaching_exactly_the_maximum_is_not_capped() -> None:
    # F2: 9 + 1 = 10 = max: no cap to mention.
    r = play([ent(flux=9)], [{"entity": "ayla", "steps": []}])
    assert "turn 1 (ayla), start: Flux 9 +1 = 10 (max 10)" in texts(r)


def test_flux_regeneration_changed_by_a_condition() -> None:
    # C2/F2: a table's Drained gives Flux regeneration -1: 1 - 1 = 0, so
    # Flux 0 + 0 = 0 (max 10), no event; -2 gives 0 - 1 = -1, floored at 0 (F1).
    held = [{"name": "Drained", "source": "x", "remaining_turns": 1}]
    r = play([ent(flux=0, conditions=held)], [{"entity": "ayla", "steps": []}],
             conditions=[{"name": "Drained", "effects": {"flux_regen_change": -1}}])
    assert "turn 1 (ayla), start: ayla: Flux regeneration 1 -1 from Drained = 0" in texts(r)
    assert "turn 1 (ayla), start: Flux 0 +0 = 0 (max 10)" in texts(r)
    assert rule_lines(r, "F1") == []
    assert r["turns"][0]["start"]["remaining"]["flux"] == 0
    assert r["turns"][0]["start"]["events"] == []
    r = play([ent(flux=0, conditions=held)], [{"entity": "ayla", "steps": []}],
             conditions=[{"name": "Drained", "effects": {"flux_regen_change": -2}}])
    assert "turn 1 (ayla), start: Flux 0 -1 = -1" in texts(r)
    assert rule_lines(r, "F1") == [
        "turn 1 (ayla), start: Flux never goes below 0: 0 -1 = -1, floored at 0"]
    assert r["turns"][0]["start"]["remaining"]["flux"] == 0
    r = play([ent(flux=4, conditions=held)], [{"entity": "ayla", "steps": []}],
             conditions=[{"name": "Drained", "effects": {"flux_regen_change": 2}}])
    assert r["turns"][0]["start"]["remaining"]["flux"] == 7  # 4 + (1 + 2)


def test_conditions_without_effect_are_said_at_the_start_of_turn() -> None:
    # C2: Drained has no enforced effect in the default catalog.
    r = play([ent(conditions=[{"name": "Drained", "source": "x", "remaining_turns": 1}])],
             [{"entity": "ayla", "steps": []}])
    assert rule_lines(r, "C2") == [
        "turn 1 (ayla), start: ayla: Drained has no enforced effect (the condition catalog "
        "(default) lists none): it is tracked with its source and duration only"]


def test_the_third_death_save_failure_ends_the_turn_before_it_starts() -> None:
    # H6: Dying with 2 failures rolls 5 (< 10): a third failure, dead; the
    # turn it was starting is not taken: 0 AP and 0 m left.
    dying = ent("cole", hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                          {"name": "Unconscious", "source": "dying"}],
                death_saves={"failures": 2})
    r = play([dying], [{"entity": "cole", "steps": []}], rolls=[5])
    start = r["turns"][0]["start"]["remaining"]
    assert (start["action_points"], start["movement"]) == (0, 0)
    assert by_id(r, "cole")["dead"] is True


def test_a_stable_entity_rolls_no_death_save_and_others_are_not_told_so() -> None:
    stable = ent("cole", hp=0, conditions=[{"name": "Stable", "source": "dying"},
                                           {"name": "Unconscious", "source": "dying"}])
    r = play([stable, ent()], [{"entity": "cole", "steps": []},
                               {"entity": "ayla", "steps": []}], rolls=[])
    assert rule_lines(r, "H6") == ["turn 1 (cole), start: cole is Stable: no death saving throw"]


def test_check_only_skips_the_death_save() -> None:
    dying = ent("cole", hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                          {"name": "Unconscious", "source": "dying"}])
    r = play([dying], [{"entity": "cole", "steps": []}], check=True)
    assert r["turns"][0]["start"]["death_save"] == {"skipped": True}
    assert "turn 1 (cole), start: cole is Dying: death save not rolled (check only)" in texts(r)


def test_action_point_change_never_goes_below_zero() -> None:
    # C2/P1: a table's Drained gives -4 AP: 3 - 4 is floored at 0.
    held = [{"name": "Drained", "source": "x", "remaining_turns": 1}]
    r = play([ent(conditions=held)], [{"entity": "ayla", "steps": []}],
             conditions=[{"name": "Drained", "effects": {"ap_change": -4}}])
    assert r["turns"][0]["start"]["remaining"]["action_points"] == 0
    assert "turn 1 (ayla), start: ayla: action points 3 -4 from Drained = 0" in texts(r)


def test_no_actions_and_the_movement_cap_are_said_at_the_start() -> None:
    # C2: Stunned (default): no actions this turn, 0 m. A table's Hasted
    # doubling 90,000 m gives 180,000 m, capped at 100,000 m.
    r = play([ent(conditions=[{"name": "Stunned", "source": "x", "remaining_turns": 1}])],
             [{"entity": "ayla", "steps": []}])
    assert rule_lines(r, "C2") == [
        "turn 1 (ayla), start: ayla cannot move (Stunned): 0 m",
        "turn 1 (ayla), start: ayla can take no actions this turn (Stunned)"]
    catalog = [{"name": "Hasted", "effects": {"movement_factor": "2"}}]
    hasted = [{"name": "Hasted", "source": "table"}]
    r = play([ent(conditions=hasted, movement_max=90_000)], [{"entity": "ayla", "steps": []}],
             conditions=catalog)
    assert rule_lines(r, "C2") == [
        "turn 1 (ayla), start: ayla: movement x 2 from Hasted = 100000 m (the most a state holds)"]
    r = play([ent(conditions=hasted)], [{"entity": "ayla", "steps": []}], conditions=catalog)
    assert rule_lines(r, "C2") == ["turn 1 (ayla), start: ayla: movement x 2 from Hasted = 30 m"]


def test_maintained_idioms_paid_oldest_first_until_hands_run_out() -> None:
    # P6: 2 Hand points; Ward costs 1 (1 left), Glow costs 2 (> 1): Glow stops.
    # With Ward alone costing 2 of 2: paid exactly, kept.
    r = play([ent(maintained=[{"idiom": "Ward", "hand_cost": 1},
                              {"idiom": "Glow", "hand_cost": 2}])],
             [{"entity": "ayla", "steps": []}])
    assert [m["idiom"] for m in by_id(r, "ayla")["maintained"]] == ["Ward"]
    assert r["turns"][0]["start"]["events"] == ["stops_maintaining:Glow"]
    r = play([ent(maintained=[{"idiom": "Ward", "hand_cost": 2}])],
             [{"entity": "ayla", "steps": []}])
    assert [m["idiom"] for m in by_id(r, "ayla")["maintained"]] == ["Ward"]
    assert r["turns"][0]["start"]["remaining"]["hands_free"] == 0


@pytest.mark.parametrize("source", ["Shape - Fire", "ayla:Shape - Fire", "idiom:shape - fire"])
def test_stopping_an_idiom_ends_the_conditions_it_gave(source: str) -> None:
    # P6: the conditions whose source names the idiom end at once, on every
    # entity; others stay.
    grunt = foe(conditions=[{"name": "Burning", "source": source},
                            {"name": "Prone", "source": "shove"}])
    r = play([ent(maintained=[{"idiom": "Shape - Fire"}]), grunt],
             [{"entity": "ayla", "steps": [{"kind": "stop_maintaining",
                                            "idiom": "Shape - Fire"}]}])
    assert [c["name"] for c in by_id(r, "grunt")["conditions"]] == ["Prone"]
    assert r["entities"]["grunt"]["events"] == ["condition_ends:Burning"]
    assert rule_lines(r, "P6")[-1] == ("turn 1 (ayla), step 1: Shape - Fire ends: grunt loses "
                                       "Burning")
    assert not any("ayla loses" in t for t in rule_lines(r, "P6"))


def test_durations_ending_at_the_end_of_turn_are_named() -> None:
    r = play([ent(conditions=[{"name": "Drained", "source": "x", "remaining_turns": 1}])],
             [{"entity": "ayla", "steps": []}])
    assert rule_lines(r, "C1") == ["turn 1 (ayla), end: end of ayla's turn: durations tick; "
                                   "Drained end(s)"]
    r = play([ent()], [{"entity": "ayla", "steps": []}])
    assert rule_lines(r, "C1") == ["turn 1 (ayla), end: end of ayla's turn: durations tick"]


@pytest.mark.parametrize("points", [0, 3])
def test_a_step_may_cost_zero_to_three_action_points(points: int) -> None:
    # P1 rev. 2: 0 to 3 AP per action.
    r = play([ent()], [{"entity": "ayla", "steps": [
        {"kind": "hold", "item": "rope", "action_points": points}]}])
    assert r["turns"][0]["steps"][0]["remaining"]["action_points"] == 3 - points


def test_moving_while_a_condition_forbids_it() -> None:
    catalog = [{"name": "Rooted", "effects": {"no_movement": True}}]
    err = illegal([ent(conditions=[{"name": "Rooted"}])],
                  [{"entity": "ayla", "steps": [{"kind": "move", "metres": 1}]}],
                  conditions=catalog)
    assert err.rule == "C2" and err.details["conditions"] == ["Rooted"]
    assert "ayla cannot move while Rooted [rule C2]" in err.message


def test_spending_points_and_hands_is_explained() -> None:
    # P1: help (standard) 2 of 3 AP, 1 left; P5: no Hand point line without
    # hands; both Hand points spent exactly (2 of 2).
    r = play([ent()], [{"entity": "ayla", "steps": [{"kind": "action", "name": "help"}]}])
    assert rule_lines(r, "P1")[1] == ("turn 1 (ayla), step 1: help (standard action): 2 action "
                                      "point(s), 1 left")
    assert not any(t.startswith("turn 1 (ayla), step 1") for t in rule_lines(r, "P5"))
    r = play([ent()], [{"entity": "ayla", "steps": [
        {"kind": "action", "name": "help", "hands": 2}]}])
    assert r["turns"][0]["steps"][0]["remaining"]["hands_free"] == 0
    assert "turn 1 (ayla), step 1: help: 2 Hand point(s) until the next turn, 0 free" \
        in rule_lines(r, "P5")


def test_exhaustion_effects_need_a_tier() -> None:
    # C2/F5: with no tier the table's Exhaustion effects do not apply: talking
    # is legal. With 1 tier and Prone held too, the tier still forbids it.
    r = play([ent()], [{"entity": "ayla", "steps": [{"kind": "action", "name": "talk"}]}],
             conditions=CATALOG)
    assert r["turns"][0]["steps"][0]["events"] == ["action:talk"]
    err = illegal([ent(exhaustion=1, conditions=[{"name": "Prone"}])],
                  [{"entity": "ayla", "steps": [{"kind": "action", "name": "talk"}]}],
                  conditions=CATALOG)
    assert err.details["conditions"] == ["Exhaustion"]


def test_held_items_are_paid_before_maintained_idioms() -> None:
    # P5/P6: 2 Hand points - 1 held item = 1 free; Ward costs 2 > 1: it stops.
    r = play([ent(held_items=["torch"], maintained=[{"idiom": "Ward", "hand_cost": 2}])],
             [{"entity": "ayla", "steps": []}])
    assert by_id(r, "ayla")["maintained"] == []
    assert r["turns"][0]["start"]["events"] == ["stops_maintaining:Ward"]
    assert ("turn 1 (ayla), start: ayla: 2 Hand points - 1 held item(s) = 1 free before "
            "maintained idioms") in texts(r)


def test_a_condition_listed_twice_in_a_catalog_is_invalid_input() -> None:
    # C2: names are compared ignoring case; the second entry is the one
    # named, in the request (inline) or at its line in a catalog file.
    from linguo_cli.io.read import parse
    from linguo_cli.rulesets.linguomancy import conditions

    with pytest.raises(InputError) as info:
        conditions.catalog_from_request([{"name": "Drained"}, {"name": "Stunned"},
                                         {"name": "Drained"}])
    assert [(d.place, d.field, d.message) for d in info.value.diagnostics] == [
        ("request conditions", "conditions[2].name", "condition 'Drained' is listed twice")]
    doc = parse("conditions:\n  - name: Drained\n  - name: DRAINED\n", "table.yaml")
    with pytest.raises(InputError) as info:
        conditions.load_catalog(doc.data, name="table.yaml", document=doc)
    assert [(d.place, d.field) for d in info.value.diagnostics] == [
        ("table.yaml:3:11", "conditions[1].name")]


def test_conditions_with_rules_but_no_effect_are_not_called_unenforced() -> None:
    # C2: Dying has no effect of the vocabulary but rules (H5-H8): enforced,
    # so the start of a Dying entity's turn carries no "no enforced effect".
    dying = ent("cole", hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                          {"name": "Unconscious", "source": "dying"}])
    r = play([dying], [{"entity": "cole", "steps": []}], rolls=[12])
    assert not any("no enforced effect" in t for t in texts(r))


def test_decimal_metres_are_read_as_written_not_as_binary_floats() -> None:
    # P2: 14.9 m then 0.1 m walked of 15 m is exactly 15 m: legal, 0 left.
    # (Read as binary floats, 14.9 + 0.1 would exceed 15 by a hair.)
    r = play([ent()], [{"entity": "ayla", "steps": [{"kind": "move", "metres": 14.9},
                                                    {"kind": "move", "metres": 0.1}]}])
    first, second = steps_of(r)
    assert (first["cost"], first["remaining"]["movement"]) == ("149/10", "1/10")
    assert (second["cost"], second["remaining"]["movement"]) == ("1/10", 0)
