"""Hit points: damage (R1-R3, H1, H4, H5, H7), healing (H3, H8 and the
Complete and Resurrection ticks of T2), temporary HP (H2, H3) and death
saving throws (H6).

Pure functions over :class:`~linguo_cli.rulesets.linguomancy.model.Entity`
(frozen: every change is a new value made with :func:`dataclasses.replace`).
Units are HP throughout. Each returns the new entity and an
:class:`EntityReport`: the derivation steps and, as ``details``, the typed
JSON record of what happened to the entity (a :class:`Change`: ``before``,
``after``, ``events`` and the kind's numbers). Deaths go through the one
:func:`~linguo_cli.rulesets.linguomancy.dying.die` (H10).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import DiceSource, face_record
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.core.evolve import evolve
from linguo_cli.core.results import to_plain
from linguo_cli.rulesets.linguomancy import amount_rules, dying
from linguo_cli.rulesets.linguomancy.model import Entity, state_fields
from linguo_cli.rulesets.linguomancy.ticks import Tick

#: The fields of the state shape listed in a report's ``before``/``after``.
REPORT_FIELDS: tuple[str, ...] = (
    "hp", "max_hp", "temp_hp", "conditions", "death_saves", "dead", "death",
)

#: ``keep`` values of :func:`grant_temp_hp` (H2).
KEEP_CHOICES: tuple[str, ...] = ("larger", "old", "new")


# ---------------------------------------------------------------------------
# Typed records (the JSON of one entity's part of a result)


@dataclass(frozen=True, slots=True)
class Change:
    """What happened to one entity, as JSON: ``before``/``after`` (the fields
    :data:`REPORT_FIELDS` of the state shape, ``Entity.as_dict()`` subsets)
    and ``events``: strings such as ``dies``, ``falls_unconscious``,
    ``starts_dying``, ``stable``, ``death_save_failure`` (one per failure
    added), ``death_save_success``, ``regains_consciousness``,
    ``returns_to_life``, and after ``dies`` one ``condition_ends:NAME`` per
    condition the death ended (H10). Subclasses add the kind's numbers."""

    before: Mapping[str, Any]
    after: Mapping[str, Any]
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DamageChange(Change):
    """Damage to one entity (HP): ``damage`` (before R1-R3),
    ``damage_after_resistance``, ``temp_hp_absorbed`` (H1), ``hp_lost`` and
    ``leftover`` (damage beyond 0 HP, H4)."""

    damage: int
    damage_after_resistance: int
    temp_hp_absorbed: int
    hp_lost: int
    leftover: int


@dataclass(frozen=True, slots=True)
class HealChange(Change):
    """Healing of one entity (HP): ``healing`` offered (``None`` for the tick
    Complete) and ``hp_regained``."""

    healing: int | None
    hp_regained: int


@dataclass(frozen=True, slots=True)
class TempHpChange(Change):
    """A grant of temporary HP (H2): ``granted`` and which set is ``kept``
    (``old`` or ``new``)."""

    granted: int
    kept: str


@dataclass(frozen=True, slots=True)
class DeathSaveChange(Change):
    """One death saving throw (H6): the d20 ``face`` record, its ``natural``
    value and the ``outcome`` (``success``, ``failure``, ``two_failures``,
    ``natural_20``)."""

    face: Mapping[str, object]
    natural: int
    outcome: str


@dataclass(frozen=True, slots=True)
class EntityReport:
    """What happened to one entity: ``before``/``after`` (the fields
    :data:`REPORT_FIELDS` of the state shape), ``events`` (see
    :class:`Change`), ``steps`` (derivation) and ``details``: for the rules of
    this module the typed record (a :class:`Change`), else (other callers) a
    mapping of extra numbers."""

    id: str
    before: dict[str, Any]
    after: dict[str, Any]
    events: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    details: Any = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """``{before, after, events, ...details}`` (steps go to the result's
        explanation)."""
        if isinstance(self.details, Change):
            out: dict[str, Any] = to_plain(self.details)
            return out
        return {"before": dict(self.before), "after": dict(self.after),
                "events": list(self.events), **self.details}


def fields_of(entity: Entity) -> dict[str, Any]:
    """The :data:`REPORT_FIELDS` of ``entity``'s state shape."""
    return state_fields(entity, REPORT_FIELDS)


def _report(before: Entity, after: Entity, events: list[str], steps: list[Step],
            cls: type[Change], numbers: dict[str, Any]) -> EntityReport:
    b, a = fields_of(before), fields_of(after)
    return EntityReport(before.id, b, a, events, steps,
                        cls(before=b, after=a, events=tuple(events), **numbers))


# ---------------------------------------------------------------------------
# Damage (R1-R3, H1, H4, H5, H7), healing (H3, H8), temporary HP, death saves


def resisted_amount(entity: Entity, amount: int, damage_type: str | None
                    ) -> tuple[int, list[Step]]:
    """Rules R1-R3: ``amount`` after the entity's immunity (0), resistance
    (halved, rounded down) and vulnerability (doubled) to ``damage_type``.

    Each counts once (sets, R2); resistance and vulnerability together halve
    first, then double (R3); immunity wins over both. No type: unchanged.
    """
    steps: list[Step] = []
    if damage_type is None:
        return amount, steps
    immune = damage_type in entity.immunities
    resistant = damage_type in entity.resistances
    vulnerable = damage_type in entity.vulnerabilities
    if immune:
        note = " (wins over resistance and vulnerability)" if resistant or vulnerable else ""
        steps.append(Step("R1", f"immune to {damage_type}: {amount} -> 0{note}"))
        if note:
            steps.append(Step("R3", "immunity wins over resistance and vulnerability"))
        return 0, steps
    out = amount
    if resistant:
        halved = amount_rules.halved(out)
        steps.append(Step("R1", f"resistant to {damage_type}: {out} halved, rounded down, "
                                f"-> {halved}"))
        out = halved
    if vulnerable:
        doubled = amount_rules.doubled(out)
        steps.append(Step("R1", f"vulnerable to {damage_type}: {out} doubled -> {doubled}"))
        out = doubled
    if resistant and vulnerable:
        steps.append(Step("R3", "resistance and vulnerability both apply: halved first, "
                                "then doubled"))
    return out, steps


def apply_damage(
    entity: Entity,
    amount: int,
    *,
    damage_type: str | None = None,
    critical: bool = False,
    nonlethal: bool = False,
) -> tuple[Entity, EntityReport]:
    """Apply ``amount`` HP of damage (already rolled, >= 0) to ``entity``.

    Order: R1-R3 (after every other modifier, R2) -> H1 (temporary HP first,
    HP never below 0) -> at 0 HP: H4 massive damage (leftover after temporary
    HP >= max HP: dies), else H5 (``at_zero_hp`` ``dies``: dies; ``dying``:
    Dying and Unconscious).

    Damage above 0 (after R) taken while already at 0 HP follows H7: an
    entity whose ``at_zero_hp`` is ``dies`` (a knocked-out enemy, whatever
    knocked it out) dies; otherwise a Stable (or not yet Dying) entity
    becomes Dying again with counts at 0; if the damage reaching HP (after
    temporary HP) is >= max HP it dies at once; otherwise one death-save
    failure is added (two for a ``critical`` hit), and three failures kill.

    ``nonlethal`` (H5 rev. 2): wherever H4, H5 or H7 would kill or add a
    failure, the target instead stays at 0 HP, Unconscious and Stable
    (a Dying target becomes Stable; counts reset to 0). It never kills.

    A death goes through :func:`die` (H10: every condition ends). A dead
    entity is not changed. Returns the new entity and its report;
    ``details`` holds ``damage`` (before R), ``damage_after_resistance``,
    ``temp_hp_absorbed``, ``hp_lost`` and ``leftover``. A negative ``amount``
    is an :class:`InputError`.
    """
    if amount < 0:
        raise InputError(Diagnostic("request", "amount",
                                    f"damage amount must be >= 0 (T4 floors it), got {amount}"))
    steps: list[Step] = []
    events: list[str] = []
    details: dict[str, Any] = {"damage": amount}
    if entity.dead:
        steps.append(Step("H3", f"{entity.id} is already dead: the damage changes nothing"))
        details.update(damage_after_resistance=0, temp_hp_absorbed=0, hp_lost=0, leftover=0)
        return entity, _report(entity, entity, events, steps, DamageChange, details)

    dealt, rsteps = resisted_amount(entity, amount, damage_type)
    steps.extend(rsteps)
    if rsteps:
        steps.append(Step("R2", "resistance, vulnerability and immunity applied after "
                                "every other modifier, each once"))
    details["damage_after_resistance"] = dealt

    absorbed = min(entity.temp_hp, dealt)
    to_hp = dealt - absorbed
    e = evolve(entity, temp_hp=entity.temp_hp - absorbed)
    if absorbed:
        steps.append(Step("H1", f"temporary HP {entity.temp_hp} absorb {absorbed}; "
                                f"{to_hp} left for HP"))
    details["temp_hp_absorbed"] = absorbed

    if entity.hp > 0:
        lost = min(entity.hp, to_hp)
        leftover = to_hp - lost
        e = evolve(e, hp=entity.hp - lost)
        details.update(hp_lost=lost, leftover=leftover)
        steps.append(Step("H1", f"HP {entity.hp} - {lost} = {e.hp}"
                          + (f"; {leftover} damage left over" if leftover else "")))
        if e.hp == 0:
            e = _drop_to_zero(e, leftover, nonlethal, events, steps)
        return e, _report(entity, e, events, steps, DamageChange, details)

    details.update(hp_lost=0, leftover=to_hp)
    if dealt <= 0:
        steps.append(Step("H7", "no damage taken at 0 HP: no death-save failure"))
    elif nonlethal:
        steps.append(Step("H7", f"{dealt} nonlethal damage at 0 HP"))
        e = dying.knock_out(e, events, steps)
    else:
        e = _lethal_at_zero(e, to_hp, critical, events, steps)
    return e, _report(entity, e, events, steps, DamageChange, details)


def _drop_to_zero(e: Entity, leftover: int, nonlethal: bool, events: list[str],
                  steps: list[Step]) -> Entity:
    """HP just reached 0: H4 (massive damage; with damage left over below
    max HP, a step says it is none), else H5; nonlethal spares the death
    (Unconscious and Stable instead)."""
    if leftover >= e.max_hp:
        steps.append(Step("H4", f"massive damage: leftover {leftover} >= max HP {e.max_hp}"))
        cause = "massive_damage"
    else:
        if leftover:
            steps.append(Step("H4", f"leftover {leftover} < max HP {e.max_hp}: "
                                    "no massive damage"))
        if e.at_zero_hp != "dies":
            return dying.start_dying(e, events, steps, "H5")
        steps.append(Step("H5", f"0 HP: {e.id} dies at 0 HP (at_zero_hp: dies)"))
        cause = "zero_hp"
    if nonlethal:
        return dying.knock_out(e, events, steps)
    return dying.record_death(e, cause, events, steps)


def _lethal_at_zero(e: Entity, to_hp: int, critical: bool, events: list[str],
                    steps: list[Step]) -> Entity:
    """H7: lethal damage above 0 taken at 0 HP (``to_hp``: the part that
    reached HP after temporary HP)."""
    if e.at_zero_hp == "dies":
        steps.append(Step("H7", f"lethal damage at 0 HP: {e.id} (at_zero_hp: dies, knocked "
                                "out) dies"))
        return dying.record_death(e, "zero_hp", events, steps)
    if e.has("Stable"):
        steps.append(Step("H7", "a Stable entity that takes damage becomes Dying again, "
                                "counts at 0"))
        e = dying.start_dying(evolve(e, conditions=dying.without(e.conditions, "Stable")),
                         events, steps, "H7")
    elif not e.has("Dying"):
        # Neither Dying nor Stable at 0 HP: H5 makes it Dying before H7's failure.
        e = dying.start_dying(e, events, steps, "H5")
    if to_hp >= e.max_hp:
        steps.append(Step("H7", f"damage reaching HP at 0 HP {to_hp} >= max HP "
                                f"{e.max_hp}: dies at once"))
        return dying.record_death(e, "damage_at_zero_hp", events, steps)
    added = 2 if critical else 1
    failures = min(e.death_failures + added, dying.DEATH_SAVE_LIMIT)
    events.extend(["death_save_failure"] * added)
    steps.append(Step("H7", f"damage at 0 HP{' from a critical hit' if critical else ''}"
                            f"{' (absorbed by temporary HP)' if to_hp == 0 else ''}: "
                            f"{added} death-save failure{'s' if added > 1 else ''} "
                            f"({e.death_failures} -> {failures})"))
    e = evolve(e, death_failures=failures)
    if failures >= dying.DEATH_SAVE_LIMIT:
        steps.append(Step("H6", "three death-save failures: dies"))
        e = dying.record_death(e, "death_saves", events, steps)
    return e


def apply_healing(entity: Entity, amount: int | None, *, tick: Tick | None = None
                  ) -> tuple[Entity, EntityReport]:
    """Heal ``entity`` by ``amount`` HP (``None``, or ``tick`` Complete:
    restore to max HP).

    H3: never above max HP, never temporary HP, nothing for a dead entity
    (unless ``tick`` is Resurrection). H8: regaining any HP at 0 HP ends
    Dying, Stable and the Unconscious that 0 HP gave (source ``dying`` or
    ``nonlethal``) and resets the death-save counts; an Unconscious of
    another source (overclocking) stays, and then no ``regains_consciousness``
    event is given (the event means no Unconscious is left).

    Resurrection on a dead entity: it returns to life with
    ``min(max(amount, 1), max_hp)`` HP (at least 1), no death record and
    counts at 0; an entity whose death left ``resurrection: impossible``
    (overclock, essence shattered) cannot come back (:class:`RulesError`
    ``F4``), nor one with 6 Exhaustion tiers (``F5``). On a living entity
    Resurrection heals ``amount`` like any healing.

    ``details``: ``healing`` (amount offered, ``None`` for Complete) and
    ``hp_regained``.
    """
    steps: list[Step] = []
    events: list[str] = []
    full = amount is None or (tick is not None and tick.healing and tick.name == "complete")
    details: dict[str, Any] = {"healing": None if full else amount}
    resurrect = tick is not None and tick.healing and tick.name == "resurrection"
    if amount is not None and amount < 0:
        raise InputError(Diagnostic("request", "amount",
                                    f"healing amount must be >= 0 (T7 floors it), got {amount}"))

    e = entity
    if entity.dead:
        if not resurrect:
            steps.append(Step("H3", f"{entity.id} is dead: healing does nothing until it "
                                    "is resurrected"))
            details["hp_regained"] = 0
            return entity, _report(entity, entity, events, steps, HealChange, details)
        if entity.resurrection == "impossible":
            raise RulesError("F4", f"{entity.id} cannot be resurrected: its essence was "
                                   "shattered", {"entity": entity.id})
        if entity.exhaustion >= 6:
            raise RulesError("F5", f"{entity.id} has {entity.exhaustion} Exhaustion tiers "
                                   "(6 is death): lower its Exhaustion before resurrecting it",
                             {"entity": entity.id, "exhaustion": entity.exhaustion})
        hp = entity.max_hp if full else min(max(amount or 0, 1), entity.max_hp)
        e = evolve(entity, dead=False, death_cause=None, resurrection=None, hp=hp,
                    conditions=dying.regained_conditions(entity), death_successes=0,
                    death_failures=0)
        events.append("returns_to_life")
        steps.append(Step("T2", f"Resurrection: {entity.id} comes back to life with {hp} HP"))
        details["hp_regained"] = hp
        return e, _report(entity, e, events, steps, HealChange, details)

    target_hp = entity.max_hp if full else min(entity.hp + (amount or 0), entity.max_hp)
    gained = target_hp - entity.hp
    details["hp_regained"] = gained
    capped = not full and entity.hp + (amount or 0) > entity.max_hp
    if full:
        steps.append(Step("H3", f"Complete: HP {entity.hp} -> max HP {entity.max_hp}"
                          + ("; temporary HP unchanged" if entity.temp_hp else "")))
    else:
        steps.append(Step("H3", f"HP {entity.hp} + {amount} = {target_hp}"
                          + (f" (capped at max HP {entity.max_hp})" if capped else "")
                          + ("; temporary HP unchanged" if entity.temp_hp else "")))
    e = evolve(entity, hp=target_hp)
    if entity.hp == 0 and gained > 0:
        e = evolve(e, conditions=dying.regained_conditions(entity), death_successes=0,
                    death_failures=0)
        steps.append(dying.h8_step(entity, e))
        if dying.wakes(entity, e):
            events.append("regains_consciousness")
    return e, _report(entity, e, events, steps, HealChange, details)


def grant_temp_hp(entity: Entity, amount: int, keep: str = "larger"
                  ) -> tuple[Entity, EntityReport]:
    """Grant ``amount`` temporary HP (H2): one set only, never the sum.

    With temporary HP left, ``keep`` chooses: ``larger`` (default ruling),
    ``old`` or ``new``. Temporary HP at 0 HP neither wakes nor stabilises
    (H3): conditions and counts are untouched. A dead entity gets nothing.
    ``details``: ``granted`` and ``kept`` (``old``/``new``).
    Raises :class:`InputError` for an unknown ``keep`` or a negative amount.
    """
    if keep not in KEEP_CHOICES:
        raise InputError(Diagnostic("request", "keep", f"keep must be one of "
                                                       f"{', '.join(KEEP_CHOICES)}, got {keep!r}"))
    if amount < 0:
        raise InputError(Diagnostic("request", "amount", "temporary HP amount must be >= 0"))
    steps: list[Step] = []
    details: dict[str, Any] = {"granted": amount}
    if entity.dead:
        steps.append(Step("H3", f"{entity.id} is dead: temporary HP do nothing"))
        details["kept"] = "old"
        return entity, _report(entity, entity, [], steps, TempHpChange, details)
    old = entity.temp_hp
    if old == 0:
        chosen, new_temp = "new", amount
        steps.append(Step("H2", f"no temporary HP held: gains {amount}"))
    else:
        if keep == "larger":
            chosen = "new" if amount > old else "old"
        else:
            chosen = keep
        new_temp = amount if chosen == "new" else old
        how = "the larger" if keep == "larger" else f"keep: {keep}"
        steps.append(Step("H2", f"{old} temporary HP held, {amount} granted: keeps "
                                f"{new_temp} ({how}), never {old + amount}"))
    if entity.hp == 0:
        steps.append(Step("H3", "temporary HP at 0 HP: it does not wake nor become Stable"))
    details["kept"] = chosen
    e = evolve(entity, temp_hp=new_temp)
    return e, _report(entity, e, [], steps, TempHpChange, details)


def roll_death_save(entity: Entity, dice: DiceSource) -> tuple[Entity, EntityReport]:
    """Roll one death saving throw for a Dying ``entity`` (H6): a plain d20,
    no modifiers. 10+ success, below 10 failure, natural 1 two failures,
    natural 20: regains 1 HP and H8 applies (Dying and the Unconscious from
    0 HP end, counts reset; ``regains_consciousness`` only when no
    Unconscious of another source stays). Three successes: Stable (still
    Unconscious, counts reset); three failures: dies (:func:`die`, H10).
    Raises :class:`RulesError` ``H6`` when the entity is not Dying (dead,
    Stable or above 0 HP). ``details``: ``face`` and ``outcome``
    (``success``, ``failure``, ``two_failures``, ``natural_20``).
    """
    if entity.dead or not entity.has("Dying") or entity.has("Stable") or entity.hp > 0:
        state = ("dead" if entity.dead else "Stable" if entity.has("Stable")
                 else f"at {entity.hp} HP" if entity.hp > 0 else "not Dying")
        raise RulesError("H6", f"only a Dying entity rolls death saving throws; "
                               f"{entity.id} is {state}", {"entity": entity.id})
    steps: list[Step] = []
    events: list[str] = []
    face = dice.roll(20)
    details: dict[str, Any] = {"face": face_record(20, face), "natural": face}
    e = entity
    if face == 20:
        e = evolve(entity, hp=min(1, entity.max_hp), conditions=dying.regained_conditions(entity),
                    death_successes=0, death_failures=0)
        details["outcome"] = "natural_20"
        events.append("death_save_success")
        if dying.wakes(entity, e):
            events.append("regains_consciousness")
        steps.append(Step("H6", "death save natural 20: regains 1 HP, no longer Dying"))
        steps.append(dying.h8_step(entity, e))
        return e, _report(entity, e, events, steps, DeathSaveChange, details)
    if face >= 10:
        successes = entity.death_successes + 1
        details["outcome"] = "success"
        events.append("death_save_success")
        steps.append(Step("H6", f"death save {face} >= 10: success ({entity.death_successes}"
                                f" -> {successes})"))
        e = evolve(entity, death_successes=min(successes, dying.DEATH_SAVE_LIMIT))
        if successes >= dying.DEATH_SAVE_LIMIT:
            conds = dying.with_condition(dying.without(entity.conditions, "Dying"), "Stable",
                                         "dying")
            e = evolve(e, conditions=conds, death_successes=0, death_failures=0)
            events.append("stable")
            steps.append(Step("H6", "three successes: Stable (still Unconscious), counts "
                                    "reset"))
        return e, _report(entity, e, events, steps, DeathSaveChange, details)
    added = 2 if face == 1 else 1
    failures = min(entity.death_failures + added, dying.DEATH_SAVE_LIMIT)
    details["outcome"] = "two_failures" if added == 2 else "failure"
    events.extend(["death_save_failure"] * added)
    steps.append(Step("H6", f"death save {face}"
                      + (": natural 1, two failures" if added == 2 else " < 10: failure")
                      + f" ({entity.death_failures} -> {failures})"))
    e = evolve(entity, death_failures=failures)
    if failures >= dying.DEATH_SAVE_LIMIT:
        steps.append(Step("H6", "three failures: dies"))
        e = dying.record_death(e, "death_saves", events, steps)
    return e, _report(entity, e, events, steps, DeathSaveChange, details)
