"""``linguo verify``: running the golden suite as a CI job would.

The loop (:func:`run`) takes the selected cases, skips what the
implementation did not declare (or the skip list names), runs the rest one
by one and reports as it goes:

* every failure is printed when it happens (``RULESET/FILE::ID: PATH: expected X,
  got Y``, then where the case is, its description, its request and the last
  20 lines of the implementation's stderr);
* on a terminal a progress bar (stderr), otherwise a progress line on stderr
  every ``progress_interval`` seconds (``verify: 120/780 cases, 3 failed,
  0 skipped``);
* stops: ``--maxfail N`` failures; ``--total-timeout`` seconds; and, for an
  implementation, the *early stop* when the first :data:`EARLY_STOP_CASES`
  cases run all failed with the same answer or all timed out (the request,
  the answer and the stderr of one of them are shown);
* at the end: the hint (only when the implementation never answered in the
  protocol), the summary ``N cases: N passed, N failed, N skipped`` and the
  JUnit report (``<skipped message=...>`` for skipped cases).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from linguo_cli.conformance import golden
from linguo_cli.conformance import select as golden_select
from linguo_cli.conformance.golden import Case, Outcome, Reply, show
from linguo_cli.core import ruleset as rulesets
from linguo_cli.core.errors import Diagnostic, InputError, UsageError

#: Cases that must all fail alike before verify stops early.
EARLY_STOP_CASES = 20
#: Lines of an implementation's stderr shown with a failure.
STDERR_LINES = 20
#: Seconds between progress lines when stderr is not a terminal.
PROGRESS_INTERVAL = 10.0


@dataclass(slots=True)
class Options:
    """What ``linguo verify`` was asked (see :func:`run`)."""

    impl: str | None = None
    batch: bool = False
    timeout: float = golden.DEFAULT_TIMEOUT
    filters: list[str] = field(default_factory=list)
    excludes: list[str] = field(default_factory=list)
    rulesets: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    skip_file: str | None = None
    junit: str | None = None
    junit_root: str | None = None
    quiet: bool = False
    verbose: bool = False
    maxfail: int | None = None
    total_timeout: float | None = None
    progress_interval: float = PROGRESS_INTERVAL
    suite_given: bool = False


def _validate(opts: Options) -> None:
    if opts.timeout <= 0:
        raise UsageError("--timeout must be more than 0 seconds")
    if opts.batch and opts.impl is None:
        raise UsageError("--batch needs --impl COMMAND (linguo itself runs in process)")
    if opts.maxfail is not None and opts.maxfail < 1:
        raise UsageError("--maxfail must be 1 or more")
    if opts.total_timeout is not None and not opts.total_timeout > 0:
        raise UsageError("--total-timeout must be more than 0 seconds")
    opts.rulesets = golden_select.check_rulesets(opts.rulesets)


# ---------------------------------------------------------------------------
# Texts


def stderr_lines(text: str, limit: int = STDERR_LINES) -> list[str]:
    """The last ``limit`` non-blank lines of ``text``, control characters escaped."""
    lines = [line for line in text.splitlines() if line.strip()]
    return [golden._snippet(line, 300) for line in lines[-limit:]]


def request_text(case: Case, verbose: bool) -> str:
    """The case's request as one JSON line (cut at 300 characters unless ``verbose``)."""
    text = json.dumps(case.request, ensure_ascii=False, separators=(",", ":"))
    return text if verbose or len(text) <= 300 else text[:297] + "..."


def failure_lines(o: Outcome, verbose: bool = False) -> list[str]:
    """The lines printed for a failed case: one per difference, then where
    the case is (``FILE:LINE``) with its description, its request and the
    last lines of the implementation's stderr."""
    if not o.failed:
        return []
    out = o.lines()
    out.append(f"  at {o.case.where}: {' '.join(o.case.description.split())}")
    out.append(f"  request: {request_text(o.case, verbose)}")
    out.extend(f"  stderr: {line}" for line in stderr_lines(o.reply.stderr))
    return out


def answer_of(o: Outcome) -> str:
    """What the implementation answered, as one comparable text."""
    r = o.reply
    if r.failure is not None:
        return str(r.failure)
    return "; ".join(f"got {show(m.actual)}" for m in o.mismatches)


def _answered(o: Outcome) -> bool:
    """Did the engine answer within the protocol (a result, an error result
    with exit 3 or 4, a ``ready: false`` hello, or a timeout)?"""
    r = o.reply
    if r.failure is not None:
        return r.failure_type in ("timeout", "refused")
    return r.error_code is None or r.error_code in (3, 4)


def same_answer_hint(outcomes: list[Outcome], impl: str | None) -> str:
    """A hint when most failures got one and the same answer and that answer
    is not one the engine gave in the protocol (it does not start, or exits
    with an unknown code); ``""`` otherwise."""
    failed = [o for o in outcomes if o.failed]
    if impl is None or len(failed) < 10:
        return ""
    answer, count = Counter(answer_of(o) for o in failed).most_common(1)[0]
    if not answer or count < 0.9 * len(failed):
        return ""
    if any(_answered(o) for o in failed if answer_of(o) == answer):
        return ""
    return (f"note: {count} of {len(failed)} failures got the same answer ({answer}): does "
            f"'{impl}' start at all? Try one request by hand: linguo golden show FILE::ID "
            "--request | <your command>")


def summary_line(outcomes: list[Outcome], implementation: str) -> str:
    """``"120 cases: 110 passed, 3 failed, 7 skipped (implementation: linguo)"``."""
    failed = sum(1 for o in outcomes if o.failed)
    skipped = sum(1 for o in outcomes if o.skipped is not None)
    return (f"{len(outcomes)} cases: {len(outcomes) - failed - skipped} passed, {failed} "
            f"failed, {skipped} skipped (implementation: {implementation})")


def junit_xml(outcomes: list[Outcome], *, implementation: str, version: int | None,
              suite_root: Path | Mapping[str, Path] | None = None,
              junit_root: str | None = None, suite_name: str = golden.SUITE_NAME) -> str:
    """A JUnit XML report: one ``testcase`` per case (``classname`` the
    ruleset and the file path with dots, ``linguomancy.tests.degrees``;
    ``name`` the case id; ``file`` the path in its suite, relative to
    ``junit_root`` when given: ``suite_root`` is the suite folder, or the
    suite folder per ruleset), a ``failure`` per failing case (``type``
    ``mismatch``, ``error_code``, ``timeout``, ``crash``, ``refused`` or
    ``protocol``) and a ``skipped`` (with the reason) per skipped case."""
    import xml.etree.ElementTree as ET

    failed = sum(1 for o in outcomes if o.failed)
    skipped = sum(1 for o in outcomes if o.skipped is not None)
    total_time = sum(o.seconds for o in outcomes)
    counts = {"tests": str(len(outcomes)), "failures": str(failed), "errors": "0",
              "skipped": str(skipped), "time": f"{total_time:.3f}"}
    root = ET.Element("testsuites", {"name": "linguo verify", **counts})
    ts = ET.SubElement(root, "testsuite", {"name": suite_name, **counts,
                                           "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S")})
    props = ET.SubElement(ts, "properties")
    ET.SubElement(props, "property", name="implementation", value=_xml_safe(implementation))
    ET.SubElement(props, "property", name="suite_version",
                  value="" if version is None else str(version))
    for o in outcomes:
        stem = f"{o.case.ruleset}/{o.case.file.rsplit('.', 1)[0]}".replace("/", ".")
        tc = ET.SubElement(ts, "testcase", classname=stem, name=o.case.id,
                           file=_junit_file(o.case, suite_root, junit_root),
                           time=f"{o.seconds:.3f}")
        if o.skipped is not None:
            ET.SubElement(tc, "skipped", message=_xml_safe(o.skipped))
        elif o.failed:
            _junit_failure(ET.SubElement(tc, "failure"), o)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _junit_file(case: Case, suite_root: Path | Mapping[str, Path] | None,
                junit_root: str | None) -> str:
    if isinstance(suite_root, Mapping):
        suite_root = suite_root.get(case.ruleset)
    if junit_root is None or suite_root is None:
        return case.file
    return Path(os.path.relpath((suite_root / case.file).resolve(),
                                Path(junit_root).resolve())).as_posix()


def _junit_failure(fail: Any, o: Outcome) -> None:
    lines = o.lines()
    if o.reply.failure is not None:
        kind = o.reply.failure_type or "crash"
    elif any(m.path.startswith("error") or m.path == "(result)" for m in o.mismatches):
        kind = "error_code"
    else:
        kind = "mismatch"
    first = lines[0].split(": ", 1)[1] if lines else "failed"
    fail.set("message", _xml_safe(first))
    fail.set("type", kind)
    fail.text = _xml_safe("\n".join([o.case.description, *failure_lines(o, verbose=True)]))


def _xml_safe(text: str) -> str:
    return golden._xml_safe(text)


# ---------------------------------------------------------------------------
# Progress and stops


class Progress:
    """Progress on stderr: a bar on a terminal, else a line every
    ``interval`` seconds (and one at the end); nothing when ``quiet``."""

    def __init__(self, total: int, *, quiet: bool, interval: float,
                 err: IO[str] | None = None) -> None:
        self.total, self.done, self.failed, self.skipped = total, 0, 0, 0
        self.err = err or sys.stderr
        self.interval = interval
        self.quiet = quiet
        self.terminal = bool(getattr(self.err, "isatty", lambda: False)())
        self.last = time.monotonic()
        self._bar: Any = None
        self._task: Any = None

    @contextmanager
    def shown(self) -> Iterator[Progress]:
        if self.quiet or not self.terminal:
            yield self
            if not self.quiet and self.done:
                self._line()
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as Bar

        with Bar(TextColumn("verify"), BarColumn(), MofNCompleteColumn(),
                 TextColumn("{task.fields[failed]} failed"), TimeElapsedColumn(),
                 console=Console(stderr=True), transient=True) as bar:
            self._bar, self._task = bar, bar.add_task("verify", total=self.total, failed=0)
            yield self

    def update(self, o: Outcome) -> None:
        self.done += 1
        self.failed += o.failed
        self.skipped += o.skipped is not None
        if self._bar is not None:
            self._bar.update(self._task, advance=1, failed=self.failed)
        elif not self.quiet and time.monotonic() - self.last >= self.interval:
            self._line()

    def _line(self) -> None:
        self.last = time.monotonic()
        self.err.write(f"verify: {self.done}/{self.total} cases, {self.failed} failed, "
                       f"{self.skipped} skipped\n")
        self.err.flush()


def early_stop(ran: list[Outcome]) -> str | None:
    """Why to stop after the first :data:`EARLY_STOP_CASES` cases run (not
    skipped): all failed with the same answer, or all timed out; else ``None``."""
    if len(ran) != EARLY_STOP_CASES or not all(o.failed for o in ran):
        return None
    if all(o.reply.failure_type == "timeout" for o in ran):
        return f"the first {EARLY_STOP_CASES} cases all timed out"
    answers = {answer_of(o) for o in ran}
    if len(answers) == 1:
        return f"the first {EARLY_STOP_CASES} cases all failed with the same answer"
    return None


def early_stop_lines(reason: str, o: Outcome) -> list[str]:
    """The early-stop report: the reason, then one case's request, the
    answer and the implementation's whole captured stderr for it."""
    r = o.reply
    if r.failure is not None:
        got = r.failure
    elif r.error_code is not None:
        got = json.dumps(r.error or {"exit": r.error_code}, ensure_ascii=False)
    else:
        got = show(r.result, 2000)
    lines = [f"stopped early: {reason}; one of them, {o.case.test_id} ({o.case.where}):",
             f"  request: {request_text(o.case, True)}", f"  answer: {got}"]
    text = r.stderr.strip()
    lines.append("  stderr:" + ("" if text else " (empty)"))
    lines.extend(f"    {golden._snippet(line, 2000)}" for line in text.splitlines())
    return lines


# ---------------------------------------------------------------------------
# The run


@dataclass(slots=True)
class _Plan:
    cases: list[Case]
    runner: golden.Runner
    close: Callable[[], None]
    label: str
    capability: golden_select.Capability | None
    skips: golden_select.SkipList
    impl_obj: Any = None
    rulesets: list[str] | None = None
    roots: dict[str, Path] = field(default_factory=dict)
    version: int | None = None


def _plan(root: Path | None, opts: Options) -> _Plan:
    capability = golden_select.capability_from_kinds(opts.kinds) if opts.kinds else None
    skips = (golden_select.load_skip_file(opts.skip_file) if opts.skip_file
             else golden_select.SkipList())
    first = root if root is not None else golden.suite_dir(
        opts.rulesets[0] if opts.rulesets else golden.DEFAULT_RULESET)
    version = golden.suite_version(first)  # read once (EXAMPLES and RULES parsed)
    if opts.impl is None:
        runner: golden.Runner = golden.run_in_process
        plan = _Plan([], runner, lambda: None, "linguo (in process)", capability, skips)
    else:
        argv = golden.split_command(opts.impl)
        label = opts.impl + (" (batch)" if opts.batch else "")
        if opts.batch:
            impl = golden.BatchImplementation(argv, timeout=opts.timeout, version=version)
            hello = impl.start()
            if capability is None and hello is not None:
                capability = golden_select.capability_from_hello(hello)
            plan = _Plan([], impl, impl.close, label, capability, skips, impl)
        else:
            plain = golden.PlainImplementation(argv, timeout=opts.timeout, version=version)
            plan = _Plan([], plain, plain.close, label, capability, skips, plain)
    plan.rulesets = _rulesets(plan, opts)
    plan.roots = ({name: root for name in plan.rulesets or ()} if root is not None else
                  {name: golden.suite_dir(name) for name in plan.rulesets or ()})
    for suite_root in [root] if root is not None else list(dict.fromkeys(plan.roots.values())):
        assert suite_root is not None
        plan.cases.extend(golden.load_cases(golden.require_suite(suite_root)))
    plan.version = version
    if not plan.cases and plan.rulesets != []:  # none declared: _selected says so
        raise InputError(Diagnostic(str(first), "", "no golden cases"))
    return plan


def _rulesets(plan: _Plan, opts: Options) -> list[str] | None:
    """The rulesets whose cases run: ``--ruleset``; else, with ``--impl``,
    those it declares (its hello or ``--kinds``; neither: Linguomancy); else
    every installed ruleset (``None`` with a SUITE folder: all its cases)."""
    if opts.rulesets:
        return list(opts.rulesets)
    if opts.impl is not None:
        return list(plan.capability.rulesets) if plan.capability else [golden.DEFAULT_RULESET]
    return None if opts.suite_given else rulesets.names()


def _selected(plan: _Plan, opts: Options) -> list[Case]:
    chosen = golden_select.select(plan.cases, opts.filters, opts.excludes, plan.rulesets)
    if not chosen:
        shown = " ".join([*(f"--filter {f}" for f in opts.filters),
                          *(f"--exclude {x}" for x in opts.excludes)])
        raise UsageError(f"no case matches {shown or 'the selected rulesets'}")
    return chosen


def _skip_reason(case: Case, plan: _Plan) -> str | None:
    cap = plan.capability
    if cap is not None and not cap.supports(case):
        return f"kind {case.kind} not declared by the implementation ({cap.source})"
    return plan.skips.reason(case)


@dataclass(slots=True)
class _State:
    outcomes: list[Outcome] = field(default_factory=list)
    ran: list[Outcome] = field(default_factory=list)
    stopped: list[str] = field(default_factory=list)
    failed: int = 0


def _one(case: Case, plan: _Plan, opts: Options, deadline: float | None
         ) -> Outcome | None:
    """Run or skip one case; ``None`` when the total time ran out during it."""
    reason = _skip_reason(case, plan)
    if reason is not None:
        return Outcome(case, Reply(), skipped=reason)
    timeout = opts.timeout
    if deadline is not None and plan.impl_obj is not None:
        timeout = min(opts.timeout, max(deadline - time.monotonic(), 0.01))
        plan.impl_obj.timeout = timeout
    outcome = golden.run_case(case, plan.runner)
    if outcome.reply.failure_type == "timeout" and timeout < opts.timeout:
        return None
    if outcome.reply.unsupported is not None:
        outcome.skipped = f"unsupported: {outcome.reply.unsupported}"
        outcome.mismatches = []
    return outcome


def _loop(cases: list[Case], plan: _Plan, opts: Options, out: IO[str],
          progress: Progress) -> _State:
    st = _State()
    deadline = (time.monotonic() + opts.total_timeout) if opts.total_timeout else None
    for i, case in enumerate(cases):
        if deadline is not None and time.monotonic() >= deadline:
            st.stopped.append(f"stopped: the total time limit of {opts.total_timeout:g} s "
                              f"was reached; {len(cases) - i} cases not run")
            break
        outcome = _one(case, plan, opts, deadline)
        if outcome is None:
            st.stopped.append(f"stopped: the total time limit of {opts.total_timeout:g} s "
                              f"was reached during {case.test_id}; {len(cases) - i} cases "
                              "not run")
            break
        st.outcomes.append(outcome)
        progress.update(outcome)
        if outcome.failed:
            st.failed += 1
            for line in failure_lines(outcome, opts.verbose):
                out.write(line + "\n")
            out.flush()
        if outcome.skipped is None:
            st.ran.append(outcome)
        left = len(cases) - i - 1
        if opts.maxfail is not None and st.failed >= opts.maxfail and left:
            st.stopped.append(f"stopped after {st.failed} failures (--maxfail "
                              f"{opts.maxfail}); {left} cases not run")
            break
        why = early_stop(st.ran) if opts.impl is not None else None
        if why is not None and left:
            st.stopped.extend(early_stop_lines(why, st.ran[0]))
            st.stopped.append(f"{left} cases not run")
            break
    return st


def run(root: Path | None, opts: Options, out: IO[str] | None = None,
        err: IO[str] | None = None) -> int:
    """Run the suite at ``root`` as ``opts`` says; returns 1 when a case
    failed or the run stopped before its end, else 0.

    ``root`` ``None``: the suites (``golden/<ruleset>/``) of the rulesets
    chosen: ``--ruleset`` (aliases accepted); else, with ``--impl``, those
    the implementation declares (batch hello or ``--kinds``; neither:
    Linguomancy only); else every installed ruleset.

    Raises :class:`InputError` (exit 3) for a broken suite or skip file and
    :class:`UsageError` (exit 2) for bad options or a selection matching nothing."""
    from linguo_cli.conformance import impl_process
    from linguo_cli.io.write import atomic_write

    out = out or sys.stdout
    _validate(opts)
    if root is not None:
        golden.require_suite(root)
        opts.suite_given = True
    with impl_process.guarded() if opts.impl is not None else _nothing():
        plan = _plan(root, opts)
        try:
            cases = _selected(plan, opts)
            progress = Progress(len(cases), quiet=opts.quiet,
                                interval=opts.progress_interval, err=err)
            with progress.shown():
                st = _loop(cases, plan, opts, out, progress)
        finally:
            plan.close()
    for entry in plan.skips.unused():
        (err or sys.stderr).write(f"linguo: warning: {entry.place}: skip entry "
                                  f"{entry.pattern!r} matches no case\n")
    for line in st.stopped:
        out.write(line + "\n")
    hint = same_answer_hint(st.outcomes, opts.impl)
    if hint:
        out.write(hint + "\n")
    out.write(summary_line(st.outcomes, plan.label) + "\n")
    out.flush()
    if opts.junit:
        atomic_write(opts.junit, junit_xml(
            st.outcomes, implementation=plan.label, version=plan.version,
            suite_root=root if root is not None else plan.roots, junit_root=opts.junit_root))
    return 1 if st.failed or st.stopped else 0


@contextmanager
def _nothing() -> Iterator[None]:
    yield
