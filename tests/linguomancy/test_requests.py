"""Unit tests of :mod:`linguo_cli.rulesets.linguomancy.requests`, d20 part: building a test from a
request (D6 ability modifiers, D7 Noun checks, A3/A4 AC, S2/S3 saves) and the
``resolve`` entry point (rolls_used, dice checks, dispatch)."""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.dice import ScriptedDice, SeededDice
from linguo_cli.core.errors import DiceError, InputError, RulesError
from linguo_cli.rulesets.linguomancy import requests
from linguo_cli.rulesets.linguomancy.model import TestKind

# ---------------------------------------------------------------------------
# D7: idioms and Noun checks


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Shape - Fire", ("Shape", "Fire")),
        ("Speak - Fire", ("Speak", "Fire")),
        ("Shape  -  Water ", ("Shape", "Water")),
        ("Smith", ("Shape", "Flux")),
        ("smith", ("Shape", "Flux")),
        ("Creator", ("Speak", "Flux")),
        ("Fireball", None),
        ("Shape-Fire", None),
    ],
)
def test_idiom_verb_noun(name: str, expected: tuple[str, str] | None) -> None:
    assert requests.idiom_verb_noun(name) == expected


def test_published_idioms_hold_smith_and_creator() -> None:
    published = requests.published_idioms()
    assert published["Smith"] == ("Shape", "Flux")
    assert published["Creator"] == ("Speak", "Flux")


@pytest.mark.parametrize(
    ("noun", "idioms", "expected"),
    [
        ("Fire", ["Shape - Fire"], "Shape - Fire"),
        ("Fire", ["Speak - Fire"], "Speak - Fire"),
        ("fire", ["Shape - Fire"], "Shape - Fire"),
        ("Fire", ["Speak - Water", "Smith", "Shape - Fire"], "Shape - Fire"),
        ("Flux", ["Smith"], "Smith"),
        ("Flux", ["Creator"], "Creator"),
        ("Fire", ["Smith", "Creator"], None),
        ("Fire", ["Break - Fire"], None),
        ("Fire", ["Shape - Water"], None),
        ("Fire", [], None),
    ],
)
def test_noun_check_idiom(noun: str, idioms: list[str], expected: str | None) -> None:
    assert requests.noun_check_idiom(noun, idioms) == expected


def test_noun_check_without_idiom_is_a_d7_rules_error() -> None:
    req = {"kind": "check", "dc": 12, "noun": "Fire",
           "entity": {"idioms": ["Shape - Water"]}}
    with pytest.raises(RulesError) as info:
        requests.build_test(req)
    err = info.value
    assert err.code == 4
    assert err.rule == "D7"
    assert err.details == {"noun": "Fire", "known_idioms": ["Shape - Water"]}
    assert "Fire" in err.message


def test_noun_check_refused_before_any_die_is_rolled() -> None:
    dice = ScriptedDice([20])
    with pytest.raises(RulesError):
        requests.resolve_plain({"kind": "check", "dc": 12, "noun": "Fire"}, dice)
    assert dice.used == []


def test_noun_check_allowed_records_d7() -> None:
    test = requests.build_test({"kind": "check", "dc": 12, "noun": "Fire",
                                "entity": {"idioms": ["Speak - Fire"]}})
    d7 = [s for s in test.steps if s.rule == "D7"]
    assert len(d7) == 1 and "Speak - Fire" in d7[0].text


# ---------------------------------------------------------------------------
# D6: ability modifiers


def test_ability_modifier_from_abilities() -> None:
    found = requests.ability_modifier({"abilities": {"strength": 3}}, "strength")
    assert found is not None
    assert found[0] == 3
    assert found[1].rule == "D6"


@pytest.mark.parametrize(
    ("score", "modifier"),
    [(1, -5), (3, -4), (7, -2), (8, -1), (9, -1), (10, 0), (11, 0), (12, 1), (15, 2),
     (16, 3), (20, 5), (30, 10)],
)
def test_ability_modifier_from_score(score: int, modifier: int) -> None:
    found = requests.ability_modifier({"ability_scores": {"strength": score}}, "strength")
    assert found is not None
    value, step = found
    assert value == modifier
    # D6: "the output says so" -- the step names the score and the conversion.
    assert step.rule == "D6"
    assert str(score) in step.text and "floor" in step.text


def test_ability_modifier_refuses_a_modifier_and_a_score_for_one_ability() -> None:
    # issue 12: both were accepted silently (the modifier won); D6 takes one.
    with pytest.raises(InputError) as info:
        requests.ability_modifier(
            {"abilities": {"strength": 1}, "ability_scores": {"strength": 18}}, "strength")
    assert info.value.diagnostics[0].field == "entity.ability_scores.strength"
    # another ability given each way is fine
    found = requests.ability_modifier(
        {"abilities": {"strength": 1}, "ability_scores": {"cohesion": 18}}, "cohesion")
    assert found is not None and found[0] == 4


def test_ability_modifier_absent() -> None:
    assert requests.ability_modifier({"abilities": {"strength": 1}}, "cohesion") is None
    assert requests.ability_modifier({}, "cohesion") is None


def test_ability_modifier_comes_first_then_listed_modifiers() -> None:
    test = requests.build_test({
        "kind": "check", "dc": 15, "ability": "strength",
        "entity": {"abilities": {"strength": 3}},
        "modifiers": [{"label": "idiom", "value": 2}],
    })
    assert [(m.label, m.value) for m in test.modifiers] == [("strength", 3), ("idiom", 2)]
    assert test.steps[0].rule == "D6"


def test_check_with_an_ability_the_entity_lacks_is_invalid_input() -> None:
    with pytest.raises(InputError) as info:
        requests.build_test({"kind": "check", "dc": 10, "ability": "strength",
                             "entity": {"abilities": {"cohesion": 1}}})
    assert info.value.code == 3
    assert info.value.diagnostics[0].field == "ability"


def test_modifier_label_defaults() -> None:
    mods = requests.modifiers_from([{"value": 2}, {"label": "idiom", "value": -1}])
    assert [(m.label, m.value) for m in mods] == [("modifier", 2), ("idiom", -1)]
    assert requests.modifiers_from(None) == ()


# ---------------------------------------------------------------------------
# S2/S3: saves


def test_save_entity_without_the_ability_is_automatic_failure() -> None:
    test = requests.build_test({"kind": "save", "dc": 12, "ability": "constitution",
                                "entity": {"abilities": {"strength": 2}}})
    assert test.automatic == "no_ability"


def test_save_no_ability_flag_is_automatic_failure() -> None:
    test = requests.build_test({"kind": "save", "dc": 12, "no_ability": True})
    assert test.automatic == "no_ability"


def test_save_with_an_ability_but_no_entity_is_invalid_input() -> None:
    with pytest.raises(InputError):
        requests.build_test({"kind": "save", "dc": 12, "ability": "constitution"})


@pytest.mark.parametrize(
    ("cost", "potential", "dc"), [(3, 2, 15), (0, -1, 9), (10, 5, 25), (0, 0, 10)])
def test_idiom_save_dc(cost: int, potential: int, dc: int) -> None:
    test = requests.build_test(
        {"kind": "save", "idiom_dc": {"flux_cost": cost, "potential": potential}})
    assert test.target == dc
    s3 = [s for s in test.steps if s.rule == "S3"]
    assert len(s3) == 1 and str(dc) in s3[0].text


# ---------------------------------------------------------------------------
# A3/A4: attacks


def test_attack_without_ac_is_automatic() -> None:
    test = requests.build_test({"kind": "attack", "ac": None})
    assert test.automatic == "no_ac"
    assert test.target is None


def test_attack_with_a_number_ac() -> None:
    test = requests.build_test({"kind": "attack", "ac": 17})
    assert test.target == 17
    assert test.automatic is None
    assert test.kind is TestKind.ATTACK


@pytest.mark.parametrize(
    ("parts", "ac"),
    [
        ({"armour": 14, "signature": 2, "shield": 2,
          "other": [{"label": "cover", "value": 2}]}, 20),
        ({"signature": 3}, 13),
        ({}, 10),
        ({"armour": 12, "signature": -1, "other": [{"label": "rusted", "value": -1},
                                                   {"label": "haste", "value": 2}]}, 12),
        ({"shield": 2}, 12),
    ],
)
def test_attack_ac_from_parts(parts: dict[str, Any], ac: int) -> None:
    test = requests.build_test({"kind": "attack", "ac": parts})
    assert test.target == ac
    a4 = [s for s in test.steps if s.rule == "A4"]
    assert len(a4) == 1 and a4[0].text.endswith(f"= {ac}")


def test_attack_ac_without_armour_says_none_worn() -> None:
    test = requests.build_test({"kind": "attack", "ac": {"signature": 1}})
    assert "none worn" in test.steps[0].text


def test_partial_success_hits_is_passed_on() -> None:
    assert requests.build_test(
        {"kind": "attack", "ac": 12, "partial_success_hits": True}).partial_success_hits
    assert not requests.build_test({"kind": "attack", "ac": 12}).partial_success_hits


# ---------------------------------------------------------------------------
# resolve


def test_resolve_lists_rolls_used() -> None:
    result = requests.resolve_plain(
        {"kind": "check", "dc": 12, "advantage": True, "rolls": [4, 18]})
    assert result["rolls_used"] == [4, 18]
    assert result["natural"] == 18


def test_resolve_refuses_unused_faces() -> None:
    with pytest.raises(DiceError):
        requests.resolve_plain({"kind": "check", "dc": 12, "rolls": [4, 18]})


def test_resolve_dice_argument_overrides_request_rolls() -> None:
    result = requests.resolve_plain({"kind": "check", "dc": 12, "rolls": [4]}, ScriptedDice([15]))
    assert result["natural"] == 15
    assert result["rolls_used"] == [15]


def test_resolve_with_a_seed_replays_through_rolls_used() -> None:
    req = {"kind": "attack", "ac": 14, "advantage": True,
           "modifiers": [{"label": "signature", "value": 3}]}
    first = requests.resolve_plain({**req, "seed": 12345})
    again = requests.resolve_plain({**req, "seed": 12345})
    replay = requests.resolve_plain({**req, "rolls": first["rolls_used"]})
    assert first == again == replay
    assert len(first["rolls_used"]) == 2


def test_resolve_automatic_results_use_no_dice() -> None:
    for req in ({"kind": "attack", "ac": None},
                {"kind": "save", "dc": 10, "no_ability": True}):
        dice = SeededDice(1)
        result = requests.resolve_plain(req, dice)
        assert result["rolls_used"] == [] and dice.used == []


def test_unknown_kind_is_invalid_input() -> None:
    with pytest.raises(InputError) as info:
        requests.handler_for("juggle")
    assert info.value.code == 3
    assert "juggle" in info.value.message


@pytest.mark.parametrize("kind", ["check", "attack", "save"])
def test_test_kinds_dispatch_to_the_d20_handler(kind: str) -> None:
    assert requests.handler_for(kind) is requests.resolve_test_request
