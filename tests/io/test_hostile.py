"""The hostile corpus (tests/hostile/manifest.yaml): every entry runs as its
own ``python -m linguo_cli`` process on a copy of its file and must end with
its exit code and message, one line per problem with its place, no
traceback, within 2 s of CPU beyond an empty run's start-up and 200 MB.

Time is measured as the child's CPU time (user + system, from ``wait4``)
minus that of a trivial run, so a loaded machine or a slow interpreter
start-up does not make the bound flaky; a wall-clock guard kills anything
that hangs. Memory is the child's peak resident set (``ru_maxrss``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from linguo_cli.io.document import to_plain
from linguo_cli.io.places import relocated
from linguo_cli.io.read import load, parse
from linguo_cli.rulesets.linguomancy.state import SCHEMAS, require_entity

from ..conftest import ROOT

CORPUS = Path(__file__).resolve().parents[1] / "hostile"
ENTRIES: list[dict[str, Any]] = to_plain(
    load(str(CORPUS / "manifest.yaml")).data)["entries"]

CPU_BUDGET = 2.0  # seconds beyond start-up
MEMORY_BUDGET_MB = 200
HANG_GUARD = 60.0  # wall seconds before the child is killed as hung
SAFETY_AS_LIMIT = 1 << 30  # address space cap so a runaway cannot take the machine


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str
    wall: float
    cpu: float
    maxrss_mb: float


#: Run by a small launcher interpreter: it forks the linguo child, caps its
#: address space, reaps it with ``wait4`` and writes its exit code, CPU time
#: and peak resident set. A child forked straight from pytest would report
#: pytest's own resident set as its peak (``ru_maxrss`` keeps the high-water
#: mark of the memory a process started from, which after a long test run is
#: already beyond the budget); forked from the launcher it starts small.
LAUNCHER = """
import json, os, resource, sys
limit, report, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.execv(sys.executable, [sys.executable, "-m", "linguo_cli", *args])
_, status, usage = os.wait4(pid, 0)
with open(report, "w") as fh:
    json.dump([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime,
               usage.ru_maxrss], fh)
"""


def run_linguo(args: list[str], tmp: Path, stdin: Path | None = None) -> Outcome:
    """Run ``python -m linguo_cli ARGS`` (through :data:`LAUNCHER`); outputs
    go to files (no pipe to drain), the child's own resource usage comes from
    its ``wait4``; a run past :data:`HANG_GUARD` is killed with its group."""
    out, err = tmp / "stdout.txt", tmp / "stderr.txt"
    report = tmp.parent / f"{tmp.name}.usage.json"  # outside tmp: its listing is checked
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    with open(out, "wb") as fo, open(err, "wb") as fe, \
            open(stdin if stdin else os.devnull, "rb") as fi:
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(SAFETY_AS_LIMIT),
                                 str(report), *args], stdin=fi, stdout=fo, stderr=fe,
                                env=env, start_new_session=True)
        try:
            proc.wait(timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            pytest.fail(f"linguo {' '.join(args)[:200]} hung for {HANG_GUARD:g} s")
        wall = time.monotonic() - start
    assert proc.returncode == 0, f"the launcher failed: {err.read_text('utf-8', 'replace')}"
    code, cpu, maxrss_kb = json.loads(report.read_text(encoding="utf-8"))
    report.unlink()
    return Outcome(code, out.read_text("utf-8", "replace"),
                   err.read_text("utf-8", "replace"), wall, cpu, maxrss_kb / 1024)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """The cheapest of three trivial runs: start-up cost to subtract."""
    tmp = tmp_path_factory.mktemp("baseline")
    request = tmp / "check.json"
    request.write_text('{"kind": "check", "dc": 10, "rolls": [12]}', encoding="utf-8")
    runs = [run_linguo(["resolve", str(request)], tmp) for _ in range(3)]
    assert all(r.code == 0 for r in runs), runs[0].stderr
    return min(runs, key=lambda r: r.cpu)


def materialize(entry: dict[str, Any], folder: Path) -> Path:
    """The entry's input in ``folder``: a copy of the corpus file, or the
    generated file (big inputs are never committed)."""
    target = folder / entry["file"]
    gen = entry.get("generate")
    if gen is None:
        shutil.copyfile(CORPUS / entry["file"], target)
    else:
        times = int(gen["times"])
        with open(target, "wb") as fh:
            fh.write(str(gen.get("head", "")).encode())
            rep = str(gen["repeat"])
            if gen.get("hex"):
                fh.write(bytes.fromhex(rep) * times)
            elif "{i}" in rep:
                fh.write("".join(rep.replace("{i}", str(i)) for i in range(times)).encode())
            else:
                chunk = rep.encode() * max(1, (1 << 20) // len(rep.encode()))
                per = len(chunk) // len(rep.encode())
                left = times
                while left > 0:
                    n = min(left, per)
                    fh.write(chunk if n == per else rep.encode() * n)
                    left -= n
            fh.write(str(gen.get("tail", "")).encode())
    if "chmod" in entry:
        os.chmod(target, int(entry["chmod"]))
    return target


def test_corpus_files_are_all_listed() -> None:
    listed = {e["file"] for e in ENTRIES}
    on_disk = {p.name for p in CORPUS.iterdir() if p.name != "manifest.yaml"}
    assert on_disk <= listed, f"corpus files without an entry: {sorted(on_disk - listed)}"
    generated = [e for e in ENTRIES if "generate" in e]
    assert any(int(e["generate"]["times"]) * len(e["generate"]["repeat"]) >= 50 * 2**20
               for e in generated), "the corpus needs its 50 MB input"


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"{i:02d}-{e['file']}"
                                                 for i, e in enumerate(ENTRIES)])
def test_hostile_input(entry: dict[str, Any], tmp_path: Path, baseline: Outcome) -> None:
    if "chmod" in entry and os.geteuid() == 0:
        pytest.skip("root reads files whatever their permissions")
    path = materialize(entry, tmp_path)
    before = path.read_bytes() if entry.get("unchanged") else None
    args = [a.replace("{file}", str(path)).replace("{dir}", str(tmp_path))
            for a in entry["args"]]
    run = run_linguo(args, tmp_path, stdin=path if entry.get("stdin") else None)
    if "chmod" in entry:
        os.chmod(path, 0o644)

    shown = f"\nstderr:\n{run.stderr[:2000]}"
    assert run.code == entry["exit"], f"exit {run.code}, expected {entry['exit']}{shown}"
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr, shown
    assert run.stdout == "", f"stdout: {run.stdout[:300]}"
    lines = run.stderr.splitlines()
    assert lines and all(line.startswith("linguo: error: ")
                         for line in lines), shown
    assert entry["message"] in run.stderr, f"missing {entry['message']!r}{shown}"
    if "lines" in entry:
        assert len(lines) == entry["lines"], f"{len(lines)} lines, expected {entry['lines']}" \
                                             f"{shown}"
    name = "<stdin>" if entry.get("stdin") else str(path)
    place = entry.get("place", "line")
    if place == "line":
        pattern = re.compile(re.escape(name) + r":\d+:\d+: ")
        assert all(pattern.search(line) for line in lines), f"a line without {name}:L:C{shown}"
    elif place == "file":
        assert f"{name}: " in run.stderr or f"{name}:" in run.stderr, shown
    if before is not None:
        assert path.read_bytes() == before, "the file changed"
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            [path.name, "stdout.txt", "stderr.txt"]), "a temporary file was left"

    cpu = run.cpu - baseline.cpu
    assert cpu <= CPU_BUDGET, (f"{cpu:.2f} s of CPU beyond start-up (wall {run.wall:.2f} s, "
                               f"start-up {baseline.cpu:.2f} s CPU)")
    assert run.maxrss_mb <= MEMORY_BUDGET_MB, f"{run.maxrss_mb:.0f} MB resident"


# ---------------------------------------------------------------------------
# Semantic checks with places (before any rule runs)


def test_require_entity_suggests_the_closest_id_and_is_placed_in_the_file() -> None:
    from linguo_cli.core.errors import InputError

    state = {"entities": [{"id": "goblin", "kind": "enemy", "hp": 7, "max_hp": 7}]}
    assert require_entity(state, "goblin", "target").hp == 7
    with pytest.raises(InputError) as info:
        require_entity(state, "gobln", "steps[0].target")
    d = info.value.diagnostics[0]
    assert (d.place, d.field) == ("request", "steps[0].target")
    assert "did you mean 'goblin'" in d.message
    doc = parse("kind: turn\nsteps:\n- {target: gobln}\n", "req.yaml")
    assert relocated(info.value, doc).diagnostics[0].place == "req.yaml:3:12"
    state_doc = parse('{"entities": [\n  {"id": "goblin", "kind": "enemy", '
                               '"hp": 7, "max_hp": 7}]}', "s.json")
    with pytest.raises(InputError) as info:
        require_entity(state_doc, "orc", "target", document=doc)
    assert info.value.diagnostics[0].place == "req.yaml:1:1"
    assert "ids: goblin" in info.value.diagnostics[0].message


def test_semantic_errors_of_an_inline_state_have_places() -> None:
    from linguo_cli.core.errors import InputError

    text = ('{"kind": "damage", "tick": "low", "dice": "2d6", "rolls": [3, 4],\n'
            ' "state": {"entities": [\n'
            '   {"id": "a", "kind": "enemy", "hp": 9, "max_hp": 7,\n'
            '    "idioms": ["Shape - Fire"], "maintained": [{"idiom": "Speak - Wind"}]}]},\n'
            ' "targets": ["a"]}')
    with pytest.raises(InputError) as info:
        SCHEMAS.validate(parse(text, "r.json"), "request")
    got = [(d.place, d.field) for d in info.value.diagnostics]
    assert got == [("r.json:3:39", "state.entities[0].hp"),
                   ("r.json:4:58", "state.entities[0].maintained[0].idiom")]


def test_maintained_idioms_are_open_when_no_idiom_is_listed() -> None:
    doc = parse("entities:\n- {id: a, kind: player, hp: 1, max_hp: 2, "
                         "maintained: [{idiom: Shape - Ice}]}\n", "s.yaml")
    SCHEMAS.validate(doc, "state")  # no error: what `a` knows is not given
