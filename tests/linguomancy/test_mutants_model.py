"""Named tests of the entity model (V1, the state shape, exact metres; issue
13): each fails on a mutant of ``rulesets/linguomancy/model.py`` that
survived the full mutation run of 2026-12-02. Expected values are worked by
hand from the rule each test cites.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from linguo_cli.rulesets.linguomancy import model
from linguo_cli.rulesets.linguomancy.model import Entity, contradictions


def test_damage_types_are_written_back_sorted_and_kept() -> None:
    # The state shape keeps an entity's resistances, vulnerabilities and
    # immunities (each sorted), and writes an empty list for none.
    e = Entity.from_dict({"id": "gob", "kind": "enemy", "hp": 5, "max_hp": 5,
                          "resistances": ["fire", "cold"], "vulnerabilities": ["radiant"],
                          "immunities": ["poison", "acid"]})
    shape = e.as_dict()
    assert shape["resistances"] == ["cold", "fire"]
    assert shape["vulnerabilities"] == ["radiant"]
    assert shape["immunities"] == ["acid", "poison"]
    bare = Entity.from_dict({"id": "a", "kind": "player", "hp": 5, "max_hp": 5}).as_dict()
    assert (bare["resistances"], bare["vulnerabilities"], bare["immunities"]) == ([], [], [])


def test_a_dead_entity_at_one_hp_contradicts_the_rules() -> None:
    # V1 (H4, H5, H7): death leaves 0 HP; a dead entity at 1 HP is a
    # contradiction, at 0 HP it is not.
    dead_at_1 = Entity(id="a", kind="player", hp=1, max_hp=5, dead=True)
    assert contradictions(dead_at_1) == [
        (("hp",), "hp 1 on a dead entity: death leaves 0 HP (H4, H5, H7, V1)")]
    assert contradictions(Entity(id="a", kind="player", hp=0, max_hp=5, dead=True)) == []


def test_dying_or_stable_at_one_hp_contradicts_the_rules() -> None:
    # V1 (H5, H8): only an entity at 0 HP can be Dying or Stable.
    for name in ("Dying", "Stable"):
        e = Entity.from_dict({"id": "a", "kind": "player", "hp": 1, "max_hp": 5,
                              "conditions": [{"name": name, "source": "x"}]})
        assert contradictions(e) == [
            (("conditions", 0, "name"),
             f"{name} at 1 HP: only an entity at 0 HP can be {name} (H5, H8, V1)")]


def test_whole_distances_are_shared_only_within_the_limits_a_state_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A whole distance from 0 to MAX_METRES (100,000 m) is built once and
    # shared; outside it (never a valid state value) nothing is remembered,
    # so hostile input cannot grow the memory. (Starts from an empty memory:
    # what earlier tests remembered must not answer for this one.)
    monkeypatch.setattr(model, "_WHOLE", {})
    for inside in (0, 7, 100_000):
        assert model._fraction(inside) is model._fraction(inside) == Fraction(inside)
    for outside in (-1, 100_001, 10**12):
        assert model._fraction(outside) == Fraction(outside)
        assert outside not in model._WHOLE
