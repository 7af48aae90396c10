"""Reading and writing the NV1 state for the Ultimate, Meditate and
Traversal requests (NV1, NV2, NV3).

:func:`working` turns a request into a :class:`Working` state: a deep copy
of its ``state``, or one built from the inline combatant objects it names
(ids defaulting to the role's name; ``round``, ``map``, ``zp`` and
``party`` taken from the request's top level). The NU fields stand where
NV1 puts them: ``zp`` at the state's top level (the shared meter) or on
each combatant under ``zenith_meter: per_creature``; ``up``,
``ultimate_dice`` and ``ultimates_used`` on each combatant. Faults are
:class:`~.documents.DocumentError` (exit 3: ``missing_input``,
``bad_input``) placed at ``state ...``, ``request ...`` or ``catalog ...``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.derivation import Derivation

from .documents import Doc, DocumentError, creature_of
from .model import Creature
from .options import Options, resolve_options
from .results import creature_view
from .zenith import Ultimate

#: NV2's packaged condition entries (only what the chapter gives).
PACKAGED_CONDITIONS: dict[str, dict[str, Any]] = {
    "Bound": {"restricts_movement": True}, "Prone": {"restricts_movement": True},
    "Staggered": {"restricts_movement": True}, "Bleed": {"duration": {"turns": 1}}}
_ULTIMATE_KEYS = {"cost", "zp", "min_level", "aa_cost", "description"}


@dataclass
class Working:
    """A request's state being worked on: ``state`` (a deep copy, changed in
    place), its combatants ``by_id``, the ``options`` in effect, the merged
    ``catalogs``, the combatants touched (``before``: a deep copy of each
    object as it was), and the derivation ``log``."""

    state: dict[str, Any]
    by_id: dict[str, dict[str, Any]]
    options: Options
    catalogs: dict[str, dict[str, Any]]
    given: bool
    before: dict[str, dict[str, Any]] = field(default_factory=dict)
    events: dict[str, list[str]] = field(default_factory=dict)
    log: Derivation = field(default_factory=Derivation)

    def touch(self, cid: str) -> dict[str, Any]:
        """The combatant ``cid`` (its object in ``state``), noted as touched."""
        doc = self.by_id[cid]
        self.before.setdefault(cid, copy.deepcopy(doc))
        self.events.setdefault(cid, [])
        return doc

    def creature(self, cid: str) -> Creature:
        """The combatant ``cid`` as the typed :class:`~.model.Creature`."""
        return creature_of(self.by_id[cid], cid, {}).creature


def _merged(request: Doc, state: Doc | None) -> dict[str, dict[str, Any]]:
    """NV2: packaged < state < request catalogs, an entry replacing whole."""
    out: dict[str, dict[str, Any]] = {"conditions": dict(PACKAGED_CONDITIONS),
                                      "ultimates": {}, "weapons": {}, "armor": {},
                                      "categories": {}}
    for layer in ((state or {}).get("catalogs") or {}, request.get("catalogs") or {}):
        for name, entries in layer.items():
            if name != "description":
                out.setdefault(name, {}).update(entries)
    return out


def working(request: Doc, roles: Sequence[tuple[Any, str, str]]) -> tuple[Working, list[str]]:
    """The request's :class:`Working` state and the ids of ``roles``, each
    ``(given, default id, place)``: an id of the ``state``'s combatants, or
    without ``state`` an inline combatant object (``None`` skips the role).
    Checks NV1's ``zp`` placement and the catalogs' Ultimate and mental
    condition entries before any die."""
    state = request.get("state")
    options = resolve_options((state or {}).get("options"), request.get("options"))
    if state is not None:
        built = copy.deepcopy(dict(state))
    else:
        built = {k: copy.deepcopy(request[k]) for k in ("round", "map", "zp", "party")
                 if k in request}
        built["combatants"] = []
    by_id = {c["id"]: c for c in built["combatants"]}
    ids = []
    for given, default_id, place in roles:
        if given is None:
            continue
        ids.append(_named(built, by_id, given, default_id, place, state is not None))
    w = Working(built, by_id, options, _merged(request, state), state is not None)
    _check_zp(w)
    check_catalogs(w.catalogs)
    return w, ids


def _named(built: dict[str, Any], by_id: dict[str, dict[str, Any]], given: Any,
           default_id: str, place: str, with_state: bool) -> str:
    if with_state:
        if not isinstance(given, str) or given not in by_id:
            raise DocumentError("bad_input", "NV3", place, f"no combatant {given!r}")
        return given
    if not isinstance(given, Mapping):
        raise DocumentError("bad_input", "NV3", place, "without state, give a combatant object")
    doc = copy.deepcopy(dict(given))
    cid = doc.setdefault("id", default_id)
    if cid in by_id:
        if by_id[cid] == doc:
            return str(cid)
        raise DocumentError("bad_input", "NV3", place, f"the id {cid} is used twice")
    creature_of(doc, cid, {})  # required keys (missing_input) before any die
    built["combatants"].append(doc)
    by_id[cid] = doc
    return str(cid)


def _check_zp(w: Working) -> None:
    """NV1: a ``zp`` other than 0 that ``zenith_meter`` does not read is
    ``bad_input``."""
    if w.options.is_("zenith_meter", "per_creature"):
        if w.state.get("zp", 0):
            raise DocumentError("bad_input", "NV1", "state zp" if w.given else "request zp",
                                "the shared zp stays 0 under zenith_meter: per_creature")
        return
    for cid, c in w.by_id.items():
        if c.get("zp", 0):
            raise DocumentError("bad_input", "NV1", f"state combatants.{cid}.zp",
                                "a combatant's zp is read only under zenith_meter: "
                                "per_creature")


def check_catalogs(catalogs: Mapping[str, Mapping[str, Any]]) -> None:
    """NV2: every Ultimate entry (``cost`` 0..100 and ``zp`` required,
    ``min_level`` a count, ``aa_cost`` >= 1, nothing else) and every mental
    condition entry (``save_ability`` required)."""
    for name in catalogs.get("ultimates", {}):
        ultimate_of(catalogs, name)
    for name, entry in catalogs.get("conditions", {}).items():
        if entry.get("mental") and "save_ability" not in entry:
            raise DocumentError("missing_input", "NV2",
                                f"catalog conditions.{name}.save_ability",
                                "a mental debuff names the stat that saves against it")


def _count(entry: Doc, key: str, place: str, low: int, high: int, default: int | None) -> int:
    if key not in entry:
        if default is None:
            raise DocumentError("missing_input", "NV2", f"{place}.{key}", f"{key} is required")
        return default
    value = entry[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DocumentError("bad_input", "NV2", f"{place}.{key}",
                            f"{key} is an integer {low}..{high}")
    return value


def ultimate_of(catalogs: Mapping[str, Mapping[str, Any]], name: str,
                place: str = "request name") -> Ultimate:
    """The Ultimate ``name`` of the merged catalogs, checked (NV2); a name
    the catalogs do not hold is ``bad_input`` at ``place``."""
    entry = catalogs.get("ultimates", {}).get(name)
    if entry is None:
        raise DocumentError("bad_input", "NV3", place, f"no Ultimate {name!r} in the catalogs")
    where = f"catalog ultimates.{name}"
    extra = sorted(set(entry) - _ULTIMATE_KEYS)
    if extra:
        raise DocumentError("bad_input", "NV2", f"{where}.{extra[0]}",
                            f"{extra[0]} is not a key of an Ultimate")
    return Ultimate(name, _count(entry, "cost", where, 0, 100, None),
                    _count(entry, "zp", where, 0, 1_000_000, None),
                    _count(entry, "min_level", where, 0, 1_000_000, 0),
                    _count(entry, "aa_cost", where, 1, 1_000_000, 1))


def view(doc: Doc) -> dict[str, Any]:
    """NV5 ``before``/``after`` of a combatant object: the attack's fields,
    ``true_max_hp``, ``up`` and ``conditions``."""
    out = creature_view(creature_of(doc, str(doc.get("id", "")), {}).creature)
    out["true_max_hp"] = doc.get("true_max_hp", doc.get("max_hp"))
    out["up"] = doc.get("up", 0)
    out["conditions"] = copy.deepcopy(list(doc.get("conditions", [])))
    return out


def write_back(doc: dict[str, Any], after: Creature) -> None:
    """Write the fields NL2 and NK change (HP, THP, Injury, KO, timer,
    death, locations, KO window, charges) from ``after`` into the combatant
    object ``doc``."""
    doc.update(hp=after.hp, thp=after.thp, injury=after.injury, ko=after.ko,
               stabilized=after.stabilized, critical_timer=after.critical_timer,
               dead=after.dead, locations=list(after.locations),
               ko_window={"damage": after.ko_window.damage, "stacked": after.ko_window.stacked},
               charges={"parry": after.charges.parry, "dodge": after.charges.dodge,
                        "guard": after.charges.guard})
    if after.thp_source is None:
        doc.pop("thp_source", None)
    else:
        doc["thp_source"] = after.thp_source
    if after.thp_granted is None:
        doc.pop("thp_granted", None)
    else:
        doc["thp_granted"] = after.thp_granted


def state_after(w: Working) -> dict[str, Any]:
    """NV5 ``state``: the state after, with the NU keys written out (the
    top-level ``zp``; each combatant's ``up``, ``zp`` and
    ``ultimates_used``), defaults included."""
    out = copy.deepcopy(w.state)
    out.setdefault("zp", 0)
    for c in out["combatants"]:
        c.setdefault("up", 0)
        c.setdefault("zp", 0)
        c.setdefault("ultimates_used", [])
    return out


def combatants_record(w: Working) -> dict[str, Any]:
    """NV5 ``combatants``: ``{id: {before, after, events}}`` of those touched."""
    return {cid: {"before": view(old), "after": view(w.by_id[cid]),
                  "events": list(w.events.get(cid, []))}
            for cid, old in w.before.items()}
