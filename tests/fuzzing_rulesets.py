"""Fuzzing of the other rulesets' documents (PTR 2e, Novence Eternal), shared
by the bounded tests (``tests/ptr2e/test_fuzz.py``) and the long campaign
(``tests/fuzz_campaign.py``, ``tox -e fuzz``).

* :func:`other_requests` - requests of every kind of every ruleset but
  Linguomancy, generated from that kind's own schema
  (:func:`tests.fuzzing.ruleset_requests_of`).
* :func:`corpus_requests` - the requests of those rulesets' golden cases (real
  documents that reach the rules), the base of :func:`mutated_requests`.
* :func:`round_files` and :func:`check_round_files` - a PTR 2e state and
  script written to files (golden rounds and the example round, mutated or
  not) and played by ``linguo ptr2e round STATE SCRIPT --in-place``: never a
  traceback, exit 0, 3 (bad input, naming a file) or 4 (a rules refusal), a
  refused round leaves the state file byte for byte unchanged, and a written
  state reads back valid against ``state.schema.json`` with the result's
  round, Power Points and owed skips.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from linguo_cli.conformance import golden

try:
    from tests import fuzzing
except ImportError:  # run as a script from tests/
    import fuzzing  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
#: The exit codes ``linguo ptr2e round`` documents: written, bad input, rules refusal.
ROUND_EXITS = (0, 3, 4)
#: Keys of a PTR 2e round request that are not its script's (PV1).
NOT_SCRIPT = ("ruleset", "kind", "description", "state")


def other_requests() -> st.SearchStrategy[Any]:
    """A generated request of any kind of any installed ruleset but Linguomancy."""
    return st.one_of([fuzzing.ruleset_requests_of(r, k) for r, k in fuzzing.other_ruleset_kinds()])


@cache
def golden_requests() -> tuple[dict[str, Any], ...]:
    """The request of every golden case of every ruleset but Linguomancy."""
    names = sorted({r for r, _ in fuzzing.other_ruleset_kinds()})
    return tuple(c.request for name in names
                 for c in golden.load_suite(golden.suite_dir(name)).cases
                 if isinstance(c.request, dict))


def corpus_requests() -> st.SearchStrategy[Any]:
    """A golden request of another ruleset (a deep copy)."""
    return st.sampled_from(golden_requests()).map(copy.deepcopy)


def mutated_requests() -> st.SearchStrategy[str]:
    """A request text of another ruleset broken on purpose: a golden or a
    generated request, mutated (:func:`tests.fuzzing.mutated_texts`)."""
    return fuzzing.mutated_texts(st.one_of(corpus_requests(), other_requests()))


@cache
def round_corpus() -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """``(state, script)`` of every golden PTR 2e round and of the example round."""
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import load

    out = []
    for case in golden.load_suite(golden.suite_dir("ptr2e")).cases:
        request = case.request
        if isinstance(request, dict) and request.get("kind") == "round":
            out.append((copy.deepcopy(request["state"]),
                        {k: copy.deepcopy(v) for k, v in request.items() if k not in NOT_SCRIPT}))
    examples = ROOT / "examples" / "ptr2e"
    out.append((to_plain(load(str(examples / "state.yaml")).data),
                to_plain(load(str(examples / "round.yaml")).data)))
    return tuple(out)


@st.composite
def _text(draw: Any, doc: Any, mutate: bool) -> str:
    if mutate:
        return str(draw(fuzzing.mutated_texts(st.just(doc))))
    if draw(st.booleans()):
        return json.dumps(doc, ensure_ascii=False, indent=draw(st.sampled_from([None, 2])))
    return fuzzing.to_yaml(doc)


@st.composite
def round_files(draw: Any) -> tuple[str, str]:
    """``(state text, script text)``: a round of :func:`round_corpus`, as JSON
    or YAML, with the state, the script, both or neither mutated."""
    state, script = draw(st.sampled_from(round_corpus()))
    which = draw(st.sampled_from(["state", "script", "both", "neither"]))
    return (draw(_text(state, which in ("state", "both"))),
            draw(_text(script, which in ("script", "both"))))


def check_round_files(files: tuple[str, str], workdir: str, stats: Counter[str]) -> None:
    """Play ``files`` (state, script) with ``linguo ptr2e round STATE SCRIPT
    --in-place --json`` in process: see the module text for the properties."""
    from typer.testing import CliRunner

    from linguo_cli.cli.app import app

    state, script = Path(workdir) / "state.yaml", Path(workdir) / "script.yaml"
    state.write_text(files[0], encoding="utf-8")
    script.write_text(files[1], encoding="utf-8")
    before = state.read_bytes()
    run = CliRunner().invoke(app, ["ptr2e", "round", str(state), str(script), "--in-place",
                                   "--json"])
    if run.exception is not None and not isinstance(run.exception, SystemExit):
        raise fuzzing.Escaped(f"ptr2e round raised {type(run.exception).__name__}: "
                              f"{run.exception}") from run.exception
    assert "Traceback" not in run.stderr, run.stderr
    assert run.exit_code in ROUND_EXITS, (run.exit_code, run.stderr)
    stats[f"round exit {run.exit_code}"] += 1
    if run.exit_code:
        assert state.read_bytes() == before, "a refused round changed the state file"
        assert run.stderr.strip(), "a refusal without a message"
        assert _placed(run.exit_code, run.stderr, (str(state), str(script))), run.stderr
        return
    _check_written(state, json.loads(run.stdout))


def _placed(code: int, stderr: str, files: tuple[str, str]) -> bool:
    """A refusal names its place: bad input (exit 3) its file (``file:line:col``)
    or, for PV4's input checks found in play, the PV4 place and an input
    code; a rules refusal (exit 4) its refusal code (PV4, refusal codes)."""
    from linguo_cli.rulesets.ptr2e.refusals import CODES, INPUT_CODES

    if code == 3:
        return any(f in stderr for f in files) or any(f": {c}: " in stderr for c in INPUT_CODES)
    return any(f"{c}: " in stderr for c in CODES)


def _check_written(state: Path, result: dict[str, Any]) -> None:
    """The state written back reads as a valid state carrying the result's
    ``state_after`` values that the command rewrites (PV5)."""
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import load
    from linguo_cli.rulesets.ptr2e.requests import schemas

    doc = load(str(state))
    schemas().validate(doc, "state")
    data, after = to_plain(doc.data), result["state_after"]
    assert data["round"] == after["round"], (data.get("round"), after["round"])
    for name, spec in after["combatants"].items():
        for key in ("owed_skips", "pp"):
            if key in spec:
                assert data["combatants"][name].get(key) == spec[key], (name, key)
