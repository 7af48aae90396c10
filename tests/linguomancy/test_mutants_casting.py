"""Casting rules a mutation run could change unnoticed (issue 13): the
modules ``overclock``, ``cast_plan``, ``flux`` and ``requests``, under
rulings revision 2 (``RULINGS.md``). Each expected value is worked by hand
in the test's comment, from the rule it cites.
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.errors import InputError, RulesError
from linguo_cli.io.document import Document
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

from .test_rev2_cast import after, ayla, burst_catalog, burst_targets, cast, gob, refused


def resolve(request: dict[str, Any]) -> dict[str, Any]:
    """Validate (schema and state checks) and resolve, as ``linguo resolve`` does."""
    SCHEMAS.validate(Document("request", request), "request")
    return requests.resolve(request)


def texts(result: dict[str, Any]) -> list[str]:
    return [s["text"] for s in result["explanation"]]


# ---------------------------------------------------------------------------
# The one-off overclock request (F4, F5)


def test_flux_that_covers_the_cost_is_no_overclocking() -> None:
    # F4: cost 3 with 5 Flux: nothing missing, 5 - 3 = 2 left, no row.
    r = resolve({"kind": "overclock", "cost": 3, "flux": 5})
    assert r == {
        "kind": "overclock", "cost": 3, "flux_before": 5, "flux_after": 2, "missing": 0,
        "overclocked": False, "exhaustion_before": 0, "row": None, "conditions": [],
        "exhaustion_gained": 0, "exhaustion_after": 0, "dead": False, "death": None,
        "events": [], "notes": [], "rules": ["F4", "F1"],
        "explanation": [
            {"rule": "F4", "text": "5 Flux covers the cost 3: no overclocking, no consequence"},
            {"rule": "F1", "text": "Flux 5 - 3 = 2"}],
        "rolls_used": []}
    # Exhaustion already held stays as it was.
    r = resolve({"kind": "overclock", "cost": 3, "flux": 3, "exhaustion": 2})
    assert (r["flux_after"], r["exhaustion_before"], r["exhaustion_after"]) == (0, 2, 2)


def test_two_points_missing_is_row_2() -> None:
    # F4 row 2: cost 4 with 2 Flux -> 2 missing: Lethargic and Drained for
    # 1 turn; all Flux spent (0 left); C2: neither has an enforced effect.
    r = resolve({"kind": "overclock", "cost": 4, "flux": 2})
    assert (r["missing"], r["overclocked"], r["flux_after"]) == (2, True, 0)
    assert r["conditions"] == [{"name": "Lethargic", "turns": 1},
                               {"name": "Drained", "turns": 1}]
    assert r["row"]["missing"] == 2 and r["row"]["exhaustion"] == 0
    assert (r["exhaustion_gained"], r["exhaustion_after"], r["dead"], r["death"]) == (
        0, 0, False, None)
    assert r["events"] == ["becomes_lethargic", "becomes_drained"]
    assert len(r["notes"]) == 2 and r["notes"][0].startswith("Lethargic has no enforced effect")
    assert ("caster gains Drained from overclocking, 1 turn(s): until the end of its 1st "
            "turn that starts after now") in texts(r)


def test_a_final_cost_of_ten_may_be_overclocked_but_not_eleven() -> None:
    # F4: an overclocked final cost may not exceed 10. Cost 10 with 0 Flux:
    # row 10, dies, essence shattered (no resurrection).
    r = resolve({"kind": "overclock", "cost": 10, "flux": 0})
    assert r["missing"] == 10 and r["dead"] is True
    assert r["death"] == {"cause": "overclock_essence_shattered", "resurrection": "impossible"}
    with pytest.raises(RulesError) as info:
        resolve({"kind": "overclock", "cost": 11, "flux": 0})
    assert (info.value.rule, info.value.details) == ("F4", {"cost": 11})


def test_row_9_kills_with_its_own_cause() -> None:
    r = resolve({"kind": "overclock", "cost": 9, "flux": 0})
    assert r["death"] == {"cause": "overclock_body_consumed", "resurrection": "very_hard"}
    assert r["events"] == ["dies"]
    assert ("caster dies (overclock body consumed); resurrection very hard") in texts(r)
    assert r["exhaustion_gained"] == 0


def test_row_6_unconscious_without_duration() -> None:
    # F4 row 6: Unconscious (no duration, C1) and +4 Exhaustion: 0 + 4 = 4.
    r = resolve({"kind": "overclock", "cost": 6, "flux": 0})
    assert r["events"] == ["falls_unconscious", "gains_exhaustion"]
    assert r["conditions"] == [{"name": "Unconscious", "turns": None}]
    assert "caster gains Unconscious from overclocking, no duration (until removed)" in texts(r)
    assert "Exhaustion 0 + 4 = 4" in texts(r)
    assert r["notes"] == []  # Unconscious has enforced effects (C2)
    assert (r["exhaustion_gained"], r["exhaustion_after"], r["dead"]) == (4, 4, False)


def test_exhaustion_reaching_exactly_six_kills() -> None:
    # F5: row 8 gives 6 tiers: 0 + 6 = 6 -> dies (cause exhaustion).
    r = resolve({"kind": "overclock", "cost": 8, "flux": 0})
    assert (r["exhaustion_after"], r["dead"]) == (6, True)
    assert r["death"] == {"cause": "exhaustion", "resurrection": None}
    assert "Exhaustion 0 + 6 = 6" in texts(r)


def test_exhaustion_above_six_is_held_as_six() -> None:
    # F5 ruling: row 5 (+3) on 4 tiers = 7, held as 6: dies.
    r = resolve({"kind": "overclock", "cost": 5, "flux": 0, "exhaustion": 4})
    assert (r["exhaustion_gained"], r["exhaustion_after"], r["dead"]) == (2, 6, True)
    assert texts(r)[3:5] == ["Exhaustion 4 + 3 = 7 (held as 6)",
                             "6 or more Exhaustion tiers: caster dies"]


# ---------------------------------------------------------------------------
# Planning a cast (cast_plan): F1, F3, F4, C2, P5, P6, T4


def smith_caster(**fields: Any) -> dict[str, Any]:
    return ayla(expertise={"Flux": 10}, wordsmithing_level=10, idioms=["Smith"], **fields)


def test_a_final_cost_of_ten_is_cast_and_eleven_is_refused() -> None:
    # F3: Smith (base 0) upcast by 10 with Expertise 10, Level 10: final cost
    # 10 = cap 10: legal, Flux 10 - 10 = 0. Upcast 11: above 10 (F3; F4 and
    # "overclocked or not" when overclocking is asked).
    r = cast([smith_caster()], "Smith", upcast=10)
    assert (r["final_cost"], r["flux_after"]) == (10, 0)
    assert texts(r)[:3] == [
        "Smith: base cost 0 Flux + upcast 10 = final cost 10",
        "upcast by 10: final cost 10 within the cap min(Expertise in Flux 10, Wordsmithing "
        "Level 10, 10) = 10",
        "Flux 10 - 10 = 0"]
    err = refused([smith_caster()], "Smith", upcast=11)
    assert (err.rule, err.details) == ("F3", {"final_cost": 11, "maximum": 10})
    assert "no idiom is cast above 10 Flux [rule F3]" in err.message
    err = refused([smith_caster()], "Smith", upcast=11, overclock=True)
    assert (err.rule, err.details) == ("F4", {"final_cost": 11, "maximum": 10})
    assert "no idiom is cast above 10 Flux, overclocked or not [rule F4]" in err.message


def test_a_cast_at_base_cost_says_so() -> None:
    r = cast([ayla()], "Shape - Fire")
    assert texts(r)[:2] == [
        "Shape - Fire: base cost 1 Flux = final cost 1",
        "no upcast: the cap min(Expertise in Fire 6, Wordsmithing Level 8, 10) = 6 does not "
        "limit a cast at base cost"]


def test_overclock_asked_but_not_needed_is_an_ordinary_cast() -> None:
    # F4 rev. 2: 10 Flux covers 1: no overclocking; Adjectives allowed.
    plain = cast([ayla()], "Shape - Fire", overclock=True)
    assert plain["overclocked"] is False and plain["flux_after"] == 9
    assert texts(plain)[2] == ("overclocking allowed but not needed: 10 Flux covers the cost "
                               "1, an ordinary cast")
    wide = cast([ayla()], "Shape - Fire", overclock=True, adjectives=["Wide"])
    assert texts(wide)[2] == ("overclocking allowed but not needed: 10 Flux covers the cost "
                              "1, an ordinary cast (its Adjectives are allowed)")
    assert not any(t.startswith("overclocking allowed") for t in
                   texts(cast([ayla()], "Shape - Fire")))


def test_an_unknown_adjective_names_the_allowed_ones() -> None:
    with pytest.raises(InputError) as info:
        cast([ayla()], "Shape - Fire", adjectives=["Wide", "Tall"])
    d = info.value.diagnostics[0]
    assert d.field == "adjectives[1]"
    assert d.message == "Shape - Fire allows no Adjective 'Tall' (allowed: Wide)"
    with pytest.raises(InputError) as info:
        cast([ayla()], "Mend - Flesh", adjectives=["Wide"], targets=["ayla"])
    assert info.value.diagnostics[0].message == ("Mend - Flesh allows no Adjective 'Wide' "
                                                 "(allowed: none)")


def test_a_tables_catalog_decides_who_may_cast() -> None:
    # C2: the table's catalog gives Drained "no actions" (the default gives
    # it none): a Drained caster may not cast; only Drained is named, not
    # the Prone it also holds.
    catalog = [{"name": "Drained", "effects": {"no_actions": True}},
               {"name": "Prone", "effects": {"crawl_only": True}}]
    held = [{"name": "Prone", "source": "x"}, {"name": "Drained", "source": "x"}]
    err = refused([ayla(conditions=held)], "Shape - Fire", conditions=catalog)
    assert (err.rule, err.details) == ("C2", {"caster": "ayla", "conditions": ["Drained"]})
    assert "ayla can take no actions (Drained): casting is an action" in err.message
    r = cast([ayla(conditions=held)], "Shape - Fire")  # default catalog: allowed
    assert r["final_cost"] == 1


def test_one_off_cast_with_exactly_its_hand_cost_free() -> None:
    # P5/P6: 1 Hand point, Shape - Fire costs 1: cast (0 left), not
    # maintained (needs 1 more).
    r = cast([ayla(hand_points=1)], "Shape - Fire")
    assert (r["hands_free"], r["maintained"]) == (1, False)
    assert r["not_maintained"] == ("maintaining Shape - Fire needs 1 free Hand point(s) after "
                                   "the cast's own 1; ayla has 0")


def test_one_off_cast_reads_hand_points_spent_earlier_as_back() -> None:
    # P6 rev. 2: as at the start of a turn: hands_spent 2 of 2 are back, so
    # 2 are free: cast (1), 1 left, maintained.
    r = cast([ayla(hands_spent=2)], "Shape - Fire")
    assert (r["hands_free"], r["maintained"]) == (2, True)
    assert after(r, "ayla")["maintained"] == [{"idiom": "Shape - Fire"}]


HEAL_COHESION = {"name": "Knit - Bone", "verb": "Knit", "noun": "Bone", "flux_cost": 1,
                 "hand_cost": 0, "sample": True,
                 "effect": {"healing": {"tick": "low", "dice": "2d4", "ability": "cohesion"}}}


def test_a_healing_idiom_may_multiply_cohesion() -> None:
    # T7: healing multiplies Cohesion: 2d4 [1, 1] = 2 + Cohesion 1 x 1 = 3;
    # ayla 10 -> 13 HP.
    r = cast([ayla(hp=10, abilities={"cohesion": 1}, idioms=["Knit - Bone"],
                   expertise={"Bone": 1})],
             "Knit - Bone", rolls=[1, 1], targets=["ayla"], idioms=[HEAL_COHESION])
    assert after(r, "ayla")["hp"] == 13
    bad = {**HEAL_COHESION, "effect": {"healing": {"tick": "low", "dice": "2d4",
                                                   "ability": "potential"}}}
    err = refused([ayla(idioms=["Knit - Bone"])], "Knit - Bone", rolls=[1, 1],
                  targets=["ayla"], idioms=[bad])
    assert err.rule == "T4" and "Knit - Bone: healing.ability" in err.message


# ---------------------------------------------------------------------------
# Resolving a cast (flux): S1, S3, T4, T6, F1, F3, C2


def frost_targets() -> list[dict[str, Any]]:
    return [ayla(), gob("g1", abilities={"signature": 0}), gob("g2", abilities={"signature": 0})]


def test_a_half_save_and_a_full_failure_share_one_roll() -> None:
    # S3: DC 10 + 4 + Potential 2 = 16. g1 rolls 20: m = +4, success, nat 20
    # -> critical success: saves, half. g2 rolls 2: m = -14, critical
    # failure: full. T6: one roll 4d6 [1, 2, 3, 1] = 7 + 2 x 2 = 11; g1 takes
    # 11 // 2 = 5 (S1, rounded down), g2 11.
    r = cast(frost_targets(), "Burst - Frost", rolls=[20, 2, 1, 2, 3, 1], targets=["g1", "g2"])
    assert r["save_dc"] == 16
    assert r["entities"]["g1"]["damage"]["amount"] == 5
    assert r["entities"]["g2"]["damage"]["amount"] == 11
    assert (after(r, "g1")["hp"], after(r, "g2")["hp"]) == (25, 19)
    lines = texts(r)
    assert "g1 saves (Critical Success): half damage (rounded down) (success and critical " \
        "success save)" in lines
    assert "g2 does not save (Critical Failure): the full effect (every degree below success " \
        "takes the full effect)" in lines
    assert "2 targets share the one damage roll" in lines
    assert "g1: half of 11 = 5 (rounded down)" in lines
    assert [t["success"] for t in r["tests"]] == [True, False]


def test_one_target_shares_nothing() -> None:
    # g1 fails (2): full 4d6 [1, 1, 1, 1] = 4 + 4 = 8; no T6 sharing line.
    r = cast(frost_targets()[:2], "Burst - Frost", rolls=[2, 1, 1, 1, 1], targets=["g1"])
    assert r["entities"]["g1"]["damage"]["amount"] == 8
    assert not any("share" in t for t in texts(r))


def test_a_miss_rolls_nothing_and_says_so() -> None:
    # A1: 2 + Potential 2 = 4 vs AC 12: miss; T6: no dice rolled.
    r = cast([ayla(), gob()], "Hurl - Fire", rolls=[2], targets=["gob"])
    assert "no target takes the effect: no damage or healing dice are rolled" in texts(r)
    assert r["amount"] is None


def test_damage_floored_at_zero_deals_nothing() -> None:
    # T4: Potential -5: 2d6+1 [1, 1] = 3 - 5 = -2, floored at 0; d20 20
    # - 5 = 15 vs AC 12 hits (critical: natural 20, m = +3 -> success + 1).
    # Critical hit doubles the dice: 2d6+2d6+1 [1, 1, 1, 1] = 5 - 5 = 0.
    r = cast([ayla(abilities={"potential": -5}), gob()], "Hurl - Fire", rolls=[20, 1, 1, 1, 1],
             targets=["gob"])
    assert r["entities"]["gob"]["damage"]["amount"] == 0
    assert after(r, "gob")["hp"] == 30


def test_an_upcast_explains_its_dice() -> None:
    # F3: Hurl - Fire upcast 2: 2d6+1 + 2 x 1 = 2d6+3; hit (15 + 2 vs 12):
    # [1, 1] + 3 = 5 + 2 = 7.
    r = cast([ayla(), gob()], "Hurl - Fire", rolls=[15, 1, 1], targets=["gob"], upcast=2)
    assert "upcast by 2: 2d6+1 + 2 x 1 = 2d6+3" in texts(r)
    assert after(r, "gob")["hp"] == 23
    r = cast([ayla(), gob()], "Hurl - Fire", rolls=[15, 1, 1], targets=["gob"])
    assert not any(t.startswith("upcast by") for t in texts(r))


def test_a_check_bonus_explains_its_upcast() -> None:
    # Smith: base bonus +0, +1 per extra point: upcast 3 gives +3.
    r = cast([smith_caster()], "Smith", upcast=3)
    assert r["check_bonus"]["value"] == 3
    assert ("check bonus to ability checks about shaping Flux: +3 (base +0 + 3 x +1); not "
            "stored in the state: add it to those checks as a modifier") in texts(r)
    r = cast([smith_caster()], "Smith")
    assert ("check bonus to ability checks about shaping Flux: +0; not stored in the state: "
            "add it to those checks as a modifier") in texts(r)


BLINK = {"name": "Blink - Air", "verb": "Blink", "noun": "Air", "flux_cost": 1,
         "hand_cost": 0, "effect": {"description": "A short hop through the air."}}


def test_an_effect_the_engine_does_not_resolve_is_said() -> None:
    r = cast([ayla(idioms=["Blink - Air"])], "Blink - Air", idioms=[BLINK])
    assert ("Blink - Air has no effect the engine resolves: A short hop through the air."
            in texts(r))
    assert not any("no effect the engine resolves" in t
                   for t in texts(cast([smith_caster()], "Smith")))


def test_a_one_off_cast_by_an_unknown_caster_is_invalid_input() -> None:
    with pytest.raises(InputError) as info:
        cast([gob()], "Shape - Fire")
    assert [d.field for d in info.value.diagnostics] == ["caster"]


def test_a_one_off_cast_says_first_which_conditions_have_no_effect() -> None:
    # C2: Drained has no enforced effect: said before the cast's own lines.
    r = cast([ayla(conditions=[{"name": "Drained", "source": "x", "remaining_turns": 1}])],
             "Shape - Fire")
    assert r["explanation"][0] == {
        "rule": "C2", "text": "ayla: Drained has no enforced effect (the condition catalog "
                              "(default) lists none): it is tracked with its source and "
                              "duration only"}
    assert r["rules"][0] == "C2"
    assert cast([ayla()], "Shape - Fire")["explanation"][0]["rule"] == "F1"


def test_an_upcast_whose_dice_leave_the_tick_is_refused() -> None:
    # T3: Mend - Flesh heals 2d4 (Low, 4-8) + 1 per extra point: upcast 3
    # gives 2d4+3, expected 8 (in range); upcast 4 gives 2d4+4, expected 9
    # (outside). Expertise 8 and Level 8 let the final cost 6 through F3.
    healer = ayla(hp=10, expertise={"Flesh": 8})
    r = cast([healer], "Mend - Flesh", rolls=[1, 1], targets=["ayla"], upcast=3)
    assert r["final_cost"] == 5 and after(r, "ayla")["hp"] == 15  # 1 + 1 + 3, no Cohesion
    err = refused([healer], "Mend - Flesh", rolls=[1, 1], targets=["ayla"], upcast=4)
    assert err.rule == "T3"
    assert err.details == {"dice": "2d4+4", "expected_value": "9", "tick": "low", "upcast": 4}


def test_each_save_outcome_says_why() -> None:
    # S1 rev. 2 (DC 17): w rolls 20 - 4 = 16, m = -1, partial success ->
    # success (nat 20): saves, half. s rolls 1 + 16 = 17, m = 0, success ->
    # partial success (nat 1): does not save, full.
    r = cast(burst_targets(), "Burst - Frost", [20, 1, 3, 4, 5, 6], targets=["w", "s"])
    assert r["entities"]["w"]["test"]["success"] is True
    assert r["entities"]["s"]["test"]["success"] is False
    assert ("w saves (Success): half damage (rounded down) (success and critical success "
            "save)") in texts(r)
    assert ("s does not save (Partial Success): the full effect (every degree below success "
            "takes the full effect)") in texts(r)
    table = {"critical_success": "none", "success": "half", "partial_success": "half",
             "partial_failure": "full", "failure": "full", "critical_failure": "full"}
    r = cast(burst_targets(), "Burst - Frost", [20, 1, 3, 4, 5, 6], targets=["w", "s"],
             idioms=burst_catalog(by_degree=table))
    assert ("w saves (Success): half damage (rounded down) (the idiom's table by degree)"
            in texts(r))
    assert ("s does not save (Partial Success): half damage (rounded down) (the idiom's "
            "table by degree)") in texts(r)


def test_cap_applies_only_to_an_upcast() -> None:
    # F3: Smith upcast 1: final cost 1, the cap applies; 10 - 1 = 9 Flux,
    # 1 spent. At base cost (0) it does not; nothing spent.
    r = cast([smith_caster()], "Smith", upcast=1)
    assert (r["cap_applies"], r["flux_spent"], r["flux_after"]) == (True, 1, 9)
    r = cast([smith_caster()], "Smith")
    assert (r["cap_applies"], r["flux_spent"], r["flux_after"]) == (False, 0, 10)


# ---------------------------------------------------------------------------
# A cast's record of each target's attack (A1, D1) and the P6 note


def test_a_cast_records_whether_each_attack_hit() -> None:
    # A1/D1: Hurl - Fire attacks with Potential (+2) against AC 12. Natural
    # 15: 15 + 2 = 17, margin +5: Success, a hit. Natural 2: 2 + 2 = 4,
    # margin -8: Failure, a miss (no damage dice rolled).
    r = cast([ayla(), gob()], "Hurl - Fire", rolls=[15, 3, 3], targets=["gob"])
    assert r["entities"]["gob"]["test"] == {"kind": "attack", "hit": True, "degree": "success"}
    r = cast([ayla(), gob()], "Hurl - Fire", rolls=[2], targets=["gob"])
    assert r["entities"]["gob"]["test"] == {"kind": "attack", "hit": False, "degree": "failure"}


def test_the_p6_not_maintained_note_is_only_for_a_maintainable_idiom() -> None:
    # P6: Hurl - Fire is not maintainable: no P6 step at all. Shape - Fire is
    # maintainable; with 1 Hand point it costs the only one, so it is not
    # maintained, and the explanation says why.
    r = cast([ayla(), gob()], "Hurl - Fire", rolls=[2], targets=["gob"])
    assert [s for s in r["explanation"] if s["rule"] == "P6"] == []
    r = cast([ayla(hand_points=1)], "Shape - Fire")
    assert texts(r)[-1] == ("Shape - Fire is not maintained: maintaining Shape - Fire needs 1 "
                            "free Hand point(s) after the cast's own 1; ayla has 0")
