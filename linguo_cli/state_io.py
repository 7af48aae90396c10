"""Reading and writing documents: YAML/JSON in, schema validation with places,
atomic writes out.

Documents are read with ruamel.yaml's round-trip loader (JSON is read the same
way: it is YAML), so every node keeps its line and column and a state file
written back keeps the user's comments, key order and quoting. Errors name
``file:line:col`` (1-based) and the field path. Nothing here applies a rule.
"""

from __future__ import annotations

import difflib
import functools
import io
import json
import os
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from linguo_cli.errors import Diagnostic, InputError, UsageError

#: Largest document read, in bytes.
MAX_DOCUMENT_BYTES = 8 * 1024 * 1024


@dataclass(slots=True)
class Document:
    """A loaded document: ``name`` (path or ``<stdin>``) and ``data``, the
    round-trip tree (``CommentedMap``/``CommentedSeq`` keep positions)."""

    name: str
    data: Any

    def place(self, path: Iterable[Any] = ()) -> str:
        """``file:line:col`` of the node at ``path`` (or its nearest parent)."""
        return place_of(self.name, self.data, list(path))


def _yaml(typ: str = "rt") -> Any:
    from ruamel.yaml import YAML

    y = YAML(typ=typ)
    y.allow_duplicate_keys = False
    return y


def read_text(path: str) -> tuple[str, str]:
    """Read ``path`` (``-`` = stdin) as UTF-8; returns ``(name, text)``.

    Raises :class:`InputError` (exit 3) for a missing, unreadable, binary,
    oversized or non-UTF-8 file and for a directory.
    """
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_DOCUMENT_BYTES + 1)
        else:
            if os.path.isdir(path):
                raise InputError(Diagnostic(name, "", "is a directory, not a document"))
            with open(path, "rb") as fh:
                raw = fh.read(MAX_DOCUMENT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(Diagnostic(name, "", "no such file")) from None
    except PermissionError:
        raise InputError(Diagnostic(name, "", "permission denied")) from None
    except OSError as exc:
        raise InputError(Diagnostic(name, "", f"cannot read: {exc.strerror or exc}")) from None
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise InputError(Diagnostic(
            name, "", f"document larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(Diagnostic(
            f"{name}:{line}:{col}", "", "not valid UTF-8 text")) from None
    if "\x00" in text:
        raise InputError(Diagnostic(name, "", "binary file (contains NUL bytes)"))
    return name, text


def load(path: str) -> Document:
    """Read and parse a YAML or JSON document from ``path`` (``-`` = stdin)."""
    name, text = read_text(path)
    return parse(text, name)


def parse(text: str, name: str) -> Document:
    """Parse YAML/JSON ``text``; raises :class:`InputError` with ``name:line:col``.

    Duplicate keys and YAML tags are refused; an empty document is an error.
    """
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{name}:{mark.line + 1}:{mark.column + 1}" if mark else name
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        problem = " ".join(problem.split())
        raise InputError(Diagnostic(where, "", f"YAML/JSON syntax: {problem}")) from None
    except YAMLError as exc:
        raise InputError(Diagnostic(name, "", f"YAML/JSON syntax: {exc}")) from None
    except RecursionError:
        raise InputError(Diagnostic(name, "", "document nested too deeply")) from None
    if data is None:
        raise InputError(Diagnostic(name, "", "empty document"))
    _refuse_tags(name, data, [])
    return Document(name, data)


def _refuse_tags(name: str, node: Any, path: list[Any]) -> None:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar

    if isinstance(node, TaggedScalar) or (
        isinstance(node, (CommentedMap, CommentedSeq))
        and getattr(node, "tag", None) is not None
        and getattr(node.tag, "value", None) not in (None, "tag:yaml.org,2002:map",
                                                     "tag:yaml.org,2002:seq")
    ):
        raise InputError(Diagnostic(
            place_of(name, None, []), field_path(path), "YAML tags are not accepted"))
    if isinstance(node, CommentedMap):
        for k, v in node.items():
            _refuse_tags(name, v, path + [k])
    elif isinstance(node, CommentedSeq):
        for i, v in enumerate(node):
            _refuse_tags(name, v, path + [i])


def field_path(path: Iterable[Any]) -> str:
    """``["entities", 0, "hp"]`` -> ``entities[0].hp``."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + str(p)
    return out


def position(data: Any, path: list[Any], *, key: bool = False) -> tuple[int, int] | None:
    """0-based ``(line, col)`` of the node at ``path`` in a round-trip tree;
    of its key when ``key`` is true; of the nearest known parent otherwise."""
    node = data
    best: tuple[int, int] | None = None
    lc = getattr(node, "lc", None)
    if lc is not None and lc.line is not None:
        best = (lc.line, lc.col)
    for i, p in enumerate(path):
        lc = getattr(node, "lc", None)
        try:
            if isinstance(node, Mapping) and p in node:
                if lc is not None:
                    last = i == len(path) - 1
                    pos = lc.key(p) if (key and last) else lc.value(p)
                    if pos is not None:
                        best = (pos[0], pos[1])
                node = node[p]
            elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
                if lc is not None:
                    pos = lc.item(p)
                    if pos is not None:
                        best = (pos[0], pos[1])
                node = node[p]
            else:
                break
        except (KeyError, TypeError, IndexError, AttributeError):
            break
    return best


def place_of(name: str, data: Any, path: list[Any], *, key: bool = False) -> str:
    """``name:line:col`` (1-based) for ``path``, or ``name`` when unknown."""
    pos = position(data, path, key=key) if data is not None else None
    return f"{name}:{pos[0] + 1}:{pos[1] + 1}" if pos else name


def to_plain(node: Any) -> Any:
    """A copy of a round-trip tree made of plain dict/list/str/int/float/bool."""
    if isinstance(node, Mapping):
        return {str(k): to_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


# ---------------------------------------------------------------------------
# Schemas


@functools.cache
def schema_registry() -> Any:
    """A ``referencing.Registry`` of every schema shipped in ``linguo_cli.schemas``."""
    from referencing import Registry, Resource

    resources_ = []
    for entry in resources.files("linguo_cli.schemas").iterdir():
        if entry.name.endswith(".schema.json"):
            contents = json.loads(entry.read_text(encoding="utf-8"))
            resources_.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources_)


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema ``schemas/<name>.schema.json`` as a dict."""
    text = resources.files("linguo_cli.schemas").joinpath(f"{name}.schema.json").read_text(
        encoding="utf-8")
    result: dict[str, Any] = json.loads(text)
    return result


@functools.cache
def validator(name: str) -> Any:
    """A compiled, reusable Draft 2020-12 validator for schema ``name``."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name), registry=schema_registry())


def schema_errors(doc: Document, schema: str, base: list[Any] | None = None,
                  instance: Any = None) -> list[Diagnostic]:
    """Every schema error of ``doc`` (or of ``instance`` found at ``base``
    inside it), sorted by place, each with its field path and a suggestion for
    unknown keys and enum values."""
    base = list(base or [])
    target = doc.data if instance is None else instance
    diags: list[tuple[tuple[int, int], Diagnostic]] = []
    for err in validator(schema).iter_errors(target):
        for path, message, is_key in _explain(err):
            full = base + path
            pos = position(doc.data, full, key=is_key)
            place = f"{doc.name}:{pos[0] + 1}:{pos[1] + 1}" if pos else doc.name
            diags.append((pos or (0, 0), Diagnostic(place, field_path(full), message)))
    diags.sort(key=lambda d: d[0])
    seen: set[str] = set()
    out = []
    for _, d in diags:
        if str(d) not in seen:
            seen.add(str(d))
            out.append(d)
    return out


def validate(doc: Document, schema: str) -> None:
    """Raise :class:`InputError` with every schema error of ``doc`` (exit 3)."""
    diags = schema_errors(doc, schema)
    if diags:
        raise InputError(diags)


def _explain(err: Any) -> list[tuple[list[Any], str, bool]]:
    """Turn one jsonschema error into ``(path, message, points_at_key)`` items."""
    path = list(err.absolute_path)
    if err.validator in ("oneOf", "anyOf") and err.context:
        # Report the branch that got furthest, not the whole alternative.
        best = max(err.context, key=lambda e: (len(e.absolute_path), -len(e.message)))
        return _explain(best)
    if err.validator == "additionalProperties" and isinstance(err.instance, Mapping):
        allowed = list(err.schema.get("properties", {}))
        out = []
        for key in err.instance:
            if key not in allowed and not _matches_pattern(err.schema, key):
                hint = difflib.get_close_matches(str(key), allowed, n=1)
                msg = f"unknown field {key!r}" + (f" (did you mean {hint[0]!r}?)" if hint else "")
                if allowed and not hint:
                    msg += f"; allowed: {', '.join(sorted(allowed))}"
                out.append((path + [key], msg, True))
        return out or [(path, err.message, False)]
    if err.validator == "enum" and isinstance(err.instance, str):
        options = [str(o) for o in err.validator_value]
        hint = difflib.get_close_matches(err.instance, options, n=1)
        msg = f"{err.instance!r} is not one of {', '.join(options)}"
        if hint:
            msg += f" (did you mean {hint[0]!r}?)"
        return [(path, msg, False)]
    if err.validator == "required":
        return [(path, err.message, False)]
    if err.validator in ("type", "const", "minimum", "maximum", "pattern", "minLength",
                         "maxLength", "minItems", "maxItems", "uniqueItems", "exclusiveMinimum",
                         "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties",
                         "propertyNames", "not", "format"):
        return [(path, err.message, False)]
    return [(path, err.message, False)]


def _matches_pattern(schema: Mapping[str, Any], key: str) -> bool:
    import re

    return any(re.search(p, str(key)) for p in schema.get("patternProperties", {}))


# ---------------------------------------------------------------------------
# Writing


def dump_yaml(data: Any) -> str:
    """Serialise a round-trip tree (or plain data) back to YAML text,
    keeping comments, key order and quoting of what was loaded."""
    buf = io.StringIO()
    y = _yaml()
    y.width = 4096
    y.dump(data, buf)
    return buf.getvalue()


def atomic_write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same
    folder, flushed and fsynced, then renamed over ``path``. The original
    file's permission bits are kept. Readers see the old or the new file,
    never a torn one. Raises :class:`UsageError` when the folder is not writable.
    """
    folder = os.path.dirname(os.path.abspath(path)) or "."
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".linguo-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


# ---------------------------------------------------------------------------
# State files


def entities_of(doc: Document) -> dict[str, Any]:
    """The entities of a schema-valid state document as
    :class:`~linguo_cli.model.Entity` values by id, in file order.

    Raises :class:`InputError` for semantic errors, each with its place:
    duplicate ids, ``hp`` above ``max_hp``, ``flux`` above ``flux_max``.
    """
    from linguo_cli.model import Entity

    out: dict[str, Entity] = {}
    diags: list[Diagnostic] = []
    for i, raw in enumerate(doc.data["entities"]):
        e = Entity.from_dict(to_plain(raw))
        base = ["entities", i]
        if e.id in out:
            diags.append(Diagnostic(doc.place(base + ["id"]), field_path(base + ["id"]),
                                    f"duplicate entity id {e.id!r}"))
        if e.hp > e.max_hp:
            diags.append(Diagnostic(doc.place(base + ["hp"]), field_path(base + ["hp"]),
                                    f"hp {e.hp} is above max_hp {e.max_hp}"))
        if e.flux > e.flux_max:
            diags.append(Diagnostic(doc.place(base + ["flux"]), field_path(base + ["flux"]),
                                    f"flux {e.flux} is above flux_max {e.flux_max}"))
        if e.movement > e.movement_max:
            diags.append(Diagnostic(doc.place(base + ["movement"]),
                                    field_path(base + ["movement"]),
                                    f"movement {e.movement} is above movement_max "
                                    f"{e.movement_max}"))
        out[e.id] = e
    if diags:
        raise InputError(diags)
    return out


def update_entities(data: Any, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    """Write the changes between ``before`` and ``after`` entities (by id) into
    the round-trip state tree ``data``, field by field, so comments, key order
    and untouched values survive. Fields whose new value equals their default
    and that were absent stay absent."""
    index = {str(e.get("id")): e for e in data["entities"]}
    for eid, new in after.items():
        old = before.get(eid)
        node = index.get(eid)
        if node is None or old is None:
            continue
        old_d, new_d = old.as_dict(), new.as_dict()
        for key, value in new_d.items():
            if value != old_d.get(key):
                node[key] = value
