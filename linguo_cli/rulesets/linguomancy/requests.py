"""Requests: a validated document in, a typed result out.

``resolve(request)`` is the single entry point shared by ``linguo resolve``,
the one-off commands (which build the same request from their options), the
golden runner and the batch adapter. A request is a mapping with a ``kind``
(see ``schemas/request.schema.json``); the result, made JSON by
``core.results.to_plain``, is the shape documented
in ``golden/README.md``. Every result lists ``rolls_used``: the dice faces
consumed, in order, so feeding them back as ``rolls`` replays it exactly.

Handlers for each kind live beside the rules they use; this module only
dispatches (lazily, so a check never imports the turn engine).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import DiceSource, make_source
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.core.results import to_plain
from linguo_cli.rulesets.linguomancy.checks import TestRequest, TestResult, resolve_test
from linguo_cli.rulesets.linguomancy.model import (
    Modifier,
    TestKind,
    ability_modifier_from_score,
)
from linguo_cli.rulesets.linguomancy.model import modifiers_from as modifiers_from

#: A handler's result: a typed result (a frozen dataclass with a
#: ``rolls_used`` field, made JSON by :func:`linguo_cli.core.results.to_plain`)
#: or, for the kinds not typed yet, the JSON dict itself.
Result = Any

Handler = Callable[[Mapping[str, Any], DiceSource], Result]

#: kind -> "module:function" of its handler, imported on first use.
HANDLERS: dict[str, str] = {
    "check": "linguo_cli.rulesets.linguomancy.requests:resolve_test_request",
    "attack": "linguo_cli.rulesets.linguomancy.requests:resolve_test_request",
    "save": "linguo_cli.rulesets.linguomancy.requests:resolve_test_request",
    "turn": "linguo_cli.rulesets.linguomancy.turn:resolve_turn_request",
    "damage": "linguo_cli.rulesets.linguomancy.damage:resolve_damage_request",
    "heal": "linguo_cli.rulesets.linguomancy.damage:resolve_heal_request",
    "temp_hp": "linguo_cli.rulesets.linguomancy.damage:resolve_temp_hp_request",
    "death_save": "linguo_cli.rulesets.linguomancy.damage:resolve_death_save_request",
    "odds": "linguo_cli.rulesets.linguomancy.odds:resolve_odds_request",
    "ticks": "linguo_cli.rulesets.linguomancy.ticks:resolve_ticks_request",
    "cast": "linguo_cli.rulesets.linguomancy.flux:resolve_cast_request",
    "overclock": "linguo_cli.rulesets.linguomancy.flux:resolve_overclock_request",
    "rest": "linguo_cli.rulesets.linguomancy.rest:resolve_rest_request",
    "dice": "linguo_cli.rulesets.linguomancy.dice_request:resolve_dice_request",
}


def handler_for(kind: str) -> Handler:
    """The handler function of a request kind; :class:`InputError` if unknown."""
    target = HANDLERS.get(kind)
    if target is None:
        raise InputError(Diagnostic("request", "kind", f"unknown request kind {kind!r}"))
    return _import_handler(target)


@cache
def _import_handler(target: str) -> Handler:
    """``"module:function"`` -> the function (imported once per target)."""
    module, _, func = target.partition(":")
    fn: Handler = getattr(importlib.import_module(module), func)
    return fn


def resolve(request: Mapping[str, Any], dice: DiceSource | None = None) -> Result:
    """Resolve one request (already schema-valid) and return its result: a
    typed result with ``rolls_used`` set (``dataclasses.replace``), or a dict
    with ``rolls_used`` added for the kinds not typed yet; JSON through
    :func:`linguo_cli.core.results.to_plain`.

    ``dice`` overrides the request's own ``rolls``/``seed``. Raises
    :class:`~linguo_cli.core.errors.RulesError` (exit 4) for an illegal request,
    :class:`~linguo_cli.core.errors.DiceError` when scripted faces run out or are
    left unused, :class:`InputError` for semantic errors.
    """
    if dice is None:
        if request.get("rolls") is not None and request.get("seed") is not None:
            raise InputError(Diagnostic(
                "request", "seed", "give rolls or seed, not both (rolls would be used)"))
        dice = make_source(request.get("rolls"), request.get("seed"))
    result = handler_for(str(request.get("kind")))(request, dice)
    dice.finish()
    if isinstance(result, dict):  # kinds not yet typed
        result["rolls_used"] = list(dice.used)
        return result
    return dataclasses.replace(result, rolls_used=tuple(dice.used))


def resolve_plain(request: Mapping[str, Any], dice: DiceSource | None = None
                  ) -> dict[str, Any]:
    """:func:`resolve`, then its JSON form (:func:`linguo_cli.core.results.to_plain`):
    for the runners that compare or send JSON. Raises what :func:`resolve` raises."""
    result = resolve(request, dice)
    if isinstance(result, dict):
        return result
    plain: dict[str, Any] = to_plain(result)
    return plain


# ---------------------------------------------------------------------------
# d20 tests


@cache
def published_idioms() -> dict[str, tuple[str, str]]:
    """Idioms of the default idiom catalog that carry their own names (not
    ``Verb - Noun``): name -> (Verb, Noun) (D7), e.g. Smith -> (Shape, Flux)."""
    from linguo_cli.rulesets.linguomancy.idioms import default_catalog

    return {i.name: (i.verb, i.noun) for i in default_catalog().idioms if " - " not in i.name}


def idiom_verb_noun(name: str) -> tuple[str, str] | None:
    """``"Shape - Fire"`` -> ``("Shape", "Fire")``; a published name such as
    ``Smith`` -> its Verb and Noun; ``None`` when neither."""
    if " - " in name:
        verb, _, noun = name.partition(" - ")
        return verb.strip(), noun.strip()
    for published, vn in published_idioms().items():
        if published.casefold() == name.strip().casefold():
            return vn
    return None


def noun_check_idiom(noun: str, idioms: list[str]) -> str | None:
    """Rule D7: the first known idiom whose Verb is Speak or Shape and whose
    Noun is ``noun`` (case-insensitive), or ``None``."""
    for name in idioms:
        vn = idiom_verb_noun(name)
        if vn and vn[0].casefold() in ("speak", "shape") and vn[1].casefold() == noun.casefold():
            return name
    return None


def ability_modifier(entity: Mapping[str, Any], ability: str) -> tuple[int, Step] | None:
    """The entity's modifier for ``ability`` and the D6 step that found it,
    from ``abilities`` (modifiers) or else ``ability_scores``; ``None`` if it
    has neither. Raises :class:`InputError` when it has both for ``ability``
    (D6 takes one or the other)."""
    mods = entity.get("abilities") or {}
    if ability in mods and ability in (entity.get("ability_scores") or {}):
        raise InputError(Diagnostic(
            "request", f"entity.ability_scores.{ability}",
            f"{ability} is given both as a modifier (abilities.{ability}) and as a score: "
            "give one or the other (D6)"))
    if ability in mods:
        value = int(mods[ability])
        return value, Step("D6", f"{ability} modifier {value:+d} given")
    scores = entity.get("ability_scores") or {}
    if ability in scores:
        score = int(scores[ability])
        value = ability_modifier_from_score(score)
        return value, Step(
            "D6", f"{ability} score {score} gives modifier floor(({score} - 10) / 2) = {value:+d}")
    return None


def build_test(request: Mapping[str, Any]) -> TestRequest:
    """Turn a check/attack/save request into a :class:`TestRequest`, applying
    D6 (ability from the entity), D7 (Noun checks), A3/A4 (AC) and S2/S3.

    Raises :class:`RulesError` (D7) for a Noun check without the idiom and
    :class:`InputError` for an ability the entity has no modifier for.
    """
    kind = TestKind(request["kind"])
    steps: list[Step] = []
    modifiers = list(modifiers_from(request.get("modifiers")))
    entity = request.get("entity") or {}
    automatic: str | None = None
    target: int | None = request.get("dc")

    ability = request.get("ability")
    if ability:
        found = ability_modifier(entity, ability)
        if found is not None:
            value, step = found
            modifiers.insert(0, Modifier(ability, value))
            steps.append(step)
        elif kind is TestKind.SAVE and request.get("entity") is not None:
            automatic = "no_ability"
        else:
            raise InputError(Diagnostic(
                "request", "ability",
                f"no modifier or score for {ability!r}: give the entity's abilities, or pass "
                "the modifier in modifiers"))
    if kind is TestKind.SAVE and request.get("no_ability"):
        automatic = "no_ability"

    noun = request.get("noun")
    if noun:
        known = list(entity.get("idioms") or [])
        idiom = noun_check_idiom(noun, known)
        if idiom is None:
            raise RulesError(
                "D7",
                f"a check about the Noun {noun} needs an idiom Speak - {noun} or Shape - {noun}; "
                f"the entity knows {', '.join(known) if known else 'no idiom'}",
                {"noun": noun, "known_idioms": known})
        steps.append(Step("D7", f"Noun check about {noun}: allowed, the entity knows {idiom}"))

    if kind is TestKind.ATTACK:
        ac = request.get("ac")
        if ac is None:
            automatic = "no_ac"
        elif isinstance(ac, Mapping):
            armour = int(ac.get("armour", 10))
            signature = int(ac.get("signature", 0))
            shield = int(ac.get("shield", 0))
            others = modifiers_from(ac.get("other"))
            target = armour + signature + shield + sum(m.value for m in others)
            parts = f"armour {armour}" + ("" if "armour" in ac else " (none worn)")
            parts += f" + Signature {signature:+d} + shield {shield:+d}"
            parts += "".join(f" + {m.label} {m.value:+d}" for m in others)
            steps.append(Step("A4", f"AC = {parts} = {target}"))
        else:
            target = int(ac)

    if kind is TestKind.SAVE and request.get("idiom_dc") is not None:
        idc = request["idiom_dc"]
        cost, potential = int(idc["flux_cost"]), int(idc["potential"])
        target = 10 + cost + potential
        steps.append(Step("S3", f"idiom save DC = 10 + Flux cost {cost} + Potential "
                                f"{potential:+d} = {target}"))

    return TestRequest(
        kind=kind,
        target=None if target is None else int(target),
        modifiers=tuple(modifiers),
        advantage=bool(request.get("advantage")),
        disadvantage=bool(request.get("disadvantage")),
        automatic=automatic,
        partial_success_hits=bool(request.get("partial_success_hits")),
        steps=tuple(steps),
    )


def resolve_test_request(request: Mapping[str, Any], dice: DiceSource) -> TestResult:
    """Handler of kinds ``check``, ``attack`` and ``save``: the typed
    :class:`~linguo_cli.rulesets.linguomancy.checks.TestResult`."""
    return resolve_test(build_test(request), dice)
