"""The plain writer (linguo_cli/core/textout.py) prints Rich's bytes.

Each check compares it with Rich itself: the escape function with
``rich.markup.escape``, a markup line with what Rich's console prints for it
on a stream that is not a terminal, the terminal decision with Rich's
``is_terminal``, and every golden Linguomancy result's text view (plain and
with ``--explain``) with the same view printed by Rich.
"""

from __future__ import annotations

import io
import json
import os
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.errors import MarkupError
from rich.markup import escape as rich_escape
from rich.text import Text

from linguo_cli.core import textout
from linguo_cli.core.textout import PlainConsole, escape, plain_text, rich_is_plain

#: Text heavy in what markup treats specially.
TEXT = st.lists(st.sampled_from(list("ab z:[]\\/#@=-_é\t\u200b😀") + ["bold", "[/", "\\["])
                | st.text(max_size=3), max_size=12).map("".join)
STYLE = st.sampled_from(sorted(textout.STYLES))


def rich_prints(markup: str | Text, **kw: Any) -> str:
    """What Rich's console of the text views prints for ``markup`` on a
    stream that is not a terminal."""
    buf = io.StringIO()
    Console(file=buf, highlight=False, soft_wrap=True).print(markup, **kw)
    return buf.getvalue()


def plain_prints(markup: str, text: bool = False, style: str = "") -> tuple[str, bool]:
    """What a :class:`PlainConsole` prints, and whether it fell back to Rich."""
    buf = io.StringIO()
    out = PlainConsole(buf, lambda: Console(file=buf, highlight=False, soft_wrap=True))
    if text:
        out.print_text(markup, style)
    else:
        out.print(markup)
    return buf.getvalue(), out._rich is not None


def test_styles_are_named_as_rich_names_them() -> None:
    from rich.style import Style

    assert all(Style.normalize(style) == style for style in textout.STYLES)


@given(TEXT)
def test_escape_is_richs(text: str) -> None:
    assert escape(text) == rich_escape(text)


@st.composite
def markup_lines(draw: Any) -> str:
    """A line as linguo's text views build one: styled and plain runs of
    escaped text, some with an escaped ``\\[`` before them."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        text = escape(draw(TEXT))
        how = draw(st.sampled_from(["plain", "named", "bare", "bracket"]))
        style = draw(STYLE)
        parts.append(text if how == "plain" else f"[{style}]{text}[/{style}]" if how == "named"
                     else f"[{style}]{text}[/]" if how == "bare" else f"\\[{text}]")
    return "".join(parts)


@given(markup_lines())
def test_a_markup_line_prints_as_rich_prints_it(markup: str) -> None:
    try:
        expected = rich_prints(markup)
    except MarkupError:  # a tag with nothing to close: Rich's error, not a line
        assert plain_text(markup) is None
        return
    printed, _ = plain_prints(markup)
    assert printed == expected
    text = plain_text(markup)
    if text is not None:  # a line it renders itself: exactly Rich's
        assert text + "\n" == rich_prints(markup)


@given(TEXT, STYLE)
def test_a_text_line_prints_as_rich_prints_it(line: str, style: str) -> None:
    printed, _ = plain_prints(line, text=True, style=style)
    assert printed == rich_prints(Text(line, style=style), soft_wrap=True)


@pytest.mark.parametrize("markup", [
    "[bold]17[/bold] vs DC 15", "  [cyan]\\[D1][/cyan] total 12 + 5", "[bold white on red] "
    "Critical Failure [/]  [bold]FAILS[/bold]", "a \\\\[bold]b[/bold] c", "x \\[3] [3]",
])
def test_lines_of_the_views_are_printed_without_rich(markup: str) -> None:
    printed, fell_back = plain_prints(markup)
    assert not fell_back
    assert printed == rich_prints(markup)


@pytest.mark.parametrize("markup", [
    "a :smile: b", "tab\there", "trailing  ", "[blue]not ours[/blue]", "[link=x]y[/link]",
    "bell\x07", "cr\rx", "lone \udcff", "\\[[/]", "[bold]a[/red]",
])
def test_lines_rich_may_print_otherwise_go_to_rich(markup: str) -> None:
    assert plain_text(markup) is None
    if "\udcff" not in markup and "/" not in markup:
        printed, fell_back = plain_prints(markup)
        assert fell_back
        assert printed == rich_prints(markup)


class _Stream(io.StringIO):
    def __init__(self, tty: bool, encoding: str = "utf-8") -> None:
        super().__init__()
        self._tty, self._encoding = tty, encoding

    def isatty(self) -> bool:
        return self._tty

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding


ENVS = [{}, {"FORCE_COLOR": "1"}, {"FORCE_COLOR": ""}, {"FORCE_COLOR": "0"},
        {"TTY_COMPATIBLE": "0"}, {"TTY_COMPATIBLE": "1"},
        {"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, {"TTY_COMPATIBLE": "2", "FORCE_COLOR": "1"},
        {"NO_COLOR": "1"}, {"TERM": "dumb"}]


@pytest.mark.parametrize("env", ENVS)
@pytest.mark.parametrize("tty", [False, True])
def test_plain_only_where_rich_prints_no_escape_codes(env: dict[str, str], tty: bool) -> None:
    stream = _Stream(tty)
    console = Console(file=stream, highlight=False, soft_wrap=True, _environ=env)
    if rich_is_plain(stream, env):
        assert not console.is_terminal and console.color_system is None
        console.print("[bold red]x[/bold red] [cyan]y[/cyan]")
        assert stream.getvalue() == "x y\n"
    else:
        assert console.is_terminal
    assert rich_is_plain(stream, env) == (not console.is_terminal)


def test_no_plain_writer_on_a_stream_that_is_not_utf8() -> None:
    assert not rich_is_plain(_Stream(False, "ascii"), {})
    assert rich_is_plain(_Stream(False, "UTF8"), {})


def _golden_results() -> list[Any]:
    from linguo_cli.conformance.suite import default_suite_dir, load_cases
    from linguo_cli.core import requests
    from linguo_cli.core.errors import LinguoError

    out = []
    for case in load_cases(default_suite_dir()):
        if case.expect_error is not None:
            continue
        try:
            out.append(requests.resolve_typed(json.loads(json.dumps(case.request))))
        except LinguoError:
            continue
    return out


def _view(result: Any, explain: bool, plain: bool, monkeypatch: Any) -> tuple[str, int]:
    """The text view of ``result`` and how many plain writers fell back."""
    from linguo_cli.rulesets.linguomancy import render

    made: list[Any] = []

    def tracked(stream: Any, fallback: Any) -> Any:
        made.append(PlainConsole(stream, fallback))
        return made[-1]

    with monkeypatch.context() as m:
        m.setattr(textout, "plain_console", tracked if plain else lambda s, f: None)
        buf = io.StringIO()
        render.emit(result, as_json=False, explain=explain, out=buf)
    return buf.getvalue(), sum(c._rich is not None for c in made)


def test_every_golden_result_prints_as_rich_prints_it(monkeypatch: pytest.MonkeyPatch) -> None:
    os.environ.pop("COLUMNS", None)
    results = _golden_results()
    kinds = {getattr(r, "kind", None) for r in results}
    assert len(results) > 100 and len(kinds) > 8
    fell_back_kinds = set()
    for result in results:
        for explain in (False, True):
            plain, fell_back = _view(result, explain, True, monkeypatch)
            assert plain == _view(result, explain, False, monkeypatch)[0]
            if fell_back:
                fell_back_kinds.add(str(getattr(result, "kind", "")))
    # Only dice labels written unescaped (``2d4[fire]``, which Rich reads as a
    # tag) send a line of a shipped case to Rich.
    assert fell_back_kinds <= {"dice", "damage"}
