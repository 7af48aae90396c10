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
from typing import Any

from linguo_cli.core import distribution as dice_exact
from linguo_cli.core.dice import DiceSource, parse, roll
from linguo_cli.core.errors import Diagnostic, InputError


def resolve_dice_request(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
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


def _resolve(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    from linguo_cli.rulesets.linguomancy.odds import fraction_text, probability_dict

    expr = parse(str(request["expression"]), field="expression")
    explanation = []
    if request.get("critical"):
        given = expr.text()
        expr = expr.doubled()
        explanation.append({"rule": "T5", "text": f"critical: every dice node of {given} is "
                                                  f"rolled again as its own group: {expr.text()}"})
    result = roll(expr, dice)
    out: dict[str, Any] = {
        "kind": "dice",
        "expression": expr.text(),
        "total": result.total,
        "faces": result.face_records(),
        "labels": expr.labels(),
        "expected_value": fraction_text(expr.expected_value()),
        "minimum": expr.minimum(),
        "maximum": expr.maximum(),
    }
    explanation.append({"rule": "T3", "text": f"exact expected value of {expr.text()}: "
                                              f"{out['expected_value']} (what tick conformity "
                                              "reads)"})
    out["rules"] = list(dict.fromkeys(step["rule"] for step in explanation))
    out["explanation"] = explanation
    if request.get("distribution"):
        dist = dice_exact.distribution(expr)
        out["distribution"] = [{"total": v, **probability_dict(p)} for v, p in dist.items()]
        out["truncated_mass"] = fraction_text(dice_exact.truncated_mass(expr))
    return out


def face_text(record: Mapping[str, Any]) -> str:
    """One face record as text: ``d6:1 (rerolled, not kept)``, ``d20:20 (exploded)``."""
    marks = [k for k in ("rerolled", "exploded", "extra", "explosion_limit") if record.get(k)]
    if "counts_as" in record:
        marks.append(f"counts as {record['counts_as']}")
    if not record.get("kept", True):
        marks.append("not kept")
    return f"d{record['die']}:{record['face']}" + (f" ({', '.join(marks)})" if marks else "")
