"""NV5 results of this slice as JSON-ready values (through core's ``to_plain``).

:func:`attack_result` gives the ``attack`` result: ``kind``, ``rules``,
``explanation``, ``options`` (non-default), ``warnings``, ``combatants``
(``{id: {before, after, events}}`` for the attacker and target), ``attack``
(the record) and ``rolls_used``. :func:`modifiers_result` gives the
``modifiers`` result. Exact numbers are strings (``"48/5"``), HP and faces
integers. :func:`resolve_request` runs one ``attack`` or ``modifiers``
request dict end to end (not wired into the dispatcher yet).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core.derivation import Derivation, rules_of
from linguo_cli.core.results import to_plain

from .attack import AttackOutcome, resolve_attack
from .documents import NamedFaces, attack_request, modifiers_request
from .model import Creature
from .modifiers import ModifiersResult, resolve_modifiers
from .options import Options


def creature_view(c: Creature) -> dict[str, Any]:
    """NV5 ``before``/``after`` of a creature, in NV5's order: ``hp``,
    ``max_hp``, ``true_max_hp`` (``max_hp`` when none is given), ``thp``,
    ``thp_source``, ``injury``, ``ko``, ``stabilized``, ``critical_timer``,
    ``dead``, ``up``, ``charges`` (``{parry, dodge, guard}``), ``conditions``
    (the state's condition objects), ``thp_granted`` when the state gives
    or a grant sets it, and ``armor_pc`` when it wears armor."""
    view: dict[str, Any] = {
        "hp": c.hp, "max_hp": c.max_hp,
        "true_max_hp": c.true_max_hp if c.true_max_hp is not None else c.max_hp,
        "thp": c.thp, "thp_source": c.thp_source,
        "injury": c.injury, "ko": c.ko, "stabilized": c.stabilized,
        "critical_timer": c.critical_timer, "dead": c.dead, "up": c.up,
        "charges": {"parry": c.charges.parry, "dodge": c.charges.dodge,
                    "guard": c.charges.guard},
        "conditions": [dict(r) for r in c.condition_records],
    }
    if c.thp_granted is not None:
        view["thp_granted"] = c.thp_granted
    if c.armor is not None:
        view["armor_pc"] = c.armor.pc
    return view


def attack_result(before: tuple[Creature, Creature], outcome: AttackOutcome) -> dict[str, Any]:
    """The NV5 ``attack`` result of ``outcome``; ``before`` is (attacker, target)."""
    combatants: dict[str, Any] = {}
    for old, new in zip(before, (outcome.attacker, outcome.target), strict=True):
        combatants[old.id] = {"before": creature_view(old), "after": creature_view(new),
                              "events": list(outcome.events.get(old.id, ()))}
    result: dict[str, Any] = {
        "kind": "attack", "rules": ["NV3", *outcome.rules, "NV5"],
        "explanation": [s.as_dict() for s in outcome.steps],
        "options": dict(outcome.options), "warnings": [], "combatants": combatants,
        "attack": to_plain(outcome.record), "rolls_used": list(outcome.rolls_used),
    }
    if outcome.second_chances is not None:
        result["party"] = {"second_chances": {"max": outcome.second_chances.max,
                                              "pool": outcome.second_chances.pool}}
    return result


def modifiers_result(result: ModifiersResult, log: Derivation, options: Options,
                     rolls_used: list[int]) -> dict[str, Any]:
    """The NV5 ``modifiers`` result: pools, charge factor, exact, damage."""
    return {
        "kind": "modifiers", "rules": ["NV3", *rules_of(log.steps), "NV5"],
        "explanation": [s.as_dict() for s in log.steps], "options": options.non_default(),
        "warnings": [], "pools": to_plain(result.pools),
        "charge_factor": to_plain(result.charge_factor), "exact": to_plain(result.exact),
        "damage": result.damage, "rolls_used": rolls_used,
    }


def resolve_request(request: Mapping[str, Any],
                    cli_options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Resolve one NV3 ``attack`` or ``modifiers`` request (with its ``rolls``).

    Raises ``InputError`` subclasses (exit 3: missing_input, bad_input,
    bad_option, faults of ``rolls``) and :class:`~.model.Refusal` (exit 4)."""
    kind = request.get("kind")
    if kind == "modifiers":
        args = modifiers_request(request, cli_options)
        log = Derivation()
        options = args.pop("options")
        result = resolve_modifiers(**args, options=options, log=log)
        return modifiers_result(result, log, options, [])
    if kind != "attack":
        raise ValueError(f"kind {kind!r} is not in this slice")
    spec, options, _key = attack_request(request, cli_options)
    dice = NamedFaces(request.get("rolls", []))
    outcome = resolve_attack(spec, dice, options)
    dice.finish()
    return attack_result((spec.attacker, spec.target), outcome)
