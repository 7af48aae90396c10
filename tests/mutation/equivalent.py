"""``equivalent.txt``: the mutants judged equivalent, each with its reason.

One entry a line, ``#`` starts a comment line. Two forms of the id:

* ``module:line:col:operator reason`` (what ``run.py`` prints; breaks when
  lines above it move), e.g. ``dice:263:26:Lt->LtE a sign is never 0``;
* ``module:@<stripped source line>:col:operator reason``, naming the line by
  its text (``run.py --list --text-ids`` prints it), e.g.
  ``dice:@if term.sign < 0:13:Lt->LtE a sign is never 0``. It applies to every
  line of the module with exactly that text (stripped of surrounding blanks);
  where two such lines differ in verdict, use the line-number form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tests.mutation.mutants import Mutant

_OP = r"(?:[A-Za-z]+->[A-Za-z]+|NotRemoved|CondNegated|-?\d+->-?\d+)(?:#\d+)?"
_LINE_FORM = re.compile(rf"^(?P<id>\w+:\d+:\d+:{_OP})(?:\s+(?P<reason>.*))?$")
_TEXT_FORM = re.compile(
    rf"^(?P<module>\w+):@(?P<text>.*?):(?P<col>\d+):(?P<op>{_OP})(?:\s+(?P<reason>.*))?$")


@dataclass
class Equivalents:
    """The parsed list: ``by_id`` (line-number form) and ``by_text`` keyed
    ``(module, stripped line, col, op#index)``; ``bad`` holds the lines of
    neither form (reported, never silently dropped)."""

    by_id: dict[str, str] = field(default_factory=dict)
    by_text: dict[tuple[str, str, int, str], str] = field(default_factory=dict)
    bad: list[str] = field(default_factory=list)

    def reason(self, mutant: Mutant, lines: list[str]) -> str | None:
        """The reason ``mutant`` is listed as equivalent, or ``None``;
        ``lines`` are its module's source lines."""
        if mutant.id in self.by_id:
            return self.by_id[mutant.id]
        key = (mutant.module, lines[mutant.line - 1].strip(), mutant.col, mutant.op_id)
        return self.by_text.get(key)

    def unmatched(self, module: str, mutants: list[Mutant], lines: list[str]) -> list[str]:
        """The entries of ``module`` that name none of its ``mutants`` (stale
        ids after an edit), in their written form."""
        ids = {m.id for m in mutants}
        keys = {(m.module, lines[m.line - 1].strip(), m.col, m.op_id) for m in mutants}
        stale = [i for i in self.by_id if i.split(":", 1)[0] == module and i not in ids]
        stale += [f"{k[0]}:@{k[1]}:{k[2]}:{k[3]}" for k in self.by_text
                  if k[0] == module and k not in keys]
        return stale


def parse_equivalent(text: str) -> Equivalents:
    """Parse the text of ``equivalent.txt`` (both id forms)."""
    out = Equivalents()
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if m := _LINE_FORM.match(line):
            out.by_id[m["id"]] = (m["reason"] or "").strip()
        elif m := _TEXT_FORM.match(line):
            key = (m["module"], m["text"].strip(), int(m["col"]), m["op"])
            out.by_text[key] = (m["reason"] or "").strip()
        else:
            out.bad.append(line)
    return out


def load_equivalent(path: Path) -> Equivalents:
    """Parse ``path`` (an empty list when it does not exist)."""
    if not path.exists():
        return Equivalents()
    return parse_equivalent(path.read_text(encoding="utf-8"))
