"""Flux: casting an idiom (F1-F5, S3), in phases, and the ``cast`` request.

:func:`resolve_cast` runs a cast as six small phases over one working
:class:`_Cast`:

1. **plan** (:func:`_plan`): legality and cost
   (:func:`~linguo_cli.rulesets.linguomancy.cast_plan.plan_cast`: F1, F3,
   F4), the Hand points (P5), the multiplied ability (T4), the targets and
   the upcast dice's conformity (T3);
2. **pay** (:func:`_pay`): the Flux spent (all of it when overclocking);
3. **test** (:func:`_test`): the save DC (S3) and the d20 tests (the attack
   roll, or each target's saving throw in target order);
4. **effect** (:func:`_effect`): one damage or healing roll shared by every
   target that takes it (T6), applied per target through
   :mod:`~linguo_cli.rulesets.linguomancy.hp`; a check bonus;
5. **overclock** (:func:`_overclock`): the consequence row (F4, F5);
6. **maintain** (:func:`_maintain`): a maintainable idiom starts being
   maintained (P6).

The result is a frozen :class:`CastResult` (JSON through
:func:`linguo_cli.core.results.to_plain`, keys in field order). Planning lives
in :mod:`~linguo_cli.rulesets.linguomancy.cast_plan`, overclocking in
:mod:`~linguo_cli.rulesets.linguomancy.overclock`; their public names are
re-exported here.

Dice order of a cast: the attack d20 (two with advantage or disadvantage
alone) or each target's save d20 in target order, then the damage or healing
dice (rolled once, and only when some target takes damage or healing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.core.evolve import evolve
from linguo_cli.core.results import OMIT
from linguo_cli.rulesets.linguomancy import conditions as conditions_
from linguo_cli.rulesets.linguomancy import idioms as idioms_
from linguo_cli.rulesets.linguomancy.amounts import Amount, roll_amount
from linguo_cli.rulesets.linguomancy.cast_plan import (
    CastPlan,
    HandCheck,
    check_amount_ability,
    check_hands,
    knows,
    one_off_hands_free,
    plan_cast,
    upcast_cap,
)
from linguo_cli.rulesets.linguomancy.cast_records import (
    REPORT_FIELDS,
    AttackOutcome,
    CastAdjective,
    CastDamage,
    CastEntity,
    CastHealing,
    CastResult,
    CheckBonus,
    SaveOutcome,
)
from linguo_cli.rulesets.linguomancy.checks import TestResult, resolve_test
from linguo_cli.rulesets.linguomancy.dying import die
from linguo_cli.rulesets.linguomancy.model import (
    Degree,
    Entity,
    Maintained,
    Modifier,
    state_fields,
)
from linguo_cli.rulesets.linguomancy.overclock import (
    DEATH_EXHAUSTION,
    MAX_COST,
    Consequence,
    DeathRecord,
    Gain,
    OverclockRow,
    apply_overclock,
    overclock_row,
    overclock_table,
    resolve_overclock_request,
)

__all__ = [
    "DEATH_EXHAUSTION", "MAX_COST", "REPORT_FIELDS", "CastPlan", "CastResult", "Consequence",
    "DeathRecord", "Gain", "HandCheck", "OverclockRow", "apply_overclock",
    "check_amount_ability", "check_hands", "die", "knows", "one_off_hands_free",
    "overclock_row", "overclock_table", "plan_cast", "resolve_cast", "resolve_cast_request",
    "resolve_overclock_request", "upcast_cap",
]

# ---------------------------------------------------------------------------
# The working cast


@dataclass(frozen=True, slots=True)
class _Options:
    """How the caller asks to cast (see :func:`resolve_cast`)."""

    targets: tuple[str, ...]
    modifiers: tuple[Modifier, ...]
    amount_modifiers: tuple[Modifier, ...]
    advantage: bool
    disadvantage: bool
    partial_success_hits: bool
    nonlethal: bool
    maintain: bool
    conditions: conditions_.Catalog


@dataclass
class _Cast:
    """One cast in progress: the entities (``out``, changed as phases go),
    the derivation, and what each phase found."""

    out: dict[str, Entity]
    caster: str
    idiom: idioms_.Idiom
    plan: CastPlan
    hands: HandCheck | None
    opts: _Options
    c0: Entity
    start: Mapping[str, Entity]
    log: Derivation = field(default_factory=Derivation)
    notes: list[str] = field(default_factory=list)
    events: dict[str, list[str]] = field(default_factory=dict)
    tested: dict[str, AttackOutcome | SaveOutcome] = field(default_factory=dict)
    took: dict[str, CastDamage | CastHealing] = field(default_factory=dict)
    takes: dict[str, tuple[bool, bool]] = field(default_factory=dict)  # (critical, halved)
    tests: list[Mapping[str, Any]] = field(default_factory=list)
    save_dc: int | None = None
    potential: int = 0

    def ability(self, name: str) -> int:
        """The caster's ``name`` modifier (D6: counted as 0, with a note, when
        not given)."""
        value = self.c0.ability(name)
        if value is None:
            self.log.note("D6", f"caster {self.c0.id} has no {name} modifier given: "
                                "counted as 0")
            return 0
        return value


def _fields(entity: Entity) -> dict[str, Any]:
    return state_fields(entity, REPORT_FIELDS)


def _test_dict(test: TestResult) -> dict[str, Any]:
    d = test.as_dict()
    d.pop("rules", None)
    d.pop("explanation", None)
    d["success"] = test.degree >= Degree.SUCCESS  # D1 rev. 2: the degree after D5
    return d


# ---------------------------------------------------------------------------
# Phase 1: plan


def _plan(entities: Mapping[str, Entity], caster: str, idiom: idioms_.Idiom, upcast: int,
          overclock: bool, adjectives: Sequence[str], hands_free: int | None,
          opts: _Options) -> _Cast:
    """Legality and cost (F1, F3, F4), Hand points (P5, P6), T4, the targets
    and T3 for the upcast dice; nothing changes yet."""
    if caster not in entities:
        raise InputError(Diagnostic("request", "caster", f"no entity with id {caster!r} "
                                                         "in the state"))
    c0 = entities[caster]
    plan = plan_cast(c0, idiom, upcast=upcast, overclock=overclock, adjectives=adjectives,
                     catalog=opts.conditions)
    work = _Cast(dict(entities), caster, idiom, plan, None, opts, c0, entities)
    work.log.extend(plan.steps)
    if hands_free is not None:
        work.hands = check_hands(c0, idiom, hands_free)
        work.log.extend(work.hands.steps)
    check_amount_ability(idiom)
    _check_targets(work)
    _check_upcast_dice(idiom, plan)
    return work


def _check_targets(work: _Cast) -> None:
    """Targets: in the state, each once, one for an attack, some exactly when
    the idiom has an effect on targets (exit 3 otherwise)."""
    targets, idiom = work.opts.targets, work.idiom
    for i, t in enumerate(targets):
        if t not in work.out:
            raise InputError(Diagnostic("request", f"targets[{i}]",
                                        f"no entity with id {t!r} in the state"))
        if t in targets[:i]:
            raise InputError(Diagnostic("request", f"targets[{i}]",
                                        f"target {t!r} is listed twice"))
    if idiom.test == "attack" and len(targets) != 1:
        raise InputError(Diagnostic("request", "targets",
                                    f"{idiom.name} makes an attack roll: give exactly one "
                                    f"target, not {len(targets)}"))
    if idiom.amount is not None and not targets:
        raise InputError(Diagnostic("request", "targets",
                                    f"{idiom.name} needs at least one target"))
    if idiom.amount is None and targets:
        raise InputError(Diagnostic("request", "targets",
                                    f"{idiom.name} has no effect on targets; give none"))


def _check_upcast_dice(idiom: idioms_.Idiom, plan: CastPlan) -> None:
    """T3: the dice of an upcast cast still conform to the idiom's tick."""
    part = idiom.amount
    if part is None or part.dice is None or not part.tick.has_range:
        return
    expr = idiom.dice_at(plan.upcast)
    assert expr is not None
    ev = expr.expected_value()
    if not part.tick.conforms(ev):
        raise RulesError(
            "T3", f"{idiom.name} upcast by {plan.upcast} rolls {expr.text()}, expected "
                  f"value {ev}, outside the {part.tick.title} tick's range "
                  f"{part.tick.range_text()}",
            {"dice": expr.text(), "expected_value": str(ev),
             "tick": part.tick.name, "upcast": plan.upcast})


# ---------------------------------------------------------------------------
# Phase 2: pay


def _pay(work: _Cast) -> None:
    """F1, F4: the caster's Flux after the cast (0 when overclocking)."""
    work.events[work.caster] = ["casts"]
    work.out[work.caster] = evolve(work.c0, flux=work.plan.flux_after)
    if work.plan.overclocked:
        work.events[work.caster].append("overclocks")


# ---------------------------------------------------------------------------
# Phase 3: test


def _test(work: _Cast, dice: DiceSource) -> None:
    """S3's save DC, then the d20 tests in target order: the attack roll
    (A1-A4, the caster's condition advantage) or each target's save (S1, S2;
    the target's condition advantage). Records who takes the effect."""
    idiom = work.idiom
    work.potential = work.ability("potential")
    if idiom.test == "save":
        work.save_dc = 10 + work.plan.final_cost + work.potential
        work.log.note("S3", f"idiom save DC = 10 + final cost {work.plan.final_cost} + "
                            f"Potential {work.potential:+d} = {work.save_dc}")
    for t in work.opts.targets:
        if idiom.test == "attack":
            _attack(work, t, dice)
        elif idiom.test == "save":
            _save(work, t, dice)
        else:
            work.takes[t] = (False, False)


def _attack(work: _Cast, t: str, dice: DiceSource) -> None:
    from linguo_cli.rulesets.linguomancy.requests import build_test

    ability = work.idiom.attack_ability
    mod = work.ability(ability)
    eff = work.opts.conditions.effects_for(work.c0)
    req: dict[str, Any] = {
        "kind": "attack", "ac": work.out[t].ac,
        "modifiers": [{"label": ability, "value": mod}]
        + [m.as_dict() for m in work.opts.modifiers],
        "advantage": work.opts.advantage or "attack" in eff.advantage,
        "disadvantage": work.opts.disadvantage or "attack" in eff.disadvantage,
        "partial_success_hits": work.opts.partial_success_hits}
    test = resolve_test(build_test(req), dice)
    work.log.extend(test.steps, prefix=f"attack on {t}: ")
    work.tests.append({"entity": t, **_test_dict(test)})
    work.tested[t] = AttackOutcome(
        "attack", test.hit if isinstance(test.hit, bool) else None, test.degree.label)
    if test.hit:
        work.takes[t] = (bool(test.critical_hit), False)


def _save(work: _Cast, t: str, dice: DiceSource) -> None:
    from linguo_cli.rulesets.linguomancy.requests import build_test

    idiom = work.idiom
    target = work.out[t]
    eff = work.opts.conditions.effects_for(target)
    req = {"kind": "save", "dc": work.save_dc, "ability": idiom.save_ability,
           "entity": {"abilities": dict(target.abilities)},
           "advantage": "save" in eff.advantage, "disadvantage": "save" in eff.disadvantage}
    test = resolve_test(build_test(req), dice)
    work.log.extend(test.steps, prefix=f"{t}'s save: ")
    work.tests.append({"entity": t, **_test_dict(test)})
    effect = _save_outcome(idiom, t, test.degree, work.log)
    work.tested[t] = SaveOutcome("save", test.degree >= Degree.SUCCESS, test.degree.label,
                                 effect)
    if effect != "none":
        work.takes[t] = (False, effect == "half")


def _save_outcome(idiom: idioms_.Idiom, target: str, degree: Degree, log: Derivation) -> str:
    """S1 rev. 2: what a save of ``degree`` leaves of the effect (``none``,
    ``half``, ``full``), with its explanation line."""
    effect = idiom.save_effect(degree)
    verdict = "saves" if degree >= Degree.SUCCESS else "does not save"
    source = ("the idiom's table by degree" if idiom.save_by_degree else
              "success and critical success save" if degree >= Degree.SUCCESS else
              "every degree below success takes the full effect")
    what = {"none": "no effect on it", "half": "half damage (rounded down)",
            "full": "the full effect"}[effect]
    log.note("S1", f"{target} {verdict} ({degree.title}): {what} ({source})")
    return effect


# ---------------------------------------------------------------------------
# Phase 4: effect


def _effect(work: _Cast, dice: DiceSource) -> tuple[Amount | None, CheckBonus | None]:
    """One damage or healing roll shared by every target that takes it (T6;
    a save's half rounded down, S1), applied per target (R1-R3, H1-H8 or
    H3/H8); a check bonus (F3). Returns the roll's record and the bonus."""
    idiom, part = work.idiom, work.idiom.amount
    amount = None
    if part is not None and work.takes:
        amount = _roll_and_apply(work, part, dice)
    elif part is not None:
        work.log.note("T6", "no target takes the effect: no damage or healing dice are rolled")
    bonus = _check_bonus(work)
    if part is None and idiom.check_bonus_to is None:
        work.log.note("F1", f"{idiom.name} has no effect the engine resolves: "
                            f"{idiom.effect_text or 'see its description'}")
    return amount, bonus


def _roll_and_apply(work: _Cast, part: idioms_.Amount, dice: DiceSource) -> Amount:
    from linguo_cli.rulesets.linguomancy import hp

    idiom, upcast = work.idiom, work.plan.upcast
    expr = idiom.dice_at(upcast)
    if upcast and idiom.upcast_dice is not None and part.dice is not None:
        work.log.note("F3", f"upcast by {upcast}: {part.dice.text()} + {upcast} x "
                            f"{idiom.upcast_dice.text()} = {expr.text() if expr else '-'}")
    healing = idiom.healing is not None
    ability_mod = work.ability("cohesion") if healing else work.potential
    critical = any(c for c, _ in work.takes.values())
    rolled = roll_amount(expr, tick=part.tick, ability_modifier=ability_mod,
                         modifiers=work.opts.amount_modifiers, critical=critical, dice=dice)
    work.log.extend(rolled.steps)
    if len(work.takes) > 1:
        work.log.note("T6", f"{len(work.takes)} targets share the one "
                            f"{'healing' if healing else 'damage'} roll")
    for t, (crit, halved) in work.takes.items():
        amt = rolled.amount
        if halved and amt is not None:
            work.log.note("S1", f"{t}: half of {amt} = {amt // 2} (rounded down)")
            amt = amt // 2
        if healing:
            new, rep = hp.apply_healing(work.out[t], amt, tick=part.tick)
            work.took[t] = CastHealing(amt, rep.details.healing, rep.details.hp_regained)
        else:
            new, rep = hp.apply_damage(work.out[t], int(amt or 0), damage_type=part.damage_type,
                                       critical=crit, nonlethal=work.opts.nonlethal)
            d = rep.details
            work.took[t] = CastDamage(amt, d.damage, d.damage_after_resistance,
                                      d.temp_hp_absorbed, d.hp_lost, d.leftover)
        work.out[t] = new
        work.log.extend(rep.steps, prefix=f"{t}: ")
        work.events.setdefault(t, []).extend(rep.events)
    return rolled.record()


def _check_bonus(work: _Cast) -> CheckBonus | None:
    idiom, upcast = work.idiom, work.plan.upcast
    if idiom.check_bonus_to is None:
        return None
    value = idiom.check_bonus_at(upcast)
    text = f"{idiom.check_bonus_to}: {value:+d}"
    if upcast and idiom.upcast_check_bonus:
        text += f" (base {idiom.check_bonus:+d} + {upcast} x {idiom.upcast_check_bonus:+d})"
    work.log.note("F3", f"check bonus to {text}; not stored in the state: add it to those "
                        "checks as a modifier")
    return CheckBonus(idiom.check_bonus_to, value)


# ---------------------------------------------------------------------------
# Phases 5 and 6: overclock, maintain


def _overclock(work: _Cast) -> Consequence | None:
    """F4, F5: the consequence row for the missing Flux points, applied to the
    caster after the idiom resolved."""
    if not work.plan.overclocked:
        return None
    new, oc = apply_overclock(work.out[work.caster], work.plan.missing,
                              catalog=work.opts.conditions,
                              source=f"overclocking {work.idiom.name}")
    work.out[work.caster] = new
    work.log.extend(oc.steps)
    work.notes.extend(oc.notes)
    work.events[work.caster].extend(oc.events)
    return oc.consequence


def _maintain(work: _Cast) -> tuple[bool, str | None]:
    """P6: a maintainable idiom is maintained unless the caster died, its
    Hand cost is not free after the cast's own, or it was not asked to be.
    Returns (maintained, why not)."""
    idiom, caster = work.idiom, work.out[work.caster]
    why = _not_maintained(idiom, caster, work.opts.maintain, work.hands)
    if idiom.maintainable and why is None:
        work.out[work.caster] = evolve(caster, maintained=caster.maintained
                                        + (Maintained(idiom.name),))
        work.events[work.caster].append("starts_maintaining")
        work.log.note("P6", f"{idiom.name} is maintainable: {work.caster} maintains it (Hand "
                            f"cost {idiom.hand_cost} at the start of each of its later turns)")
        return True, None
    if why is not None:
        work.log.note("P6", f"{idiom.name} is not maintained: {why}")
    return False, why


def _not_maintained(idiom: idioms_.Idiom, caster: Entity, maintain: bool,
                    hands: HandCheck | None) -> str | None:
    """Why a maintainable idiom is not maintained after its cast (P6), or
    ``None`` when it is (or when the idiom is not maintainable)."""
    if not idiom.maintainable:
        return None
    if caster.dead:
        return f"{caster.id} died"
    if hands is not None and not hands.maintaining:
        return hands.reason
    if not maintain:
        return "not asked to maintain it"
    return None


# ---------------------------------------------------------------------------
# The cast


def resolve_cast(
    entities: dict[str, Entity], *, caster: str, idiom: idioms_.Idiom, upcast: int = 0,
    overclock: bool = False, adjectives: Sequence[str] = (), targets: Sequence[str] = (),
    modifiers: Sequence[Modifier] = (), dice: DiceSource, conditions: conditions_.Catalog,
    amount_modifiers: Sequence[Modifier] = (), advantage: bool = False,
    disadvantage: bool = False, partial_success_hits: bool = False, nonlethal: bool = False,
    maintain: bool = True, hands_free: int | None = None,
) -> tuple[dict[str, Entity], CastResult]:
    """Cast ``idiom`` by entity ``caster`` of ``entities`` (by id).

    Phases, in order: plan (:func:`plan_cast`: F1, F3, F4; Hand points with
    ``hands_free`` given, P5, :func:`check_hands`; T4; targets; T3 for the
    upcast dice); pay (Flux spent, all of it when overclocking); test (the
    save DC, 10 + final cost + caster's Potential modifier, S3; one attack
    roll against the single target's AC with ``modifiers`` and the caster's
    ``attack`` advantage/disadvantage from ``advantage``/``disadvantage`` and
    its conditions, A1-A4, or each target's saving throw in target order, S1,
    S2, with the target's conditions; what each degree after D5 leaves is
    :meth:`Idiom.save_effect`, S1 rev. 2); effect (one damage roll, T3-T5,
    ``amount_modifiers`` flat, only Potential multiplied, T4 rev. 2, or
    healing roll, T7, shared by every target that takes it, T6: a hit, a save
    leaving the full effect, or one leaving half, rounded down; then per
    target R1-R3 and H1-H8, ``nonlethal`` whoever casts: the GM's call, H5,
    or H3/H8 for healing; a check-bonus idiom reports its bonus, base +
    upcast x per point, without storing it); overclock (F4, F5, C1, C2);
    maintain (a maintainable idiom is added to the caster's maintained
    idioms when ``maintain``, the caster is still alive and, with
    ``hands_free`` given, its Hand cost is free after the cast's own, P6).
    ``hands_free``: Hand points free before the cast as the caller reads
    them (:func:`one_off_hands_free` for a one-off cast); ``None`` when the
    caller has settled Hand points itself (the turn engine).

    Returns the new entities (same order) and the :class:`CastResult`
    (``state`` left out). Raises :class:`RulesError` (exit 4) and
    :class:`InputError` (exit 3) before anything changes.
    """
    opts = _Options(tuple(targets), tuple(modifiers), tuple(amount_modifiers), advantage,
                    disadvantage, partial_success_hits, nonlethal, maintain, conditions)
    work = _plan(entities, caster, idiom, upcast, overclock, adjectives, hands_free, opts)
    _pay(work)
    _test(work, dice)
    amount, bonus = _effect(work, dice)
    consequence = _overclock(work)
    maintained, not_maintained = _maintain(work)
    return work.out, _result(work, amount, bonus, consequence, maintained, not_maintained)


def _result(work: _Cast, amount: Amount | None, bonus: CheckBonus | None,
            consequence: Consequence | None, maintained: bool,
            not_maintained: str | None) -> CastResult:
    plan, idiom = work.plan, work.idiom
    originals = {work.caster: work.c0, **{t: work.start[t] for t in work.opts.targets}}
    records = {eid: _record(work, eid, before) for eid, before in originals.items()}
    return CastResult(
        caster=work.caster, idiom=idiom.name, verb=idiom.verb, noun=idiom.noun,
        sample=idiom.sample, base_cost=plan.base_cost, upcast=plan.upcast,
        final_cost=plan.final_cost, cap=plan.cap, cap_set_by=plan.cap_set_by,
        cap_parts=dict(plan.cap_parts), cap_applies=plan.upcast > 0,
        flux_before=plan.flux_before, flux_after=work.out[work.caster].flux,
        flux_spent=plan.flux_before - plan.flux_after, overclocked=plan.overclocked,
        missing=plan.missing, consequence=consequence,
        adjectives=tuple(CastAdjective(a.name, a.effect) for a in plan.adjectives),
        action_points=idiom.action_points, hand_cost=idiom.hand_cost, complex=idiom.complex,
        maintainable=idiom.maintainable, maintained=maintained,
        not_maintained=not_maintained,
        hands_free=None if work.hands is None else work.hands.free, save_dc=work.save_dc,
        tests=tuple(work.tests), amount=amount, check_bonus=bonus, notes=tuple(work.notes),
        entities=records, rules=work.log.rules, explanation=tuple(work.log.steps))


def _record(work: _Cast, eid: str, before: Entity) -> CastEntity:
    took = work.took.get(eid)
    return CastEntity(_fields(before), _fields(work.out[eid]), tuple(work.events.get(eid, [])),
                      test=work.tested.get(eid, OMIT),
                      damage=took if isinstance(took, CastDamage) else OMIT,
                      healing=took if isinstance(took, CastHealing) else OMIT)


# ---------------------------------------------------------------------------
# Request handler


def resolve_cast_request(request: Mapping[str, Any], dice: DiceSource) -> CastResult:
    """Handler of kind ``cast`` (schemas/cast-request.schema.json): the state
    inline, ``caster``, ``idiom`` (a name of the catalog: inline ``idioms``
    or the default), ``upcast``, ``overclock``, ``adjectives``, ``targets``,
    ``modifiers`` (attack roll), ``amount_modifiers``, ``conditions``
    (inline catalog or the default), ``nonlethal`` (allowed whoever casts:
    the GM's call, H5 rev. 2), ``rolls``. An idiom missing from the catalog
    is refused with F1 (exit 4). Hand points are read from the state as at
    the start of a turn (:func:`one_off_hands_free`; P5, P6 rev. 2); action
    points are not checked. The result holds the whole ``state`` after."""
    from linguo_cli.rulesets.linguomancy.damage import state_after, state_entities
    from linguo_cli.rulesets.linguomancy.requests import modifiers_from

    catalog = idioms_.catalog_from_request(request.get("idioms"))
    cond = conditions_.catalog_from_request(request.get("conditions"))
    entities = state_entities(request["state"])
    name = str(request["idiom"])
    idiom = catalog.get(name)
    if idiom is None:
        raise RulesError("F1", f"unknown idiom {name!r}: not in the idiom catalog "
                               f"({catalog.name}); known: "
                               f"{', '.join(i.name for i in catalog.idioms) or 'none'}",
                         {"idiom": name})
    caster = str(request["caster"])
    free = one_off_hands_free(entities, caster, catalog) if caster in entities else None
    new, result = resolve_cast(
        entities, caster=caster, idiom=idiom, hands_free=free,
        upcast=int(request.get("upcast", 0)), overclock=bool(request.get("overclock")),
        adjectives=list(request.get("adjectives") or ()),
        targets=list(request.get("targets") or ()),
        modifiers=modifiers_from(request.get("modifiers")),
        amount_modifiers=modifiers_from(request.get("amount_modifiers")),
        advantage=bool(request.get("advantage")),
        disadvantage=bool(request.get("disadvantage")),
        partial_success_hits=bool(request.get("partial_success_hits")),
        nonlethal=bool(request.get("nonlethal")),
        dice=dice, conditions=cond)
    notes = _condition_notes(entities[caster], cond)
    if notes.steps:  # C2: the caster's conditions without an enforced effect, said first
        notes.extend(result.explanation)
        result = evolve(result, rules=notes.rules, explanation=tuple(notes.steps))
    return evolve(result, state=state_after(request["state"], new))


def _condition_notes(caster: Entity, catalog: conditions_.Catalog) -> Derivation:
    """C2 for a one-off cast: one line per condition the caster holds that
    has no enforced effect in ``catalog`` (or that it does not list); a turn
    says these at the start of the caster's turn instead."""
    log = Derivation()
    held = catalog.effects_for(caster)
    for name in held.unenforced + held.unknown:
        if note := catalog.note(name):
            log.note("C2", f"{caster.id}: {note}")
    return log
