"""Damage and healing: rolls (T1-T7), resistances (R1-R3), hit points,
temporary HP, dying and death (H1-H8, H10).

Pure functions over :class:`~linguo_cli.rulesets.linguomancy.model.Entity` (frozen: every change is
a new value made with :func:`dataclasses.replace`). Units are HP throughout.

* :func:`roll_amount` rolls a damage or healing amount from a dice expression
  and a tick: T3 conformity, then T4/T5 (damage) or T7 (healing).
* :func:`apply_damage` applies an amount to one entity: R1-R3, then H1, H4,
  H5 and H7.
* :func:`apply_healing` applies healing: H3, H8, and the Complete and
  Resurrection ticks of T2.
* :func:`grant_temp_hp` grants temporary HP (H2, H3).
* :func:`roll_death_save` rolls one death saving throw (H6).
* :func:`die` is the one way any entity dies (H10: every condition ends,
  death record); :mod:`linguo_cli.rulesets.linguomancy.flux` uses it for overclocking deaths.

Each returns the new entity and an :class:`EntityReport` (before/after
fields, events such as ``dies`` or ``starts_dying``, derivation steps).

The request handlers of kinds ``damage``, ``heal``, ``temp_hp`` and
``death_save`` (registered in :data:`linguo_cli.rulesets.linguomancy.requests.HANDLERS`) are at the
end of this module.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import DiceExpression, DiceRoll, DiceSource, face_record
from linguo_cli.core.dice import parse as parse_dice
from linguo_cli.core.dice import roll as roll_dice
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.rulesets.linguomancy import amounts
from linguo_cli.rulesets.linguomancy import ticks as ticks_
from linguo_cli.rulesets.linguomancy.model import Condition, Entity, Modifier, modifiers_from
from linguo_cli.rulesets.linguomancy.ticks import Tick

#: The fields of the state shape listed in a report's ``before``/``after``.
REPORT_FIELDS: tuple[str, ...] = (
    "hp", "max_hp", "temp_hp", "conditions", "death_saves", "dead", "death",
)

#: Sources of an Unconscious condition that dropping to 0 HP gives, and that
#: regaining HP ends (H8, C1).
ZERO_HP_SOURCES: frozenset[str] = frozenset({"dying", "nonlethal"})

#: ``keep`` values of :func:`grant_temp_hp` (H2).
KEEP_CHOICES: tuple[str, ...] = ("larger", "old", "new")

#: Death-save counts at which the entity becomes Stable / dies (H6).
DEATH_SAVE_LIMIT = 3


# ---------------------------------------------------------------------------
# Rolling an amount (T1-T7)


@dataclass(frozen=True, slots=True)
class AmountRoll:
    """One damage or healing roll with its derivation.

    ``amount`` (HP) is ``dice_total + ability_modifier x multiplier + flat
    modifiers``, floored at 0 (T4, T7); it is ``None`` only for the healing
    tick Complete, whose amount is "up to max HP" for each target (see
    :func:`apply_healing`). ``expression`` is the formula as given,
    ``rolled`` what was rolled (every dice term doubled on a critical hit,
    T5; constants and modifiers never). ``faces`` are face records
    (``{"die", "face", "kept"}``) in consumption order. ``expected_value`` is
    the exact expected value of ``expression`` (``None`` without dice);
    ``conforming`` says whether it lies in the tick's range (T3). A
    non-conforming formula that was allowed adds a line to ``warnings``.
    """

    tick: Tick
    expression: DiceExpression | None
    rolled: DiceExpression | None
    faces: list[dict[str, object]]
    dice_total: int
    ability: str
    ability_modifier: int
    multiplier: int
    modifiers: tuple[Modifier, ...]
    amount: int | None
    expected_value: Fraction | None
    conforming: bool
    critical: bool
    warnings: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    @property
    def healing(self) -> bool:
        """True for a healing roll (T2/T7), false for damage (T1/T4)."""
        return self.tick.healing

    @property
    def full_restoration(self) -> bool:
        """True for the healing tick Complete (restores every target to max HP)."""
        return self.tick.healing and self.tick.name == "complete"

    def as_dict(self) -> dict[str, Any]:
        """JSON shape: ``tick``, ``dice`` (as given, canonical), ``rolled_dice``,
        ``critical``, ``faces``, ``dice_total``, ``ability``,
        ``ability_modifier``, ``multiplier``, ``modifiers``,
        ``modifier_total`` (flat modifiers), ``amount``, ``expected_value``
        (fraction string or ``null``), ``conforming``, ``warnings``, and
        ``full_restoration`` for healing."""
        out: dict[str, Any] = {
            "tick": self.tick.name,
            "dice": self.expression.text() if self.expression is not None else None,
            "rolled_dice": self.rolled.text() if self.rolled is not None else None,
            "critical": self.critical,
            "faces": list(self.faces),
            "dice_total": self.dice_total,
            "ability": self.ability,
            "ability_modifier": self.ability_modifier,
            "multiplier": self.multiplier,
            "modifiers": [m.as_dict() for m in self.modifiers],
            "modifier_total": sum(m.value for m in self.modifiers),
            "amount": self.amount,
            "expected_value": (None if self.expected_value is None
                               else str(self.expected_value)),
            "conforming": self.conforming,
            "warnings": list(self.warnings),
        }
        if self.tick.healing:
            out["full_restoration"] = self.full_restoration
        return out


def roll_amount(
    expression: DiceExpression | None,
    *,
    tick: Tick,
    ability_modifier: int = 0,
    modifiers: Sequence[Modifier] = (),
    critical: bool = False,
    dice: DiceSource,
    allow_nonconforming: bool = False,
    amount: int | None = None,
) -> AmountRoll:
    """Roll a damage (``tick`` from T1) or healing (``tick`` from T2) amount.

    ``ability_modifier`` is the Potential modifier (damage) or the Cohesion
    modifier (healing), multiplied by the tick's multiplier; ``modifiers``
    are flat and added once. ``expression`` ``None`` means no dice.

    * T3: the exact expected value of ``expression`` (constants included,
      modifier terms excluded; no dice counts as 0) must lie in the tick's
      range, bounds included, and a dice tick's formula needs a die (rev. 2);
      otherwise :class:`RulesError` ``T3`` (exit 4),
      unless ``allow_nonconforming``, which adds a warning instead.
    * T5: ``critical`` (damage only) rolls every dice term a second time as
      its own group (``2d6+1`` rolls ``2d6+2d6+1``); the modifier terms are
      not doubled.
    * T4/T7: amount = dice total + modifier x multiplier + flat modifiers,
      floored at 0.
    * Damage tick None deals no damage (amount 0; its multiplier is 0 and
      flat modifiers are ignored with a warning). Healing tick None heals 0.
    * Healing tick Complete takes no dice and no ``amount``: ``amount`` of the
      result is ``None`` (each target is restored to its max HP).
    * Healing tick Resurrection takes its amount from the effect: either
      ``amount`` (a fixed number of HP) or dice (no T3 range applies).

    Dice are rolled from ``dice`` (terms left to right). Raises
    :class:`InputError` (exit 3) for a tick that needs dice without them, dice
    or an amount where the tick takes none, or a critical healing roll.
    """
    steps: list[Step] = []
    warnings: list[str] = []
    mods = tuple(modifiers)
    ability = "cohesion" if tick.healing else "potential"
    table_rule = "T2" if tick.healing else "T1"
    sum_rule = "T7" if tick.healing else "T4"
    what = "healing" if tick.healing else "damage"

    if critical and tick.healing:
        raise InputError(Diagnostic("request", "critical",
                                    "a critical hit doubles damage dice, not healing dice"))
    if amount is not None and not (tick.healing and tick.name == "resurrection"):
        raise InputError(Diagnostic(
            "request", "amount",
            "a fixed amount is only given for the healing tick Resurrection; "
            "other ticks roll their dice"))

    # Ticks without a dice range: Complete, Resurrection.
    if tick.healing and tick.name == "complete":
        if expression is not None:
            raise InputError(Diagnostic("request", "dice",
                                        "the healing tick Complete takes no dice: it restores "
                                        "every target to its max HP"))
        steps.append(Step("T2", "healing tick Complete: full restoration to max HP "
                                f"({tick.effect})"))
        return AmountRoll(tick, None, None, [], 0, ability, ability_modifier, tick.multiplier,
                          mods, None, None, True, False, warnings, steps)
    if tick.healing and tick.name == "resurrection":
        if (expression is None) == (amount is None):
            raise InputError(Diagnostic(
                "request", "amount",
                "the healing tick Resurrection needs the amount its effect gives: "
                "either amount or dice, not both"))

    if expression is None and tick.has_range and (tick.min or 0) > 0:
        raise InputError(Diagnostic(
            "request", "dice",
            f"the {what} tick {tick.title} needs dice whose expected value lies in "
            f"{tick.range_text()} (T3)"))

    expected = expression.expected_value() if expression is not None else Fraction(0)
    why = tick.nonconformity(expression if expression is not None else expected)  # T3 rev. 2
    conforming = why is None
    if amount is None:
        steps.append(Step(table_rule, f"{what} tick {tick.title}: expected-value range "
                                      f"{tick.range_text()}, {ability} multiplier "
                                      f"x{tick.multiplier}"))
    if tick.has_range:
        formula = expression.text() if expression is not None else "no dice"
        if conforming:
            steps.append(Step("T3", f"{formula}: expected value {_frac(expected)} lies in "
                                    f"{tick.range_text()}: conforming"))
        elif allow_nonconforming:
            text = f"{formula} {why} (T3); allowed on request"
            warnings.append(text)
            steps.append(Step("T3", text))
        else:
            raise RulesError(
                "T3",
                f"{formula} {why}; choose other dice or another tick "
                "(or allow_nonconforming / --allow-nonconforming)",
                {"dice": formula, "expected_value": str(expected), "tick": tick.name,
                 "min": tick.min, "max": tick.max})

    rolled = expression
    if critical and expression is not None:
        rolled = expression.doubled()
        steps.append(Step("T5", f"critical hit: {expression.text()} rolls {rolled.text()} "
                                "(dice doubled, constants and modifiers not)"))
    result: DiceRoll | None = roll_dice(rolled, dice) if rolled is not None else None
    dice_total = result.total if result is not None else 0
    faces = result.face_records() if result is not None else []

    if amount is not None:
        steps.append(Step("T2", f"healing tick Resurrection: the effect gives {amount} HP"))
        return AmountRoll(tick, None, None, [], 0, ability, ability_modifier, tick.multiplier,
                          mods, max(amount, 0), None, True, False, warnings, steps)

    if tick.name == "none":
        if any(m.value for m in mods):
            warnings.append(f"{what} tick None: flat modifiers ignored, no {what} is done")
        steps.append(Step(table_rule, f"{what} tick None: no {what} ({dice_total} HP)"
                          if dice_total else f"{what} tick None: no {what}"))
        return AmountRoll(tick, expression, rolled, faces, dice_total, ability, ability_modifier,
                          tick.multiplier, mods, 0, expected, conforming, critical, warnings,
                          steps)

    product = ability_modifier * tick.multiplier
    flat = sum(m.value for m in mods)
    raw = dice_total + product + flat
    final = amounts.floored(raw)
    parts = []
    if rolled is not None:
        shown = ", ".join(str(f["face"]) + ("" if f["kept"] else " dropped") for f in faces)
        parts.append(f"dice {rolled.text()} [{shown}] = {dice_total}")
    else:
        parts.append("no dice")
    parts.append(f"{ability} {ability_modifier:+d} x {tick.multiplier} = {product:+d}")
    parts.extend(f"{m.label} {m.value:+d}" for m in mods)
    text = f"{what} = " + " + ".join(parts) + f" = {raw}"
    if raw < 0:
        text += ", floored at 0"
    steps.append(Step(sum_rule, text))
    return AmountRoll(tick, expression, rolled, faces, dice_total, ability, ability_modifier,
                      tick.multiplier, mods, final, expected, conforming, critical, warnings,
                      steps)


def _frac(value: Fraction) -> str:
    return str(value)


# ---------------------------------------------------------------------------
# Entity reports


@dataclass(frozen=True, slots=True)
class EntityReport:
    """What happened to one entity.

    ``before``/``after``: the fields :data:`REPORT_FIELDS` of the state shape
    (``Entity.as_dict()`` subsets); ``events``: strings such as ``dies``,
    ``falls_unconscious``, ``starts_dying``, ``stable``,
    ``death_save_failure`` (one per failure added), ``death_save_success``,
    ``regains_consciousness``, ``returns_to_life``, and after ``dies`` one
    ``condition_ends:NAME`` per condition the death ended (H10); ``steps``:
    derivation;
    ``details``: the numbers of this entity's part (e.g. ``damage``,
    ``temp_hp_absorbed``, ``hp_lost``, ``leftover``; ``hp_regained``;
    ``face``).
    """

    id: str
    before: dict[str, Any]
    after: dict[str, Any]
    events: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """``{before, after, events, ...details}`` (steps go to the result's
        explanation)."""
        return {"before": dict(self.before), "after": dict(self.after),
                "events": list(self.events), **self.details}


def _fields(entity: Entity) -> dict[str, Any]:
    d = entity.as_dict()
    return {k: d[k] for k in REPORT_FIELDS}


def _report(before: Entity, after: Entity, events: list[str], steps: list[Step],
            details: dict[str, Any]) -> EntityReport:
    return EntityReport(before.id, _fields(before), _fields(after), events, steps, details)


def _without(conditions: tuple[Condition, ...], name: str,
             sources: frozenset[str] | None = None) -> tuple[Condition, ...]:
    return tuple(c for c in conditions
                 if not (c.name == name and (sources is None or c.source in sources)))


def _with(conditions: tuple[Condition, ...], name: str, source: str) -> tuple[Condition, ...]:
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
    dead = replace(entity, hp=0, dead=True, death_cause=cause, resurrection=resurrection,
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


def _wakes(before: Entity, after: Entity) -> bool:
    """H8: the entity woke only when it was Unconscious and no Unconscious
    (of any source) is left."""
    return before.has("Unconscious") and not after.has("Unconscious")


# ---------------------------------------------------------------------------
# Damage (R1-R3, H1, H4, H5, H7)


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
        halved = amounts.halved(out)
        steps.append(Step("R1", f"resistant to {damage_type}: {out} halved, rounded down, "
                                f"-> {halved}"))
        out = halved
    if vulnerable:
        doubled = amounts.doubled(out)
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
        return entity, _report(entity, entity, events, steps, details)

    dealt, rsteps = resisted_amount(entity, amount, damage_type)
    steps.extend(rsteps)
    if rsteps:
        steps.append(Step("R2", "resistance, vulnerability and immunity applied after "
                                "every other modifier, each once"))
    details["damage_after_resistance"] = dealt

    absorbed = min(entity.temp_hp, dealt)
    to_hp = dealt - absorbed
    e = replace(entity, temp_hp=entity.temp_hp - absorbed)
    if absorbed:
        steps.append(Step("H1", f"temporary HP {entity.temp_hp} absorb {absorbed}; "
                                f"{to_hp} left for HP"))
    details["temp_hp_absorbed"] = absorbed

    if entity.hp > 0:
        lost = min(entity.hp, to_hp)
        leftover = to_hp - lost
        e = replace(e, hp=entity.hp - lost)
        details.update(hp_lost=lost, leftover=leftover)
        steps.append(Step("H1", f"HP {entity.hp} - {lost} = {e.hp}"
                          + (f"; {leftover} damage left over" if leftover else "")))
        if e.hp == 0:
            e = _drop_to_zero(e, leftover, nonlethal, events, steps)
        return e, _report(entity, e, events, steps, details)

    details.update(hp_lost=0, leftover=to_hp)
    if dealt <= 0:
        steps.append(Step("H7", "no damage taken at 0 HP: no death-save failure"))
    elif nonlethal:
        steps.append(Step("H7", f"{dealt} nonlethal damage at 0 HP"))
        e = _knock_out(e, events, steps)
    else:
        e = _lethal_at_zero(e, to_hp, critical, events, steps)
    return e, _report(entity, e, events, steps, details)


def _drop_to_zero(e: Entity, leftover: int, nonlethal: bool, events: list[str],
                  steps: list[Step]) -> Entity:
    """HP just reached 0: H4 (massive damage), else H5; nonlethal spares
    the death (Unconscious and Stable instead)."""
    if leftover >= e.max_hp:
        steps.append(Step("H4", f"massive damage: leftover {leftover} >= max HP {e.max_hp}"))
        cause = "massive_damage"
    elif e.at_zero_hp == "dies":
        steps.append(Step("H5", f"0 HP: {e.id} dies at 0 HP (at_zero_hp: dies)"))
        cause = "zero_hp"
    else:
        return _start_dying(e, events, steps, "H5")
    if nonlethal:
        return _knock_out(e, events, steps)
    return record_death(e, cause, events, steps)


def _lethal_at_zero(e: Entity, to_hp: int, critical: bool, events: list[str],
                    steps: list[Step]) -> Entity:
    """H7: lethal damage above 0 taken at 0 HP (``to_hp``: the part that
    reached HP after temporary HP)."""
    if e.at_zero_hp == "dies":
        steps.append(Step("H7", f"lethal damage at 0 HP: {e.id} (at_zero_hp: dies, knocked "
                                "out) dies"))
        return record_death(e, "zero_hp", events, steps)
    if e.has("Stable") or not e.has("Dying"):
        if e.has("Stable"):
            steps.append(Step("H7", "a Stable entity that takes damage becomes Dying again, "
                                    "counts at 0"))
        e = _start_dying(replace(e, conditions=_without(e.conditions, "Stable")),
                         events, steps, "H7")
    if to_hp >= e.max_hp:
        steps.append(Step("H7", f"damage reaching HP at 0 HP {to_hp} >= max HP "
                                f"{e.max_hp}: dies at once"))
        return record_death(e, "damage_at_zero_hp", events, steps)
    added = 2 if critical else 1
    failures = min(e.death_failures + added, DEATH_SAVE_LIMIT)
    events.extend(["death_save_failure"] * added)
    steps.append(Step("H7", f"damage at 0 HP{' from a critical hit' if critical else ''}"
                            f"{' (absorbed by temporary HP)' if to_hp == 0 else ''}: "
                            f"{added} death-save failure{'s' if added > 1 else ''} "
                            f"({e.death_failures} -> {failures})"))
    e = replace(e, death_failures=failures)
    if failures >= DEATH_SAVE_LIMIT:
        steps.append(Step("H6", "three death-save failures: dies"))
        e = record_death(e, "death_saves", events, steps)
    return e


def _knock_out(e: Entity, events: list[str], steps: list[Step]) -> Entity:
    """H5 rev. 2: nonlethal damage where H4, H5 or H7 would kill or add a
    failure: 0 HP, Unconscious and Stable (source ``nonlethal`` for what it
    adds), Dying ends, counts reset to 0."""
    conds = _without(e.conditions, "Dying")
    if not e.has("Unconscious"):
        conds = _with(conds, "Unconscious", "nonlethal")
        events.append("falls_unconscious")
    if not e.has("Stable"):
        conds = _with(conds, "Stable", "nonlethal")
        events.append("stable")
    steps.append(Step("H5", "nonlethal damage never kills nor adds a death-save failure: "
                            "it stays at 0 HP, Unconscious and Stable"
                            + (" (no longer Dying)" if e.has("Dying") else "")
                            + ", counts 0"))
    return replace(e, hp=0, conditions=conds, death_successes=0, death_failures=0)


def _start_dying(e: Entity, events: list[str], steps: list[Step], rule: str) -> Entity:
    """H5: Dying and Unconscious, death-save counts at 0."""
    if rule == "H5":
        steps.append(Step("H5", f"0 HP: {e.id} starts Dying and falls Unconscious "
                                "(at_zero_hp: dying)"))
    if not e.has("Unconscious"):
        events.append("falls_unconscious")
    events.append("starts_dying")
    conds = _with(_with(e.conditions, "Dying", "dying"), "Unconscious", "dying")
    return replace(e, conditions=conds, death_successes=0, death_failures=0)


# ---------------------------------------------------------------------------
# Healing (H3, H8, T2 Complete/Resurrection)


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
            return entity, _report(entity, entity, events, steps, details)
        if entity.resurrection == "impossible":
            raise RulesError("F4", f"{entity.id} cannot be resurrected: its essence was "
                                   "shattered", {"entity": entity.id})
        if entity.exhaustion >= 6:
            raise RulesError("F5", f"{entity.id} has {entity.exhaustion} Exhaustion tiers "
                                   "(6 is death): lower its Exhaustion before resurrecting it",
                             {"entity": entity.id, "exhaustion": entity.exhaustion})
        hp = entity.max_hp if full else min(max(amount or 0, 1), entity.max_hp)
        e = replace(entity, dead=False, death_cause=None, resurrection=None, hp=hp,
                    conditions=_regained_conditions(entity), death_successes=0,
                    death_failures=0)
        events.append("returns_to_life")
        steps.append(Step("T2", f"Resurrection: {entity.id} comes back to life with {hp} HP"))
        details["hp_regained"] = hp
        return e, _report(entity, e, events, steps, details)

    target_hp = entity.max_hp if full else min(entity.hp + (amount or 0), entity.max_hp)
    gained = target_hp - entity.hp
    details["hp_regained"] = gained
    capped = not full and entity.hp + (amount or 0) > entity.max_hp
    if full:
        steps.append(Step("T2", f"Complete: HP {entity.hp} -> max HP {entity.max_hp}"))
    else:
        steps.append(Step("H3", f"HP {entity.hp} + {amount} = {target_hp}"
                          + (f" (capped at max HP {entity.max_hp})" if capped else "")
                          + ("; temporary HP unchanged" if entity.temp_hp else "")))
    e = replace(entity, hp=target_hp)
    if entity.hp == 0 and gained > 0:
        e = replace(e, conditions=_regained_conditions(entity), death_successes=0,
                    death_failures=0)
        steps.append(_h8_step(entity, e))
        if _wakes(entity, e):
            events.append("regains_consciousness")
    return e, _report(entity, e, events, steps, details)


def _regained_conditions(entity: Entity) -> tuple[Condition, ...]:
    """H8: the conditions left when HP is regained at 0 HP: Dying, Stable and
    the Unconscious that 0 HP gave (sources in :data:`ZERO_HP_SOURCES`)
    end; an Unconscious of another source (overclocking) stays."""
    conds = _without(_without(entity.conditions, "Dying"), "Stable")
    return _without(conds, "Unconscious", ZERO_HP_SOURCES)


def _h8_step(before: Entity, after: Entity) -> Step:
    """The H8 line: what regaining HP at 0 HP ended, and whether it woke."""
    text = ("HP regained at 0 HP: Dying, Stable and Unconscious from 0 HP end; "
            "death-save counts reset")
    if after.has("Unconscious"):
        sources = ", ".join(c.source or "no source" for c in after.conditions
                            if c.name == "Unconscious")
        text += f"; still Unconscious ({sources}): it does not wake"
    return Step("H8", text)


# ---------------------------------------------------------------------------
# Temporary HP (H2, H3)


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
        return entity, _report(entity, entity, [], steps, details)
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
    e = replace(entity, temp_hp=new_temp)
    return e, _report(entity, e, [], steps, details)


# ---------------------------------------------------------------------------
# Death saving throws (H6)


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
        e = replace(entity, hp=min(1, entity.max_hp), conditions=_regained_conditions(entity),
                    death_successes=0, death_failures=0)
        details["outcome"] = "natural_20"
        events.append("death_save_success")
        if _wakes(entity, e):
            events.append("regains_consciousness")
        steps.append(Step("H6", "death save natural 20: regains 1 HP, no longer Dying"))
        steps.append(_h8_step(entity, e))
        return e, _report(entity, e, events, steps, details)
    if face >= 10:
        successes = entity.death_successes + 1
        details["outcome"] = "success"
        events.append("death_save_success")
        steps.append(Step("H6", f"death save {face} >= 10: success ({entity.death_successes}"
                                f" -> {successes})"))
        e = replace(entity, death_successes=min(successes, DEATH_SAVE_LIMIT))
        if successes >= DEATH_SAVE_LIMIT:
            conds = _with(_without(entity.conditions, "Dying"), "Stable", "dying")
            e = replace(e, conditions=conds, death_successes=0, death_failures=0)
            events.append("stable")
            steps.append(Step("H6", "three successes: Stable (still Unconscious), counts "
                                    "reset"))
        return e, _report(entity, e, events, steps, details)
    added = 2 if face == 1 else 1
    failures = min(entity.death_failures + added, DEATH_SAVE_LIMIT)
    details["outcome"] = "two_failures" if added == 2 else "failure"
    events.extend(["death_save_failure"] * added)
    steps.append(Step("H6", f"death save {face}"
                      + (": natural 1, two failures" if added == 2 else " < 10: failure")
                      + f" ({entity.death_failures} -> {failures})"))
    e = replace(entity, death_failures=failures)
    if failures >= DEATH_SAVE_LIMIT:
        steps.append(Step("H6", "three failures: dies"))
        e = record_death(e, "death_saves", events, steps)
    return e, _report(entity, e, events, steps, details)


# ---------------------------------------------------------------------------
# Request handlers: damage, heal, temp_hp, death_save


def state_entities(state: Mapping[str, Any]) -> dict[str, Entity]:
    """The entities of an inline request ``state`` by id, in order; semantic
    errors (duplicate ids, hp above max_hp, ...) raise :class:`InputError`."""
    from linguo_cli.io import state_io

    doc = state_io.Document("request", {"entities": list(state.get("entities") or [])})
    return state_io.entities_of(doc)


def resolve_targets(entities: Mapping[str, Entity], ids: Sequence[str],
                    field_name: str = "targets") -> list[str]:
    """Check that every id of ``ids`` is an entity of the state (exit 3 with
    a suggestion otherwise) and that none repeats; returns them in order."""
    diags: list[Diagnostic] = []
    seen: set[str] = set()
    for i, tid in enumerate(ids):
        where = f"{field_name}[{i}]" if field_name == "targets" else field_name
        if tid in seen:
            diags.append(Diagnostic("request", where, f"target {tid!r} is listed twice"))
        seen.add(tid)
        if tid not in entities:
            hint = difflib.get_close_matches(tid, list(entities), n=1)
            msg = f"no entity with id {tid!r} in the state"
            msg += f" (did you mean {hint[0]!r}?)" if hint else (
                f"; ids: {', '.join(list(entities)[:20])}" if entities else "")
            diags.append(Diagnostic("request", where, msg))
    if diags:
        raise InputError(diags)
    return list(ids)


def _state_and_targets(request: Mapping[str, Any]
                       ) -> tuple[dict[str, Entity] | None, list[str]]:
    state = request.get("state")
    targets = list(request.get("targets") or [])
    if state is None:
        if targets:
            raise InputError(Diagnostic("request", "targets",
                                        "targets need a state to apply to (state / --state)"))
        return None, []
    entities = state_entities(state)
    if not targets:
        raise InputError(Diagnostic("request", "targets",
                                    "a request on a state needs at least one target "
                                    "(targets / --target)"))
    return entities, resolve_targets(entities, targets)


def _modifiers(items: Sequence[Mapping[str, Any]] | None) -> tuple[Modifier, ...]:
    return modifiers_from(items)


def _rules_of(steps: Sequence[Step]) -> list[str]:
    out: list[str] = []
    for s in steps:
        if s.rule not in out:
            out.append(s.rule)
    return out


def _state_result(state: Mapping[str, Any], entities: Mapping[str, Entity]) -> dict[str, Any]:
    """The whole state after: other top-level keys kept, entities in full."""
    out = {k: v for k, v in state.items() if k != "entities"}
    out["entities"] = [e.as_dict() for e in entities.values()]
    return out


def _finish(kind: str, head: dict[str, Any], steps: list[Step],
            state: Mapping[str, Any] | None, entities: dict[str, Entity] | None,
            reports: list[EntityReport]) -> dict[str, Any]:
    all_steps = list(steps)
    for rep in reports:
        all_steps.extend(Step(s.rule, f"{rep.id}: {s.text}") for s in rep.steps)
    result: dict[str, Any] = {"kind": kind, **head}
    if state is not None and entities is not None:
        result["entities"] = {rep.id: rep.as_dict() for rep in reports}
        result["state"] = _state_result(state, entities)
    result["rules"] = _rules_of(all_steps)
    result["explanation"] = [s.as_dict() for s in all_steps]
    return result


def _expression(request: Mapping[str, Any]) -> DiceExpression | None:
    text = request.get("dice")
    return None if text is None else parse_dice(str(text), field="dice")


def annotated_damage_type(expr: DiceExpression | None, given: str | None) -> str | None:
    """The damage type of a roll: a Linguomancy damage roll has one. An
    annotation (``1d8[fire]``) sets it where the request gives none; two
    different annotations, or one that differs from ``given``, are invalid
    input (:class:`InputError`, exit 3, field ``dice``)."""
    labels = expr.labels() if expr is not None else []
    if len(labels) > 1:
        raise InputError(Diagnostic("request", "dice", "a damage roll has one damage type; "
                                    f"the dice are annotated {', '.join(labels)}"))
    if labels and given is not None and labels[0] != given:
        raise InputError(Diagnostic("request", "dice", f"the annotation [{labels[0]}] "
                                    f"contradicts damage_type {given!r}"))
    return given if given is not None else (labels[0] if labels else None)


def resolve_damage_request(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Handler of kind ``damage``: one roll (T3-T5) shared by every target
    (T6), then R1-R3 and H1/H4/H5/H7 per target when a state is given."""
    tick = ticks_.get_tick(str(request["tick"]), healing=False, field="tick")
    expr = _expression(request)
    entities, targets = _state_and_targets(request)
    critical = bool(request.get("critical"))
    nonlethal = bool(request.get("nonlethal"))
    damage_type = annotated_damage_type(expr, request.get("damage_type"))
    rolled = roll_amount(
        expr, tick=tick, ability_modifier=int(request.get("potential", 0)),
        modifiers=_modifiers(request.get("modifiers")), critical=critical, dice=dice,
        allow_nonconforming=bool(request.get("allow_nonconforming")))
    head = rolled.as_dict()
    head.update(damage_type=damage_type, nonlethal=nonlethal)
    steps = list(rolled.steps)
    reports: list[EntityReport] = []
    if entities is not None:
        if len(targets) > 1:
            steps.append(Step("T6", f"{len(targets)} targets share the one damage roll "
                                    f"of {rolled.amount}"))
        for tid in targets:
            new, rep = apply_damage(entities[tid], int(rolled.amount or 0),
                                    damage_type=damage_type, critical=critical,
                                    nonlethal=nonlethal)
            entities[tid] = new
            reports.append(rep)
    return _finish("damage", head, steps, request.get("state"), entities, reports)


def resolve_heal_request(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Handler of kind ``heal``: one roll (T3, T7) shared by every target,
    then H3/H8 per target (Complete: each to max HP; Resurrection: back to
    life)."""
    tick = ticks_.get_tick(str(request["tick"]), healing=True, field="tick")
    expr = _expression(request)
    entities, targets = _state_and_targets(request)
    amount = request.get("amount")
    rolled = roll_amount(
        expr, tick=tick, ability_modifier=int(request.get("cohesion", 0)),
        modifiers=_modifiers(request.get("modifiers")), dice=dice,
        allow_nonconforming=bool(request.get("allow_nonconforming")),
        amount=None if amount is None else int(amount))
    head = rolled.as_dict()
    steps = list(rolled.steps)
    reports: list[EntityReport] = []
    if entities is not None:
        if len(targets) > 1:
            steps.append(Step("T6", f"{len(targets)} targets share the one healing roll"))
        for tid in targets:
            new, rep = apply_healing(entities[tid], rolled.amount, tick=tick)
            entities[tid] = new
            reports.append(rep)
    return _finish("heal", head, steps, request.get("state"), entities, reports)


def resolve_temp_hp_request(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Handler of kind ``temp_hp``: grant ``amount`` temporary HP to every
    target (H2: ``keep`` larger|old|new; H3)."""
    entities, targets = _state_and_targets(request)
    if entities is None:
        raise InputError(Diagnostic("request", "state", "temp_hp needs a state"))
    amount = int(request["amount"])
    keep = str(request.get("keep", "larger"))
    reports: list[EntityReport] = []
    for tid in targets:
        new, rep = grant_temp_hp(entities[tid], amount, keep)
        entities[tid] = new
        reports.append(rep)
    return _finish("temp_hp", {"amount": amount, "keep": keep}, [], request["state"],
                   entities, reports)


def resolve_death_save_request(request: Mapping[str, Any], dice: DiceSource
                               ) -> dict[str, Any]:
    """Handler of kind ``death_save``: one death saving throw (H6) for
    ``entity`` of the state."""
    entities = state_entities(request["state"])
    eid = str(request["entity"])
    resolve_targets(entities, [eid], "entity")
    new, rep = roll_death_save(entities[eid], dice)
    entities[eid] = new
    head = {"entity": eid, "face": rep.details["face"], "natural": rep.details["natural"],
            "outcome": rep.details["outcome"]}
    return _finish("death_save", head, [], request["state"], entities, [rep])
