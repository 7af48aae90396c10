"""The turn engine: a state, the turns its entities take, dice -> the new state.

One turn of an entity (rules O1, P1-P6, C1-C2, H6 and, through the steps,
the attack, damage and casting rules):

0. **Rounds** (O1 rev. 2): the state's ``round`` counts rounds and its
   ``acted_this_round`` lists the ids that have taken a turn in that round.
   A turn by an entity already in that list (or any turn at ``round`` 0)
   starts the next round: ``round`` + 1 and the list emptied. Every turn of
   the script, a dead entity's included, adds its entity to the list, so no
   entity acts twice in one round. Each turn report carries its ``round`` and
   ``round_start`` (true for the first turn of a round).
1. **Start of turn** (O1, in this order): the reaction comes back (P4);
   action points are set to ``action_points_per_turn`` (P1) and movement to
   ``movement_max`` (P2), both changed by condition effects of the catalog
   (C2); Hand points spent by actions come back and are recomputed from held
   items, then maintained idioms oldest first (P5, P6: one that cannot be paid
   stops and its effects end); Flux regenerates (F2); a Dying entity rolls its
   death save (H6).
2. **Steps**, in order: ``move``, ``drop_prone``, ``stand_up``, ``attack``,
   ``cast``, ``action``, ``hold``, ``drop``, ``stop_maintaining``,
   ``reaction`` (another entity spends its reaction now), ``end_turn``.
3. **End of turn**: durations tick (C1); unspent action points are lost:
   the entity ends its turn with 0 action points (P1 rev. 2).

All or nothing: the first illegal step raises
:class:`~linguo_cli.core.errors.RulesError` (exit 4) with the 1-based step index,
the rule ID and the numbers involved; the caller then writes nothing.

Dice: a step with its own ``rolls`` uses exactly those faces (all of them);
every other die comes from the document's source, in this order: for each
turn, the start-of-turn death save, then each step in order (an attack: its
d20 test, then its damage dice; a cast: the order of the cast kind).

Units: action points, metres (``Fraction`` inside, :func:`model.metres` out),
Hand points, Flux points, turns. Pure: no I/O; chance only from the given
:class:`~linguo_cli.core.dice.DiceSource`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import DiceExpression, DiceSource, ScriptedDice
from linguo_cli.core.dice import parse as parse_dice
from linguo_cli.core.errors import Diagnostic, InputError, RulesError
from linguo_cli.rulesets.linguomancy import abilities as abilities_
from linguo_cli.rulesets.linguomancy import conditions as conditions_
from linguo_cli.rulesets.linguomancy import damage as damage_
from linguo_cli.rulesets.linguomancy import idioms as idioms_
from linguo_cli.rulesets.linguomancy import requests as requests_
from linguo_cli.rulesets.linguomancy import ticks as ticks_
from linguo_cli.rulesets.linguomancy.checks import resolve_test
from linguo_cli.rulesets.linguomancy.model import MAX_METRES, Condition, Entity, Maintained, metres
from linguo_cli.rulesets.linguomancy.ticks import Tick

#: Action point cost of each cost class (P1).
COST_CLASSES: dict[str, int] = {"free": 0, "quick": 1, "standard": 2, "complex": 3}

#: Cost class of the generic actions the rulebook names (P1); other names
#: must give their ``cost``.
NAMED_ACTIONS: dict[str, str] = {
    "attack": "standard", "use_item": "standard", "help": "standard", "hide": "standard",
    "jump": "quick", "stand_up": "quick", "shove": "quick",
    "charge": "complex", "sprint": "complex",
    "talk": "free", "drop_item": "free",
}

#: Modes of movement (P2); each metre costs one metre, crawling one more (see
#: :func:`move_cost`). A move in ``jump`` mode is one jump: a quick action
#: (1 AP) as well as its metres (P1 rev. 2).
MOVE_MODES = ("walk", "crawl", "jump", "swim", "climb", "fly")

#: The most action points a single action may cost (P1 rev. 2); an input cost
#: above it is invalid input (exit 3).
MAX_ACTION_COST = 3

#: The step kinds of a turn document (schemas/turn-request.schema.json).
STEP_KINDS = ("move", "drop_prone", "stand_up", "attack", "cast", "action", "hold", "drop",
              "stop_maintaining", "reaction", "end_turn")

#: AP cost of an attack (P1: most actions cost 2).
ATTACK_AP = 2
#: AP cost of casting an idiom without its own AP cost (P1): 2, complex 3.
CAST_AP = 2
COMPLEX_CAST_AP = 3


# ---------------------------------------------------------------------------
# Condition effects (C2)


def givers(entity: Entity, catalog: conditions_.Catalog, effect: str) -> list[str]:
    """Names of the conditions ``entity`` holds whose catalog entry sets
    ``effect`` (e.g. ``no_actions``), for messages."""
    out: list[str] = []
    held = [c.name for c in entity.conditions]
    if entity.exhaustion > 0:
        held.append("Exhaustion")
    for name in held:
        entry = catalog.get(name)
        if entry is not None and name not in out and effect in entry.effects.as_dict():
            out.append(name)
    return out


# ---------------------------------------------------------------------------
# Resources


def hands_free(entity: Entity, maintained_costs: Sequence[int]) -> int:
    """Hand points free now (P5): Hand points - held items - Hand costs of
    maintained idioms - Hand points spent by actions this turn; never below 0."""
    return max(0, entity.hand_points - len(entity.held_items) - sum(maintained_costs)
               - entity.hands_spent)


def remaining(entity: Entity, maintained_costs: Sequence[int]) -> dict[str, Any]:
    """The resources left, in the result shape: ``action_points``,
    ``movement`` (metres), ``hands_free``, ``flux``, ``reaction_available``."""
    return {
        "action_points": entity.action_points,
        "movement": metres(entity.movement),
        "hands_free": hands_free(entity, maintained_costs),
        "flux": entity.flux,
        "reaction_available": entity.reaction_available,
    }


def move_cost(distance: Fraction, mode: str, terrain: str) -> Fraction:
    """Metres of movement a move costs (P2): distance x (1 + 1 when crawling
    + 1 on difficult terrain). Crawling 1 m on difficult terrain costs 3 m."""
    factor = 1 + (1 if mode == "crawl" else 0) + (1 if terrain == "difficult" else 0)
    return distance * factor


def stand_up_cost(entity: Entity) -> Fraction:
    """Movement standing up costs (P3): half the max movement (max 20 -> 10 m)."""
    return entity.movement_max / 2


# ---------------------------------------------------------------------------
# The engine


def _num(value: Fraction | int) -> int | float | str:
    return metres(Fraction(value))


@dataclass
class _Log:
    """Accumulates rule IDs (first use order) and explanation lines."""

    rules: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    prefix: str = ""

    def note(self, rule: str, text: str) -> Step:
        s = Step(rule, self.prefix + text)
        self.steps.append(s)
        if rule not in self.rules:
            self.rules.append(rule)
        return s

    def extend(self, steps: Sequence[Step]) -> None:
        for s in steps:
            self.note(s.rule, s.text)

    def rules_since(self, mark: int) -> list[str]:
        """Rule IDs of the lines noted since ``len(steps) == mark``, first use order."""
        out: list[str] = []
        for s in self.steps[mark:]:
            if s.rule not in out:
                out.append(s.rule)
        return out


class TurnEngine:
    """Plays turns on a set of entities. Mutable while it runs; the inputs
    (frozen :class:`Entity` values) are never changed.

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
        self.dice = dice
        self.idioms: idioms_.Catalog = idioms if idioms is not None else idioms_.default_catalog()
        self.catalog: conditions_.Catalog = (conditions if conditions is not None
                                             else conditions_.default_catalog())
        self.check_only = check_only
        self.log = _Log()
        self.entity_events: dict[str, list[str]] = {}
        self.turn_index = 0
        self.step_index: int | None = None
        self.started_with: dict[str, frozenset[Condition]] = {}
        self.round = round
        self.acted: list[str] = list(acted_this_round)

    # -- helpers ----------------------------------------------------------

    def entity(self, eid: str, where: str) -> Entity:
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

    def put(self, e: Entity, *events: str) -> None:
        self.entities[e.id] = e
        if events:
            self.entity_events.setdefault(e.id, []).extend(events)

    def illegal(self, rule: str, message: str, **details: Any) -> RulesError:
        info: dict[str, object] = {"turn": self.turn_index}
        if self.step_index is not None:
            info["step"] = self.step_index
        info.update(details)
        where = f"turn {self.turn_index}"
        if self.step_index is not None:
            where += f", step {self.step_index}"
        exc = RulesError(rule, f"{where}: {message}", info)
        exc.step = self.step_index
        return exc

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
        return [self.maintained_cost(m, e.id) for m in e.maintained]

    def lookup_idiom(self, name: str, where: str) -> idioms_.Idiom:
        """The catalog's idiom called ``name``; :class:`InputError` if unknown."""
        found = self.idioms.get(name)
        if found is None:
            raise InputError(Diagnostic("request", where, f"unknown idiom {name!r}: not in the "
                                                          f"idiom catalog ({self.idioms.name})"))
        return found

    def effects(self, e: Entity) -> conditions_.Effects:
        """The enforced effects of ``e``'s conditions (C2, the catalog in use)."""
        return self.catalog.effects_for(e)

    def by(self, e: Entity, effect: str) -> str:
        """Which conditions give ``effect``, for messages."""
        return ", ".join(givers(e, self.catalog, effect)) or "a condition"

    # -- turns ------------------------------------------------------------

    def play(self, turns: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Play every turn in order; returns the per-turn reports."""
        reports = []
        for i, turn in enumerate(turns, start=1):
            self.turn_index = i
            self.step_index = None
            reports.append(self.play_turn(turn, i))
        return reports

    def enter_round(self, eid: str) -> bool:
        """O1 rev. 2: place ``eid``'s turn in a round. A turn by an entity that
        already acted in the current round (or any turn at round 0) starts the
        next round (``round`` + 1, nobody has acted in it yet); then ``eid``
        is recorded as having acted. Returns True when this turn is the first
        of its round (a round starts here)."""
        why = ""
        if self.round == 0 or eid in self.acted:
            why = (f" ({eid} already acted in round {self.round})" if self.round
                   else " (the first round)")
            self.round += 1
            self.acted = []
        starts = not self.acted
        self.acted.append(eid)
        if starts:
            self.log.note("O1", f"round {self.round} starts with {eid}'s turn{why}")
        else:
            self.log.note("O1", f"round {self.round} continues: {eid} has not acted in it yet "
                                f"(acted: {', '.join(self.acted[:-1])})")
        return starts

    def play_turn(self, turn: Mapping[str, Any], index: int) -> dict[str, Any]:
        eid = str(turn["entity"])
        self.entity(eid, f"turns[{index - 1}].entity")
        steps = list(turn.get("steps") or [])
        for j, st in enumerate(steps[:-1], start=1):
            if st.get("kind") == "end_turn":
                raise InputError(Diagnostic(
                    "request", f"turns[{index - 1}].steps[{j - 1}]",
                    "end_turn must be the last step of a turn"))
        self.log.prefix = f"turn {index} ({eid}): "
        starts = self.enter_round(eid)
        report: dict[str, Any] = {"turn": index, "entity": eid, "round": self.round,
                                  "round_start": starts}
        self.log.prefix = f"turn {index} ({eid}), start: "
        mark = len(self.log.steps)
        report["start"] = self.start_of_turn(eid)
        report["start"]["rules"] = self.log.rules_since(mark)
        step_reports = []
        for j, st in enumerate(steps, start=1):
            self.step_index = j
            self.log.prefix = f"turn {index} ({eid}), step {j}: "
            mark = len(self.log.steps)
            rec = self.play_step(eid, st, j)
            rec["rules"] = self.log.rules_since(mark)
            step_reports.append(rec)
        self.step_index = None
        report["steps"] = step_reports
        self.log.prefix = f"turn {index} ({eid}), end: "
        mark = len(self.log.steps)
        report["end"] = self.end_of_turn(eid)
        report["end"]["rules"] = self.log.rules_since(mark)
        self.log.prefix = ""
        e = self.entities[eid]
        report["remaining"] = remaining(e, self.costs(e))
        return report

    def start_of_turn(self, eid: str) -> dict[str, Any]:
        """O1: reaction, AP, movement, Hand points (P5/P6), Flux (F2), death save (H6)."""
        e = self.entities[eid]
        events: list[str] = []
        out: dict[str, Any] = {"events": events}
        if e.dead:
            self.log.note("O1", f"{eid} is dead: no turn")
            events.append("dead")
            out["remaining"] = remaining(e, self.costs(e))
            return out
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
        self.log.note("P2", f"movement reset to {_num(mv)} m")
        e = replace(e, reaction_available=True, action_points=ap, movement=mv, hands_spent=0)
        # P5/P6: Hand points.
        e, hand_events = self.recompute_hands(e)
        events.extend(hand_events)
        # F2: Flux regeneration (with the catalog's regeneration change, C2).
        regen = e.flux_regen + eff.flux_regen_change
        new_flux = min(e.flux_max, max(0, e.flux + regen))
        text = f"Flux {e.flux} {regen:+d} = {new_flux} (max {e.flux_max})"
        if eff.flux_regen_change:
            text += (f"; regeneration {eff.flux_regen_change:+d} from "
                     f"{self.by(e, 'flux_regen_change')} (C2)")
        self.log.note("F2", text)
        if new_flux != e.flux:
            events.append(f"flux_regenerates:{new_flux - e.flux:+d}")
        e = replace(e, flux=new_flux)
        self.put(e)
        # H6: death save.
        if e.has("Dying") and not e.has("Stable") and not e.dead:
            out["death_save"] = self.death_save(eid)
            events.extend(out["death_save"].get("events", []))
            e = self.entities[eid]
            if e.dead:  # the third failure: the turn it was starting is not taken
                e = replace(e, action_points=0, movement=Fraction(0))
                self.put(e)
        # C2: condition effects held now (after the death save, which may wake).
        if not e.dead:
            e = self.apply_turn_effects(e)
            self.put(e)
        out["remaining"] = remaining(e, self.costs(e))
        return out

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
                                f"{self.by(e, 'movement_factor')} = {_num(mv)} m"
                                + (" (the most a state holds)" if mv == MAX_METRES else ""))
        if eff.no_actions:
            self.log.note("C2", f"{e.id} can take no actions this turn "
                                f"({self.by(e, 'no_actions')})")
        return replace(e, action_points=ap, movement=mv)

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
        e = replace(e, maintained=tuple(kept))
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
                self.put(replace(other, conditions=kept),
                         *[f"condition_ends:{n}" for n in ended])
                self.log.note("P6", f"{idiom} ends: {eid} loses {', '.join(ended)}")
        return self.entities[caster.id]

    def death_save(self, eid: str) -> dict[str, Any]:
        e = self.entities[eid]
        if self.check_only:
            self.log.note("H6", f"{eid} is Dying: death save not rolled (check only)")
            return {"skipped": True}
        new, rep = damage_.roll_death_save(e, self.dice)
        self.log.extend(rep.steps)
        self.put(new, *rep.events)
        return dict(rep.as_dict())

    def end_of_turn(self, eid: str) -> dict[str, Any]:
        """C1: durations tick; conditions whose last turn this was end. P1
        rev. 2: unspent action points are lost (0 left at the end of every
        turn, a dead entity's included)."""
        new = self.entities[eid]
        events: list[str] = []
        if not new.dead:
            new, ended = conditions_.tick_end_of_turn(new,
                                                      self.started_with.get(eid, frozenset()))
            self.log.note("C1", f"end of {eid}'s turn: durations tick"
                          + (f"; {', '.join(ended)} end(s)" if ended else ""))
            events.extend(f"condition_ends:{n}" for n in ended)
        if new.action_points:
            self.log.note("P1", f"{new.action_points} unspent action point(s) are lost: "
                                f"{eid} ends its turn with 0")
            new = replace(new, action_points=0)
        self.put(new, *events)
        return {"events": events}

    # -- steps ------------------------------------------------------------

    def play_step(self, eid: str, st: Mapping[str, Any], index: int) -> dict[str, Any]:
        kind = str(st["kind"])
        if kind not in STEP_KINDS:
            raise InputError(Diagnostic("request", self.where("kind"),
                                        f"unknown step kind {kind!r}"))
        before = self.entities[eid]
        own = st.get("rolls")
        saved = self.dice
        if own is not None:
            self.dice = ScriptedDice(list(own))
        try:
            rec = getattr(self, f"step_{kind}")(eid, st)
            if own is not None:
                self.dice.finish()
        except RulesError as exc:
            if exc.step is not None:
                raise
            details = {"turn": self.turn_index, "step": index, **exc.details}
            message = exc.message.removesuffix(f" [rule {exc.rule}]")
            new = RulesError(exc.rule, f"turn {self.turn_index}, step {index}: {message}",
                             details)
            new.step = index
            raise new from None
        except InputError as exc:
            raise self.placed(exc) from None
        finally:
            step_dice = self.dice
            self.dice = saved
        after = self.entities[eid]
        out: dict[str, Any] = {"step": index, "kind": kind}
        out["action_points"] = before.action_points - after.action_points
        out["movement"] = _num(before.movement - after.movement)
        out.update(rec)
        if own is not None:
            out["rolls_used"] = list(step_dice.used)
        out["remaining"] = remaining(after, self.costs(after))
        return out

    def placed(self, exc: InputError) -> InputError:
        """``exc`` with ``turn T, step S:`` before each message that lacks it,
        so an invalid field of a step names its turn and step as well as its
        field path (located in the turns document by the caller)."""
        tag = f"turn {self.turn_index}, step {self.step_index}: "
        out = InputError([d if d.message.startswith(tag) else
                          Diagnostic(d.place, d.field, tag + d.message)
                          for d in exc.diagnostics])
        out.code = exc.code
        return out

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
        """C2: nothing for the dead, and no actions (or, with ``effect``, no
        movement / no reactions) while a condition forbids them (Stunned,
        Unconscious). Returns the entity's condition effects."""
        if e.dead:
            raise self.illegal("H6", f"{e.id} is dead and cannot {what}", entity=e.id)
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
        return replace(e, action_points=e.action_points - cost)

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
        return replace(e, hands_spent=e.hands_spent + cost)

    def step_move(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        e = self.entities[eid]
        distance = Fraction(str(st["metres"]))
        mode = str(st.get("mode", "walk"))
        terrain = str(st.get("terrain", "normal"))
        eff = self.require_able(e, "move", "no_movement")
        if eff.crawl_only and mode != "crawl":
            raise self.illegal("P3", f"{eid} is {self.by(e, 'crawl_only')} and can only "
                                     f"crawl, not {mode}", mode=mode)
        cost = move_cost(distance, mode, terrain)
        extra = []
        if mode == "crawl":
            extra.append("crawling +1 m per m")
        if terrain == "difficult":
            extra.append("difficult terrain +1 m per m")
        if cost > e.movement:
            raise self.illegal("P2", f"{mode} {_num(distance)} m costs {_num(cost)} m of "
                                     f"movement, {eid} has {_num(e.movement)} m left",
                               needed=_num(cost), left=_num(e.movement))
        if mode == "jump":
            self.require_able(e, "jump")
            e = self.spend_ap(e, COST_CLASSES["quick"], "a jump (quick action, P1 rev. 2)")
        if e.has("Prone"):
            self.log.note("P3", f"{eid} is Prone: crawling is allowed")
        self.log.note("P2", f"{mode} {_num(distance)} m"
                      + (f" ({', '.join(extra)})" if extra else "")
                      + f" costs {_num(cost)} m, {_num(e.movement - cost)} m left")
        self.put(replace(e, movement=e.movement - cost))
        return {"events": [f"moves:{_num(distance)}"], "cost": _num(cost)}

    def step_drop_prone(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        e = self.entities[eid]
        self.require_able(e, "drop prone")
        if e.has("Prone"):
            raise self.illegal("P3", f"{eid} is already Prone")
        self.log.note("P3", f"{eid} drops Prone: no movement, no action point")
        self.put(replace(e, conditions=e.conditions + (Condition("Prone", "dropped prone"),)),
                 "drops_prone")
        return {"events": ["drops_prone"]}

    def step_stand_up(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        e = self.entities[eid]
        self.require_able(e, "stand up")
        if not e.has("Prone"):
            raise self.illegal("P3", f"{eid} is not Prone: nothing to stand up from")
        need = stand_up_cost(e)
        if e.movement_max == 0:
            raise self.illegal("P3", f"{eid} has max movement 0 and cannot stand up",
                               needed=0, left=_num(e.movement), movement_max=0)
        eff = self.effects(e)
        if eff.no_movement:
            names = self.by(e, "no_movement")
            raise self.illegal("C2", f"{eid} cannot move while {names}, so cannot stand up",
                               entity=eid)
        if need > e.movement:
            raise self.illegal("P3", f"standing up costs half of max movement "
                                     f"{_num(e.movement_max)} m = {_num(need)} m, {eid} has "
                                     f"{_num(e.movement)} m left",
                               needed=_num(need), left=_num(e.movement))
        e = self.spend_ap(e, COST_CLASSES["quick"], "standing up (quick action)")
        self.log.note("P3", f"standing up costs {_num(need)} m (half of "
                            f"{_num(e.movement_max)} m), {_num(e.movement - need)} m left")
        kept = tuple(c for c in e.conditions if c.name != "Prone")
        self.put(replace(e, movement=e.movement - need, conditions=kept), "stands_up")
        return {"events": ["stands_up"], "cost": _num(need)}

    def step_action(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        e = self.entities[eid]
        name = str(st["name"])
        cls = st.get("cost")
        if cls is None:
            cls = NAMED_ACTIONS.get(name.casefold().replace(" ", "_").replace("-", "_"))
            if cls is None:
                raise InputError(Diagnostic(
                    "request", f"turns[{self.turn_index - 1}].steps[{self.step_index - 1}].cost"
                    if self.step_index else "cost",
                    f"action {name!r} is not one the rulebook names: give its cost "
                    f"(quick, standard, complex or free)"))
        ap = self.step_ap(st, COST_CLASSES[str(cls)])
        self.require_able(e, name)
        e = self.spend_ap(e, ap, f"{name} ({cls} action)")
        e = self.spend_hands(e, int(st.get("hands", 0)), name)
        self.put(e)
        return {"events": [f"action:{name}"], "name": name, "cost_class": cls}

    def step_hold(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        e = self.entities[eid]
        item = str(st["item"])
        self.require_able(e, f"hold {item}")
        free = hands_free(e, self.costs(e))
        if free < 1:
            raise self.illegal("P5", f"holding {item} takes a Hand point, {eid} has none free",
                               needed=1, left=free)
        ap = self.step_ap(st, 0)
        if ap:
            e = self.spend_ap(e, ap, f"holding {item}")
        self.log.note("P5", f"{eid} holds {item}: one Hand point until dropped, {free - 1} free")
        self.put(replace(e, held_items=e.held_items + (item,)), f"holds:{item}")
        return {"events": [f"holds:{item}"]}

    def step_drop(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        e = self.entities[eid]
        item = str(st["item"])
        self.require_able(e, f"drop {item}")
        if item not in e.held_items:
            raise self.illegal("P5", f"{eid} does not hold {item!r} (holds: "
                                     f"{', '.join(e.held_items) or 'nothing'})",
                               item=item, held=list(e.held_items))
        held = list(e.held_items)
        held.remove(item)
        self.log.note("P1", f"dropping {item} is free (0 action points)")
        self.log.note("P5", f"{eid} drops {item}: its Hand point is free again")
        self.put(replace(e, held_items=tuple(held)), f"drops:{item}")
        return {"events": [f"drops:{item}"]}

    def step_stop_maintaining(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        e = self.entities[eid]
        idiom = str(st["idiom"])
        self.require_able(e, f"stop maintaining {idiom}")
        names = [m.idiom for m in e.maintained]
        if idiom not in names:
            raise self.illegal("P6", f"{eid} does not maintain {idiom!r} (maintains: "
                                     f"{', '.join(names) or 'nothing'})",
                               idiom=idiom, maintained=names)
        i = names.index(idiom)
        self.log.note("P6", f"{eid} stops maintaining {idiom} (free): its effects end")
        e = replace(e, maintained=e.maintained[:i] + e.maintained[i + 1:])
        e = self.end_idiom_effects(e, idiom)
        self.put(e, f"stops_maintaining:{idiom}")
        return {"events": [f"stops_maintaining:{idiom}"]}

    def step_reaction(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        rid = str(st["entity"])
        where = f"turns[{self.turn_index - 1}].steps[{(self.step_index or 1) - 1}].entity"
        r = self.entity(rid, where)
        what = str(st.get("name", "a reaction"))
        self.require_able(r, "react", "no_reactions")
        if not r.reaction_available:
            raise self.illegal("P4", f"{rid} has already taken its reaction this round",
                               entity=rid, needed=1, left=0)
        self.log.note("P4", f"{rid} reacts ({what}) during {eid}'s turn: no reaction until the "
                            f"start of its next turn; the turn continues")
        self.put(replace(r, reaction_available=False), "reaction_spent")
        return {"events": [f"reaction:{rid}"], "entity": rid}

    def step_end_turn(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        e = self.entities[eid]
        self.log.note("P1", f"{eid} ends its turn with {e.action_points} action point(s) left; "
                            "they are lost at the end of the turn")
        return {"events": ["ends_turn"]}

    def step_attack(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        return _attack(self, eid, st)

    def step_cast(self, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
        return _cast(self, eid, st)


def _from_idiom(c: Condition, idiom: str, caster: str) -> bool:
    src = c.source.casefold()
    return src in (idiom.casefold(), f"{caster}:{idiom}".casefold(),
                   f"idiom:{idiom}".casefold())


def _damage_tick(spec: Mapping[str, Any], expr: DiceExpression, where: str) -> Tick:
    """The damage tick of an attack's damage: the one named, else the first
    tick (T1 order) whose range holds the dice's expected value (T3)."""
    if spec.get("tick"):
        return ticks_.get_tick(str(spec["tick"]), healing=False, field=f"{where}.tick")
    found = ticks_.conforming_ticks(expr)
    if not found:
        raise InputError(Diagnostic(
            "request", f"{where}.dice",
            f"no damage tick holds the expected value {expr.expected_value()} of "
            f"{expr.text()}: name the tick (T1, T3)"))
    return found[0]


def refuse_nonlethal(engine: TurnEngine, e: Entity, what: str) -> None:
    """H5 rev. 2: in a turn only a player may declare its damage nonlethal;
    :class:`RulesError` (exit 4, H5, at ``turn T, step S``) for an attack or
    cast by an entity whose ``kind`` is not ``player``."""
    if e.kind != "player":
        raise engine.illegal("H5", f"{e.id} is a {e.kind}, not a player: its {what} may not be "
                                   "nonlethal (only players may spare a foe)",
                             entity=e.id, kind=e.kind)


def _check_attack_inputs(engine: TurnEngine, e: Entity, st: Mapping[str, Any]) -> int:
    """What an attack step's input must satisfy before anything happens:
    the attack ``ability`` and ``damage.ability`` are the entity's
    (:class:`InputError` at the step's field), ``damage.ability`` is
    Potential (T4 rev. 2), a nonlethal attack is a player's (H5 rev. 2).
    Returns the Potential modifier multiplied by the damage tick (0 when
    ``damage.ability`` is absent)."""
    where = engine.where("")
    if st.get("ability") and e.ability(str(st["ability"])) is None:
        raise InputError(Diagnostic("request", where + "ability",
                                    f"{e.id} has no {st['ability']} modifier (D6)"))
    spec = st.get("damage") or {}
    ability = spec.get("ability")
    if ability is not None:
        abilities_.check_multiplied(str(ability), field=where + "damage.ability")
    if spec.get("nonlethal"):
        refuse_nonlethal(engine, e, "attack")
    if not ability:
        return 0
    found = e.ability(str(ability))
    if found is None:
        raise InputError(Diagnostic("request", where + "damage.ability",
                                    f"{e.id} has no {ability} modifier"))
    return found


def _attack(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
    """An attack step (P1: 2 action points unless given): a d20 attack roll
    against the target's ``ac`` (D1-D5, A1-A4; condition advantage and
    disadvantage on attacks, C2), then on a hit the damage roll (T1-T5) applied
    to the target (R1-R3, H1, H4, H5, H7). Only Potential is multiplied by
    the damage tick (T4 rev. 2); only a player's attack may be nonlethal (H5
    rev. 2)."""
    where = engine.where("")
    e = engine.entities[eid]
    engine.require_able(e, "attack")
    tid = str(st["target"])
    engine.entity(tid, where + "target")
    modifier = _check_attack_inputs(engine, e, st)
    e = engine.spend_ap(e, engine.step_ap(st, ATTACK_AP), f"attack on {tid}")
    e = engine.spend_hands(e, int(st.get("hands", 0)), "attack")
    engine.put(e)
    target = engine.entities[tid]
    eff = engine.effects(e)
    req: dict[str, Any] = {
        "kind": "attack", "ac": target.ac, "modifiers": list(st.get("modifiers") or []),
        "advantage": bool(st.get("advantage")) or "attack" in eff.advantage,
        "disadvantage": bool(st.get("disadvantage")) or "attack" in eff.disadvantage,
        "partial_success_hits": bool(st.get("partial_success_hits")),
        "entity": {"abilities": dict(e.abilities)},
    }
    for kind in ("advantage", "disadvantage"):
        if "attack" in getattr(eff, kind):
            engine.log.note("C2", f"{kind} on the attack from {engine.by(e, kind)}")
    if st.get("ability"):
        req["ability"] = st["ability"]
    test = requests_.build_test(req)
    spec = st.get("damage")
    expr = parse_dice(str(spec["dice"]), field=where + "damage.dice") if spec else None
    tick = _damage_tick(spec, expr, where + "damage") if spec and expr else None
    out: dict[str, Any] = {"target": tid}
    if engine.check_only:
        engine.log.note("A1", f"attack on {tid}: not rolled (check only)")
        out["events"] = [f"attacks:{tid}"]
        return out
    result = resolve_test(test, engine.dice)
    engine.log.extend(result.steps)
    roll = result.as_dict()
    roll.pop("rules", None)
    roll.pop("explanation", None)
    out["attack"] = roll
    events = [f"attacks:{tid}", "critical_hit" if result.critical_hit else
              "hit" if result.hit else "critical_miss" if result.critical_miss else "miss"]
    if result.hit and spec and expr is not None and tick is not None:
        amount = damage_.roll_amount(
            expr, tick=tick, ability_modifier=modifier,
            modifiers=requests_.modifiers_from(spec.get("modifiers")),
            critical=bool(result.critical_hit), dice=engine.dice)
        engine.log.extend(amount.steps)
        new, rep = damage_.apply_damage(
            engine.entities[tid], int(amount.amount or 0), damage_type=spec.get("type"),
            critical=bool(result.critical_hit), nonlethal=bool(spec.get("nonlethal")))
        engine.log.extend(rep.steps)
        engine.put(new, *rep.events)
        out["damage"] = amount.as_dict()
        out["target_report"] = rep.as_dict()
        events.extend(f"{tid}:{ev}" for ev in rep.events)
    out["events"] = events
    return out


def _cast(engine: TurnEngine, eid: str, st: Mapping[str, Any]) -> dict[str, Any]:
    """A cast step: the idiom's action points (P1: its own cost, else 3 when
    complex, else 2), its Hand cost (P5; a maintainable idiom keeps those Hand
    points as long as it is maintained, P6), then :func:`flux.resolve_cast`
    (F1-F5, S3 and the effect's tests, damage or healing). With
    ``check_only`` only the cost is settled (:func:`flux.plan_cast`) and the
    Flux spent, maintaining and any overclocking consequence applied; no die
    is rolled."""
    from linguo_cli.core.results import to_plain
    from linguo_cli.rulesets.linguomancy import flux as flux_

    e = engine.entities[eid]
    engine.require_able(e, "cast")
    if st.get("nonlethal"):
        refuse_nonlethal(engine, e, "cast")
    name = str(st["idiom"])
    idiom = engine.idioms.get(name)
    if idiom is None:
        raise engine.illegal("F1", f"unknown idiom {name!r}: not in the idiom catalog "
                                   f"({engine.idioms.name})", idiom=name)
    if "action_points" in st:
        ap = engine.step_ap(st, CAST_AP)
        why = "given by the step"
    elif idiom.own_action_points is not None:
        ap, why = idiom.own_action_points, "the idiom's own cost"
    else:
        ap = COMPLEX_CAST_AP if idiom.complex else CAST_AP
        why = "complex idiom" if idiom.complex else "casting an idiom"
    e = engine.spend_ap(e, ap, f"casting {idiom.name} ({why})")
    hands = idiom.hand_cost
    free = hands_free(e, engine.costs(e))
    if hands > free:
        raise engine.illegal("P5", f"casting {idiom.name} needs {hands} Hand point(s), "
                                   f"{eid} has {free} free", needed=hands, left=free)
    if hands and not idiom.maintainable:  # back at the next start of turn (P5)
        e = engine.spend_hands(e, hands, f"casting {idiom.name}")
    engine.put(e)
    modifiers = requests_.modifiers_from(st.get("modifiers"))
    kwargs: dict[str, Any] = {
        "caster": eid, "idiom": idiom, "upcast": int(st.get("upcast", 0)),
        "overclock": bool(st.get("overclock")),
        "adjectives": list(st.get("adjectives") or ()),
    }
    out: dict[str, Any] = {"idiom": idiom.name}
    if engine.check_only:
        plan = flux_.plan_cast(e, idiom, upcast=kwargs["upcast"],
                               overclock=kwargs["overclock"],
                               adjectives=kwargs["adjectives"], catalog=engine.catalog)
        engine.log.extend(plan.steps)
        e = replace(e, flux=plan.flux_after)
        events = ["casts"]
        check = flux_.check_hands(e, idiom, free)  # P6: maintained only with Hand points left
        engine.log.extend(check.steps)
        if check.maintaining:
            e = replace(e, maintained=e.maintained + (Maintained(idiom.name),))
            events.append("starts_maintaining")
        elif hands and idiom.maintainable:  # not maintained: spent like any cast's (P5)
            e = engine.spend_hands(e, hands, f"casting {idiom.name}")
        if plan.overclocked:
            e, cons = flux_.apply_overclock(e, plan.missing, catalog=engine.catalog,
                                            source=f"overclocking {idiom.name}")
            engine.log.extend(cons.steps)
            events.extend(cons.events)
        engine.log.note("F1", f"{idiom.name}: effect not resolved (check only)")
        engine.put(e, *events)
        out.update(final_cost=plan.final_cost, overclocked=plan.overclocked,
                   missing=plan.missing, events=events)
        return out
    new, result = flux_.resolve_cast(
        dict(engine.entities), targets=list(st.get("targets") or ()), modifiers=modifiers,
        amount_modifiers=requests_.modifiers_from(st.get("amount_modifiers")),
        advantage=bool(st.get("advantage")), disadvantage=bool(st.get("disadvantage")),
        partial_success_hits=bool(st.get("partial_success_hits")),
        nonlethal=bool(st.get("nonlethal")), dice=engine.dice, conditions=engine.catalog,
        hands_free=free, **kwargs)
    engine.log.extend(result.explanation)
    events = []
    for tid, rep in result.entities.items():
        engine.put(new[tid], *rep.events)
        events.extend(ev if tid == eid else f"{tid}:{ev}" for ev in rep.events)
    for tid, ent in new.items():
        engine.entities[tid] = ent
    if hands and idiom.maintainable and not result.maintained \
            and not engine.entities[eid].dead:
        # not maintained (P6): the cast's own Hand points are spent until the next turn;
        # a maintained idiom holds them instead (charged again at each later start, P6)
        engine.put(engine.spend_hands(engine.entities[eid], hands, f"casting {idiom.name}"))
    cast = {k: v for k, v in to_plain(result).items()
            if k not in ("rules", "explanation", "state")}
    out.update(cast=cast, events=events)
    return out


# ---------------------------------------------------------------------------
# Request handler


def resolve_turns(entities: Mapping[str, Entity], turns: Sequence[Mapping[str, Any]],
                  dice: DiceSource, *, idioms: Any = None, conditions: Any = None,
                  check_only: bool = False, round: int = 0,
                  acted_this_round: Sequence[str] = ()
                  ) -> tuple[dict[str, Entity], dict[str, Any]]:
    """Play ``turns`` on ``entities`` (by id, in state order), starting in
    round ``round`` where ``acted_this_round`` have acted (O1 rev. 2).

    Returns the entities after and a report ``{turns, entities, rules,
    explanation, round, acted_this_round}`` (the round of the last turn and
    who acted in it). Raises :class:`RulesError` (exit 4) for the first illegal
    step (``details``: turn, step, needed, left, ...), :class:`InputError`
    for unknown entities/idioms and :class:`~linguo_cli.core.errors.DiceError`
    when a step's own faces do not fit.
    """
    engine = TurnEngine(entities, dice, idioms=idioms, conditions=conditions,
                        check_only=check_only, round=round,
                        acted_this_round=acted_this_round)
    reports = engine.play(turns)
    touched: dict[str, Any] = {}
    for eid, e in engine.entities.items():
        old = engine.before[eid]
        events = engine.entity_events.get(eid, [])
        if e != old or events or any(t["entity"] == eid for t in reports):
            touched[eid] = {"before": old.as_dict(), "after": e.as_dict(), "events": events}
    report = {
        "turns": reports,
        "entities": touched,
        "rules": list(engine.log.rules),
        "explanation": [s.as_dict() for s in engine.log.steps],
        "round": engine.round,
        "acted_this_round": list(engine.acted),
    }
    return engine.entities, report


def round_of(state: Mapping[str, Any], entities: Mapping[str, Entity]) -> tuple[int, list[str]]:
    """The state's ``round`` (absent: 0, no round played yet) and
    ``acted_this_round`` (absent: nobody), O1 rev. 2. :class:`InputError`
    (exit 3, ``state.acted_this_round[i]``) for an id that is not an entity
    of the state or is listed twice."""
    acted = [str(x) for x in state.get("acted_this_round") or ()]
    for i, eid in enumerate(acted):
        where = f"state.acted_this_round[{i}]"
        if eid not in entities:
            known = ", ".join(entities) or "none"
            raise InputError(Diagnostic("request", where, f"no entity with id {eid!r} in the "
                                                          f"state (known: {known})"))
        if eid in acted[:i]:
            raise InputError(Diagnostic("request", where, f"{eid!r} is listed twice"))
    return int(state.get("round", 0)), acted


def resolve_turn_request(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Handler of kind ``turn`` (see ``golden/README.md`` "turn").

    Request: ``{kind: turn, state, turns: [{entity, steps}], rolls?, idioms?,
    conditions?, check?}``. Result: ``{kind, legal, check, turns, state,
    entities, rules, explanation}``; ``state`` carries ``round`` and
    ``acted_this_round`` after the last turn (O1 rev. 2) (``rolls_used`` is added by
    :func:`linguo_cli.rulesets.linguomancy.requests.resolve`).
    """
    entities = {}
    for i, raw in enumerate(request["state"]["entities"]):
        e = Entity.from_dict(raw)
        if e.id in entities:
            raise InputError(Diagnostic("request", f"state.entities[{i}].id",
                                        f"duplicate entity id {e.id!r}"))
        entities[e.id] = e
    idioms = idioms_.catalog_from_request(request.get("idioms"))
    conds = conditions_.catalog_from_request(request.get("conditions"))
    check_only = bool(request.get("check", False))
    round_, acted = round_of(request["state"], entities)
    after, report = resolve_turns(entities, request["turns"], dice, idioms=idioms,
                                  conditions=conds, check_only=check_only, round=round_,
                                  acted_this_round=acted)
    state = {k: v for k, v in request["state"].items() if k != "entities"}
    state["round"] = report["round"]
    state["acted_this_round"] = report["acted_this_round"]
    state["entities"] = [e.as_dict() for e in after.values()]
    return {
        "kind": "turn",
        "legal": True,
        "check": check_only,
        "turns": report["turns"],
        "state": state,
        "entities": report["entities"],
        "rules": report["rules"],
        "explanation": report["explanation"],
    }
