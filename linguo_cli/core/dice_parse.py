"""The dice notation parser (grammar in ``golden/README.md``, "Dice notation").

EBNF (whitespace allowed between tokens; letters case-insensitive)::

    expression = sum ;
    sum        = product , { ( "+" | "-" ) , product } ;
    product    = unary , { ( "*" | "/" ) , unary } ;
    unary      = "-" , unary | atom ;
    atom       = INT | dice | "(" , sum , ")" ;
    dice       = [ INT ] , "d" , ( INT | "%" ) , [ reroll ] , [ explode ] ,
                 { clamp } , { select } , [ annotation ] ;
    reroll     = ( "ro" | "rr" | "ra" ) , compare ;
    explode    = "e" , compare ;
    clamp      = ( "mi" | "ma" ) , INT ;
    select     = ( "kh" | "kl" | "k" | "dh" | "dl" ) , INT ;
    compare    = [ "<" | ">" ] , INT ;
    annotation = "[" , LABEL , "]" ;

Operators on one dice term must come in the order above (reroll, explode,
clamps, selectors). Expressions with only ``+``/``-`` (parentheses around
them included) become the flat :class:`~linguo_cli.core.dice.DiceExpression`
(terms and a constant, the old grammar); ``*``, ``/`` or a parenthesis that
a product needs keep a tree. Refused, exit 3 naming the column: success
counting (``10d10>7``), ``p`` forms, ``cs``/``cf`` markers, a reroll or an
explosion that can never stop (``1d1rr1``, ``1d20rr<21``, ``1d6e>0``), a
divisor that can be 0, ``e`` with clamps or selectors on the same term, ``e``
under ``/``, and anything past the limits of :mod:`linguo_cli.core.dice`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from linguo_cli.core import dice as d
from linguo_cli.core.dice import BinOp, DiceExpression, DiceTerm, Neg, Node, Num, notation_error

_INT = re.compile(r"\d+")
_LABEL = re.compile(r"\[([A-Za-z0-9 _\-]{1," + str(d.MAX_LABEL) + r"})\]")
_OUT_OF_SCOPE = {
    "cs": "critical-success markers (cs) are not supported",
    "cf": "critical-failure markers (cf) are not supported",
    "p": "p forms (drop by selector) are not supported; use dh or dl",
}


class _Parser:
    """Recursive descent over ``text``; every error names its 1-based column."""

    def __init__(self, text: str, field: str) -> None:
        self.text = text
        self.field = field
        self.pos = 0
        self.depth = 0
        self.dice_terms = 0
        self.faces = 0

    # -- helpers -----------------------------------------------------------
    def error(self, message: str, pos: int | None = None) -> Exception:
        return notation_error(self.field, (self.pos if pos is None else pos) + 1, message)

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self, word: str) -> bool:
        if self.text[self.pos:self.pos + len(word)].lower() == word:
            self.pos += len(word)
            return True
        return False

    def integer(self, what: str, limit: int, at: int | None = None) -> int:
        m = _INT.match(self.text, self.pos)
        if m is None:
            found = repr(self.text[self.pos]) if self.pos < len(self.text) else "the end"
            raise self.error(f"expected {what}, found {found}", at)
        if len(m.group()) > 9 or int(m.group()) > limit:
            raise self.error(f"{what} above {limit}")
        self.pos = m.end()
        return int(m.group())

    # -- grammar -----------------------------------------------------------
    def sum(self) -> Node:
        node = self.product()
        while self.peek() in ("+", "-"):
            op = self.text[self.pos]
            self.pos += 1
            node = BinOp(op, node, self.operand(self.product))
        return node

    def operand(self, rule: object) -> Node:
        if self.peek() == "":
            raise self.error("expected a term such as 2d6 or 3 at the end")
        assert callable(rule)
        node: Node = rule()
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.peek() in ("*", "/"):
            op = self.text[self.pos]
            self.pos += 1
            node = BinOp(op, node, self.operand(self.unary))
        return node

    def nest(self) -> None:
        self.depth += 1
        if self.depth > d.MAX_NESTING:
            raise self.error(f"more than {d.MAX_NESTING} nested parentheses or signs")

    def unary(self) -> Node:
        c = self.peek()
        if c == "-":
            self.pos += 1
            self.nest()
            node = Neg(self.operand(self.unary))
            self.depth -= 1
            return node
        return self.atom()

    def atom(self) -> Node:
        c = self.peek()
        start = self.pos
        if c == "(":
            self.pos += 1
            self.nest()
            node = self.operand(self.sum)
            if self.peek() != ")":
                raise self.error("expected ')'" + ("" if self.peek() else " at the end"))
            self.pos += 1
            self.depth -= 1
            return node
        if c == "" :
            raise self.error("expected a term such as 2d6 or 3 at the end")
        if not (c.isdigit() or c in "dD"):
            raise self.error(f"expected a term such as 2d6 or 3, found {c!r}")
        count: int | None = None
        if c.isdigit():
            count = self.integer("constant", d.MAX_CONSTANT)
        if self.pos < len(self.text) and self.text[self.pos] in "dD":
            self.pos += 1
            return self.dice(start, count)
        assert count is not None
        return Num(count)

    def dice(self, start: int, count: int | None) -> DiceTerm:
        if self.take("%"):
            sides = 100
        elif self.pos < len(self.text) and self.text[self.pos].isdigit():
            sides = self.integer("a number of sides", 10**9)
        else:
            raise self.error("expected a number of sides", self.pos - 1)
        n = 1 if count is None else count
        if not 1 <= n <= d.MAX_COUNT:
            raise self.error(f"dice count must be 1..{d.MAX_COUNT}, got {n}", start)
        if not 1 <= sides <= d.MAX_SIDES:
            raise self.error(f"dice sides must be 1..{d.MAX_SIDES}, got {sides}", start)
        term = DiceTerm(1, n, sides)
        term = self.modifiers(term, start)
        self.dice_terms += 1
        if self.dice_terms > d.MAX_TERMS:
            raise self.error(f"more than {d.MAX_TERMS} dice terms", start)
        self.faces += term.faces_bound()
        if self.faces > d.MAX_ROLLED_FACES:
            raise self.error(
                f"the expression can consume more than {d.MAX_ROLLED_FACES} faces "
                f"(rerolls at {d.MAX_REROLLS}, explosions at {d.MAX_EXPLOSIONS} per die)", start)
        if term.plain and d.keep_work(term) > d.MAX_KEEP_WORK:
            raise self.error(
                f"{term.text()} is too large to keep dice from exactly: sides x "
                f"min(kept, dropped) must be at most {d.MAX_KEEP_WORK}, got {d.keep_work(term)}",
                start)
        return term

    def compare(self, at: int) -> tuple[str, int]:
        op = "="
        if self.pos < len(self.text) and self.text[self.pos] in "<>":
            op = self.text[self.pos]
            self.pos += 1
        return op, self.integer("a face to compare with", d.MAX_CONSTANT, at)

    def modifiers(self, term: DiceTerm, start: int) -> DiceTerm:  # noqa: C901
        stage = 0  # 1 reroll, 2 explode, 3 clamps, 4 selectors
        chain: list[tuple[str, int]] = []
        while self.pos < len(self.text):
            at = self.pos
            low = self.text[at:at + 2].lower()
            if low in ("ro", "rr", "ra"):
                self.order(stage, 1, at, "a reroll (ro, rr, ra)")
                self.pos += 2
                term = self.reroll(term, low, at)
                stage = 1
            elif low in ("cs", "cf"):
                raise self.error(_OUT_OF_SCOPE[low] + " (out of scope)", at)
            elif low in ("mi", "ma"):
                self.order(stage, 3, at, f"{low}")
                self.pos += 2
                term = self.clamp(term, low, at)
                stage = 3
            elif low in ("kh", "kl", "dh", "dl") or low[:1] == "k":
                op = low if low in ("kh", "kl", "dh", "dl") else "kh"
                self.pos += 2 if low in ("kh", "kl", "dh", "dl") else 1
                chain.append(self.selector(term, chain, op, start, at))
                stage = 4
            elif low[:1] == "e":
                self.order(stage, 2, at, "an explosion (e)")
                self.pos += 1
                term = self.exploding(term, at)
                stage = 2
            elif low[:1] == "p":
                raise self.error(_OUT_OF_SCOPE["p"] + " (out of scope)", at)
            elif low[:1] in "<>=":
                raise self.error(
                    "success counting (such as 10d10>7) is out of scope: tools disagree on "
                    "its meaning", at)
            else:
                break
        term = self.finish_chain(term, chain)
        self.skip()
        m = _LABEL.match(self.text, self.pos)
        if m:
            term = replace(term, label=m.group(1).strip())
            self.pos = m.end()
        elif self.pos < len(self.text) and self.text[self.pos] == "[":
            raise self.error(f"an annotation is [label] with up to {d.MAX_LABEL} letters, "
                             "digits, spaces, '_' or '-'")
        return term

    def order(self, stage: int, this: int, at: int, what: str) -> None:
        if stage >= this and not (this == 3 and stage == 3):
            raise self.error(f"{what} must come before explode, mi/ma and keep/drop, and "
                             "only once (order: ro/rr/ra, e, mi/ma, keep/drop)", at)

    def reroll(self, term: DiceTerm, op: str, at: int) -> DiceTerm:
        compare = self.compare(at)
        faces = [f for f in range(1, term.sides + 1) if d.matches(compare, f)]
        if op == "rr" and len(faces) == term.sides:
            raise self.error(
                f"{op}{d._compare_text(compare)} on a d{term.sides} can never stop: every face "
                "is rerolled", at)
        return replace(term, reroll=(op, compare))

    def exploding(self, term: DiceTerm, at: int) -> DiceTerm:
        compare = self.compare(at)
        faces = [f for f in range(1, term.sides + 1) if d.matches(compare, f)]
        if len(faces) == term.sides:
            raise self.error(
                f"e{d._compare_text(compare)} on a d{term.sides} can never stop: every face "
                "explodes", at)
        return replace(term, explode=compare)

    def clamp(self, term: DiceTerm, op: str, at: int) -> DiceTerm:
        if term.explode is not None:
            raise self.error(f"{op} on exploding dice is not supported (no closed-form "
                             "expected value)", at)
        key = "minimum" if op == "mi" else "maximum"
        if getattr(term, key) is not None:
            raise self.error(f"{op} given twice", at)
        value = self.integer(f"a value after {op}", d.MAX_CONSTANT, at)
        term = replace(term, minimum=value) if op == "mi" else replace(term, maximum=value)
        if term.minimum is not None and term.maximum is not None and term.minimum > term.maximum:
            raise self.error(f"mi{term.minimum} is above ma{term.maximum}", at)
        return term

    def selector(self, term: DiceTerm, chain: list[tuple[str, int]], op: str,
                 start: int, at: int) -> tuple[str, int]:
        if term.explode is not None:
            raise self.error("keep/drop of exploding dice is not supported (no closed-form "
                             "expected value)", at)
        n = self.integer(f"a number of dice after {op}", d.MAX_COUNT, at)
        probe = DiceTerm(1, term.count, term.sides, select=tuple(chain))
        left = probe.kept_count()
        if op in ("kh", "kl") and not 1 <= n <= left:
            raise self.error(f"keep count must be 1..{left} for {left} dice, got {n}", start)
        if op in ("dh", "dl") and not 1 <= n < left:
            raise self.error(f"drop count must be 1..{left - 1} for {left} dice, got {n}", start)
        return op, n

    def finish_chain(self, term: DiceTerm, chain: list[tuple[str, int]]) -> DiceTerm:
        if not chain:
            return term
        if len(chain) == 1 and chain[0][0] in ("kh", "kl"):
            return replace(term, keep=(chain[0][0][1], chain[0][1]))
        return replace(term, select=tuple(chain))


def parse_expression(text: str, field: str) -> DiceExpression:
    """Parse ``text`` (already a string) into a :class:`DiceExpression`;
    raises :class:`~linguo_cli.core.errors.InputError` naming the column."""
    if len(text) > d.MAX_EXPRESSION_LENGTH:
        raise notation_error(field, d.MAX_EXPRESSION_LENGTH + 1,
                             f"dice notation longer than {d.MAX_EXPRESSION_LENGTH} characters")
    p = _Parser(text, field)
    if p.peek() == "":
        raise p.error("expected a term such as 2d6 or 3 at the end")
    if p.peek() == "+":
        raise p.error("expected a term such as 2d6 or 3, found '+'")
    tree = p.sum()
    if p.peek() != "":
        raise p.error(f"expected '+' or '-', found {p.peek()!r}")
    _check_divisors(tree, field, text)
    flat = _flatten(tree, 1)
    if flat is not None:
        terms, constant = flat
        return DiceExpression(tuple(terms), constant)
    return DiceExpression(tuple(d.node_dice(tree)), 0, tree)


def _flatten(node: Node, sign: int) -> tuple[list[DiceTerm], int] | None:
    """Terms and constant of a tree of only ``+``, ``-`` and unary minus."""
    if isinstance(node, Num):
        return [], sign * node.value
    if isinstance(node, DiceTerm):
        return [replace(node, sign=sign)], 0
    if isinstance(node, Neg):
        return _flatten(node.operand, -sign)
    if node.op not in ("+", "-"):
        return None
    left = _flatten(node.left, sign)
    right = _flatten(node.right, sign if node.op == "+" else -sign)
    if left is None or right is None:
        return None
    return left[0] + right[0], left[1] + right[1]


def _check_divisors(node: Node, field: str, text: str) -> None:
    """A divisor that can be 0 is refused; so is an exploding die under ``/``."""
    if isinstance(node, Neg):
        _check_divisors(node.operand, field, text)
    elif isinstance(node, BinOp):
        _check_divisors(node.left, field, text)
        _check_divisors(node.right, field, text)
        if node.op == "/":
            from linguo_cli.core.distribution import node_bounds

            low, high = node_bounds(node.right)
            col = text.find("/") + 1
            if low <= 0 <= high:
                raise notation_error(field, col, f"the divisor {d.node_text(node.right)} can "
                                                 "be 0")
            if any(t.explode for t in d.node_dice(node)):
                raise notation_error(field, col, "exploding dice under '/' are not supported "
                                                 "(no closed-form expected value)")
