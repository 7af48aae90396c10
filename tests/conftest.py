"""Shared test helpers: run the CLI in-process and capture its output."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from linguo_cli.cli.app import app

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis profiles: "ci" (bounded, deterministic; tox sets it, and it is the
# default) and "long" (the fuzz campaign, tox -e fuzz). Tests with their own
# @settings keep their own example counts.
settings.register_profile("ci", max_examples=50, deadline=None, derandomize=True,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=100_000, deadline=None, database=None,
                          suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
