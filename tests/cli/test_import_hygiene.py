"""One-off commands import only what they use (issue 16's start-up budget).

Each command runs in a fresh interpreter, its output a pipe (no terminal, as
in a script or the benchmark), and reports every module it imported; the
test fails when a command imports a heavy library or another ruleset's code
it does not need, e.g. after someone adds an eager import at the top of a
module on its path. What each command may not import, and why:

- Rich: text output that is not a terminal is written by the plain writer
  (linguo_cli/core/textout.py); only odds, ticks and terminals need Rich.
- jsonschema (and its accelerator), ruamel.yaml: a one-off check's request
  is built from options that enforce its schema; no file is read.
- other rulesets, the conformance layer: a Linguomancy command never scans
  or loads them.
- state code (entities, conditions: ``linguomancy.model``), dice notation
  (``core.dice``), exact fractions, ``random`` (scripted dice), state writing,
  error places (``io.places``) and ``importlib.resources``: a check needs none.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Runs ``linguo ARGS`` in this interpreter and prints the imported modules
#: (as JSON, on stderr's last line) when it exits.
_PROBE = """
import atexit, json, sys
atexit.register(lambda: sys.__stderr__.write("\\n" + json.dumps(sorted(sys.modules)) + "\\n"))
sys.argv = ["linguo", *sys.argv[1:]]
from linguo_cli.cli.app import main
main()
"""

HEAVY = ("rich", "jsonschema", "jsonschema_rs", "ruamel", "yaml")
OTHER_RULESETS = ("linguo_cli.rulesets.novence_eternal", "linguo_cli.rulesets.ptr2e")
CHECK_ONLY = (*HEAVY, *OTHER_RULESETS, "linguo_cli.conformance", "linguo_cli.api",
              "linguo_cli.rulesets.linguomancy.model", "linguo_cli.core.entity",
              "linguo_cli.core.conditions", "linguo_cli.io.write", "linguo_cli.io.schema",
              "linguo_cli.io.places", "linguo_cli.core.dice", "fractions", "random",
              "importlib.resources")


def imported(*args: str) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """The modules ``linguo ARGS`` imported (its stdout a pipe), and the run."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "PYTHONPROFILEIMPORTTIME")}
    run = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                         text=True, cwd=ROOT, env=env, timeout=120)
    return json.loads(run.stderr.strip().splitlines()[-1]), run


def offenders(modules: list[str], forbidden: tuple[str, ...]) -> list[str]:
    """The modules of ``modules`` that are, or are inside, one of ``forbidden``."""
    return [m for m in modules if any(m == f or m.startswith(f + ".") for f in forbidden)]


@pytest.mark.parametrize("args", [
    ("check", "--mod", "5", "--dc", "15", "--rolls", "12"),
    ("check", "--mod", "5", "--dc", "15", "--rolls", "12", "--json"),
    ("check", "--mod", "5", "--dc", "15", "--rolls", "12", "--explain"),
    ("attack", "--mod", "signature=5", "--ac", "15", "--adv", "--rolls", "4,17"),
    ("save", "--dc", "14", "--rolls", "9", "--json"),
])
def test_a_one_off_check_imports_nothing_it_does_not_use(args: tuple[str, ...]) -> None:
    modules, run = imported(*args)
    assert run.returncode == 0, run.stderr
    assert run.stdout  # it did print its result
    assert "linguo_cli.rulesets.linguomancy.checks" in modules  # the probe saw the command
    assert offenders(modules, CHECK_ONLY) == []


@pytest.mark.parametrize(("args", "forbidden"), [
    (("damage", "--tick", "low", "--dice", "2d6", "--rolls", "3,4"),
     ("rich", "ruamel", *OTHER_RULESETS, "linguo_cli.conformance")),
    (("turn", "examples/encounter/state.yaml", "examples/encounter/turns.yaml"),
     ("rich", *OTHER_RULESETS, "linguo_cli.conformance")),
    (("novence", "attack", "--to-hit", "7", "--ac", "15", "--damage", "2d8:kinetic",
      "--rolls", "12,4,5"),
     ("rich", "ruamel", "linguo_cli.conformance", "linguo_cli.rulesets.linguomancy.checks",
      "linguo_cli.rulesets.ptr2e.commands")),
    (("verify", "--help"), (*HEAVY, *OTHER_RULESETS)),
])
def test_other_one_off_commands_stay_lean(args: tuple[str, ...],
                                          forbidden: tuple[str, ...]) -> None:
    modules, run = imported(*args)
    assert run.returncode == 0, run.stderr
    assert run.stdout
    assert any(m.startswith("linguo_cli.") for m in modules)
    assert offenders(modules, forbidden) == []


def test_the_probe_sees_a_heavy_import() -> None:
    """The check above can fail: a command that needs Rich (odds as text)
    is reported with it."""
    modules, run = imported("odds", "check", "--mod", "5", "--dc", "15")
    assert run.returncode == 0, run.stderr
    assert "rich" in offenders(modules, CHECK_ONLY)
