"""The ``linguo`` command line (Typer): parse options -> build a request ->
:func:`linguo_cli.requests.resolve` -> render.

Thin by design: commands only turn options into the same request documents
``linguo resolve`` reads, so one-off flags and files are resolved by one code
path. Errors become one line on stderr and a documented exit code (see
:mod:`linguo_cli.errors`); no traceback is ever printed. Heavy modules
(jsonschema, Rich, ruamel) are imported inside the commands that need them.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

try:  # Typer >= 0.22 ships its own copy of Click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older Typer on top of Click
    from click.exceptions import ClickException  # type: ignore[no-redef,import-not-found]

from linguo_cli.errors import LinguoError, UsageError

EXIT_CODES_HELP = (
    "Exit codes: 0 resolved; 1 conformance failures (verify); 2 usage error; "
    "3 invalid input; 4 rules violation; 5 internal error."
)


class LinguoGroup(TyperGroup):
    """Typer group that turns every error into one stderr line and an exit code."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (ClickException, typer.Exit, typer.Abort):
            raise
        except LinguoError as exc:
            for line in exc.lines():
                typer.echo(f"linguo: error: {line}", err=True)
            raise typer.Exit(exc.code) from None
        except RecursionError:
            typer.echo("linguo: error: input nested too deeply", err=True)
            raise typer.Exit(3) from None
        except MemoryError:
            typer.echo("linguo: error: input too large to process", err=True)
            raise typer.Exit(3) from None
        except Exception as exc:  # a bug: still one line, never a traceback
            typer.echo(f"linguo: internal error: {type(exc).__name__}: {exc}", err=True)
            raise typer.Exit(5) from None

    def main(self, *args: Any, **kwargs: Any) -> Any:  # noqa: D102
        kwargs["standalone_mode"] = False
        try:
            rv = super().main(*args, **kwargs)
        except ClickException as exc:
            message = " ".join(exc.format_message().split())
            where = f" (see 'linguo {exc.ctx.info_name} --help')" if getattr(
                exc, "ctx", None) is not None and exc.ctx.parent is not None else ""
            typer.echo(f"linguo: usage error: {message}{where}", err=True)
            sys.exit(2)
        except typer.Abort:
            typer.echo("linguo: aborted", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=LinguoGroup,
    name="linguo",
    help=(
        "Reference rules engine for the tabletop RPG Linguomancy.\n\n"
        "Example: linguo check --mod strength=3 --dc 15 --rolls 12\n\n" + EXIT_CODES_HELP
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def main() -> None:
    """Console-script entry point (``linguo``)."""
    app(prog_name="linguo")


# ---------------------------------------------------------------------------
# Option parsing shared by commands


def parse_rolls(text: str | None) -> list[int] | None:
    """``"17,4"`` -> ``[17, 4]``; a bad list is a usage error (exit 2)."""
    if text is None:
        return None
    faces: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part.isdigit() or not 1 <= int(part) <= 1000:
            raise typer.BadParameter(
                f"{text!r} is not a comma-separated list of dice faces (whole numbers 1-1000)",
                param_hint="'--rolls'")
        faces.append(int(part))
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
        if number is None or not label or abs(number) > 1_000_000:
            raise typer.BadParameter(
                f"{item!r} is not LABEL=N or N (e.g. strength=3, bless=+2, -1)",
                param_hint=f"'{option}'")
        out.append({"label": label, "value": number})
    return out


def dice_from_options(rolls: str | None, seed: int | None) -> Any:
    """The dice source the options ask for, or ``None`` to use the request's."""
    from linguo_cli.dice import ScriptedDice, SeededDice

    faces = parse_rolls(rolls)
    if faces is not None and seed is not None:
        raise UsageError("give --rolls or --seed, not both")
    if faces is not None:
        return ScriptedDice(faces)
    if seed is not None:
        return SeededDice(seed)
    return None


def run_request(request: dict[str, Any], *, name: str, as_json: bool, explain: bool,
                dice: Any = None, document: Any = None) -> None:
    """Validate ``request`` against ``schemas/request.schema.json``, resolve it
    and print the result. ``document`` (a loaded file) gives error places."""
    from linguo_cli import render, requests, state_io

    doc = document if document is not None else state_io.Document(name, request)
    state_io.validate(doc, "request")
    plain = state_io.to_plain(doc.data)
    result = requests.resolve(plain, dice)
    render.emit(result, as_json=as_json, explain=explain)


RollsOpt = Annotated[str | None, typer.Option(
    "--rolls", help="Scripted dice faces in the order they are consumed, e.g. 17,4.")]
SeedOpt = Annotated[int | None, typer.Option(
    "--seed", min=0, help="Seed for pseudo-random dice (replayable, not portable).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
ExplainOpt = Annotated[bool, typer.Option(
    "--explain", help="Show every derivation step with its rule ID.")]
ModOpt = Annotated[list[str] | None, typer.Option(
    "--mod", help="A modifier LABEL=N or N; repeatable.")]
AdvOpt = Annotated[int, typer.Option("--adv", count=True, help="Advantage (D2).")]
DisOpt = Annotated[int, typer.Option("--dis", count=True, help="Disadvantage (D2).")]


def _test_request(kind: str, mods: list[str] | None, adv: int, dis: int) -> dict[str, Any]:
    req: dict[str, Any] = {"kind": kind, "modifiers": parse_mods(mods)}
    if adv:
        req["advantage"] = True
    if dis:
        req["disadvantage"] = True
    return req


@app.command(epilog="Example: linguo check --mod strength=3 --mod bless=2 --dc 15 --rolls 12")
def check(
    dc: Annotated[int, typer.Option("--dc", help="The DC to reach.")],
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    noun: Annotated[str | None, typer.Option(
        "--noun", help="A check about a Noun (D7): needs --knows 'Shape - NOUN' or "
        "'Speak - NOUN'.")] = None,
    knows: Annotated[list[str] | None, typer.Option(
        "--knows", help="An idiom the entity knows; repeatable.")] = None,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve an ability check against a DC (rules D1-D7)."""
    req = _test_request("check", mod, adv, dis)
    req["dc"] = dc
    if noun is not None:
        req["noun"] = noun
    if knows:
        req["entity"] = {"idioms": list(knows)}
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed))


@app.command(epilog="Example: linguo attack --mod signature=5 --ac 15 --rolls 18")
def attack(
    ac: Annotated[int | None, typer.Option("--ac", help="The target's AC.")] = None,
    no_ac: Annotated[bool, typer.Option(
        "--no-ac", help="The target has no AC: automatic hit, no die (A3).")] = False,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    ruling: Annotated[list[str] | None, typer.Option(
        "--ruling", help="Alternative ruling: partial-success-hits (A1).")] = None,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve an attack roll against an AC (rules D1-D5, A1-A3)."""
    if (ac is None) == (not no_ac):
        raise UsageError("give exactly one of --ac N or --no-ac")
    req = _test_request("attack", mod, adv, dis)
    req["ac"] = ac
    for r in ruling or []:
        if r != "partial-success-hits":
            raise typer.BadParameter(f"unknown ruling {r!r}; known: partial-success-hits",
                                     param_hint="'--ruling'")
        req["partial_success_hits"] = True
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed))


@app.command(epilog="Example: linguo save --mod constitution=1 --dc 14 --rolls 9")
def save(
    dc: Annotated[int, typer.Option("--dc", help="The save DC.")],
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    no_ability: Annotated[bool, typer.Option(
        "--no-ability", help="No score for the save's ability: automatic failure (S2).")] = False,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve a saving throw against a save DC (rules D1-D5, S1-S2)."""
    req = _test_request("save", mod, adv, dis)
    req["dc"] = dc
    if no_ability:
        req["no_ability"] = True
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed))


@app.command(epilog="Example: linguo resolve examples/check.yaml --json")
def resolve(
    file: Annotated[str, typer.Argument(help="Request document (YAML or JSON); - for stdin.")],
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve a request document of any kind (see schemas/request.schema.json)."""
    from linguo_cli import state_io

    doc = state_io.load(file)
    run_request({}, name=doc.name, as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed), document=doc)


# ---------------------------------------------------------------------------
# Requests that change a state file (damage, heal, cast, turn, ...)

OutputOpt = Annotated[str | None, typer.Option(
    "-o", "--output", help="Write the updated state to this file (atomically).")]
InPlaceOpt = Annotated[bool, typer.Option(
    "--in-place", help="Write the updated state back into the state file (atomically).")]


def load_state(path: str) -> Any:
    """Load and validate a state file (schema + semantic checks, with places)."""
    from linguo_cli import state_io

    doc = state_io.load(path)
    state_io.validate(doc, "state")
    state_io.entities_of(doc)
    return doc


def run_state_request(request: dict[str, Any], state_doc: Any, *, output: str | None,
                      in_place: bool, as_json: bool, explain: bool, dice: Any = None) -> None:
    """Resolve ``request`` on the state of ``state_doc`` and write the new state.

    The request gets the state as its ``state`` field; its handler returns the
    new state under ``result["state"]``. Where the state goes: ``-o FILE`` or
    ``--in-place``: written atomically, the result on stdout; neither: the
    updated state (YAML, comments kept) on stdout and the result on stderr,
    unless ``--json``, where stdout is the JSON result (which holds the state).
    Nothing is written when resolution fails.
    """
    from linguo_cli import render, requests, state_io
    from linguo_cli.model import Entity

    if output and in_place:
        raise UsageError("give -o FILE or --in-place, not both")
    request = dict(request)
    request["state"] = state_io.to_plain(state_doc.data)
    state_io.validate(state_io.Document("<options>", request), "request")
    result = requests.resolve(request, dice)
    before = state_io.entities_of(state_doc)
    after = {d["id"]: Entity.from_dict(d) for d in result["state"]["entities"]}
    state_io.update_entities(state_doc.data, before, after)
    text = state_io.dump_yaml(state_doc.data)
    target = state_doc.name if in_place else output
    if in_place and state_doc.name == "<stdin>":
        raise UsageError("--in-place needs a state file, not stdin")
    if target:
        state_io.atomic_write(target, text)
        render.emit(result, as_json=as_json, explain=explain)
    elif as_json:
        render.emit(result, as_json=True, explain=explain)
    else:
        sys.stdout.write(text)
        render.emit(result, as_json=False, explain=explain, out=sys.stderr)
