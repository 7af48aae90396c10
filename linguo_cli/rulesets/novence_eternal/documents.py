"""Reading NV documents into the typed inputs of this slice (NV1-NV3).

:func:`attack_request` reads a one-off ``attack`` request (NV3), inline
combatant objects or a ``state`` with ids; :func:`modifiers_request` reads a
``modifiers`` request. This is not the validating reader (schemas and the
full ``missing_input``/``bad_input`` checks of NV belong to the io layer
when the ruleset is wired in): it trusts the shapes, and reports a missing
required key as ``missing_input`` and a reference to nothing as
``bad_input``, each an ``InputError`` (exit 3) whose ``refusal`` is the code.

:class:`NamedFaces` is the dice source of a request's ``rolls``: integers,
or ``"dS:F"`` strings whose die must be the one asked for (NV3 Faces).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from linguo_cli.core.dice import DiceSource
from linguo_cli.core.errors import Diagnostic, DiceError, InputError

from .exact import parse_exact
from .model import (
    RESTRICTING,
    Armor,
    ArmorType,
    AttackSpec,
    Charges,
    Component,
    Cover,
    Creature,
    Hidden,
    KoWindow,
    SecondChances,
    Weapon,
)
from .modifiers import ModEntry, expand_categories
from .options import Options, resolve_options

Doc = Mapping[str, Any]


class DocumentError(InputError):
    """A document fault (exit 3) with its NV refusal code and NV rule."""

    def __init__(self, code: str, rule: str, place: str, message: str) -> None:
        super().__init__(Diagnostic(place, place, message))
        self.refusal = code
        self.rule = rule


def _need(doc: Doc, key: str, place: str, rule: str = "NV3") -> Any:
    if key not in doc:
        raise DocumentError("missing_input", rule, f"{place} {key}".strip(),
                            f"{key} is required")
    return doc[key]


class FaceError(DiceError):
    """A fault of ``rolls`` found during play (exit 3): ``missing_input`` when
    faces run out, ``bad_input`` for a face that does not fit, names another
    die or is left over (NV3 Faces); rule NV3."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.refusal = code
        self.rule = "NV3"


class NamedFaces(DiceSource):
    """Scripted faces of NV3: an int, or ``"dS:F"`` naming the die asked for.
    Too few faces, a face that does not fit or names another die, and faces
    left over raise :class:`FaceError` (exit 3)."""

    def __init__(self, rolls: Sequence[int | str]) -> None:
        super().__init__()
        self.faces = [self._read(r) for r in rolls]
        self._next = 0

    @staticmethod
    def _read(item: int | str) -> tuple[int | None, int]:
        if isinstance(item, str) and item.startswith("d") and ":" in item:
            sides, _, face = item[1:].partition(":")
            return int(sides), int(face)
        return None, int(item)

    def _draw(self, sides: int) -> int:
        if self._next >= len(self.faces):
            raise FaceError("missing_input", f"rolls: a d{sides} finds no face")
        named, face = self.faces[self._next]
        if named is not None and named != sides:
            raise FaceError("bad_input",
                            f"rolls {self._next + 1}: d{named} given, a d{sides} asked for")
        if not 1 <= face <= sides:
            raise FaceError("bad_input", f"rolls {self._next + 1}: {face} does not fit a d{sides}")
        self._next += 1
        return face

    def finish(self) -> None:
        """Faces left over are ``bad_input`` at the first one left."""
        if self._next < len(self.faces):
            raise FaceError("bad_input", f"rolls {self._next + 1}: a face left over")

    @property
    def scripted(self) -> bool:
        return True


def modifier_entries(items: Sequence[Doc], categories: Mapping[str, Sequence[str]]
                     ) -> tuple[ModEntry, ...]:
    """NV2 modifier entries as :class:`ModEntry`, categories expanded (ND1)."""
    try:
        entries = [ModEntry(e["kind"], e["value"], e.get("category") or e.get("type"),
                            e.get("side", ""), e.get("crit_only", False), e.get("armor", False),
                            label=e.get("label")) for e in items]
    except ValueError as exc:  # an entry of another kind without its side (ND1)
        raise DocumentError("missing_input", "NV2", "modifiers side", str(exc)) from None
    return expand_categories(entries, categories)


def _dice(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    n, _, s = text.partition("d")
    return int(n), int(s)


def weapon_of(doc: Doc, key: str, categories: Mapping[str, Sequence[str]],
              catalog: Mapping[str, Doc] | None = None) -> Weapon:
    """An NV2 weapon object (``base`` filled in from the weapons catalog)."""
    if "base" in doc and catalog is not None:
        if doc["base"] not in catalog:
            raise DocumentError("bad_input", "NV2", f"weapon {key}.base",
                                f"no weapon {doc['base']!r} in the weapons catalog")
        doc = {**catalog[doc["base"]], **doc}
    damage = tuple(Component(c["type"], _dice(c.get("dice")), c.get("static", 0))
                   for c in _need(doc, "damage", f"weapon {key}", "NV2"))
    return Weapon(
        doc.get("name", key), _need(doc, "kind", f"weapon {key}", "NV2"), damage,
        stat=doc.get("stat"), to_hit=doc.get("to_hit", 0),
        proficient=doc.get("proficient", False), heavy=doc.get("heavy", False),
        light=doc.get("light", False), unarmed=doc.get("unarmed", False),
        reach=doc.get("reach"), range=doc.get("range"), parry_mod=doc.get("parry_mod", 0),
        dodge_mod=doc.get("dodge_mod", 0), breakage=doc.get("breakage"), ap=doc.get("ap"),
        modifiers=modifier_entries(doc.get("modifiers", []), categories),
        parryable=doc.get("parryable", True), dodgeable=doc.get("dodgeable", True),
        guardable=doc.get("guardable", True), ignores_thp=doc.get("ignores_thp", False),
        aim=doc.get("aim", 0), broken=doc.get("broken", False),
        can_dismember=doc.get("can_dismember", False), location=doc.get("location"),
        basis=doc.get("basis", "ac"), ep=doc.get("ep", 0))


def armor_of(doc: Doc, categories: Mapping[str, Sequence[str]]) -> Armor:
    """NV2 armor: ``pc`` defaults to ``pc_max``; category entries fill the
    member types that have no entry of their own."""
    types = {t: ArmorType(v["level"], v["res"]) for t, v in doc.get("types", {}).items()}
    for cat, v in doc.get("categories", {}).items():
        for t in categories.get(cat, ()):
            types.setdefault(t, ArmorType(v["level"], v["res"]))
    pc_max = _need(doc, "pc_max", "armor", "NV2")
    return Armor(doc.get("pc", pc_max), pc_max, types, doc.get("name", "armor"))


@dataclass(frozen=True, slots=True)
class CreatureDoc:
    """A combatant read from its document, with its weapons by key, the key
    of the equipped one and whether a Help is pending on it (NT8)."""

    creature: Creature
    weapons: Mapping[str, Weapon]
    equipped_key: str | None
    helped: bool


def creature_of(doc: Doc, default_id: str, categories: Mapping[str, Sequence[str]],
                catalog: Mapping[str, Doc] | None = None) -> CreatureDoc:
    """An NV1 combatant object as a :class:`Creature` (inline or from a state)."""
    cid = doc.get("id", default_id)
    place = f"state combatants.{cid}"
    weapons = {k: weapon_of(w, k, categories, catalog) for k, w in doc.get("weapons", {}).items()}
    key = doc.get("equipped")
    if key is not None and key not in weapons:
        raise DocumentError("bad_input", "NV1", f"{place}.equipped", f"no weapon {key!r}")
    unarmed = next((w for w in weapons.values() if w.unarmed), None)
    hidden = doc.get("hidden")
    creature = Creature(
        cid, _need(doc, "hp", place, "NV1"), _need(doc, "max_hp", place, "NV1"),
        kind=_need(doc, "kind", place, "NV1"), stats=dict(doc.get("stats", {})),
        stat_bonuses=dict(doc.get("stat_bonuses", {})), prof=doc.get("prof", 0),
        proficient_saves=frozenset(doc.get("proficient_saves", ())),
        proficient_skills=frozenset(doc.get("proficient_skills", ())),
        passive_perception=doc.get("passive_perception"), crr=doc.get("crr", 0),
        far=doc.get("far", 0), ac_bonus=doc.get("ac_bonus", 0), ac_cap=doc.get("ac_cap", 30),
        thp=doc.get("thp", 0), thp_source=doc.get("thp_source"),
        thp_granted=doc.get("thp_granted"), injury=doc.get("injury", 0),
        ko=doc.get("ko", False), dead=doc.get("dead", False),
        modifiers=modifier_entries(doc.get("modifiers", []), categories),
        charges=Charges(**doc.get("charges", {})), dodge_spent=doc.get("dodge_spent", False),
        armor=armor_of(doc["armor"], categories) if doc.get("armor") else None,
        equipped=weapons[key] if key is not None else None, unarmed=unarmed,
        conditions=tuple(c["name"] for c in doc.get("conditions", ())),
        hidden=Hidden(hidden["stealth"], tuple(hidden.get("found_by", ()))) if hidden else None,
        injury_track=doc.get("injury_track"), hit_die=doc.get("hit_die"),
        stabilized=doc.get("stabilized", False), critical_timer=doc.get("critical_timer"),
        locations=tuple(doc.get("locations", ())),
        ko_window=KoWindow(**doc.get("ko_window", {})),
        beheading_exception=doc.get("beheading_exception", False),
        true_max_hp=doc.get("true_max_hp"), sc_bonus=doc.get("sc_bonus", 0),
        up=doc.get("up", 0),
        condition_records=tuple(dict(c) for c in doc.get("conditions", ())))
    return CreatureDoc(creature, weapons, key, doc.get("helped_by") is not None)


def _cover(doc: Doc | None) -> Cover | None:
    if doc is None:
        return None
    return Cover(doc.get("p"), doc.get("cc"), parse_exact(doc.get("cdm", 0)))


def _combatants(request: Doc, categories: Mapping[str, Sequence[str]],
                catalog: Mapping[str, Doc]) -> tuple[CreatureDoc, CreatureDoc, Doc]:
    """The attacker and target: ids of the ``state``, or inline objects."""
    state = request.get("state")
    if state is None:
        for role in ("attacker", "target"):
            if not isinstance(_need(request, role, "request"), Mapping):
                raise DocumentError("bad_input", "NV3", f"request {role}",
                                    "without state, give a combatant object")
        a = creature_of(request["attacker"], "attacker", categories, catalog)
        t = creature_of(request["target"], "target", categories, catalog)
        return a, t, request
    by_id = {c["id"]: c for c in state["combatants"]}
    found = []
    for role in ("attacker", "target"):
        cid = _need(request, role, "request")
        if not isinstance(cid, str) or cid not in by_id:
            raise DocumentError("bad_input", "NV3", f"request {role}", f"no combatant {cid!r}")
        found.append(creature_of(by_id[cid], cid, categories, catalog))
    return found[0], found[1], state


def attack_request(request: Doc, cli_options: Doc | None = None
                   ) -> tuple[AttackSpec, Options, str | None]:
    """An NV3 ``attack`` request as ``(spec, options, weapon key)``.

    Options: state < request < command line. Raises :class:`DocumentError`
    (missing_input, bad_input) or ``OptionError`` (bad_option)."""
    catalogs = {**(request.get("state") or {}).get("catalogs", {}),
                **request.get("catalogs", {})}
    categories = {k: tuple(v) for k, v in catalogs.get("categories", {}).items()}
    weapon_catalog = catalogs.get("weapons", {})
    options = resolve_options((request.get("state") or {}).get("options"),
                              request.get("options"), cli_options)
    a, t, top = _combatants(request, categories, weapon_catalog)
    weapon, key = _weapon(request, a, categories, weapon_catalog)
    aim_mark = weapon.kind == "melee" and key is not None and _melee_mark(
        request, key, t.creature.id)
    weapon = replace(
        weapon, parryable=request.get("parryable", weapon.parryable),
        dodgeable=request.get("dodgeable", weapon.dodgeable),
        guardable=request.get("guardable", weapon.guardable),
        ignores_thp=request.get("ignores_thp", weapon.ignores_thp),
        can_dismember=request.get("can_dismember", weapon.can_dismember),
        location=request.get("location", weapon.location))
    _range_keys(request, bool(top.get("map", False)))
    party = top.get("party", {})
    chances = party.get("second_chances")
    spec = AttackSpec(
        a.creature, t.creature, weapon, map=top.get("map", False),
        distance=request.get("distance"), band=request.get("band"),
        advantage=request.get("advantage", False),
        disadvantage=request.get("disadvantage", False),
        bonuses=tuple(b["value"] for b in request.get("bonuses", ())),
        cover=_cover(request.get("cover")),
        modifiers=modifier_entries(request.get("modifiers", []), categories),
        melee_aim=bool(request.get("take_melee_aim", False) or aim_mark),
        helped=a.helped, defense=request.get("defense"),
        parry_stat=request.get("parry_stat"), categories=categories,
        restricting=_restricting(catalogs), new_window=request.get("new_window", False),
        second_chances=SecondChances(chances["max"], chances.get("pool", chances["max"]))
        if chances else None)
    damage_faces_within(sum(c.dice[0] for c in weapon.damage if c.dice),
                        max(0, -spec.attacker.crr) // 20 + 2, "request weapon.damage")
    return spec, options, key


#: At most this many damage faces for one attack or effect (every crit set and
#: every target included): more is refused (bad_input) before any die.
MAX_DAMAGE_FACES = 100_000


def damage_faces_within(per_set: int, sets: int, place: str) -> None:
    """Refuse (``bad_input``, exit 3, NV3) a damage roll of ``per_set`` dice
    that may be rolled ``sets`` times (an attack: 1 + its most crits, g + 1
    at CRR <= -20, NX2, NX5; an effect: its targets under per_target) when
    that exceeds :data:`MAX_DAMAGE_FACES`."""
    if per_set * sets > MAX_DAMAGE_FACES:
        raise DocumentError("bad_input", "NV3", place,
                            f"{per_set} damage dice rolled up to {sets} times is more than "
                            f"{MAX_DAMAGE_FACES:,} faces")


def _range_keys(request: Doc, has_map: bool) -> None:
    """NV3 range keys: with a map exactly one of ``distance`` and ``band``
    (neither: ``missing_input``; both: ``bad_input``); without a map neither
    (``bad_input``). Checked before any die."""
    given = [k for k in ("distance", "band") if request.get(k) is not None]
    if has_map and not given:
        raise DocumentError("missing_input", "NV3", "request distance",
                            "with a map an attack needs distance or band")
    if has_map and len(given) == 2:
        raise DocumentError("bad_input", "NV3", "request band",
                            "give distance or band, not both")
    if not has_map and given:
        raise DocumentError("bad_input", "NV3", f"request {given[0]}",
                            f"{given[0]} needs a map (map: true)")


def _melee_mark(request: Doc, key: str, target_id: str) -> bool:
    """NM6: the attacker's weapon holds a melee Aim mark on this target."""
    attacker = request.get("attacker")
    if isinstance(attacker, Mapping):
        mark = attacker.get("weapons", {}).get(key, {}).get("melee_aim")
        return bool(mark == target_id)
    state = request.get("state") or {}
    for c in state.get("combatants", ()):
        if c["id"] == attacker:
            return bool(c.get("weapons", {}).get(key, {}).get("melee_aim") == target_id)
    return False


def _restricting(catalogs: Doc) -> frozenset[str]:
    """NV2: packaged Bound, Prone, Staggered, changed by the conditions catalog."""
    names = set(RESTRICTING)
    for name, entry in catalogs.get("conditions", {}).items():
        if entry.get("restricts_movement", False):
            names.add(name)
        else:
            names.discard(name)
    return frozenset(names)


def _weapon(request: Doc, a: CreatureDoc, categories: Mapping[str, Sequence[str]],
            catalog: Mapping[str, Doc]) -> tuple[Weapon, str | None]:
    """NV3 ``weapon``: a key of the attacker's weapons, an object, or absent
    (the equipped weapon, else the unarmed strike; with neither, missing)."""
    given = request.get("weapon")
    if isinstance(given, Mapping):
        return weapon_of(given, "weapon", categories, catalog), None
    if isinstance(given, str):
        if given not in a.weapons:
            raise DocumentError("bad_input", "NV3", "request weapon", f"no weapon {given!r}")
        return a.weapons[given], given
    if a.equipped_key is not None:
        return a.weapons[a.equipped_key], a.equipped_key
    if a.creature.unarmed is not None:
        key = next(k for k, w in a.weapons.items() if w.unarmed)
        return a.creature.unarmed, key
    raise DocumentError("missing_input", "NV3", "request weapon", "no weapon to attack with")


def modifiers_request(request: Doc, cli_options: Doc | None = None) -> dict[str, Any]:
    """An NV3 ``modifiers`` request as keyword arguments of
    :func:`~.modifiers.resolve_modifiers` (``raw``, ``ap_raw``, ``entries``,
    ``crits``, ``status``, ``charge_factor``, ``options``)."""
    categories = {k: tuple(v) for k, v in request.get("catalogs", {}).get(
        "categories", {}).items()}
    raw = {t: parse_exact(v) for t, v in _need(request, "raw", "request").items()}
    return {
        "raw": raw, "ap_raw": {t: parse_exact(v) for t, v in request.get("ap_raw", {}).items()},
        "entries": modifier_entries(request.get("modifiers", []), categories),
        "crits": request.get("crits", 0), "status": request.get("status", False),
        "charge_factor": Fraction(parse_exact(request.get("charge_factor", "1"))),
        "options": resolve_options(request.get("options"), cli_options),
    }
