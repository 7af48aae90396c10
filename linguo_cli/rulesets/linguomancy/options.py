"""Linguomancy's named options (the ``options:`` of requests and states, and
``--option NAME=VALUE``), and how they reach the rules.

One option today: ``partial_success_hits`` (A1, boolean, default ``false``):
the alternative ruling under which an attack's partial success hits. It is
the same as the request field ``partial_success_hits`` of attacks, casts,
odds of an attack and the attack and cast steps of a turn (and the command
line's ``--ruling partial-success-hits``): :func:`apply` writes the option in
effect into every such place that does not set the field itself (a field set
on the request or the step is the most specific setting and wins).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core.options import Option, OptionTable

#: The options of Linguomancy (no refusal codes: ``code`` is null in errors).
OPTIONS = OptionTable.of([
    Option("partial_success_hits", False, (True,), rule="A1",
           help="A1's alternative ruling: an attack's partial success hits."),
])

#: Request kinds (and turn step kinds) that read ``partial_success_hits``.
_READERS = ("attack", "cast")


def effective(request: Mapping[str, Any]) -> dict[str, Any]:
    """The options in effect for ``request``: its ``options`` over its
    state's ``options`` over the defaults (the command line's are merged into
    the request's ``options`` before). Raises
    :class:`~linguo_cli.core.options.OptionError` (exit 3) at
    ``options.NAME`` or ``state.options.NAME`` for an unknown name or value."""
    state = request.get("state")
    state_options = state.get("options") if isinstance(state, Mapping) else None
    return OPTIONS.effective(
        OPTIONS.check(state_options, "request", base="state.options"),
        OPTIONS.check(request.get("options"), "request"))


def apply(request: Mapping[str, Any]) -> Mapping[str, Any]:
    """``request`` with the options in effect written into the fields the
    rules read (see the module docstring); ``request`` itself when every
    option is at its default and no ``options`` were given."""
    state = request.get("state")
    if "options" not in request and (
            state is None or not (isinstance(state, Mapping) and "options" in state)):
        return request  # the common case decided without an ABC check of a missing state
    values = effective(request)
    if not values["partial_success_hits"]:
        return request
    out = dict(request)
    kind = out.get("kind")
    if kind in _READERS:
        out.setdefault("partial_success_hits", True)
    elif kind == "odds" and isinstance(out.get("test"), Mapping) \
            and out["test"].get("kind") == "attack":
        out["test"] = {"partial_success_hits": True, **out["test"]}
    elif kind == "turn":
        out["turns"] = [_turn_with(t) for t in out.get("turns") or ()]
    return out


def _turn_with(turn: Any) -> Any:
    if not isinstance(turn, Mapping):
        return turn
    steps = [{"partial_success_hits": True, **s}
             if isinstance(s, Mapping) and s.get("kind") in _READERS else s
             for s in turn.get("steps") or ()]
    return {**turn, "steps": steps}
