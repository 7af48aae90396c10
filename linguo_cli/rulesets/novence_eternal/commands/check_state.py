"""``linguo novence check-state FILE``: check a Novence Eternal state or
request document without resolving anything (NV1-NV3, NV6).

A document with a ``kind`` is a request: its schema, then NV1-NV3's checks
(:func:`~linguo_cli.rulesets.novence_eternal.validation.validate_request`).
Any other document is a state (NV1): ``schemas/state.schema.json``, then
NV1's state checks (:mod:`~linguo_cli.rulesets.novence_eternal.state_checks`).
Every problem is one line, ``FILE:LINE:COL: PLACE: message [code, rule]``,
all of them together (NV6). Exit 0 valid, 2 a bad command line, 3 invalid.

No ``from __future__ import annotations``: Typer reads the signatures.
"""

import json
from collections.abc import Mapping
from typing import Annotated, Any

import typer

from linguo_cli.cli.options import JsonOpt, examples

commands = typer.Typer()


def check_document(doc: Any, cli_options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Check a loaded document (a :class:`~linguo_cli.io.document.Document`):
    a request when it has ``kind``, else a state; ``cli_options`` (checked
    ``--option`` values) win over the document's own options. Returns the
    summary ``{valid: true, document, kind?, combatants}``; raises
    ``InputError`` (exit 3) with every problem, placed."""
    from linguo_cli.rulesets.novence_eternal.state_checks import (
        check_request,
        check_state,
        raise_problems,
    )
    from linguo_cli.rulesets.novence_eternal.validation import SCHEMAS, validate_request

    data = doc.data
    if isinstance(data, Mapping) and "kind" in data:
        if SCHEMAS.errors(doc, "request"):
            validate_request(doc)  # raises the schema's faults, every one
        raise_problems(check_request(data, cli_options), doc)
        state = data.get("state")
        listed = state.get("combatants", []) if isinstance(state, Mapping) else []
        return {"valid": True, "document": "request", "kind": data["kind"],
                "combatants": len(listed)}
    diags = SCHEMAS.errors(doc, "state")
    if diags:
        raise _state_schema_error(diags)
    raise_problems(check_state(data, request={"options": cli_options or {}}), doc)
    return {"valid": True, "document": "state", "combatants": len(data["combatants"])}


def _state_schema_error(diags: list[Any]) -> Any:
    """The schema faults of a state (exit 3, rule NV1): ``missing_input``
    when the first is a required key left out, else ``bad_input``."""
    from linguo_cli.core.errors import InputError

    error = InputError(diags)
    required = "is a required property" in diags[0].message
    error.refusal = "missing_input" if required else "bad_input"  # type: ignore[attr-defined]
    error.rule = "NV1"  # type: ignore[attr-defined]
    return error


def _command_line_options() -> dict[str, Any]:
    """The ``--option`` values given (checked: exit 3 for a bad one)."""
    from linguo_cli.cli.options import with_command_line_options

    given = with_command_line_options({"ruleset": "novence-eternal"}).get("options")
    return dict(given) if isinstance(given, Mapping) else {}


@commands.command(name="check-state",
                  epilog=examples("linguo novence check-state examples/novence-eternal/"
                                  "ayla-and-ogre.state.yaml",
                                  "linguo novence check-state examples/novence-eternal/"
                                  "contradictions.state.yaml  # exits 3"),
                  short_help="Check a state or request document (NV1-NV3), resolve nothing.")
def check_state_command(
    file: Annotated[str, typer.Argument(help="A state or request document (YAML or JSON); "
                                             "- for stdin.")],
    json_: JsonOpt = False,
) -> None:
    """Check a Novence Eternal state (NV1) or request (NV3) without resolving
    it: its schema, then the state checks (ranges, references between
    fields, unique ids, catalog names). Every problem is reported, one line
    each with its place, code and rule (NV6). Exit codes: 0 valid; 2 a bad
    command line; 3 invalid (missing_input, bad_input, bad_option)."""
    from linguo_cli.io.read import load

    doc = load(file)
    summary = check_document(doc, _command_line_options())
    if json_:
        typer.echo(json.dumps(summary))
        return
    if summary["document"] == "request":
        typer.echo(f"{doc.name}: a valid {summary['kind']} request")
    else:
        n = summary['combatants']
        typer.echo(f"{doc.name}: a valid state ({n} combatant{'' if n == 1 else 's'})")
