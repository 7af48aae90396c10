"""Shared test helpers: run the CLI in-process and capture its output."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from linguo_cli.cli.app import app

ROOT = Path(__file__).resolve().parent.parent

# The suite cache (linguo_cli/conformance/suite_cache.py) of a test run goes to a
# folder of its own, never to the user's ~/.cache; set before any test module loads
# a suite. Child processes inherit it.
_CACHE_HOME = tempfile.mkdtemp(prefix="linguo-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
os.environ.pop("LINGUO_NO_CACHE", None)
atexit.register(shutil.rmtree, _CACHE_HOME, ignore_errors=True)

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
