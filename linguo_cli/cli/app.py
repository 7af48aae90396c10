"""The ``linguo`` command line (Typer): parse options -> build a request ->
:func:`linguo_cli.core.requests.resolve` -> the ruleset's renderer.

Thin by design: commands only turn options into the same request documents
``linguo resolve`` reads, so one-off flags and files are resolved by one code
path. Errors become one line on stderr and a documented exit code (see
:mod:`linguo_cli.core.errors`); no traceback is ever printed. Heavy modules
(jsonschema, Rich, ruamel) are imported inside the commands that need them.

No ``from __future__ import annotations`` here: Typer reads every command's
signature when the app starts, and string annotations would make it ``eval``
hundreds of them (~80 ms of every one-off command). Annotations in this
module must therefore name things defined at import time.
"""

import sys
from typing import Annotated, Any

import typer

try:  # Typer >= 0.22 ships its own copy of Click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older Typer on top of Click
    from click.exceptions import ClickException  # type: ignore[no-redef,import-not-found,assignment,unused-ignore]

from linguo_cli.cli.lazy import LazyGroup, RulesetGroup, add_option_parameter, command_tables
from linguo_cli.cli.options import (
    ExplainOpt,
    JsonOpt,
    RollsOpt,
    SeedOpt,
    dice_from_options,
    examples,
    run_request,
)
from linguo_cli.core.errors import LinguoError, one_line

EXIT_CODES_HELP = (
    "Exit codes: 0 resolved; 1 conformance failures (verify); 2 usage error; "
    "3 invalid input; 4 rules violation; 5 internal error."
)


#: Top-level commands that are not a ruleset's (no ``--option``).
NOT_RULESET_COMMANDS = frozenset({"golden", "verify", "adapter"})

#: The modules that define the top-level commands that are not a ruleset's.
_OWN = "linguo_cli.cli.app"
_CONFORMANCE = "linguo_cli.cli.conformance"


def _top_table() -> dict[str, str]:
    """Every top-level command and group of ``linguo`` but the other
    rulesets: name -> the module that registers it, in ``--help`` order
    (Typer lists the commands, then the groups): ``resolve``, the default
    ruleset's commands, ``verify`` and ``adapter``, the default ruleset's
    groups, ``golden``."""
    from linguo_cli.core import ruleset as rulesets

    tables = command_tables(rulesets.default())
    if tables is None:  # pragma: no cover - the built-in default ruleset has tables
        raise RuntimeError("the default ruleset has no command tables")
    commands, groups = tables
    return {"resolve": _OWN, **commands, "verify": _CONFORMANCE, "adapter": _CONFORMANCE,
            **groups, "golden": _CONFORMANCE}


class LinguoGroup(LazyGroup):
    """Typer group that turns every error into one stderr line and an exit code.

    Its commands are built on first use (:meth:`get_command`) from a static
    table (:func:`_top_table`): a one-off command reads the signature of its
    own function only and imports only its own command module; ``--help``
    and shell completion build them all. At the top level it also mounts the
    installed rulesets other than the default one, each as a group of its
    commands under its name (``linguo NAME ...``) and, hidden, under each
    alias; they are looked up only for a name that is not a default
    command, so a default-ruleset command never scans the installed
    distributions. Every ruleset command gets the shared ``--option
    NAME=VALUE``."""

    without_option = NOT_RULESET_COMMANDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.name == "linguo":
            self.params.insert(0, _version_parameter())

    def table(self, ctx: Any) -> dict[str, str]:
        return _top_table() if ctx.parent is None else {}

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is None and ctx.parent is None:
            found = _ruleset_group(cmd_name)  # built once per process (_GROUPS)
            if found is not None:
                add_option_parameter(found)
        return found

    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)
        if ctx.parent is None:
            names += [n for n in _other_rulesets() if n not in names]
        return names

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (ClickException, typer.Exit, typer.Abort):
            raise
        except LinguoError as exc:
            for line in exc.lines():
                _diagnostic(one_line(line))
            _json_error(ctx, exc.code, error=exc)
            raise typer.Exit(exc.code) from None
        except BrokenPipeError:
            raise  # the reader has gone: main() ends quietly, as a SIGPIPE would
        except OSError as exc:
            if exc.filename is not None:  # a file operation the command did not handle: a bug
                _failed(ctx, 5, f"internal error: {type(exc).__name__}: {exc}")
            _output_failed(exc)
        except RecursionError:
            _failed(ctx, 3, "input nested too deeply")
        except MemoryError:
            _failed(ctx, 3, "input too large to process")
        except Exception as exc:  # a bug: still one line, never a traceback
            _failed(ctx, 5, f"internal error: {type(exc).__name__}: {exc}")
        finally:  # state-file locks (io.write.FileLock) end with the command
            write = sys.modules.get("linguo_cli.io.write")  # none held if never imported
            if write is not None:
                write.release_locks()

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
            _diagnostic(f"{message}{where}")
            if ctx is not None and _wants_json(ctx, self.argv):
                _print_error_object({"exit": 2, "code": None, "rule": None, "place": None,
                                     "message": message})
            sys.exit(2)
        except typer.Abort:
            _diagnostic("aborted")
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=LinguoGroup,
    name="linguo",
    help=(
        "Reference rules engine for the tabletop RPG Linguomancy.\n\n"
        + examples("linguo check --mod strength=3 --dc 15 --rolls 12") + "\n\n" + EXIT_CODES_HELP
    ),
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    callback=lambda: None,  # a group, not its one command: the commands are built lazily
)

#: The commands of :mod:`linguo_cli.cli.app` itself (``resolve``).
commands = typer.Typer()


def _version_parameter() -> Any:
    """``linguo --version``: an eager flag that prints :func:`version_lines`
    and ends the run with exit 0 before any command is looked at."""
    from typer.core import TyperOption

    def show(ctx: Any, _param: Any, value: bool) -> None:
        if value and not ctx.resilient_parsing:
            for line in version_lines():
                typer.echo(line)
            ctx.exit(0)

    return TyperOption(param_decls=["--version"], is_flag=True, expose_value=False,
                       is_eager=True, callback=show,
                       help="Print linguo's version, its golden suite's version and the "
                       "installed rulesets, and exit.")


def version_lines() -> list[str]:
    """What ``linguo --version`` prints: ``linguo VERSION (golden suite version
    N)``, N the default ruleset's suite version (the one ``linguo adapter``
    announces), then ``rulesets: NAME VERSION (golden suite version N), ...``,
    each installed ruleset in :func:`linguo_cli.core.ruleset.names` order with
    the version of the distribution that provides it (a ruleset of linguo
    itself: linguo's version) and its own suite's version (``none`` when the
    suite has no version)."""
    from importlib.metadata import entry_points
    from pathlib import Path

    from linguo_cli import __version__
    from linguo_cli.conformance.catalog import suite_version
    from linguo_cli.core import ruleset as rulesets

    dists = {ep.name: ep.dist.version for ep in entry_points(group=rulesets.GROUP)
             if ep.dist is not None}

    def suite(rs: Any) -> str:
        version = suite_version(Path(str(rs.suite)))
        return f"golden suite version {'none' if version is None else version}"

    installed = rulesets.installed()
    default = installed[rulesets.DEFAULT]
    shown = ", ".join(f"{name} {dists.get(name, __version__)} ({suite(rs)})"
                      for name, rs in installed.items())
    return [f"linguo {__version__} ({suite(default)})", f"rulesets: {shown}"]


#: The one form of every diagnostic (README, "Exit codes"): ``linguo: error: MESSAGE``
#: on stderr, one line each; the exit code says which kind of error it was.
DIAGNOSTIC_PREFIX = "linguo: error: "


def _diagnostic(message: str) -> None:
    """Print one diagnostic line on stderr: :data:`DIAGNOSTIC_PREFIX` + ``message``."""
    typer.echo(DIAGNOSTIC_PREFIX + message, err=True)


def _failed(ctx: Any, code: int, message: str) -> None:
    """End the command with exit ``code``: the diagnostic ``message`` on
    stderr and, with ``--json``, its error object on stdout."""
    message = one_line(message)
    _diagnostic(message)
    _json_error(ctx, code, message=message)
    raise typer.Exit(code) from None


def _wants_json(ctx: Any, argv: list[str]) -> bool:
    """Whether the command line asks for JSON output: the ``--json`` flag was
    read (:data:`linguo_cli.cli.options.JSON_KEY`), or, for a command line
    that failed before its options were read, ``--json`` is among the
    arguments (before a ``--``) and the failing command has no ``--json``
    option that takes a value (``golden export --json DIR``)."""
    from linguo_cli.cli.options import JSON_KEY

    if ctx.meta.get(JSON_KEY):
        return True
    given = argv[: argv.index("--")] if "--" in argv else argv
    takes_value = any("--json" in getattr(p, "opts", ()) and not getattr(p, "is_flag", False)
                      for p in getattr(ctx.command, "params", ()))
    return "--json" in given and not takes_value


def _json_error(ctx: Any, code: int, *, error: LinguoError | None = None,
                message: str = "") -> None:
    """With ``--json`` on the command line, a failing command also prints the
    error object ``{"error": {"exit", "code", "rule", "place", "message"}}``
    on stdout, where its result would have gone (golden/README.md, "Errors";
    the batch adapter's error reply): that of ``error``, or one with exit
    ``code`` and ``message`` for an error that is not a :class:`LinguoError`.
    The command's options were all read by then, so its ``--json`` flag says."""
    from linguo_cli.cli.options import JSON_KEY

    if not ctx.meta.get(JSON_KEY):
        return
    from linguo_cli.core.error_object import error_object

    _print_error_object(error_object(error) if error is not None else
                        {"exit": code, "code": None, "rule": None, "place": None,
                         "message": message})


def _print_error_object(obj: dict[str, Any]) -> None:
    """Print ``{"error": obj}`` as one JSON line on stdout."""
    import json

    typer.echo(json.dumps({"error": obj}, ensure_ascii=False))


def _output_failed(exc: OSError) -> None:
    """Standard output could not take the result (closed, a full device, a file
    size limit): one line on stderr and exit 2, never a half-silent exit 0."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    try:
        sys.stderr.write(f"{DIAGNOSTIC_PREFIX}cannot write the output: {reason}\n")
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

    Exit codes are those of :mod:`linguo_cli.core.errors`; in addition a closed or
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


@commands.command(epilog=examples("linguo resolve examples/check.yaml --json"),
             short_help="Resolve a request document of any kind (YAML or JSON).")
def resolve(
    file: Annotated[str, typer.Argument(help="Request document (YAML or JSON); - for stdin.")],
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve a request document of any kind (see schemas/request.schema.json)."""
    from linguo_cli.io.read import load

    doc = load(file)
    run_request({}, name=doc.name, as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed), document=doc)




def _other_rulesets() -> list[str]:
    """Canonical names of the installed rulesets other than the default."""
    from linguo_cli.core import ruleset as rulesets

    return [n for n in rulesets.names() if n != rulesets.DEFAULT]


_GROUPS: dict[str, Any] = {}


def _ruleset_group(name: str) -> Any:
    """The Click group ``linguo NAME`` of an installed non-default ruleset
    (``name`` canonical or an alias; an alias's group is hidden), built once,
    its commands built on first use (:class:`RulesetGroup`); ``None`` when
    no such ruleset is installed."""
    from linguo_cli.core import ruleset as rulesets

    canonical = rulesets.canonical(name)
    if canonical is None or canonical == rulesets.DEFAULT:
        return None
    if name not in _GROUPS:
        rs = rulesets.get(canonical)
        sub = typer.Typer(cls=RulesetGroup, name=name, help=f"{rs.title}\n\n" + EXIT_CODES_HELP,
                          no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                          context_settings={"help_option_names": ["-h", "--help"]})
        tables = command_tables(rs)
        if tables is None:
            rs.mount(sub)
        group: Any = typer.main.get_group(sub)
        if tables is not None:
            group.entries = {**tables[0], **tables[1]}
        group.name = name
        group.hidden = name != canonical
        _GROUPS[name] = group
    return _GROUPS[name]
