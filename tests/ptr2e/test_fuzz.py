"""Fuzzing over PTR 2e's request schemas (as tests/novence_eternal/test_fuzz.py
does for Novence Eternal): requests generated from each kind's own schema
are validated and resolved with seeded dice (only a LinguoError escapes; a
result replays from its faces), and mutated request texts are refused with
exit 3 and a place, never a traceback (bounded for CI)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .. import fuzzing

KINDS = [(r, k) for r, k in fuzzing.other_ruleset_kinds() if r == "ptr2e"]


def test_every_ptr_kind_is_fuzzed() -> None:
    assert {"skill", "rush", "move", "activation", "priority", "round", "odds"} <= {
        k for _, k in KINDS}


@pytest.mark.parametrize(("ruleset", "kind"), KINDS, ids=[f"{r}/{k}" for r, k in KINDS])
def test_generated_requests_resolve_cleanly(ruleset: str, kind: str) -> None:
    stats: Counter[str] = Counter()

    @settings(max_examples=25)
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def run(data: st.DataObject, seed: int) -> None:
        request = data.draw(fuzzing.ruleset_requests_of(ruleset, kind))
        fuzzing.check_ruleset_resolution(request, seed, stats)

    run()
    assert sum(stats.values()) > 0


@pytest.mark.parametrize(("ruleset", "kind"), KINDS, ids=[f"{r}/{k}" for r, k in KINDS])
def test_mutated_requests_are_refused_with_a_place(ruleset: str, kind: str) -> None:
    @settings(max_examples=10)
    @given(text=fuzzing.mutated_texts(fuzzing.ruleset_requests_of(ruleset, kind)))
    def run(text: str) -> None:
        fuzzing.check_ruleset_text(text, Counter())

    run()
