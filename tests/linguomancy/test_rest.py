"""Rests (H9) as requests, and the condition catalog's long-rest field (C2)."""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.errors import InputError, LinguoError, RulesError
from linguo_cli.rulesets.linguomancy import conditions, requests
from linguo_cli.rulesets.linguomancy.model import Condition, Entity
from linguo_cli.rulesets.linguomancy.rest import RestInput, rest_entity, rest_refusal


def rest(state_entities: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    return requests.resolve_plain({"kind": "rest", "state": {"entities": state_entities}, **fields})


def player(**fields: Any) -> dict[str, Any]:
    return {"id": "ayla", "kind": "player", "hp": 10, "max_hp": 20, **fields}


DYING = [{"name": "Dying", "source": "dying"}, {"name": "Unconscious", "source": "dying"}]


# --- finding 12: temporary HP never ended; there was no way to rest -------------------


def test_finding_12_long_rest_ends_temporary_hp() -> None:
    r = rest([player(temp_hp=7)], long=True)
    assert r["entities"]["ayla"]["after"]["temp_hp"] == 0
    assert r["entities"]["ayla"]["temp_hp_ended"] == 7
    assert "H9" in r["rules"] and "H3" in r["rules"]


def test_short_rest_keeps_temporary_hp_and_conditions() -> None:
    stunned = {"name": "Stunned", "source": "overclocking Smith", "remaining_turns": 1}
    r = rest([player(temp_hp=7, conditions=[stunned])])
    after = r["entities"]["ayla"]["after"]
    assert r["long"] is False
    assert after["temp_hp"] == 7 and after["conditions"] == [stunned]


@pytest.mark.parametrize("name", ["Drained", "Lethargic", "Stunned", "Prone"])
def test_long_rest_ends_each_default_long_rest_condition(name: str) -> None:
    r = rest([player(conditions=[{"name": name, "source": "x", "remaining_turns": 3}])],
             long=True)
    assert r["entities"]["ayla"]["after"]["conditions"] == []
    assert r["entities"]["ayla"]["events"] == [f"condition_ends:{name}"]


@pytest.mark.parametrize("source", ["dying", "nonlethal", "Dying"])
def test_unconscious_from_zero_hp_is_not_ended_by_the_catalog(source: str) -> None:
    cat = conditions.default_catalog()
    assert not cat.ended_by_long_rest(Condition("Unconscious", source))
    assert cat.ended_by_long_rest(Condition("Unconscious", "overclocking Smith"))


@pytest.mark.parametrize("name", ["Dying", "Stable", "Exhaustion", "Blessed"])
def test_other_conditions_are_not_ended_by_a_long_rest(name: str) -> None:
    assert not conditions.default_catalog().ended_by_long_rest(Condition(name, "x"))


def test_hp_and_flux_are_capped_and_exhaustion_not_below_zero() -> None:
    r = rest([player(hp=18, max_hp=24, flux=8, flux_max=10, exhaustion=1)],
             hp={"ayla": 10}, flux={"ayla": 5}, exhaustion={"ayla": 4})
    rep = r["entities"]["ayla"]
    assert rep["after"]["hp"] == 24 and rep["hp_regained"] == 6
    assert rep["after"]["flux"] == 10 and rep["flux_regained"] == 2
    assert rep["after"]["exhaustion"] == 0 and rep["exhaustion_removed"] == 1


def test_long_rest_removes_exhaustion_only_when_told() -> None:
    r = rest([player(exhaustion=3)], long=True)
    assert r["entities"]["ayla"]["after"]["exhaustion"] == 3
    r = rest([player(exhaustion=3)], long=True, exhaustion={"ayla": 2})
    assert r["entities"]["ayla"]["after"]["exhaustion"] == 1


def test_long_rest_touches_nothing_of_a_turn() -> None:
    turn_fields = {"action_points": 1, "movement_max": 6, "movement": 2,
                   "reaction_available": False, "hands_spent": 1, "held_items": ["sword"]}
    r = rest([player(temp_hp=3, **turn_fields)], long=True, hp={"ayla": 2})
    after = r["state"]["entities"][0]
    for key, value in turn_fields.items():
        assert after[key] == value, key
    assert after["hp"] == 12 and after["temp_hp"] == 0


def test_other_top_level_state_keys_are_kept() -> None:
    r = requests.resolve_plain({"kind": "rest", "long": True,
                          "state": {"round": 3, "description": "d", "entities": [player()]}})
    assert r["state"]["round"] == 3 and r["state"]["description"] == "d"


@pytest.mark.parametrize(("extra", "reason"), [
    ({"hp": 0, "dead": True, "death": {"cause": "zero_hp"}}, "dead"),
    ({"hp": 0, "conditions": DYING}, "dying"),
    ({"hp": 0, "conditions": [{"name": "Unconscious", "source": "dying"},
                              {"name": "Stable", "source": "dying"}]}, "stable"),
])
def test_who_cannot_rest(extra: dict[str, Any], reason: str) -> None:
    e = Entity.from_dict(player(**extra))
    assert rest_refusal(e) == reason
    with pytest.raises(RulesError) as err:
        rest_entity(e, RestInput(), long=True, catalog=conditions.default_catalog())
    assert err.value.rule == "H9"
    for named in ({"entities": ["ayla"]}, {"hp": {"ayla": 1}}, {"flux": {"ayla": 1}},
                  {"exhaustion": {"ayla": 1}}):
        with pytest.raises(RulesError) as err:
            rest([player(**extra)], long=True, **named)
        assert err.value.rule == "H9" and err.value.code == 4


def test_unnamed_entities_that_cannot_rest_are_skipped() -> None:
    goblin = {"id": "goblin", "kind": "enemy", "hp": 0, "max_hp": 7, "dead": True,
              "death": {"cause": "zero_hp"}}
    bram = {"id": "bram", "kind": "player", "hp": 0, "max_hp": 20, "temp_hp": 2,
            "conditions": DYING}
    r = rest([player(temp_hp=4), goblin, bram], long=True)
    assert r["resting"] == ["ayla"]
    assert r["skipped"] == {"goblin": "dead", "bram": "dying"}
    assert list(r["entities"]) == ["ayla"]
    assert r["state"]["entities"][2]["temp_hp"] == 2  # skipped: untouched


def test_player_at_zero_hp_neither_dying_nor_stable_may_rest() -> None:
    # H8: regaining HP at 0 HP; Unconscious from overclocking stays on a short rest
    ko = [{"name": "Unconscious", "source": "overclocking Smith"}]
    r = rest([player(hp=0, conditions=ko)], hp={"ayla": 4})
    rep = r["entities"]["ayla"]
    assert rep["after"]["hp"] == 4 and rep["after"]["conditions"] == ko
    assert "regains_consciousness" not in rep["events"]


@pytest.mark.parametrize(("fields", "where"), [
    ({"hp": {"aylaa": 3}}, "hp.aylaa"),
    ({"flux": {"nobody": 3}}, "flux.nobody"),
    ({"exhaustion": {"x": 1}}, "exhaustion.x"),
    ({"entities": ["nobody"]}, "entities[0]"),
    ({"entities": ["ayla", "ayla"]}, "entities[1]"),
    ({"entities": ["ayla"], "hp": {"goblin": 3}}, "hp.goblin"),
])
def test_invalid_ids_are_input_errors_with_the_field(fields: dict[str, Any], where: str
                                                     ) -> None:
    goblin = {"id": "goblin", "kind": "enemy", "hp": 7, "max_hp": 7}
    with pytest.raises(InputError) as err:
        rest([player(), goblin], **fields)
    assert [d.field for d in err.value.diagnostics] == [where]


def test_input_errors_come_before_rules_violations() -> None:
    bram = {"id": "bram", "kind": "player", "hp": 0, "max_hp": 20, "conditions": DYING}
    with pytest.raises(InputError):
        rest([bram], entities=["bram"], hp={"nobody": 1})


def test_rest_rolls_no_die() -> None:
    assert rest([player()], long=True)["rolls_used"] == []
    with pytest.raises(LinguoError) as err:
        requests.resolve_plain({"kind": "rest", "state": {"entities": [player()]}, "rolls": [3]})
    assert err.value.code == 3


# --- C2: the catalog's long-rest field ------------------------------------------------


def test_default_catalog_long_rest_field() -> None:
    cat = conditions.default_catalog()
    ends = sorted(c.name for c in cat.conditions if c.ends_on_long_rest)
    assert ends == ["Drained", "Lethargic", "Prone", "Stunned", "Unconscious"]


def test_catalog_without_the_field_still_loads_and_ends_nothing() -> None:
    old = {"conditions": [{"name": "Stunned", "effects": {"no_actions": True}}]}
    cat = conditions.load_catalog(old)
    assert cat.get("Stunned") is not None
    assert not cat.ended_by_long_rest(Condition("Stunned", "x"))
    r = rest([player(temp_hp=2, conditions=[{"name": "Stunned"}])], long=True,
             conditions=old["conditions"])
    assert r["entities"]["ayla"]["after"] == {**r["entities"]["ayla"]["after"],
                                              "temp_hp": 0, "conditions": [{"name": "Stunned"}]}


def test_catalog_field_round_trips_through_inline_entries() -> None:
    cat = conditions.default_catalog()
    again = conditions.catalog_from_request(cat.as_list())
    assert again.ended_by_long_rest(Condition("Unconscious", "overclocking"))
    assert not again.ended_by_long_rest(Condition("Unconscious", "dying"))


@pytest.mark.parametrize("entry", [
    {"name": "Stunned", "ends_on_long_rest": "yes"},
    {"name": "Stunned", "long_rest_except_sources": "dying"},
    {"name": "Stunned", "ends_on_long_rest_": True},
])
def test_catalog_long_rest_field_is_validated(entry: dict[str, Any]) -> None:
    with pytest.raises(InputError):
        conditions.load_catalog({"conditions": [entry]})
