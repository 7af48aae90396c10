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
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

try:
    from tests import fuzzing
except ImportError:  # run as a script from tests/
    import fuzzing  # type: ignore[no-redef]


def _part(name: str, examples: int, strategy: st.SearchStrategy[Any],
          check: Callable[[Any, Counter[str]], None], stats: Counter[str],
          seed: int | None) -> int:
    """Run ``check`` on ``examples`` inputs drawn from ``strategy``; returns
    how many ran."""
    ran = [0]
    start = time.monotonic()

    @settings(max_examples=examples, deadline=None, database=None, derandomize=seed is not None,
              suppress_health_check=list(HealthCheck), print_blob=True)
    @given(strategy)
    def run(value: Any) -> None:
        ran[0] += 1
        check(value, stats)
        if ran[0] % 5000 == 0:
            print(f"  {name}: {ran[0]} inputs ({time.monotonic() - start:.0f} s)",
                  file=sys.stderr, flush=True)

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
    total = sum(counts.values())
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(stats.items()))
    print(f"fuzz campaign: {total} inputs run in {time.monotonic() - started:.0f} s; "
          f"escaped exceptions: 0; outcomes: {outcomes}", flush=True)
    return 0 if total >= n else 1


if __name__ == "__main__":
    sys.exit(main())
