"""Typer groups whose commands are built on first use.

Building a Click command from a Typer function reads its signature and makes
a parameter of every option: done for every command of ``linguo`` at once,
it was most of a one-off command's start-up after the imports. A lazy group
knows its commands from a table (name -> the module whose Typer ``commands``
registers it, in ``--help`` order) and builds one only when it is invoked,
listed (``--help``, shell completion) or asked for (:meth:`LazyGroup.built`).
Help, completion, usage errors and their "Did you mean" suggestions are
those of the same group built all at once (tests/cli/test_lazy_commands.py).

A ruleset gives its tables as ``COMMANDS`` (and ``GROUPS``, its groups of
commands, which ``--help`` lists after the commands) in the module its
:attr:`~linguo_cli.core.ruleset.Ruleset.commands` target names; a ruleset
without them is mounted all at once (:meth:`~linguo_cli.core.ruleset.Ruleset.mount`).

No ``from __future__ import annotations`` here: Typer reads signatures.
"""

import importlib
from difflib import get_close_matches
from typing import Any

import typer
from typer.core import TyperGroup

try:  # Typer >= 0.22 ships its own copy of Click
    from typer._click.exceptions import UsageError
except ImportError:  # pragma: no cover - older Typer on top of Click
    from click.exceptions import (  # type: ignore[no-redef,import-not-found,assignment,unused-ignore]
        UsageError,
    )


def add_option_parameter(command: Any) -> None:
    """Give ``command`` (and every command of a group) ``--option NAME=VALUE``."""
    from linguo_cli.cli.options import option_parameter

    for sub in getattr(command, "commands", {}).values():
        add_option_parameter(sub)
    if not hasattr(command, "commands") and not any(
            "--option" in getattr(p, "opts", ()) for p in command.params):
        command.params.append(option_parameter())


def command_tables(rs: Any) -> tuple[dict[str, str], dict[str, str]] | None:
    """The command tables of ruleset ``rs``: ``(COMMANDS, GROUPS)`` of the
    module its ``commands`` target names (each name -> the module whose Typer
    ``commands`` registers it, in the order ``--help`` lists them); ``({},
    {})`` for a ruleset without commands; ``None`` when that module has no
    ``COMMANDS``."""
    if rs.commands is None:
        return {}, {}
    module = importlib.import_module(rs.commands.partition(":")[0])
    commands = getattr(module, "COMMANDS", None)
    if commands is None:
        return None
    return dict(commands), dict(getattr(module, "GROUPS", {}))


def build(module: str, name: str, rich_markup_mode: Any) -> Any:
    """The Click command or group ``name`` registered by the Typer
    ``commands`` of ``module``, built alone (only its own function's
    signature is read) as Typer builds a group's commands; ``None`` when
    ``module`` registers no ``name``."""
    source = importlib.import_module(module).commands
    one = typer.Typer(rich_markup_mode=rich_markup_mode)
    one.registered_commands = [
        c for c in source.registered_commands
        if (c.name or typer.main.get_command_name(c.callback.__name__)) == name]
    one.registered_groups = [g for g in source.registered_groups if g.name == name]
    return typer.main.get_group(one).commands.get(name)


class LazyGroup(TyperGroup):
    """A Typer group whose commands are built on first use (:meth:`built`)
    from a table name -> module (:meth:`table`). They are kept apart from
    ``self.commands`` (which holds only commands it was built with), so that
    the "Did you mean" suggestions of a usage error are made from every name
    of the table (:meth:`resolve_command`), as for a group built all at once.
    Every command built gets ``--option NAME=VALUE`` but those of
    :attr:`without_option`."""

    #: Names of commands that are not a ruleset's (no ``--option``).
    without_option: frozenset[str] = frozenset()

    def table(self, ctx: Any) -> dict[str, str]:
        """Each command name -> the module that registers it, in ``--help`` order."""
        return {}

    def built(self, ctx: Any, cmd_name: str) -> Any:
        """The command ``cmd_name`` of :meth:`table`, built once; ``None``
        when the table has no such name."""
        cache: dict[str, Any] = self.__dict__.setdefault("_built", {})
        if cmd_name not in cache:
            module = self.table(ctx).get(cmd_name)
            found = None if module is None else build(module, cmd_name, self.rich_markup_mode)
            if found is not None and cmd_name not in self.without_option:
                add_option_parameter(found)
            cache[cmd_name] = found
        return cache[cmd_name]

    def list_commands(self, ctx: Any) -> list[str]:
        return list(super().list_commands(ctx)) + list(self.table(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return super().get_command(ctx, cmd_name) or self.built(ctx, cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as exc:  # Typer's suggestion, over the names of the table
            names = [] if self.commands else list(self.table(ctx))  # else Typer's own
            matches = get_close_matches(args[0], names) if getattr(
                self, "suggest_commands", False) and names and args else []
            if matches:
                suggestions = ", ".join(f"{m!r}" for m in matches)
                exc.message = f"{exc.message.rstrip('.')}. Did you mean {suggestions}?"
            raise


class RulesetGroup(LazyGroup):
    """``linguo NAME``: a ruleset's commands, built on first use from the
    ruleset's command tables (:attr:`entries`, name -> module)."""

    entries: dict[str, str] = {}

    def table(self, ctx: Any) -> dict[str, str]:
        return self.entries
