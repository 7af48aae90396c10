"""Linguomancy's turn engine: its turns played by the core turn player.

:class:`TurnEngine` plugs Linguomancy's rules into
:class:`linguo_cli.core.turns.TurnPlayer` (which supplies the order of turns,
per-step dice, error placing at ``turn T, step S``, and the round counter
:class:`~linguo_cli.core.turns.OncePerRound`, O1 rev. 2). One turn of an
entity (rules O1, P1-P6, C1-C2, H6 and, through the steps, the attack,
damage and casting rules):

1. **Round** (O1 rev. 2): a turn by an entity that already acted in the
   current round (or any turn at ``round`` 0) starts the next round.
2. **Start of turn** (O1, in this order): the reaction comes back (P4);
   action points are set to ``action_points_per_turn`` (P1) and movement to
   ``movement_max`` (P2), both changed by condition effects of the catalog
   (C2); Hand points spent by actions come back and are recomputed from held
   items, then maintained idioms oldest first (P5, P6: one that cannot be paid
   stops and its effects end); Flux regenerates (F2); a Dying entity rolls its
   death save (H6).
3. **Steps**, in order (:mod:`.turn_steps`, :mod:`.turn_actions`).
4. **End of turn**: durations tick (C1); unspent action points are lost:
   the entity ends its turn with 0 action points (P1 rev. 2).

Mutable while it runs: a working map of :class:`Entity` values, where each
entity the engine changes is a copy of its own, made at the first change and
then changed in place (:meth:`TurnEngine.update`) until the play ends; the
inputs, and values other rules return, are never changed. Pure otherwise: no
I/O; chance only from the given :class:`~linguo_cli.core.dice.DiceSource`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.core.evolve import evolve
from linguo_cli.core.results import OMIT
from linguo_cli.core.turns import OncePerRound, Place, RoundEntry, TurnPlayer
from linguo_cli.rulesets.linguomancy import conditions as conditions_
from linguo_cli.rulesets.linguomancy import damage as damage_
from linguo_cli.rulesets.linguomancy import idioms as idioms_
from linguo_cli.rulesets.linguomancy.model import MAX_METRES, Condition, Entity, Maintained
from linguo_cli.rulesets.linguomancy.turn_actions import attack, cast
from linguo_cli.rulesets.linguomancy.turn_results import (
    EndReport,
    StartReport,
    StepDetail,
    StepReport,
    TurnReport,
)
from linguo_cli.rulesets.linguomancy.turn_rules import (
    MAX_ACTION_COST,
    givers,
    hands_free,
    num,
    remaining,
)
from linguo_cli.rulesets.linguomancy.turn_steps import PLAIN_STEPS, StepFunction

if TYPE_CHECKING:
    from linguo_cli.core.results import _Omit

#: Every step kind's function.
STEPS: dict[str, StepFunction] = {**PLAIN_STEPS, "attack": attack, "cast": cast}

Turn = Mapping[str, Any]
StepInput = Mapping[str, Any]


class _Prepared(NamedTuple):
    """A step about to be played: who acts, its kind, the step, the acting
    entity's action points and movement before it and where the derivation
    stood (a named tuple: built once per step, read once, never compared)."""

    eid: str
    kind: str
    step: StepInput
    action_points: int
    movement: Fraction
    mark: int


class _Started(NamedTuple):
    """The turn in progress: who acts, its round entry and its start report."""

    eid: str
    entry: RoundEntry
    start: StartReport


class TurnEngine:
    """Plays turns on a set of entities. Mutable while it runs (its working
    copies, see :meth:`update`); the inputs are never changed.

    ``idioms``/``conditions``: the catalogs (``None`` = defaults) as built by
    :mod:`.idioms` and :mod:`.conditions`. ``check_only``:
    legality only, no die is rolled (death saves, attack and cast outcomes
    are skipped; costs are still charged). ``round``/``acted_this_round``: the
    state's round count and the ids that acted in that round (O1 rev. 2);
    :attr:`round` and :attr:`acted` hold them after :meth:`play`.
    """

    def __init__(self, entities: Mapping[str, Entity], dice: DiceSource, *,
                 idioms: Any = None, conditions: Any = None, check_only: bool = False,
                 round: int = 0, acted_this_round: Sequence[str] = ()) -> None:
        self.entities: dict[str, Entity] = dict(entities)
        self.before: dict[str, Entity] = dict(entities)
        #: The working copies this engine made (by id): only these change in place.
        self._own: dict[str, Entity] = {}
        self.dice = dice
        self.idioms: idioms_.Catalog = idioms if idioms is not None else idioms_.default_catalog()
        self.catalog: conditions_.Catalog = (conditions if conditions is not None
                                             else conditions_.default_catalog())
        self.check_only = check_only
        self.log = Derivation()
        self.entity_events: dict[str, list[str]] = {}
        self.started_with: dict[str, frozenset[Condition]] = {}
        self.rounds = OncePerRound(round, acted_this_round)
        self.player: TurnPlayer[Turn, StepInput, _Prepared, StepDetail, StepReport,
                                TurnReport] = TurnPlayer(self, self.rounds)
        self._turn: _Started | None = None

    @property
    def round(self) -> int:
        """The current round (O1 rev. 2; 0: none played yet)."""
        return self.rounds.round

    @property
    def acted(self) -> list[str]:
        """Who has acted in the current round, in order."""
        return list(self.rounds.acted)

    @property
    def turn_index(self) -> int:
        """The 1-based index of the turn being played."""
        return self.player.place.turn

    @property
    def step_index(self) -> int | None:
        """The 1-based index of the step being played (``None`` outside steps)."""
        return self.player.place.step

    # -- helpers ----------------------------------------------------------

    def entity(self, eid: str, where: str) -> Entity:
        """The entity ``eid``; :class:`InputError` at field ``where`` if unknown."""
        e = self.entities.get(eid)
        if e is None:
            known = ", ".join(self.entities) or "none"
            raise InputError(Diagnostic(
                "request", where, f"no entity with id {eid!r} in the state (known: {known})"))
        return e

    def where(self, name: str) -> str:
        """The request field path of the current step (``turns[0].steps[2].``)."""
        path = f"turns[{self.turn_index - 1}]"
        if self.step_index is not None:
            path += f".steps[{self.step_index - 1}]"
        return f"{path}.{name}"

    def update(self, e: Entity, **changes: Any) -> Entity:
        """``e`` with ``changes`` (field name -> value), as :func:`evolve`
        gives it. When ``e`` is the working entity of its id it becomes the
        working entity with the changes: the engine's own copy is changed in
        place (the first change of an input, or of a value another rule
        returned, makes that copy). Any other ``e`` gives a new value and
        nothing is stored. Working copies never leave the engine while it
        plays: reports take their values, not the entities."""
        eid = e.id
        if self.entities.get(eid) is not e:
            return evolve(e, **changes)
        if self._own.get(eid) is not e:
            e = self._own[eid] = self.entities[eid] = evolve(e, **changes)
            return e
        for name, value in changes.items():
            _set(e, name, value)
        return e

    def put(self, e: Entity, *events: str) -> None:
        """Store ``e`` as the working entity of its id, with its ``events``."""
        self.entities[e.id] = e
        if events:
            self.entity_events.setdefault(e.id, []).extend(events)

    def illegal(self, rule: str, message: str, **details: Any) -> RulesError:
        """A :class:`RulesError` (exit 4) placed at ``turn T, step S``."""
        return self.player.illegal(rule, message, **details)

    def maintained_cost(self, m: Maintained, eid: str = "") -> int:
        """Hand cost of a maintained idiom (P6): its own ``hand_cost``, else
        the idiom catalog's; :class:`InputError` when neither is known."""
        if m.hand_cost is not None:
            return m.hand_cost
        idiom = self.idioms.get(m.idiom)
        if idiom is None:
            raise InputError(Diagnostic(
                "request", f"state.entities[{eid or '?'}].maintained",
                f"maintained idiom {m.idiom!r} is not in the idiom catalog ({self.idioms.name}): "
                "give its hand_cost"))
        return idiom.hand_cost

    def costs(self, e: Entity) -> list[int]:
        """The Hand costs of ``e``'s maintained idioms, oldest first (P6)."""
        if not e.maintained:
            return []
        return [self.maintained_cost(m, e.id) for m in e.maintained]

    def effects(self, e: Entity) -> conditions_.Effects:
        """The enforced effects of ``e``'s conditions (C2, the catalog in use)."""
        return self.catalog.effects_for(e)

    def by(self, e: Entity, effect: str) -> str:
        """Which conditions give ``effect``, for messages."""
        return ", ".join(givers(e, self.catalog, effect)) or "a condition"

    # -- turns (the core player's hooks) -----------------------------------

    def play(self, turns: Sequence[Turn]) -> list[TurnReport]:
        """Play every turn in order; returns the per-turn reports."""
        return self.player.play(turns)

    def actor(self, turn: Turn, place: Place) -> str:
        """The id of the turn's entity (:class:`InputError` if unknown)."""
        eid = str(turn["entity"])
        self.entity(eid, f"turns[{place.turn - 1}].entity")
        return eid

    def steps(self, turn: Turn, place: Place) -> list[StepInput]:
        """The turn's steps; :class:`InputError` for an ``end_turn`` that is
        not the last step."""
        steps = list(turn.get("steps") or [])
        for j, st in enumerate(steps[:-1], start=1):
            if st.get("kind") == "end_turn":
                raise InputError(Diagnostic(
                    "request", f"turns[{place.turn - 1}].steps[{j - 1}]",
                    "end_turn must be the last step of a turn"))
        return steps

    def start_turn(self, turn: Turn, place: Place, entry: RoundEntry) -> None:
        """The turn's round (O1 rev. 2) and its start of turn (O1)."""
        eid = str(turn["entity"])
        self.log.prefix = f"turn {place.turn} ({eid}): "
        self.note_round(eid, entry)
        self.log.prefix = f"turn {place.turn} ({eid}), start: "
        mark = len(self.log.steps)
        events, saved = self.start_of_turn(eid)
        e = self.entities[eid]
        start = StartReport(tuple(events), saved, remaining(e, self.costs(e)),
                            self.log.rules_since(mark))
        self._turn = _Started(eid, entry, start)

    def note_round(self, eid: str, entry: RoundEntry) -> None:
        """O1 rev. 2: say where ``eid``'s turn falls: a round starts with it
        (the first round, or ``eid`` already acted in the last one) or the
        round continues."""
        if entry.starts:
            why = ""
            if entry.new_round:
                why = (f" ({eid} already acted in round {entry.previous})" if entry.previous
                       else " (the first round)")
            self.log.note("O1", f"round {entry.round} starts with {eid}'s turn{why}")
        else:
            self.log.note("O1", f"round {entry.round} continues: {eid} has not acted in it yet "
                                f"(acted: {', '.join(entry.acted_before)})")

    def step_rolls(self, step: StepInput) -> Sequence[int] | None:
        """The step's own ``rolls``, or ``None``."""
        own: Sequence[int] | None = step.get("rolls")
        return own

    def prepare_step(self, turn: Turn, step: StepInput, place: Place) -> _Prepared:
        """The step's kind checked (:class:`InputError`, not placed, for an
        unknown kind); the acting entity before it."""
        eid = str(turn["entity"])
        self.log.prefix = f"turn {place.turn} ({eid}), step {place.step}: "
        mark = len(self.log.steps)
        kind = str(step["kind"])
        if kind not in STEPS:  # the same kinds as STEP_KINDS
            raise InputError(Diagnostic("request", self.where("kind"),
                                        f"unknown step kind {kind!r}"))
        e = self.entities[eid]
        return _Prepared(eid, kind, step, e.action_points, e.movement, mark)

    def play_step(self, prepared: _Prepared, place: Place) -> StepDetail:
        """Play the step through its kind's function."""
        return STEPS[prepared.kind](self, prepared.eid, prepared.step)

    def report_step(self, prepared: _Prepared, outcome: StepDetail, place: Place,
                    rolls_used: tuple[int, ...] | None) -> StepReport:
        """The step's report: what it cost the acting entity, what it did,
        its own faces, what is left and the rules it applied."""
        after = self.entities[prepared.eid]
        moved = prepared.movement is not after.movement  # the same value: nothing spent
        return StepReport(
            step=place.step or 0, kind=prepared.kind,
            action_points=prepared.action_points - after.action_points,
            movement=num(prepared.movement - after.movement) if moved else 0, detail=outcome,
            rolls_used=OMIT if rolls_used is None else rolls_used,
            remaining=remaining(after, self.costs(after)),
            rules=self.log.rules_since(prepared.mark))

    def end_turn(self, turn: Turn, place: Place, steps: list[StepReport]) -> TurnReport:
        """The end of the turn (C1, P1) and the turn's report."""
        started = self._turn
        assert started is not None  # start_turn ran for this turn
        eid = started.eid
        self.log.prefix = f"turn {place.turn} ({eid}), end: "
        mark = len(self.log.steps)
        events = self.end_of_turn(eid)
        end = EndReport(tuple(events), self.log.rules_since(mark))
        self.log.prefix = ""
        e = self.entities[eid]
        return TurnReport(place.turn, eid, started.entry.round, started.entry.starts,
                          started.start, tuple(steps), end, remaining(e, self.costs(e)))

    def start_of_turn(self, eid: str) -> tuple[list[str], Mapping[str, Any] | _Omit]:
        """O1: reaction, AP, movement, Hand points (P5/P6), Flux (F2), death
        save (H6), then the condition effects held (C2). Returns the events
        and the death save's report (:data:`OMIT` when none was due)."""
        e = self.entities[eid]
        events: list[str] = []
        if e.dead:
            self.log.note("O1", f"{eid} is dead: no turn")
            events.append("dead")
            return events, OMIT
        self.started_with[eid] = conditions_.identities(e)
        eff = self.effects(e)
        self.log.note("O1", f"start of {eid}'s turn {self.turn_index}")
        for name in eff.unenforced + eff.unknown:
            note = self.catalog.note(name)
            if note:
                self.log.note("C2", f"{eid}: {note}")
        # P4: reaction back.
        if not e.reaction_available:
            events.append("reaction_back")
        self.log.note("P4", f"{eid}'s reaction is available again")
        # P1/P2: action points and movement reset.
        ap, mv = e.action_points_per_turn, e.movement_max
        self.log.note("P1", f"action points reset to {ap}")
        self.log.note("P2", f"movement reset to {num(mv)} m")
        e = self.update(e, reaction_available=True, action_points=ap, movement=mv,
                        hands_spent=0)
        # P5/P6: Hand points.
        e, hand_events = self.recompute_hands(e)
        events.extend(hand_events)
        # F2: Flux regeneration (with the catalog's regeneration change, C2;
        # never below 0, F1).
        regen = e.flux_regen + eff.flux_regen_change
        if eff.flux_regen_change:
            self.log.note("C2", f"{eid}: Flux regeneration {e.flux_regen} "
                                f"{eff.flux_regen_change:+d} from "
                                f"{self.by(e, 'flux_regen_change')} = {regen}")
        raw = e.flux + regen
        new_flux = min(e.flux_max, max(0, raw))
        self.log.note("F2", f"Flux {e.flux} {regen:+d} = {raw}" + (
            f", capped at its maximum {e.flux_max}" if raw > e.flux_max else
            "" if raw < 0 else f" (max {e.flux_max})"))
        if raw < 0:
            self.log.note("F1", f"Flux never goes below 0: {e.flux} {regen:+d} = "
                                f"{e.flux + regen}, floored at 0")
        if new_flux != e.flux:
            events.append(f"flux_regenerates:{new_flux - e.flux:+d}")
        e = self.update(e, flux=new_flux)
        self.put(e)
        # H6: death save.
        saved: Mapping[str, Any] | _Omit = OMIT
        if e.has("Dying") and not e.has("Stable") and not e.dead:
            saved = self.death_save(eid)
            events.extend(saved.get("events", []))
            e = self.entities[eid]
            if e.dead:  # the third failure: the turn it was starting is not taken
                e = self.update(e, action_points=0, movement=Fraction(0))
                self.put(e)
        elif e.has("Stable") and not e.dead:
            self.log.note("H6", f"{eid} is Stable: no death saving throw")
        # C2: condition effects held now (after the death save, which may wake).
        if not e.dead:
            e = self.apply_turn_effects(e)
            self.put(e)
        return events, saved

    def apply_turn_effects(self, e: Entity) -> Entity:
        """C2 at the start of a turn: action-point change (never below 0),
        movement factor, no movement (0 m) from the conditions held now."""
        eff = self.effects(e)
        ap, mv = e.action_points, e.movement
        if eff.ap_change:
            ap = max(0, ap + eff.ap_change)
            self.log.note("C2", f"{e.id}: action points {e.action_points} "
                                f"{eff.ap_change:+d} from {self.by(e, 'ap_change')} = {ap}")
        if eff.no_movement:
            mv = Fraction(0)
            self.log.note("C2", f"{e.id} cannot move ({self.by(e, 'no_movement')}): 0 m")
        elif eff.movement_factor != 1:
            mv = min(mv * eff.movement_factor, MAX_METRES)
            self.log.note("C2", f"{e.id}: movement x {eff.movement_factor} from "
                                f"{self.by(e, 'movement_factor')} = {num(mv)} m"
                                + (" (the most a state holds)" if mv == MAX_METRES else ""))
        if eff.no_actions:
            self.log.note("C2", f"{e.id} can take no actions this turn "
                                f"({self.by(e, 'no_actions')})")
        return self.update(e, action_points=ap, movement=mv)

    def recompute_hands(self, e: Entity) -> tuple[Entity, list[str]]:
        """P5/P6 at the start of a turn: held items first, then maintained
        idioms oldest first; one that cannot be paid stops (its effects end)."""
        free = e.hand_points - len(e.held_items)
        self.log.note("P5", f"{e.id}: {e.hand_points} Hand points - {len(e.held_items)} "
                            f"held item(s) = {max(free, 0)} free before maintained idioms")
        kept: list[Maintained] = []
        events: list[str] = []
        stopped: list[str] = []
        for m in e.maintained:
            cost = self.maintained_cost(m, e.id)
            if cost <= free:
                free -= cost
                kept.append(m)
                self.log.note("P6", f"maintains {m.idiom}: {cost} Hand point(s), {free} left")
            else:
                stopped.append(m.idiom)
                events.append(f"stops_maintaining:{m.idiom}")
                self.log.note("P6", f"cannot pay {cost} Hand point(s) for {m.idiom} "
                                    f"({max(free, 0)} free): it stops and its effects end")
        e = self.update(e, maintained=tuple(kept))
        for name in stopped:
            e = self.end_idiom_effects(e, name)
        return e, events

    def end_idiom_effects(self, caster: Entity, idiom: str) -> Entity:
        """An idiom stops being maintained: conditions it gave (``source``
        naming the idiom) end on every entity (P6)."""
        self.put(caster)
        for eid, other in list(self.entities.items()):
            kept = tuple(c for c in other.conditions if not _from_idiom(c, idiom, caster.id))
            if len(kept) != len(other.conditions):
                ended = [c.name for c in other.conditions if c not in kept]
                self.put(evolve(other, conditions=kept),
                         *[f"condition_ends:{n}" for n in ended])
                self.log.note("P6", f"{idiom} ends: {eid} loses {', '.join(ended)}")
        return self.entities[caster.id]

    def death_save(self, eid: str) -> dict[str, Any]:
        """H6: the Dying entity's death save (not rolled when checking only)."""
        e = self.entities[eid]
        if self.check_only:
            self.log.note("H6", f"{eid} is Dying: death save not rolled (check only)")
            return {"skipped": True}
        new, rep = damage_.roll_death_save(e, self.dice)
        self.log.extend(rep.steps)
        self.put(new, *rep.events)
        return dict(rep.as_dict())

    def end_of_turn(self, eid: str) -> list[str]:
        """C1: durations tick; conditions whose last turn this was end. P1
        rev. 2: unspent action points are lost (0 left at the end of every
        turn, a dead entity's included)."""
        new = self.entities[eid]
        events: list[str] = []
        if not new.dead:
            kept, ended = conditions_.ticked_end_of_turn(new,
                                                         self.started_with.get(eid, frozenset()))
            new = self.update(new, conditions=kept)
            self.log.note("C1", f"end of {eid}'s turn: durations tick"
                          + (f"; {', '.join(ended)} end(s)" if ended else ""))
            events.extend(f"condition_ends:{n}" for n in ended)
        if new.action_points:
            self.log.note("P1", f"{new.action_points} unspent action point(s) are lost: "
                                f"{eid} ends its turn with 0")
            new = self.update(new, action_points=0)
        self.put(new, *events)
        return events

    # -- steps ------------------------------------------------------------


    # -- what steps share ---------------------------------------------------

    def step_ap(self, st: Mapping[str, Any], default: int) -> int:
        """The action points a step costs: its ``action_points`` when given,
        else ``default``. :class:`InputError` (exit 3, the field's place) for a
        cost above :data:`MAX_ACTION_COST` (P1 rev. 2)."""
        if "action_points" not in st:
            return default
        ap = int(st["action_points"])
        if ap > MAX_ACTION_COST or ap < 0:
            raise InputError(Diagnostic(
                "request", self.where("action_points"),
                f"an action costs 0 to {MAX_ACTION_COST} action points, not {ap} (P1)"))
        return ap

    def require_able(self, e: Entity, what: str, effect: str = "no_actions") -> Any:
        """C2: nothing for the dead (as a one-off cast refuses a dead caster),
        and no actions (or, with ``effect``, no movement / no reactions) while
        a condition forbids them (Stunned, Unconscious). Returns the entity's
        condition effects."""
        if e.dead:
            raise self.illegal("C2", f"{e.id} is dead and cannot {what}", entity=e.id)
        eff = self.effects(e)
        if getattr(eff, effect):
            names = self.by(e, effect)
            why = f": no actions while {names}" if effect == "no_actions" else f" while {names}"
            raise self.illegal("C2", f"{e.id} cannot {what}{why}", entity=e.id,
                               conditions=givers(e, self.catalog, effect))
        return eff

    def spend_ap(self, e: Entity, cost: int, what: str) -> Entity:
        """P1: spend ``cost`` action points; illegal when fewer are left."""
        if cost > e.action_points:
            raise self.illegal("P1", f"{what} costs {cost} action point(s), {e.id} has "
                                     f"{e.action_points} left",
                               needed=cost, left=e.action_points)
        self.log.note("P1", f"{what}: {cost} action point(s), {e.action_points - cost} left")
        return self.update(e, action_points=e.action_points - cost)

    def spend_hands(self, e: Entity, cost: int, what: str) -> Entity:
        """P5: spend ``cost`` Hand points for this turn; illegal when fewer are free."""
        if cost <= 0:
            return e
        free = hands_free(e, self.costs(e))
        if cost > free:
            raise self.illegal("P5", f"{what} needs {cost} Hand point(s), {e.id} has {free} free",
                               needed=cost, left=free)
        self.log.note("P5", f"{what}: {cost} Hand point(s) until the next turn, "
                            f"{free - cost} free")
        return self.update(e, hands_spent=e.hands_spent + cost)


#: Sets a field of a working copy (the record is frozen for everyone else).
_set = object.__setattr__


def _from_idiom(c: Condition, idiom: str, caster: str) -> bool:
    src = c.source.casefold()
    return src in (idiom.casefold(), f"{caster}:{idiom}".casefold(),
                   f"idiom:{idiom}".casefold())
