"""Bounded fuzzing of verify and the adapter against hostile answers (issue 15,
section 3); the long run is ``python -m tests.fuzz_campaign --exchanges N``.

Hostile answers of an in-process fake implementation go through the runner
code of ``linguo verify`` (reply, judging, failure lines, JUnit XML); hostile
request lines go through ``linguo adapter`` in memory; and a few real
hostile subprocesses run under ``verify --batch``."""

from __future__ import annotations

import io
import json
import tracemalloc
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from linguo_cli.conformance import golden
from linguo_cli.conformance import run as golden_run

from .. import fuzzing

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


@SETTINGS
@given(fuzzing.exchanges())
def test_a_hostile_answer_is_judged_pass_fail_or_skip_in_printable_lines(value: Any) -> None:
    outcome = fuzzing.judge_exchange(value, fuzzing.FakeBatch(), Counter())
    fuzzing.check_report([outcome])


@settings(max_examples=15, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(fuzzing.adapter_sessions())
def test_the_adapter_answers_every_hostile_line_with_one_json_line(
        value: tuple[bool, list[bytes], bytes]) -> None:
    assert fuzzing.check_adapter(value, Counter()) >= 1


@SETTINGS
@given(fuzzing.exchanges())
def test_memory_stays_bounded_by_the_exchanges(value: Any) -> None:
    # the peak of what one judged exchange allocates (answers are capped at
    # 8 MiB), measured on its own: the process's own peak also counts every
    # other test that ran before in the same process
    tracemalloc.start()
    try:
        outcome = fuzzing.judge_exchange(value, fuzzing.FakeBatch(), Counter())
        fuzzing.check_report([outcome])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, peak


def test_a_two_line_answer_is_a_protocol_break_for_the_next_case() -> None:
    fake = fuzzing.FakeBatch()
    case = fuzzing.golden_cases()[0]
    own = json.dumps(fuzzing._own_answer(0)).encode()
    fake.next = [own, b"{}", b""]
    assert golden.run_case(case, fake).passed
    fake.next = [own, b""]
    outcome = golden.run_case(case, fake)
    assert outcome.reply.failure_type == "protocol"
    assert "protocol break" in (outcome.reply.failure or "")


def test_a_control_character_in_an_answer_key_is_escaped_in_the_failure_lines() -> None:
    fake = fuzzing.FakeBatch()
    fake.next = [b'{"\x7f\xc2\x85": 1}']  # DEL and NEL: json.dumps leaves them raw
    outcome = golden.run_case(fuzzing.golden_cases()[0], fake)
    lines = [*golden_run.failure_lines(outcome), *golden_run.early_stop_lines("x", outcome)]
    assert any("\\u007f\\u0085" in line for line in lines)
    assert not any("\x7f" in line or "\x85" in line for line in lines)


def test_a_refusing_hello_reason_is_one_escaped_line(tmp_path: Path) -> None:
    out = io.StringIO()
    impl = f"{fuzzing.sys_executable()} {Path(fuzzing.__file__).with_name('hostile_impl.py')} " \
           f"refuse {tmp_path / 'pid'}"
    code = golden.verify(golden.default_suite_dir(), impl=impl, batch=True, timeout=5.0,
                         filters=fuzzing.HOSTILE_CASES[:1], quiet=True, out=out)
    assert code == 1
    refused = [line for line in out.getvalue().splitlines() if "refused the suite" in line]
    assert refused and refused[0].endswith("no way\\x1b")


@pytest.mark.parametrize("script", ["fork", "two-lines"])
def test_a_hostile_subprocess_fails_its_cases_and_leaves_no_process(
        script: str, tmp_path: Path) -> None:
    stats: Counter[str] = Counter()
    fuzzing.check_subprocess(script, tmp_path, stats)
    assert stats["subprocess runs"] == 1
    if script == "fork":
        assert stats["double-forked sleepers ended"] == 1
    junit = ET.parse(tmp_path / f"{script}.xml").getroot()
    assert int(junit.get("failures") or 0) >= 1
