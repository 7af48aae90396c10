"""Linguomancy, the first ruleset."""

from importlib import resources
from importlib.abc import Traversable


def packaged(name: str) -> Traversable:
    """The packaged file ``name`` of Linguomancy (``data/...``, ``schemas/...``,
    ``suite/...``), relative to this package folder."""
    return resources.files(__name__).joinpath(name)
