"""A plain writer for one-off text output, with Rich's bytes (ruleset-neutral).

A ruleset's text view writes lines of Rich console markup (``[bold]17[/bold]``,
user text escaped with :func:`escape`). When the output is not a terminal,
Rich prints such a line as its text without the tags; importing Rich and
running its layout engine costs more than a one-off command's rules. A
:class:`PlainConsole` writes those lines itself, byte for byte as Rich's
``Console(file=..., highlight=False, soft_wrap=True)`` would, and hands a
line to that Rich console (built on first use) whenever the line holds
anything Rich could render differently: a control character,
an emoji code (``:name:``), a lone surrogate, trailing whitespace (Rich may
trim it), or a tag that is not one of :data:`STYLES`.
(tests/core/test_textout.py compares both writers line for line; the
command-line tests compare whole outputs, with and without a terminal.)

:func:`plain_console` gives a plain writer only when Rich would print no
escape codes at all (not a terminal, no ``FORCE_COLOR``/``TTY_COMPATIBLE``,
not Jupyter or IDLE) on a UTF-8 stream; else ``None`` and the caller uses Rich.
Standard library only; Rich is imported only by a fallback.
"""

from __future__ import annotations

import builtins
import codecs
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any

#: The styles a plain writer strips from markup (those linguo's text views
#: use); any other tag sends the line to Rich.
STYLES = frozenset({
    "bold", "dim", "cyan", "red", "yellow", "green", "bold red", "bold green",
    "bold yellow", "bold white on red", "bold black on green",
})

#: What Rich's markup reads as a tag, with the backslashes before it.
_TAG = re.compile(r"(\\*)\[([a-z#/@][^[]*?)]")
#: Characters that make a line Rich's business: control characters (Rich
#: strips some, expands tabs) and lone surrogates (not encodable).
_UNSAFE = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
#: An emoji code as Rich's markup finds one (two colons, no space between).
_EMOJI = re.compile(r":\S*?:")
#: What :func:`escape` puts a backslash before: a tag, after its backslashes.
_ESCAPABLE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def escape(text: str) -> str:
    """``text`` as Rich console markup that prints it as written, the same
    string as ``rich.markup.escape(text)``: every tag-like ``[...]`` gets a
    backslash (backslashes before it doubled), and a single trailing
    backslash a second one."""
    def one(match: re.Match[str]) -> str:
        backslashes, tag = match.groups()
        return f"{backslashes}{backslashes}\\{tag}"

    text = _ESCAPABLE.sub(one, text)
    if text.endswith("\\") and not text.endswith("\\\\"):
        return text + "\\"
    return text


def plain_text(markup: str) -> str | None:
    """The text Rich prints for the markup line ``markup`` on a stream that is
    not a terminal, or ``None`` when the line is not one this module can
    render byte for byte (see the module docstring). Tags are read as
    Rich's markup reads them: an even number of backslashes before a tag
    prints half of them and the tag is a tag; an odd number escapes the
    tag, which prints as written; ``\\[`` elsewhere prints ``[``."""
    if _UNSAFE.search(markup):
        return None
    pieces: list[str] = []
    opened: list[str] = []
    at = 0
    for match in _TAG.finditer(markup):
        escapes, name = match.groups()
        start = match.start()
        if start > at:
            pieces.append(markup[at:start].replace("\\[", "["))
        at = match.end()
        backslashes, escaped = divmod(len(escapes), 2)
        if backslashes:
            pieces.append("\\" * backslashes)
        if escaped:
            pieces.append(match.group(0)[len(escapes):])
        elif not _tag_ok(name, opened):
            return None
    if at < len(markup):
        pieces.append(markup[at:].replace("\\[", "["))
    if any(_EMOJI.search(piece) for piece in pieces):
        return None
    text = "".join(pieces)
    return text if text == text.rstrip() else None


def _tag_ok(name: str, opened: list[str]) -> bool:
    """Whether tag ``name`` is one Rich reads as :func:`plain_text` does: a
    style of :data:`STYLES` opened, or closed while open (``[/]`` the last
    one opened, ``[/NAME]`` the last ``NAME``), as Rich's markup matches
    them; ``opened`` is updated. A closing tag with nothing to close is an
    error in Rich's markup, left to Rich."""
    if not name.startswith("/"):
        opened.append(name)
        return name in STYLES
    closed = name[1:]
    if not closed:
        if not opened:
            return False
        opened.pop()
        return True
    if closed not in STYLES or closed not in opened:
        return False
    del opened[len(opened) - 1 - opened[::-1].index(closed)]
    return True


def _line_text(line: str) -> str | None:
    """A line printed as a Rich ``Text`` (no markup): itself, or ``None``
    when Rich could print it differently (control characters, lone
    surrogates, trailing whitespace)."""
    if _UNSAFE.search(line) or line != line.rstrip():
        return None
    return line


class PlainConsole:
    """Writes text lines to ``file`` as Rich's ``Console(file=file,
    highlight=False, soft_wrap=True)`` does on a stream that is not a
    terminal; a line it cannot render exactly goes to the console
    ``fallback()`` returns (built once, on first need). Each line is
    flushed, as Rich flushes each print."""

    def __init__(self, file: Any, fallback: Callable[[], Any]) -> None:
        self.file = file
        self._fallback = fallback
        self._rich: Any = None

    def rich(self) -> Any:
        """The fallback (Rich) console, built on first use."""
        if self._rich is None:
            self._rich = self._fallback()
        return self._rich

    def _write(self, text: str) -> None:
        self.file.write(text + "\n")
        self.file.flush()

    def print(self, markup: str) -> None:
        """Print one line of console markup."""
        text = plain_text(markup)
        if text is None:
            self.rich().print(markup)
        else:
            self._write(text)

    def print_text(self, line: str, style: str = "") -> None:
        """Print ``line`` as written (no markup), as Rich prints
        ``Text(line, style=style)`` with ``soft_wrap=True``."""
        text = _line_text(line)
        if text is None:
            from rich.text import Text

            self.rich().print(Text(line, style=style), soft_wrap=True)
        else:
            self._write(text)


def rich_is_plain(stream: Any, environ: Mapping[str, str] | None = None) -> bool:
    """Whether Rich would print to ``stream`` without any escape code (what
    ``rich.console.Console.is_terminal`` decides: ``TTY_COMPATIBLE``, then
    ``FORCE_COLOR``, then the stream's ``isatty``), and the stream is UTF-8
    (so that writing cannot fail on an encoding Rich would annotate).
    Jupyter and IDLE count as not plain (Rich's own rules there)."""
    env = os.environ if environ is None else environ
    if hasattr(builtins, "get_ipython") or getattr(sys.stdin, "__module__", "").startswith(
            "idlelib"):
        return False
    compatible = env.get("TTY_COMPATIBLE", "")
    if compatible == "1":
        return False
    if compatible != "0":
        force = env.get("FORCE_COLOR")
        if force is not None and force != "":
            return False
        if force is None:
            try:
                if stream.isatty():
                    return False
            except (AttributeError, ValueError):
                return False
    try:
        return codecs.lookup(stream.encoding).name == "utf-8"
    except (AttributeError, LookupError, TypeError):
        return False


def plain_console(stream: Any, fallback: Callable[[], Any]) -> PlainConsole | None:
    """A :class:`PlainConsole` on ``stream`` when Rich would print plain text
    there (:func:`rich_is_plain`), else ``None``."""
    return PlainConsole(stream, fallback) if rich_is_plain(stream) else None
