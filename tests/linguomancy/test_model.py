"""The shared value types: exact metres, entity round trip."""

from __future__ import annotations

from fractions import Fraction

import pytest

from linguo_cli.io.document import Document
from linguo_cli.rulesets.linguomancy.model import Entity, metres
from linguo_cli.rulesets.linguomancy.state import SCHEMAS, entities_of


@pytest.mark.parametrize(
    ("value", "shown"),
    [(Fraction(15), 15), (Fraction(15, 2), 7.5), (Fraction(15, 4), 3.75),
     (Fraction(10, 3), "10/3"), (Fraction(1, 10), "1/10"), (Fraction(0), 0)],
)
def test_metres_are_shown_exactly(value: Fraction, shown: object) -> None:
    out = metres(value)
    assert out == shown and type(out) is type(shown)
    assert Fraction(str(out)) == value  # reads back to the same value


@pytest.mark.parametrize("movement", [Fraction(15, 4), Fraction(10, 3)])
def test_fractional_movement_written_by_linguo_reads_back(movement: Fraction) -> None:
    e = Entity(id="a", kind="player", hp=5, max_hp=5,
               movement_max=Fraction(10), movement=movement)
    doc = Document("state", {"entities": [e.as_dict()]})
    SCHEMAS.validate(doc, "state")  # what linguo writes, linguo accepts
    again = entities_of(doc)["a"]
    assert again.movement == movement


@pytest.mark.parametrize(("given", "movement"), [
    (7, Fraction(7)), ("10/3", Fraction(10, 3)), (7.5, Fraction(15, 2)), (0.1, Fraction(1, 10))])
def test_a_distance_is_read_exactly_from_its_text(given: object, movement: Fraction) -> None:
    e = Entity.from_dict({"id": "a", "kind": "enemy", "hp": 1, "max_hp": 1,
                          "movement_max": given})
    assert e.movement_max == movement and e.movement == movement


def test_an_entity_shares_nothing_mutable_with_its_mapping() -> None:
    raw = {"id": "a", "kind": "enemy", "hp": 1, "max_hp": 1, "ac": {"armour": 12},
           "conditions": [{"name": "Prone", "remaining_turns": 2}]}
    e = Entity.from_dict(raw)
    raw["ac"]["armour"] = 99
    assert e.ac == {"armour": 12}
    assert e.as_dict()["ac"] == {"armour": 12}


@pytest.mark.parametrize("extra", [
    {}, {"hp": 0, "dead": True, "death": {"cause": "zero_hp"}},
    {"hp": 0, "dead": True, "death": {"cause": "death_saves", "resurrection": "very_hard"}},
    {"temp_hp": 4, "flux": 3, "exhaustion": 2, "death_saves": {"successes": 1, "failures": 2},
     "conditions": [{"name": "Prone"}, {"name": "Drained", "source": "overclock",
                                        "remaining_turns": 2}]}])
def test_reported_fields_are_those_of_the_whole_state_shape(extra: dict[str, object]) -> None:
    from linguo_cli.rulesets.linguomancy.model import _REPORTED, state_fields

    e = Entity.from_dict({"id": "a", "kind": "enemy", "hp": 5, "max_hp": 9, **extra})
    names = tuple(_REPORTED)
    shape = e.as_dict()
    assert list(state_fields(e, names).items()) == [(k, shape[k]) for k in names]
    assert state_fields(e, ("hp", "idioms")) == {"hp": shape["hp"], "idioms": []}


def test_every_absent_field_takes_the_schemas_stated_default() -> None:
    # schemas/state.schema.json: temp_hp 0; at_zero_hp dying for players and
    # dies for enemies; death saves 0 and 0; flux = flux_max, flux_max 10,
    # regen 1; exhaustion 0; Wordsmithing Level 10; 3 AP a turn, AP left =
    # per turn; movement_max 0, movement = movement_max; 2 Hand points, none
    # spent; reaction available; no AC, no death record.
    shape = Entity.from_dict({"id": "p", "kind": "player", "hp": 5, "max_hp": 9}).as_dict()
    assert shape == {
        "id": "p", "name": "", "kind": "player", "hp": 5, "max_hp": 9, "temp_hp": 0,
        "at_zero_hp": "dying", "abilities": {}, "ac": None, "resistances": [],
        "vulnerabilities": [], "immunities": [], "conditions": [],
        "death_saves": {"successes": 0, "failures": 0}, "dead": False, "death": None,
        "flux": 10, "flux_max": 10, "flux_regen": 1, "exhaustion": 0,
        "wordsmithing_level": 10, "expertise": {}, "idioms": [],
        "action_points_per_turn": 3, "action_points": 3, "movement_max": 0, "movement": 0,
        "hand_points": 2, "hands_spent": 0, "held_items": [], "maintained": [],
        "reaction_available": True}
    assert Entity.from_dict({"id": "e", "kind": "enemy", "hp": 1, "max_hp": 1}).at_zero_hp \
        == "dies"
    # Defaults that follow another field, and half-given records.
    e = Entity.from_dict({"id": "p", "kind": "player", "hp": 0, "max_hp": 9, "flux_max": 12,
                          "action_points_per_turn": 4, "movement_max": 7.5,
                          "death_saves": {"failures": 2}, "dead": True,
                          "death": {"cause": "zero_hp"}}).as_dict()
    assert (e["flux"], e["action_points"], e["movement"]) == (12, 4, 7.5)
    assert e["death_saves"] == {"successes": 0, "failures": 2}
    assert e["death"] == {"cause": "zero_hp"}
