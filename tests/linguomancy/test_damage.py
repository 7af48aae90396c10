"""Damage, healing, temporary HP and death saves (T1-T7, R1-R3, H1-H8), the
dice notation they use and the tick tables' data."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.core import dice
from linguo_cli.core.errors import DiceError, InputError, RulesError
from linguo_cli.rulesets.linguomancy import damage, packaged, ticks
from linguo_cli.rulesets.linguomancy.model import Condition, Entity, Modifier

DYING = (Condition("Dying", "dying"), Condition("Unconscious", "dying"))


def ent(**kw: object) -> Entity:
    base: dict[str, object] = {"id": "x", "kind": "player", "hp": 10, "max_hp": 20}
    base.update(kw)
    return Entity.from_dict(base)


def scripted(*faces: int) -> dice.ScriptedDice:
    return dice.ScriptedDice(list(faces))


# ---------------------------------------------------------------------------
# Dice notation (review of linguo_cli/dice.py)


@pytest.mark.parametrize(("text", "column"), [
    ("2d6+", 5), ("2d6 + x", 7), ("", 1), ("d0", 1), ("2d6 3", 5), ("4d6kh5", 1),
    ("1001d6", 1), ("+2d6", 1), ("2d6kh", 4),
])
def test_parse_errors_name_the_column(text: str, column: int) -> None:
    with pytest.raises(InputError) as err:
        dice.parse(text)
    assert f"column {column}:" in err.value.message


def test_parse_limits() -> None:
    with pytest.raises(InputError, match="longer than"):
        dice.parse("1+" * 150 + "1")
    with pytest.raises(InputError, match="more than 50 dice terms"):
        dice.parse("+".join(["d4"] * 51))
    with pytest.raises(InputError, match="constant above"):
        dice.parse("1000001")
    with pytest.raises(InputError, match="too large to keep"):
        dice.parse("1000d1000kh500")
    assert dice.parse("1000d1000kh20").terms[0].keep == ("h", 20)


def test_parse_canonical_text_and_doubling() -> None:
    e = dice.parse(" 2d6 + d4 - 1d8kh1 + 3 - 1 ")
    assert e.text() == "2d6+1d4-1d8kh1+2"
    assert e.doubled().text() == "2d6+2d6+1d4+1d4-1d8kh1-1d8kh1+2"  # T5 rev. 2
    assert dice.parse("0").text() == "0"


def _brute_expected(e: dice.DiceExpression) -> Fraction:
    """Average over every combination of faces (small expressions only)."""
    dice_list = [(t, t.sides) for t in e.terms for _ in range(t.count)]
    total = Fraction(0)
    count = 0
    for faces in itertools.product(*(range(1, s + 1) for _, s in dice_list)):
        source = dice.ScriptedDice(list(faces))
        total += dice.roll(e, source).total
        count += 1
    return total / count


@pytest.mark.parametrize("text", [
    "4d6kh3", "4d6kl3", "3d6kh1", "3d6kl1", "2d20kh1", "2d20kl1", "5d4kh2", "5d4kl3",
    "3d8-1d4kh1+2", "2d6+1", "1d6-1d6",
])
def test_expected_value_matches_enumeration(text: str) -> None:
    e = dice.parse(text)
    assert e.expected_value() == _brute_expected(e)


def test_expected_value_known() -> None:
    assert dice.parse("4d6kh3").expected_value() == Fraction(15869, 1296)
    assert dice.parse("3d6").expected_value() == Fraction(21, 2)
    assert dice.parse("2d4-1").expected_value() == 4


def test_roll_keeps_earlier_face_on_ties() -> None:
    r = dice.roll(dice.parse("3d6kh2"), scripted(4, 4, 4))
    assert [f["kept"] for f in r.face_records()] == [True, True, False]
    r = dice.roll(dice.parse("3d6kl1"), scripted(2, 1, 1))
    assert [f["kept"] for f in r.face_records()] == [False, True, False]
    assert r.total == 1


# ---------------------------------------------------------------------------
# Tick tables (T1, T2) as data


def test_tick_data_validates_against_its_schema() -> None:
    from jsonschema import Draft202012Validator

    data = json.loads(packaged("data/ticks.json").read_text())
    schema = json.loads(packaged(
        "schemas/ticks.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    errors = list(Draft202012Validator(schema).iter_errors(data))
    assert errors == []
    # and the schema can fail: a tick without multiplier is refused
    broken = json.loads(json.dumps(data))
    del broken["damage"][0]["multiplier"]
    assert list(Draft202012Validator(schema).iter_errors(broken))


def test_tick_tables_match_the_rulings() -> None:
    dmg = {t.name: (t.min, t.max, t.multiplier) for t in ticks.tables()["damage"]}
    assert dmg["strong"] == (12, 16, 2)
    assert dmg["severe"] == (30, 40, 3)
    assert dmg["extreme"] == (60, 100, 5)
    assert dmg["ultimate"] == (100, None, 10)
    heal = {t.name: (t.min, t.max, t.multiplier) for t in ticks.tables()["healing"]}
    assert heal["moderate"] == (8, 15, 1)
    assert heal["small_regrowth"] == (50, 70, 3)
    assert heal["complete"] == (None, None, 0)
    assert len(dmg) == 12 and len(heal) == 12


# ---------------------------------------------------------------------------
# Rolling amounts (T3-T5, T7)


def test_roll_amount_crit_acceptance() -> None:
    r = damage.roll_amount(dice.parse("4d6"), tick=ticks.get_tick("strong"), ability_modifier=2,
                           critical=True, dice=scripted(3, 3, 4, 6, 1, 2, 5, 6))
    assert (r.amount, r.dice_total, r.rolled and r.rolled.text()) == (34, 30, "4d6+4d6")
    assert [s.rule for s in r.steps] == ["T1", "T3", "T5", "T4"]


def test_roll_amount_t3_refused_and_allowed() -> None:
    with pytest.raises(RulesError) as err:
        damage.roll_amount(dice.parse("3d6"), tick=ticks.get_tick("low"), dice=scripted())
    assert err.value.rule == "T3" and err.value.code == 4
    r = damage.roll_amount(dice.parse("3d6"), tick=ticks.get_tick("low"), dice=scripted(1, 1, 1),
                           allow_nonconforming=True)
    assert r.amount == 3 and not r.conforming and len(r.warnings) == 1


def test_roll_amount_complete_and_resurrection() -> None:
    complete = ticks.get_tick("complete", healing=True)
    r = damage.roll_amount(None, tick=complete, dice=scripted())
    assert r.amount is None and r.full_restoration
    with pytest.raises(InputError):
        damage.roll_amount(dice.parse("2d6"), tick=complete, dice=scripted())
    res = ticks.get_tick("resurrection", healing=True)
    assert damage.roll_amount(None, tick=res, amount=7, dice=scripted()).amount == 7
    with pytest.raises(InputError):
        damage.roll_amount(None, tick=res, dice=scripted())
    with pytest.raises(InputError):
        damage.roll_amount(None, tick=ticks.get_tick("low"), amount=3, dice=scripted())


def test_critical_healing_is_refused() -> None:
    with pytest.raises(InputError):
        damage.roll_amount(dice.parse("1d4"), tick=ticks.get_tick("tiny", healing=True),
                           critical=True, dice=scripted(1))


@settings(max_examples=150, deadline=None)
@given(
    faces=st.lists(st.integers(1, 6), min_size=8, max_size=8),
    potential=st.integers(-20, 20),
    flat=st.lists(st.integers(-10, 10), max_size=3),
    critical=st.booleans(),
)
def test_damage_never_negative(faces: list[int], potential: int, flat: list[int],
                               critical: bool) -> None:
    src = dice.ScriptedDice(faces[: 8 if critical else 4])
    r = damage.roll_amount(dice.parse("4d6-2"), tick=ticks.get_tick("strong"),
                           ability_modifier=potential,
                           modifiers=[Modifier("m", v) for v in flat],
                           critical=critical, dice=src)
    src.finish()
    raw = sum(src.used) - 2 + 2 * potential + sum(flat)
    assert r.amount == max(raw, 0)
    assert r.amount >= 0


# ---------------------------------------------------------------------------
# Applying damage (R1-R3, H1, H4, H5, H7)


def test_acceptance_massive_damage_and_survival() -> None:
    dead, rep = damage.apply_damage(ent(kind="enemy", hp=10, max_hp=15), 25)
    assert dead.hp == 0 and dead.dead and dead.death_cause == "massive_damage"
    assert rep.events == ["dies"]
    player = ent(hp=10, max_hp=15, temp_hp=8)
    alive, rep = damage.apply_damage(player, 30)
    assert (alive.hp, alive.temp_hp, alive.dead) == (0, 0, False)
    assert alive.has("Dying") and alive.has("Unconscious")
    assert rep.events == ["falls_unconscious", "starts_dying"]
    enemy = replace(player, kind="enemy", at_zero_hp="dies")
    assert damage.apply_damage(enemy, 30)[0].dead


@pytest.mark.parametrize(("res", "vul", "imm", "expected"), [
    (False, False, False, 11), (True, False, False, 5), (False, True, False, 22),
    (True, True, False, 10), (False, False, True, 0), (True, True, True, 0),
])
def test_resistance_table(res: bool, vul: bool, imm: bool, expected: int) -> None:
    e = ent(hp=100, max_hp=100, resistances=["fire"] if res else [],
            vulnerabilities=["fire"] if vul else [], immunities=["fire"] if imm else [])
    assert damage.resisted_amount(e, 11, "fire")[0] == expected
    assert damage.resisted_amount(e, 11, "frost")[0] == 11
    assert damage.apply_damage(e, 11, damage_type="fire")[0].hp == 100 - expected


def test_damage_at_zero_hp_failures_and_instant_death() -> None:
    down = ent(hp=0, conditions=[c.as_dict() for c in DYING])
    one, rep = damage.apply_damage(down, 1)
    assert one.death_failures == 1 and rep.events == ["death_save_failure"]
    two, _ = damage.apply_damage(down, 1, critical=True)
    assert two.death_failures == 2 and not two.dead
    three, _ = damage.apply_damage(two, 1)
    assert three.dead and three.death_cause == "death_saves"
    instant, _ = damage.apply_damage(down, 20)
    assert instant.dead and instant.death_cause == "damage_at_zero_hp"
    shielded, _ = damage.apply_damage(replace(down, temp_hp=1), 20)
    assert not shielded.dead and shielded.death_failures == 1


def test_nonlethal_spares_h7_instant_death() -> None:
    # H5/H7 rev. 2: nonlethal damage never kills, even >= max HP at 0 HP.
    down = ent(hp=0, conditions=[c.as_dict() for c in DYING])
    spared, rep = damage.apply_damage(down, 25, nonlethal=True)
    assert not spared.dead and spared.has("Stable") and not spared.has("Dying")
    assert rep.events == ["stable"]


def test_dead_entity_is_unchanged() -> None:
    corpse = ent(hp=0, dead=True, death={"cause": "zero_hp"})
    assert damage.apply_damage(corpse, 5)[0] == corpse
    assert damage.apply_healing(corpse, 5)[0] == corpse
    assert damage.grant_temp_hp(corpse, 5)[0] == corpse


# ---------------------------------------------------------------------------
# Healing, temporary HP, death saves


def test_healing_rules() -> None:
    assert damage.apply_healing(ent(hp=18), 13)[0].hp == 20
    assert damage.apply_healing(ent(hp=3, temp_hp=4), None)[0].temp_hp == 4
    woke, rep = damage.apply_healing(
        ent(hp=0, conditions=[c.as_dict() for c in DYING], death_saves={"failures": 2}), 1)
    assert woke.conditions == () and woke.death_failures == 0
    assert rep.events == ["regains_consciousness"]


def test_resurrection() -> None:
    res = ticks.get_tick("resurrection", healing=True)
    corpse = ent(hp=0, max_hp=15, dead=True, death={"cause": "massive_damage"})
    back, rep = damage.apply_healing(corpse, 40, tick=res)
    assert (back.hp, back.dead, back.death_cause) == (15, False, None)
    assert rep.events == ["returns_to_life"]
    shattered = replace(corpse, resurrection="impossible")
    with pytest.raises(RulesError):
        damage.apply_healing(shattered, 5, tick=res)


def test_temp_hp_keep_choices() -> None:
    held = ent(temp_hp=13)
    assert damage.grant_temp_hp(held, 20)[0].temp_hp == 20
    assert damage.grant_temp_hp(held, 5)[0].temp_hp == 13
    assert damage.grant_temp_hp(held, 20, keep="old")[0].temp_hp == 13
    assert damage.grant_temp_hp(held, 5, keep="new")[0].temp_hp == 5
    assert damage.grant_temp_hp(ent(), 7, keep="old")[0].temp_hp == 7
    with pytest.raises(InputError):
        damage.grant_temp_hp(held, 5, keep="sum")


@pytest.mark.parametrize(("face", "successes", "failures", "dead", "hp"), [
    (10, 1, 0, False, 0), (9, 0, 1, False, 0), (1, 0, 2, False, 0), (20, 0, 0, False, 1),
])
def test_death_save_faces(face: int, successes: int, failures: int, dead: bool,
                          hp: int) -> None:
    down = ent(hp=0, conditions=[c.as_dict() for c in DYING])
    after, _ = damage.roll_death_save(down, scripted(face))
    assert (after.death_successes, after.death_failures, after.dead, after.hp) == (
        successes, failures, dead, hp)


def test_death_save_needs_a_dying_entity() -> None:
    with pytest.raises(RulesError) as err:
        damage.roll_death_save(ent(), scripted(12))
    assert err.value.rule == "H6"
    with pytest.raises(DiceError):  # a Dying entity needs its d20
        damage.roll_death_save(ent(hp=0, conditions=[c.as_dict() for c in DYING]), scripted())


# ---------------------------------------------------------------------------
# Properties over sequences of operations

entities = st.builds(
    lambda kind, max_hp, frac, temp, types, at_zero: ent(
        kind=kind, max_hp=max_hp, hp=max_hp * frac // 4, temp_hp=temp,
        resistances=types[0], vulnerabilities=types[1], immunities=types[2],
        **({"at_zero_hp": at_zero} if at_zero else {}),
        **({"conditions": [c.as_dict() for c in DYING]} if max_hp * frac // 4 == 0
           and kind == "player" else {})),
    st.sampled_from(["player", "enemy"]), st.integers(1, 60), st.integers(0, 4),
    st.integers(0, 30),
    st.tuples(*[st.sets(st.sampled_from(["fire", "frost"]), max_size=2)] * 3),
    st.sampled_from([None, "dying", "dies"]),
)
operations = st.lists(st.one_of(
    st.tuples(st.just("damage"), st.integers(0, 80), st.sampled_from([None, "fire", "frost"]),
              st.booleans(), st.booleans()),
    st.tuples(st.just("heal"), st.integers(0, 80)),
    st.tuples(st.just("complete")),
    st.tuples(st.just("temp"), st.integers(0, 40), st.sampled_from(["larger", "old", "new"])),
    st.tuples(st.just("save"), st.integers(1, 20)),
), max_size=12)


def _check_invariants(e: Entity) -> None:
    assert 0 <= e.hp <= e.max_hp
    assert e.temp_hp >= 0
    assert 0 <= e.death_successes <= 3 and 0 <= e.death_failures <= 3
    if e.dead:
        assert e.hp == 0 and e.death_cause is not None
        assert e.conditions == ()  # H10: every condition ends


@settings(max_examples=200, deadline=None)
@given(entity=entities, ops=operations)
def test_invariants_under_any_sequence(entity: Entity, ops: list[tuple]) -> None:
    e = entity
    for op in ops:
        was_dead = e.dead
        if op[0] == "damage":
            _, amount, dtype, crit, nonlethal = op
            after_r = damage.resisted_amount(e, amount, dtype)[0]
            e2, rep = damage.apply_damage(e, amount, damage_type=dtype, critical=crit,
                                          nonlethal=nonlethal)
            if nonlethal:  # H5 rev. 2: never kills, never adds a failure
                assert e2.dead == was_dead
                assert "death_save_failure" not in rep.events
            if not was_dead:
                assert rep.details.temp_hp_absorbed + rep.details.hp_lost <= after_r
                assert (e.temp_hp - e2.temp_hp) + (e.hp - e2.hp) <= after_r
        elif op[0] == "heal":
            e2, rep = damage.apply_healing(e, op[1])
            assert e2.temp_hp == e.temp_hp  # healing never restores temporary HP
            # H8 rev. 2: "woke" only when no Unconscious is left
            assert ("regains_consciousness" in rep.events) == (
                e.has("Unconscious") and not e2.has("Unconscious"))
        elif op[0] == "complete":
            e2, _ = damage.apply_healing(e, None, tick=ticks.get_tick("complete", True))
        elif op[0] == "temp":
            e2, _ = damage.grant_temp_hp(e, op[1], op[2])
            assert e2.temp_hp in (e.temp_hp, op[1])
            assert e2.conditions == e.conditions and e2.hp == e.hp
        else:
            try:
                e2, _ = damage.roll_death_save(e, scripted(op[1]))
            except RulesError:
                assert e.dead or not e.has("Dying") or e.has("Stable") or e.hp > 0
                e2 = e
        if was_dead and op[0] != "save":
            assert e2 == e  # the dead stay dead (and unchanged) without Resurrection
        _check_invariants(e2)
        e = e2
