"""Named tests of the condition catalog's value and memory (C2; issue 13).

Each test fails on a mutant of ``rulesets/linguomancy/conditions.py`` that
survived the full mutation run of 2026-12-02: the catalog-file shape of an
entry (``as_list``, what a request inlines), the catalog as a value (equal,
hashable and printed the same however much it has been used) and the bound on
the combined effects it remembers.
"""

from __future__ import annotations

import inspect
from itertools import combinations

from linguo_cli.rulesets.linguomancy import conditions
from linguo_cli.rulesets.linguomancy.model import Condition, Entity


def holder(*names: str, exhaustion: int = 0) -> Entity:
    return Entity(id="e", kind="player", hp=10, max_hp=10,
                  conditions=tuple(Condition(n, "test", 1) for n in names),
                  exhaustion=exhaustion)


def _entries() -> list[dict[str, object]]:
    """A catalog written by hand: every flag, a description on one entry
    only, rules on one entry only."""
    return [
        {"name": "Bound", "description": "Held fast by chains.",
         "effects": {"no_actions": True, "no_movement": True, "no_reactions": True,
                     "crawl_only": True}},
        {"name": "Hexed", "rules": ["C2"], "effects": {"ap_change": -1}},
        {"name": "Quiet", "effects": {}},
    ]


def test_the_catalog_file_shape_reloads_to_the_same_entries() -> None:
    # A catalog written back as a request's inline entries (as_list) and read
    # again is the same catalog: flags stay true, a description is kept where
    # there is one and not invented where there is none.
    cat = conditions.load_catalog(_entries())
    again = conditions.catalog_from_request(cat.as_list())
    assert again.conditions == cat.conditions
    default = conditions.default_catalog()
    assert conditions.catalog_from_request(default.as_list()).conditions == default.conditions


def test_the_catalog_file_shape_of_an_entry_by_hand() -> None:
    bound, hexed, quiet = conditions.load_catalog(_entries()).as_list()
    assert bound == {"name": "Bound", "description": "Held fast by chains.",
                     "effects": {"no_actions": True, "no_movement": True,
                                 "no_reactions": True, "crawl_only": True}}
    assert hexed == {"name": "Hexed", "rules": ["C2"], "effects": {"ap_change": -1}}
    assert quiet == {"name": "Quiet", "effects": {}}


def test_a_used_catalog_is_the_same_value_as_a_fresh_one() -> None:
    # What a catalog remembers (combined effects, its name index) is not part
    # of its value: equality, hash and repr do not change with use.
    fresh = conditions.load_catalog(_entries())
    used = conditions.load_catalog(_entries())
    before = repr(used)
    assert used.get("hexed") is not None
    assert used.effects_for(holder("Bound", "Hexed")).no_actions
    assert used == fresh
    assert hash(used) == hash(fresh)
    assert repr(used) == before == repr(fresh)
    assert {used, fresh} == {fresh}


def test_the_catalog_constructor_takes_only_its_entries_and_name() -> None:
    params = inspect.signature(conditions.Catalog).parameters
    assert list(params) == ["conditions", "name"]


_NAMES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India",
          "Juliett", "Kilo"]


def test_the_memory_of_combined_effects_is_bounded_and_kept_until_full() -> None:
    # 11 conditions give 2,047 distinct non-empty condition sets: more than the
    # 1,024 the catalog remembers. The memory never holds more than 1,024,
    # and a set asked for again before it fills is answered from memory
    # (the same object), not recomputed.
    cat = conditions.load_catalog([{"name": n, "effects": {"ap_change": -1}} for n in _NAMES])
    names = _NAMES
    first = cat.effects_for(holder("Alpha"))
    second = cat.effects_for(holder("Bravo"))
    assert cat.effects_for(holder("Alpha")) is first
    assert cat.effects_for(holder("Bravo")) is second
    largest = 0
    asked = 0
    for size in range(1, 12):
        for combo in combinations(names, size):
            eff = cat.effects_for(holder(*combo))
            assert eff.ap_change == -size
            asked += 1
            largest = max(largest, len(cat._memo))
    assert asked == 2047
    assert largest == 1024
