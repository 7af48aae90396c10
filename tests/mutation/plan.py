"""What to run for each module and mutant, and what a result means.

:class:`Planner` turns the chosen modules into jobs (a baseline per module,
then its mutants once the baseline has named the tests failing already and
given the timeout), and each result into a verdict or a follow-up run: an
unsound swap and (with ``--confirm``) a forked survivor run again
isolated; ``--compare`` runs every mutant both ways.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

from tests.mutation.config import MODULES
from tests.mutation.equivalent import Equivalents
from tests.mutation.mutants import Mutant, mutants_of
from tests.mutation.report import ModuleReport, Outcome
from tests.mutation.workers import Job, Result, Step

_ISOLATED_START = 30.0  # seconds more for a fresh process when the baseline ran forked


def cheap_first(nodes: list[str]) -> list[str]:
    """``nodes`` with the unit tests first and the slow whole-program tests
    (``tests/cli``, ``tests/conformance``) last: ``pytest -x`` stops at the
    first failure, so a mutant a unit test kills is killed in seconds."""
    return sorted(nodes, key=lambda n: (n.startswith(("tests/cli/", "tests/conformance/")), n))


@dataclass
class _Module:
    name: str
    rel: str
    source: str
    mutants: list[Mutant]
    fallback: list[str]
    line_tests: dict[int, list[str]] | None
    timeout: float = 0.0
    deselect: list[str] = field(default_factory=list)
    forked_baseline: bool = True

    def tests_of(self, m: Mutant) -> tuple[list[str], bool]:
        """The tests of ``m``'s line (the map's when no line test) and
        whether no collected test executes the line."""
        if self.line_tests is None:
            return self.fallback, False
        if m.line not in self.line_tests:
            return self.fallback, True
        return cheap_first(self.line_tests[m.line]) or self.fallback, False


class Planner:
    """Builds the jobs of a run and collects the verdicts per module."""

    def __init__(self, root: Path, names: list[str],
                 cover: dict[str, dict[int, list[str]]] | None, equivalent: Equivalents,
                 test_map: dict[str, list[str]], args: argparse.Namespace) -> None:
        self.args = args
        self.mods: dict[str, _Module] = {}
        self._reports = {n: ModuleReport(n) for n in names}
        self.spent: dict[str, tuple[float, float]] = {}  # id -> seconds, CPU of earlier runs
        self.forked: dict[str, tuple[str, float]] = {}  # --compare: forked verdict, CPU s
        self.compare_rows: list[tuple[str, str, float, str, float]] = []
        wanted = set(filter(None, args.mutants.split(",")))
        for n in names:
            rel = MODULES[n]
            source = (root / rel).read_text(encoding="utf-8")
            lines = source.splitlines()
            every = mutants_of(n, source)
            for stale in equivalent.unmatched(n, every, lines):
                print(f"equivalent.txt: {stale} names no mutant of {n} (stale?)", flush=True)
            chosen = [m for m in every if m.id in wanted] if wanted else every
            chosen = chosen[:: max(1, args.sample)]
            if args.limit:
                chosen = chosen[: args.limit]
            report = self._reports[n]
            report.mutants = len(chosen)
            to_run = []
            for m in chosen:
                if equivalent.reason(m, lines) is not None:
                    report.add(Outcome(m.id, "equivalent", 0.0, lines[m.line - 1].strip()))
                else:
                    to_run.append(m)
            line_tests = None if cover is None else cover.get(rel, {})
            self.mods[n] = _Module(n, rel, source, to_run, test_map.get(n, ["tests"]),
                                   line_tests)

    # -- jobs -------------------------------------------------------------
    def test_files(self) -> list[str]:
        """Every test file a job of this run may name (for the warm-up)."""
        files: set[str] = set()
        for mod in self.mods.values():
            for m in mod.mutants:
                files.update(t.split("::")[0] for t in mod.tests_of(m)[0])
            files.update(t.split("::")[0] for t in mod.fallback)
        return sorted(files)

    def _union(self, mod: _Module) -> list[str]:
        tests = {t for m in mod.mutants for t in mod.tests_of(m)[0]}
        return sorted(tests | set(mod.fallback))

    def baselines(self) -> list[Job]:
        """One baseline job per module with mutants to run."""
        iso = self.args.isolated
        return [Job(mod.name, mod.rel, mod.source, None, [Step(self._union(mod), 3600.0)],
                    isolated=iso, baseline=True) for mod in self.mods.values() if mod.mutants]

    def _job(self, mod: _Module, m: Mutant, isolated: bool, tag: str) -> Job:
        tests, _ = self.tests_of_mutant(mod, m)
        timeout = mod.timeout + (_ISOLATED_START if isolated and mod.forked_baseline else 0)
        steps = [Step(tests, timeout, mod.deselect)]
        if tests != mod.fallback:
            steps.append(Step(mod.fallback, timeout, mod.deselect))
        return Job(mod.name, mod.rel, mod.source, m, steps, isolated, tag=tag)

    @staticmethod
    def tests_of_mutant(mod: _Module, m: Mutant) -> tuple[list[str], bool]:
        return mod.tests_of(m)

    # -- results ----------------------------------------------------------
    def on_done(self, job: Job, result: Result) -> list[Job]:
        """Record ``result``; the follow-up jobs (a module's mutants after
        its baseline, an isolated re-run)."""
        mod = self.mods[job.module]
        if job.baseline:
            return self._after_baseline(mod, result)
        assert job.mutant is not None
        m = job.mutant
        secs, cpu = self.spent.pop(m.id, (0.0, 0.0))
        spent = (secs + result.seconds, cpu + result.cpu)
        if result.unsound:
            print(f"  {m.id}: swap unsound ({result.unsound}); isolated", flush=True)
            self.spent[m.id] = spent
            return [self._job(mod, m, True, "unsound")]
        status = self._status(mod, m, result)
        if self.args.compare and not job.isolated:
            self.forked[m.id] = (status, result.cpu)
            self.spent[m.id] = spent
            return [self._job(mod, m, True, "compare")]
        if self.args.compare:
            fork_status, fork_secs = self.forked.pop(m.id, ("-", 0.0))
            self.compare_rows.append((m.id, fork_status, fork_secs, status, result.cpu))
        elif not job.isolated and result.passed and self.args.confirm:
            self.spent[m.id] = spent
            return [self._job(mod, m, True, "confirm")]
        path = ("isolated" + (f" ({job.tag})" if job.tag else "")) if job.isolated else "forked"
        if job.tag == "confirm" and not result.passed:
            print(f"  {m.id}: survived forked but killed isolated (a stale import-time "
                  "value or a test the swap does not reach)", flush=True)
        line = mod.source.splitlines()[m.line - 1].strip()
        self._reports[mod.name].add(Outcome(m.id, status, spent[0], line, path, spent[1]))
        if self.args.verbose:
            print(f"  {m.id:<32} {status:<9} {spent[0]:6.1f} s {spent[1]:5.1f} CPU s  "
                  f"{path:<20} {line[:40]}", flush=True)
        return []

    def _status(self, mod: _Module, m: Mutant, result: Result) -> str:
        if result.timed_out:
            return "timeout"
        if result.passed:
            return "uncovered" if mod.tests_of(m)[1] else "survived"
        return "killed"

    def _after_baseline(self, mod: _Module, result: Result) -> list[Job]:
        if not result.passed and not result.failed:
            raise SystemExit(f"{mod.name}: the baseline run fails without naming a test")
        for node in result.failed:
            print(f"{mod.name}: baseline failure deselected: {node}", flush=True)
        mod.deselect = result.failed
        mod.forked_baseline = not self.args.isolated
        mod.timeout = self.args.timeout or default_timeout(result.seconds)
        print(f"{mod.name}: {len(mod.mutants)} mutants to run (baseline {result.seconds:.1f} s "
              f"for {len(self._union(mod))} tests)", flush=True)
        return [self._job(mod, m, self.args.isolated, "") for m in mod.mutants]

    def reports(self) -> list[ModuleReport]:
        return list(self._reports.values())

    def print_compare(self) -> None:
        """``--compare``: verdicts of both paths, where they differ, times."""
        if not self.compare_rows:
            return
        same = [r for r in self.compare_rows if _verdict(r[1]) == _verdict(r[3])]
        fork_t = sum(r[2] for r in self.compare_rows)
        iso_t = sum(r[4] for r in self.compare_rows)
        n = len(self.compare_rows)
        print(f"\ncompare: {n} mutants, same verdict forked and isolated: {len(same)}; "
              f"CPU per mutant forked {fork_t / n:.2f} s, isolated {iso_t / n:.2f} s")
        for mid, fs, ft, iso, it in self.compare_rows:
            if _verdict(fs) != _verdict(iso):
                print(f"  differs: {mid:<32} forked {fs} ({ft:.1f} CPU s), isolated {iso} "
                      f"({it:.1f} CPU s)")


def default_timeout(baseline: float) -> float:
    """Seconds a mutant's run may take when ``--timeout`` is not given: twice
    the module's baseline plus 30 s. The baseline runs every test that
    covers any mutated line of the module, a mutant only those covering its
    line, so an unslowed mutant needs at most about the baseline; a mutant
    that makes the tests loop (a work budget) is cut off in minutes, not the
    11 minutes each of the old 10 x baseline + 30 s."""
    return 2 * baseline + 30


def _verdict(status: str) -> str:
    return "killed" if status in ("killed", "timeout") else "survived"
