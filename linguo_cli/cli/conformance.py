"""The conformance commands: ``linguo golden check|export|show``, ``linguo verify``
and ``linguo adapter``.

No ``from __future__ import annotations`` here: Typer reads every command's
signature when the app starts (see :mod:`linguo_cli.cli.app`).
"""

from typing import Annotated, Any

import typer

from linguo_cli.cli.options import (
    JsonOpt,
    examples,
)

commands = typer.Typer()


# ---------------------------------------------------------------------------
# The golden conformance suite: linguo golden check|export, verify, adapter

golden_app = typer.Typer(
    name="golden",
    help=(
        "The golden conformance suite: check it against its contract, export it as JSON.\n\n"
        + examples("linguo golden show linguomancy/tests/degrees.yaml::success-lower-border")
    ),
    short_help="The golden suite: check it, show a case, export it as JSON.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
commands.add_typer(golden_app, name="golden")

SuiteArg = Annotated[str | None, typer.Argument(
    metavar="DIR", help="Suite folder (default: the suites of the installed rulesets).",
    show_default=False)]
RulesetOpt = Annotated[list[str] | None, typer.Option(
    "--ruleset", metavar="NAME", help="This ruleset's suite (repeatable; an alias is "
    "accepted). Default: every installed ruleset.")]


def _suite_dir(path: str | None) -> Any:
    from pathlib import Path

    from linguo_cli.conformance import golden

    return golden.require_suite(Path(path) if path else golden.default_suite_dir())


def _suite_dirs(path: str | None, names: list[str] | None) -> list[Any]:
    """The suite folders to work on: SUITE when given, else those of
    ``--ruleset`` (canonical or alias), else every installed ruleset's."""
    from pathlib import Path

    from linguo_cli.conformance import golden
    from linguo_cli.conformance import select as golden_select
    from linguo_cli.core import ruleset as rulesets

    chosen = golden_select.check_rulesets(names or [])
    if path:
        return [golden.require_suite(Path(path))]
    return [golden.require_suite(golden.suite_dir(n)) for n in chosen or rulesets.names()]


@golden_app.command("check", epilog=examples("linguo golden check golden/linguomancy"),
                    short_help="Check the suite against its contract (exit 1 on a problem).")
def golden_check(suite: SuiteArg = None, json_: JsonOpt = False,
                 ruleset: RulesetOpt = None) -> None:
    """Check the suite: schema, JSON-compatible YAML, unique ids and
    descriptions, known example and rule IDs, a full statement for every rule
    ID, and that every worked example (EXAMPLES.yaml) and rule ID (RULES.yaml)
    has a case. Without DIR, every installed ruleset's suite (or those of
    --ruleset), one report each (--json: one object, or a list of them for
    several suites). Exit 1 on any problem."""
    import json

    from linguo_cli.conformance import golden

    reports = [golden.check_suite(root) for root in _suite_dirs(suite, ruleset)]
    if json_:
        shown = [golden.check_json(r) for r in reports]
        typer.echo(json.dumps(shown[0] if len(shown) == 1 else shown, indent=2,
                              ensure_ascii=False))
    else:
        for report in reports:
            for line in golden.check_lines(report):
                typer.echo(line)
    if not all(r.ok for r in reports):
        raise typer.Exit(1)


@golden_app.command("export", epilog=examples("linguo golden export golden-json"),
                    short_help="Write the suite as JSON below DIR, file for file.")
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

    from linguo_cli.conformance import golden

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


@golden_app.command("show", short_help="Print one case: its description, request and expectation.",
                    epilog=examples(
    "linguo golden show linguomancy/tests/degrees.yaml::success-lower-border",
    "linguo golden show linguomancy/tests/degrees.yaml::success-lower-border --request "
    "| linguo adapter"))
def golden_show(
    test_id: Annotated[str, typer.Argument(
        metavar="RULESET/FILE::ID", help="The case's test id (FILE::ID or a bare ID when "
        "it is unambiguous).")],
    suite: SuiteArg = None,
    json_: JsonOpt = False,
    request_only: Annotated[bool, typer.Option(
        "--request", help="Print only the request, as one JSON line.")] = False,
) -> None:
    """Print one case: where it is, its description, its request (one JSON
    line, ready to pipe into an engine) and its expected result or error."""
    import json
    from pathlib import Path

    from linguo_cli.conformance import show

    case = show.find_case(Path(suite) if suite else None, test_id)
    if request_only:
        typer.echo(json.dumps(case.request, ensure_ascii=False, separators=(",", ":")))
    elif json_:
        typer.echo(json.dumps(show.case_json(case), indent=2, ensure_ascii=False))
    else:
        for line in show.case_lines(case):
            typer.echo(line)


@commands.command(short_help="Run the golden suite against linguo or another engine.",
                  epilog=examples(
    "linguo verify",
    "linguo verify --impl 'linguo adapter' --filter tests/degrees.yaml::success-lower-border "
    "--junit report.xml",
    "linguo verify --impl 'linguo adapter --batch' --batch --kinds check,attack,save",
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
        "or rule ID, a case id, a path prefix, a glob on RULESET/FILE::ID, or ruleset:NAME, "
        "kind:KIND, rule:ID, example:ID, file:PATH, id:ID.")] = None,
    exclude: Annotated[list[str] | None, typer.Option(
        "--exclude", metavar="SELECTOR", help="Leave out matching cases (same forms as "
        "--filter; repeatable).")] = None,
    ruleset: Annotated[list[str] | None, typer.Option(
        "--ruleset", metavar="NAME", help="Run this ruleset's cases (repeatable; an alias "
        "is accepted). Default: every installed ruleset; with --impl, those it declares "
        "in its hello, else linguomancy.")] = None,
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
    each failure as it happens (RULESET/FILE::ID: PATH: expected X, got Y, then where
    the case is and its request), then 'N cases: N passed, N failed, N
    skipped'. Exit 1 if any case fails or the run stops early. The examples
    run linguo's own adapter: put your engine's command in --impl."""
    import math

    from linguo_cli.conformance import golden

    for name, value in (("--timeout", timeout), ("--total-timeout", total_timeout)):
        if value is not None and not (math.isfinite(value) and 0 < value <= 86400
                                      and (name != "--timeout" or value <= 3600)):
            raise typer.BadParameter("must be a number of seconds above 0 (at most 3600 "
                                     "per case, 86400 in total)", param_hint=f"'{name}'")
    if maxfail is not None and maxfail < 1:
        raise typer.BadParameter("must be 1 or more", param_hint="'--maxfail'")
    from pathlib import Path

    code = golden.verify(Path(suite) if suite else None, impl=impl, batch=batch, timeout=timeout,
                         filters=filter_, junit=junit, quiet=quiet,
                         excludes=list(exclude or []), rulesets=list(ruleset or []),
                         kinds=list(kinds or []), skip_file=skip, junit_root=junit_root,
                         verbose=verbose, maxfail=maxfail, total_timeout=total_timeout,
                         progress_interval=progress_interval)
    if code:
        raise typer.Exit(code)


@commands.command(short_help="The reference adapter: the golden protocol on stdin/stdout.",
                  epilog=examples(
    "echo '{\"kind\": \"check\", \"dc\": 10, \"rolls\": [12]}' | linguo adapter"))
def adapter(batch: Annotated[bool, typer.Option(
        "--batch", help="JSON lines: hello line, then one request per line.")] = False) -> None:
    """The reference adapter: linguo speaking the golden adapter protocol
    (request JSON on stdin, result JSON on stdout, exit code for errors)."""
    from linguo_cli.conformance import golden

    code = golden.serve(batch)
    if code:
        raise typer.Exit(code)


