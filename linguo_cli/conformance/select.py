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

from linguo_cli.conformance.golden import DEFAULT_RULESET, RULESETS, Case
from linguo_cli.core.errors import Diagnostic, InputError, UsageError

#: The request kinds of Linguomancy, as its request schema lists them.
LINGUOMANCY_KINDS = ("check", "attack", "save", "damage", "heal", "temp_hp", "death_save",
                     "rest", "cast", "overclock", "turn", "odds", "ticks", "dice")
#: Request kinds per installed ruleset.
KINDS: dict[str, tuple[str, ...]] = {DEFAULT_RULESET: LINGUOMANCY_KINDS}
_PREFIXED = re.compile(r"(ruleset|kind|rule|example|file|id):(?!:)(.+)")


def qualify_kind(text: str) -> str:
    """``check`` or ``linguomancy/check`` -> ``linguomancy/check``; raises
    :class:`UsageError` (exit 2) for an unknown ruleset or kind."""
    ruleset, _, kind = text.strip().rpartition("/")
    ruleset = ruleset or DEFAULT_RULESET
    if ruleset not in KINDS:
        raise UsageError(f"unknown ruleset {ruleset!r} in {text!r} (installed: "
                         f"{', '.join(RULESETS)})")
    if kind not in KINDS[ruleset]:
        raise UsageError(f"unknown request kind {kind!r} of {ruleset} (known: "
                         f"{', '.join(KINDS[ruleset])})")
    return f"{ruleset}/{kind}"


def matches(case: Case, pattern: str) -> bool:
    """Whether ``case`` matches one ``--filter``/``--exclude`` selector.

    Prefixed forms: ``ruleset:NAME``; ``kind:check`` or
    ``kind:linguomancy/check``; ``rule:D4``; ``example:DR-04``;
    ``file:PATH`` (a case file, or a folder prefix ending in ``/``) and
    ``id:ID`` (a case id, or a whole test id ``FILE::ID``; globs allowed).
    Bare forms (as before): an example or rule ID the case cites, a case id,
    a path prefix of the test id (``tests/``, ``tests/degrees.yaml::m0``) or
    a glob on the test id (``*::nat20-*``)."""
    m = _PREFIXED.fullmatch(pattern)
    if m is None:
        return _matches_bare(case, pattern)
    what, value = m.groups()
    if what == "ruleset":
        return case.ruleset == value
    if what == "kind":
        return case.kind == (value if "/" in value else f"{DEFAULT_RULESET}/{value}")
    if what == "rule":
        return value in case.rules
    if what == "example":
        return value in case.examples
    if what == "file":
        return case.file == value or (value.endswith("/") and case.file.startswith(value)) \
            or fnmatchcase(case.file, value)
    target = case.test_id if "::" in value else case.id
    return fnmatchcase(target, value)


def _matches_bare(case: Case, pattern: str) -> bool:
    if pattern in case.examples or pattern in case.rules or pattern == case.id:
        return True
    if any(c in pattern for c in "*?["):
        return fnmatchcase(case.test_id, pattern)
    return case.test_id.startswith(pattern)


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
    """``--ruleset`` values, each an installed ruleset (else :class:`UsageError`)."""
    out = []
    for name in names:
        if name not in RULESETS:
            raise UsageError(f"--ruleset {name}: not an installed ruleset (installed: "
                             f"{', '.join(RULESETS)})")
        out.append(name)
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
    """The batch hello's declaration ``{"rulesets": {"linguomancy": {"kinds":
    [...]}}}``: rulesets it names that are installed; a ruleset without
    ``kinds`` means all of its kinds. No ``rulesets``: Linguomancy, every kind.
    Unknown kinds are ignored (a newer implementation may know more)."""
    declared = hello.get("rulesets") if isinstance(hello, Mapping) else None
    if not isinstance(declared, Mapping):
        return Capability()
    rulesets = tuple(r for r in RULESETS if r in declared)
    kinds: set[str] = set()
    every = True
    for r in rulesets:
        spec = declared[r]
        listed = spec.get("kinds") if isinstance(spec, Mapping) else None
        if isinstance(listed, list):
            every = False
            kinds.update(f"{r}/{k}" for k in listed if isinstance(k, str) and k in KINDS[r])
        else:
            kinds.update(f"{r}/{k}" for k in KINDS[r])
    return Capability(rulesets, None if every else frozenset(kinds), "hello")


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

    ``SELECTOR`` is any ``--filter`` form (a test id ``FILE::ID``, a glob
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
