"""Choosing which golden cases run, and which are skipped (``linguo verify``).

Three independent steps, in this order:

1. **Selection** (``--ruleset``, ``--filter``, ``--exclude``): cases left out
   are not run and not counted.
2. **Capability**: a case whose ``ruleset/kind`` the implementation did not
   declare (``--kinds``, or the batch hello's ``rulesets``) is *skipped*
   before it is sent; so is a case the ``--skip`` file lists (with its reason).
3. An implementation's reserved "unsupported" answer (plain: exit 69; batch:
   ``{"unsupported": true}``) skips the case it was sent (golden.py).

Skipped cases are counted and reported, never passed. Selector forms are in
:func:`matches`; the skip-file format in :func:`load_skip_file`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from linguo_cli.conformance.suite import DEFAULT_RULESET, Case
from linguo_cli.core import ruleset as rulesets
from linguo_cli.core.errors import Diagnostic, InputError, UsageError

_PREFIXED = re.compile(r"(ruleset|kind|rule|example|file|id):(?!:)(.+)")


def qualify_kind(text: str) -> str:
    """``check`` or ``linguomancy/check`` -> ``linguomancy/check``; raises
    :class:`UsageError` (exit 2) for an unknown ruleset or kind."""
    ruleset, _, kind = text.strip().rpartition("/")
    name = rulesets.canonical(ruleset or DEFAULT_RULESET)
    if name is None:
        raise UsageError(f"unknown ruleset {ruleset!r} in {text!r} (installed: "
                         f"{', '.join(rulesets.names())})")
    kinds = kinds_of(name)
    if kind not in kinds:
        raise UsageError(f"unknown request kind {kind!r} of {name} (known: "
                         f"{', '.join(kinds)})")
    return f"{name}/{kind}"


def kinds_of(name: str) -> tuple[str, ...]:
    """The request kinds of the installed ruleset ``name`` (canonical)."""
    return rulesets.get(name).kinds


def matches(case: Case, pattern: str) -> bool:
    """Whether ``case`` matches one ``--filter``/``--exclude`` selector.

    Prefixed forms: ``ruleset:NAME``; ``kind:check`` or
    ``kind:linguomancy/check``; ``rule:D4``; ``example:DR-04``;
    ``file:PATH`` (a case file, or a folder prefix ending in ``/``) and
    ``id:ID`` (a case id, or a whole test id ``RULESET/FILE::ID`` or, as
    before rulesets, ``FILE::ID``; globs allowed). Bare forms (as before):
    an example or rule ID the case cites, a case id, a path prefix of the
    test id (``linguomancy/tests/``, ``tests/``, ``tests/degrees.yaml::m0``)
    or a glob on the test id (``*::nat20-*``). Test ids are matched in both
    spellings, ``RULESET/FILE::ID`` and ``FILE::ID``."""
    m = _PREFIXED.fullmatch(pattern)
    if m is None:
        return _matches_bare(case, pattern)
    what, value = m.groups()
    if what == "ruleset":
        return case.ruleset == (rulesets.canonical(value) or value)
    if what == "kind":
        return case.kind == (value if "/" in value else f"{DEFAULT_RULESET}/{value}")
    if what == "rule":
        return value in case.rules
    if what == "example":
        return value in case.examples
    if what == "file":
        return case.file == value or (value.endswith("/") and case.file.startswith(value)) \
            or fnmatchcase(case.file, value)
    if "::" not in value:
        return fnmatchcase(case.id, value)
    return any(fnmatchcase(target, value) for target in (case.test_id, case.local_id))


def _matches_bare(case: Case, pattern: str) -> bool:
    if pattern in case.examples or pattern in case.rules or pattern == case.id:
        return True
    ids = (case.test_id, case.local_id)
    if any(c in pattern for c in "*?["):
        return any(fnmatchcase(target, pattern) for target in ids)
    return any(target.startswith(pattern) for target in ids)


def select(cases: Iterable[Case], filters: list[str] | None = None,
           excludes: list[str] | None = None, rulesets: Iterable[str] | None = None
           ) -> list[Case]:
    """The cases of ``rulesets`` (all when ``None``) matching any of
    ``filters`` (all when none) and none of ``excludes``, in suite order."""
    wanted = None if rulesets is None else set(rulesets)
    return [c for c in cases
            if (wanted is None or c.ruleset in wanted)
            and (not filters or any(matches(c, p) for p in filters))
            and not any(matches(c, p) for p in excludes or ())]


def check_rulesets(names: Iterable[str]) -> list[str]:
    """``--ruleset`` values (canonical names or aliases) -> canonical names of
    installed rulesets, in the order given, each once (else :class:`UsageError`)."""
    out: list[str] = []
    for name in names:
        canonical = rulesets.canonical(name)
        if canonical is None:
            raise UsageError(f"--ruleset {name}: not an installed ruleset (installed: "
                             f"{', '.join(rulesets.names())})")
        if canonical not in out:
            out.append(canonical)
    return out


@dataclass(slots=True)
class Capability:
    """What an implementation declares it implements: qualified kinds
    (``linguomancy/check``), or ``None`` for "every kind" of ``rulesets``."""

    rulesets: tuple[str, ...] = (DEFAULT_RULESET,)
    kinds: frozenset[str] | None = None
    source: str = "default"

    def supports(self, case: Case) -> bool:
        return case.ruleset in self.rulesets and (self.kinds is None or case.kind in self.kinds)


def capability_from_kinds(values: list[str]) -> Capability:
    """``--kinds check,attack`` (repeatable, comma-separated, qualified or not)."""
    kinds = frozenset(qualify_kind(k) for v in values for k in v.split(",") if k.strip())
    if not kinds:
        raise UsageError("--kinds needs at least one request kind")
    rulesets = tuple(sorted({k.split("/")[0] for k in kinds}))
    return Capability(rulesets, kinds, "--kinds")


def capability_from_hello(hello: Mapping[str, Any] | None) -> Capability:
    """The batch hello's declaration: ``{"rulesets": ["linguomancy", ...]}``
    (every kind of each) or ``{"rulesets": {"linguomancy": {"kinds":
    [...]}}}`` (a ruleset without ``kinds``: all of its kinds). Rulesets it
    names that are not installed are ignored, and so are unknown kinds (a
    newer implementation may know more). No ``rulesets``: Linguomancy, every
    kind."""
    declared = hello.get("rulesets") if isinstance(hello, Mapping) else None
    if isinstance(declared, list):
        declared = {r: {} for r in declared if isinstance(r, str)}
    if not isinstance(declared, Mapping):
        return Capability()
    chosen = tuple(r for r in rulesets.names() if r in declared)
    kinds: set[str] = set()
    every = True
    for r in chosen:
        spec = declared[r]
        listed = spec.get("kinds") if isinstance(spec, Mapping) else None
        if isinstance(listed, list):
            every = False
            kinds.update(f"{r}/{k}" for k in listed if isinstance(k, str) and k in kinds_of(r))
        else:
            kinds.update(f"{r}/{k}" for k in kinds_of(r))
    return Capability(chosen, None if every else frozenset(kinds), "hello")


@dataclass(frozen=True, slots=True)
class SkipEntry:
    """One line of a skip file: a selector (as ``--filter``) and its reason."""

    pattern: str
    reason: str
    place: str


@dataclass(slots=True)
class SkipList:
    """The entries of a ``--skip`` file; :meth:`reason` gives the first match."""

    entries: list[SkipEntry] = field(default_factory=list)
    used: set[str] = field(default_factory=set)

    def reason(self, case: Case) -> str | None:
        for e in self.entries:
            if matches(case, e.pattern):
                self.used.add(e.place)
                return f"skip list: {e.reason}"
        return None

    def unused(self) -> list[SkipEntry]:
        """Entries that matched no case (probably a typo)."""
        return [e for e in self.entries if e.place not in self.used]


def load_skip_file(path: str) -> SkipList:
    """Read a skip file: one entry per line, ``SELECTOR  # reason``.

    ``SELECTOR`` is any ``--filter`` form (a test id ``RULESET/FILE::ID`` or ``FILE::ID``, a glob
    such as ``damage/*``, ``kind:cast``, ``rule:H6``...). The reason after
    ``#`` is required. Blank lines and lines starting with ``#`` are
    comments. Raises :class:`InputError` (exit 3, ``file:line``) for an entry
    without a reason, :class:`UsageError` (exit 2) when the file is missing."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--skip {path}: cannot read it: {exc}") from None
    out = SkipList()
    problems = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, _, reason = line.partition("#")
        place = f"{path}:{n}"
        if not reason.strip() or not pattern.strip():
            problems.append(Diagnostic(place, "", "a skip entry is 'SELECTOR  # reason' "
                                                  "(the reason is required)"))
            continue
        out.entries.append(SkipEntry(pattern.strip(), reason.strip(), place))
    if problems:
        raise InputError(problems)
    return out
