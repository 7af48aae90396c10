"""The runner side of the adapter protocol (``linguo verify``):
:func:`run_in_process` (linguo itself), :class:`PlainImplementation` (one
process per case) and :class:`BatchImplementation` (one long-lived process
speaking JSON lines). Each is a :data:`Runner`: request in, :class:`Reply`
out, never raising.
"""

from __future__ import annotations

import copy
import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.conformance.compare import Reply
from linguo_cli.conformance.suite import DEFAULT_TIMEOUT, SUITE_NAME, UNSUPPORTED_EXIT
from linguo_cli.core import error_object
from linguo_cli.core.errors import LinguoError, UsageError

# ---------------------------------------------------------------------------
# linguo itself, in process


def run_in_process(request: Mapping[str, Any]) -> Reply:
    """Resolve ``request`` with linguo itself (its ruleset's schema check,
    then :func:`linguo_cli.core.requests.resolve`).

    A :class:`LinguoError` becomes its exit code; any other exception is an
    internal error (code 5): the runner never raises.
    """
    from linguo_cli.core import requests
    from linguo_cli.io.document import Document

    request = copy.deepcopy(dict(request))
    try:
        rs = requests.validate(Document("request", request))
        # Golden requests never use chance: no ``rolls`` means no die at all.
        dice = None if "rolls" in request or "seed" in request else rs.dice_source([], None)
        return Reply(result=requests.resolve(request, dice))
    except LinguoError as exc:
        return Reply(error_code=exc.code, message=exc.message,
                     error=error_object.error_object(exc))
    except RecursionError:
        return Reply(error_code=3, message="input nested too deeply")
    except Exception as exc:  # a bug in linguo: reported like the CLI does
        return Reply(error_code=5, message=f"internal error: {type(exc).__name__}: {exc}")


# ---------------------------------------------------------------------------
# Running another implementation (the runner side of the adapter protocol)


def _decode_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(text, parse_constant=refuse)
    except RecursionError:  # an answer nested too deeply: that case fails, the run goes on
        raise ValueError("nested too deeply") from None


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _snippet(data: bytes | str, limit: int = 120) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", " ".join(text.split()))
    return (text[: limit - 3] + "...") if len(text) > limit else (text or "(empty)")


def _tail(data: bytes | str, limit: int = 200) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return _snippet(lines[-1], limit) if lines else ""


def _reply_from_object(obj: Any, raw: bytes | str) -> Reply:
    if not isinstance(obj, dict):
        return Reply(failure=f"answer is not a JSON object: {_snippet(raw)}",
                     failure_type="protocol")
    if obj.get("unsupported") is True and "kind" not in obj:
        return Reply(unsupported=str(obj.get("reason") or "unsupported"))
    if "error" in obj and "kind" not in obj:
        err = error_object.from_answer(obj["error"], obj.get("message", ""))
        if err is None:
            return Reply(failure="error is neither an exit code nor an error object "
                                 f"{{\"exit\": N, ...}}: {_snippet(raw)}",
                         failure_type="protocol")
        return Reply(error_code=err["exit"], message=err["message"], error=err)
    return Reply(result=obj)


def split_command(command: str) -> list[str]:
    """``--impl`` text -> argv (split like a POSIX shell, no shell features);
    :class:`UsageError` (exit 2) when empty or the program cannot be found."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"--impl {command!r}: {exc}") from None
    if not argv:
        raise UsageError("--impl needs a command")
    prog = argv[0]
    if os.sep in prog or (os.altsep and os.altsep in prog):
        if not os.access(prog, os.X_OK) or os.path.isdir(prog):
            raise UsageError(f"--impl: {prog}: not an executable file")
    elif shutil.which(prog) is None:
        raise UsageError(f"--impl: {prog}: command not found")
    return argv


def _protocol_env(version: int | None) -> dict[str, str]:
    env = dict(os.environ)
    env["LINGUO_GOLDEN_SUITE"] = SUITE_NAME
    env["LINGUO_GOLDEN_VERSION"] = "" if version is None else str(version)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit {code}"


class PlainImplementation:
    """Plain mode: start ``argv`` once per case, the request as JSON on its
    stdin; its stdout must be one JSON object (the result). A non-zero exit
    code is an error result with that code (the last stderr line is its
    message; an error object on stdout adds its ``code`` and ``rule``);
    exit :data:`UNSUPPORTED_EXIT` (69) is the "unsupported" answer. A run
    longer than ``timeout`` seconds, a death by signal or a stdout that is
    not a JSON object fails the case with that reason.

    The environment carries ``LINGUO_GOLDEN_SUITE`` and ``LINGUO_GOLDEN_VERSION``.
    """

    def __init__(self, argv: list[str], *, timeout: float = DEFAULT_TIMEOUT,
                 version: int | None = None) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.env = _protocol_env(version)

    def __call__(self, request: Mapping[str, Any]) -> Reply:
        from linguo_cli.conformance import impl_process

        data = (json.dumps(request, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            proc = impl_process.popen(self.argv, env=self.env)
        except OSError as exc:
            return Reply(failure=f"cannot start the implementation: {exc}", failure_type="crash")
        out, err, problem = impl_process.communicate(proc, data, self.timeout)
        if problem == "timeout" or out is None and problem != "oversize":
            return Reply(failure=f"timed out after {self.timeout:g} s", failure_type="timeout")
        if out is None:
            return Reply(failure="answer larger than "
                                 f"{impl_process.MAX_ANSWER_BYTES // 1024 // 1024} MiB "
                                 "(the capture limit)", failure_type="protocol")
        reply = self._reply(proc.returncode, out, err)
        reply.stderr = err.decode("utf-8", "replace")
        return reply

    @staticmethod
    def _reply(code: int, out: bytes, err: bytes) -> Reply:
        if code < 0:
            tail = _tail(err)
            return Reply(failure=_exit_text(code) + (f": {tail}" if tail else ""),
                         failure_type="crash")
        if code == UNSUPPORTED_EXIT:
            return Reply(unsupported=_tail(err) or f"exit {UNSUPPORTED_EXIT} (unsupported)")
        if code != 0:
            return _plain_error(code, out, err)
        try:
            obj = _decode_json(out.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return Reply(failure=f"stdout is not JSON: {_snippet(out)}", failure_type="protocol")
        reply = _reply_from_object(obj, out)
        if reply.error_code is not None or reply.unsupported is not None:
            return Reply(result=obj)  # plain mode: errors and "unsupported" are exit codes
        return reply

    def close(self) -> None:
        """Nothing to release (one process per case)."""


def _plain_error(code: int, out: bytes, err: bytes) -> Reply:
    """A non-zero exit in plain mode: an error result with that exit code; a
    stdout holding the error object ``{"error": {"exit": N, ...}}`` with the
    same exit adds its ``code`` and ``rule`` (anything else there is ignored)."""
    reply = Reply(error_code=code, message=_tail(err),
                  error={"exit": code, "code": None, "rule": None, "place": None,
                         "message": _tail(err)})
    try:
        obj = _decode_json(out.decode("utf-8")) if out.strip() else None
    except (ValueError, UnicodeDecodeError):
        return reply
    if isinstance(obj, dict):
        given = error_object.from_answer(obj.get("error"))
        if given is not None and given["exit"] == code:
            reply.error = given
            reply.message = given["message"] or reply.message
    return reply


class _StartFailure(Exception):
    def __init__(self, message: str, failure_type: str = "crash") -> None:
        super().__init__(message)
        self.failure_type = failure_type


_OVERSIZE = b"\x00oversize"  # queued by the batch reader for a line over the capture limit


@dataclass
class _Talk:
    """One batch process's conversation: lines sent to it so far, and the
    first answer line it wrote beyond one per line sent."""

    sent: int = 0
    extra: bytes | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class BatchImplementation:
    """Batch mode: one long-lived process speaking JSON lines.

    Protocol (golden/README.md, "Adapter protocol"): linguo writes the hello
    line ``{"suite": "linguo-golden", "version": N}``; the implementation
    answers ``{"ready": true, ...}`` (or ``{"ready": false, "reason": "..."}``
    to refuse). Then, per case, linguo writes one request line and reads one
    answer line: a result object, the error object ``{"error": {"exit": 4,
    "rule": "D7", ...}}`` (or the older ``{"error": 4, "message": "..."}``),
    or ``{"unsupported": true, "reason": "..."}`` (the case is skipped).
    The hello answer may declare ``rulesets`` (see
    :func:`linguo_cli.conformance.select.capability_from_hello`). Closing stdin
    ends the session.

    A case whose answer does not come within ``timeout`` seconds, or whose
    process died, or whose answer is not a JSON object fails with that
    reason; the process is then restarted (a new hello) for the next case.
    When a (re)start fails, every remaining case fails with the reason.
    """

    def __init__(self, argv: list[str], *, timeout: float = DEFAULT_TIMEOUT,
                 version: int | None = None) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.version = version
        self.env = _protocol_env(version)
        self.hello: dict[str, Any] | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: Any = None  # impl_process.StderrTail of the running process
        self._dead: str | None = None
        self._talk = _Talk()  # lines sent to, and extra lines from, the running process
        self._dead_type = "crash"

    # -- process management --------------------------------------------
    def _read(self, proc: subprocess.Popen[bytes], lines: queue.Queue[bytes | None],
              talk: _Talk) -> None:
        """Queue each answer line; a line longer than the capture limit is
        queued as :data:`_OVERSIZE` and ends the reading (the process is
        then stopped by the exchange that gets it). A line beyond one per
        line sent is not queued but kept in ``talk.extra``: the protocol is
        broken. Lines that arrive together are judged together (under
        ``talk.lock``, which the sender takes to count a line sent), so two
        answers written at once are always caught."""
        from linguo_cli.conformance.impl_process import MAX_ANSWER_BYTES

        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        pending = bytearray()
        count = 0
        try:
            while chunk := os.read(fd, 65536):
                pending += chunk
                with talk.lock:
                    while (end := pending.find(b"\n")) >= 0:
                        line = bytes(pending[: end + 1])
                        del pending[: end + 1]
                        if not line.strip():
                            continue
                        count += 1
                        if count > talk.sent:
                            talk.extra = talk.extra or line
                        else:
                            lines.put(line)
                if len(pending) > MAX_ANSWER_BYTES:
                    lines.put(_OVERSIZE)
                    break
        except (OSError, ValueError):
            pass
        lines.put(None)

    def _stderr_tail(self) -> str:
        return "" if self._stderr is None else _tail(self._stderr.text())

    def _start(self) -> None:
        from linguo_cli.conformance import impl_process

        try:
            proc = impl_process.popen(self.argv, env=self.env)  # buffered: fast readline
        except OSError as exc:
            raise _StartFailure(f"cannot start the implementation: {exc}") from None
        self._stderr = impl_process.StderrTail(proc.stderr)
        self._proc = proc
        self._lines = queue.Queue()
        self._talk = _Talk()
        threading.Thread(target=self._read, args=(proc, self._lines, self._talk),
                         daemon=True).start()
        hello = {"suite": SUITE_NAME, "version": self.version}
        raw = self._exchange(hello)
        if isinstance(raw, Reply):
            self._stop()
            raise _StartFailure(f"no answer to the hello line: {raw.failure}", raw.failure_type)
        try:
            obj = _decode_json(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            self._stop()
            raise _StartFailure(f"hello answer is not JSON: {_snippet(raw)}") from None
        if not isinstance(obj, dict) or obj.get("ready") is not True:
            self._stop()
            reason = obj.get("reason") if isinstance(obj, dict) else None
            refused = isinstance(obj, dict) and obj.get("ready") is False
            shown = f": {_snippet(str(reason), 300)}" if reason else f" ({_snippet(raw)})"
            raise _StartFailure("the implementation refused the suite" + shown,
                                "refused" if refused else "protocol")
        self.hello = obj

    def _stop(self, graceful: bool = False) -> None:
        from linguo_cli.conformance import impl_process

        proc, self._proc = self._proc, None
        if proc is None:
            return
        if graceful:
            try:
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait(timeout=min(self.timeout, 5))
            except (OSError, subprocess.TimeoutExpired):
                pass
        impl_process.kill(proc)  # the whole group, also after a graceful end

    def _exchange(self, message: Mapping[str, Any]) -> bytes | Reply:
        """Write one line, read one line; a :class:`Reply` failure when the
        process died or timed out (the process is then stopped)."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        with self._talk.lock:  # before writing: the answer can only come after
            self._talk.sent += 1
        try:
            proc.stdin.write((json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8"))
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the reader sees the end of stdout; the exit code says why
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._stop()
            return Reply(failure=f"timed out after {self.timeout:g} s", failure_type="timeout")
        if line is None:
            try:
                code = proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = None
            self._stop()
            code = proc.returncode if code is None else code
            tail = self._stderr_tail()
            return Reply(failure=f"the implementation ended ({_exit_text(code)}) without "
                                 "answering" + (f": {tail}" if tail else ""),
                         failure_type="crash")
        if line is _OVERSIZE:
            self._stop()
            from linguo_cli.conformance.impl_process import MAX_ANSWER_BYTES

            return Reply(failure=f"answer line larger than {MAX_ANSWER_BYTES // 1024 // 1024} "
                                 "MiB (the capture limit)", failure_type="protocol")
        return line

    # -- the runner ------------------------------------------------------
    def __call__(self, request: Mapping[str, Any]) -> Reply:
        """Send one request; the reply carries the stderr written meanwhile."""
        tail = self._stderr
        mark = len(tail.text(wait=0)) if tail is not None else 0
        reply = self._call(request)
        tail = tail or self._stderr
        if tail is not None and not reply.stderr:
            text = tail.text(wait=0.2 if reply.failure else 0)
            reply.stderr = text[mark:].decode("utf-8", "replace") if len(text) >= mark \
                else text.decode("utf-8", "replace")
        return reply

    def start(self) -> dict[str, Any] | None:
        """Start the process now (if not running) and return its hello answer
        (``None`` when it could not start: the reason fails every case)."""
        if self._proc is None and self._dead is None:
            try:
                self._start()
            except _StartFailure as exc:
                self._dead, self._dead_type = str(exc), exc.failure_type
        return self.hello if self._dead is None else None

    def _call(self, request: Mapping[str, Any]) -> Reply:
        if self._dead is not None:
            return Reply(failure=self._dead, failure_type=self._dead_type)
        if self._proc is None:
            try:
                self._start()
            except _StartFailure as exc:
                self._dead, self._dead_type = str(exc), exc.failure_type
                return Reply(failure=self._dead, failure_type=self._dead_type)
        extra = self._extra_line()
        if extra is not None:
            self._stop()  # out of step: every later answer would land on the wrong case
            return Reply(failure="protocol break: the implementation wrote more than one line "
                                 f"for the previous request ({_snippet(extra)}); restarted",
                         failure_type="protocol")
        raw = self._exchange(request)
        if isinstance(raw, Reply):
            return raw
        try:
            obj = _decode_json(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            self._stop()  # out of step with the protocol: start afresh
            return Reply(failure=f"answer is not JSON: {_snippet(raw)}", failure_type="protocol")
        return _reply_from_object(obj, raw)

    def _settle(self) -> None:
        """Before a request is sent: while bytes the implementation already
        wrote are still in the pipe, let the reader take them (at most 1 s),
        so that an answer too many written before this request is judged as
        one, not taken for this request's answer."""
        import select

        proc = self._proc
        if proc is None or proc.stdout is None:
            return
        deadline = time.monotonic() + 1.0
        try:
            while select.select([proc.stdout.fileno()], [], [], 0)[0] \
                    and self._talk.extra is None and self._lines.empty() \
                    and time.monotonic() < deadline:
                time.sleep(0.0005)
        except (OSError, ValueError):
            pass

    def _extra_line(self) -> bytes | None:
        """A line beyond one answer per line sent (kept by the reader), or
        one already waiting before a request is sent: an answer too many
        (``None`` when there is none)."""
        self._settle()
        if self._talk.extra is not None:
            return self._talk.extra
        try:
            line = self._lines.get_nowait()
        except queue.Empty:
            return None
        if line is None:  # the process ended after its last answer: restart quietly
            self._lines.put(None)
            return None
        return b"(a line longer than the capture limit)" if line is _OVERSIZE else line

    def close(self) -> None:
        """End the session: close stdin, wait briefly, then end the process
        group whatever happened."""
        self._stop(graceful=True)
        self._stderr = None

    def __enter__(self) -> BatchImplementation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()



# ---------------------------------------------------------------------------
# Reports (the rest is in run)


_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_safe(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (shown as U+FFFD)."""
    return _XML_INVALID.sub("\ufffd", text)

