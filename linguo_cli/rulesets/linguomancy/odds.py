"""Exact odds: probabilities of the d20 test and expected damage, as fractions.

Pure functions, no dice rolled and no I/O. A distribution is a
``dict[int, Fraction]`` (outcome -> probability, probabilities summing to
exactly 1); internally outcomes are counted with integer weights over a
common denominator and turned into :class:`~fractions.Fraction` values only
at the end.

* :func:`odds_for_test` gives the probability of each of the six degrees of
  success of a check, attack or save (D1-D5), and for attacks of a hit, a
  critical hit and a critical miss (A1-A3); S2 automatic failures too. The
  degree of every natural face comes from the roller's own
  :func:`~linguo_cli.rulesets.linguomancy.checks.degree_for_margin` and
  :meth:`~linguo_cli.rulesets.linguomancy.model.Degree.shifted`, so odds and rolls never disagree.
* :func:`expression_distribution` is the exact distribution of a dice
  expression (sums by convolution, ``khN``/``klN`` terms by counting).
* :func:`damage_odds` is the damage per attack (T3-T5, R1-R3): its exact
  expected value and whole distribution.
* :func:`suggest_dice` lists simple dice whose expected value fits a tick (T3).

The request handlers :func:`resolve_odds_request` (kind ``odds``) and
:func:`resolve_ticks_request` (kind ``ticks``) turn these into results.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

from linguo_cli.core import distribution as dice_exact
from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import DiceExpression, DiceSource, DiceTerm, parse
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.rulesets.linguomancy.checks import TestRequest, degree_for_margin
from linguo_cli.rulesets.linguomancy.model import Degree, Modifier, TestKind
from linguo_cli.rulesets.linguomancy.ticks import Tick, conforming_ticks, get_tick

#: Largest amount of elementary work (estimated big-integer additions or
#: products) one step of an exact distribution may take; beyond it the request
#: is refused as too large (exit 3). About a second of work at most.
MAX_WORK = 1_000_000

#: The dice kinds :func:`suggest_dice` draws from, and its bounds.
SUGGEST_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
SUGGEST_MAX_COUNT = 100  # dice of one kind when a single kind is used
SUGGEST_MAX_PAIR_COUNT = 10  # dice of each kind when two kinds are combined
SUGGEST_MAX_CONSTANT = 20
SUGGEST_LIMIT = 10

Distribution = dict[int, Fraction]

# ---------------------------------------------------------------------------
# Output helpers


def fraction_text(value: Fraction | int) -> str:
    """An exact fraction as JSON text: ``"7/20"``, ``"8"``, ``"0"``."""
    return str(value if isinstance(value, Fraction) else Fraction(value))


def percent_text(value: Fraction) -> str:
    """A probability as a percentage with two decimals, e.g. ``"35.25"``.

    Display only: rounded half to even from the exact value (the fraction
    stays the exact answer).
    """
    value = Fraction(value)
    return _percent(value.numerator, value.denominator)


@lru_cache(maxsize=4096)
def _percent(numerator: int, denominator: int) -> str:
    q, r = divmod(abs(numerator) * 10000, denominator)
    if 2 * r > denominator or (2 * r == denominator and q % 2):
        q += 1
    sign = "-" if numerator < 0 and q else ""
    return f"{sign}{q // 100}.{q % 100:02d}"


@lru_cache(maxsize=8192)
def _probability_texts(numerator: int, denominator: int) -> tuple[str, str]:
    fraction = str(numerator) if denominator == 1 else f"{numerator}/{denominator}"
    return fraction, _percent(numerator, denominator)


def probability_dict(value: Fraction) -> dict[str, str]:
    """``{"probability": "7/20", "percent": "35.00"}``."""
    fraction, percent = _probability_texts(value.numerator, value.denominator)
    return {"probability": fraction, "percent": percent}


# ---------------------------------------------------------------------------
# Integer-weight distributions


@dataclass(frozen=True, slots=True)
class _Weights:
    """Outcome -> number of equally likely ways; ``total`` ways in all."""

    ways: dict[int, int]
    total: int

    def probabilities(self) -> Distribution:
        return {v: Fraction(w, self.total) for v, w in sorted(self.ways.items()) if w}


def _too_large(what: str, work: int) -> InputError:
    return InputError(Diagnostic(
        "dice", "", f"{what} is too large to compute exactly (about {work:,} steps; "
        f"the limit is {MAX_WORK:,})"))


def _sum_ways(count: int, sides: int) -> _Weights:
    """Ways to roll each total of ``count`` dice of ``sides`` faces (sliding-window
    convolution, one die at a time)."""
    work = count * count * sides
    if work > MAX_WORK:
        raise _too_large(f"{count}d{sides}", work)
    ways = [1]  # ways[i] = ways to total ``low + i``
    low = 0
    for _ in range(count):
        n = len(ways) + sides - 1
        new = [0] * n
        running = 0
        for j in range(n):
            if j < len(ways):
                running += ways[j]
            if j - sides >= 0:
                running -= ways[j - sides]
            new[j] = running
        ways = new
        low += 1
    return _Weights({low + i: w for i, w in enumerate(ways)}, sides**count)


def _keep_highest_ways(count: int, sides: int, keep: int) -> _Weights:
    """Ways for each sum of the ``keep`` highest of ``count`` dice of ``sides``.

    Counts by face value from ``sides`` down to 1: a state is (dice showing
    a face seen so far, kept sum); ``k`` dice showing face ``v`` can be chosen
    in ``comb(remaining, k)`` ways. Once ``keep`` dice are placed, the others
    all show lower faces: ``(v - 1) ** remaining`` ways, and the state is final.
    """
    if keep >= count:
        return _sum_ways(count, sides)
    pairs = keep + sides * keep * (keep - 1) // 2  # (placed, kept sum) pairs below keep
    work = sides * pairs * (count + 1)
    if work > MAX_WORK:
        raise _too_large(f"{count}d{sides}kh{keep}", work)
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    final: dict[int, int] = {}
    for v in range(sides, 0, -1):
        new: dict[tuple[int, int], int] = {}
        for (m, s), w in states.items():
            left = count - m
            for k in range(left + 1):
                m2 = m + k
                s2 = s + min(k, keep - m) * v
                w2 = w * comb(left, k)
                if m2 >= keep:
                    rest = (v - 1) ** (count - m2)
                    if rest:
                        final[s2] = final.get(s2, 0) + w2 * rest
                else:
                    new[(m2, s2)] = new.get((m2, s2), 0) + w2
        states = new
    return _Weights(final, sides**count)


def _term_ways(term: DiceTerm) -> _Weights:
    """The signed distribution of one dice term (the extended notation's
    operators by :func:`linguo_cli.core.distribution.term_weights`)."""
    if not term.plain:
        ways, total = dice_exact.term_weights(term)
        return _Weights(ways, total)
    if term.keep is None or term.keep[1] >= term.count:
        w = _sum_ways(term.count, term.sides)
    elif term.keep[0] == "h":
        w = _keep_highest_ways(term.count, term.sides, term.keep[1])
    else:  # lowest n of faces f = n*(S+1) - highest n of faces S+1-f
        high = _keep_highest_ways(term.count, term.sides, term.keep[1])
        shift = term.keep[1] * (term.sides + 1)
        w = _Weights({shift - s: n for s, n in high.ways.items()}, high.total)
    if term.sign < 0:
        w = _Weights({-s: n for s, n in w.ways.items()}, w.total)
    return w


def _convolve_ways(a: _Weights, b: _Weights) -> _Weights:
    work = len(a.ways) * len(b.ways)
    if work > MAX_WORK:
        raise _too_large("this dice expression", work)
    out: dict[int, int] = {}
    for x, wx in a.ways.items():
        for y, wy in b.ways.items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return _Weights(out, a.total * b.total)


def _expression_ways(expr: DiceExpression) -> _Weights:
    if expr.tree is not None:
        ways, total = dice_exact.expression_weights(expr)
        return _Weights(ways, total)
    acc = _Weights({expr.constant: 1}, 1)
    for term in expr.terms:
        acc = _convolve_ways(acc, _term_ways(term))
    return acc


def die_distribution(sides: int) -> Distribution:
    """One fair die: each face ``1..sides`` with probability ``1/sides``."""
    return {f: Fraction(1, sides) for f in range(1, sides + 1)}


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Distribution:
    """The distribution of ``X + Y`` for independent ``X ~ a``, ``Y ~ b``."""
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return dict(sorted(out.items()))


def sum_distribution(count: int, sides: int) -> Distribution:
    """Total of ``count`` dice of ``sides`` faces (``NdS``), exactly.

    Raises :class:`InputError` when too large to compute (see :data:`MAX_WORK`).
    """
    return _sum_ways(count, sides).probabilities()


def keep_distribution(count: int, sides: int, keep: str, n: int) -> Distribution:
    """Sum of the ``n`` highest (``keep="h"``) or lowest (``"l"``) of ``count``
    dice of ``sides`` faces (``4d6kh3``), exactly."""
    return _term_ways(DiceTerm(1, count, sides, (keep, n))).probabilities()


def expression_distribution(expr: DiceExpression) -> Distribution:
    """The exact distribution of a dice expression's total (terms and constant,
    or the tree of the extended notation; exploding dice at their depth
    bound, see :func:`linguo_cli.core.distribution.truncated_mass`).

    Raises :class:`InputError` when too large to compute (see :data:`MAX_WORK`).
    """
    return _expression_ways(expr).probabilities()


def map_distribution(dist: Mapping[int, Fraction], fn: Callable[[int], int]) -> Distribution:
    """The distribution of ``fn(X)`` for ``X ~ dist`` (outcomes merged, sorted)."""
    out: dict[int, Fraction] = {}
    for x, p in dist.items():
        y = fn(x)
        out[y] = out.get(y, Fraction(0)) + p
    return dict(sorted(out.items()))


def expected(dist: Mapping[int, Fraction]) -> Fraction:
    """The exact expected value ``sum(x * P(x))``."""
    return sum((x * p for x, p in dist.items()), Fraction(0))


# ---------------------------------------------------------------------------
# The d20 test


def natural_weights(advantage: bool, disadvantage: bool) -> tuple[tuple[int, ...], int]:
    """Weights of the kept d20 face 1..20 and their total (D2/D3).

    One die: 1 each out of 20. Advantage alone: P(higher = k) = (2k - 1)/400.
    Disadvantage alone: P(lower = k) = (41 - 2k)/400. Both: one die.
    """
    if advantage and not disadvantage:
        return tuple(2 * k - 1 for k in range(1, 21)), 400
    if disadvantage and not advantage:
        return tuple(41 - 2 * k for k in range(1, 21)), 400
    return (1,) * 20, 20


def natural_distribution(advantage: bool = False, disadvantage: bool = False) -> Distribution:
    """The distribution of the natural (kept) d20 face under D2/D3."""
    weights, total = natural_weights(advantage, disadvantage)
    return {k: Fraction(w, total) for k, w in enumerate(weights, start=1)}


def _test_degree(natural: int, offset: int) -> Degree:
    """Degree of a natural face when ``total - target = natural + offset``:
    D4 from the margin, then the D5 shift of a natural 20 or 1."""
    degree = degree_for_margin(natural + offset)
    if natural == 20:
        return degree.shifted(+1)
    if natural == 1:
        return degree.shifted(-1)
    return degree


def _attack_hits(degree: Degree, partial_success_hits: bool) -> bool:
    """A1: success and critical success hit; partial success only by the
    alternative ruling."""
    return degree >= Degree.SUCCESS or (
        partial_success_hits and degree is Degree.PARTIAL_SUCCESS)


@lru_cache(maxsize=4096)
def _d20_odds(offset: int, advantage: bool, disadvantage: bool, partial_success_hits: bool
              ) -> tuple[tuple[Fraction, ...], Fraction, Fraction, Fraction, Fraction]:
    """(probability by degree worst to best, success, hit, critical hit,
    critical miss) when ``total - target = natural + offset``."""
    naturals, total = natural_weights(advantage, disadvantage)
    by_degree = [0] * 6
    success = hit = crit = crit_miss = 0
    for natural, w in enumerate(naturals, start=1):
        degree = _test_degree(natural, offset)
        by_degree[degree] += w
        if degree >= Degree.SUCCESS:  # D1 rev. 2: the degree, not total >= target
            success += w
        if _attack_hits(degree, partial_success_hits):
            hit += w
        if degree is Degree.CRITICAL_SUCCESS:
            crit += w
        elif degree is Degree.CRITICAL_FAILURE:
            crit_miss += w
    return (tuple(Fraction(w, total) for w in by_degree), Fraction(success, total),
            Fraction(hit, total), Fraction(crit, total), Fraction(crit_miss, total))


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

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of the ``test`` part of an ``odds`` result."""
        out: dict[str, Any] = {
            "test": {
                "kind": self.kind.value,
                "target": self.target,
                "modifiers": [m.as_dict() for m in self.modifiers],
                "modifier_total": sum(m.value for m in self.modifiers),
                "advantage": self.advantage,
                "disadvantage": self.disadvantage,
                "dice": self.dice,
                "automatic": self.automatic,
            },
            "degrees": {_LABELS[d]: probability_dict(p) for d, p in self.degrees.items()},
            "success": probability_dict(self.success),
        }
        if self.kind is TestKind.ATTACK:
            assert self.hit is not None and self.critical_hit is not None
            assert self.critical_miss is not None
            out["hit"] = probability_dict(self.hit)
            out["critical_hit"] = probability_dict(self.critical_hit)
            out["critical_miss"] = probability_dict(self.critical_miss)
        return out


class _Notes:
    """Collects derivation steps and the rule IDs in order of first use."""

    def __init__(self, steps: Sequence[Step] = ()) -> None:
        self.steps = list(steps)
        self.rules: list[str] = []
        for s in self.steps:
            if s.rule not in self.rules:
                self.rules.append(s.rule)

    def __call__(self, rule: str, text: str) -> None:
        self.steps.append(Step(rule, text))
        if rule not in self.rules:
            self.rules.append(rule)


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
    notes = _Notes(request.steps)
    kind = request.kind
    is_attack = kind is TestKind.ATTACK
    if request.automatic == "no_ac":
        notes("A3", "the target has no AC: the attack hits automatically (probability 1), "
              "no die is rolled, no critical hit")
        return TestOdds(
            kind=kind, target=None, modifiers=request.modifiers,
            advantage=request.advantage, disadvantage=request.disadvantage,
            dice=None, automatic="no_ac", degrees=_only(Degree.SUCCESS), success=Fraction(1),
            hit=Fraction(1), critical_hit=Fraction(0), critical_miss=Fraction(0),
            rules=tuple(notes.rules), steps=tuple(notes.steps))
    if request.automatic == "no_ability":
        notes("S2", "no score for the save's ability: failure with probability 1, "
              "no die is rolled")
        zero = Fraction(0) if is_attack else None
        return TestOdds(
            kind=kind, target=request.target, modifiers=request.modifiers,
            advantage=request.advantage, disadvantage=request.disadvantage,
            dice=None, automatic="no_ability", degrees=_only(Degree.FAILURE),
            success=Fraction(0), hit=zero, critical_hit=zero, critical_miss=zero,
            rules=tuple(notes.rules), steps=tuple(notes.steps))
    assert request.target is not None
    mod_total = sum(m.value for m in request.modifiers)
    dice, degrees, success, hit, crit, miss, steps = _rolled_test_odds(
        kind, request.target, mod_total, request.advantage, request.disadvantage,
        request.partial_success_hits)
    if request.steps:
        for step in steps:
            notes(step.rule, step.text)
        all_steps, rules = tuple(notes.steps), tuple(notes.rules)
    else:
        all_steps, rules = steps, _rules_of(steps)
    return TestOdds(
        kind=kind, target=request.target, modifiers=request.modifiers,
        advantage=request.advantage, disadvantage=request.disadvantage, dice=dice,
        automatic=None, degrees=dict(zip(_DEGREES, degrees, strict=True)), success=success,
        hit=hit, critical_hit=crit, critical_miss=miss, rules=rules, steps=all_steps)


_DEGREES = tuple(Degree)
_LABELS = {d: d.label for d in Degree}


@lru_cache(maxsize=4096)
def _rules_of(steps: tuple[Step, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s.rule for s in steps))


@lru_cache(maxsize=4096)
def _rolled_test_odds(kind: TestKind, target: int, mod_total: int, adv: bool, dis: bool,
                      partial_success_hits: bool) -> tuple[
                          str, tuple[Fraction, ...], Fraction, Fraction | None,
                          Fraction | None, Fraction | None, tuple[Step, ...]]:
    """The odds and derivation of a test that rolls: (dice notation, degree
    probabilities worst to best, success, hit, critical hit, critical miss,
    steps); hit and the criticals are ``None`` for tests other than attacks."""
    notes = _Notes()
    offset = mod_total - target
    by_degree, success, hit, crit, crit_miss = _d20_odds(
        offset, adv, dis, partial_success_hits)
    if adv and not dis:
        dice = "2d20kh1"
        notes("D2", "advantage: two d20, the higher kept; 400 equally likely face pairs, "
              "P(natural = k) = (2k - 1)/400")
    elif dis and not adv:
        dice = "2d20kl1"
        notes("D2", "disadvantage: two d20, the lower kept; 400 equally likely face pairs, "
              "P(natural = k) = (41 - 2k)/400")
    else:
        dice = "1d20"
        if adv and dis:
            notes("D2", "advantage and disadvantage together: one d20")
        notes("D3", "one d20: each natural 1-20 has probability 1/20")
    if dice != "1d20":
        notes("D3", "the natural is the kept face")
    target_name = {TestKind.CHECK: "DC", TestKind.ATTACK: "AC", TestKind.SAVE: "save DC"}[kind]
    need = target - mod_total
    reach = ("every natural reaches it" if need <= 1 else "no natural reaches it"
             if need > 20 else f"a natural of {need} or more reaches it")
    notes("D1", f"modifiers {mod_total:+d} against {target_name} {target}: {reach}")
    notes("D4", f"each natural's margin is natural {offset:+d}, read on the degree ladder")
    notes("D5", "a natural 20 moves the degree one step up, a natural 1 one step down")
    notes("D1", f"the test succeeds when its degree is success or critical success: "
          f"P(success) = {success}")
    if kind is not TestKind.ATTACK:
        if kind is TestKind.SAVE:
            notes("S1", "the save succeeds at success or critical success (D1); the effect "
                  "decides what each degree changes")
        return dice, by_degree, success, None, None, None, tuple(notes.steps)
    notes("A1", f"P(hit) = {hit} (success or critical success"
          + (", and partial success by the ruling partial-success-hits)"
             if partial_success_hits else "; partial success does not hit)"))
    notes("A2", f"P(critical hit) = {crit}, P(critical miss) = {crit_miss}")
    return dice, by_degree, success, hit, crit, crit_miss, tuple(notes.steps)


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

    def as_dict(self, distribution: bool = False) -> dict[str, Any]:
        """The JSON shape of the ``damage`` part of an ``odds`` result; with
        ``distribution`` it lists every amount with its probability."""
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
                "on_hit": fraction_text(dice_exact.truncated_mass(self.expression)),
                "on_critical_hit": fraction_text(
                    dice_exact.truncated_mass(self.expression.doubled()))}
        if distribution:
            out["distribution"] = [
                {"amount": v, **probability_dict(p)} for v, p in self.per_attack.items()]
        return out


def damage_amount(total: int, *, flat: int, resistant: bool, vulnerable: bool,
                  immune: bool) -> int:
    """One damage outcome: ``max(0, total + flat)`` (T4), then R1-R3:
    immunity -> 0; resistance halves rounding down, then vulnerability doubles."""
    amount = max(0, total + flat)
    if immune:
        return 0
    if resistant:
        amount //= 2
    if vulnerable:
        amount *= 2
    return amount


def damage_odds(expression: DiceExpression, *, tick: Tick, test: TestOdds, potential: int = 0,
                modifiers: Sequence[Modifier] = (), resistant: bool = False,
                vulnerable: bool = False, immune: bool = False,
                allow_nonconforming: bool = False, notes: _Notes | None = None) -> DamageOdds:
    """Exact damage per attack of ``expression`` for an attack with odds ``test``.

    Damage of one roll = dice total + ``potential`` x tick multiplier + flat
    ``modifiers``, floored at 0 (T4); a critical hit rolls each dice term twice (two groups),
    constants not doubled (T5); then R1-R3 per outcome. Per attack:
    ``P(normal hit) * on_hit + P(critical hit) * on_critical_hit``, 0 otherwise.

    Raises :class:`RulesError` ``T3`` when the dice's exact expected value is
    outside the tick's range (unless ``allow_nonconforming``), and
    :class:`InputError` for a dice expression too large to compute.
    """
    note = notes or _Notes()
    ev = expression.expected_value()
    why = tick.nonconformity(expression)
    conforms = why is None
    if why is not None and not allow_nonconforming:
        raise RulesError(
            "T3", f"{expression.text()} {why}",
            {"dice": expression.text(), "expected_value": fraction_text(ev),
             "tick": tick.name, "range": tick.range_text()})
    note("T3", f"{expression.text()} has expected value {fraction_text(ev)}: "
         + (f"within the {tick.title} damage tick ({tick.range_text()})" if conforms
            else f"NOT CONFORMING, allowed by request: {expression.text()} {why}"))
    flat = potential * tick.multiplier + sum(m.value for m in modifiers)
    note("T4", f"damage = dice + Potential {potential:+d} x {tick.multiplier}"
         + "".join(f" {m.value:+d} ({m.label})" for m in modifiers)
         + ", floored at 0")

    def amount(total: int) -> int:
        return damage_amount(total, flat=flat, resistant=resistant, vulnerable=vulnerable,
                             immune=immune)

    on_hit = map_distribution(expression_distribution(expression), amount)
    crit_p = test.critical_hit or Fraction(0)
    on_crit = map_distribution(expression_distribution(expression.doubled()), amount)
    note("T5", f"a critical hit rolls {expression.doubled().text()} "
         "(dice doubled, constants and modifiers not)"
         + ("" if crit_p else "; no critical hit is possible here"))
    if immune:
        note("R1", "immune: every damage outcome becomes 0")
    else:
        if resistant:
            note("R1", "resistant: each outcome halved, rounded down")
        if vulnerable:
            note("R1", "vulnerable: each outcome doubled")
        if resistant and vulnerable:
            note("R3", "resistant and vulnerable: halve first (rounded down), then double")
    if immune or resistant or vulnerable:
        note("R2", "applied after every other modifier, once each")

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
    note("A1", f"expected damage per attack = P(hit, not critical) {hit_p} x "
         f"{fraction_text(expected(on_hit))} + P(critical hit) {crit_p} x "
         f"{fraction_text(expected(on_crit))} = {fraction_text(expected(per_attack))}")
    return DamageOdds(
        expression=expression, tick=tick, conforms=conforms, potential=potential,
        modifiers=tuple(modifiers), resistant=resistant, vulnerable=vulnerable,
        immune=immune, on_hit=on_hit, on_critical_hit=on_crit, per_attack=per_attack)


# ---------------------------------------------------------------------------
# Tick design (T1-T3)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A simple dice expression whose expected value fits a tick (T3).

    ``distance`` = |expected value - target of the tick|, exact.
    """

    expression: DiceExpression
    expected_value: Fraction
    distance: Fraction

    def as_dict(self) -> dict[str, Any]:
        return {
            "dice": self.expression.text(),
            "expected_value": fraction_text(self.expected_value),
            "minimum": self.expression.minimum(),
            "maximum": self.expression.maximum(),
            "distance": fraction_text(self.distance),
        }


@dataclass(frozen=True, slots=True)
class Suggestions:
    """What :func:`suggest_dice` found: the ``target`` expected value it aims
    at (``None`` for a tick without dice), a ``note`` on how, and the dice."""

    tick: Tick
    target: Fraction | None
    note: str
    dice: tuple[Suggestion, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "tick": self.tick.name,
            "healing": self.tick.healing,
            "range": self.tick.range_text(),
            "target": None if self.target is None else fraction_text(self.target),
            "note": self.note,
            "dice": [s.as_dict() for s in self.dice],
        }


def _candidates(lo2: int, hi2: int | None, cap2: int) -> list[tuple[int, ...]]:
    """Every (twice EV, N1, S1, N2, S2, c) with ``lo2 <= 2 EV <= hi2``: one kind
    ``N1dS1 + c`` (N2 = 0) or two kinds ``N1dS1 + N2dS2 + c`` with S1 > S2.
    ``cap2`` bounds twice the EV of the dice alone when there is no upper bound."""
    top = cap2 if hi2 is None else hi2
    out: list[tuple[int, ...]] = []
    consts = range(SUGGEST_MAX_CONSTANT + 1)

    def add(dice2: int, n1: int, s1: int, n2: int, s2: int) -> None:
        for c in consts:
            ev2 = dice2 + 2 * c
            if ev2 > top:
                break
            if ev2 >= lo2:
                out.append((ev2, n1, s1, n2, s2, c))

    for s1 in SUGGEST_SIDES:
        for n1 in range(1, SUGGEST_MAX_COUNT + 1):
            if n1 * (s1 + 1) > top:
                break
            add(n1 * (s1 + 1), n1, s1, 0, 0)
    for i, s1 in enumerate(SUGGEST_SIDES):
        for s2 in SUGGEST_SIDES[:i]:
            for n1 in range(1, SUGGEST_MAX_PAIR_COUNT + 1):
                for n2 in range(1, SUGGEST_MAX_PAIR_COUNT + 1):
                    dice2 = n1 * (s1 + 1) + n2 * (s2 + 1)
                    if dice2 > top:
                        break
                    add(dice2, n1, s1, n2, s2)
    return out


def suggest_dice(tick: Tick, limit: int = SUGGEST_LIMIT) -> Suggestions:
    """Simple dice whose exact expected value conforms to ``tick`` (T3).

    Candidates: ``NdS`` with S in :data:`SUGGEST_SIDES` (N up to
    :data:`SUGGEST_MAX_COUNT`), or two kinds ``N1dS1 + N2dS2`` (each up to
    :data:`SUGGEST_MAX_PAIR_COUNT` dice), plus a constant 0 to
    :data:`SUGGEST_MAX_CONSTANT`. Ordered by distance of the expected value
    from the middle of the tick's range, then simplicity (one kind before
    two, fewer dice, smaller constant, larger dice), then notation; at most
    ``limit``. A tick with no upper bound (Ultimate) aims at its lower bound;
    a tick whose range is 0 (None) is met only by no dice (``0``); a tick
    without a dice range (Complete, Resurrection) gets no suggestion.
    """
    if not tick.has_range:
        return Suggestions(tick, None, f"the {tick.title} tick has no dice range "
                           f"({tick.effect or 'no dice'}): no dice to suggest", ())
    assert tick.min is not None
    if tick.max == 0:
        zero = DiceExpression((), 0)
        return Suggestions(tick, Fraction(0), f"the {tick.title} tick deals nothing: no dice",
                           (Suggestion(zero, Fraction(0), Fraction(0)),))
    if tick.max is None:
        target = Fraction(tick.min)
        note = (f"the {tick.title} tick has no upper bound: dice ordered by closeness "
                f"to its lower bound {tick.min}")
        cap2 = 4 * tick.min
    else:
        target = Fraction(tick.min + tick.max, 2)
        note = (f"dice ordered by closeness to the middle of {tick.range_text()}, "
                f"{fraction_text(target)}, then simplicity")
        cap2 = 2 * tick.max
    target2 = int(2 * target)  # an integer: comparisons stay cheap
    hi2 = None if tick.max is None else 2 * tick.max

    def key(c: tuple[int, ...]) -> tuple[Any, ...]:
        ev2, n1, s1, n2, s2, const = c
        return (abs(ev2 - target2), 1 if n2 else 0, n1 + n2, const, -s1, -s2)

    ranked = sorted(_candidates(2 * tick.min, hi2, cap2), key=key)
    chosen: list[Suggestion] = []
    for ev2, n1, s1, n2, s2, const in ranked[:limit]:
        terms = [DiceTerm(1, n1, s1)] + ([DiceTerm(1, n2, s2)] if n2 else [])
        ev = Fraction(ev2, 2)
        chosen.append(Suggestion(DiceExpression(tuple(terms), const), ev, abs(ev - target)))
    return Suggestions(tick, target, note, tuple(chosen))


def tick_dict(tick: Tick, conforms: bool | None = None) -> dict[str, Any]:
    """A tick as JSON: name, title, table, range, multiplier (and ``conforming``)."""
    out: dict[str, Any] = {
        "name": tick.name, "title": tick.title, "healing": tick.healing,
        "min": tick.min, "max": tick.max, "range": tick.range_text(),
        "multiplier": tick.multiplier,
    }
    if conforms is not None:
        out["conforming"] = conforms
    return out


def _tick_titles(ticks: Sequence[Tick]) -> str:
    return ", ".join(f"{t.title} ({t.range_text()})" for t in ticks) or "none"


def resolve_ticks_request(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Handler of kind ``ticks``: expected value, minimum and maximum of
    ``dice`` and every damage (T1) and healing (T2) tick it conforms to (T3);
    ``tick`` checks one tick of the table chosen by ``healing`` and raises
    :class:`RulesError` ``T3`` (exit 4) when the dice do not conform (a tick
    without a dice range takes no dice and never conforms); ``suggest`` lists
    simple conforming dice (:func:`suggest_dice`). No die is rolled."""
    notes = _Notes()
    healing = bool(request.get("healing"))
    table = "healing" if healing else "damage"
    out: dict[str, Any] = {"kind": "ticks"}
    text = request.get("dice")
    if text is not None:
        expr = parse(text, field="dice")
        ev = expr.expected_value()
        damage_ticks = conforming_ticks(expr)
        healing_ticks = conforming_ticks(expr, healing=True)
        out.update({
            "dice": expr.text(),
            "expected_value": fraction_text(ev),
            "minimum": expr.minimum(),
            "maximum": expr.maximum(),
            "damage_ticks": [t.name for t in damage_ticks],
            "healing_ticks": [t.name for t in healing_ticks],
        })
        notes("T3", f"{expr.text()}: exact expected value {fraction_text(ev)} "
              f"(minimum {expr.minimum()}, maximum {expr.maximum()}); a tick conforms when "
              "its range holds it, bounds included, and a dice tick needs at least one die "
              "(rev. 2)")
        notes("T1", f"damage ticks: {_tick_titles(damage_ticks)}")
        notes("T2", f"healing ticks: {_tick_titles(healing_ticks)}")
        name = request.get("tick")
        if name is not None:
            tick = get_tick(name, healing=healing, field="tick")
            why = (tick.nonconformity(expr) if tick.has_range else
                   f"has expected value {fraction_text(ev)}, but the {tick.title} {table} "
                   "tick takes no dice")
            if why is not None:
                raise RulesError(
                    "T3", f"{expr.text()} {why}",
                    {"dice": expr.text(), "expected_value": fraction_text(ev),
                     "tick": tick.name, "healing": healing, "range": tick.range_text()})
            out["tick"] = tick_dict(tick, conforms=True)
            notes("T3", f"conforms to the {tick.title} {table} tick ({tick.range_text()})")
    elif request.get("tick") is not None:
        raise InputError(Diagnostic("request", "tick", "checking a tick needs the dice"))
    name = request.get("suggest")
    if name is not None:
        tick = get_tick(name, healing=healing, field="suggest")
        found = suggest_dice(tick, int(request.get("limit", SUGGEST_LIMIT)))
        out["suggestions"] = found.as_dict()
        notes("T2" if healing else "T1", f"{tick.title} {table} tick: range "
              f"{tick.range_text()}, multiplier {tick.multiplier}")
        notes("T3", f"{found.note}; {len(found.dice)} suggestion(s)")
    if text is None and name is None:
        raise InputError(Diagnostic("request", "dice", "give dice, suggest, or both"))
    out["rules"] = notes.rules
    out["explanation"] = [s.as_dict() for s in notes.steps]
    return out


# ---------------------------------------------------------------------------
# The odds request


def resolve_odds_request(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Handler of kind ``odds``: the exact odds of the embedded ``test``
    (a check, attack or save request without dice, built by
    :func:`linguo_cli.rulesets.linguomancy.requests.build_test`, so D6/D7/A4/S3 apply as in a roll)
    and, for attacks, the exact ``damage`` per attack. No die is rolled.

    Raises :class:`InputError` for damage odds on a test that is not an
    attack, :class:`RulesError` ``T3`` for non-conforming damage dice (unless
    ``allow_nonconforming``) and whatever :func:`build_test` raises.
    """
    from linguo_cli.rulesets.linguomancy.requests import build_test, modifiers_from

    test = odds_for_test(build_test(request["test"]))
    out: dict[str, Any] = {"kind": "odds", **test.as_dict()}
    notes = _Notes(test.steps)
    damage = request.get("damage")
    if damage is not None:
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
            allow_nonconforming=bool(damage.get("allow_nonconforming")), notes=notes)
        out["damage"] = result.as_dict(distribution=bool(damage.get("distribution")))
        if not result.conforms:
            out["warnings"] = [f"{expr.text()} does not conform to the {tick.title} damage "
                               f"tick ({tick.range_text()}) (T3)"]
    out["rules"] = notes.rules
    out["explanation"] = [s.as_dict() for s in notes.steps]
    return out
