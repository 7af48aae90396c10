"""House rules of ARCHITECTURE.md that neither ruff nor import-linter checks.

Size: no module of the package is over 600 lines (ruff's C901, PLR0912 and
PLR0915 bound each function, ``pyproject.toml``; the layers are import-linter
contracts there too, run by ``tox -e lint``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ROOT

MAX_MODULE_LINES = 600
PACKAGE = ROOT / "linguo_cli"
MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_package_has_modules() -> None:
    assert len(MODULES) > 20


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_module_is_at_most_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, (
        f"{path.relative_to(ROOT)} has {lines} lines (at most {MAX_MODULE_LINES}): "
        "split it by responsibility (ARCHITECTURE.md, house rules)")
