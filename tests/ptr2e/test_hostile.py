"""Hostile PTR 2e requests: golden requests with values replaced, keys
dropped or added at random never crash linguo (a result, exit 3 or exit 4,
never an internal error), and every refusal carries a rulings code."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from linguo_cli.conformance import golden
from linguo_cli.rulesets.ptr2e.refusals import CODES

from ..conftest import ROOT

REQUESTS = [c.request for c in golden.load_suite(ROOT / "golden" / "ptr2e").cases]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=8)
    | st.sampled_from(["overland", "fly", "simple", "complex", "free", "move", "fire",
                       "priority", "interrupt", "challenging", "running", "a", "b"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, path + (i,))
    return out


@st.composite
def hostile(draw: st.DrawFn) -> dict[str, Any]:
    request = copy.deepcopy(draw(st.sampled_from(REQUESTS)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(request) if p and p[0] not in ("ruleset", "kind")]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = request
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "drop", "add"]))
        if action == "drop" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = draw(json_values)
        else:
            parent[path[-1]] = draw(json_values)
    return request


@given(hostile())
def test_hostile_requests_never_crash(request: dict[str, Any]) -> None:
    reply = golden.run_in_process(request)
    if reply.result is not None:
        assert reply.result["ruleset"] == "ptr2e" and isinstance(reply.result["rules"], list)
        return
    assert reply.error_code in (3, 4), reply.message
    if reply.error_code == 4:  # every rules refusal is one of the rulings' codes
        assert reply.error is not None and reply.error["code"] in CODES, reply.message
        assert reply.error["rule"] is not None
