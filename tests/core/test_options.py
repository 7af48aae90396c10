"""Named options (core/options.py): precedence, JSON types, presets, errors."""

from __future__ import annotations

import pytest

from linguo_cli.core.error_object import error_object
from linguo_cli.core.errors import UsageError
from linguo_cli.core.options import Option, OptionError, OptionTable

TABLE = OptionTable.of([
    Option("hit_rule", "meet", ("exceed",), rule="X1"),
    Option("wake_hp", 1, integer=True, minimum=0, maximum=100, rule="X2"),
    Option("crits", True, (False,), rule="X3"),
    Option("preset", "seed", ("later",), rule="X4",
           sets={"later": {"hit_rule": "exceed", "crits": False}}),
], bad_option_code="bad_option")


def test_defaults_when_nothing_is_set() -> None:
    assert TABLE.effective() == {"hit_rule": "meet", "wake_hp": 1, "crits": True,
                                 "preset": "seed"}


def test_precedence_command_line_over_request_over_state() -> None:
    state = TABLE.check({"hit_rule": "exceed", "wake_hp": 5}, "state")
    request = TABLE.check({"wake_hp": 7}, "request")
    cli = TABLE.from_command_line(["hit_rule=meet"])
    values = TABLE.effective(state, request, cli)
    assert values["hit_rule"] == "meet"   # command line over the state's exceed
    assert values["wake_hp"] == 7         # request over state
    assert TABLE.effective(state, request)["hit_rule"] == "exceed"  # state over default


def test_a_preset_sets_others_below_every_explicit_setting() -> None:
    values = TABLE.effective(TABLE.check({"preset": "later"}, "state"),
                             TABLE.check({"crits": True}, "request"))
    assert values["hit_rule"] == "exceed"  # from the preset
    assert values["crits"] is True        # explicit, even from a lower level than... the request
    low = TABLE.effective(TABLE.check({"crits": True}, "state"),
                          TABLE.check({"preset": "later"}, "request"))
    assert low["crits"] is True  # an explicit state setting beats a request's preset


def test_json_types_are_strict() -> None:
    for bad in ({"crits": 1}, {"crits": "true"}, {"wake_hp": True}, {"wake_hp": "3"},
                {"wake_hp": 101}, {"wake_hp": -1}, {"hit_rule": "Meet"}):
        with pytest.raises(OptionError):
            TABLE.check(bad, "request")
    assert TABLE.check({"wake_hp": 0, "crits": False}, "r") == {"wake_hp": 0, "crits": False}


def test_an_error_names_the_field_the_code_and_the_rule() -> None:
    with pytest.raises(OptionError) as bad_value:
        TABLE.check({"wake_hp": 200}, "state.yaml", base="state.options")
    obj = error_object(bad_value.value)
    assert (obj["exit"], obj["code"], obj["rule"]) == (3, "bad_option", "X2")
    assert bad_value.value.diagnostics[0].field == "state.options.wake_hp"
    with pytest.raises(OptionError) as unknown:
        TABLE.check({"nope": 1}, "request")
    assert error_object(unknown.value)["rule"] is None
    assert "known: crits, hit_rule, preset, wake_hp" in unknown.value.message


def test_command_line_values_are_read_by_the_option_type() -> None:
    assert TABLE.from_command_line(["crits=false", "wake_hp=12", "hit_rule=exceed"]) == {
        "crits": False, "wake_hp": 12, "hit_rule": "exceed"}
    assert TABLE.from_command_line(["wake_hp=1", "wake_hp=2"]) == {"wake_hp": 2}  # last wins
    with pytest.raises(UsageError):
        TABLE.from_command_line(["crits"])
    with pytest.raises(OptionError) as exc:
        TABLE.from_command_line(["wake_hp=lots"])
    assert exc.value.diagnostics[0].place == "--option"
    assert exc.value.diagnostics[0].field == "wake_hp"


def test_non_default_lists_only_changed_options_in_table_order() -> None:
    values = TABLE.effective(TABLE.check({"wake_hp": 3, "hit_rule": "meet"}, "r"))
    assert TABLE.non_default(values) == {"wake_hp": 3}


def test_integer_bounds_are_inclusive_at_both_edges() -> None:
    # wake_hp allows [0, 100]: both edges are values, one past either is not.
    assert TABLE.check({"wake_hp": 100}, "r") == {"wake_hp": 100}
    assert TABLE.check({"wake_hp": 0}, "r") == {"wake_hp": 0}
    for past in (101, -1):
        with pytest.raises(OptionError):
            TABLE.check({"wake_hp": past}, "r")


def test_an_unbounded_integer_option_reads_up_to_18_digits() -> None:
    free = OptionTable.of([Option("big", 0, integer=True)])
    assert free.check({"big": -(10**30)}, "r") == {"big": -(10**30)}  # no bound either side
    eighteen = "9" * 18
    assert free.from_command_line([f"big= {eighteen} "]) == {"big": int(eighteen)}
    assert free.from_command_line(["big=-7"]) == {"big": -7}
    with pytest.raises(OptionError) as nineteen:  # 19 digits stay text: not an integer
        free.from_command_line(["big=" + "9" * 19])
    assert nineteen.value.diagnostics[0].message.startswith('"' + "9" * 19 + '" is not a')


def test_the_message_names_the_value_as_json_and_the_allowed_values() -> None:
    with pytest.raises(OptionError) as word:
        TABLE.check({"hit_rule": "mêlée"}, "r")  # non-ASCII text kept as it is
    assert '"mêlée" is not a value of hit_rule: meet | exceed' in word.value.message
    with pytest.raises(OptionError) as flag:
        TABLE.check({"crits": "yes"}, "r")  # booleans written as JSON: true | false
    assert '"yes" is not a value of crits: true | false' in flag.value.message
    with pytest.raises(OptionError) as number:
        TABLE.check({"wake_hp": 200}, "r")
    assert "200 is not a value of wake_hp: an integer" in number.value.message


def test_options_that_are_not_a_mapping_are_placed_at_the_options_field() -> None:
    for base, field in (("options", "options"), ("state.options", "state.options"),
                        ("", "options")):
        with pytest.raises(OptionError) as exc:
            TABLE.check(["crits"], "r", base=base)
        assert exc.value.diagnostics[0].field == field
        assert error_object(exc.value)["code"] == "bad_option"
    assert TABLE.check(None, "r") == {}


def test_no_command_line_options_and_malformed_items() -> None:
    assert TABLE.from_command_line(None) == {}
    assert TABLE.from_command_line([]) == {}
    for item in ("=3", " =3", "crits"):
        with pytest.raises(UsageError):
            TABLE.from_command_line([item])


def test_the_values_of_an_option_default_first_none_for_an_integer() -> None:
    assert TABLE.options["hit_rule"].values == ("meet", "exceed")
    assert TABLE.options["crits"].values == (True, False)
    assert TABLE.options["wake_hp"].values == ()
