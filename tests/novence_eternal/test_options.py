"""The Options table as data, and its validation (Options section, NV6)."""

from __future__ import annotations

import pytest

from linguo_cli.core.error_object import error_object
from linguo_cli.core.errors import InputError
from linguo_cli.rulesets.novence_eternal.options import (
    OPTION_ROWS,
    OPTION_TABLE,
    check_options,
    resolve_options,
)


def test_the_table_has_every_row_of_the_spec() -> None:
    assert len(OPTION_ROWS) == 86
    names = [r.name for r in OPTION_ROWS]
    assert len(set(names)) == 86
    row = {r.name: r for r in OPTION_ROWS}
    assert (row["piercing_aim"].default, row["piercing_aim"].alternatives) == (
        "penetrate", ("penetrate_no_wear", "full_ap"))
    assert (row["charges_end_on_ko"].type, row["charges_end_on_ko"].rules) == (
        "bool", ("NR3", "NK1"))
    assert (row["injury_penalty_vii_viii"].type, row["injury_penalty_vii_viii"].values) == (
        "int", (-8, 0))
    ints = {r.name for r in OPTION_ROWS if r.type == "int"}
    assert ints == {"aim_min_thr_base", "wake_hp", "cover_class_divisor",
                    "overpen_dc_divisor", "injury_penalty_vii_viii"}


@pytest.mark.parametrize(("given", "field", "rule"), [
    ({"hit_rule": "equal"}, "options.hit_rule", "NH2"),
    ({"no_such_option": "x"}, "options.no_such_option", None),
    ({"aim_min_thr_base": "0"}, "options.aim_min_thr_base", "NM5"),
    ({"crit_auto_lands": 0}, "options.crit_auto_lands", "NX4"),
    ({"cover_class_divisor": 7}, "options.cover_class_divisor", "NC2"),
    ({"charges_end_on_ko": "false"}, "options.charges_end_on_ko", "NR3"),
])
def test_bad_option(given: dict[str, object], field: str, rule: str | None) -> None:
    with pytest.raises(InputError) as exc:
        check_options(given)
    assert exc.value.diagnostics[0].field == field
    err = error_object(exc.value)
    assert (err["exit"], err["code"], err["rule"]) == (3, "bad_option", rule)


def test_values_and_precedence() -> None:
    opts = resolve_options({"hit_rule": "meet", "cover_class_divisor": 5},
                           {"hit_rule": "exceed"})
    assert opts.text("hit_rule") == "exceed"
    assert opts.number("cover_class_divisor") == 5
    assert opts.non_default() == {"cover_class_divisor": 5}
    assert opts.flag("crit_auto_lands") is True


def test_command_line_values_are_typed() -> None:
    got = OPTION_TABLE.from_command_line(["cover_class_divisor=5", "crit_auto_lands=false",
                                          "netting=separate"])
    assert got == {"cover_class_divisor": 5, "crit_auto_lands": False, "netting": "separate"}
