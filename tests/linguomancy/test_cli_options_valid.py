"""The one-off d20 commands skip the jsonschema pass (start-up cost): every
request their options can build must therefore be schema-valid, or the
options must be refused as a usage error (exit 2). Checked here on generated
option lists, including hostile values."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linguo_cli.io.document import Document
from linguo_cli.rulesets.linguomancy.commands import d20 as cli
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

from ..conftest import run_cli

TEXT = st.text(min_size=0, max_size=120)
NUMBER = st.one_of(st.integers(-2_000_000, 2_000_000), st.integers(), st.sampled_from(
    ["0", "-0", "+3", "1e3", "3.5", "", " 4 ", "0x10", "99999999999999999999"]))


def _mod() -> st.SearchStrategy[list[str]]:
    value = st.one_of(st.integers(-2_000_000, 2_000_000).map(str), TEXT)
    label = st.one_of(st.sampled_from(["strength", "bless", "x" * 101, ""]), TEXT)
    return st.one_of(value, st.tuples(label, value).map(lambda t: f"{t[0]}={t[1]}")).map(
        lambda m: ["--mod", m])


def _opt(name: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[list[str]]:
    return values.map(lambda v: [name, str(v)])


ROLLS = st.one_of(
    st.lists(st.integers(0, 1001), min_size=1, max_size=4).map(lambda f: ",".join(map(str, f))),
    TEXT)
COMMON = [_mod(), st.just(["--adv"]), st.just(["--dis"]), _opt("--rolls", ROLLS),
          _opt("--seed", NUMBER)]
PER_COMMAND = {
    "check": [_opt("--dc", NUMBER), _opt("--noun", TEXT), _opt("--knows", TEXT)],
    "attack": [_opt("--ac", NUMBER), st.just(["--no-ac"]),
               _opt("--ruling", st.sampled_from(["partial-success-hits", "other"]))],
    "save": [_opt("--dc", NUMBER), st.just(["--no-ability"])],
}


REQUIRED = {
    "check": _opt("--dc", st.integers(-1_000_000, 1_000_000)),
    "attack": st.one_of(_opt("--ac", st.integers(-1_000_000, 1_000_000)), st.just(["--no-ac"])),
    "save": _opt("--dc", st.integers(-1_000_000, 1_000_000)),
}


@st.composite
def invocations(draw: Any) -> list[str]:
    command = draw(st.sampled_from(sorted(PER_COMMAND)))
    parts = [draw(REQUIRED[command])]  # so that most invocations get past the target
    parts += draw(st.lists(st.one_of(*COMMON, *PER_COMMAND[command]), max_size=4))
    return [command] + [a for p in parts for a in p]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(args=invocations())
def test_option_built_requests_are_schema_valid(args: list[str]) -> None:
    seen: list[dict[str, Any]] = []
    real = cli.run_request

    def checking(request: dict[str, Any], **kw: Any) -> None:
        seen.append(request)  # checked below: an exception here would become exit 5

    mp = pytest.MonkeyPatch()
    mp.setattr(cli, "run_request", checking)
    try:
        run = run_cli(*args)
    finally:
        mp.undo()
    assert real is cli.run_request
    assert "Traceback" not in run.stderr
    if not seen:
        assert run.exit_code == 2, (args, run.stderr)  # refused as a usage error
    else:
        assert run.exit_code == 0, (args, run.stderr)
        # what the skipped jsonschema pass would have said: nothing
        errors = SCHEMAS.errors(Document("<options>", seen[0]), "request")
        assert errors == [], (args, errors)
