"""Linguomancy as a :class:`~linguo_cli.core.ruleset.Ruleset` (the default ruleset).

Announced in ``pyproject.toml`` under the entry-point group
``linguo.rulesets``. Importing this module imports no rule module: handlers,
the validator, the renderer and the commands are named ``"module:function"``
and imported on first use.
"""

from __future__ import annotations

from typing import Any

from linguo_cli.core.ruleset import Ruleset
from linguo_cli.rulesets.linguomancy import packaged

_PKG = "linguo_cli.rulesets.linguomancy"
_TESTS = f"{_PKG}.requests:resolve_test_request"

#: kind -> "module:function" of its handler, imported on first use.
HANDLERS: dict[str, str] = {
    "check": _TESTS,
    "attack": _TESTS,
    "save": _TESTS,
    "damage": f"{_PKG}.damage:resolve_damage_request",
    "heal": f"{_PKG}.damage:resolve_heal_request",
    "temp_hp": f"{_PKG}.damage:resolve_temp_hp_request",
    "death_save": f"{_PKG}.damage:resolve_death_save_request",
    "rest": f"{_PKG}.rest:resolve_rest_request",
    "cast": f"{_PKG}.flux:resolve_cast_request",
    "overclock": f"{_PKG}.flux:resolve_overclock_request",
    "turn": f"{_PKG}.turn:resolve_turn_request",
    "odds": f"{_PKG}.odds:resolve_odds_request",
    "ticks": f"{_PKG}.ticks:resolve_ticks_request",
    "dice": f"{_PKG}.dice_request:resolve_dice_request",
}


def validate_request(document: Any) -> None:
    """Check a loaded request document against ``schemas/request.schema.json``
    and the semantic checks of :func:`linguo_cli.io.SCHEMAS.validate`;
    raises :class:`~linguo_cli.core.errors.InputError` (exit 3)."""
    from linguo_cli.rulesets.linguomancy.state import SCHEMAS

    SCHEMAS.validate(document, "request")


RULESET = Ruleset(
    name="linguomancy",
    title="Linguomancy (the default ruleset: its commands are at the top level)",
    handlers=HANDLERS,
    validator=f"{_PKG}.ruleset:validate_request",
    renderer=f"{_PKG}.render:emit",
    schemas=packaged("schemas"),
    suite=packaged("suite"),
    commands=f"{_PKG}.commands:mount",
    options=f"{_PKG}.options:OPTIONS",
    preparer=f"{_PKG}.options:apply",
)
