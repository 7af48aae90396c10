"""core.evolve: the same record as dataclasses.replace, generated per class."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linguo_cli.core.evolve import evolve
from linguo_cli.rulesets.linguomancy.model import Entity


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Checked:
    """With ``__post_init__``: evolve must run it, as replace does."""

    n: int

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("negative")


@dataclass
class Derived:
    a: int
    b: int = field(init=False, default=0)


ENTITY = Entity.from_dict({"id": "e0", "name": "E", "kind": "player", "hp": 12, "max_hp": 20,
                           "abilities": {"potential": 2}, "ac": 12, "movement_max": 9,
                           "movement": 9})


@given(st.integers(), st.integers(), st.lists(st.text(max_size=3), max_size=3).map(tuple))
def test_same_as_replace(x: int, y: int, tags: tuple[str, ...]) -> None:
    p = Point(1, 2, ("a",))
    for changes in ({}, {"x": x}, {"y": y, "tags": tags}, {"x": x, "y": y, "tags": tags}):
        new = evolve(p, **changes)
        assert new == dataclasses.replace(p, **changes) and type(new) is Point
        assert p == Point(1, 2, ("a",))  # the original is untouched


def test_an_entity_changes_only_the_named_fields() -> None:
    new = evolve(ENTITY, movement=3, action_points=1)
    assert new == dataclasses.replace(ENTITY, movement=3, action_points=1)
    assert (new.movement, new.action_points, new.hp) == (3, 1, 12)
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.hp = 3  # type: ignore[misc]


def test_unknown_field_is_a_type_error_as_with_replace() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        evolve(Point(1), z=3)
    with pytest.raises(TypeError, match="'hpp'"):
        evolve(ENTITY, hp=1, hpp=2)


@pytest.mark.parametrize("record,changes", [(Checked(1), {"n": -1}), (Derived(1), {"b": 2})])
def test_classes_replace_treats_specially_take_replace(record: Any, changes: dict[str, Any]
                                                       ) -> None:
    with pytest.raises((ValueError, TypeError)) as evolved:
        evolve(record, **changes)
    with pytest.raises((ValueError, TypeError)) as replaced:
        dataclasses.replace(record, **changes)
    assert type(evolved.value) is type(replaced.value)


def test_not_a_dataclass() -> None:
    with pytest.raises(TypeError, match="dataclass instances"):
        evolve((1, 2))
