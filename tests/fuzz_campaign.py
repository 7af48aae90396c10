"""The long fuzz campaign: at least 100,000 generated inputs, in process.

    python -m tests.fuzz_campaign --examples 100000      (tox -e fuzz)

Four parts share the budget: valid requests of every registered kind
(generated from the JSON Schemas, resolved with seeded dice and replayed from
their faces), valid states, mutated requests and mutated states (broken on
purpose, written as JSON or YAML). Then ``--writebacks`` (30,000) random
valid states, written as YAML or JSON in random styles, get a random
``damage`` or ``heal`` and are written back: each must read back as the new
state and differ only inside the changed values (the count of bytes changed
elsewhere is printed and must be 0). The properties are those of
``tests/test_fuzz.py`` (see :mod:`tests.fuzzing`). Prints the number of
inputs run and the outcomes; exits 1 at the first escaped exception or broken
property (after Hypothesis shrank it), else 0.

Then ``--exchanges`` (30,000) verify/adapter exchanges: three quarters are
hostile answers of an in-process fake implementation (plain and batch mode)
judged by the runner code of ``linguo verify``, in reports of 25 cases with
their JUnit XML; the rest are request lines (valid, perturbed and hostile)
answered in memory by ``linguo adapter`` (batch and plain); then
:data:`SUBPROCESS_RUNS` real runs of ``verify --batch`` against
``tests/hostile_impl.py`` (garbage, two lines, a 9 MiB line, deep nesting,
exits, sleeps past the timeout, a double-forked sleeper). Counts are
printed, with the peak memory (``ru_maxrss``): exit 1 when it is
:data:`MAX_PEAK_MIB` MiB or more, or a process is left behind.

Then ``--rulesets`` (30,000) requests of the other rulesets (PTR 2e, Novence
Eternal; every kind with a request schema): generated from the kind's schema
and resolved with seeded dice (replayed from their faces), golden requests
resolved with other dice, and golden or generated requests mutated, refused
with a place; then ``--round-files`` (3,000) PTR 2e states and scripts
(golden rounds and the example round, mutated or not) played by ``linguo
ptr2e round --in-place``: exit 0, 3 or 4, never a traceback, a refused round
leaves the state file unchanged (:mod:`tests.fuzzing_rulesets`).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

try:
    from tests import fuzzing, fuzzing_rulesets
except ImportError:  # run as a script from tests/
    import fuzzing  # type: ignore[no-redef]
    import fuzzing_rulesets  # type: ignore[no-redef]


#: Runs of ``verify --batch`` against ``tests/hostile_impl.py`` (each script once or more).
SUBPROCESS_RUNS = 2 * len(fuzzing.HOSTILE_SCRIPTS)
#: Inputs per Hypothesis run of a part (see :func:`_part`).
CHUNK = 1000
#: The campaign's peak memory must stay under this (MiB, issue 15).
MAX_PEAK_MIB = 300


def _part(name: str, examples: int, strategy: st.SearchStrategy[Any],
          check: Callable[[Any, Counter[str]], None], stats: Counter[str],
          seed: int | None) -> int:
    """Run ``check`` on ``examples`` inputs drawn from ``strategy``, in
    Hypothesis runs of :data:`CHUNK` inputs (one long run keeps every drawn
    value alive: memory would grow with the count); returns how many ran."""
    ran = [0]
    start = time.monotonic()
    for first in range(0, examples, CHUNK):
        @settings(max_examples=min(CHUNK, examples - first), deadline=None, database=None,
                  suppress_health_check=list(HealthCheck), print_blob=True)
        @given(strategy)
        def run(value: Any) -> None:
            ran[0] += 1
            check(value, stats)
            if ran[0] % 5000 == 0:
                print(f"  {name}: {ran[0]} inputs ({time.monotonic() - start:.0f} s)",
                      file=sys.stderr, flush=True)

        if seed is not None:
            run = hypothesis.seed(seed + first)(run)
        run()
    return ran[0]


def main(argv: list[str] | None = None) -> int:
    """Run the campaign; print the count; 0 when nothing escaped."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=100_000,
                        help="total generated inputs (default 100000)")
    parser.add_argument("--derandomize", action="store_true",
                        help="the same inputs every run")
    parser.add_argument("--writebacks", type=int, default=30_000,
                        help="write-backs of random valid states (default 30000; issue 15)")
    parser.add_argument("--exchanges", type=int, default=30_000,
                        help="verify/adapter exchanges with hostile answers (default 30000; "
                             "issue 15)")
    parser.add_argument("--rulesets", type=int, default=30_000,
                        help="requests of the other rulesets, PTR 2e and Novence Eternal "
                             "(default 30000; issue 20)")
    parser.add_argument("--round-files", type=int, default=3_000,
                        help="PTR 2e state and script files played in place (default 3000; "
                             "issue 20)")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    n = args.examples
    seed = 0 if args.derandomize else None
    stats: Counter[str] = Counter()
    counts: dict[str, int] = {}
    seeds = st.integers(0, 2**32)
    parts: list[tuple[str, int, st.SearchStrategy[Any], Callable[[Any, Counter[str]], None]]] = [
        ("valid requests", n * 4 // 10, st.tuples(fuzzing.any_request(), seeds),
         lambda v, s: fuzzing.check_resolution(v[0], v[1], s)),
        ("valid states", n // 10, fuzzing.states(),
         lambda v, s: fuzzing.check_state_text(v, s)),
        ("mutated requests", n * 3 // 10, fuzzing.mutated_texts(fuzzing.any_request()),
         lambda v, s: fuzzing.check_text(v, "request", s)),
    ]
    parts.append(("mutated states", n - sum(p[1] for p in parts),
                  fuzzing.mutated_texts(fuzzing.states()),
                  lambda v, s: fuzzing.check_text(v, "state", s)))
    print(f"fuzz campaign: {n} inputs over kinds {', '.join(fuzzing.request_kinds())}",
          flush=True)
    started = time.monotonic()
    for name, examples, strategy, check in parts:
        try:
            counts[name] = _part(name, examples, strategy, check, stats, seed)
        except Exception as exc:  # the shrunk failing input was printed by Hypothesis
            total = sum(counts.values())
            print(f"fuzz campaign FAILED in {name!r} after {total} earlier inputs: "
                  f"{type(exc).__name__}: {exc}")
            return 1
        print(f"  {name}: {counts[name]} inputs", flush=True)
    if args.writebacks:
        wb_stats: Counter[str] = Counter()
        wb_cases = st.tuples(fuzzing.writeback_texts(), st.integers(0, 7), st.integers(1, 6),
                             st.integers(1, 6))
        try:
            done = _part("write-backs", args.writebacks, wb_cases,
                         fuzzing.check_writeback, wb_stats, seed)
        except Exception as exc:  # the shrunk failing input was printed by Hypothesis
            print(f"fuzz campaign FAILED in 'write-backs': {type(exc).__name__}: {exc}")
            return 1
        outside = wb_stats.pop("bytes outside changed values", 0)
        print(f"  write-backs: {done} random valid states written back "
              f"({', '.join(f'{k} {v}' for k, v in sorted(wb_stats.items()))}); "
              f"bytes changed outside the changed values: {outside}", flush=True)
        if done < args.writebacks or outside:
            return 1
    if args.exchanges and _exchanges(args.exchanges, seed):
        return 1
    if (args.rulesets or args.round_files) and _other_rulesets(args.rulesets,
                                                               args.round_files, seed):
        return 1
    total = sum(counts.values())
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(stats.items()))
    print(f"fuzz campaign: {total} inputs run in {time.monotonic() - started:.0f} s; "
          f"escaped exceptions: 0; outcomes: {outcomes}", flush=True)
    return 0 if total >= n else 1


def _exchanges(n: int, seed: int | None) -> int:
    """The verify/adapter part: ``n`` exchanges (answers judged + adapter
    lines answered), then the subprocess runs; prints the counts; returns 1
    on a failure, the memory limit passed or a process left behind."""
    stats: Counter[str] = Counter()
    fake = fuzzing.FakeBatch()
    batch: list[Any] = []

    def judge(value: Any, s: Counter[str]) -> None:
        batch.append(fuzzing.judge_exchange(value, fake, s))
        if len(batch) == 25:
            fuzzing.check_report(batch)
            batch.clear()

    def serve(value: Any, s: Counter[str]) -> None:
        s["adapter lines"] += fuzzing.check_adapter(value, s)

    before = frozenset(fuzzing.left_behind(frozenset()))
    judged = n * 3 // 4
    try:
        _part("answers judged", judged, fuzzing.exchanges(), judge, stats, seed)
        if batch:
            fuzzing.check_report(batch)
        sessions = 0
        while stats["adapter lines"] < n - judged:  # about 5 lines a session
            want = max((n - judged - stats["adapter lines"]) // 5, 1)
            sessions += _part("adapter sessions", want, fuzzing.adapter_sessions(), serve,
                              stats, None if seed is None else seed + 7 + sessions)
        with tempfile.TemporaryDirectory(prefix="linguo-fuzz-") as work:
            for i in range(SUBPROCESS_RUNS):
                script = fuzzing.HOSTILE_SCRIPTS[i % len(fuzzing.HOSTILE_SCRIPTS)]
                fuzzing.check_subprocess(script, work, stats)
    except Exception as exc:  # the shrunk failing input was printed by Hypothesis
        print(f"fuzz campaign FAILED in 'exchanges': {type(exc).__name__}: {exc}")
        return 1
    answers = sum(v for k, v in stats.items() if k.startswith(("plain ", "batch ")))
    left = [p for p in fuzzing.left_behind(frozenset()) if p not in before]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"  exchanges: {answers} answers judged, {stats['adapter lines']} adapter lines "
          f"answered, {stats['subprocess runs']} subprocess runs, 0 escaped exceptions, "
          f"peak memory {peak:.0f} MiB, processes left behind: {len(left)}", flush=True)
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(stats.items())
                         if k not in ("adapter lines", "subprocess runs"))
    print(f"  exchange outcomes: {outcomes}", flush=True)
    if answers + stats["adapter lines"] < n or left or peak >= MAX_PEAK_MIB:
        return 1
    return 0


def _other_rulesets(n: int, files: int, seed: int | None) -> int:
    """The other rulesets' part (issue 20): ``n`` requests of PTR 2e and
    Novence Eternal (generated from each kind's schema and resolved, golden
    requests resolved with other dice, and mutated ones refused with a
    place), then ``files`` PTR 2e rounds played from state and script files
    in place (see :mod:`tests.fuzzing_rulesets`); prints the counts; 1 on a
    failure."""
    stats: Counter[str] = Counter()
    seeds = st.integers(0, 2**32)
    kinds = ", ".join(f"{r}/{k}" for r, k in fuzzing.other_ruleset_kinds())
    print(f"  other rulesets: {n} requests over {kinds}; {files} PTR 2e round files",
          flush=True)
    parts: list[tuple[str, int, st.SearchStrategy[Any], Callable[[Any, Counter[str]], None]]] = [
        ("other valid requests", n * 4 // 10, st.tuples(fuzzing_rulesets.other_requests(), seeds),
         lambda v, s: fuzzing.check_ruleset_resolution(v[0], v[1], s)),
        ("other golden requests", n * 2 // 10,
         st.tuples(fuzzing_rulesets.corpus_requests(), seeds),
         lambda v, s: fuzzing.check_ruleset_resolution(v[0], v[1], s)),
    ]
    parts.append(("other mutated requests", n - sum(p[1] for p in parts),
                  fuzzing_rulesets.mutated_requests(), fuzzing.check_ruleset_text))
    done = 0
    try:
        for name, examples, strategy, check in parts:
            done += _part(name, examples, strategy, check, stats, seed)
        with tempfile.TemporaryDirectory(prefix="linguo-fuzz-ptr-") as work:
            done += _part("PTR 2e round files", files, fuzzing_rulesets.round_files(),
                          lambda v, s: fuzzing_rulesets.check_round_files(v, work, s),
                          stats, seed)
    except Exception as exc:  # the shrunk failing input was printed by Hypothesis
        print(f"fuzz campaign FAILED in 'other rulesets': {type(exc).__name__}: {exc}")
        return 1
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(stats.items()))
    print(f"  other rulesets: {done} inputs, 0 escaped exceptions; outcomes: {outcomes}",
          flush=True)
    return 0 if done >= n + files else 1


if __name__ == "__main__":
    sys.exit(main())
