"""Dice: where chance comes from, and the dice notation of damage and healing.

Chance is an input. Every die is asked of a :class:`DiceSource`:

* :class:`ScriptedDice` hands out given faces in order (``--rolls 17,4``,
  ``rolls: [17, 4]``); too few faces, faces left unused, or a face that does
  not fit the die asked for is a :class:`~linguo_cli.errors.DiceError`;
* :class:`SeededDice` draws from ``random.Random(seed)`` (replayable with the
  same seed on the same Python, but seeds are never portable: faces are);
* :class:`SystemDice` draws from the operating system's randomness.

Every source records the faces it handed out (:attr:`DiceSource.used`), so a
result can list them and feeding them back as scripted faces replays it.

Dice notation (own small grammar)::

    expr  := term (("+" | "-") term)*
    term  := INT | [INT] "d" INT [("kh" | "kl") INT]

e.g. ``2d6+1``, ``4d6kh3``, ``d20 - 2``, ``3d8 + 1d4 + 2``. Limits: at most
:data:`MAX_COUNT` dice in a term, :data:`MAX_SIDES` sides, :data:`MAX_TERMS`
terms, :data:`MAX_EXPRESSION_LENGTH` characters, constants up to
:data:`MAX_CONSTANT`, keep terms up to :data:`MAX_KEEP_WORK`. Expected values
are exact :class:`~fractions.Fraction` values, never floats.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from math import comb

from linguo_cli.errors import Diagnostic, DiceError, InputError

MAX_COUNT = 1000
MAX_SIDES = 1000
MAX_TERMS = 50
MAX_CONSTANT = 1_000_000
MAX_EXPRESSION_LENGTH = 200
#: Largest ``sides x min(kept, dropped)`` of a keep term (khN/klN): its exact
#: expected value takes that many big-integer steps.
MAX_KEEP_WORK = 20_000


# ---------------------------------------------------------------------------
# Dice sources


class DiceSource:
    """Base class of every source of dice faces.

    Subclasses implement :meth:`_draw`; callers use :meth:`roll`, which checks
    and records every face handed out in :attr:`used` (in consumption order).
    """

    def __init__(self) -> None:
        self.used: list[int] = []

    def roll(self, sides: int) -> int:
        """Roll one die with ``sides`` faces; returns a face in ``1..sides``.

        Raises :class:`DiceError` when a scripted face runs out or does not fit.
        """
        face = self._draw(sides)
        self.used.append(face)
        return face

    def _draw(self, sides: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def finish(self) -> None:
        """Declare that resolution is over; scripted faces left unused raise."""

    @property
    def scripted(self) -> bool:
        """True when the faces were given in advance (replayable anywhere)."""
        return False


class ScriptedDice(DiceSource):
    """Faces given in advance, handed out in order (the golden-suite source)."""

    def __init__(self, faces: list[int] | tuple[int, ...]) -> None:
        super().__init__()
        self.faces = tuple(int(f) for f in faces)
        self._next = 0

    def _draw(self, sides: int) -> int:
        if self._next >= len(self.faces):
            raise DiceError(
                f"too few scripted dice faces: a d{sides} was needed after the "
                f"{len(self.faces)} given ({_faces_text(self.faces)})"
            )
        face = self.faces[self._next]
        if not 1 <= face <= sides:
            raise DiceError(
                f"scripted face {face} (position {self._next + 1}) does not fit the d{sides} "
                f"it was used for"
            )
        self._next += 1
        return face

    def finish(self) -> None:
        left = self.faces[self._next :]
        if left:
            raise DiceError(
                f"{len(left)} scripted dice face(s) left unused: {_faces_text(left)} "
                f"(only {self._next} of {len(self.faces)} were needed)"
            )

    @property
    def scripted(self) -> bool:
        return True


class SeededDice(DiceSource):
    """Faces from ``random.Random(seed)``: replayable with the same seed."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)

    def _draw(self, sides: int) -> int:
        return self._rng.randint(1, sides)


class SystemDice(DiceSource):
    """Faces from the operating system's randomness (``random.SystemRandom``)."""

    def __init__(self) -> None:
        super().__init__()
        self._rng = random.SystemRandom()

    def _draw(self, sides: int) -> int:
        return self._rng.randint(1, sides)


def make_source(rolls: list[int] | None = None, seed: int | None = None) -> DiceSource:
    """The source a request asks for: scripted faces, else a seed, else system."""
    if rolls is not None:
        return ScriptedDice(rolls)
    if seed is not None:
        return SeededDice(seed)
    return SystemDice()


def _faces_text(faces: tuple[int, ...]) -> str:
    shown = ", ".join(str(f) for f in faces[:12])
    return shown + (", ..." if len(faces) > 12 else "")


def face_record(sides: int, face: int, kept: bool = True) -> dict[str, object]:
    """The JSON record of one rolled face: ``{"die": 20, "face": 17, "kept": true}``."""
    return {"die": sides, "face": face, "kept": kept}


# ---------------------------------------------------------------------------
# Dice notation


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` faces, added (``sign`` +1) or subtracted (-1).

    ``keep`` is ``None`` (keep all) or ``("h"|"l", n)``: keep the n highest or
    lowest faces.
    """

    sign: int
    count: int
    sides: int
    keep: tuple[str, int] | None = None

    def text(self) -> str:
        k = f"k{self.keep[0]}{self.keep[1]}" if self.keep else ""
        return f"{self.count}d{self.sides}{k}"


@dataclass(frozen=True, slots=True)
class DiceExpression:
    """A parsed dice expression: dice terms plus one integer constant."""

    terms: tuple[DiceTerm, ...]
    constant: int = 0

    def text(self) -> str:
        """Canonical notation, e.g. ``2d6+1`` or ``4d6kh3-2``."""
        parts: list[str] = []
        for t in self.terms:
            sign = "-" if t.sign < 0 else ("+" if parts else "")
            parts.append(sign + t.text())
        if self.constant or not parts:
            sign = "-" if self.constant < 0 else ("+" if parts else "")
            parts.append(f"{sign}{abs(self.constant)}")
        return "".join(parts)

    def doubled(self) -> DiceExpression:
        """The critical-hit expression (rule T5 rev. 2): every dice term is
        rolled a second time as its own group with the same sign, right after
        it; the constant is unchanged. ``4d6kh3`` -> ``4d6kh3+4d6kh3`` (not
        ``8d6kh6``), ``3d6-1d4+1`` -> ``3d6+3d6-1d4-1d4+1``. So the expected
        value of the dice exactly doubles, and the dice are rolled in the
        order of the doubled expression as written."""
        return replace(self, terms=tuple(t for t in self.terms for _ in range(2)))

    def expected_value(self) -> Fraction:
        """The exact expected value of the expression (rule T3 uses it)."""
        total = Fraction(self.constant)
        for t in self.terms:
            total += t.sign * _term_expected(t)
        return total

    def minimum(self) -> int:
        """The smallest total the expression can give."""
        return self.constant + sum(
            (_kept(t) if t.sign > 0 else -_kept(t) * t.sides) for t in self.terms
        )

    def maximum(self) -> int:
        """The largest total the expression can give."""
        return self.constant + sum(
            (_kept(t) * t.sides if t.sign > 0 else -_kept(t)) for t in self.terms
        )

    def dice_count(self) -> int:
        """How many dice one evaluation rolls."""
        return sum(t.count for t in self.terms)


def _kept(t: DiceTerm) -> int:
    return t.keep[1] if t.keep else t.count


def _term_expected(t: DiceTerm) -> Fraction:
    if t.keep is None or t.keep[1] >= t.count:
        return Fraction(t.count * (t.sides + 1), 2)
    n, k, s = t.count, t.keep[1], t.sides
    if t.keep[0] == "l":
        # k lowest of faces f equals s+1 - (k highest of faces s+1-f)
        return k * (s + 1) - _keep_highest_expected(n, k, s)
    return _keep_highest_expected(n, k, s)


def keep_work(t: DiceTerm) -> int:
    """Cost of the exact expected value of a keep term: ``sides x min(k, n - k)``
    big-integer steps (0 without keep); see :data:`MAX_KEEP_WORK`."""
    if t.keep is None or t.keep[1] >= t.count:
        return 0
    return t.sides * min(t.keep[1], t.count - t.keep[1])


def _keep_highest_expected(n: int, k: int, s: int) -> Fraction:
    """Exact E[sum of the k highest of n dice with s faces], 0 < k < n.

    Each kept die shows at least 1; for each threshold x = 2..s the number of
    kept dice showing >= x is min(k, C) with C ~ Binomial(n, a/s), a = s-x+1.
    In integers (scaled by s^n, b = x-1):
    s^n E[min(k, C)] = k s^n - sum_{j<k} (k-j) C(n,j) a^j b^(n-j)
                     = n a s^(n-1) - sum_{j>k} (j-k) C(n,j) a^j b^(n-j);
    the shorter sum is used.
    """
    sn = s**n
    low = k <= n - k
    first, last = (0, k - 1) if low else (k + 1, n)
    combs = [comb(n, j) for j in range(first, last + 1)]
    total = 0
    for x in range(2, s + 1):
        a, b = s - x + 1, x - 1
        term = a**first * b ** (n - first)  # a^j b^(n-j), updated as j grows
        acc = 0
        for i, j in enumerate(range(first, last + 1)):
            acc += abs(k - j) * combs[i] * term
            term = term * a // b
        total += (k * sn - acc) if low else (n * a * s ** (n - 1) - acc)
    return Fraction(total, sn) + k


_TOKEN = re.compile(
    r"\s*(?:(?P<dice>(?P<count>\d*)[dD](?P<sides>\d+)(?:(?P<keep>k[hl])(?P<keepn>\d+))?)"
    r"|(?P<int>\d+)|(?P<op>[+-]))"
)


def parse(text: str, *, field: str = "dice") -> DiceExpression:
    """Parse dice notation; raises :class:`InputError` naming the column.

    ``field`` names where the text came from (a field path or option name)
    so the error can point at it: ``dice: column 4: expected a number of sides``.
    Parsed expressions are frozen and remembered, so a batch that names the
    same dice again does not parse them again.
    """
    if not isinstance(text, str):
        raise _notation_error(field, 1, "dice notation must be a string")
    return _parse(text, field)


@lru_cache(maxsize=1024)
def _parse(text: str, field: str) -> DiceExpression:
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise _notation_error(
            field, MAX_EXPRESSION_LENGTH + 1,
            f"dice notation longer than {MAX_EXPRESSION_LENGTH} characters",
        )
    terms: list[DiceTerm] = []
    constant = 0
    pos = 0
    sign = 1
    expect_term = True
    seen_any = False
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        m = _TOKEN.match(text, pos)
        leading_sign = m is not None and m.group("op") is not None and not seen_any and sign == 1
        if leading_sign and m is not None and m.group("op") == "-":
            sign = -1  # a leading minus, as in -1d4+5
            pos = m.end()
            continue
        if m is None or (m.group("op") is None) != expect_term:
            what = "a term such as 2d6 or 3" if expect_term else "'+' or '-'"
            raise _notation_error(field, pos + 1, f"expected {what}, found {text[pos]!r}")
        col = m.start() + (len(m.group(0)) - len(m.group(0).lstrip())) + 1
        if m.group("op"):
            sign = 1 if m.group("op") == "+" else -1
            expect_term = True
        elif m.group("dice"):
            count = int(m.group("count")) if m.group("count") else 1
            sides = int(m.group("sides"))
            if not 1 <= count <= MAX_COUNT:
                raise _notation_error(field, col, f"dice count must be 1..{MAX_COUNT}, got {count}")
            if not 1 <= sides <= MAX_SIDES:
                raise _notation_error(field, col, f"dice sides must be 1..{MAX_SIDES}, got {sides}")
            keep = None
            if m.group("keep"):
                kn = int(m.group("keepn"))
                if not 1 <= kn <= count:
                    raise _notation_error(
                        field, col, f"keep count must be 1..{count} for {count} dice, got {kn}"
                    )
                keep = (m.group("keep")[1], kn)
            term = DiceTerm(sign, count, sides, keep)
            if keep_work(term) > MAX_KEEP_WORK:
                raise _notation_error(
                    field, col,
                    f"{term.text()} is too large to keep dice from exactly: sides x "
                    f"min(kept, dropped) must be at most {MAX_KEEP_WORK}, got {keep_work(term)}")
            terms.append(term)
            if len(terms) > MAX_TERMS:
                raise _notation_error(field, col, f"more than {MAX_TERMS} dice terms")
            expect_term = False
            seen_any = True
        else:
            value = int(m.group("int"))
            if value > MAX_CONSTANT:
                raise _notation_error(field, col, f"constant above {MAX_CONSTANT}")
            constant += sign * value
            expect_term = False
            seen_any = True
        pos = m.end()
    if not seen_any or expect_term:
        raise _notation_error(field, len(text) + 1, "expected a term such as 2d6 or 3 at the end")
    return DiceExpression(tuple(terms), constant)


def _notation_error(field: str, column: int, message: str) -> InputError:
    return InputError(Diagnostic("dice notation", field, f"column {column}: {message}"))


@dataclass(frozen=True, slots=True)
class TermRoll:
    """The faces rolled for one dice term, each with whether it was kept."""

    term: DiceTerm
    faces: tuple[tuple[int, bool], ...]

    @property
    def subtotal(self) -> int:
        """Signed sum of the kept faces."""
        return self.term.sign * sum(f for f, kept in self.faces if kept)


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """One evaluation of a :class:`DiceExpression`: every face, kept or dropped."""

    expression: DiceExpression
    rolls: tuple[TermRoll, ...] = field(default=())

    @property
    def total(self) -> int:
        """Sum of kept faces (signed) plus the constant; may be negative."""
        return self.expression.constant + sum(r.subtotal for r in self.rolls)

    def face_records(self) -> list[dict[str, object]]:
        """JSON records of every face in consumption order."""
        return [
            face_record(r.term.sides, f, kept) for r in self.rolls for f, kept in r.faces
        ]


def roll(expression: DiceExpression, dice: DiceSource) -> DiceRoll:
    """Roll ``expression`` with ``dice``: terms left to right, each term's dice
    in order; with ``khN``/``klN`` the highest/lowest N are kept (ties: the
    earlier face is kept first)."""
    rolls: list[TermRoll] = []
    for t in expression.terms:
        faces = [dice.roll(t.sides) for _ in range(t.count)]
        kept = [True] * len(faces)
        if t.keep is not None and t.keep[1] < t.count:
            order = sorted(
                range(len(faces)),
                key=lambda i: (-faces[i], i) if t.keep and t.keep[0] == "h" else (faces[i], i),
            )
            keep_idx = set(order[: t.keep[1]])
            kept = [i in keep_idx for i in range(len(faces))]
        rolls.append(TermRoll(t, tuple(zip(faces, kept, strict=True))))
    return DiceRoll(expression, tuple(rolls))
