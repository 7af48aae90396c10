"""Novence Eternal's commands: ``linguo novence-eternal attack`` and
``linguo novence-eternal modifiers``, and hit points and the KO/Injury
machine (``thp``, ``heal``, ``ko-roll``, ``stabilize``, ``rest``,
``resurrect``) (alias ``linguo novence ...``)."""

from typing import Any

from linguo_cli.rulesets.novence_eternal.commands import care, one_off, script

#: The command modules in the order ``linguo novence --help`` lists them.
MODULES = (one_off, care, script)


def mount(app: Any) -> None:
    """Add every Novence Eternal command to the Typer ``app``."""
    for module in MODULES:
        app.registered_commands.extend(module.commands.registered_commands)
