"""Reading documents: bounded reading of files, standard input and pipes,
then YAML/JSON parsing with places (:func:`load`, :func:`parse`,
:func:`read_text`).

Loading is defensive: documents come from people, scripts and other programs,
and a hostile or broken one must end in one line and exit 3, never a
traceback, a hang or a blown memory budget. The limits are those of
:mod:`linguo_cli.io.document`.

* **Bytes**: at most ``MAX_DOCUMENT_BYTES``; UTF-8 only (a BOM is
  dropped); no NUL (binary) and no control characters other than tab, LF, CR.
  Pipes (FIFOs, ``<(command)``, standard input on a pipe) are read like
  standard input: bounded, and refused after :data:`PIPE_IDLE_TIMEOUT`
  seconds without a byte; directories and devices are refused.
* **JSON** (a document starting with ``{`` or ``[`` that parses as JSON) is
  read by the standard library; duplicate keys, ``NaN``/``Infinity``, numbers
  out of range and integers of more than ``MAX_INT_DIGITS`` digits are
  refused (:mod:`linguo_cli.io.json_text`). Anything else (and JSON that does
  not parse) is read as YAML.
* **YAML** is read as JSON-compatible YAML 1.2 (core schema) from the parser's
  event stream (:mod:`linguo_cli.io.yaml_text`): no tags, no merge keys, no
  directives, string keys only, bounded anchors and aliases.
* **Shape**: at most ``MAX_NODES`` keys and values (JSON) or
  ``MAX_YAML_NODES`` (YAML: where ruamel.yaml.clib is missing, its
  parser is pure Python and about twenty times slower), ``MAX_DEPTH``
  levels of nesting; strings hold no control
  characters (escaped ones included).

Every refusal is an :class:`~linguo_cli.core.errors.InputError` naming
``file:line:col`` (1-based) and the field path. State files read with
``lock=True`` hold an exclusive advisory lock
(:class:`~linguo_cli.io.write.FileLock`) until the command ends. Nothing here
applies a rule.
"""

from __future__ import annotations

import os
import re
import sys

from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.io.document import (
    MAX_DOCUMENT_BYTES,
    MAX_YAML_NODES,
    Document,
    Spans,
    _line_col,
    _Positions,
    _RootMap,
    _RootSeq,
)
from linguo_cli.io.json_text import _load_json
from linguo_cli.io.places import _Refused
from linguo_cli.io.write import FileLock
from linguo_cli.io.yaml_text import _compose_yaml

_RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def read_text(path: str) -> tuple[str, str]:
    """Read ``path`` (``-`` = stdin) as UTF-8; returns ``(name, text)``.

    Raises
    :class:`InputError` (exit 3) for a missing, unreadable, binary, oversized
    or non-UTF-8 file, for control characters and for a directory.
    """
    name, text, _ = _read(path, lock=False)
    return name, text


#: Seconds a pipe may stay silent (no byte, no end) before reading it fails.
PIPE_IDLE_TIMEOUT = 10.0


def _is_pipe(path: str) -> bool:
    """Whether ``path`` is a FIFO (a named pipe, ``<(command)``, ``/dev/stdin``
    on a pipe): read like stdin, bounded and with an idle timeout."""
    import stat

    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def _read_stdin(name: str) -> bytes:
    """Standard input, at most one byte over the document limit: a pipe is
    read with the idle timeout, anything else (a file, a terminal) as it is."""
    stream = sys.stdin.buffer
    try:
        fd = stream.fileno()
        is_pipe = _fd_is_pipe(fd)
    except (OSError, ValueError, AttributeError):  # a replaced stdin (tests, embedding)
        is_pipe = False
    if is_pipe:
        return _read_fd(fd, name)
    return bytes(stream.read(MAX_DOCUMENT_BYTES + 1))


def _fd_is_pipe(fd: int) -> bool:
    import stat

    return stat.S_ISFIFO(os.fstat(fd).st_mode)


def _read_pipe_path(path: str, name: str) -> bytes:
    """Open a FIFO without waiting for a writer (``O_NONBLOCK``) and read it
    with :func:`_read_fd`."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        return _read_fd(fd, name)
    finally:
        os.close(fd)


def _read_fd(fd: int, name: str) -> bytes:
    """Read a pipe to its end: at most ``MAX_DOCUMENT_BYTES + 1`` bytes, and
    :class:`InputError` (exit 3) when no byte and no end come for
    :data:`PIPE_IDLE_TIMEOUT` seconds (a FIFO nobody writes to)."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLIN)
    chunks: list[bytes] = []
    size = 0
    while size <= MAX_DOCUMENT_BYTES:
        if not poller.poll(int(PIPE_IDLE_TIMEOUT * 1000)):
            raise InputError(Diagnostic(name, "", f"no data for {PIPE_IDLE_TIMEOUT:g} s "
                                                  "(a pipe that nobody writes to?)"))
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            continue
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _read(path: str, *, lock: bool) -> tuple[str, str, FileLock | None]:
    """``(name, text, lock held)`` of ``path`` (``-`` = stdin); see
    :func:`read_text`."""
    name = "<stdin>" if path == "-" else path
    try:
        raw, held = _read_bytes(path, name, lock)
    except FileNotFoundError:
        raise InputError(Diagnostic(name, "", "no such file")) from None
    except PermissionError:
        raise InputError(Diagnostic(name, "", "permission denied")) from None
    except IsADirectoryError:
        raise InputError(Diagnostic(name, "", "is a directory, not a document")) from None
    except OSError as exc:
        raise InputError(Diagnostic(name, "", f"cannot read: {exc.strerror or exc}")) from None
    try:
        text = _decode(raw, name)
    except InputError:
        if held is not None:
            held.release()
        raise
    return name, text, held


def _read_bytes(path: str, name: str, lock: bool) -> tuple[bytes, FileLock | None]:
    """At most ``MAX_DOCUMENT_BYTES + 1`` bytes of ``path`` (``-`` = stdin),
    and the file's lock when ``lock`` (regular files only). Raises
    :class:`InputError` for a closed stdin, a directory or a device, and
    ``OSError`` for file errors."""
    if path == "-":
        if sys.stdin is None:  # started with stdin closed (<&-)
            raise InputError(Diagnostic(name, "", "standard input is closed"))
        return _read_stdin(name), None
    if _is_pipe(path):
        return _read_pipe_path(path, name), None
    if os.path.isdir(path):
        raise InputError(Diagnostic(name, "", "is a directory, not a document"))
    if os.path.exists(path) and not os.path.isfile(path):
        raise InputError(Diagnostic(name, "", "is a device or socket, not a document "
                                              "(pipes and regular files are read)"))
    if lock:
        held = FileLock.acquire(path)
        return held.read(MAX_DOCUMENT_BYTES + 1), held
    with open(path, "rb") as fh:
        return fh.read(MAX_DOCUMENT_BYTES + 1), None


def _decode(raw: bytes, name: str) -> str:
    """``raw`` as text: within the size limit, not binary, UTF-8; raises
    :class:`InputError` (exit 3)."""
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise InputError(Diagnostic(
            name, "", f"document larger than {MAX_DOCUMENT_BYTES // 1024} KiB "
                      "(the limit; see README, Limits)"))
    if b"\x00" in raw and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(Diagnostic(name, "", "binary file (contains NUL bytes)"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(Diagnostic(
            f"{name}:{line}:{col}", "", "not valid UTF-8 text")) from None
    if "\x00" in text:
        raise InputError(Diagnostic(name, "", "binary file (contains NUL bytes)"))
    return text


def load(path: str, *, lock: bool = False, yaml_nodes: int = MAX_YAML_NODES) -> Document:
    """Read and parse a YAML or JSON document from ``path`` (``-`` = stdin).

    ``lock``: take the file's exclusive advisory lock first (see
    :class:`~linguo_cli.io.write.FileLock`) and keep it in the returned document until it is
    released or the command ends. ``yaml_nodes``: see :func:`parse`. Raises
    :class:`InputError` (exit 3).
    """
    name, text, held = _read(path, lock=lock)
    try:
        doc = parse(text, name, yaml_nodes=yaml_nodes)
    except BaseException:
        if held is not None:
            held.release()
        raise
    doc.lock = held
    return doc


def parse(text: str, name: str, *, yaml_nodes: int = MAX_YAML_NODES) -> Document:
    """Parse YAML/JSON ``text`` within the limits of
    :mod:`linguo_cli.io.document`; raises
    :class:`InputError` with ``name:line:col`` and the field path.

    Duplicate keys, tags, merge keys, non-string keys, non-finite numbers,
    oversized integers, control characters, too many values or aliases and
    too deep nesting are refused; so is an empty document. ``yaml_nodes``
    raises the YAML size limit for trusted files (the packaged golden suite).
    """
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    if not text.strip():
        raise InputError(Diagnostic(name, "", "empty document"))
    if len(text) > MAX_DOCUMENT_BYTES:
        raise InputError(Diagnostic(
            name, "", f"document larger than {MAX_DOCUMENT_BYTES // 1024} KiB (the limit)"))
    bad = _RAW_CONTROL.search(text)
    if bad:
        line, col = _line_col(text, bad.start())
        raise InputError(Diagnostic(
            f"{name}:{line + 1}:{col + 1}", "",
            f"control character U+{ord(bad.group()):04X} is not allowed"))
    try:
        loaded = _load_json(text) if text.lstrip(" \t\r\n")[:1] in ("{", "[") else None
        if loaded is not None:
            data, fmt = loaded, "json"
            positions = _Positions(text)
        else:
            spans = Spans()
            data, values, keys = _compose_yaml(text, yaml_nodes, spans)
            fmt = "yaml"
            positions = _Positions(None, values, keys)
    except _Refused as exc:
        raise exc.error(name) from None
    if data is None:
        raise InputError(Diagnostic(name, "", "empty document"))
    if isinstance(data, (_RootMap, _RootSeq)):
        data.positions = positions
    return Document(name, data, text=text, format=fmt, positions=positions, bom=bom,
                    _spans=spans if fmt == "yaml" else None)
