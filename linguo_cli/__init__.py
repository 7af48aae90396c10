"""linguo: the reference rules engine for the tabletop RPG Linguomancy.

The rules modules (``checks``, ``damage``, ``flux``, ``conditions``, ``turn``,
``odds``) are pure; only ``state_io``, ``render``, ``golden`` and ``cli`` touch
files, streams or the environment.
"""

__version__ = "0.1.0"
