"""The ``activation`` and ``priority`` one-off handlers: an Activation's
actions (PA2, PA3, PA5, PA6, PD1, PD7, PI5) and the order of a batch of
declarations (PP4, PP5, PI5, PD5). Shapes as in :mod:`.requests`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core.dice import DiceSource
from linguo_cli.rulesets.ptr2e import budget, priority
from linguo_cli.rulesets.ptr2e import options as ptr_options
from linguo_cli.rulesets.ptr2e.refusals import refuse
from linguo_cli.rulesets.ptr2e.requests import Trace


def _step(raw: Mapping[str, Any]) -> budget.Step:
    return budget.Step(str(raw["cost"]), raw.get("name"), int(raw.get("pp", 0)),
                       bool(raw.get("delay", False)), raw.get("interrupt"), raw.get("priority"))


def resolve_activation(request: Mapping[str, Any], _dice: DiceSource) -> dict[str, Any]:
    """The legality of one Activation's ``steps`` (each ``{cost:
    simple|complex|free|move, name?, pp?, delay?, interrupt?, priority?}``)
    for a creature with ``pp`` Power Points (optional, PA5) that starts it
    with ``owed_cost`` simple actions already counted (PI5, only under
    ``interrupt_effect: cost``, else ``bad_parameter``). No die is rolled.

    Result: ``legal`` (true), the counts ``simple`` (owed cost included),
    ``complex``, ``free``, ``moves``, ``pp`` ``{before, after}`` (``None``
    when untracked), ``skips_owed`` (PA6's ``skip`` reading) and per step
    what it counted as. Refusals (exit 4) at ``step k``."""
    opts = ptr_options.effective(request)
    owed = int(request.get("owed_cost", 0))
    if owed and opts["interrupt_effect"] != "cost":
        refuse("bad_parameter", "owed_cost needs interrupt_effect: cost (PI5)",
               field="owed_cost")
    steps = [_step(s) for s in request.get("steps", ())]
    pp = request.get("pp")
    used = budget.play(steps, opts, pp=pp, owed_cost=owed)
    trace = Trace(warnings=list(used.warnings))
    _explain_activation(steps, used, owed, opts, trace)
    skips = 1 if opts["priority_in_own_activation"] == "skip" and any(
        s.priority is not None for s in steps) else 0
    records = [{"step": i, "cost": s.cost, "name": s.name,
                "counts_as": budget.counted_cost(s, opts)} for i, s in enumerate(steps, 1)]
    return trace.result("activation", {
        "legal": True, "simple": used.simple, "complex": used.complex, "free": used.free,
        "moves": used.moves, "owed_cost": owed,
        "pp": None if pp is None else {"before": pp, "after": used.pp},
        "skips_owed": skips, "steps": records}, opts)


def _explain_activation(steps: list[budget.Step], used: budget.Budget, owed: int,
                        opts: Mapping[str, Any], trace: Trace) -> None:
    if owed:
        trace.note("PI5", f"{owed} simple action(s) already paid for an Interrupt")
    if any(s.delay for s in steps):
        trace.note("PD1", "a delayed action counts at its cost where it is declared"
                   if opts["delay_cost"] == "declaring" else "delay_cost: none: counts nowhere")
    if used.free:
        trace.note("PA3", f"{used.free} free action(s): no part of the Activation")
    if used.moves:
        trace.note("PM2", f"{used.moves} move(s): free, on one's own Activation")
    if any(s.pp for s in steps):
        trace.note("PA5", "Power Points: " + ("untracked" if used.pp is None
                                              else f"{used.pp} left"))
    if any(s.priority is not None for s in steps):
        trace.note("PA6", "a [Priority X] action in one's own Activation: "
                   + str(opts["priority_in_own_activation"]))
    if any(s.interrupt is not None for s in steps):
        trace.note("PA6", "an [Interrupt X] action delayed (delay_interrupt_actions: allowed)")
    if opts["delayable"] == "complex" and any(s.delay for s in steps):
        trace.note("PD7", "Hold!: only complex actions may be delayed")
    if any(s.name == "rush" for s in steps):
        trace.note("PR1", "Rush is a simple action")
    trace.note("PA2", f"{used.complex} complex, {used.simple} simple: legal "
               "(one complex, or up to two simple)")


# ---------------------------------------------------------------------------
# priority: a batch's order


def _entries(request: Mapping[str, Any]) -> list[priority.Entry]:
    creatures = request.get("creatures", {})
    out = []
    for i, raw in enumerate(request.get("entries", ())):
        actor = str(raw["actor"])
        if actor not in creatures:
            refuse("unknown_combatant", f"{actor!r} is not in creatures",
                   field=f"entries[{i}].actor")
        kind = str(raw["type"])
        if kind == "fire" and "level" in raw:
            refuse("bad_parameter", "a fired trigger delay is an [Interrupt 1] (PD5): no level",
                   field=f"entries[{i}].level")
        if kind != "fire" and "level" not in raw:
            refuse("bad_parameter", f"a {kind} entry needs its level",
                   field=f"entries[{i}]")
        who = creatures[actor]
        out.append(priority.Entry(i + 1, actor, kind, int(raw.get("level", 1)),
                                  raw.get("action"), int(who["speed"]), who.get("base_av")))
    return out


def _skips_after(entries: list[priority.Entry], owed: Mapping[str, int],
                 opts: Mapping[str, Any]) -> dict[str, int]:
    """``owed_skips`` after the batch's declarations (PP2, PI4, PD5, PP5)."""
    after = dict(owed)
    for e in entries:
        if e.type == "interrupt" and opts["interrupt_effect"] == "cost":
            continue  # PI5: paid from the next Activation, no skip
        if e.type == "fire" and opts["trigger_delay_skip"] == "on_declare":
            continue  # owed since the Delay's declaration (PD5)
        if opts["skips"] == "stack" or after.get(e.actor, 0) == 0:
            after[e.actor] = after.get(e.actor, 0) + 1
    return {c: n for c, n in after.items() if n}


def resolve_priority(request: Mapping[str, Any], _dice: DiceSource) -> dict[str, Any]:
    """The resolution order of one batch of simultaneous declarations
    (PP4): ``creatures`` (``{id: {speed, base_av?, owed_skips?}}``),
    ``entries`` (``[{actor, type: priority|interrupt|fire, level, action?}]``,
    a fire's level is 1) and the current initiative order's parts (PV3):
    ``in_progress`` (the creature whose Activation is under way),
    ``pending`` (creatures with a scheduled Activation still to come up, by
    the index of their next one) and ``initiative`` (the state's list for
    the rest); all optional. No die is rolled.

    Result: ``order`` (the entries in resolution order), ``actors``,
    ``decided_by`` (what put each entry before the next) and
    ``owed_skips`` after the declarations. Refusals: ``unknown_combatant``,
    ``level_out_of_range``, ``bad_parameter`` (exit 3); ``skip_owed``,
    ``duplicate_in_batch``, ``tie_unresolved`` (exit 4)."""
    opts = ptr_options.effective(request)
    entries = _entries(request)
    owed = {c: int(v.get("owed_skips", 0)) for c, v in request.get("creatures", {}).items()}
    priority.check_entries(entries, opts, owed)
    ranks = priority.current_order(request.get("in_progress"), request.get("pending", ()),
                                   request.get("initiative"))
    ordered, reasons = priority.order(entries, opts, ranks)
    trace = Trace()
    for kind, rule, text in (("priority", "PP1", "Priority declarations, levels 1 to "),
                             ("interrupt", "PI1", "Interrupt declarations, levels 1 to "),
                             ("fire", "PD5", "fired trigger delays: [Interrupt 1], max ")):
        if any(e.type == kind for e in entries):
            trace.note(rule, f"{text}{opts['priority_max']}")
    if any(e.interrupting for e in entries):
        trace.note("PI2", "Interrupts on one trigger form one batch, ordered as Priority")
    trace.note("PP4", "batch order: " + ", ".join(
        f"{e.actor} ({e.type} {e.level})" for e in ordered))
    for a, b, why in zip(ordered, ordered[1:], reasons, strict=False):
        trace.note(_rule_of(why), f"{a.actor} before {b.actor}: {why}")
    trace.note("PP5", "one Priority or Interrupt entry per creature, none while a skip is owed"
               if opts["skips"] == "single" else "skips: stack: every declaration adds a skip")
    trace.note("PP3", "owed skips after the batch: " + (", ".join(
        f"{c} {n}" for c, n in _skips_after(entries, owed, opts).items()) or "none"))
    return trace.result("priority", {
        "order": [{"entry": e.index, "actor": e.actor, "type": e.type, "level": e.level,
                   "action": e.action} for e in ordered],
        "actors": [e.actor for e in ordered], "decided_by": reasons,
        "owed_skips": _skips_after(entries, owed, opts)}, opts)


def _rule_of(reason: str) -> str:
    if "initiative" in reason:
        return "PV3"
    if "Base AV" in reason:
        return "PI5"
    return "PP4"
