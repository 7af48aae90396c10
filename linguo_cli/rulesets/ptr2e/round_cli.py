"""``linguo ptr2e round STATE SCRIPT``: read the two documents, resolve the
``round`` request (PV1-PV5) and write the next round's state back
atomically (``-o FILE`` or ``--in-place``), keeping the state file's
comments and layout: only ``round``, ``pending_triggers`` and each
combatant's ``owed_skips``, ``owed_cost`` and ``pp`` are rewritten, and under
``scheduler: av`` each ``av`` and ``round_marker_av`` (PV5, PV7), so the
next round from the file goes on along the same timeline."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from linguo_cli.core.errors import Diagnostic, InputError, UsageError

#: Keys of a script document besides the round(s) themselves.
SCRIPT_KEYS = ("stream", "script", "rounds", "rolls", "seed", "options")


def play_round(state: str, script: str, *, output: str | None, in_place: bool, dice: Any,
               as_json: bool, explain: bool,
               with_options: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Play the script's round(s) on the state file; see the module text.
    ``with_options`` merges the command line's ``--option`` values into the
    request. Exit 2 for ``-o`` with ``--in-place``, 3 for invalid documents
    (with ``file:line:col``), 4 for a rules refusal; nothing is written then."""
    from linguo_cli.core import requests
    from linguo_cli.io.document import Document, to_plain
    from linguo_cli.io.places import locate_errors
    from linguo_cli.io.read import load
    from linguo_cli.io.write import atomic_write, dump_document
    from linguo_cli.rulesets.ptr2e import RULESET
    from linguo_cli.rulesets.ptr2e.render import emit

    if output and in_place:
        raise UsageError("give -o FILE or --in-place, not both")
    state_doc = load(state, lock=True)
    script_doc = load(script)
    data = script_doc.data
    if not isinstance(data, dict):
        raise InputError(Diagnostic(script_doc.name, "", "a script is a mapping with stream "
                                    "and script, or rounds"))
    extra = [k for k in data if k not in SCRIPT_KEYS]
    if extra:
        raise InputError(Diagnostic(script_doc.name, str(extra[0]),
                                    f"bad_parameter: unknown key {extra[0]!r} (PV1)"))
    request: dict[str, Any] = {"ruleset": "ptr2e", "kind": "round",
                               **to_plain({k: data[k] for k in data}),
                               "state": to_plain(state_doc.data)}
    request = with_options(request)
    doc = Document(script_doc.name, request)
    try:
        RULESET.validate(doc)
        result = requests.resolve(request, dice)
    except InputError as exc:
        raise locate_errors(exc, script_doc, state_doc) from None
    target = state_doc.name if in_place else output
    if target:
        if in_place and state_doc.name == "<stdin>":
            raise UsageError("--in-place needs a state file, not stdin")
        _update(state_doc, result["state_after"])
        text = dump_document(state_doc)
        if target == "-":
            emit(result, as_json=as_json, explain=explain)
            print(text, end="")
            return
        atomic_write(target, text)
    emit(result, as_json=as_json, explain=explain)


def _update(state_doc: Any, after: dict[str, Any]) -> None:
    """Write the changed values of ``after`` into the loaded state document."""
    if hasattr(state_doc, "snapshot"):
        state_doc.snapshot()
    data = state_doc.data
    for key in ("round", "pending_triggers", "round_marker_av"):
        if key in after and data.get(key) != after[key]:
            data[key] = after[key]
    for name, spec in after["combatants"].items():
        node = data["combatants"][name]
        for key in ("owed_skips", "owed_cost", "pp", "av"):
            if key in spec and node.get(key) != spec[key]:
                node[key] = spec[key]


def show_initiative(state: str, rounds: int, *, as_json: bool,
                    with_options: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Print the AV timeline of a state for ``rounds`` rounds (PV6, PV7):
    each round's order and the AVs the next round starts with. The rounds
    are played without steps under ``scheduler: av`` (its options apply);
    nothing is written. Exit 3 for an invalid state, 4 for a tie the
    ``initiative`` list cannot break (``tie_unresolved``, PV7)."""
    import json
    import sys

    from linguo_cli.core import requests
    from linguo_cli.io.document import Document, to_plain
    from linguo_cli.io.places import locate_errors
    from linguo_cli.io.read import load
    from linguo_cli.rulesets.ptr2e import RULESET

    state_doc = load(state)
    request = with_options({"ruleset": "ptr2e", "kind": "round",
                            "state": to_plain(state_doc.data),
                            "rounds": [{} for _ in range(rounds)]})
    request["options"] = {"scheduler": "av", **request.get("options", {})}
    try:
        RULESET.validate(Document(state_doc.name, request))
        result = requests.resolve(request, None)
    except InputError as exc:
        raise locate_errors(exc, None, state_doc) from None
    combatants = result["state_after"]["combatants"]
    if as_json:
        out = {"base_av": result["rounds"][0]["base_av"],
               "rounds": [{"round": r["round"], "stream": r["stream"]}
                          for r in result["rounds"]],
               "av": {n: c["av"] for n, c in combatants.items()},
               "round_marker_av": result["state_after"]["round_marker_av"]}
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return
    base = result["rounds"][0]["base_av"]
    lines = ["Base AV: " + ", ".join(f"{n} {b}" for n, b in base.items())]
    lines += [f"round {r['round']}: " + (", ".join(r["stream"]) or "no Activation")
              for r in result["rounds"]]
    lines.append(f"round {result['state_after']['round']} starts with AV "
                 + ", ".join(f"{n} {c['av']}" for n, c in combatants.items())
                 + f", marker {result['state_after']['round_marker_av']}")
    sys.stdout.write("".join(f"{line}\n" for line in lines))
