"""Exact numbers (Conventions: Numbers): fractions that print as NV5 strings.

Arithmetic is exact; a field that can hold a fraction is written as a string
in lowest terms, whole values included (``"4/5"``, ``"-11/2"``, ``"8"``).
:class:`Exact` is a :class:`~fractions.Fraction` whose JSON form
(``__json__``, read by :func:`linguo_cli.core.results.to_plain`) is that
string.
"""

from __future__ import annotations

from fractions import Fraction


class Exact(Fraction):
    """A fraction whose JSON form is ``"p/q"`` (or ``"p"`` when whole)."""

    def __json__(self) -> str:
        """The NV5 exact string, in lowest terms."""
        return exact_text(self)

    def __repr__(self) -> str:
        return f"Exact({exact_text(self)!r})"


def exact(value: Fraction | int) -> Exact:
    """``value`` as an :class:`Exact` (no rounding)."""
    return Exact(value)


def exact_text(value: Fraction | int) -> str:
    """``"p/q"`` in lowest terms, or ``"p"`` for a whole value."""
    f = Fraction(value)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def parse_exact(text: str | int) -> Fraction:
    """An NV ``exact`` value (an int, or ``"p/q"``/``"-p/q"``) as a fraction.

    Raises ``ValueError`` for anything else (``0.5`` must be written ``"1/2"``)."""
    if isinstance(text, bool):
        raise ValueError("a boolean is not an exact number")
    if isinstance(text, int):
        return Fraction(text)
    num, sep, den = text.partition("/")
    body = num[1:] if num.startswith("-") else num
    if not (body.isascii() and body.isdigit()) or (sep and not (den.isascii() and den.isdigit())):
        raise ValueError(f"{text!r} is not an exact number (write p/q)")
    if sep and int(den) == 0:
        raise ValueError(f"{text!r} has a zero denominator")
    return Fraction(int(num), int(den) if sep else 1)
