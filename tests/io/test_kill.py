"""Writing state files under fire: a ``linguo ... --in-place`` process killed
with SIGKILL at any moment leaves the old or the new file byte for byte;
concurrent ``--in-place`` runs on one file are serialised by the lock (no
lost update); permissions, symbolic links and the lock's timeout behave as
documented (README, "Limits")."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from linguo_cli.core.errors import InputError
from linguo_cli.io.read import load, parse
from linguo_cli.io.write import FileLock, atomic_write
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

from ..conftest import ROOT, run_cli

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL") or sys.platform == "win32",
                                reason="needs POSIX signals and flock")

DAMAGE = ["damage", "--tick", "tiny", "--dice", "1d4", "--rolls", "1", "--target", "e0"]


def big_state(n: int = 300) -> str:
    """A state large enough (comments included) that a run takes a while."""
    lines = ["# a state for the kill test", "entities:"]
    for i in range(n):
        lines += [f"- id: e{i}   # entity {i} " + "padding " * 20, "  kind: enemy",
                  "  hp: 500", "  max_hp: 1000"]
    return "\n".join(lines) + "\n"


def linguo(*args: str, lock_timeout: str = "") -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1",
               LINGUO_LOCK_TIMEOUT=lock_timeout)
    return subprocess.Popen([sys.executable, "-m", "linguo_cli", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_sigkill_during_in_place_leaves_old_or_new_file(tmp_path: Path) -> None:
    old = big_state()
    expected = tmp_path / "expected.yaml"
    state = tmp_path / "state.yaml"
    state.write_text(old, encoding="utf-8")
    start = time.monotonic()
    done = linguo(*DAMAGE, "--state", str(state), "-o", str(expected))
    out, err = done.communicate(timeout=120)
    duration = time.monotonic() - start
    assert done.returncode == 0, err.decode()
    new = expected.read_text(encoding="utf-8")
    assert new != old and "hp: 499" in new
    outcomes = set()
    for k in range(8):
        state.write_text(old, encoding="utf-8")
        proc = linguo(*DAMAGE, "--state", str(state), "--in-place")
        time.sleep(duration * (0.35 + 0.1 * k))  # spread over the run, most near its end
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        text = state.read_text(encoding="utf-8")
        assert text in (old, new), f"torn or foreign file after a kill (run {k})"
        outcomes.add("new" if text == new else "old")
        SCHEMAS.validate(parse(text, str(state)), "state")
    leftovers = [p.name for p in tmp_path.iterdir()
                 if p.name not in ("state.yaml", "expected.yaml")]
    assert all(n.startswith(".linguo-") and n.endswith(".tmp") for n in leftovers), leftovers
    assert outcomes, "no kill happened"


def test_concurrent_in_place_runs_do_not_lose_updates(tmp_path: Path) -> None:
    """Five runs started together each take 1 HP from e0: all five count.
    Each waits for the lock as long as it takes (``LINGUO_LOCK_TIMEOUT``):
    on a loaded machine four runs of a 150-entity state can outlast the
    default 10 s, and a timed-out wait is not what this test is about."""
    state = tmp_path / "state.yaml"
    state.write_text(big_state(150), encoding="utf-8")
    procs = [linguo(*DAMAGE, "--state", str(state), "--in-place", lock_timeout="600")
             for _ in range(5)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
    doc = load(str(state))
    e0 = doc.data["entities"][0]
    assert e0["id"] == "e0" and e0["hp"] == 495
    assert doc.text is not None and doc.text.count("# entity") == 150  # comments kept


def test_a_held_lock_makes_an_in_place_run_wait(tmp_path: Path) -> None:
    state = tmp_path / "state.yaml"
    state.write_text(big_state(5), encoding="utf-8")
    held = load(str(state), lock=True)
    try:
        proc = linguo(*DAMAGE, "--state", str(state), "--in-place", lock_timeout="600")
        time.sleep(1.5)
        assert proc.poll() is None, "the run did not wait for the lock"
        assert "hp: 500" in state.read_text(encoding="utf-8")
    finally:
        held.release()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert "hp: 499" in state.read_text(encoding="utf-8")


def test_lock_timeout_is_an_input_error(tmp_path: Path) -> None:
    state = tmp_path / "state.yaml"
    state.write_text(big_state(1), encoding="utf-8")
    held = FileLock.acquire(str(state))
    try:
        with pytest.raises(InputError, match="locked by another process"):
            FileLock.acquire(str(state), timeout=0.2)
    finally:
        held.release()
    again = FileLock.acquire(str(state), timeout=0.2)  # released: free again
    again.release()


def test_the_lock_follows_a_replaced_file(tmp_path: Path) -> None:
    """A waiter whose file was renamed over locks and reads the new one."""
    state = tmp_path / "state.yaml"
    state.write_text(big_state(1), encoding="utf-8")
    held = FileLock.acquire(str(state))
    atomic_write(str(state), big_state(2))  # the holder writes a new file
    waiter = FileLock.acquire(str(state), timeout=0.5)  # not blocked by the old one
    try:
        assert b"e1" in waiter.read(1 << 20)
    finally:
        waiter.release()
        held.release()


def test_in_place_keeps_permissions_and_symlinks(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text(big_state(2), encoding="utf-8")
    os.chmod(real, 0o640)
    link = tmp_path / "link.yaml"
    link.symlink_to(real.name)
    r = run_cli(*DAMAGE, "--state", str(link), "--in-place")
    assert r.exit_code == 0, r.stderr
    assert link.is_symlink(), "the symbolic link was replaced by a file"
    assert "hp: 499" in real.read_text(encoding="utf-8")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_output_file_gets_umask_permissions(tmp_path: Path) -> None:
    state = tmp_path / "state.yaml"
    state.write_text(big_state(1), encoding="utf-8")
    out = tmp_path / "out.yaml"
    old = os.umask(0o027)
    try:
        r = run_cli(*DAMAGE, "--state", str(state), "-o", str(out))
    finally:
        os.umask(old)
    assert r.exit_code == 0, r.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_unwritable_target_changes_nothing(tmp_path: Path) -> None:
    state = tmp_path / "state.yaml"
    state.write_text(big_state(1), encoding="utf-8")
    before = state.read_bytes()
    r = run_cli(*DAMAGE, "--state", str(state), "-o", str(tmp_path))  # a directory
    assert r.exit_code == 2, r.stderr
    assert "cannot write" in r.stderr and "Traceback" not in r.stderr
    assert state.read_bytes() == before


def test_json_state_is_written_back_as_json(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text('{"entities": [{"id": "e0", "kind": "enemy", "hp": 500, "max_hp": 1000}]}',
                     encoding="utf-8")
    r = run_cli(*DAMAGE, "--state", str(state), "--in-place")
    assert r.exit_code == 0, r.stderr
    doc = load(str(state))
    assert doc.format == "json" and doc.data["entities"][0]["hp"] == 499


def test_lock_timeout_comes_from_the_environment(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``LINGUO_LOCK_TIMEOUT`` sets the wait (0 fails at once); unset or
    empty keeps 10 s; anything but a finite number >= 0 is exit 2."""
    from linguo_cli.core.errors import UsageError
    from linguo_cli.io.write import LOCK_TIMEOUT, lock_timeout

    monkeypatch.delenv("LINGUO_LOCK_TIMEOUT", raising=False)
    assert lock_timeout() == LOCK_TIMEOUT == 10.0
    monkeypatch.setenv("LINGUO_LOCK_TIMEOUT", "")
    assert lock_timeout() == 10.0
    monkeypatch.setenv("LINGUO_LOCK_TIMEOUT", "2.5")
    assert lock_timeout() == 2.5
    for bad in ("-1", "soon", "inf", "nan"):
        monkeypatch.setenv("LINGUO_LOCK_TIMEOUT", bad)
        with pytest.raises(UsageError, match="LINGUO_LOCK_TIMEOUT"):
            lock_timeout()
    monkeypatch.delenv("LINGUO_LOCK_TIMEOUT")
    state = tmp_path / "state.yaml"
    state.write_text(big_state(5), encoding="utf-8")
    held = load(str(state), lock=True)
    try:
        monkeypatch.setenv("LINGUO_LOCK_TIMEOUT", "0")
        with pytest.raises(InputError, match="more than 0 s"):
            FileLock.acquire(str(state))
    finally:
        held.release()
