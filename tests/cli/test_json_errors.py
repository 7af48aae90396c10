"""With ``--json`` a failed command also prints the error object on stdout
(issue 21; README "Exit codes"): ``{"error": {"exit", "code", "rule",
"place", "message"}}`` as one line where the result would have gone, while
the diagnostic stays one ``linguo: error: ...`` line on stderr."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT, Run, run_cli

STATE = str(ROOT / "examples" / "state.yaml")


def _error(run: Run) -> dict[str, Any]:
    """The error object of a failed ``--json`` run, checked for its form."""
    lines = run.stdout.splitlines()
    assert len(lines) == 1, run.stdout
    obj = json.loads(lines[0])
    assert list(obj) == ["error"]
    error: dict[str, Any] = obj["error"]
    assert list(error) == ["exit", "code", "rule", "place", "message"]
    assert error["exit"] == run.exit_code
    diagnostics = run.stderr.splitlines()
    assert diagnostics and all(d.startswith("linguo: error: ") for d in diagnostics)
    shown = "linguo: error: " + error["message"]
    assert diagnostics[0] == shown or (diagnostics[0].startswith(f"{shown} (see 'linguo ")
                                       and diagnostics[0].endswith(" --help')")), diagnostics
    return error


def test_rules_violation_exit_4_names_its_rule() -> None:
    run = run_cli("check", "--dc", "15", "--noun", "Fire", "--rolls", "12", "--json")
    assert run.exit_code == 4
    error = _error(run)
    assert (error["code"], error["rule"], error["place"]) == (None, "D7", None)
    assert "Fire" in error["message"]


def test_illegal_turn_step_exit_4_gives_turn_and_step_as_place(tmp_path: Path) -> None:
    # P2: difficult terrain costs double; 40 m is far more than Ayla's 12 m.
    turns = tmp_path / "turns.yaml"
    turns.write_text("turns:\n"
                     "  - entity: ayla\n"
                     "    steps:\n"
                     "      - {kind: end_turn}\n"
                     "  - entity: ogre\n"
                     "    steps:\n"
                     "      - {kind: move, metres: 1}\n"
                     "      - {kind: move, metres: 40, terrain: difficult}\n",
                     encoding="utf-8")
    state = ROOT / "examples" / "encounter" / "state.yaml"
    run = run_cli("turn", str(state), str(turns), "--check", "--json")
    assert run.exit_code == 4
    error = _error(run)
    assert (error["code"], error["rule"], error["place"]) == (None, "P2", "turn 2, step 2")
    assert error["message"].startswith("turn 2, step 2: ")


def test_invalid_input_exit_3_gives_its_place(tmp_path: Path) -> None:
    doc = tmp_path / "req.yaml"
    doc.write_text('kind: check\ndc: "15"\n', encoding="utf-8")
    run = run_cli("resolve", str(doc), "--json")
    assert run.exit_code == 3
    error = _error(run)
    assert error["place"] == f"{doc}:2:5"  # line 2, the value after "dc: "
    assert error["rule"] is None and "dc" in error["message"]


def test_invalid_input_from_options_exit_3() -> None:
    run = run_cli("damage", "--tick", "low", "--dice", "2d6", "--state", STATE,
                  "--target", "nobody", "--rolls", "1,2", "--json")
    assert run.exit_code == 3
    error = _error(run)
    assert error["place"] == "<options>" and "nobody" in error["message"]


@pytest.mark.parametrize("args", [
    ("check", "--dc", "x", "--json"),                           # Click: a bad value
    ("check", "--dc", "5", "--bogus", "--json"),                # Click: an unknown option
    ("check", "--json", "--dc", "5", "--rolls", "0"),           # a bad --rolls list
    ("check", "--dc", "5", "--rolls", "3", "--seed", "4", "--json"),  # linguo's UsageError
    ("chek", "--json"),                                         # no such command
])
def test_usage_error_exit_2(args: tuple[str, ...]) -> None:
    run = run_cli(*args)
    assert run.exit_code == 2
    error = _error(run)
    assert (error["code"], error["rule"], error["place"]) == (None, None, None)


def test_internal_error_exit_5(monkeypatch: pytest.MonkeyPatch) -> None:
    from linguo_cli.core import requests

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a planted bug")

    monkeypatch.setattr(requests, "resolve_typed", broken)
    run = run_cli("check", "--dc", "5", "--rolls", "12", "--json")
    assert run.exit_code == 5
    error = _error(run)
    assert error["message"] == "internal error: RuntimeError: a planted bug"


@pytest.mark.parametrize("args", [
    ("check", "--dc", "15", "--noun", "Fire", "--rolls", "12"),
    ("check", "--dc", "x"),
    ("ticks", "3d6", "--tick", "low"),
])
def test_without_json_stdout_stays_empty(args: tuple[str, ...]) -> None:
    run = run_cli(*args)
    assert run.exit_code in (2, 4) and run.stdout == ""
    assert run.stderr.startswith("linguo: error: ")


def test_json_as_an_option_value_is_not_the_flag(tmp_path: Path) -> None:
    """``golden export --json DIR`` (the old spelling) takes a value: a
    failing export is not asked for JSON."""
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    run = run_cli("golden", "export", "--json", str(blocker))
    assert run.exit_code == 2 and run.stdout == ""
    assert "linguo: error: " in run.stderr


def test_a_successful_json_run_prints_only_its_result() -> None:
    run = run_cli("check", "--dc", "15", "--rolls", "12", "--json")
    assert run.exit_code == 0 and "error" not in run.json()


def test_json_as_an_option_value_is_not_the_flag_after_reading_either() -> None:
    """An error of the command itself (exit 3 here: no such suite folder)
    when ``--json`` was only ``golden export``'s old folder option."""
    run = run_cli("golden", "export", "--json", "/nonexistent-out", "/nonexistent-suite")
    assert run.exit_code == 3 and run.stdout == ""
