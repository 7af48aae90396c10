"""Writing state files: comments kept, nothing written on failure, and no torn
file when the process is killed in the middle of --in-place writes."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..conftest import ROOT, run_cli

COMMENTED = """\
# Session 12 - the bridge
description: bridge fight   # trailing comment
entities:
# the party
- id: ayla
  name: Ayla
  kind: player
  hp: 12        # after the trap
  max_hp: 20
- id: troll
  kind: enemy
  hp: 30
  max_hp: 30
  vulnerabilities: [fire]   # torches!
"""


@pytest.fixture
def state(tmp_path: Path) -> Path:
    p = tmp_path / "state.yaml"
    p.write_text(COMMENTED, encoding="utf-8")
    return p


def test_in_place_keeps_comments_and_order(state: Path) -> None:
    r = run_cli("damage", "--tick", "low", "--dice", "2d6", "--type", "fire", "--state",
                str(state), "--target", "troll", "--rolls", "3,4", "--in-place")
    assert r.exit_code == 0, r.stderr
    text = state.read_text(encoding="utf-8")
    # 7 fire doubled by the vulnerability: 30 -> 16; only that line changes
    assert text == COMMENTED.replace("  hp: 30\n", "  hp: 16\n")


def test_in_place_twice_accumulates(state: Path) -> None:
    for _ in range(2):
        r = run_cli("damage", "--tick", "tiny", "--dice", "1d4", "--state", str(state),
                    "--target", "ayla", "--rolls", "4", "--in-place")
        assert r.exit_code == 0, r.stderr
    assert re.search(r"\n  hp: 4 +# after the trap\n", state.read_text())


@pytest.mark.parametrize("args", [
    ["damage", "--tick", "low", "--dice", "3d6", "--rolls", "1,1,1"],  # T3: exit 4
    ["damage", "--tick", "low", "--dice", "2d6", "--rolls", "1"],  # too few faces: 3
    ["damage", "--tick", "low", "--dice", "2d6", "--rolls", "1,1,1"],  # faces left: 3
    ["heal", "--tick", "resurrection", "--amount", "3", "--rolls", ""],  # bad rolls: 2
])
def test_failed_request_writes_nothing(state: Path, tmp_path: Path, args: list[str]) -> None:
    before = state.read_bytes()
    stamp = state.stat().st_mtime_ns
    out = tmp_path / "out.yaml"
    for where in (["--in-place"], ["-o", str(out)]):
        r = run_cli(*args, "--state", str(state), "--target", "ayla", *where)
        assert r.exit_code in (2, 3, 4), r.stdout
        assert r.stdout == ""
    assert state.read_bytes() == before and state.stat().st_mtime_ns == stamp
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["state.yaml"]  # no temporary left


def test_death_save_refused_writes_nothing(state: Path) -> None:
    before = state.read_bytes()
    r = run_cli("death-save", str(state), "--entity", "ayla", "--rolls", "15", "--in-place")
    assert r.exit_code == 4
    assert state.read_bytes() == before


LOOP = """
import sys
from typer.testing import CliRunner
from linguo_cli.cli.app import app
path = sys.argv[1]
runner = CliRunner()
print("ready", flush=True)
while True:
    for cmd in (["damage", "--tick", "tiny", "--dice", "1d4", "--rolls", "1"],
                ["heal", "--tick", "tiny", "--dice", "1d4", "--rolls", "1"]):
        r = runner.invoke(app, cmd + ["--state", path, "--target", "e0", "--in-place"])
        if r.exit_code != 0:
            print(r.stderr, file=sys.stderr, flush=True)
            sys.exit(1)
"""


def _big_state(n: int) -> str:
    lines = ["# a large state so that each write takes a while", "entities:"]
    for i in range(n):
        lines += [f"- id: e{i}   # entity {i}", "  kind: enemy", "  hp: 50", "  max_hp: 100"]
    return "\n".join(lines) + "\n"


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_in_place_writes_never_tears(tmp_path: Path) -> None:
    """A process killed (SIGKILL) at random moments while it keeps rewriting the
    state --in-place leaves a file that parses and is the old or the new state
    (each round starts from the same file, so the two are known exactly)."""
    from linguo_cli.io.read import parse
    from linguo_cli.rulesets.linguomancy.state import SCHEMAS

    path = tmp_path / "state.yaml"
    original = _big_state(400)
    path.write_text(original, encoding="utf-8")
    # the only two contents a complete write can leave: e0 at 50 or at 49 HP
    valid = {original, original.replace("- id: e0   # entity 0\n  kind: enemy\n  hp: 50",
                                        "- id: e0   # entity 0\n  kind: enemy\n  hp: 49", 1)}
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    delays = [0.05, 0.13, 0.21, 0.34, 0.08, 0.29]
    for delay in delays:
        # each round starts from the original: a kill that lands between the damage
        # and the heal leaves 49 HP, and the next round must not start from there
        path.write_text(original, encoding="utf-8")
        proc = subprocess.Popen([sys.executable, "-c", LOOP, str(path)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == b"ready"
            time.sleep(delay + 0.4)
        finally:
            proc.send_signal(signal.SIGKILL)
            _, err = proc.communicate()
        assert proc.returncode == -signal.SIGKILL, err.decode()
        text = path.read_text(encoding="utf-8")
        assert text in valid
        doc = parse(text, str(path))
        SCHEMAS.validate(doc, "state")
    # leftovers of killed writes are temporary files, never the state itself
    for p in tmp_path.iterdir():
        assert p.name == "state.yaml" or (p.name.startswith(".linguo-")
                                          and p.name.endswith(".tmp"))


@pytest.mark.parametrize("dash", ["  - ", "- "])
def test_in_place_keeps_the_files_list_indentation(tmp_path: Path, dash: str) -> None:
    pad = " " * len(dash)
    text = (f"# a table's state\nentities:\n{dash}id: gob   # the goblin\n{pad}kind: enemy\n"
            f"{pad}hp: 7\n{pad}max_hp: 7\n{pad}resistances:\n{pad}{dash}fire\n")
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    run = run_cli("damage", "--state", str(path), "--target", "gob", "--dice", "1d4",
                  "--tick", "tiny", "--rolls", "2", "--in-place")
    assert run.exit_code == 0, run.stderr
    # 1d4 = 2 damage, tiny tick: 7 -> 5 HP; nothing else of the text changes
    assert path.read_text(encoding="utf-8") == text.replace("hp: 7\n", "hp: 5\n", 1)
