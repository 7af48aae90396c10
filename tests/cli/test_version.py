"""``linguo --version`` and shell completion (issue 21).

The expected versions are read from the sources (pyproject.toml, each
suite's EXAMPLES.yaml, the fixture's dist-info), not from linguo's output."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from ..conftest import ROOT, run_cli
from ..core.test_ruleset_fixture import FIXTURE, LINGUO, coinflip  # noqa: F401 (a fixture)


def _project_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
               ["project"]["version"])


def _suite_version(examples: Path) -> int:
    match = re.search(r"^version: (\d+)$", examples.read_text(encoding="utf-8"), re.M)
    assert match, examples
    return int(match.group(1))


LINGUOMANCY_SUITE = _suite_version(ROOT / "golden" / "linguomancy" / "EXAMPLES.yaml")


def test_version_names_linguo_its_suite_and_the_rulesets() -> None:
    run = run_cli("--version")
    assert run.exit_code == 0, run.stderr
    version = _project_version()
    novence = _suite_version(ROOT / "golden" / "novence-eternal" / "EXAMPLES.yaml")
    ptr = _suite_version(ROOT / "golden" / "ptr2e" / "EXAMPLES.yaml")
    assert run.stdout.splitlines() == [
        f"linguo {version} (golden suite version {LINGUOMANCY_SUITE})",
        f"rulesets: linguomancy {version} (golden suite version {LINGUOMANCY_SUITE}), "
        f"novence-eternal {version} (golden suite version {novence}), "
        f"ptr2e {version} (golden suite version {ptr})"]
    assert run.stderr == ""


def test_version_comes_first_whatever_follows() -> None:
    run = run_cli("--version", "check", "--bogus")
    assert run.exit_code == 0 and run.stdout.startswith("linguo ")


def test_version_lists_an_installed_ruleset(coinflip: Path) -> None:  # noqa: F811
    run = run_cli("--version")
    assert run.exit_code == 0, run.stderr
    flip_suite = _suite_version(FIXTURE / "golden" / "coinflip" / "EXAMPLES.yaml")
    assert run.stdout.splitlines()[1].startswith(
        f"rulesets: linguomancy {_project_version()} (golden suite version "
        f"{LINGUOMANCY_SUITE}), coinflip 0.0 (golden suite version {flip_suite}), "
        "novence-eternal ")


def test_completion_options_are_offered() -> None:
    help_text = run_cli("--help").stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text
    assert "--version" in help_text


def _linguo(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [str(LINGUO)] if LINGUO.exists() else [sys.executable, "-m", "linguo_cli"]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})}, check=False)


def test_show_completion_prints_a_bash_script() -> None:
    run = _linguo("--show-completion", "bash")
    assert run.returncode == 0, run.stderr
    assert "complete " in run.stdout and "_LINGUO_COMPLETE=complete_bash" in run.stdout


def test_completion_completes_commands_and_options() -> None:
    """What bash asks through the script: the words for ``linguo ch`` and
    ``linguo odds a``, and the options of ``linguo check --d``."""
    def words(line: str) -> list[str]:
        parts = line.split()
        run = _linguo(env={"_LINGUO_COMPLETE": "complete_bash", "COMP_WORDS": line,
                           "COMP_CWORD": str(len(parts) - 1)})
        assert run.returncode == 0, run.stderr
        return run.stdout.split()

    assert words("linguo ch") == ["check"]
    assert words("linguo odds a") == ["attack"]
    assert {"--dc", "--dis"} <= set(words("linguo check --d"))


def test_install_completion_writes_the_script_under_home(tmp_path: Path) -> None:
    """``--install-completion bash`` with HOME pointing at a scratch folder:
    the script is written there and sourced from its .bashrc."""
    run = _linguo("--install-completion", "bash", env={"HOME": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    script = tmp_path / ".bash_completions" / "linguo.sh"
    assert "_LINGUO_COMPLETE=complete_bash" in script.read_text(encoding="utf-8")
    assert str(script) in (tmp_path / ".bashrc").read_text(encoding="utf-8")


def test_bash_completes_a_lazily_mounted_ruleset(coinflip: Path) -> None:  # noqa: F811
    """Completion sees the installed rulesets' groups, which are mounted on
    first use."""
    run = _linguo(env={"_LINGUO_COMPLETE": "complete_bash", "COMP_WORDS": "linguo coi",
                       "COMP_CWORD": "1"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["coinflip"]
