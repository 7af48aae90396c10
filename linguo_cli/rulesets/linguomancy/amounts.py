"""Rolling a damage or healing amount: T3 conformity, T4/T5 (damage), T7
(healing) and the ticks of T1/T2 that roll nothing or give their amount.

* :func:`roll_amount` rolls an amount from a dice expression and a tick and
  returns an :class:`AmountRoll` (the numbers and their derivation).
* :class:`Amount` is the JSON record of a roll; with ``kind`` and the
  per-target fields it is also the typed result of the ``damage`` and
  ``heal`` requests (:mod:`linguo_cli.rulesets.linguomancy.damage`).

Units are HP throughout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import DiceExpression, DiceRoll, DiceSource
from linguo_cli.core.dice import roll as roll_dice
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.core.results import OMIT, _Omit, to_plain
from linguo_cli.rulesets.linguomancy import amount_rules
from linguo_cli.rulesets.linguomancy.model import Modifier
from linguo_cli.rulesets.linguomancy.ticks import Tick


@dataclass(frozen=True, slots=True, kw_only=True)
class Amount:
    """The JSON record of a damage or healing roll (see :class:`AmountRoll`
    for the meaning of each number), in key order: ``tick`` (name), ``dice``
    (as given, canonical text or ``None``), ``rolled_dice``, ``critical``,
    ``faces`` (face records), ``dice_total``, ``ability``,
    ``ability_modifier``, ``multiplier``, ``modifiers``, ``modifier_total``
    (flat modifiers), ``amount`` (HP, ``None`` for Complete),
    ``expected_value`` (fraction string or ``None``), ``conforming``,
    ``warnings``, and ``full_restoration`` for healing only.

    As the result of a ``damage`` or ``heal`` request it also has ``kind``
    (first), ``damage_type`` and ``nonlethal`` (damage), ``entities`` (per
    target records, with a state), ``state`` (the whole state after),
    ``rules``, ``explanation`` and ``rolls_used`` (last); each is left out of
    the JSON when :data:`~linguo_cli.core.results.OMIT`."""

    kind: str | _Omit = OMIT
    tick: str
    dice: str | None
    rolled_dice: str | None
    critical: bool
    faces: tuple[Mapping[str, object], ...]
    dice_total: int
    ability: str
    ability_modifier: int
    multiplier: int
    modifiers: tuple[Modifier, ...]
    modifier_total: int
    amount: int | None
    expected_value: str | None
    conforming: bool
    warnings: tuple[str, ...]
    full_restoration: bool | _Omit = OMIT
    damage_type: str | None | _Omit = OMIT
    nonlethal: bool | _Omit = OMIT
    entities: Mapping[str, Any] | _Omit = OMIT
    state: Mapping[str, Any] | _Omit = OMIT
    rules: tuple[str, ...] | _Omit = OMIT
    explanation: tuple[Step, ...] | _Omit = OMIT
    rolls_used: tuple[int, ...] | _Omit = OMIT


@dataclass(frozen=True, slots=True)
class AmountRoll:
    """One damage or healing roll with its derivation.

    ``amount`` (HP) is ``dice_total + ability_modifier x multiplier + flat
    modifiers``, floored at 0 (T4, T7); it is ``None`` only for the healing
    tick Complete, whose amount is "up to max HP" for each target (see
    :func:`~linguo_cli.rulesets.linguomancy.hp.apply_healing`). ``expression``
    is the formula as given, ``rolled`` what was rolled (every dice term
    doubled on a critical hit, T5; constants and modifiers never). ``faces``
    are face records (``{"die", "face", "kept"}``) in consumption order.
    ``expected_value`` is the exact expected value of ``expression``
    (``None`` without dice); ``conforming`` says whether it lies in the
    tick's range (T3). A non-conforming formula that was allowed adds a line
    to ``warnings``.
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

    def record(self, **extra: Any) -> Amount:
        """This roll as its typed JSON record (:class:`Amount`); ``extra``
        sets the request-result fields (``kind``, ``damage_type``, ...)."""
        return Amount(
            tick=self.tick.name,
            dice=self.expression.text() if self.expression is not None else None,
            rolled_dice=self.rolled.text() if self.rolled is not None else None,
            critical=self.critical, faces=tuple(self.faces), dice_total=self.dice_total,
            ability=self.ability, ability_modifier=self.ability_modifier,
            multiplier=self.multiplier, modifiers=self.modifiers,
            modifier_total=sum(m.value for m in self.modifiers), amount=self.amount,
            expected_value=(None if self.expected_value is None
                            else str(self.expected_value)),
            conforming=self.conforming, warnings=tuple(self.warnings),
            full_restoration=self.full_restoration if self.tick.healing else OMIT,
            **extra)

    def as_dict(self) -> dict[str, Any]:
        """The JSON of :meth:`record` (keys in :class:`Amount` order)."""
        out: dict[str, Any] = to_plain(self.record())
        return out


@dataclass(frozen=True, slots=True)
class _Names:
    """How a roll names itself: ``ability`` multiplied, table rule (T1/T2),
    sum rule (T4/T7) and ``what`` (``damage``/``healing``)."""

    ability: str
    table_rule: str
    sum_rule: str
    what: str

    @staticmethod
    def of(tick: Tick) -> _Names:
        if tick.healing:
            return _Names("cohesion", "T2", "T7", "healing")
        return _Names("potential", "T1", "T4", "damage")


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
    names = _Names.of(tick)
    _check_inputs(expression, tick, critical, amount, names)
    if tick.healing and tick.name == "complete":
        steps.append(Step("T2", "healing tick Complete: full restoration to max HP "
                                f"({tick.effect})"))
        return AmountRoll(tick, None, None, [], 0, names.ability, ability_modifier,
                          tick.multiplier, mods, None, None, True, False, warnings, steps)

    expected = expression.expected_value() if expression is not None else Fraction(0)
    conforming = _conformity(expression, expected, tick, allow_nonconforming, amount, names,
                             steps, warnings)
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
        return AmountRoll(tick, None, None, [], 0, names.ability, ability_modifier,
                          tick.multiplier, mods, max(amount, 0), None, True, False, warnings,
                          steps)
    if tick.name == "none":
        final = _no_effect(mods, dice_total, names, steps, warnings)
    else:
        final = _sum(rolled, faces, dice_total, ability_modifier, tick, mods, names, steps)
    return AmountRoll(tick, expression, rolled, faces, dice_total, names.ability,
                      ability_modifier, tick.multiplier, mods, final, expected, conforming,
                      critical, warnings, steps)


def _check_inputs(expression: DiceExpression | None, tick: Tick, critical: bool,
                  amount: int | None, names: _Names) -> None:
    """The input errors of :func:`roll_amount` (exit 3)."""
    if critical and tick.healing:
        raise InputError(Diagnostic("request", "critical",
                                    "a critical hit doubles damage dice, not healing dice"))
    if amount is not None and not (tick.healing and tick.name == "resurrection"):
        raise InputError(Diagnostic(
            "request", "amount",
            "a fixed amount is only given for the healing tick Resurrection; "
            "other ticks roll their dice"))
    if tick.healing and tick.name == "complete":
        if expression is not None:
            raise InputError(Diagnostic("request", "dice",
                                        "the healing tick Complete takes no dice: it restores "
                                        "every target to its max HP"))
        return
    if tick.healing and tick.name == "resurrection" and (expression is None) == (amount is None):
        raise InputError(Diagnostic(
            "request", "amount",
            "the healing tick Resurrection needs the amount its effect gives: "
            "either amount or dice, not both"))
    if expression is None and tick.has_range and (tick.min or 0) > 0:
        raise InputError(Diagnostic(
            "request", "dice",
            f"the {names.what} tick {tick.title} needs dice whose expected value lies in "
            f"{tick.range_text()} (T3)"))


def _conformity(expression: DiceExpression | None, expected: Fraction, tick: Tick,
                allow: bool, amount: int | None, names: _Names, steps: list[Step],
                warnings: list[str]) -> bool:
    """T1/T2's table line and T3 (rev. 2): whether the formula conforms;
    :class:`RulesError` ``T3`` when it does not and is not ``allow``-ed."""
    why = tick.nonconformity(expression if expression is not None else expected, expected)
    if amount is None:
        steps.append(Step(names.table_rule, f"{names.what} tick {tick.title}: expected-value "
                                            f"range {tick.range_text()}, {names.ability} "
                                            f"multiplier x{tick.multiplier}"))
    if not tick.has_range:
        if expression is not None:
            steps.append(Step("T3", f"{expression.text()}: the {tick.title} tick rolls nothing "
                                    "by itself, no dice range applies: conforming"))
        return why is None
    formula = expression.text() if expression is not None else "no dice"
    if why is None:
        steps.append(Step("T3", f"{formula}: expected value {expected} lies in "
                                f"{tick.range_text()}: conforming"))
        return True
    if not allow:
        raise RulesError(
            "T3",
            f"{formula} {why}; choose other dice or another tick "
            "(or allow_nonconforming / --allow-nonconforming)",
            {"dice": formula, "expected_value": str(expected), "tick": tick.name,
             "min": tick.min, "max": tick.max})
    text = f"{formula} {why} (T3); allowed on request"
    warnings.append(text)
    steps.append(Step("T3", text))
    return False


def _no_effect(mods: tuple[Modifier, ...], dice_total: int, names: _Names,
               steps: list[Step], warnings: list[str]) -> int:
    """The tick None: no damage or healing (0 HP)."""
    what = names.what
    if any(m.value for m in mods):
        warnings.append(f"{what} tick None: flat modifiers ignored, no {what} is done")
    steps.append(Step(names.table_rule, f"{what} tick None: no {what} ({dice_total} HP)"
                      if dice_total else f"{what} tick None: no {what}"))
    return 0


def _sum(rolled: DiceExpression | None, faces: list[dict[str, object]], dice_total: int,
         ability_modifier: int, tick: Tick, mods: tuple[Modifier, ...], names: _Names,
         steps: list[Step]) -> int:
    """T4/T7: dice + modifier x multiplier + flat modifiers, floored at 0."""
    product = ability_modifier * tick.multiplier
    raw = dice_total + product + sum(m.value for m in mods)
    parts = []
    if rolled is not None:
        shown = ", ".join(str(f["face"]) + ("" if f["kept"] else " dropped") for f in faces)
        parts.append(f"dice {rolled.text()} [{shown}] = {dice_total}")
    else:
        parts.append("no dice")
    parts.append(f"{names.ability} {ability_modifier:+d} x {tick.multiplier} = {product:+d}")
    parts.extend(f"{m.label} {m.value:+d}" for m in mods)
    text = f"{names.what} = " + " + ".join(parts) + f" = {raw}"
    if raw < 0:
        text += ", floored at 0"
    steps.append(Step(names.sum_rule, text))
    return amount_rules.floored(raw)
