"""core.results.to_plain: the converters generated from field annotations
give exactly what the generic walk gives, whatever a field holds."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from enum import Enum, IntEnum, StrEnum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linguo_cli.core import results
from linguo_cli.core.derivation import Step
from linguo_cli.core.results import OMIT, Omit, to_plain


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


class Rank(IntEnum):
    LOW = 1
    HIGH = 2

    def __json__(self) -> str:
        return self.name.lower()

    __json_plain__ = True


class Boxed(Enum):
    """An enum whose value is not a scalar: never converted in line."""

    PAIR = (1, 2)


@dataclass(frozen=True)
class Inner:
    n: int
    colour: Colour


@dataclass(frozen=True)
class Everything:
    """Every annotation shape the generator converts in line."""

    colour: Colour
    rank: Rank
    step: Step
    steps: tuple[Step, ...]
    names: list[str]
    by_name: dict[str, Step]
    faces: tuple[dict[str, object], ...]
    maybe: Rank | None | Omit = OMIT
    boxed: Boxed = Boxed.PAIR
    inner: Inner | None = None
    anything: Any = None
    renamed: int = field(default=0, metadata={"json": "in"})
    rolls_used: tuple[int, ...] = ()
    after: str = "last but one"


def generic(value: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``value`` converted by converters generated without annotations."""
    with monkeypatch.context() as m:
        m.setattr(results, "_CONVERTERS", dict(results._CONVERTERS))
        m.setattr(results, "_hints", lambda cls: {})
        for cls in (Everything, Inner):
            results._CONVERTERS.pop(cls, None)
        return results.to_plain(value)


def sample(**changes: Any) -> Everything:
    base = Everything(
        colour=Colour.BLUE, rank=Rank.HIGH, step=Step("D1", "a"),
        steps=(Step("D3", "natural 12"), Step("D4", "margin +2")),
        names=["x", "y"], by_name={"a": Step("T1", "tick")},
        faces=({"die": 20, "face": 12, "kept": True},), maybe=Rank.LOW,
        inner=Inner(3, Colour.RED), anything={"k": (1, Colour.RED)}, renamed=7,
        rolls_used=(12,))
    return dataclasses.replace(base, **changes)


def test_in_line_conversion_matches_the_generic_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    value = sample()
    fast = to_plain(value)
    assert fast == generic(value, monkeypatch)
    assert list(fast)[-1] == "rolls_used"
    assert fast["rank"] == "high" and fast["colour"] == "blue" and fast["in"] == 7
    assert fast["steps"] == [{"rule": "D3", "text": "natural 12"},
                             {"rule": "D4", "text": "margin +2"}]
    assert fast["boxed"] == [1, 2]
    json.dumps(fast)  # plain all the way down


#: Values that contradict the annotations: the guarded in-line code must
#: hand each to the generic walk.
LIES: list[dict[str, Any]] = [
    {"colour": "plain string"}, {"rank": 2}, {"rank": Colour.RED},
    {"step": {"rule": "X1"}}, {"step": None},
    {"steps": [Step("A1", "list, not tuple")]}, {"steps": ({"rule": "R", "text": "t"},)},
    {"steps": None}, {"names": ("tuple", Colour.RED)}, {"names": "abc"},
    {"by_name": {1: Step("K", "int key")}}, {"by_name": {"a": {"nested": Rank.LOW}}},
    {"by_name": [("not", "a dict")]}, {"faces": [{"die": Rank.HIGH}]},
    {"faces": ({3: "int key"},)}, {"maybe": None}, {"maybe": OMIT}, {"maybe": Colour.BLUE},
    {"inner": None}, {"rolls_used": OMIT}, {"rolls_used": [Rank.LOW]},
]


@pytest.mark.parametrize("changes", LIES, ids=[next(iter(c)) + str(i)
                                               for i, c in enumerate(LIES)])
def test_a_value_the_annotation_does_not_describe_takes_the_generic_walk(
        changes: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    value = sample(**changes)
    assert to_plain(value) == generic(value, monkeypatch)


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4),
                    st.sampled_from(list(Colour) + list(Rank)))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(st.text(max_size=3), inner, max_size=3),
    st.builds(Step, st.text(max_size=3), st.text(max_size=3))), max_leaves=8)


@given(st.fixed_dictionaries({name: values for name in
                              ("colour", "rank", "step", "steps", "names", "by_name", "faces",
                               "maybe")}))
def test_any_field_values_convert_as_the_generic_walk(changes: dict[str, Any]) -> None:
    value = sample(**changes)
    fast = to_plain(value)
    with pytest.MonkeyPatch.context() as m:
        assert fast == generic(value, m)


def test_a_plain_dict_becomes_a_plain_dict_of_the_same_items() -> None:
    values = {"entities": [{"id": "a", "hp": 3}], "round": 2}
    plain = to_plain(results.PlainDict(values))
    assert type(plain) is dict and plain == values
    assert json.dumps(plain) == json.dumps(values)
    assert to_plain({"state": results.PlainDict(values)}) == {"state": values}
