"""YAML documents: the plain tree of a YAML text built from the parser's
event stream, never by a constructor that builds objects, within the limits
of :mod:`linguo_cli.io.document`.

Read as JSON-compatible YAML 1.2 (core schema): no tags at all
(``!!python/object``, ``!custom``, ``!!binary``...), no merge keys, keys must
be strings and unique, ``.inf``/``.nan`` are refused, and so are directives
(``%YAML``, ``%TAG``) and a second document. Anchors and aliases are allowed
but bounded: at most ``MAX_ALIASES`` aliases, and the document *after* alias
expansion counts against the node limit and ``MAX_DEPTH``, so a "billion
laughs" file is refused after a few hundred events. Every refusal is a
:class:`~linguo_cli.io.places._Refused` with its 0-based position and path.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from linguo_cli.io.document import (
    _STRING_CONTROL,
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_NODES,
    MAX_NUMBER_CHARS,
    MAX_YAML_NODES,
    Path_,
    Pos,
    Spans,
    _Bad,
    _control_message,
    _finite,
    _line_col,
    _one_line,
    _RootMap,
    _RootSeq,
    _shorten,
)
from linguo_cli.io.places import _Refused

_DEEP_FLOW = re.compile(r"(?:[\[{][ \t]*){" + str(MAX_DEPTH + 1) + "}")
_YAML_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_YAML_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_YAML_NONFINITE = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_DIRECTIVE = re.compile(r"^%", re.M)
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUES = frozenset({"true", "True", "TRUE"})
_FALSES = frozenset({"false", "False", "FALSE"})


def _yaml(typ: str = "rt") -> Any:
    """A ruamel.yaml reader/writer: duplicate keys refused, quoting kept, long
    lines never folded (folding changes plain strings)."""
    from ruamel.yaml import YAML

    y = YAML(typ=typ)
    y.allow_duplicate_keys = False
    y.preserve_quotes = True  # the round-trip fallback keeps quoting too
    y.width = 1 << 30  # and never folds a long line (that changes plain strings)
    return y


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
    """:func:`_compose_yaml` without the look-ahead for deep flow brackets."""
    return _Composer(text, limit, spans).run()


@functools.cache
def _events() -> SimpleNamespace:
    """ruamel's event classes and parser errors (imported on first use)."""
    from ruamel.yaml import error, events, reader

    found = {name: getattr(events, name) for name in (
        "AliasEvent", "DocumentEndEvent", "DocumentStartEvent", "MappingEndEvent",
        "MappingStartEvent", "ScalarEvent", "SequenceEndEvent", "SequenceStartEvent",
        "StreamEndEvent", "StreamStartEvent")}
    return SimpleNamespace(**found, MarkedYAMLError=error.MarkedYAMLError,
                           YAMLError=error.YAMLError, ReaderError=reader.ReaderError)


class _Composer:
    """The state of :func:`_compose_events` over one text: the tree being
    built (a stack of open collections), the positions and spans of every
    node, and the counts the limits apply to (nodes after alias expansion,
    aliases, documents)."""

    def __init__(self, text: str, limit: int, spans: Spans | None) -> None:
        self.text = text
        self.limit = limit
        self.values: dict[Path_, Pos] = {}
        self.keys: dict[Path_, Pos] = {}
        self.sv: dict[Path_, tuple[int, int, str]] = spans.values if spans is not None else {}
        self.sk: dict[Path_, tuple[int, int]] = spans.keys if spans is not None else {}
        self.stack: list[_Frame] = []
        self.root: Any = None
        self.nodes = 0
        self.aliases = 0
        self.documents = 0
        self.anchors: dict[str, tuple[Any, int, int]] = {}  # value, size, height
        self.open_anchors: set[str] = set()
        self.ev = ev = _events()
        self._scalar_event = ev.ScalarEvent
        self._alias_event = ev.AliasEvent

    def run(self) -> tuple[Any, dict[Path_, Pos], dict[Path_, Pos]]:
        """Read every event; the tree, value positions and key positions."""
        from ruamel.yaml import YAML

        ev = self.ev
        skip = (ev.StreamStartEvent, ev.StreamEndEvent, ev.DocumentEndEvent)
        ends = (ev.MappingEndEvent, ev.SequenceEndEvent)
        start = ev.DocumentStartEvent
        node, key, end, stack = self._node, self._key, self._end, self.stack
        # The C parser of ruamel.yaml.clib when it is installed (about twenty times
        # faster; same events and marks), else ruamel's pure-Python parser.
        events = iter(YAML(typ="safe", pure=False).parse(self.text))
        while True:
            try:
                event = next(events)
            except StopIteration:
                break
            except (ev.YAMLError, RecursionError, ValueError, TypeError, IndexError,
                    KeyError, AttributeError) as exc:
                raise self._syntax_error(exc) from None
            cls = type(event)
            if cls in skip:
                continue
            mark = (event.start_mark.line, event.start_mark.column)
            if cls is start:
                self._document_start(event, mark)
            elif cls in ends:
                end(event)
            else:
                parent = stack[-1] if stack else None
                if parent is not None and parent.is_map and parent.key is _NO_KEY:
                    key(event, cls, mark, parent)
                else:
                    node(event, cls, mark, parent)
        return self.root, self.values, self.keys

    def _syntax_error(self, exc: BaseException) -> _Refused:
        """The refusal for an error of the parser."""
        ev = self.ev
        if isinstance(exc, ev.MarkedYAMLError):
            mark = exc.problem_mark or exc.context_mark
            problem = _one_line(exc.problem or exc.context or "invalid YAML")
            return _Refused((mark.line, mark.column) if mark else None, (),
                            f"YAML/JSON syntax: {problem}")
        if isinstance(exc, ev.ReaderError):
            return _Refused(_line_col(self.text, exc.position), (),
                            f"YAML/JSON syntax: {_one_line(exc.reason)}")
        return _Refused(None, (), f"YAML/JSON syntax: {_shorten(str(exc) or type(exc).__name__)}")

    def _add(self, value: Any, height: int) -> None:
        """Put a finished node into the open collection (or make it the root)."""
        if not self.stack:
            self.root = value
            return
        parent = self.stack[-1]
        if parent.is_map:
            parent.container[parent.key] = value
            parent.key = _NO_KEY
        else:
            parent.container.append(value)
        parent.height = max(parent.height, height + 1)

    def _document_start(self, event: Any, mark: Pos) -> None:
        self.documents += 1
        if self.documents > 1:
            raise _Refused(mark, (), "more than one document (---); give one per file")
        directive = _DIRECTIVE.search(self.text, 0, event.start_mark.index)
        if directive is not None or event.version is not None or event.tags:
            at = _line_col(self.text, directive.start()) if directive else mark
            raise _Refused(at, (), "YAML directives (%YAML, %TAG) are not accepted: "
                                   "states are read as YAML 1.2; remove the line")

    def _end(self, event: Any) -> None:
        """The end of a mapping or list: its span, its anchor's size and height."""
        frame = self.stack.pop()
        if frame.path in self.sv:
            start, _, style = self.sv[frame.path]
            self.sv[frame.path] = (start, event.end_mark.index, style)
        if frame.anchor is not None:
            self.anchors[frame.anchor] = (frame.container, self.nodes - frame.nodes_before,
                                          frame.height)
            self.open_anchors.discard(frame.anchor)
        if self.stack:
            self.stack[-1].height = max(self.stack[-1].height, frame.height + 1)

    def _node(self, event: Any, cls: type, mark: Pos, parent: _Frame | None) -> None:
        """A scalar, an alias or the start of a collection, in ``parent`` (the
        open collection, ``None`` at the top)."""
        if parent is None:
            path: Path_ = ()
        elif parent.is_map:
            path = parent.path + (parent.key,)
        else:
            path = parent.path + (len(parent.container),)
        self.values[path] = mark
        start = event.start_mark.index
        if cls is self._scalar_event:
            self.sv[path] = (start, event.end_mark.index, event.style or "")
        elif cls is self._alias_event:
            self.sv[path] = (start, event.end_mark.index, "*")
            self._alias(event, mark, path)
            return
        else:
            self.sv[path] = (start, -1, "flow" if event.flow_style else "block")
        if event.tag is not None or self.nodes >= self.limit:
            raise self._refused_node(event, mark, path)
        self.nodes += 1
        if cls is self._scalar_event:
            value = _scalar(event.value, not event.style and event.implicit[0], mark, path)
            if event.anchor is not None:
                self.anchors[event.anchor] = (value, 1, 0)
            if parent is None:  # as _add(value, 0): a scalar leaves the height as it is
                self.root = value
            elif parent.is_map:
                parent.container[parent.key] = value
                parent.key = _NO_KEY
            else:
                parent.container.append(value)
            return
        self._open(event, cls, mark, path, parent)

    def _refused_node(self, event: Any, mark: Pos, path: Path_) -> _Refused:
        """Why a node is refused before it is counted: a tag, or one node over
        the limit."""
        if event.tag is not None:
            return _Refused(mark, path, f"YAML tags are not accepted ({event.tag})")
        return _Refused(mark, path, f"more than {self.limit} keys and values in a YAML "
                                    f"document (the limit; JSON may have {MAX_NODES})")

    def _key(self, event: Any, cls: type, mark: Pos, parent: _Frame) -> None:
        """A mapping key: a plain string, new in its mapping."""
        kpath = parent.path
        if cls is not self._scalar_event:
            raise _Refused(mark, kpath, "mapping keys must be strings, not lists, "
                                        "mappings or aliases")
        if event.tag is not None:
            raise _Refused(mark, kpath, f"YAML tags are not accepted ({event.tag})")
        plain = not event.style and event.implicit[0]
        if plain and event.value == "<<":
            raise _Refused(mark, kpath, "YAML merge keys (<<) are not accepted")
        k = _scalar(event.value, plain, mark, kpath)
        if not isinstance(k, str):
            raise _Refused(mark, kpath, f"key {event.value!r} is not a string: quote it")
        kpath = kpath + (k,)
        if k in parent.container:
            first = self.keys.get(kpath)
            where = f" (first at line {first[0] + 1})" if first else ""
            raise _Refused(mark, kpath, f"duplicate key {_shorten(repr(k), 60)}{where}")
        self.keys[kpath] = mark
        self.sk[kpath] = (event.start_mark.index, event.end_mark.index)
        parent.key = k
        self.nodes += 1
        if event.anchor is not None:
            self.anchors[event.anchor] = (k, 1, 0)

    def _alias(self, event: Any, mark: Pos, path: Path_) -> None:
        """An alias: the anchored value again, counted at its expanded size."""
        name = event.anchor
        if name in self.open_anchors:
            raise _Refused(mark, path, f"recursive alias *{name} (it refers to itself)")
        if name not in self.anchors:
            raise _Refused(mark, path, f"alias *{name} has no anchor &{name} before it")
        self.aliases += 1
        if self.aliases > MAX_ALIASES:
            raise _Refused(mark, path, f"more than {MAX_ALIASES} aliases (the limit)")
        value, size, height = self.anchors[name]
        self.nodes += size
        if self.nodes > self.limit:
            raise _Refused(mark, path, f"aliases expand the document beyond "
                                       f"{self.limit} keys and values (the YAML limit)")
        if len(path) + height > MAX_DEPTH:
            raise _Refused(mark, path, f"alias *{name} nests the document deeper than "
                                       f"{MAX_DEPTH} levels")
        self._add(value, height)

    def _open(self, event: Any, cls: type, mark: Pos, path: Path_,
              parent: _Frame | None) -> None:
        """The start of a mapping or a list."""
        ev = self.ev
        if cls is not ev.MappingStartEvent and cls is not ev.SequenceStartEvent:
            raise _Refused(mark, path, f"unexpected YAML event {cls.__name__}")
        if len(path) >= MAX_DEPTH:
            raise _Refused(mark, path, f"nested deeper than {MAX_DEPTH} levels")
        is_map = cls is ev.MappingStartEvent
        container: Any
        if parent is None:
            container = _RootMap() if is_map else _RootSeq()
        else:
            container = {} if is_map else []
        self._add(container, 1)
        self.stack.append(_Frame(container, path, is_map, event.anchor, self.nodes - 1,
                                 _NO_KEY))
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)


_STR = object()  # a plain scalar that is a string after all
#: The plain scalars that are null or a boolean (YAML 1.2 core schema).
_SPECIAL: dict[str, Any] = {**dict.fromkeys(_NULLS), **dict.fromkeys(_TRUES, True),
                            **dict.fromkeys(_FALSES, False)}


def _scalar(value: str, plain: bool, mark: Pos, path: Path_) -> Any:
    """A YAML scalar by the YAML 1.2 core schema (plain scalars only; quoted
    and block scalars are strings), within the limits."""
    if plain:
        if value in _SPECIAL:
            return _SPECIAL[value]
        first = value[:1]
        if first in "-+.0123456789" and first:
            number = _number(value, mark, path)
            if number is not _STR:
                return number
    bad = _STRING_CONTROL.search(value)
    if bad:
        raise _Refused(mark, path, _control_message(bad.group(), "string"))
    return value


def _number(value: str, mark: Pos, path: Path_) -> Any:
    """The integer or float a plain scalar spells (refused beyond the
    limits, or not finite), else :data:`_STR`."""
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
    return _STR
