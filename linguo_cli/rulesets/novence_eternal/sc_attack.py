"""One SC-based attack roll against one target (Etherhacking): NO6 with
NH6, NA7 and NS5, on the NO1 pipeline of :mod:`.attack`.

The order (NO6), each step reusing NO1's function:

1. legality as NO1 step 1 (:func:`.attack.check_legal`); no charge is
   spent (NR4);
2. advantage and disadvantage as NO1 step 3;
3. the to-hit d20 (two with advantage or disadvantage), the total (NH1),
   the crit and crit-fail tests (NX1, NX6) against the target's SC (NS5)
   instead of its AC (:func:`.hitting.resolve_to_hit`); under ``ep_scope:
   no_roll`` there is no to-hit die and the EP share applies at once;
4. landing against SC (NH2, NX4, NX6): landed, factor 1; not landed (a crit
   fail included), factor min(1, EP / SC) with no crits, or, without EP,
   nothing more;
5. the bonus crit d20 for a landed roll at CRR <= -20 (NX2);
6. only under ``sc_attacks_physical_steps: apply`` and for a landed roll,
   cover and armor as NO1 steps 9-10 with THR = total - SC; otherwise none
   (``dc_attacks_armor: res_only`` then adds the armor's RES to ND, NA1);
7. damage dice as NO1 step 11 (crit sets only for a landed crit);
8. ND (no charge factor), floor (ND8), then NO1 step 13 (THP and HP, KO,
   damage while KO, dismemberment).

Dice come from the injected :class:`~linguo_cli.core.dice.DiceSource` in
that order. :func:`resolve_sc_attack` is the entry point a script of turns
calls (NV4 ``sc_attack`` steps); :func:`resolve_sc_attack_request` is the
NV3 request handler.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.results import OMIT, Omit, to_plain

from .attack import (
    AttackOutcome,
    AttackRecord,
    _after_landing,
    _armor_and_damage,
    _empty,
    _outcome,
    _Run,
    _to_hit_bonus,
    check_legal,
    declared_advantage,
    end_hiding,
    ko_target_crit,
)
from .documents import DocumentError, attack_request
from .exact import Exact, exact, exact_text
from .hitting import ToHit, resolve_to_hit
from .model import AttackSpec
from .options import DEFAULTS, Options
from .results import creature_view
from .state_results import attack_state

RULESET_NAME = "novence-eternal"


@dataclass(frozen=True, slots=True)
class ScAttackRecord(AttackRecord):
    """NV5 ``sc_attack``: the attack record (``against`` is the SC; ``charge``
    and ``defense`` are always null; ``natural``, ``floor``,
    ``effective_die`` and ``total`` are null under ``ep_scope: no_roll``)
    plus ``ep`` (the weapon's EP) and ``ep_factor`` (1 for a landed roll,
    min(1, EP / SC) for one that did not land or was not made, 0 when such a
    roll has no EP)."""

    ep: int = 0
    ep_factor: Exact = field(default_factory=lambda: exact(1))


def ep_share(ep: int, sc: int) -> Fraction:
    """NA7: the share of damage an SC-based attack that does not exceed SC
    still deals: min(1, EP / SC); SC <= 0 counts as EP >= SC (1); EP 0
    gives 0 (NO6 step 4 stops)."""
    if ep <= 0:
        return Fraction(0)
    if sc <= 0:
        return Fraction(1)
    return min(Fraction(1), Fraction(ep, sc))


def resolve_sc_attack(spec: AttackSpec, dice: DiceSource,
                      options: Options = DEFAULTS) -> AttackOutcome:
    """Resolve one SC-based attack (NO6) with faces from ``dice``.

    ``spec.weapon`` must have ``basis: sc`` (its ``ep`` is NA7's EP). Returns
    the same :class:`~.attack.AttackOutcome` as an AC-based attack, its
    ``record`` a :class:`ScAttackRecord`; the attacker and target after it,
    the NV5 events per creature, the derivation steps and the faces used.
    Raises :class:`~.model.Refusal` (exit 4) before any die for an illegal
    attack (NO1 step 1: ``actor_dead``, ``actor_ko``, ``out_of_reach``,
    ``out_of_range``, ``target_hidden``); the dice source raises when its
    faces run out (exit 3)."""
    start = len(dice.used)
    run = _Run(spec, options, dice, Derivation(), spec.target, spec.attacker, {},
               spec.second_chances)
    w, t = spec.weapon, spec.target
    run.log.note("NO6", f"{spec.attacker.id} makes an SC-based attack on {t.id} with {w.name}")
    band, r_adv, r_dis = check_legal(spec, options, run.log)
    end_hiding(run)
    run.log.note("NR4", "an SC-based attack spends no charge")
    sc = t.sc(options)
    if t.injury >= 3:
        run.log.note("NK8", f"{t.id}'s WIS for SC at Injury {t.injury}: " + (
            "without the penalty (injury_penalty_scope: rolls_only)"
            if options.is_("injury_penalty_scope", "rolls_only") else
            f"{t.stat('WIS', options)} with the penalty"))
    run.log.note("NS5", f"{t.id}'s SC = 10 + WIS + sc_bonus {t.sc_bonus} = {sc}")
    if options.is_("ep_scope", "no_roll"):
        return _outcome(run, _no_roll(run, band, sc), start)
    adv, dis, unconscious = declared_advantage(run, r_adv, r_dis)
    run.log.note("NH6", f"the to-hit roll is made against SC {sc} instead of AC")
    hit = resolve_to_hit(dice, advantage=adv, disadvantage=dis,
                         bonus=_to_hit_bonus(spec, options), ac=sc, crr=spec.attacker.crr,
                         far=spec.attacker.far, aim_stacks=0, s_eff=0, options=options,
                         log=run.log, defence="SC")
    hit = ko_target_crit(run, hit, unconscious)
    if hit.landed:
        run.physical = options.is_("sc_attacks_physical_steps", "apply")
        _no_armor_note(run)
        run.log.note("NH6", "landed: full damage; " + (
            "cover and armor as for an AC-based attack (sc_attacks_physical_steps: apply)"
            if run.physical else "no cover step and no armor step"))
        record = _after_landing(run, hit, band, adv, dis, None)
        return _outcome(run, _with_ep(record, w.ep, Fraction(1)), start)
    factor = ep_share(w.ep, sc)
    record = _empty(run, hit, band, adv, dis, None)
    if factor == 0:
        run.log.note("NA7", "the roll does not exceed SC and the attack has no EP: no damage")
        return _outcome(run, _with_ep(record, w.ep, factor), start)
    run.log.note("NA7", f"the roll does not exceed SC: damage x min(1, EP {w.ep} / SC {sc})"
                 f" = {exact_text(factor)}, no crits")
    return _outcome(run, _with_ep(_ep_damage(run, record, hit, factor), w.ep, factor), start)


def _ep_damage(run: _Run, record: AttackRecord, hit: ToHit, factor: Fraction) -> AttackRecord:
    """NO6 steps 7-8 for the EP share: no cover, no armor, no crit sets."""
    run.physical, run.ep_factor = False, factor
    _no_armor_note(run)
    return _armor_and_damage(run, record, hit, None, None, Fraction(1))


def _no_armor_note(run: _Run) -> None:
    """NA1: an SC-based attack without its physical steps skips the armor
    the target wears (``dc_attacks_armor: res_only`` adds its RES to ND)."""
    if not run.physical and run.target.armor is not None and run.options.is_(
            "dc_attacks_armor", "skip"):
        run.log.note("NA1", f"an SC-based attack skips {run.target.id}'s armor")


def _no_roll(run: _Run, band: str | None, sc: int) -> AttackRecord:
    """``ep_scope: no_roll`` (NA7, NO6 step 3): no to-hit die; the damage is
    always × min(1, EP / SC), with no crits."""
    ep = run.spec.weapon.ep
    factor = ep_share(ep, sc)
    run.log.note("NA7", f"ep_scope no_roll: no to-hit roll; damage x min(1, EP {ep} / SC {sc})"
                 f" = {exact_text(factor)}")
    hit = ToHit((), 0, 0, 0, 0, 0, 0, sc, 0, 0, None, False, 0, False, None)
    record = replace(_empty(run, hit, band, False, False, None),
                     natural=None, floor=None, effective_die=None, total=None)
    if factor > 0:
        record = _ep_damage(run, record, hit, factor)
    return _with_ep(record, ep, factor)


def _with_ep(record: AttackRecord, ep: int, factor: Fraction) -> ScAttackRecord:
    if isinstance(record, ScAttackRecord):
        return record
    values = {f.name: getattr(record, f.name) for f in fields(record)}
    return ScAttackRecord(**values, ep=ep, ep_factor=exact(factor))


@dataclass(frozen=True, slots=True)
class ScAttackResult:
    """The NV5 result of an ``sc_attack`` request: as ``attack``'s (``rules``,
    ``explanation``, ``options``, ``warnings``, ``combatants`` attacker then
    target with ``{before, after, events}``, ``attack``, ``party`` with
    Second Chances, ``rolls_used``), the ``attack`` record adding ``ep`` and
    ``ep_factor``."""

    kind: str = "sc_attack"
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    combatants: Mapping[str, Any] = field(default_factory=dict)
    attack: Mapping[str, Any] = field(default_factory=dict)
    party: Mapping[str, Any] | Omit = OMIT
    state: Mapping[str, Any] | Omit = OMIT
    rolls_used: tuple[int, ...] = ()


def resolve_sc_attack_request(request: Mapping[str, Any], dice: DiceSource) -> ScAttackResult:
    """NV3 ``sc_attack`` (NO6): the keys of ``attack`` with ``weapon``
    required, naming (or giving) a ``basis: sc`` weapon, and no
    ``take_melee_aim``, ``defense``, ``parry_stat``, ``parryable``,
    ``dodgeable`` or ``guardable``. A weapon that is not SC-based is
    ``bad_input`` (exit 3, NV3) before any die; refusals as
    :func:`resolve_sc_attack`."""
    spec, options, _key = attack_request(request)
    if spec.weapon.basis != "sc":
        raise DocumentError("bad_input", "NV3", "request weapon",
                            "an sc_attack needs a weapon with basis: sc (NH6)")
    outcome = resolve_sc_attack(spec, dice, options)
    combatants: dict[str, Any] = {}
    for old, new in ((spec.attacker, outcome.attacker), (spec.target, outcome.target)):
        combatants[old.id] = {"before": creature_view(old), "after": creature_view(new),
                              "events": list(outcome.events.get(old.id, ()))}
    party: dict[str, Any] | Omit = OMIT
    if outcome.second_chances is not None:
        party = {"second_chances": {"max": outcome.second_chances.max,
                                    "pool": outcome.second_chances.pool}}
    return ScAttackResult(
        rules=tuple(dict.fromkeys(("NV3", *outcome.rules, "NV5"))),
        explanation=tuple(outcome.steps), options=dict(outcome.options),
        combatants=combatants, attack=to_plain(outcome.record), party=party,
        state=attack_state(request, (spec.attacker, spec.target),
                           (outcome.attacker, outcome.target), outcome.second_chances))


__all__ = ["ScAttackRecord", "ScAttackResult", "ep_share", "resolve_sc_attack",
           "resolve_sc_attack_request"]
