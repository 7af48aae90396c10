"""Dice notation of issue 17: the peer's (Avrae d20) expectations rewritten as
scripted-faces cases, refusals with their column, replay, annotations and the
``dice`` request kind. Exact distributions: tests/test_dice_notation_exact.py."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from linguo_cli.core import dice
from linguo_cli.core.dice import ScriptedDice, SeededDice, parse, roll
from linguo_cli.core.errors import DiceError, InputError
from linguo_cli.rulesets.linguomancy.requests import resolve_plain as resolve

from ..conftest import run_cli


def total(text: str, faces: list[int]) -> int:
    src = ScriptedDice(faces)
    result = roll(parse(text), src)
    src.finish()
    return result.total


def records(text: str, faces: list[int]) -> list[dict[str, object]]:
    src = ScriptedDice(faces)
    out = roll(parse(text), src).face_records()
    src.finish()
    return out


# ---------------------------------------------------------------------------
# Peer expectations (d20's documented semantics), as scripted faces


@pytest.mark.parametrize("faces", [[1] * 10, [6] * 10, [1, 2, 3, 4, 5, 6, 1, 2, 3, 4]])
def test_min_six_on_d6_is_always_60(faces: list[int]) -> None:
    assert total("10d6mi6", faces) == 60
    assert parse("10d6mi6").expected_value() == 60
    assert (parse("10d6mi6").minimum(), parse("10d6mi6").maximum()) == (60, 60)


def test_reroll_and_add_on_d1_is_2() -> None:
    assert total("1d1ra1", [1, 1]) == 2
    assert parse("1d1ra1").expected_value() == 2


@pytest.mark.parametrize("text", ["1d20rr<21", "1d1rr1", "2d6rr>0", "1d6e>0", "1d1e1"])
def test_rerolls_and_explosions_that_can_never_stop_are_refused(text: str) -> None:
    with pytest.raises(InputError) as info:
        parse(text)
    assert info.value.code == 3
    assert "can never stop" in info.value.message


@pytest.mark.parametrize(
    ("text", "faces", "expected", "kept"),
    [
        ("4d6kh3", [1, 2, 3, 4], 9, [False, True, True, True]),
        ("4d6k3", [1, 2, 3, 4], 9, [False, True, True, True]),
        ("4d6kl3", [1, 2, 3, 4], 6, [True, True, True, False]),
        ("4d6dl1", [5, 1, 5, 3], 13, [True, False, True, True]),
        ("4d6dh1", [5, 1, 5, 3], 9, [True, True, False, True]),  # ties: the later 5 goes
        ("5d6kh4kl2", [6, 1, 4, 3, 5], 7, [False, False, True, True, False]),
        ("5d6dl1dh1", [6, 1, 4, 3, 5], 12, [False, False, True, True, True]),
        ("2d20kh1", [7, 7], 7, [True, False]),
    ],
)
def test_keep_and_drop_selections(text: str, faces: list[int], expected: int,
                                  kept: list[bool]) -> None:
    assert total(text, faces) == expected
    assert [r["kept"] for r in records(text, faces)] == kept


def test_reroll_once_keeps_the_second_face_even_if_it_matches() -> None:
    recs = records("1d6ro1", [1, 1])
    assert total("1d6ro1", [1, 1]) == 1
    assert recs == [{"die": 6, "face": 1, "kept": False, "rerolled": True},
                    {"die": 6, "face": 1, "kept": True}]
    assert total("1d6ro1", [4]) == 4


def test_reroll_while_below_three() -> None:
    assert total("2d6rr<3", [1, 2, 5, 3]) == 8
    assert [r["kept"] for r in records("2d6rr<3", [1, 2, 5, 3])] == [False, False, True, True]
    assert total("1d6ro>5", [6, 6]) == 6


def test_reroll_while_is_bounded_and_the_last_reroll_must_stop() -> None:
    faces = [1] * dice.MAX_REROLLS + [3]
    assert total("1d6rr1", faces) == 3
    with pytest.raises(DiceError):
        total("1d6rr1", [1] * (dice.MAX_REROLLS + 1))
    # random sources draw the last reroll among the faces that stop it
    for seed in range(50):
        src = SeededDice(seed)
        result = roll(parse("1d1000rr<1000"), src)
        assert result.total == 1000
        assert len(src.used) <= dice.MAX_REROLLS + 1


def test_reroll_and_add_marks_both_faces() -> None:
    assert records("1d6ra6", [6, 2]) == [
        {"die": 6, "face": 6, "kept": True, "rerolled": True},
        {"die": 6, "face": 2, "kept": True, "extra": True}]
    assert total("1d6ra6", [6, 6]) == 12  # ra adds once, never again


def test_exploding_dice() -> None:
    assert total("1d20e20", [20, 20, 3]) == 43
    assert records("1d6e>4", [5, 6, 1]) == [
        {"die": 6, "face": 5, "kept": True, "exploded": True},
        {"die": 6, "face": 6, "kept": True, "extra": True, "exploded": True},
        {"die": 6, "face": 1, "kept": True, "extra": True}]
    assert total("3d6e6", [1, 6, 2, 3]) == 12


def test_explosions_stop_at_the_stated_depth() -> None:
    faces = [6] * (dice.MAX_EXPLOSIONS + 1)
    recs = records("1d6e6", faces)
    assert len(recs) == dice.MAX_EXPLOSIONS + 1
    assert recs[-1].get("explosion_limit") is True
    assert total("1d6e6", faces) == 6 * (dice.MAX_EXPLOSIONS + 1)


def test_min_and_max_record_what_the_face_counts_as() -> None:
    assert records("2d6mi3", [1, 5]) == [
        {"die": 6, "face": 1, "kept": True, "counts_as": 3},
        {"die": 6, "face": 5, "kept": True}]
    assert total("2d6mi3", [1, 5]) == 8
    assert total("3d6ma2", [1, 5, 6]) == 5
    assert total("4d6mi2kh3", [1, 1, 1, 6]) == 10


def test_percent_die_is_d100() -> None:
    assert parse("d%") == parse("1d100")
    assert total("d%", [100]) == 100


@pytest.mark.parametrize(
    ("text", "faces", "expected"),
    [
        ("(1d4+1)*2", [3], 8),
        ("1d6/2", [5], 2),
        ("(1d4-4)/2", [1], -2),  # floor toward negative infinity: -3/2 -> -2
        ("-(1d4+1)", [2], -3),
        ("-1d4+5", [4], 1),
        ("2*(1d6+1d4)-3", [6, 4], 17),
        ("(2d6+1)/1d2", [3, 4, 2], 4),
        ("1d6*1d6", [3, 4], 12),
        ("((((1d6))))", [2], 2),
    ],
)
def test_arithmetic(text: str, faces: list[int], expected: int) -> None:
    assert total(text, faces) == expected


def test_flat_parentheses_stay_the_old_grammar() -> None:
    assert parse("(1d4+1)+2") == parse("1d4+3")
    assert parse("-(1d4-1d6)").text() == "-1d4+1d6"
    assert parse("(1d4+1)*2").tree is not None


@pytest.mark.parametrize("text", ["1d6/0", "1d6/(1d2-1)", "1d6/(1d4-2)", "1d6e6/2"])
def test_divisors_that_can_be_zero_and_exploding_division_are_refused(text: str) -> None:
    with pytest.raises(InputError):
        parse(text)


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("10d10>7", 6, "out of scope"),
        ("10d10<3", 6, "out of scope"),
        ("4d6p1", 4, "out of scope"),
        ("1d20cs>19", 5, "out of scope"),
        ("1d20cf1", 5, "out of scope"),
        ("4d6kh3ro1", 7, "must come before"),
        ("1d6e6ro1", 6, "must come before"),
        ("1d6ro1rr2", 7, "must come before"),
        ("1d6e6kh1", 6, "exploding"),
        ("1d6e6mi2", 6, "exploding"),
        ("4d6dl4", 1, "drop count"),
        ("4d6kh3kh4", 1, "keep count"),
        ("1d8[fi$re]", 4, "annotation"),
        ("2+[fire]", 3, "expected a term"),
        ("(1d6", 5, "expected ')'"),
        ("1d6)", 4, "expected '+' or '-'"),
        ("1d6*", 5, "expected a term"),
        ("1d6ro", 4, "expected a face"),
    ],
)
def test_refusals_name_the_column(text: str, column: int, words: str) -> None:
    with pytest.raises(InputError) as info:
        parse(text, field="expression")
    message = info.value.diagnostics[0].message
    assert message.startswith(f"column {column}:"), message
    assert words in message
    assert info.value.code == 3


def test_limits_of_the_extended_grammar() -> None:
    with pytest.raises(InputError, match="nested"):
        parse("(" * 30 + "1d6" + ")" * 30)
    with pytest.raises(InputError, match="nested"):
        parse("-" * 30 + "1d6")
    with pytest.raises(InputError, match="faces"):
        parse("+".join(["1000d6e6"] * 3))
    parse("(" * dice.MAX_NESTING + "1d6" + ")" * dice.MAX_NESTING)


# ---------------------------------------------------------------------------
# Replay and canonical text


@pytest.mark.parametrize("text", [
    "4d6dl1", "5d6kh4kl2", "2d6rr<3", "3d6ro1", "2d4ra4", "3d6e6", "2d6e>4", "8d6mi2ma5",
    "(1d4+1)*2", "(2d6+1)/1d2-1d4", "1d8[fire]+2", "d%", "4d6ro<3mi2dl1",
])
def test_replaying_rolls_used_gives_the_same_total_and_faces(text: str) -> None:
    expr = parse(text)
    for seed in range(20):
        src = SeededDice(seed)
        first = roll(expr, src)
        again = ScriptedDice(list(src.used))
        second = roll(expr, again)
        again.finish()
        assert second.total == first.total
        assert second.face_records() == first.face_records()
        assert first.expression.minimum() <= first.total <= first.expression.maximum()
    assert parse(expr.text()) == expr


def test_old_grammar_face_records_keep_their_shape() -> None:
    assert records("2d6kh1+1d4", [2, 5, 3]) == [
        {"die": 6, "face": 2, "kept": False}, {"die": 6, "face": 5, "kept": True},
        {"die": 4, "face": 3, "kept": True}]


# ---------------------------------------------------------------------------
# T5 rev. 2: critical hits double every dice node in place


def test_critical_doubles_dice_nodes_in_place() -> None:
    assert parse("(1d4+1)*2").doubled().text() == "(1d4+1d4+1)*2"
    assert parse("4d6dl1+2").doubled().text() == "4d6dl1+4d6dl1+2"
    assert parse("(2d6+1)/1d2").doubled().text() == "(2d6+2d6+1)/1d2"
    expr = parse("(1d4+1)*2")
    assert expr.doubled().expected_value() - expr.expected_value() == 2 * Fraction(5, 2)
    assert total("(1d4+1)*2", [3]) == 8


# ---------------------------------------------------------------------------
# Annotations and the damage type (one per Linguomancy damage roll)


def damage_request(dice_text: str, **extra: Any) -> dict[str, Any]:
    return {"kind": "damage", "tick": "low", "dice": dice_text, "rolls": [3, 3], **extra}


def test_annotation_sets_the_damage_type() -> None:
    result = resolve(damage_request("2d4[fire]"))
    assert result["damage_type"] == "fire"
    assert resolve(damage_request("2d4[fire]", damage_type="fire"))["damage_type"] == "fire"


@pytest.mark.parametrize(("text", "extra"), [
    ("1d4[fire]+1d4[cold]", {}),
    ("2d4[fire]", {"damage_type": "cold"}),
])
def test_two_damage_types_are_invalid(text: str, extra: dict[str, Any]) -> None:
    with pytest.raises(InputError) as info:
        resolve(damage_request(text, **extra))
    assert info.value.code == 3


def test_labels_are_kept_in_the_dice_result() -> None:
    r = resolve({"kind": "dice", "expression": "1d8[fire] + 1d6[fire] + 2", "rolls": [8, 1]})
    assert r["labels"] == ["fire"]
    assert r["total"] == 11


# ---------------------------------------------------------------------------
# The dice request kind and linguo roll


def test_dice_request_with_distribution() -> None:
    r = resolve({"kind": "dice", "expression": "4d6dl1", "rolls": [3, 5, 1, 6],
                 "distribution": True})
    assert r["total"] == 14
    assert r["rolls_used"] == [3, 5, 1, 6]
    assert [f["kept"] for f in r["faces"]] == [True, True, False, True]
    assert r["expected_value"] == "15869/1296"
    assert (r["minimum"], r["maximum"]) == (3, 18)
    assert r["distribution"][0] == {"total": 3, "probability": "1/1296", "percent": "0.08"}
    assert sum(Fraction(d["probability"]) for d in r["distribution"]) == 1
    assert r["truncated_mass"] == "0"


def test_roll_command(tmp_path: Any) -> None:
    run = run_cli("roll", "2d6rr<3", "--rolls", "1,4,2,3", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["total"] == 7
    run = run_cli("roll", "10d10>7", "--rolls", "1")
    assert run.exit_code == 3
    assert "column 6" in run.stderr
    run = run_cli("roll", "1d20rr<21")
    assert run.exit_code == 3
    text = run_cli("roll", "1d6ro1", "--rolls", "1,4")
    assert text.exit_code == 0 and "rerolled" in text.stdout
    assert run_cli("roll", "(1d4+1)*2", "--crit", "--rolls", "1,2", "--json").json()["total"] == 8


def test_ticks_accepts_the_extended_notation() -> None:
    run = run_cli("ticks", "1d20e20", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["expected_value"] == "210/19"  # 21/2 * 20/19, no truncation
    run = run_cli("ticks", "(1d4+1)*2", "--json")
    assert run.json()["expected_value"] == "7"


def test_ticks_help_shows_every_operator() -> None:
    text = " ".join(run_cli("ticks", "--help").stdout.split())
    for example in ("d%", "4d6k3", "2d20kl1", "4d6dh1", "4d6dl1", "5d6kh4kl2", "1d6ro1",
                    "'2d6rr<3'", "1d6ra1", "1d20e20", "'1d6e>4'", "8d6mi2", "4d6ma5",
                    "'(1d4+1)*2'", "3d6/2", "-1d4+5", "'1d8[fire]'"):
        assert f"linguo ticks {example}" in text or example in text, example


def test_odds_of_extended_notation_and_truncated_mass() -> None:
    run = run_cli("odds", "attack", "--no-ac", "--damage-dice", "1d6e6+2", "--tick", "low",
                  "--json")
    assert run.exit_code == 0, run.stderr
    dmg = run.json()["damage"]
    assert dmg["dice_expected_value"] == "31/5"  # 7/2 / (5/6) + 2, no truncation
    assert dmg["truncated_mass"]["on_hit"] == str(Fraction(1, 6) ** (dice.MAX_EXPLOSIONS + 1))
    run = run_cli("odds", "attack", "--no-ac", "--damage-dice", "(1d4+1)*2", "--tick", "low",
                  "--json")
    assert run.json()["damage"]["expected"] == "7"
    assert "truncated_mass" not in run.json()["damage"]


def test_critical_damage_with_extended_notation() -> None:
    r = resolve({"kind": "damage", "tick": "low", "dice": "(1d4+1)*2", "critical": True,
                 "rolls": [1, 2]})
    assert r["amount"] == 8  # (1 + 2 + 1) x 2
    assert r["rolled_dice"] == "(1d4+1d4+1)*2"


def test_upcast_dice_keep_their_operators() -> None:
    from linguo_cli.rulesets.linguomancy.idioms import add_dice

    assert add_dice(parse("2d6ro1"), parse("1d6"), 2).text() == "2d6ro1+2d6"
    assert add_dice(parse("2d4+1"), parse("1d4"), 2).text() == "4d4+1"
    tree = add_dice(parse("(1d4+1)*2"), parse("1d4-1"), 2)
    assert tree.text() == "(1d4+1)*2+(1d4-1)+(1d4-1)"
    assert tree.expected_value() == 7 + 2 * Fraction(3, 2)


def test_readme_roll_lines_run() -> None:
    import shlex

    from ..conftest import ROOT

    lines = [line.split("  #")[0] for line in (ROOT / "README.md").read_text(
        encoding="utf-8").splitlines() if line.startswith("linguo roll ")]
    assert len(lines) >= 5
    for line in lines:
        args = shlex.split(line)[1:]
        run = run_cli(*args)
        assert run.exit_code == (3 if "10d10>7" in line else 0), (line, run.stderr)
    assert "= 14" in run_cli("roll", "4d6dl1", "--rolls", "3,5,1,6").stdout
