"""The Move roll (NM1): how far one Move takes a creature.

feet = max(d20, A) + DEX, never below 0, with the creature's effective DEX
(NS1, with the Injury penalty of NK8). A stands in for the d20's average:
10 (``move_average: floor``, 10.5 rounded down), 21/2 (``exact``: the feet
may end in .5) or 11 (``ceil``). One d20 per Move (NO7). Feet are exact
(NV5: ``"13"``, ``"27/2"``).

:func:`roll_move` is the function a script of turns calls for a ``move``
step (NV4); :func:`resolve_move_request` is the NV3 ``move`` handler.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from linguo_cli.core.derivation import Derivation, Step, rules_of
from linguo_cli.core.dice import DiceSource

from .documents import Doc
from .exact import Exact, exact, exact_text
from .model import Creature, Refusal
from .options import DEFAULTS, Options
from .recovery_requests import named, read

RULESET_NAME = "novence-eternal"

#: NM1's stand-in A for each ``move_average``.
STAND_IN = {"floor": Fraction(10), "exact": Fraction(21, 2), "ceil": Fraction(11)}


@dataclass(frozen=True, slots=True)
class MoveRoll:
    """One Move (NV5 ``move``): the ``actor``, its d20 ``face``, the
    ``stand_in`` A, its effective ``dex`` and the ``feet`` moved (exact)."""

    actor: str
    face: int
    stand_in: Exact
    dex: int
    feet: Exact


def roll_move(actor: Creature, dice: DiceSource, options: Options = DEFAULTS,
              log: Derivation | None = None) -> MoveRoll:
    """NM1: one d20; feet = max(d20, A) + effective DEX, never below 0 (A per
    ``move_average``). The creature itself does not change. Raises
    :class:`~.model.Refusal` before the die: ``actor_dead`` (NK12),
    ``actor_ko`` (NK1)."""
    log = log if log is not None else Derivation()
    if actor.dead:
        raise Refusal("actor_dead", "NK12", f"{actor.id} is dead and cannot move")
    if actor.ko:
        raise Refusal("actor_ko", "NK1", f"{actor.id} is KO and cannot move")
    stand_in = STAND_IN[options.text("move_average")]
    dex = actor.stat("DEX", options)
    if actor.injury >= 3:
        log.note("NK8", f"{actor.id}: DEX {dex} with the Injury penalty")
    log.note("NO7", "Move: one d20 for this Move")
    face = dice.roll(20)
    feet = max(Fraction(0), max(Fraction(face), stand_in) + dex)
    log.note("NM1", f"{actor.id}: max(d20 {face}, {exact_text(stand_in)}) + DEX {dex} = "
             f"{exact_text(max(Fraction(face), stand_in) + dex)}"
             + (", never below 0" if feet == 0 else "") + f": {exact_text(feet)} ft")
    return MoveRoll(actor.id, face, exact(stand_in), dex, exact(feet))


@dataclass(frozen=True, slots=True)
class MoveResult:
    """The NV5 result of a ``move`` request: ``actor``, ``face``,
    ``stand_in`` (A, exact), ``dex`` and ``feet`` (exact)."""

    kind: str = "move"
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    actor: str = ""
    face: int = 0
    stand_in: Exact = field(default_factory=lambda: exact(10))
    dex: int = 0
    feet: Exact = field(default_factory=lambda: exact(0))
    rolls_used: tuple[int, ...] = ()


def resolve_move_request(request: Doc, dice: DiceSource) -> MoveResult:
    """NV3 ``move`` (NM1): ``actor`` (an id of the state, or a combatant
    object without one) makes one Move roll. Refusals as :func:`roll_move`."""
    reading = read(request)
    actor = named(reading, request["actor"], "actor", "request actor")
    move = roll_move(actor, dice, reading.options, reading.log)
    return MoveResult(
        rules=tuple(dict.fromkeys(("NV3", *rules_of(reading.log.steps), "NV5"))),
        explanation=tuple(reading.log.steps), options=reading.options.non_default(),
        actor=move.actor, face=move.face, stand_in=move.stand_in, dex=move.dex, feet=move.feet)
