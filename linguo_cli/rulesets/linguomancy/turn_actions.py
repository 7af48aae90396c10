"""The attack and cast steps of a turn (P1, P5, P6 and, through them, the
d20, damage and casting rules: D1-D5, A1-A4, T1-T5, R1-R3, H1-H7, F1-F5, S3).

Each is a step function ``(engine, eid, step) -> StepDetail`` like those of
:mod:`.turn_steps`; the dice come from ``engine.dice`` in the order of the
rules they call (an attack: its d20 test, then its damage dice).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from linguo_cli.core.dice import DiceExpression
from linguo_cli.core.dice import parse as parse_dice
from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.core.evolve import evolve
from linguo_cli.rulesets.linguomancy import abilities as abilities_
from linguo_cli.rulesets.linguomancy import damage as damage_
from linguo_cli.rulesets.linguomancy import idioms as idioms_
from linguo_cli.rulesets.linguomancy import requests as requests_
from linguo_cli.rulesets.linguomancy import ticks as ticks_
from linguo_cli.rulesets.linguomancy.checks import resolve_test
from linguo_cli.rulesets.linguomancy.model import Entity, Maintained
from linguo_cli.rulesets.linguomancy.ticks import Tick
from linguo_cli.rulesets.linguomancy.turn_results import StepDetail
from linguo_cli.rulesets.linguomancy.turn_rules import (
    ATTACK_AP,
    CAST_AP,
    COMPLEX_CAST_AP,
    hands_free,
)

if TYPE_CHECKING:
    from linguo_cli.rulesets.linguomancy.turn_engine import TurnEngine


def detail_of(out: Mapping[str, Any]) -> StepDetail:
    """An attack's or cast's step detail from its keys (``events`` as a tuple;
    the other values as the rules gave them)."""
    fields = dict(out)
    fields["events"] = tuple(fields.get("events", ()))
    return StepDetail(**fields)


def _damage_tick(spec: Mapping[str, Any], expr: DiceExpression, where: str) -> Tick:
    """The damage tick of an attack's damage: the one named, else the first
    tick (T1 order) whose range holds the dice's expected value (T3)."""
    if spec.get("tick"):
        return ticks_.get_tick(str(spec["tick"]), healing=False, field=f"{where}.tick")
    found = ticks_.conforming_ticks(expr)
    if not found:
        raise InputError(Diagnostic(
            "request", f"{where}.dice",
            f"no damage tick holds the expected value {expr.expected_value()} of "
            f"{expr.text()}: name the tick (T1, T3)"))
    return found[0]


def refuse_nonlethal(engine: TurnEngine, e: Entity, what: str) -> None:
    """H5 rev. 2: in a turn only a player may declare its damage nonlethal;
    :class:`RulesError` (exit 4, H5, at ``turn T, step S``) for an attack or
    cast by an entity whose ``kind`` is not ``player``."""
    if e.kind != "player":
        raise engine.illegal("H5", f"{e.id} is a {e.kind}, not a player: its {what} may not be "
                                   "nonlethal (only players may spare a foe)",
                             entity=e.id, kind=e.kind)


def _check_attack_inputs(engine: TurnEngine, e: Entity, st: Mapping[str, Any]) -> int:
    """What an attack step's input must satisfy before anything happens:
    the attack ``ability`` and ``damage.ability`` are the entity's
    (:class:`InputError` at the step's field), ``damage.ability`` is
    Potential (T4 rev. 2), a nonlethal attack is a player's (H5 rev. 2).
    Returns the Potential modifier multiplied by the damage tick (0 when
    ``damage.ability`` is absent)."""
    where = engine.where("")
    if st.get("ability") and e.ability(str(st["ability"])) is None:
        raise InputError(Diagnostic("request", where + "ability",
                                    f"{e.id} has no {st['ability']} modifier (D6)"))
    spec = st.get("damage") or {}
    ability = spec.get("ability")
    if ability is not None:
        abilities_.check_multiplied(str(ability), field=where + "damage.ability")
    if spec.get("nonlethal"):
        refuse_nonlethal(engine, e, "attack")
    if not ability:
        return 0
    found = e.ability(str(ability))
    if found is None:
        raise InputError(Diagnostic("request", where + "damage.ability",
                                    f"{e.id} has no {ability} modifier"))
    return found


def _attack(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """An attack step (P1: 2 action points unless given): a d20 attack roll
    against the target's ``ac`` (D1-D5, A1-A4; condition advantage and
    disadvantage on attacks, C2), then on a hit the damage roll (T1-T5) applied
    to the target (R1-R3, H1, H4, H5, H7). Only Potential is multiplied by
    the damage tick (T4 rev. 2); only a player's attack may be nonlethal (H5
    rev. 2)."""
    where = engine.where("")
    e = engine.entities[eid]
    engine.require_able(e, "attack")
    tid = str(st["target"])
    engine.entity(tid, where + "target")
    modifier = _check_attack_inputs(engine, e, st)
    e = engine.spend_ap(e, engine.step_ap(st, ATTACK_AP), f"attack on {tid}")
    e = engine.spend_hands(e, int(st.get("hands", 0)), "attack")
    engine.put(e)
    target = engine.entities[tid]
    eff = engine.effects(e)
    req: dict[str, Any] = {
        "kind": "attack", "ac": target.ac, "modifiers": list(st.get("modifiers") or []),
        "advantage": bool(st.get("advantage")) or "attack" in eff.advantage,
        "disadvantage": bool(st.get("disadvantage")) or "attack" in eff.disadvantage,
        "partial_success_hits": bool(st.get("partial_success_hits")),
        "entity": {"abilities": dict(e.abilities)},
    }
    for kind in ("advantage", "disadvantage"):
        if "attack" in getattr(eff, kind):
            engine.log.note("C2", f"{kind} on the attack from {engine.by(e, kind)}")
    if st.get("ability"):
        req["ability"] = st["ability"]
    test = requests_.build_test(req)
    spec = st.get("damage")
    expr = parse_dice(str(spec["dice"]), field=where + "damage.dice") if spec else None
    tick = _damage_tick(spec, expr, where + "damage") if spec and expr else None
    out: dict[str, Any] = {"target": tid}
    if engine.check_only:
        engine.log.note("A1", f"attack on {tid}: not rolled (check only)")
        out["events"] = [f"attacks:{tid}"]
        return detail_of(out)
    result = resolve_test(test, engine.dice)
    engine.log.extend(result.steps)
    roll = result.as_dict()
    roll.pop("rules", None)
    roll.pop("explanation", None)
    out["attack"] = roll
    events = [f"attacks:{tid}", "critical_hit" if result.critical_hit else
              "hit" if result.hit else "critical_miss" if result.critical_miss else "miss"]
    if result.hit and spec and expr is not None and tick is not None:
        amount = damage_.roll_amount(
            expr, tick=tick, ability_modifier=modifier,
            modifiers=requests_.modifiers_from(spec.get("modifiers")),
            critical=bool(result.critical_hit), dice=engine.dice)
        engine.log.extend(amount.steps)
        new, rep = damage_.apply_damage(
            engine.entities[tid], int(amount.amount or 0), damage_type=spec.get("type"),
            critical=bool(result.critical_hit), nonlethal=bool(spec.get("nonlethal")))
        engine.log.extend(rep.steps)
        engine.put(new, *rep.events)
        out["damage"] = amount.as_dict()
        out["target_report"] = rep.as_dict()
        events.extend(f"{tid}:{ev}" for ev in rep.events)
    out["events"] = events
    return detail_of(out)


def _cast_idiom(engine: TurnEngine, name: str) -> idioms_.Idiom:
    """The idiom a cast step names; :class:`RulesError` (F1, placed at the
    step) when the idiom catalog lacks it."""
    idiom = engine.idioms.get(name)
    if idiom is None:
        raise engine.illegal("F1", f"unknown idiom {name!r}: not in the idiom catalog "
                                   f"({engine.idioms.name})", idiom=name)
    return idiom


def _cast_ap(engine: TurnEngine, st: Mapping[str, Any], idiom: idioms_.Idiom
             ) -> tuple[int, str]:
    """Action points of a cast step and why (P1): the step's own
    ``action_points``, else the idiom's own cost, else 3 for a complex idiom
    and 2 for any other."""
    if "action_points" in st:
        return engine.step_ap(st, CAST_AP), "given by the step"
    if idiom.own_action_points is not None:
        return idiom.own_action_points, "the idiom's own cost"
    if idiom.complex:
        return COMPLEX_CAST_AP, "complex idiom"
    return CAST_AP, "casting an idiom"


def _cast(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """A cast step: the idiom's action points (P1: its own cost, else 3 when
    complex, else 2), its Hand cost (P5; a maintainable idiom keeps those Hand
    points as long as it is maintained, P6), then :func:`flux.resolve_cast`
    (F1-F5, S3 and the effect's tests, damage or healing). With
    ``check_only`` only the cost is settled (:func:`flux.plan_cast`) and the
    Flux spent, maintaining and any overclocking consequence applied; no die
    is rolled."""
    from linguo_cli.core.results import to_plain
    from linguo_cli.rulesets.linguomancy import flux as flux_

    e = engine.entities[eid]
    engine.require_able(e, "cast")
    if st.get("nonlethal"):
        refuse_nonlethal(engine, e, "cast")
    idiom = _cast_idiom(engine, str(st["idiom"]))
    ap, why = _cast_ap(engine, st, idiom)
    e = engine.spend_ap(e, ap, f"casting {idiom.name} ({why})")
    hands = idiom.hand_cost
    free = hands_free(e, engine.costs(e))
    if hands > free:
        raise engine.illegal("P5", f"casting {idiom.name} needs {hands} Hand point(s), "
                                   f"{eid} has {free} free", needed=hands, left=free)
    if hands and not idiom.maintainable:  # back at the next start of turn (P5)
        e = engine.spend_hands(e, hands, f"casting {idiom.name}")
    engine.put(e)
    modifiers = requests_.modifiers_from(st.get("modifiers"))
    kwargs: dict[str, Any] = {
        "caster": eid, "idiom": idiom, "upcast": int(st.get("upcast", 0)),
        "overclock": bool(st.get("overclock")),
        "adjectives": list(st.get("adjectives") or ()),
    }
    out: dict[str, Any] = {"idiom": idiom.name}
    if engine.check_only:
        plan = flux_.plan_cast(e, idiom, upcast=kwargs["upcast"],
                               overclock=kwargs["overclock"],
                               adjectives=kwargs["adjectives"], catalog=engine.catalog)
        engine.log.extend(plan.steps)
        e = evolve(e, flux=plan.flux_after)
        events = ["casts"]
        check = flux_.check_hands(e, idiom, free)  # P6: maintained only with Hand points left
        engine.log.extend(check.steps)
        if check.maintaining:
            e = evolve(e, maintained=e.maintained + (Maintained(idiom.name),))
            events.append("starts_maintaining")
        elif hands and idiom.maintainable:  # not maintained: spent like any cast's (P5)
            e = engine.spend_hands(e, hands, f"casting {idiom.name}")
        if plan.overclocked:
            e, cons = flux_.apply_overclock(e, plan.missing, catalog=engine.catalog,
                                            source=f"overclocking {idiom.name}")
            engine.log.extend(cons.steps)
            events.extend(cons.events)
        engine.log.note("F1", f"{idiom.name}: effect not resolved (check only)")
        engine.put(e, *events)
        out.update(final_cost=plan.final_cost, overclocked=plan.overclocked,
                   missing=plan.missing, events=events)
        return detail_of(out)
    new, result = flux_.resolve_cast(
        dict(engine.entities), targets=list(st.get("targets") or ()), modifiers=modifiers,
        amount_modifiers=requests_.modifiers_from(st.get("amount_modifiers")),
        advantage=bool(st.get("advantage")), disadvantage=bool(st.get("disadvantage")),
        partial_success_hits=bool(st.get("partial_success_hits")),
        nonlethal=bool(st.get("nonlethal")), dice=engine.dice, conditions=engine.catalog,
        hands_free=free, **kwargs)
    engine.log.extend(result.explanation)
    events = []
    for tid, rep in result.entities.items():
        engine.put(new[tid], *rep.events)
        events.extend(ev if tid == eid else f"{tid}:{ev}" for ev in rep.events)
    for tid, ent in new.items():
        engine.entities[tid] = ent
    if hands and idiom.maintainable and not result.maintained \
            and not engine.entities[eid].dead:
        # not maintained (P6): the cast's own Hand points are spent until the next turn;
        # a maintained idiom holds them instead (charged again at each later start, P6)
        engine.put(engine.spend_hands(engine.entities[eid], hands, f"casting {idiom.name}"))
    cast = {k: v for k, v in to_plain(result).items()
            if k not in ("rules", "explanation", "state")}
    out.update(cast=cast, events=events)
    return detail_of(out)


def attack(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """An ``attack`` step: see :func:`_attack`."""
    return _attack(engine, eid, st)


def cast(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> StepDetail:
    """A ``cast`` step: see :func:`_cast`."""
    return _cast(engine, eid, st)
