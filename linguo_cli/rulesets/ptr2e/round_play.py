"""One round of PTR 2e combat played from a state and a script (PV2): the
scheduled stream, windows of Priority/Interrupt batches, Interrupts before
their trigger (innermost first, PI2), triggered free actions (PA3, PA4),
[Delay X] counting and resolution (PD2-PD4), trigger delays (PD5, PD6),
movement (PM) and Rush (PR).

:class:`RoundPlay` holds the round's mutable state; :meth:`RoundPlay.play`
runs PV2 steps 1-4 and fills ``log`` (PV5 entries ``{n, ctx, actor, what}``,
moves and Rushes with ``allowances``), ``skipped``, ``rush``, ``delays`` and
``rolls``. A rules violation raises :class:`~.refusals.Refusal` (exit 4)
with its code, rule and PV4 place; input errors found only in play raise
:class:`~.refusals.BadInput` (exit 3). Batches are ordered by
:func:`.priority.order`, budgets charged by :class:`.budget.Budget`,
ledgers kept by :class:`.movement.Ledger`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cmp_to_key
from typing import Any

from linguo_cli.rulesets.ptr2e import av
from linguo_cli.rulesets.ptr2e import priority as prio
from linguo_cli.rulesets.ptr2e.budget import Budget
from linguo_cli.rulesets.ptr2e.refusals import refuse
from linguo_cli.rulesets.ptr2e.requests import do_rush
from linguo_cli.rulesets.ptr2e.round_book import RoundBook
from linguo_cli.rulesets.ptr2e.round_model import (
    DELAY_KEYS,
    RUSH_KEYS,
    Ctx,
    Delay,
    delay_keys,
    kind_of,
    rush_default,
    who,
)


class RoundPlay(RoundBook):
    """One round (PV2) from ``state`` (plain, schema-valid), ``stream``,
    ``script``, the options ``opts`` and ``dice``; see the module text."""

    # -- the log -------------------------------------------------------------

    # -- PV2 -----------------------------------------------------------------

    def play(self) -> None:
        """PV2 steps 1-4."""
        self.trace.note("PV1", f"the stream: {', '.join(self.stream) or 'no Activation'}")
        self.trace.note("PV2", f"{self.n} scheduled Activations, windows W1..W{self.n + 1}")
        if self.timeline is not None and self.opts["priority_effect"] == "advance":
            self.play_timeline(self.timeline)
        else:
            for i in range(1, self.n + 1):
                self.scheduled(i)
            self.step_timeline("")
        self.next_index = self.n + 1
        self.chosen_delays(self.n + 1)
        for b, batch in enumerate(self.windows.get(self.n + 1, []), 1):
            self.run_batch(batch, f"W{self.n + 1} batch {b}", "entry", window=self.n + 1)
        for d in self.delays.values():
            if d.level is not None and d.outcome == "pending":
                self.trace.note("PD3", f"{d.id} resolves at the end of the round")
                self.resolve_delay(d)
        for d in self.delays.values():
            if d.trigger is not None and d.outcome == "pending":
                if self.opts["trigger_delay_expiry"] == "round_end":
                    self.fail(d)
                else:
                    d.outcome = "carried"
                    self.trace.note("PD6", f"{d.id} is carried into the next round")
        for c in self.c.values():
            if c.owed:
                self.trace.note("PP3", f"{c.name} carries {c.owed} owed skip(s) into round "
                                f"{self.round + 1}")
        self.trace.note("PM5", "ledgers and Rush bonuses return to 0 for the next round")
        self.emit("-", "-", "end of round")

    def scheduled(self, i: int) -> None:
        """PV2 step 1 for Activation i: window W_i, then i comes up."""
        self.next_index = i
        self.start_triggers = []
        self.chosen_delays(i)
        for b, batch in enumerate(self.windows.get(i, []), 1):
            self.run_batch(batch, f"W{i} batch {b}", "entry", window=i)
        if self.timeline is None or self.opts["priority_effect"] == "advance":
            self.come_up(i)
            return
        self.step_timeline(self.stream[i - 1], lambda: self.come_up(i))

    def step_timeline(self, expected: str, activation: Callable[[], None] | None = None
                      ) -> None:
        """``scheduler: av`` with the order fixed before play (PV7, PV8):
        the timeline follows the round so that the current initiative order
        (PV3) reads the current AVs. ``expected`` comes up (its AV
        subtracted from every AV), ``activation`` runs with it at 0, then
        its AV becomes its Base AV; ``""``: the marker (the round ends)."""
        if self.timeline is None:
            if activation is not None:
                activation()
            return
        who = av.arrive(self.timeline, self.state, self.opts, f"stream {self.n + 1}")
        if who != expected:
            raise RuntimeError(f"the AV timeline brought {who or 'the marker'} where the "
                               f"order has {expected or 'the marker'}")
        if activation is not None:
            activation()
        av.settle(self.timeline, who, self.opts)

    def play_timeline(self, tl: av.Timeline) -> None:
        """``priority_effect: advance`` (PP6, PV7): the order is produced
        while the round plays; an Activation that resolved [Priority X]
        actions of levels summing to S ends at ``Base - Base * S / 10``."""
        while who := av.arrive(tl, self.state, self.opts, f"stream {self.n + 1}"):
            self.stream.append(who)
            self.n += 1
            self.levels = 0
            self.scheduled(self.n)
            av.settle(tl, who, self.opts)
            if self.levels:
                tl.av[who] = av.advanced(tl.base[who], self.levels)
                self.trace.note("PP6", f"{who} resolved Priority {self.levels}: AV "
                                f"{av.plain(tl.av[who])}")
            if self.n > av.MAX_ACTIVATIONS:
                refuse("bad_parameter", "the timeline does not reach the Round marker",
                       field="stream", rule="PV7")
        av.settle(tl, "", self.opts)

    def chosen_delays(self, window: int) -> None:
        """``delay_timing: chosen``: the [Delay X] actions whose ``at`` is this
        window resolve as it opens; one not yet at its count is
        ``delay_not_due`` (PD2)."""
        for d in list(self.delays.values()):
            if d.at == window and d.outcome == "pending" and d.level is not None:
                if d.count < d.level or not d.active:
                    refuse("delay_not_due", f"{d.id} has counted {d.count} of {d.level} when "
                           f"W{window} opens", place=f"D:{d.id}")
                self.trace.note("PD2", f"{d.id} resolves as W{window} opens (at {window})")
                self.resolve_delay(d)

    def come_up(self, i: int) -> None:
        """Activation i comes up: skipped (PP3) or played."""
        actor = self.stream[i - 1]
        cr = self.c[actor]
        self.next_index = i + 1
        if cr.owed > 0:
            cr.owed -= 1
            self.trace.note("PP3", f"#{i} {actor} is skipped")
            self.emit("-", actor, f"skip {i}")
            self.skipped.append({"index": i, "actor": actor})
            if self.acts.get(i):
                refuse("steps_for_skipped", f"#{i} is skipped: it has no steps", place=f"#{i}")
            if self.start_triggers:
                place, who = self.start_triggers[0]
                refuse("trigger_not_found", f"#{i} never starts ({who}'s trigger)",
                       place=f"{place}, when #{i} comes up")
            return
        self.activation(actor, f"A{i}", self.acts.get(i, []), f"#{i}")

    def activation(self, actor: str, ctx: str, steps: list[dict[str, Any]], place: str,
                   declared: str | None = None) -> None:
        """A scheduled or Priority Activation (PA2, PP2, PD6 fails, PD2 count)."""
        self.emit(ctx, actor, "start")
        self.in_progress.append(actor)
        for d in self.delays.values():
            if d.actor == actor and d.trigger is not None and d.outcome == "pending" \
                    and d.active:
                self.fail(d)
        owed = self.c[actor].owed_cost
        self.c[actor].owed_cost = 0
        sc = Ctx("priority" if ctx == "P" else "activation", actor, ctx,
                 Budget(simple=owed, pp=None), declared=declared)
        for k, step in enumerate(steps, 1):
            self.run_step(step, sc, f"{place} step {k}", f"{place} step {k}")
        self.in_progress.pop()
        self.activation_ended(sc, counts=ctx != "P" or
                              self.opts["delay_counts"] != "scheduled_only")

    def activation_ended(self, sc: Ctx, counts: bool) -> None:
        """PD2/PD6 at the end of an Activation (or a counted Interrupt)."""
        due: list[Delay] = []
        for d in self.delays.values():
            if d.outcome != "pending" or d.level is None or not d.active:
                continue
            if counts:
                d.count += 1
            if d.count >= d.level and d.at is None:
                due.append(d)
        for d in sc.declaring:
            d.active = True
            if d.level is not None and self.opts["delay_count_start"] == "with_declaring":
                d.count = 1
                if d.count >= d.level and d.at is None:
                    due.append(d)
        if counts:
            self.trace.note("PD2", "an Activation ended: level Delays count it")
        for d in sorted(due, key=lambda x: list(self.delays).index(x.id)):
            if d.outcome == "pending":
                self.resolve_delay(d)

    # -- batches (PP4, PI2) --------------------------------------------------

    def run_batch(self, batch: list[dict[str, Any]], place: str, part: str,
                  window: int | None = None) -> None:
        """Check, order and resolve one batch of Priority/Interrupt/fire entries."""
        entries = []
        for e, entry in enumerate(batch, 1):
            label = f"{place} {part} {e} ({who(entry)})" if part == "entry" else \
                f"{place} {kind_of(entry)} {e} ({who(entry)})"
            entries.append(self.declare_check(entry, e, label, window))
        self.check_skips(entries)
        by_index = {ent.index: (ent, raw, label) for ent, raw, label in entries}
        try:
            ordered, _ = prio.order([x[0] for x in entries], self.opts, self.ranks())
        except Exception as exc:
            if getattr(exc, "refusal", None) == "tie_unresolved":
                refuse("tie_unresolved", "the batch cannot be ordered", place=place)
            raise
        self.trace.note("PP4", f"{place}: " + ", ".join(e.actor for e in ordered))
        if self.opts["interrupt_tiebreak"] == "base_av" and any(e.interrupting for e in ordered):
            self.trace.note("PI5", "equal Interrupt levels: lower Base AV first")
        for ent, raw, label in entries:
            self.declared(ent, raw, label)
        for ent in ordered:
            _, raw, label = by_index[ent.index]
            if ent.type == "priority":
                self.priority_activation(raw, label)
            else:
                if window is not None:
                    if window > self.n:
                        refuse("trigger_not_found", "no Activation follows", place=label)
                    self.start_triggers.append((label, ent.actor))
                self.interrupt(raw, label)

    def check_skips(self, entries: list[tuple[prio.Entry, Mapping[str, Any], str]]) -> None:
        """PP5 over one batch, against the state before it: ``skip_owed`` and
        ``duplicate_in_batch`` (``skips: single``; fires never count)."""
        checked = [x for x in entries if x[0].type != "fire"]
        if checked:
            self.trace.note("PP5", f"skips: {self.opts['skips']}")
        if self.opts["skips"] != "single":
            return
        seen: set[str] = set()
        for ent, _, label in checked:
            pays = ent.type == "priority" or self.opts["interrupt_effect"] == "skip"
            if self.c[ent.actor].owed > 0 and pays:
                refuse("skip_owed", f"{ent.actor} already owes a skip", place=label)
            if ent.actor in seen:
                refuse("duplicate_in_batch", f"{ent.actor} already declared", place=label)
            seen.add(ent.actor)

    def declare_check(self, entry: Mapping[str, Any], e: int, label: str,
                      window: int | None) -> tuple[prio.Entry, Mapping[str, Any], str]:
        """One entry's own rules (PP1, PI1, PI4, PD5) as a batch :class:`~.priority.Entry`."""
        if "fire" in entry:
            d = self.delays.get(str(entry["fire"]))
            if d is None or d.trigger is None:
                refuse("unknown_id", f"no trigger delay {entry['fire']!r}", field=label)
            assert d is not None
            if d.outcome != "pending":
                refuse("delay_not_pending", f"{d.id} has {d.outcome}", place=label, rule="PD5")
            if not d.active or (window is not None and window <= self.n
                                and self.stream[window - 1] == d.actor):
                refuse("own_activation", f"{d.id} cannot fire in or at its declarer's "
                       "own Activation", place=label, rule="PD5")
            return prio.Entry(e, d.actor, "fire", 1, d.action, self.c[d.actor].speed,
                              self.c[d.actor].base_av), \
                entry, label
        actor = str(entry["actor"])
        kind = "priority" if "priority" in entry else "interrupt"
        name = str(entry[kind])
        act = self.c[actor].action(name, label)
        level = int(act.get(kind) or 0)
        self.trace.note("PP1" if kind == "priority" else "PI1", f"{actor} declares {name}")
        if kind == "priority" and self.opts["priority_effect"] == "advance":
            refuse("priority_out_of_turn", "priority_effect: advance: a [Priority X] action "
                   "is used in one's own Activation", place=label, rule="PP6")
        if not level:
            refuse(f"{kind}_no_trait", f"{name} has no [{kind.title()} X] trait", place=label)
        top = int(str(self.opts["priority_max"]))
        if not 1 <= level <= top:
            refuse("level_out_of_range", f"level {level} outside 1..{top}", field=label)
        if kind == "interrupt":
            own_start = window is not None and window <= self.n and \
                self.stream[window - 1] == actor
            busy = actor in self.in_progress and \
                self.opts["interrupt_in_own_activation"] != "allowed"
            if own_start or busy:
                refuse("own_activation", f"{actor}'s own Activation", place=label, rule="PI4")
        return prio.Entry(e, actor, kind, level, name, self.c[actor].speed,
                          self.c[actor].base_av), entry, label

    def declared(self, ent: prio.Entry, raw: Mapping[str, Any], label: str) -> None:
        """What declaring costs: Power Points (PA5) and a skip (PP2, PI4, PD5)."""
        if ent.type == "fire":
            d = self.delays[str(raw["fire"])]
            d.outcome = "fired"
            if self.opts["trigger_delay_skip"] == "on_fire":
                self.pay(d.actor, "PD5", self.cost_of(d), label)
            return
        act = self.c[ent.actor].action(str(ent.action), label)
        if ent.type == "interrupt" and self.opts["interrupt_effect"] == "cost":
            self.add_cost(ent.actor, str(act.get("cost", "simple")), label)
        self.spend(ent.actor, int(act.get("pp", 0)), label, str(ent.action))
        if ent.type == "priority" or self.opts["interrupt_effect"] != "cost":
            self.owe(ent.actor, "PP2" if ent.type == "priority" else "PI4", declaration=True)

    def priority_activation(self, raw: Mapping[str, Any], label: str) -> None:
        """A Priority Activation (PP2): its steps must use the declared action."""
        name = str(raw["priority"])
        steps = list(raw.get("steps", [{"act": name}]))
        if not any(s.get("act") == name and not delay_keys(s) for s in steps):
            refuse("priority_action_missing", f"the steps do not use {name}", place=label)
        self.trace.note("PP2", f"{raw['actor']} takes a Priority Activation")
        self.activation(str(raw["actor"]), "P", steps, label, declared=name)

    # -- Interrupts and fires (PI2, PI3, PD5) --------------------------------

    def interrupt(self, raw: Mapping[str, Any], label: str) -> None:
        """Resolve an Interrupt or a fired trigger delay: its action alone."""
        if "fire" in raw:
            d = self.delays[str(raw["fire"])]
            actor, name, ctx, base = d.actor, d.action, f"T:{d.id}", dict(d.step)
            d.entry = None
        else:
            actor, name, ctx = str(raw["actor"]), str(raw["interrupt"]), "I"
            base = {"act": name}
        steps = list(raw.get("steps", [base]))
        for k, st in enumerate(steps, 1):
            where = f"{label} step {k}"
            if k == 1 and st.get("act") == name and not delay_keys(st):
                continue
            if delay_keys(st):
                refuse("delay_not_own_activation", "no Delay in an Interrupt", place=where)
            if "move" in st:
                refuse("movement_in_interrupt", "no movement in an Interrupt", place=where,
                       rule="PI3")
            refuse("interrupt_extra_step", "an Interrupt holds its action alone", place=where,
                   rule="PI3")
        step = dict(steps[0])
        if "fire" in raw:
            step = {**d.step, **step}
        on_entry = any(k in raw for k in ("interrupts", "free"))
        for key in ("interrupts", "free"):
            if key in raw:
                step[key] = raw[key]
        sc = Ctx("fire" if "fire" in raw else "interrupt", actor, ctx)
        self.trace.note("PI2", f"{actor}'s {name} resolves before its trigger")
        self.trace.note("PI3", f"{actor}'s Interrupt holds {name} alone, without movement")
        if "fire" in raw:
            self.trace.note("PD5", f"{raw['fire']} fires as an [Interrupt 1]")
            self.trace.note("PD6", f"{raw['fire']} fires within its window")
        self.run_step(step, sc, f"{label} step 1", label if on_entry else f"{label} step 1")
        if "fire" in raw:
            self.delays[str(raw["fire"])].entry = self.log[-1]["n"]
        if self.opts["delay_counts"] == "with_interrupts":
            self.activation_ended(sc, counts=True)

    # -- steps ---------------------------------------------------------------

    def run_step(self, step: Mapping[str, Any], sc: Ctx, place: str, attach: str) -> None:
        """A step: its Interrupts, the step, its free entries, its Priority list (PV2)."""
        if step.get("interrupts"):
            self.run_batch(step["interrupts"], attach, "interrupt")
        if "move" in step:
            self.move(step, sc, place)
        elif "event" in step:
            self.emit(sc.log, sc.actor, f"event {step['event']}")
        else:
            self.act(step, sc, place)
        if step.get("free"):
            self.free_entries(step["free"], sc, attach)
        if step.get("priority"):
            if self.opts["priority_windows"] != "after_step":
                entry = step["priority"][0]
                refuse("priority_outside_window", "Priority is declared between Activations",
                       place=f"{attach} priority 1 ({who(entry)})")
            self.run_batch(step["priority"], attach, "priority")

    def move(self, step: Mapping[str, Any], sc: Ctx, place: str) -> None:
        """A move step (PM2 legality, PM3/PM4 ledger)."""
        if delay_keys(step):
            refuse("not_delayable", "a move cannot be delayed", place=place)
        if sc.kind in ("interrupt", "fire"):
            refuse("movement_in_interrupt", "no movement in an Interrupt", place=place,
                   rule="PM2")
        own = sc.kind in ("activation", "priority") or (
            sc.kind == "free" and sc.owner == sc.actor and sc.owner_kind != "delay")
        if not own:
            outside = sc.kind == "delay" or (sc.kind == "free" and sc.has_action)
            if self.opts["move_with_actions"] == "no" or not outside:
                refuse("movement_out_of_turn", f"{sc.actor} may not move here", place=place)
        led = self.c[sc.actor].mover.ledger
        self.trace.note("PM2", f"{sc.actor} may move here ({sc.kind})")
        led.move(str(step["move"]), int(step["m"]), place=place, field_=place)
        self.trace.note("PM3", f"{sc.actor} moves {step['move']} {step['m']}")
        self.trace.note("PM4", f"{sc.actor}'s allowances: {led.allowances()}")
        self.emit(sc.log, sc.actor, f"move {step['move']} {step['m']}", moved=sc.actor)

    def act(self, step: Mapping[str, Any], sc: Ctx, place: str) -> None:
        """An action step in its context (PA2-PA6, PD1, PR)."""
        cr = self.c[sc.actor]
        name = str(step["act"])
        act = cr.action(name, place)
        self.trace.note("PA1", f"{sc.actor}'s {name} is in its catalog")
        cost = str(act.get("cost", "simple"))
        if delay_keys(step):
            self.declare_delay(step, sc, place, act)
            return
        if sc.kind == "free" and cost != "free":
            refuse("not_free", f"{name} is {cost}, not free", place=place)
        if sc.kind in ("activation", "priority"):
            if act.get("interrupt") is not None:
                refuse("interrupt_only", f"{name} is used only as an Interrupt", place=place)
            assert sc.budget is not None
            sc.budget.charge(cost, place)
            if act.get("priority") is not None:
                self.trace.note("PA6", f"{name} in {sc.actor}'s own Activation")
                if self.timeline is not None and sc.kind == "activation":
                    self.levels += int(act["priority"])
            if act.get("priority") is not None and \
                    self.opts["priority_in_own_activation"] == "skip" and sc.kind != "priority":
                self.owe(sc.actor, "PA6")
            self.trace.note("PA2", f"{sc.actor}: {name} ({cost})")
        if sc.kind == "priority" and name == sc.declared:
            sc.declared = None  # its Power Points were spent at the declaration (PA5)
        elif sc.kind not in ("interrupt", "fire", "delay"):
            self.spend(sc.actor, int(act.get("pp", 0)), place, name)
        if name == "rush":
            self.rush(step, sc, place)
            return
        self.emit(sc.log, sc.actor, f"act {name}")

    def rush(self, step: Mapping[str, Any], sc: Ctx, place: str) -> None:
        """A Rush (PR1-PR5): one d100 now."""
        mover = self.c[sc.actor].mover
        spec = {k: step[k] for k in RUSH_KEYS if k in step}
        if "type" not in spec:
            refuse("bad_parameter", "a Rush needs its type", field=place)
        record = do_rush(spec, mover, self.opts, self.dice, self.trace, place,
                         boost_paid=sc.kind == "delay")
        self.rushes.append({"actor": sc.actor, **record.as_dict()})
        self.emit(sc.log, sc.actor, f"rush {spec['type']}", moved=sc.actor)

    def declare_delay(self, step: Mapping[str, Any], sc: Ctx, place: str,
                      act: Mapping[str, Any]) -> None:
        """Declaring a Delay (PD1, PD5)."""
        name = str(step["act"])
        cost = str(act.get("cost", "simple"))
        own = sc.kind == "activation" or (
            sc.kind == "priority" and self.opts["delay_in_priority"] == "allowed")
        if not own:
            refuse("delay_not_own_activation", "a Delay is declared in one's own Activation",
                   place=place)
        if cost == "free":
            refuse("not_delayable", "a free action cannot be delayed", place=place)
        if self.opts["delayable"] == "complex":
            self.trace.note("PD7", "Hold!: only complex actions may be delayed")
        if self.opts["delayable"] == "complex" and cost != "complex":
            refuse("not_delayable", "only complex actions may be delayed", place=place,
                   rule="PD7")
        if act.get("interrupt") is not None or act.get("priority") is not None:
            self.trace.note("PA6", f"{name}'s trait does not act when it is delayed")
        if act.get("interrupt") is not None and self.opts["delay_interrupt_actions"] != "allowed":
            refuse("interrupt_only", f"{name} is used only as an Interrupt", place=place,
                   rule="PA6")
        assert sc.budget is not None
        if self.opts["delay_cost"] != "none":
            sc.budget.charge(cost, place)
        self.spend(sc.actor, int(act.get("pp", 0)), place, name)
        if name == "rush":
            self.spend(sc.actor, int(step.get("pp_boost", 0)), place, "pp_boost")
        did = str(step["delay_id"]) if "delay_id" in step else self.fresh_id()
        base = {k: v for k, v in step.items() if k not in DELAY_KEYS + ("interrupts", "free",
                                                                         "priority")}
        d = Delay(did, sc.actor, name, base, sc.log)
        if "delay" in step:
            d.level = int(step["delay"])
            if not 1 <= d.level <= 3:
                refuse("level_out_of_range", f"Delay {d.level} outside 1..3", field=place,
                       rule="PD1")
            d.at = self.delayed.get(did, {}).get("at")
            what = f"delay {name} {d.level} ({did})"
        else:
            d.trigger = str(step["delay_trigger"])
            what = f"delay {name} trigger ({did})"
            self.trace.note("PD5", f"{did}: {name} becomes an [Interrupt 1] with its trigger")
            self.trace.note("PD6", f"{did}'s window opens when this Activation ends")
            if self.opts["trigger_delay_skip"] == "on_declare":
                self.pay(sc.actor, "PD5", cost, place)
        self.delays[did] = d
        sc.declaring.append(d)
        self.trace.note("PD1", f"{sc.actor} delays {name} ({did})")
        self.emit(sc.log, sc.actor, what)
        d.entry = len(self.log)

    def free_entries(self, entries: list[dict[str, Any]], sc: Ctx, attach: str) -> None:
        """Triggered free entries after a step (PA3), ordered by PA4."""
        items = [(e, entry) for e, entry in enumerate(entries, 1)]
        self.trace.note("PA3", "triggered free actions after their trigger")
        self.trace.note("PA4", f"free entries in {self.opts['free_order']} order")
        if self.opts["free_order"] == "initiative" and len({x[1]["actor"] for x in items}) > 1:
            ranks = self.ranks()

            def cmp(a: tuple[int, Any], b: tuple[int, Any]) -> int:
                ra, rb = ranks.get(a[1]["actor"]), ranks.get(b[1]["actor"])
                if a[1]["actor"] == b[1]["actor"]:
                    return a[0] - b[0]
                first = None if ra is None or rb is None else prio.earlier(ra, rb)
                if first is None:
                    refuse("tie_unresolved", "free entries cannot be ordered", place=attach,
                           rule="PV3")
                return -1 if first else 1
            items.sort(key=cmp_to_key(cmp))
            self.trace.note("PA4", "free entries in current initiative order")
        for e, entry in items:
            actor = str(entry["actor"])
            label = f"{attach} free {e} ({actor})"
            steps = list(entry.get("steps", []))
            if sc.kind in ("interrupt", "fire") and actor == sc.actor and steps:
                first = steps[0]
                refuse("movement_in_interrupt" if "move" in first else "interrupt_extra_step",
                       "an Interrupt holds its action alone", place=f"{label} step 1",
                       rule="PI3")
            owner_kind = sc.kind if sc.kind in ("activation", "priority", "delay") else ""
            fc = Ctx("free", actor, "F", owner=sc.actor if owner_kind else None,
                     owner_kind=owner_kind,
                     has_action=any("act" in s for s in steps))
            for k, st in enumerate(steps, 1):
                self.run_step(st, fc, f"{label} step {k}", f"{label} step {k}")

    # -- [Delay X] (PD2-PD4) -------------------------------------------------

    def resolve_delay(self, d: Delay) -> None:
        """A [Delay X] resolves (PD4): exactly its action, with moves."""
        d.outcome = "resolved"
        entry = self.delayed.get(d.id)
        steps = list(entry["steps"]) if entry and "steps" in entry else [dict(d.step)]
        acts = [s for s in steps if "move" not in s]
        where = f"D:{d.id}"
        if len(acts) != 1 or acts[0].get("act") != d.action or delay_keys(acts[0]):
            k = next((k for k, s in enumerate(steps, 1) if "move" not in s and (
                s.get("act") != d.action or delay_keys(s))), len(steps))
            refuse("delayed_mismatch", f"{d.id} resolves {d.action} once",
                   place=f"{where} step {k}")
        sc = Ctx("delay", d.actor, where)
        self.trace.note("PD4", f"{d.id}: {d.actor} takes {d.action}")
        for k, st in enumerate(steps, 1):
            if "act" in st and d.action == "rush":
                for key in RUSH_KEYS:
                    declared = d.step.get(key, rush_default(key, self.opts))
                    if key in st and st[key] != declared:
                        refuse("delayed_mismatch", f"{key} differs from the declaration",
                               place=f"{where} step {k}")
                st = {**st, **{k2: d.step[k2] for k2 in RUSH_KEYS if k2 in d.step}}
            self.run_step(st, sc, f"{where} step {k}", f"{where} step {k}")
            if "act" in st:
                d.entry = len(self.log)
