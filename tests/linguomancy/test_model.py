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
