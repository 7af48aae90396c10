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
import types
import typing
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


class PlainDict(dict[str, Any]):
    """A dict whose values are already JSON-ready and fresh (built for this
    one result, shared with nothing else, e.g. a whole state after a
    change): :func:`to_plain` takes it as a plain ``dict`` (a shallow copy)
    without walking it again. Build one only from such values; anything
    else belongs in an ordinary dict, which :func:`to_plain` converts."""

    __slots__ = ()

    def __json__(self) -> dict[str, Any]:
        """A plain ``dict`` of the same items (the values as they are)."""
        return dict(self)

    __json_plain__ = True


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
    generated code holds nothing but them and the JSON keys (``repr``).

    Where a field's annotation names what it holds (a type whose
    ``__json__`` is already plain, a tuple or dict of such values), the
    code converts it in line, guarded by an exact type test: a value of
    any other type takes :func:`to_plain`, so the output is the same as the
    generic walk whatever the annotation says (:func:`_field_code`)."""
    namespace: dict[str, Any] = {"OMIT": OMIT, "S": _SCALARS, "tp": to_plain}
    hints = _hints(cls)
    lines = ["def convert(v):", "    out = {}"]
    last = None
    for name, key, is_last in _fields_of(cls):
        if is_last:
            last = (name, _LAST)
            continue
        lines += _field_lines(name, key, _field_code(hints.get(name), namespace))
    if last is not None:
        lines += _field_lines(*last, _field_code(hints.get(last[0]), namespace))
    lines.append("    return out")
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from field names only
    convert: Callable[[Any], Any] = namespace["convert"]
    return convert


def _field_lines(name: str, key: str, expression: str) -> list[str]:
    return [f"    x = v.{name}", "    if x is not OMIT:", f"        out[{key!r}] = {expression}"]


_GENERIC: Final = "x if type(x) in S else tp(x)"


def _hints(cls: type) -> dict[str, Any]:
    """The field annotations of ``cls`` resolved (empty when one cannot be:
    then every field takes the generic walk)."""
    try:
        return typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - an unresolvable annotation only costs speed
        return {}


def _plain_type(ann: Any) -> type | None:
    """``ann`` when it is a class whose ``__json__()`` is already plain."""
    if isinstance(ann, type) and getattr(ann, "__json_plain__", False) \
            and getattr(ann, "__json__", None) is not None:
        return ann
    return None


def _scalar_enum(ann: Any) -> type | None:
    """``ann`` when it is an enum without ``__json__`` whose values are all
    JSON scalars (its JSON form is then its ``value``, as :func:`_enum`)."""
    if isinstance(ann, type) and issubclass(ann, Enum) \
            and getattr(ann, "__json__", None) is None \
            and all(type(m.value) in _SCALARS for m in ann):
        return ann
    return None


def _element_code(ann: Any, var: str, namespace: dict[str, Any]) -> str:
    """An expression converting ``var`` annotated ``ann``: in line for a
    type with a plain ``__json__``, an enum of scalar values or a
    ``dict[str, ...]`` of scalars and such, else the generic test."""
    known = _plain_type(ann) or _scalar_enum(ann)
    if known is not None:
        name = f"T{len(namespace)}"
        namespace[name] = known
        form = f"{var}.__json__()" if known is _plain_type(ann) else f"{var}.value"
        return f"{form} if type({var}) is {name} else tp({var})"
    if typing.get_origin(ann) is dict and var != "v2":
        value = _element_code(typing.get_args(ann)[1], "v2", namespace)
        return (f"({{str(k2): {value} for k2, v2 in {var}.items()}} "
                f"if type({var}) is dict else tp({var}))")
    return f"{var} if type({var}) in S else tp({var})"


def _field_code(ann: Any, namespace: dict[str, Any]) -> str:
    """The expression converting field value ``x`` annotated ``ann``.

    ``X | None | Omit`` is read as ``X`` (``None`` is a scalar, OMIT is
    left out before); ``tuple[X, ...]`` and ``list[X]`` become a list and
    ``dict[str, X]`` a dict with ``str`` keys (as :func:`_sequence` and
    :func:`_mapping` do), each element converted by :func:`_element_code`.
    Any value not of the annotated container type takes :func:`to_plain`."""
    args = [a for a in typing.get_args(ann) if a not in (type(None), _Omit)] \
        if typing.get_origin(ann) in (typing.Union, types.UnionType) else None
    if args is not None:
        if len(args) != 1:
            return _GENERIC
        ann = args[0]
    origin, params = typing.get_origin(ann), typing.get_args(ann)
    if origin in (tuple, list) and params and (origin is list or params[-1:] == (...,)):
        element = _element_code(params[0], "e", namespace)
        return (f"[{element} for e in x] if type(x) is tuple or type(x) is list "
                "else " + _GENERIC)
    if origin is dict and len(params) == 2:
        element = _element_code(params[1], "e", namespace)
        return f"{{str(k): {element} for k, e in x.items()}} if type(x) is dict else " \
            + _GENERIC
    if _plain_type(ann) is not None or _scalar_enum(ann) is not None:
        return "x if type(x) in S else " + _element_code(ann, "x", namespace)
    return _GENERIC


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
