"""The condition catalog (C2) and condition durations (C1)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.core.errors import InputError
from linguo_cli.io.read import parse
from linguo_cli.rulesets.linguomancy import conditions
from linguo_cli.rulesets.linguomancy.model import Condition, Entity


def entity(*conds: Condition, exhaustion: int = 0) -> Entity:
    return Entity(id="e", kind="player", hp=10, max_hp=10, conditions=tuple(conds),
                  exhaustion=exhaustion)


# ---------------------------------------------------------------------------
# The default catalog


def test_default_catalog_lists_the_rulebook_conditions() -> None:
    names = [c.name for c in conditions.default_catalog().conditions]
    assert names == ["Prone", "Unconscious", "Stunned", "Dying", "Stable", "Drained",
                     "Lethargic", "Exhaustion"]


@pytest.mark.parametrize("name", ["Unconscious", "Stunned"])
def test_unconscious_and_stunned_stop_actions_movement_reactions(name: str) -> None:
    eff = conditions.default_catalog().effects_for(entity(Condition(name, "x", 1)))
    assert (eff.no_actions, eff.no_movement, eff.no_reactions) == (True, True, True)
    assert eff.conditions == (name,)


def test_prone_is_crawl_only_and_nothing_else() -> None:
    eff = conditions.default_catalog().effects_for(entity(Condition("Prone")))
    assert eff.crawl_only and not eff.no_actions and not eff.no_movement


@pytest.mark.parametrize("name", ["Drained", "Lethargic"])
def test_drained_and_lethargic_have_no_enforced_effect(name: str) -> None:
    cat = conditions.default_catalog()
    assert not cat.enforced(name)
    eff = cat.effects_for(entity(Condition(name, "overclocking", 1)))
    assert eff.empty and eff.unenforced == (name,)
    note = cat.note(name)
    assert note is not None and "no enforced effect" in note and name in note


@pytest.mark.parametrize("name", ["Dying", "Stable", "Prone", "Exhaustion", "Stunned"])
def test_enforced_conditions_need_no_note(name: str) -> None:
    assert conditions.default_catalog().note(name) is None


def test_condition_missing_from_catalog_is_reported_unknown() -> None:
    cat = conditions.default_catalog()
    eff = cat.effects_for(entity(Condition("Blinded")))
    assert eff.unknown == ("Blinded",) and eff.empty
    note = cat.note("Blinded")
    assert note is not None and "not in the condition catalog" in note


# ---------------------------------------------------------------------------
# A table's own catalog


def table_catalog() -> conditions.Catalog:
    return conditions.load_catalog({"conditions": [
        {"name": "Drained", "effects": {"ap_change": -1, "flux_regen_change": -1}},
        {"name": "Lethargic", "effects": {"movement_factor": "1/2",
                                          "disadvantage": ["attack", "check"]}},
        {"name": "Slowed", "effects": {"movement_factor": "2/3", "ap_change": -1}},
        {"name": "Exhaustion", "rules": ["F5"], "effects": {"disadvantage": ["check"]}},
        {"name": "Blessed", "effects": {"advantage": ["save"]}},
    ]}, name="table")


def test_user_catalog_gives_drained_an_effect() -> None:
    drained = entity(Condition("Drained", "overclocking", 1))
    default = conditions.default_catalog().effects_for(drained)
    assert (default.ap_change, default.flux_regen_change) == (0, 0)
    mine = table_catalog().effects_for(drained)
    assert (mine.ap_change, mine.flux_regen_change) == (-1, -1)
    assert mine.conditions == ("Drained",) and mine.unenforced == ()
    assert table_catalog().note("Drained") is None


def test_effects_combine_sum_product_union() -> None:
    e = entity(Condition("Drained", "a", 1), Condition("Lethargic", "a", 1),
               Condition("Slowed", "b"), Condition("Blessed"))
    eff = table_catalog().effects_for(e)
    assert eff.ap_change == -2
    assert eff.flux_regen_change == -1
    assert eff.movement_factor == Fraction(1, 3)
    assert eff.disadvantage == {"attack", "check"}
    assert eff.advantage == {"save"}
    assert eff.as_dict()["movement_factor"] == "1/3"


def test_same_condition_from_two_sources_counts_once() -> None:
    e = entity(Condition("Drained", "a", 1), Condition("Drained", "b", 2))
    assert table_catalog().effects_for(e).ap_change == -1


def test_exhaustion_effects_apply_while_tiers_are_held() -> None:
    cat = table_catalog()
    assert cat.effects_for(entity(exhaustion=0)).disadvantage == frozenset()
    assert cat.effects_for(entity(exhaustion=2)).disadvantage == {"check"}


def test_lookup_ignores_case() -> None:
    assert conditions.default_catalog().get("stunned") is not None


@pytest.mark.parametrize(
    "bad",
    [
        {"conditions": [{"name": "Drained", "effects": {"fly_speed": 3}}]},
        {"conditions": [{"name": "Drained", "effects": {"advantage": ["damage"]}}]},
        {"conditions": [{"name": "Drained", "effects": {"movement_factor": 0.5}}]},
        {"conditions": [{"name": "drained"}]},
        {"conditions": [{"name": "Drained"}, {"name": "DRAINED"}]},
        {"conds": []},
    ],
)
def test_invalid_catalogs_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(InputError):
        conditions.load_catalog(bad)


def test_catalog_file_errors_name_the_line() -> None:
    text = "conditions:\n  - name: Drained\n    effects:\n      sleepy: true\n"
    doc = parse(text, "table.yaml")
    with pytest.raises(InputError) as err:
        conditions.load_catalog(doc.data, name="table.yaml", document=doc)
    line = err.value.lines()[0]
    assert line.startswith("table.yaml:4:") and "sleepy" in line


def test_inline_entries_and_round_trip() -> None:
    cat = table_catalog()
    again = conditions.catalog_from_request(cat.as_list())
    assert again.conditions == cat.conditions
    assert conditions.catalog_from_request(None) is conditions.default_catalog()


def test_inline_entry_errors_point_into_the_request() -> None:
    with pytest.raises(InputError) as err:
        conditions.catalog_from_request([{"name": "Drained"}, {"name": "Odd", "effects": {"x": 1}}])
    assert "conditions[1].effects" in err.value.lines()[0]


# ---------------------------------------------------------------------------
# Gaining and durations (C1)


def test_gain_same_source_keeps_the_longer() -> None:
    e = conditions.gain(entity(), "Stunned", "overclocking", 1)
    e = conditions.gain(e, "Stunned", "overclocking", 3)
    assert e.conditions == (Condition("Stunned", "overclocking", 3),)
    e = conditions.gain(e, "Stunned", "overclocking", 2)
    assert e.conditions == (Condition("Stunned", "overclocking", 3),)
    e = conditions.gain(e, "Stunned", "overclocking", None)
    assert e.conditions == (Condition("Stunned", "overclocking", None),)


def test_gain_other_source_is_held_separately() -> None:
    e = conditions.gain(entity(), "Drained", "a", 1)
    e = conditions.gain(e, "Drained", "b", 2)
    assert [c.source for c in e.conditions] == ["a", "b"]


def test_gain_refuses_zero_turns() -> None:
    with pytest.raises(ValueError):
        conditions.gain(entity(), "Stunned", "x", 0)


def test_remove_by_name_and_source() -> None:
    e = entity(Condition("Drained", "a", 1), Condition("Drained", "b", 1), Condition("Prone"))
    assert [c.source for c in conditions.remove(e, "Drained", "a").conditions] == ["b", ""]
    assert [c.name for c in conditions.remove(e, "Drained").conditions] == ["Prone"]


def test_gained_on_own_turn_lasts_until_end_of_next_turn() -> None:
    # Turn 1 of the holder: it starts with nothing, gains Stunned for 1 turn.
    e = entity()
    started = conditions.identities(e)
    e = conditions.gain(e, "Stunned", "overclocking", 1)
    e, ended = conditions.tick_end_of_turn(e, started)
    assert ended == [] and e.conditions == (Condition("Stunned", "overclocking", 1),)
    # Turn 2: it started with Stunned, which ends at the end of this turn.
    started = conditions.identities(e)
    e, ended = conditions.tick_end_of_turn(e, started)
    assert ended == ["Stunned"] and e.conditions == ()


def test_gained_on_another_turn_ends_at_end_of_holders_next_turn() -> None:
    e = conditions.gain(entity(), "Drained", "x", 1)  # gained during someone else's turn
    started = conditions.identities(e)  # the holder's next turn starts with it
    e, ended = conditions.tick_end_of_turn(e, started)
    assert ended == ["Drained"]


def test_no_duration_never_ends_on_its_own() -> None:
    e = entity(Condition("Unconscious", "overclocking"))
    for _ in range(5):
        e, ended = conditions.tick_end_of_turn(e, conditions.identities(e))
        assert ended == []
    assert e.has("Unconscious")


@settings(max_examples=60, deadline=None)
@given(turns=st.integers(min_value=1, max_value=12), own_turn=st.booleans())
def test_n_turns_end_exactly_at_the_nth_turn_started_after(turns: int, own_turn: bool) -> None:
    e = entity()
    started = conditions.identities(e)
    e = conditions.gain(e, "Stunned", "x", turns)
    if own_turn:  # gained during the holder's own turn: that turn does not count
        e, ended = conditions.tick_end_of_turn(e, started)
        assert ended == []
    for n in range(1, turns + 1):
        assert e.has("Stunned")
        e, ended = conditions.tick_end_of_turn(e, conditions.identities(e))
        assert (ended == ["Stunned"]) == (n == turns)
    assert not e.has("Stunned")
