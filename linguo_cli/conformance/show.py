"""``linguo golden show RULESET/FILE::ID``: one golden case, ready to feed an engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from linguo_cli.conformance import golden
from linguo_cli.core import ruleset as rulesets
from linguo_cli.core.errors import UsageError


def find_case(root: Path | None, test_id: str) -> golden.Case:
    """The case ``RULESET/FILE::ID`` of the suite at ``root`` (``None``: the
    suites of every installed ruleset); ``FILE::ID`` or a bare ``ID`` are
    accepted when they name one case. :class:`UsageError` (exit 2) when
    there is none or the id is ambiguous; :class:`InputError` (exit 3) for a
    broken suite or an unknown ruleset."""
    cases = _cases(root, test_id)
    if "::" in test_id:
        found = [c for c in cases if test_id in (c.test_id, c.local_id)]
    else:
        found = [c for c in cases if c.id == test_id]
    if len(found) == 1:
        return found[0]
    where = root if root is not None else "the installed suites"
    if not found:
        raise UsageError(f"no case {test_id!r} in {where} (give RULESET/FILE::ID, e.g. "
                         f"{cases[0].test_id if cases else 'linguomancy/tests/degrees.yaml::ID'})")
    raise UsageError(f"case id {test_id!r} is in {len(found)} files: "
                     + ", ".join(c.test_id for c in found))


def _cases(root: Path | None, test_id: str) -> list[golden.Case]:
    """The cases to look in: the suite at ``root``; else, for
    ``RULESET/FILE::ID`` with an installed ``RULESET``, that ruleset's suite;
    else every installed ruleset's."""
    if root is not None:
        return golden.load_cases(root)
    head = test_id.split("::", 1)[0].split("/", 1)[0] if "::" in test_id else ""
    if head and rulesets.canonical(head) == head:
        return golden.load_cases(golden.suite_dir(head))
    return [c for name in rulesets.names() for c in golden.load_cases(golden.suite_dir(name))]


def case_json(case: golden.Case) -> dict[str, Any]:
    """``{test_id, file, line, description, rules, examples, request,
    expect | expect_error}`` (the ``--json`` shape)."""
    out: dict[str, Any] = {"test_id": case.test_id, "file": case.file, "line": case.line,
                           "description": case.description, "rules": list(case.rules),
                           "examples": list(case.examples), "request": case.request}
    if case.expect_error is not None:
        out["expect_error"] = case.expect_error
    else:
        out["expect"] = case.expect
    return out


def case_lines(case: golden.Case) -> list[str]:
    """The text form: where the case is, what it shows, the request as one
    JSON line and the expectation as one JSON line."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    lines = [f"# {case.test_id} ({case.where})",
             f"# {' '.join(case.description.split())}",
             f"# rules: {', '.join(case.rules) or '-'}; examples: "
             f"{', '.join(case.examples) or '-'}",
             f"request: {one(case.request)}"]
    if case.expect_error is not None:
        lines.append(f"expect_error: {one(case.expect_error)}")
    else:
        lines.append(f"expect: {one(case.expect)}")
    return lines
