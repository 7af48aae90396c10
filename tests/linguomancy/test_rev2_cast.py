"""Casting under rulings revision 2: Hand points of one-off casts (P5, P6),
save outcomes by degree (S1), Adjectives only when the cast actually
overclocks (F4), nonlethal one-off casts (H5), the tick's ability (T4) and
request-level modifiers."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.errors import InputError, RulesError
from linguo_cli.io.document import Document
from linguo_cli.rulesets.linguomancy import abilities, idioms
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

from ..conftest import run_cli


def ayla(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "ayla", "kind": "player", "hp": 20, "max_hp": 20, "flux": 10,
        "abilities": {"potential": 2},
        "expertise": {"Fire": 6, "Flux": 10, "Frost": 6, "Flesh": 4},
        "wordsmithing_level": 8,
        "idioms": ["Hurl - Fire", "Shape - Fire", "Burst - Frost", "Mend - Flesh"]}
    base.update(fields)
    return base


def gob(eid: str = "gob", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": eid, "kind": "enemy", "hp": 30, "max_hp": 30, "ac": 12}
    base.update(fields)
    return base


def cast(entities: list[dict[str, Any]], idiom: str, rolls: list[int] | None = None,
         **extra: Any) -> dict[str, Any]:
    """Validate and resolve a ``cast`` request like ``linguo resolve`` does."""
    req: dict[str, Any] = {"kind": "cast", "state": {"entities": entities}, "caster": "ayla",
                           "idiom": idiom, "rolls": list(rolls or []), **extra}
    SCHEMAS.validate(Document("request", copy.deepcopy(req)), "request")
    return requests.resolve(req)


def refused(entities: list[dict[str, Any]], idiom: str, rolls: list[int] | None = None,
            **extra: Any) -> RulesError:
    with pytest.raises(RulesError) as info:
        cast(entities, idiom, rolls, **extra)
    return info.value


def after(result: dict[str, Any], eid: str) -> dict[str, Any]:
    found = [e for e in result["state"]["entities"] if e["id"] == eid]
    assert len(found) == 1
    return dict(found[0])


def state_file(tmp_path: Path, *entities: dict[str, Any]) -> Path:
    p = tmp_path / "state.json"
    p.write_text(json.dumps({"entities": list(entities)}, indent=1))
    return p


# ---------------------------------------------------------------------------
# P5, P6 rev. 2: a one-off cast reads Hand points from the state


def test_one_off_cast_with_both_hands_holding_items_is_refused_p5() -> None:
    # Shape - Fire costs 1 Hand point; 2 Hand points - sword - shield = 0 free.
    err = refused([ayla(held_items=["sword", "shield"])], "Shape - Fire")
    assert err.rule == "P5" and err.details["needed"] == 1 and err.details["left"] == 0


def test_the_same_cast_in_a_turn_is_refused_too() -> None:
    req = {"kind": "turn", "state": {"entities": [ayla(held_items=["sword", "shield"])]},
           "turns": [{"entity": "ayla", "steps": [{"kind": "cast", "idiom": "Shape - Fire"}]}],
           "rolls": []}
    with pytest.raises(RulesError) as info:
        requests.resolve(req)
    assert info.value.rule == "P5"


def test_cli_cast_with_full_hands_exits_4_and_writes_nothing(tmp_path: Path) -> None:
    path = state_file(tmp_path, ayla(held_items=["sword", "shield"]))
    before = path.read_text()
    r = run_cli("cast", str(path), "--caster", "ayla", "--idiom", "Shape - Fire", "--in-place")
    assert r.exit_code == 4 and "rule P5" in r.stderr and r.stdout == ""
    assert path.read_text() == before


def test_one_free_hand_casts_but_does_not_start_maintaining() -> None:
    # 2 - 1 held = 1 free; the cast takes 1, 0 left < the 1 maintaining needs (P6).
    result = cast([ayla(held_items=["sword"])], "Shape - Fire")
    assert result["flux_after"] == 9 and result["hands_free"] == 1
    assert result["maintained"] is False and after(result, "ayla")["maintained"] == []
    assert "Hand point" in result["not_maintained"]
    assert "starts_maintaining" not in result["entities"]["ayla"]["events"]
    assert any(s["rule"] == "P6" and "not maintained" in s["text"]
               for s in result["explanation"])


def test_cli_text_says_why_the_idiom_is_not_maintained(tmp_path: Path) -> None:
    path = state_file(tmp_path, ayla(held_items=["sword"]))
    r = run_cli("cast", str(path), "--caster", "ayla", "--idiom", "Shape - Fire",
                "-o", str(tmp_path / "out.json"))
    assert r.exit_code == 0, r.stderr
    assert "not maintained" in r.stdout and "Hand point" in r.stdout
    written = json.loads((tmp_path / "out.json").read_text())
    assert written["entities"][0].get("maintained", []) == []


def test_free_hands_maintain_and_spent_hands_and_ap_are_not_read() -> None:
    # As at the start of a turn: Hand points spent by earlier actions are back,
    # and a one-off cast checks no action points.
    result = cast([ayla(hands_spent=2, action_points=0)], "Shape - Fire")
    assert result["hands_free"] == 2 and result["maintained"] is True
    assert result["not_maintained"] is None
    assert after(result, "ayla")["maintained"] == [{"idiom": "Shape - Fire"}]


def test_maintained_idioms_take_their_hand_points() -> None:
    # Shape - Fire already maintained (1) + a sword (1): nothing free for Hurl - Fire (1).
    held = ayla(held_items=["sword"], maintained=[{"idiom": "Shape - Fire"}])
    assert refused([held, gob()], "Hurl - Fire", targets=["gob"]).rule == "P5"
    # A maintained idiom of Hand cost 0 takes nothing.
    light = ayla(held_items=["sword"], maintained=[{"idiom": "Shape - Fire", "hand_cost": 0}])
    result = cast([light, gob()], "Hurl - Fire", [2], targets=["gob"])
    assert result["hands_free"] == 1 and result["maintained"] is False
    assert result["not_maintained"] is None  # Hurl - Fire is not maintainable


def test_maintained_idiom_of_unknown_hand_cost_is_invalid_input() -> None:
    with pytest.raises(InputError):
        cast([ayla(maintained=[{"idiom": "Shape - Water"}])], "Shape - Fire")


# ---------------------------------------------------------------------------
# S1 rev. 2: a save's outcome follows its degree; effects by degree


def burst_targets() -> list[dict[str, Any]]:
    # Burst - Frost, Potential +3, no upcast: save DC 10 + 4 + 3 = 17.
    return [ayla(abilities={"potential": 3}),
            gob("w", abilities={"signature": -4}), gob("s", abilities={"signature": 16})]


def burst_catalog(**save: Any) -> list[dict[str, Any]]:
    found = idioms.default_catalog().get("Burst - Frost")
    assert found is not None
    entry = found.as_dict()
    entry["effect"]["save"] = {"ability": "signature", **save}
    return [entry]


def test_save_outcome_follows_the_degree_half() -> None:
    # w: natural 20 - 4 = 16, margin -1, partial success -> success: saves, half.
    # s: natural 1 + 16 = 17, margin 0, success -> partial success: does not save.
    # 4d6 [3, 4, 5, 6] = 18 + 3 x 2 = 24: w takes 12 (30 -> 18), s 24 (30 -> 6).
    r = cast(burst_targets(), "Burst - Frost", [20, 1, 3, 4, 5, 6], targets=["w", "s"])
    assert r["save_dc"] == 17
    assert [(t["margin"], t["degree"], t["success"]) for t in r["tests"]] == [
        (-1, "success", True), (0, "partial_success", False)]
    assert r["entities"]["w"]["test"]["effect"] == "half"
    assert r["entities"]["s"]["test"]["effect"] == "full"
    assert (after(r, "w")["hp"], after(r, "s")["hp"]) == (18, 6)


def test_save_outcome_follows_the_degree_none() -> None:
    r = cast(burst_targets(), "Burst - Frost", [20, 1, 3, 4, 5, 6], targets=["w", "s"],
             idioms=burst_catalog(on_success="none"))
    assert (after(r, "w")["hp"], after(r, "s")["hp"]) == (30, 6)


def test_save_effect_by_degree_table() -> None:
    table = {"critical_success": "none", "success": "half", "partial_success": "half",
             "partial_failure": "full", "failure": "full", "critical_failure": "full"}
    r = cast(burst_targets(), "Burst - Frost", [20, 1, 3, 4, 5, 6], targets=["w", "s"],
             idioms=burst_catalog(by_degree=table))
    # Both degrees (success, partial success) halve: 24 // 2 = 12 each.
    assert (after(r, "w")["hp"], after(r, "s")["hp"]) == (18, 18)
    loaded = idioms.load_catalog(burst_catalog(by_degree=table))
    assert idioms.load_catalog(loaded.as_list()) == loaded


@pytest.mark.parametrize("save", [
    {"by_degree": {"critical_success": "none", "success": "half", "partial_success": "half",
                   "partial_failure": "full", "failure": "full"}},
    {"on_success": "half", "by_degree": {d: "full" for d in (
        "critical_success", "success", "partial_success", "partial_failure", "failure",
        "critical_failure")}},
    {"by_degree": {d: "quarter" for d in (
        "critical_success", "success", "partial_success", "partial_failure", "failure",
        "critical_failure")}},
])
def test_by_degree_table_is_validated(save: dict[str, Any]) -> None:
    with pytest.raises(InputError):
        idioms.load_catalog(burst_catalog(**save))


# ---------------------------------------------------------------------------
# F4 rev. 2: Adjectives only refused when the cast actually overclocks


def test_overclock_flag_covered_by_flux_allows_adjectives() -> None:
    r = cast([ayla()], "Shape - Fire", overclock=True, adjectives=["Wide"])
    assert r["overclocked"] is False and r["missing"] == 0 and r["flux_after"] == 9
    assert [a["name"] for a in r["adjectives"]] == ["Wide"]


def test_adjectives_refused_when_the_cast_overclocks(tmp_path: Path) -> None:
    err = refused([ayla(flux=0)], "Shape - Fire", overclock=True, adjectives=["Wide"])
    assert err.rule == "F4" and err.details["missing"] == 1
    path = state_file(tmp_path, ayla(flux=0))
    r = run_cli("cast", str(path), "--caster", "ayla", "--idiom", "Shape - Fire",
                "--overclock", "--adjective", "Wide", "--in-place")
    assert r.exit_code == 4 and "rule F4" in r.stderr


def test_cli_overclock_flag_with_enough_flux_and_adjective(tmp_path: Path) -> None:
    path = state_file(tmp_path, ayla())
    r = run_cli("cast", str(path), "--caster", "ayla", "--idiom", "Shape - Fire",
                "--overclock", "--adjective", "Wide", "--json", "-o", str(tmp_path / "o.json"))
    assert r.exit_code == 0, r.stderr
    assert r.json()["overclocked"] is False


# ---------------------------------------------------------------------------
# H5 rev. 2: a one-off cast may be nonlethal whoever casts; T4 rev. 2


def shaman() -> dict[str, Any]:
    return ayla(kind="enemy", at_zero_hp="dies")


def test_enemy_one_off_cast_may_be_nonlethal() -> None:
    # Hurl - Fire: d20 15 + 2 = 17 hits AC 12; 2d6+1 [6, 6] = 13 + 2 = 15 on 3 HP.
    r = cast([shaman(), gob(hp=3)], "Hurl - Fire", [15, 6, 6], targets=["gob"],
             nonlethal=True)
    hit = after(r, "gob")
    assert hit["hp"] == 0 and hit["dead"] is False
    assert {c["name"] for c in hit["conditions"]} >= {"Unconscious", "Stable"}
    lethal = cast([shaman(), gob(hp=3)], "Hurl - Fire", [15, 6, 6], targets=["gob"])
    assert after(lethal, "gob")["dead"] is True


def test_cli_enemy_cast_nonlethal(tmp_path: Path) -> None:
    path = state_file(tmp_path, shaman(), gob(hp=3))
    r = run_cli("cast", str(path), "--caster", "ayla", "--idiom", "Hurl - Fire", "--target",
                "gob", "--nonlethal", "--rolls", "15,6,6", "--json", "-o", str(tmp_path / "o.json"))
    assert r.exit_code == 0, r.stderr
    assert r.json()["entities"]["gob"]["after"]["dead"] is False


def hurl_with(kind: str, ability: str) -> list[dict[str, Any]]:
    if kind == "damage":
        return [{"name": "Hurl - Fire", "verb": "Hurl", "noun": "Fire", "flux_cost": 3,
                 "effect": {"attack": {}, "damage": {"tick": "moderate", "type": "fire",
                                                     "dice": "2d6+1", "ability": ability}}}]
    return [{"name": "Mend - Flesh", "verb": "Mend", "noun": "Flesh", "flux_cost": 2,
             "effect": {"healing": {"tick": "low", "dice": "2d4", "ability": ability}}}]


@pytest.mark.parametrize(("kind", "ability", "ok"), [
    ("damage", "potential", True), ("damage", "strength", False),
    ("damage", "cohesion", False), ("healing", "cohesion", True),
    ("healing", "potential", False),
])
def test_tick_multiplies_only_potential_or_cohesion(kind: str, ability: str, ok: bool) -> None:
    name = "Hurl - Fire" if kind == "damage" else "Mend - Flesh"
    rolls = [15, 1, 1] if kind == "damage" else [1, 1]
    ents = [ayla(abilities={"potential": 2, "cohesion": 1, "strength": 4}), gob()]
    if ok:
        r = cast(ents, name, rolls, targets=["gob"], idioms=hurl_with(kind, ability))
        assert r["amount"]["ability_modifier"] == (2 if kind == "damage" else 1)
    else:
        err = refused(ents, name, rolls, targets=["gob"], idioms=hurl_with(kind, ability))
        assert err.rule == "T4"


def test_the_multiplied_ability_defaults_to_potential_and_cohesion_for_healing() -> None:
    # T4: a damage tick multiplies Potential; T7: a healing tick Cohesion.
    assert abilities.multiplied_ability() == "potential"
    assert abilities.multiplied_ability(healing=True) == "cohesion"
    assert abilities.check_multiplied(None) == "potential"
    assert abilities.check_multiplied(None, healing=True) == "cohesion"
    # Names compare case-insensitively.
    assert abilities.check_multiplied("Potential") == "potential"
    assert abilities.check_multiplied("COHESION", healing=True) == "cohesion"


@pytest.mark.parametrize(("healing", "name", "what", "allowed"), [
    (False, "strength", "damage", "Potential"), (True, "potential", "healing", "Cohesion"),
])
def test_another_ability_to_multiply_is_a_t4_violation(healing: bool, name: str, what: str,
                                                       allowed: str) -> None:
    with pytest.raises(RulesError) as info:
        abilities.check_multiplied(name, healing=healing, field="damage.ability")
    assert info.value.rule == "T4"
    assert info.value.message.startswith(
        f"damage.ability: a {what} tick multiplies only {allowed}, not {name!r}")
    assert info.value.details == {"field": "damage.ability", "ability": name,
                                  "allowed": allowed.lower()}


# ---------------------------------------------------------------------------
# Request-level modifiers are applied


def test_request_modifiers_reach_the_attack_and_the_damage() -> None:
    # d20 7 + 2 Potential + 3 bless = 12 hits AC 12 (without bless 9 misses);
    # 2d6+1 [1, 1] = 3 + 2 Potential + 4 rage = 9: gob 30 -> 21.
    r = cast([ayla(), gob()], "Hurl - Fire", [7, 1, 1], targets=["gob"],
             modifiers=[{"label": "bless", "value": 3}],
             amount_modifiers=[{"label": "rage", "value": 4}])
    test = r["tests"][0]
    assert (test["total"], test["hit"]) == (12, True)
    assert {"label": "bless", "value": 3} in test["modifiers"]
    assert r["amount"]["amount"] == 9 and after(r, "gob")["hp"] == 21


def test_cli_mod_and_amount_mod_are_applied(tmp_path: Path) -> None:
    path = state_file(tmp_path, ayla(), gob())
    r = run_cli("cast", str(path), "--caster", "ayla", "--idiom", "Hurl - Fire", "--target",
                "gob", "--mod", "bless=3", "--amount-mod", "rage=4", "--rolls", "7,1,1",
                "--json", "-o", str(tmp_path / "o.json"))
    assert r.exit_code == 0, r.stderr
    assert r.json()["entities"]["gob"]["after"]["hp"] == 21


def test_cli_text_names_each_save_outcome_by_degree(tmp_path: Path) -> None:
    path = state_file(tmp_path, *burst_targets())
    r = run_cli("cast", str(path), "--caster", "ayla", "--idiom", "Burst - Frost", "--target",
                "w", "--target", "s", "--rolls", "20,1,3,4,5,6", "-o", str(tmp_path / "o.json"))
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert any("save on w" in x and "SAVES (half effect)" in x for x in lines)
    assert any("save on s" in x and "FAILS (full effect)" in x for x in lines)
