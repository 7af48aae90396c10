"""Ordering a batch of simultaneous declarations (PP4, PP5, PP1, PI1, PI5, PD5).

A batch holds Priority entries (PP1), Interrupt entries (PI1) and fire
entries of trigger delays (PD5, always level 1). It resolves:

1. higher level first;
2. equal levels: higher Speed first (``speed_order: faster_first``, the
   default) or lower (``slower_first``); two Interrupts (fires included)
   under ``interrupt_tiebreak: base_av`` compare lower Base AV first (PI5)
   instead;
3. then earlier in the current initiative order (PV3): the creature whose
   Activation is in progress, then those with a scheduled Activation still
   to come up, then the rest by the state's ``initiative`` list; two of the
   rest that the list does not both place are ``tie_unresolved`` (exit 4);
4. entries of one and the same creature still tied: in the given order.

``batch_order: interrupts_first`` resolves every Interrupt and fire of the
batch (ordered among themselves) before its Priority entries (PP4). Under
``skips: single`` a batch holds at most one Priority or Interrupt entry per
creature (``duplicate_in_batch``, PP5; fires never count) and a creature
that owes a skip may not declare (``skip_owed``, PP5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cmp_to_key

from linguo_cli.rulesets.ptr2e.refusals import refuse

#: The kinds of batch entries.
TYPES = ("priority", "interrupt", "fire")


@dataclass(frozen=True, slots=True)
class Entry:
    """One batch entry: ``index`` (1-based, given order), ``actor``,
    ``type`` (priority, interrupt, fire), ``level`` (a fire's is 1),
    ``action`` (optional name), the actor's ``speed`` and ``base_av``."""

    index: int
    actor: str
    type: str
    level: int
    action: str | None
    speed: int
    base_av: int | None = None

    @property
    def interrupting(self) -> bool:
        """An Interrupt or a fire (both resolve as Interrupts, PD5)."""
        return self.type != "priority"

    @property
    def label(self) -> str:
        """``entry 2 (a)``: where the entry stands (PV4's grammar)."""
        return f"entry {self.index} ({self.actor})"


def check_entries(entries: Sequence[Entry], options: Mapping[str, object],
                  owed_skips: Mapping[str, int]) -> None:
    """The declarations' own rules: a level from 1 to ``priority_max``
    (``level_out_of_range``, exit 3, PP1/PI1); ``skip_owed`` and
    ``duplicate_in_batch`` under ``skips: single`` (exit 4, PP5)."""
    top = int(str(options["priority_max"]))
    seen: set[str] = set()
    for e in entries:
        if e.type != "fire" and not 1 <= e.level <= top:
            refuse("level_out_of_range", f"level {e.level} is outside 1..{top}",
                   field=f"entries[{e.index - 1}].level",
                   rule="PP1" if e.type == "priority" else "PI1")
    if options["skips"] != "single":
        return
    for e in entries:
        if e.type == "fire":
            continue
        pays_skip = e.type == "priority" or options["interrupt_effect"] == "skip"
        if owed_skips.get(e.actor, 0) > 0 and pays_skip:  # PI5: a cost skips nothing
            refuse("skip_owed", f"{e.actor} already owes a skip", place=e.label)
        if e.actor in seen:
            refuse("duplicate_in_batch", f"{e.actor} already declared in this batch",
                   place=e.label)
        seen.add(e.actor)


def _tie(a: Entry, b: Entry, options: Mapping[str, object]) -> tuple[int, str]:
    """Steps 2 of PP4 (or PI5's Base AV) for two entries of equal level:
    ``(-1|0|1, reason)``."""
    if a.interrupting and b.interrupting and options["interrupt_tiebreak"] == "base_av":
        if a.base_av is None or b.base_av is None:
            who = a.actor if a.base_av is None else b.actor
            refuse("bad_parameter", f"interrupt_tiebreak: base_av needs {who}'s base_av",
                   field="creatures", rule="PI5")
        assert a.base_av is not None and b.base_av is not None
        if a.base_av != b.base_av:
            return (-1 if a.base_av < b.base_av else 1), "lower Base AV (PI5)"
        return 0, ""
    if a.speed != b.speed:
        faster = -1 if a.speed > b.speed else 1
        if options["speed_order"] == "slower_first":
            return -faster, "lower Speed (slower_first)"
        return faster, "higher Speed"
    return 0, ""


def current_order(in_progress: str | None, pending: Sequence[str],
                  initiative: Sequence[str] | None) -> dict[str, tuple[int, ...]]:
    """The current initiative order (PV3) as ranks ``actor -> (group,
    position)``: group 0 the creature whose Activation is in progress, 1 the
    creatures with a scheduled Activation still to come up (``pending``, by
    the index of their next one), 2 the rest in the order of the state's
    ``initiative`` list. A creature in none of them has no rank."""
    ranks: dict[str, tuple[int, ...]] = {}
    if in_progress is not None:
        ranks[in_progress] = (0, 0)
    for i, c in enumerate(pending):
        ranks.setdefault(c, (1, i))
    for i, c in enumerate(initiative or ()):
        ranks.setdefault(c, (2, i))
    return ranks


def earlier(ra: tuple[int, ...], rb: tuple[int, ...]) -> bool | None:
    """Whether rank ``ra`` comes before rank ``rb`` in the current
    initiative order (PV3); ``None`` when they cannot be ordered: the same
    ``(group, position)`` without an ``initiative`` place on both (a tie of
    the AV timeline, :func:`.av.ranks`, PV7)."""
    if ra[:2] != rb[:2]:
        return ra[:2] < rb[:2]
    if len(ra) > 2 and len(rb) > 2 and ra != rb:
        return ra < rb
    return None


def order(entries: Sequence[Entry], options: Mapping[str, object],
          ranks: Mapping[str, tuple[int, ...]]) -> tuple[list[Entry], list[str]]:
    """The batch in resolution order (PP4) and, per adjacent pair, what
    decided it. ``ranks`` is the current initiative order
    (:func:`current_order`). Raises ``tie_unresolved`` (exit 4, PV3) for two
    creatures tied down to that order when it cannot place them."""

    def compare(a: Entry, b: Entry) -> int:
        return _compare(a, b, options, ranks)[0]

    groups: list[list[Entry]] = [list(entries)]
    if options["batch_order"] == "interrupts_first":
        groups = [[e for e in entries if e.interrupting],
                  [e for e in entries if not e.interrupting]]
    out = [e for g in groups for e in sorted(g, key=cmp_to_key(compare))]
    reasons = [_compare(a, b, options, ranks)[1] for a, b in zip(out, out[1:], strict=False)]
    if options["batch_order"] == "interrupts_first":
        cut = sum(1 for e in entries if e.interrupting)
        if 0 < cut < len(out):
            reasons[cut - 1] = "Interrupts first (interrupts_first)"
    return out, reasons


def _compare(a: Entry, b: Entry, options: Mapping[str, object],
             ranks: Mapping[str, tuple[int, ...]]) -> tuple[int, str]:
    if a.level != b.level:
        return (-1 if a.level > b.level else 1), "higher level"
    if a.actor == b.actor:
        return (-1 if a.index < b.index else 1), "same creature: given order"
    sign, why = _tie(a, b, options)
    if sign:
        return sign, why
    ra, rb = ranks.get(a.actor), ranks.get(b.actor)
    placed = [r for r in (ra, rb) if r is not None]
    if len(placed) == 1 and placed[0][0] < 2:  # a creature still to act before the rest
        return (-1 if ra is not None else 1), "earlier in initiative order"
    first = None if ra is None or rb is None else earlier(ra, rb)
    if first is None:
        pairs = ((a.actor, ra), (b.actor, rb))
        missing = [c for c, r in pairs if r is None] or [c for c, r in pairs if len(r or ()) == 2]
        refuse("tie_unresolved", f"{a.actor} and {b.actor} tie and the initiative order "
               f"cannot place {', '.join(missing)}", place="batch")
    return (-1 if first else 1), "earlier in initiative order"
