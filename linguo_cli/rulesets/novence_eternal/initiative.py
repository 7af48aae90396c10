"""Who goes first: initiative (NS8), the order of simultaneous reactions
(NR2) and the roll-off both share (NS8, NO7).

- :func:`roll_off`: a d20 roll-off among tied creatures. Every member whose
  result no one else in it shares is placed; each subset still tied rolls
  again on its own, subsets from the highest result down, members in listed
  order, each settled before the next rolls, repeated while members stay
  tied (NS8; Three creatures rolling 9, 9 and 4 put the 4 last and only the
  two 9s roll again).
- :func:`roll_initiative`: d20 + DEX per creature in listed order (none
  under ``initiative_roll: dex_only``: the DEX itself), highest first; ties
  by the higher DEX, then a roll-off (``initiative_tie: rolloff``: the
  roll-off at once), groups from the highest initiative down.
- :func:`reaction_order`: a contested Perception check per reactor in
  listed order (d20 + WIS + PROF if proficient in Perception), highest
  first; tied reactors reroll the check (``reaction_tie: higher_bonus``: the
  higher Perception bonus first, and only a tie there rerolls).

Stats are effective (NS1, with the Injury penalty, NK8). Dice come from the
injected :class:`~linguo_cli.core.dice.DiceSource` in NO7's order.
:func:`resolve_initiative_request` and :func:`resolve_reaction_order_request`
are the NV3 handlers (``initiative`` writes the state's ``initiative``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.derivation import Derivation, Step, rules_of
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.results import OMIT, Omit, to_plain

from .documents import Doc, DocumentError
from .model import Creature, Refusal
from .options import DEFAULTS, Options
from .recovery_requests import Reading, named, read

RULESET_NAME = "novence-eternal"


@dataclass(frozen=True, slots=True)
class Rolloff:
    """One roll of a roll-off (NV5 ``rolloffs`` item): the ``ids`` rolling,
    in listed order, and their d20 ``faces`` in the same order."""

    ids: tuple[str, ...]
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rolled:
    """A creature's first roll (NV5 ``results`` value): its d20 ``faces``
    (none under ``initiative_roll: dex_only``) and its ``total``."""

    faces: tuple[int, ...]
    total: int


@dataclass(frozen=True, slots=True)
class Order:
    """An order, first to last (``order``), with each creature's first roll
    (``results``, by id) and every roll-off in the order rolled."""

    order: tuple[str, ...]
    results: Mapping[str, Rolled]
    rolloffs: tuple[Rolloff, ...]


def ranked(ids: Sequence[str], key: Callable[[str], int]) -> list[list[str]]:
    """``ids`` grouped by equal ``key``, groups from the highest key down,
    members in listed order."""
    groups: dict[int, list[str]] = {}
    for i in ids:
        groups.setdefault(key(i), []).append(i)
    return [groups[k] for k in sorted(groups, reverse=True)]


def roll_off(members: Sequence[str], dice: DiceSource, *, rule: str = "NS8",
             score: Callable[[str, int], int] | None = None,
             log: Derivation | None = None) -> tuple[list[str], list[Rolloff]]:
    """The roll-off of NS8 (NR2's reroll too) among ``members`` (ids, listed
    order): one d20 per member; members are placed by ``score(id, face)``
    (default the face), highest first; every subset still tied rolls again on
    its own, from the highest result down, each settled before the next,
    repeated while members stay tied. Returns (the order, the rolls made).
    Iterative, so a long run of scripted ties cannot exhaust the stack."""
    log = log if log is not None else Derivation()
    scoring = score if score is not None else (lambda _id, face: face)
    order: list[str] = []
    rolls: list[Rolloff] = []
    pending: list[list[str]] = [list(members)]
    while pending:
        group = pending.pop()
        if len(group) == 1:
            order.append(group[0])
            continue
        faces = tuple(dice.roll(20) for _ in group)
        rolls.append(Rolloff(tuple(group), faces))
        scores = {m: scoring(m, f) for m, f in zip(group, faces, strict=True)}
        subsets = ranked(group, scores.__getitem__)
        log.note(rule, "roll-off " + ", ".join(f"{m} {scores[m]}" for m in group) + (
            "; still tied: " + "; ".join(", ".join(s) for s in subsets if len(s) > 1)
            if any(len(s) > 1 for s in subsets) else ""))
        pending.extend(reversed(subsets))
    return order, rolls


def _can_roll(c: Creature, rule_ko: bool) -> None:
    """NK12 (and NK1 when ``rule_ko``): a dead creature makes no rolls
    (``actor_dead``); a KO one takes no reactions (``actor_ko``)."""
    if c.dead:
        raise Refusal("actor_dead", "NK12", f"{c.id} is dead and makes no rolls")
    if rule_ko and c.ko:
        raise Refusal("actor_ko", "NK1", f"{c.id} is KO and takes no reactions")


def roll_initiative(creatures: Sequence[Creature], dice: DiceSource,
                    options: Options = DEFAULTS, log: Derivation | None = None) -> Order:
    """NS8 with NO7's dice: each creature's initiative (d20 + effective DEX,
    or the DEX alone under ``initiative_roll: dex_only``), highest first; a
    tie goes to the higher DEX, then to a roll-off (``initiative_tie:
    rolloff``: straight to the roll-off), groups from the highest initiative
    down. Raises :class:`~.model.Refusal` ``actor_dead`` (NK12) for a dead
    creature, before any die."""
    log = log if log is not None else Derivation()
    for c in creatures:
        _can_roll(c, rule_ko=False)
    dex = {c.id: c.stat("DEX", options) for c in creatures}
    for c in creatures:
        if c.injury >= 3:
            log.note("NK8", f"{c.id}: DEX {dex[c.id]} with the Injury {c.injury} penalty")
    log.note("NO7", "initiative dice: " + (
        "none (dex_only); roll-offs" if options.is_("initiative_roll", "dex_only")
        else "one d20 per combatant in listed order, then the roll-offs")
        + ", groups from the highest initiative down")
    results: dict[str, Rolled] = {}
    for c in creatures:
        if options.is_("initiative_roll", "dex_only"):
            results[c.id] = Rolled((), dex[c.id])
            log.note("NS8", f"{c.id}: initiative = DEX {dex[c.id]} (initiative_roll: dex_only)")
        else:
            face = dice.roll(20)
            results[c.id] = Rolled((face,), face + dex[c.id])
            log.note("NS8", f"{c.id}: initiative d20 {face} + DEX {dex[c.id]} = "
                     f"{face + dex[c.id]}")
    order: list[str] = []
    rolls: list[Rolloff] = []
    for group in ranked(list(results), lambda i: results[i].total):
        if len(group) > 1 and options.is_("initiative_tie", "dex_then_rolloff"):
            log.note("NS8", f"tie at {results[group[0]].total}: the higher DEX goes first")
            subgroups = ranked(group, dex.__getitem__)
        else:
            subgroups = [group]
        for sub in subgroups:
            placed, made = roll_off(sub, dice, rule="NS8", log=log)
            order += placed
            rolls += made
    log.note("NS8", "order: " + ", ".join(order))
    return Order(tuple(order), results, tuple(rolls))


def perception_bonus(c: Creature, options: Options = DEFAULTS) -> int:
    """NR2: the Perception bonus, effective WIS + PROF if proficient in
    Perception."""
    return c.stat("WIS", options) + (c.prof if "perception" in c.proficient_skills else 0)


def reaction_order(reactors: Sequence[Creature], dice: DiceSource,
                   options: Options = DEFAULTS, log: Derivation | None = None) -> Order:
    """NR2 with NO7's dice: one contested Perception check per reactor in
    listed order (d20 + WIS + PROF if proficient), highest first; tied
    reactors reroll the check as in NS8's roll-off (``reaction_tie:
    higher_bonus``: the higher bonus first, and only a tie there rerolls).
    Raises :class:`~.model.Refusal` (``actor_dead`` NK12, ``actor_ko`` NK1)
    for a reactor that cannot react, before any die."""
    log = log if log is not None else Derivation()
    for c in reactors:
        _can_roll(c, rule_ko=True)
    bonus = {c.id: perception_bonus(c, options) for c in reactors}
    log.note("NO7", "one d20 per reactor in listed order, then the rerolls of tied subsets")
    results: dict[str, Rolled] = {}
    for c in reactors:
        face = dice.roll(20)
        results[c.id] = Rolled((face,), face + bonus[c.id])
        log.note("NR2", f"{c.id}: Perception d20 {face} + {bonus[c.id]} = {face + bonus[c.id]}")
    order: list[str] = []
    rolls: list[Rolloff] = []
    for group in ranked(list(results), lambda i: results[i].total):
        if len(group) > 1 and options.is_("reaction_tie", "higher_bonus"):
            log.note("NR2", f"tie at {results[group[0]].total}: the higher Perception bonus "
                     "goes first")
            subgroups = ranked(group, bonus.__getitem__)
        else:
            subgroups = [group]
        for sub in subgroups:
            placed, made = roll_off(sub, dice, rule="NR2", log=log,
                                    score=lambda i, face: face + bonus[i])
            order += placed
            rolls += made
    log.note("NR2", "order: " + ", ".join(order))
    return Order(tuple(order), results, tuple(rolls))


@dataclass(frozen=True, slots=True)
class OrderResult:
    """The NV5 result of ``initiative`` and ``reaction_order``: ``order``
    (ids, first to last), ``results`` (``{id: {faces, total}}``, the first
    roll), ``rolloffs`` (``[{ids, faces}]``, in the order rolled), and, for
    ``initiative``, ``state`` (the request's state, or the one built from
    its combatant objects, with ``initiative`` written)."""

    kind: str = ""
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    results: Mapping[str, Any] = field(default_factory=dict)
    rolloffs: tuple[Any, ...] = ()
    state: Mapping[str, Any] | Omit = OMIT
    rolls_used: tuple[int, ...] = ()


def _creatures(reading: Reading, request: Doc, key: str, item: str) -> list[Creature]:
    """The creatures a request's list ``key`` names (ids with a state,
    objects without; an object without ``id`` is ``<item>1``, ...)."""
    return [named(reading, given, f"{item}{i + 1}", f"request {key}.{i + 1}")
            for i, given in enumerate(request[key])]


def _result(kind: str, reading: Reading, order: Order,
            state: Mapping[str, Any] | Omit = OMIT) -> OrderResult:
    return OrderResult(
        kind=kind, rules=tuple(dict.fromkeys(("NV3", *rules_of(reading.log.steps), "NV5"))),
        explanation=tuple(reading.log.steps), options=reading.options.non_default(),
        order=order.order, results=to_plain(order.results), rolloffs=to_plain(order.rolloffs),
        state=state)


def resolve_initiative_request(request: Doc, dice: DiceSource) -> OrderResult:
    """NV3 ``initiative`` (NS8, NO7): ``combatants`` (ids of the state, or
    combatant objects without one; default every combatant of the state
    that is not dead, in listed order; without a state it is required,
    ``missing_input``). The result's ``state`` is the state with
    ``initiative`` set to the order. A dead combatant named is refused
    (``actor_dead``, NK12)."""
    reading = read(request)
    state = request.get("state")
    if "combatants" in request:
        creatures = _creatures(reading, request, "combatants", "combatant")
    elif state is not None:
        creatures = [named(reading, c["id"], c["id"], f"state combatants.{c['id']}")
                     for c in state["combatants"] if not c.get("dead", False)]
    else:
        raise DocumentError("missing_input", "NV3", "request combatants",
                            "without a state, name the combatants")
    order = roll_initiative(creatures, dice, reading.options, reading.log)
    if state is not None:
        written = {**state, "initiative": list(order.order)}
    else:
        written = {"combatants": [{**c, "id": c.get("id", f"combatant{i + 1}")}
                                  for i, c in enumerate(request["combatants"])],
                   "initiative": list(order.order)}
    return _result("initiative", reading, order, written)


def resolve_reaction_order_request(request: Doc, dice: DiceSource) -> OrderResult:
    """NV3 ``reaction_order`` (NR2, NO7): ``reactors``, 2 or more, each once,
    in listed order (ids of the state, or combatant objects without one). A
    dead or KO reactor is refused (``actor_dead`` NK12, ``actor_ko`` NK1)."""
    reading = read(request)
    reactors = _creatures(reading, request, "reactors", "reactor")
    return _result("reaction_order", reading,
                   reaction_order(reactors, dice, reading.options, reading.log))
