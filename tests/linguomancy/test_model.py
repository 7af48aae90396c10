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
