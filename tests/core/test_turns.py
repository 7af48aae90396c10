"""The core turn player (linguo_cli/core/turns.py) with a toy ruleset that is
not Linguomancy: its own order of turns (initiative), its own place format,
per-step dice, error placing and all-or-nothing play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from linguo_cli.core.dice import DiceSource, ScriptedDice
from linguo_cli.core.entity import Entity
from linguo_cli.core.errors import Diagnostic, DiceError, InputError, RulesError
from linguo_cli.core.turns import (
    TURN_STEP,
    OncePerRound,
    Place,
    RoundEntry,
    TurnPlayer,
    illegal,
    place_input_error,
    place_rules_error,
)


@dataclass(frozen=True)
class RoundHash:
    """A place style of the activation kind: ``R<round> #<turn> step S``."""

    rounds: OncePerRound

    def text(self, place: Place) -> str:
        where = f"R{self.rounds.round} #{place.turn}"
        return where if place.step is None else f"{where} step {place.step}"

    def details(self, place: Place) -> dict[str, object]:
        return {"round": self.rounds.round, "activation": place.turn, "step": place.step}


class Toy:
    """A toy ruleset: each step ``hit`` rolls ``d6`` damage against ``target``;
    a step ``bad`` is illegal (rule X1); ``field`` an invalid input."""

    def __init__(self, entities: Mapping[str, Entity], dice: DiceSource) -> None:
        self.entities = dict(entities)
        self.dice = dice
        self.log: list[str] = []

    def actor(self, turn: Mapping[str, Any], place: Place) -> str:
        return str(turn["who"])

    def steps(self, turn: Mapping[str, Any], place: Place) -> Sequence[Mapping[str, Any]]:
        return list(turn["steps"])

    def start_turn(self, turn: Mapping[str, Any], place: Place, entry: RoundEntry) -> None:
        self.log.append(f"{place.turn}:{turn['who']}:round {entry.round}"
                        + (" starts" if entry.starts else ""))

    def step_rolls(self, step: Mapping[str, Any]) -> Sequence[int] | None:
        own: Sequence[int] | None = step.get("rolls")
        return own

    def prepare_step(self, turn: Mapping[str, Any], step: Mapping[str, Any],
                     place: Place) -> Mapping[str, Any]:
        if step["kind"] not in ("hit", "bad", "field"):
            raise InputError(Diagnostic("request", "kind", "unknown kind"))
        return step

    def play_step(self, prepared: Mapping[str, Any], place: Place) -> int:
        if prepared["kind"] == "bad":
            raise RulesError("X1", "not allowed", {"why": "toy"})
        if prepared["kind"] == "field":
            raise InputError(Diagnostic("request", "steps", "bad field"))
        target = self.entities[prepared["target"]]
        amount = self.dice.roll(6)
        self.entities[target.id] = replace(target, hp=max(0, target.hp - amount))
        return amount

    def report_step(self, prepared: Mapping[str, Any], outcome: int, place: Place,
                    rolls_used: tuple[int, ...] | None) -> tuple[int, int, Any]:
        return (place.step or 0, outcome, rolls_used)

    def end_turn(self, turn: Mapping[str, Any], place: Place,
                 steps: list[tuple[int, int, Any]]) -> tuple[int, str, list[Any]]:
        return (place.turn, str(turn["who"]), steps)


def by_initiative(script: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """An order of turns that is not the script's: highest initiative first."""
    return sorted(script, key=lambda t: -int(t["init"]))


ENTITIES = {"a": Entity("a", "hero", 10, 10), "b": Entity("b", "foe", 10, 10)}


def test_order_of_turns_is_pluggable_and_rounds_count() -> None:
    toy = Toy(ENTITIES, ScriptedDice([2, 3]))
    player = TurnPlayer(toy, OncePerRound(), order=by_initiative)
    script = [{"who": "a", "init": 5, "steps": [{"kind": "hit", "target": "b"}]},
              {"who": "b", "init": 12, "steps": [{"kind": "hit", "target": "a"}]}]
    reports = player.play(script)
    assert [r[1] for r in reports] == ["b", "a"]  # initiative order, not the script's
    assert toy.log == ["1:b:round 1 starts", "2:a:round 1"]
    assert toy.entities["a"].hp == 8 and toy.entities["b"].hp == 7
    assert ENTITIES["a"].hp == 10  # the inputs are never changed


def test_once_per_round_counter() -> None:
    rounds = OncePerRound(3, ["x"])
    first = rounds.enter("y")  # y has not acted in round 3
    assert (first.round, first.starts, first.new_round) == (3, False, False)
    again = rounds.enter("x")  # x already acted: round 4 starts
    assert (again.round, again.starts, again.new_round, again.previous) == (4, True, True, 3)
    assert rounds.acted == ("x",) and rounds.round == 4
    assert OncePerRound().enter("z") == RoundEntry(1, True, True, 0, ())


def test_a_step_with_its_own_faces_uses_exactly_those() -> None:
    toy = Toy(ENTITIES, ScriptedDice([4]))
    player = TurnPlayer(toy, OncePerRound())
    script = [{"who": "a", "steps": [{"kind": "hit", "target": "b", "rolls": [6]},
                                     {"kind": "hit", "target": "b"}]}]
    (report,) = player.play(script)
    assert report[2] == [(1, 6, (6,)), (2, 4, None)]
    assert toy.dice.used == [4]  # the document's source gave only the second die


def test_unused_own_faces_are_a_dice_error() -> None:
    toy = Toy(ENTITIES, ScriptedDice([]))
    player = TurnPlayer(toy, OncePerRound())
    with pytest.raises(DiceError):
        player.play([{"who": "a", "steps": [{"kind": "hit", "target": "b", "rolls": [1, 2]}]}])


def test_errors_are_placed_in_the_rulesets_style() -> None:
    toy = Toy(ENTITIES, ScriptedDice([1]))
    rounds = OncePerRound()
    player = TurnPlayer(toy, rounds, style=RoundHash(rounds))
    script = [{"who": "a", "steps": [{"kind": "hit", "target": "b"}]},
              {"who": "b", "steps": [{"kind": "bad"}]}]
    with pytest.raises(RulesError) as info:
        player.play(script)
    assert info.value.message == "R1 #2 step 1: not allowed [rule X1]"
    assert info.value.details == {"round": 1, "activation": 2, "step": 1, "why": "toy"}
    assert info.value.step == 1


def test_input_errors_of_a_step_name_the_step_but_checks_before_it_do_not() -> None:
    player = TurnPlayer(Toy(ENTITIES, ScriptedDice([])), OncePerRound())
    with pytest.raises(InputError) as info:
        player.play([{"who": "a", "steps": [{"kind": "field"}]}])
    assert info.value.diagnostics[0].message == "turn 1, step 1: bad field"
    with pytest.raises(InputError) as info:
        player.play([{"who": "a", "steps": [{"kind": "nope"}]}])
    assert info.value.diagnostics[0].message == "unknown kind"


def test_placing_helpers() -> None:
    place = Place(3, 2)
    exc = illegal("P1", "too dear", place, needed=3)
    assert exc.message == "turn 3, step 2: too dear [rule P1]"
    assert exc.details == {"turn": 3, "step": 2, "needed": 3} and exc.step == 2
    assert place_rules_error(exc, Place(9, 9)) is exc  # placed already
    assert TURN_STEP.text(Place(4)) == "turn 4" and TURN_STEP.details(Place(4)) == {"turn": 4}
    err = InputError([Diagnostic("f", "x", "turn 3, step 2: kept"), Diagnostic("f", "y", "m")])
    placed = place_input_error(err, place)
    assert [d.message for d in placed.diagnostics] == ["turn 3, step 2: kept",
                                                       "turn 3, step 2: m"]


def test_before_the_first_turn_the_player_is_at_turn_0() -> None:
    toy = Toy(ENTITIES, ScriptedDice([5]))
    player = TurnPlayer(toy, OncePerRound())
    assert player.place == Place(0, None)
    assert player.illegal("X1", "too early").message == "turn 0: too early [rule X1]"
    player.play([{"who": "a", "steps": [{"kind": "hit", "target": "b"}]}])
    assert player.place == Place(1, None)  # back at the turn, after its last step
