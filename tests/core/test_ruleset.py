"""Rulesets: discovery through the entry-point group, names and aliases, and
dispatch of requests by their ``ruleset`` (core/ruleset.py, core/requests.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from linguo_cli.core import requests
from linguo_cli.core import ruleset as rulesets
from linguo_cli.core.errors import InputError

from ..conftest import run_cli


def test_linguomancy_is_the_installed_default() -> None:
    rulesets.clear_cache()
    assert rulesets.names()[0] == rulesets.DEFAULT == "linguomancy"
    rs = rulesets.get("linguomancy")
    assert rs is rulesets.default() is rulesets.installed()["linguomancy"]
    assert rs.kinds == ("check", "attack", "save", "damage", "heal", "temp_hp", "death_save",
                        "rest", "cast", "overclock", "turn", "odds", "ticks", "dice")
    assert rs.suite.joinpath("EXAMPLES.yaml").is_file()
    assert rs.schemas.joinpath("request.schema.json").is_file()


def test_a_request_may_name_linguomancy() -> None:
    plain = requests.resolve({"kind": "check", "dc": 10, "rolls": [12]})
    named = requests.resolve({"ruleset": "linguomancy", "kind": "check", "dc": 10,
                              "rolls": [12]})
    assert plain == named


@pytest.mark.parametrize("name", ["novence", "Linguomancy", "nope"])
def test_an_unknown_ruleset_is_invalid_input_naming_the_field(name: str) -> None:
    with pytest.raises(InputError) as info:
        requests.resolve({"ruleset": name, "kind": "check", "dc": 10, "rolls": [12]})
    assert info.value.code == 3
    assert info.value.diagnostics[0].field == "ruleset"
    assert name in info.value.message


def test_a_ruleset_that_is_not_a_string_is_invalid_input() -> None:
    with pytest.raises(InputError) as info:
        requests.ruleset_of({"ruleset": 3, "kind": "check"})
    assert info.value.diagnostics[0].field == "ruleset"


def test_an_unknown_kind_is_invalid_input() -> None:
    with pytest.raises(InputError) as info:
        requests.resolve({"kind": "juggle", "rolls": []})
    assert info.value.code == 3 and info.value.diagnostics[0].field == "kind"


def test_cli_requests_with_ruleset() -> None:
    ok = run_cli("resolve", "-", "--json",
                 input='{"ruleset": "linguomancy", "kind": "check", "dc": 10, "rolls": [12]}')
    assert ok.exit_code == 0, ok.stderr
    bad = run_cli("resolve", "-", input='{"ruleset": "novence", "kind": "check", "dc": 10}')
    assert bad.exit_code == 3 and "ruleset" in bad.stderr
    other = run_cli("resolve", "-", input='{"ruleset": "coinflip", "kind": "flip"}')
    assert other.exit_code == 3  # not installed outside its own test


def test_unknown_ruleset_option_is_a_usage_error() -> None:
    run = run_cli("verify", "--ruleset", "nope")
    assert run.exit_code == 2 and "not an installed ruleset" in run.stderr


def test_a_one_off_command_does_not_scan_the_installed_distributions() -> None:
    code = ("import sys\nfrom linguo_cli.cli.app import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(str('importlib.metadata' in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code, "check", "--dc", "10", "--rolls", "12"],
                         capture_output=True, text=True, check=False)
    assert "SUCCEEDS" in run.stdout and run.stderr.endswith("False"), run.stdout + run.stderr


def test_hello_declares_rulesets_as_a_list_or_per_ruleset() -> None:
    from linguo_cli.conformance import select

    listed = select.capability_from_hello({"ready": True, "rulesets": ["linguomancy", "x"]})
    assert listed.rulesets == ("linguomancy",) and listed.kinds is None
    per = select.capability_from_hello({"rulesets": {"linguomancy": {"kinds": ["check"]}}})
    assert per.kinds == frozenset({"linguomancy/check"})
    assert select.capability_from_hello({"ready": True}).rulesets == ("linguomancy",)
    assert select.capability_from_hello({"rulesets": ["x"]}).rulesets == ()


@pytest.mark.parametrize("package", [
    "linguo_cli.rulesets.linguomancy", "linguo_cli.rulesets.novence_eternal",
    "linguo_cli.rulesets.ptr2e", "linguo_cli",
    "tests.fixtures",  # a namespace package: left to importlib.resources
])
def test_package_files_is_what_importlib_resources_gives(package: str) -> None:
    from importlib import resources

    from linguo_cli.core.ruleset import package_files

    found, expected = package_files(package), resources.files(package)
    assert type(found) is type(expected)
    assert str(found) == str(expected)
    assert sorted(p.name for p in found.iterdir()) == sorted(p.name for p in expected.iterdir())
