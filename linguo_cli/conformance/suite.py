"""The golden suite on disk: its constants, its cases (:class:`Case`) and
loading them (:func:`load_suite`, :func:`load_cases`), with every problem
placed at ``file:line:col``.

Suites live at ``golden/<ruleset>/`` (each installed ruleset's
:attr:`~linguo_cli.core.ruleset.Ruleset.suite`); a case's test id is
``RULESET/FILE::ID`` (:attr:`Case.test_id`), its ruleset the one its request
names (``linguomancy`` when absent). The contract is ``golden/README.md``.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linguo_cli.core import ruleset as rulesets
from linguo_cli.core.errors import Diagnostic, InputError

#: Name of the suite, announced in the batch protocol's hello line.
SUITE_NAME = "linguo-golden"
#: Catalog files at the top of a suite (``.yaml`` or ``.json``); never case files.
CATALOG_NAMES = ("EXAMPLES", "RULES")
#: The ruleset of a request without ``ruleset``.
DEFAULT_RULESET = rulesets.DEFAULT
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
    """One golden case: ``RULESET/FILE::ID`` is its test id (``file``
    relative to its suite folder, ``RULESET`` the ruleset its request names)."""

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
        """``linguomancy/tests/degrees.yaml::nat20``: how reports, JUnit,
        filters and ``golden show`` name the case."""
        return f"{self.ruleset}/{self.file}::{self.id}"

    @property
    def local_id(self) -> str:
        """``FILE::ID`` within its suite (the test id before rulesets; still
        accepted by filters and ``golden show``)."""
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


# ---------------------------------------------------------------------------
# Finding and loading the suite


def default_suite_dir() -> Path:
    """The default ruleset's suite (``golden/linguomancy/`` of the source
    tree, reached through the package's ``suite`` link or its installed copy)."""
    return Path(str(rulesets.default().suite))


def suite_dir(name: str) -> Path:
    """The suite folder of the installed ruleset ``name`` (canonical; raises
    :class:`InputError` for an unknown ruleset)."""
    return Path(str(rulesets.get(name).suite))


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
    from linguo_cli.io.places import field_path, place_of

    out: list[Diagnostic] = []
    if isinstance(node, Mapping):
        for k, v in node.items():
            if not isinstance(k, str):
                out.append(Diagnostic(place_of(name, doc, path + [k], key=True),
                                      field_path(path + [k]),
                                      f"key {k!r} is not a string"))
            out.extend(_non_json_values(name, doc, v, path + [k]))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_non_json_values(name, doc, v, path + [i]))
    elif node is None or isinstance(node, (bool, int, str)):
        pass
    elif isinstance(node, float):
        if not math.isfinite(node):
            out.append(Diagnostic(place_of(name, doc, path), field_path(path),
                                  f"{node} is not a JSON number"))
    else:
        out.append(Diagnostic(place_of(name, doc, path), field_path(path),
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


def _diags_json(diags: list[Diagnostic]) -> list[list[str]]:
    return [[d.place, d.field, d.message] for d in diags]


def _diags_from(items: list[list[str]]) -> list[Diagnostic]:
    return [Diagnostic(str(place), str(fld), str(message)) for place, fld, message in items]


def _suite_json(suite: Suite) -> dict[str, Any]:
    """``suite`` (but its root) as JSON values, for :mod:`.suite_cache`."""
    return {"files": suite.files,
            "cases": [[c.file, c.id, c.description, list(c.examples), list(c.rules), c.request,
                       c.expect, c.expect_error, c.line] for c in suite.cases],
            "problems": _diags_json(suite.problems),
            "broken_files": {k: _diags_json(v) for k, v in suite.broken_files.items()}}


def _suite_from(root: Path, data: dict[str, Any]) -> Suite:
    """The :class:`Suite` that :func:`_suite_json` wrote (raises on any other shape)."""
    cases = [Case(str(f), str(i), str(d), tuple(map(str, ex)), tuple(map(str, rules)), dict(req),
                  exp, err, int(line))
             for f, i, d, ex, rules, req, exp, err, line in data["cases"]]
    return Suite(root, [str(f) for f in data["files"]], cases, _diags_from(data["problems"]),
                 {str(k): _diags_from(v) for k, v in data["broken_files"].items()})


def load_suite(root: Path, *, strict: bool = False) -> Suite:
    """Load every case file below ``root`` without stopping at the first
    problem. A file with any problem contributes no case and is listed in
    ``broken_files`` (with its diagnostics, also in ``problems``). ``strict``
    adds the JSON-compatibility scan of :func:`json_compat_problems` (a
    second YAML parse; ``linguo golden check`` uses it, running cases does not).

    The result is kept in the suite cache (:mod:`.suite_cache`, keyed by every
    byte of the case files): loading an unchanged suite again reads it from there."""
    from linguo_cli.conformance import suite_cache

    require_suite(root)
    files = case_files(root)
    name = suite_cache.key(f"suite strict={strict}", root, files)
    cached = suite_cache.get(name, lambda data: _suite_from(root, data))
    if cached is not None:
        return cached
    suite = _load_suite(root, files, strict)
    suite_cache.put(name, _suite_json(suite))
    return suite


def _load_suite(root: Path, files: list[Path], strict: bool) -> Suite:
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import parse, read_text
    from linguo_cli.io.schema_fast import plain_json
    from linguo_cli.rulesets.linguomancy.state import SCHEMAS

    suite = Suite(root)
    for path in files:
        rel = path.relative_to(root).as_posix()
        suite.files.append(rel)
        diags: list[Diagnostic] = []
        try:
            name, text = read_text(str(path))
            name = rel
            if strict:
                diags.extend(json_compat_problems(text, name))
            doc = parse(text, name)
        except InputError as exc:
            diags.extend(d for d in exc.diagnostics if d not in diags)
            suite.broken_files[rel] = diags
            suite.problems.extend(diags)
            continue
        if not plain_json(doc.data):  # (a tree of plain JSON values has none to report)
            diags.extend(_non_json_values(name, doc.data, doc.data, []))
        diags.extend(SCHEMAS.errors(doc, "golden-case-file"))
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
        data = to_plain(doc.data)
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

