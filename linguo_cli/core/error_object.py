"""The error object shared by every ruleset (issue 14's binding decision).

``{"exit": 4, "code": null, "rule": "D7", "place": "...", "message": "..."}``
is what ``linguo ... --json`` prints on stdout when a command fails, what the
batch adapter answers for a failing request (``{"error": {...}}``) and what
a golden case's ``expect_error`` may hold (``exit`` always compared, ``code``
and ``rule`` when the case gives them; ``place`` and ``message`` never).

``code`` is the error's ruleset refusal code (its ``refusal`` attribute, e.g.
``bad_option``) where the ruleset's spec defines codes, else ``null``
(Linguomancy defines none); ``rule`` is the error's rule ID (a
:class:`~linguo_cli.core.errors.RulesError`, a bad option's rule) or ``null``.
Nothing here applies a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core.errors import InputError, LinguoError

#: The keys of an error object, in order.
KEYS = ("exit", "code", "rule", "place", "message")
#: The keys of an ``expect_error`` object that are compared (``exit`` always).
COMPARED = ("exit", "code", "rule")


def error_object(exc: LinguoError) -> dict[str, Any]:
    """The error object of ``exc``: ``exit`` its exit code (2-5), ``code``
    the ruleset's refusal code or ``None``, ``rule`` the rule ID of a
    rules violation (else ``None``), ``place`` the first diagnostic's place
    (``file:line:col``), else the place a ruleset's refusal names (its
    ``place`` attribute when a non-empty string: NV6 ``request`` or
    ``R2 turn 1 (ayla) step 3``, PTR's ``#1 step 2``), else ``None``;
    ``message`` the one-line message."""
    place = getattr(exc, "place", None) or None
    if isinstance(exc, InputError) and exc.diagnostics:
        place = exc.diagnostics[0].place
    elif not isinstance(place, str):
        place = None
    rule = getattr(exc, "rule", None)
    refusal = getattr(exc, "refusal", None)
    return {"exit": exc.code, "code": refusal if isinstance(refusal, str) else None,
            "rule": rule if isinstance(rule, str) else None,
            "place": place, "message": exc.message}


def expectation(expect_error: int | Mapping[str, Any]) -> dict[str, Any]:
    """An ``expect_error`` value (an exit code, or an error object) as the
    compared keys it gives: ``{"exit": 4}`` or ``{"exit": 4, "rule": "D7"}``."""
    if isinstance(expect_error, Mapping):
        return {k: expect_error[k] for k in COMPARED if k in expect_error}
    return {"exit": expect_error}


def from_answer(value: Any, message: Any = "") -> dict[str, Any] | None:
    """An answered error as an error object, or ``None`` when ``value`` is
    not one. Accepts the error object itself (``{"exit": 3, ...}``) and the
    older batch form's bare exit code (``3``, with ``message`` beside it)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return {"exit": value, "code": None, "rule": None, "place": None,
                "message": str(message or "")}
    if isinstance(value, Mapping):
        code = value.get("exit")
        if isinstance(code, bool) or not isinstance(code, int):
            return None
        return {"exit": code, "code": value.get("code"), "rule": value.get("rule"),
                "place": value.get("place"), "message": str(value.get("message") or "")}
    return None
