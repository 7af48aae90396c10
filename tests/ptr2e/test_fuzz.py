"""Fuzzing over PTR 2e's request schemas (as tests/novence_eternal/test_fuzz.py
does for Novence Eternal): requests generated from each kind's own schema
are validated and resolved with seeded dice (only a LinguoError escapes; a
result replays from its faces), and mutated request texts are refused with
exit 3 and a place, never a traceback; golden requests of the other rulesets
mutated likewise, and state and script files played by ``linguo ptr2e round
--in-place`` (a refused round leaves the state file unchanged; the long run:
``tests/fuzz_campaign.py --rulesets N --round-files N``). Bounded for CI."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .. import fuzzing, fuzzing_rulesets

KINDS = [(r, k) for r, k in fuzzing.other_ruleset_kinds() if r == "ptr2e"]


def test_every_ptr_kind_is_fuzzed() -> None:
    assert {"skill", "rush", "move", "activation", "priority", "round", "odds"} <= {
        k for _, k in KINDS}


@pytest.mark.parametrize(("ruleset", "kind"), KINDS, ids=[f"{r}/{k}" for r, k in KINDS])
def test_generated_requests_resolve_cleanly(ruleset: str, kind: str) -> None:
    fuzzing.fuzz_generated_requests(ruleset, kind, max_examples=25)


@pytest.mark.parametrize(("ruleset", "kind"), KINDS, ids=[f"{r}/{k}" for r, k in KINDS])
def test_mutated_requests_are_refused_with_a_place(ruleset: str, kind: str) -> None:
    fuzzing.fuzz_mutated_requests(ruleset, kind, max_examples=10)


def test_mutated_golden_requests_are_refused_with_a_place() -> None:
    stats: Counter[str] = Counter()

    @settings(max_examples=20, deadline=None)
    @given(text=fuzzing.mutated_texts(fuzzing_rulesets.corpus_requests()))
    def run(text: str) -> None:
        fuzzing.check_ruleset_text(text, stats)

    run()
    assert sum(stats.values()) >= 20


def test_golden_rounds_resolve_with_other_dice() -> None:
    stats: Counter[str] = Counter()

    @settings(max_examples=10, deadline=None)
    @given(request=fuzzing_rulesets.corpus_requests(), seed=st.integers(0, 2**32))
    def run(request: dict[str, object], seed: int) -> None:
        fuzzing.check_ruleset_resolution(request, seed, stats)

    run()
    assert sum(stats.values()) >= 10


def test_round_files_played_in_place_keep_the_guarantees(tmp_path: Path) -> None:
    stats: Counter[str] = Counter()

    @settings(max_examples=8, deadline=None)
    @given(files=fuzzing_rulesets.round_files())
    def run(files: tuple[str, str]) -> None:
        fuzzing_rulesets.check_round_files(files, str(tmp_path), stats)

    run()
    assert sum(stats.values()) >= 8


def test_a_refused_round_leaves_the_state_file_unchanged(tmp_path: Path) -> None:
    """The example round with an unknown creature in its stream: exit 3 and
    not one byte of the state written (the property the fuzzing checks)."""
    state, script = fuzzing_rulesets.round_corpus()[-1]
    broken = {**script, "stream": ["mewtwo", *script["stream"]]}
    stats: Counter[str] = Counter()
    fuzzing_rulesets.check_round_files((fuzzing.to_yaml(state), fuzzing.to_yaml(broken)),
                                       str(tmp_path), stats)
    assert stats == Counter({"round exit 3": 1})
    fuzzing_rulesets.check_round_files((fuzzing.to_yaml(state), fuzzing.to_yaml(script)),
                                       str(tmp_path), stats)
    assert stats["round exit 0"] == 1
