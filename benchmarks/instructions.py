"""Instructions per call of the in-process figures, counted by valgrind.

Wall-clock figures swing by tens of percent on a shared, loaded machine; the
number of instructions an interpreter executes does not. For each figure this
runs the same calls as ``benchmarks/run.py`` under ``valgrind
--tool=callgrind`` twice, with ``N1`` and ``N2`` calls, and prints
``(count(N2) - count(N1)) / (N2 - N1)``: start-up, imports and warm-up cancel
out. ``--python`` picks the interpreter (e.g. the baseline environment that
``run.py`` builds under ``.benchmarks/``), so two installations
compare call for call::

    python benchmarks/instructions.py                       # this checkout
    python benchmarks/instructions.py --python .benchmarks/baseline-*/venv/bin/python

Figures: ``check`` (the 20 scripted checks of ``run.py``, cycled), ``turn``
(its five-step turn), ``damage`` (the golden damage requests, cycled),
``odds`` (its first pass over 416 (modifier, DC) inputs, after one warm-up
request outside the grid). Needs valgrind; slow (minutes per figure).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: figure -> (N1, N2) calls
RUNS = {"check": (200, 1200), "turn": (10, 40), "damage": (100, 300), "odds": (0, 416)}


def calls(what: str) -> list[Any]:
    """The requests of figure ``what`` (as ``run.py`` builds them, ``harness.py``)."""
    sys.path.insert(0, str(HERE))
    import harness

    if what == "check":
        return [{"kind": "check", "dc": 15, "modifiers": [{"label": "strength", "value": 5}],
                 "rolls": [face]} for face in range(1, 21)]
    if what == "turn":
        return [harness.turn_request()]
    if what == "damage":
        return harness.templates("damage")
    return [{"kind": "odds", "test": {"kind": "check", "dc": dc, "advantage": True,
                                      "modifiers": [{"label": "modifier", "value": mod}]}}
            for dc in range(5, 31) for mod in range(-5, 11)]


def child(what: str, n: int) -> None:
    """Resolve ``n`` calls of figure ``what`` after warming up."""
    sys.path.insert(0, str(HERE))
    import harness

    resolve = harness.mod("requests").resolve
    reqs = calls(what)
    if what == "odds":  # imports only: fills no cache the grid reads
        resolve({"kind": "odds", "test": {"kind": "check", "dc": 40, "modifiers": [
            {"label": "modifier", "value": 20}]}})
    else:
        for r in reqs:
            resolve(r)
    for i in range(n):
        resolve(reqs[i % len(reqs)])


def count(python: str, what: str, n: int) -> int:
    """Instructions of one child run (valgrind's ``Collected`` total)."""
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           python, str(Path(__file__).resolve()), "--child", what, str(n)],
                          capture_output=True, text=True, check=True, cwd=str(HERE.parent))
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{proc.stderr[-500:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter to measure")
    parser.add_argument("--only", default=",".join(RUNS), help="comma-separated figures")
    parser.add_argument("--child", nargs=2, metavar=("FIGURE", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return 0
    for what in args.only.split(","):
        n1, n2 = RUNS[what]
        per_call = (count(args.python, what, n2) - count(args.python, what, n1)) // (n2 - n1)
        print(f"{what:<8} {per_call:>12,} instructions per call", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
