"""JSON on one line is written back without locating every value
(:func:`linguo_cli.io.json_text.one_line_edit`, issue 16): the text is the
editor's (:class:`linguo_cli.io.writeback._Editor`) byte for byte, and
where the editor gives up, so does the quick path."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.io import writeback
from linguo_cli.io.json_text import one_line_edit
from linguo_cli.io.read import parse

SEPARATORS = [(",", ":"), (", ", ": ")]

keys = st.text(alphabet="abcé ,:-", min_size=1, max_size=4)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False, width=32),
                    st.text(alphabet="xyé, :\"\\-", max_size=5))
trees = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)), max_leaves=12)
roots = st.dictionaries(keys, trees, min_size=1, max_size=4)


def changed(tree: Any, draw: Any) -> Any:
    """``tree`` with some values changed, keys added or removed, lists grown or shrunk."""
    if isinstance(tree, dict):
        out = {k: changed(v, draw) if draw(st.booleans()) else v for k, v in tree.items()}
        if out and draw(st.integers(0, 5)) == 0:
            del out[draw(st.sampled_from(sorted(out)))]
        if draw(st.integers(0, 3)) == 0:
            out[draw(keys)] = draw(trees)
        return out
    if isinstance(tree, list):
        out_list = [changed(v, draw) if draw(st.booleans()) else v for v in tree]
        if draw(st.integers(0, 3)) == 0:
            out_list.append(draw(trees))
        elif out_list and draw(st.integers(0, 3)) == 0:
            out_list.pop()
        return out_list
    return draw(trees) if draw(st.booleans()) else tree


def editor_text(text: str, before: Any, new: Any) -> str | None:
    doc = parse(text, "state.json")
    try:
        return writeback._Editor(doc).run(before, new)
    except writeback._Fallback:
        return None


@settings(max_examples=300, deadline=None)
@given(roots, st.sampled_from(SEPARATORS), st.sampled_from(["", "\n", "  \n"]), st.data())
def test_one_line_json_is_the_editors_text(before: dict[str, Any], seps: tuple[str, str],
                                           tail: str, data: Any) -> None:
    text = json.dumps(before, separators=seps, ensure_ascii=False) + tail
    new = changed(copy.deepcopy(before), data.draw)
    before = parse(text, "state.json").data  # as read (2.0 stays a float, ...)
    got = one_line_edit(text, before, new)
    want = editor_text(text, before, new)
    if want is None:
        assert got is None
    elif got is not None:
        assert got == want
    else:  # the editor's way: a text that is not the values as json.dumps writes them,
        # or compact text holding ", "
        assert json.dumps(before, separators=seps, ensure_ascii=False) + tail != text \
            or (seps == (",", ":") and ", " in text)


@pytest.mark.parametrize("seps", SEPARATORS)
def test_a_state_turn_is_edited_on_the_quick_path(seps: tuple[str, str]) -> None:
    before = {"round": 1, "entities": [
        {"id": f"e{i}", "kind": "enemy", "hp": 20 + i, "max_hp": 50,
         "conditions": [{"name": "Drained", "remaining_turns": 2}]} for i in range(5)]}
    text = json.dumps(before, separators=seps)
    new = copy.deepcopy(before)
    new["entities"][0].update(hp=3, movement=2.5, action_points=0)
    new["entities"][0]["conditions"][0]["remaining_turns"] = 1
    new["acted_this_round"] = ["e0"]
    got = one_line_edit(text, before, new)
    assert got is not None and got == editor_text(text, before, new)
    assert json.loads(got) == new
    doc = parse(text, "state.json")
    doc.snapshot()
    doc.data = new
    assert writeback.render(doc) == (got, "edited")


@pytest.mark.parametrize("text", [
    '{\n  "round": 1,\n  "entities": []\n}',  # indented: the editor's way
    '{"round": 1,"entities": []}',  # separators mixed
    '{"round":1, "entities":[]}',
    '{"round":1,"entities":[],"name":"a, b"}',  # compact with ", " in a string
    '{"a":"\\u00e9"}',  # an escape json.dumps would not write
    '{"a":1.50}',  # a number spelled otherwise
])
def test_other_texts_take_the_editors_way(text: str) -> None:
    before = parse(text, "state.json").data
    new = {**before, "round": 2}
    assert one_line_edit(text, before, new) is None


def test_a_removed_key_is_left_to_the_whole_rewrite() -> None:
    text = '{"round":1,"entities":[],"name":"x"}'
    before = parse(text, "state.json").data
    assert one_line_edit(text, before, {"round": 2, "entities": []}) is None
