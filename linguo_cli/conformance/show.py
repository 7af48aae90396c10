"""``linguo golden show FILE::ID``: one golden case, ready to feed an engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from linguo_cli.conformance import golden
from linguo_cli.core.errors import UsageError


def find_case(root: Path, test_id: str) -> golden.Case:
    """The case ``FILE::ID`` of the suite at ``root`` (a bare ``ID`` when it
    is unique in the suite); :class:`UsageError` (exit 2) when there is none
    or a bare id is ambiguous; :class:`InputError` (exit 3) for a broken suite."""
    cases = golden.load_cases(root)
    if "::" in test_id:
        found = [c for c in cases if c.test_id == test_id]
    else:
        found = [c for c in cases if c.id == test_id]
    if len(found) == 1:
        return found[0]
    if not found:
        raise UsageError(f"no case {test_id!r} in {root} (give FILE::ID, e.g. "
                         f"{cases[0].test_id if cases else 'tests/degrees.yaml::ID'})")
    raise UsageError(f"case id {test_id!r} is in {len(found)} files: "
                     + ", ".join(c.test_id for c in found))


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
