"""What the steps of a script do, once paid for (NV4's step table).

Each function takes the world, the acting creature's id and the step, and
returns the step's NV5 ``result``. The one-off code does the work: an
``attack`` step is NO1 through :func:`..attack.resolve_attack` (one call per
attack roll), a ``dc_effect`` step NO2 through :func:`..effect.resolve_effect`,
a ``stabilize`` step NK7 through :func:`..recovery.stabilize`, checks NS2
through :func:`..recovery.skill_check`. Paying (NT4-NT7) is the caller's
(:mod:`.steps`). A forbidden action raises :class:`~..model.Refusal`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from linguo_cli.core.dice import DiceSource
from linguo_cli.core.results import to_plain

from ..attack import AttackOutcome, resolve_attack
from ..documents import attack_request
from ..effect import resolve_effect
from ..effect_documents import dc_effect_request
from ..model import AttackSpec, Refusal
from ..options import Options
from ..recovery import SKILL_STATS, RollKeys, skill_check, stabilize
from .timing import gain_condition
from .world import World

#: The keys of one attack roll a step passes to the ``attack`` request (NV4).
ROLL_KEYS = ("target", "distance", "band", "advantage", "disadvantage", "bonuses", "cover",
             "modifiers", "defense", "parry_stat", "parryable", "dodgeable", "guardable",
             "ignores_thp", "can_dismember", "location")
#: An attack resolver: NO1's :func:`..attack.resolve_attack` or NO6's.
Resolver = Callable[[AttackSpec, DiceSource, Options], AttackOutcome]
#: Keys of a step that belong to the script, not to the request it runs.
STEP_KEYS = ("kind", "before", "after", "pay", "free", "grants_ba", "aa_cost", "description")


def weapon_doc(world: World, cid: str, key: str | None) -> Mapping[str, Any]:
    """The weapon object ``key`` of ``cid`` with its ``base`` filled in (NV2)."""
    doc = world.doc(cid)
    if key is None:
        return {}
    w = (doc.get("weapons") or {})[key]
    base = w.get("base")
    return {**world.catalogs.get("weapons", {}).get(base, {}), **w} if base else w


def step_weapon(world: World, cid: str, step: Mapping[str, Any]) -> str | None:
    """NV4 ``weapon`` of an attack step: the equipped one or an unarmed strike
    (default: the equipped one, else the unarmed strike); another weapon is
    ``bad_input`` (raised as a Refusal-free :class:`DocumentError` by the
    validator, here only read)."""
    doc = world.doc(cid)
    if step.get("weapon") is not None:
        return str(step["weapon"])
    if doc.get("equipped") is not None:
        return str(doc["equipped"])
    return next((k for k, w in (doc.get("weapons") or {}).items() if w.get("unarmed")), None)


def _melee_aim_conditions(world: World, attacker: str, target: str,
                          effects: Mapping[str, Any] | None) -> None:
    """NM6's conditions gained on the target: Bleed (its stacks and value)
    and one Staggered stack, each with its catalog duration (NV2)."""
    if not effects:
        return
    entries = world.catalogs.get("conditions", {})
    bleed = effects.get("bleed")
    if bleed:
        gain_condition(world, target, "Bleed", stacks=bleed["stacks"], value=bleed["value"],
                       duration=(entries.get("Bleed") or {}).get("duration"), inflicter=attacker)
    if effects.get("staggered"):
        gain_condition(world, target, "Staggered",
                       duration=(entries.get("Staggered") or {}).get("duration"),
                       inflicter=attacker)


def one_attack(world: World, attacker: str, weapon: str | None,
               roll: Mapping[str, Any], resolve: Resolver = resolve_attack) -> Any:
    """One attack roll (NO1; NO6 with ``resolve`` an SC-based resolver) of
    ``attacker`` with its weapon key ``weapon`` at ``roll['target']``, on
    the current state; the Help pending on the attacker is spent (NT8), a
    melee Aim mark on that target used (NM6)."""
    request: dict[str, Any] = {"kind": "attack", "state": world.state,
                               "catalogs": world.request_catalogs, "attacker": attacker,
                               **{k: roll[k] for k in ROLL_KEYS if k in roll}}
    if weapon is not None:
        request["weapon"] = weapon
    spec, _options, key = attack_request(request)
    spec = replace(spec, second_chances=world.chances())
    outcome = resolve(spec, world.dice, world.options)
    world.log.extend(outcome.steps)
    world.store(outcome.attacker)
    world.store(outcome.target)
    world.set_chances(outcome.second_chances)
    for cid, events in outcome.events.items():
        for e in events:
            world.event(cid, e)
    if spec.helped:
        world.doc(attacker)["helped_by"] = None
    if spec.attacker.hidden is not None and outcome.attacker.hidden is not None:
        world.log.note("NT9", f"{attacker} attacks and stays hidden (hide_ends: when_found_only)")
    w = (world.doc(attacker).get("weapons") or {}).get(key or "", {})
    if w.get("melee_aim") == spec.target.id:
        w["melee_aim"] = None
    record = to_plain(outcome.record)
    _melee_aim_conditions(world, attacker, spec.target.id, record.get("melee_aim"))
    return record


def attack(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """An ``attack`` step: one roll, or ``attacks`` (one per roll)."""
    key = step_weapon(world, cid, step)
    rolls = step.get("attacks") or [step]
    return {"attacks": [one_attack(world, cid, key, r) for r in rolls]}


def dc_effect(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """A ``dc_effect`` step (NO2): the ``dc_effect`` request's keys, its
    source the actor."""
    request = {k: v for k, v in step.items() if k not in STEP_KEYS}
    request.update(kind="dc_effect", state=world.state, catalogs=world.request_catalogs,
                   source=cid)
    spec, _options = dc_effect_request(request)
    spec = replace(spec, second_chances=world.chances())
    outcome = resolve_effect(spec, world.dice, world.options)
    world.log.extend(outcome.steps)
    for old, new in zip(outcome.before, outcome.after, strict=True):
        world.store(new)
        for e in (*outcome.events.get(old.id, ()),):
            world.event(old.id, e)
    world.set_chances(outcome.second_chances)
    return {"dc": outcome.dc, "damage_rolls": to_plain(outcome.damage_rolls),
            "targets": to_plain(outcome.targets)}


def _keys(world: World, cid: str, step: Mapping[str, Any]) -> RollKeys:
    """NV3's roll keys, with the Help pending on ``cid`` (NT8): advantage,
    and the Help is spent."""
    doc = world.doc(cid)
    adv = bool(step.get("advantage", False))
    if doc.get("helped_by") is not None:
        world.log.note("NT8", f"{cid}'s Help from {doc['helped_by']} gives advantage and is "
                       "spent")
        doc["helped_by"] = None
        world.event(cid, "help_spent")
        adv = True
    return RollKeys(adv, bool(step.get("disadvantage", False)),
                    tuple(b["value"] for b in step.get("bonuses", ())))


def check(world: World, cid: str, skill: str, dc: int, step: Mapping[str, Any]) -> Any:
    """An NS2 check of ``skill`` by ``cid`` (Help spent, NT8)."""
    keys = _keys(world, cid, step)
    c = world.creature(cid)
    return skill_check(c, skill, SKILL_STATS[skill], dc, keys, world.dice, world.options,
                       world.log)


def _check_record(c: Any) -> dict[str, Any]:
    return {"actor": c.actor, "stat": c.stat, "skill": c.skill, "faces": list(c.faces),
            "natural": c.natural, "total": c.total, "dc": c.dc, "success": c.success,
            "crit_fail": c.crit_fail}


def investigate(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """NT10 Investigate: an Investigation (INT) check against the DM's DC."""
    world.log.note("NT10", f"{cid} investigates (Investigation against the DM's DC)")
    return _check_record(check(world, cid, "investigation", step["dc"], step))


def search(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """NT10 Search: a Perception check against the DM's DC; aimed at a
    hidden creature (NT9) it finds it on a success, or, under
    ``search_vs_hidden: stealth_compare``, iff the total is strictly greater
    than its Stealth total."""
    hidden_id = step.get("hidden_target")
    compare = hidden_id is not None and world.options.is_("search_vs_hidden", "stealth_compare")
    world.log.note("NT10", f"{cid} searches (Perception"
                   + (" against the Stealth total)" if compare else " against the DM's DC)"))
    result = check(world, cid, "perception", 0 if compare else step["dc"], step)
    record = _check_record(result)
    if hidden_id is None:
        return record
    hidden = world.doc(hidden_id).get("hidden")
    found = False
    if hidden is not None:
        found = result.total > hidden["stealth"] if compare else result.success
        world.log.note("NT9", f"{cid}'s Search " + ("finds " if found else "does not find ")
                       + hidden_id + (f" ({result.total} against Stealth {hidden['stealth']})"
                                      if compare else ""))
        if found and cid not in hidden.get("found_by", []):
            hidden["found_by"] = [*hidden.get("found_by", []), cid]
    if compare:
        record["success"] = found
        record["dc"] = None
    record["found"] = found
    return record


def hide(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """NT9 Hide: Stealth = d20 + DEX + PROF if proficient in Stealth; the
    creature is hidden, found by no one yet (passive Perception is compared
    when an enemy targets it)."""
    result = check(world, cid, "stealth", 0, step)
    world.doc(cid)["hidden"] = {"stealth": result.total, "found_by": []}
    world.log.note("NT9", f"{cid} hides: Stealth {result.total}")
    return {"actor": cid, "faces": list(result.faces), "natural": result.natural,
            "stealth": result.total}


def prepare(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """NR3: one charge of the kind; under ``charge_stacking: max_one`` a
    kind already held adds nothing (warning ``charge_at_max``)."""
    doc = world.doc(cid)
    kind = step["charge"]
    charges = {"parry": 0, "dodge": 0, "guard": 0, **(doc.get("charges") or {})}
    if charges[kind] >= 1 and world.options.is_("charge_stacking", "max_one"):
        world.log.note("NR3", f"{cid} already holds a {kind} charge (charge_stacking: max_one)")
        world.warnings.append({"code": "charge_at_max", "rule": "NR3", "place": ""})
        return {"charge": kind, "held": charges[kind], "added": 0}
    charges[kind] += 1
    doc["charges"] = charges
    world.log.note("NR3", f"{cid} prepares: {charges[kind]} {kind} charge(s)")
    return {"charge": kind, "held": charges[kind], "added": 1}


def help_(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """NT8 Help: the ally's next check or attack roll has advantage; a
    creature has one helper at a time (``already_helped``)."""
    target = world.doc(step["target"])
    if target.get("helped_by") is not None:
        raise Refusal("already_helped", "NT8",
                      f"{target['id']} already has a pending Help from {target['helped_by']}")
    target["helped_by"] = cid
    world.log.note("NT8", f"{cid} helps {target['id']}")
    return {"target": target["id"]}


def aim(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """NM2 ranged Aim: +1 stack on the weapon, at most 8 (an Aim at 8 adds
    nothing: warning ``aim_at_max``); NM6 melee Aim: a mark on a target whose
    movement is restricted (else ``target_not_restricted``)."""
    key = step.get("weapon") or step_weapon(world, cid, {})
    w = weapon_doc(world, cid, key)
    if w.get("kind") == "ranged":
        inst = world.doc(cid)["weapons"][key]
        stacks = inst.get("aim", 0)
        if stacks >= 8:
            world.warnings.append({"code": "aim_at_max", "rule": "NM2", "place": ""})
            world.log.note("NM2", f"{cid}'s {key} holds 8 Aim stacks: nothing is added")
        else:
            inst["aim"] = stacks + 1
            world.log.note("NM2", f"{cid}'s {key}: Aim {stacks} -> {stacks + 1}")
        return {"weapon": key, "aim": inst.get("aim", 0)}
    target = world.doc(step["target"])
    restricting = {n for n, e in world.catalogs.get("conditions", {}).items()
                   if e.get("restricts_movement")}
    held = {c["name"] for c in target.get("conditions") or ()} & restricting
    if not held:
        raise Refusal("target_not_restricted", "NM6",
                      f"{target['id']}'s movement is not restricted")
    world.doc(cid)["weapons"][key]["melee_aim"] = target["id"]
    world.log.note("NM6", f"{cid} takes melee Aim at {target['id']} ({', '.join(sorted(held))})")
    return {"weapon": key, "target": target["id"]}


def interact(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """NT10 Interact (narrative); ``equip`` changes the equipped weapon (its
    Aim stacks are lost under ``aim_on_unequip: lost``, NM2)."""
    doc = world.doc(cid)
    if "equip" in step:
        old = doc.get("equipped")
        if old is not None and old != step["equip"] and world.options.is_(
                "aim_on_unequip", "lost") and doc["weapons"][old].get("aim", 0):
            doc["weapons"][old]["aim"] = 0
            world.log.note("NM2", f"{cid} unequips {old}: its Aim stacks are lost")
        elif old is not None and old != step["equip"]:
            world.log.note("NM2", f"{cid} unequips {old}: its Aim stacks stay on it")
        doc["equipped"] = step["equip"]
        world.log.note("NT10", f"{cid} equips {step['equip'] or 'nothing (unarmed)'}")
    else:
        world.log.note("NT10", f"{cid} interacts: {step.get('note', '')}".rstrip(": "))
    return {"equipped": doc.get("equipped"), "note": step.get("note")}


def stabilize_step(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """NK7 through :func:`..recovery.stabilize`: a Medicine check against
    ``dc``; success stabilizes a KO target."""
    keys = _keys(world, cid, step)
    target = world.creature(step["target"])
    after, result, now = stabilize(world.creature(cid), target, step["dc"], keys, world.dice,
                                   world.options, world.log)
    world.store(after)
    if now:
        world.event(after.id, "stabilized")
    return {**_check_record(result), "stabilized": now}


def spend(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """NS9: an ``ability`` step's ``spend`` (resource to count); more than
    held is ``resource_insufficient`` (nothing is spent)."""
    doc = world.doc(cid)
    held = doc.get("resources") or {}
    wanted = step.get("spend") or {}
    for name, count in wanted.items():
        if count > held.get(name, 0):
            raise Refusal("resource_insufficient", "NS9",
                          f"{cid} holds {held.get(name, 0)} {name}, {count} needed")
    if wanted:
        doc["resources"] = {**held, **{n: held.get(n, 0) - c for n, c in wanted.items()}}
        world.log.note("NS9", f"{cid} spends " + ", ".join(f"{c} {n}" for n, c in
                                                           wanted.items()))
    return {"name": step.get("name"), "spent": dict(wanted)}
