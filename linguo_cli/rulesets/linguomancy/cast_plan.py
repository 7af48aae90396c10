"""Planning a cast (F1, F3, F4, P5, P6, T4): who may cast what, what it
costs and what it takes of the Hand points.

* :func:`plan_cast` settles what a cast costs and whether it is legal:
  final cost = base cost + upcast (Flux points); the upcast cap
  min(Expertise in the idiom's Noun, Wordsmithing Level, 10) limits upcasts
  only (F3); a final cost above 10 is refused (F3, F4); short of Flux the cast
  is illegal unless overclocked (F4); Adjectives are refused when
  overclocking, and only when the cast actually overclocks (F4 rev. 2).
* :func:`check_hands` and :func:`one_off_hands_free`: the Hand points of a
  cast (P5) and whether it starts being maintained (P6 rev. 2).
* :func:`check_amount_ability`: only Potential (damage) or Cohesion
  (healing) is multiplied by a tick (T4 rev. 2, T7).

Pure: entities are frozen values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import ScriptedDice
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.core.evolve import evolve
from linguo_cli.rulesets.linguomancy import conditions as conditions_
from linguo_cli.rulesets.linguomancy import idioms as idioms_
from linguo_cli.rulesets.linguomancy.model import Entity
from linguo_cli.rulesets.linguomancy.overclock import MAX_COST


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
    if upcast < 0:
        raise InputError(Diagnostic("request", "upcast",
                                    f"upcast is extra Flux points, 0 or more; got {upcast}"))
    _check_able(caster, idiom, catalog or conditions_.default_catalog())
    chosen = _adjectives(idiom, adjectives)
    steps: list[Step] = []
    base = idiom.flux_cost
    final = base + upcast
    steps.append(Step("F1", f"{idiom.name}: base cost {base} Flux"
                      + (f" + upcast {upcast} = final cost {final}" if upcast else
                         f" = final cost {final}")))
    cap, set_by, parts = upcast_cap(caster, idiom.noun)
    _check_cap(idiom, upcast, final, overclock, cap, set_by, parts, steps)
    after, missing = _pay(caster, final, overclock, chosen, steps)
    for adj in chosen:
        steps.append(Step("F1", f"Adjective {adj.name}: {adj.effect} (recorded, not "
                                "enforced by the engine)"))
    return CastPlan(idiom, base, upcast, final, cap, set_by, parts, caster.flux, after,
                    bool(missing), missing, tuple(chosen), tuple(steps))


def _check_able(caster: Entity, idiom: idioms_.Idiom, catalog: conditions_.Catalog) -> None:
    """C2 (dead, or a condition with no actions) and F1 (knows the idiom)."""
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


def _adjectives(idiom: idioms_.Idiom, names: Sequence[str]) -> list[idioms_.Adjective]:
    """The Adjectives asked for; :class:`InputError` for one the idiom does
    not allow."""
    chosen: list[idioms_.Adjective] = []
    for i, name in enumerate(names):
        adj = idiom.adjective(name)
        if adj is None:
            allowed = ", ".join(a.name for a in idiom.adjectives) or "none"
            raise InputError(Diagnostic("request", f"adjectives[{i}]",
                                        f"{idiom.name} allows no Adjective {name!r} "
                                        f"(allowed: {allowed})"))
        chosen.append(adj)
    return chosen


def _check_cap(idiom: idioms_.Idiom, upcast: int, final: int, overclock: bool, cap: int,
               set_by: tuple[str, ...], parts: dict[str, int], steps: list[Step]) -> None:
    """F3/F4: no final cost above 10; an upcast within the cap."""
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


def _pay(caster: Entity, final: int, overclock: bool, chosen: list[idioms_.Adjective],
         steps: list[Step]) -> tuple[int, int]:
    """F1/F4: the Flux after the cast and the points missing (overclocking
    spends all of it; short of Flux without ``overclock``, or with
    Adjectives when it actually overclocks: :class:`RulesError` F4)."""
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
    return after, missing


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
    return turn.hands_free(evolve(e, hands_spent=0), engine.costs(e))
