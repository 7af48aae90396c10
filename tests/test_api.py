"""The Python API (``import linguo_cli``): the README's examples as doctests,
the helpers against the command line's JSON for the same options, the checks
of untrusted mappings, state loading and writing, and a cheap import."""

from __future__ import annotations

import doctest
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import linguo_cli
from linguo_cli.core.errors import DiceError, InputError, RulesError, UsageError

from .conftest import ROOT, run_cli

# ---------------------------------------------------------------------------
# README "Python API": every ```python block runs as a doctest


def readme_python_blocks() -> str:
    """The ```python blocks of README.md, joined (one doctest text)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return "\n".join(re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M))


def test_readme_python_examples_run_as_doctests(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = readme_python_blocks()
    assert blocks.count(">>>") >= 10
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(blocks, {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)
    assert result.attempted == blocks.count(">>>")


# ---------------------------------------------------------------------------
# The helpers give what the command line gives for the same options


def cli_json(*args: str) -> Any:
    run = run_cli(*args, "--json")
    assert run.exit_code == 0, run.stderr
    return run.json()


@pytest.mark.parametrize(("call", "argv"), [
    (lambda: linguo_cli.check(15, mods={"strength": 3, "bless": 2}, rolls=[12]),
     ["check", "--mod", "strength=3", "--mod", "bless=2", "--dc", "15", "--rolls", "12"]),
    (lambda: linguo_cli.check(30, mods=[3], rolls=[20]),
     ["check", "--mod", "3", "--dc", "30", "--rolls", "20"]),
    (lambda: linguo_cli.check(12, noun="Fire", knows=["Shape - Fire"], dis=True, rolls=[9, 14]),
     ["check", "--dc", "12", "--noun", "Fire", "--knows", "Shape - Fire", "--dis",
      "--rolls", "9,14"]),
    (lambda: linguo_cli.attack(15, mods=["signature=5"], adv=True, rolls=[4, 17]),
     ["attack", "--mod", "signature=5", "--ac", "15", "--adv", "--rolls", "4,17"]),
    (lambda: linguo_cli.attack(None), ["attack", "--no-ac"]),
    (lambda: linguo_cli.attack(21, partial_success_hits=True, rolls=[11]),
     ["attack", "--ac", "21", "--ruling", "partial-success-hits", "--rolls", "11"]),
    (lambda: linguo_cli.save(14, mods=[("constitution", 1)], rolls=[9]),
     ["save", "--mod", "constitution=1", "--dc", "14", "--rolls", "9"]),
    (lambda: linguo_cli.save(14, no_ability=True), ["save", "--dc", "14", "--no-ability"]),
    (lambda: linguo_cli.damage("Strong", "4d6", mods={"potential": 2, "rage": 1}, crit=True,
                               damage_type=" Fire", rolls=[3, 3, 4, 6, 1, 2, 5, 6]),
     ["damage", "--tick", "Strong", "--dice", "4d6", "--mod", "potential=2", "--mod",
      "rage=1", "--crit", "--type", " Fire", "--rolls", "3,3,4,6,1,2,5,6"]),
])
def test_helpers_match_the_command_line(call: Any, argv: list[str]) -> None:
    assert call() == cli_json(*argv)


def test_damage_on_a_state_file_matches_the_command_line() -> None:
    state = str(ROOT / "examples" / "state.yaml")
    got = linguo_cli.damage("moderate", "2d6+3", nonlethal=True, state=state,
                            targets=["goblin"], rolls=[2, 3])
    assert got == cli_json("damage", "--tick", "moderate", "--dice", "2d6+3", "--nonlethal",
                           "--state", state, "--target", "goblin", "--rolls", "2,3")


def test_cast_and_turn_match_the_command_line() -> None:
    state = str(ROOT / "examples" / "cast-state.yaml")
    got = linguo_cli.cast(state, caster="ayla", idiom="Hurl - Fire", upcast=2,
                          targets=["goblin"], rolls=[14, 3, 5])
    assert got == cli_json("cast", state, "--caster", "ayla", "--idiom", "Hurl - Fire",
                           "--upcast", "2", "--target", "goblin", "--rolls", "14,3,5")
    enc = ROOT / "examples" / "encounter"
    doc = state_plain(enc / "turns.yaml")  # the turns document, read as the CLI reads it
    got = linguo_cli.turn(str(enc / "state.yaml"), doc["turns"], rolls=doc["rolls"])
    cli = run_cli("turn", str(enc / "state.yaml"), str(enc / "turns.yaml"), "--json")
    assert cli.exit_code == 0, cli.stderr
    assert got == cli.json()
    checked = linguo_cli.turn(str(enc / "state.yaml"), doc["turns"][:1], check=True)
    assert checked["rolls_used"] == []


def test_resolve_is_linguo_resolve() -> None:
    request = json.loads(json.dumps(
        state_plain(ROOT / "examples" / "check.yaml")))
    assert linguo_cli.resolve(request, rolls=[12]) == cli_json(
        "resolve", str(ROOT / "examples" / "check.yaml"), "--rolls", "12")
    seeded = linguo_cli.resolve(request, seed=42)
    assert seeded == linguo_cli.resolve(request, rolls=seeded["rolls_used"])


def state_plain(path: Path) -> Any:
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import load

    return to_plain(load(str(path)).data)


# ---------------------------------------------------------------------------
# Errors: the command line's, each with its exit code


def test_errors_and_exit_codes() -> None:
    with pytest.raises(RulesError) as rules:
        linguo_cli.check(15, noun="Fire", rolls=[12])
    assert (rules.value.code, rules.value.rule) == (4, "D7")
    assert linguo_cli.error_object(rules.value)["rule"] == "D7"
    with pytest.raises(DiceError) as dice:
        linguo_cli.check(15, rolls=[12, 3])
    assert dice.value.code == 3
    with pytest.raises(UsageError) as usage:
        linguo_cli.check(15, rolls=[12], seed=1)
    assert usage.value.code == 2
    with pytest.raises(UsageError):
        linguo_cli.damage("low", "2d6", targets=["goblin"])
    with pytest.raises(UsageError):
        linguo_cli.check(15, mods=["strength=x"])
    assert linguo_cli.EXIT_CODES[4] == "rules violation"
    assert issubclass(linguo_cli.InputError, linguo_cli.LinguoError)


@pytest.mark.parametrize(("request_", "line"), [
    ({"kind": "check", "dc": "15"}, "<request>: dc: '15' is not of type 'integer'"),
    ({"kind": "check", "dc": float("nan")},
     "<request>: dc: NaN is not a number linguo accepts (JSON has no NaN)"),
    ({"kind": "check", "dc": 10**25}, "<request>: dc: integer with more than 20 digits"),
    ({"kind": "check", "dc": 15, 1: 2},
     "<request>: (document): key 1 is not a string (keys are strings)"),
    ({"kind": "check", "dc": 15, "modifiers": {1, 2}},
     "<request>: modifiers: a set has no JSON form"),
    ({"kind": "check", "dc": 15, "noun": "a\x1bb"},
     "<request>: noun: string holds control character U+001B"),
    ({"kind": "dance"}, "<request>: kind:"),
    ([1, 2], "<request>: (document): a request is a mapping"),
])
def test_untrusted_requests_are_checked(request_: Any, line: str) -> None:
    with pytest.raises(InputError) as exc:
        linguo_cli.resolve(request_)
    assert exc.value.code == 3
    assert exc.value.lines()[0].startswith(line), exc.value.lines()


def test_deep_requests_are_refused() -> None:
    deep: Any = 1
    for _ in range(200):
        deep = [deep]
    with pytest.raises(InputError, match="nested deeper than 64 levels"):
        linguo_cli.resolve({"kind": "check", "dc": 15, "modifiers": deep})


def test_inline_state_is_checked_by_the_state_rules() -> None:
    state = linguo_cli.load_state(ROOT / "examples" / "state.yaml")
    state["entities"][0]["hp"] = 1000  # above max_hp: V1
    with pytest.raises(InputError) as exc:
        linguo_cli.damage("low", "2d6", state=state, targets=["goblin"], rolls=[1, 2])
    assert "state.entities[0]" in exc.value.lines()[0]


def test_state_file_errors_have_file_places(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("entities:\n- id: a\n  kind: player\n  hp: 5\n  max_hp: three\n")
    with pytest.raises(InputError) as exc:
        linguo_cli.load_state(bad)
    assert exc.value.lines()[0].startswith(f"{bad}:5:11: entities[0].max_hp:")


# ---------------------------------------------------------------------------
# Writing states


def test_write_state_edits_only_what_changed(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    shutil.copy(ROOT / "examples" / "state.yaml", path)
    before = path.read_text()
    result = linguo_cli.damage("low", "2d6", state=path, targets=["elemental"], rolls=[1, 1])
    linguo_cli.write_state(path, result["state"])
    after = path.read_text()
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True)
               if a != b]
    assert len(changed) == 1 and "hp: 40" in changed[0][0] and "hp: 38" in changed[0][1]
    assert [e["hp"] for e in linguo_cli.load_state(path)["entities"]] == [18, 0, 7, 38]
    assert not list(tmp_path.glob(".linguo-*.tmp"))
    fewer = dict(result["state"], entities=result["state"]["entities"][:2], round=2)
    linguo_cli.write_state(path, fewer)
    assert linguo_cli.load_state(path) == fewer
    assert path.read_text().startswith(before.splitlines()[0])


def test_write_state_new_files(tmp_path: Path) -> None:
    state = {"entities": [{"id": "a", "kind": "player", "hp": 3, "max_hp": 5}]}
    linguo_cli.write_state(tmp_path / "new.json", state)
    assert json.loads((tmp_path / "new.json").read_text()) == state
    linguo_cli.write_state(tmp_path / "new.yaml", state)
    assert linguo_cli.load_state(tmp_path / "new.yaml") == state


def test_write_state_refuses_an_invalid_state(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    with pytest.raises(InputError, match="<state>"):
        linguo_cli.write_state(path, {"entities": [{"id": "a", "hp": 3}]})
    assert not path.exists()


# ---------------------------------------------------------------------------
# import linguo_cli is cheap


def test_import_is_lazy() -> None:
    code = ("import sys, linguo_cli; "
            "print(sorted(m for m in sys.modules if m.startswith(('linguo_cli', 'jsonschema', "
            "'ruamel', 'typer', 'rich')))); "
            "linguo_cli.check; print('linguo_cli.api' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["['linguo_cli']", "True"]
    assert set(linguo_cli.__all__) <= set(dir(linguo_cli))
    with pytest.raises(AttributeError):
        _ = linguo_cli.no_such_name  # type: ignore[attr-defined]
