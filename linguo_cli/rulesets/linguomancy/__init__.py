"""Linguomancy, the first ruleset."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.abc import Traversable


def packaged(name: str) -> Traversable:
    """The packaged file ``name`` of Linguomancy (``data/...``, ``schemas/...``,
    ``suite/...``), relative to this package folder."""
    from linguo_cli.core.ruleset import package_files

    return package_files(__name__).joinpath(name)
