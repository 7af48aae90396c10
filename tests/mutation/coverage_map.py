"""Which tests execute which line: the per-test coverage map.

The tests of :data:`~tests.mutation.config.COVERAGE_TESTS` (or
``--coverage-tests``) run under ``coverage`` with per-test contexts
(``dynamic_context = test_function``), split over ``--jobs`` processes and
combined; the data is kept in ``.mutation/coverage`` and reused until
``--fresh`` or until another test set is asked for.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.mutation.config import MODULES


def _context_to_node(root: Path, context: str) -> str | None:
    """``tests.core.test_dice.test_x`` -> ``tests/core/test_dice.py::test_x``."""
    parts = context.split(".")
    for i in range(len(parts) - 1, 0, -1):
        path = Path(*parts[:i]).with_suffix(".py")
        if (root / path).is_file():
            return path.as_posix() + "::" + "::".join(parts[i:])
    return None


def _test_files(root: Path, tests: list[str]) -> list[str]:
    """The test files under ``tests`` (files and folders), largest first."""
    files: list[Path] = []
    for t in tests:
        p = root / t.split("::")[0]
        files += sorted(p.rglob("test_*.py")) if p.is_dir() else [p]
    files.sort(key=lambda f: -f.stat().st_size)
    return [f.relative_to(root).as_posix() for f in files]


def build(root: Path, work: Path, tests: list[str], jobs: int) -> float:
    """Run ``tests`` under coverage in ``jobs`` processes; the seconds taken."""
    rc = work / "coveragerc"
    rc.write_text("[run]\ndynamic_context = test_function\nsource = linguo_cli\n",
                  encoding="utf-8")
    files = _test_files(root, tests)
    shares: list[list[str]] = [[] for _ in range(max(1, min(jobs, len(files))))]
    for i, f in enumerate(files):  # largest first, round robin: shares of like size
        shares[i % len(shares)].append(f)
    print(f"collecting per-test coverage over {' '.join(tests)} "
          f"({len(files)} files, {len(shares)} processes) ...", flush=True)
    start = time.perf_counter()
    parts = [work / f"coverage.part{i}" for i in range(len(shares))]
    procs = [subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "coverage", "run", f"--rcfile={rc}", f"--data-file={part}",
         "-m", "pytest", "-q", "-p", "no:cacheprovider", *share],
        cwd=root, stdout=subprocess.DEVNULL) for share, part in zip(shares, parts, strict=True)]
    cpu = 0.0
    for p in procs:
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        cpu += usage.ru_utime + usage.ru_stime
    data_file = work / "coverage"
    data_file.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "coverage", "combine", f"--rcfile={rc}",  # noqa: S603
                    f"--data-file={data_file}", *map(str, parts)], cwd=root, check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    (work / "coverage.json").write_text(
        json.dumps({"tests": tests, "seconds": seconds, "cpu": cpu}), encoding="utf-8")
    print(f"per-test coverage collected in {seconds:.0f} s (CPU {cpu:.0f} s)", flush=True)
    return seconds


def collect_coverage(root: Path, work: Path, fresh: bool, tests: list[str],
                     jobs: int) -> dict[str, dict[int, list[str]]] | None:
    """Per module file: line -> test node ids that execute it (``None``
    without the ``coverage`` package). Builds the map when it is missing,
    ``fresh``, or was built over other ``tests``."""
    try:
        import coverage
    except ImportError:
        return None
    work.mkdir(exist_ok=True)
    (work / ".gitignore").write_text("*\n", encoding="utf-8")  # scratch data, never committed
    data_file = work / "coverage"
    meta = work / "coverage.json"
    built_for = json.loads(meta.read_text(encoding="utf-8"))["tests"] if meta.exists() else None
    if fresh or not data_file.exists() or built_for != tests:
        build(root, work, tests, jobs)
    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    out: dict[str, dict[int, list[str]]] = {}
    for rel in MODULES.values():
        by_line = data.contexts_by_lineno(str(root / rel))
        out[rel] = {line: sorted({n for c in ctxs if c and (n := _context_to_node(root, c))})
                    for line, ctxs in by_line.items()}
    return out
