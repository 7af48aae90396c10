"""The lazy command groups (linguo_cli/cli/lazy.py): the command tables of the
rulesets stay in step with their command modules, and every command built on
first use has the help (and so the options, and the ``--option`` of a
ruleset command) of the same command built with its whole group at once,
as ``linguo`` built them before."""

from __future__ import annotations

from typing import Any

import pytest
import typer

from linguo_cli.cli import app as cli_app
from linguo_cli.cli.lazy import add_option_parameter
from linguo_cli.core import ruleset as rulesets

from ..conftest import run_cli


def _eager(*sources: Any) -> Any:
    """A Typer group built all at once from the Typer ``commands`` of each
    of ``sources`` (commands first, then groups, as Typer lists them)."""
    whole = typer.Typer(rich_markup_mode=None)
    for source in sources:
        whole.registered_commands.extend(source.registered_commands)
        whole.registered_groups.extend(source.registered_groups)
    return typer.main.get_group(whole)


def _mounted(rs: rulesets.Ruleset) -> Any:
    """The Typer ``commands`` of ruleset ``rs`` mounted all at once
    (:meth:`~linguo_cli.core.ruleset.Ruleset.mount`)."""
    whole = typer.Typer()
    rs.mount(whole)
    return whole


def _helps(group: Any, names: list[str], *, prog: str, settings: Any) -> dict[str, str]:
    """Each command's ``--help`` text (subcommands of a group too), under a
    group context with ``settings`` (the context settings of the lazy group,
    e.g. ``-h`` as a help option)."""
    root = typer.Context(group, info_name=prog, **settings)
    out: dict[str, str] = {}
    for name in names:
        command = group.get_command(root, name)
        assert command is not None, name
        ctx = typer.Context(command, info_name=name, parent=root)
        out[name] = command.get_help(ctx)
        for sub in getattr(command, "commands", {}):
            sub_command = command.get_command(ctx, sub)
            out[f"{name} {sub}"] = sub_command.get_help(
                typer.Context(sub_command, info_name=sub, parent=ctx))
    return out


def _lazy_top() -> tuple[Any, typer.Context]:
    group = typer.main.get_command(cli_app.app)
    return group, typer.Context(group, info_name="linguo")


def test_the_top_level_lists_every_command_in_the_order_of_the_whole_group() -> None:
    from linguo_cli.cli import conformance

    lazy, ctx = _lazy_top()
    whole = _eager(cli_app.commands, _mounted(rulesets.default()), conformance.commands)
    others = [n for n in rulesets.names() if n != rulesets.DEFAULT]
    assert lazy.list_commands(ctx) == [*whole.commands, *others]
    assert lazy.commands == {}  # nothing was built to list them


def test_each_top_level_command_has_the_help_of_the_whole_group() -> None:
    from linguo_cli.cli import conformance

    lazy, ctx = _lazy_top()
    whole = _eager(cli_app.commands, _mounted(rulesets.default()), conformance.commands)
    for name, command in whole.commands.items():
        if name not in cli_app.NOT_RULESET_COMMANDS:
            add_option_parameter(command)
    names = list(whole.commands)
    settings = lazy.context_settings
    assert _helps(lazy, names, prog="linguo", settings=settings) == _helps(
        whole, names, prog="linguo", settings=settings)
    assert "--option" in _helps(lazy, ["check"], prog="linguo", settings=settings)["check"]


@pytest.mark.parametrize("name", ["novence-eternal", "ptr2e"])
def test_a_ruleset_group_lists_and_builds_what_its_modules_register(name: str) -> None:
    rs = rulesets.get(name)
    lazy = cli_app._ruleset_group(name)
    assert lazy.entries, "the ruleset has command tables"
    whole = _eager(_mounted(rs))
    add_option_parameter(whole)
    ctx = typer.Context(lazy, info_name=name)
    assert lazy.list_commands(ctx) == list(whole.commands)
    names, settings = list(whole.commands), lazy.context_settings
    assert _helps(lazy, names, prog=name, settings=settings) == _helps(
        whole, names, prog=name, settings=settings)


def test_a_one_off_command_builds_only_itself() -> None:
    lazy, ctx = _lazy_top()
    assert lazy.get_command(ctx, "check") is not None
    assert list(lazy.__dict__["_built"]) == ["check"]


@pytest.mark.parametrize(("args", "message"), [
    (["chek", "--dc", "3"], "No such command 'chek'. Did you mean 'check'?"),
    (["odds", "chck"], "No such command 'chck'. Did you mean 'check'?"),
    (["novence", "atack"], "No such command 'atack'. Did you mean 'attack', 'sc-attack'?"),
    (["ptr2e", "odds", "skil"], "No such command 'skil'. Did you mean 'skill'?"),
    (["nosuch"], "No such command 'nosuch'."),
])
def test_an_unknown_command_is_suggested_from_every_name(args: list[str], message: str) -> None:
    run = run_cli(*args)
    assert run.exit_code == 2
    assert run.stderr.startswith(f"linguo: error: {message}")
    assert "Did you mean" in message or "Did you mean" not in run.stderr

