"""JSON documents: decoding within the limits of
:mod:`linguo_cli.io.document` (duplicate keys, ``NaN``/``Infinity``, numbers
out of range, integers of more than ``MAX_INT_DIGITS`` digits, control
characters, too many values, too deep nesting are refused) and the positions
and spans of every value and key of a JSON text, from one token walker."""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator
from typing import Any

from linguo_cli.io.document import (
    _STRING_CONTROL,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_NODES,
    MAX_NUMBER_CHARS,
    Path_,
    Pos,
    Spans,
    _Bad,
    _control_message,
    _finite,
    _Positions,
    _RootMap,
    _RootSeq,
    _shorten,
)
from linguo_cli.io.places import _Refused

_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.S)


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
        if isinstance(node, str):
            bad = _STRING_CONTROL.search(node)
            if bad:
                return path, _control_message(bad.group(), "string"), False
        elif isinstance(node, dict):
            # (a control character in any key: the first one in key order is reported)
            if len(path) >= MAX_DEPTH or type(node) is _DupMap or \
                    _STRING_CONTROL.search("".join(node)):
                return _map_problem(node, path)
            stack.extend((v, path + (k,)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            if len(path) >= MAX_DEPTH:
                return path, f"nested deeper than {MAX_DEPTH} levels", False
            stack.extend((v, path + (i,)) for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, _Bad):
            return path, node.message, False
    return None


def _map_problem(node: dict[str, Any], path: Path_) -> tuple[Path_, str, bool]:
    """The problem of a JSON object :func:`_check_tree` found one in: nested
    too deep, a key twice, or the first key holding a control character."""
    if len(path) >= MAX_DEPTH:
        return path, f"nested deeper than {MAX_DEPTH} levels", False
    if type(node) is _DupMap:
        k = node.dups[0]
        return path + (k,), f"duplicate key {_shorten(repr(k), 60)}", True
    for k in node:
        bad = _STRING_CONTROL.search(k)
        if bad:
            return path + (k,), _control_message(bad.group(), "key"), True
    raise AssertionError("no problem found")  # pragma: no cover - see _check_tree


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


def _json_step(text: str) -> int | str | None:
    """The indentation unit of a JSON text (``None`` when compact)."""
    m = re.search(r"\n([ \t]+)\S", text)
    if m is None:
        return None
    unit = m.group(1)
    return len(unit) if set(unit) == {" "} else unit


#: The separators (between items, between a key and its value) of JSON
#: written on one line by programs: compact, and Python's default.
_ONE_LINE_SEPARATORS = ((",", ":"), (", ", ": "))


def one_line_edit(text: str, before: Any, new: Any) -> str | None:
    """The write-back of ``new`` into a JSON ``text`` read as ``before``, made
    without locating a single value in the text, where that is the same text
    the write-back's editor (:mod:`linguo_cli.io.writeback`) makes: ``text``
    is exactly ``before`` (a non-empty mapping) as a JSON writer puts it on one
    line (separators ``,``/``:`` or ``, ``/``: ``, non-ASCII characters as they
    are, as :func:`json.dumps` writes numbers and strings), then only white
    space. Every value that did not change (by
    :func:`~linguo_cli.io.writeback.same`) is written as it was, each mapping
    keeps its keys' order with new keys after its last one, every changed
    value is written with the file's separators: which is what the editor's
    span-by-span edits give on such a text. ``None`` for any other text, and
    when a key was removed (the editor rewrites the whole document then)."""
    if not isinstance(before, dict) or not before or not isinstance(new, dict) \
            or "\n" in text.rstrip():
        return None
    for item, key in _ONE_LINE_SEPARATORS:
        if item == "," and ", " in text:  # the editor could take ", " for the file's
            continue                       # separator from a key (_Editor.json_comma)
        head = json.dumps(before, separators=(item, key), ensure_ascii=False)
        if text.startswith(head) and not text[len(head):].strip():
            try:
                merged = _in_text_order(before, new)
            except KeyError:  # a key removed
                return None
            return json.dumps(merged, separators=(item, key), ensure_ascii=False) + \
                text[len(head):]
    return None


def _in_text_order(old: Any, new: Any) -> Any:
    """``new`` as the editor leaves it in a text that reads ``old``: ``old``
    itself where the two are the same; a mapping with ``old``'s keys in their
    order, then the added ones; a list of the same length item by item; else
    ``new``. Raises ``KeyError`` when ``new`` lacks a key of ``old``."""
    from linguo_cli.io.writeback import same

    if same(old, new):
        return old
    if isinstance(old, dict) and isinstance(new, dict):
        out = {k: _in_text_order(v, new[k]) for k, v in old.items()}
        out.update((k, v) for k, v in new.items() if k not in old)
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [_in_text_order(a, b) for a, b in zip(old, new, strict=True)]
    return new
