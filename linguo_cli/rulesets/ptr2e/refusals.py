"""PTR 2e refusals: every refusal code of the rulings with its rule, and the
two errors that carry them (RULINGS "Refusal codes", PV4).

A refusal is reported through the core error object
(:mod:`linguo_cli.core.error_object`): ``code`` the refusal code below,
``rule`` its rule ID. Exit codes:

* exit 3 (invalid input, :class:`BadInput`): the codes of PV4's input
  checks, found before any rule is applied: unknown creature, action or
  movement type, Delay ids, indices, levels, distances, keys and values,
  options (:data:`INPUT_CODES`);
* exit 4 (a rules refusal, :class:`Refusal`): every other code.
"""

from __future__ import annotations

from linguo_cli.core.errors import Diagnostic, InputError, RulesError

#: refusal code -> the rule ID a refusal names first (RULINGS, Refusal codes).
CODES: dict[str, str] = {
    "unknown_combatant": "PV1", "unknown_action": "PA1", "unknown_id": "PV1",
    "bad_index": "PV1", "bad_option": "PV4", "bad_parameter": "PV1",
    "budget_mixed": "PA2", "budget_simple": "PA2", "budget_complex": "PA2",
    "not_free": "PA3", "pp_insufficient": "PA5", "interrupt_only": "PA6",
    "level_out_of_range": "PP1", "priority_no_trait": "PP1",
    "priority_action_missing": "PP2", "priority_out_of_turn": "PP6",
    "steps_for_skipped": "PP3", "skip_owed": "PP5", "duplicate_in_batch": "PP5",
    "tie_unresolved": "PV3", "movement_in_interrupt": "PI3",
    "movement_out_of_turn": "PM2", "unknown_movement_type": "PM1",
    "bad_distance": "PM1", "move_exceeds_allowance": "PM4", "rush_no_skill": "PR1",
    "skill_missing": "PR1", "rush_repeated": "PR4", "delay_not_own_activation": "PD1",
    "not_delayable": "PD1", "delayed_mismatch": "PD4", "delay_not_pending": "PD5",
    "delay_not_due": "PD2", "interrupt_no_trait": "PI1", "trigger_not_found": "PI1",
    "interrupt_extra_step": "PI3", "own_activation": "PI4",
    "next_activation_overdrawn": "PI5", "priority_outside_window": "PP1",
}

#: The codes of PV4's input checks: exit 3.
INPUT_CODES = frozenset({
    "unknown_combatant", "unknown_action", "unknown_id", "bad_index", "bad_option",
    "bad_parameter", "bad_distance", "level_out_of_range", "unknown_movement_type",
})


class Refusal(RulesError):
    """A rules refusal (exit 4): ``refusal`` the code, ``rule`` its rule ID
    (the code's own unless given), ``place`` where it stands (``step 2``,
    ``entry 2 (a)``), ``details`` the numbers involved."""

    def __init__(self, code: str, message: str, *, place: str = "", rule: str | None = None,
                 details: dict[str, object] | None = None) -> None:
        self.refusal = code
        self.place = place
        where = f"{place}: " if place else ""
        super().__init__(rule or CODES[code], f"{where}{code}: {message}", details)


class BadInput(InputError):
    """Invalid input (exit 3) with a PTR refusal code and its rule:
    ``field`` the request field (``steps[1].m``) it stands at."""

    def __init__(self, code: str, field: str, message: str, *, rule: str | None = None) -> None:
        super().__init__(Diagnostic("request", field, f"{code}: {message}"))
        self.refusal = code
        self.rule = rule or CODES[code]


def refuse(code: str, message: str, *, place: str = "", field: str = "",
           rule: str | None = None, details: dict[str, object] | None = None) -> None:
    """Raise the error of ``code``: :class:`BadInput` (at ``field``) for an
    input-check code, else :class:`Refusal` (at ``place``)."""
    if code in INPUT_CODES:
        raise BadInput(code, field, message, rule=rule)
    raise Refusal(code, message, place=place, rule=rule, details=details)
