"""linguo: the reference rules engine for the tabletop RPG Linguomancy.

The Python API (see :mod:`linguo_cli.api`, README "Python API")::

    import linguo_cli
    linguo_cli.check(15, mods={"strength": 3}, rolls=[12])    # -> the result mapping
    linguo_cli.resolve({"kind": "save", "dc": 14}, seed=7)
    state = linguo_cli.load_state("examples/state.yaml")

``resolve``, the helpers per kind (``check``, ``attack``, ``save``, ``damage``,
``cast``, ``turn``), ``load_state``/``write_state``, the errors and
``EXIT_CODES`` are imported on first use: ``import linguo_cli`` alone loads
nothing else. The layers of the package are described in ARCHITECTURE.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: The public names, all from :mod:`linguo_cli.api`.
__all__ = [
    "EXIT_CODES", "Diagnostic", "DiceError", "InputError", "LinguoError", "RulesError",
    "UsageError", "attack", "cast", "check", "damage", "error_object", "load_state",
    "resolve", "save", "turn", "write_state",
]

if TYPE_CHECKING:  # static checkers see the real names; at run time they come lazily
    from linguo_cli.api import (
        EXIT_CODES,
        Diagnostic,
        DiceError,
        InputError,
        LinguoError,
        RulesError,
        UsageError,
        attack,
        cast,
        check,
        damage,
        error_object,
        load_state,
        resolve,
        save,
        turn,
        write_state,
    )


def __getattr__(name: str) -> Any:
    """A public name of :mod:`linguo_cli.api`, imported on first use."""
    if name in __all__:
        value = getattr(importlib.import_module("linguo_cli.api"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'linguo_cli' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
