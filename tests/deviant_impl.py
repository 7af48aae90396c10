"""A deliberately deviant Linguomancy implementation, to prove that
``linguo verify --impl`` catches deviations.

It speaks the adapter protocol of ``golden/README.md`` by itself (plain mode:
one request on stdin, the result on stdout, the error code as exit code;
``--batch``: hello line, then JSON lines) and answers every request as linguo
does, with one misreading of rule D5: on a d20 test (``check``, ``attack``,
``save``) whose kept face is a natural 20, it adds +10 to the total instead
of moving the degree one step up. Margin, degrees, ``success``, ``hit`` and
the critical flags follow from that total; ``shift`` becomes ``null``.
Everything else (faces, modifiers, target, rules, explanation) is left as
linguo gives it.

Usage: ``python tests/deviant_impl.py [--batch]``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.core.errors import LinguoError
from linguo_cli.io import state_io
from linguo_cli.rulesets.linguomancy import requests

D20_KINDS = ("check", "attack", "save")


def band(margin: int) -> str:
    """The D4 table, written out again on purpose (no linguo code)."""
    if margin >= 10:
        return "critical_success"
    if margin >= 0:
        return "success"
    if margin == -1:
        return "partial_success"
    if margin >= -3:
        return "partial_failure"
    if margin >= -9:
        return "failure"
    return "critical_failure"


def deviate(request: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """Apply the misreading to linguo's ``result`` of ``request``."""
    if request.get("kind") not in D20_KINDS or result.get("natural") != 20:
        return result
    if result.get("margin") is None:
        return result
    out = dict(result)
    out["total"] = result["total"] + 10
    out["margin"] = result["margin"] + 10
    out["unadjusted_degree"] = out["degree"] = band(out["margin"])
    out["shift"] = None
    out["success"] = out["margin"] >= 0
    if request["kind"] == "attack":
        hits = {"success", "critical_success"}
        if request.get("partial_success_hits"):
            hits.add("partial_success")
        out["hit"] = out["degree"] in hits
        out["critical_hit"] = out["degree"] == "critical_success"
        out["critical_miss"] = out["degree"] == "critical_failure"
    return out


def answer(text: str) -> tuple[dict[str, Any] | None, int, str]:
    """``(result, 0, "")`` or ``(None, code, message)`` for one request text."""
    try:
        request = json.loads(text)
        if not isinstance(request, dict):
            return None, 3, "a request must be a JSON object"
        state_io.validate(state_io.Document("<request>", request), "request")
        dice = None if "rolls" in request or "seed" in request else ScriptedDice([])
        result = requests.resolve_plain(json.loads(text), dice)
    except ValueError as exc:
        return None, 3, f"not JSON: {exc}"
    except LinguoError as exc:
        return None, exc.code, exc.message
    return deviate(request, result), 0, ""


def main(argv: list[str]) -> int:
    if "--batch" not in argv:
        result, code, message = answer(sys.stdin.read())
        if result is None:
            sys.stderr.write(f"deviant: {message}\n")
            return code
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    hello = json.loads(sys.stdin.readline())
    ready = hello.get("suite") == "linguo-golden"
    sys.stdout.write(json.dumps({"ready": ready, "implementation": "deviant"}) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        result, code, message = answer(line)
        reply = result if result is not None else {"error": code, "message": message}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
