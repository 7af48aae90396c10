"""Where a state (or a report) may be written: links, modes and hard links
(robustness issue, section 4). Refusals are exit 2 and leave every file and
link as it was."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from ..conftest import run_cli

STATE = "entities:\n- {id: gob, kind: enemy, hp: 7, max_hp: 7}\n"
DAMAGE = ["damage", "--tick", "tiny", "--dice", "1d4", "--rolls", "2", "--target", "gob"]


@pytest.fixture
def state(tmp_path: Path) -> Path:
    p = tmp_path / "state.yaml"
    p.write_text(STATE, encoding="utf-8")
    return p


def test_output_onto_a_symlink_loop_is_refused_and_the_link_kept(tmp_path: Path,
                                                                   state: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    r = run_cli(*DAMAGE, "--state", str(state), "-o", str(a))
    assert r.exit_code == 2
    assert "cannot write" in r.stderr
    assert a.is_symlink() and os.readlink(a) == str(b)


def test_junit_onto_a_symlink_loop_is_refused(tmp_path: Path) -> None:
    loop = tmp_path / "report.xml"
    loop.symlink_to(loop)
    r = run_cli("verify", "--filter", "tests/degrees.yaml::success-lower-border", "--junit",
                str(loop), "-q")
    assert r.exit_code == 2
    assert loop.is_symlink()


def test_output_through_a_symlink_writes_its_target(tmp_path: Path, state: Path) -> None:
    target = tmp_path / "real.yaml"
    target.write_text(STATE, encoding="utf-8")
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    r = run_cli(*DAMAGE, "--state", str(state), "-o", str(link))
    assert r.exit_code == 0, r.stderr
    assert link.is_symlink()
    assert "hp: 5" in target.read_text(encoding="utf-8")  # 1d4 = 2 damage: 7 -> 5


@pytest.mark.parametrize("mode", [0o4755, 0o2755, 0o6640, 0o640])
def test_in_place_keeps_the_whole_mode(state: Path, mode: int) -> None:
    os.chmod(state, mode)
    r = run_cli(*DAMAGE, "--state", str(state), "--in-place")
    assert r.exit_code == 0, r.stderr
    assert stat.S_IMODE(state.stat().st_mode) == mode


def test_a_read_only_state_is_not_replaced(state: Path) -> None:
    os.chmod(state, 0o444)
    before = state.read_bytes()
    r = run_cli(*DAMAGE, "--state", str(state), "--in-place")
    assert r.exit_code == 2
    assert "read-only" in r.stderr
    assert state.read_bytes() == before and stat.S_IMODE(state.stat().st_mode) == 0o444


def test_a_hard_linked_state_is_not_split(tmp_path: Path, state: Path) -> None:
    other = tmp_path / "other-name.yaml"
    os.link(state, other)
    r = run_cli(*DAMAGE, "--state", str(state), "--in-place")
    assert r.exit_code == 2
    assert "hard links" in r.stderr
    assert os.path.samefile(state, other) and state.read_text(encoding="utf-8") == STATE
