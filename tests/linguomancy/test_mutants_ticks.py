"""Ticks and tick design (issue 13, mutation run of ``ticks``): the tables of
T1/T2, T3's range at its bounds and the candidate set of
:func:`~linguo_cli.rulesets.linguomancy.ticks.suggest_dice` compared in full
with an enumeration written from its documented definition (``NdS`` with S
in d4, d6, d8, d10, d12, d20 and N up to 100; two kinds, larger die first,
up to 10 dice each; a constant 0 to 20; expected value in the tick's range,
at most twice its lower bound without an upper bound; ordered by distance
from the middle of the range, one kind before two, fewer dice, smaller
constant, larger dice).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from linguo_cli.core.dice import ScriptedDice, parse
from linguo_cli.core.errors import InputError
from linguo_cli.core.results import to_plain
from linguo_cli.rulesets.linguomancy import ticks

SIDES = (4, 6, 8, 10, 12, 20)


def test_the_damage_table_is_the_default() -> None:
    # T1 and T2 in rulebook order; Ultimate is a damage tick only.
    assert ticks.tick_names()[-1] == "ultimate"
    assert ticks.tick_names(healing=True)[-1] == "resurrection"
    assert ticks.get_tick("ultimate").multiplier == 10
    assert ticks.get_tick("strong").healing is False
    assert ticks.get_tick("Small Mending", healing=True).name == "small_mending"
    assert ticks.get_tick("greater-regrowth", healing=True).multiplier == 3


@pytest.mark.parametrize(("healing", "what"), [(False, "damage"), (True, "healing")])
def test_an_unknown_tick_names_its_table(healing: bool, what: str) -> None:
    with pytest.raises(InputError) as err:
        ticks.get_tick("mighty", healing=healing)
    assert err.value.diagnostics[0].message.startswith(f"unknown {what} tick 'mighty'; known: ")


@pytest.mark.parametrize(("healing", "what"), [(False, "damage"), (True, "healing")])
def test_the_nonconformity_names_its_table(healing: bool, what: str) -> None:
    # T3: 1d4 (5/2) is outside Low 4-8 in both tables.
    low = ticks.get_tick("low", healing=healing)
    assert low.nonconformity(parse("1d4")) == (
        f"has expected value 5/2, outside the Low {what} tick's range 4-8")
    assert low.nonconformity(Fraction(9)) == (
        f"has expected value 9, outside the Low {what} tick's range 4-8")


def _oracle(tick: ticks.Tick) -> list[tuple[str, int, int]]:
    assert tick.min is not None
    lo2 = 2 * tick.min
    top = 2 * tick.max if tick.max is not None else 4 * tick.min
    target2 = tick.min + tick.max if tick.max is not None else 2 * tick.min
    found: list[tuple[int, int, int, int, int, int]] = []
    kinds = [(n * (s + 1), n, s, 0, 0) for s in SIDES for n in range(1, 101)]
    kinds += [(n1 * (s1 + 1) + n2 * (s2 + 1), n1, s1, n2, s2)
              for i, s1 in enumerate(SIDES) for s2 in SIDES[:i]
              for n1 in range(1, 11) for n2 in range(1, 11)]
    for dice2, n1, s1, n2, s2 in kinds:
        for c in range(21):
            if lo2 <= dice2 + 2 * c <= top:
                found.append((dice2 + 2 * c, n1, s1, n2, s2, c))
    found.sort(key=lambda k: (abs(k[0] - target2), 1 if k[3] else 0, k[1] + k[3], k[5],
                              -k[2], -k[4]))
    # (notation, minimum, maximum) of each suggestion.
    return [(f"{n1}d{s1}" + (f"+{n2}d{s2}" if n2 else "") + (f"+{c}" if c else ""),
             n1 + n2 + c, n1 * s1 + n2 * s2 + c)
            for _, n1, s1, n2, s2, c in found]


#: Every tick with a dice range (None aside), the ones with the most to tell
#: first: no upper bound (Ultimate), N up to 100 binding (Multiple Regrowth).
RANGED = sorted(((t, h) for h in (False, True) for t in ticks.tick_names(healing=h)
                 if ticks.get_tick(t, healing=h).has_range and t != "none"),
                key=lambda th: th[0] not in ("ultimate", "multiple_regrowth", "low", "high"))


@pytest.mark.parametrize(("name", "healing"), RANGED)
def test_every_candidate_in_order(name: str, healing: bool) -> None:
    tick = ticks.get_tick(name, healing=healing)
    every = _oracle(tick)
    got = ticks.suggest_dice(tick, limit=10**6)
    assert [(s.expression.text(), s.expression.minimum(), s.expression.maximum())
            for s in got.dice] == every
    # Each suggestion's expression has the expected value it is listed with.
    assert all(s.expression.expected_value() == s.expected_value for s in got.dice)
    assert [s.expression.text() for s in ticks.suggest_dice(tick).dice] == [
        text for text, _, _ in every[:10]]


def _ticks(**request: object) -> dict[str, object]:
    out: dict[str, object] = to_plain(ticks.resolve_ticks_request(request, ScriptedDice([])))
    return out


def _notes(r: dict[str, object]) -> list[tuple[str, str]]:
    steps = r["explanation"]
    assert isinstance(steps, list)
    return [(s["rule"], s["text"]) for s in steps]


def test_the_ticks_a_formula_conforms_to_are_listed_or_none() -> None:
    # T1/T2: 1d4 (5/2) conforms to Tiny (1-4) in both tables; 6 has no die.
    notes = _notes(_ticks(dice="1d4"))
    assert ("T1", "damage ticks: Tiny (1-4)") in notes
    assert ("T2", "healing ticks: Tiny (1-4)") in notes
    notes = _notes(_ticks(dice="6"))
    assert ("T1", "damage ticks: none") in notes and ("T2", "healing ticks: none") in notes


@pytest.mark.parametrize(("healing", "what", "rule"), [(False, "damage", "T1"),
                                                       (True, "healing", "T2")])
def test_checking_and_suggesting_name_the_table(healing: bool, what: str, rule: str) -> None:
    r = _ticks(dice="2d4", tick="low", healing=healing)
    assert ("T3", f"conforms to the Low {what} tick (4-8)") in _notes(r)
    r = _ticks(suggest="low", healing=healing)
    assert r["rules"] == [rule, "T3"]
    assert _notes(r)[0] == (rule, f"Low {what} tick: range 4-8, multiplier 1")
