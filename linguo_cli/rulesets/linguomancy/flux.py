"""Flux: casting an idiom, upcasting caps and overclocking (F1-F5, S3).

* :func:`plan_cast` settles what a cast costs and whether it is legal:
  final cost = base cost + upcast (Flux points); the upcast cap
  min(Expertise in the idiom's Noun, Wordsmithing Level, 10) limits upcasts
  only (F3); a final cost above 10 is refused (F3, F4); short of Flux the cast
  is illegal unless overclocked (F4); Adjectives are refused when
  overclocking, and only when the cast actually overclocks (F4 rev. 2).
* :func:`resolve_cast` spends the Flux, resolves the idiom's effect with the
  d20 tests and the damage module (attack roll or each target's saving throw
  against the save DC of S3, then one damage or healing roll shared by every
  target, T6), then applies the overclocking consequence (F4, F5).
* :func:`apply_overclock` applies one row of the overclocking table
  (``linguo_cli/rulesets/linguomancy/data/overclock.json``): conditions with durations (C1),
  Exhaustion tiers (6 or more is death, F5), Unconscious, death with its kind.

Dice order of a cast: the attack d20 (two with advantage or disadvantage
alone) or each target's save d20 in target order, then the damage or healing
dice (rolled once, and only when some target takes damage or healing).

Pure: entities are frozen and returned anew. Request handlers of kinds
``cast`` and ``overclock`` are at the end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import DiceSource, ScriptedDice
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.rulesets.linguomancy import conditions as conditions_
from linguo_cli.rulesets.linguomancy import idioms as idioms_
from linguo_cli.rulesets.linguomancy import packaged
from linguo_cli.rulesets.linguomancy.checks import TestResult, resolve_test
from linguo_cli.rulesets.linguomancy.model import (
    Degree,
    Entity,
    Maintained,
    Modifier,
    modifiers_from,
)

#: Highest final cost of any cast (F3, F4).
MAX_COST = 10

#: Entity fields listed in a cast's per-entity ``before``/``after``.
REPORT_FIELDS: tuple[str, ...] = (
    "hp", "temp_hp", "conditions", "death_saves", "dead", "death",
    "flux", "exhaustion", "maintained",
)

#: Exhaustion tiers at which an entity dies (F5).
DEATH_EXHAUSTION = 6


# ---------------------------------------------------------------------------
# The overclocking table (F4)


@dataclass(frozen=True, slots=True)
class OverclockRow:
    """One row of the F4 table: ``missing`` Flux points, its ``text``, the
    ``conditions`` gained as ``(name, turns)`` (turns ``None`` = no duration),
    the ``exhaustion`` tiers gained, and a direct death ``(cause,
    resurrection)`` or ``None`` (row 8 kills through its 6 tiers, F5)."""

    missing: int
    text: str
    conditions: tuple[tuple[str, int | None], ...] = ()
    exhaustion: int = 0
    death: tuple[str, str] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "missing": self.missing, "text": self.text,
            "conditions": [{"name": n, "turns": t} for n, t in self.conditions],
            "exhaustion": self.exhaustion,
            "death": (None if self.death is None
                      else {"cause": self.death[0], "resurrection": self.death[1]}),
        }


@cache
def overclock_table() -> tuple[OverclockRow, ...]:
    """The rows of ``linguo_cli/rulesets/linguomancy/data/overclock.json`` (missing 1 to 10)."""
    raw = json.loads(packaged("data/overclock.json").read_text(
        encoding="utf-8"))
    return tuple(
        OverclockRow(
            missing=r["missing"], text=r["text"],
            conditions=tuple((c["name"], c["turns"]) for c in r["conditions"]),
            exhaustion=r["exhaustion"],
            death=None if r["death"] is None else (r["death"]["cause"],
                                                   r["death"]["resurrection"]))
        for r in raw["rows"])


def overclock_row(missing: int) -> OverclockRow:
    """The F4 row for ``missing`` Flux points (1-10); ``ValueError`` otherwise."""
    for row in overclock_table():
        if row.missing == missing:
            return row
    raise ValueError(f"no overclocking row for {missing} missing Flux points")


@dataclass(frozen=True, slots=True)
class Consequence:
    """What an overclocking row did to its entity: the ``row``, conditions
    gained (``(name, turns)``), ``exhaustion_before``/``after`` (tiers),
    ``dead``, ``death_cause``, ``resurrection``, ``events``, ``notes`` (C2:
    conditions with no enforced effect) and ``steps``."""

    row: OverclockRow
    conditions: tuple[tuple[str, int | None], ...]
    exhaustion_before: int
    exhaustion_after: int
    dead: bool
    death_cause: str | None
    resurrection: str | None
    events: tuple[str, ...]
    notes: tuple[str, ...]
    steps: tuple[Step, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "row": self.row.as_dict(),
            "conditions": [{"name": n, "turns": t} for n, t in self.conditions],
            "exhaustion_before": self.exhaustion_before,
            "exhaustion_gained": self.exhaustion_after - self.exhaustion_before,
            "exhaustion_after": self.exhaustion_after,
            "dead": self.dead,
            "death": (None if not self.dead else
                      {"cause": self.death_cause, "resurrection": self.resurrection}),
            "events": list(self.events),
            "notes": list(self.notes),
        }


def _condition_event(name: str) -> str:
    return "falls_unconscious" if name == "Unconscious" else f"becomes_{name.lower()}"


def die(entity: Entity, cause: str, resurrection: str | None = None
        ) -> tuple[Entity, list[str]]:
    """``entity`` dead with ``cause`` (a ``death.cause`` of the state schema)
    and ``resurrection`` (``very_hard``, ``impossible`` or ``None``): the one
    death of :func:`linguo_cli.rulesets.linguomancy.damage.die` (H10: HP 0, every condition ends).
    Returns the dead entity and its events (``dies``, then
    ``condition_ends:NAME`` per condition ended)."""
    from linguo_cli.rulesets.linguomancy import damage

    return damage.die(entity, cause, resurrection)


def apply_overclock(entity: Entity, missing: int, *, catalog: conditions_.Catalog,
                    source: str = "overclocking") -> tuple[Entity, Consequence]:
    """Apply the F4 row for ``missing`` (1-10) Flux points to ``entity``.

    Conditions are gained from ``source`` with the row's durations (C1);
    Exhaustion tiers are added, and 6 or more tiers kill (F5; the tiers are
    capped at 6 in the state); rows 9 and 10 kill with their own cause and
    resurrection. Every death goes through :func:`die` (H10): every
    condition the entity had, those the row just gave included, ends, and
    the events list each as ``condition_ends:NAME`` after ``dies``
    (``Consequence.conditions`` still lists what the row gave). A dead
    entity gains nothing more. Conditions the catalog gives no enforced
    effect get a note (C2).
    """
    row = overclock_row(missing)
    steps = [Step("F4", f"{missing} Flux point(s) missing: {row.text}")]
    events: list[str] = []
    notes: list[str] = []
    gained: list[tuple[str, int | None]] = []
    e = entity
    if e.dead:
        steps.append(Step("F4", f"{e.id} is already dead: the consequence changes nothing"))
        return e, Consequence(row, (), e.exhaustion, e.exhaustion, True, e.death_cause,
                              e.resurrection, (), (), tuple(steps))
    if row.death is not None:
        cause, resurrection = row.death
        steps.append(Step("F4", f"{e.id} dies ({cause.replace('_', ' ')}); resurrection "
                                f"{resurrection.replace('_', ' ')}"))
        e = _overclock_death(e, cause, resurrection, events, steps)
    else:
        for name, turns in row.conditions:
            e = conditions_.gain(e, name, source, turns)
            gained.append((name, turns))
            events.append(_condition_event(name))
            how = "no duration (until removed)" if turns is None else (
                f"{turns} turn(s): until the end of its {_ordinal(turns)} turn that starts "
                "after now")
            steps.append(Step("C1", f"{e.id} gains {name} from {source}, {how}"))
            note = catalog.note(name)
            if note:
                notes.append(note)
                steps.append(Step("C2", note))
        if row.exhaustion:
            before = e.exhaustion
            after = min(before + row.exhaustion, DEATH_EXHAUSTION)
            e = replace(e, exhaustion=after)
            events.append("gains_exhaustion")
            steps.append(Step("F5", f"Exhaustion {before} + {row.exhaustion} = "
                                    f"{before + row.exhaustion}"
                                    + (f" (held as {after})" if after != before + row.exhaustion
                                       else "")))
            if before + row.exhaustion >= DEATH_EXHAUSTION:
                steps.append(Step("F5", f"{DEATH_EXHAUSTION} or more Exhaustion tiers: "
                                        f"{e.id} dies"))
                e = _overclock_death(e, "exhaustion", None, events, steps)
    return e, Consequence(row, tuple(gained), entity.exhaustion, e.exhaustion, e.dead,
                          e.death_cause, e.resurrection, tuple(events), tuple(notes),
                          tuple(steps))


def _overclock_death(e: Entity, cause: str, resurrection: str | None, events: list[str],
                     steps: list[Step]) -> Entity:
    """An overclocking death (F4 rows 9-10, F5) through the one death of
    :func:`linguo_cli.rulesets.linguomancy.damage.die` (H10), logged in ``events`` and ``steps``."""
    from linguo_cli.rulesets.linguomancy import damage

    return damage.record_death(e, cause, events, steps, resurrection)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# ---------------------------------------------------------------------------
# Cost, cap and legality (F1, F3, F4)


@dataclass(frozen=True, slots=True)
class CastPlan:
    """A legal cast's numbers: ``base_cost``, ``upcast``, ``final_cost`` and
    the upcast ``cap`` (Flux points) with ``cap_set_by`` (the parts equal to
    it, among ``expertise``, ``wordsmithing_level``, ``maximum``) and
    ``cap_parts``; ``flux_before``/``flux_after``; ``overclocked`` and
    ``missing`` (Flux points short, 0 when not overclocked); ``steps``."""

    idiom: idioms_.Idiom
    base_cost: int
    upcast: int
    final_cost: int
    cap: int
    cap_set_by: tuple[str, ...]
    cap_parts: dict[str, int]
    flux_before: int
    flux_after: int
    overclocked: bool
    missing: int
    adjectives: tuple[idioms_.Adjective, ...]
    steps: tuple[Step, ...]


def upcast_cap(entity: Entity, noun: str) -> tuple[int, tuple[str, ...], dict[str, int]]:
    """F3: ``(cap, set_by, parts)`` with cap = min(Expertise in ``noun``,
    Wordsmithing Level, 10); ``set_by`` names every part equal to the cap."""
    parts = {"expertise": entity.expertise_in(noun),
             "wordsmithing_level": entity.wordsmithing_level,
             "maximum": MAX_COST}
    cap = min(parts.values())
    return cap, tuple(k for k, v in parts.items() if v == cap), parts


def knows(entity: Entity, idiom: idioms_.Idiom) -> bool:
    """True when ``entity`` lists ``idiom`` among its idioms (names compared
    with :func:`linguo_cli.rulesets.linguomancy.idioms.key`)."""
    return any(idioms_.key(n) == idioms_.key(idiom.name) for n in entity.idioms)


def plan_cast(caster: Entity, idiom: idioms_.Idiom, *, upcast: int = 0,
              overclock: bool = False, adjectives: Sequence[str] = (),
              catalog: conditions_.Catalog | None = None) -> CastPlan:
    """Check that ``caster`` may cast ``idiom`` this way and work out its cost.

    Raises :class:`RulesError` (exit 4): ``C2`` when the caster is dead or
    holds a condition with no actions (``catalog``, default catalog when
    ``None``); ``F1`` when it does not know the idiom; ``F3`` (``F4`` when
    overclocking) for a final cost above 10; ``F3`` for an upcast above the
    cap; ``F4`` when short of Flux without ``overclock``, and for Adjectives
    in a cast that actually overclocks (F4 rev. 2). :class:`InputError`
    (exit 3) for a negative upcast or an Adjective the idiom does not allow.
    ``overclock`` permits overclocking; with Flux enough the cast is an
    ordinary one, Adjectives included.
    """
    catalog = catalog or conditions_.default_catalog()
    steps: list[Step] = []
    if upcast < 0:
        raise InputError(Diagnostic("request", "upcast",
                                    f"upcast is extra Flux points, 0 or more; got {upcast}"))
    if caster.dead:
        raise RulesError("C2", f"{caster.id} is dead and cannot cast", {"caster": caster.id})
    eff = catalog.effects_for(caster)
    if eff.no_actions:
        givers = [c.name for c in caster.conditions
                  if (d := catalog.get(c.name)) is not None and d.effects.no_actions]
        raise RulesError("C2", f"{caster.id} can take no actions ({', '.join(givers)}): "
                               "casting is an action", {"caster": caster.id,
                                                        "conditions": givers})
    if not knows(caster, idiom):
        raise RulesError("F1", f"{caster.id} does not know the idiom {idiom.name}; it knows "
                               f"{', '.join(caster.idioms) or 'no idiom'}",
                         {"caster": caster.id, "idiom": idiom.name,
                          "known_idioms": list(caster.idioms)})
    chosen: list[idioms_.Adjective] = []
    for i, name in enumerate(adjectives):
        adj = idiom.adjective(name)
        if adj is None:
            allowed = ", ".join(a.name for a in idiom.adjectives) or "none"
            raise InputError(Diagnostic("request", f"adjectives[{i}]",
                                        f"{idiom.name} allows no Adjective {name!r} "
                                        f"(allowed: {allowed})"))
        chosen.append(adj)
    base = idiom.flux_cost
    final = base + upcast
    steps.append(Step("F1", f"{idiom.name}: base cost {base} Flux"
                      + (f" + upcast {upcast} = final cost {final}" if upcast else
                         f" = final cost {final}")))
    cap, set_by, parts = upcast_cap(caster, idiom.noun)
    if final > MAX_COST:
        rule = "F4" if overclock else "F3"
        raise RulesError(rule, f"final cost {final} is above {MAX_COST}: no idiom is cast "
                               f"above {MAX_COST} Flux" + (", overclocked or not"
                                                            if overclock else ""),
                         {"final_cost": final, "maximum": MAX_COST})
    cap_text = (f"cap min(Expertise in {idiom.noun} {parts['expertise']}, Wordsmithing Level "
                f"{parts['wordsmithing_level']}, {MAX_COST}) = {cap}")
    if upcast:
        if final > cap:
            raise RulesError("F3", f"upcasting {idiom.name} to a final cost of {final} exceeds "
                                   f"the {cap_text}",
                             {"final_cost": final, "cap": cap, "cap_set_by": list(set_by),
                              **parts})
        steps.append(Step("F3", f"upcast by {upcast}: final cost {final} within the "
                                f"{cap_text}"))
    else:
        steps.append(Step("F3", f"no upcast: the {cap_text} does not limit a cast at base "
                                "cost"))
    flux = caster.flux
    missing = max(final - flux, 0)
    if missing and not overclock:
        raise RulesError("F4", f"{caster.id} has {flux} Flux, {missing} short of the final "
                               f"cost {final}; overclock to cast anyway",
                         {"flux": flux, "final_cost": final, "missing": missing})
    if missing and chosen:
        raise RulesError("F4", f"Adjectives may not be used when overclocking: the final cost "
                               f"{final} is {missing} above the {flux} Flux held",
                         {"adjectives": [a.name for a in chosen], "flux": flux,
                          "final_cost": final, "missing": missing})
    if missing:
        steps.append(Step("F4", f"overclocking: {caster.id} spends all its {flux} Flux, "
                                f"{missing} point(s) missing"))
        after = 0
    else:
        if overclock:
            steps.append(Step("F4", f"overclocking allowed but not needed: {flux} Flux "
                                    f"covers the cost {final}, an ordinary cast"
                                    + (" (its Adjectives are allowed)" if chosen else "")))
        after = flux - final
        steps.append(Step("F1", f"Flux {flux} - {final} = {after}"))
    for adj in chosen:
        steps.append(Step("F1", f"Adjective {adj.name}: {adj.effect} (recorded, not "
                                "enforced by the engine)"))
    return CastPlan(idiom, base, upcast, final, cap, set_by, parts, flux, after,
                    bool(missing), missing, tuple(chosen), tuple(steps))


# ---------------------------------------------------------------------------
# Casting


@dataclass
class _Log:
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def note(self, rule: str, text: str) -> None:
        self.steps.append(Step(rule, text))


def _fields(entity: Entity) -> dict[str, Any]:
    d = entity.as_dict()
    return {k: d[k] for k in REPORT_FIELDS}


def _ability(entity: Entity, name: str, log: _Log, role: str) -> int:
    value = entity.ability(name)
    if value is None:
        log.note("D6", f"{role} {entity.id} has no {name} modifier given: counted as 0")
        return 0
    return value


def _test_dict(test: TestResult) -> dict[str, Any]:
    d = test.as_dict()
    d.pop("rules", None)
    d.pop("explanation", None)
    d["success"] = test.degree >= Degree.SUCCESS  # D1 rev. 2: the degree after D5
    return d


@dataclass(frozen=True, slots=True)
class HandCheck:
    """The Hand points of one cast (P5, P6 rev. 2): ``free`` before the cast,
    the cast's own ``cost``, ``left`` after it, whether a maintainable idiom
    may start ``maintaining`` (``left`` >= its Hand cost) and, when not,
    ``reason``; ``steps`` for the explanation. Units: Hand points."""

    free: int
    cost: int
    left: int
    maintaining: bool
    reason: str | None
    steps: tuple[Step, ...]


def check_hands(caster: Entity, idiom: idioms_.Idiom, free: int) -> HandCheck:
    """P5 and P6 for a cast by ``caster`` with ``free`` Hand points free
    before it (as the caller reads them: a one-off cast as at the start of a
    turn, see :func:`one_off_hands_free`).

    The cast's own Hand cost (``idiom.hand_cost``, 0-2) must be free, else
    :class:`RulesError` ``P5`` (exit 4). A maintainable idiom starts being
    maintained only if its Hand cost is still free after that (P6 rev. 2);
    otherwise the cast resolves unmaintained and ``reason`` says why.
    """
    cost = idiom.hand_cost
    if cost > free:
        raise RulesError("P5", f"casting {idiom.name} needs {cost} Hand point(s), "
                               f"{caster.id} has {free} free",
                         {"caster": caster.id, "needed": cost, "left": free})
    left = free - cost
    steps = [Step("P5", f"casting {idiom.name}: {cost} Hand point(s) of the {free} free, "
                        f"{left} left")]
    if not idiom.maintainable:
        return HandCheck(free, cost, left, False, None, tuple(steps))
    if left >= cost:
        steps.append(Step("P6", f"maintaining {idiom.name} needs {cost} Hand point(s): "
                                f"{left} free after the cast"))
        return HandCheck(free, cost, left, True, None, tuple(steps))
    reason = (f"maintaining {idiom.name} needs {cost} free Hand point(s) after the cast's "
              f"own {cost}; {caster.id} has {left}")
    steps.append(Step("P6", f"{reason}: the cast resolves but is not maintained"))
    return HandCheck(free, cost, left, False, reason, tuple(steps))


def check_amount_ability(idiom: idioms_.Idiom) -> None:
    """T4 rev. 2: only Potential is multiplied by a damage tick, only
    Cohesion by a healing tick (T7). An idiom whose damage or healing names
    another ability to multiply raises :class:`RulesError` ``T4`` (exit 4),
    through the one check of :func:`abilities.check_multiplied`."""
    from linguo_cli.rulesets.linguomancy import abilities

    amount = idiom.amount
    if amount is None or amount.ability is None:
        return
    what = "healing" if idiom.healing is not None else "damage"
    abilities.check_multiplied(amount.ability, healing=idiom.healing is not None,
                               field=f"{idiom.name}: {what}.ability")


def one_off_hands_free(entities: Mapping[str, Entity], caster: str,
                       catalog: idioms_.Catalog) -> int:
    """Hand points free for a one-off cast by ``caster`` (P5, P6 rev. 2),
    read from the state exactly as a turn does at its start: Hand points -
    held items - Hand costs of maintained idioms (their own ``hand_cost``,
    else the idiom ``catalog``'s), Hand points spent by earlier actions
    back; never below 0. Uses the turn engine's :func:`turn.hands_free` and
    its maintained-cost lookup (:class:`InputError`, exit 3, for a
    maintained idiom of unknown Hand cost)."""
    from linguo_cli.rulesets.linguomancy import turn

    engine = turn.TurnEngine(entities, ScriptedDice([]), idioms=catalog)
    e = entities[caster]
    return turn.hands_free(replace(e, hands_spent=0), engine.costs(e))


def _save_outcome(idiom: idioms_.Idiom, target: str, degree: Degree, log: _Log) -> str:
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


def resolve_cast(
    entities: dict[str, Entity], *, caster: str, idiom: idioms_.Idiom, upcast: int = 0,
    overclock: bool = False, adjectives: Sequence[str] = (), targets: Sequence[str] = (),
    modifiers: Sequence[Modifier] = (), dice: DiceSource, conditions: conditions_.Catalog,
    amount_modifiers: Sequence[Modifier] = (), advantage: bool = False,
    disadvantage: bool = False, partial_success_hits: bool = False, nonlethal: bool = False,
    maintain: bool = True, hands_free: int | None = None,
) -> tuple[dict[str, Entity], dict[str, Any]]:
    """Cast ``idiom`` by entity ``caster`` of ``entities`` (by id).

    Order: legality and cost (:func:`plan_cast`: F1, F3, F4); Flux spent
    (all of it when overclocking); the save DC, 10 + final cost + caster's
    Potential modifier (S3, for save idioms); the d20 tests: one attack roll
    against the single target's AC (``modifiers`` added, the caster's
    ``attack`` advantage/disadvantage from ``advantage``/``disadvantage`` and
    its conditions, A1-A4) or each target's saving throw in target order
    (S1, S2; the target's conditions give advantage/disadvantage; what each
    degree after D5 leaves of the effect is :meth:`Idiom.save_effect`, S1
    rev. 2); one damage roll (T3-T5; ``amount_modifiers`` flat; only
    Potential multiplied, T4 rev. 2) or healing roll (T7) shared by every
    target that takes it (T6): a hit, a save leaving the full effect, or one
    leaving half (half, rounded down); then per target R1-R3 and H1-H8
    (damage, ``nonlethal`` whoever casts: the GM's call, H5) or H3/H8
    (healing) via :mod:`linguo_cli.rulesets.linguomancy.damage`; then the overclocking
    consequence for the caster (F4, F5, C1, C2); last, a maintainable idiom
    is added to the caster's maintained idioms when ``maintain``, the caster
    is still alive and, with ``hands_free`` given, its Hand cost is free
    after the cast's own (P6). ``hands_free``: Hand points free before the
    cast as the caller reads them (:func:`one_off_hands_free` for a one-off
    cast); the cast's Hand cost must be free (P5, :func:`check_hands`);
    ``None`` when the caller has settled Hand points itself (the turn
    engine). A check-bonus idiom reports its bonus (base + upcast x per
    point) without storing it.

    Returns the new entities (same order) and the result dict (see
    ``golden/README.md``, "cast, overclock"). Raises :class:`RulesError`
    (exit 4) and :class:`InputError` (exit 3) before anything changes.
    """
    from linguo_cli.rulesets.linguomancy import damage

    if caster not in entities:
        raise InputError(Diagnostic("request", "caster", f"no entity with id {caster!r} "
                                                         "in the state"))
    out = dict(entities)
    log = _Log()
    c0 = out[caster]
    plan = plan_cast(c0, idiom, upcast=upcast, overclock=overclock, adjectives=adjectives,
                     catalog=conditions)
    log.steps.extend(plan.steps)
    hands = None if hands_free is None else check_hands(c0, idiom, hands_free)
    if hands is not None:
        log.steps.extend(hands.steps)
    check_amount_ability(idiom)
    targets = list(targets)
    for i, t in enumerate(targets):
        if t not in out:
            raise InputError(Diagnostic("request", f"targets[{i}]",
                                        f"no entity with id {t!r} in the state"))
        if t in targets[:i]:
            raise InputError(Diagnostic("request", f"targets[{i}]",
                                        f"target {t!r} is listed twice"))
    amount_part = idiom.amount
    if idiom.test == "attack" and len(targets) != 1:
        raise InputError(Diagnostic("request", "targets",
                                    f"{idiom.name} makes an attack roll: give exactly one "
                                    f"target, not {len(targets)}"))
    if amount_part is not None and not targets:
        raise InputError(Diagnostic("request", "targets",
                                    f"{idiom.name} needs at least one target"))
    if amount_part is None and targets:
        raise InputError(Diagnostic("request", "targets",
                                    f"{idiom.name} has no effect on targets; give none"))

    if amount_part is not None and amount_part.dice is not None and amount_part.tick.has_range:
        expr = idiom.dice_at(plan.upcast)
        assert expr is not None
        ev = expr.expected_value()
        if not amount_part.tick.conforms(ev):
            raise RulesError(
                "T3", f"{idiom.name} upcast by {plan.upcast} rolls {expr.text()}, expected "
                      f"value {ev}, outside the {amount_part.tick.title} tick's range "
                      f"{amount_part.tick.range_text()}",
                {"dice": expr.text(), "expected_value": str(ev),
                 "tick": amount_part.tick.name, "upcast": plan.upcast})

    events: dict[str, list[str]] = {caster: ["casts"]}
    details: dict[str, dict[str, Any]] = {}
    originals = {caster: c0, **{t: out[t] for t in targets}}
    out[caster] = replace(c0, flux=plan.flux_after)
    if plan.overclocked:
        events[caster].append("overclocks")

    potential = _ability(c0, "potential", log, "caster")
    save_dc = None
    if idiom.test == "save":
        save_dc = 10 + plan.final_cost + potential
        log.note("S3", f"idiom save DC = 10 + final cost {plan.final_cost} + Potential "
                       f"{potential:+d} = {save_dc}")

    # d20 tests, in target order.
    from linguo_cli.rulesets.linguomancy.requests import build_test

    tests: list[dict[str, Any]] = []
    takes: dict[str, tuple[bool, bool]] = {}  # target -> (critical, halved)
    caster_eff = conditions.effects_for(c0)
    for t in targets:
        target = out[t]
        if idiom.test == "attack":
            ability = idiom.attack_ability
            mod = _ability(c0, ability, log, "caster")
            adv = advantage or "attack" in caster_eff.advantage
            dis = disadvantage or "attack" in caster_eff.disadvantage
            req: dict[str, Any] = {
                "kind": "attack", "ac": target.ac,
                "modifiers": [{"label": ability, "value": mod}]
                + [m.as_dict() for m in modifiers],
                "advantage": adv, "disadvantage": dis,
                "partial_success_hits": partial_success_hits}
            test = resolve_test(build_test(req), dice)
            log.steps.extend(Step(s.rule, f"attack on {t}: {s.text}") for s in test.steps)
            tests.append({"entity": t, **_test_dict(test)})
            details.setdefault(t, {})["test"] = {"kind": "attack", "hit": test.hit,
                                                 "degree": test.degree.label}
            if test.hit:
                takes[t] = (bool(test.critical_hit), False)
        elif idiom.test == "save":
            teff = conditions.effects_for(target)
            req = {"kind": "save", "dc": save_dc, "ability": idiom.save_ability,
                   "entity": {"abilities": dict(target.abilities)},
                   "advantage": "save" in teff.advantage,
                   "disadvantage": "save" in teff.disadvantage}
            test = resolve_test(build_test(req), dice)
            log.steps.extend(Step(s.rule, f"{t}'s save: {s.text}") for s in test.steps)
            tests.append({"entity": t, **_test_dict(test)})
            effect = _save_outcome(idiom, t, test.degree, log)
            details.setdefault(t, {})["test"] = {
                "kind": "save", "success": test.degree >= Degree.SUCCESS,
                "degree": test.degree.label, "effect": effect}
            if effect != "none":
                takes[t] = (False, effect == "half")
        else:
            takes[t] = (False, False)

    # One damage or healing roll shared by every target that takes it (T6).
    amount_dict = None
    check_bonus = None
    if amount_part is not None and takes:
        expr = idiom.dice_at(plan.upcast)
        if plan.upcast and idiom.upcast_dice is not None and amount_part.dice is not None:
            log.note("F3", f"upcast by {plan.upcast}: {amount_part.dice.text()} + "
                           f"{plan.upcast} x {idiom.upcast_dice.text()} = "
                           f"{expr.text() if expr else '-'}")
        healing = idiom.healing is not None
        ability_mod = (_ability(c0, "cohesion", log, "caster") if healing else potential)
        critical = any(c for c, _ in takes.values())
        if critical and len(takes) > 1:  # pragma: no cover - attacks have one target
            raise InputError(Diagnostic("request", "targets", "a critical hit needs one target"))
        rolled = damage.roll_amount(expr, tick=amount_part.tick, ability_modifier=ability_mod,
                                    modifiers=tuple(amount_modifiers), critical=critical,
                                    dice=dice)
        log.steps.extend(rolled.steps)
        amount_dict = rolled.as_dict()
        if len(takes) > 1:
            log.note("T6", f"{len(takes)} targets share the one "
                           f"{'healing' if healing else 'damage'} roll")
        for t, (crit, halved) in takes.items():
            amt = rolled.amount
            if halved and amt is not None:
                log.note("S1", f"{t}: half of {amt} = {amt // 2} (rounded down)")
                amt = amt // 2
            if healing:
                new, rep = damage.apply_healing(out[t], amt, tick=amount_part.tick)
                key = "healing"
            else:
                new, rep = damage.apply_damage(out[t], int(amt or 0),
                                               damage_type=amount_part.damage_type,
                                               critical=crit, nonlethal=nonlethal)
                key = "damage"
            out[t] = new
            log.steps.extend(Step(s.rule, f"{t}: {s.text}") for s in rep.steps)
            events.setdefault(t, []).extend(rep.events)
            details.setdefault(t, {})[key] = {"amount": amt, **rep.details}
    elif amount_part is not None:
        log.note("T6", "no target takes the effect: no damage or healing dice are rolled")
    if idiom.check_bonus_to is not None:
        value = idiom.check_bonus_at(plan.upcast)
        check_bonus = {"applies_to": idiom.check_bonus_to, "value": value}
        text = f"{idiom.check_bonus_to}: {value:+d}"
        if plan.upcast and idiom.upcast_check_bonus:
            text += (f" (base {idiom.check_bonus:+d} + {plan.upcast} x "
                     f"{idiom.upcast_check_bonus:+d})")
        log.note("F3", f"check bonus to {text}; not stored in the state: add it to those "
                       "checks as a modifier")
    if amount_part is None and idiom.check_bonus_to is None:
        log.note("F1", f"{idiom.name} has no effect the engine resolves: "
                       f"{idiom.effect_text or 'see its description'}")

    # Overclocking consequence (F4, F5).
    consequence = None
    if plan.overclocked:
        new, cons = apply_overclock(out[caster], plan.missing, catalog=conditions,
                                    source=f"overclocking {idiom.name}")
        out[caster] = new
        log.steps.extend(cons.steps)
        log.notes.extend(cons.notes)
        events[caster].extend(cons.events)
        consequence = cons.as_dict()

    # Maintaining (P6).
    maintained = False
    not_maintained = _not_maintained(idiom, out[caster], maintain, hands)
    if idiom.maintainable and not_maintained is None:
        out[caster] = replace(out[caster], maintained=out[caster].maintained
                              + (Maintained(idiom.name),))
        maintained = True
        events[caster].append("starts_maintaining")
        log.note("P6", f"{idiom.name} is maintainable: {caster} maintains it (Hand cost "
                       f"{idiom.hand_cost} at the start of each of its later turns)")
    elif not_maintained is not None:
        log.note("P6", f"{idiom.name} is not maintained: {not_maintained}")

    reports: dict[str, Any] = {}
    for eid, before in originals.items():
        reports[eid] = {"before": _fields(before), "after": _fields(out[eid]),
                        "events": events.get(eid, []), **details.get(eid, {})}
    rules: list[str] = []
    for s in log.steps:
        if s.rule not in rules:
            rules.append(s.rule)
    result: dict[str, Any] = {
        "kind": "cast",
        "caster": caster,
        "idiom": idiom.name,
        "verb": idiom.verb,
        "noun": idiom.noun,
        "sample": idiom.sample,
        "base_cost": plan.base_cost,
        "upcast": plan.upcast,
        "final_cost": plan.final_cost,
        "cap": plan.cap,
        "cap_set_by": list(plan.cap_set_by),
        "cap_parts": dict(plan.cap_parts),
        "cap_applies": plan.upcast > 0,
        "flux_before": plan.flux_before,
        "flux_after": out[caster].flux,
        "flux_spent": plan.flux_before - plan.flux_after,
        "overclocked": plan.overclocked,
        "missing": plan.missing,
        "consequence": consequence,
        "adjectives": [{**a.as_dict(), "enforced": False} for a in plan.adjectives],
        "action_points": idiom.action_points,
        "hand_cost": idiom.hand_cost,
        "complex": idiom.complex,
        "maintainable": idiom.maintainable,
        "maintained": maintained,
        "not_maintained": not_maintained,
        "hands_free": None if hands is None else hands.free,
        "save_dc": save_dc,
        "tests": tests,
        "amount": amount_dict,
        "check_bonus": check_bonus,
        "notes": list(log.notes),
        "entities": reports,
        "rules": rules,
        "explanation": [s.as_dict() for s in log.steps],
    }
    return out, result


# ---------------------------------------------------------------------------
# Request handlers


def _modifiers(items: Sequence[Mapping[str, Any]] | None) -> tuple[Modifier, ...]:
    return modifiers_from(items)


def resolve_cast_request(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Handler of kind ``cast`` (schemas/cast-request.schema.json): the state
    inline, ``caster``, ``idiom`` (a name of the catalog: inline ``idioms``
    or the default), ``upcast``, ``overclock``, ``adjectives``, ``targets``,
    ``modifiers`` (attack roll), ``amount_modifiers``, ``conditions``
    (inline catalog or the default), ``nonlethal`` (allowed whoever casts:
    the GM's call, H5 rev. 2), ``rolls``. An idiom missing from the catalog
    is refused with F1 (exit 4). Hand points are read from the state as at
    the start of a turn (:func:`one_off_hands_free`; P5, P6 rev. 2); action
    points are not checked."""
    from linguo_cli.rulesets.linguomancy.damage import state_entities

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
        modifiers=_modifiers(request.get("modifiers")),
        amount_modifiers=_modifiers(request.get("amount_modifiers")),
        advantage=bool(request.get("advantage")),
        disadvantage=bool(request.get("disadvantage")),
        partial_success_hits=bool(request.get("partial_success_hits")),
        nonlethal=bool(request.get("nonlethal")),
        dice=dice, conditions=cond)
    state = request["state"]
    result["state"] = {**{k: v for k, v in state.items() if k != "entities"},
                       "entities": [e.as_dict() for e in new.values()]}
    return result


def resolve_overclock_request(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Handler of kind ``overclock``: the F4 row for a final ``cost`` cast
    with ``flux`` Flux and ``exhaustion`` tiers already held, and what it
    does (F5), as a one-off without a state. A cost above 10 is refused
    (F4, exit 4); a cost the Flux covers needs no overclocking (missing 0)."""
    cost = int(request["cost"])
    flux = int(request["flux"])
    exhaustion = int(request.get("exhaustion", 0))
    cond = conditions_.catalog_from_request(request.get("conditions"))
    if cost > MAX_COST:
        raise RulesError("F4", f"an idiom cannot be overclocked above a final cost of "
                               f"{MAX_COST}; got {cost}", {"cost": cost})
    missing = max(cost - flux, 0)
    steps: list[Step] = []
    result: dict[str, Any] = {
        "kind": "overclock", "cost": cost, "flux_before": flux,
        "flux_after": 0 if missing else flux - cost, "missing": missing,
        "overclocked": bool(missing), "exhaustion_before": exhaustion,
    }
    if not missing:
        steps.append(Step("F4", f"{flux} Flux covers the cost {cost}: no overclocking, "
                                "no consequence"))
        result.update(row=None, conditions=[], exhaustion_gained=0,
                      exhaustion_after=exhaustion, dead=False, death=None, events=[],
                      notes=[])
    else:
        steps.append(Step("F4", f"cost {cost} with {flux} Flux: spends all of it, "
                                f"{missing} point(s) missing"))
        entity = Entity(id="caster", kind="player", hp=1, max_hp=1, flux=0,
                        exhaustion=exhaustion)
        _, cons = apply_overclock(entity, missing, catalog=cond)
        steps.extend(cons.steps)
        d = cons.as_dict()
        result.update(row=d["row"], conditions=d["conditions"],
                      exhaustion_gained=d["exhaustion_gained"],
                      exhaustion_after=d["exhaustion_after"], dead=d["dead"],
                      death=d["death"], events=d["events"], notes=d["notes"])
    rules: list[str] = []
    for s in steps:
        if s.rule not in rules:
            rules.append(s.rule)
    result["rules"] = rules
    result["explanation"] = [s.as_dict() for s in steps]
    return result
