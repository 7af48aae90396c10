"""The ruleset-neutral entity: what every ruleset's combatant has.

An :class:`Entity` is a frozen value: results hold entities as they were and
as they are after a ruling, and rules return new entities (``dataclasses.replace``)
instead of changing them. Inside an engine a working copy may be kept in a
mutable map of id -> entity (see :mod:`linguo_cli.core.turns`); an engine may
change in place only copies it made itself and has not handed out (e.g.
Linguomancy's ``TurnEngine.update``), so every value anyone else holds stays
as it was.

A ruleset's entity builds on this one (a frozen dataclass subclass adding its
own fields, e.g. Linguomancy's Flux and action points) and keeps its own JSON
form (``as_dict``); the neutral fields keep their meaning in every ruleset:

- ``id``: unique in a state; ``kind``: the ruleset's kind of combatant
  (``player``, ``enemy``...);
- ``hp``/``max_hp``/``temp_hp``: hit points, whole points, ``0 <= hp <= max_hp``
  and ``temp_hp >= 0`` in a consistent state;
- ``conditions``: the conditions held, in the order gained
  (:class:`~linguo_cli.core.conditions.Condition`);
- ``dead``: the entity is dead (it takes no turn).
"""

from __future__ import annotations

from dataclasses import dataclass

from linguo_cli.core.conditions import Condition


@dataclass(frozen=True, slots=True)
class Entity:
    """One combatant of a state, in the fields every ruleset shares (see the
    module docstring for their units and meanings)."""

    id: str
    kind: str
    hp: int
    max_hp: int
    temp_hp: int = 0
    conditions: tuple[Condition, ...] = ()
    dead: bool = False

    def has(self, condition: str) -> bool:
        """True when the entity holds a condition of that name (exact case)."""
        for c in self.conditions:
            if c.name == condition:
                return True
        return False
