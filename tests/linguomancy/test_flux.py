"""Flux: idiom catalog, costs and caps (F1, F3), overclocking (F4, F5), casts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.core.errors import InputError, RulesError
from linguo_cli.core.requests import resolve
from linguo_cli.core.results import to_plain
from linguo_cli.rulesets.linguomancy import conditions, flux, idioms, requests
from linguo_cli.rulesets.linguomancy.model import Condition, Entity, Modifier

from ..conftest import ROOT

CATALOG = idioms.default_catalog()
CONDITIONS = conditions.default_catalog()


def caster(**kw: object) -> Entity:
    base = Entity(id="ayla", kind="player", hp=20, max_hp=20,
                  abilities=(("potential", 2), ("cohesion", 1)),
                  expertise=(("Fire", 6), ("Flux", 10), ("Frost", 6), ("Flesh", 4)),
                  wordsmithing_level=8,
                  idioms=tuple(i.name for i in CATALOG.idioms))
    return replace(base, **kw)  # type: ignore[arg-type]


def enemy(eid: str = "gob", **kw: object) -> Entity:
    return replace(Entity(id=eid, kind="enemy", hp=30, max_hp=30, ac=12,
                          abilities=(("signature", 2),)), **kw)  # type: ignore[arg-type]


def idiom(name: str) -> idioms.Idiom:
    found = CATALOG.get(name)
    assert found is not None
    return found


# ---------------------------------------------------------------------------
# The idiom catalog


def test_example_catalog_is_the_packaged_default() -> None:
    packaged = ROOT / "linguo_cli" / "rulesets" / "linguomancy" / "data" / "idioms.yaml"
    example = ROOT / "examples" / "idioms.yaml"
    assert packaged.read_bytes() == example.read_bytes()


def test_published_idioms_verb_noun_and_upcast() -> None:
    smith, creator = idiom("Smith"), idiom("Creator")
    assert (smith.verb, smith.noun, creator.verb, creator.noun) == (
        "Shape", "Flux", "Speak", "Flux")
    for i in (smith, creator):
        assert not i.sample
        assert i.upcast_check_bonus == 1
        assert [i.check_bonus_at(n) for n in (0, 1, 10)] == [0, 1, 10]


def test_every_other_default_idiom_is_a_labelled_sample() -> None:
    others = [i for i in CATALOG.idioms if i.name not in ("Smith", "Creator")]
    assert others and all(i.sample and "SAMPLE" in i.description for i in others)


def test_sample_dice_conform_to_their_ticks() -> None:
    for i in CATALOG.idioms:
        if i.amount is not None and i.amount.dice is not None:
            assert i.amount.tick.conforms(i.amount.dice.expected_value()), i.name


def test_action_points_default_and_complex() -> None:
    assert idiom("Hurl - Fire").action_points == 2
    assert idiom("Burst - Frost").action_points == 3


def test_dice_at_merges_upcast_dice() -> None:
    hurl = idiom("Hurl - Fire")
    assert hurl.dice_at(0) is not None and hurl.dice_at(0).text() == "2d6+1"  # type: ignore[union-attr]
    assert hurl.dice_at(3).text() == "2d6+4"  # type: ignore[union-attr]
    merged = idioms.add_dice(*(idioms.dice_mod.parse(t) for t in ("2d4+1", "1d4")), 2)
    assert merged.text() == "4d4+1"
    mixed = idioms.add_dice(*(idioms.dice_mod.parse(t) for t in ("2d4", "1d6")), 1)
    assert mixed.text() == "2d4+1d6"


@pytest.mark.parametrize("name", ["shape - fire", "Shape-Fire", "SHAPE  -  FIRE", "smith"])
def test_lookup_normalises_names(name: str) -> None:
    assert CATALOG.get(name) is not None


def test_d7_uses_the_catalog_for_own_names() -> None:
    assert requests.idiom_verb_noun("Smith") == ("Shape", "Flux")
    assert requests.noun_check_idiom("Flux", ["Creator"]) == "Creator"
    data = ROOT / "linguo_cli" / "rulesets" / "linguomancy" / "data"
    assert not (data / "published_idioms.json").exists()


def entry(**kw: object) -> dict[str, object]:
    base: dict[str, object] = {"name": "Zap - Storm", "verb": "Zap", "noun": "Storm",
                               "flux_cost": 2,
                               "effect": {"damage": {"tick": "low", "type": "electric",
                                                     "dice": "2d4"}}}
    base.update(kw)
    return base


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (entry(effect={"damage": {"tick": "low", "type": "electric", "dice": "1d4"}}), "T3"),
        (entry(effect={"damage": {"tick": "lowish", "type": "electric", "dice": "2d4"}}),
         "unknown damage tick"),
        (entry(effect={"damage": {"tick": "low", "type": "electric", "dice": "2x4"}}),
         "bad dice"),
        (entry(effect={"healing": {"tick": "low"}}), "needs dice"),
        (entry(effect={"healing": {"tick": "low", "dice": "2d4"}, "save": {"ability": "x"}}),
         "healing idiom"),
        (entry(effect={"check_bonus": {"applies_to": "x"}}, upcast={"dice": "1d4"}),
         "upcast dice need"),
        (entry(upcast={"check_bonus": 1}), "needs effect.check_bonus"),
        (entry(adjectives=[{"name": "Big", "effect": "a"}, {"name": "BIG", "effect": "b"}]),
         "listed twice"),
        (entry(effect={"save": {"ability": "signature"}}), "needs a damage effect"),
    ],
)
def test_invalid_idiom_entries(bad: dict[str, object], message: str) -> None:
    with pytest.raises(InputError) as err:
        idioms.load_catalog([bad], base=["idioms"])
    assert message in err.value.message


@pytest.mark.parametrize(
    "bad",
    [
        entry(flux_cost=11),
        entry(hand_cost=3),
        entry(mana=2),
        entry(effect={"attack": {}, "save": {"ability": "signature"},
                      "damage": {"tick": "low", "type": "fire", "dice": "2d4"}}),
        entry(effect={"damage": {"tick": "low", "type": "lava", "dice": "2d4"}}),
    ],
)
def test_schema_refuses_bad_entries(bad: dict[str, object]) -> None:
    with pytest.raises(InputError):
        idioms.load_catalog([bad], base=["idioms"])


def test_duplicate_idiom_names_refused() -> None:
    with pytest.raises(InputError, match="listed twice"):
        idioms.load_catalog([entry(), entry(name="zap-storm")], base=["idioms"])


def test_catalog_round_trips_through_as_list() -> None:
    again = idioms.load_catalog(CATALOG.as_list(), base=["idioms"])
    assert again.idioms == CATALOG.idioms


# ---------------------------------------------------------------------------
# Caps and legality (F1, F3, F4)


def test_cap_is_the_minimum_of_three() -> None:
    assert flux.upcast_cap(caster(), "Fire") == (
        6, ("expertise",), {"expertise": 6, "wordsmithing_level": 8, "maximum": 10})
    assert flux.upcast_cap(caster(wordsmithing_level=6), "Fire")[1] == (
        "expertise", "wordsmithing_level")
    assert flux.upcast_cap(caster(), "Water")[0] == 0
    big = caster(expertise=(("fire", 20),), wordsmithing_level=20)
    assert flux.upcast_cap(big, "Fire")[:2] == (10, ("maximum",))


def rules_error(fn: object, *args: object, **kw: object) -> RulesError:
    with pytest.raises(RulesError) as err:
        fn(*args, **kw)  # type: ignore[operator]
    return err.value


def test_acceptance_expertise_6_fire() -> None:
    assert rules_error(flux.plan_cast, caster(), idiom("Hurl - Fire"), upcast=4).rule == "F3"
    plan = flux.plan_cast(caster(), idiom("Hurl - Fire"), upcast=3)
    assert (plan.final_cost, plan.flux_after, plan.cap) == (6, 4, 6)


def test_base_cost_above_cap_is_allowed_without_upcast() -> None:
    low = caster(expertise=(("Fire", 1),))
    plan = flux.plan_cast(low, idiom("Hurl - Fire"))
    assert (plan.final_cost, plan.cap, plan.flux_after) == (3, 1, 7)
    assert rules_error(flux.plan_cast, low, idiom("Hurl - Fire"), upcast=1).rule == "F3"


def test_cost_above_ten() -> None:
    c = caster(expertise=(("Flux", 20),), wordsmithing_level=20, flux=0)
    assert rules_error(flux.plan_cast, c, idiom("Smith"), upcast=11).rule == "F3"
    assert rules_error(flux.plan_cast, c, idiom("Smith"), upcast=11, overclock=True).rule == "F4"


def test_adjectives_with_overclock_refused() -> None:
    err = rules_error(flux.plan_cast, caster(flux=0), idiom("Shape - Fire"),
                      overclock=True, adjectives=["Wide"])
    assert err.rule == "F4"


def test_unknown_adjective_is_input_error() -> None:
    with pytest.raises(InputError):
        flux.plan_cast(caster(), idiom("Shape - Fire"), adjectives=["Huge"])


def test_short_of_flux_needs_overclock() -> None:
    err = rules_error(flux.plan_cast, caster(flux=2), idiom("Hurl - Fire"))
    assert err.rule == "F4" and err.details["missing"] == 1
    plan = flux.plan_cast(caster(flux=2), idiom("Hurl - Fire"), overclock=True)
    assert (plan.overclocked, plan.missing, plan.flux_after) == (True, 1, 0)


def test_idiom_not_known_and_incapacitated_casters() -> None:
    assert rules_error(flux.plan_cast, caster(idioms=("Smith",)),
                       idiom("Hurl - Fire")).rule == "F1"
    stunned = caster(conditions=(Condition("Stunned", "x", 1),))
    assert rules_error(flux.plan_cast, stunned, idiom("Smith")).rule == "C2"
    assert rules_error(flux.plan_cast, caster(dead=True), idiom("Smith")).rule == "C2"
    # A Drained caster casts normally: Drained has no enforced effect.
    drained = caster(conditions=(Condition("Drained", "x", 1),))
    assert flux.plan_cast(drained, idiom("Smith")).final_cost == 0


@settings(max_examples=150, deadline=None)
@given(base=st.integers(0, 10), upcast=st.integers(0, 12), have=st.integers(0, 10),
       expertise=st.integers(0, 12), ws=st.integers(0, 12), overclock=st.booleans())
def test_plan_property(base: int, upcast: int, have: int, expertise: int, ws: int,
                       overclock: bool) -> None:
    i = idioms.Idiom(name="Test - Fire", verb="Test", noun="Fire", flux_cost=base)
    c = caster(flux=have, expertise=(("Fire", expertise),), wordsmithing_level=ws,
               idioms=("Test - Fire",))
    final = base + upcast
    try:
        plan = flux.plan_cast(c, i, upcast=upcast, overclock=overclock)
    except RulesError as err:
        assert (final > 10 or (upcast and final > min(expertise, ws, 10))
                or (final > have and not overclock)), err
        return
    assert final <= 10
    assert not upcast or final <= min(expertise, ws, 10)
    assert 0 <= plan.flux_after <= have
    assert plan.missing == max(final - have, 0)
    assert plan.flux_after == (0 if plan.missing else have - final)


# ---------------------------------------------------------------------------
# The overclocking table (F4) and Exhaustion (F5)

#: The F4 table as RULINGS.md writes it: conditions with turns, tiers, death.
RULINGS_F4 = {
    1: ([("Drained", 1)], 0, None),
    2: ([("Lethargic", 1), ("Drained", 1)], 0, None),
    3: ([("Stunned", 1)], 1, None),
    4: ([("Stunned", 1)], 2, None),
    5: ([("Stunned", 1)], 3, None),
    6: ([("Unconscious", None)], 4, None),
    7: ([("Unconscious", None)], 5, None),
    8: ([], 6, None),
    9: ([], 0, ("overclock_body_consumed", "very_hard")),
    10: ([], 0, ("overclock_essence_shattered", "impossible")),
}


@pytest.mark.parametrize("missing", range(1, 11))
def test_overclock_table_matches_the_rulings(missing: int) -> None:
    row = flux.overclock_row(missing)
    conds, tiers, death = RULINGS_F4[missing]
    death_of_row = None if row.death is None else (row.death.cause, row.death.resurrection)
    assert ([(g.name, g.turns) for g in row.conditions], row.exhaustion,
            death_of_row) == (conds, tiers, death)


@pytest.mark.parametrize("missing", [0, 11])
def test_no_row_outside_1_to_10(missing: int) -> None:
    with pytest.raises(ValueError):
        flux.overclock_row(missing)


@pytest.mark.parametrize("missing", range(1, 11))
def test_apply_overclock_rows(missing: int) -> None:
    e, cons = flux.apply_overclock(caster(), missing, catalog=CONDITIONS, source="oc")
    conds, tiers, death = RULINGS_F4[missing]
    dies = missing >= 8
    assert e.dead is dies
    if not dies:
        assert [(c.name, c.remaining_turns) for c in e.conditions] == conds
        assert all(c.source == "oc" for c in e.conditions)
    assert e.exhaustion == min(tiers, 6)
    if missing == 8:
        assert e.death_cause == "exhaustion"
    if death:
        assert (e.death_cause, e.resurrection) == death
    assert len(cons.notes) == {1: 1, 2: 2}.get(missing, 0)


@pytest.mark.parametrize(("missing", "held", "dies"),
                         [(3, 5, True), (3, 4, False), (7, 1, True), (5, 2, False),
                          (6, 2, True), (1, 5, False)])
def test_f5_ruling_six_tiers_kill(missing: int, held: int, dies: bool) -> None:
    e, cons = flux.apply_overclock(caster(exhaustion=held), missing, catalog=CONDITIONS)
    assert e.dead is dies and cons.dead is dies
    assert e.exhaustion <= 6
    if dies:
        assert e.death_cause == "exhaustion" and "dies" in cons.events


def test_overclock_on_dead_entity_changes_nothing() -> None:
    dead = caster(dead=True, death_cause="zero_hp", hp=0)
    e, cons = flux.apply_overclock(dead, 4, catalog=CONDITIONS)
    assert e == dead and cons.events == ()


# ---------------------------------------------------------------------------
# Casting


def cast(entities: dict[str, Entity], faces: list[int], **kw: object
         ) -> tuple[dict[str, Entity], dict[str, object], ScriptedDice]:
    dice = ScriptedDice(faces)
    out, result = flux.resolve_cast(entities, dice=dice, conditions=CONDITIONS,
                                    **kw)  # type: ignore[arg-type]
    dice.finish()
    return out, to_plain(result), dice


def test_cast_is_pure_and_keeps_order() -> None:
    ents = {"ayla": caster(), "gob": enemy()}
    snapshot = dict(ents)
    out, result, _ = cast(ents, [15, 3, 4], caster="ayla", idiom=idiom("Hurl - Fire"),
                          upcast=3, targets=["gob"])
    assert ents == snapshot
    assert list(out) == ["ayla", "gob"]
    assert out["ayla"].flux == 4 and out["gob"].hp == 30 - (3 + 4 + 4 + 2)
    assert result["flux_spent"] == 6


def test_miss_rolls_no_damage_dice() -> None:
    out, result, dice = cast({"ayla": caster(), "gob": enemy()}, [2], caster="ayla",
                             idiom=idiom("Hurl - Fire"), targets=["gob"])
    assert dice.used == [2] and result["amount"] is None and out["gob"].hp == 30


def test_attack_modifiers_and_advantage() -> None:
    _, result, dice = cast({"ayla": caster(), "gob": enemy()}, [3, 9, 1, 1], caster="ayla",
                           idiom=idiom("Hurl - Fire"), targets=["gob"],
                           modifiers=[Modifier("bless", 1)], advantage=True)
    test = result["tests"][0]  # type: ignore[index]
    assert test["natural"] == 9 and test["total"] == 12 and test["hit"] is True


def test_attack_disadvantage_from_a_table_condition() -> None:
    cat = conditions.load_catalog([{"name": "Dazzled", "effects": {"disadvantage": ["attack"]}}],
                                  base=["conditions"])
    c = caster(conditions=(Condition("Dazzled", "x", 1),))
    dice = ScriptedDice([18, 5])
    _, result = flux.resolve_cast({"ayla": c, "gob": enemy()}, caster="ayla",
                                  idiom=idiom("Hurl - Fire"), targets=["gob"], dice=dice,
                                  conditions=cat)
    assert result.tests[0]["natural"] == 5 and result.tests[0]["hit"] is False


def test_save_targets_in_order_then_one_shared_roll() -> None:
    ents = {"ayla": caster(abilities=(("potential", 3),)), "gob": enemy(),
            "orc": enemy("orc", abilities=(("signature", 5),))}
    out, result, dice = cast(ents, [16, 14, 3, 4, 5, 6], caster="ayla",
                             idiom=idiom("Burst - Frost"), upcast=2, targets=["gob", "orc"])
    assert result["save_dc"] == 19
    assert [t["entity"] for t in result["tests"]] == ["gob", "orc"]  # type: ignore[union-attr]
    assert (out["gob"].hp, out["orc"].hp) == (6, 18)
    assert dice.used == [16, 14, 3, 4, 5, 6]


def test_healing_idiom_heals_and_caps() -> None:
    ents = {"ayla": caster(), "ally": Entity(id="ally", kind="player", hp=5, max_hp=10)}
    out, result, _ = cast(ents, [4, 4], caster="ayla", idiom=idiom("Mend - Flesh"),
                          targets=["ally"])
    assert result["amount"]["amount"] == 4 + 4 + 1  # type: ignore[index]
    assert out["ally"].hp == 10


def test_self_target_and_overclock_order() -> None:
    # The caster heals itself while overclocking: the healing happens, then the row.
    me = caster(hp=5, flux=0)
    out, result, _ = cast({"ayla": me}, [1, 1], caster="ayla", idiom=idiom("Mend - Flesh"),
                          targets=["ayla"], overclock=True)
    assert out["ayla"].hp == 5 + 1 + 1 + 1
    assert out["ayla"].has("Lethargic") and out["ayla"].has("Drained")
    assert result["entities"]["ayla"]["events"][:2] == ["casts", "overclocks"]  # type: ignore[index]
    assert len(result["notes"]) == 2  # type: ignore[arg-type]


def test_maintainable_idiom_is_maintained_unless_caster_dies() -> None:
    out, _, _ = cast({"ayla": caster()}, [], caster="ayla", idiom=idiom("Shape - Fire"))
    assert [m.idiom for m in out["ayla"].maintained] == ["Shape - Fire"]
    out, _, _ = cast({"ayla": caster()}, [], caster="ayla", idiom=idiom("Shape - Fire"),
                     maintain=False)
    assert out["ayla"].maintained == ()
    big = caster(flux=0, expertise=(("Fire", 10),), wordsmithing_level=10)
    out, result, _ = cast({"ayla": big}, [], caster="ayla", idiom=idiom("Shape - Fire"),
                          upcast=9, overclock=True)
    assert out["ayla"].dead and out["ayla"].death_cause == "overclock_essence_shattered"
    assert result["maintained"] is False and out["ayla"].maintained == ()


@pytest.mark.parametrize(
    ("name", "targets"),
    [("Hurl - Fire", []), ("Hurl - Fire", ["gob", "orc"]), ("Burst - Frost", []),
     ("Smith", ["gob"]), ("Hurl - Fire", ["nobody"]), ("Burst - Frost", ["gob", "gob"])],
)
def test_target_errors(name: str, targets: list[str]) -> None:
    with pytest.raises(InputError):
        cast({"ayla": caster(), "gob": enemy(), "orc": enemy("orc")}, [], caster="ayla",
             idiom=idiom(name), targets=targets)


def test_request_unknown_idiom_is_f1() -> None:
    state = {"entities": [caster().as_dict()]}
    with pytest.raises(RulesError) as err:
        resolve({"kind": "cast", "state": state, "caster": "ayla",
                          "idiom": "Shape - Water", "rolls": []})
    assert err.value.rule == "F1"


def test_overclock_request_one_off() -> None:
    r = resolve({"kind": "overclock", "cost": 7, "flux": 3, "rolls": []})
    assert (r["missing"], r["exhaustion_after"], r["conditions"]) == (
        4, 2, [{"name": "Stunned", "turns": 1}])
    r = resolve({"kind": "overclock", "cost": 8, "flux": 1, "exhaustion": 1})
    assert r["dead"] is True and r["death"]["cause"] == "exhaustion"


def test_examples_file_exists_for_users() -> None:
    assert Path(ROOT / "examples" / "idioms.yaml").is_file()
