"""Help that pastes (issue 21): every example of every ``--help`` is one whole
command line at any terminal width, and runs (on a copy of the repository's
example files) with the exit code its comment announces (``# exits N``,
default 0); ``linguo --help`` lists one-line summaries without "..."; flags
show no default.

The command tree is walked as Click sees it (``list_commands`` /
``get_command``), so the lazily mounted rulesets' groups are included."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command

from linguo_cli.cli.app import app

from ..conftest import ROOT, Run, run_cli
from ..core.test_ruleset_fixture import coinflip  # noqa: F401 (a fixture)

#: A help paragraph's title line: ``Example:``, ``Examples:`` or
#: ``Examples (a note):``, optionally followed by one example on the same line.
TITLE = re.compile(r"^(\s*)Examples?\b[^:]*:\s*(.*)$")
EXIT_COMMENT = re.compile(r"#\s*exits\s+(\d+)")


def help_examples(text: str) -> list[str]:
    """The example lines of a help text (rendered or as written in the
    source): the lines under an ``Example(s):`` title that are indented
    deeper than it, up to the first blank or shallower line, and a single
    example written on the title line itself."""
    found: list[str] = []
    lines = text.replace("\b", "").splitlines()
    for i, line in enumerate(lines):
        title = TITLE.match(line)
        if title is None:
            continue
        if title.group(2):
            found.append(title.group(2).strip())
        depth = len(title.group(1))
        for item in lines[i + 1:]:
            if not item.strip() or len(item) - len(item.lstrip()) <= depth:
                break
            found.append(item.strip())
    return found


def expected_exit(example: str) -> int:
    """The exit code an example's comment announces (``# exits 4``), else 0."""
    _, hash_, comment = example.partition("#")
    match = EXIT_COMMENT.search(hash_ + comment)
    return int(match.group(1)) if match else 0


def stages(example: str) -> list[list[str]]:
    """An example as the shell reads it: its pipeline stages, each a list of
    words (quotes removed, the ``#`` comment dropped)."""
    lexer = shlex.shlex(example, posix=True, punctuation_chars="|")
    lexer.whitespace_split = True
    out: list[list[str]] = [[]]
    for token in lexer:
        if token == "|":
            out.append([])
        else:
            out[-1].append(token)
    return out


def run_example(example: str) -> Run:
    """Run a pipeline of ``echo`` and ``linguo`` stages in-process, each
    ``linguo`` stage reading the previous stage's stdout; the last stage's
    run is returned (its exit code is the pipeline's, as in a shell)."""
    previous: str | None = None
    run = Run(0, "", "")
    for words in stages(example):
        if words[0] == "echo":
            run = Run(0, " ".join(words[1:]) + "\n", "")
        else:
            assert words[0] == "linguo", f"an example runs linguo or echo only: {example}"
            run = run_cli(*words[1:], input=previous)
        previous = run.stdout
    return run


def command_tree() -> Iterator[tuple[tuple[str, ...], Any]]:
    """``(path, command)`` for the root and every visible command and group
    below it (hidden aliases left out), the lazily mounted rulesets included."""
    root = get_command(app)
    todo: list[tuple[tuple[str, ...], Any]] = [((), root)]
    while todo:
        path, command = todo.pop(0)
        yield path, command
        if hasattr(command, "list_commands"):
            ctx = command.context_class(command, info_name=path[-1] if path else "linguo")
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None and not sub.hidden:
                    todo.append(((*path, name), sub))


def rendered_help(path: tuple[str, ...], width: int | None = None) -> str:
    """``linguo PATH --help`` as printed, ``width`` columns wide (Click's
    formatter takes ``COLUMNS``, at least 50 and at most 80)."""
    import os

    old = os.environ.get("COLUMNS")
    if width is not None:
        os.environ["COLUMNS"] = str(width)
    try:
        run = run_cli(*path, "--help")
    finally:
        if width is not None:
            if old is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = old
    assert run.exit_code == 0, (path, run.stderr)
    return run.stdout


TREE = list(command_tree())
EXAMPLES = [(path, example) for path, command in TREE
            for example in help_examples(rendered_help(path))]


def test_the_tree_is_walked_whole() -> None:
    paths = {p for p, _ in TREE}
    assert {(), ("check",), ("turn",), ("odds", "attack"), ("golden", "show"),
            ("verify",), ("death-save",)} <= paths
    assert len(EXAMPLES) >= 40


@pytest.mark.parametrize("path", [p for p, c in TREE if not hasattr(c, "list_commands")],
                         ids=" ".join)
def test_every_command_has_an_example(path: tuple[str, ...]) -> None:
    assert any(p == path for p, _ in EXAMPLES), f"linguo {' '.join(path)} --help has no example"


@pytest.mark.parametrize("path", [p for p, _ in TREE], ids=lambda p: " ".join(p) or "linguo")
def test_examples_are_never_reflowed(path: tuple[str, ...]) -> None:
    """The examples read the same at 50 and at 80 columns and equal the
    source's lines: none is joined to another, split, or cut."""
    command = dict(TREE)[path]
    source = help_examples(f"{command.help or ''}\n\n{command.epilog or ''}")
    assert help_examples(rendered_help(path, 50)) == source
    assert help_examples(rendered_help(path, 80)) == source
    for example in source:
        words = [w for stage in stages(example) for w in stage]
        assert words.count("linguo") == len(stages(example)) - (words[0] == "echo"), example
        assert not re.search(r"[;|]\s*linguo\b", example.split("#")[0]) or "| linguo" in example


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder holding a copy of examples/ and golden/, as the current
    directory; linguo (for ``--impl 'linguo adapter'``) on the PATH."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "golden", tmp_path / "golden")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{__import__('os').environ['PATH']}")
    yield tmp_path


def test_every_example_runs_as_its_comment_says(scratch: Path) -> None:
    """Each example exits as announced (0 unless ``# exits N``), with no
    diagnostic when it succeeds; the copies of the example files are never
    changed (an example writes elsewhere with ``-o``, never ``--in-place``)."""
    before = {p: p.read_bytes() for p in (scratch / "examples").rglob("*") if p.is_file()}
    failures = []
    for path, example in EXAMPLES:
        run = run_example(example)
        code = expected_exit(example)
        if run.exit_code != code or (code == 0 and "linguo: error" in run.stderr):
            failures.append(f"linguo {' '.join(path)} --help: {example!r}: exit {run.exit_code}, "
                            f"expected {code}: {run.stderr.strip()[:300]}")
    assert not failures, "\n".join(failures)
    after = {p: p.read_bytes() for p in (scratch / "examples").rglob("*") if p.is_file()}
    assert after == before


def test_a_refusal_example_is_run_and_refused(scratch: Path) -> None:
    """The announced exit codes are not decoration: the refusal examples
    exist and exit non-zero."""
    refusals = [e for _, e in EXAMPLES if expected_exit(e)]
    assert len(refusals) >= 3
    assert all(run_example(e).exit_code == expected_exit(e) != 0 for e in refusals[:3])


def test_death_save_example_names_a_dying_entity(scratch: Path) -> None:
    ok = [e for p, e in EXAMPLES if p == ("death-save",) and not expected_exit(e)]
    assert ok
    for example in ok:
        words = stages(example)[0]
        entity = words[words.index("--entity") + 1]
        state = (scratch / words[2]).read_text(encoding="utf-8")
        block = state.split(f"- id: {entity}")[1].split("- id:")[0]
        assert "name: Dying" in block, (entity, block)


def test_parsing_of_examples() -> None:
    text = ("  Examples:\n    linguo a --x 'b c'   # exits 4: why\n    echo '{}' | linguo b\n"
            "\n  Example: linguo c\n  Notation:\n    2d6\n")
    assert help_examples(text) == ["linguo a --x 'b c'   # exits 4: why", "echo '{}' | linguo b",
                                   "linguo c"]
    assert [expected_exit(e) for e in help_examples(text)] == [4, 0, 0]
    assert stages("echo '{\"a\": 1}' | linguo adapter  # note") == [
        ["echo", '{"a": 1}'], ["linguo", "adapter"]]
    assert stages("linguo roll '2d6rr<3' -- -1d4") == [["linguo", "roll", "2d6rr<3", "--", "-1d4"]]


# ---------------------------------------------------------------------------
# Summaries and flags


@pytest.mark.parametrize("path", [p for p, c in TREE if hasattr(c, "list_commands")],
                         ids=lambda p: " ".join(p) or "linguo")
def test_group_summaries_fit_on_one_line(path: tuple[str, ...]) -> None:
    """``linguo [GROUP] --help`` at 80 columns: each command on one line,
    within 80 columns, its summary whole (no "...")."""
    text = rendered_help(path, 80)
    listed = text.split("\nCommands:\n", 1)[1].splitlines()
    names = [line.split()[0] for line in listed if line.strip()]
    command = dict(TREE)[path]
    visible = [n for n in command.list_commands(command.context_class(command))
               if not command.get_command(command.context_class(command), n).hidden]
    assert names == visible  # no continuation line: every summary fits on its line
    for line in listed:
        assert len(line) <= 80 and "..." not in line, line


@pytest.mark.parametrize("path", [p for p, _ in TREE], ids=lambda p: " ".join(p) or "linguo")
def test_flags_show_no_default(path: tuple[str, ...]) -> None:
    """A flag (``--json``, ``--crit``) or a counted flag (``--adv``) shows no
    ``[default: ...]``: there is nothing to choose."""
    command = dict(TREE)[path]
    ctx = command.context_class(command, info_name="linguo")
    for param in command.params:
        if getattr(param, "is_flag", False) or getattr(param, "count", False):
            record = param.get_help_record(ctx)
            assert record is None or "[default:" not in record[1], (path, record)


def test_an_installed_rulesets_commands_are_walked_and_run(coinflip: Path) -> None:  # noqa: F811
    """The lazily mounted group of an installed ruleset is part of the tree,
    and its example (written on its title line) runs."""
    tree = dict(command_tree())
    assert ("coinflip", "flip") in tree and ("coin",) not in tree  # the alias is hidden
    found = help_examples(rendered_help(("coinflip", "flip")))
    assert found == ["linguo coinflip flip --rolls 2"]
    assert run_example(found[0]).exit_code == 0
