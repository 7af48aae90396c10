"""Errors raised by linguo, each with a stable exit code.

Exit codes (documented in the README):

* 0 resolved;
* 1 a conformance run found failures (``linguo verify``, ``linguo golden check``);
* 2 usage error (bad command-line option or value);
* 3 invalid input (unreadable file, YAML/JSON syntax, schema or semantic error);
* 4 rules violation (an illegal request, e.g. a Noun check without the idiom);
* 5 an internal error (a bug in linguo; reported in one line, never a traceback).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_DIAGNOSTICS = 50
"""At most this many problems are printed for one error; the rest are counted."""


def one_line(text: str, limit: int = 1000) -> str:
    """``text`` made safe for a one-line diagnostic: every character that is
    not printable (newlines, other control characters, line separators) is
    written as its escape (``\\n``, ``\\x1b``, ``\\u2028``), and a text longer
    than ``limit`` characters keeps its start and says how long it was, so a
    key or file name can neither forge a second line nor flood the terminal."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(text) > limit:
        text = f"{text[: max(limit - 40, 10)]}... ({len(text)} characters)"
    return text


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in an input document.

    ``place`` is ``file:line:col`` (1-based) when the position is known, else
    the file name; ``field`` is the path inside the document (``entities[0].hp``)
    or ``""`` for the whole document.
    """

    place: str
    field: str
    message: str

    def __str__(self) -> str:
        field = one_line(self.field, 200) if self.field else "(document)"
        return f"{one_line(self.place, 300)}: {field}: {one_line(self.message, 500)}"


class LinguoError(Exception):
    """Base class of every error linguo reports; ``code`` is the exit code."""

    code: int = 5
    kind: str = "internal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def lines(self) -> list[str]:
        """The one-line messages to print on stderr."""
        return [self.message]


class UsageError(LinguoError):
    """A bad command-line option or value (exit 2)."""

    code = 2
    kind = "usage"


class InputError(LinguoError):
    """Invalid input (exit 3): every problem found, each with its place."""

    code = 3
    kind = "invalid_input"

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = list(diagnostics)
        super().__init__("; ".join(str(d) for d in self.diagnostics))

    def lines(self) -> list[str]:
        """One line per problem, at most :data:`MAX_DIAGNOSTICS` of them (plus
        one that counts the rest; a list that already ends with its own count
        line, as schema errors do, is left as it is)."""
        shown = self.diagnostics
        if len(shown) > MAX_DIAGNOSTICS + 1:
            rest = len(shown) - MAX_DIAGNOSTICS
            shown = [*shown[:MAX_DIAGNOSTICS],
                     Diagnostic(shown[0].place.split(":")[0], "", f"{rest} more errors not shown")]
        return [str(d) for d in shown]


class RulesError(LinguoError):
    """A request the rules forbid (exit 4), with the rule ID that forbids it.

    ``details`` holds the numbers involved (e.g. ``{"needed": 7.5, "left": 6}``),
    ``step`` the index of the offending turn step, when there is one, and
    ``place`` where it stands in words (``turn 1, step 2``; the error
    object's ``place``), when the turn player placed it (else ``None``).
    """

    code = 4
    kind = "rules_violation"
    place: str | None = None

    def __init__(
        self,
        rule: str,
        message: str,
        details: dict[str, object] | None = None,
        step: int | None = None,
    ) -> None:
        self.rule = rule
        self.details = dict(details or {})
        self.step = step
        prefix = f"step {step}: " if step is not None else ""
        super().__init__(f"{prefix}{message} [rule {rule}]")


class DiceError(LinguoError):
    """Scripted faces that do not fit the rolls asked for (exit 3).

    Too few faces, faces left unused, or a face outside ``1..sides``.
    """

    code = 3
    kind = "dice"
