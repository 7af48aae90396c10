"""Typed results and the one JSON boundary.

Handlers return frozen dataclasses (a ruleset's result types); this module is
the only place where they become plain JSON-ready values (dicts, lists,
strings, numbers, booleans, ``None``). The conversion is generic:

- a dataclass becomes a dict of its fields in declaration order; a field whose
  metadata has ``json`` gives the key (e.g. ``field(metadata={"json": "in"})``),
  and a field whose value is :data:`OMIT` is left out (an optional key);
- anything whose type has a ``__json__()`` method becomes what that returns
  (first: an ``IntEnum`` may give its label; walked again unless the type sets
  ``__json_plain__``); else a ``tuple``/``list``
  becomes a list, a ``Mapping`` a dict, an ``Enum`` its ``value``;
- strings, numbers, booleans and ``None`` stay as they are.

The key ``rolls_used`` of a result (every result lists the dice faces it used)
always comes last, wherever the field is declared.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
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


def _fields_of(cls: type) -> tuple[tuple[str, str, bool], ...]:
    """``(attribute, JSON key, is rolls_used)`` of each field of ``cls``."""
    return tuple((f.name, key, key == _LAST) for f in dataclasses.fields(cls)
                 for key in (f.metadata.get("json", f.name),))

#: Values of these exact types are already JSON (the bulk of a result): they
#: are taken as they are without a call (``bool``, not a subclass such as an
#: ``IntEnum``, which may have its own ``__json__``).
_SCALARS: Final = frozenset({str, int, bool, float, type(None)})


def to_plain(value: Any) -> Any:
    """``value`` (a typed result, or any part of one) as JSON-ready values.

    Raises :class:`TypeError` for a value with no JSON form (a bug: every
    result type is built from the kinds above). The conversion of each type is
    chosen once and cached (results are converted on every command)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    convert = _CONVERTERS.get(kind)
    if convert is None:
        convert = _converter_for(kind)
    return convert(value)


def _same(value: Any) -> Any:
    return value


def _json_plain(value: Any) -> Any:
    """A type whose ``__json_plain__`` says its ``__json__()`` is already
    JSON-ready: used as it is (not walked again)."""
    return value.__json__()


def _json_method(value: Any) -> Any:
    return to_plain(value.__json__())


def _compiled(cls: type) -> Callable[[Any], Any]:
    """The converter of the dataclass ``cls``, generated once: a function that
    reads each field by name (the way :mod:`dataclasses` builds its own
    methods), leaves out :data:`OMIT` values and puts ``rolls_used`` last
    (see the module docstring). Field names are identifiers, so the
    generated code holds nothing but them and the JSON keys (``repr``)."""
    lines = ["def convert(v):", "    out = {}"]
    last = None
    for name, key, is_last in _fields_of(cls):
        if is_last:
            last = name
            continue
        lines += [f"    x = v.{name}", "    if x is not OMIT:",
                  f"        out[{key!r}] = x if type(x) in S else tp(x)"]
    if last is not None:
        lines += [f"    x = v.{last}", "    if x is not OMIT:",
                  f"        out[{_LAST!r}] = x if type(x) in S else tp(x)"]
    lines.append("    return out")
    namespace: dict[str, Any] = {"OMIT": OMIT, "S": _SCALARS, "tp": to_plain}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from field names only
    convert: Callable[[Any], Any] = namespace["convert"]
    return convert


def _enum(value: Any) -> Any:
    return to_plain(value.value)


def _mapping(value: Any) -> dict[str, Any]:
    return {str(k): v if type(v) in _SCALARS else to_plain(v) for k, v in value.items()}


def _sequence(value: Any) -> list[Any]:
    return [v if type(v) in _SCALARS else to_plain(v) for v in value]


def _no_json(value: Any) -> Any:
    raise TypeError(f"no JSON form for {type(value).__name__}")


def _converter_for(cls: type) -> Callable[[Any], Any]:
    """How values of ``cls`` become JSON (see the module docstring's order)."""
    if getattr(cls, "__json__", None) is not None:  # first: an IntEnum may give its label
        convert: Callable[[Any], Any] = (
            _json_plain if getattr(cls, "__json_plain__", False) else _json_method)
    elif issubclass(cls, Enum):
        convert = _enum
    elif issubclass(cls, (str, bool, int, float)) or cls is type(None):
        convert = _same
    elif dataclasses.is_dataclass(cls):
        convert = _compiled(cls)
    elif issubclass(cls, Mapping):
        convert = _mapping
    elif issubclass(cls, (tuple, list)):
        convert = _sequence
    else:
        convert = _no_json
    _CONVERTERS[cls] = convert
    return convert


_CONVERTERS: dict[type, Callable[[Any], Any]] = {
    str: _same, bool: _same, int: _same, float: _same, type(None): _same,
    dict: _mapping, list: _sequence, tuple: _sequence}
