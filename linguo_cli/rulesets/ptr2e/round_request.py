"""The ``round`` request kind (PV1-PV8): one round (``stream`` and
``script``) or several (``rounds``) played from a ``state``, all or nothing.
Under ``scheduler: av`` the rounds give no ``stream``: the AV timeline
(:mod:`.av`) produces each round's order from the state (PV6-PV8), and
``state_after`` carries every ``av`` and ``round_marker_av``; with
``priority_effect: advance`` (PP6) the order is produced while the round
plays, and indices beyond it are ``bad_index`` once it is complete.

Input checks of PV4 run first over every round and are reported together
(exit 3, the first problem's code and rule named): ``unknown_combatant``,
``unknown_action``, ``unknown_movement_type``, ``bad_distance``,
``bad_index``, ``unknown_id``, ``level_out_of_range`` and
``bad_parameter``. Then the rounds are played in order
(:class:`~.round_play.RoundPlay`), each from the state the one before left;
the first rules violation refuses the whole request (exit 4, its code, rule
and PV4 place). The result is PV5's: ``log``, ``skipped``, ``rush``,
``delays``, ``allowances``, ``state_after``, ``rolls_used`` (added by the
core) and ``warnings`` (a script of several rounds: ``rounds`` with one
such record per round, less ``state_after``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from linguo_cli.core.dice import DiceSource
from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.rulesets.ptr2e import av
from linguo_cli.rulesets.ptr2e import options as ptr_options
from linguo_cli.rulesets.ptr2e.refusals import CODES
from linguo_cli.rulesets.ptr2e.requests import Trace
from linguo_cli.rulesets.ptr2e.round_model import DELAY_KEYS, RUSH_KEYS
from linguo_cli.rulesets.ptr2e.round_play import RoundPlay
from linguo_cli.rulesets.ptr2e.skill import cr_modifier

#: A problem's rule where its code's first rule is not the one: by the
#: message's first word (a Delay level is PD1's, not PP1's).
RULE_OF = {"Delay": "PD1"}


class RoundInputError(InputError):
    """PV4's input errors of a round, every one at once (exit 3);
    ``refusal``/``rule``: the first one's code and rule ID."""

    def __init__(self, problems: list[tuple[str, str, str]]) -> None:
        super().__init__([Diagnostic("request", "", f"{place}: {code}: {msg}")
                          for code, place, msg in problems])
        self.refusal = problems[0][0]
        self.rule = RULE_OF.get(problems[0][2].split(" ")[0], CODES[self.refusal])
        self.problems = problems


def resolve_round(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Play the request's round(s) (PV1, PV2) and return PV5's result; see
    the module text for the errors."""
    opts, option_error = _options(request)
    state = copy.deepcopy(dict(request["state"]))
    single = "rounds" not in request
    items: list[dict[str, Any]] = [dict(x) for x in request.get("rounds", [])] or [
        {k: request[k] for k in ("stream", "script") if k in request}]
    timelines = _schedule(state, items, opts, single)
    _refuse_inputs(state, items, opts, single, option_error)
    trace = Trace()
    played = []
    for k, item in enumerate(items, 1):
        prefix = "" if single else f"R{k} "
        if k > 1:
            late = [p for p in _check_ids(state, item.get("script", {}), prefix)]
            if late:
                raise RoundInputError(late)
        try:
            advance = opts["priority_effect"] == "advance"
            live = (timelines[0] if advance else av.Timeline.of(state, int(str(opts["round_av"]))))\
                if timelines else None
            record, state = _play(state, item, opts, dice, trace, live)
            if live is not None and advance:
                _check_indices(item, len(record["stream"]), prefix)
            if live is not None:
                snap = live
                _carry_av(state, snap)
                record["base_av"] = dict(snap.base)
                trace.note("PV6", "Base AVs: " + ", ".join(
                    f"{n} {b}" for n, b in snap.base.items()))
                trace.note("PV7", f"round {record['round']} order: {', '.join(record['stream'])}")
                trace.note("PV8", "Priority and Interrupts change no AV")
        except Exception as exc:
            if prefix and hasattr(exc, "place") and exc.place:
                exc.place = prefix + exc.place
                exc.args = (prefix + str(exc.args[0]),) if exc.args else exc.args
            raise
        played.append(record)
    trace.note("PV5", "the round's log, records and the state for the next round")
    values: dict[str, Any]
    if single:
        values = {**played[0], "state_after": state}
    else:
        values = {"rounds": played, "state_after": state}
    return trace.result("round", values, opts)


def _options(request: Mapping[str, Any]
             ) -> tuple[dict[str, Any], ptr_options.OptionCombinationError | None]:
    """The options in effect, or the defaults and the combination error
    (PP6, PA6) to report with the round's other input errors (PV4, PG-50).
    An unknown option name or value raises at once."""
    try:
        return ptr_options.effective(request), None
    except ptr_options.OptionCombinationError as exc:
        return ptr_options.effective({}), exc


def _refuse_inputs(state: Mapping[str, Any], items: list[dict[str, Any]],
                   opts: Mapping[str, Any], single: bool,
                   option_error: ptr_options.OptionCombinationError | None) -> None:
    """PV4: every input error of every round at once (exit 3,
    :class:`RoundInputError`), an options combination error last; that
    error alone raises as it is."""
    problems: list[tuple[str, str, str]] = []
    for k, item in enumerate(items, 1):
        prefix = "" if single else f"R{k} "
        problems.extend(_check_round(state, item, opts, prefix, first=k == 1))
    if option_error is not None:
        if not problems:
            raise option_error
        diag = option_error.diagnostics[0]
        problems.append(("bad_option", diag.field, diag.message.removeprefix("bad_option: ")))
    if problems:
        raise RoundInputError(problems)


def _schedule(state: Mapping[str, Any], items: list[dict[str, Any]], opts: Mapping[str, Any],
              single: bool) -> list[av.Timeline]:
    """Each round's ``stream``: given (``scheduler: stream``; an item
    without one is ``bad_parameter``), or produced by the AV timeline from
    the state (``scheduler: av``, PV7, PV8; a given one is
    ``bad_parameter``). Returns the timeline after each round (AV only)."""
    timed = opts["scheduler"] == "av"
    problems = [("bad_parameter", "stream" if single else f"R{k}",
                 "scheduler: av produces the stream" if timed else "a round needs its stream")
                for k, item in enumerate(items, 1) if ("stream" in item) == timed]
    if problems:
        raise RoundInputError(problems)
    if not timed:
        return []
    tl = av.Timeline.of(state, int(str(opts["round_av"])))
    if opts["priority_effect"] == "advance":
        return [tl]  # the order is produced in play (PP6)
    out = []
    for k, item in enumerate(items, 1):
        item["stream"] = av.one_round(tl, state, opts, "" if single else f"R{k} ")
        out.append(copy.deepcopy(tl))
    return out


def _carry_av(state: dict[str, Any], tl: av.Timeline) -> None:
    """The AVs a round leaves into ``state`` (PV7): ``av`` per creature and
    ``round_marker_av``."""
    for name, value in tl.av.items():
        state["combatants"][name]["av"] = av.plain(value)
    state["round_marker_av"] = av.plain(tl.marker)


def _check_indices(item: Mapping[str, Any], n: int, prefix: str) -> None:
    """``priority_effect: advance``: the script's indices against the order
    play produced (PV4, ``bad_index``, exit 3)."""
    script = item.get("script", {})
    bad = [("bad_index", f"{prefix}#{a['index']}", f"index {a['index']} outside 1..{n}")
           for a in script.get("activations", []) if not 1 <= int(a["index"]) <= n]
    bad += [("bad_index", f"{prefix}W{w['before']}", f"before {w['before']} outside 1..{n + 1}")
            for w in script.get("windows", []) if not 1 <= int(w["before"]) <= n + 1]
    if bad:
        raise RoundInputError(bad)


def _play(state: dict[str, Any], item: Mapping[str, Any], opts: Mapping[str, Any],
          dice: DiceSource, trace: Trace, live: av.Timeline | None = None
          ) -> tuple[dict[str, Any], dict[str, Any]]:
    """One round: its PV5 record (without ``state_after``) and the next state;
    ``live``: under ``scheduler: av``, the AV timeline as the round starts,
    which follows the round in play (the current AVs, PV3) or produces its
    order (PP6)."""
    rp = RoundPlay(state, list(item.get("stream", [])), item.get("script", {}), opts, dice,
                   trace, live)
    rp.play()
    record = {
        "round": rp.round, "stream": list(rp.stream), "log": rp.log,
        "timeline": [timeline_line(e) for e in rp.log],
        "skipped": rp.skipped, "rush": rp.rushes,
        "delays": [d.record() for d in rp.delays.values() if d.declared_in != "earlier round"
                   or d.outcome != "pending"],
        "allowances": {n: {"movement": c.mover.ledger.allowances(), "pp": c.mover.pp,
                           "owed_skips": c.owed} for n, c in rp.c.items()},
        "rolls_used": [r["roll"] for r in rp.rushes],
        "warnings": list(trace.warnings),
    }
    nxt = copy.deepcopy(state)
    nxt["round"] = rp.round + 1
    for name, c in rp.c.items():
        spec = nxt["combatants"][name]
        spec["owed_skips"] = c.owed
        if opts["interrupt_effect"] == "cost" or "owed_cost" in spec:
            spec["owed_cost"] = c.owed_cost
        if c.mover.pp is not None:
            spec["pp"] = c.mover.pp
    nxt["pending_triggers"] = [
        {"delay_id": d.id, "actor": d.actor, "action": d.action, "trigger": d.trigger,
         **{k: d.step[k] for k in RUSH_KEYS if k in d.step}}
        for d in rp.delays.values() if d.trigger is not None and d.outcome in ("carried",
                                                                              "pending")]
    return record, nxt


def timeline_line(entry: Mapping[str, Any]) -> str:
    """A log entry as one line of the worked examples' notation:
    ``7 P squirtle rush swim {overland 6, swim 10}`` (PV5)."""
    line = f"{entry['n']} {entry['ctx']} {entry['actor']} {entry['what']}"
    if "allowances" in entry:
        line += " {" + ", ".join(f"{t} {a}" for t, a in entry["allowances"].items()) + "}"
    return line


# ---------------------------------------------------------------------------
# PV4 input checks


def _check_round(state: Mapping[str, Any], item: Mapping[str, Any], opts: Mapping[str, Any],
                 prefix: str, first: bool) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    combatants = state["combatants"]
    stream = list(item.get("stream", []))
    for j, name in enumerate(stream, 1):
        if name not in combatants:
            out.append(("unknown_combatant", f"{prefix}stream {j}", f"no combatant {name!r}"))
    script = item.get("script", {})
    n = len(stream) if "stream" in item else 1_000_000  # PP6: the order comes in play
    seen: set[int] = set()
    for a in script.get("activations", []):
        i = int(a["index"])
        if not 1 <= i <= n or i in seen:
            out.append(("bad_index", f"{prefix}#{i}", f"index {i} outside 1..{n} or repeated"))
        seen.add(i)
    batches: dict[int, int] = {}
    for w in script.get("windows", []):
        b = int(w["before"])
        batches[b] = batches.get(b, 0) + 1
        if not 1 <= b <= n + 1:
            out.append(("bad_index", f"{prefix}W{b} batch {batches[b]}",
                        f"before {b} outside 1..{n + 1}"))
    for d in script.get("delayed", []):
        if "at" in d and opts["delay_timing"] != "chosen":
            out.append(("bad_parameter", f"{prefix}D:{d['delay_id']}",
                        "at needs delay_timing: chosen"))
    out.extend(_check_actors(state, script, prefix))
    out.extend(_check_kinds(script, prefix))
    declarers = _declarers(state, script)
    for actor, step, place in _walk(script, stream, declarers, prefix):
        if actor in combatants:
            out.extend(_check_step(combatants[actor], step, place, opts))
    if first:
        out = _check_catalogs(state, opts) + out + _check_ids(state, script, prefix)
    return out


def _check_catalogs(state: Mapping[str, Any], opts: Mapping[str, Any]
                    ) -> list[tuple[str, str, str]]:
    """PP1/PV4 (PE-08): every catalog action whose Priority or Interrupt
    level is above ``priority_max`` is refused before play
    (``level_out_of_range`` at ``state combatants.ID.actions.NAME``)."""
    top = int(str(opts["priority_max"]))
    out: list[tuple[str, str, str]] = []
    for cid, creature in state["combatants"].items():
        for name, action in (creature.get("actions") or {}).items():
            for trait in ("priority", "interrupt"):
                level = action.get(trait) if isinstance(action, Mapping) else None
                if isinstance(level, int) and level > top:
                    out.append(("level_out_of_range", f"state combatants.{cid}.actions.{name}",
                                f"{trait} {level} above priority_max {top}"))
    return out


#: Which entries each list may hold (PV1): a wrong one is ``bad_parameter``.
LIST_KINDS = {"batch": ("priority", "interrupt", "fire"), "interrupts": ("interrupt", "fire"),
              "priority": ("priority",), "free": ("free",)}


def _entry_kind(entry: Any) -> str:
    if not isinstance(entry, Mapping):
        return "?"
    kinds = [k for k in ("priority", "interrupt", "fire") if k in entry]
    if len(kinds) > 1:
        return "?"
    return kinds[0] if kinds else ("free" if "actor" in entry else "?")


def _check_kinds(script: Mapping[str, Any], prefix: str) -> list[tuple[str, str, str]]:
    """Every entry is of a kind its list holds (PV1, ``bad_parameter``)."""
    out: list[tuple[str, str, str]] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key in LIST_KINDS and isinstance(value, list):
                    for e, entry in enumerate(value, 1):
                        if _entry_kind(entry) not in LIST_KINDS[key]:
                            out.append(("bad_parameter", f"{where} {key} {e}".strip(),
                                        f"an entry of the wrong kind for {key}"))
                walk(value, f"{where} {key}".strip())
        elif isinstance(node, list):
            for k, value in enumerate(node, 1):
                walk(value, f"{where} {k}")
    walk(dict(script), prefix.strip())
    return out


def _check_actors(state: Mapping[str, Any], script: Mapping[str, Any], prefix: str
                  ) -> list[tuple[str, str, str]]:
    """Every entry's ``actor`` and every pending trigger's declarer is a
    combatant (``unknown_combatant``, PV1)."""
    combatants = state["combatants"]
    out = [("unknown_combatant", f"state pending_triggers.{k}", f"no combatant {p['actor']!r}")
           for k, p in enumerate(state.get("pending_triggers", []), 1)
           if p["actor"] not in combatants]

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            actor = node.get("actor")
            if isinstance(actor, str) and actor not in combatants:
                out.append(("unknown_combatant", where, f"no combatant {actor!r}"))
            for key, value in node.items():
                walk(value, f"{where} {key}".strip())
        elif isinstance(node, list):
            for k, value in enumerate(node, 1):
                walk(value, f"{where} {k}")
    walk(dict(script), prefix.strip())
    return out


def _declarers(state: Mapping[str, Any], script: Mapping[str, Any]) -> dict[str, str]:
    """Delay id -> declarer, from the pending triggers and the script's own
    declarations (an Activation's steps only: where a Delay may stand)."""
    out = {str(p["delay_id"]): str(p["actor"]) for p in state.get("pending_triggers", [])}
    return out


def _walk(script: Mapping[str, Any], stream: list[str], declarers: dict[str, str],
          prefix: str) -> Iterator[tuple[str, Mapping[str, Any], str]]:
    """Every step of the script with its actor and PV4 place."""
    for a in script.get("activations", []):
        i = int(a["index"])
        actor = stream[i - 1] if 1 <= i <= len(stream) else "?"
        for k, st in enumerate(a.get("steps", []), 1):
            yield from _walk_step(actor, st, f"{prefix}#{i} step {k}", declarers)
    counts: dict[int, int] = {}
    for w in script.get("windows", []):
        b = int(w["before"])
        counts[b] = counts.get(b, 0) + 1
        for e, entry in enumerate(w["batch"], 1):
            yield from _walk_entry(entry, f"{prefix}W{b} batch {counts[b]} entry {e}",
                                   declarers)


def _walk_entry(entry: Mapping[str, Any], label: str, declarers: dict[str, str]
                ) -> Iterator[tuple[str, Mapping[str, Any], str]]:
    actor = declarers.get(str(entry.get("fire")), "?") if "fire" in entry \
        else str(entry.get("actor", "?"))
    who = f"fire {entry['fire']}" if "fire" in entry else actor
    for k, st in enumerate(entry.get("steps", []), 1):
        yield from _walk_step(actor, st, f"{label} ({who}) step {k}", declarers)
    for key, part in (("interrupts", "interrupt"), ("free", "free")):
        for e, sub in enumerate(entry.get(key, []), 1):
            yield from _walk_entry(sub, f"{label} ({who}) {part} {e}", declarers)


def _walk_step(actor: str, step: Mapping[str, Any], place: str, declarers: dict[str, str]
               ) -> Iterator[tuple[str, Mapping[str, Any], str]]:
    yield actor, step, place
    for key, part in (("interrupts", "interrupt"), ("free", "free"), ("priority", "priority")):
        for e, sub in enumerate(step.get(key, []), 1):
            yield from _walk_entry(sub, f"{place} {part} {e}", declarers)


def _check_step(creature: Mapping[str, Any], step: Mapping[str, Any], place: str,
                opts: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    movement = creature.get("movement", {})
    if "move" in step:
        if step["move"] not in movement:
            out.append(("unknown_movement_type", place, f"no movement type {step['move']!r}"))
        if int(step.get("m", 0)) < 1:
            out.append(("bad_distance", place, f"distance {step.get('m')}"))
        return out
    if "act" not in step:
        return out
    name = step["act"]
    if name != "rush" and name not in creature.get("actions", {}):
        out.append(("unknown_action", place, f"no action {name!r}"))
    if name != "rush" and any(k in step for k in RUSH_KEYS):
        out.append(("bad_parameter", place, "a Rush parameter on another action"))
    if name == "rush":
        out.extend(_check_rush(step, movement, place, opts))
    if "delay" in step and "delay_trigger" in step:
        out.append(("bad_parameter", place, "delay and delay_trigger"))
    elif "delay_id" in step and not ("delay" in step or "delay_trigger" in step):
        out.append(("bad_parameter", place, "delay_id without a Delay"))
    elif "delay" in step and not 1 <= int(step["delay"]) <= 3:
        out.append(("level_out_of_range", place, f"Delay {step['delay']} outside 1..3"))
    return out


def _check_rush(step: Mapping[str, Any], movement: Mapping[str, Any], place: str,
                opts: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """A Rush step's input checks (PR1, PR5, PS1)."""
    out: list[tuple[str, str, str]] = []
    if "type" in step and step["type"] not in movement:
        out.append(("unknown_movement_type", place, f"no movement type {step['type']!r}"))
    if "cr" in step:
        try:
            cr_modifier(str(step["cr"]))
        except InputError:
            out.append(("bad_parameter", place, f"no CR {step['cr']!r}"))
    if "pp_boost" in step and opts["rush_yield"] != "per_two_dos":
        out.append(("bad_parameter", place, "pp_boost needs rush_yield: per_two_dos"))
    return out


def _check_ids(state: Mapping[str, Any], script: Mapping[str, Any], prefix: str
               ) -> list[tuple[str, str, str]]:
    """Delay ids (PV1): given once, not clashing with pending ones; every
    ``fire`` and ``delayed`` id names a Delay."""
    out: list[tuple[str, str, str]] = []
    known = {str(p["delay_id"]) for p in state.get("pending_triggers", [])}
    triggers = set(known)
    given: set[str] = set()
    places = list(_id_places(script, prefix))
    for kind, did, place, step in places:
        if kind != "declare":
            continue
        if did in given or did in known:
            out.append(("unknown_id", place, f"delay_id {did} used twice"))
        given.add(did)
        if "delay_trigger" in step:
            triggers.add(did)
    for kind, did, place, _ in places:
        if kind == "fire" and did not in triggers:
            out.append(("unknown_id", place, f"no trigger delay {did}"))
    for d in script.get("delayed", []):
        if str(d["delay_id"]) not in given | known:
            out.append(("unknown_id", f"{prefix}D:{d['delay_id']}", "no such Delay"))
    return out


def _id_places(script: Mapping[str, Any], prefix: str
               ) -> Iterator[tuple[str, str, str, Mapping[str, Any]]]:
    stream_less: dict[str, str] = {}
    for actor, step, place in _walk(script, ["?"] * 999, stream_less, prefix):
        del actor
        if "delay_id" in step and any(k in step for k in DELAY_KEYS[:2]):
            yield "declare", str(step["delay_id"]), place, step
        for e, sub in enumerate(step.get("interrupts", []), 1):
            if "fire" in sub:
                yield "fire", str(sub["fire"]), f"{place} interrupt {e} (fire {sub['fire']})", sub
    counts: dict[int, int] = {}
    for w in script.get("windows", []):
        b = int(w["before"])
        counts[b] = counts.get(b, 0) + 1
        for e, sub in enumerate(w["batch"], 1):
            if "fire" in sub:
                yield ("fire", str(sub["fire"]),
                       f"{prefix}W{b} batch {counts[b]} entry {e} (fire {sub['fire']})", sub)
