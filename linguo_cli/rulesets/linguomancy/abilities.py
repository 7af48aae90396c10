"""Which ability a tick multiplies (rule T4 rev. 2, T7).

A damage tick multiplies the Potential modifier and a healing tick the
Cohesion modifier; nothing else. A roll that names another ability to
multiply is a rules violation (exit 4, T4). A bonus from another ability
is an ordinary flat modifier with its own label.

Shared by every request that lets its input name the ability to multiply
(today: the ``damage.ability`` of a turn's attack step).
"""

from __future__ import annotations

from linguo_cli.core.errors import RulesError

#: The ability a damage tick multiplies (T4).
DAMAGE_ABILITY = "potential"
#: The ability a healing tick multiplies (T7).
HEALING_ABILITY = "cohesion"


def multiplied_ability(*, healing: bool = False) -> str:
    """The ability name (lower case) a tick multiplies: ``potential`` for a
    damage tick (T4), ``cohesion`` for a healing tick (T7)."""
    return HEALING_ABILITY if healing else DAMAGE_ABILITY


def check_multiplied(ability: str | None, *, healing: bool = False, field: str = "ability"
                     ) -> str:
    """The ability a roll may multiply by its tick, given the name its input
    gives (``None``: the default, Potential for damage, Cohesion for healing).

    Names compare case-insensitively. Raises :class:`RulesError` (exit 4,
    rule ``T4``; ``details``: ``field``, ``ability``, ``allowed``) when the
    name is another ability, e.g. ``strength`` for damage.
    """
    allowed = multiplied_ability(healing=healing)
    if ability is None or ability.casefold() == allowed:
        return allowed
    what = "healing" if healing else "damage"
    raise RulesError("T4", f"{field}: a {what} tick multiplies only {allowed.title()}, not "
                           f"{ability!r}; give a bonus from {ability} as a flat modifier "
                           "with its own label",
                     {"field": field, "ability": ability, "allowed": allowed})
