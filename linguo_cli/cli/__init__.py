"""The command line: the Typer app that mounts each ruleset's commands."""

from linguo_cli.cli.app import app, main

__all__ = ["app", "main"]
