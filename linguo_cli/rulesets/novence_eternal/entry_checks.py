"""NV2's checks of the entries a document holds (catalog entries, a
combatant's weapons and armor, modifier entries), beyond what the schemas
say: the constraints between keys and the references to catalogs.

Every problem is a :class:`Problem`: its NV6 refusal code
(``missing_input``, ``bad_input``), the NV rule that defines the field
(NV1 a state, NV2 a catalog or an entry, NV3 a request), its NV6 place
(``state combatants.ayla.weapons.rifle.aim``, ``catalog conditions.Fear``)
and the path of the node in the document (for ``file:line:col``). The
checks collect every problem (:class:`Checker`); nothing here raises, and
nothing here applies a game rule. The documents are expected to have
passed their schemas (types and ranges); a node of another type is skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The modifier kinds named in NV2 and the side each belongs to (ND1).
NAMED_SIDES = {"ATK": "outgoing", "AFF": "outgoing", "CRIT_AFF": "outgoing", "DI": "outgoing",
               "RI": "outgoing", "DEF": "incoming", "RES": "incoming"}
_NO_TYPE = frozenset({"ATK", "DEF", "DI"})
_ONE_TYPE = frozenset({"AFF", "RES", "RI"})
#: The rule of an entry's own keys (NV2) and of its instance keys (NV1), NV6.
ENTRY, INSTANCE = "NV2", "NV1"
#: Instance keys (NV1): only on a combatant's own weapon or armor.
WEAPON_INSTANCE_KEYS = ("aim", "melee_aim", "broken")
#: The packaged condition catalog (NV2 Packaged defaults).
PACKAGED_CONDITIONS: dict[str, dict[str, Any]] = {
    "Bound": {"restricts_movement": True}, "Prone": {"restricts_movement": True},
    "Staggered": {"restricts_movement": True}, "Bleed": {"duration": {"turns": 1}},
}


@dataclass(frozen=True, slots=True)
class At:
    """Where a node stands: ``path`` in the document (keys and 0-based list
    indices) and its NV6 place, a ``root`` (``state``, ``catalog``,
    ``request``) followed by dotted ``parts`` (list items counted from 1,
    combatants by id)."""

    path: tuple[Any, ...]
    root: str
    parts: tuple[str, ...] = ()

    @property
    def place(self) -> str:
        """The NV6 place: ``state combatants.ayla.hp``."""
        return f"{self.root} {'.'.join(self.parts)}" if self.parts else self.root

    def key(self, name: str) -> At:
        """The node at key ``name``."""
        return At((*self.path, name), self.root, (*self.parts, name))

    def item(self, index: int, label: str | None = None) -> At:
        """The list item at 0-based ``index``, named ``label`` (default its
        number from 1)."""
        return At((*self.path, index), self.root, (*self.parts, label or str(index + 1)))


@dataclass(frozen=True, slots=True)
class Problem:
    """One input error (exit 3): ``code``, ``rule``, ``at`` and ``message``."""

    code: str
    rule: str | None
    at: At
    message: str


@dataclass
class Checker:
    """Collects problems; ``categories`` and the merged ``catalogs`` (NV2:
    request over state over packaged) are what references are checked
    against; ``map`` whether the encounter has one (NH4, NH5)."""

    catalogs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    map: bool = False
    problems: list[Problem] = field(default_factory=list)

    def add(self, code: str, rule: str | None, at: At, message: str) -> None:
        """Record a problem."""
        self.problems.append(Problem(code, rule, at, message))

    def catalog(self, name: str) -> Mapping[str, Any]:
        """One merged catalog (``{}`` when absent)."""
        found = self.catalogs.get(name)
        return found if isinstance(found, Mapping) else {}


def merged_catalogs(*layers: Any) -> dict[str, dict[str, Any]]:
    """NV2: the packaged entries, then each layer's (state, request) by
    name, an entry whose name is already there replacing it whole."""
    out: dict[str, dict[str, Any]] = {"conditions": dict(PACKAGED_CONDITIONS)}
    for layer in layers:
        if not isinstance(layer, Mapping):
            continue
        for name, entries in layer.items():
            if isinstance(entries, Mapping):
                out.setdefault(str(name), {}).update(entries)
    return out


def check_modifier(ck: Checker, entry: Any, at: At, *, outgoing_only: bool = False,
                   armor_allowed: bool = False) -> None:
    """An NV2 modifier entry (ND1): ``side`` required for another kind and
    absent for the named ones; ``type``/``category`` as the kind takes them
    (ATK, DEF, DI neither; AFF, RES, RI exactly one; others at most one);
    DI and RI a count; ``crit_only`` outgoing only; ``armor`` only in a
    ``modifiers`` request; on a weapon, outgoing entries only; a category
    of the categories catalog."""
    if not isinstance(entry, Mapping):
        return
    kind = entry.get("kind")
    side = NAMED_SIDES.get(kind) if isinstance(kind, str) else None
    if side is not None and "side" in entry:
        ck.add("bad_input", ENTRY, at.key("side"), f"{kind} takes no side (it is {side})")
    if side is None and isinstance(kind, str):
        side = entry.get("side")
        if side is None:
            ck.add("missing_input", ENTRY, at.key("side"), f"kind {kind} needs its side")
    typed = [k for k in ("type", "category") if k in entry]
    if (kind in _NO_TYPE and typed) or len(typed) > 1:
        ck.add("bad_input", ENTRY, at.key(typed[-1]), f"{kind} takes "
               + ("neither type nor category" if kind in _NO_TYPE else "at most one of them"))
    elif kind in _ONE_TYPE and not typed:
        ck.add("bad_input", ENTRY, at.key("type"), f"{kind} takes exactly one of type and category")
    value = entry.get("value")
    if kind in ("DI", "RI") and isinstance(value, int) and value < 0:
        ck.add("bad_input", ENTRY, at.key("value"), f"{kind} is a count (>= 0), not {value}")
    if entry.get("crit_only") and side == "incoming":
        ck.add("bad_input", ENTRY, at.key("crit_only"), "crit_only is for outgoing entries")
    if "armor" in entry and not armor_allowed:
        ck.add("bad_input", ENTRY, at.key("armor"), "armor stands only in a modifiers request")
    if outgoing_only and side == "incoming":
        ck.add("bad_input", ENTRY, at, "a weapon carries outgoing entries only")
    category = entry.get("category")
    if isinstance(category, str) and category not in ck.catalog("categories"):
        ck.add("bad_input", ENTRY, at.key("category"), f"no category {category!r} in the catalog")


def check_modifiers(ck: Checker, entries: Any, at: At, **how: bool) -> None:
    """Every entry of a ``modifiers`` list (see :func:`check_modifier`)."""
    if isinstance(entries, list):
        for k, entry in enumerate(entries):
            check_modifier(ck, entry, at.item(k), **how)


def _based(ck: Checker, doc: Mapping[str, Any], catalog: str, at: At,
           in_catalog: bool) -> Mapping[str, Any]:
    """``doc`` with the keys its ``base`` entry gives (NV2 ``base``)."""
    base = doc.get("base")
    if base is None:
        return doc
    if in_catalog:
        ck.add("bad_input", ENTRY, at.key("base"), "a catalog entry has no base")
        return doc
    entry = ck.catalog(catalog).get(base)
    if not isinstance(entry, Mapping):
        ck.add("bad_input", ENTRY, at.key("base"), f"no {catalog} entry {base!r} in the catalog")
        return doc
    return {**entry, **doc}


def check_weapon(ck: Checker, doc: Any, at: At, *, in_catalog: bool = False) -> None:
    """An NV2 weapon (a catalog entry, a combatant's weapon or an inline
    one): its required keys (``kind``, ``stat``, ``damage``, after
    ``base``), keys that belong to one kind only (``reach`` melee;
    ``range``, ``rate_of_fire`` ranged; the instance keys ``aim`` ranged,
    ``melee_aim`` melee), ``heavy`` with ``light``, an unarmed strike
    (melee, no ``dodge_mod``, no ``breakage``), ``ep`` only with ``basis:
    sc``, instance keys outside a catalog, and, with a map, ``reach`` or
    ``range`` for a weapon carried or used (NH4, NH5)."""
    if not isinstance(doc, Mapping):
        return
    if in_catalog:
        for key in WEAPON_INSTANCE_KEYS:
            if key in doc:
                ck.add("bad_input", ENTRY, at.key(key), f"{key} is an instance key, not a "
                       "catalog entry's")
    w = _based(ck, doc, "weapons", at, in_catalog)
    if not in_catalog:
        for key in ("kind", "stat", "damage"):
            if key not in w:
                ck.add("missing_input", ENTRY, at.key(key), f"a weapon needs {key}")
        _map_keys(ck, w, at)
    _kind_keys(ck, {k: v for k, v in w.items() if not (in_catalog and k in WEAPON_INSTANCE_KEYS)},
               w.get("kind"), at)
    if w.get("heavy") and w.get("light"):
        ck.add("bad_input", ENTRY, at.key("light"), "a weapon is not both heavy and light")
    if w.get("unarmed"):
        _unarmed(ck, w, at)
    if "ep" in w and w.get("basis", "ac") != "sc":
        ck.add("bad_input", ENTRY, at.key("ep"), "ep is for basis: sc only")
    check_modifiers(ck, w.get("modifiers"), at.key("modifiers"), outgoing_only=True)


def _unarmed(ck: Checker, w: Mapping[str, Any], at: At) -> None:
    """An unarmed strike is melee, with no ``dodge_mod`` or ``breakage``."""
    for key in ("dodge_mod", "breakage"):
        if w.get(key) is not None:
            ck.add("bad_input", ENTRY, at.key(key), f"an unarmed strike has no {key}")
    if w.get("kind") == "ranged":
        ck.add("bad_input", ENTRY, at.key("kind"), "an unarmed strike is melee")


def _map_keys(ck: Checker, w: Mapping[str, Any], at: At) -> None:
    """With a map, an AC-based melee weapon needs ``reach`` and a ranged
    one ``range`` (``missing_input``, NH4, NH5)."""
    kind = w.get("kind")
    need = "reach" if kind == "melee" else "range" if kind == "ranged" else None
    if ck.map and w.get("basis", "ac") == "ac" and need is not None and need not in w:
        ck.add("missing_input", ENTRY, at.key(need), f"with a map, a {kind} weapon needs "
               f"its {need}")


def _kind_keys(ck: Checker, w: Mapping[str, Any], kind: Any, at: At) -> None:
    """Keys of one weapon kind on the other (``bad_input``)."""
    only = {"reach": "melee", "melee_aim": "melee", "range": "ranged",
            "rate_of_fire": "ranged", "aim": "ranged"}
    for key, owner in only.items():
        given = w.get(key)
        if kind in ("melee", "ranged") and kind != owner and given not in (None, 0):
            ck.add("bad_input", INSTANCE if key in WEAPON_INSTANCE_KEYS else ENTRY, at.key(key),
                   f"{key} is for {owner} weapons, not {kind}")


def check_armor(ck: Checker, doc: Any, at: At, *, in_catalog: bool = False) -> None:
    """NV2 armor: ``pc_max`` required (after ``base``), ``pc`` not in a
    catalog and at most ``pc_max``, categories of the catalog, and no type
    that two categories give different levels or RES."""
    if not isinstance(doc, Mapping):
        return
    if in_catalog and "pc" in doc:
        ck.add("bad_input", ENTRY, at.key("pc"), "pc is an instance key, not a catalog entry's")
    a = _based(ck, doc, "armor", at, in_catalog)
    if "pc_max" not in a:
        ck.add("missing_input", ENTRY, at.key("pc_max"), "armor needs pc_max")
    pc, pc_max = a.get("pc"), a.get("pc_max")
    if isinstance(pc, int) and isinstance(pc_max, int) and pc > pc_max:
        ck.add("bad_input", INSTANCE, at.key("pc"), f"pc {pc} exceeds pc_max {pc_max}")
    _armor_categories(ck, a, at)


def _armor_categories(ck: Checker, a: Mapping[str, Any], at: At) -> None:
    given = a.get("categories")
    if not isinstance(given, Mapping):
        return
    types = a.get("types")
    own: Mapping[str, Any] = types if isinstance(types, Mapping) else {}
    seen: dict[str, tuple[str, Any]] = {}
    for cat, level_res in given.items():
        members = ck.catalog("categories").get(cat)
        if not isinstance(members, list):
            ck.add("bad_input", ENTRY, at.key("categories").key(cat),
                   f"no category {cat!r} in the catalog")
            continue
        for dtype in members:
            if dtype in own:
                continue
            if dtype in seen and seen[dtype][1] != level_res:
                ck.add("bad_input", ENTRY, at.key("categories").key(cat),
                       f"{dtype} gets another level or RES from {seen[dtype][0]}")
            seen.setdefault(dtype, (cat, level_res))


def check_catalogs(ck: Checker, catalogs: Any, at: At) -> None:
    """A document's own ``catalogs`` (NV2): every weapon, armor, condition
    and Ultimate entry."""
    if not isinstance(catalogs, Mapping):
        return
    for name, check in (("weapons", check_weapon), ("armor", check_armor)):
        for key, entry in _items(catalogs.get(name)):
            check(ck, entry, At((*at.path, name, key), "catalog", (name, key)), in_catalog=True)
    for key, entry in _items(catalogs.get("conditions")):
        _condition_entry(ck, entry, At((*at.path, "conditions", key), "catalog",
                                       ("conditions", key)))
    for key, entry in _items(catalogs.get("ultimates")):
        _ultimate_entry(ck, entry, At((*at.path, "ultimates", key), "catalog",
                                      ("ultimates", key)))


def _items(node: Any) -> list[tuple[str, Any]]:
    return [(str(k), v) for k, v in node.items()] if isinstance(node, Mapping) else []


def _condition_entry(ck: Checker, entry: Any, at: At) -> None:
    """A condition entry: ``save_ability`` when ``mental``; a ``tick``
    ``{type*, amount*, per_stack, times_value}``; a ``duration`` with one
    of ``rounds``, ``turns``, ``seconds`` (an int >= 1)."""
    if not isinstance(entry, Mapping):
        return
    if entry.get("mental") and "save_ability" not in entry:
        ck.add("missing_input", ENTRY, at.key("save_ability"), "a mental debuff needs its "
               "save_ability")
    tick = entry.get("tick")
    if isinstance(tick, Mapping):
        _shape(ck, tick, at.key("tick"), required=("type", "amount"),
               allowed=("type", "amount", "per_stack", "times_value", "description"))
        if not _exact_at_least_zero(tick.get("amount", 0)):
            ck.add("bad_input", ENTRY, at.key("tick").key("amount"), "amount is an exact "
                   "number >= 0 (an int or \"p/q\")")
        for flag in ("per_stack", "times_value"):
            if flag in tick and not isinstance(tick[flag], bool):
                ck.add("bad_input", ENTRY, at.key("tick").key(flag), f"{flag} is true or false")
    duration = entry.get("duration")
    if isinstance(duration, Mapping):
        units = [u for u in ("rounds", "turns", "seconds") if u in duration]
        value = duration.get(units[0]) if units else None
        if len(units) != 1 or len(duration) != 1 or not _int_at_least(value, 1):
            ck.add("bad_input", ENTRY, at.key("duration"), "a duration is {rounds: n}, "
                   "{turns: n} or {seconds: n}, n an int >= 1")


def _ultimate_entry(ck: Checker, entry: Any, at: At) -> None:
    """An Ultimate entry: ``cost`` 0..100 and ``zp`` (count) required,
    ``min_level`` a count, ``aa_cost`` an int >= 1; no other key."""
    if not isinstance(entry, Mapping):
        return
    _shape(ck, entry, at, required=("cost", "zp"),
           allowed=("cost", "zp", "min_level", "aa_cost", "description"))
    bounds = {"cost": (0, 100), "zp": (0, 1_000_000), "min_level": (0, 1_000_000),
              "aa_cost": (1, 1_000_000)}
    for key, (low, high) in bounds.items():
        value: Any = entry.get(key)
        if key in entry and not (_int_at_least(value, low) and value <= high):
            ck.add("bad_input", ENTRY, at.key(key), f"{key} is an int from {low} to {high}")


def _shape(ck: Checker, doc: Mapping[str, Any], at: At, *, required: tuple[str, ...],
           allowed: tuple[str, ...]) -> None:
    for key in required:
        if key not in doc:
            ck.add("missing_input", ENTRY, at.key(key), f"{key} is required")
    for key in doc:
        if key not in allowed:
            ck.add("bad_input", ENTRY, at.key(str(key)), f"{key!r} does not belong here")


def _int_at_least(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _exact_at_least_zero(value: Any) -> bool:
    """NV's exact type, at least 0: an int, or ``"p/q"`` (p, q at most 9
    digits, q >= 1)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value >= 0
    if not isinstance(value, str):
        return False
    p, sep, q = value.partition("/")
    return bool(sep) and p.isdigit() and q.isdigit() and len(p) <= 9 and len(q) <= 9 and \
        int(q) >= 1
