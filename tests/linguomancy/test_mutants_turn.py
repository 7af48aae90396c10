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
