"""Rests (issue 13, mutation run of ``rest``): H9 with H3, H8, F1, F5 and C2,
each amount at zero, at its cap and past it, and each line of the
explanation under the branch that writes it. Values are worked by hand from
``RULINGS.md`` in each test's comment.
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.errors import InputError
from linguo_cli.rulesets.linguomancy import conditions
from linguo_cli.rulesets.linguomancy.model import Entity
from linguo_cli.rulesets.linguomancy.rest import RestInput, rest_entity


def rest(state: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = requests.resolve({"kind": "rest", "state": {"entities": state},
                                            **fields})
    return out


def player(eid: str = "ayla", **fields: Any) -> dict[str, Any]:
    return {"id": eid, "kind": "player", "hp": 10, "max_hp": 20, "flux": 5, **fields}


def texts(r: dict[str, Any]) -> list[str]:
    return [s["text"] for s in r["explanation"]]


def one(given: RestInput, long: bool = False, **fields: Any) -> tuple[Entity, Any]:
    e = Entity.from_dict(player(**fields))
    return rest_entity(e, given, long=long, catalog=conditions.default_catalog())


def test_a_rest_input_defaults_to_nothing() -> None:
    assert RestInput() == RestInput(hp=0, flux=0, exhaustion=0)
    e, rep = one(RestInput(), temp_hp=4, exhaustion=2)
    assert (e.hp, e.flux, e.exhaustion, e.temp_hp) == (10, 5, 2, 4)
    assert rep.details == {"hp_regained": 0, "flux_regained": 0, "exhaustion_removed": 0,
                           "temp_hp_ended": 0, "conditions_ended": []}
    assert [s.text for s in rep.steps] == ["short rest without inputs: nothing changes"]


def test_a_short_rest_with_inputs_does_not_say_nothing_changes() -> None:
    e, rep = one(RestInput(hp=1))
    assert e.hp == 11 and rep.details["hp_regained"] == 1
    assert "short rest without inputs: nothing changes" not in [s.text for s in rep.steps]


def test_a_long_rest_without_inputs_ends_temporary_hp_only() -> None:
    e, rep = one(RestInput(), long=True, temp_hp=4)
    assert e.temp_hp == 0 and rep.details["temp_hp_ended"] == 4
    assert "short rest without inputs: nothing changes" not in [s.text for s in rep.steps]


@pytest.mark.parametrize(("amount", "flux", "capped"), [(1, 6, False), (5, 10, False),
                                                        (6, 10, True)])
def test_flux_regained_up_to_flux_max(amount: int, flux: int, capped: bool) -> None:
    # F1: Flux 5 of 10 + amount, capped at 10.
    e, rep = one(RestInput(flux=amount))
    assert e.flux == flux and rep.details["flux_regained"] == flux - 5
    note = f"Flux 5 + {amount} = {flux}" + (" (capped at flux_max 10)" if capped else "")
    assert [(s.rule, s.text) for s in rep.steps] == [
        ("H9", f"rest: regains up to {amount} Flux (input)"), ("F1", note)]


@pytest.mark.parametrize(("amount", "left", "floor"), [(1, 1, False), (2, 0, False),
                                                       (3, 0, True)])
def test_exhaustion_removed_never_below_zero(amount: int, left: int, floor: bool) -> None:
    # F5/H9: 2 tiers, amount removed, never below 0.
    e, rep = one(RestInput(exhaustion=amount), exhaustion=2)
    assert e.exhaustion == left and rep.details["exhaustion_removed"] == 2 - left
    note = f"Exhaustion tiers 2 -> {left}" + (" (never below 0)" if floor else "")
    assert [(s.rule, s.text) for s in rep.steps] == [
        ("H9", f"rest: removes up to {amount} Exhaustion tier(s) (input)"), ("F5", note)]


def test_hp_regained_by_one() -> None:
    # H3 through healing: 10 + 1 = 11.
    r = rest([player()], hp={"ayla": 1})
    assert r["entities"]["ayla"]["after"]["hp"] == 11
    assert r["entities"]["ayla"]["hp_regained"] == 1


def test_long_rest_explains_each_condition_it_ends_or_keeps() -> None:
    conds = [{"name": "Stunned", "source": "overclocking Smith", "remaining_turns": 1},
             {"name": "Prone"},
             {"name": "Unconscious", "source": "dying"},
             {"name": "Hexed", "source": "witch"},
             {"name": "Hasted"}]
    r = rest([player(hp=5, conditions=conds)], long=True)
    lines = [t.split(": ", 1)[1] for t in texts(r) if t.startswith("ayla: ")]
    assert lines[0].startswith("long rest ends Stunned (source overclocking Smith): "
                               "the condition catalog (")
    assert lines[1].startswith("long rest ends Prone: the condition catalog (")
    assert lines[2:] == [
        "Unconscious stays: its catalog entry does not end it on a long rest from source dying",
        "Hexed stays: not in the condition catalog",
        "Hasted stays: not in the condition catalog",
    ]
    assert [c["name"] for c in r["entities"]["ayla"]["after"]["conditions"]] == [
        "Unconscious", "Hexed", "Hasted"]


def test_long_rest_keeps_a_catalog_condition_without_the_field() -> None:
    catalog = [{"name": "Marked", "description": "x"}]
    r = rest([player(conditions=[{"name": "Marked"}])], long=True, conditions=catalog)
    assert "ayla: Marked stays: its catalog entry does not end it on a long rest" in texts(r)


def test_unknown_ids_list_the_state_when_nothing_is_close() -> None:
    with pytest.raises(InputError) as err:
        rest([player(), player("bren")], entities=["zzz"])
    d = err.value.diagnostics[0]
    assert (d.field, d.message) == ("entities[0]",
                                    "no entity with id 'zzz' in the state; ids: ayla, bren")
    with pytest.raises(InputError) as err:
        rest([player(), player("bren")], hp={"aylb": 2})
    assert err.value.diagnostics[0].message == ("no entity with id 'aylb' in the state "
                                                "(did you mean 'ayla'?)")


def test_entities_list_chooses_who_rests_in_state_order() -> None:
    r = rest([player(), player("bren"), player("cara")], entities=["cara", "bren"],
             hp={"bren": 3})
    assert r["resting"] == ["bren", "cara"] and r["skipped"] == {}
    assert [e["hp"] for e in r["state"]["entities"]] == [10, 13, 10]
