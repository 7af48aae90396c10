"""PTR 2e's named options (RULINGS "Options"): the table, the preset, the
combinations the rules cannot run (PV4, PP6, PA6)."""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.options import OptionError
from linguo_cli.rulesets.ptr2e.options import LATER, OPTIONS, effective

#: The rulings' table: option -> (default, alternatives).
TABLE: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "free_order": ("initiative", ("script",)),
    "priority_in_own_activation": ("ordinary", ("skip",)),
    "priority_max": (7, (5,)), "priority_windows": ("between", ("after_step",)),
    "speed_order": ("faster_first", ("slower_first",)),
    "batch_order": ("merged", ("interrupts_first",)), "skips": ("single", ("stack",)),
    "priority_effect": ("skip", ("advance",)),
    "interrupt_in_own_activation": ("forbidden", ("allowed",)),
    "interrupt_effect": ("skip", ("cost",)), "interrupt_tiebreak": ("speed", ("base_av",)),
    "delay_in_priority": ("allowed", ("forbidden",)), "delay_cost": ("declaring", ("none",)),
    "delay_interrupt_actions": ("forbidden", ("allowed",)),
    "delay_timing": ("at_count", ("chosen",)),
    "delay_counts": ("activations", ("with_interrupts", "scheduled_only")),
    "delay_count_start": ("after_declaring", ("with_declaring",)),
    "trigger_delay_skip": ("on_declare", ("on_fire",)),
    "trigger_delay_expiry": ("next_activation", ("round_end",)),
    "delayable": ("simple_or_complex", ("complex",)), "move_with_actions": ("yes", ("no",)),
    "movement_model": ("pool", ("cascade", "per_metre")),
    "rush_skill_table": ("seed", ("later",)), "rush_yield": ("per_dos", ("per_two_dos",)),
    "rush_limit": ("none", ("once_per_type",)), "dos": ("plus_one", ("full_intervals",)),
    "scheduler": ("stream", ("av",)), "round_av": (150, (100,)),
    "av_tiebreak": ("base_av", ("speed",)), "preset": ("seed", ("later",)),
}


def test_every_option_of_the_rulings_with_its_values() -> None:
    assert set(OPTIONS.options) == set(TABLE) | {"combat_cr"}
    for name, (default, alternatives) in TABLE.items():
        option = OPTIONS.options[name]
        assert (option.default, set(option.alternatives)) == (default, set(alternatives)), name
    assert OPTIONS.options["combat_cr"].default == "challenging"
    assert len(OPTIONS.options["combat_cr"].values) == 13
    assert OPTIONS.bad_option_code == "bad_option"


def test_preset_later_sets_the_later_rows_and_an_explicit_value_wins() -> None:
    values = effective({"options": {"preset": "later"}})
    assert all(values[k] == v for k, v in LATER.items())
    assert values["round_av"] == 150 and values["movement_model"] == "pool"
    assert effective({"options": {"preset": "later", "rush_yield": "per_dos"}})[
        "rush_yield"] == "per_dos"


@pytest.mark.parametrize(("options", "field", "rule"), [
    ({"priority_effect": "advance"}, "options.priority_effect", "PP6"),
    ({"preset": "later", "scheduler": "stream"}, "options.preset", "PP6"),
    ({"priority_in_own_activation": "skip", "priority_effect": "advance", "scheduler": "av"},
     "options.priority_in_own_activation", "PA6"),
    ({"no_such": 1}, "options.no_such", "PV4"),
    ({"round_av": 120}, "options.round_av", "PV4"),
])
def test_bad_options(options: dict[str, Any], field: str, rule: str | None) -> None:
    with pytest.raises(OptionError) as info:
        effective({"options": options})
    assert info.value.code == 3 and info.value.refusal == "bad_option"
    assert info.value.diagnostics[0].field == field and info.value.rule == rule
