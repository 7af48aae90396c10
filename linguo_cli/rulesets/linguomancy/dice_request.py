"""The ruleset-neutral request kind ``dice``: roll any dice notation with its
faces recorded, and its exact distribution when asked.

Request (``schemas/dice-request.schema.json``)::

    {kind: dice, expression: "4d6dl1", rolls: [3, 5, 1, 6], distribution: true}

Result: ``expression`` (canonical text), ``total``, ``faces`` (one record per
face in consumption order, see :func:`linguo_cli.core.dice.face_record` and the
marks of :mod:`linguo_cli.core.dice`), ``labels`` (annotations), exact
``expected_value`` (a fraction as text), ``minimum``, ``maximum``, and with
``distribution: true`` the list ``{total, probability, percent}`` plus
``truncated_mass`` (the probability the exploding-dice bound was reached).
``critical: true`` rolls the critical-hit expression of rule T5 rev. 2 (every
dice node doubled in place). ``rolls_used`` is added by
:func:`linguo_cli.rulesets.linguomancy.requests.resolve`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core import distribution as dice_exact
from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice import DiceSource, parse, roll
from linguo_cli.core.distribution import fraction_text, probability_dict
from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.core.results import OMIT, Omit


@dataclass(frozen=True, slots=True)
class TotalChance:
    """One row of an exact distribution: a ``total`` and its probability
    (JSON ``{total, probability, percent}``)."""

    total: int
    probability: str
    percent: str


@dataclass(frozen=True, slots=True)
class DiceResult:
    """The result of kind ``dice`` (fields in JSON order, see the module
    docstring); ``distribution`` and ``truncated_mass`` only when asked."""

    kind: str
    expression: str
    total: int
    faces: tuple[dict[str, object], ...]
    labels: tuple[str, ...]
    expected_value: str
    minimum: int
    maximum: int
    rules: tuple[str, ...]
    steps: tuple[Step, ...] = field(metadata={"json": "explanation"})
    distribution: tuple[TotalChance, ...] | Omit = OMIT
    truncated_mass: str | Omit = OMIT
    rolls_used: tuple[int, ...] = ()


def resolve_dice_request(request: Mapping[str, Any], dice: DiceSource) -> DiceResult:
    """Handler of kind ``dice``. Raises :class:`~linguo_cli.core.errors.InputError`
    (exit 3, field ``expression``) for notation it refuses or an exact
    distribution past its work bound, and :class:`~linguo_cli.core.errors.DiceError`
    when scripted faces do not fit."""
    try:
        return _resolve(request, dice)
    except InputError as exc:
        if any(d.field for d in exc.diagnostics):
            raise
        raise InputError([Diagnostic("dice notation", "expression", d.message)
                          for d in exc.diagnostics]) from None


def _resolve(request: Mapping[str, Any], dice: DiceSource) -> DiceResult:
    expr = parse(str(request["expression"]), field="expression")
    log = Derivation()
    if request.get("critical"):
        given = expr.text()
        expr = expr.doubled()
        log.note("T5", f"critical: every dice node of {given} is rolled again as its own "
                 f"group: {expr.text()}")
    result = roll(expr, dice)
    expected = fraction_text(expr.expected_value())
    log.note("T3", f"exact expected value of {expr.text()}: {expected} (what tick "
             "conformity reads)")
    distribution: tuple[TotalChance, ...] | Omit = OMIT
    truncated: str | Omit = OMIT
    if request.get("distribution"):
        distribution = tuple(TotalChance(v, **probability_dict(p))
                             for v, p in dice_exact.distribution(expr).items())
        truncated = fraction_text(dice_exact.truncated_mass(expr))
    return DiceResult(
        kind="dice", expression=expr.text(), total=result.total,
        faces=tuple(result.face_records()), labels=tuple(expr.labels()),
        expected_value=expected, minimum=expr.minimum(), maximum=expr.maximum(),
        rules=log.rules, steps=tuple(log.steps), distribution=distribution,
        truncated_mass=truncated)


def face_text(record: Mapping[str, Any]) -> str:
    """One face record as text: ``d6:1 (rerolled, not kept)``, ``d20:20 (exploded)``."""
    marks = [k for k in ("rerolled", "exploded", "extra", "explosion_limit") if record.get(k)]
    if "counts_as" in record:
        marks.append(f"counts as {record['counts_as']}")
    if not record.get("kept", True):
        marks.append("not kept")
    return f"d{record['die']}:{record['face']}" + (f" ({', '.join(marks)})" if marks else "")
