"""Playing the steps of one turn (NV4): legality of the actor, payment
(NT4-NT7, NR1, NR11), the ``before`` entries, the step itself
(:mod:`.actions`, :mod:`.events`), the ``after`` entries.

The order of refusals (Refusal codes): the actor's state first
(``actor_dead``, then ``actor_ko``), then the budget, then the action's own
conditions. Every refusal and every document fault found during play is
re-raised at its NV6 place (``R1 turn 2 (ogre) step 1 attack 2``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from linguo_cli.core.results import to_plain

from ..documents import DocumentError
from ..initiative import reaction_order
from ..model import Refusal
from ..movement import roll_move
from . import actions, zenith_steps
from .budget import Budget, pay_bonus_reaction, pay_legendary, pay_ra
from .events import run_events
from .world import World

Step = Mapping[str, Any]

#: Steps paid with the TA (or an AA as a TA, NT5).
TA_STEPS = frozenset({"move", "aim", "prepare", "help", "hide", "search", "investigate",
                      "interact", "disengage", "retreat", "meditate"})
#: Steps paid with AAs (their ``aa_cost``, or the weapon's).
AA_STEPS = frozenset({"attack", "sc_attack", "dc_effect", "ability", "ultimate"})


@dataclass
class Turn:
    """One turn in play: the world, the actor, its budget, its place
    (``R1 turn 2 (ogre)``) and whether it has taken Disengage (NT11)."""

    world: World
    actor: str
    budget: Budget
    place: str
    disengaged: bool = False


def placed(exc: Exception, place: str) -> Exception:
    """``exc`` (a Refusal or a DocumentError) re-raised at ``place``."""
    if isinstance(exc, Refusal):
        text = exc.message.rsplit(" [rule ", 1)[0].removesuffix(f" ({exc.refusal})")
        return Refusal(exc.refusal, str(exc.rule), f"{place}: {text}", place)
    if isinstance(exc, DocumentError):
        diag = exc.diagnostics[0]
        field = diag.place.removeprefix("request").strip()
        where = f"{place} {field}".strip()
        return DocumentError(exc.refusal, exc.rule, where, diag.message)
    return exc


def move_roll_hook(world: World, cid: str) -> dict[str, Any]:
    """NM1, the Move roll of a ``move`` step through
    :func:`..movement.roll_move`: one d20 per Move (NO7); NV5 ``move``
    ``{actor, face, stand_in, dex, feet}`` (feet exact)."""
    return dict(to_plain(roll_move(world.creature(cid), world.dice, world.options, world.log)))


def _weapon_cost(world: World, cid: str, step: Step) -> int:
    key = actions.step_weapon(world, cid, step)
    return int(actions.weapon_doc(world, cid, key).get("aa_cost", 1))


def cost_of(world: World, cid: str, step: Step) -> int:
    """NT5: the AAs an AA step costs (``free``: none)."""
    if step.get("free", False):
        return 0
    if step["kind"] in ("attack", "sc_attack"):
        return _weapon_cost(world, cid, step)
    if step["kind"] == "ultimate":
        return zenith_steps.ultimate_cost(world, step)
    return int(step.get("aa_cost", 1))


def pay(turn: Turn, step: Step) -> None:
    """NT4-NT7, NR1: what ``step`` costs, paid from the turn's budget (or the
    party's Legendary action); raises the budget's refusals."""
    kind, world, b = step["kind"], turn.world, turn.budget
    if kind in TA_STEPS or (kind == "stabilize" and world.options.is_("stabilize_cost", "ta")):
        b.pay_ta(step.get("pay"))
    elif kind in AA_STEPS or kind == "stabilize":
        b.pay_aa(cost_of(world, turn.actor, step) if kind != "stabilize" else 1, step.get("pay"))
    elif kind == "ready":
        b.pay_aa(cost_of(world, turn.actor, step["action"]), step.get("pay"))
        if world.options.is_("ready_cost", "aa_plus_ta"):
            b.pay_ta()
    elif kind == "use_bonus_action":
        b.pay_ba()
    elif kind == "legendary":
        pay_legendary(world.party, b.paid)
    _note_paid(world, turn.actor, kind, b.paid)


def _note_paid(world: World, cid: str, kind: str, paid: Mapping[str, int]) -> None:
    """NT5 (NT6, NT7): what a step paid, in the derivation."""
    parts = [f"{n} {k.upper()}" for k, n in paid.items() if n and k in ("ta", "aa", "ba")]
    if kind in TA_STEPS and paid["aa"] and not paid["ta"]:
        world.log.note("NT5", f"{cid}'s {kind}: an AA spent as a TA")
    elif parts:
        world.log.note("NT5", f"{cid}'s {kind} costs {', '.join(parts)}")
    elif kind in AA_STEPS:
        world.log.note("NT5", f"{cid}'s {kind} is free: no AA")
    if paid["ba"]:
        world.log.note("NT6", f"{cid} uses a bonus action inside its window")

def _act(turn: Turn, cid: str, step: Step) -> dict[str, Any]:
    """The step's own work (already paid for); its NV5 ``result``."""
    world, kind = turn.world, step["kind"]
    simple: dict[str, Callable[[World, str, Step], dict[str, Any]]] = {
        "attack": actions.attack, "dc_effect": actions.dc_effect,
        "prepare": actions.prepare, "help": actions.help_, "hide": actions.hide,
        "search": actions.search, "investigate": actions.investigate, "aim": actions.aim,
        "interact": actions.interact, "stabilize": actions.stabilize_step,
        "sc_attack": zenith_steps.sc_attack, "meditate": zenith_steps.meditate,
        "ultimate": zenith_steps.ultimate}
    if kind in simple:
        return simple[kind](world, cid, step)
    if kind == "ability":
        result = actions.spend(world, cid, step)
        result["effects"] = run_events(world, step.get("effects", ()), "", cid, "effect")
        return result
    if kind == "move":
        return move_roll_hook(world, cid)
    if kind == "disengage":
        turn.disengaged = True
        world.log.note("NT11", f"{cid} disengages: leaving reach later this turn provokes "
                       "no free attack")
        return {}
    if kind == "ready":
        world.doc(cid)["readied"] = {"action": dict(step["action"]), "trigger": step["trigger"]}
        world.log.note("NR1", f"{cid} readies {step['action']['kind']} for "
                       f"'{step['trigger']}'")
        return {"readied": step["action"]["kind"], "trigger": step["trigger"]}
    if kind in ("retreat", "legendary"):
        world.log.note("NT10" if kind == "retreat" else "NT7", f"{cid}: {kind} "
                       + str(step.get("note", "")))
        return {"note": step.get("note")}
    if kind == "event":
        return {"events": run_events(world, step["events"], "")}
    return {}


def _can_act(world: World, cid: str) -> None:
    doc = world.doc(cid)
    if doc.get("dead", False):
        raise Refusal("actor_dead", "NK12", f"{cid} is dead")
    if doc.get("ko", False):
        raise Refusal("actor_ko", "NK1", f"{cid} is KO")


def run_step(turn: Turn, step: Step, place: str) -> dict[str, Any]:
    """One step of the turn's actor: the actor's state and payment (refused
    first, before anything answers the step), its ``before`` entries, the
    action, then its ``after`` entries. NT6: a step
    other than ``use_bonus_action`` closes the open BAs; ``grants_ba`` opens
    new ones."""
    world, kind = turn.world, step["kind"]
    if kind != "use_bonus_action":
        turn.budget.ba = 0
    paid = turn.budget.start_step()
    try:
        if kind not in ("event", "end_turn"):
            _can_act(world, turn.actor)
        pay(turn, step)
    except (Refusal, DocumentError) as exc:
        raise placed(exc, place) from None
    before = run_entries(turn, step.get("before", ()), place, "before", step)
    try:
        inner = step["action"] if kind == "use_bonus_action" else step
        result = _act(turn, turn.actor, inner)
    except (Refusal, DocumentError) as exc:
        raise placed(exc, place) from None
    for w in world.warnings:
        w["place"] = w["place"] or place
    if step.get("grants_ba"):
        turn.budget.ba = int(step["grants_ba"])
        world.log.note("NT6", f"{turn.actor}'s {kind} grants {step['grants_ba']} bonus "
                       "action(s), open until another step")
    after = run_entries(turn, step.get("after", ()), place, "after", step)
    return {"step": int(place.rsplit(" ", 1)[1]), "kind": kind, "paid": dict(paid),
            "before": before, "after": after, "result": result}


def _fire(turn: Turn, entry: Mapping[str, Any], paid: dict[str, int]) -> dict[str, Any]:
    """NR1: the actor's readied action fires on its RA; nothing stored:
    ``budget_ra``."""
    world, cid = turn.world, entry["actor"]
    doc = world.doc(cid)
    readied = doc.get("readied")
    _can_act(world, cid)
    if readied is None:
        raise Refusal("budget_ra", "NT4", f"{cid} has no readied action stored")
    pay_ra(doc, paid)
    step = {**readied["action"], **entry["fire"]}
    doc["readied"] = None
    world.log.note("NR1", f"{cid}'s readied {step['kind']} fires ('{readied['trigger']}')")
    return _act(turn, cid, step)


def _reaction(turn: Turn, entry: Mapping[str, Any], paid: dict[str, int]) -> dict[str, Any]:
    """NR1, NT6: a reaction paid with a bonus reaction; ``pay: ba`` is
    ``bonus_as_reaction``."""
    world, cid = turn.world, entry["actor"]
    _can_act(world, cid)
    if entry.get("pay") == "ba":
        raise Refusal("bonus_as_reaction", "NT6", "a bonus action cannot serve as a reaction")
    pay_bonus_reaction(world.doc(cid), paid)
    world.log.note("NR1", f"{cid} reacts with a bonus reaction")
    return _act(turn, cid, entry["reaction"])


def _free_attack(turn: Turn, entry: Mapping[str, Any], paid: dict[str, int]) -> dict[str, Any]:
    """NR11: one free melee attack at the mover; it costs nothing (under
    ``free_reaction_attack: uses_reaction`` the RA, else a bonus reaction)."""
    world, cid = turn.world, entry["actor"]
    _can_act(world, cid)
    if world.options.is_("free_reaction_attack", "uses_reaction"):
        doc = world.doc(cid)
        if not doc.get("ra_used", False):
            pay_ra(doc, paid)
        else:
            pay_bonus_reaction(doc, paid)
    else:
        world.log.note("NR1", f"the free attack does not use {cid}'s RA (free_reaction_attack: "
                       "free)")
    world.log.note("NT11", f"{turn.actor} has not taken Disengage before this move")
    world.log.note("NR11", f"{turn.actor} leaves {cid}'s reach: a free attack")
    return actions.attack(world, cid, entry["free_attack"])


def _legendary(turn: Turn, entry: Mapping[str, Any], paid: dict[str, int]) -> dict[str, Any]:
    pay_legendary(turn.world.party, paid)
    turn.world.log.note("NT7", f"{entry['actor']} uses the party's Legendary action")
    return {"note": (entry.get("legendary") or {}).get("note")}


_ENTRIES = {"fire": _fire, "reaction": _reaction, "free_attack": _free_attack,
            "legendary": _legendary}


def entry_kind(entry: Mapping[str, Any]) -> str:
    """The kind of a ``before``/``after`` entry (the key it holds)."""
    return next(k for k in _ENTRIES if k in entry)


def reaction_order_hook(world: World, reactors: list[str]) -> list[str]:
    """NR2, simultaneous reactions of two or more creatures (``reactors``,
    ids in the order of their first entry), through
    :func:`..initiative.reaction_order` (NO7's dice: one Perception d20 per
    reactor in that order, then the rerolls). Returns the ids, first to
    act first; refuses a dead or KO reactor before any die."""
    order = reaction_order([world.creature(c) for c in reactors], world.dice, world.options,
                           world.log)
    return list(order.order)


def run_entries(turn: Turn, entries: Any, place: str, part: str,
                step: Step) -> list[dict[str, Any]]:
    """A step's ``before`` or ``after`` entries (NV4): Legendary entries
    first in listed order, then the others (NR2 orders two or more
    creatures). Each pays on its own (:data:`_ENTRIES`)."""
    indexed = list(enumerate(entries, 1))
    legendary = [(i, e) for i, e in indexed if entry_kind(e) == "legendary"]
    others = [(i, e) for i, e in indexed if entry_kind(e) != "legendary"]
    reactors = list(dict.fromkeys(e["actor"] for _, e in others))
    if len(reactors) > 1:
        first = next(i for i, e in others if e["actor"] == reactors[0])
        try:
            order = reaction_order_hook(turn.world, reactors)
        except (Refusal, DocumentError) as exc:
            raise placed(exc, f"{place} {part} {first} ({reactors[0]})") from None
        others.sort(key=lambda ie: order.index(ie[1]["actor"]))
    records = []
    for i, e in legendary + others:
        where = f"{place} {part} {i} ({e['actor']})"
        paid = {"ta": 0, "aa": 0, "ba": 0, "ra": 0, "bonus_reaction": 0, "legendary": 0}
        try:
            result = _ENTRIES[entry_kind(e)](turn, e, paid)
        except (Refusal, DocumentError) as exc:
            raise placed(exc, where) from None
        records.append({"entry": i, "actor": e["actor"], "kind": entry_kind(e),
                        "paid": paid, "result": result})
    return records
