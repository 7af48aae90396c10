"""The damage-modifier pool (ND1-ND8): the chapter's long example step by
step and every ND case of WORKED_EXAMPLES.md, with its hand values."""

from __future__ import annotations

from fractions import Fraction

import pytest

from linguo_cli.rulesets.novence_eternal.exact import exact_text
from linguo_cli.rulesets.novence_eternal.modifiers import (
    ModEntry,
    expand_categories,
    multiplier_of,
    resolve_modifiers,
    select,
)
from linguo_cli.rulesets.novence_eternal.options import resolve_options

E = ModEntry
PHYS = {"PHYS": ("slashing", "piercing", "bludgeoning")}


def _selected(entries: list[ModEntry]) -> dict[tuple[str, str | None], int]:
    return {(s.kind, s.type): s.value for s in select(entries)}


def test_ne50_the_chapters_long_example_step_by_step() -> None:
    entries = [E("ATK", 20), E("ATK", 50), E("AFF", 10, "psychic"), E("AFF", 30, "psychic"),
               E("AFF", 20, "slashing"), E("DEF", 10), E("DEF", 60), E("RES", 5, "psychic"),
               E("RES", 70, "psychic")]
    # selected: ATK 50, AFF psychic 30, AFF slashing 20, DEF 60, RES psychic 70
    assert _selected(entries) == {("ATK", None): 50, ("AFF", "psychic"): 30,
                                  ("AFF", "slashing"): 20, ("DEF", None): 60,
                                  ("RES", "psychic"): 70}
    result = resolve_modifiers({"psychic": 25, "slashing": 25}, entries)
    pool = result.normal
    # netted: DEF +10, psychic +40, slashing -20; mean +10
    assert {t: str(v) for t, v in pool.terms.items()} == {"psychic": "40", "slashing": "-20"}
    assert str(pool.mean) == "10"
    # T = 20, so x4/5, and the damage is 40
    assert (str(pool.t), str(pool.multiplier), pool.halvings) == ("20", "4/5", 0)
    assert (str(result.exact), result.damage) == ("40", 40)
    alt = resolve_modifiers({"psychic": 25, "slashing": 25}, entries,
                            options=resolve_options({"netting": "separate"}))
    assert (str(alt.normal.outgoing), str(alt.normal.t)) == ("75", "95")
    assert (str(alt.normal.multiplier), alt.damage) == ("77/160", 24)


def test_ne47_selection() -> None:
    entries = [E("ATK", 20), E("ATK", 50), E("ATK", -10), E("ATK", -30), E("DEF", 10),
               E("DEF", 60), E("RES", 5, "psychic"), E("RES", 70, "psychic")]
    assert _selected(entries) == {("ATK", None): 20, ("DEF", None): 60,
                                  ("RES", "psychic"): 70}


def test_ne48_outgoing_sum() -> None:
    entries = expand_categories([E("ATK", 20), E("AFF", 10, "PHYS")], PHYS)
    result = resolve_modifiers({"slashing": 20}, entries)
    assert (str(result.normal.t), str(result.normal.multiplier), result.damage) == (
        "-30", "13/10", 26)


def test_ne49_defensive_sum_above_50() -> None:
    entries = expand_categories([E("DEF", 80), E("RES", 40, "PHYS")], PHYS)
    result = resolve_modifiers({"slashing": 50}, entries)
    assert (str(result.normal.t), result.normal.halvings) == ("120", 2)
    assert (str(result.normal.multiplier), result.damage) == ("1/5", 10)


@pytest.mark.parametrize(("t", "m"), [(20, "4/5"), (50, "1/2"), (95, "11/40"), (100, "1/4"),
                                      (120, "1/5"), (150, "1/8"), (-30, "13/10")])
def test_nd5_multiplier(t: int, m: str) -> None:
    assert exact_text(multiplier_of(Fraction(t))[0]) == m


def test_ne34_status_damage() -> None:
    # the last inflicter's entries: ATK +30 (left out), AFF poison +10; target DEF +20 (left out)
    entries = [E("ATK", 30), E("AFF", 10, "poison"), E("DEF", 20)]
    result = resolve_modifiers({"poison": 10}, entries, status=True)
    assert (str(result.normal.t), str(result.normal.multiplier), result.damage) == (
        "-10", "11/10", 11)


def test_ne39_di_and_ri() -> None:
    def selected(entries: list[ModEntry]) -> dict[tuple[str, str | None], int]:
        pool = resolve_modifiers({"fire": 10}, entries).normal
        return {(s.kind, s.type): s.value for s in pool.selected}
    assert selected([E("DEF", 40), E("DI", 15)])[("DEF", None)] == 25
    assert selected([E("RES", 30, "fire"), E("RI", 40, "fire")])[("RES", "fire")] == 0
    assert selected([E("DEF", -10), E("DI", 15)])[("DEF", None)] == -10


def test_ng23_total_of_exactly_50() -> None:
    result = resolve_modifiers({"fire": 30}, [E("DEF", 30), E("RES", 20, "fire"),
                                              E("RES", 10, "fire")])
    assert (str(result.normal.t), str(result.normal.multiplier), result.damage) == (
        "50", "1/2", 15)


def test_ng24_total_of_exactly_100() -> None:
    result = resolve_modifiers({"fire": 30}, [E("ATK", 10), E("DEF", 70), E("DEF", 25),
                                              E("RES", 40, "fire")])
    assert (str(result.normal.t), result.normal.halvings) == ("100", 1)
    assert (str(result.normal.multiplier), str(result.exact), result.damage) == (
        "1/4", "15/2", 7)


def test_ng25_negative_total() -> None:
    entries = [E("ATK", 20), E("ATK", 15), E("ATK", -10), E("AFF", 25, "lightning"),
               E("DEF", 10), E("RES", -30, "lightning"), E("RES", -5, "lightning")]
    assert _selected(entries) == {("ATK", None): 10, ("AFF", "lightning"): 25,
                                  ("DEF", None): 10, ("RES", "lightning"): -30}
    result = resolve_modifiers({"lightning": 25}, entries)
    assert (str(result.normal.t), str(result.normal.multiplier)) == ("-55", "31/20")
    assert (str(result.exact), result.damage) == ("155/4", 38)


NG26 = [E("ATK", 30), E("AFF", 20, "fire"), E("AFF", 10, "cold"), E("AFF", -20, "cold"),
        E("DEF", 40), E("DEF", -15), E("RES", 50, "fire"), E("RES", -25, "cold")]


def test_ng26_averaging_over_two_types() -> None:
    result = resolve_modifiers({"fire": 20, "cold": 10}, NG26)
    pool = result.normal
    assert {t: str(v) for t, v in pool.terms.items()} == {"fire": "30", "cold": "-15"}
    assert (str(pool.mean), str(pool.t), str(pool.multiplier)) == ("15/2", "5/2", "39/40")
    assert (str(result.exact), result.damage) == ("117/4", 29)
    weighted = resolve_modifiers({"fire": 20, "cold": 10}, NG26,
                                 options=resolve_options({"multi_type_average": "weighted"}))
    assert (str(weighted.normal.mean), str(weighted.normal.t), weighted.damage) == (
        "15", "10", 27)
    separate = resolve_modifiers({"fire": 20, "cold": 10}, NG26,
                                 options=resolve_options({"netting": "separate"}))
    assert (str(separate.normal.outgoing), str(separate.normal.t)) == ("35", "75/2")
    assert (str(separate.normal.multiplier), str(separate.exact), separate.damage) == (
        "27/32", "405/16", 25)


def test_ng27_crit_damage_affinity() -> None:
    raw = {"fire": 10, "cold": 6}
    base = [E("RES", 30, "fire"), E("RES", -10, "cold")]
    plain = resolve_modifiers(raw, base, crits=1)
    assert (str(plain.normal.mean), str(plain.exact), plain.damage) == ("10", "72/5", 14)
    untyped = resolve_modifiers(raw, [*base, E("CRIT_AFF", 20)], crits=1)
    assert (str(untyped.normal.t), str(untyped.exact), untyped.damage) == ("-10", "88/5", 17)
    typed = resolve_modifiers(raw, [*base, E("CRIT_AFF", 20, "fire")], crits=1)
    assert (str(typed.normal.t), typed.damage) == ("0", 16)
    no_crit = resolve_modifiers(raw, [*base, E("CRIT_AFF", 20)], crits=0)
    assert no_crit.damage == 14


def test_ng28_di_and_ri_stop_at_zero() -> None:
    entries = [E("DI", 30), E("RI", 50, "fire"), E("DEF", 20), E("RES", 35, "fire"),
               E("RES", -5, "fire")]
    result = resolve_modifiers({"fire": 40}, entries)
    assert (str(result.normal.t), result.damage) == ("0", 40)
    none = resolve_modifiers({"fire": 40}, entries,
                             options=resolve_options({"di_ri_floor": "none"}))
    assert (str(none.normal.t), none.damage) == ("-30", 52)
    per = resolve_modifiers({"fire": 40}, entries,
                            options=resolve_options({"di_ri_stage": "per_entry"}))
    assert {(s.kind, s.type): s.value for s in per.normal.selected}[("RES", "fire")] == -5
    assert (str(per.normal.t), per.damage) == ("-5", 42)


def test_ng29_status_damage_uses_the_overriders_aff() -> None:
    # B overrode A's Burn: B's entries are those of the tick (ND7)
    entries = [E("ATK", 40), E("AFF", 50, "fire"), E("DEF", 30), E("RES", 10, "fire")]
    result = resolve_modifiers({"fire": 10}, entries, status=True)
    assert (str(result.normal.t), str(result.normal.multiplier), result.damage) == (
        "-40", "7/5", 14)


def test_ng67_category_competes() -> None:
    entries = expand_categories([E("AFF", 10, "PHYS"), E("AFF", 20, "slashing")], PHYS)
    result = resolve_modifiers({"slashing": 20}, entries)
    assert (str(result.normal.multiplier), result.damage) == ("6/5", 24)
    added = resolve_modifiers({"slashing": 20}, entries,
                              options=resolve_options({"category_modifiers": "add"}))
    assert (str(added.normal.multiplier), added.damage) == ("13/10", 26)


def test_nd6_ap_pool_ignores_nonnegative_res() -> None:
    # NG-18's pools given directly: normal 6 (RES +10, -20, armor +30), AP 4
    entries = [E("RES", 10, "piercing"), E("RES", -20, "piercing"),
               E("RES", 30, "piercing", armor=True)]
    result = resolve_modifiers({"piercing": 6}, entries, ap_raw={"piercing": 4})
    assert (str(result.normal.exact), str(result.ap.exact)) == ("27/5", "24/5")
    assert (str(result.exact), result.damage) == ("51/5", 10)


def test_nr10_charge_factor_after_nd() -> None:
    result = resolve_modifiers({"bludgeoning": 10}, [E("DEF", 40)],
                               charge_factor=Fraction(4, 5))
    assert (str(result.exact), result.damage) == ("24/5", 4)
    alt = resolve_modifiers({"bludgeoning": 10}, [E("DEF", 40)], charge_factor=Fraction(4, 5),
                            options=resolve_options({"charge_reduction_as": "def_modifier"}))
    assert (str(alt.charge_factor), alt.damage) == ("1", 6)


def test_nd1_other_kind_needs_a_side() -> None:
    with pytest.raises(ValueError):
        E("vs_undead", 10)
    assert E("vs_undead", 10, side="outgoing").side == "outgoing"
