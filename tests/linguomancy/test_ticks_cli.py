"""``linguo ticks``: expected value, conforming ticks (T1-T3) and dice suggestions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from linguo_cli.core.dice import parse
from linguo_cli.rulesets.linguomancy import ticks as tick_design
from linguo_cli.rulesets.linguomancy.ticks import get_tick, tables

from ..conftest import run_cli


def test_acceptance_2d6_plus_1() -> None:
    # 2d6 averages 7, +1 = 8: the upper bound of Low (4-8) and the lower bound
    # of Moderate (8-12); healing Low (4-8) and Moderate (8-15) likewise.
    run = run_cli("ticks", "2d6+1", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert r["expected_value"] == "8"
    assert (r["minimum"], r["maximum"]) == (3, 13)
    assert r["damage_ticks"] == ["low", "moderate"]
    assert r["healing_ticks"] == ["low", "moderate"]
    assert r["rolls_used"] == []
    for tick in ("low", "moderate"):
        run = run_cli("ticks", "2d6+1", "--tick", tick, "--json")
        assert run.exit_code == 0, run.stderr
        assert run.json()["tick"]["conforming"] is True


def test_acceptance_3d6_is_not_low() -> None:
    # 3d6 averages 21/2, above Low's 8.
    run = run_cli("ticks", "3d6", "--tick", "low")
    assert run.exit_code == 4
    assert "T3" in run.stderr and "21/2" in run.stderr
    assert run_cli("ticks", "3d6", "--tick", "moderate").exit_code == 0
    # Healing Moderate is 8-15: 21/2 conforms there.
    assert run_cli("ticks", "3d6", "--tick", "moderate", "--healing").exit_code == 0


@pytest.mark.parametrize("dice,ev,damage,healing", [
    ("1d4", "5/2", ["tiny"], ["tiny"]),
    ("0", "0", ["none"], ["none"]),
    ("4d6kh3", "15869/1296", ["strong"], ["moderate"]),  # about 12.24
    ("20d10", "110", ["ultimate"], ["multiple_regrowth"]),
    ("1d4-5", "-5/2", [], []),
    ("10d6", "35", ["severe"], ["small_mending"]),
])
def test_expected_values_and_ticks(dice: str, ev: str, damage: list[str],
                                   healing: list[str]) -> None:
    run = run_cli("ticks", dice, "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert (r["expected_value"], r["damage_ticks"], r["healing_ticks"]) == (ev, damage, healing)


def test_tick_without_dice_range_takes_no_dice() -> None:
    assert run_cli("ticks", "2d6", "--healing", "--tick", "complete").exit_code == 4


def test_text_output() -> None:
    run = run_cli("ticks", "2d6+1", "--tick", "moderate", "--explain")
    assert run.exit_code == 0, run.stderr
    assert "Low (4-8), Moderate (8-12)" in run.stdout
    assert "Conforms" in run.stdout and "[T3]" in run.stdout


def test_suggest_moderate_by_hand() -> None:
    # Middle 10. Exactly 10 with one kind: 2d8+1, 2d6+3, 2d4+5 (two dice), 4d4
    # (four dice); then two kinds, two dice: S1 + S2 = 18 - 2c.
    run = run_cli("ticks", "--suggest", "moderate", "--json")
    assert run.exit_code == 0, run.stderr
    s = run.json()["suggestions"]
    assert s["target"] == "10"
    assert [d["dice"] for d in s["dice"]] == [
        "2d8+1", "2d6+3", "2d4+5", "4d4", "1d12+1d6", "1d10+1d8", "1d12+1d4+1",
        "1d10+1d6+1", "1d10+1d4+2", "1d8+1d6+2"]
    assert {d["distance"] for d in s["dice"]} == {"0"}


def test_suggest_low_by_hand() -> None:
    # Middle 6: only 2d4+1 and 1d6+1d4 hit it exactly; then one die off by 1/2
    # ((S + 1)/2 + c is 5.5 or 6.5): constant 0: d12, d10; 1: d10, d8; 2: d8, d6;
    # 3: d6, d4 (larger dice first); 1d4+4 is the eleventh.
    run = run_cli("ticks", "--suggest", "low", "--json")
    dice = [d["dice"] for d in run.json()["suggestions"]["dice"]]
    assert dice == ["2d4+1", "1d6+1d4", "1d12", "1d10", "1d10+1", "1d8+1", "1d8+2", "1d6+2",
                    "1d6+3", "1d4+3"]


def test_suggest_unbounded_and_diceless_ticks() -> None:
    # Ultimate: no upper bound, aim at 100; 8d20+16 = 84 + 16 is the fewest dice.
    r = run_cli("ticks", "--suggest", "ultimate", "--limit", "3", "--json").json()
    assert r["suggestions"]["target"] == "100"
    assert [d["dice"] for d in r["suggestions"]["dice"]] == ["8d20+16", "14d12+9", "16d10+12"]
    r = run_cli("ticks", "--suggest", "none", "--json").json()
    assert [d["dice"] for d in r["suggestions"]["dice"]] == ["0"]
    run = run_cli("ticks", "--suggest", "resurrection", "--healing", "--json")
    assert run.exit_code == 0
    assert run.json()["suggestions"]["dice"] == []
    assert run.json()["suggestions"]["target"] is None


@pytest.mark.parametrize("healing", [False, True])
def test_every_suggestion_conforms_and_is_ordered(healing: bool) -> None:
    for tick in tables()["healing" if healing else "damage"]:
        found = tick_design.suggest_dice(tick)
        assert len(found.dice) <= tick_design.SUGGEST_LIMIT
        if tick.has_range:
            assert found.dice, tick.name
        distances = [s.distance for s in found.dice]
        assert distances == sorted(distances)
        for s in found.dice:
            expr = parse(s.expression.text())
            assert expr.expected_value() == s.expected_value
            assert tick.conforms(s.expected_value) and tick.has_range
            assert len(expr.terms) <= 2 and expr.constant >= 0
            assert s.distance == abs(s.expected_value - found.target)  # type: ignore[operator]


def test_suggest_never_misses_a_closer_candidate() -> None:
    # Brute force over the documented family for the Tiny tick (middle 5/2).
    tick = get_tick("tiny")
    best = min(
        abs(Fraction(n * (s + 1), 2) + c - Fraction(5, 2))
        for s in tick_design.SUGGEST_SIDES for n in range(1, 5) for c in range(0, 5)
        if tick.conforms(Fraction(n * (s + 1), 2) + c))
    assert tick_design.suggest_dice(tick).dice[0].distance == best
    assert tick_design.suggest_dice(tick).dice[0].expression.text() == "1d4"


@pytest.mark.parametrize("args,code", [
    ([], 2),
    (["--tick", "low"], 2),
    (["2d6+"], 3),
    (["2d6", "--tick", "gigantic"], 3),
    (["--suggest", "gigantic"], 3),
    (["2d6", "--limit", "0", "--suggest", "low"], 2),
])
def test_errors(args: list[str], code: int) -> None:
    run = run_cli("ticks", *args)
    assert run.exit_code == code, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr


def test_resolve_ticks_request() -> None:
    run = run_cli("resolve", "-", "--json", input='{"kind": "ticks", "dice": "1d8+1d4", '
                  '"suggest": "strong", "healing": true, "limit": 2}')
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert r["expected_value"] == "7"
    assert len(r["suggestions"]["dice"]) == 2
    assert r["suggestions"]["healing"] is True


def _documented_examples() -> list[list[str]]:
    """``linguo odds ...`` and ``linguo ticks ...`` lines of the README tour and
    of the commands' help epilogs."""
    import shlex

    from typer.main import get_command

    from linguo_cli.cli.app import app

    from ..cli.test_help_examples import help_examples
    from ..conftest import ROOT

    lines = [line.split("#")[0] for line in (ROOT / "README.md").read_text(
        encoding="utf-8").splitlines() if line.startswith(("linguo odds ", "linguo ticks "))]
    import click

    group = get_command(app)
    # The groups build a command only when asked for it (cli/lazy.py).
    ctx = click.Context(group)
    epilogs = [group.get_command(ctx, "ticks").epilog or ""]  # type: ignore[attr-defined]
    odds_group = group.get_command(ctx, "odds")  # type: ignore[attr-defined]
    odds_ctx = click.Context(odds_group, parent=ctx)
    epilogs += [odds_group.get_command(odds_ctx, name).epilog or ""
                for name in odds_group.list_commands(odds_ctx)]
    for epilog in epilogs:
        lines += [line.split("#")[0] for line in help_examples(epilog)]
    return [shlex.split(line)[1:] for line in lines]


def test_documented_examples_run() -> None:
    examples = _documented_examples()
    assert len(examples) >= 10
    for args in examples:
        run = run_cli(*args)
        expected = 4 if args[:3] == ["ticks", "3d6", "--tick"] else 0
        assert run.exit_code == expected, (args, run.stderr)


# ---------------------------------------------------------------------------
# T3 rev. 2: a tick formula needs at least one die (except the ticks that roll
# nothing: damage None; healing None, Complete, Resurrection).


def test_dieless_formula_is_not_a_dice_tick_roll() -> None:
    low, none = get_tick("low"), get_tick("none")
    assert low.nonconformity(parse("6")) is not None and not low.conforms(parse("6"))
    assert "die" in (low.nonconformity(parse("6")) or "")
    assert low.conforms(parse("1d4+3"))  # one die and the constant: 5.5 in 4-8
    assert none.conforms(parse("0"))  # the None tick rolls nothing
    assert get_tick("resurrection", healing=True).conforms(parse("5"))
    assert get_tick("complete", healing=True).conforms(parse("5"))
    assert not get_tick("none", healing=True).rolls_dice
    assert [t.name for t in tables()["damage"] if not t.rolls_dice] == ["none"]
    assert [t.name for t in tables()["healing"] if not t.rolls_dice] == [
        "none", "complete", "resurrection"]


@pytest.mark.parametrize("args", [
    ("damage", "--tick", "low", "--dice", "6"),
    ("heal", "--tick", "low", "--dice", "5"),
    ("ticks", "6", "--tick", "low"),
    ("ticks", "5", "--tick", "low", "--healing"),
    ("odds", "attack", "--ac", "10", "--damage-dice", "6", "--tick", "low"),
])
def test_dieless_formula_for_a_dice_tick_exits_4_citing_t3(args: tuple[str, ...]) -> None:
    run = run_cli(*args)
    assert run.exit_code == 4, run.stdout + run.stderr
    assert "T3" in run.stderr


def test_allow_nonconforming_lets_a_dieless_formula_through() -> None:
    run = run_cli("damage", "--tick", "low", "--dice", "6", "--allow-nonconforming", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()
    assert (r["amount"], r["conforming"], r["faces"]) == (6, False, [])
    assert r["warnings"] and "T3" in r["warnings"][0]


def test_dieless_formula_conforms_to_no_dice_tick() -> None:
    run = run_cli("ticks", "6", "--json")
    assert run.exit_code == 0, run.stderr
    assert (run.json()["damage_ticks"], run.json()["healing_ticks"]) == ([], [])
    zero = run_cli("ticks", "0", "--json").json()
    assert (zero["damage_ticks"], zero["healing_ticks"]) == (["none"], ["none"])


def test_dieless_formula_in_a_turn_attack_is_refused() -> None:
    from linguo_cli.core.errors import RulesError
    from linguo_cli.core.requests import resolve

    request = {
        "kind": "turn", "rolls": [15],
        "state": {"entities": [
            {"id": "a", "kind": "player", "hp": 10, "max_hp": 10},
            {"id": "g", "kind": "enemy", "hp": 10, "max_hp": 10, "ac": 10}]},
        "turns": [{"entity": "a", "steps": [
            {"kind": "attack", "target": "g", "damage": {"dice": "6", "tick": "low"}}]}],
    }
    with pytest.raises(RulesError) as err:
        resolve(request)
    assert err.value.rule == "T3"


def test_dieless_formula_in_an_idiom_catalog_is_refused() -> None:
    from linguo_cli.core.errors import LinguoError
    from linguo_cli.core.requests import resolve

    idiom = {"name": "Poke - Stone", "verb": "Poke", "noun": "Stone", "flux_cost": 1,
             "hand_cost": 0, "effect": {"attack": {"ability": "potential"},
                                        "damage": {"tick": "low", "dice": "6",
                                                   "type": "bludgeoning"}}}
    request = {"kind": "cast", "caster": "a", "idiom": "Poke - Stone", "targets": ["g"],
               "idioms": [idiom], "rolls": [15],
               "state": {"entities": [
                   {"id": "a", "kind": "player", "hp": 10, "max_hp": 10, "flux": 5,
                    "idioms": ["Poke - Stone"]},
                   {"id": "g", "kind": "enemy", "hp": 10, "max_hp": 10, "ac": 10}]}}
    with pytest.raises(LinguoError) as err:
        resolve(request)
    assert "T3" in str(err.value) and "die" in str(err.value)
