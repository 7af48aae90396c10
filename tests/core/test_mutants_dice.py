"""Die sizes (issue 13): every d20 is a d20, and every source can show face 1
and face N.

Scripted faces are checked against the die they are used for, so the size of
a die shows through the faces a source accepts: a scripted 21 is refused for
each d20 (plain, both advantage dice, both disadvantage dice, the death save)
and a 20 is accepted. A d21 in their place would accept the 21; a d19 would
refuse the 20.
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.dice import (
    DiceSource,
    ScriptedDice,
    SeededDice,
    SystemDice,
    make_source,
    parse,
    roll,
)
from linguo_cli.core.errors import DiceError

from ..conftest import run_cli

# ---------------------------------------------------------------------------
# d20 tests: plain, advantage and disadvantage, for check, attack and save

_TEST_ARGS = {
    "check": ["check", "--dc", "10"],
    "attack": ["attack", "--ac", "10"],
    "save": ["save", "--dc", "10"],
}
_MODES = {"plain": [], "advantage": ["--adv"], "disadvantage": ["--dis"]}


def _faces(mode: str, position: int, face: int) -> str:
    """Scripted faces with ``face`` at ``position`` (0 or 1) and a 5 elsewhere."""
    n = 1 if mode == "plain" else 2
    return ",".join(str(face if i == position else 5) for i in range(n))


_D20_CASES = [(kind, mode, pos) for kind in _TEST_ARGS for mode in _MODES
              for pos in ((0,) if mode == "plain" else (0, 1))]


@pytest.mark.parametrize(("kind", "mode", "position"), _D20_CASES)
def test_each_d20_of_a_test_refuses_a_21(kind: str, mode: str, position: int) -> None:
    run = run_cli(*_TEST_ARGS[kind], *_MODES[mode], "--rolls", _faces(mode, position, 21),
                  "--json")
    assert run.exit_code == 3, run.stdout + run.stderr
    assert "d20" in run.stderr and "21" in run.stderr


@pytest.mark.parametrize(("kind", "mode", "position"), _D20_CASES)
def test_each_d20_of_a_test_accepts_20_and_1(kind: str, mode: str, position: int) -> None:
    for face in (20, 1):
        run = run_cli(*_TEST_ARGS[kind], *_MODES[mode], "--rolls",
                      _faces(mode, position, face), "--json")
        assert run.exit_code == 0, run.stderr
        faces = run.json()["faces"]
        assert faces[position]["face"] == face
        assert all(f["die"] == 20 for f in faces)


@pytest.mark.parametrize("mode", ["advantage", "disadvantage"])
def test_advantage_and_disadvantage_roll_exactly_two_d20(mode: str) -> None:
    """Two faces are used; a third is left over (exit 3), one alone is too few."""
    assert run_cli("check", "--dc", "10", *_MODES[mode], "--rolls", "5,6", "--json"
                   ).exit_code == 0
    assert run_cli("check", "--dc", "10", *_MODES[mode], "--rolls", "5,6,7").exit_code == 3
    assert run_cli("check", "--dc", "10", *_MODES[mode], "--rolls", "5").exit_code == 3


# ---------------------------------------------------------------------------
# The death-save d20 (H6)


def _dying_state() -> dict[str, Any]:
    return {"entities": [{
        "id": "bram", "kind": "player", "hp": 0, "max_hp": 20,
        "conditions": [{"name": "Dying", "source": "dying"},
                       {"name": "Unconscious", "source": "dying"}],
        "death_saves": {"successes": 0, "failures": 0}}]}


def _death_save(face: int) -> dict[str, Any]:
    return requests.resolve({"kind": "death_save", "state": _dying_state(), "entity": "bram",
                             "rolls": [face]})


def test_death_save_d20_refuses_21() -> None:
    with pytest.raises(DiceError) as info:
        _death_save(21)
    assert info.value.code == 3
    assert "d20" in info.value.message


@pytest.mark.parametrize("face", [1, 10, 20])
def test_death_save_d20_accepts_1_to_20(face: int) -> None:
    result = _death_save(face)
    assert result["face"] == {"die": 20, "face": face, "kept": True}
    assert result["rolls_used"] == [face]


def test_death_save_cli_refuses_21_and_accepts_20(tmp_path: Any) -> None:
    import json

    state = tmp_path / "state.json"
    state.write_text(json.dumps(_dying_state()), encoding="utf-8")
    bad = run_cli("death-save", str(state), "--entity", "bram", "--rolls", "21", "--json")
    assert bad.exit_code == 3, bad.stdout + bad.stderr
    good = run_cli("death-save", str(state), "--entity", "bram", "--rolls", "20", "--json")
    assert good.exit_code == 0, good.stderr
    assert good.json()["face"] == {"die": 20, "face": 20, "kept": True}


# ---------------------------------------------------------------------------
# Scripted dice: the bounds of a die


@pytest.mark.parametrize("sides", [1, 2, 6, 20, 1000])
def test_scripted_face_bounds(sides: int) -> None:
    src = ScriptedDice([1, sides])
    assert [src.roll(sides), src.roll(sides)] == [1, sides]
    for face in (0, sides + 1, -1):
        with pytest.raises(DiceError):
            ScriptedDice([face]).roll(sides)


# ---------------------------------------------------------------------------
# Seeded and system dice: faces 1 and N both occur, nothing outside 1..N


def _draws(src: DiceSource, sides: int, n: int) -> list[int]:
    return [src.roll(sides) for _ in range(n)]


@pytest.mark.parametrize("seed", [0, 1, 12345])
@pytest.mark.parametrize("sides", [2, 3, 6, 20])
def test_seeded_dice_show_every_face_from_1_to_n(seed: int, sides: int) -> None:
    # Deterministic for a fixed seed; 2000 draws of a d20 miss a given face
    # with probability (19/20)^2000 < 1e-44 for any seed, so a correct source
    # cannot fail here, while randint(2, n) never shows 1 and randint(1, n-1)
    # never shows n.
    faces = _draws(SeededDice(seed), sides, 2000)
    assert set(faces) == set(range(1, sides + 1))


def test_seeded_dice_replay_with_the_same_seed() -> None:
    assert _draws(SeededDice(7), 6, 50) == _draws(SeededDice(7), 6, 50)
    assert _draws(SeededDice(7), 6, 50) != _draws(SeededDice(8), 6, 50)


@pytest.mark.parametrize(("sides", "draws"), [(2, 200), (3, 200)])
def test_system_dice_show_face_1_and_face_n(sides: int, draws: int) -> None:
    # Chance of a false failure for the correct code: a given face is missed
    # with probability ((sides-1)/sides)^draws <= (2/3)^200 < 1e-35; over the
    # two faces checked (union bound) < 1e-34, far below 1e-12.
    faces = _draws(SystemDice(), sides, draws)
    assert 1 in faces and sides in faces
    assert set(faces) <= set(range(1, sides + 1))


def test_system_dice_d1_always_shows_1() -> None:
    assert set(_draws(SystemDice(), 1, 20)) == {1}


def test_seeded_and_system_dice_record_what_they_hand_out() -> None:
    for src in (SeededDice(3), SystemDice()):
        faces = _draws(src, 6, 10)
        assert src.used == faces
        src.finish()  # nothing is "left unused" for a random source
        assert src.scripted is False


def test_make_source_picks_scripted_then_seed_then_system() -> None:
    assert isinstance(make_source([1, 2], 5), ScriptedDice)
    assert isinstance(make_source([], None), ScriptedDice)
    seeded = make_source(None, 5)
    assert isinstance(seeded, SeededDice) and seeded.seed == 5
    assert isinstance(make_source(None, 0), SeededDice)
    assert isinstance(make_source(None, None), SystemDice)


def test_seeded_roll_of_an_expression_uses_each_term_die() -> None:
    # 1d2 then 1d3: the faces fit their own dice for many seeds.
    expr = parse("1d2+1d3")
    seen_second = set()
    for seed in range(300):
        result = roll(expr, SeededDice(seed))
        first, second = (r.values[0] for r in result.rolls)
        assert 1 <= first <= 2 and 1 <= second <= 3
        seen_second.add(second)
    assert seen_second == {1, 2, 3}


# ---------------------------------------------------------------------------
# Messages about scripted faces list at most 12 of them


@pytest.mark.parametrize(("given", "shown", "more"), [(12, 12, False), (13, 12, True)])
def test_too_few_faces_message_lists_twelve_faces_at_most(given: int, shown: int,
                                                           more: bool) -> None:
    faces = list(range(1, given + 1))
    src = ScriptedDice(faces)
    for _ in faces:
        src.roll(20)
    with pytest.raises(DiceError) as info:
        src.roll(20)
    listed = ", ".join(str(f) for f in range(1, shown + 1))
    assert f"({listed}{', ...' if more else ''})" in info.value.message


# ---------------------------------------------------------------------------
# rr: at most 20 rerolls per die, the 20th drawn among the faces that stop it
# (README, "rrC"); the number is written out so that moving the bound fails.


def test_rr_rerolls_a_die_twenty_times_at_most() -> None:
    # 1d6rr1: the first face and 19 rerolls show 1; the 20th reroll is the
    # last one allowed, so it must stop the die (2..6): 21 faces in all.
    src = ScriptedDice([1] * 20 + [4])
    result = roll(parse("1d6rr1"), src)
    src.finish()
    assert result.total == 4
    assert len(result.face_records()) == 21
    assert [r["kept"] for r in result.face_records()] == [False] * 20 + [True]
    # A 1 on the 20th reroll is refused: it would need a 21st reroll.
    with pytest.raises(DiceError) as info:
        roll(parse("1d6rr1"), ScriptedDice([1] * 21 + [4]))
    assert "last reroll allowed (20)" in info.value.message
    assert "one of 2, 3, 4, 5, 6" in info.value.message


def test_the_last_rr_reroll_may_show_any_face_that_stops_it() -> None:
    # 1d6rr>2: faces 3..6 are rerolled, 1 and 2 stop the die; the 20th reroll
    # may show either of them, face 1 included.
    src = ScriptedDice([6] * 20 + [1])
    assert roll(parse("1d6rr>2"), src).total == 1
    src.finish()
    with pytest.raises(DiceError) as info:
        roll(parse("1d6rr>2"), ScriptedDice([6] * 21))
    assert "must stop it: one of 1, 2" in info.value.message
