"""The working state of a ``script``, ``turn_start`` or ``event`` request.

:class:`World` holds a deep copy of the request's NV1 state as plain data
(the shape the engine writes back), the options in effect, the merged
catalogs (packaged < state < request, NV2), the dice source, the derivation
log and, per creature touched, its view before and its events (NV5). The
typed rules of the one-off requests read :class:`~..model.Creature` values:
:meth:`World.creature` builds one from the state, :meth:`World.store` writes
back what a rule changed. A key is written only when its value differs from
the one read (absent keys read as their NV1 default), so a state written
back changes only what play changed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import DiceSource

from ..documents import DocumentError, creature_of
from ..model import Creature, SecondChances
from ..options import Options, resolve_options

#: NV2's packaged condition entries.
PACKAGED_CONDITIONS: dict[str, dict[str, Any]] = {
    "Bound": {"restricts_movement": True}, "Prone": {"restricts_movement": True},
    "Staggered": {"restricts_movement": True}, "Bleed": {"duration": {"turns": 1}},
}


def merged_catalogs(state: Mapping[str, Any], request: Mapping[str, Any]) -> dict[str, Any]:
    """NV2: the packaged entries, then the state's, then the request's; an
    entry of a name already there replaces it whole."""
    out: dict[str, dict[str, Any]] = {"conditions": copy.deepcopy(PACKAGED_CONDITIONS)}
    for layer in (state.get("catalogs") or {}, request.get("catalogs") or {}):
        for name, entries in layer.items():
            if isinstance(entries, Mapping):
                out.setdefault(name, {}).update(copy.deepcopy(dict(entries)))
    return out


def _put(doc: dict[str, Any], key: str, value: Any, default: Any) -> None:
    """Write ``value`` at ``key`` only when it differs from what the doc reads."""
    if doc.get(key, default) != value:
        doc[key] = value


def view(doc: Mapping[str, Any]) -> dict[str, Any]:
    """NV5 ``before``/``after`` of a combatant document: ``hp``, ``max_hp``,
    ``true_max_hp``, ``thp``, ``thp_source``, ``injury``, ``ko``,
    ``stabilized``, ``critical_timer``, ``dead``, ``up``, ``charges``,
    ``conditions``, ``thp_granted`` when held and ``armor_pc`` when it wears
    armor."""
    charges = doc.get("charges") or {}
    out: dict[str, Any] = {
        "hp": doc["hp"], "max_hp": doc["max_hp"],
        "true_max_hp": doc.get("true_max_hp", doc["max_hp"]), "thp": doc.get("thp", 0),
        "thp_source": doc.get("thp_source"), "injury": doc.get("injury", 0),
        "ko": doc.get("ko", False), "stabilized": doc.get("stabilized", False),
        "critical_timer": doc.get("critical_timer"), "dead": doc.get("dead", False),
        "up": doc.get("up", 0),
        "charges": {k: charges.get(k, 0) for k in ("parry", "dodge", "guard")},
        "conditions": copy.deepcopy(list(doc.get("conditions") or [])),
    }
    if "thp_granted" in doc:
        out["thp_granted"] = doc["thp_granted"]
    armor = doc.get("armor")
    if armor:
        out["armor_pc"] = armor.get("pc", armor.get("pc_max"))
    return out


@dataclass
class World:
    """A state in play (see the module docstring). ``state`` is mutated in
    place; ``before`` and ``events`` are keyed by combatant id in the order
    they were first touched."""

    state: dict[str, Any]
    options: Options
    catalogs: dict[str, Any]
    request_catalogs: dict[str, Any]
    dice: DiceSource
    log: Derivation = field(default_factory=Derivation)
    before: dict[str, dict[str, Any]] = field(default_factory=dict)
    events: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[dict[str, str]] = field(default_factory=list)

    @classmethod
    def of(cls, request: Mapping[str, Any], dice: DiceSource) -> World:
        """The world of ``request`` (its ``state`` required): options state <
        request (the command line's are in the request's), catalogs merged."""
        state = copy.deepcopy(dict(request["state"]))
        options = resolve_options(state.get("options"), request.get("options"))
        return cls(state, options, merged_catalogs(state, request),
                   dict(request.get("catalogs") or {}), dice)

    def ids(self) -> list[str]:
        """Every combatant id in listed order."""
        return [c["id"] for c in self.state["combatants"]]

    def doc(self, cid: str) -> dict[str, Any]:
        """The combatant document ``cid``, noting its view before (NV5)."""
        for c in self.state["combatants"]:
            if c["id"] == cid:
                if cid not in self.before:
                    self.before[cid] = view(c)
                    self.events.setdefault(cid, [])
                found: dict[str, Any] = c
                return found
        raise DocumentError("bad_input", "NV4", f"combatant {cid}", f"no combatant {cid!r}")

    def creature(self, cid: str) -> Creature:
        """The combatant ``cid`` as the typed rules read it."""
        cats = {k: tuple(v) for k, v in self.catalogs.get("categories", {}).items()}
        return creature_of(self.doc(cid), cid, cats, self.catalogs.get("weapons", {})).creature

    def event(self, cid: str, text: str) -> None:
        """Add an NV5 event string to ``cid``'s events."""
        self.doc(cid)
        self.events[cid].append(text)

    @property
    def party(self) -> dict[str, Any]:
        """The state's ``party`` object (created when absent)."""
        party: dict[str, Any] = self.state.setdefault("party", {})
        return party

    def chances(self) -> SecondChances | None:
        """The party's Second Chances (NK10), or None when off."""
        sc = self.party.get("second_chances")
        return SecondChances(sc["max"], sc.get("pool", sc["max"])) if sc else None

    def set_chances(self, chances: SecondChances | None) -> None:
        """Write the Second Chance pool back (NK10)."""
        if chances is not None and self.party.get("second_chances"):
            _put(self.party["second_chances"], "pool", chances.pool, chances.max)

    def store(self, c: Creature) -> None:
        """Write back into ``c``'s document every field the typed rules change
        (HP, THP, Injury, KO, timers, locations, window, charges, hiding,
        armor PC, its equipped weapon's Aim stacks and breakage)."""
        d = self.doc(c.id)
        if c.ko and not d.get("ko", False):
            self._knocked_out(d)
        for key, value, default in (
                ("hp", c.hp, None), ("max_hp", c.max_hp, None), ("thp", c.thp, 0),
                ("injury", c.injury, 0), ("ko", c.ko, False), ("dead", c.dead, False),
                ("stabilized", c.stabilized, False), ("critical_timer", c.critical_timer, None),
                ("locations", list(c.locations), []), ("dodge_spent", c.dodge_spent, False),
                ("ko_window", {"damage": c.ko_window.damage, "stacked": c.ko_window.stacked},
                 {"damage": 0, "stacked": False})):
            _put(d, key, value, default)
        if c.thp_source is None:
            d.pop("thp_source", None)
        else:
            d["thp_source"] = c.thp_source
        if c.thp_granted is None:
            d.pop("thp_granted", None)
        else:
            d["thp_granted"] = c.thp_granted
        if c.true_max_hp is not None:
            _put(d, "true_max_hp", c.true_max_hp, d["max_hp"])
        charges = {"parry": c.charges.parry, "dodge": c.charges.dodge, "guard": c.charges.guard}
        held = d.get("charges") or {}
        if any(held.get(k, 0) != v for k, v in charges.items()):
            d["charges"] = charges
        hidden = None if c.hidden is None else {"stealth": c.hidden.stealth,
                                                "found_by": list(c.hidden.found_by)}
        _put(d, "hidden", hidden, None)
        if c.armor is not None and d.get("armor"):
            _put(d["armor"], "pc", c.armor.pc, d["armor"].get("pc_max"))
        self._store_weapon(d, c)

    def _knocked_out(self, d: dict[str, Any]) -> None:
        """NR3 (``charges_end_on_ko: true``): a creature knocked out loses its
        readied action and the Help it gave, with its charges (NK1)."""
        if not self.options.flag("charges_end_on_ko"):
            self.log.note("NR3", f"{d['id']} is knocked out and keeps its charges, readied "
                          "action and Help given (charges_end_on_ko: false)")
            return
        if d.get("readied") is not None:
            d["readied"] = None
            self.log.note("NR3", f"{d['id']} is knocked out: its readied action ends")
        for other in self.state["combatants"]:
            if other.get("helped_by") == d["id"]:
                other["helped_by"] = None
                self.log.note("NR3", f"{d['id']} is knocked out: its Help on {other['id']} ends")

    @staticmethod
    def _store_weapon(d: dict[str, Any], c: Creature) -> None:
        key = d.get("equipped")
        if key is None or c.equipped is None or key not in (d.get("weapons") or {}):
            return
        w = d["weapons"][key]
        if c.equipped.kind == "ranged":
            _put(w, "aim", c.equipped.aim, 0)
        _put(w, "broken", c.equipped.broken, False)


def side(doc: Mapping[str, Any]) -> str:
    """NV1: the party (player, ally) or the enemies."""
    return "enemy" if doc["kind"] == "enemy" else "party"


_STATS = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
_COMBATANT_DEFAULTS: tuple[tuple[str, Any], ...] = (
    ("prof", 0), ("proficient_saves", []), ("proficient_skills", []), ("class_tiers", []),
    ("ultimate_dice", 0), ("extra_attacks", 0), ("bonus_reactions", 0), ("crr", 0), ("far", 0),
    ("ac_bonus", 0), ("ac_cap", 30), ("sc_bonus", 0), ("resources", {}), ("modifiers", []),
    ("beheading_exception", False), ("thp", 0), ("injury", 0), ("ko", False),
    ("stabilized", False), ("critical_timer", None), ("dead", False), ("locations", []),
    ("ko_window", {"damage": 0, "stacked": False}), ("up", 0), ("zp", 0),
    ("ultimates_used", []), ("charges", {"parry": 0, "dodge": 0, "guard": 0}),
    ("dodge_spent", False), ("ra_used", False), ("bonus_reactions_used", 0),
    ("readied", None), ("helped_by", None), ("hidden", None), ("conditions", []),
    ("weapons", {}), ("equipped", None), ("armor", None))


def _complete_combatant(c: dict[str, Any]) -> None:
    c.setdefault("name", c["id"])
    for key in ("stats", "stat_bonuses"):
        c[key] = {s: (c.get(key) or {}).get(s, 0) for s in _STATS}
    c.setdefault("injury_track", c["kind"] == "player")
    c.setdefault("true_max_hp", c["max_hp"])
    for key, default in _COMBATANT_DEFAULTS:
        c.setdefault(key, copy.deepcopy(default))
    c["charges"] = {k: c["charges"].get(k, 0) for k in ("parry", "dodge", "guard")}
    if c.get("armor") is not None:
        c["armor"].setdefault("pc", c["armor"].get("pc_max"))
    for w in c["weapons"].values():
        kind = w.get("kind")
        if kind == "ranged":
            w.setdefault("aim", 0)
        if kind == "melee":
            w.setdefault("melee_aim", None)
        w.setdefault("broken", False)
    for cond in c["conditions"]:
        cond.setdefault("stacks", 1)
        cond.setdefault("value", None)


def complete(state: Mapping[str, Any]) -> dict[str, Any]:
    """NV1, NV5: the state with every key that has a value written out,
    defaults included (keys whose default is "absent" stay absent)."""
    out = copy.deepcopy(dict(state))
    for key, default in (("round", 1), ("turns_taken", []), ("map", False), ("zp", 0),
                         ("options", {}), ("catalogs", {})):
        out.setdefault(key, default)
    party = out.setdefault("party", {})
    party.setdefault("legendary_available", True)
    party.setdefault("second_chances", None)
    if party["second_chances"] is not None:
        party["second_chances"].setdefault("pool", party["second_chances"]["max"])
    party.setdefault("bank", 0)
    for c in out["combatants"]:
        _complete_combatant(c)
    return out
