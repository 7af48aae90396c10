"""Places: field paths (``entities[0].hp``), ``file:line:col`` positions of
the nodes of a loaded document, and placing the diagnostics of an
:class:`~linguo_cli.core.errors.InputError` in the documents they are about.

Positions are 0-based ``(line, col)`` internally and printed 1-based.
Nothing here applies a rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from linguo_cli.core.errors import MAX_DIAGNOSTICS, Diagnostic, InputError
from linguo_cli.io.document import Document, Pos, _shorten, tree_position

_FIELD_PART = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


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


def position(data: Any, path: list[Any], *, key: bool = False) -> Pos | None:
    """0-based ``(line, col)`` of the node at ``path`` (of its key when
    ``key``), or of the nearest known parent. ``data`` is a loaded document's
    tree (its root carries the positions), a :class:`Document`, or a ruamel
    round-trip tree; ``None`` when nothing is known."""
    if isinstance(data, Document):
        return data.position(path, key=key)
    return tree_position(data, path, key=key)


def place_of(name: str, data: Any, path: list[Any], *, key: bool = False) -> str:
    """``name:line:col`` (1-based) for ``path``, or ``name`` when unknown."""
    pos = position(data, path, key=key) if data is not None else None
    return f"{name}:{pos[0] + 1}:{pos[1] + 1}" if pos else name


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


def capped(diags: list[Diagnostic], name: str) -> list[Diagnostic]:
    """``diags`` cut to :data:`~linguo_cli.core.errors.MAX_DIAGNOSTICS`, with
    a last one counting the rest (placed at ``name``, the document)."""
    if len(diags) <= MAX_DIAGNOSTICS:
        return diags
    rest = len(diags) - MAX_DIAGNOSTICS
    return [*diags[:MAX_DIAGNOSTICS], Diagnostic(name, "", f"{rest} more errors not shown")]


def brief(value: Any) -> str:
    """A short description of a value for messages: ``true``/``null``, a
    number's or string's repr shortened to 40/60 characters, ``a mapping``,
    ``a list of N``, else its type name."""
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
