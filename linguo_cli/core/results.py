"""Typed results and the one JSON boundary.

Handlers return frozen dataclasses (a ruleset's result types); this module is
the only place where they become plain JSON-ready values (dicts, lists,
strings, numbers, booleans, ``None``). The conversion is generic:

- a value with a ``__json__()`` method (a dataclass included) becomes what
  that returns (taken as it is when the type sets ``__json_plain__ = True``:
  its ``__json__`` returns fresh JSON-ready values only, e.g. an entity's
  state-file shape; a shortcut for large results);
- a dataclass becomes a dict of its fields in declaration order; a field whose
  metadata has ``json`` gives the key (e.g. ``field(metadata={"json": "in"})``),
  and a field whose value is :data:`OMIT` is left out (an optional key);
- a ``tuple``/``list`` becomes a list, a ``Mapping`` a dict, an ``Enum`` its
  ``value``;
- strings, numbers, booleans and ``None`` stay as they are.

The key ``rolls_used`` of a result (every result lists the dice faces it used)
always comes last, wherever the field is declared.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum
from typing import Any, Final


class _Omit:
    """The value of an optional field that is left out of the JSON."""

    _instance: _Omit | None = None

    def __new__(cls) -> _Omit:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "OMIT"

    def __bool__(self) -> bool:
        return False


#: Leave this field out of the JSON (falsy, so ``if result.x:`` reads naturally).
OMIT: Final = _Omit()

_LAST: Final = "rolls_used"


def _fields_of(cls: type) -> tuple[tuple[str, str], ...]:
    cached: tuple[tuple[str, str], ...] | None = _FIELDS.get(cls)
    if cached is None:
        cached = tuple((f.name, f.metadata.get("json", f.name))
                       for f in dataclasses.fields(cls))
        _FIELDS[cls] = cached
    return cached


_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}


def to_plain(value: Any) -> Any:
    """``value`` (a typed result, or any part of one) as JSON-ready values.

    Raises :class:`TypeError` for a value with no JSON form (a bug: every
    result type is built from the kinds above)."""
    kind = type(value)  # fast paths for the exact built-in types (the bulk of a result)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value
    if kind is dict:
        return {str(k): to_plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [to_plain(v) for v in value]
    return _to_plain(value)


#: How :func:`_to_plain` converts a value of a type (decided once per type).
_WALK, _JSON, _JSON_PLAIN, _OTHER = range(4)
_HOW: dict[type, int] = {}


def _how(kind: type) -> int:
    if issubclass(kind, (str, bool, int, float)) or not dataclasses.is_dataclass(kind):
        return _OTHER
    if getattr(kind, "__json__", None) is None:
        return _WALK
    return _JSON_PLAIN if getattr(kind, "__json_plain__", False) else _JSON


def _to_plain(value: Any) -> Any:
    """:func:`to_plain` for every value but the exact built-in types."""
    kind = type(value)
    how = _HOW.get(kind)
    if how is None:
        how = _HOW[kind] = _how(kind)
    if how == _JSON_PLAIN:
        return value.__json__()  # already JSON-ready (the type says so)
    if how == _JSON:
        return to_plain(value.__json__())
    if how == _WALK:
        return _walk(value, kind)
    return _other(value)


def _walk(value: Any, kind: type) -> dict[str, Any]:
    """A dataclass without ``__json__``: its fields (see the module docstring)."""
    out: dict[str, Any] = {}
    last = OMIT
    for name, key in _fields_of(kind):
        item = getattr(value, name)
        if item is OMIT:
            continue
        if key == _LAST:
            last = item
            continue
        out[key] = to_plain(item)
    if last is not OMIT:
        out[_LAST] = to_plain(last)
    return out


def _other(value: Any) -> Any:
    """Any value but a dataclass (see the module docstring)."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, Enum):
        return to_plain(value.value)
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    json_form = getattr(value, "__json__", None)
    if json_form is not None:
        return to_plain(json_form())
    raise TypeError(f"no JSON form for {type(value).__name__}")
