"""Schema validation: :class:`SchemaSet`, the JSON Schemas (Draft 2020-12) of
one ruleset, and every schema error of a document with its place, its field
path and a suggestion for unknown keys and enum values.

A ruleset defines its set once (e.g. Linguomancy's ``SCHEMAS``) from its
``schemas/`` folder; nothing is read, and jsonschema is not imported, until the first validation.
Nothing here applies a rule: a ruleset's semantic checks of its documents
come in as the set's ``checks``.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from linguo_cli.core.errors import MAX_DIAGNOSTICS, Diagnostic, InputError
from linguo_cli.io.document import Document, Pos, _shorten
from linguo_cli.io.places import brief, field_path

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

#: Schema errors collected per document before sorting (the rest are counted).
_MAX_COLLECTED = 1000

_SUFFIX = ".schema.json"


class SchemaSet:
    """The schemas of one ruleset: every ``NAME.schema.json`` file directly in
    ``folder`` (a package folder or any
    :class:`~importlib.resources.abc.Traversable`), known by ``NAME``, and
    the ``$ref`` registry of them all (by their ``$id``), so that a schema
    may refer to any other of the folder.

    Lazy: no file is read, and jsonschema is not imported, until the first
    use; each schema is read once and each validator compiled once.

    ``checks(doc, name)``, when given, runs in :meth:`validate` after a
    document passed schema ``name`` without error: the ruleset's semantic
    checks (raising :class:`~linguo_cli.core.errors.InputError`, exit 3).

    A schema whose ``properties.kind.enum`` lists kinds and whose ``allOf``
    holds branches ``if kind == K then $ref ID`` (``ID`` the ``$id`` of a
    schema of the folder; a request schema dispatching on ``kind``) checks an
    instance of a known kind with that kind's schema directly: exactly what
    the dispatch applies (the same errors), without testing every other
    kind's ``if`` (about 3x faster per request).

    ``accelerate`` (default on): when jsonschema-rs is installed
    (``pip install 'linguo[fast]'``), a document is first checked with it
    (:mod:`linguo_cli.io.schema_fast`, for the schemas and values on which it
    agrees with jsonschema); only a document it does not find valid is
    checked by jsonschema, whose errors are reported: the same errors either
    way, found about 20x faster for a valid document.
    """

    def __init__(self, folder: Traversable, *,
                 checks: Callable[[Document, str], None] | None = None,
                 accelerate: bool = True) -> None:
        self.folder = folder
        self.checks = checks
        self.accelerate = accelerate
        self._schemas: dict[str, dict[str, Any]] = {}
        self._validators: dict[str, Any] = {}
        self._fast: dict[str, Any] = {}
        self._fast_resources: list[tuple[str, Any]] | None = None
        self._agreed: set[str] | None = None
        self._kinds: dict[str, dict[str, str]] = {}
        self._registry: Any = None
        self._ids: dict[str, str] | None = None

    def __repr__(self) -> str:
        return f"SchemaSet({self.folder!r})"

    def schema(self, name: str) -> dict[str, Any]:
        """The schema ``NAME.schema.json`` of the folder as a dict (read once;
        do not modify it). Raises ``FileNotFoundError`` for an unknown name."""
        found = self._schemas.get(name)
        if found is None:
            text = self.folder.joinpath(name + _SUFFIX).read_text(encoding="utf-8")
            found = self._schemas[name] = json.loads(text)
        return found

    def names(self) -> list[str]:
        """The names of the folder's schemas, sorted."""
        return sorted(entry.name.removesuffix(_SUFFIX) for entry in self.folder.iterdir()
                      if entry.name.endswith(_SUFFIX))

    def registry(self) -> Any:
        """A ``referencing.Registry`` of every schema of the folder, by ``$id``."""
        if self._registry is None:
            from referencing import Registry, Resource

            resources = [(self.schema(name)["$id"], Resource.from_contents(self.schema(name)))
                         for name in self.names()]
            self._registry = Registry().with_resources(resources)
        return self._registry

    def validator(self, name: str) -> Any:
        """A compiled, reusable Draft 2020-12 validator for schema ``name``."""
        found = self._validators.get(name)
        if found is None:
            from jsonschema import Draft202012Validator

            found = self._validators[name] = Draft202012Validator(
                self.schema(name), registry=self.registry())
        return found

    def fast_validator(self, name: str) -> Any:
        """The accelerator's compiled validator of schema ``name`` (see
        :mod:`linguo_cli.io.schema_fast`), or ``None``: ``accelerate`` off,
        jsonschema-rs not installed, or a schema on which it might not
        agree with jsonschema."""
        if not self.accelerate:
            return None
        try:
            return self._fast[name]
        except KeyError:
            pass
        from linguo_cli.io import schema_fast

        found = None
        if schema_fast.module() is not None:
            if self._agreed is None or self._fast_resources is None:
                every = {n: self.schema(n) for n in self.names()}
                self._agreed = schema_fast.agreed_names(every)
                self._fast_resources = [(every[n]["$id"], every[n]) for n in sorted(self._agreed)
                                        if "$id" in every[n]]  # they refer to no other
            if name in self._agreed:
                found = schema_fast.compile_validator(self.schema(name), self._fast_resources)
        self._fast[name] = found
        return found

    def is_valid(self, name: str, instance: Any) -> bool:
        """Does ``instance`` pass schema ``name`` (after :meth:`dispatch`)?
        The accelerator's answer when it finds it valid, else jsonschema's."""
        used = self.dispatch(name, instance)
        if self._fast_accepts(used, instance):
            return True
        return bool(self.validator(used).is_valid(instance))

    def _fast_accepts(self, name: str, instance: Any) -> bool:
        fast = self.fast_validator(name)
        if fast is None:
            return False
        from linguo_cli.io import schema_fast

        return schema_fast.plain_json(instance) and schema_fast.accepts(fast, instance)

    def kind_schemas(self, name: str) -> dict[str, str]:
        """``kind -> schema name`` for every branch of schema ``name`` of the
        form ``if kind == K then $ref ID`` (``K`` a kind its ``kind`` enum
        lists, ``ID`` the ``$id`` of a schema of the folder); empty for a
        schema that does not dispatch on ``kind``."""
        found = self._kinds.get(name)
        if found is None:
            found = self._kinds[name] = self._find_kind_schemas(name)
        return found

    def _find_kind_schemas(self, name: str) -> dict[str, str]:
        if self._ids is None:
            self._ids = {self.schema(n).get("$id", ""): n for n in self.names()}
        top = self.schema(name)
        kinds = set(top.get("properties", {}).get("kind", {}).get("enum", ()))
        out: dict[str, str] = {}
        for branch in top.get("allOf", ()):
            const = branch.get("if", {}).get("properties", {}).get("kind", {}).get("const")
            ref = branch.get("then", {}).get("$ref", "")
            if const in kinds and ref in self._ids:
                out[const] = self._ids[ref]
        return out

    def dispatch(self, name: str, instance: Any) -> str:
        """The schema to check ``instance`` with: for a mapping whose ``kind``
        schema ``name`` dispatches on (see :meth:`kind_schemas`), that kind's
        own schema; else ``name``."""
        if isinstance(instance, Mapping):
            kind = instance.get("kind")
            if isinstance(kind, str):
                return self.kind_schemas(name).get(kind, name)
        return name

    def errors(self, doc: Document, name: str, base: list[Any] | None = None,
               instance: Any = None) -> list[Diagnostic]:
        """Every error of ``doc`` (or of ``instance`` found at ``base`` inside
        it) against schema ``name``, sorted by place, each with its field path
        and a suggestion for unknown keys and enum values. At most
        :data:`~linguo_cli.core.errors.MAX_DIAGNOSTICS` are returned; a last
        one counts the rest."""
        target = doc.data if instance is None else instance
        used = self.dispatch(name, target)
        if self._fast_accepts(used, target):
            return []
        base = list(base or [])
        diags: list[tuple[Pos, Diagnostic]] = []
        more = False
        for n, err in enumerate(self.validator(used).iter_errors(target)):
            if n >= _MAX_COLLECTED:
                more = True
                break
            for path, message, is_key in _explain(err):
                full = base + path
                pos = doc.position(full, key=is_key)
                place = f"{doc.name}:{pos[0] + 1}:{pos[1] + 1}" if pos else doc.name
                diags.append((pos or (0, 0),
                              Diagnostic(place, field_path(full), _shorten(message))))
        return _sorted_unique(diags, doc.name, more)

    def validate(self, doc: Document, name: str) -> None:
        """Raise :class:`~linguo_cli.core.errors.InputError` (exit 3) with
        every schema error of ``doc`` against schema ``name`` (see
        :meth:`errors`); when there are none, run the set's ``checks``."""
        diags = self.errors(doc, name)
        if diags:
            raise InputError(diags)
        if self.checks is not None:
            self.checks(doc, name)


def _sorted_unique(diags: list[tuple[Pos, Diagnostic]], name: str,
                   more: bool) -> list[Diagnostic]:
    """``diags`` sorted by position, without repeats, at most
    :data:`~linguo_cli.core.errors.MAX_DIAGNOSTICS` and a last one counting
    the rest (``more``: some were not even collected)."""
    diags.sort(key=lambda d: d[0])
    seen: set[str] = set()
    out = []
    for _, d in diags:
        if str(d) not in seen:
            seen.add(str(d))
            out.append(d)
    if len(out) > MAX_DIAGNOSTICS or more:
        rest = max(len(out) - MAX_DIAGNOSTICS, 0)
        out = out[:MAX_DIAGNOSTICS]
        out.append(Diagnostic(name, "", f"{rest}{'+' if more else ''} more errors not "
                                        "shown"))
    return out


def _explain(err: Any) -> list[tuple[list[Any], str, bool]]:
    """Turn one jsonschema error into ``(path, message, points_at_key)`` items."""
    path = list(err.absolute_path)
    if err.validator in ("oneOf", "anyOf") and err.context:
        # Report the branch that got furthest, not the whole alternative; a
        # branch whose own type does not fit the value is the least relevant.
        def relevance(e: Any) -> tuple[int, int, int]:
            own_type = e.validator == "type" and len(e.relative_path) == 0
            return (0 if own_type else 1, len(e.absolute_path), -len(e.message))

        return _explain(max(err.context, key=relevance))
    if err.validator == "additionalProperties" and isinstance(err.instance, Mapping):
        allowed = list(err.schema.get("properties", {}))
        out = []
        for key in err.instance:
            if key not in allowed and not _matches_pattern(err.schema, key):
                hint = difflib.get_close_matches(str(key), allowed, n=1)
                msg = f"unknown field {_shorten(repr(key), 60)}" + (
                    f" (did you mean {hint[0]!r}?)" if hint else "")
                if allowed and not hint:
                    msg += f"; allowed: {', '.join(sorted(allowed))}"
                out.append((path + [key], msg, True))
        return out or [(path, err.message, False)]
    if err.validator == "enum" and isinstance(err.instance, str):
        options = [str(o) for o in err.validator_value]
        hint = difflib.get_close_matches(err.instance, options, n=1)
        msg = f"{brief(err.instance)} is not one of {', '.join(options)}"
        if hint:
            msg += f" (did you mean {hint[0]!r}?)"
        return [(path, msg, False)]
    if err.validator == "type":
        expected = err.validator_value
        if isinstance(expected, list):
            expected = " or ".join(expected)
        return [(path, f"{brief(err.instance)} is not of type {expected!r}", False)]
    return [(path, _brief_message(err), False)]


def _brief_message(err: Any) -> str:
    """jsonschema's message with a long offending value not spelled out (the
    message starts with its repr: "'xxx...' is too long")."""
    msg = str(err.message)
    if isinstance(err.instance, (Mapping, list, str)):
        rep = repr(err.instance)
        if len(rep) > 60 and msg.startswith(rep):
            return brief(err.instance) + msg[len(rep):]
    return msg


def _matches_pattern(schema: Mapping[str, Any], key: str) -> bool:
    return any(re.search(p, str(key)) for p in schema.get("patternProperties", {}))
