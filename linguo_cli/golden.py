"""The golden conformance suite: loading cases, running them, comparing results.

A case file (``golden/**/*.yaml``, JSON-compatible YAML) holds a list of
cases; each case is a request, the dice faces it consumes (inside the
request's ``rolls``), and either ``expect`` (a partial result: listed keys
must match exactly, unlisted keys are free) or ``expect_error`` (an exit
code: 3 invalid input, 4 rules violation). The contract is written in
``golden/README.md``; this module is its reference runner.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from linguo_cli.errors import Diagnostic, InputError, LinguoError


@dataclass(frozen=True, slots=True)
class Case:
    """One golden case: ``file::id`` is its test id."""

    file: str
    id: str
    description: str
    examples: tuple[str, ...]
    rules: tuple[str, ...]
    request: Mapping[str, Any]
    expect: Mapping[str, Any] | None
    expect_error: int | None

    @property
    def test_id(self) -> str:
        return f"{self.file}::{self.id}"


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One difference: ``path`` (``entities.ayla.after.hp``), expected, actual."""

    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.path or '(result)'}: expected {self.expected!r}, got {self.actual!r}"


@dataclass(slots=True)
class Outcome:
    """The run of one case: the result (or error code) and its mismatches."""

    case: Case
    result: Any = None
    error_code: int | None = None
    error_message: str = ""
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.mismatches


def default_suite_dir() -> Path:
    """The suite shipped with the package (``golden/`` of the source tree)."""
    return Path(str(resources.files("linguo_cli").joinpath("suite")))


def case_files(root: Path) -> list[Path]:
    """Every case file below ``root`` (``*.yaml`` except ``EXAMPLES.yaml``), sorted."""
    files = [p for p in root.rglob("*.yaml") if p.name != "EXAMPLES.yaml"]
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def load_cases(root: Path) -> list[Case]:
    """Load every case below ``root``; raises :class:`InputError` on a broken
    file (schema ``golden-case-file``)."""
    from linguo_cli import state_io

    cases: list[Case] = []
    for path in case_files(root):
        rel = path.relative_to(root).as_posix()
        doc = state_io.load(str(path))
        doc.name = rel if not os.path.isabs(rel) else str(path)
        state_io.validate(doc, "golden-case-file")
        data = state_io.to_plain(doc.data)
        for raw in data["cases"]:
            cases.append(Case(
                file=rel,
                id=raw["id"],
                description=raw["description"],
                examples=tuple(raw.get("examples", ())),
                rules=tuple(raw.get("rules", ())),
                request=raw["request"],
                expect=raw.get("expect"),
                expect_error=raw.get("expect_error"),
            ))
    return cases


def compare(expected: Any, actual: Any, path: str = "") -> list[Mismatch]:
    """Mismatches between an expected block and an actual result.

    Mappings: every expected key must be present and match (extra keys are
    free). Lists: same length, items compared in order with the same rule.
    Scalars: equal and of the same JSON type (``true`` is not ``1``; ``2`` and
    ``2.0`` are the same number).
    """
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [Mismatch(path, expected, actual)]
        out: list[Mismatch] = []
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else str(key)
            if key not in actual:
                out.append(Mismatch(sub, value, "<missing>"))
            else:
                out.extend(compare(value, actual[key], sub))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [Mismatch(path, expected, actual)]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(compare(e, a, f"{path}[{i}]"))
        return out
    if isinstance(expected, bool) or isinstance(actual, bool):
        same = isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    elif isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        same = expected == actual
    else:
        same = type(expected) is type(actual) and expected == actual
    return [] if same else [Mismatch(path, expected, actual)]


Runner = Callable[[Mapping[str, Any]], tuple[Any, int | None, str]]


def run_in_process(request: Mapping[str, Any]) -> tuple[Any, int | None, str]:
    """Resolve ``request`` with linguo itself: ``(result, error_code, message)``."""
    from linguo_cli import requests, state_io

    try:
        doc = state_io.Document("request", request)
        state_io.validate(doc, "request")
        return requests.resolve(request), None, ""
    except LinguoError as exc:
        return None, exc.code, exc.message


def run_case(case: Case, runner: Runner = run_in_process) -> Outcome:
    """Run one case and compare its result with the expectation."""
    result, code, message = runner(case.request)
    outcome = Outcome(case, result, code, message)
    if case.expect_error is not None:
        if code != case.expect_error:
            outcome.mismatches.append(Mismatch(
                "error", case.expect_error, code if code is not None else "a result"))
    elif code is not None:
        outcome.mismatches.append(Mismatch("error", "a result", f"exit {code}: {message}"))
    else:
        outcome.mismatches.extend(compare(case.expect, result))
    return outcome


def iter_outcomes(cases: list[Case], runner: Runner = run_in_process) -> Iterator[Outcome]:
    """Run ``cases`` in order, yielding each outcome."""
    for case in cases:
        yield run_case(case, runner)


def require_suite(root: Path) -> Path:
    """``root`` if it is a folder, else :class:`InputError`."""
    if not root.is_dir():
        raise InputError(Diagnostic(str(root), "", "not a golden suite folder"))
    return root
