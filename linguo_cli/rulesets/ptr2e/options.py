"""PTR 2e's named options (RULINGS "Options"), as a core
:class:`~linguo_cli.core.options.OptionTable`, and the options in effect
for a request.

Every option of the rulings' table is here, with its default first and its
alternatives; ``preset: later`` sets every option the table marks *later*
(an option set explicitly wins over the preset, core precedence). An
unknown option or value is ``bad_option`` naming PV4. Two
combinations the rules cannot run are refused (``bad_option``, PV4):
``priority_effect: advance`` without ``scheduler: av`` (PP6) and
``priority_in_own_activation: skip`` with ``priority_effect: advance``
(PA6); the refusal stands at the option that needs the other, or at
``preset`` when the preset set it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core.options import Option, OptionError, OptionTable, OptionValue

#: The Challenge Ratings of PS1, easiest first (``combat_cr`` takes any).
CHALLENGE_RATINGS: dict[str, int] = {
    "effortless": 60, "trivial": 50, "easy": 40, "simple": 30, "routine": 20,
    "ordinary": 10, "demanding": 0, "taxing": -10, "challenging": -20,
    "difficult": -30, "intense": -40, "insane": -50, "impossible": -60,
}

#: What ``preset: later`` sets (the rows marked *later* in the rulings).
LATER: dict[str, OptionValue] = {
    "priority_max": 5, "priority_effect": "advance", "interrupt_effect": "cost",
    "interrupt_tiebreak": "base_av", "delayable": "complex",
    "rush_skill_table": "later", "rush_yield": "per_two_dos", "scheduler": "av",
    "av_tiebreak": "speed",
}


class PtrOptionTable(OptionTable):
    """The core option table whose refusals name PV4, the rule of
    ``bad_option`` for an unknown option or value (RULINGS, Refusal codes)."""

    def check(self, given: Any, place: str, base: str = "options") -> dict[str, OptionValue]:
        """:meth:`OptionTable.check`, its :class:`OptionError` naming rule PV4."""
        try:
            return OptionTable.check(self, given, place, base)
        except OptionError as exc:
            exc.rule = "PV4"
            raise


def _opt(name: str, default: OptionValue, alternatives: tuple[OptionValue, ...], rule: str,
         text: str) -> Option:
    return Option(name, default, alternatives, rule=rule, help=text)


#: Every option of the rulings (refusal code ``bad_option``).
OPTIONS = PtrOptionTable.of([
    _opt("free_order", "initiative", ("script",), "PA4", "order of free entries on one step"),
    _opt("priority_in_own_activation", "ordinary", ("skip",), "PA6",
         "a [Priority X] action in one's own Activation"),
    _opt("priority_max", 7, (5,), "PP1", "highest Priority/Interrupt level"),
    _opt("priority_windows", "between", ("after_step",), "PP1", "where Priority is declared"),
    _opt("speed_order", "faster_first", ("slower_first",), "PP4", "Speed tie-break direction"),
    _opt("batch_order", "merged", ("interrupts_first",), "PP4", "Interrupts in a batch"),
    _opt("skips", "single", ("stack",), "PP5", "one owed skip at a time"),
    _opt("priority_effect", "skip", ("advance",), "PP6", "what Priority costs"),
    _opt("interrupt_in_own_activation", "forbidden", ("allowed",), "PI4",
         "Interrupts during one's own Activation"),
    _opt("interrupt_effect", "skip", ("cost",), "PI5", "what an Interrupt costs"),
    _opt("interrupt_tiebreak", "speed", ("base_av",), "PI5", "equal Interrupt levels"),
    _opt("delay_in_priority", "allowed", ("forbidden",), "PD1", "Delays in a Priority Activation"),
    _opt("delay_cost", "declaring", ("none",), "PD1", "where a delayed action's cost counts"),
    _opt("delay_interrupt_actions", "forbidden", ("allowed",), "PD1",
         "delaying an [Interrupt X] action"),
    _opt("delay_timing", "at_count", ("chosen",), "PD2", "when a [Delay X] resolves"),
    _opt("delay_counts", "activations", ("with_interrupts", "scheduled_only"), "PD2",
         "what counts for [Delay X]"),
    _opt("delay_count_start", "after_declaring", ("with_declaring",), "PD2",
         "whether the declaring Activation counts"),
    _opt("trigger_delay_skip", "on_declare", ("on_fire",), "PD5",
         "when a trigger delay's skip is owed"),
    _opt("trigger_delay_expiry", "next_activation", ("round_end",), "PD6",
         "when an unfired trigger delay fails"),
    _opt("delayable", "simple_or_complex", ("complex",), "PD7", "what may be delayed"),
    _opt("move_with_actions", "yes", ("no",), "PM2", "moving with an action outside one's turn"),
    _opt("movement_model", "pool", ("cascade", "per_metre"), "PM4", "the movement ledger"),
    _opt("rush_skill_table", "seed", ("later",), "PR1", "the skill linked to a movement type"),
    _opt("rush_yield", "per_dos", ("per_two_dos",), "PR2", "what a Rush pays"),
    _opt("rush_limit", "none", ("once_per_type",), "PR4", "several Rushes on one type"),
    _opt("dos", "plus_one", ("full_intervals",), "PS3", "how degrees of success count"),
    _opt("combat_cr", "challenging", tuple(c for c in CHALLENGE_RATINGS if c != "challenging"),
         "PS4", "the CR of tests in combat"),
    _opt("scheduler", "stream", ("av",), "PV1", "where the activation order comes from"),
    _opt("round_av", 150, (100,), "PV7", "the Round marker's AV"),
    _opt("av_tiebreak", "base_av", ("speed",), "PV7", "AV ties between creatures"),
    Option("preset", "seed", ("later",), rule="PV4", help="later: every option marked later",
           sets={"later": LATER}),
], bad_option_code="bad_option")

#: (option, value it needs checked, the option it needs, the values allowed, rule)
_NEEDS: tuple[tuple[str, OptionValue, str, tuple[OptionValue, ...], str], ...] = (
    ("priority_effect", "advance", "scheduler", ("av",), "PP6"),
    ("priority_in_own_activation", "skip", "priority_effect", ("skip",), "PA6"),
)


class OptionCombinationError(OptionError):
    """Options each valid alone that the rules cannot run together (PP6,
    PA6): exit 3, code ``bad_option``. A round reports it together with its
    other input errors (PV4, PG-50)."""


def effective(request: Mapping[str, Any]) -> dict[str, OptionValue]:
    """Every option's value in effect for ``request``: its ``options``
    (command-line ``--option`` values already merged in) over the preset
    over the defaults. Raises :class:`OptionError` (exit 3, code
    ``bad_option``) at ``options.NAME`` for an unknown name or value, and
    at ``options.NAME`` (or ``options.preset``) for a combination the rules
    cannot run (PP6, PA6)."""
    given = OPTIONS.check(request.get("options"), "request")
    values = OPTIONS.effective(given)
    for name, value, needed, allowed, rule in _NEEDS:
        if values[name] == value and values[needed] not in allowed:
            at = name if name in given or "preset" not in given else "preset"
            raise OptionCombinationError("request", f"options.{at}",
                                         f"bad_option: {name}: {value} needs {needed}: "
                                         f"{' or '.join(map(str, allowed))}",
                                         code="bad_option", rule=rule)
    return values


def non_default(values: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """The options of ``values`` that are not at their default (table order)."""
    return OPTIONS.non_default(values)
