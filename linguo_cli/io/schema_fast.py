"""The optional validation accelerator: jsonschema-rs (PyPI ``jsonschema-rs``,
a Rust-backed validator), installed with ``pip install 'linguo[fast]'``.

It only ever says "valid": :class:`~linguo_cli.io.schema.SchemaSet` asks it
first and, when it says anything else (invalid, an instance it cannot take,
a schema it cannot compile), asks jsonschema, whose errors linguo reports.
Every message and place therefore stays jsonschema's, and a result differs
only in speed, provided the accelerator never accepts what jsonschema
rejects. That is kept by using it only where the two are known to agree:

* schemas whose keywords are all in :data:`AGREED_KEYWORDS` (``multipleOf``,
  for one, is not: jsonschema-rs accepts 0.3 as a multiple of 0.1) and whose
  ``pattern`` texts use only the regular-expression syntax of
  :data:`_PORTABLE_PIECE` (literals, classes, groups, alternatives,
  counts, anchors; no ``\\d``/``\\w``, flags, lookarounds or nested
  classes, whose meaning differs between Python's ``re`` and Rust's regex
  or fancy-regex), the schemas
  they refer to (``$ref``) included;
* instances made only of plain JSON values (:func:`plain_json`): ``dict``
  with ``str`` keys, ``list``, ``str``, ``bool``, ``None``, ``int`` within
  +/-2**53 and finite ``float`` (a document loaded by linguo is one). A
  tuple (an array to jsonschema-rs, not to jsonschema), an infinity, or a
  YAML reader's own scalar types go to jsonschema directly.

Formats are not asserted by either (jsonschema without a format checker,
jsonschema-rs with ``validate_formats=False``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

#: Keywords on whose meaning jsonschema and jsonschema-rs agree (checked by
#: tests/io/test_schema_fast.py), annotations included.
AGREED_KEYWORDS = frozenset({
    "$schema", "$id", "$ref", "$defs", "$comment", "title", "description", "examples",
    "default", "deprecated", "readOnly", "writeOnly",
    "type", "const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "items",
    "prefixItems", "required", "properties", "additionalProperties", "propertyNames",
    "minProperties", "maxProperties", "dependentRequired", "allOf", "anyOf", "oneOf", "not",
    "if", "then", "else",
})
#: Keywords whose value is one subschema / a list of subschemas / a mapping of subschemas.
_ONE = ("items", "additionalProperties", "propertyNames", "not", "if", "then", "else")
_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")
_MAP = ("properties", "$defs")
#: Pieces of a ``pattern`` that both engines read alike (see :func:`portable_pattern`):
#: an escaped punctuation mark, a character class without nested classes or
#: set operations, a count ``{n}``/``{n,}``/``{n,m}``, a group that is not ``(?``,
#: and literals, anchors, ``.``, ``|`` and the quantifiers ``? * +``.
_PORTABLE_PIECE = re.compile(r"""
    \\[.\-/()\[\]{}^$?*+|\\]
  | \[\^?(?:[A-Za-z0-9 _:/,.'"=<>!#@%$^+*?(){}|]|-(?!-)|\\[.\-/()\[\]{}^$?*+|\\])+\]
  | \{[0-9]+(?:,[0-9]*)?\}
  | \((?!\?)
  | [A-Za-z0-9 _:/,'"=<>!#@%^$.|)?*+-]
""", re.VERBOSE)
#: Largest integer magnitude passed to jsonschema-rs (beyond it a number may
#: be compared as a float).
_MAX_INT = 2**53

_MODULE: Any = None
_LOADED = False


def module() -> Any:
    """The ``jsonschema_rs`` module, or ``None`` when it is not installed
    (looked up once per process)."""
    global _MODULE, _LOADED
    if not _LOADED:
        found: Any = None
        try:
            import jsonschema_rs

            found = jsonschema_rs
        except ImportError:
            pass
        _MODULE, _LOADED = found, True
    return _MODULE


def portable_pattern(pattern: str) -> bool:
    """Does ``pattern`` use only syntax that Python's ``re`` and jsonschema-rs
    read alike: a sequence of :data:`_PORTABLE_PIECE` (so never ``\\d``,
    ``\\w``, ``\\s``, ``\\b``, ``(?`` flags or lookarounds, a nested class or a
    class set operation such as ``&&`` or ``--``)? ``$`` is the end of the
    text to Rust and also the place before a final newline to Python: Rust
    is then the stricter, which only costs a fallback to jsonschema."""
    pos, end = 0, len(pattern)
    while pos < end:
        m = _PORTABLE_PIECE.match(pattern, pos)
        if m is None:
            return False
        pos = m.end()
    return True


def disagreements(schema: Any) -> list[str]:
    """What in ``schema`` (one schema document, its subschemas included, not
    following ``$ref``) the two validators may read differently: each
    keyword outside :data:`AGREED_KEYWORDS` and each ``pattern`` that is not
    :func:`portable_pattern`, as a short text; empty when there is none."""
    out: list[str] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue  # a boolean schema
        for key, value in node.items():
            if key not in AGREED_KEYWORDS:
                out.append(f"keyword {key!r}")
            elif key == "pattern" and not (isinstance(value, str) and portable_pattern(value)):
                out.append(f"pattern {value!r}")
            elif key in _ONE:
                stack.append(value)
            elif key in _LIST and isinstance(value, list):
                stack.extend(value)
            elif key in _MAP and isinstance(value, Mapping):
                stack.extend(value.values())
    return out


def refs(schema: Any) -> set[str]:
    """The documents ``schema`` refers to: every ``$ref`` without its ``#...`` part."""
    out: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            ref = node.get("$ref")
            if isinstance(ref, str):
                out.add(ref.split("#", 1)[0])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return out


def agreed_names(schemas: Mapping[str, Any]) -> set[str]:
    """The names of ``schemas`` (name -> schema document with its ``$id``)
    that may be checked by the accelerator: no :func:`disagreements` in it
    nor in any schema it refers to, directly or not. A ``$ref`` to a
    document outside ``schemas`` (other than itself) disqualifies it."""
    by_id = {s.get("$id", ""): name for name, s in schemas.items() if isinstance(s, Mapping)}
    bad = {name for name, s in schemas.items() if disagreements(s)}
    edges: dict[str, set[str]] = {}
    for name, s in schemas.items():
        targets = refs(s) - {"", s.get("$id", "") if isinstance(s, Mapping) else ""}
        if any(t not in by_id for t in targets):
            bad.add(name)
        edges[name] = {by_id[t] for t in targets if t in by_id}
    changed = True
    while changed:  # spread: a schema referring to a bad one is bad
        changed = False
        for name, targets in edges.items():
            if name not in bad and targets & bad:
                bad.add(name)
                changed = True
    return set(schemas) - bad


def compile_validator(schema: Mapping[str, Any], resources: Iterable[tuple[str, Any]]) -> Any:
    """A jsonschema-rs Draft 2020-12 validator of ``schema`` whose ``$ref``
    resolve among ``resources`` (``(uri, schema)`` pairs), formats not
    asserted; ``None`` when jsonschema-rs is missing or cannot compile it."""
    rs = module()
    if rs is None:
        return None
    try:
        registry = rs.Registry(list(resources))
        return rs.Draft202012Validator(dict(schema), validate_formats=False, registry=registry)
    except Exception:  # a schema it cannot take: jsonschema alone checks it
        return None


def plain_json(value: Any) -> bool:
    """Is ``value`` made only of plain JSON values: ``dict`` with ``str``
    keys and ``list`` (or their subclasses, such as a loaded document's
    root: both validators take them as objects and arrays), and ``str``,
    ``bool``, ``None``, ``int`` within +/-2**53 and finite ``float`` (exact
    types)? Iterative, so any depth."""
    stack = [value]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        v = pop()
        t = type(v)
        if t is str or t is bool or v is None:
            continue
        if t is dict or isinstance(v, dict):
            for k, item in v.items():
                if type(k) is not str:
                    return False
                push(item)
        elif t is list or isinstance(v, list):
            extend(v)
        elif t is int:
            if not -_MAX_INT <= v <= _MAX_INT:
                return False
        elif t is float:
            if v - v != 0.0:  # inf or nan
                return False
        else:
            return False
    return True


def accepts(validator: Any, instance: Any) -> bool:
    """``True`` only when the accelerator's ``validator`` finds ``instance``
    (already :func:`plain_json`) valid; ``False`` when it finds it invalid
    or cannot take it (then jsonschema decides)."""
    try:
        return bool(validator.is_valid(instance))
    except Exception:  # an instance it cannot convert: jsonschema decides
        return False
