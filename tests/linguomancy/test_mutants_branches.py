"""Dropped branches (issue 13): each test here follows one branch of the
rules that a mutation run could delete unnoticed, under rulings revision 2
(``RULINGS.md``). Values are worked by hand in each test's comment.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from linguo_cli.core.errors import InputError, RulesError
from linguo_cli.io import state_io
from linguo_cli.rulesets.linguomancy import packaged, requests
from linguo_cli.rulesets.linguomancy.ticks import get_tick

from ..conftest import run_cli


def resolve(request: dict[str, Any]) -> dict[str, Any]:
    """Validate (schema and state checks) and resolve, as ``linguo resolve`` does."""
    state_io.validate(state_io.Document("request", request), "request")
    return requests.resolve_plain(request)


def _player(eid: str = "p", **fields: Any) -> dict[str, Any]:
    return {"id": eid, "kind": "player", "hp": 20, "max_hp": 20, **fields}


def _damage(entity: dict[str, Any], dice: str, rolls: list[int], **extra: Any
            ) -> dict[str, Any]:
    return resolve({"kind": "damage", "tick": "tiny", "dice": dice,
                    "state": {"entities": [entity]}, "targets": [entity["id"]],
                    "rolls": rolls, **extra})


def _names(conditions: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(c["name"], c["source"]) for c in conditions]


# ---------------------------------------------------------------------------
# H5/H7: damage at 0 HP to a player that is neither Dying nor Stable


def test_damage_at_zero_hp_to_a_player_neither_dying_nor_stable() -> None:
    # A player at 0 HP without Dying or Stable takes 3 (1d4: 3) < max HP 20:
    # it starts Dying and falls Unconscious (counts at 0), then H7 adds one
    # failure: failures 1.
    rep = _damage(_player(hp=0), "1d4", [3])["entities"]["p"]
    after = rep["after"]
    assert _names(after["conditions"]) == [("Dying", "dying"), ("Unconscious", "dying")]
    assert after["death_saves"] == {"successes": 0, "failures": 1}
    assert after["dead"] is False and after["hp"] == 0
    assert rep["events"] == ["falls_unconscious", "starts_dying", "death_save_failure"]


def test_damage_at_zero_hp_to_a_player_unconscious_from_overclocking() -> None:
    # Unconscious from overclocking stays; Dying is added; one failure.
    ko = {"name": "Unconscious", "source": "overclocking Smith"}
    rep = _damage(_player(hp=0, conditions=[ko]), "1d4", [3])["entities"]["p"]
    assert _names(rep["after"]["conditions"]) == [("Unconscious", "overclocking Smith"),
                                                  ("Dying", "dying")]
    assert rep["after"]["death_saves"]["failures"] == 1
    assert rep["events"] == ["starts_dying", "death_save_failure"]


def test_damage_at_zero_hp_reaching_max_hp_kills_a_player_neither_dying_nor_stable() -> None:
    # 20 damage (1d4+16: 4 + 16) at 0 HP >= max HP 20: dies at once (H7).
    rep = _damage(_player(hp=0), "1d4+16", [4], allow_nonconforming=True)["entities"]["p"]
    assert rep["after"]["dead"] is True
    assert rep["after"]["death"]["cause"] == "damage_at_zero_hp"


def test_nonlethal_damage_at_zero_hp_to_a_player_neither_dying_nor_stable() -> None:
    # H5 rev. 2: where H7 would add a failure, nonlethal damage leaves the
    # target at 0 HP, Unconscious and Stable, counts 0.
    rep = _damage(_player(hp=0), "1d4", [3], nonlethal=True)["entities"]["p"]
    after = rep["after"]
    assert [c["name"] for c in after["conditions"]] == ["Unconscious", "Stable"]
    assert after["death_saves"] == {"successes": 0, "failures": 0}
    assert after["dead"] is False


# ---------------------------------------------------------------------------
# T4: a damage roll floored to 0 deals 0, not 1


def test_damage_floored_at_zero_deals_nothing() -> None:
    # -1d4+1 with a 4: 1 - 4 = -3, floored at 0 (T4): HP 20 stays 20.
    result = _damage(_player(), "-1d4+1", [4], allow_nonconforming=True)
    assert result["dice_total"] == -3 and result["amount"] == 0
    rep = result["entities"]["p"]
    assert rep["after"]["hp"] == 20 and rep["hp_lost"] == 0 and rep["events"] == []


def test_damage_floored_at_zero_by_a_flat_modifier_deals_nothing() -> None:
    # 1d4 [1] + penalty -5 = -4 -> 0.
    result = _damage(_player(), "1d4", [1], modifiers=[{"label": "penalty", "value": -5}])
    assert result["amount"] == 0
    assert result["entities"]["p"]["after"]["hp"] == 20


def test_zero_damage_at_zero_hp_adds_no_failure() -> None:
    # A Dying player (failures 1) takes 1d4 [2] - 5 = -3 -> 0: no failure (H7
    # counts damage above 0 only).
    dying = _player(hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                      {"name": "Unconscious", "source": "dying"}],
                    death_saves={"successes": 0, "failures": 1})
    result = _damage(dying, "1d4", [2], modifiers=[{"label": "penalty", "value": -5}])
    assert result["amount"] == 0
    rep = result["entities"]["p"]
    assert rep["after"]["death_saves"] == {"successes": 0, "failures": 1}
    assert rep["events"] == []


# ---------------------------------------------------------------------------
# H10 rev. 2: a dead entity keeps no condition


def _overclock_cast(flux: int, exhaustion: int = 0, conditions: list[dict[str, Any]] | None = None
                    ) -> dict[str, Any]:
    kael = {"id": "kael", "kind": "player", "hp": 12, "max_hp": 12, "flux": flux,
            "exhaustion": exhaustion, "expertise": {"Flux": 10}, "idioms": ["Smith"],
            "conditions": conditions or []}
    return resolve({"kind": "cast", "caster": "kael", "idiom": "Smith", "upcast": 10,
                    "overclock": True, "state": {"entities": [kael]}, "rolls": []})


_HELD = [{"name": "Drained", "source": "earlier cast", "remaining_turns": 2},
         {"name": "Lethargic", "source": "earlier cast", "remaining_turns": 1}]


@pytest.mark.parametrize(("flux", "cause"), [(1, "overclock_body_consumed"),
                                             (0, "overclock_essence_shattered")])
def test_overclocking_death_rows_9_and_10_kill(flux: int, cause: str) -> None:
    # cost 10 with 1 (0) Flux: 9 (10) missing: dies (F4 rows 9, 10).
    after = _overclock_cast(flux, conditions=_HELD)["entities"]["kael"]["after"]
    assert after["dead"] is True
    assert after["death"]["cause"] == cause


@pytest.mark.parametrize("flux", [1, 0])
def test_overclocking_death_keeps_no_condition(flux: int) -> None:
    after = _overclock_cast(flux, conditions=_HELD)["entities"]["kael"]["after"]
    assert after["dead"] is True
    assert after["conditions"] == []


def test_exhaustion_death_keeps_the_conditions_of_the_same_cast_no_more() -> None:
    # cost 10 with 3 Flux: 7 missing, row 7: Unconscious and +5 Exhaustion;
    # 1 + 5 = 6 tiers: dies (F5). H10: the Unconscious it gained ends too.
    after = _overclock_cast(3, exhaustion=1, conditions=_HELD)["entities"]["kael"]["after"]
    assert after["dead"] is True and after["death"]["cause"] == "exhaustion"
    assert after["conditions"] == []


def test_a_damage_death_keeps_no_condition() -> None:
    # An enemy at 3 HP, Prone, takes 4 (1d4: 4): 0 HP, dies (H5); Prone ends.
    gob = {"id": "gob", "kind": "enemy", "hp": 3, "max_hp": 10,
           "conditions": [{"name": "Prone", "source": "trip"}]}
    after = _damage(gob, "1d4", [4])["entities"]["gob"]["after"]
    assert after["dead"] is True and after["conditions"] == []


def test_a_damage_death_ends_dying_stable_and_unconscious_from_dying() -> None:
    # Dying player with 2 failures takes 1 (1d4: 1): third failure, dies.
    dying = _player(hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                      {"name": "Unconscious", "source": "dying"}],
                    death_saves={"successes": 0, "failures": 2})
    after = _damage(dying, "1d4", [1])["entities"]["p"]["after"]
    assert after["dead"] is True and after["death"]["cause"] == "death_saves"
    assert after["conditions"] == []


# ---------------------------------------------------------------------------
# C2: advantage and disadvantage on saves from the target's conditions


_FROST_STATE: dict[str, Any] = {"entities": [
    {"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20, "abilities": {"potential": 0},
     "idioms": ["Burst - Frost"]},
    {"id": "gob", "kind": "enemy", "hp": 30, "max_hp": 30, "abilities": {"signature": 0},
     "conditions": [{"name": "Warded", "source": "charm"}]}]}


def _warded(effects: dict[str, Any]) -> list[dict[str, Any]]:
    """An inline catalog with one condition, Warded: a copy of the default
    catalog's Drained entry (so any field the schema requires is there) with
    its own name and ``effects``."""

    text = packaged("data/conditions.yaml").read_text(
        encoding="utf-8")
    drained = next(c for c in state_io.parse(text, "conditions.yaml").data["conditions"]
                   if c["name"] == "Drained")
    return [{**json.loads(json.dumps(drained)), "name": "Warded",
             "description": "test condition", "effects": effects}]


def _frost(effect: str, rolls: list[int]) -> dict[str, Any]:
    catalog = _warded({effect: ["save"]})
    return resolve({"kind": "cast", "caster": "ayla", "idiom": "Burst - Frost",
                    "targets": ["gob"], "state": _FROST_STATE, "conditions": catalog,
                    "rolls": rolls})


def test_a_targets_condition_gives_advantage_on_its_save() -> None:
    # Save DC 10 + 4 + 0 = 14. Advantage: faces 2 and 19, 19 kept: 19 >= 14,
    # margin 5, success: half of 4d6 [1, 1, 1, 1] = 4 + 0 x 2 -> 2: 30 -> 28.
    result = _frost("advantage", [2, 19, 1, 1, 1, 1])
    test = result["tests"][0]
    assert [(f["face"], f["kept"]) for f in test["faces"]] == [(2, False), (19, True)]
    assert test["natural"] == 19 and test["success"] is True
    assert result["entities"]["gob"]["after"]["hp"] == 28


def test_a_targets_condition_gives_disadvantage_on_its_save() -> None:
    # Disadvantage: faces 19 and 2, 2 kept: 2 - 14 = margin -12, critical
    # failure (D4): the save fails, full 4 damage: 30 -> 26.
    result = _frost("disadvantage", [19, 2, 1, 1, 1, 1])
    test = result["tests"][0]
    assert [(f["face"], f["kept"]) for f in test["faces"]] == [(19, False), (2, True)]
    assert test["success"] is False
    assert result["entities"]["gob"]["after"]["hp"] == 26


def test_a_condition_giving_advantage_on_attacks_only_does_not_touch_saves() -> None:
    # "attack" advantage on the target does nothing to its save: one d20.
    catalog = _warded({"advantage": ["attack"]})
    result = resolve({"kind": "cast", "caster": "ayla", "idiom": "Burst - Frost",
                      "targets": ["gob"], "state": _FROST_STATE, "conditions": catalog,
                      "rolls": [19, 1, 1, 1, 1]})
    assert len(result["tests"][0]["faces"]) == 1


# ---------------------------------------------------------------------------
# Request-level modifiers of a cast


_HURL_STATE: dict[str, Any] = {"entities": [
    {"id": "ayla", "kind": "player", "hp": 20, "max_hp": 20, "abilities": {"potential": 2},
     "idioms": ["Hurl - Fire"]},
    {"id": "gob", "kind": "enemy", "hp": 30, "max_hp": 30, "ac": 17}]}


def _hurl(**extra: Any) -> dict[str, Any]:
    return resolve({"kind": "cast", "caster": "ayla", "idiom": "Hurl - Fire",
                    "targets": ["gob"], "state": _HURL_STATE, **extra})


def test_cast_attack_modifiers_are_added_to_the_attack_roll() -> None:
    # 12 + Potential 2 + bless 3 = 17 vs AC 17: margin 0, success, hit.
    # 2d6+1 [1, 1] = 3 + Potential 2 x 1 = 5: 30 -> 25.
    result = _hurl(modifiers=[{"label": "bless", "value": 3}], rolls=[12, 1, 1])
    test = result["tests"][0]
    assert test["total"] == 17 and test["modifier_total"] == 5 and test["hit"] is True
    assert {"label": "bless", "value": 3} in test["modifiers"]
    assert result["entities"]["gob"]["after"]["hp"] == 25


def test_cast_without_the_modifier_misses() -> None:
    # 12 + 2 = 14 vs 17: margin -3, partial failure: miss, no damage dice.
    result = _hurl(rolls=[12])
    assert result["tests"][0]["hit"] is False
    assert result["entities"]["gob"]["after"]["hp"] == 30


def test_cast_amount_modifiers_are_added_once_to_the_damage() -> None:
    # hit as above; damage 3 + 2 + oil 2 = 7: 30 -> 23.
    result = _hurl(modifiers=[{"label": "bless", "value": 3}],
                   amount_modifiers=[{"label": "oil", "value": 2}], rolls=[12, 1, 1])
    assert result["amount"]["amount"] == 7
    assert result["entities"]["gob"]["after"]["hp"] == 23


def test_a_casts_rules_list_is_never_empty() -> None:
    assert _hurl(rolls=[12])["rules"]
    assert _overclock_cast(10)["rules"]


# ---------------------------------------------------------------------------
# The heal request's allow_nonconforming (T3)


def _heal(**extra: Any) -> dict[str, Any]:
    return resolve({"kind": "heal", "tick": "low", "dice": "1d4",
                    "state": {"entities": [_player(hp=1, max_hp=10)]}, "targets": ["p"],
                    "rolls": [3], **extra})


def test_heal_outside_its_tick_is_refused_without_allow_nonconforming() -> None:
    # E[1d4] = 5/2 is below Low's range 4-8.
    with pytest.raises(RulesError) as info:
        _heal()
    assert info.value.code == 4 and info.value.rule == "T3"
    with pytest.raises(RulesError):
        _heal(allow_nonconforming=False)


def test_heal_outside_its_tick_is_applied_with_allow_nonconforming() -> None:
    result = _heal(allow_nonconforming=True)
    assert result["conforming"] is False and result["amount"] == 3
    assert len(result["warnings"]) == 1 and "T3" in result["warnings"][0]
    assert result["entities"]["p"]["after"]["hp"] == 4


def test_heal_cli_allow_nonconforming() -> None:
    assert run_cli("heal", "--tick", "low", "--dice", "1d4", "--rolls", "3").exit_code == 4
    run = run_cli("heal", "--tick", "low", "--dice", "1d4", "--rolls", "3",
                  "--allow-nonconforming", "--json")
    assert run.exit_code == 0 and run.json()["amount"] == 3


# ---------------------------------------------------------------------------
# Healing tick names with spaces or hyphens


@pytest.mark.parametrize("name", ["small_mending", "small mending", "small-mending",
                                  "Small Mending", "SMALL-MENDING", "  small mending  "])
def test_healing_tick_names_ignore_case_spaces_and_hyphens(name: str) -> None:
    assert get_tick(name, healing=True).name == "small_mending"
    # 10d6 [3 x 10] = 30 (E = 35 in Small Mending's 30-40).
    run = run_cli("heal", "--tick", name, "--dice", "10d6", "--rolls", ",".join(["3"] * 10),
                  "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["tick"] == "small_mending" and run.json()["amount"] == 30


@pytest.mark.parametrize("name", ["multiple regrowth", "Greater-Regrowth", "greater mending"])
def test_other_multi_word_healing_ticks(name: str) -> None:
    assert get_tick(name, healing=True).name == name.strip().lower().replace(
        " ", "_").replace("-", "_")


@pytest.mark.parametrize("name", ["smallmending", "small__mending", "small mending x", "mending"])
def test_unknown_healing_tick_names_refused(name: str) -> None:
    with pytest.raises(InputError) as info:
        get_tick(name, healing=True)
    assert info.value.code == 3
    assert run_cli("heal", "--tick", name, "--dice", "10d6").exit_code == 3


def test_a_healing_tick_name_is_not_a_damage_tick() -> None:
    with pytest.raises(InputError):
        get_tick("small mending", healing=False)


# ---------------------------------------------------------------------------
# The result state keeps the input state's other top-level keys


_EXTRA: dict[str, Any] = {"description": "the bridge fight", "round": 4}


def _with_extra(entities: list[dict[str, Any]]) -> dict[str, Any]:
    return {**_EXTRA, "entities": entities}


def _dying() -> dict[str, Any]:
    return _player(hp=0, conditions=[{"name": "Dying", "source": "dying"},
                                     {"name": "Unconscious", "source": "dying"}])


_STATE_REQUESTS: list[dict[str, Any]] = [
    {"kind": "damage", "tick": "tiny", "dice": "1d4", "targets": ["p"], "rolls": [2],
     "state": _with_extra([_player()])},
    {"kind": "heal", "tick": "tiny", "dice": "1d4", "targets": ["p"], "rolls": [2],
     "state": _with_extra([_player(hp=5)])},
    {"kind": "temp_hp", "amount": 5, "targets": ["p"], "rolls": [],
     "state": _with_extra([_player()])},
    {"kind": "death_save", "entity": "p", "rolls": [12], "state": _with_extra([_dying()])},
    {"kind": "cast", "caster": "ayla", "idiom": "Hurl - Fire", "targets": ["gob"],
     "rolls": [12], "state": {**_EXTRA, **_HURL_STATE}},
]


@pytest.mark.parametrize("request_", _STATE_REQUESTS,
                         ids=["damage", "heal", "temp_hp", "death_save", "cast"])
def test_result_state_keeps_other_top_level_keys(request_: dict[str, Any]) -> None:
    state = resolve(json.loads(json.dumps(request_)))["state"]
    assert state["description"] == _EXTRA["description"]
    assert state["round"] == _EXTRA["round"]
    assert [e["id"] for e in state["entities"]] == [
        e["id"] for e in request_["state"]["entities"]]


def test_written_state_keeps_other_top_level_keys(tmp_path: Any) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(_with_extra([_player()])), encoding="utf-8")
    run = run_cli("damage", "--state", str(path), "--target", "p", "--tick", "tiny",
                  "--dice", "1d4", "--rolls", "2", "--in-place")
    assert run.exit_code == 0, run.stderr
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["description"] == _EXTRA["description"] and written["round"] == 4
    assert written["entities"][0]["hp"] == 18



# ---------------------------------------------------------------------------
# Ticks without a dice range (found by the mutation runner on ticks.py)


def test_resurrection_with_dice_conforms_no_range_applies() -> None:
    # Resurrection takes its amount from the effect: with dice, no T3 range
    # applies, so the roll conforms (1d4 [2]: back to life with 2 HP).
    state = {"entities": [{"id": "gob", "kind": "enemy", "hp": 0, "max_hp": 10, "dead": True,
                           "death": {"cause": "zero_hp"}}]}
    result = resolve({"kind": "heal", "tick": "resurrection", "dice": "1d4", "state": state,
                      "targets": ["gob"], "rolls": [2]})
    assert result["conforming"] is True and result["amount"] == 2
    assert result["entities"]["gob"]["after"]["dead"] is False
    assert get_tick("complete", healing=True).conforms(get_tick("none").min or 0) is True


def test_unknown_tick_messages_name_the_right_table() -> None:
    with pytest.raises(InputError) as healing:
        get_tick("nope", healing=True)
    assert "unknown healing tick" in healing.value.message
    assert "small_mending" in healing.value.message and "ultimate" not in healing.value.message
    with pytest.raises(InputError) as damage:
        get_tick("nope")
    assert "unknown damage tick" in damage.value.message
    assert "ultimate" in damage.value.message and "small_mending" not in damage.value.message
