"""Ultimates and the Zenith meter (NU1-NU7) one rule at a time, and the
start-of-turn gain (NO3 step 5) that the ``turn_start`` request will call:
:func:`zenith.up_gain_at_turn_start` on the numbers of NE-25, NE-26, NG-39,
NG-40, NG-53, NG-54 and NG-78 (worked by hand from WORKED_EXAMPLES.md), and
the end of an encounter (``zenith_reset``)."""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.derivation import Derivation, rules_of
from linguo_cli.rulesets.novence_eternal.documents import FaceError, NamedFaces
from linguo_cli.rulesets.novence_eternal.model import Refusal
from linguo_cli.rulesets.novence_eternal.options import DEFAULTS, resolve_options
from linguo_cli.rulesets.novence_eternal.zenith import (
    Ultimate,
    add_up,
    cast,
    check_cast,
    meditate_bonus,
    roman,
    start_bonus,
    up_gain_at_turn_start,
    zenith_level,
    zenith_reset,
)

HIGHEST = resolve_options({"zenith_bonus_mode": "highest_per_track"})


def _pc(**more: Any) -> dict[str, Any]:
    return {"id": "pc", "kind": "player", "hp": 30, "max_hp": 30, **more}


def _turn(creature: dict[str, Any], faces: list[Any], zp: int = 0, options: Any = DEFAULTS,
          state: dict[str, Any] | None = None) -> tuple[dict[str, Any], Any, tuple[Any, ...]]:
    dice = NamedFaces(faces)
    out = up_gain_at_turn_start(creature, state or {"zp": zp, "combatants": [creature]},
                                options, dice)
    dice.finish()  # every face given was used (NU7's count of d4s)
    return out


def test_levels_nu4() -> None:
    # NE-26: ZP 8, 9, 26, 27, 45, 63, 81 -> 0, I, II, III, V, VII, IX; no cap (93 -> X)
    assert [zenith_level(zp) for zp in (8, 9, 26, 27, 45, 63, 81, 93)] == [0, 1, 2, 3, 5, 7, 9,
                                                                          10]
    assert [roman(n) for n in (0, 1, 4, 9, 10, 14)] == ["0", "I", "IV", "IX", "X", "XIV"]


def test_cap_nu1() -> None:
    assert add_up(98, 4) == (100, 2, 2)  # NE-25: +4 capped, 2 lost
    assert add_up(85, 10) == (95, 10, 0)
    assert add_up(100, 0) == (100, 0, 0)


@pytest.mark.parametrize(("zp", "start", "meditate"), [
    # NE-26, both sides of each threshold: (static, d4s)
    (8, (0, 0), (0, 0)), (9, (1, 0), (0, 0)),          # I: +1 at the start of the turn
    (26, (1, 0), (0, 0)), (27, (1, 0), (1, 0)),        # III: +1 on Meditate
    (44, (1, 0), (1, 0)), (45, (1, 1), (1, 0)),        # V: +1d4 at the start
    (62, (1, 1), (1, 0)), (63, (1, 1), (1, 1)),        # VII: +1d4 on Meditate
    (80, (1, 1), (1, 1)), (81, (3, 1), (3, 1)),        # IX: +2 on every gain
])
def test_bonuses_nu5(zp: int, start: tuple[int, int], meditate: tuple[int, int]) -> None:
    level = zenith_level(zp)
    assert start_bonus(level, DEFAULTS) == start
    assert meditate_bonus(level, DEFAULTS) == meditate


def test_bonuses_highest_per_track_nu5() -> None:
    # only the highest of I and V (start), of III and VII (Meditate); IX still +2
    assert start_bonus(4, HIGHEST) == (1, 0)
    assert start_bonus(5, HIGHEST) == (0, 1)
    assert start_bonus(9, HIGHEST) == (2, 1)
    assert meditate_bonus(3, HIGHEST) == (1, 0)
    assert meditate_bonus(7, HIGHEST) == (0, 1)
    assert meditate_bonus(9, HIGHEST) == (2, 1)


def test_cast_checks_in_order_nu6() -> None:
    starfall = Ultimate("Starfall", cost=60, zp=12, min_level=5)
    for used, level, up, code in [(True, 0, 0, "ultimate_used"), (False, 4, 0, "zenith_too_low"),
                                  (False, 5, 59, "up_insufficient")]:
        with pytest.raises(Refusal) as info:
            check_cast(starfall, used, level, up)
        assert (info.value.refusal, info.value.rule) == (code, "NU6")
    check_cast(starfall, False, 5, 60)  # >= on both: allowed
    done = cast(starfall, 65, 81, Derivation())  # NG-54 (c)
    assert (done.up_after, done.zp_after, done.level_before, done.level_after) == (0, 93, 9, 10)


def test_turn_start_ne25_gain_capped() -> None:
    # NE-25: N = 2, ZP 0, UP 98; d4 3, 1: +4, capped at 100, 2 lost
    after, gain, steps = _turn(_pc(up=98, ultimate_dice=2), ["d4:3", "d4:1"])
    assert (gain.faces, gain.bonus, gain.gained, gain.lost, gain.up_after) == ((3, 1), 0, 2, 2,
                                                                                100)
    assert after["up"] == 100 and {"NU2", "NU1"} <= set(rules_of(steps))


@pytest.mark.parametrize(("up", "options", "gained", "lost", "after"), [
    (85, DEFAULTS, 10, 0, 95),    # NG-53 (a): 3 + 2 + 1 + 4 = 10
    (92, DEFAULTS, 8, 2, 100),    # NG-53 (b): 92 + 10 = 102, 2 lost
    (85, HIGHEST, 9, 0, 94),      # NG-53 Alt: 3 + 2 + 4 = 9 (V's d4 without I's +1)
])
def test_turn_start_ng53_zenith_v(up: int, options: Any, gained: int, lost: int,
                                  after: int) -> None:
    # N = 2; ZP 47 (level V); dice: the two class d4s, then the level-V d4 (NU7)
    creature, gain, steps = _turn(_pc(up=up, ultimate_dice=2), ["d4:3", "d4:2", "d4:4"], zp=47,
                                  options=options)
    assert gain.faces == (3, 2, 4) and (gain.gained, gain.lost, gain.up_after) == (gained, lost,
                                                                                   after)
    assert creature["up"] == after and "NU7" in rules_of(steps)


def test_turn_start_ng54a_zenith_ix() -> None:
    # N = 1; ZP 81 (IX); UP 60; d4 1, 1: 1 + 1 (I) + 1 (V's d4) + 2 (IX) = 5: UP 65
    _, gain, _ = _turn(_pc(up=60, ultimate_dice=1), ["d4:1", "d4:1"], zp=81)
    assert (gain.bonus, gain.gained, gain.up_after) == (3, 5, 65)


def test_turn_start_ng78_shared_or_per_creature() -> None:
    # A cast Starfall: the shared meter is 12 (I); B (N = 1, UP 0) gains 2 + 1 = 3
    b = {**_pc(ultimate_dice=1), "id": "b"}
    state = {"zp": 12, "combatants": [{**_pc(), "id": "a"}, b]}
    _, gain, _ = _turn(b, ["d4:2"], state=state)
    assert gain.up_after == 3
    # Alt per_creature: A's own meter is 12, B's is 0: B gains 2
    per = resolve_options({"zenith_meter": "per_creature"})
    state = {"zp": 0, "combatants": [{**_pc(), "id": "a", "zp": 12}, b]}
    _, gain, _ = _turn(b, ["d4:2"], state=state, options=per)
    assert gain.up_after == 2


def test_turn_start_after_the_ko_roll_ng39_ng40() -> None:
    # NG-39: woke on 10 (no longer KO), N = 1, ZP 0, UP 20; d4 3: UP 23
    _, gain, _ = _turn(_pc(up=20, ultimate_dice=1, hp=1), ["d4:3"])
    assert gain.up_after == 23
    # NG-40: still KO after a 9: no UP die, UP 20
    ko = _pc(up=20, ultimate_dice=1, hp=0, ko=True, injury=3)
    after, gain, steps = _turn(ko, [])
    assert gain is None and after["up"] == 20 and "NU2" in rules_of(steps)
    # NG-40 Alt up_while_ko: gain: d4 2, UP 22
    _, gain, _ = _turn(ko, ["d4:2"], options=resolve_options({"up_while_ko": "gain"}))
    assert gain.up_after == 22


def test_the_dead_gain_nothing_even_under_up_while_ko_gain() -> None:
    dead = _pc(up=20, ultimate_dice=1, hp=0, dead=True, injury=9)
    _, gain, _ = _turn(dead, [], options=resolve_options({"up_while_ko": "gain"}))
    assert gain is None


def test_turn_start_dice_name_the_d4() -> None:
    with pytest.raises(FaceError):
        _turn(_pc(ultimate_dice=1), ["d20:3"])


def test_encounter_end_zenith_reset_nu4() -> None:
    # NG-54 (e): the encounter ends at ZP 93: the next starts at 0 (level 0)
    state = {"zp": 93, "combatants": [_pc(ultimates_used=["Starfall"])]}
    after = zenith_reset(state, DEFAULTS)
    assert after["zp"] == 0 and after["combatants"][0]["ultimates_used"] == []
    assert state["zp"] == 93  # the given state is not changed
    # Alt zenith_reset: never: ZP 93 (level X) stays; Ultimates may be used again
    after = zenith_reset(state, resolve_options({"zenith_reset": "never"}))
    assert after["zp"] == 93 and zenith_level(after["zp"]) == 10
    assert after["combatants"][0]["ultimates_used"] == []
    # per_creature: every combatant's own meter resets
    per = resolve_options({"zenith_meter": "per_creature"})
    after = zenith_reset({"zp": 0, "combatants": [_pc(zp=40), {**_pc(), "id": "b", "zp": 9}]},
                         per)
    assert [c["zp"] for c in after["combatants"]] == [0, 0] and after["zp"] == 0
