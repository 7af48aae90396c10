"""Shared machinery of the benchmarks (``run.py``): rows, finding linguo's
modules in either package layout, timing child processes and in-process
loops, and the generated inputs (turns, states, a large golden suite).

This module is also imported by child processes running under another
installation's interpreter (a wheel of a previous commit): it uses the
standard library and the linguo it finds, nothing else.
"""
from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


class NotAvailable(Exception):
    """The figure's command or request kind does not exist (yet)."""


@dataclass
class Row:
    """One printed figure."""

    group: str
    figure: str
    measured: str
    budget: str
    mark: str  # PASS, MISS, INFO, SKIP, ERROR
    value: float | None = None
    #: ``value`` is a rate (more is better); else a cost (time, memory, a ratio).
    higher_better: bool = False
    #: Compared with the baseline (``--baseline``); not for ratios of ratios.
    compared: bool = True
    #: Issue 16's table: ``"stretch met"``/``"stretch missed"`` (or empty).
    stretch: str = ""
    #: Issue 16's table: the figures behind the ratio (this, peer, ...).
    detail: dict[str, Any] | None = None


# ---------------------------------------------------------------------------
# Where linguo's modules are: the same script measures this checkout and the
# wheel of an earlier commit (``--baseline``), whose package may be laid out
# differently. The first importable name wins.

_MODULES: dict[str, tuple[str, ...]] = {
    "requests": ("linguo_cli.core.requests", "linguo_cli.rulesets.linguomancy.requests",
                 "linguo_cli.requests"),
    "golden": ("linguo_cli.conformance.golden", "linguo_cli.golden"),
    "state_io": ("linguo_cli.io.state_io", "linguo_cli.state_io"),
    "errors": ("linguo_cli.core.errors", "linguo_cli.errors"),
    "state_commands": ("linguo_cli.rulesets.linguomancy.commands.state", "linguo_cli.cli"),
}


def _layered_state_io() -> Any:
    """The functions the figures use from ``state_io``, in the io layer's
    modules (io/document, io/read, io/write; Linguomancy's SCHEMAS)."""
    from types import SimpleNamespace

    from linguo_cli.io import document, read, write
    from linguo_cli.rulesets.linguomancy import state

    return SimpleNamespace(
        Document=document.Document, to_plain=document.to_plain, load=read.load,
        parse=read.parse, atomic_write=write.atomic_write, dump_document=write.dump_document,
        validate=state.SCHEMAS.validate, entities_of=state.entities_of)


def mod(name: str) -> Any:
    """linguo's module ``name`` (a key of :data:`_MODULES`), wherever this
    installation has it."""
    import importlib

    if name == "state_io":
        try:
            return _layered_state_io()
        except ModuleNotFoundError:
            pass
    for candidate in _MODULES[name]:
        try:
            return importlib.import_module(candidate)
        except ModuleNotFoundError as exc:
            if exc.name is None or not candidate.startswith(exc.name):
                raise
    raise NotAvailable(f"no module for {name!r} in this linguo")


# ---------------------------------------------------------------------------
# Helpers


def linguo_command(python: str | None = None) -> list[str]:
    """The ``linguo`` console script beside interpreter ``python`` (default:
    this one); without one, ``linguo`` on the PATH (this interpreter only),
    else ``python -m linguo_cli``."""
    python = python or sys.executable
    exe = Path(python).parent / "linguo"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("linguo") if python == sys.executable else None
    if found:
        return [found]
    return [python, "-m", "linguo_cli"]


def child_env() -> dict[str, str]:
    """Environment of child processes: bytecode may be written (as after
    ``pip install``, which compiles it), so a run measures start-up, not
    compiling linguo's sources."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run_timed(cmd: list[str], *, stdin: str | None = None, cwd: str | None = None,
              ok: Iterable[int] = (0,)) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    """Run ``cmd``; ``(seconds, completed process)``.

    Raises :class:`RuntimeError` when the exit code is not in ``ok``.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd, env=child_env())
    out, err = proc.communicate(stdin.encode() if stdin is not None else None)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        tail = err.decode(errors="replace").strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(cmd[:3])} ... exited {proc.returncode}: "
                           + " | ".join(tail))
    return elapsed, subprocess.CompletedProcess(cmd, proc.returncode, out, err)


#: Runs argv[2:], then writes "exit-code seconds cpu-seconds peak-RSS-KiB"
#: to argv[1]. A small launcher process, because a child's ``ru_maxrss``
#: starts from its parent's size at fork time (the harness is far larger
#: than linguo).
_LAUNCHER = """
import os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
elapsed = time.perf_counter() - start
with open(sys.argv[1], "w") as fh:
    fh.write(f"{os.waitstatus_to_exitcode(status)} {elapsed} "
             f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
"""


@dataclass
class Usage:
    """What one child process cost: wall ``seconds``, ``cpu`` seconds (user +
    system, its own and its waited-for children's, from ``wait4``), peak
    resident memory ``peak_mib``, and its ``stderr``."""

    seconds: float
    cpu: float
    peak_mib: float
    stderr: str


def run_usage(cmd: list[str], *, cwd: str | None = None, ok: Iterable[int] = (0,)) -> Usage:
    """Run ``cmd`` through the launcher (output to temporary files).

    Raises :class:`RuntimeError` when the exit code is not in ``ok``.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".txt") as report:
        subprocess.run([sys.executable, "-c", _LAUNCHER, report.name, *cmd],
                       stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=cwd,
                       env=child_env(), check=False)
        code, elapsed, cpu, maxrss = report.read().split()
        err.seek(0)
        errtext = err.read().decode(errors="replace")
    if int(code) not in ok:
        tail = errtext.strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(cmd[:3])} ... exited {code}: " + " | ".join(tail))
    return Usage(float(elapsed), float(cpu), int(maxrss) / 1024, errtext)


def run_peak(cmd: list[str], *, cwd: str | None = None, ok: Iterable[int] = (0,)
             ) -> tuple[float, float, str]:
    """Run ``cmd`` (output to temporary files); ``(seconds, peak RSS MiB, stderr)``."""
    used = run_usage(cmd, cwd=cwd, ok=ok)
    return used.seconds, used.peak_mib, used.stderr


def cpu_of(cmd: list[str], *, cwd: str | None = None) -> float:
    """CPU seconds (user + system, from ``os.wait4``) of one run of ``cmd``,
    its output discarded. Raises :class:`RuntimeError` on a non-zero exit."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=err, cwd=cwd, env=child_env())
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines()[-3:]
            raise RuntimeError(f"{' '.join(cmd[:3])} ... exited {proc.returncode}: "
                               + " | ".join(tail))
    return usage.ru_utime + usage.ru_stime


def per_second(fn: Callable[[], Any], *, min_time: float = 0.25, repeats: int = 3) -> float:
    """Calls of ``fn`` per second: a loop calibrated to last >= ``min_time``,
    best of ``repeats`` (the least disturbed by other work on the machine)."""
    n = 1
    while True:
        t = _loop(fn, n)
        if t >= min_time:
            break
        n = max(n * 2, int(n * min_time / max(t, 1e-9) * 1.1))
    best = t
    for _ in range(repeats - 1):
        best = min(best, _loop(fn, n))
    return n / best


def _loop(fn: Callable[[], Any], n: int) -> float:
    gc.collect()  # garbage collection stays on: it is part of the cost
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return time.perf_counter() - start


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}/s"


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds < 10 else f"{seconds:,.1f} s"


def mark(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def alternate(measures: dict[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Each measure called once per round, the order reversed every other
    round (so load from other work hits every side alike); every value."""
    got: dict[str, list[float]] = {name: [] for name in measures}
    order = list(measures)
    for rnd in range(rounds):
        for name in order if rnd % 2 == 0 else order[::-1]:
            got[name].append(measures[name]())
    return got


# ---------------------------------------------------------------------------
# Golden-suite templates (request shapes of kinds the suite covers)


_CASES: list[Any] | None = None


def golden_cases() -> list[Any]:
    """Every case of the shipped golden suite (loaded once)."""
    global _CASES
    if _CASES is None:
        golden = mod("golden")
        _CASES = golden.load_cases(golden.default_suite_dir())
    return _CASES


def kind_available(kind: str) -> bool:
    try:  # the layered package: handlers are named by the ruleset
        from linguo_cli.rulesets.linguomancy.ruleset import HANDLERS
    except ModuleNotFoundError:
        HANDLERS = mod("requests").HANDLERS
    return kind in HANDLERS


def templates(kind: str, pred: Callable[[dict[str, Any]], bool] = lambda r: True
              ) -> list[dict[str, Any]]:
    """Requests of ``kind`` from golden cases that resolve without error."""
    linguo_error = mod("errors").LinguoError
    requests = mod("requests")

    if not kind_available(kind):
        raise NotAvailable(f"no '{kind}' request kind yet")
    out = []
    for case in golden_cases():
        req = case.request
        if req.get("kind") != kind or case.expect_error is not None or not pred(req):
            continue
        try:
            requests.resolve(json.loads(json.dumps(req)))
        except linguo_error:
            continue
        out.append(json.loads(json.dumps(req)))
    return out


# ---------------------------------------------------------------------------
# Generated inputs

#: Five legal steps for entity ``e0`` of a generated state (a player with
#: 9 m of movement and 3 action points): 2 m, prone, stand up (half the
#: movement, P3), a 1-AP action, end of turn. No die is rolled.
FIVE_STEPS: list[dict[str, Any]] = [
    {"kind": "move", "metres": 2},
    {"kind": "drop_prone"},
    {"kind": "stand_up"},
    {"kind": "action", "name": "jump"},
    {"kind": "end_turn"},
]


def entity_dict(i: int) -> dict[str, Any]:
    """Entity ``e<i>`` of a generated state (the shape of schemas/state.schema.json)."""
    e: dict[str, Any] = {
        "id": f"e{i}", "name": f"Entity {i}", "kind": "player" if i % 4 == 0 else "enemy",
        "hp": 20 + i % 30, "max_hp": 50,
        "abilities": {"potential": 2, "cohesion": 1, "signature": 3},
        "ac": 12 + i % 6, "resistances": ["fire"] if i % 3 == 0 else [],
        "flux": 8, "flux_max": 10, "idioms": ["Shape - Fire", "Speak - Water"],
        "movement_max": 9, "movement": 9,
    }
    if i % 5 == 0:
        e["conditions"] = [{"name": "Drained", "source": "overclock", "remaining_turns": 2}]
    return e


def turn_request(entities: int = 4) -> dict[str, Any]:
    """A one-turn request of five steps for ``e0`` on a state of ``entities``."""
    return {"kind": "turn", "state": {"entities": [entity_dict(i) for i in range(entities)]},
            "turns": [{"entity": "e0", "steps": FIVE_STEPS}]}


# ---------------------------------------------------------------------------
# Generated states


def write_state(path: Path, n: int) -> None:
    """A state file of ``n`` entities: ``e0`` is a full player (the one that
    takes the turn), every other entity one line of its four required fields
    (the input limits, README "Limits", allow 1 MiB and 25,000 YAML or
    100,000 JSON keys and values: 10,000 entities fit as JSON only).
    """
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"# Generated benchmark state: {n} entities\nround: 1\nentities:\n")
        for i in range(n):
            if i == 0:
                items = list(entity_dict(0).items())
                fh.write(f"  - {items[0][0]}: {json.dumps(items[0][1])}  # takes the turn\n")
                for k, v in items[1:]:
                    fh.write(f"    {k}: {json.dumps(v)}\n")
            else:
                kind = "player" if i % 4 == 0 else "enemy"
                fh.write(f"  - {{id: e{i}, kind: {kind}, hp: {20 + i % 30}, max_hp: 50}}\n")


def write_state_json(path: Path, n: int) -> None:
    """The same state as :func:`write_state`, as a JSON document."""
    entities = [entity_dict(0)] + [
        {"id": f"e{i}", "kind": "player" if i % 4 == 0 else "enemy", "hp": 20 + i % 30,
         "max_hp": 50} for i in range(1, n)]
    path.write_text(json.dumps({"round": 1, "entities": entities}, separators=(",", ":")),
                    encoding="utf-8")


def big_suite(folder: Path, minimum: int) -> int:
    """Copy the golden suite into ``folder`` until it holds >= ``minimum``
    cases (ids and descriptions made unique); returns the case count."""
    golden, state_io = mod("golden"), mod("state_io")

    root = golden.default_suite_dir()
    files = golden.case_files(root)
    per_copy = sum(len(state_io.to_plain(state_io.load(str(p)).data)["cases"]) for p in files)
    if per_copy == 0:
        raise NotAvailable("the golden suite is empty")
    copies = max(1, -(-minimum // per_copy))
    for k in range(copies):
        for path in files:
            data = state_io.to_plain(state_io.load(str(path)).data)
            for case in data["cases"]:
                case["description"] = f"{case['description']} (copy {k})"
            rel = path.relative_to(root)
            target = folder / f"copy{k}" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(data), encoding="utf-8")
    for extra in ("README.md", "EXAMPLES.yaml"):
        if (root / extra).exists():
            shutil.copy(root / extra, folder / extra)
    return per_copy * copies


def print_row(row: Row, width: int = 62) -> None:
    measured = 38 + 62 - width
    print(f"{row.figure:<{width}} {row.measured:<{measured}} {row.budget:<22} {row.mark}",
          flush=True)


