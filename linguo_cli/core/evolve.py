"""``evolve``: :func:`dataclasses.replace` for the frozen records of the core
and the rulesets, without its per-call field walk.

The turn engine changes an entity many times per turn (movement, action
points, conditions...), each change a new frozen record. ``replace`` reads
the class's fields, builds keyword arguments and runs ``__init__`` on every
call; :func:`evolve` runs one function generated once per class that copies
each field straight from the old record or from the changes. Same result,
same errors for unknown field names; a class with ``__post_init__``,
``InitVar`` or ``init=False`` fields takes ``dataclasses.replace`` itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def evolve(record: T, **changes: Any) -> T:
    """A copy of the dataclass instance ``record`` with ``changes`` applied
    (field name -> new value), as ``dataclasses.replace(record, **changes)``.

    Raises :class:`TypeError` for a name that is not a field (as ``replace``)
    and for ``record`` that is not a dataclass instance."""
    cls = type(record)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier_for(cls)
    result: T = copier(record, changes)
    return result


def _plain_fields(cls: type) -> tuple[str, ...] | None:
    """The field names of ``cls`` when a straight copy equals ``replace``
    (every field in ``__init__``, no ``__post_init__``, hence no ``InitVar``),
    else ``None``."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        return None
    names = []
    for f in dataclasses.fields(cls):
        if not f.init:
            return None
        names.append(f.name)
    return tuple(names)  # an InitVar is only read by __post_init__: refused above


def _copier_for(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"evolve() should be called on dataclass instances, not {cls.__name__}")
    names = _plain_fields(cls)
    if names is None:
        return lambda record, changes: dataclasses.replace(record, **changes)
    # Field names are identifiers: the generated code holds nothing else.
    lines = ["def copy(o, c):", "    n = new(C)"]
    lines += [f"    put(n, {name!r}, c[{name!r}] if {name!r} in c else o.{name})"
              for name in names]
    lines += ["    if not NAMES.issuperset(c):",
              "        bad = next(k for k in c if k not in NAMES)",
              "        raise TypeError(f'{C.__name__}.__init__() got an unexpected keyword "
              "argument {bad!r}')",
              "    return n"]
    namespace: dict[str, Any] = {"new": object.__new__, "put": object.__setattr__, "C": cls,
                                 "NAMES": frozenset(names)}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from field names only
    copier: Callable[[Any, dict[str, Any]], Any] = namespace["copy"]
    return copier
