"""Reading an NV3 ``dc_effect`` request into an :class:`~.effect.EffectSpec`.

Targets are combatant objects (no ``state``; an object without ``id`` is
``target1``, ``target2``, ...) or ids of the request's ``state``; ``source``
likewise (``source`` when inline). ``dc`` is an int, or ``{base, prof,
stat}`` worked out from the source (NS6: base + PROF if ``prof`` + the named
stat). Faults are ``DocumentError`` (exit 3, ``missing_input`` or
``bad_input``) and ``OptionError`` (``bad_option``), before any die.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .documents import (
    Doc,
    DocumentError,
    _cover,
    creature_of,
    damage_faces_within,
    modifier_entries,
)
from .effect import EffectSpec, EffectTarget
from .model import Component, Creature, SecondChances
from .options import Options, resolve_options


def _component(doc: Doc) -> Component:
    dice = doc.get("dice")
    n, _, sides = dice.partition("d") if isinstance(dice, str) else ("", "", "")
    return Component(doc["type"], (int(n), int(sides)) if dice else None, doc.get("static", 0))


def _creature(given: Any, default_id: str, by_id: Mapping[str, Doc] | None,
              categories: Mapping[str, Sequence[str]], place: str) -> Creature:
    """A combatant named by id (with a state) or given inline (without)."""
    if by_id is not None:
        if not isinstance(given, str) or given not in by_id:
            raise DocumentError("bad_input", "NV3", place, f"no combatant {given!r}")
        return creature_of(by_id[given], given, categories).creature
    if not isinstance(given, Mapping):
        raise DocumentError("bad_input", "NV3", place, "without state, give a combatant object")
    return creature_of(given, default_id, categories).creature


def _dc(request: Doc, source: Creature | None, options: Options) -> tuple[int, str | None]:
    """NS6: the DC itself, or base + PROF (``prof``) + a stat of the source;
    returns the DC and, for an object, its sum in words."""
    dc = request["dc"]
    if isinstance(dc, int):
        return dc, None
    if source is None:
        raise DocumentError("missing_input", "NV3", "request source",
                            "a dc object needs the source whose PROF and stat it reads")
    stat = dc.get("stat")
    prof = source.prof if dc.get("prof", False) else 0
    value = source.stat(stat, options) if stat else 0
    total = int(dc["base"] + prof + value)
    text = f"base {dc['base']}" + (f" + PROF {prof}" if dc.get("prof", False) else "") + (
        f" + {stat} {value}" if stat else "") + f" = {total}"
    return total, text


def dc_effect_request(request: Doc) -> tuple[EffectSpec, Options]:
    """An NV3 ``dc_effect`` request (options: state < request; the command
    line's are already in the request's)."""
    state = request.get("state")
    top = state if state is not None else request
    catalogs = {**(top.get("catalogs") or {}), **request.get("catalogs", {})} \
        if state is not None else request.get("catalogs", {})
    categories = {k: tuple(v) for k, v in catalogs.get("categories", {}).items()}
    options = resolve_options((state or {}).get("options"), request.get("options"))
    by_id = {c["id"]: c for c in state["combatants"]} if state is not None else None
    source = _creature(request["source"], "source", by_id, categories, "request source") \
        if request.get("source") is not None else None
    targets = []
    for i, item in enumerate(request["targets"]):
        place = f"request targets.{i + 1}"
        creature = _creature(item["target"], f"target{i + 1}", by_id, categories, place)
        if item.get("relies_on_cover") and item.get("cover") is None:
            raise DocumentError("missing_input", "NV3", f"{place}.cover",
                                "a target relying on cover needs its cover")
        targets.append(EffectTarget(
            creature, bool(item.get("relies_on_cover", False)), _cover(item.get("cover")),
            bool(item.get("advantage", False)), bool(item.get("disadvantage", False)),
            tuple(b["value"] for b in item.get("bonuses", ())),
            modifier_entries(item.get("modifiers", []), categories)))
    ids = [t.creature.id for t in targets]
    if len(set(ids)) != len(ids):
        raise DocumentError("bad_input", "NV3", "request targets", "a target is named twice")
    chances = (top.get("party") or {}).get("second_chances")
    dc, dc_text = _dc(request, source, options)
    spec = EffectSpec(
        dc, request["save"], request["on_success"],
        tuple(_component(c) for c in request["damage"]), tuple(targets), source=source,
        ranged=bool(request.get("ranged", False)),
        modifiers=modifier_entries(request.get("modifiers", []), categories),
        ignores_thp=bool(request.get("ignores_thp", False)), location=request.get("location"),
        new_window=bool(request.get("new_window", False)), categories=categories,
        second_chances=SecondChances(chances["max"], chances.get("pool", chances["max"]))
        if chances else None, dc_text=dc_text)
    damage_faces_within(sum(c.dice[0] for c in spec.damage if c.dice),
                        1 if options.is_("aoe_damage_roll", "shared") else len(spec.targets),
                        "request damage")
    return spec, options
