"""Exact odds of Linguomancy's d20 test and of damage per attack, as fractions.

Pure functions, no dice rolled and no I/O. Distributions are exact
(:mod:`linguo_cli.core.distribution`: ``dict[int, Fraction]``, outcome ->
probability, summing to exactly 1).

* :func:`odds_for_test` gives the probability of each of the six degrees of
  success of a check, attack or save (D1-D5), and for attacks of a hit, a
  critical hit and a critical miss (A1-A3); S2 automatic failures too. Every
  natural face goes through the roller's own functions
  (:func:`~linguo_cli.rulesets.linguomancy.checks.d20_outcome` for D1/D4/D5,
  :func:`~linguo_cli.rulesets.linguomancy.checks.attack_hits` for A1,
  :func:`~linguo_cli.rulesets.linguomancy.checks.natural_weights` for D2/D3),
  so odds and rolls never disagree.
* :func:`damage_odds` is the damage per attack (T3-T5, R1-R3): its exact
  expected value and whole distribution, each outcome through
  :func:`~linguo_cli.rulesets.linguomancy.amount_rules.damage_amount` (the rolled
  damage's own floor and R1-R3).

The request handler :func:`resolve_odds_request` (kind ``odds``) returns the
typed :class:`OddsResult`. Tick design (kind ``ticks``) lives in
:mod:`linguo_cli.rulesets.linguomancy.ticks`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from linguo_cli.core.derivation import Derivation, Step, rules_of
from linguo_cli.core.dice import DiceExpression, DiceSource, parse
from linguo_cli.core.distribution import (
    Distribution,
    expected,
    expression_distribution,
    fraction_text,
    map_distribution,
    probability_dict,
    truncated_mass,
)
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.core.results import OMIT, Omit, to_plain
from linguo_cli.rulesets.linguomancy.amount_rules import damage_amount
from linguo_cli.rulesets.linguomancy.checks import (
    D20_TEST,
    TestRequest,
    attack_hits,
    natural_weights,
    succeeds,
)
from linguo_cli.rulesets.linguomancy.model import Degree, Modifier, TestKind, modifiers_from
from linguo_cli.rulesets.linguomancy.ticks import Tick, get_tick

# ---------------------------------------------------------------------------
# The d20 test


def natural_distribution(advantage: bool = False, disadvantage: bool = False) -> Distribution:
    """The distribution of the natural (kept) d20 face under D2/D3."""
    weights, total = natural_weights(advantage, disadvantage)
    return {k: Fraction(w, total) for k, w in enumerate(weights, start=1)}


@lru_cache(maxsize=4096)
def _d20_odds(offset: int, advantage: bool, disadvantage: bool, partial_success_hits: bool
              ) -> tuple[tuple[Fraction, ...], Fraction, Fraction, Fraction, Fraction]:
    """(probability by degree worst to best, success, hit, critical hit,
    critical miss) when ``total - target = natural + offset``: every kept
    face's degree through :meth:`~linguo_cli.core.tests.TestSpec.degree_weights`
    (D1, D4, D5 as :func:`d20_outcome` gives them, the copy the roller uses),
    then each degree through :func:`succeeds` and :func:`attack_hits`."""
    naturals, total = natural_weights(advantage, disadvantage)
    weights = D20_TEST.degree_weights(offset, 0, naturals)
    success = sum(w for d, w in weights.items() if succeeds(d))
    hit = sum(w for d, w in weights.items() if attack_hits(d, partial_success_hits))
    return (tuple(Fraction(weights[d], total) for d in Degree), Fraction(success, total),
            Fraction(hit, total), Fraction(weights[Degree.CRITICAL_SUCCESS], total),
            Fraction(weights[Degree.CRITICAL_FAILURE], total))


@dataclass(frozen=True, slots=True)
class TestOdds:
    """Exact odds of one d20 test (no die rolled).

    ``degrees``: probability of each degree, worst to best (all six, summing
    to 1); ``success``: P(degree after D5 is success or critical success)
    (D1 rev. 2, the same event as a result's ``success``; an automatic hit
    counts as a success, an S2 failure as none); attacks also have ``hit``,
    ``critical_hit`` and ``critical_miss`` (``None`` for other tests).
    ``dice`` is the d20 notation rolled (``1d20``, ``2d20kh1``, ``2d20kl1``)
    or ``None`` when no die is rolled (A3, S2).
    """

    __test__ = False

    kind: TestKind
    target: int | None
    modifiers: tuple[Modifier, ...]
    advantage: bool
    disadvantage: bool
    dice: str | None
    automatic: str | None
    degrees: dict[Degree, Fraction]
    success: Fraction
    hit: Fraction | None = None
    critical_hit: Fraction | None = None
    critical_miss: Fraction | None = None
    rules: tuple[str, ...] = ()
    steps: tuple[Step, ...] = field(default=())

    @property
    def normal_hit(self) -> Fraction:
        """P(hit and not a critical hit); 0 for tests other than attacks."""
        if self.hit is None or self.critical_hit is None:
            return Fraction(0)
        return self.hit - self.critical_hit


def _chance(p: Fraction | None) -> Chance | Omit:
    return OMIT if p is None else Chance(p)


@dataclass(frozen=True, slots=True)
class Chance:
    """An exact probability; JSON ``{"probability": "7/20", "percent": "35.00"}``
    (:func:`~linguo_cli.core.distribution.probability_dict`)."""

    value: Fraction

    __json_plain__ = True  # probability_dict gives strings only

    def __json__(self) -> dict[str, str]:
        return probability_dict(self.value)


class DegreeChances(Mapping[str, Chance]):
    """The probability of each degree (label -> :class:`Chance`, worst to
    best), read from a test's ``degree -> probability``; JSON ``{label:
    {"probability", "percent"}}``. One object instead of a :class:`Chance`
    per degree: the six are built only when read."""

    __slots__ = ("_by_degree",)
    __json_plain__ = True  # probability_dict gives strings only

    def __init__(self, by_degree: Mapping[Degree, Fraction]) -> None:
        self._by_degree = by_degree

    def __getitem__(self, label: str) -> Chance:
        return Chance(self._by_degree[_BY_LABEL[label]])

    def __iter__(self) -> Iterator[str]:
        return (_LABELS[d] for d in self._by_degree)

    def __len__(self) -> int:
        return len(self._by_degree)

    def __eq__(self, other: object) -> bool:
        return dict(self.items()) == dict(other.items()) if isinstance(other, Mapping) \
            else NotImplemented

    __hash__ = None  # type: ignore[assignment] # a mapping, unhashable like dict

    def __repr__(self) -> str:
        return f"DegreeChances({dict(self._by_degree)!r})"

    def __json__(self) -> dict[str, dict[str, str]]:
        return {_LABELS[d]: probability_dict(p) for d, p in self._by_degree.items()}


@dataclass(frozen=True, slots=True)
class OddsTest:
    """The ``test`` part of an odds result: what is rolled against what."""

    __test__ = False

    kind: TestKind
    target: int | None
    modifiers: tuple[Modifier, ...]
    modifier_total: int
    advantage: bool
    disadvantage: bool
    dice: str | None
    automatic: str | None


@dataclass(frozen=True, slots=True)
class OddsResult:
    """The result of kind ``odds`` (fields in JSON order): the ``test``, the
    probability of each degree (by label, worst to best), of ``success`` and,
    for attacks, of ``hit``, ``critical_hit`` and ``critical_miss``; the
    ``damage`` per attack and T3 ``warnings`` when asked; ``rules``,
    ``steps`` (JSON ``explanation``), ``rolls_used`` (empty: nothing is rolled)."""

    kind: str
    test: OddsTest
    degrees: DegreeChances
    success: Chance
    hit: Chance | Omit = OMIT
    critical_hit: Chance | Omit = OMIT
    critical_miss: Chance | Omit = OMIT
    damage: DamageOdds | Omit = OMIT
    warnings: tuple[str, ...] | Omit = OMIT
    rules: tuple[str, ...] = ()
    steps: tuple[Step, ...] = field(default=(), metadata={"json": "explanation"})
    rolls_used: tuple[int, ...] = ()

    @classmethod
    def of(cls, odds: TestOdds, *, damage: DamageOdds | Omit = OMIT,
           warnings: tuple[str, ...] | Omit = OMIT, log: Derivation | None = None
           ) -> OddsResult:
        """The result for test odds ``odds`` (and its damage); ``log`` holds
        every step (default: the test's own)."""
        attack = odds.kind is TestKind.ATTACK
        return cls(
            kind="odds",
            test=OddsTest(odds.kind, odds.target, odds.modifiers,
                          sum(m.value for m in odds.modifiers), odds.advantage,
                          odds.disadvantage, odds.dice, odds.automatic),
            degrees=DegreeChances(odds.degrees),
            success=Chance(odds.success),
            hit=_chance(odds.hit) if attack else OMIT,
            critical_hit=_chance(odds.critical_hit) if attack else OMIT,
            critical_miss=_chance(odds.critical_miss) if attack else OMIT,
            damage=damage, warnings=warnings,
            rules=odds.rules if log is None else log.rules,
            steps=odds.steps if log is None else tuple(log.steps))

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape (without ``rolls_used``)."""
        out: dict[str, Any] = to_plain(self)
        out.pop("rolls_used", None)
        return out


def _only(degree: Degree) -> dict[Degree, Fraction]:
    return {d: Fraction(int(d is degree)) for d in Degree}


def odds_for_test(request: TestRequest) -> TestOdds:
    """The exact odds of a d20 test built by :func:`~.requests.build_test`.

    Counts the 20 (one die) or 400 (advantage or disadvantage alone) equally
    likely faces: D2/D3 keep the higher/lower, D1 adds the modifiers, D4 gives
    the degree of the margin and D5 shifts naturals 20 and 1; A1/A2 decide
    hits, critical hits and critical misses (``partial_success_hits`` selects
    the A1 alternative). A3 (no AC): a hit with probability 1, no critical
    hit. S2 (no ability): failure with probability 1.
    """
    kind = request.kind
    is_attack = kind is TestKind.ATTACK
    if request.automatic is not None or request.steps:
        notes = Derivation(list(request.steps))
    if request.automatic == "no_ac":
        notes.note("A3", "the target has no AC: the attack hits automatically (probability 1), "
              "no die is rolled, no critical hit")
        return TestOdds(
            kind=kind, target=None, modifiers=request.modifiers,
            advantage=request.advantage, disadvantage=request.disadvantage,
            dice=None, automatic="no_ac", degrees=_only(Degree.SUCCESS), success=Fraction(1),
            hit=Fraction(1), critical_hit=Fraction(0), critical_miss=Fraction(0),
            rules=notes.rules, steps=tuple(notes.steps))
    if request.automatic == "no_ability":
        notes.note("S2", "no score for the save's ability: failure with probability 1, "
              "no die is rolled")
        zero = Fraction(0) if is_attack else None
        return TestOdds(
            kind=kind, target=request.target, modifiers=request.modifiers,
            advantage=request.advantage, disadvantage=request.disadvantage,
            dice=None, automatic="no_ability", degrees=_only(Degree.FAILURE),
            success=Fraction(0), hit=zero, critical_hit=zero, critical_miss=zero,
            rules=notes.rules, steps=tuple(notes.steps))
    assert request.target is not None
    mod_total = sum(m.value for m in request.modifiers)
    dice, degrees, success, hit, crit, miss, steps, rolled_rules = _rolled_test_odds(
        kind, request.target, mod_total, request.advantage, request.disadvantage,
        request.partial_success_hits)
    if request.steps:
        notes.extend(steps)
        all_steps, rules = tuple(notes.steps), notes.rules
    else:
        all_steps, rules = steps, rolled_rules
    return TestOdds(
        kind=kind, target=request.target, modifiers=request.modifiers,
        advantage=request.advantage, disadvantage=request.disadvantage, dice=dice,
        automatic=None, degrees=dict(zip(_DEGREES, degrees, strict=True)), success=success,
        hit=hit, critical_hit=crit, critical_miss=miss, rules=rules, steps=all_steps)


_DEGREES = tuple(Degree)
_LABELS = {d: d.label for d in Degree}
_BY_LABEL = {d.label: d for d in Degree}


@lru_cache(maxsize=4096)
def _rolled_test_odds(kind: TestKind, target: int, mod_total: int, adv: bool, dis: bool,
                      partial_success_hits: bool) -> tuple[
                          str, tuple[Fraction, ...], Fraction, Fraction | None,
                          Fraction | None, Fraction | None, tuple[Step, ...],
                          tuple[str, ...]]:
    """The odds and derivation of a test that rolls: (dice notation, degree
    probabilities worst to best, success, hit, critical hit, critical miss,
    steps, their rule IDs); hit and the criticals are ``None`` for tests
    other than attacks."""
    offset = mod_total - target
    by_degree, success, hit, crit, crit_miss = _d20_odds(
        offset, adv, dis, partial_success_hits)
    dice, dice_steps = _dice_steps(adv, dis)
    need = target - mod_total
    reach = ("every natural reaches it" if need <= 1 else "no natural reaches it"
             if need > 20 else f"a natural of {need} or more reaches it")
    steps = [*dice_steps,
             Step("D1", f"modifiers {mod_total:+d} against {_TARGET_NAMES[kind]} {target}: "
                  f"{reach}"),
             Step("D4", f"each natural's margin is natural {offset:+d}, read on the degree "
                  "ladder"),
             _D5_STEP,
             Step("D1", "the test succeeds when its degree is success or critical success: "
                  f"P(success) = {fraction_text(success)}")]
    if kind is not TestKind.ATTACK:
        if kind is TestKind.SAVE:
            steps.append(_S1_STEP)
        return dice, by_degree, success, None, None, None, tuple(steps), rules_of(steps)
    steps.append(Step("A1", f"P(hit) = {fraction_text(hit)} (success or critical success"
                      + (", and partial success by the ruling partial-success-hits)"
                         if partial_success_hits else "; partial success does not hit)")))
    steps.append(Step("A2", f"P(critical hit) = {fraction_text(crit)}, "
                      f"P(critical miss) = {fraction_text(crit_miss)}"))
    return dice, by_degree, success, hit, crit, crit_miss, tuple(steps), rules_of(steps)


_TARGET_NAMES = {TestKind.CHECK: "DC", TestKind.ATTACK: "AC", TestKind.SAVE: "save DC"}
_D5_STEP = Step("D5", "a natural 20 moves the degree one step up, a natural 1 one step down")
_S1_STEP = Step("S1", "the save succeeds at success or critical success (D1); the effect "
                "decides what each degree changes")


@cache
def _dice_steps(adv: bool, dis: bool) -> tuple[str, tuple[Step, ...]]:
    """Rules D2/D3: the d20 notation rolled and the steps that say so."""
    if adv and not dis:
        return "2d20kh1", (
            Step("D2", "advantage: two d20, the higher kept; 400 equally likely face pairs, "
                 "P(natural = k) = (2k - 1)/400"),
            Step("D3", "the natural is the kept face"))
    if dis and not adv:
        return "2d20kl1", (
            Step("D2", "disadvantage: two d20, the lower kept; 400 equally likely face pairs, "
                 "P(natural = k) = (41 - 2k)/400"),
            Step("D3", "the natural is the kept face"))
    one = Step("D3", "one d20: each natural 1-20 has probability 1/20")
    if adv and dis:
        return "1d20", (Step("D2", "advantage and disadvantage together: one d20"), one)
    return "1d20", (one,)


# ---------------------------------------------------------------------------
# Damage per attack


@dataclass(frozen=True, slots=True)
class DamageOdds:
    """Exact damage per attack (T3-T5, R1-R3), in HP.

    ``on_hit``/``on_critical_hit``: distribution of the damage of a normal hit
    and of a critical hit (dice doubled); ``per_attack``: distribution over
    the whole attack (a miss, a critical miss or a partial success that does
    not hit deals 0). Every outcome is floored at 0 (T4) and then has
    immunity, resistance (halved, rounded down) and vulnerability (doubled)
    applied (R1-R3), outcome by outcome.
    """

    expression: DiceExpression
    tick: Tick
    conforms: bool
    potential: int
    modifiers: tuple[Modifier, ...]
    resistant: bool
    vulnerable: bool
    immune: bool
    on_hit: Distribution
    on_critical_hit: Distribution
    per_attack: Distribution
    show_distribution: bool = False

    def as_dict(self, distribution: bool | None = None) -> dict[str, Any]:
        """The JSON shape of the ``damage`` part of an ``odds`` result; with
        ``distribution`` (default :attr:`show_distribution`) it lists every
        amount with its probability."""
        if distribution is None:
            distribution = self.show_distribution
        out: dict[str, Any] = {
            "dice": self.expression.text(),
            "critical_dice": self.expression.doubled().text(),
            "tick": self.tick.name,
            "dice_expected_value": fraction_text(self.expression.expected_value()),
            "conforming": self.conforms,
            "potential": self.potential,
            "multiplier": self.tick.multiplier,
            "modifiers": [m.as_dict() for m in self.modifiers],
            "resistant": self.resistant,
            "vulnerable": self.vulnerable,
            "immune": self.immune,
            "expected_on_hit": fraction_text(expected(self.on_hit)),
            "expected_on_critical_hit": fraction_text(expected(self.on_critical_hit)),
            "expected": fraction_text(expected(self.per_attack)),
            "minimum": min(self.per_attack),
            "maximum": max(self.per_attack),
        }
        if any(t.explode for t in self.expression.terms):
            # exploding dice: the distributions stop at the explosion bound; the
            # mass beyond it (dice_expected_value is the unbounded closed form)
            out["truncated_mass"] = {
                "on_hit": fraction_text(truncated_mass(self.expression)),
                "on_critical_hit": fraction_text(
                    truncated_mass(self.expression.doubled()))}
        if distribution:
            out["distribution"] = [
                {"amount": v, **probability_dict(p)} for v, p in self.per_attack.items()]
        return out

    __json__ = as_dict


def _note_resistance(log: Derivation, *, resistant: bool, vulnerable: bool,
                     immune: bool) -> None:
    """The R1-R3 lines of a damage distribution: immunity (0, and R3 when it
    wins over resistance or vulnerability), else resistance and
    vulnerability (R3 when both), then R2 when any applies."""
    if immune:
        log.note("R1", "immune: every damage outcome becomes 0")
        if resistant or vulnerable:
            log.note("R3", "immunity wins over resistance and vulnerability")
    else:
        if resistant:
            log.note("R1", "resistant: each outcome halved, rounded down")
        if vulnerable:
            log.note("R1", "vulnerable: each outcome doubled")
        if resistant and vulnerable:
            log.note("R3", "resistant and vulnerable: halve first (rounded down), then double")
    if immune or resistant or vulnerable:
        log.note("R2", "applied after every other modifier, once each")


def damage_odds(expression: DiceExpression, *, tick: Tick, test: TestOdds, potential: int = 0,
                modifiers: Sequence[Modifier] = (), resistant: bool = False,
                vulnerable: bool = False, immune: bool = False,
                allow_nonconforming: bool = False, notes: Derivation | None = None,
                show_distribution: bool = False) -> DamageOdds:
    """Exact damage per attack of ``expression`` for an attack with odds ``test``.

    Damage of one roll = dice total + ``potential`` x tick multiplier + flat
    ``modifiers``, floored at 0 (T4); a critical hit rolls each dice term twice (two groups),
    constants not doubled (T5); then R1-R3 per outcome. Per attack:
    ``P(normal hit) * on_hit + P(critical hit) * on_critical_hit``, 0 otherwise.

    Raises :class:`RulesError` ``T3`` when the dice's exact expected value is
    outside the tick's range (unless ``allow_nonconforming``), and
    :class:`InputError` for a dice expression too large to compute.
    """
    log = notes if notes is not None else Derivation()
    ev = expression.expected_value()
    why = tick.nonconformity(expression)
    conforms = why is None
    if why is not None and not allow_nonconforming:
        raise RulesError(
            "T3", f"{expression.text()} {why}",
            {"dice": expression.text(), "expected_value": fraction_text(ev),
             "tick": tick.name, "range": tick.range_text()})
    log.note("T3", f"{expression.text()} has expected value {fraction_text(ev)}: "
         + (f"within the {tick.title} damage tick ({tick.range_text()})" if conforms
            else f"NOT CONFORMING, allowed by request: {expression.text()} {why}"))
    flat = potential * tick.multiplier + sum(m.value for m in modifiers)
    log.note("T4", f"damage = dice + Potential {potential:+d} x {tick.multiplier}"
         + "".join(f" {m.value:+d} ({m.label})" for m in modifiers)
         + ", floored at 0")

    def amount(total: int) -> int:
        return damage_amount(total, flat=flat, resistant=resistant, vulnerable=vulnerable,
                             immune=immune)

    on_hit = map_distribution(expression_distribution(expression), amount)
    crit_p = test.critical_hit or Fraction(0)
    on_crit = map_distribution(expression_distribution(expression.doubled()), amount)
    log.note("T5", f"a critical hit rolls {expression.doubled().text()} "
         "(dice doubled, constants and modifiers not)"
         + ("" if crit_p else "; no critical hit is possible here"))
    _note_resistance(log, resistant=resistant, vulnerable=vulnerable, immune=immune)

    hit_p = test.normal_hit
    miss_p = 1 - hit_p - crit_p
    per_attack: dict[int, Fraction] = {}
    if miss_p:
        per_attack[0] = miss_p
    for dist, weight in ((on_hit, hit_p), (on_crit, crit_p)):
        if weight:
            for v, p in dist.items():
                per_attack[v] = per_attack.get(v, Fraction(0)) + weight * p
    per_attack = dict(sorted(per_attack.items()))
    log.note("A1", f"expected damage per attack = P(hit, not critical) {hit_p} x "
         f"{fraction_text(expected(on_hit))} + P(critical hit) {crit_p} x "
         f"{fraction_text(expected(on_crit))} = {fraction_text(expected(per_attack))}")
    return DamageOdds(
        expression=expression, tick=tick, conforms=conforms, potential=potential,
        modifiers=tuple(modifiers), resistant=resistant, vulnerable=vulnerable,
        immune=immune, on_hit=on_hit, on_critical_hit=on_crit, per_attack=per_attack,
        show_distribution=show_distribution)


# ---------------------------------------------------------------------------
# The odds request


def _damage_part(damage: Mapping[str, Any], test: TestOdds, log: Derivation
                 ) -> tuple[DamageOdds, tuple[str, ...] | Omit]:
    """The ``damage`` of an odds request and its warnings (T3)."""
    if test.kind is not TestKind.ATTACK:
        raise InputError(Diagnostic(
            "request", "damage", f"damage odds need an attack test, not a {test.kind.value}"))
    expr = parse(damage["dice"], field="damage.dice")
    tick = get_tick(damage["tick"], field="damage.tick")
    result = damage_odds(
        expr, tick=tick, test=test, potential=int(damage.get("potential", 0)),
        modifiers=modifiers_from(damage.get("modifiers")),
        resistant=bool(damage.get("resistant")), vulnerable=bool(damage.get("vulnerable")),
        immune=bool(damage.get("immune")),
        allow_nonconforming=bool(damage.get("allow_nonconforming")), notes=log,
        show_distribution=bool(damage.get("distribution")))
    if result.conforms:
        return result, OMIT
    return result, (f"{expr.text()} does not conform to the {tick.title} damage "
                    f"tick ({tick.range_text()}) (T3)",)


def resolve_odds_request(request: Mapping[str, Any], dice: DiceSource) -> OddsResult:
    """Handler of kind ``odds``: the exact odds of the embedded ``test``
    (a check, attack or save request without dice, built by
    :func:`linguo_cli.rulesets.linguomancy.requests.build_test`, so D6/D7/A4/S3 apply as in a roll)
    and, for attacks, the exact ``damage`` per attack. No die is rolled.

    Raises :class:`InputError` for damage odds on a test that is not an
    attack, :class:`RulesError` ``T3`` for non-conforming damage dice (unless
    ``allow_nonconforming``) and whatever :func:`build_test` raises.
    """
    from linguo_cli.rulesets.linguomancy.requests import build_test

    del dice  # nothing is rolled
    test = odds_for_test(build_test(request["test"]))
    if request.get("damage") is None:
        return OddsResult.of(test)  # the test's own steps and rules
    log = Derivation(list(test.steps))
    damage, warnings = _damage_part(request["damage"], test, log)
    return OddsResult.of(test, damage=damage, warnings=warnings, log=log)
