"""The script steps whose rules live in their own request modules (NV4):
``sc_attack`` (NO6 through :func:`..sc_attack.resolve_sc_attack`, one call
per attack roll), ``meditate`` (NT12, NU3 through
:func:`..ultimate_requests.meditate_on`) and ``ultimate`` (NU6 through
:func:`..ultimate_requests.cast_ultimate`, then its ``effects`` as events
with the actor as their source). Paying (NT4-NT7: an ``sc_attack`` as an
``attack``, ``meditate`` a TA, ``ultimate`` its ``aa_cost`` AAs) is the
caller's (:mod:`.steps`); the actor's state is checked before payment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..documents import DocumentError
from ..sc_attack import resolve_sc_attack
from ..ultimate_requests import _debuff_choice, cast_ultimate, meditate_on
from ..zenith_documents import Working, check_catalogs, ultimate_of
from . import actions
from .events import run_events
from .world import World

#: The roll keys an ``sc_attack`` request does not take (NV3).
NOT_SC_KEYS = ("defense", "parry_stat", "parryable", "dodgeable", "guardable")


def sc_attack(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """An ``sc_attack`` step: one roll, or ``attacks`` (one per roll), with
    the ``basis: sc`` weapon ``weapon`` (required; another is
    ``bad_input``, NV3)."""
    key = step.get("weapon")
    if key is None:
        raise DocumentError("missing_input", "NV4", "weapon", "an sc_attack names its weapon")
    if key not in (world.doc(cid).get("weapons") or {}):
        raise DocumentError("bad_input", "NV4", "weapon", f"{cid} has no weapon {key!r}")
    if actions.weapon_doc(world, cid, str(key)).get("basis", "ac") != "sc":
        raise DocumentError("bad_input", "NV3", "weapon",
                            "an sc_attack needs a weapon with basis: sc (NH6)")
    rolls = step.get("attacks") or [step]
    for roll in rolls:
        extra = [k for k in NOT_SC_KEYS if k in roll]
        if extra:
            raise DocumentError("bad_input", "NV3", extra[0],
                                f"an sc_attack takes no {extra[0]} (NR4)")
    return {"attacks": [actions.one_attack(world, cid, str(key), r, resolve_sc_attack)
                        for r in rolls]}


def _working(world: World) -> Working:
    """The world seen as the Ultimate and Meditate modules' working state
    (the same objects: what they change, the world holds)."""
    return Working(world.state, {c["id"]: c for c in world.state["combatants"]},
                   world.options, world.catalogs, True, events=world.events, log=world.log)


def meditate(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """A ``meditate`` step (NT12, NU3): as the ``meditate`` request, its
    ``debuff`` as there; NV5 ``{actor, debuffs, up_gain}``."""
    world.doc(cid)
    check_catalogs(world.catalogs)
    w = _working(world)
    chosen = _debuff_choice(w, step)
    debuffs, gain = meditate_on(w, cid, world.creature(cid), chosen, world.dice)
    return {"actor": cid, "debuffs": debuffs,
            "up_gain": {"faces": list(gain.faces), "bonus": gain.bonus, "gained": gain.gained,
                        "lost": gain.lost, "up_after": gain.up_after}}


def ultimate_cost(world: World, step: Mapping[str, Any]) -> int:
    """NU6, NV4: the AAs an ``ultimate`` step costs, its catalog entry's
    ``aa_cost`` (``bad_input`` at ``name`` for a name the catalogs lack)."""
    return ultimate_of(world.catalogs, step["name"], "name").aa_cost


def ultimate(world: World, cid: str, step: Mapping[str, Any]) -> dict[str, Any]:
    """An ``ultimate`` step (NU6, NU4): the cast (refused with NU6's first
    failing requirement), then its ``effects`` (events, the actor their
    source). NV5 ``ultimate`` fields plus ``effects`` (one record per
    event)."""
    entry = ultimate_of(world.catalogs, step["name"], "name")
    done = cast_ultimate(world.state, world.doc(cid), entry, world.options, world.log)
    effects = run_events(world, step.get("effects", ()), "", cid, "effect")
    return {"actor": cid, "name": entry.name, "up_before": done.up_before,
            "up_after": done.up_after, "zp_before": done.zp_before, "zp_after": done.zp_after,
            "level_before": done.level_before, "level_after": done.level_after,
            "effects": effects}
