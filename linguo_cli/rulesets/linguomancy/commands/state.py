"""Linguomancy's commands on states: ``turn``, ``damage``, ``heal``, ``temp-hp``,
``death-save`` and ``rest``.

No ``from __future__ import annotations`` here: Typer reads every command's
signature when the app starts (see :mod:`linguo_cli.cli.app`).
"""

import sys
from typing import Annotated, Any

import typer

from linguo_cli.cli.options import (
    ExplainOpt,
    InPlaceOpt,
    JsonOpt,
    OutputOpt,
    RollsOpt,
    SeedOpt,
    dice_from_options,
    examples,
    parse_mods,
    run_request,
    with_command_line_options,
)
from linguo_cli.core.errors import InputError, UsageError

commands = typer.Typer()


def _catalog_entries(kind: str, path: str | None) -> list[dict[str, Any]] | None:
    """Load an idiom or condition catalog file (checked with places in that
    file) as the entries a request inlines; ``None`` without a file."""
    if path is None:
        return None
    from linguo_cli.io.read import load

    doc = load(path)
    if kind == "idioms":
        from linguo_cli.rulesets.linguomancy import idioms as idioms_mod

        return idioms_mod.load_catalog(doc.data, name=doc.name, document=doc).as_list()
    from linguo_cli.rulesets.linguomancy import conditions as conditions_mod

    return conditions_mod.load_catalog(doc.data, name=doc.name, document=doc).as_list()


IdiomsOpt = Annotated[str | None, typer.Option(
    "--idioms", help="Idiom catalog file used instead of the defaults (see examples/idioms.yaml).")]
ConditionsOpt = Annotated[str | None, typer.Option(
    "--conditions", help="Condition catalog file (C2) used instead of the defaults.")]


# ---------------------------------------------------------------------------
# Requests that change a state file (damage, heal, cast, turn, ...)

def load_state(path: str) -> Any:
    """Load and validate a state file (schema + semantic checks, with places):
    a checked state document, whose entities the checks keep
    (:func:`~linguo_cli.rulesets.linguomancy.state.checked_entities`)."""
    from linguo_cli.io.read import load
    from linguo_cli.rulesets.linguomancy.state import SCHEMAS

    doc = load(path, lock=True)  # held until the command ends (no interleaving)
    SCHEMAS.validate(doc, "state")
    return doc


def validate_with_checked_state(request: dict[str, Any]) -> None:
    """``SCHEMAS.validate(Document("<options>", request), "request")`` for a
    request whose ``state`` will be a state document already checked
    (:func:`load_state`): the request is checked with the smallest valid
    state in its place, so the state is not checked twice in one command.
    The same errors either way: every request kind taking a state refers to
    the state schema for it (``$ref: urn:linguo:state``) and has no keyword
    on the whole request whose message would show the state (a test keeps
    both true). Raises :class:`InputError` (exit 3), places ``<options>``."""
    from linguo_cli.io.document import Document
    from linguo_cli.rulesets.linguomancy.state import SCHEMAS

    SCHEMAS.validate(Document("<options>", {**request, "state": {"entities": []}}), "request")


def run_state_request(request: dict[str, Any], state_doc: Any, *, output: str | None,
                      in_place: bool, as_json: bool, explain: bool, dice: Any = None,
                      request_doc: Any = None, table: bool = False,
                      on_result: Any = None) -> None:
    """Resolve ``request`` on the state of ``state_doc`` and write the new state.

    The request gets the state as its ``state`` field; its handler returns the
    new state under ``result["state"]``. Where the state goes: ``-o FILE`` or
    ``--in-place``: written atomically, the result on stdout; neither: the
    updated state (YAML, comments kept) on stdout and the result on stderr,
    unless ``--json``, where stdout is the JSON result (which holds the state).
    Nothing is written when resolution fails. ``request_doc``: the document
    the request's fields were read from (places of invalid fields), default
    the options. ``table``: a turn result as tables (text view only).
    ``on_result``: called with the result before anything is
    written (``turn --report``).
    """
    from linguo_cli.core import requests
    from linguo_cli.io.document import Document, to_plain
    from linguo_cli.io.places import locate_errors
    from linguo_cli.io.write import atomic_write, dump_document
    from linguo_cli.rulesets.linguomancy import render
    from linguo_cli.rulesets.linguomancy.state import checked_entities, update_entities

    if output and in_place:
        raise UsageError("give -o FILE or --in-place, not both")
    request = with_command_line_options(dict(request))
    validate_with_checked_state(request)
    request["state"] = to_plain(state_doc.data)
    try:
        result = requests.resolve_typed(request, dice)
    except InputError as exc:
        raise locate_errors(
            exc, request_doc or Document("<options>", request), state_doc) from None
    if on_result is not None:
        on_result(result)
    before = checked_entities(state_doc)
    after, new_state = _state_after(result)
    update_entities(state_doc, before, after)  # the document: comments kept
    update_round(state_doc, new_state)
    text = dump_document(state_doc)
    target = state_doc.name if in_place else (None if output == "-" else output)
    if in_place and state_doc.name == "<stdin>":
        raise UsageError("--in-place needs a state file, not stdin")
    if target:
        atomic_write(target, text)
        render.emit(result, as_json=as_json, explain=explain, table=table)
    elif as_json:
        render.emit(result, as_json=True, explain=explain)
    else:
        sys.stdout.write(text)
        render.emit(result, as_json=False, explain=explain, out=sys.stderr, table=table)


def _state_after(result: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The entities (by id) of a result's state after, and that state's JSON
    fields other than its entities (``round``, ``acted_this_round``...): a
    typed state holding its entities (a turn's) gives them as they are,
    any other state its JSON ``entities`` read back."""
    from linguo_cli.core.results import to_plain as plain_result
    from linguo_cli.rulesets.linguomancy.model import Entity

    state = result["state"] if isinstance(result, dict) else result.state
    entities = getattr(state, "entities", None)
    if isinstance(entities, tuple) and hasattr(state, "acted_this_round") \
            and all(type(e) is Entity for e in entities):
        rounds = {"round": state.round, "acted_this_round": list(state.acted_this_round)}
        return {e.id: e for e in entities}, rounds
    plain = state if isinstance(state, dict) else plain_result(state)
    return ({d["id"]: Entity.from_dict(d) for d in plain["entities"]},
            {k: v for k, v in plain.items() if k != "entities"})


# ---------------------------------------------------------------------------
# linguo turn (whole turns, O1 and P1-P6)


def update_round(state_doc: Any, new_state: dict[str, Any]) -> None:
    """Write the round fields of ``new_state`` (``round``, ``acted_this_round``,
    O1) into ``state_doc`` where they differ: its
    plain tree (the tree as read is kept, so that writing it back edits only
    these values; a new key is written before ``entities``). Fields
    ``new_state`` lacks are left alone."""
    if hasattr(state_doc, "snapshot"):
        state_doc.snapshot()
    for key in ("round", "acted_this_round"):
        if key in new_state and new_state[key] != state_doc.data.get(key):
            state_doc.data[key] = new_state[key]


def _load_turns(path: str) -> tuple[Any, dict[str, Any]]:
    """Load a turns document (``turns`` and optionally ``rolls``) and check it
    against the turn request schema, with places in that file."""
    from linguo_cli.core.errors import Diagnostic, InputError
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import load
    from linguo_cli.rulesets.linguomancy.state import SCHEMAS

    doc = load(path)
    if not isinstance(doc.data, dict):
        raise InputError(Diagnostic(doc.name, "", "a turns document is a mapping with 'turns'"))
    extra = [k for k in ("kind", "state") if k not in doc.data]
    if "kind" in extra:
        doc.data["kind"] = "turn"
    if "state" in extra:
        doc.data["state"] = {"entities": []}
    try:
        SCHEMAS.validate(doc, "turn-request")
    finally:
        for k in extra:
            del doc.data[k]
    return doc, to_plain(doc.data)


@commands.command(short_help="Play whole turns from a state file (O1, P1-P6, C1-C2).",
                  epilog=examples(
    "linguo turn examples/encounter/state.yaml examples/encounter/turns.yaml"))
def turn(
    state: Annotated[str, typer.Argument(help="State file (YAML or JSON).")],
    turns: Annotated[str, typer.Argument(
        help="Turns document: 'turns: [{entity, steps}]' and optionally 'rolls'; - for stdin.")],
    check: Annotated[bool, typer.Option(
        "--check", help="Only check that every step is legal: no die is rolled, nothing "
        "is written. Costs, Flux and overclocking are followed; outcomes that need dice "
        "(hits, damage, healing, saves, death saves) are not, so a later step that relies "
        "on one (e.g. standing up after being healed) may be refused.")] = False,
    output: OutputOpt = None,
    in_place: InPlaceOpt = False,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    idioms: Annotated[str | None, typer.Option(
        "--idioms", help="Idiom catalog file used instead of the defaults.")] = None,
    conditions: Annotated[str | None, typer.Option(
        "--conditions", help="Condition catalog file (C2) used instead of the defaults.")
    ] = None,
    table: Annotated[bool, typer.Option(
        "--table", help="Show one table per turn (costs, what is left, HP, events) instead "
        "of the narrative log.")] = False,
    report: Annotated[str | None, typer.Option(
        "--report", metavar="FILE", help="Also write the fight as one self-contained HTML "
        "page: HP, temporary HP and Flux per turn as a plot, every step with its dice and "
        "rule IDs. Written before the state; not with --check; - is refused.")] = None,
) -> None:
    """Play whole turns from a state file and a list of steps (rules O1, P1-P6, C1-C2).

    Every step must be legal; the first illegal one exits 4 naming the step,
    the rule and the numbers, and no file is written. The text view is a
    narrative log (round by round, each step's dice, totals and HP), or
    tables with --table; it fits the terminal's width (80 when not a terminal,
    COLUMNS=N sets it).
    """
    from linguo_cli.core import requests
    from linguo_cli.core.dice import ScriptedDice
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.places import locate_errors
    from linguo_cli.io.read import load
    from linguo_cli.rulesets.linguomancy import render

    state_doc = load_state(state)
    turns_doc, doc = _load_turns(turns)
    request: dict[str, Any] = {"kind": "turn", "turns": doc["turns"]}
    if "rolls" in doc:
        request["rolls"] = doc["rolls"]
    if "seed" in doc:
        request["seed"] = doc["seed"]
    if idioms is not None:
        from linguo_cli.rulesets.linguomancy import idioms as idioms_mod

        cat_doc = load(idioms)
        request["idioms"] = idioms_mod.load_catalog(
            cat_doc.data, name=cat_doc.name, document=cat_doc).as_list()
    if conditions is not None:
        from linguo_cli.rulesets.linguomancy import conditions as conditions_mod

        cat_doc = load(conditions)
        request["conditions"] = conditions_mod.load_catalog(
            cat_doc.data, name=cat_doc.name, document=cat_doc).as_list()
    dice = dice_from_options(rolls, seed)
    if report is not None:
        from linguo_cli.rulesets.linguomancy import report_html

        report_html.check_path(report, check=check, inputs=(state, turns, output))
    if check:  # no die is rolled: --rolls/--seed and the document's rolls are not used
        if output or in_place:
            raise UsageError("--check writes nothing: drop -o/--in-place")
        request["check"] = True
        request.pop("rolls", None)
        request.pop("seed", None)
        validate_with_checked_state(request)
        request["state"] = to_plain(state_doc.data)
        try:
            result = requests.resolve_typed(request, ScriptedDice([]))
        except InputError as exc:
            raise locate_errors(exc, turns_doc, state_doc) from None
        render.emit(result, as_json=json_, explain=explain, table=table)
        return
    run_state_request(request, state_doc, output=output, in_place=in_place, as_json=json_,
                      explain=explain, dice=dice, request_doc=turns_doc, table=table,
                      on_result=None if report is None else report_html.writer(report))


# ---------------------------------------------------------------------------
# Damage, healing, temporary HP, death saves (rules T1-T7, R1-R3, H1-H8)

StateOpt = Annotated[str | None, typer.Option(
    "--state", help="State file (YAML or JSON) holding the targets; the updated state goes to "
    "stdout, -o FILE or --in-place.")]
TargetOpt = Annotated[list[str] | None, typer.Option(
    "--target", help="Id of an entity of the state to apply it to; repeatable (one shared "
    "roll, T6).")]
AllowNonconformingOpt = Annotated[bool, typer.Option(
    "--allow-nonconforming", help="Accept dice outside the tick's range with a warning "
    "instead of refusing (T3).")]


def _amount_request(kind: str, ability: str, dice: str | None, tick: str,
                    mods: list[str] | None, allow_nonconforming: bool) -> dict[str, Any]:
    """Request fields shared by ``damage`` and ``heal``: the ``ability`` label of
    ``--mod`` becomes the multiplied modifier, other labels flat modifiers."""
    req: dict[str, Any] = {"kind": kind,
                           "tick": tick.strip().lower().replace(" ", "_").replace("-", "_")}
    if dice is not None:
        req["dice"] = dice
    flat = []
    for m in parse_mods(mods):
        if m["label"].lower() == ability:
            if ability in req:
                raise UsageError(f"--mod {ability}=N given twice")
            req[ability] = m["value"]
        else:
            flat.append(m)
    req["modifiers"] = flat
    if allow_nonconforming:
        req["allow_nonconforming"] = True
    return req


def _run_amount(req: dict[str, Any], *, state: str | None, targets: list[str] | None,
                output: str | None, in_place: bool, json_: bool, explain: bool,
                rolls: str | None, seed: int | None) -> None:
    dice = dice_from_options(rolls, seed)
    if state is None:
        if targets:
            raise UsageError("--target needs --state FILE")
        if output or in_place:
            raise UsageError("-o/--in-place need --state FILE")
        run_request(req, name="<options>", as_json=json_, explain=explain, dice=dice)
        return
    if not targets:
        raise UsageError("--state needs at least one --target ID")
    req["targets"] = list(targets)
    run_state_request(req, load_state(state), output=output, in_place=in_place,
                      as_json=json_, explain=explain, dice=dice)


@commands.command(short_help="Roll damage (T1-T6) and apply it to a state's targets.",
                  epilog=examples(
    "linguo damage --tick strong --dice 4d6 --mod potential=2 --crit --rolls 3,3,4,6,1,2,5,6",
    "linguo damage --tick low --dice 2d6 --type fire --state examples/state.yaml "
    "--target goblin -o after.yaml",
    "linguo damage --tick low --dice 3d6   # exits 4: 21/2 is not Low (T3)"))
def damage(
    tick: Annotated[str, typer.Option("--tick", help="Damage tick (T1): none, tiny, low, "
                                      "moderate, strong, high, major, severe, huge, massive, "
                                      "extreme, ultimate.")],
    dice: Annotated[str | None, typer.Option(
        "--dice", help="Dice notation, e.g. 4d6, 2d6+1, 4d6kh3 (its expected value must lie "
        "in the tick's range, T3).")] = None,
    mod: Annotated[list[str] | None, typer.Option(
        "--mod", help="potential=N (multiplied by the tick's multiplier, T4) or LABEL=N "
        "(flat); repeatable.")] = None,
    crit: Annotated[bool, typer.Option(
        "--crit", help="Critical hit: each dice term rolled again as its own group, modifiers "
        "not doubled (T5).")] = False,
    type_: Annotated[str | None, typer.Option(
        "--type", help="Damage type, e.g. fire (resistance, vulnerability, immunity: R1-R3).")
    ] = None,
    nonlethal: Annotated[bool, typer.Option(
        "--nonlethal", help="Nonlethal damage (H5, the GM's call): it never kills nor adds "
        "death-save failures; where it would, the target stays at 0 HP, Unconscious and "
        "Stable.")] = False,
    allow_nonconforming: AllowNonconformingOpt = False,
    state: StateOpt = None,
    target: TargetOpt = None,
    output: OutputOpt = None,
    in_place: InPlaceOpt = False,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Roll damage (T1-T6); with --state/--target apply it (R1-R3, H1, H4, H5, H7).

    Without a state it prints the amount and its derivation.
    """
    req = _amount_request("damage", "potential", dice, tick, mod, allow_nonconforming)
    if crit:
        req["critical"] = True
    if type_ is not None:
        req["damage_type"] = type_.strip().lower()
    if nonlethal:
        req["nonlethal"] = True
    _run_amount(req, state=state, targets=target, output=output, in_place=in_place,
                json_=json_, explain=explain, rolls=rolls, seed=seed)


@commands.command(short_help="Roll healing (T2, T3, T7) and apply it to a state (H3, H8).",
                  epilog=examples(
    "linguo heal --tick moderate --dice 2d8 --mod cohesion=1 --rolls 5,6",
    "linguo heal --tick complete --state examples/state.yaml --target ayla -o new.yaml"))
def heal(
    tick: Annotated[str, typer.Option("--tick", help="Healing tick (T2): none, tiny, low, "
                                      "moderate, strong, small_mending, greater_mending, "
                                      "small_regrowth, greater_regrowth, multiple_regrowth, "
                                      "complete, resurrection.")],
    dice: Annotated[str | None, typer.Option(
        "--dice", help="Dice notation (none for complete; resurrection: dice or --amount).")
    ] = None,
    mod: Annotated[list[str] | None, typer.Option(
        "--mod", help="cohesion=N (multiplied by the tick's multiplier, T7) or LABEL=N "
        "(flat); repeatable.")] = None,
    amount: Annotated[int | None, typer.Option(
        "--amount", min=1, help="Resurrection: the HP its effect gives.")] = None,
    allow_nonconforming: AllowNonconformingOpt = False,
    state: StateOpt = None,
    target: TargetOpt = None,
    output: OutputOpt = None,
    in_place: InPlaceOpt = False,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Roll healing (T2, T3, T7); with --state/--target apply it (H3, H8).

    Healing never exceeds max HP, never restores temporary HP and does nothing
    to the dead (tick resurrection brings them back).
    """
    req = _amount_request("heal", "cohesion", dice, tick, mod, allow_nonconforming)
    if amount is not None:
        req["amount"] = amount
    _run_amount(req, state=state, targets=target, output=output, in_place=in_place,
                json_=json_, explain=explain, rolls=rolls, seed=seed)


@commands.command("temp-hp", epilog=examples(
    "linguo temp-hp examples/state.yaml --target ayla --amount 20 --keep new -o after.yaml"))
def temp_hp(
    state: Annotated[str, typer.Argument(help="State file (YAML or JSON).")],
    target: Annotated[list[str], typer.Option(
        "--target", help="Id of an entity of the state; repeatable.")],
    amount: Annotated[int, typer.Option("--amount", min=0, max=1_000_000,
                                        help="Temporary HP granted.")],
    keep: Annotated[str | None, typer.Option(
        "--keep", help="With temporary HP left: old or new (default: the larger, H2).")
    ] = None,
    output: OutputOpt = None,
    in_place: InPlaceOpt = False,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Grant temporary HP: one set only, never the sum (H2, H3)."""
    if keep is not None and keep not in ("old", "new", "larger"):
        raise typer.BadParameter(f"{keep!r} is not old or new", param_hint="'--keep'")
    req: dict[str, Any] = {"kind": "temp_hp", "targets": list(target), "amount": amount,
                           "keep": keep or "larger"}
    run_state_request(req, load_state(state), output=output, in_place=in_place,
                      as_json=json_, explain=explain)


@commands.command("death-save", short_help="Roll one death saving throw for a Dying entity (H6).",
                  epilog=examples(
    "linguo death-save examples/state.yaml --entity bram --rolls 12 -o after.yaml",
    "linguo death-save examples/state.yaml --entity ayla --rolls 12   # exits 4: not Dying (H6)"))
def death_save(
    state: Annotated[str, typer.Argument(help="State file (YAML or JSON).")],
    entity: Annotated[str, typer.Option("--entity", help="Id of the Dying entity.")],
    output: OutputOpt = None,
    in_place: InPlaceOpt = False,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Roll one death saving throw for a Dying entity (H6): d20, 10+ succeeds."""
    req: dict[str, Any] = {"kind": "death_save", "entity": entity}
    run_state_request(req, load_state(state), output=output, in_place=in_place,
                      as_json=json_, explain=explain, dice=dice_from_options(rolls, seed))


# ---------------------------------------------------------------------------
# linguo rest (rule H9, with C2)


def parse_amounts(items: list[str] | None, option: str) -> dict[str, int]:
    """``["ayla=5", "bram=2"]`` -> ``{"ayla": 5, "bram": 2}`` (whole numbers
    0 to 1,000,000); a malformed item or an id given twice is a usage error
    (exit 2). Whether each id is in the state is checked later (exit 3)."""
    out: dict[str, int] = {}
    for item in items or []:
        eid, sep, value = item.partition("=")
        eid, value = eid.strip(), value.strip()
        if (not sep or not eid or not (value.isascii() and value.isdigit())
                or len(value) > 7 or int(value) > 1_000_000):
            raise typer.BadParameter(
                f"{item!r} is not ID=N with N a whole number 0-1000000 (e.g. ayla=5)",
                param_hint=f"'{option}'")
        if eid in out:
            raise typer.BadParameter(f"{eid!r} given twice", param_hint=f"'{option}'")
        out[eid] = int(value)
    return out


@commands.command(short_help="Rest outside turns: HP, Flux, Exhaustion, conditions (H9).",
                  epilog=examples(
    "linguo rest examples/state.yaml --long --hp ayla=6 -o rested.yaml"))
def rest(
    state: Annotated[str, typer.Argument(help="State file (YAML or JSON); - for stdin.")],
    long: Annotated[bool, typer.Option(
        "--long", help="A long rest: temporary HP end, and the conditions the catalog ends on "
        "a long rest (default: Drained, Lethargic, Stunned, Prone, Unconscious not from "
        "0 HP). Default: a short rest, which changes only what the options say.")] = False,
    entity: Annotated[list[str] | None, typer.Option(
        "--entity", help="Id of an entity that rests; repeatable. Default: every entity that "
        "can rest (the dead, Dying and Stable at 0 HP are skipped and listed).")] = None,
    hp: Annotated[list[str] | None, typer.Option(
        "--hp", metavar="ID=N", help="HP the entity regains, capped at max HP; repeatable.")
    ] = None,
    flux: Annotated[list[str] | None, typer.Option(
        "--flux", metavar="ID=N", help="Flux the entity regains, capped at flux_max; "
        "repeatable.")] = None,
    exhaustion: Annotated[list[str] | None, typer.Option(
        "--exhaustion", metavar="ID=N", help="Exhaustion tiers removed, never below 0; "
        "repeatable.")] = None,
    conditions: ConditionsOpt = None,
    output: OutputOpt = None,
    in_place: InPlaceOpt = False,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Rest outside turns (H9): HP, Flux and Exhaustion as the options say; a long
    rest also ends temporary HP and the conditions the catalog says (C2).

    A dead, Dying or Stable-at-0-HP entity cannot rest: naming one (--entity,
    --hp, --flux, --exhaustion) exits 4 and writes nothing. AP, movement,
    reaction and Hand points are not touched (they are set at the next start
    of turn). No die is rolled.
    """
    req: dict[str, Any] = {"kind": "rest"}
    if long:
        req["long"] = True
    if entity:
        req["entities"] = list(entity)
    for key, items, option in (("hp", hp, "--hp"), ("flux", flux, "--flux"),
                               ("exhaustion", exhaustion, "--exhaustion")):
        amounts = parse_amounts(items, option)
        if amounts:
            req[key] = amounts
    entries = _catalog_entries("conditions", conditions)
    if entries is not None:
        req["conditions"] = entries
    run_state_request(req, load_state(state), output=output, in_place=in_place,
                      as_json=json_, explain=explain)
