"""SC-based attacks (NO6), initiative and reaction order (NS8, NR2, the
shared roll-off), the Move roll (NM1) and Injury stacks (NK4): the functions
a script of turns calls, their refusals, and the results of their request
kinds against the result schemas."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from linguo_cli.conformance import golden
from linguo_cli.core import requests
from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import ScriptedDice
from linguo_cli.core.error_object import error_object
from linguo_cli.core.errors import LinguoError
from linguo_cli.io.document import Document
from linguo_cli.rulesets.novence_eternal.attack import resolve_attack
from linguo_cli.rulesets.novence_eternal.initiative import (
    reaction_order,
    roll_initiative,
    roll_off,
)
from linguo_cli.rulesets.novence_eternal.model import (
    AttackSpec,
    Component,
    Creature,
    Refusal,
    Weapon,
)
from linguo_cli.rulesets.novence_eternal.movement import roll_move
from linguo_cli.rulesets.novence_eternal.options import resolve_options
from linguo_cli.rulesets.novence_eternal.sc_attack import ep_share, resolve_sc_attack

from ..conftest import ROOT

SCHEMAS = ROOT / "linguo_cli" / "rulesets" / "novence_eternal" / "schemas" / "results"
SUITE = ROOT / "golden" / "novence-eternal"
HACK = Weapon("hack", "ranged", (Component("psychic", (2, 6)),), stat="INT", proficient=True,
              basis="sc", ep=7)


def _error(request: dict[str, Any]) -> dict[str, Any]:
    with pytest.raises(LinguoError) as info:
        requests.validate(Document("request", request))
        requests.resolve(request)
    return error_object(info.value)


def test_roll_off_places_unique_results_and_rerolls_only_the_tied() -> None:
    # NS8's own example: 9, 9 and 4 put the 4 last; only the two 9s roll again (3, 8).
    dice = ScriptedDice([9, 9, 4, 3, 8])
    order, rolls = roll_off(["a", "b", "c"], dice)
    assert order == ["b", "a", "c"]
    assert [(r.ids, r.faces) for r in rolls] == [(("a", "b", "c"), (9, 9, 4)),
                                                 (("a", "b"), (3, 8))]


def test_roll_off_settles_higher_subsets_first() -> None:
    # 12, 12, 5, 5: the 12s roll first (7 then 2), then the 5s (1 then 20).
    order, rolls = roll_off(["a", "b", "c", "d"], ScriptedDice([12, 12, 5, 5, 7, 2, 1, 20]))
    assert order == ["a", "b", "d", "c"]
    assert [r.ids for r in rolls] == [("a", "b", "c", "d"), ("a", "b"), ("c", "d")]


def test_a_long_run_of_ties_does_not_exhaust_the_stack() -> None:
    faces = [4] * 6000 + [2, 9]
    order, rolls = roll_off(["a", "b"], ScriptedDice(faces))
    assert order == ["b", "a"] and len(rolls) == 3001


def test_initiative_and_reactions_refuse_before_any_die() -> None:
    dice = ScriptedDice([10, 10])
    dead = Creature("d", 0, 10, dead=True)
    with pytest.raises(Refusal) as info:
        roll_initiative([Creature("a", 10, 10), dead], dice)
    assert info.value.refusal == "actor_dead" and dice.used == []
    with pytest.raises(Refusal) as info:
        reaction_order([Creature("a", 10, 10), Creature("k", 0, 10, ko=True)], dice)
    assert (info.value.refusal, info.value.rule) == ("actor_ko", "NK1") and dice.used == []


def test_a_ko_creature_still_rolls_initiative() -> None:
    # NO3 runs for a KO actor's turn, so it keeps its place in the order.
    order = roll_initiative([Creature("a", 10, 10), Creature("k", 0, 10, ko=True)],
                            ScriptedDice([5, 15]))
    assert order.order == ("k", "a")


@pytest.mark.parametrize(("average", "face", "dex", "feet"), [
    ("floor", 4, 3, Fraction(13)), ("floor", 1, -12, Fraction(0)), ("floor", 20, -12, 8),
    ("exact", 4, 3, Fraction(27, 2)), ("exact", 11, 0, Fraction(11)),
    ("ceil", 4, 3, Fraction(14)), ("ceil", 10, 0, Fraction(11))])
def test_move_roll(average: str, face: int, dex: int, feet: Fraction) -> None:
    log = Derivation()
    move = roll_move(Creature("m", 10, 10, stats={"DEX": dex}), ScriptedDice([face]),
                     resolve_options({"move_average": average}), log)
    assert move.feet == feet and move.face == face and "NM1" in log.rules


def test_move_refuses_a_ko_actor_before_its_die() -> None:
    dice = ScriptedDice([5])
    with pytest.raises(Refusal):
        roll_move(Creature("m", 0, 10, ko=True), dice)
    assert dice.used == []


@pytest.mark.parametrize(("ep", "sc", "share"), [
    (0, 14, Fraction(0)), (7, 14, Fraction(1, 2)), (14, 14, Fraction(1)), (15, 12, Fraction(1)),
    (1, 0, Fraction(1)), (1, -3, Fraction(1)), (3, 7, Fraction(3, 7))])
def test_ep_share(ep: int, sc: int, share: Fraction) -> None:
    assert ep_share(ep, sc) == share


def test_a_landed_sc_attack_deals_what_the_same_ac_attack_deals() -> None:
    """NH6: against SC instead of AC, the same pipeline: with SC 14 and AC 14
    (no armor, no charge) the same faces give the same to-hit and damage."""
    attacker = Creature("h", 10, 10, stats={"INT": 3}, prof=3)
    target_sc = Creature("t", 30, 30, stats={"WIS": 4})
    target_ac = Creature("t", 30, 30, stats={"DEX": 4})
    sc = resolve_sc_attack(AttackSpec(attacker, target_sc, HACK), ScriptedDice([15, 4, 5]))
    ac_weapon = Weapon("hack", "ranged", HACK.damage, stat="INT", proficient=True)
    ac = resolve_attack(AttackSpec(attacker, target_ac, ac_weapon), ScriptedDice([15, 4, 5]))
    assert (sc.record.total, sc.record.against, sc.record.damage) == (
        ac.record.total, ac.record.against, ac.record.damage) == (21, 14, 9)
    assert sc.record.basis == "sc" and ac.record.basis == "ac"


def test_an_sc_attack_that_misses_without_ep_rolls_no_damage() -> None:
    weapon = Weapon("jolt", "ranged", (Component("psychic", (2, 6)),), basis="sc")
    dice = ScriptedDice([2])
    out = resolve_sc_attack(AttackSpec(Creature("h", 10, 10), Creature("t", 30, 30), weapon),
                            dice)
    assert out.record.damage == 0 and out.rolls_used == (2,) and out.target.hp == 30


def test_an_attack_request_refuses_an_sc_weapon() -> None:
    err = _error({"ruleset": "novence-eternal", "kind": "attack",
                  "attacker": {"kind": "player", "hp": 10, "max_hp": 10},
                  "target": {"kind": "enemy", "hp": 10, "max_hp": 10},
                  "weapon": {"kind": "ranged", "basis": "sc", "stat": None,
                             "damage": [{"dice": "1d6", "type": "psychic"}]},
                  "rolls": [15, 3]})
    assert (err["exit"], err["code"], err["rule"]) == (3, "bad_input", "NV3")


def test_an_injury_on_a_dead_target_is_refused() -> None:
    err = _error({"ruleset": "novence-eternal", "kind": "injury",
                  "target": {"kind": "player", "hp": 0, "max_hp": 10, "dead": True,
                             "injury": 9}})
    assert (err["exit"], err["code"]) == (4, "target_dead")


KINDS = ("sc_attack", "initiative", "reaction_order", "move", "injury")
CASES = golden.load_suite(SUITE).cases


@pytest.mark.parametrize("kind", KINDS)
def test_results_fit_their_result_schema(kind: str) -> None:
    schema = json.loads((SCHEMAS / f"{kind}.result.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    cases = [c for c in CASES if c.request.get("kind") == kind and c.expect is not None]
    assert cases
    for case in cases:
        reply = golden.run_in_process(case.request)
        assert reply.result is not None, reply.message
        errors = [e.message for e in validator.iter_errors(reply.result)]
        assert not errors, f"{case.test_id}: {errors[:3]}"


@pytest.mark.parametrize("line", [
    ("sc-attack", "--to-hit", "6", "--sc", "14", "--ep", "7", "--damage", "2d6:psychic",
     "--hp", "20", "--rolls", "3,4,5", "--json"),
    ("move", "--dex", "3", "--injury", "3", "--rolls", "4", "--json"),
    ("initiative", "--combatant", "a:3", "--combatant", "b:5", "--rolls", "4,2", "--json"),
])
def test_commands_answer_json(line: tuple[str, ...]) -> None:
    from ..conftest import run_cli

    shown = run_cli("novence", *line)
    assert shown.exit_code == 0, shown.stdout
    plain = json.loads(shown.stdout)
    assert plain["kind"] in KINDS
    if plain["kind"] == "move":
        assert plain["feet"] == "11"  # max(4, 10) + (3 - 2)
    if plain["kind"] == "sc_attack":
        assert plain["attack"]["damage"] == 4  # 9 x 7/14 = 9/2, floor 4
    if plain["kind"] == "initiative":
        assert plain["order"] == ["b", "a"]  # 4 + 3 = 7 against 2 + 5 = 7: DEX 5 first
