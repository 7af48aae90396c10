"""Novence Eternal's commands: ``linguo novence-eternal attack`` and
``linguo novence-eternal modifiers``, and hit points and the KO/Injury
machine (``thp``, ``heal``, ``ko-roll``, ``stabilize``, ``rest``,
``resurrect``), and ``sc-attack``, ``initiative``, ``reaction-order``,
``move`` and ``injury``, and ``check-state`` (a state or
request checked, NV1-NV3) (alias ``linguo novence ...``).

The command modules are imported on first use: :data:`COMMANDS` says which
module registers each command, so that ``linguo novence attack`` imports and
builds :mod:`.one_off`'s ``attack`` alone
(:class:`linguo_cli.cli.lazy.RulesetGroup`); :func:`mount` adds them all.
"""

from typing import Any

_PKG = "linguo_cli.rulesets.novence_eternal.commands"

#: The command modules in the order ``linguo novence --help`` lists their commands.
MODULES = tuple(f"{_PKG}.{m}" for m in
                ("one_off", "care", "zenith_party", "rolls", "script", "check_state"))

#: Each command -> the module whose Typer ``commands`` registers it, in the
#: order ``linguo novence --help`` lists them (tests/cli/test_lazy_commands.py
#: keeps it in step with the modules).
COMMANDS: dict[str, str] = {
    **dict.fromkeys(("attack", "modifiers"), f"{_PKG}.one_off"),
    **dict.fromkeys(("thp", "heal", "ko-roll", "stabilize", "rest", "resurrect"),
                    f"{_PKG}.care"),
    **dict.fromkeys(("ultimate", "meditate", "traverse", "party-check"), f"{_PKG}.zenith_party"),
    **dict.fromkeys(("sc-attack", "initiative", "reaction-order", "move", "injury"),
                    f"{_PKG}.rolls"),
    "script": f"{_PKG}.script",
    "check-state": f"{_PKG}.check_state",
}


def mount(app: Any) -> None:
    """Add every Novence Eternal command to the Typer ``app``."""
    import importlib

    for name in MODULES:
        app.registered_commands.extend(importlib.import_module(name).commands.registered_commands)
