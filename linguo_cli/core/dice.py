"""Dice: where chance comes from, and the dice notation of damage and healing.

Chance is an input. Every die is asked of a :class:`DiceSource`:

* :class:`ScriptedDice` hands out given faces in order (``--rolls 17,4``,
  ``rolls: [17, 4]``); too few faces, faces left unused, or a face that does
  not fit the die asked for is a :class:`~linguo_cli.core.errors.DiceError`;
* :class:`SeededDice` draws from ``random.Random(seed)`` (replayable with the
  same seed on the same Python, but seeds are never portable: faces are);
* :class:`SystemDice` draws from the operating system's randomness.

Every source records the faces it handed out (:attr:`DiceSource.used`), so a
result can list them and feeding them back as scripted faces replays it.

Dice notation: the notation players type into dice bots (grammar in
:mod:`linguo_cli.core.dice_parse` and ``golden/README.md``, "Dice notation")::

    2d6+1   d20-2   d%   4d6kh3   4d6k3   2d20kl1   4d6dl1   5d6kh4kl2
    1d6ro1  2d6rr<3  1d6ra6  1d20e20  1d6e>4  8d6mi2  4d6ma5
    (1d4+1)*2   3d6/2 (floor)   -(1d4+1)   1d8[fire]

Sums and differences only give the flat :class:`DiceExpression` (terms and a
constant, the old grammar); ``*``, ``/`` and the parentheses they need keep a
tree of :class:`Num`, :class:`Neg`, :class:`BinOp` and :class:`DiceTerm`
nodes. Limits: at most :data:`MAX_COUNT` dice in a term, :data:`MAX_SIDES`
sides, :data:`MAX_TERMS` dice terms, :data:`MAX_EXPRESSION_LENGTH`
characters, constants up to :data:`MAX_CONSTANT`, plain keep terms up to
:data:`MAX_KEEP_WORK`, :data:`MAX_NESTING` levels, :data:`MAX_REROLLS`
rerolls (``rr``) and :data:`MAX_EXPLOSIONS` extra dice (``e``) per die,
:data:`MAX_ROLLED_FACES` faces per roll. Expected values are exact
:class:`~fractions.Fraction` values, never floats (exact distributions:
:mod:`linguo_cli.core.distribution`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING

from linguo_cli.core.dice_sources import (
    MAX_REROLLS,
    DiceSource,
    ScriptedDice,
    SeededDice,
    SystemDice,
    face_record,
    make_source,
)
from linguo_cli.core.errors import Diagnostic, InputError

if TYPE_CHECKING:  # imported where used: a one-off roll never needs it
    from fractions import Fraction

__all__ = [  # the sources live in dice_sources; this module is the dice API
    "MAX_REROLLS", "DiceSource", "ScriptedDice", "SeededDice", "SystemDice", "face_record",
    "make_source",
]

MAX_COUNT = 1000
MAX_SIDES = 1000
MAX_TERMS = 50
MAX_CONSTANT = 1_000_000
MAX_EXPRESSION_LENGTH = 200
#: Largest ``sides x min(kept, dropped)`` of a keep term (khN/klN): its exact
#: expected value takes that many big-integer steps.
MAX_KEEP_WORK = 20_000


# ---------------------------------------------------------------------------
# Dice notation

#: ``e``: at most this many extra dice per die; a face that would explode past
#: it counts but does not explode (exact distributions report that mass).
MAX_EXPLOSIONS = 20
#: Largest number of faces one evaluation can consume (every die with its
#: rerolls and explosions at their bounds); plain dice never reach it.
MAX_ROLLED_FACES = MAX_TERMS * MAX_COUNT
#: Deepest nesting of parentheses and unary minus.
MAX_NESTING = 20
#: Longest annotation (``[fire]``) in characters.
MAX_LABEL = 30

_COMPARE_TEXT = {"=": "", "<": "<", ">": ">"}


def matches(compare: tuple[str, int], value: int) -> bool:
    """Whether ``value`` satisfies a comparison ``("=", 1)`` (``1``), ``("<", 3)``
    (``<3``: strictly less) or ``(">", 5)`` (``>5``: strictly greater)."""
    op, n = compare
    return value == n if op == "=" else (value < n if op == "<" else value > n)


def _compare_text(compare: tuple[str, int]) -> str:
    return f"{_COMPARE_TEXT[compare[0]]}{compare[1]}"


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` faces, added (``sign`` +1) or subtracted (-1).

    ``keep`` is ``None`` or ``("h"|"l", n)``: keep the n highest or lowest faces
    (the old grammar's only selector). The extended notation adds, applied to
    each die in this order: ``reroll`` ``("ro"|"rr"|"ra", compare)``,
    ``explode`` (a compare), ``minimum``/``maximum`` (``miN``/``maN``), then
    ``select``: a chain of ``("kh"|"kl"|"dh"|"dl", n)`` over the dice values
    (used instead of ``keep`` when the chain is not a single kh/kl).
    ``label`` is an annotation (``[fire]``). A compare is ``("=", n)``,
    ``("<", n)`` or ``(">", n)``, strict.
    """

    sign: int
    count: int
    sides: int
    keep: tuple[str, int] | None = None
    reroll: tuple[str, tuple[str, int]] | None = None
    explode: tuple[str, int] | None = None
    minimum: int | None = None
    maximum: int | None = None
    select: tuple[tuple[str, int], ...] = ()
    label: str | None = None

    @property
    def plain(self) -> bool:
        """True for the old grammar's terms (``NdS`` with at most one kh/kl)."""
        return (self.reroll is None and self.explode is None and self.minimum is None
                and self.maximum is None and not self.select)

    def selectors(self) -> tuple[tuple[str, int], ...]:
        """The keep/drop chain, ``keep`` included: e.g. ``(("kh", 3),)``."""
        return (("k" + self.keep[0], self.keep[1]),) if self.keep else self.select

    def window(self) -> tuple[int, int]:
        """The kept ranks ``[low, high)`` of the dice sorted by value ascending."""
        low, high = 0, self.count
        for op, n in self.selectors():
            if op == "kh":
                low = high - n
            elif op == "kl":
                high = low + n
            elif op == "dh":
                high -= n
            else:
                low += n
        return low, high

    def kept_count(self) -> int:
        """How many dice count towards the total."""
        low, high = self.window()
        return high - low

    def text(self) -> str:
        """Canonical notation of the term without its sign, e.g. ``4d6ro1kh3``."""
        out = f"{self.count}d{self.sides}"
        if self.reroll:
            out += self.reroll[0] + _compare_text(self.reroll[1])
        if self.explode:
            out += "e" + _compare_text(self.explode)
        if self.minimum is not None:
            out += f"mi{self.minimum}"
        if self.maximum is not None:
            out += f"ma{self.maximum}"
        out += "".join(f"{op}{n}" for op, n in self.selectors())
        return out + (f"[{self.label}]" if self.label else "")

    def faces_bound(self) -> int:
        """Most faces one roll of this term can consume."""
        extra = 0
        if self.reroll:
            extra += MAX_REROLLS if self.reroll[0] == "rr" else 1
        if self.explode:
            extra += MAX_EXPLOSIONS
        return self.count * (1 + extra)


# Tree nodes of the extended notation (parentheses, * and /).
@dataclass(frozen=True, slots=True)
class Num:
    """An integer constant."""

    value: int


@dataclass(frozen=True, slots=True)
class Neg:
    """Unary minus."""

    operand: Node


@dataclass(frozen=True, slots=True)
class BinOp:
    """``left op right`` with ``op`` one of ``+ - * /`` (``/``: floor division,
    rounding toward negative infinity)."""

    op: str
    left: Node
    right: Node


Node = Num | Neg | BinOp | DiceTerm
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def node_text(node: Node) -> str:
    """Canonical text of a tree node, with the parentheses precedence needs."""
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, DiceTerm):
        return ("-" if node.sign < 0 else "") + node.text()
    if isinstance(node, Neg):
        inner = node_text(node.operand)
        return f"-({inner})" if isinstance(node.operand, (BinOp, Neg)) else f"-{inner}"
    prec = _PRECEDENCE[node.op]
    left, right = node_text(node.left), node_text(node.right)
    if isinstance(node.left, BinOp) and _PRECEDENCE[node.left.op] < prec:
        left = f"({left})"
    if isinstance(node.right, BinOp) and _PRECEDENCE[node.right.op] <= prec:
        right = f"({right})"
    elif isinstance(node.right, (Neg, DiceTerm)) and right.startswith("-"):
        right = f"({right})"
    return f"{left}{node.op}{right}"


def node_dice(node: Node) -> list[DiceTerm]:
    """Every dice term of a tree, left to right (the order they are rolled)."""
    if isinstance(node, DiceTerm):
        return [node]
    if isinstance(node, Neg):
        return node_dice(node.operand)
    if isinstance(node, BinOp):
        return node_dice(node.left) + node_dice(node.right)
    return []


def _double_node(node: Node) -> Node:
    if isinstance(node, DiceTerm):
        return BinOp("+", node, node)
    if isinstance(node, Neg):
        return Neg(_double_node(node.operand))
    if isinstance(node, BinOp):
        right = node.right if node.op == "/" else _double_node(node.right)
        return BinOp(node.op, _double_node(node.left), right)
    return node


@dataclass(frozen=True, slots=True)
class DiceExpression:
    """A parsed dice expression: dice terms plus one integer constant (the
    flat grammar: sums and differences only), or, for the extended notation
    with parentheses, ``*`` or ``/``, a ``tree`` (then ``terms`` lists its dice
    terms left to right and ``constant`` is 0)."""

    terms: tuple[DiceTerm, ...]
    constant: int = 0
    tree: Node | None = None

    def text(self) -> str:
        """Canonical notation, e.g. ``2d6+1``, ``4d6kh3-2`` or ``(1d4+1)*2``."""
        if self.tree is not None:
            return node_text(self.tree)
        parts: list[str] = []
        for t in self.terms:
            sign = "-" if t.sign < 0 else ("+" if parts else "")
            parts.append(sign + t.text())
        if self.constant or not parts:
            sign = "-" if self.constant < 0 else ("+" if parts else "")
            parts.append(f"{sign}{abs(self.constant)}")
        return "".join(parts)

    def doubled(self) -> DiceExpression:
        """The critical-hit expression (rule T5 rev. 2): every dice term is
        rolled a second time as its own group with the same sign, right after
        it; the constant is unchanged. ``4d6kh3`` -> ``4d6kh3+4d6kh3`` (not
        ``8d6kh6``), ``3d6-1d4+1`` -> ``3d6+3d6-1d4-1d4+1``. So the expected
        value of the dice exactly doubles, and the dice are rolled in the
        order of the doubled expression as written. In the extended notation
        every dice node is doubled in place: ``(1d4+1)*2`` ->
        ``(1d4+1d4+1)*2``; constants, multipliers and divisors are not (dice
        in a divisor stay as they are: ``2d6/1d2`` -> ``(2d6+2d6)/1d2``)."""
        if self.tree is not None:
            tree = _double_node(self.tree)
            return DiceExpression(tuple(node_dice(tree)), 0, tree)
        return replace(self, terms=tuple(t for t in self.terms for _ in range(2)))

    def labels(self) -> list[str]:
        """The distinct annotations (``[fire]``) in order of appearance."""
        out: list[str] = []
        for t in self.terms:
            if t.label and t.label not in out:
                out.append(t.label)
        return out

    @property
    def plain(self) -> bool:
        """True for the old grammar (flat, every term plain)."""
        return self.tree is None and all(t.plain for t in self.terms)

    def expected_value(self) -> Fraction:
        """The exact expected value of the expression (rule T3 uses it); for
        exploding dice the closed form without the depth bound. Raises
        :class:`InputError` when it is too large to compute exactly."""
        if not self.plain:
            from linguo_cli.core import distribution as dice_exact

            return dice_exact.expected_value(self)
        from fractions import Fraction

        total = Fraction(self.constant)
        for t in self.terms:
            total += t.sign * _term_expected(t)
        return total

    def minimum(self) -> int:
        """The smallest total the expression can give."""
        if not self.plain:
            from linguo_cli.core import distribution as dice_exact

            return dice_exact.bounds(self)[0]
        return self.constant + sum(
            (_kept(t) if t.sign > 0 else -_kept(t) * t.sides) for t in self.terms
        )

    def maximum(self) -> int:
        """The largest total the expression can give (exploding dice at their
        depth bound :data:`MAX_EXPLOSIONS`)."""
        if not self.plain:
            from linguo_cli.core import distribution as dice_exact

            return dice_exact.bounds(self)[1]
        return self.constant + sum(
            (_kept(t) * t.sides if t.sign > 0 else -_kept(t)) for t in self.terms
        )

    def dice_count(self) -> int:
        """How many dice one evaluation rolls (before rerolls and explosions)."""
        return sum(t.count for t in self.terms)


def _as_node(expr: DiceExpression) -> Node:
    if expr.tree is not None:
        return expr.tree
    node: Node | None = None
    for t in expr.terms:
        part: Node = replace(t, sign=1) if t.sign > 0 else Neg(replace(t, sign=1))
        node = part if node is None else BinOp("+", node, part)
    if node is None:
        return Num(expr.constant)
    if expr.constant:
        node = BinOp("+" if expr.constant > 0 else "-", node, Num(abs(expr.constant)))
    return node


def added(base: DiceExpression, extra: DiceExpression, times: int) -> DiceExpression:
    """``base + extra + ... + extra`` (``times`` copies) as one extended
    expression tree (used for upcast dice when either side has a tree)."""
    node = _as_node(base)
    for _ in range(times):
        node = BinOp("+", node, _as_node(extra))
    return DiceExpression(tuple(node_dice(node)), 0, node)


def _kept(t: DiceTerm) -> int:
    return t.keep[1] if t.keep else t.count


def _term_expected(t: DiceTerm) -> Fraction:
    from fractions import Fraction

    if t.keep is None or t.keep[1] >= t.count:
        return Fraction(t.count * (t.sides + 1), 2)
    n, k, s = t.count, t.keep[1], t.sides
    if t.keep[0] == "l":
        # k lowest of faces f equals s+1 - (k highest of faces s+1-f)
        return k * (s + 1) - _keep_highest_expected(n, k, s)
    return _keep_highest_expected(n, k, s)


def keep_work(t: DiceTerm) -> int:
    """Cost of the exact expected value of a keep term: ``sides x min(k, n - k)``
    big-integer steps (0 without keep); see :data:`MAX_KEEP_WORK`."""
    if t.keep is None or t.keep[1] >= t.count:
        return 0
    return t.sides * min(t.keep[1], t.count - t.keep[1])


def _keep_highest_expected(n: int, k: int, s: int) -> Fraction:
    """Exact E[sum of the k highest of n dice with s faces], 0 < k < n.

    Each kept die shows at least 1; for each threshold x = 2..s the number of
    kept dice showing >= x is min(k, C) with C ~ Binomial(n, a/s), a = s-x+1.
    In integers (scaled by s^n, b = x-1):
    s^n E[min(k, C)] = k s^n - sum_{j<k} (k-j) C(n,j) a^j b^(n-j)
                     = n a s^(n-1) - sum_{j>k} (j-k) C(n,j) a^j b^(n-j);
    the shorter sum is used.
    """
    sn = s**n
    low = k <= n - k
    first, last = (0, k - 1) if low else (k + 1, n)
    combs = [comb(n, j) for j in range(first, last + 1)]
    total = 0
    for x in range(2, s + 1):
        a, b = s - x + 1, x - 1
        term = a**first * b ** (n - first)  # a^j b^(n-j), updated as j grows
        acc = 0
        for i, j in enumerate(range(first, last + 1)):
            acc += abs(k - j) * combs[i] * term
            term = term * a // b
        total += (k * sn - acc) if low else (n * a * s ** (n - 1) - acc)
    from fractions import Fraction

    return Fraction(total, sn) + k


def parse(text: str, *, field: str = "dice") -> DiceExpression:
    """Parse dice notation; raises :class:`InputError` (exit 3) naming the column.

    ``field`` names where the text came from (a field path or option name)
    so the error can point at it: ``dice: column 4: expected a number of sides``.
    The grammar (EBNF in ``golden/README.md``, "Dice notation") is in
    :mod:`linguo_cli.core.dice_parse`. Parsed expressions are frozen and
    remembered, so a batch that names the same dice again does not parse them
    again.
    """
    if not isinstance(text, str):
        raise notation_error(field, 1, "dice notation must be a string")
    return _parse(text, field)


@lru_cache(maxsize=1024)
def _parse(text: str, field: str) -> DiceExpression:
    from linguo_cli.core.dice_parse import parse_expression

    return parse_expression(text, field)


def notation_error(field: str, column: int, message: str) -> InputError:
    """The exit-3 error of dice notation: ``<field>: column N: message``."""
    return InputError(Diagnostic("dice notation", field, f"column {column}: {message}"))


@dataclass(frozen=True, slots=True)
class TermRoll:
    """The faces rolled for one dice term: one record per face (in
    consumption order, see :func:`face_record`) and each die's value and
    whether it was kept."""

    term: DiceTerm
    records: tuple[dict[str, object], ...]
    values: tuple[int, ...]
    kept: tuple[bool, ...]

    @property
    def subtotal(self) -> int:
        """Signed sum of the kept dice values."""
        return self.term.sign * sum(v for v, k in zip(self.values, self.kept, strict=True) if k)


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """One evaluation of a :class:`DiceExpression`: every face, kept or dropped."""

    expression: DiceExpression
    rolls: tuple[TermRoll, ...] = field(default=())

    @property
    def total(self) -> int:
        """Flat: sum of kept dice (signed) plus the constant; extended: the
        tree evaluated with floor division. May be negative."""
        if self.expression.tree is not None:
            values = iter(r.subtotal for r in self.rolls)
            return _evaluate(self.expression.tree, values)
        return self.expression.constant + sum(r.subtotal for r in self.rolls)

    def face_records(self) -> list[dict[str, object]]:
        """JSON records of every face in consumption order."""
        return [dict(rec) for r in self.rolls for rec in r.records]


def _evaluate(node: Node, values: Iterator[int]) -> int:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, DiceTerm):
        return next(values)
    if isinstance(node, Neg):
        return -_evaluate(node.operand, values)
    a = _evaluate(node.left, values)
    b = _evaluate(node.right, values)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    return a // b  # divisors never hold 0 (refused when parsed)


def roll(expression: DiceExpression, dice: DiceSource) -> DiceRoll:
    """Roll ``expression`` with ``dice``: terms left to right, each term's dice
    in order, each die's rerolls and explosions right after it; with
    selectors the highest/lowest dice are kept (ties: the earlier die is kept
    first). Raises :class:`DiceError` when scripted faces do not fit."""
    return DiceRoll(expression, tuple(_roll_term(t, dice) for t in expression.terms))


def _roll_term(t: DiceTerm, dice: DiceSource) -> TermRoll:
    dies = [_roll_die(t, dice) for _ in range(t.count)]
    values = tuple(v for v, _ in dies)
    kept = select_kept(values, t.selectors())
    records: list[dict[str, object]] = []
    for (_, recs), k in zip(dies, kept, strict=True):
        for rec in recs:
            if not k:
                rec["kept"] = False
            records.append(rec)
    return TermRoll(t, tuple(records), values, kept)


def select_kept(values: tuple[int, ...], chain: tuple[tuple[str, int], ...]) -> tuple[bool, ...]:
    """Apply a keep/drop chain to dice values: ``kh``/``dl`` keep the highest,
    ``kl``/``dh`` the lowest, among the dice still kept; ties keep the earlier
    die first. Returns one kept flag per die."""
    kept = list(range(len(values)))
    for op, n in chain:
        m = len(kept)
        count = n if op in ("kh", "kl") else m - n
        if op in ("kh", "dl"):
            order = sorted(kept, key=lambda i: (-values[i], i))
        else:
            order = sorted(kept, key=lambda i: (values[i], i))
        kept = sorted(order[:count])
    chosen = set(kept)
    return tuple(i in chosen for i in range(len(values)))


def _roll_die(t: DiceTerm, dice: DiceSource) -> tuple[int, list[dict[str, object]]]:
    """One die with its rerolls and explosions: (value, face records)."""
    s = t.sides
    face = dice.roll(s)
    recs = [face_record(s, face)]
    value = face
    if t.reroll is not None:
        value = _reroll(t, dice, recs, value)
    if t.explode is not None and matches(t.explode, value):
        for depth in range(1, MAX_EXPLOSIONS + 1):
            recs[-1]["exploded"] = True
            face = dice.roll(s)
            recs.append(face_record(s, face) | {"extra": True})
            value += face
            if not matches(t.explode, face):
                break
            if depth == MAX_EXPLOSIONS:
                recs[-1]["explosion_limit"] = True
    clamped = value
    if t.minimum is not None:
        clamped = max(clamped, t.minimum)
    if t.maximum is not None:
        clamped = min(clamped, t.maximum)
    if clamped != value:
        first = next(r for r in recs if r["kept"])
        first["counts_as"] = int(str(first["face"])) + clamped - value
    return clamped, recs


def _reroll(t: DiceTerm, dice: DiceSource, recs: list[dict[str, object]], value: int) -> int:
    assert t.reroll is not None
    op, compare = t.reroll
    s = t.sides
    if not matches(compare, value):
        return value
    if op == "ra":
        recs[-1]["rerolled"] = True
        face = dice.roll(s)
        recs.append(face_record(s, face) | {"extra": True})
        return value + face
    limit = 1 if op == "ro" else MAX_REROLLS
    for depth in range(1, limit + 1):
        recs[-1]["kept"] = False
        recs[-1]["rerolled"] = True
        if op == "rr" and depth == limit:
            allowed = [f for f in range(1, s + 1) if not matches(compare, f)]
            value = dice.roll_among(s, allowed)
        else:
            value = dice.roll(s)
        recs.append(face_record(s, value))
        if op == "ro" or not matches(compare, value):
            break
    return value
