"""Dying and death (H5-H8, H10): the one :func:`die`, and the condition
changes of dropping to 0 HP, being knocked out and regaining HP.

:func:`die` is the one way any entity dies, whatever killed it (H4, H5, H7,
three death-save failures, overclocking rows 8-10, 6 Exhaustion tiers): H10
rev. 2, every condition ends and the entity holds a death record. The other
functions are the shared pieces of :mod:`linguo_cli.rulesets.linguomancy.hp`
(damage, healing, death saves). Pure: entities are frozen and returned anew.
"""

from __future__ import annotations

from linguo_cli.core.derivation import Step
from linguo_cli.core.evolve import evolve
from linguo_cli.rulesets.linguomancy.model import Condition, Entity

#: Sources of an Unconscious condition that dropping to 0 HP gives, and that
#: regaining HP ends (H8, C1).
ZERO_HP_SOURCES: frozenset[str] = frozenset({"dying", "nonlethal"})

#: Death-save counts at which the entity becomes Stable / dies (H6).
DEATH_SAVE_LIMIT = 3


def without(conditions: tuple[Condition, ...], name: str,
            sources: frozenset[str] | None = None) -> tuple[Condition, ...]:
    """``conditions`` without those named ``name`` (of a source in
    ``sources`` only, when given)."""
    return tuple(c for c in conditions
                 if not (c.name == name and (sources is None or c.source in sources)))


def with_condition(conditions: tuple[Condition, ...], name: str, source: str
                   ) -> tuple[Condition, ...]:
    """``conditions`` with ``name`` (from ``source``) added, unless held."""
    if any(c.name == name for c in conditions):
        return conditions
    return conditions + (Condition(name, source),)


def die(entity: Entity, cause: str, resurrection: str | None = None
        ) -> tuple[Entity, list[str]]:
    """The one way an entity dies (H10), whatever killed it: H4, H5, H7,
    three death-save failures (H6), overclocking rows 8-10 (F4) or 6
    Exhaustion tiers (F5).

    Returns the dead entity and its events. The entity is ``dead`` with HP 0
    and a death record: ``cause`` (a ``death.cause`` of the state schema)
    and ``resurrection`` (``very_hard`` or ``impossible`` for overclocking
    rows 9 and 10, else ``None``). Every condition it had ends (H10): the
    events are ``dies`` then one ``condition_ends:NAME`` per condition held,
    in the order held (the same event the turn engine gives when a condition
    ends). Death-save counts, temporary HP and Exhaustion tiers are kept as
    they were (they are not conditions of the state). Raises nothing.
    """
    events = ["dies", *(f"condition_ends:{c.name}" for c in entity.conditions)]
    dead = evolve(entity, hp=0, dead=True, death_cause=cause, resurrection=resurrection,
                   conditions=())
    return dead, events


def record_death(entity: Entity, cause: str, events: list[str], steps: list[Step],
                 resurrection: str | None = None) -> Entity:
    """:func:`die` for a rule that logs as it goes: the death's events are
    appended to ``events`` and an H10 step naming the conditions that ended
    to ``steps``; returns the dead entity."""
    dead, died = die(entity, cause, resurrection)
    events.extend(died)
    ended = [c.name for c in entity.conditions]
    steps.append(Step("H10", f"death ({cause.replace('_', ' ')}): every condition it had "
                             "ends" + (f" ({', '.join(ended)})" if ended else " (it had none)")))
    return dead


def wakes(before: Entity, after: Entity) -> bool:
    """H8: the entity woke only when it was Unconscious and no Unconscious
    (of any source) is left."""
    return before.has("Unconscious") and not after.has("Unconscious")


def knock_out(e: Entity, events: list[str], steps: list[Step]) -> Entity:
    """H5 rev. 2: nonlethal damage where H4, H5 or H7 would kill or add a
    failure: 0 HP, Unconscious and Stable (source ``nonlethal`` for what it
    adds), Dying ends, counts reset to 0."""
    conds = without(e.conditions, "Dying")
    if not e.has("Unconscious"):
        conds = with_condition(conds, "Unconscious", "nonlethal")
        events.append("falls_unconscious")
    if not e.has("Stable"):
        conds = with_condition(conds, "Stable", "nonlethal")
        events.append("stable")
    steps.append(Step("H5", "nonlethal damage never kills nor adds a death-save failure: "
                            "it stays at 0 HP, Unconscious and Stable"
                            + (" (no longer Dying)" if e.has("Dying") else "")
                            + ", counts 0"))
    return evolve(e, hp=0, conditions=conds, death_successes=0, death_failures=0)


def start_dying(e: Entity, events: list[str], steps: list[Step], rule: str) -> Entity:
    """H5: Dying and Unconscious, death-save counts at 0."""
    if rule == "H5":
        steps.append(Step("H5", f"0 HP: {e.id} starts Dying and falls Unconscious "
                                "(at_zero_hp: dying)"))
    if not e.has("Unconscious"):
        events.append("falls_unconscious")
    events.append("starts_dying")
    conds = with_condition(with_condition(e.conditions, "Dying", "dying"), "Unconscious", "dying")
    return evolve(e, conditions=conds, death_successes=0, death_failures=0)


def regained_conditions(entity: Entity) -> tuple[Condition, ...]:
    """H8: the conditions left when HP is regained at 0 HP: Dying, Stable and
    the Unconscious that 0 HP gave (sources in :data:`ZERO_HP_SOURCES`)
    end; an Unconscious of another source (overclocking) stays."""
    conds = without(without(entity.conditions, "Dying"), "Stable")
    return without(conds, "Unconscious", ZERO_HP_SOURCES)


def h8_step(before: Entity, after: Entity) -> Step:
    """The H8 line: what regaining HP at 0 HP ended, and whether it woke."""
    text = ("HP regained at 0 HP: Dying, Stable and Unconscious from 0 HP end; "
            "death-save counts reset")
    if after.has("Unconscious"):
        sources = ", ".join(c.source or "no source" for c in after.conditions
                            if c.name == "Unconscious")
        text += f"; still Unconscious ({sources}): it does not wake"
    return Step("H8", text)
