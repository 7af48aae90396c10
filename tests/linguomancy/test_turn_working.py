"""The turn engine's working copies (issue 16): it changes in place only the
copies it made itself, never its inputs nor a value another rule returned,
and a played script leaves the input entities as they were."""

from __future__ import annotations

import copy

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.core.evolve import evolve
from linguo_cli.rulesets.linguomancy import turn
from linguo_cli.rulesets.linguomancy.model import Entity
from linguo_cli.rulesets.linguomancy.turn_engine import TurnEngine


def _ayla() -> Entity:
    return Entity.from_dict({"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20,
                             "movement_max": 9, "conditions": [
                                 {"name": "Drained", "source": "overclock",
                                  "remaining_turns": 2}]})


def test_update_copies_an_input_then_changes_only_that_copy() -> None:
    ayla = _ayla()
    engine = TurnEngine({"ayla": ayla}, ScriptedDice([]))
    first = engine.update(ayla, action_points=1)
    assert first is not ayla and ayla.action_points == 3
    assert engine.entities["ayla"] is first and first.action_points == 1
    second = engine.update(first, action_points=0, hands_spent=1)
    assert second is first and (first.action_points, first.hands_spent) == (0, 1)
    assert engine.before["ayla"] is ayla and ayla.action_points == 3


def test_update_of_a_value_the_engine_does_not_hold_gives_a_new_value() -> None:
    ayla = _ayla()
    engine = TurnEngine({"ayla": ayla}, ScriptedDice([]))
    working = engine.update(ayla, action_points=2)
    returned = evolve(working, hp=5)  # as another rule returns a new entity
    out = engine.update(returned, hp=4)
    assert out is not returned and returned.hp == 5 and out.hp == 4
    assert engine.entities["ayla"] is working and working.hp == 20
    engine.put(returned)  # stored, but not the engine's own copy: copied before a change
    again = engine.update(returned, hp=3)
    assert again is not returned and returned.hp == 5 and engine.entities["ayla"] is again


def test_a_played_turn_leaves_its_inputs_and_reports_each_step() -> None:
    ayla = _ayla()
    before = copy.deepcopy(ayla)
    steps = [{"kind": "move", "metres": 2}, {"kind": "drop_prone"}, {"kind": "stand_up"},
             {"kind": "action", "name": "jump"}, {"kind": "end_turn"}]
    after, played = turn.resolve_turns({"ayla": ayla}, [{"entity": "ayla", "steps": steps}],
                                       ScriptedDice([]))
    assert ayla == before and ayla.movement == 9 and ayla.action_points == 3
    spent = [(s.action_points, s.movement) for s in played.turns[0].steps]
    # 2 m; prone is free; standing up: 1 AP and half of 9 m; a jump: 1 AP; end
    assert spent == [(0, 2), (0, 0), (1, 4.5), (1, 0), (0, 0)]
    assert after["ayla"].movement == 9 - 2 - 4.5 and after["ayla"].action_points == 0
    assert played.entities["ayla"].before is ayla
    assert [c.remaining_turns for c in after["ayla"].conditions] == [1]
