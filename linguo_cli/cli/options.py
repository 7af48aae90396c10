"""Options and helpers shared by every ruleset's commands: dice faces and seeds,
modifiers, JSON/explain, output targets, and running a request.

No ``from __future__ import annotations`` here: Typer reads every command's
signature when the app starts (see :mod:`linguo_cli.cli.app`).
"""

from typing import Annotated, Any

import typer

from linguo_cli.core.errors import InputError, UsageError


def examples(*lines: str, title: str = "") -> str:
    """A help paragraph listing command lines, one per line, as the help shows
    it: Click keeps a paragraph that starts with ``\\b`` as written, so no
    line is reflowed, joined or split at any terminal width and each pastes
    into a shell as it stands. ``title`` defaults to ``Example:`` /
    ``Examples:``. A line may end with a shell comment; ``# exits N`` says
    the example demonstrates a refusal with exit code N
    (tests/cli/test_help_examples.py runs every line and checks its exit)."""
    head = title or ("Example:" if len(lines) == 1 else "Examples:")
    return "\b\n" + head + "".join(f"\n  {line}" for line in lines)


def _name_value(value: Any, option: str) -> Any:
    """A Noun or idiom name given as an option: 1 to 100 characters (the
    request schema's bounds), or a usage error."""
    for v in value if isinstance(value, list) else [value]:
        if v is not None and not 1 <= len(v) <= 100:
            raise typer.BadParameter("must be 1 to 100 characters", param_hint=f"'{option}'")
    return value


def _brief(text: str, limit: int = 60) -> str:
    """An option value as quoted in a diagnostic: at most ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_rolls(text: str | None) -> list[int] | None:
    """``"17,4"`` -> ``[17, 4]``; a bad list is a usage error (exit 2)."""
    if text is None:
        return None
    faces: list[int] = []
    for part in text.replace(" ", "").split(","):
        # ASCII digits only ("²".isdigit() is true) and at most 4 of them, so
        # int() never sees an exotic digit or a 5,000-digit string
        if not (part.isascii() and part.isdigit() and len(part) <= 4) \
                or not 1 <= int(part) <= 1000:
            raise typer.BadParameter(
                f"{_brief(text)!r} is not a comma-separated list of dice faces "
                "(whole numbers 1-1000)",
                param_hint="'--rolls'")
        faces.append(int(part))
    if len(faces) > 100_000:
        raise typer.BadParameter("more than 100000 faces", param_hint="'--rolls'")
    return faces


def parse_mods(items: list[str] | None, option: str = "--mod") -> list[dict[str, Any]]:
    """``["strength=3", "-2"]`` -> modifier dicts; bad items exit 2."""
    out: list[dict[str, Any]] = []
    for item in items or []:
        label, sep, value = item.partition("=")
        if not sep:
            label, value = "modifier", item
        label = label.strip()
        try:
            number = int(value.strip())
        except ValueError:
            number = None
        if number is None or not 1 <= len(label) <= 100 or abs(number) > 1_000_000:
            raise typer.BadParameter(
                f"{item!r} is not LABEL=N or N (e.g. strength=3, bless=+2, -1)",
                param_hint=f"'{option}'")
        out.append({"label": label, "value": number})
    if len(out) > 100:
        raise typer.BadParameter("more than 100 modifiers", param_hint=f"'{option}'")
    return out


def dice_from_options(rolls: str | None, seed: int | None) -> Any:
    """The dice source the options ask for, or ``None`` to use the request's."""
    from linguo_cli.core.dice_sources import ScriptedDice, SeededDice

    faces = parse_rolls(rolls)
    if faces is not None and seed is not None:
        raise UsageError("give --rolls or --seed, not both")
    if faces is not None:
        return ScriptedDice(faces)
    if seed is not None:
        return SeededDice(seed)
    return None


def run_request(request: dict[str, Any], *, name: str, as_json: bool, explain: bool,
                dice: Any = None, document: Any = None, valid_by_options: bool = False) -> None:
    """Validate ``request`` with its ruleset's request schema (the ruleset its
    ``ruleset`` names, default Linguomancy), resolve it and print the result
    with that ruleset's renderer. ``document`` (a loaded file) gives error
    places; an unknown ``ruleset`` is exit 3.

    ``valid_by_options``: the request was built by a one-off command whose
    option parsing already enforces every constraint of the schema (tested:
    tests/linguomancy/test_cli_options_valid.py), so the jsonschema pass, which costs more
    than a third of a one-off ruling's start-up, is skipped."""
    from linguo_cli.core import requests
    from linguo_cli.io.document import Document, to_plain

    doc = document if document is not None else Document(name, request)
    try:
        ruleset = requests.ruleset_of(doc.data)
    except InputError as exc:
        raise _relocated(exc, doc) from None
    if not valid_by_options:
        ruleset.validate(doc)
    plain = with_command_line_options(to_plain(doc.data))
    try:
        result = requests.resolve_typed(plain, dice)
    except InputError as exc:
        raise _relocated(exc, doc) from None
    ruleset.render(result, as_json=as_json, explain=explain)


def _relocated(exc: InputError, doc: Any) -> InputError:
    """``exc`` with its places in ``doc`` (:func:`linguo_cli.io.places.relocated`,
    imported only when a request fails)."""
    from linguo_cli.io.places import relocated

    return relocated(exc, doc)


RollsOpt = Annotated[str | None, typer.Option(
    "--rolls", help="Scripted dice faces in the order they are consumed, e.g. 17,4.")]
SeedOpt = Annotated[int | None, typer.Option(
    "--seed", min=0, max=2**64 - 1, help="Seed for pseudo-random dice (replayable, not portable).")]
#: Where the running command notes that ``--json`` was given (``ctx.meta``), so
#: that cli.app prints a failing command's error object on stdout as JSON too.
JSON_KEY = "linguo.json"


def _keep_json(ctx: typer.Context, value: bool) -> bool:
    """The ``--json`` callback: note the flag in ``ctx.meta`` (:data:`JSON_KEY`)."""
    if value:
        ctx.meta[JSON_KEY] = True
    return value


JsonOpt = Annotated[bool, typer.Option("--json", callback=_keep_json,
                                       help="Print the result as JSON.")]
ExplainOpt = Annotated[bool, typer.Option(
    "--explain", help="Show every derivation step with its rule ID.")]
ModOpt = Annotated[list[str] | None, typer.Option(
    "--mod", help="A modifier LABEL=N or N; repeatable.")]
AdvOpt = Annotated[int, typer.Option("--adv", count=True, show_default=False,
                                     help="Advantage (D2).")]
SaveDcOpt = Annotated[int, typer.Option(
    "--dc", min=-1_000_000, max=1_000_000, help="The save DC.")]
NoAbilityOpt = Annotated[bool, typer.Option(
    "--no-ability", help="No score for the save's ability: automatic failure (S2).")]
CheckDcOpt = Annotated[int, typer.Option(
    "--dc", min=-1_000_000, max=1_000_000, help="The DC to reach.")]
AcOpt = Annotated[int | None, typer.Option(
    "--ac", min=-1_000_000, max=1_000_000, help="The target's AC.")]
NoAcOpt = Annotated[bool, typer.Option(
    "--no-ac", help="The target has no AC: automatic hit, no die (A3).")]
RulingOpt = Annotated[list[str] | None, typer.Option(
    "--ruling", help="Alternative ruling: partial-success-hits (A1).")]
DisOpt = Annotated[int, typer.Option("--dis", count=True, show_default=False,
                                     help="Disadvantage (D2).")]


OutputOpt = Annotated[str | None, typer.Option(
    "-o", "--output", help="Write the updated state to this file (atomically); - for stdout.")]
InPlaceOpt = Annotated[bool, typer.Option(
    "--in-place", help="Write the updated state back into the state file (atomically).")]




# ---------------------------------------------------------------------------
# --option NAME=VALUE: every ruleset command has it (added by cli.app)

#: Where the ``--option`` values of the running command are kept (``ctx.meta``).
OPTION_KEY = "linguo.options"


def option_parameter() -> Any:
    """The ``--option NAME=VALUE`` parameter (repeatable) that cli.app adds to
    every ruleset command: the values are kept in the context for
    :func:`with_command_line_options`, not passed to the command."""
    from typer.core import TyperOption

    def keep(ctx: Any, _param: Any, value: Any) -> None:
        if value:
            ctx.meta[OPTION_KEY] = list(value)

    return TyperOption(param_decls=["--option"], multiple=True, expose_value=False,
                       metavar="NAME=VALUE", callback=keep,
                       help="A named option of the ruleset (repeatable), e.g. "
                       "partial_success_hits=true; wins over the request's and the "
                       "state's options.")


def with_command_line_options(request: dict[str, Any]) -> dict[str, Any]:
    """``request`` with the command line's ``--option`` values over its own
    ``options`` (precedence: command line > request > state > default).
    Raises :class:`~linguo_cli.core.options.OptionError` (exit 3, at
    ``--option``) for an unknown name or value, :class:`UsageError` (exit 2)
    for an item that is not NAME=VALUE."""
    try:  # Typer >= 0.22 ships its own copy of Click
        from typer._click.globals import get_current_context
    except ImportError:  # pragma: no cover - older Typer on top of Click
        from click.globals import (  # type: ignore[no-redef,import-not-found,unused-ignore]
            get_current_context,
        )
    ctx = get_current_context(silent=True)
    items = ctx.meta.get(OPTION_KEY) if ctx is not None else None
    if not items:
        return request
    from linguo_cli.core.requests import ruleset_of

    given = ruleset_of(request).option_table().from_command_line(items)
    own = request.get("options")
    return {**request, "options": {**(own if isinstance(own, dict) else {}), **given}}
