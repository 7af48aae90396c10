"""Checking a ``script`` before any die is rolled (NV1, NV2, NV4, NV6).

The schema (``schemas/script-request.schema.json``) checks shapes; this
module checks what needs the documents together: the required-when keys
(``hit_die`` of every combatant on the injury track, the ``tick`` of every
condition a script can make tick, the ``duration`` of those melee Aim
gives), references, round numbers, turn order, where interludes and
``ends: false`` stand, and the steps' own rules (weapons, attack counts,
entries, steps not built in this engine). Every fault is collected and
reported together (exit 3) at its NV6 place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.errors import Diagnostic, InputError

from ..options import Options, resolve_options
from .world import merged_catalogs, side

Doc = Mapping[str, Any]

#: Steps whose rules are not built in this engine (none left).
NOT_BUILT: dict[str, str] = {}
KINDS = frozenset({"attack", "sc_attack", "dc_effect", "ability", "ultimate", "move", "aim",
                   "prepare", "help", "hide", "search", "investigate", "interact",
                   "disengage", "retreat", "meditate", "stabilize", "ready",
                   "use_bonus_action", "legendary", "event", "end_turn"})
READY_KINDS = frozenset({"attack", "sc_attack", "dc_effect", "ability"})
NO_INNER = frozenset({"ready", "use_bonus_action", "legendary", "event", "end_turn"})


class ScriptError(InputError):
    """Every fault of a script's documents (exit 3); ``refusal`` is the
    first fault's code (``missing_input``, ``bad_input``), ``rule`` its NV
    rule."""

    def __init__(self, faults: Sequence[tuple[str, str, str, str]]) -> None:
        super().__init__([Diagnostic(place, place, message) for _c, _r, place, message
                          in faults])
        self.refusal = faults[0][0]
        self.rule = faults[0][1]
        self.codes = [f[0] for f in faults]


@dataclass
class Checker:
    """The faults found so far, and what the walk through the script knows:
    the combatants by id, the round and the turns taken in it, and each
    creature's last readied action kind."""

    state: Doc
    catalogs: Doc
    options: Options
    faults: list[tuple[str, str, str, str]] = field(default_factory=list)
    round: int = 1
    taken: list[str] = field(default_factory=list)
    readied: dict[str, str] = field(default_factory=dict)
    ticking: dict[str, str] = field(default_factory=dict)

    def fault(self, code: str, rule: str, place: str, message: str) -> None:
        """Note one fault."""
        self.faults.append((code, rule, place, message))

    @property
    def by_id(self) -> dict[str, Doc]:
        """The state's combatants by id."""
        return {c["id"]: c for c in self.state["combatants"]}


def _required_faults(ck: Checker) -> bool:
    """NV1: each combatant's required keys and unique ids; False when a
    fault makes the rest of the walk meaningless."""
    seen: set[str] = set()
    ok = True
    for i, c in enumerate(ck.state["combatants"], 1):
        cid = c.get("id", str(i))
        for key in ("id", "kind", "hp", "max_hp"):
            if key not in c:
                ck.fault("missing_input", "NV1", f"state combatants.{cid}.{key}",
                         f"{key} is required")
                ok = False
        if cid in seen:
            ck.fault("bad_input", "NV1", f"state combatants.{cid}", f"id {cid!r} is used twice")
            ok = False
        seen.add(cid)
    return ok


def _state_faults(ck: Checker) -> None:
    """NV1's required-when ``hit_die`` (every combatant of a script on the
    injury track) and references of ``turns_taken``/``initiative``."""
    for c in ck.state["combatants"]:
        on_track = c.get("injury_track", c["kind"] == "player")
        if on_track and "hit_die" not in c:
            ck.fault("missing_input", "NV1", f"state combatants.{c['id']}.hit_die",
                     "a combatant on the injury track needs hit_die in a script (NK3)")
        for cond in c.get("conditions") or ():
            ck.ticking.setdefault(cond["name"], f"state combatants.{c['id']}.conditions")
        if c.get("readied"):
            ck.readied[c["id"]] = c["readied"]["action"]["kind"]
    for key in ("turns_taken", "initiative"):
        for i, cid in enumerate(ck.state.get(key) or (), 1):
            if cid not in ck.by_id:
                ck.fault("bad_input", "NV1", f"state {key}.{i}", f"no combatant {cid!r}")


def _weapon_of(ck: Checker, cid: str, key: str | None) -> Doc:
    w = (ck.by_id[cid].get("weapons") or {}).get(key or "", {})
    base = w.get("base")
    return {**ck.catalogs.get("weapons", {}).get(base, {}), **w} if base else w


def _attack_faults(ck: Checker, cid: str, step: Doc, place: str, aims: bool = False) -> None:
    """NV4 attack step: the equipped weapon or an unarmed strike; at most
    1 + extra_attacks rolls (rate_of_fire for such a ranged weapon)."""
    doc = ck.by_id[cid]
    key = step.get("weapon")
    weapons = doc.get("weapons") or {}
    if key is not None and key != doc.get("equipped") and not weapons.get(key, {}).get(
            "unarmed"):
        ck.fault("bad_input", "NV4", f"{place} weapon",
                 f"{key!r} is neither {cid}'s equipped weapon nor its unarmed strike")
        return
    key = key or doc.get("equipped") or next(
        (k for k, w in weapons.items() if w.get("unarmed")), None)
    w = _weapon_of(ck, cid, key)
    rolls = step.get("attacks")
    most = 1 + doc.get("extra_attacks", 0)
    if w.get("kind") == "ranged" and w.get("rate_of_fire", 1) > 1:
        most = w["rate_of_fire"]
    if rolls is not None and len(rolls) > most:
        ck.fault("bad_input", "NV4", f"{place} attacks",
                 f"{len(rolls)} attack rolls, at most {most}")
    if rolls is None and "target" not in step:
        ck.fault("missing_input", "NV4", f"{place} target", "an attack needs its target")
    types = {c.get("type") for c in w.get("damage", ())}
    if w.get("kind") != "melee" or not (aims or w.get("melee_aim") is not None):
        return
    if "slashing" in types:
        ck.ticking.setdefault("Bleed", "melee Aim")
    if "bludgeoning" in types:
        ck.ticking.setdefault("Staggered", "melee Aim")


def _sc_attack_faults(ck: Checker, cid: str, step: Doc, place: str) -> None:
    """NV4 sc_attack step: ``weapon``, any ``basis: sc`` weapon of the actor."""
    key = step.get("weapon")
    if key is None:
        ck.fault("missing_input", "NV4", f"{place} weapon", "an sc_attack names its weapon")
    elif key not in (ck.by_id[cid].get("weapons") or {}) or \
            _weapon_of(ck, cid, key).get("basis", "ac") != "sc":
        ck.fault("bad_input", "NV4", f"{place} weapon",
                 f"{key!r} is not a basis: sc weapon of {cid} (NH6)")
    elif step.get("attacks") is None and "target" not in step:
        ck.fault("missing_input", "NV4", f"{place} target", "an attack needs its target")


def _help_faults(ck: Checker, cid: str, step: Doc, place: str) -> None:
    t = ck.by_id.get(step["target"])
    if t is None or t["id"] == cid or side(t) != side(ck.by_id[cid]):
        ck.fault("bad_input", "NV4", f"{place} target",
                 "Help names another creature of the helper's side")


def _ready_faults(ck: Checker, cid: str, step: Doc, place: str) -> None:
    inner = step["action"]
    if inner["kind"] not in READY_KINDS or inner.get("free"):
        ck.fault("bad_input", "NV4", f"{place} action",
                 "Ready stores an attack, sc_attack, dc_effect or ability without free")
    ck.readied[cid] = inner["kind"]


def _aim_faults(ck: Checker, cid: str, step: Doc, place: str) -> None:
    doc = ck.by_id[cid]
    key = step.get("weapon") or doc.get("equipped")
    if key is None or key not in (doc.get("weapons") or {}):
        ck.fault("missing_input" if key is None else "bad_input", "NV4", f"{place} weapon",
                 "an Aim needs the weapon it aims with")
        return
    w = _weapon_of(ck, cid, key)
    if step.get("target") is None:
        if w.get("kind") != "ranged":
            ck.fault("missing_input", "NV4", f"{place} target", "a melee Aim names its target")
        return
    _attack_faults(ck, cid, {"target": step["target"], "weapon": step.get("weapon")}, place,
                   aims=True)
    if w.get("kind") == "ranged":
        ck.fault("bad_input", "NV4", f"{place} target", "a ranged Aim names no target")


def _reference_faults(ck: Checker, step: Doc, place: str) -> None:
    """NV4: every creature a step names is a combatant (``bad_input``)."""
    named = [(k, step[k]) for k in ("target", "hidden_target") if step.get(k) is not None]
    named += [(f"leaves_reach_of.{i}", x)
              for i, x in enumerate(step.get("leaves_reach_of") or (), 1)]
    named += [(f"attacks.{i}.target", a.get("target")) for i, a in enumerate(
        step.get("attacks") or (), 1)]
    named += [(f"targets.{i}.target", t.get("target")) for i, t in enumerate(
        step.get("targets") or (), 1) if isinstance(t, Mapping)]
    for key, cid in named:
        if cid not in ck.by_id:
            ck.fault("bad_input", "NV4", f"{place} {key}", f"no combatant {cid!r}")


def _kind_faults(ck: Checker, cid: str, step: Doc, place: str, ctx: dict[str, Any]) -> None:
    """The checks of one step's own kind."""
    kind = step["kind"]
    if kind == "attack":
        _attack_faults(ck, cid, step, place)
    elif kind == "sc_attack":
        _sc_attack_faults(ck, cid, step, place)
    elif kind == "ultimate" and step["name"] not in (ck.catalogs.get("ultimates") or {}):
        ck.fault("bad_input", "NV4", f"{place} name", f"no Ultimate {step['name']!r} in the "
                 "catalogs")
    elif kind == "help":
        _help_faults(ck, cid, step, place)
    elif kind == "legendary" and ck.by_id[cid]["kind"] == "enemy":
        ck.fault("bad_input", "NV1", f"{place}", "only the party spends the Legendary action")
    elif kind == "disengage":
        ctx["disengaged"] = True
    elif kind == "ready":
        _ready_faults(ck, cid, step, place)
    elif kind == "use_bonus_action":
        if step["action"]["kind"] in NO_INNER:
            ck.fault("bad_input", "NV4", f"{place} action", "not a step a BA can use")
        else:
            _step_faults(ck, cid, step["action"], f"{place} action", ctx)
    elif kind == "aim":
        _aim_faults(ck, cid, step, place)
    elif kind == "search" and "dc" not in step and not (
            step.get("hidden_target") is not None and ck.options.is_(
                "search_vs_hidden", "stealth_compare")):
        ck.fault("missing_input", "NV4", f"{place} dc", "a Search needs the DM's DC")
    _reference_faults(ck, step, place)


def _step_faults(ck: Checker, cid: str, step: Doc, place: str, ctx: dict[str, Any]) -> None:
    """The checks of one step (and of the step inside it) and its entries."""
    kind = step["kind"]
    if kind in NOT_BUILT:
        ck.fault("bad_input", "NV4", f"{place} kind",
                 f"{kind} steps need {NOT_BUILT[kind]}, not built yet in this engine")
        return
    _kind_faults(ck, cid, step, place, ctx)
    for part in ("before", "after"):
        for i, entry in enumerate(step.get(part) or (), 1):
            _entry_faults(ck, cid, step, entry, f"{place} {part} {i} ({entry['actor']})", ctx)


def _entry_faults(ck: Checker, mover: str, step: Doc, entry: Doc, place: str,
                  ctx: dict[str, Any]) -> None:
    """NV4 entries: never by the turn's actor; a free attack only on a move
    leaving its actor's reach, before any Disengage this turn (NT11); a fire
    of the kind readied."""
    actor = entry["actor"]
    if actor not in ck.by_id:
        ck.fault("bad_input", "NV4", place, f"no combatant {actor!r}")
        return
    if actor == mover:
        ck.fault("bad_input", "NV4", place, "the creature whose turn it is acts by steps")
        return
    if "free_attack" in entry:
        if step["kind"] != "move" or actor not in (step.get("leaves_reach_of") or ()) or \
                ctx.get("disengaged"):
            ck.fault("bad_input", "NV4", place,
                     "a free attack stands only on a move leaving its actor's reach, "
                     "without a Disengage before it (NT11, NR11)")
    elif "reaction" in entry and entry["reaction"]["kind"] in NO_INNER:
        ck.fault("bad_input", "NV4", f"{place} action", "not a step a reaction can take")
    elif "fire" in entry:
        if ck.readied.get(actor) != entry["fire"]["kind"]:
            ck.fault("bad_input", "NV4", f"{place} action",
                     f"{actor}'s readied action is not a {entry['fire']['kind']}")
    elif "legendary" in entry and ck.by_id[actor]["kind"] == "enemy":
        ck.fault("bad_input", "NV1", place, "only the party spends the Legendary action")


def _turn_faults(ck: Checker, turn: Doc, place: str, order: Sequence[str]) -> None:
    """NV4's order checks and every step of the turn."""
    cid = turn["actor"]
    if cid not in ck.by_id:
        ck.fault("bad_input", "NV4", place, f"no combatant {cid!r}")
        return
    if not turn.get("extra", False):
        regular = [t for t in ck.taken if not t.startswith("+")]
        if cid in regular:
            ck.fault("bad_input", "NV4", place, f"{cid} has had its turn in this round")
        elif order and (cid not in order or (regular and order.index(cid) < max(
                order.index(t) for t in regular if t in order))):
            ck.fault("bad_input", "NV4", place, f"{cid}'s turn is out of initiative order")
    ck.taken.append(cid if not turn.get("extra", False) else f"+{cid}")
    steps = turn.get("steps") or ()
    ctx: dict[str, Any] = {}
    for s, step in enumerate(steps, 1):
        if step["kind"] == "end_turn" and s != len(steps):
            ck.fault("bad_input", "NV4", f"{place} step {s}", "end_turn is the last step only")
        _step_faults(ck, cid, step, f"{place} step {s}", ctx)


def _element_faults(ck: Checker, k: int, element: Doc, last: bool, ended_before: bool) -> bool:
    """One element of ``rounds``; returns whether it ends its round."""
    if "events" in element:
        if not ended_before:
            ck.fault("bad_input", "NV4", f"R{k}", "an interlude stands where no round is open")
        if any(e["kind"] == "encounter_end" for e in element["events"]):
            ck.round = 1
        return True
    if "round" in element and element["round"] != ck.round:
        ck.fault("bad_input", "NV4", f"R{k} round",
                 f"round {element['round']} given, round {ck.round} plays")
    ends = element.get("ends", True)
    if not ends and (not last or element.get("end")):
        ck.fault("bad_input", "NV4", f"R{k} ends",
                 "ends: false only on the last element, with no end events")
    order = list(ck.state.get("initiative") or ())
    for t, turn in enumerate(element.get("turns") or (), 1):
        _turn_faults(ck, turn, f"R{k} turn {t} ({turn['actor']})", order)
    if ends:
        ck.round += 1
        ck.taken = []
        if any(e["kind"] == "encounter_end" for e in element.get("end") or ()):
            ck.round = 1
    return bool(ends)


def _catalog_faults(ck: Checker) -> None:
    """NV2: ``tick`` for every condition a script can make tick, ``duration``
    for those melee Aim gives."""
    entries = ck.catalogs.get("conditions", {})
    for name, why in ck.ticking.items():
        entry = entries.get(name)
        if entry is None:
            ck.fault("bad_input", "NV2", f"catalog conditions.{name}",
                     f"no condition {name!r} in the catalogs")
            continue
        if "tick" not in entry:
            ck.fault("missing_input", "NV2", f"catalog conditions.{name}.tick",
                     f"{name} can tick in this script ({why}): its tick is required")
        if why == "melee Aim" and "duration" not in entry:
            ck.fault("missing_input", "NV2", f"catalog conditions.{name}.duration",
                     f"melee Aim can give {name}: its duration is required")


def check_script(request: Doc) -> None:
    """Every document fault of a ``script`` request, before any die:
    raises :class:`ScriptError` (exit 3) with all of them."""
    state = request["state"]
    ck = Checker(state, merged_catalogs(state, request),
                 resolve_options(state.get("options"), request.get("options")),
                 round=state.get("round", 1),
                 taken=list(state.get("turns_taken") or ()))
    if not _required_faults(ck):
        raise ScriptError(ck.faults)
    _state_faults(ck)
    ended = not ck.taken
    rounds = request["rounds"]
    for k, element in enumerate(rounds, 1):
        for e in _all_events(element):
            if e["kind"] == "condition":
                ck.ticking.setdefault(e["name"], f"R{k}")
        ended = _element_faults(ck, k, element, k == len(rounds), ended)
    _catalog_faults(ck)
    if ck.faults:
        raise ScriptError(ck.faults)


def check_state(request: Doc) -> None:
    """NV1's required keys and unique ids of a one-off request's state
    (``turn_start``, ``event``): raises :class:`ScriptError` (exit 3)."""
    state = request["state"]
    ck = Checker(state, merged_catalogs(state, request),
                 resolve_options(state.get("options"), request.get("options")))
    if _required_faults(ck):
        _state_faults(ck)
        ck.faults = [f for f in ck.faults if not f[2].endswith(".hit_die")]
    if ck.faults:
        raise ScriptError(ck.faults)


def _all_events(element: Doc) -> list[Doc]:
    """Every event an element holds (lists, event steps, effects)."""
    out = [*(element.get("events") or ()), *(element.get("start") or ()),
           *(element.get("end") or ())]
    for turn in element.get("turns") or ():
        for step in turn.get("steps") or ():
            out += [*(step.get("events") or ()), *(step.get("effects") or ())]
    return out
