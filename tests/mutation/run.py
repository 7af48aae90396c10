#!/usr/bin/env python3
"""Mutation testing of linguo's rules modules (issue 13): ``tox -e mutation``.

Not part of the test run nor of CI. Run from the repository root, in the
environment linguo and its test extras are installed in::

    python tests/mutation/run.py --jobs 2              # every module of MODULES
    python tests/mutation/run.py --modules ticks -v    # one module
    python tests/mutation/run.py --modules dice --limit 40 --sample 2
    python tests/mutation/run.py --list --modules ticks   # the mutants, no run
    python tests/mutation/run.py --list --text-ids --modules ticks
    python tests/mutation/run.py --modules dice --mutants dice:153:31:Gt->GtE
    python tests/mutation/run.py --modules dice --sample 10 --compare   # both paths

How it works:

1. **Mutants** (:mod:`tests.mutation.mutants`): every site of a closed set
   of operators; ids ``module:line:col:operator``.
2. **Which tests** (:mod:`tests.mutation.coverage_map`): only the tests
   that execute the mutated line, from a per-test coverage map built once
   (over :data:`~tests.mutation.config.COVERAGE_TESTS` by default, in
   ``--jobs`` processes) and kept in ``.mutation/``. A mutant that survives
   the tests of its line also gets the module's :data:`TEST_MAP` tests (a
   result cached by ``functools.cache`` is attributed to the first test
   that computed it); a line no collected test executes gets the
   :data:`TEST_MAP` tests and, passing them, is reported ``uncovered``.
3. **Run** (:mod:`tests.mutation.workers`): forked from this process, which
   has imported the tests once; the child swaps the mutated module in
   (:mod:`tests.mutation.swap`) and runs ``pytest.main`` in process. A
   mutant the swap cannot take faithfully, and (with ``--confirm``) every
   mutant that survives, runs again *isolated*: a fresh pytest process over
   a copy of the tree holding the mutated file; that verdict stands.
   ``--isolated`` runs every mutant that way. ``--jobs N`` runs N at once.
   Each module's unmutated source must first pass its tests (the baseline;
   tests failing already are deselected and shown). A failing test or a
   timeout (``--timeout``, default 2 x the baseline + 30 s) kills the
   mutant.
4. **Report** (:mod:`tests.mutation.report`): per module mutants,
   equivalent (``tests/mutation/equivalent.txt``, both id forms, see
   :mod:`tests.mutation.equivalent`), killed, survived, kill rate
   ``killed / (mutants - equivalent)``, job time, and every surviving
   mutant. ``--json FILE`` writes it as JSON; ``--min-rate`` makes the exit
   code 1 when a module is below it. ``--compare`` runs each chosen mutant
   both ways and reports where the verdicts differ and the time of each.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if __name__ == "__main__":  # run as a script: import the package, not the folder
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "tests/mutation"]
    sys.path.insert(0, str(ROOT))

from tests.mutation.config import COPY, COVERAGE_TESTS, MODULES, TEST_MAP  # noqa: E402
from tests.mutation.coverage_map import collect_coverage  # noqa: E402
from tests.mutation.equivalent import load_equivalent  # noqa: E402
from tests.mutation.mutants import mutants_of  # noqa: E402
from tests.mutation.plan import Planner  # noqa: E402
from tests.mutation.report import print_report, write_json  # noqa: E402
from tests.mutation.workers import Pool, warm_up  # noqa: E402

EQUIVALENT_FILE = ROOT / "tests/mutation/equivalent.txt"
WORK = ROOT / ".mutation"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--modules", default=",".join(MODULES),
                   help="comma-separated names of MODULES (default: all)")
    p.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    p.add_argument("--text-ids", action="store_true",
                   help="with --list: the line-text form of the ids")
    p.add_argument("--mutants", default="", help="comma-separated mutant ids: run only these")
    p.add_argument("--limit", type=int, default=0, help="at most N mutants per module")
    p.add_argument("--sample", type=int, default=1, help="every Nth mutant only")
    p.add_argument("--timeout", type=float, default=0.0, help="seconds per mutant run")
    p.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    p.add_argument("--isolated", action="store_true",
                   help="a fresh pytest process per mutant (no fork server)")
    p.add_argument("--confirm", action="store_true",
                   help="re-run each forked survivor isolated (its verdict stands)")
    p.add_argument("--compare", action="store_true",
                   help="run each mutant forked and isolated; report differing verdicts")
    p.add_argument("--no-coverage", action="store_true", help="select tests by TEST_MAP only")
    p.add_argument("--coverage-tests", default=" ".join(COVERAGE_TESTS),
                   help="space-separated test paths for the coverage map "
                        f"(default: {' '.join(COVERAGE_TESTS)})")
    p.add_argument("--fresh", action="store_true", help="collect coverage again")
    p.add_argument("--json", help="write the report as JSON to this file")
    p.add_argument("--min-rate", type=float, default=0.0,
                   help="exit 1 when a module's kill rate is below this percentage")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per mutant")
    return p


def _scratch_copies(base: Path, n: int) -> list[Path]:
    out = []
    for i in range(n):
        dest = base / f"slot{i}"
        dest.mkdir()
        for item in COPY:
            src = ROOT / item
            if src.is_dir():
                shutil.copytree(src, dest / item,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif src.exists():
                shutil.copy2(src, dest / item)
        out.append(dest)
    return out


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.modules.split(",") if n.strip()]
    unknown = [n for n in names if n not in MODULES]
    if unknown:
        parser.error(f"unknown module(s) {unknown}; known: {', '.join(MODULES)}")
    if args.list:
        for n in names:
            source = (ROOT / MODULES[n]).read_text(encoding="utf-8")
            lines = source.splitlines()
            for m in mutants_of(n, source):
                print(m.text_id(lines) if args.text_ids else m.id)
        return 0

    os.chdir(ROOT)
    os.environ.setdefault("HYPOTHESIS_PROFILE", "ci")
    start, cpu0 = time.perf_counter(), _cpu()
    equivalent = load_equivalent(EQUIVALENT_FILE)
    for bad in equivalent.bad:
        print(f"equivalent.txt: not an id line, ignored: {bad}", flush=True)
    cover = None if args.no_coverage else collect_coverage(
        ROOT, WORK, args.fresh, args.coverage_tests.split(), args.jobs)
    if cover is None:
        print("tests selected by TEST_MAP (--no-coverage, or no coverage package)", flush=True)
    planner = Planner(ROOT, names, cover, equivalent, TEST_MAP, args)
    with tempfile.TemporaryDirectory(prefix="linguo-mutation-") as tmp:
        scratches = _scratch_copies(Path(tmp), max(1, args.jobs))
        if not args.isolated:
            t0 = time.perf_counter()
            warm_up(planner.test_files())
            print(f"fork server warm: tests imported in {time.perf_counter() - t0:.1f} s",
                  flush=True)
        Pool(scratches, Path(tmp)).run(planner.baselines(), planner.on_done)
    reports = planner.reports()
    print_report(reports, time.perf_counter() - start, _cpu() - cpu0)
    planner.print_compare()
    if args.json:
        write_json(Path(args.json), reports)
    if args.min_rate and any(r.rate < args.min_rate for r in reports):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
