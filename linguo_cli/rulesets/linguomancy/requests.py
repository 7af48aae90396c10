"""Linguomancy's d20 test requests (``check``, ``attack``, ``save``): a
validated request in, a result dict out, and the request helpers other
handlers share (modifiers, D6 abilities, D7 Noun checks).

Dispatch of every kind is :func:`linguo_cli.core.requests.resolve`, through
the handler table of :mod:`linguo_cli.rulesets.linguomancy.ruleset`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice_sources import DiceSource
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.rulesets.linguomancy.checks import TestRequest, TestResult, resolve_test
from linguo_cli.rulesets.linguomancy.d20_model import (
    Modifier,
    TestKind,
    ability_modifier_from_score,
)
from linguo_cli.rulesets.linguomancy.d20_model import modifiers_from as modifiers_from

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


#: ``kind`` value -> :class:`TestKind` (an enum call by value costs more).
_TEST_KINDS: dict[str, TestKind] = {k.value: k for k in TestKind}


def build_test(request: Mapping[str, Any]) -> TestRequest:
    """Turn a check/attack/save request into a :class:`TestRequest`, applying
    D6 (ability from the entity), D7 (Noun checks), A3/A4 (AC) and S2/S3.

    Raises :class:`RulesError` (D7) for a Noun check without the idiom and
    :class:`InputError` for an ability the entity has no modifier for.
    """
    kind = _TEST_KINDS.get(request["kind"]) or TestKind(request["kind"])
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
