"""The command line: the Typer app (:mod:`linguo_cli.cli.app`) that mounts
each ruleset's commands.

``main`` (the console script ``linguo``) is imported on first use, so that a
ruleset's command module can import :mod:`linguo_cli.cli.options` without
building the app (which mounts that very module) first.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["main"]


def __getattr__(name: str) -> Any:
    if name == "main":
        return importlib.import_module("linguo_cli.cli.app").main
    raise AttributeError(f"module 'linguo_cli.cli' has no attribute {name!r}")
