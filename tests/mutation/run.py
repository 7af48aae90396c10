#!/usr/bin/env python3
"""Mutation testing of linguo's rules modules (issue 13): ``tox -e mutation``.

Not part of the test run nor of CI. Run from the repository root, in the
environment linguo and its test extras are installed in::

    python tests/mutation/run.py                       # every module of MODULES
    python tests/mutation/run.py --modules ticks       # one module
    python tests/mutation/run.py --modules dice --limit 40 --sample 2
    python tests/mutation/run.py --list --modules ticks   # the mutants, no run
    python tests/mutation/run.py --modules dice --mutants dice:153:31:Gt->GtE

How it works:

1. **Mutants.** Each module of :data:`MODULES` is parsed (``ast``); every
   site of a small, closed set of operators gives one mutant: a comparison
   swapped for its neighbour or negation (``<``/``<=``, ``==``/``!=``,
   ``in``/``not in``, ``is``/``is not``), an arithmetic operator swapped
   (``+``/``-``, ``*``/``//``, ``//``/``/``, ``%``/``*``), ``and``/``or``,
   a ``not`` removed, an ``if``/``while``/ternary condition negated, an
   integer constant ``n`` made ``n + 1``, ``True``/``False`` swapped. Strings,
   docstrings and annotations are never mutated; a line holding
   ``pragma: no mutate`` is skipped. A mutant's id is
   ``module:line:col:operator`` (e.g. ``dice:323:19:Lt->LtE``), stable while
   the line does not move.
2. **Which tests.** Only the tests that execute the mutated line run: the
   whole suite is run once under ``coverage`` with per-test contexts
   (``dynamic_context = test_function``; the data is kept in
   ``.mutation/coverage`` and reused until ``--fresh``). Without the
   ``coverage`` package, for a line executed only at import time, and
   again for a mutant that survives the tests of its line (a result cached
   by ``functools.cache`` is attributed to the first test that computed it),
   the module's entry of :data:`TEST_MAP` is used (with its own baseline
   time for the timeout). A line the coverage run does not execute is tried
   against the :data:`TEST_MAP` tests; if they pass it is reported as
   ``uncovered`` and counts as surviving.
3. **Run.** The repository is copied once to a temporary folder; for each
   mutant the module's file there is replaced by the mutated source and
   ``python -m pytest -x`` runs the selected tests in that copy (the copy's
   ``linguo_cli`` comes first on ``sys.path``). A failing test or a timeout
   (``--timeout``, default 10 x the module's baseline + 30 s) kills the
   mutant. Each module's unmutated source (as written back by ``ast``) must
   first pass its selected tests (the baseline).
4. **Report.** Per module: mutants, equivalent (listed in
   ``tests/mutation/equivalent.txt``), killed, survived, kill rate
   ``killed / (mutants - equivalent)``, and every surviving mutant with the
   source line. ``--json FILE`` writes the same as JSON. The exit code is 0
   unless ``--min-rate`` is given and a module's rate is below it.

Retargeting after a package move: edit :data:`MODULES` (name -> file) and
:data:`TEST_MAP`; nothing else names a module.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EQUIVALENT_FILE = HERE / "equivalent.txt"
WORK = ROOT / ".mutation"

#: The rules modules under mutation: name -> file (relative to the root).
#: The one place to change when the code moves (core and rulesets).
MODULES: dict[str, str] = {
    "dice": "linguo_cli/core/dice.py",
    "dice_sources": "linguo_cli/core/dice_sources.py",
    "dice_parse": "linguo_cli/core/dice_parse.py",
    "distribution": "linguo_cli/core/distribution.py",
    "core_tests": "linguo_cli/core/tests.py",
    "derivation": "linguo_cli/core/derivation.py",
    "core_conditions": "linguo_cli/core/conditions.py",
    "core_turns": "linguo_cli/core/turns.py",
    "options": "linguo_cli/core/options.py",
    "checks": "linguo_cli/rulesets/linguomancy/checks.py",
    "ticks": "linguo_cli/rulesets/linguomancy/ticks.py",
    "amount_rules": "linguo_cli/rulesets/linguomancy/amount_rules.py",
    "amounts": "linguo_cli/rulesets/linguomancy/amounts.py",
    "hp": "linguo_cli/rulesets/linguomancy/hp.py",
    "dying": "linguo_cli/rulesets/linguomancy/dying.py",
    "damage": "linguo_cli/rulesets/linguomancy/damage.py",
    "flux": "linguo_cli/rulesets/linguomancy/flux.py",
    "cast_plan": "linguo_cli/rulesets/linguomancy/cast_plan.py",
    "overclock": "linguo_cli/rulesets/linguomancy/overclock.py",
    "conditions": "linguo_cli/rulesets/linguomancy/conditions.py",
    "turn_engine": "linguo_cli/rulesets/linguomancy/turn_engine.py",
    "turn_steps": "linguo_cli/rulesets/linguomancy/turn_steps.py",
    "turn_actions": "linguo_cli/rulesets/linguomancy/turn_actions.py",
    "turn_rules": "linguo_cli/rulesets/linguomancy/turn_rules.py",
    "odds": "linguo_cli/rulesets/linguomancy/odds.py",
    "rest": "linguo_cli/rulesets/linguomancy/rest.py",
    "abilities": "linguo_cli/rulesets/linguomancy/abilities.py",
    "requests": "linguo_cli/rulesets/linguomancy/requests.py",
    "model": "linguo_cli/rulesets/linguomancy/model.py",
}

_L = "tests/linguomancy/"

#: Tests per module when coverage contexts are not available (or a line is
#: executed by no test): test files or node ids.
TEST_MAP: dict[str, list[str]] = {
    "checks": [
        "tests/linguomancy/test_checks.py",
        "tests/linguomancy/test_mutants_checks.py",
        "tests/linguomancy/test_cli.py",
        "tests/conformance/test_golden.py",
    ],
    "dice": [
        "tests/core/test_dice.py",
        "tests/core/test_mutants_dice.py",
        "tests/core/test_mutants_notation.py",
        "tests/linguomancy/test_mutants_limits.py",
    ],
    "ticks": [
        "tests/linguomancy/test_ticks_cli.py",
        "tests/linguomancy/test_mutants_ticks.py",
        "tests/linguomancy/test_mutants_branches.py",
        "tests/conformance/test_golden.py",
    ],
    "damage": [
        "tests/linguomancy/test_damage.py",
        "tests/linguomancy/test_mutants_damage.py",
        "tests/linguomancy/test_damage_cli.py",
        "tests/linguomancy/test_mutants_branches.py",
        "tests/conformance/test_golden.py",
    ],
    "flux": [
        "tests/linguomancy/test_flux.py",
        "tests/linguomancy/test_cast_cli.py",
        "tests/linguomancy/test_mutants_branches.py",
        "tests/conformance/test_golden.py",
    ],
    "conditions": [
        "tests/linguomancy/test_conditions.py",
        "tests/linguomancy/test_turn.py",
        "tests/conformance/test_golden.py",
    ],
    "turn": [
        "tests/linguomancy/test_turn.py",
        "tests/linguomancy/test_turn_cli.py",
        "tests/conformance/test_golden.py",
    ],
    "core_tests": ["tests/core/test_tests.py", "tests/linguomancy/test_checks.py"],
    "dice_parse": [
        "tests/core/test_dice.py",
        "tests/core/test_dice_notation.py",
        "tests/core/test_dice_notation_exact.py",
        "tests/core/test_mutants_notation.py",
        "tests/linguomancy/test_mutants_limits.py",
    ],
    "distribution": ["tests/core/test_dice_notation_exact.py", "tests/linguomancy/test_odds.py"],
    "derivation": ["tests/core/test_results.py", "tests/linguomancy/test_rule_steps.py"],
    "core_conditions": ["tests/core/test_conditions.py", "tests/linguomancy/test_conditions.py"],
    "odds": [
        "tests/linguomancy/test_odds.py",
        "tests/linguomancy/test_mutants_limits.py",
        "tests/conformance/test_golden.py",
    ],
    "dice_sources": ["tests/core/test_dice.py", "tests/core/test_mutants_dice.py"],
    "core_turns": ["tests/core/test_turns.py", "tests/linguomancy/test_turn.py"],
    "options": ["tests/core/test_options.py", "tests/linguomancy/test_options.py"],
    "amount_rules": [f"{_L}test_mutants_amounts.py", f"{_L}test_odds.py", f"{_L}test_damage.py",
                     f"{_L}test_flux.py"],
    "amounts": [f"{_L}test_mutants_amounts.py", f"{_L}test_odds.py", f"{_L}test_damage.py",
                f"{_L}test_flux.py"],
    "hp": [f"{_L}test_mutants_hp.py", f"{_L}test_damage.py", f"{_L}test_rest.py",
           f"{_L}test_model.py", f"{_L}test_mutants_branches.py"],
    "dying": [f"{_L}test_mutants_dying.py", f"{_L}test_mutants_hp.py", f"{_L}test_rev2_death.py",
              f"{_L}test_damage.py", f"{_L}test_mutants_branches.py"],
    "cast_plan": [f"{_L}test_flux.py", f"{_L}test_rev2_cast.py", f"{_L}test_mutants_branches.py"],
    "overclock": [f"{_L}test_flux.py", f"{_L}test_rev2_death.py", f"{_L}test_mutants_branches.py"],
    "turn_engine": [f"{_L}test_turn.py", f"{_L}test_turn_log.py", f"{_L}test_turn_cli.py"],
    "turn_steps": [f"{_L}test_turn.py", f"{_L}test_turn_log.py", f"{_L}test_turn_cli.py"],
    "turn_actions": [f"{_L}test_turn.py", f"{_L}test_turn_log.py", f"{_L}test_turn_cli.py"],
    "turn_rules": [f"{_L}test_turn.py", f"{_L}test_turn_log.py", f"{_L}test_turn_cli.py"],
    "rest": [f"{_L}test_rest.py", f"{_L}test_mutants_rest.py", f"{_L}test_rest_cli.py"],
    "abilities": [f"{_L}test_model.py", f"{_L}test_rev2_cast.py", f"{_L}test_turn.py"],
    "requests": [f"{_L}test_requests.py", f"{_L}test_cli_options_valid.py"],
    "model": [f"{_L}test_model.py", f"{_L}test_requests.py"],
}

#: Folders and files copied to the scratch repository for the runs.
COPY = ["linguo_cli", "tests", "golden", "schemas", "examples", "pyproject.toml", "README.md"]

_CMP_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_BIN_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Div,
    ast.Div: ast.FloorDiv, ast.Mod: ast.Mult,
}


# ---------------------------------------------------------------------------
# Mutants


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
    def id(self) -> str:
        suffix = f"#{self.index}" if self.index else ""
        return f"{self.module}:{self.line}:{self.col}:{self.op}{suffix}"


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
    """Every mutant of ``source`` in source order."""
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
        op = self.m.op
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
            raise AssertionError(op)
        return node


def mutated_source(source: str, mutant: Mutant) -> str:
    """``source`` with ``mutant`` applied (written back by ``ast.unparse``)."""
    tree = ast.parse(source)
    applier = _Apply(mutant)
    tree = applier.visit(tree)
    if not applier.done:
        raise LookupError(f"mutant {mutant.id} not found")
    return ast.unparse(ast.fix_missing_locations(tree))


# ---------------------------------------------------------------------------
# Which tests cover which line


def _context_to_node(context: str) -> str | None:
    """``tests.test_dice.test_x`` -> ``tests/test_dice.py::test_x``."""
    parts = context.split(".")
    for i in range(len(parts) - 1, 0, -1):
        path = Path(*parts[:i]).with_suffix(".py")
        if (ROOT / path).is_file():
            return path.as_posix() + "::" + "::".join(parts[i:])
    return None


def collect_coverage(fresh: bool, tests: list[str]) -> dict[str, dict[int, list[str]]] | None:
    """Per module file: line -> test node ids that execute it (``None``
    without the ``coverage`` package)."""
    try:
        import coverage
    except ImportError:
        return None
    WORK.mkdir(exist_ok=True)
    (WORK / ".gitignore").write_text("*\n", encoding="utf-8")  # scratch data, never committed
    data_file = WORK / "coverage"
    if fresh or not data_file.exists():
        rc = WORK / "coveragerc"
        rc.write_text("[run]\ndynamic_context = test_function\nsource = linguo_cli\n",
                      encoding="utf-8")
        print(f"collecting per-test coverage ({' '.join(tests) or 'all tests'}) ...",
              flush=True)
        subprocess.run([sys.executable, "-m", "coverage", "run", f"--rcfile={rc}",
                        f"--data-file={data_file}", "-m", "pytest", "-q",
                        "-p", "no:cacheprovider", *tests], cwd=ROOT, check=False,
                       stdout=subprocess.DEVNULL)
    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    out: dict[str, dict[int, list[str]]] = {}
    for rel in MODULES.values():
        by_line = data.contexts_by_lineno(str(ROOT / rel))
        out[rel] = {line: sorted({n for c in ctxs if c and (n := _context_to_node(c))})
                    for line, ctxs in by_line.items()}
    return out


# ---------------------------------------------------------------------------
# Running


@dataclass
class Outcome:
    mutant: str
    status: str  # killed, survived, timeout, uncovered, equivalent
    seconds: float
    line: str = ""


@dataclass
class ModuleReport:
    module: str
    mutants: int = 0
    equivalent: int = 0
    killed: int = 0
    survived: int = 0
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def rate(self) -> float:
        judged = self.mutants - self.equivalent
        return 100.0 * self.killed / judged if judged else 100.0


def load_equivalent() -> dict[str, str]:
    """``equivalent.txt``: ``mutant-id  reason`` per line; ``#`` comments."""
    out: dict[str, str] = {}
    if EQUIVALENT_FILE.exists():
        for raw in EQUIVALENT_FILE.read_text(encoding="utf-8").splitlines():
            text = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
            if text:
                mid, _, reason = text.partition(" ")
                out[mid] = reason.strip()
    return out


def _pytest(scratch: Path, tests: list[str], timeout: float, deselect: list[str],
            baseline: bool = False) -> tuple[bool, bool, float, list[str]]:
    """Run ``tests`` in ``scratch`` (stop at the first failure unless
    ``baseline``): (passed, timed_out, seconds, failed node ids)."""
    env = {**os.environ, "PYTHONPATH": str(scratch), "HYPOTHESIS_PROFILE": "ci",
           "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header",
           "-rf" if baseline else "-x", *tests]
    for node in deselect:
        cmd += ["--deselect", node]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=scratch, env=env, capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return False, True, time.perf_counter() - start, []
    failed = [line[len("FAILED "):].split(" - ")[0].strip()
              for line in proc.stdout.splitlines() if line.startswith("FAILED ")]
    return proc.returncode == 0, False, time.perf_counter() - start, failed


def _cheap_first(nodes: list[str]) -> list[str]:
    """``nodes`` with the unit tests first and the slow whole-program tests
    (``tests/cli``, ``tests/conformance``) last: ``pytest -x`` stops at the
    first failure, so a mutant a unit test kills is killed in seconds."""
    return sorted(nodes, key=lambda n: (n.startswith(("tests/cli/", "tests/conformance/")), n))


def run_module(module: str, scratch: Path, cover: dict[str, dict[int, list[str]]] | None,
               equivalent: dict[str, str], args: argparse.Namespace) -> ModuleReport:
    rel = MODULES[module]
    source = (ROOT / rel).read_text(encoding="utf-8")
    lines = source.splitlines()
    target = scratch / rel
    mutants = mutants_of(module, source)
    if args.mutants:
        wanted = set(args.mutants.split(","))
        mutants = [m for m in mutants if m.id in wanted]
    if args.sample > 1:
        mutants = mutants[:: args.sample]
    if args.limit:
        mutants = mutants[: args.limit]
    report = ModuleReport(module, mutants=len(mutants))
    fallback = TEST_MAP.get(module, ["tests"])
    line_tests = (cover or {}).get(rel, {})

    # Baseline: the unmutated module (as ast writes it back) with every test
    # any mutant will run; tests failing already are deselected (and shown).
    selected = sorted({t for m in mutants for t in line_tests.get(m.line, [])}
                      ) if cover is not None else fallback
    target.write_text(ast.unparse(ast.parse(source)), encoding="utf-8")
    ok, _, base, failing = _pytest(scratch, selected or fallback, 3600, [], baseline=True)
    if not ok and not failing:
        raise SystemExit(f"{module}: the baseline run fails without naming a test")
    for node in failing:
        print(f"{module}: baseline failure deselected: {node}", flush=True)
    timeout = args.timeout or 10 * base + 30
    # The module's TEST_MAP files are run too (a cached line's other tests, a
    # line the coverage run did not execute): their own baseline and timeout.
    fb_timeout, fb_failing = timeout, failing
    if cover is not None and sorted(fallback) != selected:
        ok, _, fb_base, fb_failing = _pytest(scratch, fallback, 3600, [], baseline=True)
        if not ok and not fb_failing:
            raise SystemExit(f"{module}: the TEST_MAP baseline fails without naming a test")
        fb_timeout = args.timeout or 10 * fb_base + 30
    print(f"{module}: {len(mutants)} mutants (baseline {base:.1f} s for "
          f"{len(selected)} tests)", flush=True)
    try:
        for m in mutants:
            shown = lines[m.line - 1].strip()
            if m.id in equivalent:
                report.equivalent += 1
                report.outcomes.append(Outcome(m.id, "equivalent", 0.0, shown))
                continue
            if cover is None:
                tests = fallback
            elif m.line not in line_tests:
                # No test of the coverage run executes the line: the module's
                # TEST_MAP files still get their chance (coverage may have
                # been collected over part of the suite, --coverage-tests).
                target.write_text(mutated_source(source, m), encoding="utf-8")
                passed, timed_out, secs, _ = _pytest(scratch, fallback, fb_timeout, fb_failing)
                status = "timeout" if timed_out else ("uncovered" if passed else "killed")
                report.survived += passed
                report.killed += not passed
                report.outcomes.append(Outcome(m.id, status, secs, shown))
                if args.verbose:
                    print(f"  {m.id:<32} {status:<9} {secs:6.1f} s  {shown[:60]}", flush=True)
                continue
            else:  # executed only at import time (no test context): the map
                tests = _cheap_first(line_tests[m.line]) or fallback
            target.write_text(mutated_source(source, m), encoding="utf-8")
            passed, timed_out, secs, _ = _pytest(scratch, tests, timeout, failing)
            if passed and tests != fallback:
                # A line run once and cached (functools.cache) shows only the
                # first test that ran it: try the module's tests too.
                passed, timed_out, more, _ = _pytest(scratch, fallback, fb_timeout, fb_failing)
                secs += more
            status = "timeout" if timed_out else ("survived" if passed else "killed")
            if passed:
                report.survived += 1
            else:
                report.killed += 1
            report.outcomes.append(Outcome(m.id, status, secs, shown))
            if args.verbose:
                print(f"  {m.id:<32} {status:<9} {secs:6.1f} s  {shown[:60]}", flush=True)
    finally:
        target.write_text(source, encoding="utf-8")
    return report


def print_report(reports: list[ModuleReport]) -> None:
    print()
    print(f"{'module':<12} {'mutants':>7} {'equiv.':>6} {'killed':>6} {'survived':>8} "
          f"{'kill rate':>9}")
    for r in reports:
        print(f"{r.module:<12} {r.mutants:>7} {r.equivalent:>6} {r.killed:>6} "
              f"{r.survived:>8} {r.rate:>8.1f}%")
    for r in reports:
        left = [o for o in r.outcomes if o.status in ("survived", "uncovered")]
        if left:
            print(f"\nsurviving mutants of {r.module}:")
            for o in left:
                note = " (no test executes the line)" if o.status == "uncovered" else ""
                print(f"  {o.mutant:<32} {o.line[:70]}{note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--modules", default=",".join(MODULES),
                        help="comma-separated names of MODULES (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--mutants", default="",
                        help="comma-separated mutant ids: run only these")
    parser.add_argument("--limit", type=int, default=0, help="at most N mutants per module")
    parser.add_argument("--sample", type=int, default=1, help="every Nth mutant only")
    parser.add_argument("--timeout", type=float, default=0.0, help="seconds per mutant run")
    parser.add_argument("--no-coverage", action="store_true",
                        help="select tests by TEST_MAP only")
    parser.add_argument("--coverage-tests", default="",
                        help="space-separated test paths for the coverage run (default: all)")
    parser.add_argument("--fresh", action="store_true", help="collect coverage again")
    parser.add_argument("--json", help="write the report as JSON to this file")
    parser.add_argument("--min-rate", type=float, default=0.0,
                        help="exit 1 when a module's kill rate is below this percentage")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per mutant")
    args = parser.parse_args(argv)

    names = [n.strip() for n in args.modules.split(",") if n.strip()]
    unknown = [n for n in names if n not in MODULES]
    if unknown:
        parser.error(f"unknown module(s) {unknown}; known: {', '.join(MODULES)}")
    if args.list:
        for n in names:
            for m in mutants_of(n, (ROOT / MODULES[n]).read_text(encoding="utf-8")):
                print(m.id)
        return 0

    equivalent = load_equivalent()
    cover = None if args.no_coverage else collect_coverage(args.fresh,
                                                           args.coverage_tests.split())
    if cover is None:
        print("tests selected by TEST_MAP (--no-coverage, or no coverage package)", flush=True)
    reports: list[ModuleReport] = []
    with tempfile.TemporaryDirectory(prefix="linguo-mutation-") as tmp:
        scratch = Path(tmp)
        for item in COPY:
            src = ROOT / item
            if src.is_dir():
                shutil.copytree(src, scratch / item,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif src.exists():
                shutil.copy2(src, scratch / item)
        for n in names:
            reports.append(run_module(n, scratch, cover, equivalent, args))
    print_report(reports)
    if args.json:
        Path(args.json).write_text(json.dumps(
            [{**{k: v for k, v in asdict(r).items() if k != "outcomes"}, "kill_rate": r.rate,
              "outcomes": [asdict(o) for o in r.outcomes]} for r in reports], indent=2),
            encoding="utf-8")
    if args.min_rate and any(r.rate < args.min_rate for r in reports):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
