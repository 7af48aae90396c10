"""The implementation side of the adapter protocol: linguo answering it as
any implementation would (``linguo adapter``): :func:`serve_plain` and
:func:`serve_batch`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from linguo_cli.conformance.catalog import suite_version
from linguo_cli.conformance.runners import _decode_json
from linguo_cli.conformance.suite import SUITE_NAME, default_suite_dir
from linguo_cli.core import error_object
from linguo_cli.core import ruleset as rulesets
from linguo_cli.core.errors import Diagnostic, InputError, LinguoError

# ---------------------------------------------------------------------------
# The implementation side: linguo answering the adapter protocol


def answer(request: Any) -> dict[str, Any]:
    """Resolve one decoded request as the adapter does (no ``rolls``: no die
    may be rolled); raises :class:`LinguoError` (exit 3 for a request that is
    not an object)."""
    from linguo_cli.core import requests
    from linguo_cli.io.document import Document

    if not isinstance(request, dict):
        raise InputError(Diagnostic("<request>", "", "a request must be a JSON object"))
    rs = requests.validate(Document("<request>", request))
    dice = None if "rolls" in request or "seed" in request else rs.dice_source([], None)
    return requests.resolve(request, dice)


def _answer_line(text: str) -> dict[str, Any]:
    try:
        request = _decode_json(text)
    except ValueError as exc:
        return _error_answer(3, f"request is not JSON: {exc}")
    try:
        result = answer(request)
        json.dumps(result)
        return result
    except LinguoError as exc:
        return {"error": error_object.error_object(exc)}
    except RecursionError:
        return _error_answer(3, "input nested too deeply")
    except Exception as exc:  # a bug: still an answer, never a traceback
        return _error_answer(5, f"internal error: {type(exc).__name__}: {exc}")


def _error_answer(code: int, message: str, place: str | None = "<request>"
                  ) -> dict[str, Any]:
    """``{"error": {error object}}`` for an error found outside the rules."""
    return {"error": {"exit": code, "code": None, "rule": None, "place": place,
                      "message": message}}


def _compact(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def serve_plain(stdin: IO[bytes], stdout: IO[str], stderr: IO[str]) -> int:
    """Plain mode: read one request (JSON) from ``stdin``, write its result on
    ``stdout``; on an error write the error object ``{"error": {...}}`` on
    ``stdout`` and one line on ``stderr``, and return its exit code (3
    invalid input, 4 rules violation, 5 internal error)."""
    from linguo_cli.io.document import MAX_DOCUMENT_BYTES

    raw = stdin.read(MAX_DOCUMENT_BYTES + 1)
    if len(raw) > MAX_DOCUMENT_BYTES:
        stderr.write(f"linguo: error: <stdin>: request larger than "
                     f"{MAX_DOCUMENT_BYTES // 1024} KiB (the document limit)\n")
        return 3
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        stderr.write("linguo: error: request is not UTF-8\n")
        return 3
    obj = _answer_line(text)
    stdout.write(_compact(obj) + "\n")  # a result, or the error object (exit code below)
    stdout.flush()
    if "error" in obj and "kind" not in obj:
        stderr.write(f"linguo: error: {obj['error']['message']}\n")
        return int(obj["error"]["exit"])
    stdout.flush()
    return 0


_MAX_LINE = 1024 * 1024  # MAX_DOCUMENT_BYTES, without importing state_io here


def _bounded_lines(stdin: IO[bytes]) -> Iterator[bytes | None]:
    """The lines of ``stdin``, each at most :data:`_MAX_LINE` bytes; a longer
    line is read to its end in pieces (never held whole) and yields ``None``."""
    while line := stdin.readline(_MAX_LINE + 1):
        if len(line) <= _MAX_LINE or line.endswith(b"\n") and len(line) == _MAX_LINE + 1:
            yield line
            continue
        while not line.endswith(b"\n"):  # skip the rest of the oversized line
            line = stdin.readline(_MAX_LINE)
            if not line:
                break
        yield None


def serve_batch(stdin: IO[bytes], stdout: IO[str], stderr: IO[str]) -> int:
    """Batch mode: answer the hello line, then one answer line per request
    line until end of input (blank lines are ignored). Returns 0, or 2 when
    the first line is not a hello for this suite (answered ``ready: false``)."""
    from linguo_cli import __version__

    def send(obj: Any) -> None:
        stdout.write(_compact(obj) + "\n")
        stdout.flush()

    first = True
    for raw in _bounded_lines(stdin):
        if raw is None:
            send(_error_answer(3, "request line larger than "
                               f"{_MAX_LINE // 1024} KiB (the document limit)"))
            continue
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            continue
        if first:
            first = False
            try:
                hello = _decode_json(text)
            except ValueError:
                hello = None
            if not isinstance(hello, dict) or hello.get("suite") != SUITE_NAME:
                send({"ready": False, "reason": f"expected the hello line {{\"suite\": "
                                                f"\"{SUITE_NAME}\", \"version\": N}}"})
                stderr.write("linguo: error: batch input must start with the hello line\n")
                return 2
            send({"ready": True, "implementation": "linguo", "implementation_version":
                  __version__, "suite_version": suite_version(default_suite_dir()),
                  "rulesets": {name: {} for name in rulesets.names()}})  # every kind
            continue
        send(_answer_line(text))
    return 0


def serve(batch: bool) -> int:
    """Run the adapter on this process's standard streams; returns the exit code.

    Raises :class:`InputError` (exit 3) when standard input is closed."""
    if sys.stdin is None:  # started with stdin closed (<&-)
        raise InputError(Diagnostic("<stdin>", "", "standard input is closed"))
    stdin = sys.stdin.buffer
    if batch:
        return serve_batch(stdin, sys.stdout, sys.stderr)
    return serve_plain(stdin, sys.stdout, sys.stderr)

