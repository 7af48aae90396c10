"""Comparing an answer with a case's expectation: :func:`compare` (partial
results), :func:`judge` (results and errors), and the values a run
produces (:class:`Reply`, :class:`Mismatch`, :class:`Outcome`).
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from linguo_cli.conformance.suite import Case
from linguo_cli.core import error_object


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


#: Stands for "the key is absent" in a :class:`Mismatch`.
MISSING: Any = _Missing()


#: Control characters ``json.dumps`` leaves raw (DEL and C1): escaped by :func:`show`.
_JSON_UNESCAPED_CONTROL = re.compile("[\x7f-\x9f]")


def show(value: Any, limit: int = 200) -> str:
    """A value as compact JSON text for messages (``true``, ``"21/2"``), cut at
    ``limit``; control characters are escaped (``\\u007f``), never printed raw."""
    if value is MISSING:
        return "nothing (key missing)"
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):
        text = repr(value)
    text = _JSON_UNESCAPED_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One difference: ``path`` (``entities.ayla.after.hp``, ``faces[1].kept``),
    the expected value and the actual one (:data:`MISSING` when absent)."""

    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.path or '(result)'}: expected {show(self.expected)}, got {show(self.actual)}"


@dataclass(slots=True)
class Reply:
    """What an implementation answered to one request.

    Exactly one of: ``result`` (a JSON object), ``error_code`` (the exit code
    or the batch ``{"error": ...}``, with ``message`` when given and the whole
    error object in ``error``), ``unsupported`` (the reserved "not supported"
    answer, with its reason: the case is skipped), or ``failure``: the answer
    was unusable (timeout, crash, not JSON), with ``failure_type``
    ``timeout``, ``crash``, ``protocol`` or ``refused`` (a ``ready: false``
    hello). ``stderr`` holds what the implementation wrote on stderr for it
    (its last :data:`~linguo_cli.conformance.impl_process.MAX_STDERR_BYTES`).
    """

    result: Any = None
    error_code: int | None = None
    message: str = ""
    failure: str | None = None
    failure_type: str = ""
    error: dict[str, Any] | None = None
    unsupported: str | None = None
    stderr: str = ""


@dataclass(slots=True)
class Outcome:
    """The run of one case: the reply, its mismatches, the time taken (s)."""

    case: Case
    reply: Reply
    mismatches: list[Mismatch] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str | None = None

    @property
    def passed(self) -> bool:
        return self.skipped is None and not self.mismatches and self.reply.failure is None

    @property
    def failed(self) -> bool:
        return self.skipped is None and not self.passed

    @property
    def result(self) -> Any:
        return self.reply.result

    @property
    def error_code(self) -> int | None:
        return self.reply.error_code

    def lines(self) -> list[str]:
        """The failure lines ``file::id: path: expected X, got Y`` ([] if
        passed or skipped)."""
        head = self.case.test_id
        if not self.failed:
            return []
        if self.reply.failure is not None:
            return [f"{head}: (run): {self.reply.failure}"]
        return [f"{head}: {m}" for m in self.mismatches]



# ---------------------------------------------------------------------------
# Comparing


def compare(expected: Any, actual: Any, path: str = "") -> list[Mismatch]:
    """Mismatches between an expected block and an actual result.

    Mappings: every expected key must be present and match (extra keys are
    free). Lists: same length, items compared in order with the same rule.
    Scalars: equal and of the same JSON type (``true`` is not ``1``, ``"3"``
    is not ``3``, ``null`` is not missing; ``2`` and ``2.0`` are the same
    number, compared exactly).
    """
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [Mismatch(path, expected, actual)]
        out: list[Mismatch] = []
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else str(key)
            if key not in actual:
                out.append(Mismatch(sub, value, MISSING))
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
        same = Fraction(expected) == Fraction(actual) if all(
            math.isfinite(x) for x in (expected, actual)) else False
    else:
        same = type(expected) is type(actual) and expected == actual
    return [] if same else [Mismatch(path, expected, actual)]



# ---------------------------------------------------------------------------
# Judging a reply

#: A runner: one request in, the implementation's :class:`Reply` out (never raises).
Runner = Callable[[Mapping[str, Any]], Reply]


def judge(case: Case, reply: Reply) -> list[Mismatch]:
    """Compare ``reply`` with the case's expectation (error code or partial result)."""
    if reply.failure is not None or reply.unsupported is not None:
        return []
    if case.expect_error is not None:
        return _judge_error(error_object.expectation(case.expect_error), reply)
    if reply.error_code is not None:
        got = f"exit {reply.error_code}" + (f" ({reply.message})" if reply.message else "")
        return [Mismatch("(result)", "a result", got)]
    return compare(case.expect, reply.result)


def _judge_error(expected: Mapping[str, Any], reply: Reply) -> list[Mismatch]:
    """``exit`` always; ``code`` and ``rule`` when the case gives them."""
    if reply.error_code is None:
        return [Mismatch("error", f"exit {expected['exit']}", "a result")]
    if reply.error_code != expected["exit"]:
        got = f"exit {reply.error_code}" + (f" ({reply.message})" if reply.message else "")
        return [Mismatch("error", f"exit {expected['exit']}", got)]
    given = reply.error or {}
    return [Mismatch(f"error.{key}", expected[key], given.get(key, MISSING))
            for key in ("code", "rule") if key in expected
            and (given.get(key, MISSING) is MISSING or given.get(key) != expected[key])]


def run_case(case: Case, runner: Runner | None = None) -> Outcome:
    """Run one case and compare its reply with the expectation (``runner``
    default: linguo in process, :func:`~linguo_cli.conformance.runners.run_in_process`)."""
    if runner is None:
        from linguo_cli.conformance.runners import run_in_process

        runner = run_in_process
    start = time.perf_counter()
    reply = runner(case.request)
    seconds = time.perf_counter() - start
    return Outcome(case, reply, judge(case, reply), seconds)


def iter_outcomes(cases: Iterable[Case], runner: Runner | None = None) -> Iterator[Outcome]:
    """Run ``cases`` in order, yielding each outcome."""
    for case in cases:
        yield run_case(case, runner)
