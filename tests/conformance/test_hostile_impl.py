"""A hostile or broken implementation under `linguo verify`, a hostile stream
into `linguo adapter`, and pipes given as input files (robustness issue,
section 3): each case fails on its own, the run goes on to its summary,
memory stays bounded and no process is left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from linguo_cli.conformance import golden, impl_process

from ..conftest import ROOT, run_cli

ENV = dict(os.environ, PYTHONPATH=str(ROOT))
ONE_CASE = ["tests/degrees.yaml::success-lower-border"]


def _impl(tmp_path: Path, body: str, name: str = "impl.py") -> str:
    script = tmp_path / name
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{sys.executable} {script}"


def _verify(impl: str, *, batch: bool = False, filters: list[str] | None = None,
            timeout: float = 20.0) -> tuple[int, str]:
    import io

    out = io.StringIO()
    code = golden.verify(golden.default_suite_dir(), impl=impl, batch=batch, timeout=timeout,
                         filters=filters or ONE_CASE, quiet=True, out=out)
    return code, out.getvalue()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is not alive
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().split(b")")[-1].split()[0] != b"Z"
    except OSError:
        return True


def test_a_huge_answer_fails_the_case_within_the_capture_limit(tmp_path: Path) -> None:
    impl = _impl(tmp_path, """
        import sys
        sys.stdout.write("x" * (3 * 8 * 1024 * 1024))
    """)
    code, out = _verify(impl)
    assert code == 1
    assert "answer larger than 8 MiB (the capture limit)" in out
    assert "0 passed, 1 failed" in out or "1 failed" in out


def test_a_huge_stderr_keeps_only_its_tail(tmp_path: Path) -> None:
    impl = _impl(tmp_path, """
        import sys
        sys.stderr.write("noise\\n" * 2_000_000)
        sys.stderr.write("the last words\\n")
        sys.exit(3)
    """)
    code, out = _verify(impl)
    assert code == 1
    assert "the last words" in out


@pytest.mark.parametrize("batch", [False, True])
def test_an_answer_nested_100000_deep_fails_only_that_case(tmp_path: Path, batch: bool
                                                           ) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    body = f"""
        import sys
        deep = {deep!r}
        if {batch!r}:
            for line in sys.stdin:
                if '"suite"' in line:
                    print('{{"ready": true}}', flush=True)
                else:
                    print(deep, flush=True)
        else:
            sys.stdin.read()
            print(deep)
    """
    code, out = _verify(_impl(tmp_path, body), batch=batch,
                        filters=["tests/degrees.yaml"])
    assert code == 1
    assert "not JSON" in out
    assert "failed" in out.splitlines()[-1]  # the summary is there


def test_a_hello_nested_too_deeply_is_a_start_failure(tmp_path: Path) -> None:
    impl = _impl(tmp_path, """
        import sys
        sys.stdin.readline()
        print("[" * 100000 + "]" * 100000, flush=True)
    """)
    code, out = _verify(impl, batch=True)
    assert code == 1 and "hello answer is not JSON" in out


def test_two_lines_per_request_is_a_protocol_break(tmp_path: Path) -> None:
    impl = _impl(tmp_path, """
        import json, sys
        for line in sys.stdin:
            if '"suite"' in line:
                print('{"ready": true}', flush=True)
                continue
            print('{"error": 3}')
            print('{"error": 3}', flush=True)
    """)
    code, out = _verify(impl, batch=True, filters=["tests/degrees.yaml"])
    assert code == 1
    assert "protocol break" in out


def test_an_endless_answer_line_in_batch_is_cut(tmp_path: Path) -> None:
    impl = _impl(tmp_path, """
        import sys
        sys.stdin.readline()
        print('{"ready": true}', flush=True)
        sys.stdin.readline()
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk)
    """)
    code, out = _verify(impl, batch=True)
    assert code == 1 and "answer line larger than 8 MiB" in out


def test_descendants_that_leave_the_group_are_ended(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    impl = _impl(tmp_path, f"""
        import os, sys, time
        if os.fork() == 0:
            os.setsid()  # leaves the implementation's process group
            if os.fork() == 0:
                with open({str(pids)!r}, "a") as fh:
                    fh.write(str(os.getpid()) + "\\n")
                time.sleep(300)
            os._exit(0)
        time.sleep(0.5)
        sys.stdin.read()
        sys.exit(3)
    """)
    code, _ = _verify(impl)
    assert code == 1
    left = [int(p) for p in pids.read_text().split()]
    assert left and not any(_alive(p) for p in left)


def test_sigterm_on_verify_ends_the_implementation(tmp_path: Path) -> None:
    pidfile = tmp_path / "impl.pid"
    impl = _impl(tmp_path, f"""
        import os, time
        with open({str(pidfile)!r}, "w") as fh:
            fh.write(str(os.getpid()))
        time.sleep(300)
    """)
    proc = subprocess.Popen([sys.executable, "-c", "from linguo_cli.cli import main; main()",
                             "verify", "--impl", impl, "--timeout", "300", "-q"],
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not pidfile.exists() or not pidfile.read_text():
        assert time.monotonic() < deadline, "the implementation never started"
        time.sleep(0.05)
    impl_pid = int(pidfile.read_text())
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode != 0
    deadline = time.monotonic() + 10
    while _alive(impl_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(impl_pid)


def test_verify_forgets_no_group() -> None:
    assert impl_process._GROUPS == set()


# --- the adapter reads at most a document per request ---


def test_plain_adapter_refuses_an_endless_stdin() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "from linguo_cli.cli import main; main()",
                             "adapter"], env=ENV, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def feed() -> None:
        assert proc.stdin is not None
        try:
            for _ in range(64):  # 64 MiB offered; the adapter stops after 1 MiB
                proc.stdin.write(b"\0" * (1024 * 1024))
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    assert proc.stdout is not None and proc.stderr is not None
    with proc.stdout, proc.stderr:
        out, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(timeout=60)
    assert proc.returncode == 3 and out == b""
    assert b"larger than 1024 KiB" in err


def test_batch_adapter_answers_an_oversized_line_and_goes_on() -> None:
    lines = [json.dumps({"suite": "linguo-golden", "version": 1}), "x" * (2 * 1024 * 1024),
             json.dumps({"kind": "check", "dc": 10, "rolls": [12]})]
    proc = subprocess.run([sys.executable, "-c", "from linguo_cli.cli import main; main()",
                           "adapter", "--batch"], env=ENV, input="\n".join(lines).encode(),
                          capture_output=True, timeout=60)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0
    assert answers[0]["ready"] is True
    assert answers[1]["error"]["exit"] == 3  # the error object (issue 18)
    assert "larger than 1024 KiB" in answers[1]["error"]["message"]
    assert answers[2]["degree"] == "success"


# --- pipes given as input files ---


def test_a_fifo_without_a_writer_fails_after_the_idle_timeout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "request"
    os.mkfifo(fifo)
    monkeypatch.setattr("linguo_cli.io.read.PIPE_IDLE_TIMEOUT", 0.3)
    r = run_cli("resolve", str(fifo))
    assert r.exit_code == 3
    assert "no data for 0.3 s" in r.stderr


def test_a_fifo_with_a_writer_is_read_like_stdin(tmp_path: Path) -> None:
    fifo = tmp_path / "request"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w", encoding="utf-8") as fh:
            fh.write(json.dumps({"kind": "check", "dc": 10, "rolls": [12]}))

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    r = run_cli("resolve", str(fifo), "--json")
    writer.join(5)
    assert r.exit_code == 0, r.stderr
    assert r.json()["degree"] == "success"


def test_a_fifo_larger_than_a_document_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "state"
    os.mkfifo(fifo)

    def write() -> None:
        try:
            with open(fifo, "wb") as fh:
                for _ in range(4):
                    fh.write(b" " * (1024 * 1024))
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    r = run_cli("resolve", str(fifo))
    assert r.exit_code == 3 and "larger than 1024 KiB" in r.stderr


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_devices_stay_refused(device: str) -> None:
    r = run_cli("resolve", device)
    assert r.exit_code == 3 and "is a device" in r.stderr


def test_junit_report_parses_with_control_characters_in_the_command(tmp_path: Path) -> None:
    """An --impl command holding a control character still gives XML that
    parses (the label is made XML-safe like every other text)."""
    import xml.etree.ElementTree as ET

    impl = _impl(tmp_path, """
        import sys
        sys.stdin.read()
        sys.exit(3)
    """, name="impl\x1b.py")
    junit = tmp_path / "report.xml"
    golden.verify(golden.default_suite_dir(), impl=impl, timeout=20, filters=ONE_CASE,
                  quiet=True, junit=str(junit), out=__import__("io").StringIO())
    root = ET.parse(junit).getroot()
    assert root.iter("property") is not None
