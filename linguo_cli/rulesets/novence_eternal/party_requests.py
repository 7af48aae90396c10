"""The NV3 request kinds ``traverse`` (NP1, NP2) and ``party_check`` (NP3,
NP4) with their typed NV5 results.

``traverse`` rolls the Traversal d20 and runs the follow-up of the outcome
rolled, when the request gives one: a check (NS2) of the follow-up's
``character`` (an id of the ``state``, or without state an inline
combatant object, id ``character`` by default) whose failure deals the
follow-up's ``damage`` (NL2 and the KO hooks, NK1, NK3), or a weather
distance change. ``party_check`` checks the roster (NP3), the bank's gain
(NP4) and a purchase's approval (NP4); it needs no state. Faults:
:class:`~.documents.DocumentError` (exit 3), ``OptionError``
(``bad_option``), :class:`~.model.Refusal` (exit 4: ``roster_full``,
``control_count``, ``own_pc_twice``, ``purchase_unapproved``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from linguo_cli.core.derivation import Derivation, Step, rules_of
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.results import OMIT, Omit, to_plain

from .documents import Doc, DocumentError
from .injury import Track, after_damage
from .model import SecondChances
from .options import resolve_options
from .party import (
    FOLLOW_UPS,
    Control,
    bank_gain,
    check_purchase,
    check_roster,
    distance_change,
    traversal,
)
from .recovery import RollKeys, events_of, skill_check
from .recovery_requests import _state_checks
from .zenith_documents import Working, combatants_record, state_after, working, write_back

RULESET_NAME = "novence-eternal"


@dataclass(frozen=True, slots=True)
class TraverseResult:
    """NV5 ``traverse``: the d20 ``face``, the ``outcome`` code,
    ``regional_exclusive``, ``follow_up`` (null, or ``{way, check: {faces,
    total, dc, success} or null, damage, distance_change}``: ``way`` avoid or
    fight for a hostile encounter, else null; ``damage`` the HP dealt;
    ``distance_change`` feet, + for good weather, - for bad, else 0);
    ``injury_events``; ``combatants`` and ``state`` when a follow-up names a
    character."""

    kind: str = "traverse"
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    face: int = 0
    outcome: str = ""
    regional_exclusive: bool = False
    follow_up: Mapping[str, Any] | None = None
    injury_events: tuple[Any, ...] = ()
    combatants: Mapping[str, Any] | Omit = OMIT
    state: Mapping[str, Any] | Omit = OMIT
    rolls_used: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PartyCheckResult:
    """NV5 ``party_check``: ``legal`` (always true: an illegal party is
    refused), ``roster_size``, ``bank_before`` and ``bank_after`` (gp, null
    without ``bank``)."""

    kind: str = "party_check"
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    legal: bool = True
    roster_size: int = 0
    bank_before: int | None = None
    bank_after: int | None = None
    rolls_used: tuple[int, ...] = ()


def _check_follow_ups(follow_ups: Mapping[str, Any]) -> None:
    """NV3: a hostile encounter avoided names its ``skill`` (intimidation or
    persuasion) and no ``stat``; fought, its ``stat`` and no ``skill``."""
    hostile = follow_ups.get("hostile_encounter")
    if hostile is None:
        return
    need, other = ("skill", "stat") if hostile["way"] == "avoid" else ("stat", "skill")
    if need not in hostile:
        raise DocumentError("missing_input", "NV3", f"request follow_ups.hostile_encounter."
                            f"{need}", f"a hostile encounter {hostile['way']}ed names its {need}")
    if other in hostile:
        raise DocumentError("bad_input", "NV3", f"request follow_ups.hostile_encounter.{other}",
                            f"a hostile encounter {hostile['way']}ed names no {other}")


def _characters(request: Doc) -> tuple[Working, dict[str, str]]:
    """The working state and each follow-up's character id; a character on
    the injury track that a follow-up can damage needs its ``hit_die``."""
    follow_ups = request.get("follow_ups") or {}
    roles = [(follow_ups[k]["character"], "character",
              f"request follow_ups.{k}.character") if k in follow_ups else (None, "", "")
             for k in ("hostile_encounter", "cryptid")]
    w, ids = working(request, roles)
    names = [k for k in ("hostile_encounter", "cryptid") if k in follow_ups]
    chars = dict(zip(names, ids, strict=True))
    for key, cid in chars.items():
        c = w.creature(cid)
        _state_checks(c, w.options)
        if follow_ups[key].get("damage", 0) > 0 and c.on_track and c.hit_die is None:
            raise DocumentError("missing_input", "NV1", f"state combatants.{cid}.hit_die",
                                "a character a follow-up can damage needs its hit_die (NK3)")
    return w, chars


def _damage(w: Working, cid: str, amount: int, dice: DiceSource) -> list[Any]:
    """NL2 then NO1 step 13's KO hooks (NK1, NK3): ``amount`` final damage
    to THP, then HP. Returns the Injury events."""
    c = w.creature(cid)
    doc = w.touch(cid)
    absorbed = min(c.thp, amount)
    lost = min(c.hp, amount - absorbed)
    hit = replace(c, thp=c.thp - absorbed, thp_source=c.thp_source if c.thp > absorbed else None,
                  thp_granted=c.thp_granted if c.thp > absorbed else None,
                  hp=c.hp - lost, ko=c.ko or (c.hp > 0 and c.hp - lost == 0))
    w.log.note("NL2", f"{cid}: {amount} damage: THP {c.thp} -> {hit.thp}, HP {c.hp} -> {hit.hp}")
    party = w.state.get("party") or {}
    sc = party.get("second_chances")
    track = Track(hit, SecondChances(sc["max"], sc.get("pool", sc["max"])) if sc else None, [])
    after_damage(track, was_ko=c.ko, hp_before=c.hp, damage=amount, absorbed=absorbed,
                 dice=dice, location=None, new_window=False, options=w.options, log=w.log)
    write_back(doc, track.creature)
    w.events[cid].extend(events_of(c, track.creature))
    if sc and track.chances is not None:
        w.state["party"] = {**party, "second_chances": {"max": track.chances.max,
                                                        "pool": track.chances.pool}}
    return [to_plain(e) for e in track.events]


def _follow_up(w: Working, outcome: str, fu: Mapping[str, Any], cid: str | None,
               dice: DiceSource) -> tuple[dict[str, Any], list[Any]]:
    """NP2: the follow-up of ``outcome``: a weather distance change, or a
    check of the character against the DM's DC whose failure deals the
    follow-up's damage."""
    if cid is None:
        change = distance_change(outcome, fu["feet"])
        w.log.note("NP2", f"{outcome}: the distance changes by {change:+} ft")
        return {"way": None, "check": None, "damage": 0, "distance_change": change}, []
    actor = w.creature(cid)
    w.touch(cid)
    way = fu.get("way")
    skill = fu.get("skill")
    from .recovery import SKILL_STATS

    stat = SKILL_STATS[skill] if skill is not None else fu["stat"]
    w.log.note("NP2", f"{outcome}: " + (f"{cid} tries to {way} it" if way else f"{cid} makes "
                                        f"a {stat} check"))
    check = skill_check(actor, skill, stat, fu["dc"], RollKeys(), dice, w.options, w.log)
    record = {"faces": list(check.faces), "total": check.total, "dc": check.dc,
              "success": check.success}
    damage, events = 0, []
    if not check.success and fu.get("damage", 0) > 0:
        damage = fu["damage"]
        events = _damage(w, cid, damage, dice)
    if outcome == "cryptid" and not check.success:
        w.log.note("NP2", "the party stops travelling until the next day")
    return {"way": way, "check": record, "damage": damage, "distance_change": 0}, events


def resolve_traverse_request(request: Doc, dice: DiceSource) -> TraverseResult:
    """NV3 ``traverse`` (NP1, NP2, NO7): the Traversal d20, then the
    follow-up of the outcome rolled when ``follow_ups`` gives it (its check
    d20, then a location d10 if its damage brings a stack from Injury IV
    up). Raises as the module docstring says."""
    follow_ups = request.get("follow_ups") or {}
    _check_follow_ups(follow_ups)
    w, chars = _characters(request)
    t = traversal(dice.roll(20), w.log)
    record: dict[str, Any] | None = None
    events: list[Any] = []
    if t.outcome in FOLLOW_UPS and t.outcome in follow_ups:
        record, events = _follow_up(w, t.outcome, follow_ups[t.outcome], chars.get(t.outcome),
                                    dice)
    elif t.outcome in FOLLOW_UPS:
        w.log.note("NP2", f"{t.outcome}: no follow-up given")
    unused = [k for k in follow_ups if k not in (t.outcome, "description")]
    if unused:
        w.log.note("NP2", "not used: the follow-ups of " + ", ".join(unused))
    with_state = w.given or bool(chars)
    return TraverseResult(
        rules=tuple(dict.fromkeys(("NV3", *rules_of(w.log.steps), "NV5"))),
        explanation=tuple(w.log.steps), options=w.options.non_default(), face=t.face,
        outcome=t.outcome, regional_exclusive=t.regional_exclusive, follow_up=record,
        injury_events=tuple(events),
        combatants=combatants_record(w) if with_state else OMIT,
        state=state_after(w) if with_state else OMIT)


def _roster(request: Doc) -> tuple[list[str], list[Control]]:
    """NV3 ``party_check``'s players and roster, checked: players each once,
    characters each once, each controlled by a player present (bad_input)."""
    players = list(request["players"])
    if len(set(players)) != len(players):
        raise DocumentError("bad_input", "NV3", "request players", "a player is named twice")
    roster, seen = [], set()
    for i, item in enumerate(request["roster"], start=1):
        if item["controlled_by"] not in players:
            raise DocumentError("bad_input", "NV3", f"request roster.{i}.controlled_by",
                                f"{item['controlled_by']} is not a player present")
        if item["character"] in seen:
            raise DocumentError("bad_input", "NV3", f"request roster.{i}.character",
                                f"{item['character']} is listed twice")
        seen.add(item["character"])
        roster.append(Control(item["character"], item["controlled_by"],
                              bool(item.get("own_pc", False))))
    return players, roster


def resolve_party_check_request(request: Doc, dice: DiceSource | None = None
                                ) -> PartyCheckResult:
    """NV3 ``party_check`` (NP3, NP4): the roster's limits, in NP3's order
    (``roster_full``, ``control_count``, ``own_pc_twice``), then a
    ``purchase`` for one player without approval (``purchase_unapproved``);
    the ``bank`` gains 100 gp per player attending. No die."""
    options = resolve_options(request.get("options"))
    log = Derivation()
    players, roster = _roster(request)
    check_roster(players, roster, log)
    purchase = request.get("purchase")
    if purchase is not None:
        check_purchase(purchase["for_one_player"], bool(purchase.get("approved", False)), log)
    bank = request.get("bank")
    before = after = None
    if bank is not None:
        before = bank["balance"]
        after = bank_gain(before, bank["attending"], log)
    return PartyCheckResult(
        rules=tuple(dict.fromkeys(("NV3", *rules_of(log.steps), "NV5"))),
        explanation=tuple(log.steps), options=options.non_default(), roster_size=len(roster),
        bank_before=before, bank_after=after)
