"""The mutants of a module: a closed set of operators over its ``ast``.

Every site of a small, closed set of operators gives one mutant: a comparison
swapped for its neighbour or negation (``<``/``<=``, ``==``/``!=``,
``in``/``not in``, ``is``/``is not``), an arithmetic operator swapped
(``+``/``-``, ``*``/``//``, ``//``/``/``, ``%``/``*``), ``and``/``or``, a
``not`` removed, an ``if``/``while``/ternary condition negated, an integer
constant ``n`` made ``n + 1``, ``True``/``False`` swapped. Strings,
docstrings and annotations are never mutated; a line holding
``pragma: no mutate`` is skipped.

A mutant's id is ``module:line:col:operator`` (e.g. ``dice:323:19:Lt->LtE``,
``#N`` appended for the N-th operator of a chained comparison); its
line-text id ``module:@<stripped source line>:col:operator`` names the same
mutant by the text of its line, so it survives lines moving above it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

_CMP_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_BIN_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Div,
    ast.Div: ast.FloorDiv, ast.Mod: ast.Mult,
}


@dataclass(frozen=True)
class Mutant:
    """One mutation: ``module:line:col:op`` names it; ``index`` orders the
    sites of one (line, col, op) when a node holds several (comparisons)."""

    module: str
    line: int
    col: int
    op: str
    index: int = 0

    @property
    def op_id(self) -> str:
        """The operator with its ``#index`` suffix (none for index 0)."""
        return f"{self.op}#{self.index}" if self.index else self.op

    @property
    def id(self) -> str:
        return f"{self.module}:{self.line}:{self.col}:{self.op_id}"

    def text_id(self, source_lines: list[str]) -> str:
        """The line-text form of the id: ``module:@<stripped line>:col:op``."""
        return f"{self.module}:@{source_lines[self.line - 1].strip()}:{self.col}:{self.op_id}"


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """ids of nodes never mutated: docstrings, annotations, f-string parts."""
    skip: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(
                    getattr(body[0], "value", None), ast.Constant):
                mark(body[0])
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for d in node.decorator_list:
                mark(d)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            mark(node.returns)
            for a in [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs,
                      node.args.vararg, node.args.kwarg]:
                if a is not None:
                    mark(a.annotation)
        elif isinstance(node, ast.AnnAssign):
            mark(node.annotation)
        elif isinstance(node, ast.JoinedStr):
            mark(node)
    return skip


def _sites(node: ast.AST) -> Iterator[tuple[str, int]]:
    """The mutation operators that apply to ``node``: (name, index)."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            swap = _CMP_SWAPS.get(type(op))
            if swap is not None:
                yield f"{type(op).__name__}->{swap.__name__}", i
    elif isinstance(node, ast.BinOp):
        swap2 = _BIN_SWAPS.get(type(node.op))
        if swap2 is not None:
            yield f"{type(node.op).__name__}->{swap2.__name__}", 0
    elif isinstance(node, ast.AugAssign):
        swap3 = _BIN_SWAPS.get(type(node.op))
        if swap3 is not None:
            yield f"Aug{type(node.op).__name__}->{swap3.__name__}", 0
    elif isinstance(node, ast.BoolOp):
        yield ("And->Or" if isinstance(node.op, ast.And) else "Or->And"), 0
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "NotRemoved", 0
    elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
        yield "CondNegated", 0
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            yield f"{node.value}->{not node.value}", 0
        elif isinstance(node.value, int):
            yield f"{node.value}->{node.value + 1}", 0


def _position(node: ast.AST) -> tuple[int, int]:
    if isinstance(node, (ast.If, ast.While)):
        node = node.test
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def mutants_of(module: str, source: str) -> list[Mutant]:
    """Every mutant of ``source`` in source order (line, col, op, index)."""
    tree = ast.parse(source)
    skip = _skipped_nodes(tree)
    lines = source.splitlines()
    out: list[Mutant] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        line, col = _position(node)
        if not line or "pragma: no mutate" in lines[line - 1]:
            continue
        for op, index in _sites(node):
            out.append(Mutant(module, line, col, op, index))
    return sorted(set(out), key=lambda m: (m.line, m.col, m.op, m.index))


class _Apply(ast.NodeTransformer):
    def __init__(self, mutant: Mutant) -> None:
        self.m = mutant
        self.done = False

    def _hit(self, node: ast.AST) -> bool:
        return not self.done and _position(node) == (self.m.line, self.m.col) and any(
            op == self.m.op and i == self.m.index for op, i in _sites(node))

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if not self._hit(node):
            return node
        self.done = True
        if isinstance(node, ast.Compare):
            node.ops[self.m.index] = _CMP_SWAPS[type(node.ops[self.m.index])]()
        elif isinstance(node, (ast.BinOp, ast.AugAssign)):
            node.op = _BIN_SWAPS[type(node.op)]()
        elif isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif isinstance(node, ast.UnaryOp):
            return node.operand
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            node.value = not node.value
        elif isinstance(node, ast.Constant) and isinstance(node.value, int):
            node.value = node.value + 1
        else:  # pragma: no cover
            raise AssertionError(self.m.op)
        return node


def mutated_tree(source: str, mutant: Mutant) -> ast.Module:
    """The ``ast`` of ``source`` with ``mutant`` applied (line numbers kept,
    so tracebacks and ``inspect`` point at the original lines)."""
    tree = ast.parse(source)
    applier = _Apply(mutant)
    tree = applier.visit(tree)
    if not applier.done:
        raise LookupError(f"mutant {mutant.id} not found")
    return ast.fix_missing_locations(tree)


def mutated_source(source: str, mutant: Mutant) -> str:
    """``source`` with ``mutant`` applied (written back by ``ast.unparse``)."""
    return ast.unparse(mutated_tree(source, mutant))
