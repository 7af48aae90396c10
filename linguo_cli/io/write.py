"""Writing documents: the text to write a state back
(:func:`dump_document`, see :mod:`linguo_cli.io.writeback`), YAML text of a
tree (:func:`dump_yaml`), atomic replacement of a file (:func:`atomic_write`)
and the advisory lock a state file is held under from reading it until the
command ends (:class:`FileLock`, :func:`release_locks`).

Writing goes through a temporary file in the same folder, flushed and
fsynced, renamed over the target; state files read with ``lock=True`` hold
an exclusive advisory lock (``fcntl.flock`` on the file itself) until the
command ends, so two ``--in-place`` runs never interleave. Nothing here
applies a rule.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import time
import weakref
from typing import Any

from linguo_cli.core.errors import Diagnostic, InputError, UsageError
from linguo_cli.io.document import Document

#: Seconds a command waits for another linguo run to release a state file,
#: unless the environment variable ``LINGUO_LOCK_TIMEOUT`` gives another
#: number of seconds (see :func:`lock_timeout`).
LOCK_TIMEOUT = 10.0


def lock_timeout() -> float:
    """Seconds to wait for a state file's lock: ``LINGUO_LOCK_TIMEOUT`` when
    it is set to a finite number >= 0, else :data:`LOCK_TIMEOUT` (10 s).
    Raises :class:`UsageError` (exit 2) for any other value."""
    raw = os.environ.get("LINGUO_LOCK_TIMEOUT")
    if raw is None or raw == "":
        return LOCK_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise UsageError(f"LINGUO_LOCK_TIMEOUT={raw!r}: not a number of seconds >= 0")
    return value


def yaml_layout(text: str) -> tuple[int, int, int]:
    """The block indentation a YAML text uses, as ruamel's ``(mapping,
    sequence, offset)``: e.g. ``(2, 4, 2)`` for lists written ``  - id: a``
    under their key, ``(2, 2, 0)`` (the default) for ``- id: a``. Read from
    the first nested mapping and the first list below a key."""
    mapping, offset = 2, 0
    found_map = found_seq = False
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    for here, below in zip(lines, lines[1:], strict=False):
        m = re.match(r"^( *)(?:- )?[^\s#-][^:#]*:\s*(?:#.*)?$", here)
        if m is None:
            continue
        base = len(m.group(1)) + (2 if here.lstrip().startswith("- ") else 0)
        depth = len(below) - len(below.lstrip(" "))
        if below.lstrip().startswith("- "):
            if not found_seq and depth >= base:
                offset, found_seq = depth - base, True
        elif not found_map and depth > base:
            mapping, found_map = depth - base, True
        if found_map and found_seq:
            break
    return mapping, offset + 2, offset


def dump_yaml(data: Any, layout: tuple[int, int, int] | None = None) -> str:
    """Serialise a tree back to YAML text, keeping comments, key order and
    quoting of a round-trip tree, with the block indentation ``layout``
    (see :func:`yaml_layout`; default ``(2, 2, 0)``). A :class:`Document`
    is written as :func:`dump_document` writes it."""
    if isinstance(data, Document):
        return dump_document(data)
    from linguo_cli.io.yaml_text import _yaml

    buf = io.StringIO()
    y = _yaml()
    if layout is not None:
        y.indent(mapping=layout[0], sequence=layout[1], offset=layout[2])
    y.dump(data, buf)
    return buf.getvalue()


def dump_document(doc: Document) -> str:
    """The text to write ``doc`` back (see :mod:`linguo_cli.io.writeback`): the
    text it was read from with only the changed values edited (a structure
    that changed: that node's text replaced or a line added; the whole
    document rewritten only where that is not possible), read back and
    checked equal to ``doc.data``; in-memory documents as YAML. Raises
    :class:`~linguo_cli.core.errors.LinguoError` (exit 5) when no text reads back."""
    from linguo_cli.io import writeback

    return writeback.render(doc)[0]


def _current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _check_replaceable(path: str, target: str, st: os.stat_result) -> None:
    """Refuse (exit 2) to replace ``target`` when it is not a regular file,
    is read-only by its mode, or has other names (hard links)."""
    import stat

    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{path}: cannot write: not a regular file (a device, pipe or "
                         "socket); use -o - to write to standard output")
    if not st.st_mode & 0o222:
        raise UsageError(f"{path}: cannot write: the file is read-only (mode "
                         f"{stat.S_IMODE(st.st_mode):04o}); make it writable to update it")
    if st.st_nlink > 1:
        raise UsageError(f"{path}: cannot write: the file has {st.st_nlink} names (hard "
                         "links) and replacing it would split them; write with -o elsewhere")


_STREAM_PATH = re.compile(r"/dev/(?:std(?:in|out|err)|fd/\d+|tty)|/proc/(?:self|thread-self|\d+)"
                          r"(?:/task/\d+)?/fd/\d+")


def _refuse_stream_path(path: str) -> None:
    """Refuse (exit 2) an output path that names an open descriptor or a
    terminal (``/dev/stdout``, ``/dev/fd/1``, ``/proc/self/fd/1``, or a
    link leading through one): its link resolves to the file the shell opened
    (for ``>> log``, the log), which an atomic replacement would overwrite
    instead of appending to. ``-o -`` writes to standard output."""
    here = os.path.abspath(path)
    for _ in range(40):  # at most 40 links, as the kernel
        if _STREAM_PATH.fullmatch(os.path.normpath(here)):
            raise UsageError(f"{path}: cannot write: not a regular file (an open stream); "
                             "use -o - to write to standard output")
        try:
            link = os.readlink(here)
        except OSError:
            return
        here = os.path.normpath(os.path.join(os.path.dirname(here), link))


def atomic_write(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: a temporary file
    ``.linguo-*.tmp`` in the same folder, flushed and fsynced, then renamed over
    ``path`` (the target of a symbolic link), then the folder fsynced. Readers
    and a crash (even SIGKILL) see the old or the new file, never a torn one;
    a killed write may leave its temporary file behind.

    An existing file keeps its whole mode, setuid/setgid bits included (and
    owner, where allowed); a new one gets ``0666 & ~umask``. Refused, with
    :class:`UsageError` (exit 2) and the old file unchanged: a path that
    cannot be written, a path naming an open stream (``/dev/stdout``,
    ``/dev/fd/N``, ``/proc/self/fd/N``: use ``-o -``), a symbolic link
    loop, a target that is not a regular file, a read-only file (no write
    bit in its mode, even for root) and a file with several names (hard
    links), which replacing would split.
    """
    _refuse_stream_path(path)
    target = _link_target(path)
    folder = os.path.dirname(os.path.abspath(target)) or "."
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
    if st is not None:
        _check_replaceable(path, target, st)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".linguo-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        _fill(fd, tmp, text, st)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise UsageError(f"{path}: cannot write: {exc.strerror or exc}; "
                             "the file was not changed") from None
        raise
    _fsync_folder(folder)


def _link_target(path: str) -> str:
    """The file a write to ``path`` replaces: ``path``, or the target of the
    symbolic link ``path`` (created when dangling); :class:`UsageError` for a
    link loop."""
    if not os.path.islink(path):
        return path
    try:
        return os.path.realpath(path, strict=True)
    except FileNotFoundError:  # a dangling link: its target is created
        return os.path.realpath(path)
    except OSError as exc:  # ELOOP: a symbolic link loop
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _fill(fd: int, tmp: str, text: str, st: os.stat_result | None) -> None:
    """Write ``text`` into the temporary file ``tmp`` (open as ``fd``), fsync
    it, and give it the owner and whole mode of the file it replaces (``st``)
    or the mode of a new file."""
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    if st is not None:  # owner first: chown clears setuid/setgid, chmod restores them
        if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(tmp, st.st_uid, st.st_gid)
            except OSError:
                pass
        os.chmod(tmp, st.st_mode & 0o7777)
    else:
        os.chmod(tmp, 0o666 & ~_current_umask())


def _fsync_folder(folder: str) -> None:
    """Make a rename in ``folder`` durable (where the system allows it)."""
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


# ---------------------------------------------------------------------------
# Locks

_held_locks: weakref.WeakSet[FileLock] = weakref.WeakSet()


class FileLock:
    """An exclusive advisory lock (``fcntl.flock``) on a state file, held from
    reading it until the command ends.

    Taken on the file itself, not a sidecar: after a writer renamed a new file
    into place, a waiting process finds that its open file is no longer the
    one at ``path`` and opens and locks the new one. Other linguo runs wait up
    up to :func:`lock_timeout` seconds (10 s, or ``LINGUO_LOCK_TIMEOUT``),
    then fail with exit 3. Advisory: programs
    that do not take the lock (editors) are not stopped. Where the file system
    has no ``flock`` the file is read unlocked.
    """

    def __init__(self, fd: int, path: str) -> None:
        self.fd: int | None = fd
        self.path = path
        _held_locks.add(self)

    @classmethod
    def acquire(cls, path: str, timeout: float | None = None) -> FileLock:
        """Open ``path`` and lock it; raises ``OSError`` (file errors) or
        :class:`InputError` when another process holds it past ``timeout``
        seconds (default :func:`lock_timeout`)."""
        if timeout is None:
            timeout = lock_timeout()
        try:
            import fcntl
        except ImportError:  # pragma: no cover - no flock on this platform
            return cls(os.open(path, os.O_RDONLY), path)

        deadline = time.monotonic() + timeout
        while True:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                if time.monotonic() > deadline:
                    raise InputError(Diagnostic(
                        path, "", f"locked by another process (another linguo run?) for "
                                  f"more than {timeout:g} s; nothing was changed")) from None
                time.sleep(0.02)
                continue
            except OSError:  # no flock on this file system: read unlocked
                return cls(fd, path)
            try:
                now = os.stat(path)
            except FileNotFoundError:
                now = None
            mine = os.fstat(fd)
            if now is not None and (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
                return cls(fd, path)
            os.close(fd)  # replaced (or removed) while we waited: lock the new one
            if now is None:
                raise FileNotFoundError(path)

    def read(self, limit: int) -> bytes:
        """Up to ``limit`` bytes of the locked file, from its start."""
        assert self.fd is not None
        chunks = []
        left = limit
        os.lseek(self.fd, 0, os.SEEK_SET)
        while left > 0:
            chunk = os.read(self.fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def release(self) -> None:
        """Unlock and close (idempotent)."""
        fd, self.fd = self.fd, None
        if fd is not None:
            try:
                os.close(fd)  # closing the only descriptor releases the flock
            except OSError:
                pass
        _held_locks.discard(self)

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass


def release_locks() -> None:
    """Release every state-file lock this process holds (the CLI calls it when
    a command ends, however it ends)."""
    for held in list(_held_locks):
        held.release()
