"""The NV3 request kinds of hit points and the KO/Injury machine: ``thp``
(NL3), ``heal`` (NL1, NL4), ``ko_roll`` (NK2), ``stabilize`` (NK7),
``rest`` (NK9, NK10) and ``resurrect`` (NK13), with their typed NV5
results.

Creatures are named by id of the request's ``state``, or given inline
(without ``state``; an object without ``id`` takes its role's name:
``actor``, ``target``, list items ``target1``, ``target2``...). Every
result has ``combatants`` (``{id: {before, after, events}}``, the creatures
the request touched, in the order it names them; ``before``/``after`` as
NV5's list) and ``hp`` (NL1's notation per touched creature after), and
``state``, the state after (given, or built from the inline objects:
:mod:`.state_results`). Faults: ``DocumentError`` (exit 3: ``missing_input``,
``bad_input``, before any die), ``OptionError`` (``bad_option``),
:class:`~.model.Refusal` (exit 4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from linguo_cli.core.derivation import Derivation, Step, rules_of
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.results import OMIT, Omit, to_plain

from .documents import Doc, DocumentError, creature_of
from .injury import Track
from .model import Creature, SecondChances
from .options import Options, resolve_options
from .recovery import (
    SKILL_STATS,
    RollKeys,
    events_of,
    grant_thp,
    heal,
    hp_text,
    ko_roll,
    refill,
    rest_injury,
    resurrect,
    skill_check,
    stabilize,
)
from .results import creature_view
from .state_results import party_after, written_state

RULESET_NAME = "novence-eternal"
R = TypeVar("R", bound="CareResult")


@dataclass(frozen=True, slots=True)
class CareResult:
    """The fields every result of these kinds has (NV5): ``combatants``
    (``{id: {before, after, events}}``), ``hp`` (NL1's notation per
    creature touched, after) and ``state`` (the state after, NV5:
    :func:`.state_results.written_state`); each kind's own fields follow in
    its subclass."""

    kind: str = ""
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    rolls_used: tuple[int, ...] = ()
    combatants: Mapping[str, Any] = field(default_factory=dict)
    hp: Mapping[str, str] = field(default_factory=dict)
    state: Mapping[str, Any] | Omit = OMIT


@dataclass(frozen=True, slots=True)
class ThpResult(CareResult):
    """NV5 ``thp``: ``targets``, ``[{target, granted, kept, thp_before,
    thp_after, source_after}]``."""

    targets: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class HealResult(CareResult):
    """NV5 ``heal``: ``roll`` (``{dice, faces, static, total}``, when
    rolled) and ``targets``, ``[{target, amount, hp_before, hp_after, woke}]``."""

    roll: Mapping[str, Any] | Omit = OMIT
    targets: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class KoRollResult(CareResult):
    """NV5 ``ko_roll``: ``actor``, ``ko_roll`` (``{rolled, face, result,
    reason}``), ``injury_events``, and ``party`` with Second Chances."""

    actor: str = ""
    ko_roll: Mapping[str, Any] = field(default_factory=dict)
    injury_events: tuple[Any, ...] = ()
    party: Mapping[str, Any] | Omit = OMIT


@dataclass(frozen=True, slots=True)
class StabilizeResult(CareResult):
    """NV5 ``stabilize``: the check (``actor``, ``stat``, ``skill``,
    ``save``, ``faces``, ``natural``, ``total``, ``dc``, ``success``,
    ``charge``, ``crit_fail``) and ``stabilized`` (made so now)."""

    actor: str = ""
    stat: str = "WIS"
    skill: str = "medicine"
    save: bool = False
    faces: tuple[int, ...] = ()
    natural: int = 0
    total: int = 0
    dc: int = 0
    success: bool = False
    charge: str | None = None
    crit_fail: bool = False
    stabilized: bool = False


@dataclass(frozen=True, slots=True)
class CheckResult(CareResult):
    """NV5 ``check``: ``actor``, ``stat``, ``skill`` (or null), ``save``,
    the d20 ``faces``, ``natural``, ``total``, ``dc``, ``success``, the
    ``charge`` a save spent (NR9) or null, and ``crit_fail`` (NX6)."""

    actor: str = ""
    stat: str = ""
    skill: str | None = None
    save: bool = False
    faces: tuple[int, ...] = ()
    natural: int = 0
    total: int = 0
    dc: int = 0
    success: bool = False
    charge: str | None = None
    crit_fail: bool = False


@dataclass(frozen=True, slots=True)
class RestResult(CareResult):
    """NV5 ``rest``: ``party`` (``{before, after}`` of its Second Chances)."""

    party: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ResurrectResult(CareResult):
    """NV5 ``resurrect``: ``target``, the d10 ``face``, ``injury``, ``ko``,
    ``critical_timer``, and the ``injury_events`` (cause ``resurrection``)."""

    target: str = ""
    face: int = 0
    injury: int = 0
    ko: bool = False
    critical_timer: int | None = None
    injury_events: tuple[Any, ...] = ()


@dataclass
class Reading:
    """A request read: the options, the state's combatants by id (``None``
    without state), the party's Second Chances and the creatures touched."""

    options: Options
    by_id: Mapping[str, Doc] | None
    chances: SecondChances | None
    before: dict[str, Creature] = field(default_factory=dict)
    after: dict[str, Creature] = field(default_factory=dict)
    log: Derivation = field(default_factory=Derivation)
    state: Doc | None = None
    objects: dict[str, Doc] = field(default_factory=dict)


def _state_checks(c: Creature, options: Options) -> None:
    """NV1's state checks on one creature, before any rule runs (bad_input)."""
    place = f"state combatants.{c.id}"
    if c.hp > c.max_hp and options.is_("max_hp_drop", "clamp"):
        raise DocumentError("bad_input", "NV1", f"{place}.hp",
                            f"hp {c.hp} is above max_hp {c.max_hp} (max_hp_drop: clamp)")
    if c.injury >= 9 and not c.dead:
        raise DocumentError("bad_input", "NV1", f"{place}.injury",
                            "injury 9 on a creature that is not dead")
    if (c.thp > 0) != (c.thp_source is not None):
        raise DocumentError("bad_input", "NV1", f"{place}.thp_source",
                            "thp_source is required when thp > 0 and absent when it is 0")
    if c.thp_granted is not None and (c.thp_granted < c.thp or c.thp == 0 < c.thp_granted):
        raise DocumentError("bad_input", "NV1", f"{place}.thp_granted",
                            "thp_granted is at least thp, and absent or 0 when thp is 0")


def read(request: Doc) -> Reading:
    """The options (state < request), the state's combatants and party."""
    state = request.get("state")
    top = state if state is not None else request
    options = resolve_options((state or {}).get("options"), request.get("options"))
    by_id = {c["id"]: c for c in state["combatants"]} if state is not None else None
    chances = (top.get("party") or {}).get("second_chances")
    return Reading(options, by_id, SecondChances(chances["max"], chances.get(
        "pool", chances["max"])) if chances else None, state=state)


def named(reading: Reading, given: Any, default_id: str, place: str) -> Creature:
    """The creature ``given`` (an id with state, an object without), checked."""
    if reading.by_id is not None:
        if not isinstance(given, str) or given not in reading.by_id:
            raise DocumentError("bad_input", "NV3", place, f"no combatant {given!r}")
        c = creature_of(reading.by_id[given], given, {}).creature
    elif isinstance(given, Mapping):
        c = creature_of(given, default_id, {}).creature
        reading.objects[c.id] = given
    else:
        raise DocumentError("bad_input", "NV3", place, "without state, give a combatant object")
    if c.id in reading.before:
        raise DocumentError("bad_input", "NV3", place, f"{c.id} is named twice")
    _state_checks(c, reading.options)
    reading.before[c.id] = c
    return c


def _targets(reading: Reading, request: Doc) -> list[Creature]:
    return [named(reading, t, f"target{i + 1}", f"request targets.{i + 1}")
            for i, t in enumerate(request["targets"])]


def _result(cls: type[R], kind: str, reading: Reading, **fields: Any) -> R:
    combatants = {}
    for cid, old in reading.before.items():
        new = reading.after.get(cid, old)
        combatants[cid] = {"before": _view(old), "after": _view(new),
                           "events": list(events_of(old, new))}
    return cls(
        kind=kind, rules=tuple(dict.fromkeys(("NV3", *rules_of(reading.log.steps), "NV5"))),
        explanation=tuple(reading.log.steps), options=reading.options.non_default(),
        combatants=combatants,
        hp={cid: hp_text(reading.after.get(cid, c)) for cid, c in reading.before.items()},
        state=written_state(reading.state, reading.objects, reading.after,
                            party_after(fields.get("party")) or reading.chances),
        **fields)


def _view(c: Creature) -> dict[str, Any]:
    view = creature_view(c)
    view["true_max_hp"] = c.true_max_hp if c.true_max_hp is not None else c.max_hp
    return view


def resolve_thp_request(request: Doc, dice: DiceSource | None = None) -> ThpResult:
    """NV3 ``thp`` (NL3): ``targets``, ``amount`` (HP), ``source`` (label);
    no die. ``thp_compare: granted`` compares with the combatant's
    ``thp_granted`` (linguo's extension of NV1; absent: ``thp``)."""
    reading = read(request)
    granted = reading.options.is_("thp_compare", "granted")
    grants = []
    for c in _targets(reading, request):
        reading.after[c.id], grant = grant_thp(c, request["amount"], request["source"],
                                               reading.log, granted)
        grants.append(grant)
    return _result(ThpResult, "thp", reading, targets=to_plain(tuple(grants)))


def resolve_heal_request(request: Doc, dice: DiceSource) -> HealResult:
    """NV3 ``heal`` (NL4, NL1): ``targets`` and exactly one of ``amount``
    (HP) and ``roll`` (``{dice, static}``, rolled once for every target).
    A dead target refuses the request (``target_dead``) before any die."""
    reading = read(request)
    targets = _targets(reading, request)
    if ("amount" in request) == ("roll" in request):
        raise DocumentError("missing_input" if "amount" not in request else "bad_input", "NV3",
                            "request amount", "give exactly one of amount and roll")
    dead = next((c for c in targets if c.dead), None)
    if dead is not None:
        heal(dead, 0, reading.options, reading.log)  # raises target_dead (NL4)
    roll: dict[str, Any] | Omit = OMIT
    amount = request.get("amount", 0)
    if "roll" in request:
        n, _, sides = request["roll"]["dice"].partition("d")
        faces = [dice.roll(int(sides)) for _ in range(int(n))]
        static = request["roll"].get("static", 0)
        amount = max(0, sum(faces) + static)
        roll = {"dice": request["roll"]["dice"], "faces": faces, "static": static,
                "total": amount}
        reading.log.note("NL4", f"healing roll {request['roll']['dice']}: "
                         f"{' + '.join(map(str, faces))}" + (f" + {static}" if static else "")
                         + f" = {amount}")
    healed = []
    for c in targets:
        reading.after[c.id], record = heal(c, amount, reading.options, reading.log)
        healed.append(record)
    return _result(HealResult, "heal", reading, targets=to_plain(tuple(healed)), roll=roll)


def resolve_ko_roll_request(request: Doc, dice: DiceSource) -> KoRollResult:
    """NV3 ``ko_roll`` (NK2 alone): ``actor``; its d20, then a location d10
    when the stack reaches V or more (NK4, NK5); no die when NK2 does not
    apply (the record's ``reason``)."""
    reading = read(request)
    actor = named(reading, request["actor"], "actor", "request actor")
    track = Track(actor, reading.chances, [])
    record = ko_roll(track, dice, reading.options, reading.log)
    reading.after[actor.id] = track.creature
    return _result(KoRollResult, "ko_roll", reading, actor=actor.id, ko_roll=to_plain(record),
                   injury_events=to_plain(tuple(track.events)), party=_party(
                       reading.chances, track.chances))


def resolve_stabilize_request(request: Doc, dice: DiceSource) -> StabilizeResult:
    """NV3 ``stabilize`` (NK7, NS2): ``actor`` makes a Medicine check
    against ``dc`` with the roll keys; success stabilizes a KO ``target``."""
    reading = read(request)
    actor = named(reading, request["actor"], "actor", "request actor")
    target = named(reading, request["target"], "target", "request target")
    keys = RollKeys(bool(request.get("advantage", False)),
                    bool(request.get("disadvantage", False)),
                    tuple(b["value"] for b in request.get("bonuses", ())))
    after, check, now = stabilize(actor, target, request["dc"], keys, dice, reading.options,
                                  reading.log)
    reading.after[target.id] = after
    return _result(StabilizeResult, "stabilize", reading, actor=check.actor, stat=check.stat,
                   skill=check.skill, faces=check.faces, natural=check.natural,
                   total=check.total, dc=check.dc, success=check.success,
                   crit_fail=check.crit_fail, stabilized=now)


def resolve_rest_request(request: Doc, dice: DiceSource | None = None) -> RestResult:
    """NV3 ``rest`` (state required; NK9, NK10): ``rest`` (``short`` or
    ``long``) for the ``creatures`` named: a long rest at Injury IV or lower
    removes every stack; the party's Second Chance pool is refilled (long:
    to its max; short: per ``second_chance_refill``). No die."""
    reading = read(request)
    for i, cid in enumerate(request["creatures"]):
        c = named(reading, cid, cid, f"request creatures.{i + 1}")
        reading.after[c.id] = rest_injury(c, request["rest"], reading.log)
    after = reading.chances
    if reading.chances is not None:
        after = refill(reading.chances, request["rest"], reading.options)
        if request["rest"] == "long":
            reading.log.note("NK9", "a long rest also restores the Second Chances")
        reading.log.note("NK10", f"{request['rest']} rest: Second Chances {reading.chances.pool}"
                         f" -> {after.pool} of {after.max}")
    return _result(RestResult, "rest", reading,
                   party=_party(reading.chances, after, always=True))


def resolve_resurrect_request(request: Doc, dice: DiceSource) -> ResurrectResult:
    """NV3 ``resurrect`` (NK13): ``target``, ``hp`` (>= 1) and
    ``seconds_since_death``; one d10. A living target is refused
    (``target_alive``) before the die."""
    reading = read(request)
    target = named(reading, request["target"], "target", "request target")
    track = Track(target, reading.chances, [])
    record = resurrect(track, request["hp"], request["seconds_since_death"], dice,
                       reading.options, reading.log)
    reading.after[target.id] = track.creature
    event = {"creature": target.id, "cause": "resurrection", "absorbed": False,
             "pool_after": None, "location": None, "location_face": None, "gain": 0,
             "injury_before": target.injury, "injury_after": record.injury,
             "critical_timer": record.critical_timer, "ko": record.ko, "dead": False}
    return _result(ResurrectResult, "resurrect", reading, target=record.target,
                   face=record.face, injury=record.injury, ko=record.ko,
                   critical_timer=record.critical_timer, injury_events=(event,))


def _party(before: SecondChances | None, after: SecondChances | None,
           always: bool = False) -> dict[str, Any] | Omit:
    """NV5 ``party`` (``{before, after}`` of the Second Chances), or left
    out when the party has none (unless ``always``)."""
    if before is None or after is None:
        return {"before": {"second_chances": None}, "after": {"second_chances": None}} \
            if always else OMIT
    return {"before": {"second_chances": {"max": before.max, "pool": before.pool}},
            "after": {"second_chances": {"max": after.max, "pool": after.pool}}}


#: NR9: the charge that answers a save of each stat.
SAVE_CHARGES = {"STR": "parry", "DEX": "dodge", "CON": "guard"}


def resolve_check_request(request: Doc, dice: DiceSource) -> CheckResult:
    """NV3 ``check`` (NS1, NS2, NS3, NS7, NR9, NX6): ``actor`` makes a check
    of a ``skill`` (its stat, NS2) or a ``stat``, or a save (``save: true``
    with ``stat``) against ``dc`` with the roll keys: d20 (two with
    advantage or disadvantage) + effective stat + PROF if proficient (the
    skill, or the save) + bonuses. A STR, DEX or CON save spends one Parry,
    Dodge or Guard charge held and rolls with advantage (NR9). A dead or KO
    actor is refused (``actor_dead``, ``actor_ko``) before any die."""
    from .model import Refusal

    reading = read(request)
    actor = named(reading, request["actor"], "actor", "request actor")
    skill, save = request.get("skill"), bool(request.get("save", False))
    if (skill is None) == (request.get("stat") is None) or (save and skill is not None):
        raise DocumentError("bad_input", "NV3", "request skill",
                            "give exactly one of skill and stat (a save names its stat)")
    if actor.dead:
        raise Refusal("actor_dead", "NK12", f"{actor.id} is dead and cannot act")
    if actor.ko:
        raise Refusal("actor_ko", "NK1", f"{actor.id} is KO and cannot act")
    stat = SKILL_STATS[skill] if skill is not None else request["stat"]
    keys = RollKeys(bool(request.get("advantage", False)),
                    bool(request.get("disadvantage", False)),
                    tuple(b["value"] for b in request.get("bonuses", ())))
    charge = SAVE_CHARGES.get(stat) if save else None
    if charge is not None and actor.charges.of(charge) > 0:
        reading.log.note("NR9", f"{actor.id} spends a {charge} charge on its {stat} save: "
                         "advantage")
        keys = RollKeys(True, keys.disadvantage, keys.bonuses)
        reading.after[actor.id] = replace(actor, charges=replace(
            actor.charges, **{charge: actor.charges.of(charge) - 1}))
    else:
        if save:
            reading.log.note("NR9", f"{actor.id}: no charge held answers its {stat} save")
        charge = None
    proficient = stat in actor.proficient_saves if save else skill in actor.proficient_skills
    if proficient:
        reading.log.note("NS7", f"{actor.id}: PROF {actor.prof}")
    check = skill_check(actor, skill, stat, request["dc"], keys, dice, reading.options,
                        reading.log, proficient=proficient)
    return _result(CheckResult, "check", reading, actor=actor.id, stat=stat, skill=skill,
                   save=save, faces=check.faces, natural=check.natural, total=check.total,
                   dc=check.dc, success=check.success, charge=charge,
                   crit_fail=check.crit_fail)
