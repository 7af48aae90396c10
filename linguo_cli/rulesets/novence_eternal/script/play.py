"""The ``script``, ``turn_start`` and ``event`` request kinds (NV3, NV4).

A script plays its ``rounds`` on a state, all or nothing (NV4): the
documents are checked first (:func:`.documents.check_script`, exit 3, every
fault together, no die); then each element plays in order. A round element
runs NO5 when it starts the round, its ``start`` events, its turns (NO3,
the steps, the end of the turn), then, when it ``ends``, NO4, ``round`` + 1
with ``turns_taken`` emptied, and its ``end`` events. An interlude applies
its events. The first refusal (exit 4) stops play at its place; nothing is
written. Results are NV5's (:mod:`.result`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core.derivation import rules_of
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.results import to_plain

from ..documents import DocumentError
from .budget import Budget
from .documents import check_script, check_state
from .events import run_events
from .result import EventResult, ScriptResult, TurnStartResult
from .steps import Turn, run_step
from .timing import end_of_round, end_of_turn, read_conditions, start_of_round, turn_start
from .world import World, complete, view

Doc = Mapping[str, Any]


def _play_turn(world: World, turn: Doc, place: str) -> dict[str, Any]:
    """One turn (NV4): NO3 for a living actor (not for a dead one, NK12),
    the budget (NO3 step 6), its steps, then the end of the turn (unused TA
    and AA are lost, NT4; effects ticking at the holder's turn end, NO4
    steps 1-2)."""
    cid = turn["actor"]
    doc = world.doc(cid)
    if turn.get("extra", False):
        world.log.note("NT3", f"{cid} takes an extra turn")
    start = None
    if not doc.get("dead", False):
        start = turn_start(world, cid)
    else:
        world.log.note("NK12", f"{cid} is dead: its turn runs no NO3")
    budget = Budget.open(world.doc(cid))
    world.log.note("NT4", f"{cid}: 1 TA, {budget.aa} AA, 1 RA for Ready")
    record: dict[str, Any] = {"actor": cid, "extra": bool(turn.get("extra", False)),
                              "start": start, "steps": []}
    state = Turn(world, cid, budget, place)
    for s, step in enumerate(turn.get("steps") or (), 1):
        record["steps"].append(run_step(state, step, f"{place} step {s}"))
    if budget.ta or budget.aa:
        world.log.note("NT4", f"{cid}'s turn ends: {budget.ta} TA and {budget.aa} AA unused "
                       "are lost")
    record["end"] = end_of_turn(world, cid)
    world.state.setdefault("turns_taken", []).append(cid)
    return record


def _play_round(world: World, k: int, element: Doc, first: bool) -> dict[str, Any]:
    """One round element (NV4's round boundaries)."""
    started = not (first and world.state.get("turns_taken"))
    if started:
        world.state["turns_taken"] = []
        start_of_round(world)
    else:
        world.log.note("NO5", f"round {world.state.get('round', 1)} continues: its start "
                       "(NO5) has run already")
    number = world.state.get("round", 1)
    record: dict[str, Any] = {"round": number, "started": started,
                              "start": run_events(world, element.get("start") or (), f"R{k}",
                                                  part="start"), "turns": []}
    for t, turn in enumerate(element.get("turns") or (), 1):
        record["turns"].append(_play_turn(world, turn, f"R{k} turn {t} ({turn['actor']})"))
    record["end_of_round"] = None
    if element.get("ends", True):
        record["end_of_round"] = end_of_round(world)
        world.state["round"] = number + 1
        world.state["turns_taken"] = []
    record["end"] = run_events(world, element.get("end") or (), f"R{k}", part="end")
    return record


def _combatants(world: World) -> dict[str, Any]:
    """NV5 ``combatants``: the touched creatures with before, after, events."""
    by_id = {c["id"]: c for c in world.state["combatants"]}
    return {cid: {"before": before, "after": view(by_id[cid]),
                  "events": list(world.events.get(cid, ()))}
            for cid, before in world.before.items()}


def _fields(world: World) -> dict[str, Any]:
    return {"explanation": tuple(world.log.steps), "options": world.options.non_default(),
            "warnings": tuple(world.warnings), "combatants": _combatants(world),
            "state": complete(to_plain(world.state))}


def resolve_script_request(request: Doc, dice: DiceSource) -> ScriptResult:
    """NV3 ``script`` (NV4): plays ``rounds`` on ``state``. Raises
    :class:`.documents.ScriptError` / ``DocumentError`` / ``OptionError``
    (exit 3) before any die, :class:`~..model.Refusal` (exit 4) at the
    first forbidden action, placed (``R1 turn 2 (ogre) step 1``)."""
    world = World.of(request, dice)
    check_script(request)
    read_conditions(world)
    world.log.note("NV1", f"the state: round {world.state.get('round', 1)}, "
                   f"{len(world.state.get('turns_taken') or ())} turn(s) taken in it")
    rounds: list[dict[str, Any]] = []
    for k, element in enumerate(request["rounds"], 1):
        if "events" in element:
            rounds.append({"events": run_events(world, element["events"], f"R{k}")})
            continue
        rounds.append(_play_round(world, k, element, k == 1))
    return ScriptResult(rules=tuple(dict.fromkeys(("NV4", *rules_of(world.log.steps), "NV5"))),
                        rounds=tuple(rounds), **_fields(world))


def _state_only(request: Doc, dice: DiceSource) -> World:
    check_state(request)
    world = World.of(request, dice)
    read_conditions(world)
    world.log.note("NV1", f"the state: round {world.state.get('round', 1)}")
    return world


def resolve_turn_start_request(request: Doc, dice: DiceSource) -> TurnStartResult:
    """NV3 ``turn_start`` (NO3 for ``actor``): windows restart, its charges,
    readied action and Help given end, status damage under
    ``status_damage_at: holder_turn_start``, the KO roll (NK2), the UP gain
    (NU2, the hook of :func:`.timing.up_gain_hook`). A dead actor runs no
    NO3 (NK12). ``rolls``: the KO d20 and its location d10."""
    world = _state_only(request, dice)
    actor = request["actor"]
    if actor not in world.ids():
        raise DocumentError("bad_input", "NV3", "request actor", f"no combatant {actor!r}")
    if world.doc(actor).get("dead", False):
        world.log.note("NK12", f"{actor} is dead: no NO3")
        record: dict[str, Any] = {"actor": actor, "ended": [], "status_damage": [],
                                  "ko_roll": None, "up_gain": None, "injury_events": []}
    else:
        record = turn_start(world, actor)
    return TurnStartResult(
        rules=tuple(dict.fromkeys(("NV3", "NO3", *rules_of(world.log.steps), "NV5"))),
        actor=actor, ended=tuple(record["ended"]),
        status_damage=to_plain(tuple(record["status_damage"])), ko_roll=record["ko_roll"],
        up_gain=record["up_gain"], injury_events=to_plain(tuple(record["injury_events"])),
        **_fields(world))


def resolve_event_request(request: Doc, dice: DiceSource) -> EventResult:
    """NV3 ``event`` (state required): ``events`` applied in order (NV4's
    events; ``by`` names each one's source)."""
    world = _state_only(request, dice)
    party_before = to_plain(dict(world.party))
    records = run_events(world, request["events"], "request")
    return EventResult(rules=tuple(dict.fromkeys(("NV3", *rules_of(world.log.steps), "NV4",
                                                  "NV5"))),
                       party={"before": party_before, "after": to_plain(dict(world.party))},
                       events=to_plain(tuple(records)), **_fields(world))
