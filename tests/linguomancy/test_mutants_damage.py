"""The damage, heal, temp_hp and death_save requests (issue 13, mutation run of
``damage``): targets, damage-type annotations, T6's shared roll and the state
after, through the handlers of :mod:`linguo_cli.rulesets.linguomancy.damage`.
Values are worked by hand from ``RULINGS.md`` in each test's comment.
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.dice import ScriptedDice, parse
from linguo_cli.core.errors import InputError
from linguo_cli.core.results import to_plain
from linguo_cli.rulesets.linguomancy import damage


def pc(eid: str, **kw: Any) -> dict[str, Any]:
    return {"id": eid, "kind": "player", "hp": 10, "max_hp": 20, **kw}


def hit(faces: list[int], **request: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"kind": "damage", "tick": "low", "dice": "2d4"}
    out: dict[str, Any] = to_plain(damage.resolve_damage_request({**base, **request},
                                                                 ScriptedDice(faces)))
    return out


def heal(faces: list[int], **request: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"kind": "heal", "tick": "low", "dice": "2d4"}
    out: dict[str, Any] = to_plain(damage.resolve_heal_request({**base, **request},
                                                               ScriptedDice(faces)))
    return out


def diags(err: pytest.ExceptionInfo[InputError]) -> list[tuple[str, str]]:
    return [(d.field, d.message) for d in err.value.diagnostics]


# ---------------------------------------------------------------------------
# Targets


def test_targets_must_be_entities_of_the_state_and_listed_once() -> None:
    ents = damage.state_entities({"entities": [pc("ayla"), pc("bren")]})
    assert damage.resolve_targets(ents, ["bren", "ayla"]) == ["bren", "ayla"]
    with pytest.raises(InputError) as err:
        damage.resolve_targets(ents, ["ayla", "ayla", "aylb", "zzz"])
    assert diags(err) == [
        ("targets[1]", "target 'ayla' is listed twice"),
        ("targets[2]", "no entity with id 'aylb' in the state (did you mean 'ayla'?)"),
        ("targets[3]", "no entity with id 'zzz' in the state; ids: ayla, bren"),
    ]


def test_an_entity_field_is_named_as_it_is() -> None:
    with pytest.raises(InputError) as err:
        damage.resolve_targets({}, ["zzz"], "entity")
    assert diags(err) == [("entity", "no entity with id 'zzz' in the state")]


def test_targets_need_a_state_and_a_state_needs_targets() -> None:
    with pytest.raises(InputError) as err:
        hit([1, 1], targets=["ayla"])
    assert diags(err)[0][0] == "targets"
    with pytest.raises(InputError) as err:
        hit([1, 1], state={"entities": [pc("ayla")]})
    assert "at least one target" in diags(err)[0][1]
    with pytest.raises(InputError):
        damage.resolve_temp_hp_request({"kind": "temp_hp", "amount": 5}, ScriptedDice([]))


def test_a_roll_without_a_state_has_no_entities() -> None:
    r = hit([1, 2])
    assert r["amount"] == 3 and "entities" not in r and "state" not in r


# ---------------------------------------------------------------------------
# Damage types from annotations


def test_damage_type_from_an_annotation_or_the_request() -> None:
    assert damage.annotated_damage_type(None, None) is None
    assert damage.annotated_damage_type(None, "fire") == "fire"
    assert damage.annotated_damage_type(parse("2d4"), "fire") == "fire"
    assert damage.annotated_damage_type(parse("2d4[fire]"), None) == "fire"
    assert damage.annotated_damage_type(parse("2d4[fire]"), "fire") == "fire"
    assert damage.annotated_damage_type(parse("1d4[fire]+1d4[fire]"), None) == "fire"


@pytest.mark.parametrize(("dice", "given", "message"), [
    ("2d4[fire]", "frost", "the annotation [fire] contradicts damage_type 'frost'"),
    ("1d4[fire]+1d4[frost]", None, "a damage roll has one damage type; the dice are "
                                   "annotated fire, frost"),
])
def test_contradicting_annotations_are_invalid(dice: str, given: str | None,
                                               message: str) -> None:
    with pytest.raises(InputError) as err:
        damage.annotated_damage_type(parse(dice), given)
    assert diags(err) == [("dice", message)]


# ---------------------------------------------------------------------------
# The damage request


def test_damage_defaults_potential_zero_and_uses_the_damage_table() -> None:
    # T1/T4: Low x1, 2d4 [2, 3] = 5 + Potential 0: 5; ayla 10 -> 5.
    r = hit([2, 3], state={"entities": [pc("ayla")]}, targets=["ayla"])
    assert (r["amount"], r["ability"], r["ability_modifier"]) == (5, "potential", 0)
    assert r["entities"]["ayla"]["after"]["hp"] == 5
    assert "T6" not in r["rules"] and "T1" in r["rules"]


@pytest.mark.parametrize("count", [2, 3])
def test_several_targets_share_one_roll(count: int) -> None:
    # T6: one 2d4 [4, 4] = 8 + Potential 1 = 9 for every target: 10 -> 1 each.
    ids = ["a", "b", "c"][:count]
    r = hit([4, 4], potential=1, state={"entities": [pc(i) for i in ids]}, targets=ids)
    assert [r["entities"][i]["after"]["hp"] for i in ids] == [1] * count
    assert {"rule": "T6", "text": f"{count} targets share the one damage roll of 9"} in (
        r["explanation"])


def test_damage_tick_none_on_a_target_deals_nothing() -> None:
    r = hit([], tick="none", dice=None, state={"entities": [pc("ayla")]}, targets=["ayla"])
    assert r["amount"] == 0
    assert r["entities"]["ayla"]["after"]["hp"] == 10
    assert r["entities"]["ayla"]["damage"] == 0


def test_the_state_after_keeps_its_other_keys() -> None:
    state = {"round": 2, "acted_this_round": ["ayla"], "entities": [pc("ayla"), pc("bren")]}
    r = hit([1, 1], state=state, targets=["bren"])
    assert list(r["state"]) == ["round", "acted_this_round", "entities"]
    assert (r["state"]["round"], r["state"]["acted_this_round"]) == (2, ["ayla"])
    assert [e["hp"] for e in r["state"]["entities"]] == [10, 8]


# ---------------------------------------------------------------------------
# The heal request


def test_heal_defaults_cohesion_zero_and_uses_the_healing_table() -> None:
    # T7: Low healing x1, 2d4 [1, 2] = 3 + Cohesion 0: ayla 10 -> 13.
    r = heal([1, 2], state={"entities": [pc("ayla")]}, targets=["ayla"])
    assert (r["amount"], r["ability"], r["ability_modifier"]) == (3, "cohesion", 0)
    assert r["entities"]["ayla"]["after"]["hp"] == 13
    assert "T6" not in r["rules"] and "T2" in r["rules"]


def test_heal_complete_restores_each_target() -> None:
    r = heal([], tick="complete", dice=None, state={"entities": [pc("a"), pc("b", hp=2)]},
             targets=["a", "b"])
    assert [e["hp"] for e in r["state"]["entities"]] == [20, 20]
    assert {"rule": "T6", "text": "2 targets share the one healing roll"} in r["explanation"]


@pytest.mark.parametrize("count", [2, 3])
def test_heal_several_targets_share_one_roll(count: int) -> None:
    ids = ["a", "b", "c"][:count]
    r = heal([2, 2], cohesion=1, state={"entities": [pc(i) for i in ids]}, targets=ids)
    assert [r["entities"][i]["after"]["hp"] for i in ids] == [15] * count
    assert any(s["rule"] == "T6" for s in r["explanation"])


def test_heal_resurrection_with_a_fixed_amount() -> None:
    dead = pc("ayla", hp=0, dead=True, death={"cause": "zero_hp"})
    r = heal([], tick="resurrection", dice=None, amount=4, state={"entities": [dead]},
             targets=["ayla"])
    assert r["amount"] == 4
    assert r["entities"]["ayla"]["after"]["hp"] == 4
    assert r["entities"]["ayla"]["after"]["dead"] is False
