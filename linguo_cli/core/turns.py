"""The turn and round player, ruleset-neutral.

A ruleset plays a script of turns (each turn a list of steps) through a
:class:`TurnPlayer`. The player supplies what every ruleset shares:

- **order**: the turns are played in the order a :data:`TurnOrder` gives
  (:func:`script_order`, the default: as written; a ruleset with initiative
  or an activation stream supplies its own);
- **rounds**: before each turn the ruleset's :class:`Rounds` counter places it
  in a round (:class:`OncePerRound`: a turn by an entity that already acted in
  the current round starts the next one);
- **per-step dice**: a step that carries its own faces (:meth:`TurnRules.step_rolls`)
  rolls exactly those, all of them (a :class:`~linguo_cli.core.dice.ScriptedDice`
  swapped in as the rules' ``dice`` for that step, finished after it: too few
  or unused faces are a :class:`~linguo_cli.core.errors.DiceError`); every
  other die comes from the document's source, in play order;
- **error placing**: a :class:`~linguo_cli.core.errors.RulesError` or
  :class:`~linguo_cli.core.errors.InputError` raised while a step is played
  is re-raised placed at that step, in the ruleset's :class:`PlaceStyle`
  (default :data:`TURN_STEP`: ``turn T, step S: ...``, details ``turn`` and
  ``step``), unless it is placed already;
- **all or nothing**: the player never changes its inputs; the first error
  ends the play, and the caller, which only receives the outcome when every
  turn was played, writes nothing.

What happens at the start and end of a turn and in each step is the
ruleset's (:class:`TurnRules`). The player holds the current :class:`Place`
(1-based turn and step indices), which the rules read to place their own
errors (:meth:`TurnPlayer.illegal`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from linguo_cli.core.dice import DiceSource, ScriptedDice
from linguo_cli.core.errors import Diagnostic, InputError, RulesError

# ---------------------------------------------------------------------------
# Places


@dataclass(frozen=True, slots=True)
class Place:
    """Where the player is: ``turn`` (1-based, in play order; 0 before the
    first turn) and ``step`` (1-based within the turn; ``None`` at the turn's
    start and end)."""

    turn: int = 0
    step: int | None = None


class PlaceStyle(Protocol):
    """How a ruleset names a place in messages and error details."""

    def text(self, place: Place) -> str:
        """The place in words, e.g. ``turn 3, step 2``."""
        ...

    def details(self, place: Place) -> dict[str, object]:
        """The place as error details, e.g. ``{"turn": 3, "step": 2}``."""
        ...


@dataclass(frozen=True, slots=True)
class TurnStepStyle:
    """``turn T, step S`` (``turn T`` outside a step); details ``turn`` and
    ``step``."""

    def text(self, place: Place) -> str:
        """``turn T, step S`` or ``turn T``."""
        if place.step is None:
            return f"turn {place.turn}"
        return f"turn {place.turn}, step {place.step}"

    def details(self, place: Place) -> dict[str, object]:
        """``{"turn": T, "step": S}`` (no ``step`` outside a step)."""
        out: dict[str, object] = {"turn": place.turn}
        if place.step is not None:
            out["step"] = place.step
        return out


#: The default place style: ``turn T, step S``.
TURN_STEP = TurnStepStyle()


def illegal(rule: str, message: str, place: Place, style: PlaceStyle = TURN_STEP,
            **details: Any) -> RulesError:
    """A :class:`RulesError` (exit 4) citing ``rule``, its message after the
    place (``turn T, step S: message``), its details the place's followed by
    ``details``; ``step`` is set to the place's step (marks it placed) and
    ``place`` to the place's text (the error object's ``place``)."""
    info = style.details(place)
    info.update(details)
    where = style.text(place)
    exc = RulesError(rule, f"{where}: {message}", info)
    exc.step = place.step
    exc.place = where
    return exc


def place_rules_error(exc: RulesError, place: Place, style: PlaceStyle = TURN_STEP
                      ) -> RulesError:
    """``exc`` placed at ``place`` (a new error, same rule; details: the
    place's first, then the error's own; ``place`` the place's text, the
    error object's ``place``); an error already placed (its ``step`` set)
    is returned as it is."""
    if exc.step is not None:
        return exc
    message = exc.message.removesuffix(f" [rule {exc.rule}]")
    where = style.text(place)
    out = RulesError(exc.rule, f"{where}: {message}",
                     {**style.details(place), **exc.details})
    out.step = place.step
    out.place = where
    return out


def place_input_error(exc: InputError, place: Place, style: PlaceStyle = TURN_STEP
                      ) -> InputError:
    """``exc`` with ``turn T, step S:`` (the place's text) before each
    message that lacks it, so an invalid field of a step names its turn and
    step as well as its field path; same exit code."""
    tag = f"{style.text(place)}: "
    out = InputError([d if d.message.startswith(tag) else
                      Diagnostic(d.place, d.field, tag + d.message)
                      for d in exc.diagnostics])
    out.code = exc.code
    return out


# ---------------------------------------------------------------------------
# Rounds


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """A turn placed in a round: its ``round``; ``starts``: the first turn of
    that round; ``new_round``: the counter moved to a new round for it;
    ``previous`` the round before (0: none was played); ``acted_before``: who
    had acted in the round before this turn."""

    round: int
    starts: bool
    new_round: bool
    previous: int
    acted_before: tuple[str, ...]


class Rounds(Protocol):
    """A ruleset's round counter: :meth:`enter` places the next turn of
    ``actor``; ``round`` and ``acted`` are the state after the last turn."""

    @property
    def round(self) -> int: ...

    @property
    def acted(self) -> tuple[str, ...]: ...

    def enter(self, actor: str) -> RoundEntry: ...


class OncePerRound:
    """Rounds in which nobody acts twice: a turn by an actor that already
    acted in the current round (or any turn at round 0, before any round)
    starts the next round (``round`` + 1, nobody has acted in it yet); then
    the actor is recorded as having acted. ``round``/``acted`` start from the
    state's (Linguomancy O1 rev. 2)."""

    def __init__(self, round: int = 0, acted: Sequence[str] = ()) -> None:
        self._round = round
        self._acted: list[str] = list(acted)

    @property
    def round(self) -> int:
        """The current round (0: none played yet)."""
        return self._round

    @property
    def acted(self) -> tuple[str, ...]:
        """Who has acted in the current round, in order."""
        return tuple(self._acted)

    def enter(self, actor: str) -> RoundEntry:
        """Place ``actor``'s next turn (see the class docstring)."""
        previous = self._round
        new_round = previous == 0 or actor in self._acted
        if new_round:
            self._round += 1
            self._acted = []
        before = tuple(self._acted)
        self._acted.append(actor)
        return RoundEntry(self._round, not before, new_round, previous, before)


# ---------------------------------------------------------------------------
# The player

T = TypeVar("T")
S = TypeVar("S")
P = TypeVar("P")
O = TypeVar("O")  # noqa: E741
SR = TypeVar("SR")
TR = TypeVar("TR")
T_contra = TypeVar("T_contra", contravariant=True)
TR_co = TypeVar("TR_co", covariant=True)

#: The order in which a script's turns are played: ``(script) -> turns``.
TurnOrder = Callable[[Sequence[T]], Iterable[T]]


def script_order(script: Sequence[T]) -> Iterable[T]:
    """The turns as the script gives them."""
    return script


class TurnRules(Protocol[T_contra, S, P, O, SR, TR_co]):
    """What a ruleset plugs into the player, for turns of type ``T`` made of
    steps of type ``S``. ``dice`` is the source the rules roll from (the
    player swaps in a step's own faces while that step is played)."""

    dice: DiceSource

    def actor(self, turn: T_contra, place: Place) -> str:
        """The id of who takes ``turn`` (checked: errors are not placed)."""
        ...

    def steps(self, turn: T_contra, place: Place) -> Sequence[S]:
        """The steps of ``turn`` (checked: errors are not placed)."""
        ...

    def start_turn(self, turn: T_contra, place: Place, entry: RoundEntry) -> None:
        """The start of the turn, placed in its round."""
        ...

    def step_rolls(self, step: S) -> Sequence[int] | None:
        """The step's own dice faces, or ``None`` (the document's source)."""
        ...

    def prepare_step(self, turn: T_contra, step: S, place: Place) -> P:
        """Checks made before the step is played (errors are not placed)."""
        ...

    def play_step(self, prepared: P, place: Place) -> O:
        """Play the step (errors are placed at it)."""
        ...

    def report_step(self, prepared: P, outcome: O, place: Place,
                    rolls_used: tuple[int, ...] | None) -> SR:
        """The step's report (``rolls_used``: its own faces, when it had some)."""
        ...

    def end_turn(self, turn: T_contra, place: Place, steps: list[SR]) -> TR_co:
        """The end of the turn; its report."""
        ...


class TurnPlayer(Generic[T, S, P, O, SR, TR]):
    """Plays a script of turns through ``rules`` (see the module docstring).

    ``rounds``: the ruleset's round counter; ``order``: the order of turns;
    ``style``: how places are written. :attr:`place` is where play is."""

    def __init__(self, rules: TurnRules[T, S, P, O, SR, TR], rounds: Rounds, *,
                 order: TurnOrder[T] = script_order, style: PlaceStyle = TURN_STEP) -> None:
        self.rules = rules
        self.rounds = rounds
        self.order = order
        self.style = style
        self.place = Place()

    def play(self, script: Sequence[T]) -> list[TR]:
        """Play every turn in order; returns the turn reports. Raises the
        first error (placed when it comes from a step)."""
        reports = []
        for index, turn in enumerate(self.order(script), start=1):
            self.place = Place(index)
            reports.append(self.play_turn(turn))
        return reports

    def play_turn(self, turn: T) -> TR:
        """One turn: its actor and steps checked, its round entered, its start,
        each step, its end."""
        place = self.place
        actor = self.rules.actor(turn, place)
        steps = self.rules.steps(turn, place)
        self.rules.start_turn(turn, place, self.rounds.enter(actor))
        done = []
        for j, step in enumerate(steps, start=1):
            self.place = Place(place.turn, j)
            done.append(self.play_step(turn, step))
        self.place = place
        return self.rules.end_turn(turn, place, done)

    def play_step(self, turn: T, step: S) -> SR:
        """One step, with its own dice when it has some, errors placed."""
        place = self.place
        prepared = self.rules.prepare_step(turn, step, place)
        own = self.rules.step_rolls(step)
        saved = self.rules.dice
        if own is not None:
            self.rules.dice = ScriptedDice(list(own))
        try:
            outcome = self.rules.play_step(prepared, place)
            if own is not None:
                self.rules.dice.finish()
        except RulesError as exc:
            raise place_rules_error(exc, place, self.style) from None
        except InputError as exc:
            raise place_input_error(exc, place, self.style) from None
        finally:
            step_dice = self.rules.dice
            self.rules.dice = saved
        used = tuple(step_dice.used) if own is not None else None
        return self.rules.report_step(prepared, outcome, place, used)

    def illegal(self, rule: str, message: str, **details: Any) -> RulesError:
        """A :class:`RulesError` placed where play is (see :func:`illegal`)."""
        return illegal(rule, message, self.place, self.style, **details)
