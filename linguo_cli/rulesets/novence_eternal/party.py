"""The party and travel (NP1-NP4) as pure functions.

NP1: the Traversal roll's outcome code from one plain d20. NP2: which
follow-up an outcome has and what its numbers mean (the check itself is
NS2's, made by the request handler). NP3: roster checks. NP4: the party
bank's gain (gp) and the approval a purchase for one player needs. A
forbidden roster or purchase raises :class:`~.model.Refusal` (exit 4) with
its code: ``roster_full``, ``control_count``, ``own_pc_twice`` (NP3),
``purchase_unapproved`` (NP4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from linguo_cli.core.derivation import Derivation

from .model import Refusal

#: NP1: the outcome code of each d20 face, 1 to 20.
TRAVERSAL = {1: "cryptid", 2: "forced_rest_day", 3: "hostile_encounter",
             4: "hostile_encounter", 5: "bad_weather", 6: "bad_weather",
             **{face: "nothing" for face in range(7, 13)}, 13: "materials", 14: "materials",
             15: "good_weather", 16: "good_weather", 17: "friendly_encounter",
             18: "friendly_encounter", 19: "fast_travel", 20: "special_location"}
#: NP2: the outcomes that have a follow-up.
FOLLOW_UPS = ("hostile_encounter", "cryptid", "good_weather", "bad_weather")
#: NP3: the most characters the active roster holds.
ROSTER_MAX = 10
#: NP4: gp the bank gains per player attending a session.
BANK_PER_PLAYER = 100


@dataclass(frozen=True, slots=True)
class Traversal:
    """NP1's outcome: the d20 ``face``, the ``outcome`` code, and
    ``regional_exclusive`` (true only on 14, materials)."""

    face: int
    outcome: str
    regional_exclusive: bool


def traversal(face: int, log: Derivation) -> Traversal:
    """NP1: the outcome of a Traversal d20 ``face`` (1-20); ValueError
    outside 1-20 (the dice source never gives one)."""
    if face not in TRAVERSAL:
        raise ValueError(f"a d20 face is 1-20, not {face}")
    outcome = TRAVERSAL[face]
    exclusive = face == 14
    log.note("NP1", f"Traversal d20 {face}: {outcome}"
             + (", regional exclusive" if exclusive else ""))
    return Traversal(face, outcome, exclusive)


def distance_change(outcome: str, feet: int) -> int:
    """NP2: good weather moves the party ``feet`` farther (+), bad weather
    ``feet`` less (-); 0 for any other outcome."""
    return feet if outcome == "good_weather" else -feet if outcome == "bad_weather" else 0


@dataclass(frozen=True, slots=True)
class Control:
    """One roster entry (NP3): the ``character`` id, the player who
    ``controlled_by`` it, and whether it is one of that player's own PCs."""

    character: str
    controlled_by: str
    own_pc: bool = False


def check_roster(players: Sequence[str], roster: Sequence[Control], log: Derivation) -> None:
    """NP3, in its order: more than 10 characters is ``roster_full``; a
    player present who controls none or more than two is
    ``control_count``; a player who controls two of their own PCs is
    ``own_pc_twice``. Raises :class:`~.model.Refusal` (exit 4, rule NP3)
    with the first that fails."""
    if len(roster) > ROSTER_MAX:
        raise Refusal("roster_full", "NP3", f"{len(roster)} characters: the roster holds "
                      f"at most {ROSTER_MAX}")
    count = Counter(c.controlled_by for c in roster)
    own = Counter(c.controlled_by for c in roster if c.own_pc)
    for player in players:
        if not 1 <= count[player] <= 2:
            raise Refusal("control_count", "NP3", f"{player} controls {count[player]} "
                          "characters: a player present controls 1 or 2")
    for player in players:
        if own[player] > 1:
            raise Refusal("own_pc_twice", "NP3", f"{player} controls {own[player]} of "
                          "their own player characters: at most one")
    log.note("NP3", f"{len(roster)} characters (at most {ROSTER_MAX}); each of the "
             f"{len(players)} players present controls 1 or 2, at most one own PC")


def bank_gain(balance: int, attending: int, log: Derivation) -> int:
    """NP4: the bank after a session: ``balance`` + 100 gp x players
    ``attending``."""
    after = balance + BANK_PER_PLAYER * attending
    log.note("NP4", f"bank {balance} + {BANK_PER_PLAYER} x {attending} = {after} gp")
    return after


def check_purchase(for_one_player: bool, approved: bool, log: Derivation) -> None:
    """NP4: a purchase for one player needs unanimous approval; without it
    raises :class:`~.model.Refusal` ``purchase_unapproved`` (exit 4)."""
    if for_one_player and not approved:
        raise Refusal("purchase_unapproved", "NP4",
                      "a purchase for one player needs unanimous approval")
    log.note("NP4", "the purchase is for the party" if not for_one_player
             else "the purchase for one player is unanimously approved")
