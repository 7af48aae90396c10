"""The suite's catalogs (``EXAMPLES``: worked examples and the suite
version; ``RULES``: every rule ID with its statement), ``linguo golden
check`` (:func:`check_suite`) and ``linguo golden export`` (:func:`export_json`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import astuple, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from linguo_cli.conformance.suite import (
    CATALOG_NAMES,
    MIN_STATEMENT_WORDS,
    SCHEMAS_DIR,
    Case,
    Suite,
    json_compat_problems,
    load_suite,
)
from linguo_cli.core.errors import Diagnostic, InputError, UsageError

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
    #: Why no case covers it yet (``pending:`` in the catalog), or ``""``.
    pending: str = ""


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
    from linguo_cli.io.read import parse, read_text

    path = _catalog_path(root, stem)
    if path is None:
        catalog.problems.append(Diagnostic(str(root / f"{stem}.yaml"), "", "missing"))
        return None, {}
    name = path.relative_to(root).as_posix()
    try:
        _, text = read_text(str(path))
        catalog.problems.extend(json_compat_problems(text, name))
        doc = parse(text, name)
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
        pending = item.get("pending", "")
        if not isinstance(pending, str) or ("pending" in item and not pending.strip()):
            catalog.problems.append(Diagnostic(doc.place([key, i, "pending"]), f"{where}.pending",
                                               "must say why no case covers it yet (a text)"))
            pending = ""
        out[item["id"]] = CatalogEntry(str(item["id"]), str(item.get("section", "")),
                                       str(item.get("title", "")), doc.place([key, i]), where,
                                       statement if isinstance(statement, str) else "",
                                       pending.strip())
    return doc, out


def _catalog_json(catalog: Catalog) -> dict[str, Any]:
    """``catalog`` as JSON values, for :mod:`.suite_cache`."""
    return {"version": catalog.version,
            "examples": [list(astuple(e)) for e in catalog.examples.values()],
            "rules": [list(astuple(e)) for e in catalog.rules.values()],
            "problems": [[d.place, d.field, d.message] for d in catalog.problems]}


def _catalog_from(data: dict[str, Any]) -> Catalog:
    """The :class:`Catalog` that :func:`_catalog_json` wrote (raises on any other shape)."""
    version = data["version"]
    if version is not None and type(version) is not int:
        raise ValueError("version")

    def entries(items: list[list[str]]) -> dict[str, CatalogEntry]:
        return {str(item[0]): CatalogEntry(*map(str, item)) for item in items}

    return Catalog(version, entries(data["examples"]), entries(data["rules"]),
                   [Diagnostic(str(p), str(f), str(m)) for p, f, m in data["problems"]])


def load_catalog(root: Path) -> Catalog:
    """Read ``EXAMPLES`` and ``RULES`` (``.yaml`` or ``.json``) of the suite at
    ``root``; problems are collected in ``Catalog.problems``, never raised.
    The result is kept in the suite cache (:mod:`.suite_cache`, keyed by the
    catalog files' bytes)."""
    from linguo_cli.conformance import suite_cache

    found = [p for p in (_catalog_path(root, stem) for stem in ("EXAMPLES", "RULES")) if p]
    name = suite_cache.key(f"catalog {[p.name for p in found]}", root, found)
    cached = suite_cache.get(name, _catalog_from)
    if cached is not None:
        return cached
    catalog = _load_catalog(root)
    suite_cache.put(name, _catalog_json(catalog))
    return catalog


def _load_catalog(root: Path) -> Catalog:
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
    """The suite version of EXAMPLES (``None`` if it is missing or broken):
    ``load_catalog(root).version``, read from EXAMPLES alone (RULES and the
    JSON-compatibility scan, which never change it, are left to the commands
    that check the catalogs: about a tenth of ``linguo verify``)."""
    from linguo_cli.io.read import parse, read_text

    path = _catalog_path(root, "EXAMPLES")
    if path is None:
        return None
    try:
        _, text = read_text(str(path))
        doc = parse(text, path.relative_to(root).as_posix())
    except InputError:
        return None
    version = doc.data.get("version")  # (as _load_catalog reads it)
    if isinstance(version, int) and not isinstance(version, bool) and version >= 1:
        return version
    return None



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

    @property
    def pending_examples(self) -> list[str]:
        """Uncovered examples the catalog declares ``pending`` (not gaps)."""
        return [k for k in self.uncovered_examples if self.catalog.examples[k].pending]

    @property
    def pending_rules(self) -> list[str]:
        """Uncovered rule IDs the catalog declares ``pending`` (not gaps)."""
        return [k for k in self.uncovered_rules if self.catalog.rules[k].pending]


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
    ID is cited by at least one case, or declared ``pending`` with a reason
    (a part of the ruleset not built yet). Returns every problem found.
    """
    from linguo_cli.io.read import load

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
            doc = docs[case.file] = load(str(root / case.file))
            doc.name = case.file
        index = next(i for i, raw in enumerate(doc.data["cases"]) if raw["id"] == case.id)
        return doc.place(["cases", index, *path])

    check_examples = bool(catalog.examples) or not catalog.problems
    check_rules = bool(catalog.rules) or not catalog.problems
    for case in suite.cases:
        key = " ".join(case.description.split()).casefold()
        if key in seen_desc:
            problems.append(Diagnostic(place(case, "description"), f"{case.id}.description",
                                       f"description repeats the one of {seen_desc[key]}"))
        else:
            seen_desc[key] = case.local_id
        problems.extend(_citations(case, "examples", examples, check_examples, place,
                                   "unknown worked-example ID {!r} (not in EXAMPLES)"))
        problems.extend(_citations(case, "rules", rules, check_rules, place,
                                   "unknown rule ID {!r} (not in RULES)"))
    problems.extend(statement_problems(catalog))
    gaps = _gaps(catalog, examples, rules)
    if not suite.files:
        problems.append(Diagnostic(str(root), "", "no case files"))
    return CheckReport(suite, catalog, examples, rules, problems + gaps, gaps)


def _citations(case: Case, what: str, cited: dict[str, list[str]], check: bool,
               place: Callable[..., str], unknown: str) -> list[Diagnostic]:
    """Record the case's ``examples`` or ``rules`` (``what``) in ``cited``
    (ID -> test ids); an ID the catalog does not list is a problem (when
    ``check``: the catalog loaded)."""
    out = []
    for i, item in enumerate(getattr(case, what)):
        if item in cited:
            cited[item].append(case.test_id)
        elif check:
            out.append(Diagnostic(place(case, what, i), f"{case.id}.{what}",
                                  unknown.format(item)))
    return out


def _gaps(catalog: Catalog, examples: dict[str, list[str]],
          rules: dict[str, list[str]]) -> list[Diagnostic]:
    """Every worked example and rule ID no case cites, unless the catalog
    declares it ``pending`` (with the reason: a part of the ruleset not built
    yet); a ``pending`` entry that a case does cite is a problem too, so the
    declaration cannot outlive the gap it explains."""
    gaps: list[Diagnostic] = []
    for ex, cited in examples.items():
        e = catalog.examples[ex]
        gaps.extend(_gap(e, bool(cited), f"worked example {ex} ({e.section}: {e.title})",
                         "has no case"))
    for rule, cited in rules.items():
        e = catalog.rules[rule]
        gaps.extend(_gap(e, bool(cited), f"rule {rule} ({e.title})", "is cited by no case"))
    return gaps


def _gap(entry: CatalogEntry, cited: bool, what: str, missing: str) -> list[Diagnostic]:
    if entry.pending and cited:
        return [Diagnostic(entry.place, f"{entry.field}.pending",
                           f"{what} is covered now: remove its 'pending'")]
    if not entry.pending and not cited:
        return [Diagnostic(entry.place, entry.field, f"{what} {missing}")]
    return []


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
    for what, uncovered, pending in (
            ("worked examples", report.uncovered_examples, report.pending_examples),
            ("rule IDs", report.uncovered_rules, report.pending_rules)):
        if pending:
            lines.append(f"pending {what} (declared not built yet): " + ", ".join(pending))
        gaps = [k for k in uncovered if k not in pending]
        if gaps:
            lines.append(f"uncovered {what}: " + ", ".join(gaps))
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
                     "uncovered": report.uncovered_examples,
                     "pending": report.pending_examples},
        "rules": {"covered": sum(1 for v in report.rules.values() if v),
                  "total": len(report.rules), "uncovered": report.uncovered_rules,
                  "pending": report.pending_rules},
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
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import load
    from linguo_cli.io.write import atomic_write

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
        data = to_plain(load(str(path)).data)
        target = dst / path.relative_to(root).with_suffix(".json")
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(str(target), json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        written.append(target)
    copy = root / SCHEMAS_DIR
    for path in sorted(copy.rglob("*.json")) if copy.is_dir() else []:
        target = dst / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(str(target), path.read_text(encoding="utf-8"))
        written.append(target)
    readme = contract_text(root)
    if readme is not None:
        atomic_write(str(dst / "README.md"), readme)
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

