"""NV1's state checks and NV3's references, every input error of a
document reported together (NV6: exit 3, "every error found, together").

:func:`check_request` checks a request that passed its schema: its options
and its state's (``bad_option``, the option's rule), its catalogs and the
state's (NV2, :mod:`.entry_checks`), its ``state`` (:func:`check_state`) or
its inline combatants, the ids it names (NV3) and the range keys of an
attack. :func:`check_state` checks a state on its own (``linguo novence
check-state``). Each returns a list of :class:`~.entry_checks.Problem`;
:func:`raise_problems` raises them as one :class:`StateError`.

The state checks of NV1 (each ``bad_input`` at its field, unless said):
unique combatant ids; ``hp`` above ``max_hp`` under ``max_hp_drop:
clamp``; ``injury`` 9 on a creature that is not ``dead``; a
``critical_timer`` outside Injury VII-VIII; ``thp_source`` required when
``thp`` > 0 (``missing_input``) and absent when it is 0; ``thp_granted``
(linguo's extension) at least ``thp`` and absent or 0 when ``thp`` is 0; armor ``pc``
above ``pc_max``; ``second_chances.pool`` above its max; a ``zp`` the
``zenith_meter`` option does not read; an Aim stack on a melee weapon or a
melee Aim mark on a ranged one; an id in ``turns_taken``, ``initiative``,
``helped_by``, ``found_by``, ``inflicter`` or ``melee_aim`` that names no
combatant; ``equipped`` naming no AC-based weapon of the combatant (or
left out while it holds one: ``missing_input``); more than one unarmed
strike; a condition held twice, with two durations, not in the conditions
catalog, or without the ``inflicter`` its ticking entry needs
(``missing_input``); ``hit_die`` left out where NK3 can read it
(``missing_input``); ``kind``, ``hp``, ``max_hp`` left out
(``missing_input``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.core.options import OptionError

from .entry_checks import (
    At,
    Checker,
    Problem,
    check_armor,
    check_catalogs,
    check_modifiers,
    check_weapon,
    merged_catalogs,
)
from .options import OPTION_TABLE

#: NV3's roles that name one creature, and the kinds whose target NK3 can
#: damage (``hit_die`` required on the injury track).
ROLES = ("attacker", "target", "actor", "source")
_DAMAGING = frozenset({"attack", "sc_attack", "dc_effect", "damage"})


class StateError(InputError):
    """Every input error of a document (exit 3, NV6), one diagnostic each:
    its ``file:line:col``, its NV6 place, and its message ending in
    ``[code, rule]`` (``[bad_input, NV1]``).
    ``refusal`` and ``rule`` are the first problem's; ``problems`` all."""

    def __init__(self, problems: list[Problem], document: Any = None) -> None:
        diags = []
        for p in problems:
            where = document.place(list(p.at.path)) if document is not None else "request"
            tag = f"{p.code}, {p.rule}" if p.rule else p.code
            diags.append(Diagnostic(where, p.at.place, f"{p.message} [{tag}]"))
        super().__init__(diags)
        self.refusal = problems[0].code
        self.rule = problems[0].rule
        self.problems = list(problems)


def raise_problems(problems: list[Problem], document: Any = None) -> None:
    """Raise :class:`StateError` when ``problems`` is not empty."""
    if problems:
        raise StateError(problems, document)


def effective_options(*layers: Any) -> dict[str, Any]:
    """The options in effect (defaults, then each layer's valid values)."""
    values = OPTION_TABLE.defaults()
    for layer in layers:
        if isinstance(layer, Mapping):
            for name, value in layer.items():
                option = OPTION_TABLE.options.get(str(name))
                if option is not None and option.allows(value):
                    values[option.name] = value
    return values


def check_options(ck: Checker, given: Any, at: At) -> None:
    """Every bad name or value of an ``options`` object (``bad_option`` at
    ``request options.NAME`` or ``state options.NAME``, the rule the first
    of its row; an unknown name has no rule; NV common rules)."""
    if not isinstance(given, Mapping):
        return
    for name, value in given.items():
        try:
            OPTION_TABLE.check({name: value}, "request")
        except OptionError as exc:
            ck.add("bad_option", exc.rule, at.key(str(name)), exc.diagnostics[0].message)


def check_state(state: Any, at: At | None = None, *, request: Mapping[str, Any] | None = None
                ) -> list[Problem]:
    """Every problem of an NV1 state (see the module text); ``at`` is where
    it stands (default: a state document of its own); ``request``, when the
    state is a request's, adds that request's options and catalogs."""
    at = at or At((), "state")
    request = request or {}
    if not isinstance(state, Mapping):
        return []
    ck = Checker(merged_catalogs(state.get("catalogs"), request.get("catalogs")),
                 map=bool(state.get("map", False)))
    check_options(ck, state.get("options"), at.key("options"))
    check_catalogs(ck, state.get("catalogs"), At((*at.path, "catalogs"), "catalog"))
    options = effective_options(state.get("options"), request.get("options"))
    _state_body(ck, state, at, options)
    return ck.problems


def _state_body(ck: Checker, state: Mapping[str, Any], at: At, options: Mapping[str, Any]
                ) -> None:
    combatants = state.get("combatants")
    combatants = combatants if isinstance(combatants, list) else []
    ids = _ids(ck, combatants, at.key("combatants"))
    for key in ("turns_taken", "initiative"):
        _refs(ck, state.get(key), ids, at.key(key), "NV1")
    if state.get("zp", 0) != 0 and options["zenith_meter"] == "per_creature":
        ck.add("bad_input", "NV1", at.key("zp"), "under zenith_meter: per_creature each "
               "combatant holds its own meter: the encounter's zp stays 0")
    _party(ck, state.get("party"), at.key("party"))
    for k, c in enumerate(combatants):
        if isinstance(c, Mapping):
            where = At((*at.path, "combatants", k), at.root,
                       (*at.parts, "combatants", str(c.get("id", k + 1))))
            check_combatant(ck, c, where, ids, options)


def _ids(ck: Checker, combatants: list[Any], at: At) -> set[str]:
    """The combatants' ids; one given twice is ``bad_input``."""
    ids: set[str] = set()
    for k, c in enumerate(combatants):
        cid = c.get("id") if isinstance(c, Mapping) else None
        if isinstance(cid, str):
            if cid in ids:
                ck.add("bad_input", "NV1", at.item(k, cid).key("id"), f"id {cid!r} is given "
                       "twice")
            ids.add(cid)
    return ids


def _refs(ck: Checker, given: Any, ids: set[str], at: At, rule: str) -> None:
    """Each id of a list that names no combatant is ``bad_input``."""
    if isinstance(given, list):
        for k, cid in enumerate(given):
            if isinstance(cid, str) and cid not in ids:
                ck.add("bad_input", rule, at.item(k), f"{cid!r} names no combatant")


def _party(ck: Checker, party: Any, at: At) -> None:
    chances = party.get("second_chances") if isinstance(party, Mapping) else None
    if isinstance(chances, Mapping):
        pool, top = chances.get("pool"), chances.get("max")
        if isinstance(pool, int) and isinstance(top, int) and pool > top:
            ck.add("bad_input", "NV1", at.key("second_chances").key("pool"),
                   f"pool {pool} is above its max {top}")


def check_combatant(ck: Checker, c: Mapping[str, Any], at: At, ids: set[str] | None,
                    options: Mapping[str, Any]) -> None:
    """One NV1 combatant (``ids``: the state's, or None inline where the
    request builds the state)."""
    rule = "NV1"  # a combatant's fields, in a state or inline (NV6)
    for key in ("kind", "hp", "max_hp"):
        if key not in c:
            ck.add("missing_input", rule, at.key(key), f"a combatant needs {key}")
    _hit_points(ck, c, at, rule, options)
    _injury(ck, c, at, rule)
    if ids is not None:
        _creature_refs(ck, c, at, ids, rule)
    check_modifiers(ck, c.get("modifiers"), at.key("modifiers"))
    check_armor(ck, c.get("armor"), at.key("armor"))
    _weapons(ck, c, at, ids, rule)
    _conditions(ck, c.get("conditions"), at.key("conditions"), rule)
    _ultimates_and_readied(ck, c, at)
    if c.get("zp", 0) != 0 and options["zenith_meter"] != "per_creature":
        ck.add("bad_input", rule, at.key("zp"), "a combatant's own zp is read only under "
               "zenith_meter: per_creature")


def _hit_points(ck: Checker, c: Mapping[str, Any], at: At, rule: str,
                options: Mapping[str, Any]) -> None:
    hp, top = c.get("hp"), c.get("max_hp")
    if isinstance(hp, int) and isinstance(top, int) and hp > top and \
            options["max_hp_drop"] == "clamp":
        ck.add("bad_input", rule, at.key("hp"), f"hp {hp} is above max_hp {top} "
               "(max_hp_drop: clamp)")
    thp = c.get("thp", 0)
    if isinstance(thp, int) and thp > 0 and "thp_source" not in c:
        ck.add("missing_input", rule, at.key("thp_source"), f"thp {thp} needs its thp_source")
    if thp == 0 and "thp_source" in c:
        ck.add("bad_input", rule, at.key("thp_source"), "no THP held: thp_source is absent")
    granted = c.get("thp_granted")
    if isinstance(granted, int) and isinstance(thp, int) and \
            (granted < thp or thp == 0 < granted):
        ck.add("bad_input", rule, at.key("thp_granted"), f"thp_granted {granted} must be at "
               f"least thp {thp}, and absent or 0 when thp is 0")


def _injury(ck: Checker, c: Mapping[str, Any], at: At, rule: str) -> None:
    injury = c.get("injury", 0)
    if injury == 9 and not c.get("dead", False):
        ck.add("bad_input", rule, at.key("injury"), "Injury IX is death: dead must be true")
    if c.get("critical_timer") is not None and injury not in (7, 8):
        ck.add("bad_input", rule, at.key("critical_timer"), f"a critical timer runs only at "
               f"Injury VII-VIII, not {injury}")


def _creature_refs(ck: Checker, c: Mapping[str, Any], at: At, ids: set[str], rule: str) -> None:
    helper = c.get("helped_by")
    if isinstance(helper, str) and helper not in ids:
        ck.add("bad_input", rule, at.key("helped_by"), f"{helper!r} names no combatant")
    hidden = c.get("hidden")
    if isinstance(hidden, Mapping):
        _refs(ck, hidden.get("found_by"), ids, at.key("hidden").key("found_by"), rule)
    conditions = c.get("conditions")
    for k, held in enumerate(conditions if isinstance(conditions, list) else []):
        who = held.get("inflicter") if isinstance(held, Mapping) else None
        if isinstance(who, str) and who not in ids:
            ck.add("bad_input", rule, at.key("conditions").item(k).key("inflicter"),
                   f"{who!r} names no combatant")
    for key, w in _mapping(c.get("weapons")).items():
        mark = w.get("melee_aim") if isinstance(w, Mapping) else None
        if isinstance(mark, str) and mark not in ids:
            ck.add("bad_input", rule, at.key("weapons").key(key).key("melee_aim"),
                   f"{mark!r} names no combatant")


def _mapping(node: Any) -> Mapping[str, Any]:
    return node if isinstance(node, Mapping) else {}


def _weapons(ck: Checker, c: Mapping[str, Any], at: At, ids: set[str] | None,
             rule: str) -> None:
    """Its weapons (NV2 with instance keys), one unarmed strike at most, and
    ``equipped``: a key of ``weapons`` naming an AC-based weapon that is not
    the unarmed strike, required when it holds one."""
    weapons = _mapping(c.get("weapons"))
    for key, w in weapons.items():
        check_weapon(ck, w, at.key("weapons").key(key))
    unarmed = [k for k, w in weapons.items() if isinstance(w, Mapping) and w.get("unarmed")]
    if len(unarmed) > 1:
        ck.add("bad_input", rule, at.key("weapons").key(unarmed[1]).key("unarmed"),
               "a creature has one unarmed strike")
    usable = [k for k, w in weapons.items() if isinstance(w, Mapping) and not w.get("unarmed")
              and _basis(ck, w) == "ac"]
    chosen = c.get("equipped")
    if chosen is None and "equipped" not in c and usable:
        ck.add("missing_input", rule, at.key("equipped"), "it holds an AC-based weapon: "
               "equipped names one, or null (unarmed)")
    elif chosen is not None and chosen not in usable:
        ck.add("bad_input", rule, at.key("equipped"), f"{chosen!r} is not an AC-based weapon of "
               "its own (not the unarmed strike)")


def _basis(ck: Checker, w: Mapping[str, Any]) -> Any:
    base = ck.catalog("weapons").get(str(w.get("base"))) if "base" in w else None
    return w.get("basis", base.get("basis", "ac") if isinstance(base, Mapping) else "ac")


def _ultimates_and_readied(ck: Checker, c: Mapping[str, Any], at: At) -> None:
    """``ultimates_used`` names Ultimates of the catalog; ``readied`` is
    ``{action, trigger}`` (both required, nothing else)."""
    used = c.get("ultimates_used")
    for k, name in enumerate(used if isinstance(used, list) else []):
        if name not in ck.catalog("ultimates"):
            ck.add("bad_input", "NV1", at.key("ultimates_used").item(k),
                   f"no Ultimate {name!r} in the catalog")
    readied = c.get("readied")
    if isinstance(readied, Mapping):
        for key in ("action", "trigger"):
            if key not in readied:
                ck.add("missing_input", "NV1", at.key("readied").key(key), f"{key} is required")
        for key in readied:
            if key not in ("action", "trigger", "description"):
                ck.add("bad_input", "NV1", at.key("readied").key(str(key)),
                       f"{key!r} does not belong in readied")


def _conditions(ck: Checker, held: Any, at: At, rule: str) -> None:
    """Conditions held: at most one per name, a name of the conditions
    catalog, at most one duration, and an ``inflicter`` when the entry
    ticks."""
    seen: set[str] = set()
    for k, cond in enumerate(held if isinstance(held, list) else []):
        if not isinstance(cond, Mapping):
            continue
        where, name = at.item(k), cond.get("name")
        if name in seen:
            ck.add("bad_input", rule, where.key("name"), f"{name} is held twice (one per name)")
        seen.add(str(name))
        entry = ck.catalog("conditions").get(str(name))
        if not isinstance(entry, Mapping):
            ck.add("bad_input", rule, where.key("name"), f"no condition {name!r} in the catalog")
        elif entry.get("tick") is not None and "inflicter" not in cond:
            ck.add("missing_input", rule, where.key("inflicter"), f"{name} ticks: its "
                   "inflicter (an id or null) is required")
        durations = [d for d in ("rounds_left", "turns_left", "seconds") if d in cond]
        if len(durations) > 1:
            ck.add("bad_input", rule, where.key(durations[1]), "at most one of rounds_left, "
                   "turns_left and seconds")


def check_request(request: Any, cli_options: Mapping[str, Any] | None = None) -> list[Problem]:
    """Every input problem of a request (NV3) that passed its schema: its
    options, catalogs, state or inline combatants, the ids it names, the
    ``hit_die`` NK3 reads, and an attack's range keys. ``cli_options``
    (already checked) win over the request's and the state's."""
    if not isinstance(request, Mapping):
        return []
    if cli_options:
        own = request.get("options")
        request = {**request, "options": {**(own if isinstance(own, Mapping) else {}),
                                          **cli_options}}
    state = request.get("state")
    root = At((), "request")
    ck = Checker(merged_catalogs(_mapping(state).get("catalogs"), request.get("catalogs")),
                 map=bool(_mapping(state or request).get("map", False)))
    check_options(ck, request.get("options"), root.key("options"))
    check_catalogs(ck, request.get("catalogs"), At(("catalogs",), "catalog"))
    problems: list[Problem] = []
    if isinstance(state, Mapping):
        problems = check_state(state, At(("state",), "state"), request=request)
    options = effective_options(_mapping(state).get("options"), request.get("options"))
    creatures = _named(ck, request, state, root, options)
    _request_body(ck, request, root, creatures)
    return problems + ck.problems


def _named(ck: Checker, request: Mapping[str, Any], state: Any, root: At,
           options: Mapping[str, Any]) -> dict[str, tuple[Mapping[str, Any], At]]:
    """NV3 Naming creatures: with ``state`` ids of its combatants, without
    it combatant objects (checked as NV1's). Returns role -> (combatant,
    where it stands)."""
    listed = _mapping(state).get("combatants")
    by_id = {c.get("id"): (c, At(("state", "combatants", k), "state",
                                 ("combatants", str(c.get("id")))))
             for k, c in enumerate(listed if isinstance(listed, list) else [])
             if isinstance(c, Mapping)}
    found: dict[str, tuple[Mapping[str, Any], At]] = {}
    for role, given, at in _roles(request, root):
        if isinstance(state, Mapping):
            if not isinstance(given, str):
                ck.add("bad_input", "NV3", at, "a request with state names ids only")
            elif given not in by_id:
                ck.add("bad_input", "NV3", at, f"{given!r} names no combatant of the state")
            else:
                found[role] = by_id[given]
        elif isinstance(given, Mapping):
            check_combatant(ck, given, at, None, options)
            found[role] = (given, at)
        else:
            ck.add("bad_input", "NV3", at, "without state, give a combatant object")
    return found


def _roles(request: Mapping[str, Any], root: At) -> list[tuple[str, Any, At]]:
    """Every creature the request names: (role, what is given, where)."""
    out = [(role, request[role], root.key(role)) for role in ROLES if role in request
           and not (role == "source" and request.get("kind") == "thp")]  # a thp source: a label
    for k, item in enumerate(request.get("targets") or ()):
        if isinstance(item, Mapping) and "target" in item and request.get("kind") == "dc_effect":
            out.append((f"target{k + 1}", item["target"], root.key("targets").item(k)
                        .key("target")))
        else:
            out.append((f"target{k + 1}", item, root.key("targets").item(k)))
    return out


def _request_body(ck: Checker, request: Mapping[str, Any], root: At,
                  creatures: Mapping[str, tuple[Mapping[str, Any], At]]) -> None:
    kind = request.get("kind")
    weapon = request.get("weapon")
    if isinstance(weapon, Mapping):
        check_weapon(ck, weapon, root.key("weapon"))
    elif isinstance(weapon, str) and "attacker" in creatures and \
            weapon not in _mapping(creatures["attacker"][0].get("weapons")):
        ck.add("bad_input", "NV3", root.key("weapon"), f"{weapon!r} is no weapon of the "
               "attacker")
    check_modifiers(ck, request.get("modifiers"), root.key("modifiers"),
                    armor_allowed=kind == "modifiers")
    if kind in ("attack", "sc_attack"):
        _range_keys(ck, request, root)
    _kind_keys(ck, request, root)
    _targets_once(ck, request, root)
    if kind == "attack" and "attacker" in creatures and "target" in creatures:
        used = _attack_weapon(ck, request, creatures["attacker"][0])
        _parry_mod(ck, request, used, *creatures["target"])
        _melee_aim_durations(ck, request, used, creatures["target"][0])
    if kind in _DAMAGING:
        for role, (c, at) in creatures.items():
            if role.startswith("target") and _on_track(c) and "hit_die" not in c:
                ck.add("missing_input", "NV1", at.key("hit_die"), "NK3 reads the hit die of "
                       "a creature on the injury track that the request can damage")


def _on_track(c: Mapping[str, Any]) -> bool:
    return bool(c.get("injury_track", c.get("kind") == "player"))


def _range_keys(ck: Checker, request: Mapping[str, Any], root: At) -> None:
    """NV3 range keys: with a map exactly one of ``distance`` and ``band``,
    without one neither."""
    top = _mapping(request.get("state")) or request
    given = [k for k in ("distance", "band") if request.get(k) is not None]
    if top.get("map", False) and not given:
        ck.add("missing_input", "NV3", root.key("distance"), "with a map an attack needs "
               "distance or band")
    elif len(given) == 2:
        ck.add("bad_input", "NV3", root.key("band"), "give distance or band, not both")
    elif given and not top.get("map", False):
        ck.add("bad_input", "NV3", root.key(given[0]), f"{given[0]} needs a map (map: true)")


def _resolved(ck: Checker, w: Any) -> Mapping[str, Any]:
    """A weapon with the keys of its ``base`` entry (NV2), or ``{}``."""
    if not isinstance(w, Mapping):
        return {}
    base = ck.catalog("weapons").get(str(w.get("base"))) if "base" in w else None
    return {**base, **w} if isinstance(base, Mapping) else w


def _unarmed_key(c: Mapping[str, Any]) -> str | None:
    return next((k for k, w in _mapping(c.get("weapons")).items()
                 if isinstance(w, Mapping) and w.get("unarmed")), None)


def _attack_weapon(ck: Checker, request: Mapping[str, Any], attacker: Mapping[str, Any]
                   ) -> tuple[Mapping[str, Any], str | None]:
    """The weapon an ``attack`` request uses (NV3 ``weapon``: an object, a
    key of the attacker's weapons, else its equipped one, else its unarmed
    strike) and its key, or ``({}, None)``."""
    given = request.get("weapon")
    if isinstance(given, Mapping):
        return _resolved(ck, given), None
    weapons = _mapping(attacker.get("weapons"))
    key = given if isinstance(given, str) else attacker.get("equipped") or _unarmed_key(attacker)
    found = weapons.get(key) if isinstance(key, str) else None
    return _resolved(ck, found), key if found is not None else None


def _parry_mod(ck: Checker, request: Mapping[str, Any], used: tuple[Mapping[str, Any], Any],
               target: Mapping[str, Any], at: At) -> None:
    """NV2 "When parry_mod is required": a target holding a Parry charge
    that can answer this attack (a parryable AC-based melee attack, no
    ``defense`` naming another charge) parries with its equipped weapon, or
    its unarmed strike when ``equipped`` is null: that weapon needs its
    ``parry_mod`` (``missing_input``)."""
    weapon = used[0]
    charges = _mapping(target.get("charges"))
    if not (isinstance(charges.get("parry"), int) and charges["parry"] > 0) or \
            weapon.get("kind") != "melee" or weapon.get("basis", "ac") != "ac" or \
            not request.get("parryable", weapon.get("parryable", True)) or \
            request.get("defense", "parry") != "parry":
        return
    key = target.get("equipped") or _unarmed_key(target)
    if key is None:
        ck.add("missing_input", "NV1", at.key("weapons"), "it holds a Parry charge that can "
               "answer this attack unarmed: it needs an unarmed strike with its parry_mod")
    elif "parry_mod" not in _resolved(ck, _mapping(target.get("weapons")).get(key)):
        ck.add("missing_input", "NV2", at.key("weapons").key(key).key("parry_mod"),
               "the weapon a Parry roll uses needs its parry_mod (NR5)")


def _melee_aim_durations(ck: Checker, request: Mapping[str, Any],
                         used: tuple[Mapping[str, Any], Any], target: Mapping[str, Any]
                         ) -> None:
    """NV2: melee Aim (``take_melee_aim``, or the weapon's mark on the
    target) gives Bleed for a slashing component and Staggered for a
    bludgeoning one, whose catalog entries then need their ``duration``."""
    weapon, _key = used
    mark = weapon.get("melee_aim")
    marked = mark is not None and mark == target.get("id", "target")
    if weapon.get("kind") != "melee" or not (request.get("take_melee_aim") or marked):
        return
    types = {c.get("type") for c in weapon.get("damage") or () if isinstance(c, Mapping)}
    for dtype, name in (("slashing", "Bleed"), ("bludgeoning", "Staggered")):
        entry = _mapping(ck.catalog("conditions").get(name))
        if dtype in types and "duration" not in entry:
            ck.add("missing_input", "NV2", At(("catalogs",), "catalog",
                                              ("conditions", name, "duration")),
                   f"melee Aim gives {name}: its catalog entry needs its duration (NM6)")


def _kind_keys(ck: Checker, request: Mapping[str, Any], root: At) -> None:
    """NV3's "exactly one of" and "required when" keys of the built kinds:
    ``heal`` one of ``amount`` and ``roll`` (neither ``missing_input``);
    ``check`` one of ``skill`` and ``stat``, ``save`` with ``stat`` only;
    ``dc_effect`` its ``source`` for a ``dc`` object and a target's
    ``cover`` when it relies on cover (``missing_input``)."""
    kind = request.get("kind")
    if kind == "heal" and ("amount" in request) == ("roll" in request):
        ck.add("missing_input" if "amount" not in request else "bad_input", "NV3",
               root.key("amount"), "give exactly one of amount and roll")
    if kind == "check" and ((request.get("skill") is None) == (request.get("stat") is None)
                            or (request.get("save") and request.get("skill") is not None)):
        ck.add("bad_input", "NV3", root.key("skill"), "give exactly one of skill and stat "
               "(a save names its stat)")
    if kind != "dc_effect":
        return
    if isinstance(request.get("dc"), Mapping) and request.get("source") is None:
        ck.add("missing_input", "NV3", root.key("source"), "a dc object needs the source "
               "whose PROF and stat it reads")
    for k, item in enumerate(request.get("targets") or ()):
        if isinstance(item, Mapping) and item.get("relies_on_cover") and \
                item.get("cover") is None:
            ck.add("missing_input", "NV3", root.key("targets").item(k).key("cover"),
                   "a target relying on cover needs its cover")


def _targets_once(ck: Checker, request: Mapping[str, Any], root: At) -> None:
    """The creatures of ``targets`` are named once each (an inline object
    without ``id`` takes ``target1``, ``target2``...; NV3)."""
    seen: set[Any] = set()
    for role, given, at in _roles(request, root):
        if role.startswith("target") and role != "target":
            cid = given.get("id", role) if isinstance(given, Mapping) else given
            if isinstance(cid, str) and cid in seen:
                ck.add("bad_input", "NV3", at, f"{cid!r} is named twice in targets")
            seen.add(cid)
