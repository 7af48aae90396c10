"""Novence Eternal as a :class:`~linguo_cli.core.ruleset.Ruleset`.

Canonical name ``novence-eternal`` (requests, suites, results), CLI alias
``novence``. Announced in ``pyproject.toml`` under the entry-point group
``linguo.rulesets``. Importing this module imports no rule module: the
handlers, the validator, the renderer, the commands, the options table and
the dice source are named ``"module:name"`` and imported on first use.
"""

from __future__ import annotations

from linguo_cli.core.ruleset import Ruleset
from linguo_cli.rulesets.novence_eternal import packaged

_PKG = "linguo_cli.rulesets.novence_eternal"

#: kind -> "module:function" of its handler, imported on first use.
HANDLERS: dict[str, str] = {
    "attack": f"{_PKG}.handlers:resolve_attack_request",
    "modifiers": f"{_PKG}.handlers:resolve_modifiers_request",
    "dc_effect": f"{_PKG}.handlers:resolve_dc_effect_request",
    "thp": f"{_PKG}.recovery_requests:resolve_thp_request",
    "heal": f"{_PKG}.recovery_requests:resolve_heal_request",
    "ko_roll": f"{_PKG}.recovery_requests:resolve_ko_roll_request",
    "stabilize": f"{_PKG}.recovery_requests:resolve_stabilize_request",
    "rest": f"{_PKG}.recovery_requests:resolve_rest_request",
    "resurrect": f"{_PKG}.recovery_requests:resolve_resurrect_request",
    "check": f"{_PKG}.recovery_requests:resolve_check_request",
    "ultimate": f"{_PKG}.ultimate_requests:resolve_ultimate_request",
    "meditate": f"{_PKG}.ultimate_requests:resolve_meditate_request",
    "traverse": f"{_PKG}.party_requests:resolve_traverse_request",
    "party_check": f"{_PKG}.party_requests:resolve_party_check_request",
    "sc_attack": f"{_PKG}.sc_attack:resolve_sc_attack_request",
    "initiative": f"{_PKG}.initiative:resolve_initiative_request",
    "reaction_order": f"{_PKG}.initiative:resolve_reaction_order_request",
    "move": f"{_PKG}.movement:resolve_move_request",
    "injury": f"{_PKG}.injury_requests:resolve_injury_request",
    "script": f"{_PKG}.script.play:resolve_script_request",
    "turn_start": f"{_PKG}.script.play:resolve_turn_start_request",
    "event": f"{_PKG}.script.play:resolve_event_request",
}

RULESET = Ruleset(
    name="novence-eternal",
    title="Novence Eternal: attacks, effects, hit points, KO",
    handlers=HANDLERS,
    validator=f"{_PKG}.validation:validate_request",
    renderer=f"{_PKG}.render:emit",
    schemas=packaged("schemas"),
    suite=packaged("suite"),
    commands=f"{_PKG}.commands:mount",
    aliases=("novence",),
    options=f"{_PKG}.options:OPTION_TABLE",
    dice=f"{_PKG}.handlers:faces_source",
)
