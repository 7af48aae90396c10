"""Exact odds (linguo_cli.rulesets.linguomancy.odds): brute force over every face, icepool as an
independent oracle, hand-worked values, and the ``linguo odds`` command."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.core import dice as dice_mod
from linguo_cli.core import distribution
from linguo_cli.core.dice import ScriptedDice, parse
from linguo_cli.core.errors import InputError, RulesError
from linguo_cli.core.requests import resolve
from linguo_cli.rulesets.linguomancy import odds
from linguo_cli.rulesets.linguomancy.checks import TestRequest, resolve_test
from linguo_cli.rulesets.linguomancy.model import Degree, Modifier, TestKind
from linguo_cli.rulesets.linguomancy.requests import build_test
from linguo_cli.rulesets.linguomancy.ticks import get_tick

from ..conftest import run_cli

settings.register_profile("odds", max_examples=60, deadline=None)

# ---------------------------------------------------------------------------
# Oracles


def faces_for(adv: bool, dis: bool) -> list[tuple[int, ...]]:
    """Every equally likely d20 face sequence the roller consumes (D2)."""
    if adv != dis:
        return list(itertools.product(range(1, 21), repeat=2))
    return [(f,) for f in range(1, 21)]


def enumerate_test(test: TestRequest) -> dict[str, Any]:
    """Odds counted by resolving the test with the roller for every face sequence."""
    seqs = faces_for(test.advantage, test.disadvantage) if test.automatic is None else [()]
    n = len(seqs)
    degrees = dict.fromkeys(Degree, Fraction(0))
    success = hit = crit = miss = Fraction(0)
    for seq in seqs:
        r = resolve_test(test, ScriptedDice(seq))
        degrees[r.degree] += Fraction(1, n)
        success += Fraction(int(r.succeeded), n)
        if test.kind is TestKind.ATTACK:
            hit += Fraction(int(bool(r.hit)), n)
            crit += Fraction(int(bool(r.critical_hit)), n)
            miss += Fraction(int(bool(r.critical_miss)), n)
    return {"degrees": degrees, "success": success, "hit": hit, "critical_hit": crit,
            "critical_miss": miss}


def make_test(kind: TestKind, mod: int, target: int, adv: bool = False, dis: bool = False,
              psh: bool = False) -> TestRequest:
    return TestRequest(kind=kind, target=target, modifiers=(Modifier("m", mod),),
                       advantage=adv, disadvantage=dis, partial_success_hits=psh)


def ladder(margin: int) -> int:
    """D4 written out again from RULINGS as an independent oracle (0 = critical
    failure ... 5 = critical success)."""
    if margin >= 10:
        return 5
    if margin >= 0:
        return 4
    if margin == -1:
        return 3
    if margin >= -3:
        return 2
    if margin >= -9:
        return 1
    return 0


def icepool_degrees(offset: int, adv: bool, dis: bool) -> icepool.Die:
    d20 = icepool.d20
    if adv and not dis:
        natural = icepool.highest(d20, d20)
    elif dis and not adv:
        natural = icepool.lowest(d20, d20)
    else:
        natural = d20

    def degree(k: int) -> int:
        step = 1 if k == 20 else -1 if k == 1 else 0
        return min(5, max(0, ladder(k + offset) + step))

    return natural.map(degree)


def brute_expression(text: str) -> dict[int, Fraction]:
    """Distribution of an expression by rolling every face sequence with the roller."""
    expr = parse(text)
    sides = [t.sides for t in expr.terms for _ in range(t.count)]
    seqs = list(itertools.product(*[range(1, s + 1) for s in sides]))
    out: dict[int, Fraction] = {}
    for seq in seqs:
        total = dice_mod.roll(expr, ScriptedDice(seq)).total
        out[total] = out.get(total, Fraction(0)) + Fraction(1, len(seqs))
    return dict(sorted(out.items()))


def icepool_expression(text: str) -> icepool.Die:
    """The same expression built with icepool's own operators."""
    expr = parse(text)
    acc = icepool.Die([expr.constant])
    for t in expr.terms:
        die = icepool.d(t.sides)
        if t.keep is None:
            part = t.count @ die
        elif t.keep[0] == "h":
            part = die.pool(t.count).highest(t.keep[1]).sum()
        else:
            part = die.pool(t.count).lowest(t.keep[1]).sum()
        acc = acc + part if t.sign > 0 else acc - part
    return acc


def as_fractions(die: icepool.Die) -> dict[int, Fraction]:
    total = die.denominator()
    return {int(o): Fraction(q, total) for o, q in zip(die.outcomes(), die.quantities(),
                                                       strict=True) if q}


# ---------------------------------------------------------------------------
# The d20 test


@pytest.mark.parametrize("adv,dis", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("kind", [TestKind.CHECK, TestKind.SAVE])
def test_degrees_match_the_roller_on_every_face(kind: TestKind, adv: bool, dis: bool) -> None:
    # offsets -31..11 cover every margin band for every natural, and both ends
    # (every other offset with two dice: 400 resolutions each).
    for offset in range(-31, 12, 2 if adv != dis else 1):
        test = make_test(kind, offset + 10, 10, adv, dis)
        got = odds.odds_for_test(test)
        want = enumerate_test(test)
        assert got.degrees == want["degrees"], offset
        assert got.success == want["success"], offset


@pytest.mark.parametrize("psh", [False, True])
@pytest.mark.parametrize("adv,dis", [(False, False), (True, False), (False, True)])
def test_attack_odds_match_the_roller_on_every_face(adv: bool, dis: bool, psh: bool) -> None:
    for offset in range(-22, 3):
        test = make_test(TestKind.ATTACK, offset + 15, 15, adv, dis, psh)
        got = odds.odds_for_test(test)
        want = enumerate_test(test)
        assert got.degrees == want["degrees"]
        assert (got.hit, got.critical_hit, got.critical_miss) == (
            want["hit"], want["critical_hit"], want["critical_miss"]), offset


@pytest.mark.parametrize("adv,dis", [(False, False), (True, False), (False, True), (True, True)])
def test_degrees_agree_with_icepool(adv: bool, dis: bool) -> None:
    for offset in range(-31, 12, 3):
        got = odds.odds_for_test(make_test(TestKind.CHECK, offset, 0, adv, dis))
        want = as_fractions(icepool_degrees(offset, adv, dis))
        assert {int(d): p for d, p in got.degrees.items() if p} == want, offset


def test_hand_worked_advantage_plus5_dc15() -> None:
    # natural k needed: margin k - 10. Advantage weights (2k - 1)/400.
    # k=1: nat 1 shifts failure down -> critical failure 1/400; k=2..6 failure
    # 3+5+7+9+11 = 35; k=7,8 partial failure 13+15 = 28; k=9 partial success 17;
    # k=10..19 success 19+21+...+37 = 280; k=20 critical success 39.
    got = odds.odds_for_test(make_test(TestKind.CHECK, 5, 15, adv=True))
    assert got.degrees == {
        Degree.CRITICAL_FAILURE: Fraction(1, 400), Degree.FAILURE: Fraction(35, 400),
        Degree.PARTIAL_FAILURE: Fraction(28, 400), Degree.PARTIAL_SUCCESS: Fraction(17, 400),
        Degree.SUCCESS: Fraction(280, 400), Degree.CRITICAL_SUCCESS: Fraction(39, 400)}
    assert got.success == Fraction(319, 400)


@settings(settings.get_profile("odds"))
@given(mod=st.integers(-40, 40), target=st.integers(-10, 50), adv=st.booleans(),
       dis=st.booleans(), kind=st.sampled_from(list(TestKind)), psh=st.booleans())
def test_probabilities_are_exact_and_sum_to_one(mod: int, target: int, adv: bool, dis: bool,
                                                 kind: TestKind, psh: bool) -> None:
    got = odds.odds_for_test(make_test(kind, mod, target, adv, dis, psh))
    assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in got.degrees.values())
    assert sum(got.degrees.values()) == 1
    if kind is TestKind.ATTACK:
        assert got.hit is not None and got.critical_hit is not None
        assert got.critical_hit <= got.hit
        assert got.critical_miss == got.degrees[Degree.CRITICAL_FAILURE]


@settings(settings.get_profile("odds"))
@given(mod=st.integers(-30, 30), target=st.integers(0, 40), adv=st.booleans(),
       dis=st.booleans())
def test_success_is_monotone_in_the_modifier(mod: int, target: int, adv: bool,
                                             dis: bool) -> None:
    lower = odds.odds_for_test(make_test(TestKind.CHECK, mod, target, adv, dis))
    higher = odds.odds_for_test(make_test(TestKind.CHECK, mod + 1, target, adv, dis))
    assert higher.success >= lower.success
    best = Degree.CRITICAL_SUCCESS
    assert higher.degrees[best] >= lower.degrees[best]


def test_automatic_hit_without_ac() -> None:
    got = odds.odds_for_test(build_test({"kind": "attack", "ac": None}))
    assert got.dice is None and got.automatic == "no_ac"
    assert got.hit == 1 and got.critical_hit == 0 and got.critical_miss == 0
    assert got.degrees[Degree.SUCCESS] == 1 and sum(got.degrees.values()) == 1
    assert "A3" in got.rules


def test_automatic_failure_without_ability() -> None:
    got = odds.odds_for_test(build_test({"kind": "save", "dc": 12, "no_ability": True}))
    assert got.degrees[Degree.FAILURE] == 1 and got.success == 0
    assert got.rules[-1] == "S2"


def test_natural_distribution_closed_forms() -> None:
    adv = odds.natural_distribution(advantage=True)
    assert adv == as_fractions(icepool.highest(icepool.d20, icepool.d20))
    dis = odds.natural_distribution(disadvantage=True)
    assert dis == as_fractions(icepool.lowest(icepool.d20, icepool.d20))
    assert odds.natural_distribution(True, True) == distribution.die_distribution(20)


# ---------------------------------------------------------------------------
# Dice distributions

SMALL = ["2d6+1", "1d20-3", "3d4-1d6", "4d6kh3", "5d4kl2", "3d6kl1+2", "2d8kh1-1d4kh1", "7",
         "1d1+1d2"]


@pytest.mark.parametrize("text", SMALL)
def test_expression_distribution_matches_every_face(text: str) -> None:
    got = distribution.expression_distribution(parse(text))
    assert got == brute_expression(text)
    assert sum(got.values()) == 1
    assert distribution.expected(got) == parse(text).expected_value()


@pytest.mark.parametrize("text", SMALL + ["10d10", "6d12kh2+3", "8d6kl5-2d20", "20d20kh3"])
def test_expression_distribution_matches_icepool(text: str) -> None:
    got = distribution.expression_distribution(parse(text))
    assert got == as_fractions(icepool_expression(text))


def test_distribution_helpers() -> None:
    assert distribution.sum_distribution(2, 4) == as_fractions(2 @ icepool.d4)
    assert distribution.keep_distribution(4, 6, "h", 3) == as_fractions(
        icepool.d6.pool(4).highest(3).sum())
    d = distribution.convolve(distribution.die_distribution(2), distribution.die_distribution(2))
    assert d == {2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
    assert distribution.map_distribution(d, lambda v: v // 3) == {
        0: Fraction(1, 4), 1: Fraction(3, 4)}


def test_too_large_distribution_is_refused() -> None:
    with pytest.raises(InputError):
        distribution.expression_distribution(parse("1000d1000"))


def test_percent_text() -> None:
    assert distribution.percent_text(Fraction(7, 20)) == "35.00"
    assert distribution.percent_text(Fraction(1, 400)) == "0.25"
    assert distribution.percent_text(Fraction(1, 3)) == "33.33"
    assert distribution.percent_text(Fraction(1)) == "100.00"


# ---------------------------------------------------------------------------
# Damage per attack


def brute_damage(test: TestRequest, text: str, flat: int, res: bool, vul: bool,
                 imm: bool) -> dict[int, Fraction]:
    """Damage per attack by rolling every d20 face sequence with the roller and
    every damage face sequence (normal, or doubled on a critical hit)."""
    def amount(total: int) -> int:
        v = max(0, total + flat)
        if imm:
            return 0
        if res:
            v //= 2
        if vul:
            v *= 2
        return v

    normal = distribution.map_distribution(brute_expression(text), amount)
    crit = distribution.map_distribution(brute_expression(parse(text).doubled().text()), amount)
    seqs = faces_for(test.advantage, test.disadvantage) if test.automatic is None else [()]
    out: dict[int, Fraction] = {}
    for seq in seqs:
        r = resolve_test(test, ScriptedDice(seq))
        dist = crit if r.critical_hit else normal if r.hit else {0: Fraction(1)}
        for v, p in dist.items():
            out[v] = out.get(v, Fraction(0)) + p / len(seqs)
    return dict(sorted(out.items()))


@pytest.mark.parametrize("res,vul,imm", [(False, False, False), (True, False, False),
                                         (False, True, False), (True, True, False),
                                         (True, True, True)])
@pytest.mark.parametrize("flat", [-6, 0, 3])
def test_damage_per_attack_matches_every_face(flat: int, res: bool, vul: bool,
                                              imm: bool) -> None:
    tick = get_tick("low")
    for test in (make_test(TestKind.ATTACK, 4, 14), make_test(TestKind.ATTACK, 9, 12, adv=True),
                 make_test(TestKind.ATTACK, 2, 16, dis=True, psh=True),
                 build_test({"kind": "attack", "ac": None})):
        got = odds.damage_odds(parse("1d4+1d6-1"), tick=tick, test=odds.odds_for_test(test),
                               potential=flat, resistant=res, vulnerable=vul, immune=imm)
        want = brute_damage(test, "1d4+1d6-1", flat, res, vul, imm)
        assert got.per_attack == want
        assert sum(got.per_attack.values()) == 1
        assert min(got.per_attack) >= 0


def test_damage_per_attack_agrees_with_icepool() -> None:
    # +5 against AC 15 with advantage, 2d6+1 Moderate, Potential +3 (x1), resistant.
    test = odds.odds_for_test(make_test(TestKind.ATTACK, 5, 15, adv=True))
    got = odds.damage_odds(parse("2d6+1"), tick=get_tick("moderate"), test=test, potential=3,
                           resistant=True)

    def dmg(die: icepool.Die) -> icepool.Die:
        return die.map(lambda v: max(0, v + 3) // 2)

    normal, crit = dmg((2 @ icepool.d6) + 1), dmg((4 @ icepool.d6) + 1)
    natural = icepool.highest(icepool.d20, icepool.d20)

    def outcome(k: int) -> Any:
        degree = min(5, max(0, ladder(k - 10) + (1 if k == 20 else -1 if k == 1 else 0)))
        return crit if degree == 5 else normal if degree == 4 else icepool.Die([0])

    per_attack = natural.map(outcome)
    assert got.per_attack == as_fractions(per_attack)
    assert distribution.expected(got.per_attack) == per_attack.mean()


def test_hand_worked_expected_damage() -> None:
    # +5 vs AC 15, one d20: naturals 10-19 hit (1/2), 20 is a critical hit (1/20).
    # 2d6+1 + Potential 3 = 2d6+4, resistant: floor(x/2). 2d6 is odd half the
    # time, so E = (11 - 1/2)/2 = 21/4; critical 4d6+4: (18 - 1/2)/2 = 35/4.
    # Per attack: 1/2 * 21/4 + 1/20 * 35/4 = 245/80 = 49/16.
    r = resolve({"kind": "odds", "test": {"kind": "attack", "ac": 15,
                                          "modifiers": [{"value": 5}]},
                 "damage": {"dice": "2d6+1", "tick": "moderate", "potential": 3,
                            "resistant": True}})
    assert r["damage"]["expected_on_hit"] == "21/4"
    assert r["damage"]["expected_on_critical_hit"] == "35/4"
    assert r["damage"]["expected"] == "49/16"
    assert "distribution" not in r["damage"]


def test_nonconforming_damage_dice() -> None:
    test = odds.odds_for_test(make_test(TestKind.ATTACK, 0, 10))
    with pytest.raises(RulesError) as err:
        odds.damage_odds(parse("3d6"), tick=get_tick("low"), test=test)
    assert err.value.rule == "T3"
    got = odds.damage_odds(parse("3d6"), tick=get_tick("low"), test=test,
                           allow_nonconforming=True)
    assert got.conforms is False


def test_damage_needs_an_attack() -> None:
    with pytest.raises(InputError):
        resolve({"kind": "odds", "test": {"kind": "check", "dc": 10},
                 "damage": {"dice": "1d6", "tick": "low"}})


def test_distribution_probabilities_sum_to_one_in_json() -> None:
    r = resolve({"kind": "odds", "test": {"kind": "attack", "ac": 12, "disadvantage": True},
                 "damage": {"dice": "1d8+1d4", "tick": "low", "vulnerable": True,
                            "modifiers": [{"label": "rust", "value": -4}],
                            "distribution": True}})
    dist = r["damage"]["distribution"]
    assert sum(Fraction(row["probability"]) for row in dist) == 1
    assert [row["amount"] for row in dist] == sorted(row["amount"] for row in dist)
    assert r["rolls_used"] == []


# ---------------------------------------------------------------------------
# linguo odds


def test_cli_odds_check_acceptance() -> None:
    run = run_cli("odds", "check", "--mod", "5", "--dc", "15", "--adv", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    probs = {k: Fraction(v["probability"]) for k, v in r["degrees"].items()}
    assert all(isinstance(v["probability"], str) for v in r["degrees"].values())
    assert sum(probs.values()) == 1
    want = enumerate_test(make_test(TestKind.CHECK, 5, 15, adv=True))["degrees"]
    assert probs == {d.label: p for d, p in want.items()}
    assert r["test"]["dice"] == "2d20kh1"


def test_cli_odds_attack_with_damage_and_potential_mod() -> None:
    run = run_cli("odds", "attack", "--ac", "15", "--damage-dice", "2d6+1", "--tick",
                  "moderate", "--mod", "potential=3", "--distribution", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert r["damage"]["potential"] == 3
    assert sum(Fraction(x["probability"]) for x in r["damage"]["distribution"]) == 1
    # --damage-mod potential=N wins and leaves the attack roll alone.
    run2 = run_cli("odds", "attack", "--ac", "15", "--damage-dice", "2d6+1", "--tick",
                   "moderate", "--damage-mod", "potential=2", "--damage-mod", "-1", "--json")
    r2 = run2.json()
    assert r2["test"]["modifier_total"] == 0
    assert r2["damage"]["potential"] == 2
    assert r2["damage"]["modifiers"] == [{"label": "modifier", "value": -1}]


def test_cli_odds_text_and_explain() -> None:
    run = run_cli("odds", "attack", "--ac", "15", "--mod", "5", "--damage-dice", "2d6+1",
                  "--tick", "moderate", "--resist", "--distribution", "--explain")
    assert run.exit_code == 0, run.stderr
    # by hand: floor((2d6+1)/2) has mean (8 - 1/2)/2 = 15/4, critical (15 - 1/2)/2 = 29/4;
    # 1/2 * 15/4 + 1/20 * 29/4 = 179/80.
    assert "█" in run.stdout and "179/80" in run.stdout
    assert "[T5]" in run.stdout and "Critical Success" in run.stdout
    run = run_cli("odds", "save", "--dc", "14", "--no-ability")
    assert run.exit_code == 0 and "100.00%" in run.stdout


@pytest.mark.parametrize("args,code", [
    (["odds", "attack", "--mod", "5"], 2),
    (["odds", "attack", "--ac", "12", "--tick", "low"], 2),
    (["odds", "attack", "--ac", "12", "--damage-dice", "1d6"], 2),
    (["odds", "attack", "--ac", "12", "--damage-dice", "3d6", "--tick", "low"], 4),
    (["odds", "attack", "--ac", "12", "--damage-dice", "2d6+", "--tick", "low"], 3),
    (["odds", "attack", "--ac", "12", "--damage-dice", "1d6", "--tick", "mega"], 3),
    (["odds", "check", "--dc", "10", "--noun", "Fire"], 4),
    (["odds", "attack", "--no-ac", "--damage-dice", "150d100", "--tick", "ultimate"], 3),
])
def test_cli_odds_errors(args: list[str], code: int) -> None:
    run = run_cli(*args)
    assert run.exit_code == code, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr


def test_cli_resolve_odds_request() -> None:
    doc = '{"kind": "odds", "test": {"kind": "save", "dc": 14, "disadvantage": true}}'
    run = run_cli("resolve", "-", "--json", input=doc)
    assert run.exit_code == 0, run.stderr
    # save +0 vs 14 with disadvantage: success needs both faces >= 14: 7*7 = 49/400.
    assert run.json()["success"]["probability"] == "49/400"


@settings(settings.get_profile("odds"))
@given(count=st.integers(1, 6), sides=st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20]),
       keep=st.sampled_from([None, "h", "l"]), kept=st.integers(1, 6),
       const=st.integers(-5, 5), sign=st.sampled_from(["+", "-"]))
def test_random_expressions_agree_with_icepool(count: int, sides: int, keep: str | None,
                                               kept: int, const: int, sign: str) -> None:
    term = f"{count}d{sides}" + (f"k{keep}{min(kept, count)}" if keep else "")
    text = f"{abs(const)}{sign}{term}" if const >= 0 else f"{term}-{abs(const)}"
    got = distribution.expression_distribution(parse(text))
    assert got == as_fractions(icepool_expression(text))
    assert distribution.expected(got) == parse(text).expected_value()


# ---------------------------------------------------------------------------
# Revision 2: D1 (success is the degree's event) and T5 (critical dice groups)


@pytest.mark.parametrize("adv,dis", [(False, False), (True, False), (False, True)])
def test_attack_success_and_hit_are_one_event_by_default(adv: bool, dis: bool) -> None:
    # D1 rev. 2: P(success) = P(hit) at every offset (they differed at a
    # natural 20 at margin -1 and a natural 1 at margin 0 when success was
    # total >= AC); under partial-success-hits only hit grows.
    for offset in range(-22, 3):
        got = odds.odds_for_test(make_test(TestKind.ATTACK, offset + 15, 15, adv, dis))
        assert got.success == got.hit, offset
        psh = odds.odds_for_test(make_test(TestKind.ATTACK, offset + 15, 15, adv, dis, True))
        assert psh.success == got.success and psh.hit == got.hit + got.degrees[
            Degree.PARTIAL_SUCCESS], offset


@pytest.mark.parametrize("text,tick", [("4d6kh3", "strong"), ("2d8kl1+1", "low"),
                                       ("4d6kl1", "tiny")])
def test_critical_damage_expectation_doubles_the_dice_exactly(text: str, tick: str) -> None:
    # T5 rev. 2: each term again as its own group: E[crit] = 2 x E[dice] - constant.
    expr = parse(text)
    test = odds.odds_for_test(make_test(TestKind.ATTACK, 0, 11))
    got = odds.damage_odds(expr, tick=get_tick(tick), test=test)
    want = 2 * expr.expected_value() - expr.constant
    assert got.as_dict()["expected_on_critical_hit"] == distribution.fraction_text(want)
    assert got.as_dict()["critical_dice"] == "+".join([t.text() for t in expr.terms
                                                       for _ in range(2)]) + (
        f"+{expr.constant}" if expr.constant else "")


def test_damage_amount_is_the_rolled_damages_rule() -> None:
    """One copy of T4 and R1-R3: odds' per-outcome amount and rolled damage's
    resisted_amount give the same HP for every flag combination."""
    import itertools as it

    from linguo_cli.rulesets.linguomancy import amount_rules as amounts
    from linguo_cli.rulesets.linguomancy.damage import resisted_amount
    from linguo_cli.rulesets.linguomancy.model import Entity

    for immune, resistant, vulnerable in it.product((False, True), repeat=3):
        entity = Entity(id="e", kind="enemy", hp=10, max_hp=10,
                        immunities=frozenset({"fire"} if immune else ()),
                        resistances=frozenset({"fire"} if resistant else ()),
                        vulnerabilities=frozenset({"fire"} if vulnerable else ()))
        for total in range(-5, 30):
            floored = amounts.floored(total)
            rolled, _ = resisted_amount(entity, floored, "fire")
            assert amounts.damage_amount(total, flat=0, resistant=resistant,
                                         vulnerable=vulnerable, immune=immune) == rolled
