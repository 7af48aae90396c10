"""``linguo verify`` as other projects' CI uses it (issue 18): streamed
failures, progress lines without a terminal, ``--maxfail``, the early stop on
a broken implementation, the total time limit, the same-answer hint only when
the engine never answered, actionable failure lines, selection and skip
lists, the error object, ``golden show`` and ``golden export DIR``.

Each test runs a small generated suite and tiny Python implementations."""

from __future__ import annotations

import io
import json
import re
import shlex
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from linguo_cli.conformance import golden

from ..conftest import run_cli

PY = shlex.quote(sys.executable)
N = 30
STATEMENT = "A statement of this rule in full words, as the suite must carry every rule."


def write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def case(i: int) -> dict[str, Any]:
    face = i % 20 + 1
    return {"id": f"c{i:02d}", "description": f"Case {i}: face {face} against DC 10, total "
                                              f"{face}.",
            "rules": ["D1"], "request": {"kind": "check", "dc": 10, "rolls": [face]},
            "expect": {"total": face}}


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    root = tmp_path / "suite"
    write(root / "EXAMPLES.yaml", {"suite": "linguo-golden", "version": 2, "examples": [
        {"id": "DR-06", "section": "Dice Rolls", "title": "Noun checks"}]})
    write(root / "RULES.yaml", {"rules": [{"id": r, "title": r, "statement": STATEMENT}
                                          for r in ("D1", "D7")]})
    write(root / "tests" / "many.yaml", {"cases": [case(i) for i in range(N)]})
    write(root / "tests" / "errors.yaml", {"cases": [
        {"id": "noun-rule", "description": "A Fire check without the idiom: exit 4, rule D7.",
         "examples": ["DR-06"], "rules": ["D7"],
         "request": {"kind": "check", "dc": 10, "noun": "Fire", "rolls": []},
         "expect_error": {"exit": 4, "rule": "D7"}},
        {"id": "noun-exit", "description": "A Fire check without the idiom: exit 4 only.",
         "examples": ["DR-06"], "rules": ["D7"],
         "request": {"kind": "check", "dc": 12, "noun": "Fire", "rolls": []},
         "expect_error": 4}]})
    return root


def impl(tmp_path: Path, body: str, name: str = "impl.py") -> str:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return f"{PY} {shlex.quote(str(path))}"


WRONG = """import json, sys
req = json.load(sys.stdin)
with open(sys.argv[1], "a") as log:
    log.write("x\\n")
print(json.dumps({"kind": "check", "total": 99}))
"""
BROKEN = """import sys
sys.stderr.write("node:internal/modules/cjs/loader:1080\\n  throw err;\\n\\n"
                 "Error: Cannot find module '/ci/engine.js'\\n    at Module._resolve\\n\\n"
                 "Node.js v20.0.0\\n")
sys.exit(1)
"""
SLEEP = "import sys, time\nsys.stdin.read()\ntime.sleep(30)\n"
MISSING_KEY = """import json, sys
req = json.load(sys.stdin)
print(json.dumps({"kind": req["kind"], "degree": "success"}))
"""


def verify(suite: Path, **kw: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    kw.setdefault("filters", ["tests/many.yaml"])
    code = golden.verify(suite, out=out, err=err, **kw)
    return code, out.getvalue(), err.getvalue()


def failing(stdout: str) -> list[str]:
    return [line.split(": ", 1)[0] for line in stdout.splitlines()
            if "::" in line.split(": ", 1)[0] and not line.startswith(" ")]


# ---------------------------------------------------------------------------
# CI behaviours


class _Recorder(io.StringIO):
    """Notes how many requests the implementation had received when the first
    failure line was written."""

    def __init__(self, log: Path) -> None:
        super().__init__()
        self.log = log
        self.seen_at: int | None = None

    def write(self, text: str) -> int:
        if self.seen_at is None and "::c00:" in text:
            self.seen_at = len(self.log.read_text().splitlines())
        return super().write(text)


def test_failures_are_printed_as_they_happen(suite: Path, tmp_path: Path) -> None:
    log = tmp_path / "log"
    out = _Recorder(log)
    code = golden.verify(suite, impl=impl(tmp_path, WRONG) + f" {log}",
                         filters=["tests/many.yaml"], quiet=True, out=out, err=io.StringIO(),
                         maxfail=5)
    assert code == 1
    assert out.seen_at == 1  # printed right after the first case, not at the end


def test_progress_lines_when_stderr_is_not_a_terminal(suite: Path) -> None:
    code, _, err = verify(suite, progress_interval=0)
    assert code == 0
    lines = err.splitlines()
    assert lines[0] == f"verify: 1/{N} cases, 0 failed, 0 skipped"
    assert f"verify: {N}/{N} cases, 0 failed, 0 skipped" in lines
    assert verify(suite, progress_interval=0, quiet=True)[2] == ""
    run = run_cli("verify", str(suite), "--progress-interval", "0", "--filter", "*::c0*")
    assert "verify: 1/" in run.stderr  # through the command line: stderr is no terminal


def test_maxfail_stops_the_run(suite: Path, tmp_path: Path) -> None:
    code, out, _ = verify(suite, impl=impl(tmp_path, WRONG) + f" {tmp_path / 'log'}",
                          maxfail=3, quiet=True)
    assert code == 1
    assert len(set(failing(out))) == 3
    assert f"stopped after 3 failures (--maxfail 3); {N - 3} cases not run" in out
    assert out.splitlines()[-1].startswith("3 cases: 0 passed, 3 failed, 0 skipped")
    assert run_cli("verify", str(suite), "--maxfail", "0").exit_code == 2


def test_early_stop_on_a_broken_implementation_shows_its_stderr(suite: Path,
                                                                tmp_path: Path) -> None:
    code, out, _ = verify(suite, impl=impl(tmp_path, BROKEN), quiet=True)
    assert code == 1
    assert "stopped early: the first 20 cases all failed with the same answer" in out
    assert f"{N - 20} cases not run" in out
    report = out[out.index("stopped early"):]
    assert '  request: {"kind":"check","dc":10,"rolls":[1]}' in report
    assert "  answer: " in report and "Cannot find module '/ci/engine.js'" in report
    assert "Node.js v20.0.0" in report  # the whole captured stderr
    # Each failure shows the last lines of stderr, not only the banner.
    first = out[: out.index("stopped early")]
    assert "  stderr: Error: Cannot find module '/ci/engine.js'" in first
    assert "start at all?" in out  # it never answered in the protocol
    assert len(set(failing(out))) == 20


def test_early_stop_when_every_case_times_out_without_the_hint(suite: Path,
                                                              tmp_path: Path) -> None:
    start = time.monotonic()
    code, out, _ = verify(suite, impl=impl(tmp_path, SLEEP), timeout=0.2, quiet=True)
    assert code == 1 and time.monotonic() - start < 60
    assert "stopped early: the first 20 cases all timed out" in out
    assert "start at all" not in out


def test_total_time_limit(suite: Path, tmp_path: Path) -> None:
    slow = impl(tmp_path, "import sys, time\nsys.stdin.read()\ntime.sleep(0.4)\n"
                          "print('{\"kind\": \"check\"}')\n")
    start = time.monotonic()
    code, out, _ = verify(suite, impl=slow, total_timeout=1.5, quiet=True)
    took = time.monotonic() - start
    assert code == 1
    assert re.search(r"stopped: the total time limit of 1.5 s was reached.*; \d+ cases not run",
                     out)
    assert took < 15
    total = int(out.splitlines()[-1].split(" cases")[0])
    assert 0 < total < N
    assert run_cli("verify", str(suite), "--total-timeout", "0").exit_code == 2


def test_no_hint_when_the_engine_answered(suite: Path, tmp_path: Path) -> None:
    # One missing key in every answer: the engine answered.
    code, out, _ = verify(suite, impl=impl(tmp_path, MISSING_KEY, "m.py"), quiet=True)
    assert code == 1 and "total: expected" in out and "start at all" not in out
    # A hello refused with ready: false: the engine answered too.
    refuse = impl(tmp_path, "import sys\nsys.stdin.readline()\n"
                            "print('{\"ready\": false, \"reason\": \"version 2 unknown\"}')\n"
                            "sys.stdout.flush()\n", "r.py")
    code, out, _ = verify(suite, impl=refuse, batch=True, quiet=True)
    assert code == 1 and "version 2 unknown" in out and "start at all" not in out


# ---------------------------------------------------------------------------
# Actionable failures, show, export


def test_a_failure_names_file_line_description_and_request(suite: Path,
                                                           tmp_path: Path) -> None:
    code, out, _ = verify(suite, impl=impl(tmp_path, WRONG) + f" {tmp_path / 'l'}",
                          filters=["tests/many.yaml::c03"], quiet=True)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "linguomancy/tests/many.yaml::c03: total: expected 4, got 99"
    line = next(c.line for c in golden.load_cases(suite) if c.id == "c03")
    assert line > 1
    assert lines[1] == f"  at tests/many.yaml:{line}: Case 3: face 4 against DC 10, total 4."
    assert lines[2] == '  request: {"kind":"check","dc":10,"rolls":[4]}'


def test_golden_show(suite: Path) -> None:
    run = run_cli("golden", "show", "tests/many.yaml::c03", str(suite))
    assert run.exit_code == 0
    assert 'request: {"kind":"check","dc":10,"rolls":[4]}' in run.stdout
    assert 'expect: {"total":4}' in run.stdout
    as_json = run_cli("golden", "show", "tests/errors.yaml::noun-rule", str(suite), "--json")
    data = as_json.json()
    assert data["expect_error"] == {"exit": 4, "rule": "D7"} and data["line"] > 1
    piped = run_cli("golden", "show", "c03", str(suite), "--request")
    assert json.loads(piped.stdout) == {"kind": "check", "dc": 10, "rolls": [4]}
    answer = run_cli("adapter", input=piped.stdout)
    assert answer.json()["total"] == 4
    assert run_cli("golden", "show", "nope::x", str(suite)).exit_code == 2


def test_export_takes_the_folder_as_argument(suite: Path, tmp_path: Path) -> None:
    run = run_cli("golden", "export", str(tmp_path / "a"), str(suite))
    assert run.exit_code == 0 and (tmp_path / "a" / "tests" / "many.json").is_file()
    assert run_cli("golden", "export", str(tmp_path / "b"), str(suite), "--format",
                   "json").exit_code == 0
    old = run_cli("golden", "export", "--json", str(tmp_path / "c"), str(suite))
    assert old.exit_code == 0 and "deprecated" in old.stderr
    assert (tmp_path / "c" / "RULES.json").is_file()
    assert run_cli("golden", "export", str(tmp_path / "d"), "--format", "xml").exit_code == 2


def test_junit_file_relative_to_junit_root(suite: Path, tmp_path: Path) -> None:
    report = tmp_path / "r.xml"
    run = run_cli("verify", str(suite), "--junit", str(report), "--junit-root",
                  str(tmp_path), "--filter", "c01")
    assert run.exit_code == 0
    (tc,) = ET.parse(report).getroot().iter("testcase")
    assert tc.get("file") == "suite/tests/many.yaml"


# ---------------------------------------------------------------------------
# Selection, skip lists, rulesets


@pytest.mark.parametrize(("selectors", "excludes", "ids"), [
    (["kind:check"], ["tests/many.yaml"], {"noun-rule", "noun-exit"}),
    (["kind:linguomancy/check", "ruleset:linguomancy"], ["c*", "rule:D1"],
     {"noun-rule", "noun-exit"}),
    (["rule:D7"], [], {"noun-rule", "noun-exit"}),
    (["example:DR-06"], ["id:noun-exit"], {"noun-rule"}),
    (["file:tests/errors.yaml"], [], {"noun-rule", "noun-exit"}),
    (["id:tests/many.yaml::c1*"], ["id:c15"], {f"c{i}" for i in range(10, 20)} - {"c15"}),
    (["kind:attack"], [], set()),
])
def test_selectors(suite: Path, selectors: list[str], excludes: list[str],
                   ids: set[str]) -> None:
    chosen = golden.select(golden.load_cases(suite), selectors, excludes)
    assert {c.id for c in chosen} == ids


def test_exclude_and_empty_selection(suite: Path) -> None:
    run = run_cli("verify", str(suite), "--exclude", "tests/")
    assert run.exit_code == 2 and "no case matches" in run.stderr
    run = run_cli("verify", str(suite), "--filter", "rule:D7", "--exclude", "noun-exit")
    assert run.exit_code == 0 and run.stdout.startswith("1 cases: 1 passed")


def test_skip_file_with_reasons(suite: Path, tmp_path: Path) -> None:
    skip = tmp_path / "skip.txt"
    skip.write_text("# cases we do not do yet\ntests/many.yaml::c1*  # faces 11-20 later\n"
                    "rule:D7  # no Noun checks yet\nno-such-case  # stale entry\n",
                    encoding="utf-8")
    report = tmp_path / "r.xml"
    run = run_cli("verify", str(suite), "--skip", str(skip), "--junit", str(report))
    assert run.exit_code == 0, run.stdout
    assert f"{N + 2} cases: {N - 10} passed, 0 failed, 12 skipped" in run.stdout
    assert "skip entry 'no-such-case' matches no case" in run.stderr
    messages = [s.get("message") for s in ET.parse(report).getroot().iter("skipped")]
    assert messages.count("skip list: faces 11-20 later") == 10
    assert messages.count("skip list: no Noun checks yet") == 2
    skip.write_text("tests/many.yaml::c01\n", encoding="utf-8")
    bad = run_cli("verify", str(suite), "--skip", str(skip))
    assert bad.exit_code == 3 and f"{skip}:1" in bad.stderr


def test_kinds_option_and_rulesets(suite: Path) -> None:
    run = run_cli("verify", str(suite), "--kinds", "attack,save")
    assert run.exit_code == 0 and f"{N + 2} cases: 0 passed, 0 failed, {N + 2} skipped" \
        in run.stdout
    assert run_cli("verify", str(suite), "--kinds", "chek").exit_code == 2
    assert run_cli("verify", str(suite), "--kinds", "no-such-game/attack").exit_code == 2
    other = run_cli("verify", str(suite), "--kinds", "novence/attack")  # installed: its alias
    assert other.exit_code == 0 and f"{N + 2} skipped" in other.stdout
    assert run_cli("verify", str(suite), "--ruleset", "linguomancy",
                   "--filter", "c01").exit_code == 0
    bad = run_cli("verify", str(suite), "--ruleset", "no-such-game")
    assert bad.exit_code == 2 and "not an installed ruleset" in bad.stderr
    none = run_cli("verify", str(suite), "--ruleset", "novence-eternal")  # none of its cases
    assert none.exit_code == 2 and "no case matches the selected rulesets" in none.stderr
    assert run_cli("golden", "check", str(suite), "--ruleset", "no-such-game").exit_code == 2
    assert run_cli("golden", "check", str(suite), "--ruleset", "ptr2e").exit_code == 0  # installed
    assert run_cli("golden", "check", str(suite), "--ruleset", "linguomancy").exit_code == 0


def test_hello_declaring_another_ruleset_only_runs_nothing(suite: Path,
                                                          tmp_path: Path) -> None:
    other = impl(tmp_path, "import sys, json\nsys.stdin.readline()\nprint(json.dumps("
                           "{'ready': True, 'rulesets': {'ptr2e': {}}}), flush=True)\n"
                           "sys.stdin.read()\n", "o.py")
    run = run_cli("verify", str(suite), "--impl", other, "--batch")
    assert run.exit_code == 2 and "no case matches" in run.stderr


# ---------------------------------------------------------------------------
# The error object


def test_expect_error_object_compares_exit_and_rule(suite: Path, tmp_path: Path) -> None:
    code, out, _ = verify(suite, filters=["tests/errors.yaml"], quiet=True)
    assert code == 0, out  # linguo itself gives rule D7
    old_style = impl(tmp_path, "import json, sys\nsys.stdin.readline()\n"
                               "print(json.dumps({'ready': True}), flush=True)\n"
                               "for line in sys.stdin:\n"
                               "    print(json.dumps({'error': 4, 'message': 'no'}), "
                               "flush=True)\n", "old.py")
    code, out, _ = verify(suite, impl=old_style, batch=True, filters=["tests/errors.yaml"],
                          quiet=True)
    assert code == 1
    assert failing(out) == ["linguomancy/tests/errors.yaml::noun-rule"]  # exit-only passes
    assert 'error.rule: expected "D7", got nothing (key missing)' in out or \
        'error.rule: expected "D7", got null' in out
    wrong_rule = impl(tmp_path, "import json, sys\nsys.stdin.read()\n"
                                "print(json.dumps({'error': {'exit': 4, 'code': None, "
                                "'rule': 'D6', 'place': None, 'message': 'x'}}))\n"
                                "sys.exit(4)\n", "wr.py")
    code, out, _ = verify(suite, impl=wrong_rule, filters=["tests/errors.yaml"], quiet=True)
    assert failing(out) == ["linguomancy/tests/errors.yaml::noun-rule"]
    assert 'error.rule: expected "D7", got "D6"' in out


def test_json_failure_prints_the_error_object() -> None:
    run = run_cli("check", "--dc", "10", "--noun", "Fire", "--rolls", "12", "--json")
    assert run.exit_code == 4
    assert run.json() == {"error": {"exit": 4, "code": None, "rule": "D7", "place": None,
                                    "message": run.json()["error"]["message"]}}
    batch = run_cli("adapter", "--batch", input=json.dumps({"suite": "linguo-golden"})
                    + "\n" + json.dumps({"kind": "check", "dc": 10, "noun": "Fire"}) + "\n")
    assert json.loads(batch.stdout.splitlines()[1])["error"]["rule"] == "D7"


def test_verbose_prints_the_whole_request() -> None:
    from linguo_cli.conformance import run as golden_run

    long = golden.Case("f.yaml", "x", "a long request", (), ("D1",),
                       {"kind": "check", "dc": 10, "description": "y" * 500, "rolls": [3]},
                       {"total": 3}, None, 7)
    short = golden_run.request_text(long, verbose=False)
    assert len(short) == 300 and short.endswith("...")
    assert json.loads(golden_run.request_text(long, verbose=True)) == long.request
    outcome = golden.Outcome(long, golden.Reply(result={"total": 4}),
                             [golden.Mismatch("total", 3, 4)])
    assert golden_run.failure_lines(outcome, verbose=True)[1] == "  at f.yaml:7: a long request"
