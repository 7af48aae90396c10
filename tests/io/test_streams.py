"""Standard streams that are closed, full, limited or cut: the documented exit
codes (2 or 3 with one line on stderr, 141 for a reader that went away),
never exit 5 or a traceback (robustness issue, section 2)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT, run_cli

ENV = dict(os.environ, PYTHONPATH=str(ROOT))
LINGUO = [sys.executable, "-c", "from linguo_cli.cli import main; main()"]
CHECK = ["check", "--mod", "1", "--dc", "10", "--rolls", "5", "--json"]
# an answer larger than a pipe's buffer, so that the reader's leaving is noticed
LONG = ["odds", "attack", "--mod", "5", "--ac", "15", "--damage-dice", "9d6", "--tick",
        "severe", "--json", "--explain"]


def _run(args: list[str], **kw: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(LINGUO + args, env=ENV, capture_output=True, timeout=60,
                          **kw)  # type: ignore[call-overload]


def _one_line(stderr: bytes) -> str:
    text = stderr.decode()
    assert "Traceback" not in text and "Exception ignored" not in text, text
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.parametrize("args", [["resolve", "-"], ["turn", "examples/encounter/state.yaml",
                                                      "-"], ["adapter"]])
def test_closed_stdin_is_invalid_input(args: list[str]) -> None:
    proc = _run(args, stdin=None, cwd=ROOT, pass_fds=(), close_fds=True,
                preexec_fn=lambda: os.close(0))
    assert proc.returncode == 3
    assert _one_line(proc.stderr) == (
        "linguo: error: <stdin>: (document): standard input is closed")


def test_closed_stdout_is_exit_2() -> None:
    proc = subprocess.run(LINGUO + CHECK, env=ENV, stderr=subprocess.PIPE, timeout=60,
                          preexec_fn=lambda: os.close(1))
    assert proc.returncode == 2
    assert _one_line(proc.stderr) == (
        "linguo: error: cannot write the output: standard output is closed")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_full_device_is_exit_2() -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run(LINGUO + CHECK, env=ENV, stdout=full, stderr=subprocess.PIPE,
                              timeout=60)
    assert proc.returncode == 2
    assert _one_line(proc.stderr) == (
        "linguo: error: cannot write the output: No space left on device")


def test_file_size_limit_is_exit_2_not_a_cut_result(tmp_path: Path) -> None:
    out = tmp_path / "out.json"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))

    whole = _run(LONG)
    assert whole.returncode == 0 and len(whole.stdout) > 512
    with open(out, "wb") as fh:
        proc = subprocess.run(LINGUO + LONG, env=ENV, stdout=fh, stderr=subprocess.PIPE,
                              timeout=60, preexec_fn=limit)
    assert proc.returncode == 2
    assert _one_line(proc.stderr) == "linguo: error: cannot write the output: File too large"


@pytest.mark.parametrize("args", [LONG, ["verify", "--help"]])
def test_reader_gone_ends_quietly_with_141(args: list[str]) -> None:
    """The reader closes the pipe before linguo writes: EPIPE. Exit 141 as for
    a SIGPIPE, nothing on stderr."""
    read, write = os.pipe()
    os.close(read)  # nobody will ever read
    try:
        proc = subprocess.run(LINGUO + args, env=ENV, stdout=write, stderr=subprocess.PIPE,
                              timeout=60)
    finally:
        os.close(write)
    assert proc.returncode == 141
    assert proc.stderr == b""


@pytest.mark.parametrize("rolls", ["²", "٣", "9" * 5000, "1," + "0" * 4 + "1"])
def test_exotic_or_huge_faces_are_usage_errors(rolls: str) -> None:
    r = run_cli("check", "--dc", "10", "--rolls", rolls)
    assert r.exit_code == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("linguo: error: ")
    assert len(lines[0]) < 300  # a 5,000-digit value is shortened, not printed whole


def test_largest_face_is_still_accepted() -> None:
    r = run_cli("damage", "--dice", "1d1000", "--tick", "extreme", "--rolls", "1000",
                "--allow-nonconforming", "--json")
    assert r.exit_code == 0, r.stderr
    assert r.json()["rolls_used"] == [1000]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e300", "0", "-1", "3600.5"])
def test_verify_timeout_must_be_a_sane_number(value: str) -> None:
    r = run_cli("verify", "--impl", "true", "--timeout", value)
    assert r.exit_code == 2
    assert "'--timeout'" in r.stderr and "Traceback" not in r.stderr


def test_golden_export_onto_a_file_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "existing"
    target.write_text("keep me", encoding="utf-8")
    r = run_cli("golden", "export", "--json", str(target))
    assert r.exit_code == 2
    assert "exists and is not a folder" in r.stderr
    assert target.read_text(encoding="utf-8") == "keep me"


# --- diagnostics: one line each, escaped, shortened, capped (section 5) ---


def _damage_state(path: Path) -> Any:
    return run_cli("damage", "--state", str(path), "--target", "x", "--dice", "1d4",
                   "--tick", "tiny", "--rolls", "1")


def test_a_key_with_a_newline_cannot_forge_a_second_line(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text('entities: []\n"evil\\nlinguo: error: forged": 1\n', encoding="utf-8")
    r = _damage_state(path)
    assert r.exit_code == 3
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert "evil\\nlinguo: error: forged" in lines[0]


@pytest.mark.parametrize("char,escape", [("\u2028", "\\u2028"), ("\x85", "\\x85")])
def test_line_separators_in_a_key_are_escaped(tmp_path: Path, char: str, escape: str) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"entities": [], f"a{char}b": 1}), encoding="utf-8")
    r = _damage_state(path)
    assert r.exit_code == 3
    assert char not in r.stderr and f"a{escape}b" in r.stderr


def test_a_huge_unknown_key_is_shortened(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"entities": [], "k" * 900_000: 1}), encoding="utf-8")
    r = _damage_state(path)
    assert r.exit_code == 3
    assert len(r.stderr) < 2000 and "(900000 characters)" in r.stderr


def test_semantic_errors_are_capped_at_50_lines(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    entity = {"id": "x", "kind": "enemy", "hp": 5, "max_hp": 5}
    path.write_text(json.dumps({"entities": [entity] * 11_000}), encoding="utf-8")
    r = _damage_state(path)
    assert r.exit_code == 3
    lines = r.stderr.splitlines()
    assert len(lines) == 51
    assert lines[-1].endswith("10949 more errors not shown")  # 10,999 duplicates - 50 shown
