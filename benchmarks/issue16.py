"""Issue 16's figures (the default table of ``run.py``): each a ratio to a
peer measured in the same run, next to its budget, PASS/MISS and the peer's
own figure.

Peers: d20 and icepool (the ``bench`` extra), and *previous main*, a wheel of
:data:`PREVIOUS_MAIN` (main before issue 16's first commit) built into a side
virtual environment under ``.benchmarks/``. One-off commands and every
figure against previous main run from wheels: this checkout's is built there
too (:func:`installs.checkout_install`, with d20 beside it). How each figure
is taken:

1. checks: ``resolve`` (:mod:`linguo_cli.core.requests`) on 20 check requests
   with scripted dice (faces 1-20, cycled), each returning the JSON-ready
   result with its explanation, in this process; against ``d20.roll("1d20+5")``
   in the same process; calibrated loops, alternating, best of each.
2. turns: the five-step turn of a 4-entity state through ``resolve``, in a
   child process of each wheel (this checkout, previous main), alternating
   over ``--rounds``, best of each; the stretch goal is this checkout's own
   rate, >= 10,000/s.
3. one-off ``linguo check --mod 5 --dc 15 --rolls 12`` (text, and ``--json``)
   against ``python -c "import d20; print(d20.roll('1d20+5'))"``, both from
   the wheel environment of this checkout: CPU time (user + system, from
   ``os.wait4``) of the child, two warm-up runs each (bytecode written, as
   ``pip install`` does), then ``--runs`` runs each, rotating, median.
4. verify: ``linguo verify`` (the console script's entry point, called in
   process; output discarded) on the whole Linguomancy suite, in a child
   process of each wheel: CPU time (``time.process_time``) of its second
   call, on a copy of the suite whose files differ by a comment (so no cache
   keyed by content serves it); the first call, which imports the command's
   modules, is in the JSON detail. Alternating rounds, best of each.
5. batch: ``linguo verify --impl "python echo_adapter.py" --batch`` on the
   golden suite copied until it holds >= 3,000 cases (one process, wall
   time), each wheel's ``linguo`` in turn, best of each: cases per second.
6. states: ``linguo turn STATE TURNS -o OUT`` (one five-step turn) on a
   generated 1,000-entity state, YAML and JSON, each wheel's ``linguo`` in
   turn: CPU time of the whole process (user + system), best of each.
7. odds: the ``odds`` request of an attack with advantage over 416
   (modifier, AC) inputs, first pass (no input repeats), against icepool
   computing the same distribution (degrees, hit, critical hit and miss) for
   the same inputs; in a fresh child process per round (so every round is a
   first pass), alternating which goes first, best of each; the two
   distributions are checked equal on every input.
8. memory: peak resident memory (``wait4`` ``ru_maxrss``) of ``linguo turn``
   on a generated 10,000-entity JSON state, this checkout's wheel, best of two.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from budgets import Budget, at_least, at_most, budget_text, ratio, stretch_note, verdict
from children16 import odds_inputs
from harness import (
    FIVE_STEPS,
    HERE,
    NotAvailable,
    Row,
    alternate,
    big_suite,
    child_env,
    cpu_of,
    fmt_ms,
    fmt_rate,
    linguo_command,
    mod,
    per_second,
    run_timed,
    run_usage,
    write_state,
    write_state_json,
)
from installs import Install, baseline_install, checkout_install

#: Main before issue 16's first commit: the "previous main" of the budgets.
PREVIOUS_MAIN = "2bf4601"
RUN = HERE / "run.py"
GROUPS = ("checks", "turns", "cold", "verify", "batch", "states", "odds", "memory")

#: The check requests of figure 1: +5 against DC 15, every face once.
CHECKS: list[dict[str, Any]] = [
    {"kind": "check", "dc": 15, "modifiers": [{"label": "strength", "value": 5}],
     "rolls": [face]} for face in range(1, 21)]
D20_EXPRESSION = "1d20+5"
D20_ONE_OFF = "import d20; print(d20.roll('1d20+5'))"
CHECK_ARGV = ["check", "--mod", "5", "--dc", "15", "--rolls", "12"]


@dataclass
class Settings:
    """How long to measure: the full run, or ``--quick`` for development."""

    rounds: int = 3
    runs: int = 15
    min_time: float = 0.25
    repeats: int = 3
    batch_cases: int = 3000
    memory_runs: int = 2

    @classmethod
    def of(cls, args: argparse.Namespace) -> Settings:
        """The settings ``args`` ask for (``--quick``, ``--rounds``, ``--runs``)."""
        got = cls(rounds=1, runs=5, min_time=0.05, repeats=1, batch_cases=800,
                  memory_runs=1) if args.quick else cls()
        if args.rounds is not None:
            got.rounds = args.rounds
        if args.runs is not None:
            got.runs = args.runs
        return got


@dataclass
class Context:
    """One run: its settings and the wheel environments, built on first use
    (a failed build is remembered and reported by every figure needing it)."""

    args: argparse.Namespace
    settings: Settings
    cache: Path
    _installs: dict[str, Install | Exception] = field(default_factory=dict)

    def _get(self, name: str, build: Callable[[], Install]) -> Install:
        if name not in self._installs:
            try:
                self._installs[name] = build()
            except (subprocess.CalledProcessError, RuntimeError, OSError, StopIteration) as exc:
                self._installs[name] = exc
        got = self._installs[name]
        if isinstance(got, Exception):
            raise RuntimeError(f"no {name} environment: {type(got).__name__}: {got}")
        return got

    def checkout(self) -> Install:
        """The wheel of this checkout (with d20 when this environment has it)."""
        return self._get("checkout", lambda: checkout_install(self.cache, self.args.extras))

    def previous(self) -> Install:
        """The wheel of previous main (``--previous``, default :data:`PREVIOUS_MAIN`)."""
        return self._get("previous main", lambda: baseline_install(self.args.previous,
                                                                   self.cache))

    def both(self) -> dict[str, Install]:
        """This checkout's and previous main's wheels, in that order."""
        return {"this": self.checkout(), "previous": self.previous()}


# ---------------------------------------------------------------------------
# Rows


def judged(group: str, figure: str, this: float, peer: float, budget: Budget, *,
           show: Callable[[float], str], peer_name: str, stretch: Budget | None = None,
           stretch_value: float | None = None, more: dict[str, Any] | None = None) -> Row:
    """The row of a figure measured against its peer: ``this`` and ``peer``
    (rates or costs, as ``budget`` says), their ratio this / peer judged by
    ``budget``; the stretch goal judged on ``stretch_value`` (default: the
    ratio)."""
    value = ratio(this, peer)
    measured = f"{show(this)} vs {show(peer)} = {value:.2f}x"
    note = stretch_note(stretch, value if stretch_value is None else stretch_value)
    detail = {"this": this, "peer": peer, "peer_name": peer_name, **(more or {})}
    return Row(group, figure, measured, budget_text(budget, stretch), verdict(budget, value),
               value, higher_better=budget.higher_better, compared=False, stretch=note,
               detail=detail)


def fmt_cpu(seconds: float) -> str:
    return f"{fmt_ms(seconds)} CPU"


def fmt_call(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


# ---------------------------------------------------------------------------
# 1. checks vs d20, in process


def fig_checks(ctx: Context) -> list[Row]:
    """Figure 1: resolved checks per second against ``d20.roll`` calls."""
    try:
        import d20
    except ImportError as exc:
        raise NotAvailable(f"d20 is not importable ({exc}); pip install '.[bench]'") from None
    resolve = mod("requests").resolve
    sample = resolve(json.loads(json.dumps(CHECKS[11])))
    if not isinstance(sample, dict) or not isinstance(sample.get("explanation"), list) \
            or not sample["explanation"]:
        raise RuntimeError("resolve() no longer returns a JSON-ready dict with an explanation")
    state = {"i": 0}

    def one() -> None:
        i = state["i"]
        state["i"] = (i + 1) % len(CHECKS)
        resolve(CHECKS[i])

    s = ctx.settings
    got = alternate({
        "this": lambda: per_second(one, min_time=s.min_time, repeats=s.repeats),
        "d20": lambda: per_second(lambda: d20.roll(D20_EXPRESSION), min_time=s.min_time,
                                  repeats=s.repeats),
    }, s.rounds)
    return [judged("checks", "in-process checks (resolve, scripted dice) vs d20.roll",
                   max(got["this"]), max(got["d20"]), at_least(1.2), stretch=at_least(1.5),
                   show=fmt_rate, peer_name=f"d20.roll('{D20_EXPRESSION}')")]


# ---------------------------------------------------------------------------
# Child processes: measured in process by another installation's interpreter


def measure_child(python: str, figure: str, ctx: Context, *more: str) -> dict[str, Any]:
    """Run :func:`children16.child_main` under ``python``; its figures.

    Raises :class:`RuntimeError` (with the end of its stderr) when it fails.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        cmd = [python, str(RUN), "--child16", figure, "--json", out.name, *more]
        if ctx.args.quick:
            cmd.append("--quick")
        env = child_env()
        env.pop("PYTHONPATH", None)  # each installation imports its own linguo_cli only
        proc = subprocess.run(cmd, capture_output=True, env=env, cwd=str(HERE.parent))
        if proc.returncode != 0:
            tail = proc.stderr.decode(errors="replace").strip().splitlines()[-2:]
            raise RuntimeError(f"{figure} child of {python} failed: {' | '.join(tail)}")
        result: dict[str, Any] = json.load(out)
        return result


# ---------------------------------------------------------------------------
# 2. turns vs previous main


def fig_turns(ctx: Context) -> list[Row]:
    """Figure 2: five-step turns per second, this checkout / previous main."""
    installs = ctx.both()
    got = alternate({name: lambda i=inst: measure_child(i.python, "turns", ctx)["rate"]
                     for name, inst in installs.items()}, ctx.settings.rounds)
    this = max(got["this"])
    return [judged("turns", "in-process five-step turns vs previous main", this,
                   max(got["previous"]), at_least(3), stretch=at_least(10_000, "/s"),
                   stretch_value=this, show=fmt_rate, peer_name=installs["previous"].label)]


# ---------------------------------------------------------------------------
# 3. one-off check vs one-off d20, CPU time, from wheels


def fig_cold(ctx: Context) -> list[Row]:
    """Figure 3: one-off ``linguo check`` (text, ``--json``) against a one-off
    d20 roll, CPU time of the child, median."""
    install = ctx.checkout()
    probe = subprocess.run([install.python, "-c", "import d20"], capture_output=True,
                           env=child_env())
    if probe.returncode != 0:
        raise NotAvailable("d20 is not in the wheel's environment (this environment has no "
                           "d20: pip install '.[bench]')")
    linguo = linguo_command(install.python)
    cmds = {"text": linguo + CHECK_ARGV, "json": linguo + CHECK_ARGV + ["--json"],
            "d20": [install.python, "-c", D20_ONE_OFF]}
    for _ in range(2):  # warm-up: bytecode written, files in the OS cache
        for cmd in cmds.values():
            cpu_of(cmd)
    times: dict[str, list[float]] = {name: [] for name in cmds}
    names = list(cmds)
    for run in range(ctx.settings.runs):  # rotating order: load hits all alike
        for name in names[run % 3:] + names[:run % 3]:
            times[name].append(cpu_of(cmds[name]))
    peer = statistics.median(times["d20"])
    rows = []
    for name, label in (("text", "one-off `linguo check --mod 5 --dc 15 --rolls 12` vs d20"),
                        ("json", "one-off `linguo check ... --json` vs d20")):
        rows.append(judged("cold", f"{label}, CPU", statistics.median(times[name]), peer,
                           at_most(0.8), stretch=at_most(0.6), show=fmt_ms,
                           peer_name=f'python -c "{D20_ONE_OFF}"',
                           more={"runs": ctx.settings.runs, "install": install.python}))
    return rows


# ---------------------------------------------------------------------------
# 4. verify in process vs previous main


def fig_verify(ctx: Context) -> list[Row]:
    """Figure 4: ``linguo verify`` in process, CPU time, this / previous main."""
    installs = ctx.both()
    got = alternate({name: lambda i=inst: measure_child(i.python, "verify", ctx)
                     for name, inst in installs.items()}, ctx.settings.rounds)
    this = min(r["cpu"] for r in got["this"])
    prev = min(r["cpu"] for r in got["previous"])
    firsts = {name: min(r["first_cpu"] for r in rows) for name, rows in got.items()}
    return [judged("verify", "`linguo verify` in process, Linguomancy suite, vs previous main",
                   this, prev, at_most(0.35), show=fmt_cpu,
                   peer_name=installs["previous"].label,
                   more={"first_call_cpu": firsts})]


# ---------------------------------------------------------------------------
# 5. batch verify vs previous main


def fig_batch(ctx: Context) -> list[Row]:
    """Figure 5: ``linguo verify --batch`` with the echo adapter, cases per
    second, this / previous main."""
    installs = ctx.both()
    with tempfile.TemporaryDirectory(prefix="linguo-bench-") as tmp:
        suite = Path(tmp) / "suite"
        suite.mkdir()
        n = big_suite(suite, ctx.settings.batch_cases)
        impl = f"{sys.executable} {HERE / 'echo_adapter.py'}"

        def rate(install: Install) -> float:
            cmd = linguo_command(install.python) + ["verify", "--impl", impl, "--batch",
                                                    "--quiet", str(suite)]
            return n / run_timed(cmd, ok=(0, 1))[0]

        got = alternate({name: lambda i=inst: rate(i) for name, inst in installs.items()},
                        ctx.settings.rounds)
    return [judged("batch", f"`linguo verify --batch`, echo adapter ({n:,} cases) vs previous "
                   "main", max(got["this"]), max(got["previous"]), at_least(2.5),
                   show=fmt_rate, peer_name=installs["previous"].label)]


# ---------------------------------------------------------------------------
# 6. 1,000-entity turns vs previous main; 8. peak memory


def _turn_files(folder: Path) -> Path:
    turns = folder / "turns.json"
    turns.write_text(json.dumps({"turns": [{"entity": "e0", "steps": FIVE_STEPS}]}),
                     encoding="utf-8")
    return turns


def fig_states(ctx: Context) -> list[Row]:
    """Figure 6: ``linguo turn`` on 1,000 entities (YAML, JSON), CPU time of
    the process, this / previous main."""
    installs = ctx.both()
    rows = []
    with tempfile.TemporaryDirectory(prefix="linguo-bench-") as tmp:
        folder = Path(tmp)
        turns = _turn_files(folder)
        for fmt, writer in (("YAML", write_state), ("JSON", write_state_json)):
            state = folder / f"state-1000.{fmt.lower()}"
            writer(state, 1000)

            def cpu(install: Install, state: Path = state) -> float:
                out = state.with_name(f"out-{state.name}")
                cmd = linguo_command(install.python) + ["turn", str(state), str(turns),
                                                        "-o", str(out)]
                return run_usage(cmd).cpu

            got = alternate({name: lambda i=inst: cpu(i) for name, inst in installs.items()},
                            max(2, ctx.settings.rounds))
            rows.append(judged("states", f"1,000-entity {fmt} turn (load, turn, write) vs "
                               "previous main", min(got["this"]), min(got["previous"]),
                               at_most(0.5), show=fmt_cpu,
                               peer_name=installs["previous"].label))
    return rows


def fig_memory(ctx: Context) -> list[Row]:
    """Figure 8: peak memory of ``linguo turn`` on a 10,000-entity JSON state."""
    install = ctx.checkout()
    with tempfile.TemporaryDirectory(prefix="linguo-bench-") as tmp:
        folder = Path(tmp)
        turns = _turn_files(folder)
        state = folder / "state-10000.json"
        write_state_json(state, 10_000)
        cmd = linguo_command(install.python) + ["turn", str(state), str(turns), "-o",
                                                str(folder / "out.json")]
        peak = min(run_usage(cmd).peak_mib for _ in range(ctx.settings.memory_runs))
    budget = at_most(100, " MiB")
    return [Row("memory", "peak memory of the 10,000-entity JSON turn", f"{peak:,.0f} MiB",
                budget_text(budget, None), verdict(budget, peak), peak, compared=False,
                detail={"this": peak, "unit": "MiB", "install": install.python})]


# ---------------------------------------------------------------------------
# 7. exact odds vs icepool


def fig_odds(ctx: Context) -> list[Row]:
    """Figure 7: time per odds request against icepool's time, first passes."""
    try:
        import icepool  # noqa: F401
    except ImportError as exc:
        raise NotAvailable(f"icepool is not importable ({exc}); pip install '.[bench]'"
                           ) from None
    runs = [measure_child(sys.executable, "odds", ctx, *(["--icepool-first"] if k % 2 else []))
            for k in range(ctx.settings.rounds)]
    this, peer = min(r["linguo"] for r in runs), min(r["icepool"] for r in runs)
    return [judged("odds", f"exact odds of an attack with advantage ({len(odds_inputs())} "
                   "inputs) vs icepool", this, peer, at_most(0.25), show=fmt_call,
                   peer_name="icepool (same distribution), this interpreter")]


# ---------------------------------------------------------------------------
# The table


FIGURES: dict[str, Callable[[Context], list[Row]]] = {
    "checks": fig_checks, "turns": fig_turns, "cold": fig_cold, "verify": fig_verify,
    "batch": fig_batch, "states": fig_states, "odds": fig_odds, "memory": fig_memory,
}
BUDGETS = {
    "checks": ">= 1.2x (stretch 1.5x)", "turns": ">= 3x (stretch >= 10,000/s)",
    "cold": "<= 0.8x (stretch 0.6x)", "verify": "<= 0.35x", "batch": ">= 2.5x",
    "states": "<= 0.5x", "odds": "<= 0.25x", "memory": "<= 100 MiB",
}
WIDTHS = (66, 42, 28)


def print_row(row: Row) -> None:
    """One line of the table: figure, measured (vs peer), budget, mark."""
    w1, w2, w3 = WIDTHS
    mark = f"{row.mark} ({row.stretch})" if row.stretch and row.mark == "PASS" else row.mark
    print(f"{row.figure:<{w1}} {row.measured:<{w2}} {row.budget:<{w3}} {mark}", flush=True)


def run_group(name: str, ctx: Context) -> list[Row]:
    """The rows of one figure group; a missing peer is SKIP, a failure ERROR."""
    try:
        return FIGURES[name](ctx)
    except NotAvailable as exc:
        return [Row(name, name, f"SKIP: {exc}", BUDGETS[name], "SKIP", compared=False)]
    except Exception as exc:  # a benchmark must report, not crash
        text = f"error: {type(exc).__name__}: {exc}"
        return [Row(name, name, text[:160], BUDGETS[name], "ERROR", compared=False)]


def run_table(args: argparse.Namespace, wanted: list[str], cache: Path) -> list[Row]:
    """Issue 16's table for the groups ``wanted``: printed row by row, returned."""
    ctx = Context(args, Settings.of(args), cache)
    s = ctx.settings
    print(f"issue 16 budgets: each figure a ratio to its peer, measured in this run "
          f"(previous main = wheel of {args.previous}; {s.rounds} round(s), {s.runs} one-off "
          f"runs{', quick' if args.quick else ''})")
    w1, w2, w3 = WIDTHS
    print(f"{'figure':<{w1}} {'measured: this vs peer = ratio':<{w2}} {'budget':<{w3}} mark")
    print("-" * (sum(WIDTHS) + 8))
    rows: list[Row] = []
    for name in wanted:
        for row in run_group(name, ctx):
            print_row(row)
            rows.append(row)
    for name, got in ctx._installs.items():
        where = got.python if isinstance(got, Install) else f"failed: {got}"
        print(f"  {name}: {where}")
    return rows
