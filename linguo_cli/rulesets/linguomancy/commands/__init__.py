"""Linguomancy's commands, mounted at the top of ``linguo`` (the default ruleset).

The command modules are imported on first use: :data:`COMMANDS` and
:data:`GROUPS` say which module registers each command, so that ``linguo
check`` imports and builds :mod:`.d20`'s ``check`` alone
(:class:`linguo_cli.cli.app.LinguoGroup`); :func:`mount` adds them all.
"""

from typing import Any

_PKG = "linguo_cli.rulesets.linguomancy.commands"

#: The command modules in the order ``linguo --help`` lists their commands.
MODULES = (f"{_PKG}.d20", f"{_PKG}.state", f"{_PKG}.flux")

#: Each command -> the module whose Typer ``commands`` registers it, in the
#: order ``linguo --help`` lists them (tests/cli/test_lazy_commands.py keeps
#: it in step with the modules).
COMMANDS: dict[str, str] = {
    **dict.fromkeys(("check", "attack", "save", "ticks", "roll"), f"{_PKG}.d20"),
    **dict.fromkeys(("turn", "damage", "heal", "temp-hp", "death-save", "rest"),
                    f"{_PKG}.state"),
    **dict.fromkeys(("cast", "overclock"), f"{_PKG}.flux"),
}
#: Each group of commands -> its module, listed after the commands.
GROUPS: dict[str, str] = {"odds": f"{_PKG}.d20"}


def mount(app: Any) -> None:
    """Add every Linguomancy command and group to the Typer ``app``."""
    import importlib

    for name in MODULES:
        module = importlib.import_module(name)
        app.registered_commands.extend(module.commands.registered_commands)
        app.registered_groups.extend(module.commands.registered_groups)
