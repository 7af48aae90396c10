"""Novence Eternal's commands: ``linguo novence-eternal attack`` and
``linguo novence-eternal modifiers``, and hit points and the KO/Injury
machine (``thp``, ``heal``, ``ko-roll``, ``stabilize``, ``rest``,
``resurrect``), and ``sc-attack``, ``initiative``, ``reaction-order``,
``move`` and ``injury``, and ``check-state`` (a state or
request checked, NV1-NV3) (alias ``linguo novence ...``)."""

from typing import Any

from linguo_cli.rulesets.novence_eternal.commands import (
    care,
    check_state,
    one_off,
    rolls,
    script,
    zenith_party,
)

#: The command modules in the order ``linguo novence --help`` lists them.
MODULES = (one_off, care, zenith_party, rolls, script, check_state)


def mount(app: Any) -> None:
    """Add every Novence Eternal command to the Typer ``app``."""
    for module in MODULES:
        app.registered_commands.extend(module.commands.registered_commands)
