"""The suite cache (conformance/suite_cache.py, issue 16): a loaded suite is
kept under $XDG_CACHE_HOME/linguo/suites keyed by every byte of its files; a hit
gives the same suite, a changed file misses, a damaged entry is ignored, and
LINGUO_NO_CACHE=1 turns it off."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from linguo_cli.conformance import suite as suite_mod
from linguo_cli.conformance.suite import load_suite

from ..conftest import ROOT


def _snapshot(suite: suite_mod.Suite) -> list[Any]:
    """Everything a run reads from a loaded suite, as plain values."""
    cases = [(c.test_id, c.description, c.examples, c.rules, c.request, c.expect,
              c.expect_error, c.line) for c in suite.cases]
    return [suite.files, cases, [str(p) for p in suite.problems],
            {k: [str(d) for d in v] for k, v in suite.broken_files.items()}]


@pytest.fixture()
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A copy of the Linguomancy suite and an empty cache folder of its own."""
    root = tmp_path / "suite"
    shutil.copytree(ROOT / "golden" / "linguomancy", root)
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.delenv("LINGUO_NO_CACHE", raising=False)
    return root, cache / "linguo" / "suites"


def _entries(where: Path) -> list[Path]:
    return sorted(p for p in where.glob("*.json") if not p.name.startswith("."))


def test_a_hit_gives_the_same_suite_without_loading_again(
        cached: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, where = cached
    first = load_suite(root)
    assert len(first.cases) > 800 and _entries(where)

    def no_load(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the cached suite was loaded again")

    monkeypatch.setattr(suite_mod, "_load_suite", no_load)
    assert _snapshot(load_suite(root)) == _snapshot(first)


def test_a_changed_case_file_misses(cached: tuple[Path, Path]) -> None:
    root, _ = cached
    load_suite(root)
    path = root / "tests" / "degrees.yaml"
    text = path.read_text(encoding="utf-8")
    first = next(c for c in load_suite(root).cases if c.file == "tests/degrees.yaml")
    path.write_text(text.replace(first.description, first.description + " (edited)", 1),
                    encoding="utf-8")
    again = next(c for c in load_suite(root).cases if c.id == first.id
                 and c.file == "tests/degrees.yaml")
    assert again.description == first.description + " (edited)"


@pytest.mark.parametrize("damage", [b"", b"not a digest\n{}", b"garbage"])
def test_a_damaged_entry_is_ignored(cached: tuple[Path, Path], damage: bytes) -> None:
    root, where = cached
    fresh = _snapshot(load_suite(root))
    for entry in _entries(where):
        entry.write_bytes(damage if damage else entry.read_bytes()[:40])
    assert _snapshot(load_suite(root)) == fresh


def test_linguo_no_cache_writes_nothing(cached: tuple[Path, Path],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    root, where = cached
    monkeypatch.setenv("LINGUO_NO_CACHE", "1")
    assert load_suite(root).cases
    assert not where.exists() or not _entries(where)
