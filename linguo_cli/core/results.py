"""Typed results and the one JSON boundary.

Handlers return frozen dataclasses (a ruleset's result types); this module is
the only place where they become plain JSON-ready values (dicts, lists,
strings, numbers, booleans, ``None``). The conversion is generic:

- a dataclass becomes a dict of its fields in declaration order; a field whose
  metadata has ``json`` gives the key (e.g. ``field(metadata={"json": "in"})``),
  and a field whose value is :data:`OMIT` is left out (an optional key);
- anything whose type has a ``__json__()`` method becomes what that returns
  (first: an ``IntEnum`` may give its label); else a ``tuple``/``list``
  becomes a list, a ``Mapping`` a dict, an ``Enum`` its ``value``;
- strings, numbers, booleans and ``None`` stay as they are.

The key ``rolls_used`` of a result (every result lists the dice faces it used)
always comes last, wherever the field is declared.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum
from typing import Any, Final, Literal


class _Omit:
    """The value of an optional field that is left out of the JSON."""

    _instance: _Omit | None = None

    def __new__(cls) -> _Omit:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "OMIT"

    def __bool__(self) -> Literal[False]:  # lets type checkers narrow ``if x:``
        return False


#: Leave this field out of the JSON (falsy, so ``if result.x:`` reads naturally).
OMIT: Final = _Omit()

#: The type of :data:`OMIT`, for annotations: ``hit: bool | Omit = OMIT``.
Omit = _Omit

_LAST: Final = "rolls_used"


def _fields_of(cls: type) -> tuple[tuple[str, str], ...]:
    cached: tuple[tuple[str, str], ...] | None = _FIELDS.get(cls)
    if cached is None:
        cached = tuple((f.name, f.metadata.get("json", f.name))
                       for f in dataclasses.fields(cls))
        _FIELDS[cls] = cached
    return cached


_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}
_PLAIN: Final = frozenset({str, bool, int, float})


def to_plain(value: Any) -> Any:
    """``value`` (a typed result, or any part of one) as JSON-ready values.

    Raises :class:`TypeError` for a value with no JSON form (a bug: every
    result type is built from the kinds above)."""
    if value is None or type(value) in _PLAIN:
        return value
    json_form = getattr(type(value), "__json__", None)
    if json_form is not None:  # wins over the kinds below (e.g. an IntEnum's label)
        return to_plain(json_form(value))
    if isinstance(value, (str, bool, int, float)) and not isinstance(value, Enum):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        last = OMIT
        for name, key in _fields_of(type(value)):
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
    if isinstance(value, Enum):
        return to_plain(value.value)
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    raise TypeError(f"no JSON form for {type(value).__name__}")
