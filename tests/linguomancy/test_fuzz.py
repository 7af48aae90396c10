"""Property-based fuzzing (bounded for CI; the long campaign is
``tests/fuzz_campaign.py``, ``tox -e fuzz``).

Valid requests of every registered kind are generated from our own JSON
Schemas: no exception other than a LinguoError escapes, result states keep
every resource in range, and resolution replays identically from the faces it
used. Mutated requests and states (wrong types, removed keys, huge numbers,
strings in number places, cut or spliced text) are refused with exit 3 and a
place, never a traceback.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.io.document import Document
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

from .. import fuzzing
from ..conftest import run_cli

KINDS = fuzzing.request_kinds()


def test_every_registered_kind_is_fuzzed() -> None:
    assert {"check", "attack", "save"} <= set(KINDS)
    for kind in KINDS:
        assert fuzzing.kind_schema_ref(kind).startswith("urn:linguo:")


def _is_valid(request: object) -> bool:
    try:
        SCHEMAS.validate(Document("request", request), "request")
    except InputError:
        return False
    return True


@pytest.mark.parametrize("kind", KINDS)
def test_generator_makes_valid_requests(kind: str) -> None:
    """The schema strategy is not vacuous: most requests it makes are valid."""
    seen: Counter[bool] = Counter()

    @settings(max_examples=30)
    @given(fuzzing.requests_of(kind))
    def draw(request: dict[str, object]) -> None:
        assert request["kind"] == kind
        seen[_is_valid(request)] += 1

    draw()
    assert seen[True] >= seen[False], f"{kind}: {seen[True]} valid, {seen[False]} invalid"


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=12)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_valid_requests_resolve_cleanly(kind: str, data: st.DataObject, seed: int) -> None:
    request = data.draw(fuzzing.requests_of(kind))
    fuzzing.check_resolution(request, seed, Counter())


@settings(max_examples=60)
@given(text=fuzzing.mutated_texts(fuzzing.any_request()))
def test_mutated_requests_are_refused_with_a_place(text: str) -> None:
    fuzzing.check_text(text, "request", Counter())


@settings(max_examples=40)
@given(text=fuzzing.mutated_texts(fuzzing.states()))
def test_mutated_states_are_refused_with_a_place(text: str) -> None:
    fuzzing.check_text(text, "state", Counter())


@settings(max_examples=30)
@given(state=fuzzing.states())
def test_valid_states_load_and_read_back(state: dict[str, object]) -> None:
    fuzzing.check_state_text(state, Counter())


@settings(max_examples=25)
@given(text=fuzzing.mutated_texts(fuzzing.any_request()))
def test_cli_never_shows_a_traceback(text: str) -> None:
    """Through the command line: one line per problem, a documented code."""
    run = run_cli("resolve", "-", "--json", input=text)
    assert run.exit_code in (0, 3, 4), (run.exit_code, run.stderr)
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    if run.exit_code:  # --json: stdout holds only the error object (issue 18)
        assert json.loads(run.stdout)["error"]["exit"] == run.exit_code
        assert all(line.startswith("linguo: error: ") for line in run.stderr.splitlines())
    if run.exit_code == 3:
        assert "<stdin>" in run.stderr or "rolls" in run.stderr or "face" in run.stderr


def test_mutation_checker_can_fail() -> None:
    """The text check rejects a diagnostic without a place (it is not a tautology)."""
    with pytest.raises(AssertionError):
        bad = InputError(Diagnostic("<fuzz>", "dc", "something wrong"))
        for d in bad.diagnostics:
            assert fuzzing.PLACE.match(d.place) or any(
                w in d.message for w in fuzzing.WHOLE_DOCUMENT), "no place"
