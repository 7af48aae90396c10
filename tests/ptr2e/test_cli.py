"""``linguo ptr2e ...``: the commands, their errors and exit codes, and the
README's PTR lines run verbatim."""

from __future__ import annotations

import json
import shlex

from ..conftest import ROOT, run_cli


def test_skill_command() -> None:
    run = run_cli("ptr2e", "skill", "--skill", "55", "--cr", "challenging", "--rolls", "12",
                  "--json")
    assert run.exit_code == 0, run.stderr
    result = run.json()
    assert (result["dc"], result["success"], result["dos"], result["rolls_used"]) == (
        35, True, 3, [12])  # 55 - 20 = 35; floor(23 / 10) + 1 = 3
    text = run_cli("ptr2e", "skill", "--skill", "running=55", "--rolls", "36", "--explain")
    assert "running 55" in text.stdout and "DoF 1" in text.stdout and "[PS4]" in text.stdout


def test_activation_refusal_names_rule_and_code() -> None:
    assert run_cli("ptr2e", "activation", "simple", "simple").exit_code == 0
    run = run_cli("ptr2e", "activation", "simple", "complex", "--json")
    assert run.exit_code == 4
    error = json.loads(run.stdout)["error"]
    assert (error["exit"], error["code"], error["rule"], error["place"]) == (
        4, "budget_mixed", "PA2", "step 2")
    assert "step 2" in run.stderr and "budget_mixed" in run.stderr


def test_move_command_and_options() -> None:
    run = run_cli("ptr2e", "move", "--score", "overland=10", "--score", "fly=15",
                  "overland:3", "fly:4")
    assert run.exit_code == 0 and "{overland 7, fly 8}" in run.stdout
    cascade = run_cli("ptr2e", "move", "--score", "overland=10", "--score", "fly=15",
                      "fly:12", "overland:10", "--option", "movement_model=cascade", "--json")
    assert cascade.exit_code == 0 and cascade.json()["moved"] == 22
    pool = run_cli("ptr2e", "move", "--score", "overland=10", "--score", "fly=15",
                   "fly:12", "overland:10")
    assert pool.exit_code == 4 and "move_exceeds_allowance" in pool.stderr
    bad = run_cli("ptr2e", "move", "--score", "overland=10", "overland:1", "--option",
                  "movement_model=teleport", "--json")
    assert bad.exit_code == 3 and json.loads(bad.stdout)["error"]["code"] == "bad_option"
    unknown = run_cli("ptr2e", "move", "--score", "overland=10", "fly:1")
    assert unknown.exit_code == 3 and "unknown_movement_type" in unknown.stderr
    assert run_cli("ptr2e", "move", "--score", "overland", "overland:1").exit_code == 2
    assert run_cli("ptr2e", "move", "--score", "overland=10", "over").exit_code == 2


def test_rush_and_move_with_rush() -> None:
    run = run_cli("ptr2e", "rush", "--score", "overland=10", "--score", "fly=15", "--skill",
                  "running=55", "--type", "overland", "--rolls", "12")
    assert run.exit_code == 0 and "+3" in run.stdout and "{overland 13, fly 15}" in run.stdout
    ledger = run_cli("ptr2e", "move", "--score", "overland=10", "--score", "fly=15",
                     "--skill", "running=80", "fly:10", "rush:overland", "overland:6",
                     "--rolls", "9", "--json")
    assert ledger.exit_code == 0 and ledger.json()["allowances"] == {"overland": 0, "fly": 0}
    assert run_cli("ptr2e", "rush", "--score", "overland=10", "--type", "overland",
                   "--rolls", "12").exit_code == 4  # skill_missing: running not given


def test_priority_command() -> None:
    run = run_cli("ptr2e", "priority", "a:P2", "b:P2", "c:P5", "--speed", "a=80", "--speed",
                  "b=95", "--speed", "c=70", "--json")
    assert run.exit_code == 0 and run.json()["actors"] == ["c", "b", "a"]
    tie = run_cli("ptr2e", "priority", "a:P2", "b:P2", "--speed", "a=90", "--speed", "b=90")
    assert tie.exit_code == 4 and "tie_unresolved" in tie.stderr
    assert run_cli("ptr2e", "priority", "a:X2", "--speed", "a=1").exit_code == 2
    assert run_cli("ptr2e", "priority", "a:P2").exit_code == 2  # no Speed for a
    assert run_cli("ptr", "priority", "a:P2", "--speed", "a=3").exit_code == 0  # alias


def test_resolve_reads_a_ptr_request(tmp_path: object) -> None:
    request = {"ruleset": "ptr2e", "kind": "skill", "value": 55, "rolls": [12]}
    run = run_cli("resolve", "-", "--json", input=json.dumps(request))
    assert run.exit_code == 0 and run.json()["dos"] == 3
    request["stray"] = 1
    bad = run_cli("resolve", "-", "--json", input=json.dumps(request))
    assert bad.exit_code == 3 and json.loads(bad.stdout)["error"]["code"] == "bad_parameter"


def _readme_lines() -> list[tuple[list[str], int]]:
    out = []
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("linguo ptr2e "):
            command, _, comment = line.partition("#")
            code = 4 if "exit 4" in comment else 3 if "exit 3" in comment else 0
            out.append((shlex.split(command)[1:], code))
    return out


def test_readme_ptr_lines_run_verbatim() -> None:
    lines = _readme_lines()
    assert len(lines) >= 6
    for args, code in lines:
        run = run_cli(*args)
        assert run.exit_code == code, (args, run.stdout, run.stderr)


def test_every_command_shows_an_example_that_runs() -> None:
    for name in ("skill", "rush", "move", "activation", "priority"):
        help_text = " ".join(run_cli("ptr2e", name, "--help").stdout.split())
        assert "Example: linguo ptr2e " + name in help_text, name
        example = help_text.split("Example: ", 1)[1]
        command, _, comment = example.partition("#")
        args = shlex.split(command)[1:]
        args = args[: next((i for i, a in enumerate(args) if a == "Usage:"), len(args))]
        run = run_cli(*args)
        refused = "exit 4" in comment or "exits 4" in comment
        assert run.exit_code == (4 if refused else 0), (args, run.stderr)
