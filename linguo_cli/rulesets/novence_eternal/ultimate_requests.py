"""The NV3 request kinds ``ultimate`` (NU4, NU6) and ``meditate`` (NT12,
NU3) with their typed NV5 results.

Both name an ``actor``: an id of the request's ``state``, or without state
an inline combatant object (id ``actor`` by default; the shared ``zp`` then
stands at the request's top level). Both answer ``combatants`` (``{id:
{before, after, events}}``, ``before``/``after`` with ``up`` and
``conditions``) and ``state`` (the state after, NV5, with the NU keys
written out). A dead or KO actor is refused (``actor_dead``, NK12;
``actor_ko``, NK1) before any die, then an Ultimate by NU6's requirements
(``ultimate_used``, ``zenith_too_low``, ``up_insufficient``). Faults:
:class:`~.documents.DocumentError` (exit 3), ``OptionError``
(``bad_option``), :class:`~.model.Refusal` (exit 4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from linguo_cli.core.derivation import Derivation, Step, rules_of
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.results import to_plain

from .documents import Doc, DocumentError
from .model import Creature, Refusal
from .options import Options
from .recovery import RollKeys, skill_check
from .recovery_requests import _state_checks
from .zenith import (
    Cast,
    Ultimate,
    UpGain,
    cast,
    check_cast,
    grant_up,
    meditate_gain,
    meter_of,
    roman,
    zenith_level,
)
from .zenith_documents import (
    Working,
    combatants_record,
    state_after,
    ultimate_of,
    working,
    write_back,
)

RULESET_NAME = "novence-eternal"
#: NR9: the charge that answers a save of each stat.
SAVE_CHARGES = {"STR": "parry", "DEX": "dodge", "CON": "guard"}


@dataclass(frozen=True, slots=True)
class UltimateResult:
    """NV5 ``ultimate``: ``actor``, ``name``, ``up_before``, ``up_after``
    (0, NU6), ``zp_before``, ``zp_after``, ``level_before``,
    ``level_after`` (the meter that counts for the actor, NU4), ``effects``
    (one ``{kind: up, target, faces, bonus, gained, lost, up_after}`` per
    target of each ``up`` event, in order), ``combatants`` and ``state``."""

    kind: str = "ultimate"
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    actor: str = ""
    name: str = ""
    up_before: int = 0
    up_after: int = 0
    zp_before: int = 0
    zp_after: int = 0
    level_before: int = 0
    level_after: int = 0
    effects: tuple[Any, ...] = ()
    combatants: Mapping[str, Any] = field(default_factory=dict)
    state: Mapping[str, Any] = field(default_factory=dict)
    rolls_used: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MeditateResult:
    """NV5 ``meditate``: ``actor``; ``debuffs`` (``[{name, stacks_before,
    stacks_after, save: {dc, faces, total, success, charge} or null}]``,
    the mental debuffs Meditate worked on, in the state's order);
    ``up_gain`` (``{faces, bonus, gained, lost, up_after}``, NU3);
    ``combatants`` and ``state``."""

    kind: str = "meditate"
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    actor: str = ""
    debuffs: tuple[Any, ...] = ()
    up_gain: Mapping[str, Any] = field(default_factory=dict)
    combatants: Mapping[str, Any] = field(default_factory=dict)
    state: Mapping[str, Any] = field(default_factory=dict)
    rolls_used: tuple[int, ...] = ()


def _actor(request: Doc) -> tuple[Working, str, Creature]:
    w, (cid,) = working(request, [(request.get("actor"), "actor", "request actor")])
    w.touch(cid)
    actor = w.creature(cid)
    _state_checks(actor, w.options)
    return w, cid, actor


def able(actor: Creature) -> None:
    """The actor's state first (refusal codes): ``actor_dead`` (NK12), then
    ``actor_ko`` (NK1); raises :class:`~.model.Refusal`."""
    if actor.dead:
        raise Refusal("actor_dead", "NK12", f"{actor.id} is dead and cannot act")
    if actor.ko:
        raise Refusal("actor_ko", "NK1", f"{actor.id} is KO and cannot act")


def cast_ultimate(state: dict[str, Any], doc: dict[str, Any], ultimate: Ultimate,
                  options: Options, log: Derivation) -> Cast:
    """NU6 on the combatant object ``doc`` of ``state`` (both changed in
    place), the actor already able to act: its requirements in order
    (:func:`~.zenith.check_cast`, raising :class:`~.model.Refusal`), then UP
    = 0, the name added to ``ultimates_used`` and ZP += the Ultimate's ZP
    (the state's, or the actor's under ``zenith_meter: per_creature``, NU4).
    The ``ultimate`` request and the script's ``ultimate`` step use it."""
    used = ultimate.name in doc.get("ultimates_used", [])
    zp = meter_of(state, doc, options)
    up = int(doc.get("up", 0))
    _meter_note(log, options, zp)
    check_cast(ultimate, used, zenith_level(zp), up)
    done = cast(ultimate, up, zp, log)
    doc["up"] = 0
    doc["ultimates_used"] = [*doc.get("ultimates_used", []), ultimate.name]
    if options.is_("zenith_meter", "per_creature"):
        doc["zp"] = done.zp_after
    else:
        state["zp"] = done.zp_after
    return done


def _up_targets(w: Working, effects: Any) -> list[tuple[str, int]]:
    """The ``up`` events of ``effects`` as ``(target id, amount)``, checked
    before any die (targets are ids of the state)."""
    out = []
    for e, event in enumerate(effects or (), start=1):
        for t, target in enumerate(event["targets"], start=1):
            if target not in w.by_id:
                raise DocumentError("bad_input", "NV4", f"request effects.{e}.targets.{t}",
                                    f"no combatant {target!r}")
            out.append((target, event["amount"]))
    return out


def resolve_ultimate_request(request: Doc, dice: DiceSource | None = None) -> UltimateResult:
    """NV3 ``ultimate`` (NU6, NU4, NU1, NU5): ``actor`` casts the Ultimate
    ``name`` of the catalogs. Refused (exit 4) when the actor is dead or KO,
    then with NU6's first failing requirement. Effect: UP = 0, ZP += its ZP
    (the state's, or the actor's under ``zenith_meter: per_creature``), the
    level recomputed, the name added to ``ultimates_used``; then the
    ``effects`` (``up`` events: amount + 2 at Zenith IX, capped at 100). No
    die."""
    w, cid, actor = _actor(request)
    ultimate = ultimate_of(w.catalogs, request["name"])
    ups = _up_targets(w, request.get("effects"))
    able(actor)
    done = cast_ultimate(w.state, w.by_id[cid], ultimate, w.options, w.log)
    effects = [grant_up(w.state, w.touch(target), amount, w.options, w.log)
               for target, amount in ups]
    return UltimateResult(
        rules=_rules(w), explanation=tuple(w.log.steps), options=w.options.non_default(),
        actor=cid, name=ultimate.name, up_before=done.up_before, up_after=done.up_after,
        zp_before=done.zp_before, zp_after=done.zp_after, level_before=done.level_before,
        level_after=done.level_after, effects=tuple(effects),
        combatants=combatants_record(w), state=state_after(w))


def _meter_note(log: Derivation, options: Options, zp: int) -> None:
    log.note("NU4", f"Zenith meter {zp}: level {roman(zenith_level(zp))}"
             + (" (its own meter)" if options.is_("zenith_meter", "per_creature") else ""))


def _rules(w: Working) -> tuple[str, ...]:
    return tuple(dict.fromkeys(("NV3", *rules_of(w.log.steps), "NV5")))


def _debuff_choice(w: Working, request: Doc) -> str | None:
    """NT12's ``meditate_scope``: ``one`` needs ``debuff`` (missing_input),
    ``each`` refuses it (bad_input)."""
    one = w.options.is_("meditate_scope", "one")
    if one and "debuff" not in request:
        raise DocumentError("missing_input", "NV3", "request debuff",
                            "meditate_scope: one names the debuff")
    if not one and "debuff" in request:
        raise DocumentError("bad_input", "NV3", "request debuff",
                            "debuff is given only under meditate_scope: one")
    return request.get("debuff")


def _held(w: Working, cid: str) -> list[dict[str, Any]]:
    """The actor's conditions, each of a name the catalogs hold (bad_input)."""
    held = w.by_id[cid].get("conditions", [])
    for i, cond in enumerate(held, start=1):
        if cond["name"] not in w.catalogs["conditions"]:
            raise DocumentError("bad_input", "NV1", f"state combatants.{cid}.conditions.{i}.name",
                                f"no condition {cond['name']!r} in the catalogs")
    return [dict(c) for c in held]


def _save(w: Working, actor: Creature, stat: str, dc: int, dice: DiceSource
          ) -> tuple[Creature, dict[str, Any]]:
    """One Meditate save (NT12, NS2) of ``stat`` against ``dc``; a STR, DEX
    or CON save spends a matching charge held and rolls with advantage
    (NR9)."""
    charge = SAVE_CHARGES.get(stat)
    keys = RollKeys()
    if charge is not None and actor.charges.of(charge) > 0:
        w.log.note("NR9", f"{actor.id} spends a {charge} charge on its {stat} save: advantage")
        actor = replace(actor, charges=replace(actor.charges,
                                               **{charge: actor.charges.of(charge) - 1}))
        w.events[actor.id].append(f"charge:{charge}")
        keys = RollKeys(advantage=True)
    else:
        charge = None
    check = skill_check(actor, None, stat, dc, keys, dice, w.options, w.log,
                        proficient=stat in actor.proficient_saves)
    return actor, {"dc": dc, "faces": list(check.faces), "total": check.total,
                   "success": check.success, "charge": charge}


def _one_debuff(w: Working, actor: Creature, cond: dict[str, Any], dice: DiceSource
                ) -> tuple[Creature, dict[str, Any]]:
    """NT12 on one mental debuff: 2 or fewer stacks lose 1; 3 or more need a
    save against DC 20 + 5 x (stacks - 3), success losing 1."""
    stacks = int(cond.get("stacks", 1))
    name = cond["name"]
    save = None
    if stacks <= 2:
        after = stacks - 1
        w.log.note("NT12", f"{name}: {stacks} stack(s), no save: {after}")
    else:
        dc = 20 + 5 * (stacks - 3)
        stat = w.catalogs["conditions"][name]["save_ability"]
        w.log.note("NT12", f"{name}: {stacks} stacks: a {stat} save against DC "
                   f"20 + 5 x ({stacks} - 3) = {dc}")
        actor, save = _save(w, actor, stat, dc, dice)
        after = stacks - 1 if save["success"] else stacks
        w.log.note("NT12", f"{name}: " + (f"success: {after}" if save["success"]
                                          else f"failure: still {stacks}"))
    cond["stacks"] = after
    return actor, {"name": name, "stacks_before": stacks, "stacks_after": after, "save": save}


def resolve_meditate_request(request: Doc, dice: DiceSource) -> MeditateResult:
    """NV3 ``meditate`` (NT12, NU3, NU5, NU7): the actor's mental debuffs
    (every one, or under ``meditate_scope: one`` the one named), in the
    state's order, lose a stack (3 or more: on a save, NR9 charges
    included); a debuff at 0 stacks ends. Then 1 d4 + the Meditate Zenith
    bonuses of its meter's level (the level-VII d4 after it), capped at 100
    (NU1). A named debuff not held or not mental changes nothing; the UP
    dice are still rolled. Dice: the save d20s, then the d4s (NO7)."""
    w, cid, actor = _actor(request)
    chosen = _debuff_choice(w, request)
    _held(w, cid)  # the condition names are checked before the actor's state
    able(actor)
    debuffs, gain = meditate_on(w, cid, actor, chosen, dice)
    return MeditateResult(
        rules=_rules(w), explanation=tuple(w.log.steps), options=w.options.non_default(),
        actor=cid, debuffs=tuple(debuffs), up_gain=to_plain(gain),
        combatants=combatants_record(w), state=state_after(w))


def meditate_on(w: Working, cid: str, actor: Creature, chosen: str | None,
                dice: DiceSource) -> tuple[list[dict[str, Any]], UpGain]:
    """NT12 then NU3 for ``actor`` (the combatant ``cid`` of ``w``, able to
    act): its mental debuffs (all, or only ``chosen``) in the state's order,
    then the UP gain; writes the combatant back. Returns the NV5
    ``debuffs`` and the ``up_gain``. The ``meditate`` request and the
    script's ``meditate`` step use it."""
    held = _held(w, cid)
    w.log.note("NT12", f"{cid} meditates" + (f" on {chosen}" if chosen else ""))
    debuffs, kept = [], []
    for cond in held:
        entry = w.catalogs["conditions"][cond["name"]]
        if entry.get("mental") and chosen in (None, cond["name"]):
            actor, record = _one_debuff(w, actor, cond, dice)
            debuffs.append(record)
            if cond["stacks"] == 0:
                w.events[cid].append(f"condition_ends:{cond['name']}")
                continue
        kept.append(cond)
    if chosen is not None and not debuffs:
        w.log.note("NT12", f"{chosen} is not a mental debuff {cid} holds: nothing changes")
    doc = w.by_id[cid]
    write_back(doc, actor)
    doc["conditions"] = kept
    zp = meter_of(w.state, doc, w.options)
    _meter_note(w.log, w.options, zp)
    gain: UpGain = meditate_gain(int(doc.get("up", 0)), zenith_level(zp), w.options, dice,
                                 w.log, who=cid)
    doc["up"] = gain.up_after
    return debuffs, gain
