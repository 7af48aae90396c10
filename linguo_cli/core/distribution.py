"""Exact distributions, expected values and bounds of the dice notation.

Pure integer arithmetic over equally likely ways (a weight map and its total),
turned into :class:`~fractions.Fraction` values only at the end. Each step
counts its elementary work; past :data:`MAX_WORK` the expression is refused
(:class:`~linguo_cli.core.errors.InputError`, exit 3) with the bound named.

One die of a term goes through, in order: its base face (uniform ``1..S``),
``ro`` (a matching value is replaced by a fresh face once), ``rr`` (replaced
until a fresh face does not match: exactly the fresh face conditioned on not
matching), ``ra`` (a fresh face is added once), ``e`` (a matching value gets a
fresh face added, and so on while the fresh face matches, at most
:data:`~linguo_cli.core.dice.MAX_EXPLOSIONS` extra faces), ``mi``/``ma`` (clamp).
The dice of a term are independent and identically distributed; a keep/drop
chain keeps a window of ranks of their sorted values, counted face value by
face value (the generalisation of ``_keep_highest_ways`` below). Tree nodes
combine independent distributions with ``+ - * /`` (``/`` is floor division).
:func:`expression_distribution`, :func:`convolve`, :func:`map_distribution`
and :func:`expected` work on exact fraction distributions;
:func:`fraction_text`, :func:`percent_text` and :func:`probability_dict` give
their JSON text.

Expected values are exact: for exploding dice the closed form without the
depth bound, ``E[X0] + P(X0 explodes) * ((S+1)/2) / (1 - p)`` with ``p`` the
chance that a fresh face explodes (rule T3 uses it); the distribution is that
of the bounded roll, and :func:`truncated_mass` is the probability that some
die reached the bound still matching.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import comb

from linguo_cli.core import dice as dice_mod
from linguo_cli.core.dice import (
    DiceExpression,
    DiceTerm,
    Neg,
    Node,
    Num,
    matches,
    node_text,
)
from linguo_cli.core.errors import Diagnostic, InputError

#: Largest amount of elementary work (big-integer additions or products) one
#: exact distribution may take (the same bound as Linguomancy's odds, ``MAX_WORK``).
MAX_WORK = 1_000_000

Weights = tuple[dict[int, int], int]

#: An exact distribution: outcome -> probability (summing to exactly 1).
Distribution = dict[int, Fraction]


class _Budget:
    """Counts work; raises :class:`InputError` naming :data:`MAX_WORK` past it."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.done = 0

    def spend(self, work: int, total: int = 1) -> None:
        """Count ``work`` steps on numbers up to ``total`` (each 256 bits of
        the numbers count as one more step: big integers cost more)."""
        self.done += work * (1 + total.bit_length() // 256)
        if self.done > MAX_WORK:
            raise InputError(Diagnostic(
                "dice", "", f"{self.what} is too large to compute exactly (more than "
                f"{MAX_WORK:,} steps: the bound MAX_WORK)"))


# ---------------------------------------------------------------------------
# One die


def _fresh(sides: int) -> Weights:
    return {f: 1 for f in range(1, sides + 1)}, sides


def _before_explode(term: DiceTerm) -> Weights:
    """Weights of one die after its base face and reroll (ro/rr/ra)."""
    s = term.sides
    ways, total = _fresh(s)
    if term.reroll is None:
        return ways, total
    op, compare = term.reroll
    hit = {v: w for v, w in ways.items() if matches(compare, v)}
    miss = {v: w for v, w in ways.items() if not matches(compare, v)}
    hit_mass = sum(hit.values())
    if op == "ro":
        out = {v: w * s for v, w in miss.items()}
        for f in range(1, s + 1):
            out[f] = out.get(f, 0) + hit_mass
        return out, total * s
    if op == "rr":
        allowed = [f for f in range(1, s + 1) if not matches(compare, f)]
        out = {v: w * len(allowed) for v, w in miss.items()}
        for f in allowed:
            out[f] = out.get(f, 0) + hit_mass
        return out, total * len(allowed)
    out = {v: w * s for v, w in miss.items()}  # ra
    _Budget(term.text()).spend(len(hit) * s)
    for v, w in hit.items():
        for f in range(1, s + 1):
            out[v + f] = out.get(v + f, 0) + w
    return out, total * s


def _chain(sides: int, compare: tuple[str, int], extra: int, budget: _Budget) -> Weights:
    """A fresh face that explodes while it matches, at most ``extra`` faces."""
    ways, total = _fresh(sides)
    for _ in range(extra - 1):
        new: dict[int, int] = {}
        budget.spend(sides * len(ways), total * sides)
        for f in range(1, sides + 1):
            if matches(compare, f):
                for x, w in ways.items():
                    new[f + x] = new.get(f + x, 0) + w
            else:
                new[f] = new.get(f, 0) + total
        ways, total = new, total * sides
    return ways, total


def die_weights(term: DiceTerm, budget: _Budget | None = None) -> Weights:
    """Weights of one die's value (every operator but the selectors)."""
    budget = budget or _Budget(term.text())
    ways, total = _before_explode(term)
    if term.explode is not None:
        chain, ctotal = _chain(term.sides, term.explode, dice_mod.MAX_EXPLOSIONS, budget)
        out: dict[int, int] = {}
        budget.spend(len(ways) * len(chain), total * ctotal)
        for v, w in ways.items():
            if matches(term.explode, v):
                for x, cw in chain.items():
                    out[v + x] = out.get(v + x, 0) + w * cw
            else:
                out[v] = out.get(v, 0) + w * ctotal
        ways, total = out, total * ctotal
    if term.minimum is not None or term.maximum is not None:
        lo = term.minimum if term.minimum is not None else min(ways)
        hi = term.maximum if term.maximum is not None else max(ways)
        clamped: dict[int, int] = {}
        for v, w in ways.items():
            c = min(max(v, lo), hi) if term.minimum is not None else min(v, hi)
            if term.maximum is None:
                c = max(v, lo)
            clamped[c] = clamped.get(c, 0) + w
        ways = clamped
    return ways, total


def _die_expected(term: DiceTerm) -> Fraction:
    """Exact E[one die's value]; closed form for exploding dice (no bound)."""
    if term.explode is None:
        ways, total = die_weights(term)
        return Fraction(sum(v * w for v, w in ways.items()), total)
    ways, total = _before_explode(term)
    s = term.sides
    p = Fraction(sum(1 for f in range(1, s + 1) if matches(term.explode, f)), s)
    chain_mean = Fraction(s + 1, 2) / (1 - p)
    base = Fraction(sum(v * w for v, w in ways.items()), total)
    hit = Fraction(sum(w for v, w in ways.items() if matches(term.explode, v)), total)
    return base + hit * chain_mean


# ---------------------------------------------------------------------------
# A term


def _convolve(a: Weights, b: Weights, budget: _Budget) -> Weights:
    budget.spend(len(a[0]) * len(b[0]), a[1] * b[1])
    out: dict[int, int] = {}
    for x, wx in a[0].items():
        for y, wy in b[0].items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return out, a[1] * b[1]


def _window_ways(die: Weights, count: int, low: int, high: int, budget: _Budget) -> Weights:
    """Sum of the dice of ascending ranks ``[low, high)`` among ``count`` dice.

    Values are visited from the highest down; a state is (dice placed, kept
    sum); ``k`` dice showing value ``v`` are chosen in ``comb(left, k)`` ways,
    each with weight ``w(v)``. Once every die of the window is placed the rest
    all show lower values: ``(weight below v) ** left`` ways.
    """
    ways, total = die
    a, b = count - high, count - low  # descending ranks kept: [a, b)
    values = sorted(ways, reverse=True)
    below = sum(ways.values())
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    final: dict[int, int] = {}
    for v in values:
        w = ways[v]
        below -= w
        new: dict[tuple[int, int], int] = {}
        budget.spend(4 * len(states) * (count + 1), total**count)
        powers = [1]  # powers[j] = below ** j, grown as needed
        for (m, acc), sw in states.items():
            left = count - m
            ways_k = sw  # sw * comb(left, k) * w ** k, updated as k grows
            for k in range(left + 1):
                if k:
                    ways_k = ways_k * (left - k + 1) * w // k
                m2 = m + k
                kept = max(0, min(m2, b) - max(m, a))
                s2 = acc + kept * v
                w2 = ways_k
                if m2 >= b:
                    while len(powers) <= count - m2:
                        powers.append(powers[-1] * below)
                    rest = powers[count - m2]
                    if rest:
                        final[s2] = final.get(s2, 0) + w2 * rest
                else:
                    new[(m2, s2)] = new.get((m2, s2), 0) + w2
        states = new
    return final, total**count


def term_weights(term: DiceTerm, budget: _Budget | None = None) -> Weights:
    """Signed weights of one dice term's kept total."""
    budget = budget or _Budget(term.text())
    die = die_weights(term, budget)
    low, high = term.window()
    if (low, high) == (0, term.count):
        acc: Weights = ({0: 1}, 1)
        for _ in range(term.count):
            acc = _convolve(acc, die, budget)
    else:
        acc = _window_ways(die, term.count, low, high, budget)
    if term.sign < 0:
        acc = ({-v: w for v, w in acc[0].items()}, acc[1])
    return acc


# ---------------------------------------------------------------------------
# Expressions


def node_weights(node: Node, budget: _Budget) -> Weights:
    """Weights of a tree node's value (independent children)."""
    if isinstance(node, Num):
        return {node.value: 1}, 1
    if isinstance(node, DiceTerm):
        return term_weights(node, budget)
    if isinstance(node, Neg):
        ways, total = node_weights(node.operand, budget)
        return {-v: w for v, w in ways.items()}, total
    a = node_weights(node.left, budget)
    b = node_weights(node.right, budget)
    budget.spend(len(a[0]) * len(b[0]), a[1] * b[1])
    out: dict[int, int] = {}
    for x, wx in a[0].items():
        for y, wy in b[0].items():
            r = _apply(node.op, x, y)
            out[r] = out.get(r, 0) + wx * wy
    return out, a[1] * b[1]


def _apply(op: str, x: int, y: int) -> int:
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    return x // y


def expression_weights(expr: DiceExpression) -> Weights:
    """Weights of an expression's total; :class:`InputError` past MAX_WORK."""
    budget = _Budget(f"the dice expression {expr.text()}")
    if expr.tree is not None:
        return node_weights(expr.tree, budget)
    acc: Weights = ({expr.constant: 1}, 1)
    for t in expr.terms:
        acc = _convolve(acc, term_weights(t, budget), budget)
    return acc


def distribution(expr: DiceExpression) -> dict[int, Fraction]:
    """The exact distribution (total -> probability) of the bounded roll."""
    ways, total = expression_weights(expr)
    return {v: Fraction(w, total) for v, w in sorted(ways.items()) if w}


def truncated_mass(expr: DiceExpression) -> Fraction:
    """Probability that some exploding die reached :data:`~linguo_cli.core.dice.MAX_EXPLOSIONS`
    extra faces with its last face still matching (0 without ``e``)."""
    stays = Fraction(1)
    for t in expr.terms:
        if t.explode is None:
            continue
        ways, total = _before_explode(t)
        hit = Fraction(sum(w for v, w in ways.items() if matches(t.explode, v)), total)
        s = t.sides
        p = Fraction(sum(1 for f in range(1, s + 1) if matches(t.explode, f)), s)
        stays *= (1 - hit * p**dice_mod.MAX_EXPLOSIONS) ** t.count
    return 1 - stays


def _term_expected(term: DiceTerm) -> Fraction:
    if term.kept_count() == term.count:
        return term.count * _die_expected(term)
    ways, total = term_weights(replace(term, sign=1))
    return Fraction(sum(v * w for v, w in ways.items()), total)


def node_expected(node: Node) -> Fraction:
    """Exact expected value of a tree node (independent children)."""
    if isinstance(node, Num):
        return Fraction(node.value)
    if isinstance(node, DiceTerm):
        return node.sign * _term_expected(node)
    if isinstance(node, Neg):
        return -node_expected(node.operand)
    if node.op == "/":
        ways, total = node_weights(node, _Budget(node_text(node)))
        return Fraction(sum(v * w for v, w in ways.items()), total)
    a, b = node_expected(node.left), node_expected(node.right)
    return a + b if node.op == "+" else a - b if node.op == "-" else a * b


@lru_cache(maxsize=256)
def expected_value(expr: DiceExpression) -> Fraction:
    """Exact expected value of ``expr`` (rule T3 uses it)."""
    if expr.tree is not None:
        return node_expected(expr.tree)
    return expr.constant + sum((t.sign * _term_expected(t) for t in expr.terms), Fraction(0))


def _die_bounds(term: DiceTerm) -> tuple[int, int]:
    """Smallest and largest value of one die (explosions at their bound),
    without building an exploding die's distribution."""
    if term.explode is None:
        ways, _ = die_weights(term)
        return min(ways), max(ways)
    ways, _ = _before_explode(term)
    compare = term.explode
    lo, hi = 1, term.sides  # a last fresh face: it does not explode
    for _ in range(dice_mod.MAX_EXPLOSIONS - 1):
        lo = min(f + lo if matches(compare, f) else f for f in range(1, term.sides + 1))
        hi = max(f + hi if matches(compare, f) else f for f in range(1, term.sides + 1))
    return (min(v + lo if matches(compare, v) else v for v in ways),
            max(v + hi if matches(compare, v) else v for v in ways))


def node_bounds(node: Node) -> tuple[int, int]:
    """Smallest and largest value of a tree node (exploding dice bounded)."""
    if isinstance(node, Num):
        return node.value, node.value
    if isinstance(node, DiceTerm):
        lo, hi = _die_bounds(node)
        k = node.kept_count()
        return (k * lo, k * hi) if node.sign > 0 else (-k * hi, -k * lo)
    if isinstance(node, Neg):
        lo, hi = node_bounds(node.operand)
        return -hi, -lo
    a, b = node_bounds(node.left), node_bounds(node.right)
    if node.op == "+":
        return a[0] + b[0], a[1] + b[1]
    if node.op == "-":
        return a[0] - b[1], a[1] - b[0]
    corners = [_apply(node.op, x, y) for x in a for y in b]
    return min(corners), max(corners)


@lru_cache(maxsize=256)
def bounds(expr: DiceExpression) -> tuple[int, int]:
    """(minimum, maximum) of the expression's total."""
    if expr.tree is not None:
        return node_bounds(expr.tree)
    lo = hi = expr.constant
    for t in expr.terms:
        a, b = node_bounds(t)
        lo, hi = lo + a, hi + b
    return lo, hi


# ---------------------------------------------------------------------------
# Probabilities as exact text (fractions and percentages)


def fraction_text(value: Fraction | int) -> str:
    """An exact fraction as JSON text: ``"7/20"``, ``"8"``, ``"0"`` (as
    ``str(Fraction)``; cached with the percent text)."""
    if isinstance(value, int):
        return str(int(value))  # a bool too, as Fraction(True) -> "1"
    return _probability_texts(*value.as_integer_ratio())[0]


def percent_text(value: Fraction) -> str:
    """A probability as a percentage with two decimals, e.g. ``"35.25"``.
    Display only: rounded half to even from the exact value (the fraction
    stays the exact answer)."""
    return _percent(*Fraction(value).as_integer_ratio())


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
    fraction, percent = _probability_texts(*value.as_integer_ratio())
    return {"probability": fraction, "percent": percent}


# ---------------------------------------------------------------------------
# Distributions as fractions: ``dict[int, Fraction]`` (outcome -> probability,
# summing to exactly 1). Plain terms (``NdS``, ``NdSkhK``/``klK``) take the
# counting fast path below (its work estimate: ``_too_large``); every other
# term and the tree of the extended notation go through :func:`term_weights`
# and :func:`expression_weights` above.


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
    operators by :func:`term_weights`)."""
    if not term.plain:
        ways, total = term_weights(term)
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
        ways, total = expression_weights(expr)
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
    bound, see :func:`truncated_mass`).

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
