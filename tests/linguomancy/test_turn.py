"""The turn engine (rulesets/linguomancy/turn.py): legality, start/end of turn, dice order."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from linguo_cli.core.dice import ScriptedDice, SeededDice
from linguo_cli.core.errors import DiceError, InputError, RulesError
from linguo_cli.core.results import to_plain
from linguo_cli.io import state_io
from linguo_cli.rulesets.linguomancy import requests, turn
from linguo_cli.rulesets.linguomancy.model import Entity


def ent(eid: str = "ayla", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": eid, "kind": "player", "hp": 12, "max_hp": 12,
                            "movement_max": 15}
    base.update(fields)
    return base


def play(entities: list[dict[str, Any]], turns: list[dict[str, Any]], rolls: Any = (),
         state_fields: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """Validate and resolve a turn request like `linguo resolve` does
    (``state_fields``: more top-level fields of the state, e.g. ``round``)."""
    req: dict[str, Any] = {"kind": "turn",
                           "state": {**(state_fields or {}), "entities": entities},
                           "turns": turns, **extra}
    if rolls is not None:
        req["rolls"] = list(rolls)
    state_io.validate(state_io.Document("request", copy.deepcopy(req)), "request")
    result: dict[str, Any] = to_plain(requests.resolve(req))
    return result


def illegal(entities: list[dict[str, Any]], turns: list[dict[str, Any]], rolls: Any = (),
            **extra: Any) -> RulesError:
    with pytest.raises(RulesError) as info:
        play(entities, turns, rolls, **extra)
    return info.value


def by_id(result: dict[str, Any], eid: str) -> dict[str, Any]:
    return next(e for e in result["state"]["entities"] if e["id"] == eid)


# ---------------------------------------------------------------------------
# Acceptance of the issue


def test_move_attack_move_leaves_zero_metres_and_one_point() -> None:
    r = play([ent(), {"id": "dummy", "kind": "enemy", "hp": 3, "max_hp": 3}],
             [{"entity": "ayla", "steps": [{"kind": "move", "metres": 5},
                                           {"kind": "attack", "target": "dummy"},
                                           {"kind": "move", "metres": 10}]}])
    assert r["turns"][0]["remaining"]["movement"] == 0
    assert r["turns"][0]["steps"][-1]["remaining"]["action_points"] == 1
    # P1 rev. 2: the unspent point is lost at the end of the turn.
    assert r["turns"][0]["remaining"]["action_points"] == 0
    assert by_id(r, "ayla")["movement"] == 0


def test_crawl_difficult_then_stand_up_is_illegal_at_step_2() -> None:
    err = illegal([ent(conditions=[{"name": "Prone"}])],
                  [{"entity": "ayla", "steps": [
                      {"kind": "move", "metres": 3, "mode": "crawl", "terrain": "difficult"},
                      {"kind": "stand_up"}]}])
    assert err.rule == "P3"
    assert err.step == 2
    assert err.details["needed"] == 7.5
    assert err.details["left"] == 6
    assert err.code == 4
    assert "step 2" in err.message


def test_older_maintained_idiom_kept_newer_ends() -> None:
    r = play([ent(held_items=["torch"], maintained=[
        {"idiom": "Shape - Ice", "hand_cost": 1}, {"idiom": "Speak - Wind", "hand_cost": 1}])],
        [{"entity": "ayla", "steps": []}])
    assert by_id(r, "ayla")["maintained"] == [{"idiom": "Shape - Ice", "hand_cost": 1}]
    assert r["turns"][0]["start"]["events"] == ["stops_maintaining:Speak - Wind"]


# ---------------------------------------------------------------------------
# One illegal case per legality rule: rule ID, step index, numbers


@pytest.mark.parametrize(("state", "steps", "rule", "step", "details"), [
    (ent(), [{"kind": "action", "name": "help"}, {"kind": "action", "name": "hide"}],
     "P1", 2, {"needed": 2, "left": 1}),
    (ent(), [{"kind": "move", "metres": 10}, {"kind": "move", "metres": 3,
                                              "mode": "crawl"}],
     "P2", 2, {"needed": 6, "left": 5}),
    (ent(conditions=[{"name": "Prone"}]), [{"kind": "move", "metres": 1}], "P3", 1, {}),
    (ent(movement_max=0, conditions=[{"name": "Prone"}]), [{"kind": "stand_up"}], "P3", 1,
     {"movement_max": 0}),
    (ent(held_items=["a", "b"]), [{"kind": "hold", "item": "c"}], "P5", 1,
     {"needed": 1, "left": 0}),
    (ent(held_items=["torch"]), [{"kind": "action", "name": "use_item", "hands": 2}], "P5", 1,
     {"needed": 2, "left": 1}),
    (ent(), [{"kind": "stop_maintaining", "idiom": "Shape - Ice"}], "P6", 1, {}),
    (ent(conditions=[{"name": "Stunned", "remaining_turns": 1}]),
     [{"kind": "action", "name": "talk"}], "C2", 1, {"conditions": ["Stunned"]}),
])
def test_illegal_steps_name_rule_step_and_numbers(
        state: dict[str, Any], steps: list[dict[str, Any]], rule: str, step: int,
        details: dict[str, Any]) -> None:
    err = illegal([state], [{"entity": "ayla", "steps": steps}])
    assert (err.rule, err.step) == (rule, step)
    assert err.details["turn"] == 1
    for k, v in details.items():
        assert err.details[k] == v


def test_second_reaction_in_round_is_illegal() -> None:
    err = illegal([ent(), ent("grunt", kind="enemy")],
                  [{"entity": "ayla", "steps": [{"kind": "reaction", "entity": "grunt"},
                                                {"kind": "reaction", "entity": "grunt"}]}])
    assert (err.rule, err.step) == ("P4", 2)


def test_illegal_step_in_second_turn_names_that_turn() -> None:
    err = illegal([ent()], [{"entity": "ayla", "steps": [{"kind": "move", "metres": 15}]},
                            {"entity": "ayla", "steps": [{"kind": "move", "metres": 16}]}])
    assert err.details["turn"] == 2 and err.step == 1
    assert err.details["needed"] == 16 and err.details["left"] == 15


def test_flux_shortage_of_a_cast_step_has_step_index() -> None:
    err = illegal([ent(flux=1, idioms=["Hurl - Fire"]), ent("grunt", kind="enemy", ac=10)],
                  [{"entity": "ayla", "steps": [
                      {"kind": "move", "metres": 1},
                      {"kind": "cast", "idiom": "Hurl - Fire", "targets": ["grunt"]}]}])
    # 1 + 1 regenerated = 2 Flux, Hurl - Fire costs 3 (F4 without overclocking).
    assert (err.rule, err.step) == ("F4", 2)
    assert err.details["missing"] == 1


def test_end_turn_must_be_last() -> None:
    with pytest.raises(InputError):
        play([ent()], [{"entity": "ayla", "steps": [{"kind": "end_turn"},
                                                    {"kind": "move", "metres": 1}]}])


def test_unknown_entity_is_invalid_input() -> None:
    with pytest.raises(InputError):
        play([ent()], [{"entity": "nobody", "steps": []}])


def test_unknown_named_action_needs_cost() -> None:
    with pytest.raises(InputError):
        play([ent()], [{"entity": "ayla", "steps": [{"kind": "action", "name": "juggle"}]}])
    r = play([ent()], [{"entity": "ayla", "steps": [
        {"kind": "action", "name": "juggle", "cost": "complex"}]}])
    assert r["turns"][0]["remaining"]["action_points"] == 0


# ---------------------------------------------------------------------------
# Start of turn (O1) and durations (C1)


def test_start_of_turn_order_and_resets() -> None:
    r = play([ent(action_points=0, movement=1, reaction_available=False, hands_spent=2,
                  flux=3, flux_regen=2)], [{"entity": "ayla", "steps": []}])
    start = r["turns"][0]["start"]
    assert start["remaining"] == {"action_points": 3, "movement": 15, "hands_free": 2,
                                  "flux": 5, "reaction_available": True}
    order = [s["rule"] for s in r["explanation"]]
    firsts = [order.index(rule) for rule in ("O1", "P4", "P1", "P2", "P5", "F2")]
    assert firsts == sorted(firsts)


def test_death_save_face_comes_before_step_faces() -> None:
    r = play([ent("cole", hp=0, ac=10, conditions=[{"name": "Dying", "source": "dying"},
                                                   {"name": "Unconscious", "source": "dying"}]),
              ent("grunt", kind="enemy", hp=5, max_hp=5)],
             [{"entity": "cole", "steps": []},
              {"entity": "grunt", "steps": [{"kind": "attack", "target": "cole",
                                             "damage": {"dice": "1d6"}}]}],
             rolls=[15, 12, 3])
    assert by_id(r, "cole")["death_saves"] == {"successes": 1, "failures": 1}
    assert r["rolls_used"] == [15, 12, 3]
    assert r["turns"][1]["steps"][0]["attack"]["natural"] == 12


def test_step_own_rolls_are_used_exactly() -> None:
    state = [ent(abilities={"signature": 2}), ent("grunt", kind="enemy", hp=9, max_hp=9,
                                                  ac=12)]
    step = {"kind": "attack", "target": "grunt", "ability": "signature",
            "damage": {"dice": "1d8", "type": "slashing"}, "rolls": [10, 5]}
    r = play(state, [{"entity": "ayla", "steps": [step]}], rolls=[])
    # 10 + 2 = 12 vs AC 12 hits; 1d8 = 5; 9 - 5 = 4.
    assert by_id(r, "grunt")["hp"] == 4
    assert r["rolls_used"] == []
    assert r["turns"][0]["steps"][0]["rolls_used"] == [10, 5]
    with pytest.raises(DiceError):
        play(state, [{"entity": "ayla", "steps": [{**step, "rolls": [10, 5, 6]}]}], rolls=[])


def test_unused_document_faces_are_an_error() -> None:
    with pytest.raises(DiceError):
        play([ent()], [{"entity": "ayla", "steps": []}], rolls=[4])


def test_condition_gained_in_own_turn_lasts_through_next_turn() -> None:
    # Overclocking 1 point: Drained for 1 turn, gained during turn 1 (C1).
    state = [ent(flux=2, idioms=["Hurl - Fire"], expertise={"Fire": 6}),
             ent("grunt", kind="enemy", hp=30, max_hp=30, ac=None)]
    cast = {"kind": "cast", "idiom": "Hurl - Fire", "targets": ["grunt"], "overclock": True,
            "upcast": 1}
    r = play(state, [{"entity": "ayla", "steps": [cast]}], rolls=[1, 1])
    drained = [c for c in by_id(r, "ayla")["conditions"] if c["name"] == "Drained"]
    assert drained and drained[0]["remaining_turns"] == 1
    r2 = play(state, [{"entity": "ayla", "steps": [cast]}, {"entity": "ayla", "steps": []}],
              rolls=[1, 1])
    assert by_id(r2, "ayla")["conditions"] == []
    assert r2["turns"][1]["end"]["events"] == ["condition_ends:Drained"]


def test_user_catalog_giving_drained_an_effect_changes_a_later_turn() -> None:
    """Issue 4 acceptance: Drained from overclocking in turn 1; with a table's
    catalog giving Drained -1 action point, the sprint of turn 2 is illegal;
    with the default catalog (no enforced effect) it is legal."""
    state = [ent(flux=2, idioms=["Hurl - Fire"], expertise={"Fire": 6}),
             ent("grunt", kind="enemy", hp=30, max_hp=30, ac=None)]
    turns = [{"entity": "ayla", "steps": [{"kind": "cast", "idiom": "Hurl - Fire",
                                           "targets": ["grunt"], "overclock": True,
                                           "upcast": 1}]},
             {"entity": "ayla", "steps": [{"kind": "action", "name": "sprint"}]}]
    r = play(state, turns, rolls=[2, 2])
    assert r["turns"][1]["start"]["remaining"]["action_points"] == 3
    catalog = [{"name": "Drained", "effects": {"ap_change": -1}},
               {"name": "Stunned", "effects": {"no_actions": True}}]
    err = illegal(state, turns, rolls=[2, 2], conditions=catalog)
    assert (err.rule, err.details["turn"], err.step) == ("P1", 2, 1)
    assert err.details == {"turn": 2, "step": 1, "needed": 3, "left": 2}


def test_natural_20_death_save_wakes_with_full_movement() -> None:
    r = play([ent("cole", hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                            {"name": "Unconscious", "source": "dying"}])],
             [{"entity": "cole", "steps": [{"kind": "move", "metres": 15}]}], rolls=[20])
    assert by_id(r, "cole")["hp"] == 1
    assert r["turns"][0]["remaining"]["movement"] == 0


def test_unconscious_has_no_movement_at_start() -> None:
    r = play([ent("cole", hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                            {"name": "Unconscious", "source": "dying"}])],
             [{"entity": "cole", "steps": []}], rolls=[5])
    assert r["turns"][0]["start"]["remaining"]["movement"] == 0
    assert by_id(r, "cole")["death_saves"]["failures"] == 1


# ---------------------------------------------------------------------------
# Casting, maintaining and check-only mode


def test_maintainable_cast_keeps_its_hand_points_next_turn() -> None:
    state = [ent(idioms=["Shape - Fire"], flux=4)]
    r = play(state, [{"entity": "ayla", "steps": [{"kind": "cast", "idiom": "Shape - Fire"}]},
                     {"entity": "ayla", "steps": []}])
    # Shape - Fire: 1 Flux, 1 Hand point, maintainable (default catalog).
    assert r["turns"][0]["steps"][0]["remaining"]["hands_free"] == 1
    assert r["turns"][1]["start"]["remaining"]["hands_free"] == 1
    assert by_id(r, "ayla")["maintained"] == [{"idiom": "Shape - Fire"}]
    # 4 + 1 = 5, - 1 = 4, + 1 = 5
    assert by_id(r, "ayla")["flux"] == 5


def test_complex_idiom_costs_three_points() -> None:
    state = [ent(idioms=["Burst - Frost"]), ent("grunt", kind="enemy", hp=40, max_hp=40,
                                                 abilities={"signature": 0})]
    err = illegal(state, [{"entity": "ayla", "steps": [
        {"kind": "action", "name": "jump"},
        {"kind": "cast", "idiom": "Burst - Frost", "targets": ["grunt"]}]}], rolls=[])
    assert (err.rule, err.step, err.details["needed"], err.details["left"]) == ("P1", 2, 3, 2)


def test_check_only_rolls_nothing_and_settles_costs() -> None:
    state = [ent(idioms=["Hurl - Fire"], flux=5),
             ent("cole", hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                           {"name": "Unconscious", "source": "dying"}]),
             ent("grunt", kind="enemy", ac=15)]
    r = play(state, [{"entity": "cole", "steps": []},
                     {"entity": "ayla", "steps": [
                         {"kind": "cast", "idiom": "Hurl - Fire", "targets": ["grunt"]}]},
                     {"entity": "grunt", "steps": [
                         {"kind": "attack", "target": "ayla", "damage": {"dice": "1d6"}}]}],
             rolls=[], check=True)
    assert r["check"] is True and r["rolls_used"] == []
    # 5 + 1 regenerated - 3 = 3 Flux; 1 of 2 Hand points spent; 3 - 2 = 1 AP,
    # lost at the end of the turn (P1 rev. 2).
    assert r["turns"][1]["steps"][0]["remaining"] == {
        "action_points": 1, "movement": 15, "hands_free": 1, "flux": 3,
        "reaction_available": True}
    assert r["turns"][1]["remaining"]["action_points"] == 0
    assert r["turns"][2]["steps"][0]["remaining"]["action_points"] == 1
    assert by_id(r, "grunt")["hp"] == 12 and by_id(r, "ayla")["hp"] == 12
    assert by_id(r, "cole")["death_saves"] == {"successes": 0, "failures": 0}


# ---------------------------------------------------------------------------
# Pure helpers


def test_move_cost_and_stand_up_cost() -> None:
    assert turn.move_cost(Fraction(1), "crawl", "difficult") == 3
    assert turn.move_cost(Fraction(5, 2), "walk", "difficult") == 5
    assert turn.move_cost(Fraction(2), "fly", "normal") == 2
    e = Entity.from_dict(ent(movement_max=15))
    assert turn.stand_up_cost(e) == Fraction(15, 2)


def test_hands_free_never_negative() -> None:
    e = Entity.from_dict(ent(hand_points=1, held_items=["a", "b"]))
    assert turn.hands_free(e, [1]) == 0


def test_resolve_turns_is_pure() -> None:
    entities = {"ayla": Entity.from_dict(ent())}
    before = dict(entities)
    turns = [{"entity": "ayla", "steps": [{"kind": "move", "metres": 5}]}]
    after1, rep1 = turn.resolve_turns(entities, turns, ScriptedDice([]))
    after2, rep2 = turn.resolve_turns(entities, turns, SeededDice(3))
    assert entities == before
    assert after1 == after2 and rep1 == rep2
    assert after1["ayla"].movement == 10


def test_movement_factor_above_one_gives_more_than_max_and_a_valid_state() -> None:
    """C2: a table's condition doubling movement (movement_factor 2) gives 30 m
    of a 15 m maximum for the turn; the state written afterwards is valid,
    and movement is capped at the most a state holds (100,000 m)."""
    hasted = [{"name": "Hasted", "source": "table"}]
    catalog = [{"name": "Hasted", "effects": {"movement_factor": "2"}}]
    r = play([ent(conditions=hasted)], [{"entity": "ayla", "steps": [{"kind": "move",
                                                                     "metres": 20}]}],
             conditions=catalog)
    assert r["turns"][0]["remaining"]["movement"] == 10  # 2 x 15 = 30 m, 20 m moved
    state_io.validate(state_io.Document("<result>", r["state"]), "state")
    state_io.entities_of(state_io.Document("<result>", r["state"]))
    far = play([ent(conditions=hasted, movement_max=90_000)],
               [{"entity": "ayla", "steps": []}], conditions=catalog)
    assert far["turns"][0]["remaining"]["movement"] == 100_000
    state_io.validate(state_io.Document("<result>", far["state"]), "state")


def test_fraction_string_metres_are_bounded() -> None:
    # a well-formed fraction string, but above the most a state holds
    doc = state_io.Document("s", {"entities": [ent(movement_max="400000/2")]})
    with pytest.raises(InputError, match="movement_max 200000 is above 100000 m"):
        state_io.validate(doc, "state")


# ---------------------------------------------------------------------------
# Rulings revision 2 (issue 12): rounds (O1), lost AP and jumps (P1), the
# ability a damage tick multiplies (T4), who may spare (H5)


def foe(eid: str = "grunt", **fields: Any) -> dict[str, Any]:
    return ent(eid, kind="enemy", **fields)


def test_rounds_are_counted_and_no_entity_acts_twice_in_one() -> None:
    # Finding 10: a, b, a, b, b is rounds 1, 1, 2, 2, 3 from a state at round 1.
    r = play([ent("a"), ent("b")], [{"entity": x, "steps": []} for x in "abab" + "b"],
             state_fields={"round": 1})
    assert [t["round"] for t in r["turns"]] == [1, 1, 2, 2, 3]
    assert [t["round_start"] for t in r["turns"]] == [True, False, True, False, True]
    assert r["state"]["round"] == 3
    assert r["state"]["acted_this_round"] == ["b"]


def test_first_turn_of_a_state_without_round_starts_round_one() -> None:
    r = play([ent("a"), ent("b")], [{"entity": "a", "steps": []}])
    assert r["turns"][0]["round"] == 1 and r["turns"][0]["round_start"] is True
    assert r["state"]["round"] == 1 and r["state"]["acted_this_round"] == ["a"]


def test_acted_this_round_is_carried_in() -> None:
    # Round 4, a has acted: b's turn continues round 4, a's turn starts round 5.
    r = play([ent("a"), ent("b")], [{"entity": "b", "steps": []}, {"entity": "a", "steps": []}],
             state_fields={"round": 4, "acted_this_round": ["a"]})
    assert [(t["round"], t["round_start"]) for t in r["turns"]] == [(4, False), (5, True)]
    assert r["state"]["round"] == 5 and r["state"]["acted_this_round"] == ["a"]


def test_split_runs_count_rounds_as_one_run() -> None:
    turns = [{"entity": "a", "steps": [{"kind": "move", "metres": 2}]},
             {"entity": "b", "steps": [{"kind": "action", "name": "help"}]},
             {"entity": "b", "steps": [{"kind": "move", "metres": 1, "mode": "jump"}]},
             {"entity": "a", "steps": []}]
    whole = play([ent("a"), ent("b")], turns, state_fields={"round": 1})
    first = play([ent("a"), ent("b")], turns[:2], state_fields={"round": 1})
    second = play(first["state"].pop("entities"), turns[2:], state_fields=first["state"])
    assert second["state"] == whole["state"]
    assert whole["state"]["round"] == 2


def test_acted_this_round_naming_no_entity_is_invalid_input() -> None:
    with pytest.raises(InputError) as info:
        play([ent("a")], [{"entity": "a", "steps": []}],
             state_fields={"round": 1, "acted_this_round": ["zed"]})
    assert info.value.diagnostics[0].field == "state.acted_this_round[0]"


def test_end_turn_loses_unspent_action_points() -> None:
    # Finding 11: help (2 of 3 AP) then end_turn: 1 point left, then lost.
    r = play([ent()], [{"entity": "ayla", "steps": [{"kind": "action", "name": "help"},
                                                    {"kind": "end_turn"}]}])
    assert r["turns"][0]["steps"][1]["remaining"]["action_points"] == 1
    assert r["turns"][0]["remaining"]["action_points"] == 0
    assert by_id(r, "ayla")["action_points"] == 0


def test_a_jump_move_costs_one_action_point_and_its_metres() -> None:
    r = play([ent()], [{"entity": "ayla", "steps": [
        {"kind": "move", "metres": 2.5, "mode": "jump"}]}])
    step = r["turns"][0]["steps"][0]
    assert (step["action_points"], step["movement"]) == (1, 2.5)
    assert step["remaining"]["action_points"] == 2


def test_three_jumps_and_a_sprint_are_refused() -> None:
    # Finding 6: 3 jumps x 1 AP = 3 AP; the sprint (complex, 3 AP) has 0 left.
    jump = {"kind": "move", "metres": 1, "mode": "jump"}
    err = illegal([ent()], [{"entity": "ayla", "steps": [
        jump, jump, jump, {"kind": "action", "name": "sprint"}]}])
    assert (err.rule, err.step, err.code) == ("P1", 4, 4)
    assert (err.details["needed"], err.details["left"]) == (3, 0)


@pytest.mark.parametrize("step", [
    {"kind": "action", "name": "help", "action_points": 4},
    {"kind": "hold", "item": "rope", "action_points": 5},
    {"kind": "attack", "target": "grunt", "action_points": 4},
])
def test_an_action_cost_above_three_is_invalid_input(step: dict[str, Any]) -> None:
    # Even for an entity with 6 points a turn (P1 rev. 2).
    with pytest.raises(InputError) as info:
        play([ent(action_points_per_turn=6), foe()], [{"entity": "ayla", "steps": [step]}])
    assert info.value.code == 3
    # The engine refuses it too when no schema ran (e.g. a library caller).
    req = {"kind": "turn", "state": {"entities": [ent(action_points_per_turn=6), foe()]},
           "turns": [{"entity": "ayla", "steps": [step]}], "rolls": []}
    with pytest.raises(InputError) as info:
        requests.resolve(req)
    assert info.value.diagnostics[0].field == "turns[0].steps[0].action_points"


def test_damage_may_multiply_only_potential() -> None:
    # Finding 5: 4d6 strong naming strength is refused (T4), before any die.
    attack = {"kind": "attack", "target": "ayla",
              "damage": {"dice": "4d6", "tick": "strong", "ability": "strength"}}
    err = illegal([ent(), foe(abilities={"strength": 3, "potential": 1})],
                  [{"entity": "grunt", "steps": [attack]}], rolls=None)
    assert (err.rule, err.code, err.step) == ("T4", 4, 1)
    assert "turn 1, step 1" in err.message
    # Potential is multiplied: 10 + [3, 3, 4, 4] = 14 + Potential 1 x 2 = 16.
    ok = {**attack, "damage": {"dice": "4d6", "tick": "strong", "ability": "potential"}}
    r = play([ent(hp=20, max_hp=20, ac=10), foe(abilities={"strength": 3, "potential": 1})],
             [{"entity": "grunt", "steps": [ok]}], rolls=[10, 3, 3, 4, 4])
    assert r["turns"][0]["steps"][0]["damage"]["amount"] == 16
    assert by_id(r, "ayla")["hp"] == 4


@pytest.mark.parametrize("step", [
    {"kind": "attack", "target": "ayla",
     "damage": {"dice": "4d6", "tick": "strong", "nonlethal": True}},
    {"kind": "cast", "idiom": "Hurl - Fire", "targets": ["ayla"], "nonlethal": True},
])
def test_an_enemy_may_not_spare(step: dict[str, Any]) -> None:
    # Finding 3: an enemy's nonlethal attack (or cast) is refused (H5 rev. 2).
    err = illegal([ent(hp=5, max_hp=10), foe(idioms=["Hurl - Fire"])],
                  [{"entity": "grunt", "steps": [step]}], rolls=None)
    assert (err.rule, err.code, err.step) == ("H5", 4, 1)
    assert err.message.startswith("turn 1, step 1:")


def test_a_player_may_spare() -> None:
    # 15 + 0 vs AC 10 hits; 4d6 [6, 6, 6, 6] = 24 nonlethal: 5 -> 0, Unconscious, Stable.
    step = {"kind": "attack", "target": "grunt",
            "damage": {"dice": "4d6", "tick": "strong", "nonlethal": True}}
    r = play([ent(), foe(hp=5, max_hp=10, ac=10)], [{"entity": "ayla", "steps": [step]}],
             rolls=[15, 6, 6, 6, 6])
    grunt = by_id(r, "grunt")
    assert grunt["dead"] is False and grunt["hp"] == 0


@pytest.mark.parametrize(("step", "field"), [
    ({"kind": "attack", "target": "grunt", "ability": "strength"}, "ability"),
    ({"kind": "attack", "target": "grunt", "damage": {"dice": "1d6", "ability": "potential"}},
     "damage.ability"),
])
def test_missing_ability_names_the_turn_step_and_field(step: dict[str, Any],
                                                       field: str) -> None:
    with pytest.raises(InputError) as info:
        play([ent(), foe()], [{"entity": "ayla", "steps": [step]}], rolls=None)
    d = info.value.diagnostics[0]
    assert d.field == f"turns[0].steps[0].{field}"
    assert d.message.startswith("turn 1, step 1:")
