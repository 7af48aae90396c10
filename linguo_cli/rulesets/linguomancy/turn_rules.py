"""The numbers of a turn (P1-P6, C2): action point costs, step kinds,
movement costs, Hand points and the resources left, as constants and pure
functions shared by the turn engine and its steps.

Units: action points, metres (``Fraction`` inside, :func:`model.metres` out),
Hand points, Flux points.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from linguo_cli.rulesets.linguomancy import conditions as conditions_
from linguo_cli.rulesets.linguomancy.model import Entity, metres
from linguo_cli.rulesets.linguomancy.turn_results import Remaining

#: Action point cost of each cost class (P1).
COST_CLASSES: dict[str, int] = {"free": 0, "quick": 1, "standard": 2, "complex": 3}

#: Cost class of the generic actions the rulebook names (P1); other names
#: must give their ``cost``.
NAMED_ACTIONS: dict[str, str] = {
    "attack": "standard", "use_item": "standard", "help": "standard", "hide": "standard",
    "jump": "quick", "stand_up": "quick", "shove": "quick",
    "charge": "complex", "sprint": "complex",
    "talk": "free", "drop_item": "free",
}

#: Modes of movement (P2); each metre costs one metre, crawling one more (see
#: :func:`move_cost`). A move in ``jump`` mode is one jump: a quick action
#: (1 AP) as well as its metres (P1 rev. 2).
MOVE_MODES = ("walk", "crawl", "jump", "swim", "climb", "fly")

#: The most action points a single action may cost (P1 rev. 2); an input cost
#: above it is invalid input (exit 3).
MAX_ACTION_COST = 3

#: The step kinds of a turn document (schemas/turn-request.schema.json).
STEP_KINDS = ("move", "drop_prone", "stand_up", "attack", "cast", "action", "hold", "drop",
              "stop_maintaining", "reaction", "end_turn")

#: AP cost of an attack (P1: most actions cost 2).
ATTACK_AP = 2
#: AP cost of casting an idiom without its own AP cost (P1): 2, complex 3.
CAST_AP = 2
COMPLEX_CAST_AP = 3


# ---------------------------------------------------------------------------
# Condition effects (C2)


def givers(entity: Entity, catalog: conditions_.Catalog, effect: str) -> list[str]:
    """Names of the conditions ``entity`` holds whose catalog entry sets
    ``effect`` (e.g. ``no_actions``), for messages."""
    out: list[str] = []
    held = [c.name for c in entity.conditions]
    if entity.exhaustion > 0:
        held.append("Exhaustion")
    for name in held:
        entry = catalog.get(name)
        if entry is not None and name not in out and effect in entry.effects.as_dict():
            out.append(name)
    return out


# ---------------------------------------------------------------------------
# Resources


def hands_free(entity: Entity, maintained_costs: Sequence[int]) -> int:
    """Hand points free now (P5): Hand points - held items - Hand costs of
    maintained idioms - Hand points spent by actions this turn; never below 0."""
    return max(0, entity.hand_points - len(entity.held_items) - sum(maintained_costs)
               - entity.hands_spent)


def remaining(entity: Entity, maintained_costs: Sequence[int]) -> Remaining:
    """The resources left: ``action_points``, ``movement`` (metres),
    ``hands_free``, ``flux``, ``reaction_available``."""
    free = entity.hand_points - len(entity.held_items) - entity.hands_spent  # hands_free
    if maintained_costs:
        free -= sum(maintained_costs)
    return Remaining(entity.action_points, metres(entity.movement), free if free > 0 else 0,
                     entity.flux, entity.reaction_available)


def move_cost(distance: Fraction, mode: str, terrain: str) -> Fraction:
    """Metres of movement a move costs (P2): distance x (1 + 1 when crawling
    + 1 on difficult terrain). Crawling 1 m on difficult terrain costs 3 m."""
    factor = 1 + (1 if mode == "crawl" else 0) + (1 if terrain == "difficult" else 0)
    return distance * factor


def stand_up_cost(entity: Entity) -> Fraction:
    """Movement standing up costs (P3): half the max movement (max 20 -> 10 m)."""
    return entity.movement_max / 2


def num(value: Fraction | int) -> int | float | str:
    """Metres for output (:func:`metres`), from a Fraction or an int (an
    int is its own output: no Fraction is built for it)."""
    if type(value) is int:
        return value
    return metres(value if type(value) is Fraction else Fraction(value))
