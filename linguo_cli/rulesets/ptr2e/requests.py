"""PTR 2e's one-off request kinds: validation and the ``skill``, ``rush``
and ``move`` handlers (``activation`` and ``priority``: :mod:`.declarations`).

Every handler takes a request valid against its kind's schema
(``schemas/<kind>-request.schema.json``) and a
:class:`~linguo_cli.core.dice.DiceSource` (one d100 per skill test or Rush,
PS2), and returns a JSON-ready dict: the kind's fields, ``rules`` (rule IDs
in first-use order), ``explanation`` (``[{rule, text}]``), ``options`` (the
options in effect that are not at their default) and ``warnings``; the core
adds ``rolls_used``. Refusals carry the rulings' codes
(:mod:`.refusals`): exit 3 for input checks, exit 4 for rules refusals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from linguo_cli.core.dice import DiceSource
from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.io.schema import SchemaSet
from linguo_cli.rulesets.ptr2e import options as ptr_options
from linguo_cli.rulesets.ptr2e.movement import Ledger
from linguo_cli.rulesets.ptr2e.refusals import refuse
from linguo_cli.rulesets.ptr2e.rush import MAX_PP_BOOST, RushRecord, rush, skill_value
from linguo_cli.rulesets.ptr2e.skill import D100, cr_modifier, skill_test

#: The request kinds of this slice, each with its schema file.
KINDS = ("skill", "rush", "move", "activation", "priority", "round", "odds")


# ---------------------------------------------------------------------------
# Validation


@cache
def schemas() -> SchemaSet:
    """PTR 2e's schemas (``schemas/``): each kind's ``<kind>-request``, the
    ``state`` and ``script`` documents of ``linguo ptr2e round`` (which the
    round request refers to by ``$id``) and their ``$ref`` registry."""
    return SchemaSet(resources.files("linguo_cli.rulesets.ptr2e").joinpath("schemas"))


def _validator(kind: str) -> Any:
    return schemas().validator(f"{kind}-request")


class SchemaError(InputError):
    """A request that does not fit its kind's schema (exit 3, refusal code
    ``bad_parameter``, PV1: a key that does not belong, a missing key or a
    value of the wrong kind)."""

    refusal = "bad_parameter"
    rule = "PV1"


def validate_request(document: Any) -> None:
    """Check a loaded request document (``document.data``) against the
    schema of its ``kind``; raises :class:`SchemaError` (exit 3) naming
    every wrong field (``kind`` itself when it is not one of :data:`KINDS`)."""
    data = document.data
    kind = data.get("kind") if isinstance(data, Mapping) else None
    if kind not in KINDS:
        raise SchemaError([Diagnostic(_place(document, ["kind"]), "kind",
                                      f"unknown PTR 2e request kind {kind!r} (known: "
                                      f"{', '.join(KINDS)})")])
    errors = sorted(_validator(str(kind)).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        raise SchemaError([Diagnostic(_place(document, list(e.path)),
                                      ".".join(str(p) for p in e.path), e.message)
                           for e in errors[:50]])


def _place(document: Any, path: list[Any]) -> str:
    """``file:line:col`` of ``path`` in a loaded document (its nearest
    parent when the node is missing); the bare name for a document without
    positions (a request built in memory)."""
    place = getattr(document, "place", None)
    return str(place(path)) if callable(place) else str(document.name)


# ---------------------------------------------------------------------------
# What every result carries


@dataclass(slots=True)
class Trace:
    """A handler's rule IDs (first-use order), explanation and warnings."""

    rules: list[str] = field(default_factory=list)
    explanation: list[dict[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def note(self, rule: str, text: str) -> None:
        """Record that ``rule`` was applied, with one line for ``--explain``."""
        if rule not in self.rules:
            self.rules.append(rule)
        self.explanation.append({"rule": rule, "text": text})

    def result(self, kind: str, values: Mapping[str, Any],
               opts: Mapping[str, Any]) -> dict[str, Any]:
        """The result dict: ``kind``, ``ruleset``, ``values``, then ``rules``,
        ``explanation``, ``options`` (non-default) and ``warnings``."""
        return {"kind": kind, "ruleset": "ptr2e", **values, "rules": list(self.rules),
                "explanation": list(self.explanation),
                "options": ptr_options.non_default(opts), "warnings": list(self.warnings)}


# ---------------------------------------------------------------------------
# skill (PS1-PS5)


def resolve_skill(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """A one-off d100 skill test (PS5): ``value``, ``cr`` (default
    ``combat_cr``, PS4), ``mod`` (default 0), optional ``skill`` name; one
    d100. Result: the PS5 record ``{skill, value, cr, mod, dc, roll,
    success, dos|dof}``. ``cr`` not in PS1: ``bad_parameter`` (exit 3)."""
    opts = ptr_options.effective(request)
    trace = Trace()
    cr = str(request.get("cr", opts["combat_cr"]))
    cr_modifier(cr)
    if "cr" not in request:
        trace.note("PS4", f"no CR given: combat_cr {cr}")
    test = skill_test(int(request["value"]), cr, int(request.get("mod", 0)), dice.roll(D100),
                      skill=request.get("skill"), dos_rule=str(opts["dos"]))
    trace.note("PS1", f"DC = {test.value} {cr_modifier(cr):+d} ({cr})"
               + (f" {test.mod:+d}" if test.mod else "") + f" = {test.dc}")
    trace.note("PS2", f"d100 shows {test.roll}: {'<=' if test.success else '>'} {test.dc}, "
               + ("success" if test.success else "failure"))
    trace.note("PS3", _degree_text(test.dc, test.roll, test.success, test.degree,
                                   str(opts["dos"])))
    trace.note("PS5", test.text())
    return trace.result("skill", test.as_dict(), opts)


def _degree_text(dc: int, roll: int, success: bool, degree: int, dos_rule: str) -> str:
    if not success:
        return f"DoF = floor(({roll} - {dc}) / 10) + 1 = {degree}"
    plus = " + 1" if dos_rule == "plus_one" else ""
    return f"DoS = floor(({dc} - {roll}) / 10){plus} = {degree}"


# ---------------------------------------------------------------------------
# A creature's movement and its Rushes (PM, PR)


@dataclass(slots=True)
class Mover:
    """A creature's ledger for the round, with what its Rushes need:
    ``skills``, ``rush_skills``, ``pp`` (``None``: not tracked, PA5) and the
    types already Rushed (PR4)."""

    ledger: Ledger
    skills: Mapping[str, int]
    rush_skills: Mapping[str, str]
    pp: int | None
    rushed: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, request: Mapping[str, Any], opts: Mapping[str, Any]) -> Mover:
        """The creature a ``rush`` or ``move`` request describes."""
        return cls(Ledger.fresh(request["movement"], str(opts["movement_model"])),
                   request.get("skills", {}), request.get("rush_skills", {}),
                   request.get("pp"))


def check_rush_input(spec: Mapping[str, Any], mover: Mover, opts: Mapping[str, Any],
                     field_: str, type_field: str = "type") -> None:
    """PV4's input checks of one Rush (exit 3): the type
    (``unknown_movement_type``, PR1; at ``field_ + type_field``), the CR (PS1)
    and ``pp_boost`` (only under ``rush_yield: per_two_dos``, 0-6; PR5); the
    last two are ``bad_parameter`` (PV1)."""
    mover.ledger.check_type(str(spec["type"]), f"{field_}{type_field}", rule="PR1")
    if "cr" in spec:
        cr_modifier(str(spec["cr"]), field=f"{field_}cr")
    if "pp_boost" in spec:
        boost = spec["pp_boost"]
        if opts["rush_yield"] != "per_two_dos":
            refuse("bad_parameter", "pp_boost needs rush_yield: per_two_dos (PR5)",
                   field=f"{field_}pp_boost")
        if not 0 <= boost <= MAX_PP_BOOST:
            refuse("bad_parameter", f"pp_boost {boost} is outside 0..{MAX_PP_BOOST} (PR5)",
                   field=f"{field_}pp_boost")


def do_rush(spec: Mapping[str, Any], mover: Mover, opts: Mapping[str, Any], dice: DiceSource,
            trace: Trace, place: str = "", *, boost_paid: bool = False) -> RushRecord:
    """One Rush (PR1-PR5) on ``spec["type"]``: the rule checks (exit 4:
    ``rush_repeated`` PR4, ``rush_no_skill``/``skill_missing`` PR1,
    ``pp_insufficient`` PA5), then one d100, then the bonus added to the
    ledger (PR2, PR3). ``boost_paid``: a delayed Rush resolving, whose
    ``pp_boost`` Power Points were spent at its declaration (PA5, PD4), so
    not spent again."""
    kind = str(spec["type"])
    if opts["rush_limit"] == "once_per_type" and kind in mover.rushed:
        refuse("rush_repeated", f"a second Rush on {kind} this round", place=place)
    skill, value = skill_value(kind, mover.skills, mover.rush_skills,
                               str(opts["rush_skill_table"]), place)
    boost = int(spec.get("pp_boost", 0))
    if boost_paid:
        if boost:
            trace.note("PA5", f"pp_boost {boost} was paid when the Rush was delayed")
    else:
        _spend(mover, boost, place, trace)
    cr = str(spec.get("cr", opts["combat_cr"]))
    record = rush(kind, dice.roll(D100), skill=skill, value=value, cr=cr,
                  mod=int(spec.get("mod", 0)), dos_rule=str(opts["dos"]),
                  rush_yield=str(opts["rush_yield"]), pp_boost=boost)
    if kind in mover.rushed or len(mover.rushed) and opts["rush_limit"] == "none":
        trace.note("PR4", f"another Rush this round: its bonus adds (on {kind})")
    mover.rushed.add(kind)
    mover.ledger.add_rush(kind, record.bonus)
    trace.note("PR3", f"{kind} {mover.ledger.cur(kind)} (H {mover.ledger.highest()}): "
               + _allowance_text(mover.ledger.allowances()))
    _explain_rush(record, cr_defaulted="cr" not in spec, opts=opts, trace=trace)
    return record


def _spend(mover: Mover, boost: int, place: str, trace: Trace) -> None:
    if not boost:
        return
    if mover.pp is None:
        trace.warnings.append(f"pp_untracked: {place or 'rush'}: pp_boost {boost}")
        trace.note("PA5", f"pp_boost {boost}: Power Points not tracked (pp_untracked)")
        return
    if mover.pp < boost:
        refuse("pp_insufficient", f"pp_boost {boost} needs {boost} Power Points, "
               f"{mover.pp} left", place=place, details={"needed": boost, "left": mover.pp})
    trace.note("PA5", f"pp_boost spends {boost} Power Points: {mover.pp} -> {mover.pp - boost}")
    mover.pp -= boost


def _explain_rush(record: RushRecord, *, cr_defaulted: bool, opts: Mapping[str, Any],
                  trace: Trace) -> None:
    t = record.test
    trace.note("PR1", f"Rush {record.type}: tests {t.skill} {t.value}")
    if cr_defaulted:
        trace.note("PS4", f"CR combat_cr: {t.cr}")
    trace.note("PS1", f"DC = {t.value} {t.dc - t.value - t.mod:+d} ({t.cr})"
               + (f" {t.mod:+d}" if t.mod else "") + f" = {t.dc}")
    trace.note("PS2", f"d100 shows {t.roll}: " + ("success" if t.success else "failure"))
    trace.note("PS3", f"roll {t.roll}: " + _degree_text(t.dc, t.roll, t.success, t.degree,
                                                         str(opts["dos"])))
    if opts["rush_yield"] == "per_two_dos":
        trace.note("PR5", f"bonus floor(({t.degree if t.success else 0} + {record.pp_boost})"
                   f" / 2) = {record.bonus}" if t.success else "failure: bonus 0")
    else:
        trace.note("PR2", f"bonus +{record.bonus} to {record.type} until the round ends")


def _ledger_values(mover: Mover) -> dict[str, Any]:
    led = mover.ledger
    return {"scores": {t: led.cur(t) for t in led.scores}, "allowances": led.allowances(),
            "moved": led.moved, "highest": led.highest(), "pp": mover.pp}


# ---------------------------------------------------------------------------
# rush (PR1-PR5)


def resolve_rush(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """One Rush on its own, at the start of a round: the creature
    (``movement``, ``skills``, ``rush_skills``, ``pp``) and the Rush
    (``type``, ``cr``, ``mod``, ``pp_boost``). Result: ``rush`` (the PV5
    record), the ``scores`` and ``allowances`` after it, ``pp``."""
    opts = ptr_options.effective(request)
    mover = Mover.of(request, opts)
    check_rush_input(request, mover, opts, "")
    trace = Trace()
    record = do_rush(request, mover, opts, dice, trace)
    return trace.result("rush", {"rush": record.as_dict(), **_ledger_values(mover)}, opts)


def _allowance_text(allowances: Mapping[str, int]) -> str:
    return "{" + ", ".join(f"{t} {a}" for t, a in allowances.items()) + "}"


# ---------------------------------------------------------------------------
# move (PM1-PM5, PR3)


def resolve_move(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """A creature's movement ledger through one round: ``movement`` scores
    and ``steps``, each ``{move: T, m: d}`` or ``{rush: T, cr?, mod?,
    pp_boost?}``. Every step's input is checked first (exit 3: unknown
    type, bad distance, CR, pp_boost), then the steps are played in order
    (exit 4 at ``step k``: ``move_exceeds_allowance``, Rush refusals).
    Result: per step the allowances after it, then the final ``scores``,
    ``allowances``, ``moved``, ``highest`` (H) and ``rush`` records."""
    opts = ptr_options.effective(request)
    mover = Mover.of(request, opts)
    steps = list(request.get("steps", ()))
    for i, step in enumerate(steps):
        _check_step_input(step, mover, opts, f"steps[{i}].")
    trace = Trace()
    trace.note("PM1", "movement types " + _allowance_text(mover.ledger.scores))
    trace.note("PM4", f"movement_model {opts['movement_model']}; start "
               + _allowance_text(mover.ledger.allowances()))
    if any("move" in step for step in steps):
        trace.note("PM2", "each move is a free action of the creature's own Activation")
    records: list[dict[str, Any]] = []
    rushes: list[dict[str, Any]] = []
    for i, step in enumerate(steps, 1):
        place = f"step {i}"
        if "rush" in step:
            spec = {"type": step["rush"], **{k: v for k, v in step.items() if k != "rush"}}
            record = do_rush(spec, mover, opts, dice, trace, place).as_dict()
            rushes.append(record)
            records.append({"step": i, "rush": step["rush"], "bonus": record["bonus"],
                            "allowances": mover.ledger.allowances()})
            continue
        charged = mover.ledger.move(str(step["move"]), int(step["m"]), place=place,
                                    field_=f"steps[{i - 1}]")
        records.append({"step": i, "move": step["move"], "m": step["m"], "charged": charged,
                        "allowances": mover.ledger.allowances()})
        trace.note("PM3", f"{place}: {step['move']} {step['m']} m charges "
                   f"{', '.join(charged)} -> " + _allowance_text(mover.ledger.allowances()))
    trace.note("PM5", "the ledger lasts the round: every allowance is its score again next round")
    return trace.result("move", {"movement": dict(mover.ledger.scores),
                                 "model": opts["movement_model"], "steps": records,
                                 **_ledger_values(mover), "rush": rushes}, opts)


def _check_step_input(step: Mapping[str, Any], mover: Mover, opts: Mapping[str, Any],
                      field_: str) -> None:
    if "rush" in step:
        spec = {"type": step["rush"], **{k: v for k, v in step.items() if k != "rush"}}
        check_rush_input(spec, mover, opts, field_, "rush")
        return
    mover.ledger.check_type(str(step["move"]), f"{field_}move")
    if int(step["m"]) < 1:
        refuse("bad_distance", f"a distance is a positive whole number of metres, "
               f"not {step['m']}", field=f"{field_}m")
