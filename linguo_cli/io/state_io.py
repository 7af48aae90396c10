"""Reading and writing documents: YAML/JSON in, schema and semantic
validation with places, locked atomic writes out.

Loading is defensive: documents come from people, scripts and other programs,
and a hostile or broken one must end in one line and exit 3, never a
traceback, a hang or a blown memory budget.

* **Bytes**: at most :data:`MAX_DOCUMENT_BYTES`; UTF-8 only (a BOM is
  dropped); no NUL (binary) and no control characters other than tab, LF, CR.
* **JSON** (a document starting with ``{`` or ``[`` that parses as JSON) is
  read by the standard library; duplicate keys, ``NaN``/``Infinity``, numbers
  out of range and integers of more than :data:`MAX_INT_DIGITS` digits are
  refused. Anything else (and JSON that does not parse) is read as YAML.
* **YAML** is read as JSON-compatible YAML 1.2 (core schema) from the parser's
  event stream, never by a constructor that builds objects: no tags at all
  (``!!python/object``, ``!custom``, ``!!binary``...), no merge keys, keys
  must be strings and unique, ``.inf``/``.nan`` are refused. Anchors and
  aliases are allowed but bounded: at most :data:`MAX_ALIASES` aliases, and
  the document *after* alias expansion counts against :data:`MAX_YAML_NODES`
  and :data:`MAX_DEPTH`, so a "billion laughs" file is refused after a few
  hundred events.
* **Shape**: at most :data:`MAX_NODES` keys and values (JSON) or
  :data:`MAX_YAML_NODES` (YAML: where ruamel.yaml.clib is missing, its
  parser is pure Python and about twenty times slower), :data:`MAX_DEPTH`
  levels of nesting; strings hold no control
  characters (escaped ones included).

Every refusal names ``file:line:col`` (1-based) and the field path. Loaded
documents are plain ``dict``/``list``/``str``/``int``/``float``/``bool``/
``None`` trees; positions are kept beside them (:meth:`Document.place`), and
so is where each node's text starts and ends and its style
(:class:`Spans`), so that a state written back (:func:`dump_document`, see
:mod:`linguo_cli.io.writeback`) edits only the values that changed in the
original text. YAML directives (``%YAML``, ``%TAG``) are refused: documents
are read as YAML 1.2 only.

Writing (:func:`atomic_write`) goes through a temporary file in the same
folder, flushed and fsynced, renamed over the target; state files read with
``lock=True`` hold an exclusive advisory lock (``fcntl.flock`` on the file
itself) until the command ends, so two ``--in-place`` runs never interleave.
Nothing here applies a rule.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import io
import json
import math
import os
import re
import sys
import tempfile
import time
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.errors import MAX_DIAGNOSTICS, Diagnostic, InputError, UsageError
from linguo_cli.rulesets.linguomancy import packaged

# ---------------------------------------------------------------------------
# Limits (documented in README.md, "Limits")

#: Largest document read, in bytes (1 MiB).
MAX_DOCUMENT_BYTES = 1024 * 1024
#: Most keys and values (scalars, lists, mappings) in one JSON document.
MAX_NODES = 100_000
#: Most keys and values in one YAML document, counted after alias expansion
#: (sized for ruamel's pure-Python parser, used where ruamel.yaml.clib is
#: missing: this keeps any document under about two seconds there; write
#: bigger documents as JSON).
MAX_YAML_NODES = 25_000
#: Deepest nesting of lists and mappings (the document itself is level 1).
MAX_DEPTH = 64
#: Most YAML aliases (``*name``) in one document.
MAX_ALIASES = 100
#: Most digits of an integer (2**64 has 20); larger numbers are refused while
#: reading, before any conversion.
MAX_INT_DIGITS = 20
#: Longest number written in a document, in characters.
MAX_NUMBER_CHARS = 100
#: Seconds a command waits for another linguo run to release a state file.
LOCK_TIMEOUT = 10.0

_RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_STRING_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_DEEP_FLOW = re.compile(r"(?:[\[{][ \t]*){" + str(MAX_DEPTH + 1) + "}")
_YAML_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_YAML_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_YAML_NONFINITE = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_DIRECTIVE = re.compile(r"^%", re.M)
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUES = frozenset({"true", "True", "TRUE"})
_FALSES = frozenset({"false", "False", "FALSE"})
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.S)
_FIELD_PART = re.compile(r"\[(\d+)\]|([^.\[\]]+)")

Path_ = tuple[Any, ...]
Pos = tuple[int, int]


# ---------------------------------------------------------------------------
# Documents and positions


class _Positions:
    """0-based ``(line, col)`` of the values and keys of one document, by path.

    For JSON the table is built on first use (only error messages need it)."""

    __slots__ = ("_text", "_values", "_keys")

    def __init__(self, text: str | None = None, values: dict[Path_, Pos] | None = None,
                 keys: dict[Path_, Pos] | None = None) -> None:
        self._text = text
        self._values = values
        self._keys = keys

    def lookup(self, path: Sequence[Any], key: bool = False) -> Pos | None:
        """Position of ``path`` (of its key when ``key``), else of the nearest
        parent that has one."""
        if self._values is None:
            self._values, self._keys = _json_positions(self._text or "", refuse_deep=False)
        p = tuple(path)
        if key and self._keys and p in self._keys:
            return self._keys[p]
        while True:
            if p in self._values:
                return self._values[p]
            if not p:
                return None
            p = p[:-1]


class _RootMap(dict):  # type: ignore[type-arg]
    """The top mapping of a loaded document; carries its positions."""

    __slots__ = ("positions",)
    positions: _Positions


class _RootSeq(list):  # type: ignore[type-arg]
    """The top list of a loaded document; carries its positions."""

    __slots__ = ("positions",)
    positions: _Positions


@dataclass(slots=True, eq=False)
class Document:
    """A loaded document.

    ``name`` is the path, ``<stdin>`` or a label; ``data`` the plain tree
    (``dict``/``list``/scalars). Documents made by :func:`parse` also keep
    their ``text``, ``format`` (``"yaml"`` or ``"json"``; ``"data"`` for
    documents built in memory) and the positions of every value, and those
    read with ``load(..., lock=True)`` hold the file's lock until
    :meth:`release` (or the end of the command).
    """

    name: str
    data: Any
    text: str | None = None
    format: str = "data"
    positions: _Positions | None = None
    lock: FileLock | None = None
    _roundtrip: Any = field(default=None, repr=False)
    #: The text started with a byte order mark (dropped from ``text``).
    bom: bool = False
    #: Spans of the nodes of ``text`` (see :class:`Spans`); JSON: on first use.
    _spans: Any = field(default=None, repr=False)
    #: The plain tree as read, kept when the tree is first updated for writing.
    before: Any = field(default=None, repr=False)

    def spans(self) -> Spans | None:
        """Where every node of ``text`` is (start, end, style), by path;
        ``None`` for documents built in memory."""
        if self._spans is None and self.text is not None and self.format == "json":
            self._spans = _json_spans(self.text)
        return self._spans if isinstance(self._spans, Spans) else None

    def snapshot(self) -> None:
        """Keep the plain tree as read (once), before it is updated for writing."""
        if self.before is None:
            self.before = to_plain(self.data)

    def position(self, path: Iterable[Any] = (), *, key: bool = False) -> Pos | None:
        """0-based ``(line, col)`` of the node at ``path`` (of its key when
        ``key``), or of its nearest parent; ``None`` when unknown."""
        if self.positions is not None:
            return self.positions.lookup(list(path), key)
        return position(self.data, list(path), key=key)

    def place(self, path: Iterable[Any] = (), *, key: bool = False) -> str:
        """``file:line:col`` of the node at ``path`` (or its nearest parent)."""
        pos = self.position(path, key=key)
        return f"{self.name}:{pos[0] + 1}:{pos[1] + 1}" if pos else self.name

    def roundtrip(self) -> Any:
        """The ruamel.yaml round-trip tree of a YAML document (comments, key
        order and quoting kept), read on first use; ``None`` for other formats.
        Raises :class:`InputError` if it cannot be read (it was checked before)."""
        if self.format != "yaml" or self.text is None:
            return None
        if self._roundtrip is None:
            from ruamel.yaml.error import YAMLError

            text = self.text[1:] if self.text.startswith("\ufeff") else self.text
            try:
                self._roundtrip = _yaml().load(text)
            except (YAMLError, ValueError, RecursionError) as exc:
                raise InputError(Diagnostic(
                    self.name, "", f"cannot re-read the document to write it back: "
                                   f"{_one_line(str(exc))}")) from None
        return self._roundtrip

    def release(self) -> None:
        """Release the file lock, if this document holds one."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None


@dataclass(slots=True)
class Spans:
    """Where the nodes of a document's text are, by path (0-based character
    offsets into the text without its BOM, end exclusive).

    ``values[path] = (start, end, style)``: a scalar's own text (quotes and
    block headers included; an anchor ``&a`` before it included too), a
    collection from its first character (``[``, ``{``, the first key or
    ``-``) to its end; ``style`` is ``""`` for plain scalars, ``"'"``,
    ``'"'``, ``"|"``, ``">"`` for the others, ``"*"`` for an alias,
    ``"flow"`` or ``"block"`` for collections (JSON: ``"flow"``).
    ``keys[path] = (start, end)`` spans the key of the value at ``path``.
    """

    values: dict[Path_, tuple[int, int, str]] = field(default_factory=dict)
    keys: dict[Path_, tuple[int, int]] = field(default_factory=dict)


class _Refused(Exception):
    """A loading refusal: 0-based position (or ``None``), path, message."""

    def __init__(self, pos: Pos | None, path: Sequence[Any], message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.path = tuple(path)
        self.message = message

    def error(self, name: str) -> InputError:
        place = f"{name}:{self.pos[0] + 1}:{self.pos[1] + 1}" if self.pos else name
        where = field_path(self.path)
        if len(self.path) > 8:  # deep paths: keep the line short
            where = f"{field_path(self.path[:4])}...({len(self.path)} levels)"
        return InputError(Diagnostic(place, where, self.message))


def _yaml(typ: str = "rt") -> Any:
    from ruamel.yaml import YAML

    y = YAML(typ=typ)
    y.allow_duplicate_keys = False
    y.preserve_quotes = True  # the round-trip fallback keeps quoting too
    y.width = 1 << 30  # and never folds a long line (that changes plain strings)
    return y


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _shorten(text: str, limit: int = 200) -> str:
    text = _one_line(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _line_col(text: str, offset: int) -> Pos:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


# ---------------------------------------------------------------------------
# Reading


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
    name = "<stdin>" if path == "-" else path
    held: FileLock | None = None
    try:
        if path == "-":
            if sys.stdin is None:  # started with stdin closed (<&-)
                raise InputError(Diagnostic(name, "", "standard input is closed"))
            raw = _read_stdin(name)
        elif _is_pipe(path):
            raw = _read_pipe_path(path, name)
        else:
            if os.path.isdir(path):
                raise InputError(Diagnostic(name, "", "is a directory, not a document"))
            if os.path.exists(path) and not os.path.isfile(path):
                raise InputError(Diagnostic(name, "", "is a device or socket, not a document "
                                                      "(pipes and regular files are read)"))
            if lock:
                held = FileLock.acquire(path)
                raw = held.read(MAX_DOCUMENT_BYTES + 1)
            else:
                with open(path, "rb") as fh:
                    raw = fh.read(MAX_DOCUMENT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(Diagnostic(name, "", "no such file")) from None
    except PermissionError:
        raise InputError(Diagnostic(name, "", "permission denied")) from None
    except IsADirectoryError:
        raise InputError(Diagnostic(name, "", "is a directory, not a document")) from None
    except OSError as exc:
        raise InputError(Diagnostic(name, "", f"cannot read: {exc.strerror or exc}")) from None
    try:
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
    except InputError:
        if held is not None:
            held.release()
        raise
    return name, text, held


def load(path: str, *, lock: bool = False, yaml_nodes: int = MAX_YAML_NODES) -> Document:
    """Read and parse a YAML or JSON document from ``path`` (``-`` = stdin).

    ``lock``: take the file's exclusive advisory lock first (see
    :class:`FileLock`) and keep it in the returned document until it is
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
    """Parse YAML/JSON ``text`` within the limits of this module; raises
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


# ---------------------------------------------------------------------------
# JSON


class _Bad:
    """A JSON value refused while decoding, reported with its place later."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


class _DupMap(dict):  # type: ignore[type-arg]
    """A JSON object that had a key twice."""

    __slots__ = ("dups",)
    dups: list[str]


def _json_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    dups: list[str] = []
    for k, v in pairs:
        if k in out:
            dups.append(k)
        out[k] = v
    if dups:
        marked = _DupMap(out)
        marked.dups = dups
        return marked
    return out


def _json_int(text: str) -> Any:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        return _Bad(f"integer with more than {MAX_INT_DIGITS} digits (numbers are limited to "
                    f"{MAX_INT_DIGITS} digits)")
    return int(text)


def _json_float(text: str) -> Any:
    if len(text) > MAX_NUMBER_CHARS:
        return _Bad(f"number longer than {MAX_NUMBER_CHARS} characters")
    return _finite(float(text), text)


def _json_constant(text: str) -> Any:
    return _Bad(f"{text} is not a number linguo accepts (JSON has no {text})")


def _finite(value: float, text: str) -> Any:
    if not math.isfinite(value):
        return _Bad(f"number {_shorten(text, 40)} is out of range")
    if value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value


def _load_json(text: str) -> Any:
    """The JSON value of ``text``, or ``None`` when it is not JSON (then it is
    read as YAML). Raises :class:`_Refused` for JSON beyond the limits."""
    try:
        data = json.loads(text, object_pairs_hook=_json_pairs, parse_int=_json_int,
                          parse_float=_json_float, parse_constant=_json_constant)
    except RecursionError:
        _json_positions(text)  # raises at the first level beyond MAX_DEPTH
        raise _Refused(None, (), f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # JSONDecodeError: let the YAML reader try (and place errors)
        return None
    problem = _check_tree(data)
    if problem is not None:
        path, message, is_key = problem
        pos = _Positions(text).lookup(path, is_key)
        raise _Refused(pos, path, message)
    if isinstance(data, dict):
        data = _RootMap(data)
    elif isinstance(data, list):
        data = _RootSeq(data)
    return data


def _check_tree(data: Any) -> tuple[Path_, str, bool] | None:
    """The first problem of a decoded JSON tree in document order:
    ``(path, message, at_key)``; ``None`` when it is within the limits."""
    count = 0
    stack: list[tuple[Any, Path_]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        count += 1 + (len(node) if isinstance(node, dict) else 0)
        if count > MAX_NODES:
            return path, (f"more than {MAX_NODES} keys and values in the document (the JSON "
                          "limit)"), False
        if isinstance(node, dict):
            if len(path) >= MAX_DEPTH:
                return path, f"nested deeper than {MAX_DEPTH} levels", False
            if type(node) is _DupMap:
                k = node.dups[0]
                return path + (k,), f"duplicate key {_shorten(repr(k), 60)}", True
            items = list(node.items())
            for k, _ in items:
                bad = _STRING_CONTROL.search(k)
                if bad:
                    return path + (k,), _control_message(bad.group(), "key"), True
            stack.extend((v, path + (k,)) for k, v in reversed(items))
        elif isinstance(node, list):
            if len(path) >= MAX_DEPTH:
                return path, f"nested deeper than {MAX_DEPTH} levels", False
            stack.extend((v, path + (i,)) for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, str):
            bad = _STRING_CONTROL.search(node)
            if bad:
                return path, _control_message(bad.group(), "string"), False
        elif isinstance(node, _Bad):
            return path, node.message, False
    return None


def _control_message(char: str, what: str) -> str:
    if "\ud800" <= char <= "\udfff":
        return f"{what} holds a lone surrogate \\u{ord(char):04x} (not a character)"
    return f"{what} holds control character U+{ord(char):04X}"


class _LineIndex:
    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def at(self, offset: int) -> Pos:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]


def _json_positions(text: str, *, refuse_deep: bool = True
                    ) -> tuple[dict[Path_, Pos], dict[Path_, Pos]]:
    """Positions of every value and key of JSON ``text`` by path. With
    ``refuse_deep``, raises :class:`_Refused` at the first bracket nested
    beyond :data:`MAX_DEPTH`."""
    lines = _LineIndex(text)
    values: dict[Path_, Pos] = {}
    keys: dict[Path_, Pos] = {}
    for event, path, m in _json_events(text):
        if event == "key":
            keys[path] = lines.at(m.start())
        elif event != "close":
            values.setdefault(path, lines.at(m.start()))
            if event == "open" and refuse_deep and len(path) >= MAX_DEPTH:
                raise _Refused(lines.at(m.start()), path,
                               f"nested deeper than {MAX_DEPTH} levels")
    return values, keys


def _json_events(text: str) -> Iterator[tuple[str, Path_, re.Match[str]]]:
    """Walk the tokens of JSON ``text`` with their paths: ``("key", path of
    the value it names, token)``, ``("open", path, "{" or "[")``, ``("close",
    path of the container, "}" or "]")`` and ``("scalar", path, token)``.
    The one walker behind positions (reading) and spans (writing back)."""
    stack: list[list[Any]] = []  # [path, is_map, next index or current key]
    no_key = object()
    for m in _JSON_TOKEN.finditer(text):
        c = m.group()[0]
        if c in ",:":
            continue
        if c in "}]":
            if stack:
                yield "close", stack.pop()[0], m
            continue
        if stack and stack[-1][1] and stack[-1][2] is no_key:
            try:
                k = json.loads(m.group())
            except ValueError:
                k = m.group()
            stack[-1][2] = k
            yield "key", stack[-1][0] + (k,), m
            continue
        if not stack:
            path: Path_ = ()
        elif stack[-1][1]:
            path = stack[-1][0] + (stack[-1][2],)
            stack[-1][2] = no_key
        else:
            path = stack[-1][0] + (stack[-1][2],)
            stack[-1][2] += 1
        if c in "{[":
            yield "open", path, m
            stack.append([path, c == "{", no_key if c == "{" else 0])
        else:
            yield "scalar", path, m


def _json_spans(text: str) -> Spans:
    """The :class:`Spans` of JSON ``text`` (already read, so well formed):
    every value from its first to its last character, every key's string."""
    spans = Spans()
    for event, path, m in _json_events(text):
        if event == "key":
            spans.keys[path] = (m.start(), m.end())
        elif event == "open":
            spans.values[path] = (m.start(), -1, "flow")
        elif event == "close":
            spans.values[path] = (spans.values[path][0], m.end(), "flow")
        else:
            spans.values[path] = (m.start(), m.end(), '"' if m.group()[0] == '"' else "")
    return spans


# ---------------------------------------------------------------------------
# YAML


@dataclass(slots=True)
class _Frame:
    container: Any
    path: Path_
    is_map: bool
    anchor: str | None
    nodes_before: int
    key: Any
    height: int = 1


_NO_KEY = object()


def _compose_yaml(text: str, limit: int = MAX_YAML_NODES, spans: Spans | None = None
                  ) -> tuple[Any, dict[Path_, Pos], dict[Path_, Pos]]:
    """Build the plain tree of YAML ``text`` from the parser's events, with
    the position of every value and key (and, into ``spans``, where each
    node starts and ends and its style); raises :class:`_Refused`."""
    deep = _DEEP_FLOW.search(text)
    if deep:
        # ruamel's scanner looks ahead over runs of flow brackets; a prefix
        # ending in the run shows the depth error without that cost.
        try:
            _compose_events(text[: deep.end()], limit)
        except _Refused as exc:
            if "nested deeper" in exc.message:
                raise
    return _compose_events(text, limit, spans)


def _compose_events(text: str, limit: int = MAX_YAML_NODES, spans: Spans | None = None
                    ) -> tuple[Any, dict[Path_, Pos], dict[Path_, Pos]]:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.events import (
        AliasEvent,
        DocumentEndEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
        StreamStartEvent,
    )
    from ruamel.yaml.reader import ReaderError

    values: dict[Path_, Pos] = {}
    keys: dict[Path_, Pos] = {}
    sv: dict[Path_, tuple[int, int, str]] = spans.values if spans is not None else {}
    sk: dict[Path_, tuple[int, int]] = spans.keys if spans is not None else {}
    stack: list[_Frame] = []
    root: Any = None
    nodes = 0
    aliases = 0
    documents = 0
    anchors: dict[str, tuple[Any, int, int]] = {}  # value, size, height
    open_anchors: set[str] = set()
    # The C parser of ruamel.yaml.clib when it is installed (about twenty times
    # faster; same events and marks), else ruamel's pure-Python parser.
    events = iter(YAML(typ="safe", pure=False).parse(text))

    def add(value: Any, height: int) -> None:
        nonlocal root
        if not stack:
            root = value
            return
        parent = stack[-1]
        if parent.is_map:
            parent.container[parent.key] = value
            parent.key = _NO_KEY
        else:
            parent.container.append(value)
        parent.height = max(parent.height, height + 1)

    while True:
        try:
            ev = next(events)
        except StopIteration:
            break
        except MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            problem = _one_line(exc.problem or exc.context or "invalid YAML")
            raise _Refused((mark.line, mark.column) if mark else None, (),
                           f"YAML/JSON syntax: {problem}") from None
        except ReaderError as exc:
            raise _Refused(_line_col(text, exc.position), (),
                           f"YAML/JSON syntax: {_one_line(exc.reason)}") from None
        except (YAMLError, RecursionError, ValueError, TypeError, IndexError,
                KeyError, AttributeError) as exc:
            raise _Refused(None, (), f"YAML/JSON syntax: {_shorten(str(exc) or type(exc).__name__)}"
                           ) from None
        cls = type(ev)
        if cls is StreamStartEvent or cls is StreamEndEvent or cls is DocumentEndEvent:
            continue
        mark = (ev.start_mark.line, ev.start_mark.column)
        if cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _Refused(mark, (), "more than one document (---); give one per file")
            directive = _DIRECTIVE.search(text, 0, ev.start_mark.index)
            if directive is not None or ev.version is not None or ev.tags:
                at = _line_col(text, directive.start()) if directive else mark
                raise _Refused(at, (), "YAML directives (%YAML, %TAG) are not accepted: "
                                       "states are read as YAML 1.2; remove the line")
            continue
        if cls is MappingEndEvent or cls is SequenceEndEvent:
            frame = stack.pop()
            if frame.path in sv:
                start, _, style = sv[frame.path]
                sv[frame.path] = (start, ev.end_mark.index, style)
            if frame.anchor is not None:
                anchors[frame.anchor] = (frame.container, nodes - frame.nodes_before,
                                         frame.height)
                open_anchors.discard(frame.anchor)
            if stack:
                stack[-1].height = max(stack[-1].height, frame.height + 1)
            continue
        parent = stack[-1] if stack else None
        if parent is not None and parent.is_map and parent.key is _NO_KEY:
            # a mapping key
            kpath = parent.path
            if cls is not ScalarEvent:
                raise _Refused(mark, kpath, "mapping keys must be strings, not lists, "
                                            "mappings or aliases")
            if ev.tag is not None:
                raise _Refused(mark, kpath, f"YAML tags are not accepted ({ev.tag})")
            plain = not ev.style and ev.implicit[0]
            if plain and ev.value == "<<":
                raise _Refused(mark, kpath, "YAML merge keys (<<) are not accepted")
            k = _scalar(ev.value, plain, mark, kpath)
            if not isinstance(k, str):
                raise _Refused(mark, kpath, f"key {ev.value!r} is not a string: quote it")
            kpath = kpath + (k,)
            if k in parent.container:
                first = keys.get(kpath)
                where = f" (first at line {first[0] + 1})" if first else ""
                raise _Refused(mark, kpath, f"duplicate key {_shorten(repr(k), 60)}{where}")
            keys[kpath] = mark
            sk[kpath] = (ev.start_mark.index, ev.end_mark.index)
            parent.key = k
            nodes += 1
            if ev.anchor is not None:
                anchors[ev.anchor] = (k, 1, 0)
            continue
        if parent is None:
            path: Path_ = ()
        elif parent.is_map:
            path = parent.path + (parent.key,)
        else:
            path = parent.path + (len(parent.container),)
        values[path] = mark
        if cls is ScalarEvent:
            sv[path] = (ev.start_mark.index, ev.end_mark.index, ev.style or "")
        elif cls is AliasEvent:
            sv[path] = (ev.start_mark.index, ev.end_mark.index, "*")
        else:
            sv[path] = (ev.start_mark.index, -1, "flow" if ev.flow_style else "block")
        if cls is AliasEvent:
            name = ev.anchor
            if name in open_anchors:
                raise _Refused(mark, path, f"recursive alias *{name} (it refers to itself)")
            if name not in anchors:
                raise _Refused(mark, path, f"alias *{name} has no anchor &{name} before it")
            aliases += 1
            if aliases > MAX_ALIASES:
                raise _Refused(mark, path, f"more than {MAX_ALIASES} aliases (the limit)")
            value, size, height = anchors[name]
            nodes += size
            if nodes > limit:
                raise _Refused(mark, path, f"aliases expand the document beyond "
                                           f"{limit} keys and values (the YAML limit)")
            if len(path) + height > MAX_DEPTH:
                raise _Refused(mark, path, f"alias *{name} nests the document deeper than "
                                           f"{MAX_DEPTH} levels")
            add(value, height)
            continue
        if ev.tag is not None:
            raise _Refused(mark, path, f"YAML tags are not accepted ({ev.tag})")
        nodes += 1
        if nodes > limit:
            raise _Refused(mark, path, f"more than {limit} keys and values in a YAML "
                                       f"document (the limit; JSON may have {MAX_NODES})")
        if cls is ScalarEvent:
            value = _scalar(ev.value, not ev.style and ev.implicit[0], mark, path)
            if ev.anchor is not None:
                anchors[ev.anchor] = (value, 1, 0)
            add(value, 0)
            continue
        if cls is not MappingStartEvent and cls is not SequenceStartEvent:
            raise _Refused(mark, path, f"unexpected YAML event {cls.__name__}")
        if len(path) >= MAX_DEPTH:
            raise _Refused(mark, path, f"nested deeper than {MAX_DEPTH} levels")
        is_map = cls is MappingStartEvent
        container: Any
        if parent is None:
            container = _RootMap() if is_map else _RootSeq()
        else:
            container = {} if is_map else []
        add(container, 1)
        stack.append(_Frame(container, path, is_map, ev.anchor, nodes - 1, _NO_KEY))
        if ev.anchor is not None:
            open_anchors.add(ev.anchor)
    return root, values, keys


def _scalar(value: str, plain: bool, mark: Pos, path: Path_) -> Any:
    """A YAML scalar by the YAML 1.2 core schema (plain scalars only; quoted
    and block scalars are strings), within the limits."""
    if plain:
        if value in _NULLS:
            return None
        if value in _TRUES:
            return True
        if value in _FALSES:
            return False
        first = value[:1]
        if first in "-+.0123456789" and first:
            if _YAML_INT.fullmatch(value):
                body = value.lstrip("+-")
                base = 10
                if body[:2] in ("0o", "0x"):
                    base = 8 if body[1] == "o" else 16
                    body = body[2:]
                if len(body) > MAX_INT_DIGITS:
                    raise _Refused(mark, path, f"integer with more than {MAX_INT_DIGITS} digits "
                                               f"(numbers are limited to {MAX_INT_DIGITS} digits)")
                n = int(body, base)
                return -n if value.startswith("-") else n
            if _YAML_FLOAT.fullmatch(value):
                if len(value) > MAX_NUMBER_CHARS:
                    raise _Refused(mark, path, f"number longer than {MAX_NUMBER_CHARS} characters")
                result = _finite(float(value), value)
                if isinstance(result, _Bad):
                    raise _Refused(mark, path, result.message)
                return result
            if _YAML_NONFINITE.fullmatch(value):
                raise _Refused(mark, path, f"{value} is not a number linguo accepts "
                                           "(no infinities, no NaN)")
    bad = _STRING_CONTROL.search(value)
    if bad:
        raise _Refused(mark, path, _control_message(bad.group(), "string"))
    return value


# ---------------------------------------------------------------------------
# Paths and places


def field_path(path: Iterable[Any]) -> str:
    """``["entities", 0, "hp"]`` -> ``entities[0].hp``."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + str(p)
    return out


def parse_field_path(text: str) -> list[Any]:
    """``entities[0].hp`` -> ``["entities", 0, "hp"]`` (the inverse of
    :func:`field_path` for keys without dots or brackets)."""
    return [int(m.group(1)) if m.group(1) is not None else m.group(2)
            for m in _FIELD_PART.finditer(text)]


def position(data: Any, path: list[Any], *, key: bool = False) -> Pos | None:
    """0-based ``(line, col)`` of the node at ``path`` (of its key when
    ``key``), or of the nearest known parent. ``data`` is a loaded document's
    tree (its root carries the positions), a :class:`Document`, or a ruamel
    round-trip tree; ``None`` when nothing is known."""
    if isinstance(data, Document):
        return data.position(path, key=key)
    positions = getattr(data, "positions", None)
    if isinstance(positions, _Positions):
        return positions.lookup(path, key)
    node = data
    best: Pos | None = None
    lc = getattr(node, "lc", None)
    if lc is not None and lc.line is not None:
        best = (lc.line, lc.col)
    for i, p in enumerate(path):
        lc = getattr(node, "lc", None)
        try:
            if isinstance(node, Mapping) and p in node:
                if lc is not None:
                    last = i == len(path) - 1
                    pos = lc.key(p) if (key and last) else lc.value(p)
                    if pos is not None:
                        best = (pos[0], pos[1])
                node = node[p]
            elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
                if lc is not None:
                    pos = lc.item(p)
                    if pos is not None:
                        best = (pos[0], pos[1])
                node = node[p]
            else:
                break
        except (KeyError, TypeError, IndexError, AttributeError):
            break
    return best


def place_of(name: str, data: Any, path: list[Any], *, key: bool = False) -> str:
    """``name:line:col`` (1-based) for ``path``, or ``name`` when unknown."""
    pos = position(data, path, key=key) if data is not None else None
    return f"{name}:{pos[0] + 1}:{pos[1] + 1}" if pos else name


def to_plain(node: Any) -> Any:
    """A copy of a tree made of plain dict/list/str/int/float/bool/None."""
    if isinstance(node, Mapping):
        return {str(k): to_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


def keep_refusal(exc: InputError, located: InputError) -> None:
    """Carry the refusal code and rule of ``exc`` (a bad option's) over to
    its placed copy, for the error object."""
    for attr in ("refusal", "rule"):
        if getattr(exc, attr, None) is not None:
            setattr(located, attr, getattr(exc, attr))


def relocated(exc: InputError, doc: Document) -> InputError:
    """``exc`` with every diagnostic that has no ``line:col`` yet placed in
    ``doc`` by its field path (semantic errors found after schema validation)."""
    out = []
    for d in exc.diagnostics:
        if d.field and not re.search(r":\d+:\d+$", d.place):
            d = Diagnostic(doc.place(parse_field_path(d.field)), d.field, d.message)
        out.append(d)
    located = InputError(out)
    located.code = exc.code
    keep_refusal(exc, located)
    return located


def locate_errors(exc: InputError, request_doc: Document | None = None,
                  state_doc: Document | None = None) -> InputError:
    """``exc`` with places for the diagnostics a handler raised about request
    fields (place ``request``/``<request>``/``<options>`` and a field path):
    fields under ``state`` are looked up in ``state_doc``, the others in
    ``request_doc``. Diagnostics that already have a place are kept."""
    out = []
    for d in exc.diagnostics:
        if d.place in ("request", "<request>", "<options>") and d.field:
            path = parse_field_path(d.field)
            doc = request_doc
            if path and path[0] == "state" and state_doc is not None:
                doc, path = state_doc, path[1:]
            if doc is not None:
                d = Diagnostic(doc.place(path), d.field, d.message)
        out.append(d)
    located = InputError(out)
    located.code = exc.code
    keep_refusal(exc, located)
    return located


# ---------------------------------------------------------------------------
# Schemas


@functools.cache
def schema_registry() -> Any:
    """A ``referencing.Registry`` of every schema shipped in ``linguo_cli.schemas``."""
    from referencing import Registry, Resource

    resources_ = []
    for entry in packaged("schemas").iterdir():
        if entry.name.endswith(".schema.json"):
            contents = json.loads(entry.read_text(encoding="utf-8"))
            resources_.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources_)


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema ``schemas/<name>.schema.json`` as a dict."""
    text = packaged("schemas/" + f"{name}.schema.json").read_text(
        encoding="utf-8")
    result: dict[str, Any] = json.loads(text)
    return result


@functools.cache
def validator(name: str) -> Any:
    """A compiled, reusable Draft 2020-12 validator for schema ``name``."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name), registry=schema_registry())


@functools.cache
def _request_kind_schemas() -> dict[str, str]:
    """``kind -> schema name`` for every branch of ``request.schema.json`` of
    the form ``if kind == K then $ref urn:linguo:NAME`` (NAME a shipped schema)."""
    request = load_schema("request")
    kinds = set(request.get("properties", {}).get("kind", {}).get("enum", ()))
    out: dict[str, str] = {}
    for branch in request.get("allOf", ()):
        const = branch.get("if", {}).get("properties", {}).get("kind", {}).get("const")
        ref = branch.get("then", {}).get("$ref", "")
        name = ref.removeprefix("urn:linguo:")
        if const in kinds and ref.startswith("urn:linguo:") and "#" not in name and (
                packaged("schemas/" + f"{name}.schema.json")
                .is_file()):
            out[const] = name
    return out


def _dispatch(schema: str, instance: Any) -> str:
    """The schema to check ``instance`` with: for a ``request`` whose ``kind``
    is known, the kind's own schema, which is exactly what the dispatcher
    applies to it (the same errors, without testing every other kind's
    ``if``: about 3x faster per request)."""
    if schema == "request" and isinstance(instance, Mapping):
        kind = instance.get("kind")
        if isinstance(kind, str):
            return _request_kind_schemas().get(kind, schema)
    return schema


#: Schema errors collected per document before sorting (the rest are counted).
_MAX_COLLECTED = 1000


def schema_errors(doc: Document, schema: str, base: list[Any] | None = None,
                  instance: Any = None) -> list[Diagnostic]:
    """Every schema error of ``doc`` (or of ``instance`` found at ``base``
    inside it), sorted by place, each with its field path and a suggestion for
    unknown keys and enum values. At most :data:`MAX_DIAGNOSTICS` are
    returned; a last one counts the rest."""
    base = list(base or [])
    target = doc.data if instance is None else instance
    diags: list[tuple[Pos, Diagnostic]] = []
    more = False
    for n, err in enumerate(validator(_dispatch(schema, target)).iter_errors(target)):
        if n >= _MAX_COLLECTED:
            more = True
            break
        for path, message, is_key in _explain(err):
            full = base + path
            pos = doc.position(full, key=is_key)
            place = f"{doc.name}:{pos[0] + 1}:{pos[1] + 1}" if pos else doc.name
            diags.append((pos or (0, 0), Diagnostic(place, field_path(full), _shorten(message))))
    diags.sort(key=lambda d: d[0])
    seen: set[str] = set()
    out = []
    for _, d in diags:
        if str(d) not in seen:
            seen.add(str(d))
            out.append(d)
    if len(out) > MAX_DIAGNOSTICS or more:
        rest = max(len(out) - MAX_DIAGNOSTICS, 0)
        out = out[:MAX_DIAGNOSTICS]
        out.append(Diagnostic(doc.name, "", f"{rest}{'+' if more else ''} more errors not "
                                            "shown"))
    return out


def validate(doc: Document, schema: str) -> None:
    """Raise :class:`InputError` with every error of ``doc`` (exit 3): schema
    errors first; when there are none, the semantic checks of states (see
    :func:`entities_of`) for a ``state`` document and for a request carrying
    its state inline (rule V1), and an ability given both as a modifier and
    as a score in a test's ``entity`` (D6), so they run before any rule
    does."""
    diags = schema_errors(doc, schema)
    if diags:
        raise InputError(diags)
    if isinstance(doc.data, Mapping) and isinstance(doc.data.get("entity"), Mapping):
        twice = [(["entity", *where], message)
                 for where, message in duplicate_abilities(doc.data["entity"])]
        if twice:  # a d20 test's entity: D6 takes a modifier or a score, not both
            raise InputError([Diagnostic(doc.place(p), field_path(p), m) for p, m in twice])
    if schema == "state":
        entities_of(doc)
    elif isinstance(doc.data, Mapping) and isinstance(doc.data.get("state"), Mapping) \
            and isinstance(doc.data["state"].get("entities"), list):
        entities_of(doc, base=["state"])


def _brief(value: Any) -> str:
    """A short description of a value for messages."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return _shorten(repr(value), 40)
    if isinstance(value, str):
        return _shorten(repr(value), 60)
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return type(value).__name__


def _explain(err: Any) -> list[tuple[list[Any], str, bool]]:
    """Turn one jsonschema error into ``(path, message, points_at_key)`` items."""
    path = list(err.absolute_path)
    if err.validator in ("oneOf", "anyOf") and err.context:
        # Report the branch that got furthest, not the whole alternative; a
        # branch whose own type does not fit the value is the least relevant.
        def relevance(e: Any) -> tuple[int, int, int]:
            own_type = e.validator == "type" and len(e.relative_path) == 0
            return (0 if own_type else 1, len(e.absolute_path), -len(e.message))

        return _explain(max(err.context, key=relevance))
    if err.validator == "additionalProperties" and isinstance(err.instance, Mapping):
        allowed = list(err.schema.get("properties", {}))
        out = []
        for key in err.instance:
            if key not in allowed and not _matches_pattern(err.schema, key):
                hint = difflib.get_close_matches(str(key), allowed, n=1)
                msg = f"unknown field {_shorten(repr(key), 60)}" + (
                    f" (did you mean {hint[0]!r}?)" if hint else "")
                if allowed and not hint:
                    msg += f"; allowed: {', '.join(sorted(allowed))}"
                out.append((path + [key], msg, True))
        return out or [(path, err.message, False)]
    if err.validator == "enum" and isinstance(err.instance, str):
        options = [str(o) for o in err.validator_value]
        hint = difflib.get_close_matches(err.instance, options, n=1)
        msg = f"{_brief(err.instance)} is not one of {', '.join(options)}"
        if hint:
            msg += f" (did you mean {hint[0]!r}?)"
        return [(path, msg, False)]
    if err.validator == "type":
        expected = err.validator_value
        if isinstance(expected, list):
            expected = " or ".join(expected)
        return [(path, f"{_brief(err.instance)} is not of type {expected!r}", False)]
    return [(path, _brief_message(err), False)]


def _brief_message(err: Any) -> str:
    """jsonschema's message with a long offending value not spelled out (the
    message starts with its repr: "'xxx...' is too long")."""
    msg = str(err.message)
    if isinstance(err.instance, (Mapping, list, str)):
        rep = repr(err.instance)
        if len(rep) > 60 and msg.startswith(rep):
            return _brief(err.instance) + msg[len(rep):]
    return msg


def _matches_pattern(schema: Mapping[str, Any], key: str) -> bool:
    return any(re.search(p, str(key)) for p in schema.get("patternProperties", {}))


# ---------------------------------------------------------------------------
# State files: semantic checks


def _at(data: Any, path: Sequence[Any]) -> Any:
    for p in path:
        data = data[p]
    return data


def entities_of(doc: Document, base: Sequence[Any] = ()) -> dict[str, Any]:
    """The entities of a schema-valid state (``doc.data``, or the mapping at
    ``base`` inside it, e.g. ``["state"]`` of a request) as
    :class:`~linguo_cli.rulesets.linguomancy.model.Entity` values by id, in file order.

    This is the one semantic check of states: every command that reads a
    state (a state file, ``--state``, a request's inline ``state``) comes
    through here, through :func:`validate`, before any rule runs. Raises
    :class:`InputError` (exit 3) with every semantic error at once, each with
    its place (at most :data:`MAX_DIAGNOSTICS`, then a count): duplicate ids;
    the contradictions of rule V1 (see
    :func:`~linguo_cli.rulesets.linguomancy.model.contradictions`: HP, Flux, temporary HP out of
    bounds, impossible death-save counts, Dying/Stable above 0 HP, a living
    ``dies`` entity at 0 HP not knocked out, 6+ Exhaustion tiers alive, a dead
    entity above 0 HP); ``movement_max`` or ``movement`` above 100,000 m; and
    a ``maintained`` idiom missing from the entity's ``idioms`` (checked when
    it lists at least one idiom: states written without ``idioms`` leave what
    an entity knows open).
    """
    from linguo_cli.rulesets.linguomancy.model import Entity

    out: dict[str, Entity] = {}
    diags: list[Diagnostic] = []
    state = _at(doc.data, base)
    for i, raw in enumerate(state["entities"]):
        e = Entity.from_dict(to_plain(raw))
        at = [*base, "entities", i]
        for where, message in _entity_problems(e, raw, known_ids=out):
            p = at + list(where)
            diags.append(Diagnostic(doc.place(p), field_path(p), message))
        out[e.id] = e
    if diags:
        raise InputError(capped(diags, doc.name))
    return out


def _entity_problems(e: Any, raw: Any, known_ids: Mapping[str, Any]
                     ) -> list[tuple[tuple[Any, ...], str]]:
    """Semantic problems of one state entity ``e`` (read from ``raw``) as
    ``(path inside the entity, message)`` pairs, in field order."""
    from linguo_cli.rulesets.linguomancy.model import MAX_METRES, contradictions

    found: list[tuple[tuple[Any, ...], str]] = []
    if e.id in known_ids:
        found.append((("id",), f"duplicate entity id {e.id!r}"))
    found += duplicate_abilities(raw)
    found += contradictions(e)  # V1
    # (movement may exceed movement_max: a catalog's movement factor above 1
    # raises it for the turn, C2; fraction strings are bounded here)
    for name in ("movement_max", "movement"):
        if getattr(e, name) > MAX_METRES:
            found.append(((name,), f"{name} {_metres(getattr(e, name))} is above "
                                   f"{_metres(MAX_METRES)} m"))
    if e.idioms:  # an entity listing no idiom leaves its knowledge open
        known = {name.casefold() for name in e.idioms}
        for j, m in enumerate(e.maintained):
            if m.idiom.casefold() not in known:
                found.append((("maintained", j, "idiom"),
                              f"maintains {m.idiom!r}, an idiom {e.id} does not know "
                              f"(its idioms: {', '.join(e.idioms) or 'none'})"))
    return found


def duplicate_abilities(entity: Any) -> list[tuple[tuple[Any, ...], str]]:
    """An ability given both as a modifier (``abilities``) and as a score
    (``ability_scores``) in one entity mapping: one ``(path, message)`` pair
    per such ability, the path at its score. Rule D6 takes one or the other;
    both at once are invalid input (exit 3), whatever their values."""
    if not isinstance(entity, Mapping):
        return []
    mods, scores = entity.get("abilities"), entity.get("ability_scores")
    if not isinstance(mods, Mapping) or not isinstance(scores, Mapping):
        return []
    return [(("ability_scores", name),
             f"{name} is given both as a modifier (abilities.{name}) and as a score: "
             "give one or the other (D6)")
            for name in scores if name in mods]


def capped(diags: list[Diagnostic], name: str) -> list[Diagnostic]:
    """``diags`` cut to :data:`MAX_DIAGNOSTICS`, with a last one counting the
    rest (placed at ``name``, the document)."""
    if len(diags) <= MAX_DIAGNOSTICS:
        return diags
    rest = len(diags) - MAX_DIAGNOSTICS
    return [*diags[:MAX_DIAGNOSTICS], Diagnostic(name, "", f"{rest} more errors not shown")]


def _metres(value: Any) -> str:
    from linguo_cli.rulesets.linguomancy.model import metres

    return str(metres(value))


def require_entity(state: Any, entity_id: str, field: str, *,
                   document: Document | None = None) -> Any:
    """The :class:`~linguo_cli.rulesets.linguomancy.model.Entity` with id ``entity_id`` in
    ``state`` (a state mapping ``{entities: [...]}``, a request's inline
    ``state``, or a state :class:`Document`).

    ``field`` is the path of the request field that named it (``target``,
    ``steps[2].target``). Raises :class:`InputError` (exit 3) when there is no
    such entity, suggesting the closest id; the place is ``field`` inside
    ``document`` when given, else ``request`` (:func:`locate_errors` turns that
    into ``file:line:col`` at the CLI). Pure: call it at the top of a handler,
    before any rule runs.
    """
    from linguo_cli.rulesets.linguomancy.model import Entity

    data = state.data if isinstance(state, Document) else state
    entities = data.get("entities") if isinstance(data, Mapping) else None
    for raw in entities or ():
        if isinstance(raw, Mapping) and raw.get("id") == entity_id:
            return Entity.from_dict(to_plain(raw))
    ids = [str(raw.get("id")) for raw in entities or () if isinstance(raw, Mapping)]
    hint = difflib.get_close_matches(str(entity_id), ids, n=1)
    msg = f"no entity with id {_brief(entity_id)} in the state"
    if hint:
        msg += f" (did you mean {hint[0]!r}?)"
    elif ids:
        shown = ", ".join(ids[:20]) + (", ..." if len(ids) > 20 else "")
        msg += f"; its ids: {shown}"
    else:
        msg += "; it has no entities"
    place = document.place(parse_field_path(field)) if document is not None else "request"
    raise InputError(Diagnostic(place, field, msg))


def update_entities(data: Any, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    """Write the changes between ``before`` and ``after`` entities (by id) into
    ``data``: a :class:`Document` (its plain tree; the tree as read is kept
    so that :func:`dump_document` edits only what changed) or a tree. Field
    by field; fields whose new value equals their default and that
    were absent stay absent."""
    if isinstance(data, Document):
        data.snapshot()  # the tree as read: the writer edits only what differs
        update_entities(data.data, before, after)
        return
    index = {str(e.get("id")): e for e in data["entities"]}
    for eid, new in after.items():
        old = before.get(eid)
        node = index.get(eid)
        if node is None or old is None:
            continue
        old_d, new_d = old.as_dict(), new.as_dict()
        for key, value in new_d.items():
            if value != old_d.get(key):
                node[key] = value


# ---------------------------------------------------------------------------
# Writing


def yaml_layout(text: str) -> tuple[int, int, int]:
    """The block indentation a YAML text uses, as ruamel's ``(mapping,
    sequence, offset)``: e.g. ``(2, 4, 2)`` for lists written ``  - id: a``
    under their key, ``(2, 2, 0)`` (the default) for ``- id: a``. Read from
    the first nested mapping and the first list below a key."""
    import re

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
    target = path
    if os.path.islink(path):
        try:
            target = os.path.realpath(path, strict=True)
        except FileNotFoundError:  # a dangling link: its target is created
            target = os.path.realpath(path)
        except OSError as exc:  # ELOOP: a symbolic link loop
            raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
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
    to :data:`LOCK_TIMEOUT` seconds, then fail with exit 3. Advisory: programs
    that do not take the lock (editors) are not stopped. Where the file system
    has no ``flock`` the file is read unlocked.
    """

    def __init__(self, fd: int, path: str) -> None:
        self.fd: int | None = fd
        self.path = path
        _held_locks.add(self)

    @classmethod
    def acquire(cls, path: str, timeout: float = LOCK_TIMEOUT) -> FileLock:
        """Open ``path`` and lock it; raises ``OSError`` (file errors) or
        :class:`InputError` when another process holds it past ``timeout``."""
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


def checked_catalog(data: Any, key: str, *, schema: str, name: str, document: Any = None,
                    base: Sequence[Any] = ()) -> tuple[dict[str, Any], list[Any], Document]:
    """Validate a catalog (conditions, idioms) given as a catalog document
    ``{key: [...]}`` or as the bare list of entries a request inlines.

    Returns ``(plain, outer, doc)``: the catalog as plain data in the
    document shape, the path of that shape inside ``doc`` (so that paths
    such as ``outer + [key, 3, "name"]`` give places), and the document
    errors are placed in (``document`` when given). Raises
    :class:`InputError` (exit 3) with every schema error.
    """
    wrapped: dict[str, Any] = dict(data) if isinstance(data, Mapping) else {key: list(data)}
    # Paths inside ``wrapped`` start with ``key``; a bare list sits at ``base``
    # itself, so its entries are at ``base[:-1] + [key, i]``.
    outer = list(base) if isinstance(data, Mapping) else list(base)[:-1]
    doc = document if document is not None else Document(name, wrapped)
    diags = schema_errors(doc, schema, base=outer, instance=wrapped)
    if diags:
        raise InputError(diags)
    return to_plain(wrapped), outer, doc
