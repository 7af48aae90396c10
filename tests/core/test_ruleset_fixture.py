"""An extra ruleset, installed only inside these tests (issue 14's acceptance).

``tests/fixtures/coinflip/`` is its own small distribution (package
``linguo_coinflip``: one request kind ``flip``, a ``flip`` command, its
schemas and a three-case golden suite ``golden/coinflip/``). The fixture
:func:`coinflip` "installs" it the way pip would be seen by
``importlib.metadata``, without pip: a temporary folder holding
``linguo_coinflip-0.0.dist-info/`` (METADATA and entry_points.txt) and the
fixture folder itself go on ``sys.path`` (and ``PYTHONPATH`` for the
implementation subprocess), and the discovery cache is cleared on entry and
on exit. Outside these tests only the real rulesets are installed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from linguo_cli.core import requests
from linguo_cli.core import ruleset as rulesets
from linguo_cli.core.errors import InputError

from ..conftest import ROOT, run_cli

FIXTURE = ROOT / "tests" / "fixtures" / "coinflip"
SUITE = FIXTURE / "golden" / "coinflip"
LINGUO = Path(sys.executable).parent / "linguo"


def _entry_point_group() -> str:
    """``[linguo.rulesets]`` of the fixture's own pyproject.toml, as an
    ``entry_points.txt`` section."""
    import tomllib

    project = tomllib.loads((FIXTURE / "pyproject.toml").read_text(encoding="utf-8"))
    group = project["project"]["entry-points"][rulesets.GROUP]
    return f"[{rulesets.GROUP}]\n" + "".join(f"{k} = {v}\n" for k, v in group.items())


@pytest.fixture
def coinflip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The coinflip distribution, installed for this test only."""
    site = tmp_path / "site"
    info = site / "linguo_coinflip-0.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: linguo-coinflip\n"
                                   "Version: 0.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(_entry_point_group(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(FIXTURE))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", f"{site}:{FIXTURE}")  # for the --impl subprocess
    rulesets.clear_cache()
    try:
        yield site
    finally:
        rulesets.clear_cache()
        for name in [m for m in sys.modules if m.split(".")[0] == "linguo_coinflip"]:
            del sys.modules[name]


def test_only_the_real_rulesets_are_installed_outside_the_fixture() -> None:
    rulesets.clear_cache()
    assert rulesets.names() == ["linguomancy", "novence-eternal", "ptr2e"]
    with pytest.raises(InputError) as info:
        requests.resolve({"ruleset": "coinflip", "kind": "flip", "rolls": [2]})
    assert info.value.code == 3 and info.value.diagnostics[0].field == "ruleset"


def test_discovery_finds_the_fixture(coinflip: Path) -> None:
    assert rulesets.names() == ["linguomancy", "coinflip", "novence-eternal", "ptr2e"]
    rs = rulesets.get("coin", aliases=True)
    assert rs.name == "coinflip" and rs.kinds == ("flip",)
    with pytest.raises(InputError):
        rulesets.get("coin")  # aliases are for the command line only
    assert "linguo_coinflip.flip" not in sys.modules  # discovery imports no handler
    result = requests.resolve({"ruleset": "coinflip", "kind": "flip", "rolls": [2]})
    assert result["side"] == "heads" and result["rolls_used"] == [2]


def test_flip_command(coinflip: Path) -> None:
    run = run_cli("coinflip", "flip", "--rolls", "2", "--json")
    assert run.exit_code == 0, run.stderr
    result = json.loads(run.stdout)
    assert (result["face"], result["side"], result["rolls_used"]) == (2, "heads", [2])
    assert run_cli("coinflip", "flip", "--rolls", "1").stdout == "tails\n"
    assert run_cli("coin", "flip", "--rolls", "1").stdout == "tails\n"  # hidden alias
    assert "coinflip" in run_cli("--help").stdout
    assert run_cli("coinflip", "flip", "--rolls", "3").exit_code == 3  # no face 3 on a d2


def test_result_validates_against_its_schema(coinflip: Path) -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((FIXTURE / "linguo_coinflip" / "schemas" / "results"
                         / "flip.result.schema.json").read_text(encoding="utf-8"))
    for face in (1, 2):
        result = requests.resolve({"ruleset": "coinflip", "kind": "flip", "rolls": [face]})
        assert not list(Draft202012Validator(schema).iter_errors(result))


def test_verify_runs_its_suite_in_process(coinflip: Path) -> None:
    run = run_cli("verify", "--ruleset", "coinflip")
    assert run.exit_code == 0, run.stdout
    assert "3 cases: 3 passed, 0 failed, 0 skipped" in run.stdout
    alias = run_cli("verify", "--ruleset", "coin")
    assert "3 cases: 3 passed" in alias.stdout


def test_verify_runs_its_suite_through_the_adapter(coinflip: Path) -> None:
    run = run_cli("verify", "--ruleset", "coinflip", "--impl", f"{LINGUO} adapter", "--quiet")
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "3 cases: 3 passed, 0 failed, 0 skipped" in run.stdout


def test_verify_without_ruleset_runs_every_installed_suite(coinflip: Path) -> None:
    run = run_cli("verify", "--filter", "ruleset:coinflip", "--quiet")
    assert run.exit_code == 0, run.stdout
    assert "3 cases: 3 passed" in run.stdout
    one = run_cli("verify", "--ruleset", "coinflip", "--impl", f"{LINGUO} adapter",
                  "--filter", "id:coinflip/flips/flip.yaml::heads", "--quiet")
    assert "1 cases: 1 passed" in one.stdout


def test_golden_check_and_show(coinflip: Path) -> None:
    run = run_cli("golden", "check", "--ruleset", "coinflip")
    assert run.exit_code == 0, run.stdout
    assert "3 cases" in run.stdout and "rule IDs covered: 1/1" in run.stdout
    path = run_cli("golden", "check", str(SUITE), "--json")
    assert json.loads(path.stdout)["ok"] is True
    both = run_cli("golden", "check", "--json")
    assert [s["cases"] for s in json.loads(both.stdout)][1] == 3
    shown = run_cli("golden", "show", "coinflip/flips/flip.yaml::heads", "--request")
    assert json.loads(shown.stdout) == {"ruleset": "coinflip", "kind": "flip", "rolls": [2]}
    old = run_cli("golden", "show", "flips/flip.yaml::tails", "--json")
    assert json.loads(old.stdout)["test_id"] == "coinflip/flips/flip.yaml::tails"
