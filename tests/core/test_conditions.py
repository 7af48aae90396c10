"""Ruleset-neutral conditions (linguo_cli/core/conditions.py) with a toy
effect vocabulary that is not Linguomancy's."""

from __future__ import annotations

from dataclasses import dataclass

from linguo_cli.core import conditions
from linguo_cli.core.conditions import Catalog, Condition
from linguo_cli.core.entity import Entity


@dataclass(frozen=True)
class Speed:
    """A toy vocabulary: a speed penalty (sum) and a blinded flag (or)."""

    penalty: int = 0
    blinded: bool = False

    @property
    def empty(self) -> bool:
        return not self.penalty and not self.blinded

    def combine(self, other: Speed) -> Speed:
        return Speed(self.penalty + other.penalty, self.blinded or other.blinded)


@dataclass(frozen=True)
class Entry:
    name: str
    effects: Speed
    rules: tuple[str, ...] = ()

    @property
    def enforced(self) -> bool:
        return bool(self.rules) or not self.effects.empty


CATALOG = Catalog((Entry("Slowed", Speed(penalty=10)), Entry("Blinded", Speed(blinded=True)),
                   Entry("Grappled", Speed(penalty=5)), Entry("Marked", Speed()),
                   Entry("Dying", Speed(), rules=("NK1",))), name="toy")


def test_held_combines_the_rulesets_vocabulary() -> None:
    held = CATALOG.held(["slowed", "Grappled", "Slowed", "Marked", "Dying", "Hexed"], Speed())
    assert held.effects == Speed(penalty=15)
    assert held.conditions == ("Slowed", "Grappled", "Dying")
    assert held.unenforced == ("Marked",) and held.unknown == ("Hexed",)
    assert CATALOG.get("BLINDED") is not None and CATALOG.enforced("Dying")
    assert not CATALOG.enforced("Marked") and not CATALOG.enforced("Hexed")


def test_gain_keeps_the_longer_duration_per_source_and_tick_counts_down() -> None:
    e = Entity("a", "hero", 5, 5)
    e = conditions.gain(e, "Slowed", "spell", 2)
    e = conditions.gain(e, "Slowed", "spell", 1)  # shorter: kept at 2
    e = conditions.gain(e, "Slowed", "trap", 1)  # another source: held again
    assert e.conditions == (Condition("Slowed", "spell", 2), Condition("Slowed", "trap", 1))
    counted = frozenset(e.conditions)
    e = conditions.gain(e, "Blinded", "dust", 1)  # not counted by this tick
    e, ended = conditions.tick(e, counted)
    assert ended == ["Slowed"]
    assert e.conditions == (Condition("Slowed", "spell", 1), Condition("Blinded", "dust", 1))
    assert conditions.remove(e, "Slowed").conditions == (Condition("Blinded", "dust", 1),)
    assert e.has("Blinded") and not e.has("blinded")
    assert conditions.names(e.conditions) == ["Slowed", "Blinded"]
