"""NV5 ``state``: the state after a request that changes creatures.

:func:`written_state` gives it for the kinds built on one request's
creatures (``attack``, ``sc_attack``, ``dc_effect``, ``thp``, ``heal``,
``check``, ``ko_roll``, ``stabilize``, ``rest``, ``resurrect``,
``injury``): the request's ``state`` when it has one, else a state built
from the combatant objects it gives inline (each with its id), with every
creature the request touched written back (HP, THP and its source,
Injury, KO, stabilization, critical timer, death, locations, KO window,
charges: :func:`.zenith_documents.write_back`) and the party's Second
Chances after, when the request had them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .documents import Doc
from .model import Creature, SecondChances
from .zenith_documents import write_back


def written_state(state: Doc | None, objects: Mapping[str, Doc],
                  after: Mapping[str, Creature],
                  chances: SecondChances | None) -> dict[str, Any]:
    """The NV5 ``state`` after a request.

    ``state``: the request's state (``None`` without one); ``objects``: the
    inline combatant objects by the id they were given (used without a
    state, in order); ``after``: the creatures after, by id; ``chances``:
    the party's Second Chances after (``None`` when off). Never raises."""
    if state is not None:
        out: dict[str, Any] = copy.deepcopy(dict(state))
    else:
        out = {"combatants": [{**copy.deepcopy(dict(doc)), "id": cid}
                              for cid, doc in objects.items()]}
    for doc in out.get("combatants", []):
        creature = after.get(doc.get("id"))
        if creature is not None:
            write_back(doc, creature)
    if chances is not None:
        party = out.setdefault("party", {})
        party["second_chances"] = {"max": chances.max, "pool": chances.pool}
    return out


def party_after(party: Any) -> SecondChances | None:
    """The Second Chances after from a result's ``party`` field
    (``{second_chances}`` or ``{before, after}``, or absent)."""
    if not isinstance(party, Mapping):
        return None
    record = party.get("after", party).get("second_chances")
    return SecondChances(record["max"], record["pool"]) if record else None


def inline_objects(pairs: Iterable[tuple[str, Any]]) -> dict[str, Doc]:
    """The inline combatant objects of a request by creature id: ``pairs``
    of (id, the request's value for it); ids given as strings (named in the
    state) are left out."""
    return {cid: given for cid, given in pairs if isinstance(given, Mapping)}


def attack_state(request: Mapping[str, Any], before: tuple[Creature, Creature],
                 after: tuple[Creature, Creature],
                 chances: SecondChances | None) -> dict[str, Any]:
    """NV5 ``state`` of an ``attack`` or ``sc_attack``: ``before`` and
    ``after`` are (attacker, target)."""
    objects = inline_objects(zip((before[0].id, before[1].id),
                                 (request.get("attacker"), request.get("target")),
                                 strict=True))
    return written_state(request.get("state"), objects,
                         {c.id: c for c in after}, chances)


def effect_state(request: Mapping[str, Any], source: Creature | None,
                 before: Sequence[Creature], after: Sequence[Creature],
                 chances: SecondChances | None) -> dict[str, Any]:
    """NV5 ``state`` of a ``dc_effect``: its ``source`` (unchanged, or
    ``None``) and its targets ``before`` and ``after``, in the request's
    ``targets`` order (an entry ``{target, relies_on_cover, ...}`` gives its
    ``target``)."""
    pairs: list[tuple[str, Any]] = [] if source is None else [(source.id, request.get("source"))]
    given = [t["target"] if isinstance(t, Mapping) and "target" in t else t
             for t in request.get("targets", ())]
    pairs += zip((c.id for c in before), given, strict=False)
    return written_state(request.get("state"), inline_objects(pairs),
                         {c.id: c for c in after}, chances)
