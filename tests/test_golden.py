"""Run every golden case against linguo itself: one pytest id per case."""

from __future__ import annotations

import pytest

from linguo_cli import golden

from .conftest import ROOT

SUITE = ROOT / "golden"
CASES = golden.load_cases(SUITE)

#: Known gaps: test id -> reason. Keep this the only skip list.
SKIP: dict[str, str] = {}


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_case(case: golden.Case) -> None:
    if case.test_id in SKIP:
        pytest.skip(SKIP[case.test_id])
    outcome = golden.run_case(case)
    assert outcome.passed, "\n".join(str(m) for m in outcome.mismatches)


def test_suite_is_not_empty() -> None:
    assert len(CASES) > 0
