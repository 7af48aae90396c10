"""Linguomancy's commands, mounted at the top of ``linguo`` (the default ruleset)."""

from typing import Any

from linguo_cli.rulesets.linguomancy.commands import d20, flux, state

#: The command modules in the order ``linguo --help`` lists them.
MODULES = (d20, state, flux)


def mount(app: Any) -> None:
    """Add every Linguomancy command and group to the Typer ``app``."""
    for module in MODULES:
        app.registered_commands.extend(module.commands.registered_commands)
        app.registered_groups.extend(module.commands.registered_groups)
