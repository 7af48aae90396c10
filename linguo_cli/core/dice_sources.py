"""Dice sources: where chance comes from (see :mod:`linguo_cli.core.dice`).

Every die is asked of a :class:`DiceSource`; :class:`ScriptedDice` hands
out given faces in order, :class:`SeededDice` draws from
``random.Random(seed)``, :class:`SystemDice` from the operating system.
Every source records the faces it handed out (:attr:`DiceSource.used`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from linguo_cli.core.errors import DiceError

if TYPE_CHECKING:
    import random

#: ``rr``: at most this many rerolls of one die; the last one is drawn among the
#: faces that stop it, so the distribution stays exactly the conditional one.
MAX_REROLLS = 20


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

    def roll_among(self, sides: int, allowed: list[int]) -> int:
        """Roll one die with ``sides`` faces that must show one of ``allowed``
        (the last ``rr`` reroll at its bound :data:`MAX_REROLLS`): random
        sources draw uniformly among them, scripted faces must be one of them
        (else :class:`DiceError`)."""
        face = self._draw_among(sides, allowed)
        self.used.append(face)
        return face

    def _draw_among(self, sides: int, allowed: list[int]) -> int:
        face = self._draw(sides)
        if face not in allowed:
            raise DiceError(
                f"face {face} of a d{sides} is the last reroll allowed ({MAX_REROLLS}) and "
                f"must stop it: one of {_faces_text(tuple(allowed))}")
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
        self.faces = tuple(map(int, faces))
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
        import random  # here: a one-off command with scripted dice never needs it

        self._rng = random.Random(seed)

    def _draw(self, sides: int) -> int:
        return self._rng.randint(1, sides)

    def _draw_among(self, sides: int, allowed: list[int]) -> int:
        return self._rng.choice(allowed)


#: One generator for every :class:`SystemDice` (built with the first): it
#: keeps no state (each face reads the operating system's randomness), and
#: creating one seeds a Mersenne Twister state it never uses, a cost a
#: request that rolls nothing (odds) would otherwise pay.
_SYSTEM_RANDOM: random.SystemRandom | None = None


class SystemDice(DiceSource):
    """Faces from the operating system's randomness (``random.SystemRandom``)."""

    def __init__(self) -> None:
        super().__init__()
        global _SYSTEM_RANDOM
        if _SYSTEM_RANDOM is None:
            import random

            _SYSTEM_RANDOM = random.SystemRandom()
        self._rng = _SYSTEM_RANDOM

    def _draw(self, sides: int) -> int:
        return self._rng.randint(1, sides)

    def _draw_among(self, sides: int, allowed: list[int]) -> int:
        return self._rng.choice(allowed)


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
