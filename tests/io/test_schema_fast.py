"""The optional validation accelerator (:mod:`linguo_cli.io.schema_fast`,
jsonschema-rs): every error, message and place is the same with and without
it, it never accepts what jsonschema rejects, and without jsonschema-rs
(or where it might disagree) jsonschema alone decides."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.conformance import golden
from linguo_cli.core import ruleset as rulesets
from linguo_cli.io import schema_fast
from linguo_cli.io.document import Document
from linguo_cli.io.read import parse, read_text
from linguo_cli.io.schema import SchemaSet

from ..conftest import ROOT

pytest.importorskip("jsonschema_rs")  # the test extra installs it

#: Each ruleset's schema set as the engine uses it (accelerated) and a twin
#: that never uses the accelerator.
RULESETS = ("linguomancy", "novence-eternal", "ptr2e")


@cache
def schema_sets(name: str) -> tuple[SchemaSet, SchemaSet]:
    folder = rulesets.get(name).schemas
    assert folder is not None
    return SchemaSet(folder), SchemaSet(folder, accelerate=False)


@cache
def golden_requests() -> list[tuple[str, dict[str, Any]]]:
    """``(ruleset, request)`` of every golden case of every suite, the
    invalid ones (expect_error 3) included."""
    out = []
    for name in RULESETS:
        for case in golden.load_cases(ROOT / "golden" / name):
            out.append((case.ruleset, copy.deepcopy(dict(case.request))))
    return out


def _request_schema(ruleset: str, request: Any) -> str:
    if ruleset == "ptr2e":
        return f"{request.get('kind')}-request" if isinstance(request, dict) else "round-request"
    return "request"


def _errors(schemas: SchemaSet, doc: Document, name: str) -> list[str]:
    try:
        return [str(d) for d in schemas.errors(doc, name)]
    except FileNotFoundError:  # a PTR kind without a schema: no such schema either way
        return ["no schema"]


def test_every_schema_of_every_ruleset_is_accelerated() -> None:
    """Today's schemas use only keywords and patterns on which the two agree
    (a schema that did not would simply go to jsonschema)."""
    for name in RULESETS:
        fast, _ = schema_sets(name)
        assert all(fast.fast_validator(n) is not None for n in fast.names()), name


def test_golden_requests_give_the_same_errors_on_both_paths() -> None:
    invalid = 0
    for ruleset, request in golden_requests():
        fast, slow = schema_sets(ruleset)
        name = _request_schema(ruleset, request)
        doc = Document("request", request)
        got, want = _errors(fast, doc, name), _errors(slow, doc, name)
        assert got == want, (ruleset, request)
        invalid += bool(want)
    assert invalid >= 20  # the suite's invalid requests went through the fallback


def test_golden_case_files_and_states_give_the_same_errors_on_both_paths() -> None:
    fast, slow = schema_sets("linguomancy")
    files = golden.case_files(ROOT / "golden" / "linguomancy")
    for path in files:
        doc = parse(read_text(str(path))[1], path.name)
        assert schema_fast.plain_json(doc.data)  # a loaded document is accelerated
        assert fast.errors(doc, "golden-case-file") == slow.errors(doc, "golden-case-file") == []
    broken = parse("cases:\n  - id: 7\n    description: x\n    request: {kind: chek}\n"
                   "    expect: {}\n    extra: 1\n", "broken.yaml")
    want = slow.errors(broken, "golden-case-file")
    assert want and fast.errors(broken, "golden-case-file") == want
    for path in sorted((ROOT / "examples").rglob("*.yaml")):
        doc = parse(read_text(str(path))[1], path.name)
        if isinstance(doc.data, dict) and "entities" in doc.data:
            assert fast.errors(doc, "state") == slow.errors(doc, "state"), path


def test_invalid_documents_give_identical_errors_and_places() -> None:
    fast, slow = schema_sets("linguomancy")
    texts = [
        "kind: check\nmod: 5\ndc: fifteen\n",
        "kind: attack\nmod: 5\nac: 12\nrolls: [21]\nadvantage: yes\n",
        "kind: turn\nstate: {entities: [{id: a, hp: -1}]}\nactions: []\n",
        "kind: dice\nexpression: 1d6\nrolls: [1.5]\nextra: {deep: [1, 2]}\n",
        '{"kind": "damage", "target": "a", "amount": "x", "state": {"entities": []}}',
        "kind: cast\n",
        "[1, 2]\n",
    ]
    for text in texts:
        doc = parse(text, "bad.yaml")
        want = slow.errors(doc, "request")
        assert want, text
        assert fast.errors(doc, "request") == want
        assert [d.place for d in fast.errors(doc, "request")] == [d.place for d in want]


def test_values_the_accelerator_reads_differently_go_to_jsonschema() -> None:
    """A tuple is an array to jsonschema-rs and not to jsonschema; an
    infinity passes jsonschema-rs's maximum; ``multipleOf`` on floats and
    ``\\d`` in a pattern are not read alike: none of them reaches it."""
    fast, slow = schema_sets("linguomancy")
    for request in ({"kind": "dice", "expression": "1d6", "rolls": (3,)},
                    {"kind": "check", "mod": float("inf"), "dc": 10, "rolls": [5]},
                    {"kind": "check", "mod": 2**60, "dc": 10, "rolls": [5]}):
        doc = Document("r", request)
        assert not schema_fast.plain_json(request)
        assert fast.errors(doc, "request") == slow.errors(doc, "request") != []
    assert schema_fast.disagreements({"properties": {"x": {"multipleOf": 0.1}}}) == \
        ["keyword 'multipleOf'"]
    for pattern in (r"^\d+$", "^(?=a)", "[a-z&&[^b]]", "[a--z]", "a{,3}", r"\bx"):
        assert not schema_fast.portable_pattern(pattern), pattern
    for pattern in ("^[A-Z][0-9]+$", r"^[0-9]{1,3}\.[0-9]{2}$", "^(0|[1-9][0-9]*)$"):
        assert schema_fast.portable_pattern(pattern), pattern


def test_a_schema_referring_to_a_disagreeing_one_is_not_accelerated(tmp_path: Path) -> None:
    schemas = {
        "defs": {"$defs": {"code": {"type": "string", "pattern": r"^\d+$"}}},
        "uses-defs": {"properties": {"code": {"$ref": "urn:t:defs#/$defs/code"}}},
        "plain": {"properties": {"n": {"type": "integer", "maximum": 3}}},
        "outside": {"properties": {"n": {"$ref": "urn:elsewhere#/x"}}},
    }
    for name, schema in schemas.items():
        (tmp_path / f"{name}.schema.json").write_text(
            json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema",
                        "$id": f"urn:t:{name}", **schema}), encoding="utf-8")
    fast = SchemaSet(tmp_path)
    assert fast.fast_validator("plain") is not None
    assert [fast.fast_validator(n) for n in ("defs", "uses-defs", "outside")] == [None] * 3
    # the unicode digit: Python's \d takes it, so jsonschema's answer stands
    doc = Document("d", {"code": "\u0661\u0662"})
    assert fast.errors(doc, "uses-defs") == [] == SchemaSet(tmp_path, accelerate=False).errors(
        doc, "uses-defs")


def test_without_jsonschema_rs_jsonschema_alone_gives_the_same_results(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schema_fast, "_MODULE", None)
    monkeypatch.setattr(schema_fast, "_LOADED", True)  # as if jsonschema-rs were not installed
    assert schema_fast.module() is None
    for name in RULESETS:
        folder = rulesets.get(name).schemas
        assert folder is not None
        without = SchemaSet(folder)
        assert without.fast_validator(without.names()[0]) is None
        _, slow = schema_sets(name)
        for ruleset, request in golden_requests():
            if ruleset == name:
                doc = Document("request", request)
                schema = _request_schema(ruleset, request)
                assert _errors(without, doc, schema) == _errors(slow, doc, schema)
    # the module really is optional: importing it fails -> None
    monkeypatch.setattr(schema_fast, "_LOADED", False)
    monkeypatch.setitem(__import__("sys").modules, "jsonschema_rs", None)
    assert schema_fast.module() is None


# ---------------------------------------------------------------------------
# Property: on near-valid requests the accelerator never accepts what
# jsonschema rejects, and the reported errors are the same on both paths.


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


_SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.sampled_from([0, 1, -1, 20, 21, 100, 101, 999_999, 1_000_000, 1_000_001, 2**31, 2**53]),
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0.5, 1.0, -0.0, 20.0]),
    st.text(alphabet="adkhlAZ019-_./: \n", max_size=12),
    st.sampled_from(["", "1d20", "2d6+3", "A1", "NA1", "d20:12", "1/2", "-3/4", "ab\n",
                     "poisoned", "adv", "check", "attack", "x" * 41]),
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["id", "hp", "x", "kind"]),
                                                 inner, max_size=3)), max_leaves=6)


@st.composite
def near_valid(draw: st.DrawFn) -> tuple[str, Any]:
    ruleset, request = draw(st.sampled_from(golden_requests()))
    request = copy.deepcopy(request)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(request))))
        if not path:
            continue
        parent: Any = request
        for p in path[:-1]:
            parent = parent[p]
        action = draw(st.sampled_from(["set", "drop", "add"]))
        if action == "drop":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "rolls", "mod", "dc", "seed", "ruleset"]))] = \
                draw(_VALUES)
        else:
            parent[path[-1]] = draw(_VALUES)
    return ruleset, request


@settings(max_examples=300, deadline=None)
@given(near_valid())
def test_accelerator_agrees_with_jsonschema_on_near_valid_requests(
        item: tuple[str, Any]) -> None:
    ruleset, request = item
    fast, slow = schema_sets(ruleset)
    name = _request_schema(ruleset, request)
    try:
        used = slow.dispatch(name, request)
        rs_validator = fast.fast_validator(used)
        py_valid = slow.validator(used).is_valid(request)
    except FileNotFoundError:
        return  # a PTR kind changed to one without a schema
    assert rs_validator is not None
    if schema_fast.plain_json(request) and schema_fast.accepts(rs_validator, request):
        assert py_valid, request  # never accepts what jsonschema rejects
    doc = Document("request", request)
    assert fast.errors(doc, name) == slow.errors(doc, name)
    assert fast.is_valid(name, request) == py_valid
