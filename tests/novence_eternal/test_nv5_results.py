"""NV5 (results) for every built Novence Eternal kind: each golden request of
the kind, resolved in process, fits its kind's result schema and carries
the fields NV5 lists for every kind, for its kind (the per-kind table) and,
where it has ``combatants``, the full ``before``/``after`` views."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from linguo_cli.conformance import golden
from linguo_cli.core import ruleset as rulesets

from ..conftest import ROOT, run_cli

SUITE = ROOT / "golden" / "novence-eternal"
SCHEMAS = ROOT / "linguo_cli" / "rulesets" / "novence_eternal" / "schemas" / "results"
CASES = golden.load_suite(SUITE).cases

#: NV5 "Every kind".
EVERY_KIND = ("kind", "rules", "explanation", "rolls_used", "options", "warnings")

#: NV5's ``before``/``after`` list (``armor_pc`` only with armor).
VIEW = ("hp", "max_hp", "true_max_hp", "thp", "thp_source", "injury", "ko", "stabilized",
        "critical_timer", "dead", "up", "charges", "conditions")

#: NV5's attack record (``attack``, ``sc_attack``).
ATTACK_RECORD = (
    "attacker", "target", "weapon", "basis", "band", "advantage", "disadvantage", "charge",
    "faces", "natural", "aim_stacks", "aim_effective", "floor", "effective_die", "total",
    "against", "auto_crits", "residual", "bonus_die", "crit_fail", "crits", "landed", "thr",
    "defense", "breakage", "cover", "armor", "components", "pools", "charge_factor", "exact",
    "damage", "thp_absorbed", "hp_lost", "injury_events", "melee_aim", "dismember")

_CHECK = ("actor", "stat", "skill", "save", "faces", "natural", "total", "dc", "success",
          "charge", "crit_fail")
_ORDER = ("order", "results", "rolloffs")

#: NV5's per-kind table (fields given "when rolled" left out).
PER_KIND: dict[str, tuple[str, ...]] = {
    "attack": ("attack", "combatants"),
    "sc_attack": ("attack", "combatants"),
    "dc_effect": ("dc", "damage_rolls", "targets", "combatants"),
    "modifiers": ("pools", "charge_factor", "exact", "damage"),
    "heal": ("targets", "combatants"),
    "thp": ("targets", "combatants"),
    "check": _CHECK,
    "stabilize": (*_CHECK, "stabilized"),
    "initiative": _ORDER,
    "reaction_order": _ORDER,
    "move": ("actor", "face", "stand_in", "dex", "feet"),
    "ko_roll": ("actor", "ko_roll", "injury_events"),
    "turn_start": ("actor", "ended", "status_damage", "ko_roll", "up_gain"),
    "event": ("party", "combatants"),
    "script": ("rounds",),
    "injury": ("injury_events", "combatants"),
    "resurrect": ("target", "face", "injury", "ko", "critical_timer"),
    "rest": ("combatants",),
    "ultimate": ("actor", "name", "up_before", "up_after", "zp_before", "zp_after",
                 "level_before", "level_after"),
    "meditate": ("actor", "debuffs", "up_gain"),
    "traverse": ("face", "outcome", "regional_exclusive", "follow_up"),
    "party_check": ("legal", "roster_size", "bank_before", "bank_after"),
}

#: Fields of the per-target records.
TARGET_FIELDS = {
    "dc_effect": ("target", "relied_on_cover", "cover_factor", "save", "save_factor", "pools",
                  "charge_factor", "exact", "damage", "thp_absorbed", "hp_lost",
                  "injury_events"),
    "heal": ("target", "amount", "hp_before", "hp_after", "woke"),
    "thp": ("target", "granted", "kept", "thp_before", "thp_after", "source_after"),
}


def _results(kind: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for case in CASES:
        if case.request.get("kind") != kind or case.expect is None:
            continue
        reply = golden.run_in_process(case.request)
        if reply.result is not None:
            out.append((case.test_id, reply.result))
    return out


#: The kinds that change creatures (or the state): NV5 ``state`` after.
STATE_KINDS = ("attack", "sc_attack", "dc_effect", "thp", "heal", "check", "stabilize",
               "ko_roll", "injury", "rest", "resurrect", "initiative", "meditate", "ultimate")


def _with_requests(kind: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    out = []
    for case in CASES:
        if case.request.get("kind") == kind and case.expect is not None:
            reply = golden.run_in_process(case.request)
            if reply.result is not None:
                out.append((case.test_id, reply.result, case.request))
        if len(out) == 3:
            break
    return out


def test_the_table_names_every_built_kind() -> None:
    assert set(PER_KIND) == set(rulesets.get("novence-eternal").kinds)


@pytest.mark.parametrize("kind", sorted(PER_KIND))
def test_every_result_fits_its_schema_and_carries_nv5_fields(kind: str) -> None:
    schema = json.loads((SCHEMAS / f"{kind}.result.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    results = _results(kind)
    assert results, f"no golden case of kind {kind} resolves"
    for test_id, result in results:
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator.iter_errors(result)]
        assert not errors, f"{test_id}: {errors[:3]}"
        assert result["kind"] == kind
        missing = [f for f in (*EVERY_KIND, *PER_KIND[kind]) if f not in result]
        assert not missing, (test_id, missing)
        for cid, record in result.get("combatants", {}).items():
            assert set(record) >= {"before", "after", "events"}, (test_id, cid)
            for side in ("before", "after"):
                gaps = [f for f in VIEW if f not in record[side]]
                assert not gaps, (test_id, cid, side, gaps)
        if kind in ("attack", "sc_attack"):
            extra = ("ep", "ep_factor") if kind == "sc_attack" else ()
            gaps = [f for f in (*ATTACK_RECORD, *extra) if f not in result["attack"]]
            assert not gaps, (test_id, gaps)
        for target in result.get("targets", ()) if kind in TARGET_FIELDS else ():
            gaps = [f for f in TARGET_FIELDS[kind] if f not in target]
            assert not gaps, (test_id, gaps)


def test_a_view_shows_up_conditions_and_true_max_hp_from_the_request() -> None:
    """NV5 views on an attack: ``up`` and ``conditions`` as the target holds
    them, ``true_max_hp`` defaulting to ``max_hp`` (NL1)."""
    target = {"kind": "player", "up": 40, "conditions": [{"name": "Prone"}], "hit_die": 8,
              "hp": 30, "max_hp": 30}
    request = {"ruleset": "novence-eternal", "kind": "attack",
               "attacker": {"kind": "enemy", "hp": 20, "max_hp": 20, "true_max_hp": 25},
               "target": target,
               "weapon": {"name": "blow", "kind": "melee", "to_hit": 0, "stat": "STR",
                          "proficient": False,
                          "damage": [{"dice": None, "static": 1, "type": "kinetic"}]},
               "rolls": ["d20:2"]}
    reply = golden.run_in_process(request)
    assert reply.result is not None, reply.message
    after = reply.result["combatants"]["target"]["after"]
    assert (after["up"], after["conditions"], after["true_max_hp"]) == (40, [{"name": "Prone"}],
                                                                         30)
    assert reply.result["combatants"]["attacker"]["before"]["true_max_hp"] == 25
    assert list(after) == list(VIEW)


@pytest.mark.parametrize("kind", STATE_KINDS)
def test_kinds_with_a_state_give_the_state_after_and_it_is_a_valid_state(
        kind: str, tmp_path: Any) -> None:
    """NV5: ``state``, the whole state after (given or built from the
    request's combatant objects); it reads back as a valid NV1 state."""
    results = _results(kind)
    assert all("state" in r for _, r in results), [t for t, r in results if "state" not in r]
    for test_id, result, request in _with_requests(kind)[:3]:
        if "catalogs" in request:
            continue  # the request's own catalogs are not part of the state
        path = tmp_path / "state.json"
        path.write_text(json.dumps(result["state"]), encoding="utf-8")
        run = run_cli("novence", "check-state", str(path))
        assert run.exit_code == 0, (test_id, run.stdout, run.stderr)
        ids = {c["id"] for c in result["state"]["combatants"]}
        assert set(result.get("combatants", {})) <= ids, test_id
        for cid, record in result.get("combatants", {}).items():
            doc = next(c for c in result["state"]["combatants"] if c["id"] == cid)
            for key in ("hp", "thp", "injury", "ko", "dead", "critical_timer"):
                assert doc.get(key, record["after"][key]) == record["after"][key], (test_id, key)


def test_a_built_state_writes_the_change_back() -> None:
    """A heal of 5 on an inline target at HP 10/30 (NL4): the built state's
    target1 is at HP 15; a damaged attack target is written back too."""
    heal = golden.run_in_process({"ruleset": "novence-eternal", "kind": "heal", "amount": 5,
                                  "targets": [{"kind": "player", "hp": 10, "max_hp": 30,
                                               "hit_die": 8}]})
    assert heal.result is not None, heal.message
    assert [(c["id"], c["hp"]) for c in heal.result["state"]["combatants"]] == [("target1", 15)]
    request = {"ruleset": "novence-eternal", "kind": "attack",
               "attacker": {"kind": "enemy", "hp": 20, "max_hp": 20},
               "target": {"kind": "enemy", "hp": 18, "max_hp": 30},
               "weapon": {"name": "blow", "kind": "melee", "to_hit": 0, "stat": "STR",
                          "proficient": False,
                          "damage": [{"dice": None, "static": 40, "type": "kinetic"}]},
               "rolls": ["d20:20"]}
    attack = golden.run_in_process(request)
    assert attack.result is not None, attack.message
    docs = {c["id"]: c for c in attack.result["state"]["combatants"]}
    assert (docs["target"]["hp"], docs["target"]["ko"], docs["attacker"]["hp"]) == (0, True, 20)


def test_events_name_each_charge_spent_and_death() -> None:
    """NV5 events: ``charge:<kind>`` per charge spent, ``dead``. A DEX save
    made while holding 1 Dodge charge spends it (NR9); an ``injury`` of 1
    stack at VIII (location torso, no d10) reaches IX: dead (NK12)."""
    check = golden.run_in_process({
        "ruleset": "novence-eternal", "kind": "check", "stat": "DEX", "save": True, "dc": 10,
        "actor": {"kind": "enemy", "hp": 10, "max_hp": 10, "charges": {"dodge": 1}},
        "rolls": [5, 15]})
    assert check.result is not None, check.message
    assert check.result["combatants"]["actor"]["events"] == ["charge:dodge"]
    dies = golden.run_in_process({
        "ruleset": "novence-eternal", "kind": "injury", "location": "torso",
        "target": {"kind": "player", "hp": 0, "max_hp": 30, "ko": True, "injury": 8,
                   "critical_timer": 3, "hit_die": 8}})
    assert dies.result is not None, dies.message
    assert "dead" in dies.result["combatants"]["target"]["events"]
