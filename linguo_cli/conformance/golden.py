"""The golden conformance suite: loading, checking, exporting and running it.

A case file (``golden/**/*.yaml``, JSON-compatible YAML, or ``*.json`` in an
exported suite) holds a list of cases; each case is a request, the dice faces
it consumes (inside the request's ``rolls``), and either ``expect`` (a partial
result: listed keys must match exactly, unlisted keys are free) or
``expect_error`` (an exit code, 3 invalid input or 4 rules violation, or an
error object ``{"exit", "code"?, "rule"?}``: :mod:`linguo_cli.core.error_object`). The
suite's catalog files list what must be covered: ``EXAMPLES.yaml`` (every
worked-example ID, with the suite ``version``) and ``RULES.yaml`` (every rule
ID of the rulings, each with its full ``statement``). The contract is written
in ``golden/README.md``; ``linguo verify``'s loop and reports are in
:mod:`linguo_cli.conformance.run`, case selection and skipping in
:mod:`linguo_cli.conformance.select`.

This module holds both ends of the adapter protocol:

* the runner side (``linguo verify``): :func:`run_in_process` (linguo itself),
  :class:`PlainImplementation` (one process per case) and
  :class:`BatchImplementation` (one long-lived process speaking JSON lines);
* the implementation side (``linguo adapter``): :func:`serve_plain` and
  :func:`serve_batch`, linguo answering the protocol as any implementation
  would.

Suite problems are :class:`~linguo_cli.core.errors.Diagnostic` values with
``file:line:col`` places; nothing here applies a rule.
"""

from __future__ import annotations

import copy
import io
import json
import math
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from linguo_cli.core import error_object
from linguo_cli.core.errors import Diagnostic, InputError, LinguoError, UsageError
from linguo_cli.rulesets.linguomancy import packaged

#: Name of the suite, announced in the batch protocol's hello line.
SUITE_NAME = "linguo-golden"
#: Catalog files at the top of a suite (``.yaml`` or ``.json``); never case files.
CATALOG_NAMES = ("EXAMPLES", "RULES")
#: The ruleset of a request without ``ruleset`` (and the only one installed today).
DEFAULT_RULESET = "linguomancy"
#: Installed rulesets, by canonical name.
RULESETS = (DEFAULT_RULESET,)
#: Exit code of a plain-mode implementation meaning "this request is not supported".
UNSUPPORTED_EXIT = 69
#: The suite's copy of linguo's schemas (not case files): ``golden/schemas/``.
SCHEMAS_DIR = "schemas"
#: Fewest words of a rule's ``statement`` in RULES (the suite carries every rule it tests).
MIN_STATEMENT_WORDS = 12
#: Seconds an implementation may take for one case (``linguo verify --timeout``).
DEFAULT_TIMEOUT = 10.0
#: Plain scalars that YAML 1.1 readers take for booleans: they must be quoted.
_YAML11_BOOLEANS = frozenset({"yes", "no", "on", "off", "y", "n"})
#: Plain scalars that YAML readers take for timestamps: they must be quoted.
_YAML_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}"
    r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?")


@dataclass(frozen=True, slots=True)
class Case:
    """One golden case: ``file::id`` is its test id (``file`` relative to the suite)."""

    file: str
    id: str
    description: str
    examples: tuple[str, ...]
    rules: tuple[str, ...]
    request: Mapping[str, Any]
    expect: Mapping[str, Any] | None
    expect_error: int | Mapping[str, Any] | None
    line: int = 0

    @property
    def test_id(self) -> str:
        return f"{self.file}::{self.id}"

    @property
    def ruleset(self) -> str:
        """The request's ``ruleset`` (``linguomancy`` when absent)."""
        name = self.request.get("ruleset", DEFAULT_RULESET)
        return name if isinstance(name, str) else DEFAULT_RULESET

    @property
    def kind(self) -> str:
        """The request's kind qualified by its ruleset: ``linguomancy/check``."""
        return f"{self.ruleset}/{self.request.get('kind')}"

    @property
    def where(self) -> str:
        """``file:line`` of the case in its file (``file`` when unknown)."""
        return f"{self.file}:{self.line}" if self.line else self.file


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


#: Stands for "the key is absent" in a :class:`Mismatch`.
MISSING: Any = _Missing()


#: Control characters ``json.dumps`` leaves raw (DEL and C1): escaped by :func:`show`.
_JSON_UNESCAPED_CONTROL = re.compile("[\x7f-\x9f]")


def show(value: Any, limit: int = 200) -> str:
    """A value as compact JSON text for messages (``true``, ``"21/2"``), cut at
    ``limit``; control characters are escaped (``\\u007f``), never printed raw."""
    if value is MISSING:
        return "nothing (key missing)"
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):
        text = repr(value)
    text = _JSON_UNESCAPED_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One difference: ``path`` (``entities.ayla.after.hp``, ``faces[1].kept``),
    the expected value and the actual one (:data:`MISSING` when absent)."""

    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.path or '(result)'}: expected {show(self.expected)}, got {show(self.actual)}"


@dataclass(slots=True)
class Reply:
    """What an implementation answered to one request.

    Exactly one of: ``result`` (a JSON object), ``error_code`` (the exit code
    or the batch ``{"error": ...}``, with ``message`` when given and the whole
    error object in ``error``), ``unsupported`` (the reserved "not supported"
    answer, with its reason: the case is skipped), or ``failure``: the answer
    was unusable (timeout, crash, not JSON), with ``failure_type``
    ``timeout``, ``crash``, ``protocol`` or ``refused`` (a ``ready: false``
    hello). ``stderr`` holds what the implementation wrote on stderr for it
    (its last :data:`~linguo_cli.conformance.impl_process.MAX_STDERR_BYTES`).
    """

    result: Any = None
    error_code: int | None = None
    message: str = ""
    failure: str | None = None
    failure_type: str = ""
    error: dict[str, Any] | None = None
    unsupported: str | None = None
    stderr: str = ""


@dataclass(slots=True)
class Outcome:
    """The run of one case: the reply, its mismatches, the time taken (s)."""

    case: Case
    reply: Reply
    mismatches: list[Mismatch] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str | None = None

    @property
    def passed(self) -> bool:
        return self.skipped is None and not self.mismatches and self.reply.failure is None

    @property
    def failed(self) -> bool:
        return self.skipped is None and not self.passed

    @property
    def result(self) -> Any:
        return self.reply.result

    @property
    def error_code(self) -> int | None:
        return self.reply.error_code

    def lines(self) -> list[str]:
        """The failure lines ``file::id: path: expected X, got Y`` ([] if
        passed or skipped)."""
        head = self.case.test_id
        if not self.failed:
            return []
        if self.reply.failure is not None:
            return [f"{head}: (run): {self.reply.failure}"]
        return [f"{head}: {m}" for m in self.mismatches]


# ---------------------------------------------------------------------------
# Finding and loading the suite


def default_suite_dir() -> Path:
    """The suite shipped with the package (``golden/`` of the source tree,
    reached through the ``linguo_cli/suite`` link or its installed copy)."""
    return Path(str(packaged("suite")))


def require_suite(root: Path) -> Path:
    """``root`` if it is a folder, else :class:`InputError` (exit 3)."""
    if not root.is_dir():
        raise InputError(Diagnostic(str(root), "", "not a golden suite folder"))
    return root


def _is_catalog(path: Path, root: Path) -> bool:
    return path.parent == root and path.stem in CATALOG_NAMES


def case_files(root: Path) -> list[Path]:
    """Every case file below ``root`` (``*.yaml`` and ``*.json``, except the
    catalogs ``EXAMPLES``/``RULES``, the ``schemas/`` folder and hidden
    folders), sorted by relative path."""
    files = [
        p for pattern in ("*.yaml", "*.json") for p in root.rglob(pattern)
        if p.is_file() and not _is_catalog(p, root)
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
        and p.relative_to(root).parts[0] != SCHEMAS_DIR
    ]
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def json_compat_problems(text: str, name: str) -> list[Diagnostic]:
    """Where ``text`` uses YAML that JSON cannot say: anchors, aliases, tags,
    and unquoted ``yes``/``no``/``on``/``off`` (booleans to YAML 1.1 readers).
    Syntax errors are left to the loader."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import AliasEvent, NodeEvent, ScalarEvent

    out: list[Diagnostic] = []
    try:
        for ev in YAML().parse(io.StringIO(text)):
            mark = ev.start_mark
            place = f"{name}:{mark.line + 1}:{mark.column + 1}"
            if isinstance(ev, AliasEvent):
                out.append(Diagnostic(place, "", f"YAML alias *{ev.anchor} is not "
                                                 "JSON-compatible: write the value out"))
            elif isinstance(ev, NodeEvent):
                if ev.anchor is not None:
                    out.append(Diagnostic(place, "", f"YAML anchor &{ev.anchor} is not "
                                                     "JSON-compatible"))
                tag = getattr(ev, "tag", None)
                if tag is not None:
                    out.append(Diagnostic(place, "", f"YAML tag {tag} is not JSON-compatible"))
                if isinstance(ev, ScalarEvent) and ev.style is None:
                    value = str(ev.value)
                    if value.lower() in _YAML11_BOOLEANS:
                        out.append(Diagnostic(place, "", f"unquoted {value!r} reads as a "
                                                         f"boolean in YAML 1.1: write \"{value}\""))
                    elif _YAML_TIMESTAMP.fullmatch(value):
                        out.append(Diagnostic(place, "", f"unquoted {value!r} reads as a date "
                                                         f"in YAML: write \"{value}\""))
    except YAMLError:
        pass
    return out


def _non_json_values(name: str, doc: Any, node: Any, path: list[Any]) -> list[Diagnostic]:
    """Values of the loaded tree that JSON cannot hold (dates, infinities,
    non-string keys), each with its place."""
    from linguo_cli.io import state_io

    out: list[Diagnostic] = []
    if isinstance(node, Mapping):
        for k, v in node.items():
            if not isinstance(k, str):
                out.append(Diagnostic(state_io.place_of(name, doc, path + [k], key=True),
                                      state_io.field_path(path + [k]),
                                      f"key {k!r} is not a string"))
            out.extend(_non_json_values(name, doc, v, path + [k]))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_non_json_values(name, doc, v, path + [i]))
    elif node is None or isinstance(node, (bool, int, str)):
        pass
    elif isinstance(node, float):
        if not math.isfinite(node):
            out.append(Diagnostic(state_io.place_of(name, doc, path), state_io.field_path(path),
                                  f"{node} is not a JSON number"))
    else:
        out.append(Diagnostic(state_io.place_of(name, doc, path), state_io.field_path(path),
                              f"{type(node).__name__} value {str(node)!r} is not JSON "
                              "(quote it)"))
    return out


@dataclass(slots=True)
class Suite:
    """A loaded suite: its cases (from the files that loaded) and the problems
    found while loading (syntax, JSON compatibility, schema, duplicate ids)."""

    root: Path
    files: list[str] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    broken_files: dict[str, list[Diagnostic]] = field(default_factory=dict)


def _case_from(rel: str, raw: Mapping[str, Any], line: int = 0) -> Case:
    return Case(
        file=rel,
        id=raw["id"],
        description=raw["description"],
        examples=tuple(raw.get("examples", ())),
        rules=tuple(raw.get("rules", ())),
        request=raw["request"],
        expect=raw.get("expect"),
        expect_error=raw.get("expect_error"),
        line=line,
    )


def _line_of(doc: Any, index: int) -> int:
    """The 1-based line where case ``index`` starts in ``doc`` (0 when unknown)."""
    pos = doc.position(["cases", index])
    return int(pos[0]) + 1 if pos else 0


def load_suite(root: Path, *, strict: bool = False) -> Suite:
    """Load every case file below ``root`` without stopping at the first
    problem. A file with any problem contributes no case and is listed in
    ``broken_files`` (with its diagnostics, also in ``problems``). ``strict``
    adds the JSON-compatibility scan of :func:`json_compat_problems` (a
    second YAML parse; ``linguo golden check`` uses it, running cases does not)."""
    from linguo_cli.io import state_io

    suite = Suite(require_suite(root))
    for path in case_files(root):
        rel = path.relative_to(root).as_posix()
        suite.files.append(rel)
        diags: list[Diagnostic] = []
        try:
            name, text = state_io.read_text(str(path))
            name = rel
            if strict:
                diags.extend(json_compat_problems(text, name))
            doc = state_io.parse(text, name)
        except InputError as exc:
            diags.extend(d for d in exc.diagnostics if d not in diags)
            suite.broken_files[rel] = diags
            suite.problems.extend(diags)
            continue
        diags.extend(_non_json_values(name, doc.data, doc.data, []))
        diags.extend(state_io.schema_errors(doc, "golden-case-file"))
        if not diags:
            seen: dict[str, int] = {}
            for i, raw in enumerate(doc.data["cases"]):
                cid = str(raw["id"])
                if cid in seen:
                    diags.append(Diagnostic(doc.place(["cases", i, "id"]), f"cases[{i}].id",
                                            f"duplicate case id {cid!r} (first at cases"
                                            f"[{seen[cid]}])"))
                seen.setdefault(cid, i)
        if diags:
            suite.broken_files[rel] = diags
            suite.problems.extend(diags)
            continue
        data = state_io.to_plain(doc.data)
        suite.cases.extend(_case_from(rel, raw, _line_of(doc, i))
                           for i, raw in enumerate(data["cases"]))
    return suite


def load_cases(root: Path) -> list[Case]:
    """Every case below ``root``, in file order; raises :class:`InputError`
    (exit 3) with every problem when any case file is broken."""
    suite = load_suite(root)
    if suite.problems:
        raise InputError(suite.problems)
    return suite.cases


# ---------------------------------------------------------------------------
# The catalog: EXAMPLES.yaml (worked examples, suite version) and RULES.yaml


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """One worked example or rule ID that must be covered, with where it is listed."""

    id: str
    section: str
    title: str
    place: str
    field: str
    statement: str = ""


@dataclass(slots=True)
class Catalog:
    """What the suite must cover; ``version`` is the suite version (``None``
    when EXAMPLES is missing)."""

    version: int | None = None
    examples: dict[str, CatalogEntry] = field(default_factory=dict)
    rules: dict[str, CatalogEntry] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)


def _catalog_path(root: Path, stem: str) -> Path | None:
    for ext in (".yaml", ".json"):
        p = root / f"{stem}{ext}"
        if p.is_file():
            return p
    return None


def _load_catalog_list(root: Path, stem: str, key: str, catalog: Catalog
                       ) -> tuple[Any, dict[str, CatalogEntry]]:
    from linguo_cli.io import state_io

    path = _catalog_path(root, stem)
    if path is None:
        catalog.problems.append(Diagnostic(str(root / f"{stem}.yaml"), "", "missing"))
        return None, {}
    name = path.relative_to(root).as_posix()
    try:
        _, text = state_io.read_text(str(path))
        catalog.problems.extend(json_compat_problems(text, name))
        doc = state_io.parse(text, name)
    except InputError as exc:
        catalog.problems.extend(exc.diagnostics)
        return None, {}
    items = doc.data.get(key) if isinstance(doc.data, Mapping) else None
    if not isinstance(items, list):
        catalog.problems.append(Diagnostic(doc.place(), key, f"needs a list {key!r}"))
        return doc, {}
    out: dict[str, CatalogEntry] = {}
    for i, item in enumerate(items):
        where = f"{key}[{i}]"
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            catalog.problems.append(Diagnostic(doc.place([key, i]), where,
                                               "needs an 'id' string"))
            continue
        if item["id"] in out:
            catalog.problems.append(Diagnostic(doc.place([key, i, "id"]), f"{where}.id",
                                               f"duplicate ID {item['id']!r}"))
            continue
        statement = item.get("statement")
        out[item["id"]] = CatalogEntry(str(item["id"]), str(item.get("section", "")),
                                       str(item.get("title", "")), doc.place([key, i]), where,
                                       statement if isinstance(statement, str) else "")
    return doc, out


def load_catalog(root: Path) -> Catalog:
    """Read ``EXAMPLES`` and ``RULES`` (``.yaml`` or ``.json``) of the suite at
    ``root``; problems are collected in ``Catalog.problems``, never raised."""
    catalog = Catalog()
    doc, catalog.examples = _load_catalog_list(root, "EXAMPLES", "examples", catalog)
    if doc is not None:
        version = doc.data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) and version >= 1:
            catalog.version = version
        else:
            catalog.problems.append(Diagnostic(doc.place(["version"]), "version",
                                               "needs the suite version, a whole number >= 1"))
    _, catalog.rules = _load_catalog_list(root, "RULES", "rules", catalog)
    return catalog


def suite_version(root: Path) -> int | None:
    """The suite version of EXAMPLES (``None`` if it is missing or broken)."""
    return load_catalog(root).version


# ---------------------------------------------------------------------------
# linguo golden check


@dataclass(slots=True)
class CheckReport:
    """The result of :func:`check_suite`.

    ``examples``/``rules``: every catalog ID -> the test ids citing it (empty
    when uncovered); ``problems``: everything wrong, coverage gaps included;
    ``gaps``: the coverage gaps alone (an example or rule ID without a case).
    """

    suite: Suite
    catalog: Catalog
    examples: dict[str, list[str]]
    rules: dict[str, list[str]]
    problems: list[Diagnostic]
    gaps: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def structural_problems(self) -> list[Diagnostic]:
        """The problems that are not coverage gaps (broken files, repeats, unknown IDs)."""
        return [d for d in self.problems if d not in self.gaps]

    @property
    def uncovered_examples(self) -> list[str]:
        return [k for k, v in self.examples.items() if not v]

    @property
    def uncovered_rules(self) -> list[str]:
        return [k for k, v in self.rules.items() if not v]


def percent(part: int, whole: int) -> str:
    """``"100 %"``, ``"58.8 %"`` (one decimal unless whole); ``"-"`` for 0 of 0."""
    if whole == 0:
        return "-"
    value = Fraction(100 * part, whole)
    return f"{value.numerator} %" if value.denominator == 1 else f"{float(value):.1f} %"


def check_suite(root: Path) -> CheckReport:
    """Check the suite at ``root`` against its contract (golden/README.md):

    every file loads, is JSON-compatible YAML and fits the case-file schema;
    ids are unique within a file; descriptions are unique across the suite
    (compared without case and extra spaces); every cited example ID is in
    EXAMPLES and every cited rule ID in RULES; every example and every rule
    ID is cited by at least one case. Returns every problem found.
    """
    from linguo_cli.io import state_io

    suite = load_suite(root, strict=True)
    catalog = load_catalog(root)
    problems = list(catalog.problems) + list(suite.problems)
    examples: dict[str, list[str]] = {k: [] for k in catalog.examples}
    rules: dict[str, list[str]] = {k: [] for k in catalog.rules}
    seen_desc: dict[str, str] = {}
    docs: dict[str, Any] = {}

    def place(case: Case, *path: Any) -> str:
        doc = docs.get(case.file)
        if doc is None:
            doc = docs[case.file] = state_io.load(str(root / case.file))
            doc.name = case.file
        index = next(i for i, raw in enumerate(doc.data["cases"]) if raw["id"] == case.id)
        return doc.place(["cases", index, *path])

    for case in suite.cases:
        key = " ".join(case.description.split()).casefold()
        if key in seen_desc:
            problems.append(Diagnostic(place(case, "description"), f"{case.id}.description",
                                       f"description repeats the one of {seen_desc[key]}"))
        else:
            seen_desc[key] = case.test_id
        for i, ex in enumerate(case.examples):
            if ex in examples:
                examples[ex].append(case.test_id)
            elif catalog.examples or not catalog.problems:
                problems.append(Diagnostic(place(case, "examples", i), f"{case.id}.examples",
                                           f"unknown worked-example ID {ex!r} "
                                           "(not in EXAMPLES)"))
        for i, rule in enumerate(case.rules):
            if rule in rules:
                rules[rule].append(case.test_id)
            elif catalog.rules or not catalog.problems:
                problems.append(Diagnostic(place(case, "rules", i), f"{case.id}.rules",
                                           f"unknown rule ID {rule!r} (not in RULES)"))
    problems.extend(statement_problems(catalog))
    gaps: list[Diagnostic] = []
    for ex, cited in examples.items():
        if not cited:
            e = catalog.examples[ex]
            gaps.append(Diagnostic(e.place, e.field,
                                       f"worked example {ex} ({e.section}: {e.title}) "
                                       "has no case"))
    for rule, cited in rules.items():
        if not cited:
            e = catalog.rules[rule]
            gaps.append(Diagnostic(e.place, e.field,
                                       f"rule {rule} ({e.title}) is cited by no case"))
    if not suite.files:
        problems.append(Diagnostic(str(root), "", "no case files"))
    return CheckReport(suite, catalog, examples, rules, problems + gaps, gaps)


def statement_problems(catalog: Catalog) -> list[Diagnostic]:
    """Every rule of RULES without a full ``statement`` (a string of at least
    :data:`MIN_STATEMENT_WORDS` words): the suite must carry the rules it
    tests in its own words, so that an implementer needs only the suite."""
    out = []
    for rule in catalog.rules.values():
        words = len(rule.statement.split())
        if words < MIN_STATEMENT_WORDS:
            out.append(Diagnostic(rule.place, f"{rule.field}.statement",
                                  f"rule {rule.id} needs its full statement (at least "
                                  f"{MIN_STATEMENT_WORDS} words; it has {words})"))
    return out


def check_lines(report: CheckReport) -> list[str]:
    """The text report of ``linguo golden check``: counts, coverage, problems."""
    ex, rl = report.examples, report.rules
    ex_done = sum(1 for v in ex.values() if v)
    rl_done = sum(1 for v in rl.values() if v)
    lines = [
        f"suite: {report.suite.root} (version {report.catalog.version}): "
        f"{len(report.suite.files)} files, {len(report.suite.cases)} cases",
        f"worked examples covered: {ex_done}/{len(ex)} ({percent(ex_done, len(ex))})",
        f"rule IDs covered: {rl_done}/{len(rl)} ({percent(rl_done, len(rl))})",
    ]
    if report.uncovered_examples:
        lines.append("uncovered worked examples: " + ", ".join(report.uncovered_examples))
    if report.uncovered_rules:
        lines.append("uncovered rule IDs: " + ", ".join(report.uncovered_rules))
    if report.problems:
        lines.append(f"{len(report.problems)} problem(s):")
        lines.extend(f"  {d}" for d in report.problems)
    else:
        lines.append("ok")
    return lines


def check_json(report: CheckReport) -> dict[str, Any]:
    """The ``linguo golden check --json`` shape."""
    return {
        "suite": str(report.suite.root),
        "version": report.catalog.version,
        "files": len(report.suite.files),
        "cases": len(report.suite.cases),
        "examples": {"covered": sum(1 for v in report.examples.values() if v),
                     "total": len(report.examples),
                     "uncovered": report.uncovered_examples},
        "rules": {"covered": sum(1 for v in report.rules.values() if v),
                  "total": len(report.rules), "uncovered": report.uncovered_rules},
        "problems": [{"place": d.place, "field": d.field, "message": d.message}
                     for d in report.problems],
        "ok": report.ok,
    }


# ---------------------------------------------------------------------------
# linguo golden export DIR


def export_json(root: Path, out: Path) -> list[Path]:
    """Write the suite at ``root`` as JSON below ``out``: every case file as
    ``<same path>.json`` (same data, key order kept), the catalogs as
    ``EXAMPLES.json``/``RULES.json``, the schemas' copy ``schemas/`` as it is
    and the contract ``README.md``.

    Raises :class:`InputError` when a file is broken (nothing is written) and
    :class:`UsageError` when ``out`` lies inside the suite.
    """
    from linguo_cli.io import state_io

    suite = load_suite(root, strict=True)
    catalog = load_catalog(root)
    broken = suite.problems + [d for d in catalog.problems if d.message != "missing"]
    if broken:
        raise InputError(broken)
    src, dst = root.resolve(), out.resolve()
    if dst == src or src in dst.parents:
        raise UsageError(f"{out}: the export folder must lie outside the suite {root}")
    if any((parent / "EXAMPLES.yaml").is_file() for parent in (dst, *dst.parents)):
        raise UsageError(f"{out}: lies inside a golden suite (an EXAMPLES.yaml is there); "
                         "export into a folder of its own")
    written: list[Path] = []
    sources = [root / f for f in suite.files]
    sources += [p for stem in CATALOG_NAMES if (p := _catalog_path(root, stem)) is not None]
    for path in sources:
        data = state_io.to_plain(state_io.load(str(path)).data)
        target = dst / path.relative_to(root).with_suffix(".json")
        target.parent.mkdir(parents=True, exist_ok=True)
        state_io.atomic_write(str(target), json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        written.append(target)
    copy = root / SCHEMAS_DIR
    for path in sorted(copy.rglob("*.json")) if copy.is_dir() else []:
        target = dst / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        state_io.atomic_write(str(target), path.read_text(encoding="utf-8"))
        written.append(target)
    readme = contract_text(root)
    if readme is not None:
        state_io.atomic_write(str(dst / "README.md"), readme)
        written.append(dst / "README.md")
    return written


def contract_text(root: Path) -> str | None:
    """The shared contract (``golden/README.md``) for the suite at ``root``:
    the suite's own ``README.md``, else its parent folder's (``golden/``), else
    the copy shipped with linguo; ``None`` if none is found."""
    for readme in (root / "README.md", root.parent / "README.md"):
        if readme.is_file():
            return readme.read_text(encoding="utf-8")
    from importlib import resources

    shipped = resources.files("linguo_cli.conformance").joinpath("contract.md")
    return shipped.read_text(encoding="utf-8") if shipped.is_file() else None


# ---------------------------------------------------------------------------
# Comparing


def compare(expected: Any, actual: Any, path: str = "") -> list[Mismatch]:
    """Mismatches between an expected block and an actual result.

    Mappings: every expected key must be present and match (extra keys are
    free). Lists: same length, items compared in order with the same rule.
    Scalars: equal and of the same JSON type (``true`` is not ``1``, ``"3"``
    is not ``3``, ``null`` is not missing; ``2`` and ``2.0`` are the same
    number, compared exactly).
    """
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [Mismatch(path, expected, actual)]
        out: list[Mismatch] = []
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else str(key)
            if key not in actual:
                out.append(Mismatch(sub, value, MISSING))
            else:
                out.extend(compare(value, actual[key], sub))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [Mismatch(path, expected, actual)]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(compare(e, a, f"{path}[{i}]"))
        return out
    if isinstance(expected, bool) or isinstance(actual, bool):
        same = isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    elif isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        same = Fraction(expected) == Fraction(actual) if all(
            math.isfinite(x) for x in (expected, actual)) else False
    else:
        same = type(expected) is type(actual) and expected == actual
    return [] if same else [Mismatch(path, expected, actual)]


# ---------------------------------------------------------------------------
# Running cases

Runner = Callable[[Mapping[str, Any]], Reply]


def run_in_process(request: Mapping[str, Any]) -> Reply:
    """Resolve ``request`` with linguo itself (schema check, then resolve).

    A :class:`LinguoError` becomes its exit code; any other exception is an
    internal error (code 5): the runner never raises.
    """
    from linguo_cli.core.dice import ScriptedDice
    from linguo_cli.io import state_io
    from linguo_cli.rulesets.linguomancy import requests

    request = copy.deepcopy(dict(request))
    try:
        state_io.validate(state_io.Document("request", request), "request")
        # Golden requests never use chance: no ``rolls`` means no die at all.
        dice = None if "rolls" in request or "seed" in request else ScriptedDice([])
        return Reply(result=requests.resolve_plain(request, dice))
    except LinguoError as exc:
        return Reply(error_code=exc.code, message=exc.message,
                     error=error_object.error_object(exc))
    except RecursionError:
        return Reply(error_code=3, message="input nested too deeply")
    except Exception as exc:  # a bug in linguo: reported like the CLI does
        return Reply(error_code=5, message=f"internal error: {type(exc).__name__}: {exc}")


def judge(case: Case, reply: Reply) -> list[Mismatch]:
    """Compare ``reply`` with the case's expectation (error code or partial result)."""
    if reply.failure is not None or reply.unsupported is not None:
        return []
    if case.expect_error is not None:
        return _judge_error(error_object.expectation(case.expect_error), reply)
    if reply.error_code is not None:
        got = f"exit {reply.error_code}" + (f" ({reply.message})" if reply.message else "")
        return [Mismatch("(result)", "a result", got)]
    return compare(case.expect, reply.result)


def _judge_error(expected: Mapping[str, Any], reply: Reply) -> list[Mismatch]:
    """``exit`` always; ``code`` and ``rule`` when the case gives them."""
    if reply.error_code is None:
        return [Mismatch("error", f"exit {expected['exit']}", "a result")]
    if reply.error_code != expected["exit"]:
        got = f"exit {reply.error_code}" + (f" ({reply.message})" if reply.message else "")
        return [Mismatch("error", f"exit {expected['exit']}", got)]
    given = reply.error or {}
    return [Mismatch(f"error.{key}", expected[key], given.get(key, MISSING))
            for key in ("code", "rule") if key in expected
            and (given.get(key, MISSING) is MISSING or given.get(key) != expected[key])]


def run_case(case: Case, runner: Runner = run_in_process) -> Outcome:
    """Run one case and compare its reply with the expectation."""
    start = time.perf_counter()
    reply = runner(case.request)
    seconds = time.perf_counter() - start
    return Outcome(case, reply, judge(case, reply), seconds)


def iter_outcomes(cases: Iterable[Case], runner: Runner = run_in_process) -> Iterator[Outcome]:
    """Run ``cases`` in order, yielding each outcome."""
    for case in cases:
        yield run_case(case, runner)


def matches_filter(case: Case, pattern: str) -> bool:
    """``--filter`` semantics (see :func:`linguo_cli.conformance.select.matches`)."""
    from linguo_cli.conformance import select as golden_select

    return golden_select.matches(case, pattern)


def select(cases: list[Case], patterns: list[str] | None,
           excludes: list[str] | None = None) -> list[Case]:
    """The cases matching any of ``patterns`` (all when there are none) and
    none of ``excludes``."""
    from linguo_cli.conformance import select as golden_select

    return golden_select.select(cases, patterns, excludes)


# ---------------------------------------------------------------------------
# Running another implementation (the runner side of the adapter protocol)


def _decode_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(text, parse_constant=refuse)
    except RecursionError:  # an answer nested too deeply: that case fails, the run goes on
        raise ValueError("nested too deeply") from None


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _snippet(data: bytes | str, limit: int = 120) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", " ".join(text.split()))
    return (text[: limit - 3] + "...") if len(text) > limit else (text or "(empty)")


def _tail(data: bytes | str, limit: int = 200) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return _snippet(lines[-1], limit) if lines else ""


def _reply_from_object(obj: Any, raw: bytes | str) -> Reply:
    if not isinstance(obj, dict):
        return Reply(failure=f"answer is not a JSON object: {_snippet(raw)}",
                     failure_type="protocol")
    if obj.get("unsupported") is True and "kind" not in obj:
        return Reply(unsupported=str(obj.get("reason") or "unsupported"))
    if "error" in obj and "kind" not in obj:
        err = error_object.from_answer(obj["error"], obj.get("message", ""))
        if err is None:
            return Reply(failure="error is neither an exit code nor an error object "
                                 f"{{\"exit\": N, ...}}: {_snippet(raw)}",
                         failure_type="protocol")
        return Reply(error_code=err["exit"], message=err["message"], error=err)
    return Reply(result=obj)


def split_command(command: str) -> list[str]:
    """``--impl`` text -> argv (split like a POSIX shell, no shell features);
    :class:`UsageError` (exit 2) when empty or the program cannot be found."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"--impl {command!r}: {exc}") from None
    if not argv:
        raise UsageError("--impl needs a command")
    prog = argv[0]
    if os.sep in prog or (os.altsep and os.altsep in prog):
        if not os.access(prog, os.X_OK) or os.path.isdir(prog):
            raise UsageError(f"--impl: {prog}: not an executable file")
    elif shutil.which(prog) is None:
        raise UsageError(f"--impl: {prog}: command not found")
    return argv


def _protocol_env(version: int | None) -> dict[str, str]:
    env = dict(os.environ)
    env["LINGUO_GOLDEN_SUITE"] = SUITE_NAME
    env["LINGUO_GOLDEN_VERSION"] = "" if version is None else str(version)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit {code}"


class PlainImplementation:
    """Plain mode: start ``argv`` once per case, the request as JSON on its
    stdin; its stdout must be one JSON object (the result). A non-zero exit
    code is an error result with that code (the last stderr line is its
    message; an error object on stdout adds its ``code`` and ``rule``);
    exit :data:`UNSUPPORTED_EXIT` (69) is the "unsupported" answer. A run
    longer than ``timeout`` seconds, a death by signal or a stdout that is
    not a JSON object fails the case with that reason.

    The environment carries ``LINGUO_GOLDEN_SUITE`` and ``LINGUO_GOLDEN_VERSION``.
    """

    def __init__(self, argv: list[str], *, timeout: float = DEFAULT_TIMEOUT,
                 version: int | None = None) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.env = _protocol_env(version)

    def __call__(self, request: Mapping[str, Any]) -> Reply:
        from linguo_cli.conformance import impl_process

        data = (json.dumps(request, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            proc = impl_process.popen(self.argv, env=self.env)
        except OSError as exc:
            return Reply(failure=f"cannot start the implementation: {exc}", failure_type="crash")
        out, err, problem = impl_process.communicate(proc, data, self.timeout)
        if problem == "timeout" or out is None and problem != "oversize":
            return Reply(failure=f"timed out after {self.timeout:g} s", failure_type="timeout")
        if out is None:
            return Reply(failure="answer larger than "
                                 f"{impl_process.MAX_ANSWER_BYTES // 1024 // 1024} MiB "
                                 "(the capture limit)", failure_type="protocol")
        reply = self._reply(proc.returncode, out, err)
        reply.stderr = err.decode("utf-8", "replace")
        return reply

    @staticmethod
    def _reply(code: int, out: bytes, err: bytes) -> Reply:
        if code < 0:
            tail = _tail(err)
            return Reply(failure=_exit_text(code) + (f": {tail}" if tail else ""),
                         failure_type="crash")
        if code == UNSUPPORTED_EXIT:
            return Reply(unsupported=_tail(err) or f"exit {UNSUPPORTED_EXIT} (unsupported)")
        if code != 0:
            return _plain_error(code, out, err)
        try:
            obj = _decode_json(out.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return Reply(failure=f"stdout is not JSON: {_snippet(out)}", failure_type="protocol")
        reply = _reply_from_object(obj, out)
        if reply.error_code is not None or reply.unsupported is not None:
            return Reply(result=obj)  # plain mode: errors and "unsupported" are exit codes
        return reply

    def close(self) -> None:
        """Nothing to release (one process per case)."""


def _plain_error(code: int, out: bytes, err: bytes) -> Reply:
    """A non-zero exit in plain mode: an error result with that exit code; a
    stdout holding the error object ``{"error": {"exit": N, ...}}`` with the
    same exit adds its ``code`` and ``rule`` (anything else there is ignored)."""
    reply = Reply(error_code=code, message=_tail(err),
                  error={"exit": code, "code": None, "rule": None, "place": None,
                         "message": _tail(err)})
    try:
        obj = _decode_json(out.decode("utf-8")) if out.strip() else None
    except (ValueError, UnicodeDecodeError):
        return reply
    if isinstance(obj, dict):
        given = error_object.from_answer(obj.get("error"))
        if given is not None and given["exit"] == code:
            reply.error = given
            reply.message = given["message"] or reply.message
    return reply


class _StartFailure(Exception):
    def __init__(self, message: str, failure_type: str = "crash") -> None:
        super().__init__(message)
        self.failure_type = failure_type


_OVERSIZE = b"\x00oversize"  # queued by the batch reader for a line over the capture limit


@dataclass
class _Talk:
    """One batch process's conversation: lines sent to it so far, and the
    first answer line it wrote beyond one per line sent."""

    sent: int = 0
    extra: bytes | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class BatchImplementation:
    """Batch mode: one long-lived process speaking JSON lines.

    Protocol (golden/README.md, "Adapter protocol"): linguo writes the hello
    line ``{"suite": "linguo-golden", "version": N}``; the implementation
    answers ``{"ready": true, ...}`` (or ``{"ready": false, "reason": "..."}``
    to refuse). Then, per case, linguo writes one request line and reads one
    answer line: a result object, the error object ``{"error": {"exit": 4,
    "rule": "D7", ...}}`` (or the older ``{"error": 4, "message": "..."}``),
    or ``{"unsupported": true, "reason": "..."}`` (the case is skipped).
    The hello answer may declare ``rulesets`` (see
    :func:`linguo_cli.conformance.select.capability_from_hello`). Closing stdin
    ends the session.

    A case whose answer does not come within ``timeout`` seconds, or whose
    process died, or whose answer is not a JSON object fails with that
    reason; the process is then restarted (a new hello) for the next case.
    When a (re)start fails, every remaining case fails with the reason.
    """

    def __init__(self, argv: list[str], *, timeout: float = DEFAULT_TIMEOUT,
                 version: int | None = None) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.version = version
        self.env = _protocol_env(version)
        self.hello: dict[str, Any] | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: Any = None  # impl_process.StderrTail of the running process
        self._dead: str | None = None
        self._talk = _Talk()  # lines sent to, and extra lines from, the running process
        self._dead_type = "crash"

    # -- process management --------------------------------------------
    def _read(self, proc: subprocess.Popen[bytes], lines: queue.Queue[bytes | None],
              talk: _Talk) -> None:
        """Queue each answer line; a line longer than the capture limit is
        queued as :data:`_OVERSIZE` and ends the reading (the process is
        then stopped by the exchange that gets it). A line beyond one per
        line sent is not queued but kept in ``talk.extra``: the protocol is
        broken. Lines that arrive together are judged together (under
        ``talk.lock``, which the sender takes to count a line sent), so two
        answers written at once are always caught."""
        from linguo_cli.conformance.impl_process import MAX_ANSWER_BYTES

        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        pending = bytearray()
        count = 0
        try:
            while chunk := os.read(fd, 65536):
                pending += chunk
                with talk.lock:
                    while (end := pending.find(b"\n")) >= 0:
                        line = bytes(pending[: end + 1])
                        del pending[: end + 1]
                        if not line.strip():
                            continue
                        count += 1
                        if count > talk.sent:
                            talk.extra = talk.extra or line
                        else:
                            lines.put(line)
                if len(pending) > MAX_ANSWER_BYTES:
                    lines.put(_OVERSIZE)
                    break
        except (OSError, ValueError):
            pass
        lines.put(None)

    def _stderr_tail(self) -> str:
        return "" if self._stderr is None else _tail(self._stderr.text())

    def _start(self) -> None:
        from linguo_cli.conformance import impl_process

        try:
            proc = impl_process.popen(self.argv, env=self.env)  # buffered: fast readline
        except OSError as exc:
            raise _StartFailure(f"cannot start the implementation: {exc}") from None
        self._stderr = impl_process.StderrTail(proc.stderr)
        self._proc = proc
        self._lines = queue.Queue()
        self._talk = _Talk()
        threading.Thread(target=self._read, args=(proc, self._lines, self._talk),
                         daemon=True).start()
        hello = {"suite": SUITE_NAME, "version": self.version}
        raw = self._exchange(hello)
        if isinstance(raw, Reply):
            self._stop()
            raise _StartFailure(f"no answer to the hello line: {raw.failure}", raw.failure_type)
        try:
            obj = _decode_json(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            self._stop()
            raise _StartFailure(f"hello answer is not JSON: {_snippet(raw)}") from None
        if not isinstance(obj, dict) or obj.get("ready") is not True:
            self._stop()
            reason = obj.get("reason") if isinstance(obj, dict) else None
            refused = isinstance(obj, dict) and obj.get("ready") is False
            shown = f": {_snippet(str(reason), 300)}" if reason else f" ({_snippet(raw)})"
            raise _StartFailure("the implementation refused the suite" + shown,
                                "refused" if refused else "protocol")
        self.hello = obj

    def _stop(self, graceful: bool = False) -> None:
        from linguo_cli.conformance import impl_process

        proc, self._proc = self._proc, None
        if proc is None:
            return
        if graceful:
            try:
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait(timeout=min(self.timeout, 5))
            except (OSError, subprocess.TimeoutExpired):
                pass
        impl_process.kill(proc)  # the whole group, also after a graceful end

    def _exchange(self, message: Mapping[str, Any]) -> bytes | Reply:
        """Write one line, read one line; a :class:`Reply` failure when the
        process died or timed out (the process is then stopped)."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        with self._talk.lock:  # before writing: the answer can only come after
            self._talk.sent += 1
        try:
            proc.stdin.write((json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8"))
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the reader sees the end of stdout; the exit code says why
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._stop()
            return Reply(failure=f"timed out after {self.timeout:g} s", failure_type="timeout")
        if line is None:
            try:
                code = proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = None
            self._stop()
            code = proc.returncode if code is None else code
            tail = self._stderr_tail()
            return Reply(failure=f"the implementation ended ({_exit_text(code)}) without "
                                 "answering" + (f": {tail}" if tail else ""),
                         failure_type="crash")
        if line is _OVERSIZE:
            self._stop()
            from linguo_cli.conformance.impl_process import MAX_ANSWER_BYTES

            return Reply(failure=f"answer line larger than {MAX_ANSWER_BYTES // 1024 // 1024} "
                                 "MiB (the capture limit)", failure_type="protocol")
        return line

    # -- the runner ------------------------------------------------------
    def __call__(self, request: Mapping[str, Any]) -> Reply:
        """Send one request; the reply carries the stderr written meanwhile."""
        tail = self._stderr
        mark = len(tail.text(wait=0)) if tail is not None else 0
        reply = self._call(request)
        tail = tail or self._stderr
        if tail is not None and not reply.stderr:
            text = tail.text(wait=0.2 if reply.failure else 0)
            reply.stderr = text[mark:].decode("utf-8", "replace") if len(text) >= mark \
                else text.decode("utf-8", "replace")
        return reply

    def start(self) -> dict[str, Any] | None:
        """Start the process now (if not running) and return its hello answer
        (``None`` when it could not start: the reason fails every case)."""
        if self._proc is None and self._dead is None:
            try:
                self._start()
            except _StartFailure as exc:
                self._dead, self._dead_type = str(exc), exc.failure_type
        return self.hello if self._dead is None else None

    def _call(self, request: Mapping[str, Any]) -> Reply:
        if self._dead is not None:
            return Reply(failure=self._dead, failure_type=self._dead_type)
        if self._proc is None:
            try:
                self._start()
            except _StartFailure as exc:
                self._dead, self._dead_type = str(exc), exc.failure_type
                return Reply(failure=self._dead, failure_type=self._dead_type)
        extra = self._extra_line()
        if extra is not None:
            self._stop()  # out of step: every later answer would land on the wrong case
            return Reply(failure="protocol break: the implementation wrote more than one line "
                                 f"for the previous request ({_snippet(extra)}); restarted",
                         failure_type="protocol")
        raw = self._exchange(request)
        if isinstance(raw, Reply):
            return raw
        try:
            obj = _decode_json(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            self._stop()  # out of step with the protocol: start afresh
            return Reply(failure=f"answer is not JSON: {_snippet(raw)}", failure_type="protocol")
        return _reply_from_object(obj, raw)

    def _settle(self) -> None:
        """Before a request is sent: while bytes the implementation already
        wrote are still in the pipe, let the reader take them (at most 1 s),
        so that an answer too many written before this request is judged as
        one, not taken for this request's answer."""
        import select

        proc = self._proc
        if proc is None or proc.stdout is None:
            return
        deadline = time.monotonic() + 1.0
        try:
            while select.select([proc.stdout.fileno()], [], [], 0)[0] \
                    and self._talk.extra is None and self._lines.empty() \
                    and time.monotonic() < deadline:
                time.sleep(0.0005)
        except (OSError, ValueError):
            pass

    def _extra_line(self) -> bytes | None:
        """A line beyond one answer per line sent (kept by the reader), or
        one already waiting before a request is sent: an answer too many
        (``None`` when there is none)."""
        self._settle()
        if self._talk.extra is not None:
            return self._talk.extra
        try:
            line = self._lines.get_nowait()
        except queue.Empty:
            return None
        if line is None:  # the process ended after its last answer: restart quietly
            self._lines.put(None)
            return None
        return b"(a line longer than the capture limit)" if line is _OVERSIZE else line

    def close(self) -> None:
        """End the session: close stdin, wait briefly, then end the process
        group whatever happened."""
        self._stop(graceful=True)
        self._stderr = None

    def __enter__(self) -> BatchImplementation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------------------
# Reports (the rest is in golden_run)


_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_safe(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (shown as U+FFFD)."""
    return _XML_INVALID.sub("\ufffd", text)


# ---------------------------------------------------------------------------
# The implementation side: linguo answering the adapter protocol


def answer(request: Any) -> dict[str, Any]:
    """Resolve one decoded request as the adapter does (no ``rolls``: no die
    may be rolled); raises :class:`LinguoError` (exit 3 for a request that is
    not an object)."""
    from linguo_cli.core.dice import ScriptedDice
    from linguo_cli.io import state_io
    from linguo_cli.rulesets.linguomancy import requests

    if not isinstance(request, dict):
        raise InputError(Diagnostic("<request>", "", "a request must be a JSON object"))
    state_io.validate(state_io.Document("<request>", request), "request")
    dice = None if "rolls" in request or "seed" in request else ScriptedDice([])
    return requests.resolve_plain(request, dice)


def _answer_line(text: str) -> dict[str, Any]:
    try:
        request = _decode_json(text)
    except ValueError as exc:
        return _error_answer(3, f"request is not JSON: {exc}")
    try:
        result = answer(request)
        json.dumps(result)
        return result
    except LinguoError as exc:
        return {"error": error_object.error_object(exc)}
    except RecursionError:
        return _error_answer(3, "input nested too deeply")
    except Exception as exc:  # a bug: still an answer, never a traceback
        return _error_answer(5, f"internal error: {type(exc).__name__}: {exc}")


def _error_answer(code: int, message: str, place: str | None = "<request>"
                  ) -> dict[str, Any]:
    """``{"error": {error object}}`` for an error found outside the rules."""
    return {"error": {"exit": code, "code": None, "rule": None, "place": place,
                      "message": message}}


def _compact(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def serve_plain(stdin: IO[bytes], stdout: IO[str], stderr: IO[str]) -> int:
    """Plain mode: read one request (JSON) from ``stdin``, write its result on
    ``stdout``; on an error write the error object ``{"error": {...}}`` on
    ``stdout`` and one line on ``stderr``, and return its exit code (3
    invalid input, 4 rules violation, 5 internal error)."""
    from linguo_cli.io.state_io import MAX_DOCUMENT_BYTES

    raw = stdin.read(MAX_DOCUMENT_BYTES + 1)
    if len(raw) > MAX_DOCUMENT_BYTES:
        stderr.write(f"linguo: error: <stdin>: request larger than "
                     f"{MAX_DOCUMENT_BYTES // 1024} KiB (the document limit)\n")
        return 3
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        stderr.write("linguo: error: request is not UTF-8\n")
        return 3
    obj = _answer_line(text)
    stdout.write(_compact(obj) + "\n")  # a result, or the error object (exit code below)
    stdout.flush()
    if "error" in obj and "kind" not in obj:
        stderr.write(f"linguo: error: {obj['error']['message']}\n")
        return int(obj["error"]["exit"])
    stdout.flush()
    return 0


_MAX_LINE = 1024 * 1024  # state_io.MAX_DOCUMENT_BYTES, without importing state_io here


def _bounded_lines(stdin: IO[bytes]) -> Iterator[bytes | None]:
    """The lines of ``stdin``, each at most :data:`_MAX_LINE` bytes; a longer
    line is read to its end in pieces (never held whole) and yields ``None``."""
    while line := stdin.readline(_MAX_LINE + 1):
        if len(line) <= _MAX_LINE or line.endswith(b"\n") and len(line) == _MAX_LINE + 1:
            yield line
            continue
        while not line.endswith(b"\n"):  # skip the rest of the oversized line
            line = stdin.readline(_MAX_LINE)
            if not line:
                break
        yield None


def serve_batch(stdin: IO[bytes], stdout: IO[str], stderr: IO[str]) -> int:
    """Batch mode: answer the hello line, then one answer line per request
    line until end of input (blank lines are ignored). Returns 0, or 2 when
    the first line is not a hello for this suite (answered ``ready: false``)."""
    from linguo_cli import __version__

    def send(obj: Any) -> None:
        stdout.write(_compact(obj) + "\n")
        stdout.flush()

    first = True
    for raw in _bounded_lines(stdin):
        if raw is None:
            send(_error_answer(3, "request line larger than "
                               f"{_MAX_LINE // 1024} KiB (the document limit)"))
            continue
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            continue
        if first:
            first = False
            try:
                hello = _decode_json(text)
            except ValueError:
                hello = None
            if not isinstance(hello, dict) or hello.get("suite") != SUITE_NAME:
                send({"ready": False, "reason": f"expected the hello line {{\"suite\": "
                                                f"\"{SUITE_NAME}\", \"version\": N}}"})
                stderr.write("linguo: error: batch input must start with the hello line\n")
                return 2
            send({"ready": True, "implementation": "linguo", "implementation_version":
                  __version__, "suite_version": suite_version(default_suite_dir()),
                  "rulesets": {DEFAULT_RULESET: {}}})  # every kind of linguomancy
            continue
        send(_answer_line(text))
    return 0


def serve(batch: bool) -> int:
    """Run the adapter on this process's standard streams; returns the exit code.

    Raises :class:`InputError` (exit 3) when standard input is closed."""
    if sys.stdin is None:  # started with stdin closed (<&-)
        raise InputError(Diagnostic("<stdin>", "", "standard input is closed"))
    stdin = sys.stdin.buffer
    if batch:
        return serve_batch(stdin, sys.stdout, sys.stderr)
    return serve_plain(stdin, sys.stdout, sys.stderr)


# ---------------------------------------------------------------------------
# linguo verify


def verify(root: Path, *, impl: str | None = None, batch: bool = False,
           timeout: float = DEFAULT_TIMEOUT, filters: list[str] | None = None,
           junit: str | None = None, quiet: bool = False,
           out: IO[str] | None = None, err: IO[str] | None = None, **more: Any) -> int:
    """Run the suite at ``root`` against linguo itself (``impl`` ``None``) or
    against the command ``impl`` (plain mode, or ``batch``); the other
    options (``excludes``, ``rulesets``, ``kinds``, ``skip_file``,
    ``junit_root``, ``verbose``, ``maxfail``, ``total_timeout``,
    ``progress_interval``) are those of :class:`linguo_cli.conformance.run.Options`.
    Returns 1 when a case failed or the run stopped early, else 0.

    Raises :class:`InputError` (exit 3) for a broken suite and
    :class:`UsageError` (exit 2) for bad options or a filter matching nothing.
    """
    from linguo_cli.conformance import run as golden_run

    opts = golden_run.Options(impl=impl, batch=batch, timeout=timeout,
                              filters=list(filters or []), junit=junit, quiet=quiet, **more)
    return golden_run.run(root, opts, out=out, err=err)
