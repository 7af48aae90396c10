"""Per-module results of a mutation run: the table, the survivors, JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class Outcome:
    """One mutant's verdict: ``status`` is killed, survived, timeout,
    uncovered (no test executes the line; counts as surviving) or
    equivalent; ``path`` is how it was decided (forked, isolated, and why
    isolated: unsound swap, confirming a survivor)."""

    mutant: str
    status: str
    seconds: float
    line: str = ""
    path: str = ""
    cpu: float = 0.0


@dataclass
class ModuleReport:
    """Counts of one module; ``seconds`` sums its runs (job time, not wall
    time: with ``--jobs 2`` two run at once), ``cpu`` their CPU seconds."""

    module: str
    mutants: int = 0
    equivalent: int = 0
    killed: int = 0
    survived: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def rate(self) -> float:
        judged = self.mutants - self.equivalent
        return 100.0 * self.killed / judged if judged else 100.0

    def add(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        self.seconds += outcome.seconds
        self.cpu += outcome.cpu
        if outcome.status == "equivalent":
            self.equivalent += 1
        elif outcome.status in ("killed", "timeout"):
            self.killed += 1
        else:
            self.survived += 1


def _minutes(seconds: float) -> str:
    m, s = divmod(round(seconds), 60)
    return f"{m} min {s:02d} s" if m else f"{s} s"


def print_report(reports: list[ModuleReport], wall: float, cpu: float) -> None:
    """The table (one row a module), then every surviving mutant; ``wall``
    and ``cpu``: the whole run's seconds (CPU of this process and all its
    children, coverage map included)."""
    print()
    print(f"{'module':<16} {'mutants':>7} {'equiv.':>6} {'killed':>6} {'survived':>8} "
          f"{'kill rate':>9} {'job time':>12} {'CPU':>12}")
    for r in reports:
        print(f"{r.module:<16} {r.mutants:>7} {r.equivalent:>6} {r.killed:>6} "
              f"{r.survived:>8} {r.rate:>8.1f}% {_minutes(r.seconds):>12} "
              f"{_minutes(r.cpu):>12}")
    total = sum(r.mutants for r in reports)
    print(f"{total} mutants, wall time {_minutes(wall)}, CPU time {_minutes(cpu)}")
    for r in reports:
        left = [o for o in r.outcomes if o.status in ("survived", "uncovered")]
        if left:
            print(f"\nsurviving mutants of {r.module}:")
            for o in sorted(left, key=lambda o: o.mutant):
                note = " (no test executes the line)" if o.status == "uncovered" else ""
                print(f"  {o.mutant:<32} {o.line[:70]}{note}")


def write_json(path: Path, reports: list[ModuleReport]) -> None:
    """The same as JSON: per module the counts, ``kill_rate``, outcomes."""
    path.write_text(json.dumps(
        [{**{k: v for k, v in asdict(r).items() if k != "outcomes"}, "kill_rate": r.rate,
          "outcomes": [asdict(o) for o in r.outcomes]} for r in reports], indent=2),
        encoding="utf-8")
