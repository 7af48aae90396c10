"""What issue 16's child processes measure in process (``run.py --child16
FIGURE``), under the interpreter of the installation measured (this
checkout's wheel, previous main's, or this environment): five-step turns,
``linguo verify`` called in process, and the odds figure with icepool beside
it. Standard library, the installation's linguo and (odds only) icepool.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from harness import NotAvailable, mod, per_second, turn_request


def child_main(args: argparse.Namespace) -> None:
    """Child mode (``run.py --child16 FIGURE --json OUT [--quick]
    [--icepool-first]``): measure ``FIGURE`` with this interpreter's linguo
    and write its figures to ``OUT`` as JSON."""
    measures: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
        "turns": child_turns, "verify": child_verify, "odds": child_odds}
    Path(args.json).write_text(json.dumps(measures[args.child16](args)), encoding="utf-8")


def child_turns(args: argparse.Namespace) -> dict[str, Any]:
    """Five-step turns per second through ``resolve`` (a 4-entity state)."""
    resolve = mod("requests").resolve
    req = turn_request()
    resolve(req)  # legal, or the child fails with linguo's error
    rate = per_second(lambda: resolve(req), min_time=0.05 if args.quick else 0.25,
                      repeats=1 if args.quick else 3)
    return {"rate": rate}


def _suite_copy(root: Path, folder: Path, tag: str) -> Path:
    """A copy of the suite at ``root`` whose YAML files end with a comment
    naming ``tag`` (the same cases, other file contents)."""
    shutil.copytree(root, folder, symlinks=False)
    for path in folder.rglob("*.yaml"):
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"\n# benchmark copy {tag}\n")
    return folder


def _verify_in_process(main: Callable[[], Any], argv: list[str]) -> tuple[float, Any]:
    """CPU seconds of one ``linguo`` call in this process, and its exit code."""
    import io

    saved = sys.argv, sys.stdout, sys.stderr
    sys.argv = ["linguo", *argv]
    sys.stdout = sys.stderr = io.StringIO()
    code: Any = 0
    start = time.process_time()
    try:
        main()
    except SystemExit as exc:
        code = exc.code
    finally:
        elapsed = time.process_time() - start
        sys.argv, sys.stdout, sys.stderr = saved
    return elapsed, code


def child_verify(args: argparse.Namespace) -> dict[str, Any]:
    """``linguo verify`` on the Linguomancy suite, twice in this process (on
    two copies of the suite that differ in a comment): CPU seconds of each."""
    from importlib.metadata import entry_points

    main = entry_points(group="console_scripts", name="linguo")
    if not main:
        raise NotAvailable("no linguo console script")
    entry = next(iter(main)).load()
    root = Path(str(mod("golden").default_suite_dir()))
    with tempfile.TemporaryDirectory(prefix="linguo-bench-") as tmp:
        first = _suite_copy(root, Path(tmp) / "first", "1")
        second = _suite_copy(root, Path(tmp) / "second", "2")
        first_cpu, code1 = _verify_in_process(entry, ["verify", str(first), "-q"])
        cpu, code2 = _verify_in_process(entry, ["verify", str(second), "-q"])
    if code1 != 0 or code2 != 0:
        raise RuntimeError(f"linguo verify exited {code1}, {code2} on the Linguomancy suite")
    return {"cpu": cpu, "first_cpu": first_cpu}


def odds_inputs() -> list[tuple[int, int]]:
    """The (modifier, AC) inputs of figure 7: 416, none repeated."""
    return [(m, ac) for ac in range(5, 31) for m in range(-5, 11)]


def odds_request(m: int, ac: int) -> dict[str, Any]:
    return {"kind": "odds", "test": {"kind": "attack", "ac": ac, "advantage": True,
                                     "modifiers": [{"label": "modifier", "value": m}]}}


DEGREES = ("critical_failure", "failure", "partial_failure", "partial_success", "success",
           "critical_success")


def _ladder(margin: int) -> int:
    """The degree ladder (D4) as an index of :data:`DEGREES`."""
    if margin >= 10:
        return 5
    if margin >= 0:
        return 4
    return 3 if margin == -1 else 2 if margin >= -3 else 1 if margin >= -9 else 0


def icepool_attack(icepool: Any, m: int, ac: int) -> dict[str, Fraction]:
    """What the odds request gives, computed by icepool: each degree's
    probability (two d20, the higher kept; the ladder; a natural 20 one step
    up, a natural 1 one step down), hit, critical hit and critical miss."""
    natural = icepool.highest(icepool.d20, icepool.d20)
    offset = m - ac

    def degree(k: int) -> int:
        step = 1 if k == 20 else -1 if k == 1 else 0
        return min(5, max(0, _ladder(k + offset) + step))

    die = natural.map(degree)
    out = {name: die.probability(i) for i, name in enumerate(DEGREES)}
    out["hit"] = die.probability(">=", 4)
    out["critical_hit"], out["critical_miss"] = out["critical_success"], out["critical_failure"]
    return out


def child_odds(args: argparse.Namespace) -> dict[str, Any]:
    """Time per input of a first pass over :func:`odds_inputs`, linguo's odds
    request and icepool's distribution (in the order given), then a check
    that both give the same probabilities."""
    import icepool

    resolve = mod("requests").resolve
    # imports only, outside the grid (no advantage, an offset it never has)
    resolve({"kind": "odds", "test": {"kind": "check", "dc": 40, "modifiers": [
        {"label": "modifier", "value": 20}]}})
    icepool.d6.map(lambda k: k > 3)
    inputs = odds_inputs()
    mine, theirs = [], []

    def run_linguo() -> float:
        start = time.perf_counter()
        for m, ac in inputs:
            mine.append(resolve(odds_request(m, ac)))
        return (time.perf_counter() - start) / len(inputs)

    def run_icepool() -> float:
        start = time.perf_counter()
        for m, ac in inputs:
            theirs.append(icepool_attack(icepool, m, ac))
        return (time.perf_counter() - start) / len(inputs)

    order = [("icepool", run_icepool), ("linguo", run_linguo)]
    got = {name: fn() for name, fn in (order if args.icepool_first else order[::-1])}
    for (m, ac), result, want in zip(inputs, mine, theirs, strict=True):
        have = {name: Fraction(result["degrees"][name]["probability"]) for name in DEGREES}
        have |= {k: Fraction(result[k]["probability"])
                 for k in ("hit", "critical_hit", "critical_miss")}
        if have != want:
            raise RuntimeError(f"linguo and icepool disagree on modifier {m}, AC {ac}")
    return got
