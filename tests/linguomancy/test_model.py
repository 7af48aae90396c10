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


def test_the_degree_ladder_worst_to_best() -> None:
    # D4: six degrees, worst to best; D5: a shift stops at the ends.
    from linguo_cli.rulesets.linguomancy.model import Degree

    assert [d.label for d in Degree] == ["critical_failure", "failure", "partial_failure",
                                         "partial_success", "success", "critical_success"]
    assert [d.title for d in Degree] == ["Critical Failure", "Failure", "Partial Failure",
                                         "Partial Success", "Success", "Critical Success"]
    assert sorted(Degree) == list(Degree) and len(set(Degree)) == 6
    assert Degree.FAILURE.shifted(-1) is Degree.CRITICAL_FAILURE
    assert Degree.CRITICAL_FAILURE.shifted(-1) is Degree.CRITICAL_FAILURE
    assert Degree.PARTIAL_SUCCESS.shifted(1) is Degree.SUCCESS
    assert Degree.SUCCESS.shifted(1) is Degree.CRITICAL_SUCCESS
    assert Degree.CRITICAL_SUCCESS.shifted(1) is Degree.CRITICAL_SUCCESS
    assert Degree.from_label("partial_failure") is Degree.PARTIAL_FAILURE


@pytest.mark.parametrize(("face", "mod", "degree", "success"), [
    (1, 9, "partial_success", False),   # m = 0: success, natural 1: one step down
    (1, 0, "critical_failure", False),  # m = -9: failure -> critical failure
    (20, -11, "success", True),         # m = -1: partial success -> success
    (20, 0, "critical_success", True),  # m = 10: already critical success
    (12, 0, "success", True),           # m = 2: success
    (8, 0, "partial_failure", False),   # m = -2
])
def test_a_check_reads_its_degree_on_the_ladder(face: int, mod: int, degree: str,
                                                success: bool) -> None:
    # D1, D4, D5 against DC 10.
    from linguo_cli.core import requests

    r = requests.resolve({"kind": "check", "dc": 10, "rolls": [face],
                          "modifiers": [{"label": "m", "value": mod}]})
    assert (r["degree"], r["success"]) == (degree, success)


def test_v1_counts_three_death_saves_and_six_exhaustion_tiers() -> None:
    # V1 with H6: three failures on a living entity, three successes on a
    # Dying one are contradictions, two are not; F5: 6 tiers on a living
    # entity are, 5 are not.
    from linguo_cli.rulesets.linguomancy.model import contradictions

    def facts(**fields: object) -> list[tuple[object, ...]]:
        base = {"id": "p", "kind": "player", "hp": 0, "max_hp": 9,
                "conditions": [{"name": "Dying", "source": "dying"},
                               {"name": "Unconscious", "source": "dying"}]}
        return [path for path, _ in contradictions(Entity.from_dict({**base, **fields}))]

    assert facts(death_saves={"failures": 3}) == [("death_saves", "failures")]
    assert facts(death_saves={"failures": 2}) == []
    assert facts(death_saves={"successes": 3}) == [("death_saves", "successes")]
    assert facts(death_saves={"successes": 2}) == []
    assert facts(exhaustion=6) == [("exhaustion",)]
    assert facts(exhaustion=5) == []


def test_movement_is_capped_at_the_most_a_state_holds() -> None:
    # C2/P2: 90,000 m doubled by a table's Hasted is capped at 100,000 m.
    from .test_turn import ent, play

    r = play([ent(conditions=[{"name": "Hasted", "source": "table"}], movement_max=90_000)],
             [{"entity": "ayla", "steps": []}],
             conditions=[{"name": "Hasted", "effects": {"movement_factor": "2"}}])
    assert r["turns"][0]["start"]["remaining"]["movement"] == 100_000
