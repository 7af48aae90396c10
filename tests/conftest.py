"""Shared test helpers: run the CLI in-process and capture its output."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from linguo_cli.cli import app

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def run_cli(*args: str, input: str | None = None) -> Run:
    """Invoke ``linguo ARGS`` in-process; stdout and stderr apart."""
    result = CliRunner().invoke(app, list(args), input=input)
    return Run(result.exit_code, result.stdout, result.stderr)


@pytest.fixture
def cli() -> Any:
    return run_cli
