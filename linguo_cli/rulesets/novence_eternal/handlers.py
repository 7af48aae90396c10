"""Novence Eternal's request handlers (NV3) with typed NV5 results.

The core calls a handler with a validated request (its ``options`` already
holding the command line's ``--option`` values over the request's own) and
the dice source of the request's ``rolls`` (:func:`faces_source`: integers or
``"dS:F"`` faces, NV3). Each handler returns a frozen dataclass; the core
sets its ``rolls_used`` and ``core.results.to_plain`` gives its JSON form:

- :class:`AttackResult` (``kind: attack``): ``ruleset``, ``rules`` (NV3, the
  rules in first-use order, NV5), ``explanation`` (``[{rule, text}]``),
  ``options`` (the non-default options in effect), ``warnings``,
  ``combatants`` (``{id: {before, after, events}}``, attacker then target),
  ``attack`` (the NO1 record), ``party`` (only with Second Chances),
  ``state`` (the state after, given or built: :mod:`.state_results`) and
  ``rolls_used``;
- :class:`ModifiersResult` (``kind: modifiers``): ``pools`` (``normal``,
  ``ap``), ``charge_factor``, ``exact`` (exact fractions as strings,
  ``"48/5"``) and ``damage`` (the floor, ND8); it rolls no die.

Errors: ``InputError`` subclasses (exit 3: ``missing_input``,
``bad_input``, ``bad_option`` and the faults of ``rolls``) and
:class:`~.model.Refusal` (exit 4, with its refusal code and rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.derivation import Derivation, Step, rules_of
from linguo_cli.core.dice import DiceSource, SeededDice, SystemDice
from linguo_cli.core.results import OMIT, Omit, to_plain

from .documents import NamedFaces, attack_request, modifiers_request
from .results import creature_view
from .state_results import attack_state, effect_state

#: The canonical name written in every result.
RULESET_NAME = "novence-eternal"


@dataclass(frozen=True, slots=True)
class AttackResult:
    """The NV5 result of an ``attack`` request (see the module docstring)."""

    kind: str = "attack"
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


@dataclass(frozen=True, slots=True)
class ModifiersResult:
    """The NV5 result of a ``modifiers`` request (see the module docstring)."""

    kind: str = "modifiers"
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    pools: Mapping[str, Any] = field(default_factory=dict)
    charge_factor: str = "1"
    exact: str = "0"
    damage: int = 0
    rolls_used: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DcEffectResult:
    """The NV5 result of a ``dc_effect`` request: ``dc``, ``damage_rolls``
    (one shared set of component rolls, or one per target), ``targets`` (per
    target: cover or save, factors, pools, exact, damage, THP and HP, Injury
    events) and ``combatants`` (the source and each target)."""

    kind: str = "dc_effect"
    ruleset: str = RULESET_NAME
    rules: tuple[str, ...] = ()
    explanation: tuple[Step, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[Mapping[str, str], ...] = ()
    combatants: Mapping[str, Any] = field(default_factory=dict)
    dc: int = 0
    damage_rolls: tuple[Any, ...] = ()
    targets: tuple[Any, ...] = ()
    party: Mapping[str, Any] | Omit = OMIT
    state: Mapping[str, Any] | Omit = OMIT
    rolls_used: tuple[int, ...] = ()


def faces_source(rolls: Any, seed: int | None) -> DiceSource:
    """The dice of a request (the ruleset's ``dice`` hook): ``rolls`` as
    :class:`~.documents.NamedFaces` (integers or ``"dS:F"``; too few faces
    ``missing_input``, a face that does not fit or names another die and
    faces left over ``bad_input``, exit 3, rule NV3), else ``seed``
    (replayable, not portable), else the system's randomness."""
    if rolls is not None:
        return NamedFaces(list(rolls))
    if seed is not None:
        return SeededDice(seed)
    return SystemDice()


def resolve_attack_request(request: Mapping[str, Any], dice: DiceSource) -> AttackResult:
    """One AC-based attack on one target through NO1 (NV3 ``attack``).

    ``dice``: the source of the d20s and damage dice in NO1's order. Raises
    as the module docstring says."""
    spec, options, _key = attack_request(request)
    if spec.weapon.basis != "ac":
        from .documents import DocumentError

        raise DocumentError("bad_input", "NV3", "request weapon",
                            "an attack takes an AC-based weapon (basis: ac); use sc_attack")
    from .attack import resolve_attack

    outcome = resolve_attack(spec, dice, options)
    combatants: dict[str, Any] = {}
    before = (spec.attacker, spec.target)
    for old, new in zip(before, (outcome.attacker, outcome.target), strict=True):
        combatants[old.id] = {"before": creature_view(old), "after": creature_view(new),
                              "events": list(outcome.events.get(old.id, ()))}
    party: dict[str, Any] | Omit = OMIT
    if outcome.second_chances is not None:
        party = {"second_chances": {"max": outcome.second_chances.max,
                                    "pool": outcome.second_chances.pool}}
    return AttackResult(
        rules=tuple(dict.fromkeys(("NV3", *outcome.rules, "NV5"))),
        explanation=tuple(outcome.steps), options=dict(outcome.options),
        combatants=combatants, attack=to_plain(outcome.record), party=party,
        state=attack_state(request, before, (outcome.attacker, outcome.target),
                           outcome.second_chances))


def resolve_dc_effect_request(request: Mapping[str, Any], dice: DiceSource) -> DcEffectResult:
    """One DC-based effect against its targets (NV3 ``dc_effect``: NO2,
    NC5, NR9). ``dice``: the damage dice, then each target's save d20s (see
    :mod:`.effect`). Raises as the module docstring says (a target relying
    on cover against anything but a ranged DEX-save effect: exit 4
    ``cover_not_allowed``, NC5)."""
    from .effect import resolve_effect
    from .effect_documents import dc_effect_request

    spec, options = dc_effect_request(request)
    outcome = resolve_effect(spec, dice, options)
    combatants: dict[str, Any] = {}
    if spec.source is not None:
        view = creature_view(spec.source)
        combatants[spec.source.id] = {"before": view, "after": view, "events": []}
    for old, new in zip(outcome.before, outcome.after, strict=True):
        combatants[old.id] = {"before": creature_view(old), "after": creature_view(new),
                              "events": list(outcome.events.get(old.id, ()))}
    party: dict[str, Any] | Omit = OMIT
    if outcome.second_chances is not None:
        party = {"second_chances": {"max": outcome.second_chances.max,
                                    "pool": outcome.second_chances.pool}}
    dc = request.get("dc")
    warnings = ({"code": "dc_base_range", "rule": "NS6", "place": "request dc.base"},) if (
        isinstance(dc, Mapping) and not 10 <= dc.get("base", 10) <= 14) else ()
    return DcEffectResult(
        rules=tuple(dict.fromkeys(("NV3", *rules_of(outcome.steps), "NV5"))),
        explanation=outcome.steps, options=dict(outcome.options), combatants=combatants,
        warnings=warnings,
        dc=outcome.dc, damage_rolls=to_plain(outcome.damage_rolls),
        targets=to_plain(outcome.targets), party=party,
        state=effect_state(request, spec.source, outcome.before, outcome.after,
                           outcome.second_chances))


def resolve_modifiers_request(request: Mapping[str, Any],
                              dice: DiceSource | None = None) -> ModifiersResult:
    """The damage-modifier pool on its own (NV3 ``modifiers``: ND1-ND8,
    NR10); rolls no die (``dice`` is not asked). Raises as the module
    docstring says."""
    from .modifiers import resolve_modifiers

    args = modifiers_request(request)
    log = Derivation()
    options = args.pop("options")
    result = resolve_modifiers(**args, options=options, log=log)
    return ModifiersResult(
        rules=tuple(dict.fromkeys(("NV3", *rules_of(log.steps), "NV5"))),
        explanation=tuple(log.steps), options=options.non_default(),
        pools=to_plain(result.pools), charge_factor=to_plain(result.charge_factor),
        exact=to_plain(result.exact), damage=result.damage)
