"""The ``linguo`` command line (Typer): parse options -> build a request ->
:func:`linguo_cli.requests.resolve` -> render.

Thin by design: commands only turn options into the same request documents
``linguo resolve`` reads, so one-off flags and files are resolved by one code
path. Errors become one line on stderr and a documented exit code (see
:mod:`linguo_cli.errors`); no traceback is ever printed. Heavy modules
(jsonschema, Rich, ruamel) are imported inside the commands that need them.

No ``from __future__ import annotations`` here: Typer reads every command's
signature when the app starts, and string annotations would make it ``eval``
hundreds of them (~80 ms of every one-off command). Annotations in this
module must therefore name things defined at import time.
"""

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

try:  # Typer >= 0.22 ships its own copy of Click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older Typer on top of Click
    from click.exceptions import ClickException  # type: ignore[no-redef,import-not-found]

from linguo_cli.errors import InputError, LinguoError, UsageError, one_line

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
            prefix = "linguo: usage error:" if exc.code == 2 else "linguo: error:"
            for line in exc.lines():
                typer.echo(f"{prefix} {one_line(line)}", err=True)
            _json_error(ctx, exc)
            raise typer.Exit(exc.code) from None
        except BrokenPipeError:
            raise  # the reader has gone: main() ends quietly, as a SIGPIPE would
        except OSError as exc:
            if exc.filename is not None:  # a file operation the command did not handle: a bug
                typer.echo(f"linguo: internal error: {type(exc).__name__}: {exc}", err=True)
                raise typer.Exit(5) from None
            _output_failed(exc)
        except RecursionError:
            typer.echo("linguo: error: input nested too deeply", err=True)
            raise typer.Exit(3) from None
        except MemoryError:
            typer.echo("linguo: error: input too large to process", err=True)
            raise typer.Exit(3) from None
        except Exception as exc:  # a bug: still one line, never a traceback
            typer.echo(f"linguo: internal error: {type(exc).__name__}: {exc}", err=True)
            raise typer.Exit(5) from None
        finally:  # state-file locks (state_io.FileLock) end with the command
            from linguo_cli import state_io

            state_io.release_locks()

    argv: list[str] = []

    def main(self, *args: Any, **kwargs: Any) -> Any:  # noqa: D102
        kwargs["standalone_mode"] = False
        given = kwargs.get("args", args[0] if args else None)
        self.argv = [str(a) for a in (sys.argv[1:] if given is None else given)]
        try:
            rv = super().main(*args, **kwargs)
        except ClickException as exc:
            ctx: Any = getattr(exc, "ctx", None)  # usage errors carry their context
            if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
                typer.echo(ctx.get_help())  # bare `linguo` (or a bare group): its help
                sys.exit(0)
            message = one_line(" ".join(exc.format_message().split()))
            where = (f" (see '{ctx.command_path} --help')"
                     if ctx is not None and ctx.parent is not None else "")
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


def _json_error(ctx: Any, exc: LinguoError) -> None:
    """With ``--json`` on the command line, a failing command also prints the
    error object ``{"error": {"exit", "code", "rule", "place", "message"}}``
    on stdout (golden/README.md, "Errors"), the batch adapter's error reply."""
    import json

    args = getattr(ctx.command, "argv", [])
    if "--json" not in args or exc.code not in (3, 4):
        return
    from linguo_cli.error_object import error_object

    typer.echo(json.dumps({"error": error_object(exc)}, ensure_ascii=False))


def _output_failed(exc: OSError) -> None:
    """Standard output could not take the result (closed, a full device, a file
    size limit): one line on stderr and exit 2, never a half-silent exit 0."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    try:
        sys.stderr.write(f"linguo: error: cannot write the output: {reason}\n")
        sys.stderr.flush()
    except (OSError, AttributeError, ValueError):  # stderr gone too: the exit code says it
        pass
    _discard_stdout()
    raise SystemExit(2)


def _discard_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so that what is still buffered
    for stdout cannot fail again when the interpreter exits."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


class _ClosedStream:
    """Stands for a standard stream that was closed before linguo started
    (``>&-``): writing to it fails like writing to a closed descriptor."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, _text: str) -> int:
        raise OSError(9, "standard output is closed")

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(9, "standard output is closed")

    @property
    def buffer(self) -> "_ClosedStream":
        return self


def _whole_writes(stream: Any) -> Any:
    """``stream`` (standard output) rebuilt on a raw writer that writes every
    byte or raises: Python's own accepts a short write (a file size limit,
    ``ulimit -f``) and drops the rest silently, which would cut a result short
    with exit 0. Streams without a file descriptor are returned unchanged."""
    import io
    import os

    try:
        fd: int = int(stream.fileno())
    except (OSError, AttributeError, ValueError):
        return stream

    class _WholeWriter(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def fileno(self) -> int:
            return fd

        def isatty(self) -> bool:
            return os.isatty(fd)

        def write(self, data: Any) -> int:
            view = memoryview(data).cast("B")
            done = 0
            while done < len(view):  # a short write is retried; the retry reports the error
                done += os.write(fd, view[done:])
            return done

    try:
        stream.flush()
    except OSError:
        return stream
    return io.TextIOWrapper(io.BufferedWriter(_WholeWriter()), encoding=stream.encoding,
                            errors=stream.errors, line_buffering=stream.line_buffering)


def _end_quietly_on_broken_pipe() -> None:
    """The reader of our output has gone (``linguo ... | head -1``): end at
    once with 141 (128 + SIGPIPE), as a program killed by SIGPIPE would, with
    no message; stdout is pointed at /dev/null so the exit flush cannot fail."""
    _discard_stdout()
    raise SystemExit(141)


def main() -> None:
    """Console-script entry point (``linguo``).

    Exit codes are those of :mod:`linguo_cli.errors`; in addition a closed or
    full standard output is exit 2 (one line on stderr) and a reader that went
    away (a broken pipe) ends the run quietly with 141.
    """
    import signal

    if hasattr(signal, "SIGXFSZ"):  # a file size limit (ulimit -f): a failed write, not a kill
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    if sys.stdout is None:
        sys.stdout = _ClosedStream()
    else:
        sys.stdout = _whole_writes(sys.stdout)
    code: Any = 0
    try:
        app(prog_name="linguo")
    except SystemExit as exc:
        code = exc.code
    except BrokenPipeError:
        _end_quietly_on_broken_pipe()
    if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # Click's own EPIPE handling
        _end_quietly_on_broken_pipe()
    try:
        sys.stdout.flush()  # what is still buffered must reach the file, or fail here
    except BrokenPipeError:
        _end_quietly_on_broken_pipe()
    except OSError as exc:
        _output_failed(exc)
    raise SystemExit(code)


# ---------------------------------------------------------------------------
# Option parsing shared by commands


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
                dice: Any = None, document: Any = None, valid_by_options: bool = False) -> None:
    """Validate ``request`` against ``schemas/request.schema.json``, resolve it
    and print the result. ``document`` (a loaded file) gives error places.

    ``valid_by_options``: the request was built by a one-off command whose
    option parsing already enforces every constraint of the schema (tested:
    tests/test_cli_options_valid.py), so the jsonschema pass, which costs more
    than a third of a one-off ruling's start-up, is skipped."""
    from linguo_cli import render, requests, state_io

    doc = document if document is not None else state_io.Document(name, request)
    if not valid_by_options:
        state_io.validate(doc, "request")
    plain = state_io.to_plain(doc.data)
    try:
        result = requests.resolve(plain, dice)
    except InputError as exc:
        raise state_io.relocated(exc, doc) from None
    render.emit(result, as_json=as_json, explain=explain)


RollsOpt = Annotated[str | None, typer.Option(
    "--rolls", help="Scripted dice faces in the order they are consumed, e.g. 17,4.")]
SeedOpt = Annotated[int | None, typer.Option(
    "--seed", min=0, max=2**64 - 1, help="Seed for pseudo-random dice (replayable, not portable).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
ExplainOpt = Annotated[bool, typer.Option(
    "--explain", help="Show every derivation step with its rule ID.")]
ModOpt = Annotated[list[str] | None, typer.Option(
    "--mod", help="A modifier LABEL=N or N; repeatable.")]
AdvOpt = Annotated[int, typer.Option("--adv", count=True, help="Advantage (D2).")]
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
DisOpt = Annotated[int, typer.Option("--dis", count=True, help="Disadvantage (D2).")]


def _test_request(kind: str, mods: list[str] | None, adv: int, dis: int, *,
                  dc: int | None = None, noun: str | None = None,
                  knows: list[str] | None = None, ac: int | None = None, no_ac: bool = False,
                  rulings: list[str] | None = None, no_ability: bool = False
                  ) -> dict[str, Any]:
    """The check/attack/save request the options of a roll or odds command
    describe; usage errors (exit 2) for --ac with --no-ac and unknown rulings."""
    req: dict[str, Any] = {"kind": kind, "modifiers": parse_mods(mods)}
    if adv:
        req["advantage"] = True
    if dis:
        req["disadvantage"] = True
    if kind == "attack":
        if (ac is None) == (not no_ac):
            raise UsageError("give exactly one of --ac N or --no-ac")
        req["ac"] = ac
        for r in rulings or []:
            if r != "partial-success-hits":
                raise typer.BadParameter(f"unknown ruling {r!r}; known: partial-success-hits",
                                         param_hint="'--ruling'")
            req["partial_success_hits"] = True
        return req
    req["dc"] = dc
    if noun is not None:
        req["noun"] = noun
    if knows:
        req["entity"] = {"idioms": list(knows)}
    if no_ability:
        req["no_ability"] = True
    return req


@app.command(epilog="Example: linguo check --mod strength=3 --mod bless=2 --dc 15 --rolls 12")
def check(
    dc: CheckDcOpt,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    noun: Annotated[str | None, typer.Option(
        "--noun", callback=lambda v: _name_value(v, "--noun"),
        help="A check about a Noun (D7): needs --knows 'Shape - NOUN' or "
        "'Speak - NOUN'.")] = None,
    knows: Annotated[list[str] | None, typer.Option(
        "--knows", callback=lambda v: _name_value(v, "--knows"),
        help="An idiom the entity knows; repeatable.")] = None,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve an ability check against a DC (rules D1-D7)."""
    req = _test_request("check", mod, adv, dis, dc=dc, noun=noun, knows=knows)
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed), valid_by_options=True)


@app.command(epilog="Example: linguo attack --mod signature=5 --ac 15 --rolls 18")
def attack(
    ac: AcOpt = None,
    no_ac: NoAcOpt = False,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    ruling: RulingOpt = None,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve an attack roll against an AC (rules D1-D5, A1-A3)."""
    req = _test_request("attack", mod, adv, dis, ac=ac, no_ac=no_ac, rulings=ruling)
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed), valid_by_options=True)


@app.command(epilog="Example: linguo save --mod constitution=1 --dc 14 --rolls 9")
def save(
    dc: SaveDcOpt,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    no_ability: NoAbilityOpt = False,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve a saving throw against a save DC (rules D1-D5, S1-S2)."""
    req = _test_request("save", mod, adv, dis, dc=dc, no_ability=no_ability)
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed), valid_by_options=True)


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
    "-o", "--output", help="Write the updated state to this file (atomically); - for stdout.")]
InPlaceOpt = Annotated[bool, typer.Option(
    "--in-place", help="Write the updated state back into the state file (atomically).")]


def load_state(path: str) -> Any:
    """Load and validate a state file (schema + semantic checks, with places)."""
    from linguo_cli import state_io

    doc = state_io.load(path, lock=True)  # held until the command ends (no interleaving)
    state_io.validate(doc, "state")
    state_io.entities_of(doc)
    return doc


def run_state_request(request: dict[str, Any], state_doc: Any, *, output: str | None,
                      in_place: bool, as_json: bool, explain: bool, dice: Any = None,
                      request_doc: Any = None) -> None:
    """Resolve ``request`` on the state of ``state_doc`` and write the new state.

    The request gets the state as its ``state`` field; its handler returns the
    new state under ``result["state"]``. Where the state goes: ``-o FILE`` or
    ``--in-place``: written atomically, the result on stdout; neither: the
    updated state (YAML, comments kept) on stdout and the result on stderr,
    unless ``--json``, where stdout is the JSON result (which holds the state).
    Nothing is written when resolution fails. ``request_doc``: the document
    the request's fields were read from (places of invalid fields), default
    the options.
    """
    from linguo_cli import render, requests, state_io
    from linguo_cli.model import Entity

    if output and in_place:
        raise UsageError("give -o FILE or --in-place, not both")
    request = dict(request)
    request["state"] = state_io.to_plain(state_doc.data)
    state_io.validate(state_io.Document("<options>", request), "request")
    try:
        result = requests.resolve(request, dice)
    except InputError as exc:
        raise state_io.locate_errors(
            exc, request_doc or state_io.Document("<options>", request), state_doc) from None
    before = state_io.entities_of(state_doc)
    after = {d["id"]: Entity.from_dict(d) for d in result["state"]["entities"]}
    state_io.update_entities(state_doc, before, after)  # the document: comments kept
    update_round(state_doc, result["state"])
    text = state_io.dump_document(state_doc)
    target = state_doc.name if in_place else (None if output == "-" else output)
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
    from linguo_cli import state_io
    from linguo_cli.errors import Diagnostic, InputError

    doc = state_io.load(path)
    if not isinstance(doc.data, dict):
        raise InputError(Diagnostic(doc.name, "", "a turns document is a mapping with 'turns'"))
    extra = [k for k in ("kind", "state") if k not in doc.data]
    if "kind" in extra:
        doc.data["kind"] = "turn"
    if "state" in extra:
        doc.data["state"] = {"entities": []}
    try:
        state_io.validate(doc, "turn-request")
    finally:
        for k in extra:
            del doc.data[k]
    return doc, state_io.to_plain(doc.data)


@app.command(epilog="Example: linguo turn examples/encounter/state.yaml "
                    "examples/encounter/turns.yaml")
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
) -> None:
    """Play whole turns from a state file and a list of steps (rules O1, P1-P6, C1-C2).

    Every step must be legal; the first illegal one exits 4 naming the step,
    the rule and the numbers, and no file is written.
    """
    from linguo_cli import render, requests, state_io
    from linguo_cli.dice import ScriptedDice

    state_doc = load_state(state)
    turns_doc, doc = _load_turns(turns)
    request: dict[str, Any] = {"kind": "turn", "turns": doc["turns"]}
    if "rolls" in doc:
        request["rolls"] = doc["rolls"]
    if "seed" in doc:
        request["seed"] = doc["seed"]
    if idioms is not None:
        from linguo_cli import idioms as idioms_mod

        cat_doc = state_io.load(idioms)
        request["idioms"] = idioms_mod.load_catalog(
            cat_doc.data, name=cat_doc.name, document=cat_doc).as_list()
    if conditions is not None:
        from linguo_cli import conditions as conditions_mod

        cat_doc = state_io.load(conditions)
        request["conditions"] = conditions_mod.load_catalog(
            cat_doc.data, name=cat_doc.name, document=cat_doc).as_list()
    dice = dice_from_options(rolls, seed)
    if check:  # no die is rolled: --rolls/--seed and the document's rolls are not used
        if output or in_place:
            raise UsageError("--check writes nothing: drop -o/--in-place")
        request["check"] = True
        request.pop("rolls", None)
        request.pop("seed", None)
        request["state"] = state_io.to_plain(state_doc.data)
        state_io.validate(state_io.Document("<options>", request), "request")
        try:
            result = requests.resolve(request, ScriptedDice([]))
        except InputError as exc:
            raise state_io.locate_errors(exc, turns_doc, state_doc) from None
        render.emit(result, as_json=json_, explain=explain)
        return
    run_state_request(request, state_doc, output=output, in_place=in_place, as_json=json_,
                      explain=explain, dice=dice, request_doc=turns_doc)


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


@app.command(epilog="Examples: linguo damage --tick strong --dice 4d6 --mod potential=2 --crit "
                    "--rolls 3,3,4,6,1,2,5,6 | linguo damage --tick low --dice 2d6 --type fire "
                    "--state examples/state.yaml --target goblin -o after.yaml")
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


@app.command(epilog="Examples: linguo heal --tick moderate --dice 2d8 --mod cohesion=1 "
                    "--rolls 5,6 | linguo heal --tick complete --state examples/state.yaml "
                    "--target ayla -o new.yaml")
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


@app.command("temp-hp", epilog="Example: linguo temp-hp examples/state.yaml --target ayla "
                               "--amount 20 --keep new -o after.yaml")
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


@app.command("death-save", epilog="Example: linguo death-save examples/state.yaml --entity "
                                  "bram --rolls 12 -o after.yaml")
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
# Exact odds and tick design: no die is rolled

odds_app = typer.Typer(
    name="odds",
    help="Exact odds of a check, attack or save (fractions and percentages, no die rolled); "
    "for attacks also the expected damage per attack.\n\n"
    "Example: linguo odds check --mod 5 --dc 15 --adv",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(odds_app, name="odds")


def _run_odds(test: dict[str, Any], *, damage: dict[str, Any] | None = None,
              as_json: bool, explain: bool) -> None:
    req: dict[str, Any] = {"kind": "odds", "test": test}
    if damage is not None:
        req["damage"] = damage
    run_request(req, name="<options>", as_json=as_json, explain=explain)


@odds_app.command("check", epilog="Example: linguo odds check --mod 5 --dc 15 --adv --json")
def odds_check(
    dc: CheckDcOpt,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    noun: Annotated[str | None, typer.Option(
        "--noun", help="A check about a Noun (D7): needs --knows 'Shape - NOUN' or "
        "'Speak - NOUN'.")] = None,
    knows: Annotated[list[str] | None, typer.Option(
        "--knows", help="An idiom the entity knows; repeatable.")] = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Exact probability of each degree of an ability check (D1-D5, D7)."""
    req = _test_request("check", mod, adv, dis, dc=dc, noun=noun, knows=knows)
    _run_odds(req, as_json=json_, explain=explain)


@odds_app.command("attack", epilog="Examples: linguo odds attack --mod signature=5 --ac 15 | "
                  "linguo odds attack --ac 15 --mod 5 --damage-dice 2d6+1 --tick moderate "
                  "--damage-mod potential=3 --resist --distribution")
def odds_attack(
    ac: AcOpt = None,
    no_ac: NoAcOpt = False,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    ruling: RulingOpt = None,
    damage_dice: Annotated[str | None, typer.Option(
        "--damage-dice", help="Damage dice, e.g. 2d6+1: adds the exact expected damage per "
        "attack (critical hits double the dice, T5).")] = None,
    tick: Annotated[str | None, typer.Option(
        "--tick", help="Damage tick of the dice (T1, T3), e.g. moderate; needed with "
        "--damage-dice.")] = None,
    damage_mod: Annotated[list[str] | None, typer.Option(
        "--damage-mod", help="Damage modifier: potential=N (multiplied by the tick's "
        "multiplier, T4) or LABEL=N (flat); repeatable. Without potential=N here, a --mod "
        "labelled potential is also used as the damage Potential.")] = None,
    resist: Annotated[bool, typer.Option(
        "--resist", help="The target resists: each outcome halved, rounded down (R1).")] = False,
    vuln: Annotated[bool, typer.Option(
        "--vuln", help="The target is vulnerable: each outcome doubled (R1, R3).")] = False,
    immune: Annotated[bool, typer.Option(
        "--immune", help="The target is immune: no damage (R1).")] = False,
    allow_nonconforming: Annotated[bool, typer.Option(
        "--allow-nonconforming", help="Accept dice outside the tick's range, with a warning "
        "(T3).")] = False,
    distribution: Annotated[bool, typer.Option(
        "--distribution", help="Show every damage amount per attack with its probability.")
    ] = False,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Exact odds of an attack roll: each degree, hit, critical hit, critical miss
    (D1-D5, A1-A3); with --damage-dice the exact damage per attack (T3-T5, R1-R3)."""
    req = _test_request("attack", mod, adv, dis, ac=ac, no_ac=no_ac, rulings=ruling)
    damage: dict[str, Any] | None = None
    if damage_dice is None:
        if tick is not None or damage_mod or resist or vuln or immune or distribution \
                or allow_nonconforming:
            raise UsageError("damage options need --damage-dice DICE")
    else:
        if tick is None:
            raise UsageError("--damage-dice needs --tick NAME (the damage tick of the dice)")
        damage = {"dice": damage_dice, "tick": tick, "modifiers": []}
        for m in parse_mods(damage_mod, "--damage-mod"):
            if m["label"].lower() == "potential":
                if "potential" in damage:
                    raise UsageError("--damage-mod potential=N given twice")
                damage["potential"] = m["value"]
            else:
                damage["modifiers"].append(m)
        if "potential" not in damage:
            attack_potential = [m for m in req["modifiers"] if m["label"].lower() == "potential"]
            if attack_potential:
                damage["potential"] = sum(m["value"] for m in attack_potential)
        for flag, on in (("resistant", resist), ("vulnerable", vuln), ("immune", immune),
                         ("allow_nonconforming", allow_nonconforming),
                         ("distribution", distribution)):
            if on:
                damage[flag] = True
    _run_odds(req, damage=damage, as_json=json_, explain=explain)


@odds_app.command("save", epilog="Example: linguo odds save --mod constitution=1 --dc 14 --dis")
def odds_save(
    dc: SaveDcOpt,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    no_ability: NoAbilityOpt = False,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Exact probability of each degree of a saving throw (D1-D5, S1-S2)."""
    req = _test_request("save", mod, adv, dis, dc=dc, no_ability=no_ability)
    _run_odds(req, as_json=json_, explain=explain)


#: One example of every operator of the dice notation (``linguo ticks --help``).
NOTATION_EXAMPLES = (
    "d% (d100)", "4d6k3 (= kh3)", "2d20kl1", "4d6dh1", "4d6dl1", "5d6kh4kl2 (chained)",
    "1d6ro1 (reroll once)", "'2d6rr<3' (reroll while)", "1d6ra1 (reroll and add)",
    "1d20e20 (explode)", "'1d6e>4'", "8d6mi2", "4d6ma5", "'(1d4+1)*2'", "3d6/2 (floor)",
    "-- -1d4+5 (unary minus)", "'1d8[fire]' (annotation)")


def _ticks_epilog() -> str:
    examples = ["linguo ticks 2d6+1", "linguo ticks 3d6 --tick low",
                "linguo ticks --suggest moderate", "linguo ticks 2d8 --healing --tick moderate"]
    examples += [f"linguo ticks {e.split(' (')[0]}" for e in NOTATION_EXAMPLES]
    return "Examples: " + " | ".join(examples)


@app.command("ticks", epilog=_ticks_epilog())
def ticks_command(
    expr: Annotated[str | None, typer.Argument(
        metavar="DICE", help="Dice notation, e.g. 2d6+1 or 4d6kh3.")] = None,
    tick: Annotated[str | None, typer.Option(
        "--tick", help="Check the dice against this tick: exit 4 when they do not conform "
        "(T3).")] = None,
    suggest: Annotated[str | None, typer.Option(
        "--suggest", help="List simple dice whose expected value conforms to this tick.")
    ] = None,
    healing: Annotated[bool, typer.Option(
        "--healing", help="--tick and --suggest name healing ticks (T2), not damage ticks.")
    ] = False,
    limit: Annotated[int, typer.Option(
        "--limit", min=1, max=100, help="At most this many suggestions.")] = 10,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Tick design: exact expected value, minimum and maximum of dice and every damage
    and healing tick they conform to (T1-T3); check one tick or get suggestions."""
    if expr is None and suggest is None:
        raise UsageError("give DICE, --suggest TICK, or both")
    if tick is not None and expr is None:
        raise UsageError("--tick needs DICE")
    req: dict[str, Any] = {"kind": "ticks"}
    if expr is not None:
        req["dice"] = expr
    if tick is not None:
        req["tick"] = tick
    if suggest is not None:
        req["suggest"] = suggest
        req["limit"] = limit
    if healing:
        req["healing"] = True
    run_request(req, name="<options>", as_json=json_, explain=explain)


@app.command("roll", epilog="Examples: linguo roll 4d6dl1 --rolls 3,5,1,6 | "
             "linguo roll '2d6rr<3' --distribution | linguo roll '(1d4+1)*2' --crit. "
             "Notation: 2d6+1 " + " ".join(NOTATION_EXAMPLES))
def roll_command(
    expr: Annotated[str, typer.Argument(
        metavar="EXPR", help="Dice notation, e.g. 4d6dl1, 1d20e20 or (1d4+1)*2.")],
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    distribution: Annotated[bool, typer.Option(
        "--distribution", help="Also print the exact distribution of the total.")] = False,
    crit: Annotated[bool, typer.Option(
        "--crit", help="Roll the critical-hit expression (T5: every dice node doubled).")
    ] = False,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Roll any dice notation (request kind dice): total, every face with its
    kept/dropped/rerolled/exploded marks, exact expected value, minimum and maximum."""
    req: dict[str, Any] = {"kind": "dice", "expression": expr}
    if distribution:
        req["distribution"] = True
    if crit:
        req["critical"] = True
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed))


# ---------------------------------------------------------------------------
# The golden conformance suite: linguo golden check|export, verify, adapter

golden_app = typer.Typer(
    name="golden",
    help=(
        "The golden conformance suite: check it against its contract, export it as JSON.\n\n"
        "Example: linguo golden check"
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
app.add_typer(golden_app, name="golden")

SuiteArg = Annotated[str | None, typer.Argument(
    metavar="DIR", help="Suite folder (default: the suite shipped with linguo).",
    show_default=False)]


def _suite_dir(path: str | None) -> Any:
    from pathlib import Path

    from linguo_cli import golden

    return golden.require_suite(Path(path) if path else golden.default_suite_dir())


@golden_app.command("check", epilog="Example: linguo golden check golden/")
def golden_check(suite: SuiteArg = None, json_: JsonOpt = False,
                 ruleset: Annotated[list[str] | None, typer.Option(
                     "--ruleset", metavar="NAME", help="Check this ruleset's suite "
                     "(installed: linguomancy; default: all).")] = None) -> None:
    """Check the suite: schema, JSON-compatible YAML, unique ids and
    descriptions, known example and rule IDs, a full statement for every rule
    ID, and that every worked example (EXAMPLES.yaml) and rule ID (RULES.yaml)
    has a case. Exit 1 on any problem."""
    import json

    from linguo_cli import golden, golden_select

    golden_select.check_rulesets(ruleset or [])
    report = golden.check_suite(_suite_dir(suite))
    if json_:
        typer.echo(json.dumps(golden.check_json(report), indent=2, ensure_ascii=False))
    else:
        for line in golden.check_lines(report):
            typer.echo(line)
    if not report.ok:
        raise typer.Exit(1)


@golden_app.command("export", epilog="Example: linguo golden export /tmp/golden-json")
def golden_export(
    args: Annotated[list[str] | None, typer.Argument(
        metavar="DIR [SUITE]", help="Write the suite below DIR (SUITE: the suite folder, "
        "default: the suite shipped with linguo).", show_default=False)] = None,
    format_: Annotated[str, typer.Option(
        "--format", metavar="FORMAT", help="Format of the case files: json.")] = "json",
    json_dir: Annotated[str | None, typer.Option(
        "--json", metavar="DIR", help="Deprecated: the old spelling of 'export DIR'.",
        hidden=True)] = None,
) -> None:
    """Write the suite as JSON below DIR: the same cases, file for file
    (x.yaml -> x.json), the catalogs, the contract and the schemas."""
    from pathlib import Path

    from linguo_cli import golden

    positional = list(args or [])
    if format_ != "json":
        raise typer.BadParameter(f"{format_!r}: the only format is json",
                                 param_hint="'--format'")
    if json_dir is not None:
        typer.echo("linguo: warning: 'golden export --json DIR' is deprecated: write "
                   "'linguo golden export DIR'", err=True)
        positional.insert(0, json_dir)
    if not positional or len(positional) > 2:
        raise typer.BadParameter("give the folder to write: linguo golden export DIR "
                                 "[SUITE]", param_hint="DIR")
    target = positional[0]
    if Path(target).exists() and not Path(target).is_dir():
        raise typer.BadParameter(f"{target!r} exists and is not a folder", param_hint="DIR")
    suite = positional[1] if len(positional) > 1 else None
    written = golden.export_json(_suite_dir(suite), Path(target))
    typer.echo(f"wrote {len(written)} files below {target}")


@golden_app.command("show", epilog=(
    "Example: linguo golden show tests/degrees.yaml::success-lower-border --request "
    "| node engine.js"))
def golden_show(
    test_id: Annotated[str, typer.Argument(metavar="FILE::ID", help="The case's test id.")],
    suite: SuiteArg = None,
    json_: JsonOpt = False,
    request_only: Annotated[bool, typer.Option(
        "--request", help="Print only the request, as one JSON line.")] = False,
) -> None:
    """Print one case: where it is, its description, its request (one JSON
    line, ready to pipe into an engine) and its expected result or error."""
    import json

    from linguo_cli import golden_show as show

    case = show.find_case(_suite_dir(suite), test_id)
    if request_only:
        typer.echo(json.dumps(case.request, ensure_ascii=False, separators=(",", ":")))
    elif json_:
        typer.echo(json.dumps(show.case_json(case), indent=2, ensure_ascii=False))
    else:
        for line in show.case_lines(case):
            typer.echo(line)


@app.command(epilog=(
    "Examples: linguo verify; linguo verify --impl 'node my-engine.js' --junit report.xml; "
    "linguo verify --impl 'node my-engine.js' --kinds check,attack,save; "
    "linguo verify --impl 'linguo adapter --batch' --batch --filter kind:check"))
def verify(
    suite: SuiteArg = None,
    impl: Annotated[str | None, typer.Option(
        "--impl", metavar="COMMAND",
        help="Run the cases against this program instead of linguo: one request as JSON "
        "on its stdin, its result as JSON on stdout, a non-zero exit code for an error, "
        "69 for 'unsupported' (golden/README.md, Adapter protocol).")] = None,
    batch: Annotated[bool, typer.Option(
        "--batch", help="Start --impl once and speak JSON lines: hello line first (its "
        "answer may declare the rulesets and kinds implemented), then one request per "
        "line, one answer per line.")] = False,
    timeout: Annotated[float, typer.Option(
        "--timeout", metavar="SECONDS", help="Time allowed per case.")] = 10.0,
    filter_: Annotated[list[str] | None, typer.Option(
        "--filter", metavar="SELECTOR", help="Only matching cases (repeatable): an example "
        "or rule ID, a case id, a path prefix, a glob on FILE::ID, or ruleset:NAME, "
        "kind:KIND, rule:ID, example:ID, file:PATH, id:ID.")] = None,
    exclude: Annotated[list[str] | None, typer.Option(
        "--exclude", metavar="SELECTOR", help="Leave out matching cases (same forms as "
        "--filter; repeatable).")] = None,
    ruleset: Annotated[list[str] | None, typer.Option(
        "--ruleset", metavar="NAME", help="Run this ruleset's cases (installed: "
        "linguomancy). Default: all; with --impl, those it declares, else "
        "linguomancy.")] = None,
    kinds: Annotated[list[str] | None, typer.Option(
        "--kinds", metavar="KINDS", help="The request kinds the implementation handles "
        "(check,attack,save or linguomancy/check); the other cases are skipped.")] = None,
    skip: Annotated[str | None, typer.Option(
        "--skip", metavar="FILE", help="Skip the cases a skip file lists, one 'SELECTOR  "
        "# reason' per line.")] = None,
    maxfail: Annotated[int | None, typer.Option(
        "--maxfail", metavar="N", help="Stop after N failures.")] = None,
    total_timeout: Annotated[float | None, typer.Option(
        "--total-timeout", metavar="SECONDS", help="Stop when the whole run has taken "
        "this long.")] = None,
    junit: Annotated[str | None, typer.Option(
        "--junit", metavar="FILE", help="Also write a JUnit XML report.")] = None,
    junit_root: Annotated[str | None, typer.Option(
        "--junit-root", metavar="DIR", help="Write the JUnit file= paths relative to DIR "
        "(e.g. your repository).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="Print failing requests whole.")] = False,
    progress_interval: Annotated[float, typer.Option(
        "--progress-interval", metavar="SECONDS", help="Seconds between progress lines "
        "when stderr is not a terminal.", hidden=True)] = 10.0,
) -> None:
    """Run the golden suite against linguo or another implementation; print
    each failure as it happens (FILE::ID: PATH: expected X, got Y, then where
    the case is and its request), then 'N cases: N passed, N failed, N
    skipped'. Exit 1 if any case fails or the run stops early."""
    import math

    from linguo_cli import golden

    for name, value in (("--timeout", timeout), ("--total-timeout", total_timeout)):
        if value is not None and not (math.isfinite(value) and 0 < value <= 86400
                                      and (name != "--timeout" or value <= 3600)):
            raise typer.BadParameter("must be a number of seconds above 0 (at most 3600 "
                                     "per case, 86400 in total)", param_hint=f"'{name}'")
    if maxfail is not None and maxfail < 1:
        raise typer.BadParameter("must be 1 or more", param_hint="'--maxfail'")
    code = golden.verify(_suite_dir(suite), impl=impl, batch=batch, timeout=timeout,
                         filters=filter_, junit=junit, quiet=quiet,
                         excludes=list(exclude or []), rulesets=list(ruleset or []),
                         kinds=list(kinds or []), skip_file=skip, junit_root=junit_root,
                         verbose=verbose, maxfail=maxfail, total_timeout=total_timeout,
                         progress_interval=progress_interval)
    if code:
        raise typer.Exit(code)


@app.command(epilog="Example: echo '{\"kind\": \"check\", \"dc\": 10, \"rolls\": [12]}' | "
             "linguo adapter")
def adapter(batch: Annotated[bool, typer.Option(
        "--batch", help="JSON lines: hello line, then one request per line.")] = False) -> None:
    """The reference adapter: linguo speaking the golden adapter protocol
    (request JSON on stdin, result JSON on stdout, exit code for errors)."""
    from linguo_cli import golden

    code = golden.serve(batch)
    if code:
        raise typer.Exit(code)


# ---------------------------------------------------------------------------
# Casting and overclocking (rules F1-F5, S3, C1-C2)


def _catalog_entries(kind: str, path: str | None) -> list[dict[str, Any]] | None:
    """Load an idiom or condition catalog file (checked with places in that
    file) as the entries a request inlines; ``None`` without a file."""
    if path is None:
        return None
    from linguo_cli import state_io

    doc = state_io.load(path)
    if kind == "idioms":
        from linguo_cli import idioms as idioms_mod

        return idioms_mod.load_catalog(doc.data, name=doc.name, document=doc).as_list()
    from linguo_cli import conditions as conditions_mod

    return conditions_mod.load_catalog(doc.data, name=doc.name, document=doc).as_list()


IdiomsOpt = Annotated[str | None, typer.Option(
    "--idioms", help="Idiom catalog file used instead of the defaults (see examples/idioms.yaml).")]
ConditionsOpt = Annotated[str | None, typer.Option(
    "--conditions", help="Condition catalog file (C2) used instead of the defaults.")]


@app.command(epilog="Example: linguo cast examples/cast-state.yaml --caster ayla --idiom "
                    "'Hurl - Fire' --upcast 2 --target goblin --rolls 14,3,5")
def cast(
    state: Annotated[str, typer.Argument(help="State file (YAML or JSON); - for stdin.")],
    caster: Annotated[str, typer.Option("--caster", help="Id of the casting entity.")],
    idiom: Annotated[str, typer.Option("--idiom", help="Idiom name, e.g. 'Hurl - Fire' or "
                                                       "Smith.")],
    upcast: Annotated[int, typer.Option(
        "--upcast", min=0, max=100, help="Extra Flux points above the base cost (F3).")] = 0,
    overclock: Annotated[bool, typer.Option(
        "--overclock", help="Overclock when short of Flux (F4); no Adjectives in a cast "
                            "that actually overclocks.")] = False,
    adjective: Annotated[list[str] | None, typer.Option(
        "--adjective", help="An Adjective of the idiom; repeatable.")] = None,
    target: Annotated[list[str] | None, typer.Option(
        "--target", help="Target entity id; repeatable, in order.")] = None,
    mod: Annotated[list[str] | None, typer.Option(
        "--mod", help="Modifier LABEL=N on the attack roll; repeatable.")] = None,
    amount_mod: Annotated[list[str] | None, typer.Option(
        "--amount-mod", help="Flat modifier LABEL=N on the damage or healing; repeatable.")
    ] = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    nonlethal: Annotated[bool, typer.Option(
        "--nonlethal", help="Declare the damage nonlethal, whoever casts (H5).")] = False,
    idioms: IdiomsOpt = None,
    conditions: ConditionsOpt = None,
    output: OutputOpt = None,
    in_place: InPlaceOpt = False,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Cast an idiom from a state file: cost, upcast cap, Flux, overclocking and
    the effect (rules F1-F5, S3, then the d20, damage and healing rules).

    Hand points are read from the state as at the start of a turn (held items,
    maintained idioms; P5, P6); action points are not checked.
    Dice order: the attack d20 (or each target's save d20, in target order),
    then the damage or healing dice. An illegal cast exits 4 and writes nothing.
    """
    state_doc = load_state(state)
    req: dict[str, Any] = {"kind": "cast", "caster": caster, "idiom": idiom}
    if upcast:
        req["upcast"] = upcast
    if overclock:
        req["overclock"] = True
    if adjective:
        req["adjectives"] = list(adjective)
    if target:
        req["targets"] = list(target)
    if mod:
        req["modifiers"] = parse_mods(mod)
    if amount_mod:
        req["amount_modifiers"] = parse_mods(amount_mod, "--amount-mod")
    if adv:
        req["advantage"] = True
    if dis:
        req["disadvantage"] = True
    if nonlethal:
        req["nonlethal"] = True
    for key, path in (("idioms", idioms), ("conditions", conditions)):
        entries = _catalog_entries(key, path)
        if entries is not None:
            req[key] = entries
    run_state_request(req, state_doc, output=output, in_place=in_place, as_json=json_,
                      explain=explain, dice=dice_from_options(rolls, seed))


@app.command("overclock", epilog="Example: linguo overclock --cost 7 --flux 3")
def overclock_command(
    cost: Annotated[int, typer.Option("--cost", min=0, max=100,
                                      help="Final Flux cost of the cast.")],
    flux: Annotated[int, typer.Option("--flux", min=0, max=1000,
                                      help="Flux the caster has before casting.")],
    exhaustion: Annotated[int, typer.Option(
        "--exhaustion", min=0, max=5, help="Exhaustion tiers already held.")] = 0,
    conditions: ConditionsOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Show the overclocking row for a cost and the Flux at hand, and what it
    does (rules F4, F5), as a one-off."""
    req: dict[str, Any] = {"kind": "overclock", "cost": cost, "flux": flux}
    if exhaustion:
        req["exhaustion"] = exhaustion
    entries = _catalog_entries("conditions", conditions)
    if entries is not None:
        req["conditions"] = entries
    run_request(req, name="<options>", as_json=json_, explain=explain)


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


@app.command(epilog="Example: linguo rest examples/state.yaml --long --hp ayla=6 -o rested.yaml")
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
