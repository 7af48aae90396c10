"""Requests: the ruleset named by a request, its handler, the result.

``resolve(request)`` is the single entry point shared by ``linguo resolve``,
every ruleset's one-off commands (which build the same request from their
options), the golden runner and the batch adapter. A request is a mapping
with a ``kind`` and an optional ``ruleset`` (a canonical name; a request
without it is Linguomancy's); the result is the JSON shape its ruleset
documents. Every result lists ``rolls_used``: the dice faces consumed, in
order, so feeding them back as ``rolls`` replays it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core import ruleset as rulesets
from linguo_cli.core.dice_sources import DiceSource
from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.core.results import to_plain
from linguo_cli.core.ruleset import Ruleset


def ruleset_of(request: Any) -> Ruleset:
    """The ruleset a request names in ``ruleset`` (the default when absent,
    or when ``request`` is not a mapping: its validator reports that).

    Raises :class:`InputError` (exit 3, field ``ruleset``) when ``ruleset``
    is not a string or names no installed ruleset (aliases are command-line
    only: a request must give the canonical name)."""
    name = request.get("ruleset", rulesets.DEFAULT) \
        if type(request) is dict or isinstance(request, Mapping) else rulesets.DEFAULT
    if name == rulesets.DEFAULT:  # the common case, without a name lookup
        return rulesets.default()
    if not isinstance(name, str):
        raise InputError(Diagnostic("request", "ruleset",
                                    f"must be a ruleset name, not {type(name).__name__}"))
    return rulesets.get(name)


def validate(document: Any) -> Ruleset:
    """Check a loaded request document (``document.data`` the request) with
    its ruleset's validator; returns the ruleset. Raises :class:`InputError`
    (exit 3) for an unknown ruleset or an invalid request."""
    rs = ruleset_of(document.data)
    rs.validate(document)
    return rs


def resolve_typed(request: Mapping[str, Any], dice: DiceSource | None = None) -> Any:
    """Resolve one request (already valid) and return the handler's result as
    it is: a typed result (a frozen dataclass; its ``rolls_used`` set here,
    on the fresh result) or, for a kind not typed yet, a dict
    with ``rolls_used`` added.

    ``dice`` overrides the request's own ``rolls``/``seed``. Raises
    :class:`~linguo_cli.core.errors.RulesError` (exit 4) for an illegal request,
    :class:`~linguo_cli.core.errors.DiceError` when scripted faces run out or are
    left unused, :class:`InputError` (exit 3) for an unknown ruleset or kind and
    for semantic errors.
    """
    rs = ruleset_of(request)
    if dice is None:
        rolls, seed = request.get("rolls"), request.get("seed")
        if rolls is not None and seed is not None:
            raise InputError(Diagnostic(
                "request", "seed", "give rolls or seed, not both (rolls would be used)"))
        dice = rs.dice_source(rolls, seed)
    request = rs.prepare(request)
    kind = request.get("kind")
    result = rs.handler(kind if type(kind) is str else str(kind))(request, dice)
    dice.finish()
    if getattr(type(result), "__dataclass_fields__", None) is not None:  # a dataclass result
        # the handler's fresh result is completed in place (no one else holds it
        # yet): cheaper than dataclasses.replace, which rebuilds it
        object.__setattr__(result, "rolls_used", tuple(dice.used))
        return result
    result["rolls_used"] = list(dice.used)
    return result


def resolve(request: Mapping[str, Any], dice: DiceSource | None = None) -> dict[str, Any]:
    """:func:`resolve_typed` as JSON-ready values (through
    :func:`linguo_cli.core.results.to_plain`, the one JSON boundary)."""
    result = resolve_typed(request, dice)
    if isinstance(result, dict):
        return result
    plain: dict[str, Any] = to_plain(result)
    return plain
