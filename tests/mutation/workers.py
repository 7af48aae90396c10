"""Running the tests of one mutant: forked from a warm process, or isolated.

*Forked* (the default): the runner process imports pytest, linguo and the
test modules once (:func:`warm_up`); per mutant it forks, the child swaps the
mutated module in (:mod:`tests.mutation.swap`) and runs the selected tests
with ``pytest.main`` in process; the parent kills the child's process group
when its time is up. The child also writes the mutated file into its slot's
scratch copy of the tree and puts that copy first on ``PYTHONPATH``, so a
test that starts ``linguo`` in a subprocess runs the mutant too.

*Isolated* (``--isolated``, and the fallback where the swap is unsound): the
mutated file is written into the slot's scratch copy and ``python -m pytest``
runs there in a fresh process (the runner of before, 6-25 s a mutant).

A :class:`Job` is a list of :class:`Step` (test sets run in order, the next
only when the previous passed); :class:`Pool` runs jobs on ``--jobs`` slots.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.mutation.config import module_name
from tests.mutation.mutants import Mutant, mutated_tree
from tests.mutation.swap import Unsound, swap_in

_PYTEST = ["-q", "-p", "no:cacheprovider", "--no-header"]


@dataclass
class Step:
    """One test run: node ids or files, the ones to deselect, seconds."""

    tests: list[str]
    timeout: float
    deselect: list[str] = field(default_factory=list)


@dataclass
class Job:
    """The runs for one mutant (``mutant`` None: the module's baseline)."""

    module: str
    rel: str
    source: str
    mutant: Mutant | None
    steps: list[Step]
    isolated: bool = False
    baseline: bool = False
    tag: str = ""  # the caller's note (why this run: "confirm", "unsound", "compare")


@dataclass
class Result:
    """``passed``: every step passed; ``step``: the step that failed (or
    the number of steps); ``failed``: failing node ids (baseline runs)."""

    passed: bool
    timed_out: bool = False
    seconds: float = 0.0
    failed: list[str] = field(default_factory=list)
    unsound: str = ""
    step: int = 0
    cpu: float = 0.0  # CPU seconds (user + system) of the run's processes


class _Recorder:
    def __init__(self) -> None:
        self.failed: list[str] = []

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed and report.nodeid not in self.failed:
            self.failed.append(report.nodeid)

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.failed.append(report.nodeid or "<collection>")


def _args(step: Step, baseline: bool, basetemp: Path) -> list[str]:
    args = [*_PYTEST, "-rf" if baseline else "-x", f"--basetemp={basetemp}", *step.tests]
    for node in step.deselect:
        args += ["--deselect", node]
    return args


@contextlib.contextmanager
def _quiet() -> Iterable[None]:
    """Silence fd 1 and 2 (pytest's own output) for the block (not when
    ``LINGUO_MUTATION_DEBUG`` is set: then a child's pytest output shows)."""
    if os.environ.get("LINGUO_MUTATION_DEBUG"):
        yield
        return
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(null, 1)
        os.dup2(null, 2)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def warm_up(test_files: list[str]) -> None:
    """Import pytest, linguo and ``test_files`` (and their conftests) into
    this process: a collect-only session, its output dropped."""
    import pytest

    with _quiet():
        pytest.main([*_PYTEST, "--collect-only", *test_files])


def _child(job: Job, scratch: Path, out: Path, basetemp: Path) -> None:
    """The forked child: swap the mutant in, run the steps, write the result
    to ``out``; never returns (``os._exit``: no atexit handler of the parent
    runs twice)."""
    import pytest

    os.setpgid(0, 0)
    basetemp.mkdir(parents=True, exist_ok=True)  # pytest makes the last folder only
    result: dict[str, Any] = {"passed": True, "failed": [], "unsound": "", "step": 0}
    try:
        os.environ["PYTHONPATH"] = str(scratch)
        with _quiet():
            if job.mutant is not None:
                original = ast.parse(job.source)
                mutated = mutated_tree(job.source, job.mutant)
                (scratch / job.rel).write_text(ast.unparse(mutated), encoding="utf-8")
                try:
                    swap_in(module_name(job.rel), original, mutated, str(scratch / job.rel))
                except Unsound as exc:
                    result = {**result, "passed": False, "unsound": str(exc)}
                    raise
                except Exception as exc:  # noqa: BLE001 - the mutant breaks the import
                    result = {**result, "passed": False, "failed": [f"<import> {exc!r}"]}
                    raise
            for i, step in enumerate(job.steps):
                rec = _Recorder()
                code = pytest.main(_args(step, job.baseline, basetemp / str(i)), plugins=[rec])
                result["step"] = i
                if code != 0:
                    result = {**result, "passed": False, "failed": rec.failed}
                    break
    except BaseException:  # noqa: BLE001, S110 - the result says what happened
        pass
    out.write_text(json.dumps(result), encoding="utf-8")
    os._exit(0)


@dataclass
class _Running:
    job: Job
    slot: int
    start: float
    deadline: float
    pid: int = 0
    proc: subprocess.Popen[bytes] | None = None
    step: int = 0
    out: Path = Path()
    cpu: float = 0.0


class Pool:
    """``jobs`` slots, each with its own scratch copy of the tree; runs
    :class:`Job` objects, calls ``on_done(job, result)`` for each, which may
    return more jobs (run before the rest of the queue)."""

    def __init__(self, scratches: list[Path], tmp: Path | None = None) -> None:
        self.scratches = scratches
        self.tmp = tmp or Path(tempfile.mkdtemp(prefix="linguo-mutation-run-"))

    def run(self, jobs: Iterable[Job], on_done: Callable[[Job, Result], list[Job]]) -> None:
        queue = deque(jobs)
        running: dict[int, _Running] = {}
        while queue or running:
            for slot in range(len(self.scratches)):
                if slot not in running and queue:
                    running[slot] = self._start(queue.popleft(), slot)
            time.sleep(0.01)
            for slot, r in list(running.items()):
                result = self._poll(r)
                if result is not None:
                    del running[slot]
                    self._restore(r)
                    queue.extendleft(reversed(on_done(r.job, result)))

    def _start(self, job: Job, slot: int) -> _Running:
        now = time.perf_counter()
        r = _Running(job, slot, now, now + job.steps[0].timeout)
        scratch = self.scratches[slot]
        if job.isolated:
            if job.mutant is not None:
                text = ast.unparse(mutated_tree(job.source, job.mutant))
            else:
                text = ast.unparse(ast.parse(job.source))
            (scratch / job.rel).write_text(text, encoding="utf-8")
            self._spawn(r)
            return r
        r.deadline = now + sum(s.timeout for s in job.steps)
        r.out = self.tmp / f"result-{slot}.json"
        r.out.unlink(missing_ok=True)
        basetemp = self.tmp / f"basetemp-{slot}"
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            _child(job, scratch, r.out, basetemp)
        r.pid = pid
        return r

    def _spawn(self, r: _Running) -> None:
        scratch = self.scratches[r.slot]
        env = {**os.environ, "PYTHONPATH": str(scratch), "PYTHONDONTWRITEBYTECODE": "1"}
        step = r.job.steps[r.step]
        cmd = [sys.executable, "-m", "pytest",
               *_args(step, r.job.baseline, self.tmp / f"basetemp-{r.slot}")]
        r.out = self.tmp / f"stdout-{r.slot}.txt"
        with r.out.open("wb") as fh:
            r.proc = subprocess.Popen(cmd, cwd=scratch, env=env, stdout=fh,  # noqa: S603
                                      stderr=subprocess.STDOUT, start_new_session=True)
        r.deadline = time.perf_counter() + step.timeout

    def _poll(self, r: _Running) -> Result | None:
        now = time.perf_counter()
        pid = r.proc.pid if r.proc is not None else r.pid
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done == 0:
            if now < r.deadline:
                return None
            _kill_group(pid)
            _, status, usage = os.wait4(pid, 0)
            r.cpu += usage.ru_utime + usage.ru_stime
            if r.proc is not None:
                r.proc.returncode = -9
            return Result(False, True, now - r.start, step=r.step, cpu=r.cpu)
        r.cpu += usage.ru_utime + usage.ru_stime
        if r.proc is not None:
            code = r.proc.returncode = os.waitstatus_to_exitcode(status)
            if code == 0 and r.step + 1 < len(r.job.steps):
                r.step += 1
                self._spawn(r)
                return None
            failed = [line[len("FAILED "):].split(" - ")[0].strip()
                      for line in r.out.read_text(errors="replace").splitlines()
                      if line.startswith("FAILED ")]
            return Result(code == 0, False, now - r.start, failed, step=r.step, cpu=r.cpu)
        try:
            data = json.loads(r.out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {"passed": False, "failed": ["<child died>"], "unsound": "", "step": 0}
        return Result(data["passed"], False, now - r.start, data["failed"], data["unsound"],
                      data["step"], r.cpu)

    def _restore(self, r: _Running) -> None:
        (self.scratches[r.slot] / r.job.rel).write_text(r.job.source, encoding="utf-8")


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
