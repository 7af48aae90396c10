"""NV1-NV3's input checks (state_checks, entry_checks) and NV6's "every
error found, together": each broken document of the golden file
documents/state-checks.yaml yields exactly the one problem it was broken
for, at the NV6 place written here by hand; the unbroken request and the
rulings' own NV1 example state yield none; several problems come together,
each placed at file:line:col."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.errors import InputError
from linguo_cli.io.document import Document
from linguo_cli.io.read import load, parse
from linguo_cli.rulesets.novence_eternal.state_checks import (
    StateError,
    check_request,
    check_state,
)
from linguo_cli.rulesets.novence_eternal.validation import validate_request

ROOT = Path(__file__).parents[2]
CASES = ROOT / "golden" / "novence-eternal" / "documents" / "state-checks.yaml"
EXAMPLE = ROOT / "examples" / "novence-eternal" / "ayla-and-ogre.state.yaml"

#: case id -> (code, rule, NV6 place) of its one problem, by hand from NV1-NV3.
EXPECTED: dict[str, tuple[str, str, str]] = {
    "nv1-id-twice": ("bad_input", "NV1", "state combatants.cole.id"),
    "nv1-injury-ix-alive": ("bad_input", "NV1", "state combatants.cole.injury"),
    "nv1-timer-outside-vii-viii": ("bad_input", "NV1", "state combatants.cole.critical_timer"),
    "nv1-thp-without-source": ("missing_input", "NV1", "state combatants.cole.thp_source"),
    "nv1-source-without-thp": ("bad_input", "NV1", "state combatants.cole.thp_source"),
    "nv1-thp-granted-below-thp": ("bad_input", "NV1", "state combatants.cole.thp_granted"),
    "nv1-thp-granted-without-thp": ("bad_input", "NV1", "state combatants.cole.thp_granted"),
    "nv1-pc-above-pc-max": ("bad_input", "NV1", "state combatants.cole.armor.pc"),
    "nv1-pool-above-max": ("bad_input", "NV1", "state party.second_chances.pool"),
    "nv1-own-zp-under-shared": ("bad_input", "NV1", "state combatants.cole.zp"),
    "nv1-aim-on-melee": ("bad_input", "NV1", "state combatants.ogre.weapons.club.aim"),
    "nv1-melee-aim-on-ranged": ("bad_input", "NV1",
                                "state combatants.ogre.weapons.bow.melee_aim"),
    "nv1-turns-taken-unknown-id": ("bad_input", "NV1", "state turns_taken.1"),
    "nv1-inflicter-unknown-id": ("bad_input", "NV1",
                                 "state combatants.cole.conditions.1.inflicter"),
    "nv1-condition-not-in-catalog": ("bad_input", "NV1",
                                     "state combatants.cole.conditions.1.name"),
    "nv1-condition-held-twice": ("bad_input", "NV1", "state combatants.cole.conditions.2.name"),
    "nv1-ticking-condition-needs-inflicter": ("missing_input", "NV1",
                                              "state combatants.cole.conditions.1.inflicter"),
    "nv1-equipped-names-no-weapon": ("bad_input", "NV1", "state combatants.ogre.equipped"),
    "nv1-equipped-left-out": ("missing_input", "NV1", "state combatants.ogre.equipped"),
    "nv2-reach-on-ranged": ("bad_input", "NV2", "state combatants.ogre.weapons.bow.reach"),
    "nv2-heavy-and-light": ("bad_input", "NV2", "state combatants.ogre.weapons.club.light"),
    "nv2-aff-without-type": ("bad_input", "NV2", "state combatants.ogre.modifiers.1.type"),
    "nv2-other-kind-without-side": ("missing_input", "NV2",
                                    "state combatants.cole.modifiers.1.side"),
    "nv2-category-not-in-catalog": ("bad_input", "NV2",
                                    "state combatants.cole.modifiers.1.category"),
    "nv2-mental-without-save": ("missing_input", "NV2", "catalog conditions.Fear.save_ability"),
    "nv2-ultimate-cost-above-100": ("bad_input", "NV2", "catalog ultimates.Starfall.cost"),
    "nv1-hit-die-for-nk3": ("missing_input", "NV1", "state combatants.cole.hit_die"),
    "nv3-target-names-no-combatant": ("bad_input", "NV3", "request target"),
    "nv2-parry-mod-required": ("missing_input", "NV2",
                               "request target.weapons.dagger.parry_mod"),
    "nv2-parry-unarmed-needs-a-strike": ("missing_input", "NV1", "request target.weapons"),
    "nv2-melee-aim-staggered-duration": ("missing_input", "NV2",
                                         "catalog conditions.Staggered.duration"),
    "nv1-ultimate-used-not-in-catalog": ("bad_input", "NV1", "request target.ultimates_used.1"),
}


def _cases() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in load(str(CASES)).data["cases"]}


def _base() -> dict[str, Any]:
    """The attack every case breaks, unbroken: ogre (club) attacks cole."""
    request = copy.deepcopy(_cases()["nv1-injury-ix-alive"]["request"])
    request["state"]["combatants"][1].pop("injury")
    return request


def test_the_unbroken_request_has_no_problem_and_resolves() -> None:
    request = _base()
    assert check_request(request) == []
    # d20 15 + STR 4 = 19 > AC 10; the club's static 4 (no dice): HP 30 -> 26
    result = requests.resolve(request)
    assert result["attack"]["total"] == 19 and result["combatants"]["cole"]["after"]["hp"] == 26


@pytest.mark.parametrize("case_id", sorted(EXPECTED))
def test_each_broken_document_gives_its_one_problem(case_id: str) -> None:
    problems = check_request(_cases()[case_id]["request"])
    got = [(p.code, p.rule, p.at.place) for p in problems]
    assert got == [EXPECTED[case_id]]


def test_every_case_of_the_file_is_listed_here() -> None:
    assert set(_cases()) == set(EXPECTED) | {"nv6-errors-together"}


def test_the_errors_come_together_each_with_its_code() -> None:
    with pytest.raises(StateError) as info:
        validate_request(Document("r", _cases()["nv6-errors-together"]["request"]))
    got = sorted((p.code, p.at.place) for p in info.value.problems)
    assert got == [("bad_input", "state combatants.cole.id"),
                   ("bad_input", "state combatants.cole.injury"),
                   ("bad_option", "state options.fog"),
                   ("missing_input", "state combatants.cole.thp_source")]
    assert info.value.code == 3 and len(info.value.diagnostics) == 4


def test_each_problem_is_placed_in_the_file() -> None:
    # columns by hand: "  - {kind: player, hp: " is 23 characters, so 50 stands at
    # 5:24; on line 6 the item's "{" is at 6:5 (thp_source is absent: its
    # object is the place) and injury's 9 after 46 characters, at 6:47
    text = ("ruleset: novence-eternal\nkind: heal\namount: 3\ntargets:\n"
            "  - {kind: player, hp: 50, max_hp: 40}\n"
            "  - {kind: player, hp: 5, max_hp: 40, injury: 9, thp: 2}\n")
    doc = parse(text, "req.yaml")
    with pytest.raises(InputError) as info:
        requests.validate(doc)
    lines = [str(d) for d in info.value.diagnostics]
    assert lines == [
        "req.yaml:5:24: request targets.1.hp: hp 50 is above max_hp 40 (max_hp_drop: clamp) "
        "[bad_input, NV1]",
        "req.yaml:6:5: request targets.2.thp_source: thp 2 needs its thp_source "
        "[missing_input, NV1]",
        "req.yaml:6:47: request targets.2.injury: Injury IX is death: dead must be true "
        "[bad_input, NV1]"]


def test_max_hp_drop_keep_allows_hp_above_max() -> None:
    request = {"ruleset": "novence-eternal", "kind": "heal", "amount": 1,
               "targets": [{"kind": "player", "hp": 50, "max_hp": 40}]}
    assert [p.code for p in check_request(request)] == ["bad_input"]
    request["options"] = {"max_hp_drop": "keep"}
    assert check_request(request) == []


def test_a_bad_option_keeps_its_rule_and_its_document_place() -> None:
    request = {"ruleset": "novence-eternal", "kind": "heal", "amount": 1,
               "targets": [{"kind": "player", "hp": 5, "max_hp": 40}],
               "options": {"hit_rule": "equal"}}
    [problem] = check_request(request)
    assert (problem.code, problem.rule, problem.at.place) == (
        "bad_option", "NH2", "request options.hit_rule")


def test_the_rulings_nv1_example_state_is_valid() -> None:
    assert check_state(load(str(EXAMPLE)).data) == []


def test_a_state_on_its_own_reports_every_problem() -> None:
    state = load(str(EXAMPLE)).data
    state["combatants"][0]["injury"] = 5          # a timer needs VII-VIII
    state["combatants"][0]["critical_timer"] = 3
    state["combatants"][1]["armor"]["pc"] = 9     # pc_max 6
    state["zp"] = 3                               # fine under the shared meter
    state["initiative"] = ["ayla", "cole"]        # cole: no combatant
    got = [(p.code, p.at.place) for p in check_state(state)]
    assert got == [("bad_input", "state initiative.2"),
                   ("bad_input", "state combatants.ayla.critical_timer"),
                   ("bad_input", "state combatants.ogre.armor.pc")]


def test_catalog_entries_are_checked() -> None:
    state = load(str(EXAMPLE)).data
    state["catalogs"]["weapons"] = {"club": {"kind": "melee", "stat": "STR", "aim": 1,
                                             "damage": [{"type": "bludgeoning"}]}}
    state["catalogs"]["armor"] = {"plate": {"pc_max": 6, "pc": 3}}
    state["catalogs"]["conditions"]["Burn"] = {"tick": {"amount": "1/0"},
                                               "duration": {"rounds": 0}}
    got = sorted((p.code, p.at.place) for p in check_state(state))
    assert got == [("bad_input", "catalog armor.plate.pc"),
                   ("bad_input", "catalog conditions.Burn.duration"),
                   ("bad_input", "catalog conditions.Burn.tick.amount"),
                   ("bad_input", "catalog weapons.club.aim"),
                   ("missing_input", "catalog conditions.Burn.tick.type")]


def test_a_weapon_base_names_a_catalog_entry() -> None:
    state = load(str(EXAMPLE)).data
    state["catalogs"]["weapons"] = {"club": {"kind": "melee", "stat": "STR",
                                             "damage": [{"type": "bludgeoning"}]}}
    ogre = state["combatants"][1]
    ogre["weapons"] = {"club": {"base": "club", "breakage": 3},
                       "axe": {"base": "greataxe"}}
    got = [(p.code, p.at.place) for p in check_state(state)]
    assert got == [("bad_input", "state combatants.ogre.weapons.axe.base"),
                   ("missing_input", "state combatants.ogre.weapons.axe.kind"),
                   ("missing_input", "state combatants.ogre.weapons.axe.stat"),
                   ("missing_input", "state combatants.ogre.weapons.axe.damage")]


def test_parry_mod_is_needed_only_when_a_parry_can_answer() -> None:
    request = _cases()["nv2-parry-mod-required"]["request"]
    for change in ({"defense": "guard"}, {"parryable": False}):
        assert check_request({**request, **change}) == [], change
    ranged = copy.deepcopy(request)
    ranged["attacker"]["weapons"]["mace"].update(kind="ranged")
    assert check_request(ranged) == []
    given = copy.deepcopy(request)
    given["target"]["weapons"]["dagger"]["parry_mod"] = 2
    assert check_request(given) == []


def test_a_catalog_duration_answers_melee_aim() -> None:
    request = copy.deepcopy(_cases()["nv2-melee-aim-staggered-duration"]["request"])
    request["catalogs"] = {"conditions": {"Staggered": {"restricts_movement": True,
                                                        "duration": {"rounds": 1}}}}
    assert check_request(request) == []
    request.pop("take_melee_aim")
    request.pop("catalogs")
    assert check_request(request) == []  # no melee Aim: nothing is given


def test_the_keys_a_kind_needs_come_with_the_other_problems() -> None:
    heal = {"ruleset": "novence-eternal", "kind": "heal",
            "targets": [{"id": "a", "kind": "player", "hp": 5, "max_hp": 9},
                        {"id": "a", "kind": "player", "hp": 1, "max_hp": 9, "injury": 9}]}
    got = sorted((p.code, p.at.place) for p in check_request(heal))
    assert got == [("bad_input", "request targets.2"),
                   ("bad_input", "request targets.2.injury"),
                   ("missing_input", "request amount")]
    check = {"ruleset": "novence-eternal", "kind": "check", "dc": 10, "save": True,
             "skill": "stealth", "actor": {"kind": "player", "hp": 5, "max_hp": 9}}
    assert [(p.code, p.at.place) for p in check_request(check)] == [
        ("bad_input", "request skill")]
    effect = {"ruleset": "novence-eternal", "kind": "dc_effect", "dc": {"base": 12},
              "save": "DEX", "on_success": "half", "damage": [], "ranged": True,
              "targets": [{"target": {"kind": "enemy", "hp": 5, "max_hp": 9},
                           "relies_on_cover": True}]}
    assert sorted((p.code, p.at.place) for p in check_request(effect)) == [
        ("missing_input", "request source"), ("missing_input", "request targets.1.cover")]


def test_dc_effect_reading_numbers_targets_from_one() -> None:
    """NV6 places: list numbers count from 1, also where the request reader
    (not the NV1 checker) finds the fault: the second target is targets.2."""
    from linguo_cli.rulesets.novence_eternal.documents import DocumentError
    from linguo_cli.rulesets.novence_eternal.effect_documents import dc_effect_request

    target = {"target": {"kind": "enemy", "hp": 5, "max_hp": 9}}
    effect = {"ruleset": "novence-eternal", "kind": "dc_effect", "dc": {"base": 12},
              "save": "DEX", "on_success": "half", "damage": [],
              "targets": [target, {**target, "relies_on_cover": True}]}
    with pytest.raises(DocumentError) as raised:
        dc_effect_request(effect)
    assert raised.value.diagnostics[0].place == "request targets.2.cover"
