"""``linguo novence script STATE SCRIPT``: play a script of rounds (NV4) on
a state file and write the state after back, atomically.

No ``from __future__ import annotations``: Typer reads the signatures.
"""

import sys
from typing import Annotated, Any

import typer

from linguo_cli.cli.options import ExplainOpt, JsonOpt, SeedOpt, examples, with_command_line_options
from linguo_cli.core.errors import InputError, UsageError
from linguo_cli.rulesets.novence_eternal.commands import parse

commands = typer.Typer()

#: The keys a SCRIPT document may hold besides ``rounds`` (NV3, NV4).
SCRIPT_KEYS = ("rolls", "seed", "options", "catalogs", "description")


def _request(state_doc: Any, script_doc: Any) -> dict[str, Any]:
    """The NV4 ``script`` request of a state document and a script document
    (``rounds`` and optionally ``rolls``, ``seed``, ``options``,
    ``catalogs``); a script document that is not an object, or holds other
    keys, is invalid input (exit 3) placed in its file."""
    from linguo_cli.core.errors import Diagnostic
    from linguo_cli.io.document import to_plain

    data = to_plain(script_doc.data)
    if not isinstance(data, dict) or "rounds" not in data:
        raise InputError(Diagnostic(script_doc.name, "", "a script document is an object with "
                                    "rounds (and optionally rolls, seed, options, catalogs)"))
    extra = [k for k in data if k != "rounds" and k not in SCRIPT_KEYS]
    if extra:
        raise InputError(Diagnostic(script_doc.place([extra[0]]), extra[0],
                                    f"{extra[0]} does not belong in a script document"))
    request = {"ruleset": "novence-eternal", "kind": "script", **data}
    request["state"] = to_plain(state_doc.data)
    return request


def _write_target(state: str, out: str | None, dry_run: bool) -> str | None:
    """Where the state after goes: ``--out FILE`` (``-``: stdout), else the
    state file itself; ``None`` with ``--dry-run``."""
    if dry_run and out is not None:
        raise UsageError("--dry-run writes nothing: drop --out")
    if dry_run:
        return None
    target = out if out is not None else state
    if target == "<stdin>" or (out is None and state == "-"):
        raise UsageError("a state read from stdin cannot be written back: give --out FILE or -")
    return target


SCRIPT_EPILOG = examples(
    "linguo novence script examples/novence/state.yaml examples/novence/rounds.yaml -o after.yaml",
    "linguo novence script examples/novence/state.yaml examples/novence/rounds.yaml --dry-run "
    "--explain")


@commands.command(epilog=SCRIPT_EPILOG,
                  short_help="Play a script of rounds on a state file (NV4, NO3-NO5, NT).")
def script(
    state: Annotated[str, typer.Argument(help="State file (NV1), YAML or JSON.")],
    script_file: Annotated[str, typer.Argument(
        metavar="SCRIPT", help="Script document: rounds (NV4) and optionally rolls, seed, "
        "options, catalogs; - for stdin.")],
    out: Annotated[str | None, typer.Option(
        "-o", "--out", help="Write the state after to this file (atomically) instead of "
        "STATE; - for stdout.")] = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="Play the script and show the result; write nothing.")] = False,
    rolls: Annotated[str | None, typer.Option(
        "--rolls", help="Scripted faces in NO1-NO7's order (d20:15,d6:4), over the "
        "document's rolls.")] = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Play a script of rounds on a state file, all or nothing (NV4).

    Each round element runs the round's start (NO5), its turns (NO3, the steps
    with their budgets, the turn's end) and, unless it stays open, its end
    (NO4). The first forbidden action exits 4 naming its place (R1 turn 2
    (ogre) step 1) and nothing is written; document faults exit 3 together,
    before any die. Otherwise the state after is written atomically to STATE
    (or --out), and the result is printed.
    """
    from linguo_cli.core import requests
    from linguo_cli.io.document import Document
    from linguo_cli.io.places import locate_errors
    from linguo_cli.io.read import load
    from linguo_cli.io.write import atomic_write, dump_document
    from linguo_cli.rulesets.novence_eternal.render import emit
    from linguo_cli.rulesets.novence_eternal.validation import validate_request

    target = _write_target(state, out, dry_run)
    state_doc, script_doc = load(state), load(script_file)
    request = _request(state_doc, script_doc)
    faces = parse.faces(rolls)
    if faces is not None and seed is not None:
        raise UsageError("give --rolls or --seed, not both")
    if faces is not None:
        request["rolls"] = faces
        request.pop("seed", None)
    if seed is not None:
        request["seed"] = seed
        request.pop("rolls", None)
    request = with_command_line_options(request)
    try:
        validate_request(Document("<request>", request))
        result = requests.resolve_typed(request, None)
    except InputError as exc:
        raise locate_errors(exc, script_doc, state_doc) from None
    new_state = result.state
    if hasattr(state_doc, "snapshot"):
        state_doc.snapshot()
    for key in list(state_doc.data):
        if key not in new_state:
            del state_doc.data[key]
    for key, value in new_state.items():
        if state_doc.data.get(key) != value:
            state_doc.data[key] = value
    if target is not None:
        text = dump_document(state_doc)
        if target == "-":
            sys.stdout.write(text)
            emit(result, as_json=json_, explain=explain, out=sys.stderr)
            return
        atomic_write(target, text)
    emit(result, as_json=json_, explain=explain)
