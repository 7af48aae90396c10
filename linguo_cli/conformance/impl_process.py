"""Running another implementation safely: bounded capture of what it writes,
its whole process group ended on every exit path, and (on Linux) verify as a
child subreaper so that descendants which leave the group are ended too.

Used by ``linguo verify --impl`` (plain and batch mode). Nothing here knows
the rules; it only keeps a hostile or broken implementation from exhausting
memory, hanging the run or outliving it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from typing import IO

#: Most bytes kept of one answer (plain mode: the whole stdout of one case;
#: batch mode: one line). More fails the case and ends the process.
MAX_ANSWER_BYTES = 8 * 1024 * 1024
#: Most bytes kept of an implementation's stderr: its last ones (the rest is
#: read and dropped, so a chatty implementation never blocks on a full pipe).
MAX_STDERR_BYTES = 64 * 1024

#: Process groups started by this process and not yet ended.
_GROUPS: set[int] = set()
_LOCK = threading.Lock()


def popen(argv: list[str], *, env: dict[str, str], stderr: int | IO[bytes] = subprocess.PIPE,
          bufsize: int = -1) -> subprocess.Popen[bytes]:
    """Start ``argv`` with piped stdin and stdout in its own session (process
    group, POSIX), remembered so that :func:`end_all` can end it.

    Raises :class:`OSError` when the program cannot be started."""
    proc: subprocess.Popen[bytes] = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env,
        bufsize=bufsize, start_new_session=os.name == "posix")
    with _LOCK:
        _GROUPS.add(proc.pid)
    return proc


def kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill ``proc``'s whole process group (POSIX; the process alone
    elsewhere), reap it and close its pipes. Never raises."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            proc.kill()
    except OSError:
        pass
    with _LOCK:
        _GROUPS.discard(proc.pid)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - unkillable
        pass
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        with contextlib.suppress(OSError, ValueError):
            if stream is not None:
                stream.close()


def forget(proc: subprocess.Popen[bytes]) -> None:
    """``proc`` ended on its own: its group is no longer ours to end (the
    group of a process that exited may still hold descendants: those are
    ended by :func:`end_all` through the subreaper)."""
    with contextlib.suppress(OSError):
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)  # descendants still in its group
    with _LOCK:
        _GROUPS.discard(proc.pid)


class StderrTail:
    """Reads a pipe to its end in a thread, keeping only the last
    :data:`MAX_STDERR_BYTES` bytes."""

    def __init__(self, stream: IO[bytes] | None) -> None:
        self._data = bytearray()
        self._thread: threading.Thread | None = None
        if stream is not None:
            self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
            self._thread.start()

    def _pump(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := os.read(stream.fileno(), 65536):
                self._data += chunk
                if len(self._data) > 2 * MAX_STDERR_BYTES:
                    del self._data[: len(self._data) - MAX_STDERR_BYTES]

    def text(self, wait: float = 0.5) -> bytes:
        """What was kept so far (waiting up to ``wait`` s for the pipe's end)."""
        if self._thread is not None:
            self._thread.join(wait)
        return bytes(self._data[-MAX_STDERR_BYTES:])


def communicate(proc: subprocess.Popen[bytes], data: bytes, timeout: float
                ) -> tuple[bytes | None, bytes, str | None]:
    """Send ``data`` to ``proc``'s stdin, then read its stdout (at most
    :data:`MAX_ANSWER_BYTES`) and stderr (its last :data:`MAX_STDERR_BYTES`)
    until it exits or ``timeout`` seconds pass.

    Returns ``(stdout, stderr_tail, problem)``: ``problem`` is ``None``, or
    ``"timeout"`` or ``"oversize"``, in which case the process group was
    killed and ``stdout`` is ``None``."""
    err = StderrTail(proc.stderr)
    out = bytearray()
    oversize = threading.Event()

    def pump() -> None:
        assert proc.stdout is not None
        with contextlib.suppress(OSError, ValueError):
            while chunk := os.read(proc.stdout.fileno(), 65536):
                out.extend(chunk)
                if len(out) > MAX_ANSWER_BYTES:
                    oversize.set()
                    kill(proc)
                    return

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    assert proc.stdin is not None
    with contextlib.suppress(OSError):
        proc.stdin.write(data)
    with contextlib.suppress(OSError):
        proc.stdin.close()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill(proc)
        return None, err.text(), "timeout"
    reader.join(timeout)
    if oversize.is_set() or reader.is_alive():
        kill(proc)
        return None, err.text(), "oversize" if oversize.is_set() else "timeout"
    forget(proc)
    tail = err.text()
    for stream in (proc.stdout, proc.stderr):
        with contextlib.suppress(OSError, ValueError):
            if stream is not None:
                stream.close()
    return bytes(out), tail, None


def _children_of(pid: int) -> list[int]:
    """Living processes whose parent is ``pid`` (Linux ``/proc``; ``[]`` elsewhere)."""
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == pid:
            found.append(int(name))
    return found


def become_subreaper(on: bool = True) -> bool:
    """Make this process a child subreaper (Linux ``prctl``; ``on=False``
    undoes it): descendants of an implementation whose parents exit are
    re-parented here instead of to init, so :func:`end_all` can still end
    them. Returns whether it worked (always ``False`` off Linux)."""
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(36, int(on), 0, 0, 0) == 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def end_all(keep: frozenset[int] = frozenset()) -> None:
    """End every process group started by :func:`popen` that is still known,
    then every remaining child process of ours except ``keep`` (descendants
    re-parented to us as a subreaper), and reap them. Never raises."""
    with _LOCK:
        groups = list(_GROUPS)
        _GROUPS.clear()
    for pgid in groups:
        with contextlib.suppress(OSError):
            os.killpg(pgid, signal.SIGKILL)
    for _ in range(3):
        children = [c for c in _children_of(os.getpid()) if c not in keep]
        if not children:
            break
        for child in children:
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)
        for child in children:
            with contextlib.suppress(OSError):
                os.waitpid(child, 0)


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """For the length of a ``verify`` run: become a subreaper, turn SIGTERM
    (and SIGHUP) into an orderly stop, and end every implementation process
    on every way out (normal end, error, Ctrl-C, SIGTERM)."""
    keep = frozenset(_children_of(os.getpid()))  # children that are not ours to end
    become_subreaper()
    previous: dict[int, object] = {}

    def stop(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    in_main = threading.current_thread() is threading.main_thread()
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and in_main:
            previous[sig] = signal.signal(sig, stop)
    try:
        yield
    finally:
        end_all(keep)
        become_subreaper(False)
        for sig, handler in previous.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]
