#!/usr/bin/env python3
"""linguo benchmarks: speed and memory figures, each next to its budget.

Run from the repository root, in an environment linguo is installed in with
the ``bench`` extra (``pip install -e '.[bench]'``: d20 and icepool, the
peers)::

    python benchmarks/run.py                     # issue 16's table (~10-20 minutes)
    python benchmarks/run.py --quick             # the same figures, short (development)
    python benchmarks/run.py --only checks,odds --rounds 5
    python benchmarks/run.py --json figures.json --strict
    python benchmarks/run.py --issue14           # issue 14's table, then against 3e79094
    python benchmarks/run.py --issue14 --baseline none --only cold,checks

or ``tox -e bench`` (arguments after ``--``). Never part of the pass/fail
test run; exits 0 unless ``--strict`` is given and a budget is missed (or a
figure fails).

By default it prints issue 16's table (``issue16.py`` says how each figure
is taken): one row per figure, what was measured, this checkout's figure
against its peer's and their ratio, the budget (with the stretch goal) and
``PASS``/``MISS`` (``SKIP`` with the reason when a peer, d20 or icepool, is
not importable; ``ERROR`` when a figure could not be measured). Peers are d20,
icepool, and *previous main*: a wheel of ``PREVIOUS_MAIN`` (2bf4601, main
before issue 16's first commit; ``--previous REV`` picks another). One-off
commands and every comparison with previous main run from wheels, of this
checkout (as it is on disk) and of previous main, built with ``git
archive``/``pip wheel`` into virtual environments under ``.benchmarks/``
(``--cache-dir``), with their dependencies at this environment's versions,
and reused while nothing changes. ``--extras NAME`` installs this checkout's
wheel with that extra (e.g. an optional accelerator).

``--issue14`` prints issue 14's absolute budgets instead (``issue14.py``),
then every figure against a wheel of ``--baseline REV`` (default 3e79094,
the main before the move into layers; ``none`` skips it) as a cost ratio
with the budget ``<= 1.10x``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import asdict
from pathlib import Path

import children16
import issue14
import issue16
from harness import Row, linguo_command
from installs import repo_root


def parser() -> argparse.ArgumentParser:
    """The command line of ``run.py`` (children's hidden options included)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", default="",
                   help=f"comma-separated figure groups: {', '.join(issue16.GROUPS)} (with "
                   f"--issue14: {', '.join(issue14.FIGURES)})")
    p.add_argument("--quick", action="store_true",
                   help="short measurements for development: 1 round, 5 one-off runs, short "
                   "loops (figures are rougher; the budgets are the same)")
    p.add_argument("--runs", type=int, default=None,
                   help="one-off (cold-start) runs of each command (default 15; --quick 5)")
    p.add_argument("--rounds", type=int, default=None,
                   help="alternating measurements of each side per figure, the best kept "
                   "(default 3; --issue14: 2; --quick 1)")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when a budget is missed or a figure fails")
    p.add_argument("--previous", default=issue16.PREVIOUS_MAIN, metavar="REV",
                   help=f"previous main of issue 16's figures (default "
                   f"{issue16.PREVIOUS_MAIN}, main before issue 16's first commit)")
    p.add_argument("--extras", default="",
                   help="extras to install with this checkout's wheel (e.g. an accelerator)")
    p.add_argument("--cache-dir", default=None,
                   help="where the wheel environments are kept (default: .benchmarks/ in the "
                   "checkout)")
    p.add_argument("--issue14", action="store_true",
                   help="issue 14's table and its comparison with --baseline instead")
    p.add_argument("--sizes", default="10,100,1000,10000",
                   help="--issue14: entity counts of the generated states")
    p.add_argument("--baseline", default=issue14.DEFAULT_BASELINE, metavar="REV",
                   help="--issue14: also measure a wheel of this commit and print each "
                   f"figure's ratio with the budget <= {issue14.BASELINE_BUDGET:.2f}x "
                   f"(default {issue14.DEFAULT_BASELINE}, the main before the move into "
                   "layers); 'none' to skip")
    p.add_argument("--compare-only", action="store_true",
                   help="--issue14: only the comparison with --baseline")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--child-state-io", nargs=2, metavar=("STATE", "OUT"),
                   help=argparse.SUPPRESS)
    p.add_argument("--child16", choices=("turns", "verify", "odds"), help=argparse.SUPPRESS)
    p.add_argument("--icepool-first", action="store_true", help=argparse.SUPPRESS)
    return p


def header() -> None:
    """Interpreter, machine load, time and the linguo measured in process."""
    import linguo_cli

    try:
        load = "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:  # pragma: no cover
        load = ""
    print(f"linguo {linguo_cli.__version__} benchmarks: Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, {load}; {time.strftime('%Y-%m-%d %H:%M')}")
    print(f"in process: {Path(linguo_cli.__file__).parent}; command: "
          f"{' '.join(linguo_command())}")
    print()


def child(args: argparse.Namespace) -> int | None:
    """The hidden child modes (measure, write JSON, exit 0); ``None`` if none."""
    if args.child_state_io:
        issue14.child_state_io(*args.child_state_io)
        return 0
    if args.child16:
        children16.child_main(args)
        return 0
    if args.child:  # issue 14's compare(): the rows of --only go to --json
        args.runs = args.runs or 15
        rows = [r for name in args.only.split(",") for r in issue14.run_group(name, args)]
        Path(args.json).write_text(json.dumps([asdict(r) for r in rows]), encoding="utf-8")
        return 0
    return None


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    code = child(args)
    if code is not None:
        return code
    known = list(issue14.FIGURES) if args.issue14 else list(issue16.GROUPS)
    wanted = [w for w in args.only.split(",") if w] or known
    unknown = [w for w in wanted if w not in known]
    if unknown:
        p.error(f"unknown figure group(s) {', '.join(unknown)}; known: {', '.join(known)}")
    if args.runs is not None and args.runs < (1 if args.quick else 10):
        p.error("--runs must be at least 10 (1 with --quick)")
    if args.rounds is not None and args.rounds < 1:
        p.error("--rounds must be at least 1")
    cache = Path(args.cache_dir) if args.cache_dir else repo_root() / ".benchmarks"
    header()
    if args.issue14:
        args.runs = args.runs or (5 if args.quick else 15)
        args.rounds = args.rounds or (1 if args.quick else 2)
        rows = issue14.run_table(args, wanted, cache)
    else:
        rows = issue16.run_table(args, wanted, cache)
    return summary(rows, args)


def summary(rows: list[Row], args: argparse.Namespace) -> int:
    """The counts line, the ``--json`` file; the exit code."""
    counts = {m: sum(r.mark == m for r in rows) for m in ("PASS", "MISS", "INFO", "SKIP",
                                                          "ERROR")}
    print("-" * 130)
    print(", ".join(f"{v} {k}" for k, v in counts.items() if v))
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in rows], indent=2) + "\n",
                                   encoding="utf-8")
    return 1 if args.strict and (counts["MISS"] or counts["ERROR"]) else 0


if __name__ == "__main__":
    sys.exit(main())
