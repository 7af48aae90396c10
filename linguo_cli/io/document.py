"""Loaded documents and their limits: :class:`Document` (the plain tree, the
text it was read from, where every node of that text is), :class:`Spans`,
:func:`to_plain`, and the size limits every reader applies (documented in
README.md, "Limits"; see :mod:`linguo_cli.io.read` for how they are applied).

Loaded documents are plain ``dict``/``list``/``str``/``int``/``float``/
``bool``/``None`` trees; positions are kept beside them
(:meth:`Document.place`), and so is where each node's text starts and ends
and its style (:class:`Spans`), so that a state written back
(:func:`linguo_cli.io.write.dump_document`, see :mod:`linguo_cli.io.writeback`)
edits only the values that changed in the original text. Nothing here
applies a rule.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from linguo_cli.core.errors import Diagnostic, InputError

if TYPE_CHECKING:
    from linguo_cli.io.write import FileLock

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

Path_ = tuple[Any, ...]
Pos = tuple[int, int]

_STRING_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


class _Bad:
    """A value refused while decoding, reported with its place later."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def _finite(value: float, text: str) -> Any:
    """``value`` (read from ``text``) as an ``int`` when it is a whole number
    within 2**53, else as it is; a :class:`_Bad` when it is not finite."""
    if not math.isfinite(value):
        return _Bad(f"number {_shorten(text, 40)} is out of range")
    if value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value


def _control_message(char: str, what: str) -> str:
    if "\ud800" <= char <= "\udfff":
        return f"{what} holds a lone surrogate \\u{ord(char):04x} (not a character)"
    return f"{what} holds control character U+{ord(char):04X}"


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
            from linguo_cli.io.json_text import _json_positions

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
    (``dict``/``list``/scalars). Documents made by
    :func:`~linguo_cli.io.read.parse` also keep their ``text``, ``format``
    (``"yaml"`` or ``"json"``; ``"data"`` for documents built in memory) and
    the positions of every value, and those read with
    ``load(..., lock=True)`` hold the file's lock until :meth:`release` (or
    the end of the command).
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
    #: What checks of ``data`` as read derived from it, by a key of the
    #: checker's choosing (a ruleset's semantic check of a state keeps its
    #: entities by id): so that one command checks a document once. Emptied
    #: by :meth:`snapshot`, when the tree starts being updated.
    checked: dict[str, Any] = field(default_factory=dict, repr=False)

    def spans(self) -> Spans | None:
        """Where every node of ``text`` is (start, end, style), by path;
        ``None`` for documents built in memory."""
        if self._spans is None and self.text is not None and self.format == "json":
            from linguo_cli.io.json_text import _json_spans

            self._spans = _json_spans(self.text)
        return self._spans if isinstance(self._spans, Spans) else None

    def snapshot(self) -> None:
        """Keep the plain tree as read (once), before it is updated for writing
        (what :attr:`checked` holds is dropped: it described the tree as read)."""
        if self.before is None:
            self.before = to_plain(self.data)
            self.checked.clear()

    def position(self, path: Iterable[Any] = (), *, key: bool = False) -> Pos | None:
        """0-based ``(line, col)`` of the node at ``path`` (of its key when
        ``key``), or of its nearest parent; ``None`` when unknown."""
        if self.positions is not None:
            return self.positions.lookup(list(path), key)
        return tree_position(self.data, list(path), key=key)

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

            from linguo_cli.io.yaml_text import _yaml

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


def tree_position(data: Any, path: list[Any], *, key: bool = False) -> Pos | None:
    """0-based ``(line, col)`` of the node at ``path`` (of its key when
    ``key``), or of the nearest known parent, in a tree: a loaded document's
    tree (its root carries the positions) or a ruamel round-trip tree (its
    nodes carry ``lc``); ``None`` when nothing is known."""
    positions = getattr(data, "positions", None)
    if isinstance(positions, _Positions):
        return positions.lookup(path, key)
    node = data
    best: Pos | None = _lc_start(node)
    for i, p in enumerate(path):
        try:
            step = _lc_step(node, p, key and i == len(path) - 1)
        except (KeyError, TypeError, IndexError, AttributeError):
            break
        if step is None:
            break
        node, pos = step
        if pos is not None:
            best = pos
    return best


def _lc_start(node: Any) -> Pos | None:
    """Where a ruamel node starts, when it knows."""
    lc = getattr(node, "lc", None)
    if lc is not None and lc.line is not None:
        return (lc.line, lc.col)
    return None


def _lc_step(node: Any, p: Any, at_key: bool) -> tuple[Any, Pos | None] | None:
    """The child ``p`` of a ruamel node and its position (of its key when
    ``at_key``, ``None`` when unknown); ``None`` when there is no such child."""
    lc = getattr(node, "lc", None)
    pos: Any = None
    if isinstance(node, Mapping) and p in node:
        if lc is not None:
            pos = lc.key(p) if at_key else lc.value(p)
    elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
        if lc is not None:
            pos = lc.item(p)
    else:
        return None
    return node[p], (None if pos is None else (pos[0], pos[1]))


# ---------------------------------------------------------------------------
# Text for messages


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _shorten(text: str, limit: int = 200) -> str:
    text = _one_line(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _line_col(text: str, offset: int) -> Pos:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)
