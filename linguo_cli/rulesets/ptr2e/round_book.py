"""The bookkeeping of a PTR 2e round in play (PV1, PV5): the creatures,
Delays and log, owed skips (PP3, PP5) and costs (PI5), Power Points (PA5),
the current initiative order (PV3), Delay ids (PV1). :class:`RoundBook` is
the base of :class:`~.round_play.RoundPlay`, which applies the rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core.dice import DiceSource
from linguo_cli.rulesets.ptr2e import av
from linguo_cli.rulesets.ptr2e import priority as prio
from linguo_cli.rulesets.ptr2e.movement import Ledger
from linguo_cli.rulesets.ptr2e.refusals import refuse
from linguo_cli.rulesets.ptr2e.requests import Mover, Trace
from linguo_cli.rulesets.ptr2e.round_model import RUSH_KEYS, Creature, Delay, script_ids


class RoundBook:
    """A round's state (see the module text): ``c`` the creatures, ``delays``
    by id in declaration order, ``log`` (PV5), ``skipped``, ``rushes``,
    ``in_progress`` (the Activations under way, innermost last),
    ``next_index`` (the next scheduled Activation to come up)."""

    def __init__(self, state: Mapping[str, Any], stream: list[str], script: Mapping[str, Any],
                 opts: Mapping[str, Any], dice: DiceSource, trace: Trace,
                 timeline: av.Timeline | None = None) -> None:
        self.opts, self.dice, self.trace = opts, dice, trace
        self.state, self.timeline, self.levels = state, timeline, 0
        self.stream = stream
        self.n = len(stream)
        self.round = int(state.get("round", 1))
        self.initiative = state.get("initiative")
        model = str(opts["movement_model"])
        self.c: dict[str, Creature] = {}
        for name, spec in state["combatants"].items():
            mover = Mover(Ledger.fresh(spec.get("movement", {}), model), spec.get("skills", {}),
                          spec.get("rush_skills", {}), spec.get("pp"))
            self.c[name] = Creature(name, int(spec.get("speed", 0)), spec.get("actions", {}),
                                    mover, int(spec.get("owed_skips", 0)), spec.get("base_av"),
                                    int(spec.get("owed_cost", 0)))
        self.acts = {int(a["index"]): a.get("steps", []) for a in script.get("activations", [])}
        self.windows: dict[int, list[list[dict[str, Any]]]] = {}
        for w in script.get("windows", []):
            self.windows.setdefault(int(w["before"]), []).append(w["batch"])
        self.delayed = {d["delay_id"]: d for d in script.get("delayed", [])}
        self.delays: dict[str, Delay] = {}
        for p in state.get("pending_triggers", []):
            step = {"act": p["action"], **{k: p[k] for k in RUSH_KEYS if k in p}}
            d = Delay(p["delay_id"], p["actor"], p["action"], step, "earlier round",
                      trigger=p.get("trigger", ""), active=True)
            self.delays[d.id] = d
        self.used_ids = set(self.delays) | script_ids(script)
        self.log: list[dict[str, Any]] = []
        self.skipped: list[dict[str, Any]] = []
        self.rushes: list[dict[str, Any]] = []
        self.in_progress: list[str] = []
        self.next_index = 1
        self.start_triggers: list[tuple[str, str]] = []

    def emit(self, ctx: str, actor: str, what: str, moved: str | None = None) -> None:
        """Append one PV5 log entry; ``moved``: the actor whose allowances follow."""
        entry: dict[str, Any] = {"n": len(self.log) + 1, "ctx": ctx, "actor": actor, "what": what}
        if moved is not None:
            entry["allowances"] = self.c[moved].mover.ledger.allowances()
        self.log.append(entry)

    def fail(self, d: Delay) -> None:
        """A trigger delay fails (PD6)."""
        d.outcome = "failed"
        self.emit("-", d.actor, f"fail {d.id}")
        d.entry = len(self.log)
        self.trace.note("PD6", f"{d.id} fails: its window closed unfired")

    def ranks(self) -> dict[str, tuple[int, ...]]:
        """The current initiative order (PV3): under ``scheduler: av``
        ascending current AV with PV7's ties (:func:`.av.ranks`), else the
        creature in progress, the pending stream, the ``initiative`` list."""
        if self.timeline is not None:
            self.trace.note("PV3", "the current initiative order: ascending current AV, "
                            "ties as in PV7")
            return av.ranks(self.timeline, self.state, self.opts)
        self.trace.note("PV3", "the current initiative order")
        pending = self.stream[self.next_index - 1:]
        cur = self.in_progress[-1] if self.in_progress else None
        return prio.current_order(cur, pending, self.initiative)

    def cost_of(self, d: Delay) -> str:
        """A trigger delay's cost under ``interrupt_effect: cost``: its
        action's (PI5); 2 (complex) under ``delayable: complex`` (PD7)."""
        return str(self.c[d.actor].action(d.action, f"D:{d.id}").get("cost", "simple"))

    def pay(self, actor: str, rule: str, cost: str, place: str) -> None:
        """A trigger delay's price (PD5): a skip, or its cost (PI5)."""
        if self.opts["interrupt_effect"] == "cost":
            self.add_cost(actor, cost, place)
        else:
            self.owe(actor, rule)

    def add_cost(self, actor: str, cost: str, place: str) -> None:
        """PI5: ``owed_cost`` grows by 1 (simple) or 2 (complex); above 2 is
        ``next_activation_overdrawn`` (exit 4)."""
        cr = self.c[actor]
        add = 2 if cost == "complex" else 1
        if cr.owed_cost + add > 2:
            refuse("next_activation_overdrawn", f"{actor} owes {cr.owed_cost} of its next "
                   f"Activation; {add} more is above 2", place=place, rule="PI5")
        cr.owed_cost += add
        self.trace.note("PI5", f"{actor}'s next Activation starts with {cr.owed_cost} simple "
                        "action(s) used")

    def owe(self, actor: str, rule: str, declaration: bool = False) -> None:
        """Owe one skip (PP3), following ``skips`` (PP5)."""
        cr = self.c[actor]
        if declaration or self.opts["skips"] == "stack" or cr.owed == 0:
            cr.owed += 1
            self.trace.note(rule, f"{actor} owes a skip ({cr.owed})")
            self.trace.note("PP3", f"{actor}'s next scheduled Activation will be skipped")
        else:
            self.trace.note("PP5", f"{actor} already owes a skip: none added")

    def spend(self, actor: str, cost: int, place: str, name: str) -> None:
        """Spend Power Points (PA5)."""
        if cost <= 0:
            return
        mover = self.c[actor].mover
        if mover.pp is None:
            self.trace.warnings.append(f"pp_untracked: {place}: {name} costs {cost}")
            self.trace.note("PA5", f"{actor} does not track Power Points: {name} costs "
                            f"{cost} (pp_untracked)")
            return
        if mover.pp < cost:
            refuse("pp_insufficient", f"{name} needs {cost} Power Points, {mover.pp} left",
                   place=place)
        mover.pp -= cost
        self.trace.note("PA5", f"{actor} spends {cost} Power Points on {name}: {mover.pp} left")

    def fresh_id(self) -> str:
        """The first of d1, d2, ... not in use (PV1)."""
        k = 1
        while f"d{k}" in self.used_ids or f"d{k}" in self.delays:
            k += 1
        self.used_ids.add(f"d{k}")
        return f"d{k}"
