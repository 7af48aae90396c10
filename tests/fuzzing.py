"""Fuzzing machinery shared by ``tests/test_fuzz.py`` (bounded, in CI) and
``tests/fuzz_campaign.py`` (the long campaign).

* :func:`request_kinds` - every kind of ``schemas/request.schema.json`` that
  has a handler in :data:`linguo_cli.rulesets.linguomancy.ruleset.HANDLERS` (new kinds are fuzzed
  as soon as they are registered).
* :func:`from_schema` - a hypothesis strategy built from one of our JSON
  Schemas (types, ranges, patterns, enums, required/optional properties,
  ``$ref``, ``oneOf``/``anyOf``, ``if``/``then`` dispatch); :func:`requests`
  and :func:`states` add the semantic fix-ups a real document has (hp within
  max_hp, existing target ids, ...), so most generated inputs get to a rule.
* :func:`mutated_texts` - valid documents broken on purpose (wrong types,
  removed keys, huge numbers, strings in number places, deep nesting, control
  characters, text cuts), written as JSON or YAML.
* :func:`check_resolution` and :func:`check_text` - the properties asserted
  for every input: no exception other than a :class:`LinguoError` escapes,
  every resource of a result state stays in range, resolution is
  deterministic given the faces, and refused documents name their place.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any

from hypothesis import strategies as st

from linguo_cli.core import requests
from linguo_cli.core.dice import ScriptedDice, SeededDice
from linguo_cli.core.errors import InputError, LinguoError
from linguo_cli.io.document import Document, to_plain
from linguo_cli.io.read import parse
from linguo_cli.rulesets.linguomancy.ruleset import HANDLERS
from linguo_cli.rulesets.linguomancy.state import SCHEMAS, entities_of, update_entities

#: Keys whose string value names an entity of the inline state.
REF_KEYS = frozenset({"target", "caster", "entity", "attacker", "source", "healer", "actor",
                      "entity_id"})
#: Keys whose list of strings names entities of the inline state.
REF_LIST_KEYS = frozenset({"targets", "entities_ids"})
#: Name used for fuzzed documents in diagnostics.
NAME = "<fuzz>"
PLACE = re.compile(r"^<fuzz>:\d+:\d+$")
#: Diagnostics of a whole document that legitimately have no line:col.
WHOLE_DOCUMENT = ("empty document", "more errors not shown", "larger than")

SAFE_TEXT = st.characters(blacklist_categories=("Cc", "Cs"))


class Escaped(AssertionError):
    """An exception other than a LinguoError escaped (a bug)."""


# ---------------------------------------------------------------------------
# Schemas -> strategies


@cache
def request_kinds() -> tuple[str, ...]:
    """Kinds in the dispatcher schema's ``kind`` enum that have a handler."""
    kinds = SCHEMAS.schema("request")["properties"]["kind"]["enum"]
    return tuple(k for k in kinds if k in HANDLERS)


@cache
def kind_schema_ref(kind: str) -> str:
    """The ``$ref`` of the per-kind schema the dispatcher applies to ``kind``."""
    for entry in SCHEMAS.schema("request").get("allOf", []):
        cond = entry.get("if", {}).get("properties", {}).get("kind", {})
        if cond.get("const") == kind or kind in cond.get("enum", ()):
            return str(entry["then"]["$ref"])
    raise LookupError(f"no schema for kind {kind!r} in schemas/request.schema.json")


def _resolver(uri: str = "urn:linguo:request") -> Any:
    return SCHEMAS.registry().resolver(base_uri=uri)


def _merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Shallow merge of two object schemas: properties and required united."""
    out = {**a, **b}
    if "properties" in a or "properties" in b:
        props = dict(a.get("properties", {}))
        for k, v in b.get("properties", {}).items():
            vague = v is True or (isinstance(v, Mapping) and not set(v) - {"description"})
            if k not in props or not vague:
                props[k] = v
        out["properties"] = props
    if "required" in a or "required" in b:
        out["required"] = sorted(set(a.get("required", [])) | set(b.get("required", [])))
    return out


def _deref(schema: Any, res: Any) -> tuple[Any, Any]:
    while isinstance(schema, Mapping) and "$ref" in schema:
        found = res.lookup(schema["$ref"])
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        schema, res = found.contents, found.resolver
        if siblings and isinstance(schema, Mapping):
            schema = {**schema, **{k: v for k, v in siblings.items()
                                   if k not in ("description", "title")}}
    return schema, res


ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | st.text(SAFE_TEXT, max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(SAFE_TEXT, max_size=6), inner, max_size=3),
    max_leaves=6)


def _without_other_branches(merged: Any, branch: Any, branches: list[Any]) -> Any:
    """``merged`` (an object schema and one ``oneOf`` branch) without the
    optional properties only the other branches require (``oneOf: [{required:
    [dc]}, {required: [idiom_dc]}]``: the ``dc`` branch never draws ``idiom_dc``)."""
    if not isinstance(merged, Mapping) or not isinstance(merged.get("properties"), Mapping):
        return merged
    own = set(branch.get("required", ())) if isinstance(branch, Mapping) else set()
    others = {k for b in branches if isinstance(b, Mapping) and b is not branch
              for k in b.get("required", ())} - own
    if not others:
        return merged
    return {**merged, "properties": {k: v for k, v in merged["properties"].items()
                                     if k not in others}}


def from_schema(schema: Any, res: Any = None, depth: int = 0) -> st.SearchStrategy[Any]:
    """A strategy for instances of ``schema`` (mostly valid: keywords the
    generator does not model, such as ``not``, are left to the validator).
    Sizes are kept small: lists up to 3 items (or ``minItems``)."""
    res = res if res is not None else _resolver()
    schema, res = _deref(schema, res)
    if schema is True or not isinstance(schema, Mapping) or depth > 14:
        return ANY_JSON
    if "const" in schema:
        return st.just(copy.deepcopy(schema["const"]))
    if "enum" in schema:
        return st.sampled_from([copy.deepcopy(v) for v in schema["enum"]])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            base = {k: v for k, v in schema.items() if k != key}
            branches = []
            for b in schema[key]:
                b, bres = _deref(b, res)
                merged = _merge(base, b)
                if key == "oneOf":  # one branch only: leave out what the others require
                    merged = _without_other_branches(merged, b, schema[key])
                branches.append(from_schema(merged, bres, depth + 1))
            return st.one_of(branches)
    if "allOf" in schema:
        base = {k: v for k, v in schema.items() if k != "allOf"}
        dispatch = [e for e in schema["allOf"] if "if" in e and "then" in e]
        plain = [e for e in schema["allOf"] if e not in dispatch]
        for e in plain:
            e, _ = _deref(e, res)
            base = _merge(base, e)
        if dispatch:
            options = []
            for e in dispatch:
                then, tres = _deref(e["then"], res)
                when = {"properties": e["if"].get("properties", {})}
                options.append(from_schema(_merge(_merge(base, then), when), tres, depth + 1))
            return st.one_of(options)
        return from_schema(base, res, depth + 1)
    types = schema.get("type")
    if isinstance(types, list):
        return st.one_of([from_schema({**schema, "type": t}, res, depth + 1) for t in types])
    if types is None:
        if "properties" in schema or "required" in schema:
            types = "object"
        elif "items" in schema:
            types = "array"
        else:
            return ANY_JSON
    if types == "null":
        return st.none()
    if types == "boolean":
        return st.booleans()
    if types == "integer":
        return _integers(schema)
    if types == "number":
        if "multipleOf" in schema:
            step = schema["multipleOf"]
            lo = math.ceil(schema.get("minimum", -1000) / step)
            hi = math.floor(schema.get("maximum", 1000) / step)
            return st.integers(lo, min(hi, lo + 400)).map(
                lambda n: int(n * step) if float(n * step).is_integer() else n * step)
        return _integers(schema) | st.floats(schema.get("minimum", -1000),
                                             schema.get("maximum", 1000)).map(
            lambda x: round(x * 2) / 2)
    if types == "string":
        return _strings(schema)
    if types == "array":
        items = from_schema(schema.get("items", True), res, depth + 1)
        lo = schema.get("minItems", 0)
        hi = max(lo, min(schema.get("maxItems", 3), 3))
        if schema.get("uniqueItems"):
            return st.lists(items, min_size=lo, max_size=hi,
                            unique_by=lambda v: json.dumps(v, sort_keys=True))
        return st.lists(items, min_size=lo, max_size=hi)
    if types == "object":
        props = schema.get("properties", {})
        required = [k for k in schema.get("required", []) if k in props]
        req = {k: from_schema(props[k], res, depth + 1) for k in required}
        opt = {k: from_schema(v, res, depth + 1) for k, v in props.items() if k not in req}
        fixed = st.fixed_dictionaries(req, optional=opt)
        extra = schema.get("additionalProperties")
        if isinstance(extra, Mapping) and not props:
            names = schema.get("propertyNames")
            # property names are strings whatever the sub-schema states
            # (a $ref'd name schema may generate other JSON: such a draw is
            # turned into its JSON text, so keys stay hashable strings)
            keys = from_schema({"type": "string", **names}, res, depth + 1).map(
                lambda k: k if isinstance(k, str) else json.dumps(k, sort_keys=True),
            ) if names else st.text(
                st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=8)
            lo = schema.get("minProperties", 0)
            hi = max(lo, min(schema.get("maxProperties", 3), 3))
            return st.dictionaries(keys, from_schema(extra, res, depth + 1), min_size=lo,
                                   max_size=hi)
        return fixed
    return ANY_JSON


def _integers(schema: Mapping[str, Any]) -> st.SearchStrategy[int]:
    lo = schema.get("minimum", -(10**6))
    hi = schema.get("maximum", 10**6)
    if "exclusiveMinimum" in schema:
        lo = max(lo, schema["exclusiveMinimum"] + 1)
    if "exclusiveMaximum" in schema:
        hi = min(hi, schema["exclusiveMaximum"] - 1)
    small = st.integers(max(lo, -3), min(hi, 25)) if max(lo, -3) <= min(hi, 25) else st.nothing()
    return small | st.integers(lo, hi) | st.sampled_from(sorted({lo, hi}))


def _strings(schema: Mapping[str, Any]) -> st.SearchStrategy[str]:
    lo = schema.get("minLength", 0)
    hi = schema.get("maxLength", 40)
    if "pattern" in schema:
        return st.from_regex(schema["pattern"], fullmatch=True).filter(
            lambda s: lo <= len(s) <= hi and not re.search(r"[\x00-\x1f\x7f-\x9f]", s))
    return st.text(SAFE_TEXT, min_size=lo, max_size=max(lo, min(hi, 12)))


# ---------------------------------------------------------------------------
# Semantic fix-ups: what a hand-written document gets right


def fix_state(state: Any) -> Any:
    """Make generated entities semantically valid: unique ids, hp <= max_hp,
    flux <= flux_max, movement <= movement_max, maintained idioms known."""
    if not isinstance(state, dict) or not isinstance(state.get("entities"), list):
        return state
    seen: set[str] = set()
    for i, e in enumerate(state["entities"]):
        if not isinstance(e, dict):
            continue
        if e.get("id") in seen:
            e["id"] = f"e{i}x"
        seen.add(e.get("id"))
        if _number(e.get("hp")) and _number(e.get("max_hp")):
            e["hp"] = min(e["hp"], e["max_hp"])
        if e.get("dead"):
            e["hp"] = 0
        _fix_v1(e)
        if e.get("hp") and isinstance(e.get("conditions"), list):
            e["conditions"] = [c for c in e["conditions"]
                               if not (isinstance(c, dict) and c.get("name") in ("Dying",
                                                                                  "Stable"))]
        if _number(e.get("flux")) and _number(e.get("flux_max", 10)):
            e["flux"] = min(e["flux"], e.get("flux_max", 10))
        if _number(e.get("movement")) and _number(e.get("movement_max", 0)):
            e["movement"] = min(e["movement"], e.get("movement_max", 0))
        if isinstance(e.get("maintained"), list) and isinstance(e.get("idioms"), list):
            e["idioms"] = list(dict.fromkeys(
                list(e["idioms"]) + [m["idiom"] for m in e["maintained"]
                                     if isinstance(m, dict) and "idiom" in m]))[:1000]
    return state


def _fix_v1(e: dict[str, Any]) -> None:
    """The V1 fix-ups (rulings rev. 2) a generated entity needs to be a state
    the rules allow: a living entity that would die at 0 HP gets 1 HP, death
    saves and Exhaustion tiers stay below what kills or stabilises."""
    if e.get("dead"):
        return
    dies = e.get("at_zero_hp", "dying" if e.get("kind") == "player" else "dies") == "dies"
    names = {c.get("name") for c in e.get("conditions") or () if isinstance(c, dict)}
    if dies and e.get("hp") == 0 and not {"Unconscious", "Stable"} <= names \
            and _number(e.get("max_hp")) and e["max_hp"] >= 1:
        e["hp"] = 1
    saves = e.get("death_saves")
    if isinstance(saves, dict):
        if _number(saves.get("failures")) and saves["failures"] >= 3:
            saves["failures"] = 2
        if _number(saves.get("successes")) and saves["successes"] >= 3 and "Dying" in names:
            saves["successes"] = 2
    if _number(e.get("exhaustion")) and e["exhaustion"] >= 6:
        e["exhaustion"] = 5


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _retarget(node: Any, ids: list[str], pick: int, inside_state: bool = False) -> int:
    """Point every entity reference of a request at an existing id."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "state":
                continue
            if k in REF_KEYS and isinstance(v, str) and ids:
                node[k] = ids[pick % len(ids)]
                pick += 1
            elif k in REF_LIST_KEYS and isinstance(v, list) and ids:
                node[k] = list(dict.fromkeys(ids[(pick + j) % len(ids)] for j in range(len(v))))
                pick += 1
            else:
                pick = _retarget(v, ids, pick)
    elif isinstance(node, list):
        for v in node:
            pick = _retarget(v, ids, pick)
    return pick


@cache
def _kind_strategy(kind: str) -> st.SearchStrategy[Any]:
    return from_schema({"$ref": kind_schema_ref(kind)})


@st.composite
def requests_of(draw: Any, kind: str) -> dict[str, Any]:
    """A request of ``kind`` generated from its schema, with semantic fix-ups."""
    req = copy.deepcopy(draw(_kind_strategy(kind)))
    if not isinstance(req, dict):
        return req
    req.pop("rolls", None)
    req.pop("seed", None)
    if "dc" in req and "idiom_dc" in req:  # a save gives one of the two (its oneOf)
        req.pop("idiom_dc")
    test = req.get("test")
    if isinstance(test, dict):  # odds: the nested test rolls no die, one DC
        test.pop("rolls", None)
        test.pop("seed", None)
        if "dc" in test:
            test.pop("idiom_dc", None)
    if "state" in req:
        fix_state(req["state"])
        ents = req["state"].get("entities") if isinstance(req["state"], dict) else None
        ids = [e["id"] for e in ents or [] if isinstance(e, dict) and "id" in e]
        _retarget(req, ids, draw(st.integers(0, 50)))
    return req


@cache
def states() -> st.SearchStrategy[Any]:
    """A state document generated from ``schemas/state.schema.json``."""
    return from_schema({"$ref": "urn:linguo:state"}).map(lambda s: fix_state(copy.deepcopy(s)))


@cache
def any_request() -> st.SearchStrategy[dict[str, Any]]:
    """A request of any registered kind."""
    return st.sampled_from(request_kinds()).flatmap(requests_of)


# ---------------------------------------------------------------------------
# The other installed rulesets (Novence Eternal, PTR 2e, ...): their own
# schemas, validators and handlers, through the same generator.


@cache
def other_ruleset_kinds() -> tuple[tuple[str, str], ...]:
    """``(ruleset, kind)`` for every request kind of every installed ruleset
    but Linguomancy that has its schema ``<kind>-request.schema.json`` (new
    kinds are fuzzed as soon as they are registered)."""
    from linguo_cli.core import ruleset as rulesets

    out = []
    for name, rs in sorted(rulesets.installed().items()):
        if name == "linguomancy":
            continue
        folder = rs.schemas
        out.extend((name, k) for k in rs.kinds
                   if folder.joinpath(f"{k}-request.schema.json").is_file())
    return tuple(out)


@cache
def _ruleset_schemas(name: str) -> Any:
    from linguo_cli.core import ruleset as rulesets
    from linguo_cli.io.schema import SchemaSet

    return SchemaSet(rulesets.get(name).schemas)


@cache
def ruleset_requests_of(name: str, kind: str) -> st.SearchStrategy[Any]:
    """Requests of ``kind`` of ruleset ``name`` from its own schemas, with
    ``ruleset`` set and no ``rolls``/``seed`` (the test gives the dice)."""
    schemas = _ruleset_schemas(name)
    ref = str(schemas.schema(f"{kind}-request")["$id"])
    res = schemas.registry().resolver(base_uri=ref)

    def fix(req: Any) -> Any:
        if isinstance(req, dict):
            req = copy.deepcopy(req)
            req["ruleset"], req["kind"] = name, kind
            req.pop("rolls", None)
            req.pop("seed", None)
        return req

    return from_schema({"$ref": ref}, res).map(fix)


def check_ruleset_resolution(request: Any, seed: int, stats: Counter[str]) -> None:
    """Validate ``request`` with its ruleset and, when valid, resolve it with
    seeded dice: only a :class:`LinguoError` may escape (exit 3 with a place
    or exit 4), and a result replays identically from its ``rolls_used``."""
    try:
        requests.validate(Document("request", copy.deepcopy(request)))
    except InputError as exc:
        stats["invalid"] += 1
        assert all(d.place for d in exc.diagnostics), f"no place: {exc.diagnostics[:3]}"
        return
    except Exception as exc:
        raise Escaped(f"validation raised {type(exc).__name__}: {exc}") from exc
    try:
        result = to_plain(requests.resolve(copy.deepcopy(request), SeededDice(seed)))
    except LinguoError as exc:
        stats[f"exit {exc.code}"] += 1
        return
    except Exception as exc:
        raise Escaped(f"{request.get('ruleset')}/{request.get('kind')}: "
                      f"{type(exc).__name__}: {exc}") from exc
    stats["resolved"] += 1
    _no_nan(result)
    again = to_plain(requests.resolve(copy.deepcopy(request),
                                      ScriptedDice(list(result["rolls_used"]))))
    assert again == result, "not deterministic given the faces"


def check_ruleset_text(text: str, stats: Counter[str]) -> None:
    """A (mutated) request text of another ruleset: loading and validation
    raise only an :class:`InputError` whose every problem has its place
    (``<fuzz>:line:col``); a valid one resolves as
    :func:`check_ruleset_resolution` says."""
    try:
        doc = parse(text, NAME)
        requests.validate(doc)
    except InputError as exc:
        stats["refused"] += 1
        for d in exc.diagnostics:
            if not PLACE.match(d.place):
                assert d.place == NAME and any(w in d.message for w in WHOLE_DOCUMENT) or (
                    d.field == "ruleset"), f"no place: {d}"
        return
    except Exception as exc:
        raise Escaped(f"loading raised {type(exc).__name__}: {exc}") from exc
    stats["accepted"] += 1
    check_ruleset_resolution(to_plain(doc.data), 7, stats)


# ---------------------------------------------------------------------------
# Mutations


HUGE = [10**100, -(10**30), 2**64, 10**21, 1e308, -1e308, 1.5, 0.1]
WRONG = ["12", "", "abc", [], {}, [1, 2], {"a": 1}, None, True, False, "\x1b[2J",
         "x" * 300]


def fuzz_generated_requests(ruleset: str, kind: str, max_examples: int) -> None:
    """Requests of ``kind`` generated from the ruleset's schema, resolved
    with seeded dice (:func:`check_ruleset_resolution`); asserts at least
    one example ran."""
    from hypothesis import given, settings

    stats: Counter[str] = Counter()

    @settings(max_examples=max_examples)
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def run(data: st.DataObject, seed: int) -> None:
        request = data.draw(ruleset_requests_of(ruleset, kind))
        check_ruleset_resolution(request, seed, stats)

    run()
    assert sum(stats.values()) > 0


def fuzz_mutated_requests(ruleset: str, kind: str, max_examples: int) -> None:
    """Texts of generated ``kind`` requests broken at random, each refused
    with a place or resolved cleanly (:func:`check_ruleset_text`)."""
    from hypothesis import given, settings

    @settings(max_examples=max_examples)
    @given(text=mutated_texts(ruleset_requests_of(ruleset, kind)))
    def run(text: str) -> None:
        check_ruleset_text(text, Counter())

    run()


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, path + (i,))
    return out


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    return doc


def _delete(doc: Any, path: tuple[Any, ...]) -> Any:
    if not path:
        return doc
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    del parent[path[-1]]
    return doc


@st.composite
def mutated_documents(draw: Any, base: st.SearchStrategy[Any]) -> Any:
    """A document from ``base`` with 1-3 structural mutations."""
    doc = copy.deepcopy(draw(base))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["wrong", "huge", "delete", "unknown", "string-number",
                                   "deep", "null"]))
        try:
            node = doc
            for p in path:
                node = node[p]
        except (KeyError, IndexError, TypeError):
            continue
        if op == "wrong":
            doc = _set(doc, path, copy.deepcopy(draw(st.sampled_from(WRONG))))
        elif op == "huge":
            doc = _set(doc, path, draw(st.sampled_from(HUGE)))
        elif op == "delete" and path:
            doc = _delete(doc, path)
        elif op == "unknown" and isinstance(node, dict):
            node[draw(st.sampled_from(["modifers", "zzz", "hp ", "Kind", "targte"]))] = 1
        elif op == "string-number" and isinstance(node, (int, float)) and not isinstance(
                node, bool):
            doc = _set(doc, path, str(node))
        elif op == "deep":
            value: Any = node
            for _ in range(draw(st.integers(60, 80))):
                value = [value]
            doc = _set(doc, path, value)
        elif op == "null":
            doc = _set(doc, path, None)
    return doc


def to_yaml(value: Any, indent: int = 0) -> str:
    """Block-style YAML of a JSON value (nested lists as flow JSON)."""
    pad = " " * indent

    def scalar(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    if isinstance(value, dict) and value:
        out = []
        for k, v in value.items():
            key = json.dumps(str(k), ensure_ascii=False)
            if isinstance(v, dict) and v:
                out.append(f"{pad}{key}:\n{to_yaml(v, indent + 2)}")
            elif isinstance(v, list) and v:
                out.append(f"{pad}{key}:\n" + "".join(
                    f"{pad}  - {scalar(item)}\n" for item in v))
            else:
                out.append(f"{pad}{key}: {scalar(v)}\n")
        return "".join(out)
    if isinstance(value, list) and value:
        return "".join(f"{pad}- {scalar(item)}\n" for item in value)
    return pad + scalar(value) + "\n"


@st.composite
def mutated_texts(draw: Any, base: st.SearchStrategy[Any]) -> str:
    """A (usually broken) document text: a mutated document as JSON or YAML,
    sometimes also cut, spliced or given a bad token at the text level."""
    doc = draw(mutated_documents(base))
    as_json = draw(st.booleans())
    text = json.dumps(doc, ensure_ascii=False, indent=draw(st.sampled_from([None, 1]))) \
        if as_json else to_yaml(doc)
    op = draw(st.sampled_from(["none", "none", "cut", "insert", "nan", "dup", "tag", "alias"]))
    if op == "cut" and text:
        text = text[: draw(st.integers(0, len(text) - 1))]
    elif op == "insert":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["{", "]", ",", ":", "\"", "\x07", "!", "&a ",
                                                 "*a", "\t", "-", "#", "\n- "])) + text[at:]
    elif op == "nan":
        text = re.sub(r"(?<=: )-?\d+(?:\.\d+)?", draw(st.sampled_from(["NaN", "Infinity",
                                                                        ".nan", "-.inf"])),
                      text, count=1)
    elif op == "dup" and not as_json:
        lines = text.splitlines(keepends=True)
        if lines:
            i = draw(st.integers(0, len(lines) - 1))
            text = "".join(lines[: i + 1] + [lines[i]] + lines[i + 1:])
    elif op == "tag" and not as_json:
        text = text.replace(": ", ": !!python/object:os.system ", 1)
    elif op == "alias" and not as_json:
        text = text.replace(": ", ": &a ", 1).replace("\n", "\nzz: *a\n", 1)
    return text


# ---------------------------------------------------------------------------
# Properties


def _no_nan(value: Any) -> None:
    json.dumps(value, allow_nan=False)


def check_state_in_range(state: Any) -> None:
    """A result state must be a valid state: schema (every count within its
    bounds) and semantics (hp <= max_hp, flux <= flux_max, ...)."""
    doc = Document("<result>", to_plain(state))
    diags = SCHEMAS.errors(doc, "state")
    assert not diags, f"result state out of range: {diags[:3]}"
    try:
        entities_of(doc)
    except InputError as exc:
        raise AssertionError(f"result state breaks a semantic rule: {exc}") from None


def check_resolution(request: Mapping[str, Any], seed: int, stats: Counter[str]) -> None:
    """Resolve ``request`` with seeded dice; only a :class:`LinguoError` may
    escape; a result must hold its state in range and replay identically from
    its own ``rolls_used`` faces."""
    try:
        SCHEMAS.validate(Document("request", copy.deepcopy(dict(request))), "request")
    except InputError:
        stats["invalid"] += 1
        return
    except LinguoError as exc:  # pragma: no cover - validation raises InputError only
        raise Escaped(f"validation raised {type(exc).__name__}: {exc}") from exc
    except Exception as exc:
        raise Escaped(f"validation raised {type(exc).__name__}: {exc}") from exc
    try:
        result = to_plain(requests.resolve(copy.deepcopy(dict(request)), SeededDice(seed)))
    except LinguoError as exc:
        stats[f"exit {exc.code}"] += 1
        return
    except Exception as exc:
        raise Escaped(f"{request.get('kind')}: {type(exc).__name__}: {exc}") from exc
    stats["resolved"] += 1
    _no_nan(result)
    if isinstance(result.get("state"), Mapping):
        check_state_in_range(result["state"])
    try:
        again = to_plain(requests.resolve(copy.deepcopy(dict(request)),
                                          ScriptedDice(list(result["rolls_used"]))))
    except Exception as exc:
        raise AssertionError(f"replay with rolls_used {result['rolls_used']} failed: "
                             f"{type(exc).__name__}: {exc}") from exc
    assert again == result, "not deterministic given the faces"


def check_text(text: str, schema: str, stats: Counter[str]) -> None:
    """Load, validate and (when valid) resolve a document text: only a
    :class:`LinguoError` may escape, and a refused document names the place
    (``<fuzz>:line:col``) of every problem."""
    try:
        doc = parse(text, NAME)
        SCHEMAS.validate(doc, schema)
    except InputError as exc:
        stats["refused"] += 1
        for d in exc.diagnostics:
            if not PLACE.match(d.place):
                assert d.place == NAME and any(w in d.message for w in WHOLE_DOCUMENT), (
                    f"no place: {d}")
        return
    except Exception as exc:
        raise Escaped(f"loading raised {type(exc).__name__}: {exc}") from exc
    stats["accepted"] += 1
    if schema == "request":
        check_resolution(to_plain(doc.data), 7, stats)


def check_state_text(state: Any, stats: Counter[str]) -> None:
    """A generated state written as JSON and as YAML loads and validates (when
    the generator made it valid), and JSON reads back to the same values."""
    text = json.dumps(state, ensure_ascii=False)
    valid = not SCHEMAS.errors(Document("<gen>", state), "state")
    try:
        doc = parse(text, NAME)
        SCHEMAS.validate(doc, "state")
    except InputError as exc:
        stats["refused"] += 1
        assert not valid or "above" in str(exc) or "entity" in str(exc) or "HP" in str(exc), (
            f"a schema-valid state was refused: {exc}")
        return
    except Exception as exc:
        raise Escaped(f"loading raised {type(exc).__name__}: {exc}") from exc
    stats["accepted"] += 1
    assert to_plain(doc.data) == state, "JSON state did not read back the same"
    check_text(to_yaml(state), "state", stats)


# ---------------------------------------------------------------------------
# Write-back (issue 15): random valid states written with random styles, a
# random damage applied, the written text compared byte for byte.

#: Names that other writers turn into other types or spellings.
TRICKY_NAMES = ("+0x1", "-0x10", "25/2", "yes", "no", "on", "010", "1e3", "null", "~",
                "a: b", "x # y", "it's", 'say "hi"', "Ayla", "Bram the Bold", "#hash",
                "- dash", "@at", "tab\there", "é ü", "trailing ", " leading")


@st.composite
def writeback_states(draw: Any) -> dict[str, Any]:
    """A state that keeps the semantic rules (V1, H4, H5, H8): HP within
    0..max_hp, nobody Dying or Stable above 0 HP, players at 0 HP Dying and
    Unconscious with at most 2 failures, enemies at 0 HP dead."""
    entities = []
    for i in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["player", "enemy"]))
        max_hp = draw(st.integers(1, 40))
        hp = draw(st.integers(0, max_hp))
        e: dict[str, Any] = {"id": f"e{i}", "kind": kind, "hp": hp, "max_hp": max_hp}
        if draw(st.booleans()):
            e["name"] = draw(st.sampled_from(TRICKY_NAMES))
        if draw(st.booleans()):
            e["temp_hp"] = draw(st.integers(0, 6))
        if draw(st.booleans()):
            e["movement_max"] = draw(st.sampled_from([6, "25/2", 7.5, "10/3"]))
        if draw(st.booleans()):
            e["resistances"] = draw(st.lists(st.sampled_from(["fire", "frost", "acid"]),
                                             max_size=2, unique=True))
        if hp == 0 and kind == "player":
            e["conditions"] = [{"name": "Dying", "source": "dying"},
                               {"name": "Unconscious", "source": "dying"}]
            e["death_saves"] = {"successes": draw(st.integers(0, 2)),
                                "failures": draw(st.integers(0, 2))}
        elif hp == 0:
            e["dead"] = True
            e["death"] = {"cause": "zero_hp"}
        elif draw(st.booleans()):
            e["conditions"] = [{"name": "Prone", "source": "shove"}]
        entities.append(e)
    state: dict[str, Any] = {}
    if draw(st.booleans()):
        state["description"] = draw(st.sampled_from(
            ["a fight", "x" * 90 + "   three spaces " + "y" * 4100, "quoted: yes", "25/2"]))
    if draw(st.booleans()):
        state["round"] = draw(st.integers(1, 9))
    state["entities"] = entities
    return state


@st.composite
def writeback_texts(draw: Any) -> tuple[str, str]:
    """``(text, format)``: a :func:`writeback_states` state written as YAML
    with random comments, quoting, flow/block styles, indentation, line
    endings and BOM, or as JSON with random indentation and separators."""
    state = draw(writeback_states())
    if draw(st.integers(0, 3)) == 0:
        indent = draw(st.sampled_from([None, 1, 2, 4, "\t"]))
        seps = draw(st.sampled_from([(",", ":"), (", ", ": "), (",", ": ")]))
        return json.dumps(state, indent=indent, separators=seps, ensure_ascii=False), "json"
    styles = st.sampled_from(["plain", "single", "double"])

    def scalar(v: Any, flow: bool) -> str:
        if isinstance(v, bool):
            return draw(st.sampled_from(["true", "True"])) if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        style = draw(styles)
        from linguo_cli.io.writeback import _plain_ok

        if style == "plain" and _plain_ok(v, flow) and len(v) < 100:
            return str(v)
        if style == "single" and "\t" not in v:
            return "'" + v.replace("'", "''") + "'"
        return json.dumps(v, ensure_ascii=False)

    def flow(v: Any) -> str:
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k}: {flow(x)}" for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(flow(x) for x in v) + "]"
        return scalar(v, True)

    def comment() -> str:
        return draw(st.sampled_from(["", "", "  # note", " # hp: 3, not: [this]"]))

    mapping = draw(st.sampled_from([2, 4]))
    offset = draw(st.sampled_from([0, 2]))
    anchors: dict[int, str] = {}
    lines = ["# a state" if draw(st.booleans()) else ""]

    def block(d: dict[str, Any], col: int, first_prefix: str = "") -> list[str]:
        out = []
        for n, (k, v) in enumerate(d.items()):
            pad = first_prefix if n == 0 and first_prefix else " " * col
            if isinstance(v, (dict, list)) and v and draw(st.booleans()):
                out.append(f"{pad}{k}:{comment()}")
                if isinstance(v, dict):
                    out += block(v, col + mapping)
                else:
                    for item in v:
                        dash = " " * (col + offset) + "- "
                        if isinstance(item, dict):
                            out += block(item, col + offset + 2, dash)
                        else:
                            out.append(dash + scalar(item, False) + comment())
            elif k == "hp" and d.get("max_hp") == v and draw(st.booleans()):
                anchors[id(d)] = name = f"a{len(anchors)}"  # max_hp: an alias of hp
                out.append(f"{pad}{k}: &{name} {v}{comment()}")
            elif k == "max_hp" and id(d) in anchors:
                out.append(f"{pad}{k}: *{anchors.pop(id(d))}{comment()}")
            else:
                out.append(f"{pad}{k}: {flow(v)}{comment()}")
        return out

    if draw(st.booleans()):
        lines.append("---")
    for k, v in state.items():
        if k == "description" and len(v) < 100 and draw(st.booleans()):
            lines.append(f"{k}: |{comment()}")  # a block scalar
            lines.append(f"  {v}")
        elif k != "entities":
            lines.append(f"{k}: {scalar(v, False)}{comment()}")
    lines.append("entities:")
    for e in state["entities"]:
        dash = " " * offset + "- "
        if draw(st.booleans()):
            lines.append(dash + flow(e) + comment())
        else:
            lines += block(e, offset + 2, dash)
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    bom = "\ufeff" if draw(st.integers(0, 4)) == 0 else ""
    return bom + nl.join(ln for ln in lines if ln or lines.index(ln) > 0) + nl, "yaml"


def _changed_regions(doc: Any, old: Any, new: Any, path: tuple[Any, ...] = ()
                     ) -> list[tuple[int, int]]:
    """Spans of ``doc``'s text that may change: changed scalars, and the whole
    node where a structure changed (keys added, a list resized, a type changed)."""
    from linguo_cli.io.writeback import same

    if same(old, new):
        return []
    spans = doc.spans()
    start, end, _ = spans.values[path]
    here = (spans.keys[path][0] if path in spans.keys else start,
            end if end >= 0 else len(doc.text))
    if isinstance(old, dict) and isinstance(new, dict):
        if any(k not in old for k in new):
            return [(start, len(doc.text) if not path else here[1])]
        return [r for k in old for r in _changed_regions(doc, old[k], new[k], path + (k,))]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [r for i, (a, b) in enumerate(zip(old, new, strict=True))
                for r in _changed_regions(doc, a, b, path + (i,))]
    if isinstance(old, (dict, list)) or isinstance(new, (dict, list)):
        return [here]
    return [(start, max(end, doc.text.find("\n", start) if start == end else end))]


def bytes_outside(old: str, new: str, regions: list[tuple[int, int]]) -> int:
    """How many characters of ``old`` outside ``regions`` (``(start, end)``
    offsets) are not kept, in order, in ``new``: the kept stretches must be
    ``new``'s start, its end, and appear in between in their order; the text
    between them (the regions' new text) is free."""
    kept: list[str] = []
    at = 0
    for start, end in sorted(regions):
        if start > at:
            kept.append(old[at:start])
        at = max(at, end)
    tail = old[at:]
    if not regions:
        return 0 if old == new else len(old)
    lost = 0
    pos = 0
    for n, piece in enumerate(kept):
        found = new.find(piece, pos)
        if found < 0 or (n == 0 and regions and sorted(regions)[0][0] > 0 and found != 0):
            lost += len(piece)
            continue
        pos = found + len(piece)
    if not new.endswith(tail) or len(new) - len(tail) < pos:
        lost += len(tail)
    return lost


def check_writeback(case: tuple[tuple[str, str], int, int, int], stats: Counter[str]) -> None:
    """Apply ``damage`` or ``heal`` (``pick // 4`` even or odd; low tick, 2d6
    with faces ``a, b``) to entity ``pick`` of a generated state text, as
    ``run_state_request`` does, and check the text written back: it reads
    back as the result's state, and differs from the original only inside
    changed values (``stats["bytes outside changed values"]``)."""
    from linguo_cli.core import requests
    from linguo_cli.core.dice import ScriptedDice
    from linguo_cli.io import writeback
    from linguo_cli.rulesets.linguomancy.model import Entity

    (text, fmt), pick, a, b = case
    doc = parse(text, NAME)
    SCHEMAS.validate(doc, "state")
    before = entities_of(doc)
    target = list(before)[pick % len(before)]
    kind = ("damage", "heal")[(pick // 4) % 2]
    request = {"kind": kind, "tick": "low", "dice": "2d6", "modifiers": [],
               "targets": [target], "state": to_plain(doc.data)}
    try:
        result = requests.resolve(request, ScriptedDice([a, b]))
    except InputError:
        stats["write-back refused by the rules"] += 1
        return
    after = {d["id"]: Entity.from_dict(d) for d in result["state"]["entities"]}
    update_entities(doc, before, after)
    new = to_plain(doc.data)
    out, how = writeback.render(doc)
    stats[f"write-backs {how}"] += 1
    again = parse(out, NAME)
    assert writeback.same(to_plain(again.data), new), "written state reads back different"
    assert again.format == fmt
    for d in result["state"]["entities"]:
        got = Entity.from_dict(next(e for e in again.data["entities"] if e["id"] == d["id"]))
        assert got == Entity.from_dict(d), f"entity {d['id']} reads back different"
    if how == "rewritten":
        return
    bom = 1 if text.startswith("\ufeff") else 0
    assert out.startswith("\ufeff") == bool(bom)
    regions = _changed_regions(doc, doc.before, new)
    outside = bytes_outside(doc.text, out[bom:], regions)
    stats["bytes outside changed values"] += outside
    assert outside == 0, (f"{outside} bytes changed outside the changed values:\n"
                          f"{doc.text!r}\n{out!r}")
# Dice notation (issue 17)

_DICE_ATOMS = ("d6", "2d6", "4d6", "d%", "1d1", "3d4", "2d2", "1000d1000", "7", "0", "1000000")
_DICE_BAD_ATOMS = ("1001d6", "0d6", "d0", "99999999", "d", "")
_DICE_STAGES = (("ro1", "rr<3", "ra>2", "rr<99", "rr1", "ro>1"), ("e6", "e>3", "e>0", "e2"),
                ("mi2", "ma3", "mi9ma1", "mi1ma2"), ("kh1", "k2", "kl1", "dh1", "dl1", "kh9"),
                ("[fire]", "[cold]", "[]"))
_DICE_BAD_SUFFIXES = ("p1", "cs>19", ">7", "<2", "=3", "ro", "e", "k", "kh0", "[x")
_DICE_OPS = ("+", "-", "*", "/")
_DICE_BAD_GLUE = ("(", ")", " ", "--", "+-", "", "**")


@st.composite
def _dice_atom(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(_DICE_BAD_ATOMS))
    atom = draw(st.sampled_from(_DICE_ATOMS))
    if "d" in atom:
        for stage in _DICE_STAGES:
            if draw(st.integers(0, 2)) == 0:
                atom += draw(st.sampled_from(stage))
    if draw(st.integers(0, 9)) == 0:
        atom += draw(st.sampled_from(_DICE_BAD_SUFFIXES))
    if draw(st.integers(0, 5)) == 0:
        atom = f"({atom}{draw(st.sampled_from(_DICE_OPS))}{draw(st.sampled_from(_DICE_ATOMS))})"
    return ("-" if draw(st.integers(0, 5)) == 0 else "") + atom


@st.composite
def dice_notations(draw: st.DrawFn) -> str:
    """Dice notation, mostly valid and near the grammar's limits: atoms with
    operators in grammar order (sometimes a wrong one), glued by arithmetic
    (sometimes broken glue), sometimes deeply nested or very long."""
    text = draw(_dice_atom())
    for _ in range(draw(st.integers(0, 6))):
        glue = (draw(st.sampled_from(_DICE_BAD_GLUE)) if draw(st.integers(0, 9)) == 0
                else draw(st.sampled_from(_DICE_OPS)))
        text += glue + draw(_dice_atom())
    depth = draw(st.sampled_from([0, 0, 0, 5, 25, 100]))
    text = "(" * depth + text + ")" * depth
    if draw(st.integers(0, 9)) == 0:
        text = "+".join([text] * draw(st.integers(2, 60)))
    return text


# ---------------------------------------------------------------------------
# Verify and adapter exchanges (issue 15, section 3): hostile answers from an
# in-process fake implementation judged by the real runner code, and hostile
# request lines fed to the real adapter loops.

#: Cc characters other than tab must never reach a printed line or message.
_RAW_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")
#: Most bytes of one generated answer (keeps the campaign's memory low).
MAX_HOSTILE_BYTES = 3 * 1024 * 1024


@cache
def golden_cases() -> tuple[Any, ...]:
    """The golden suite's cases (loaded once)."""
    from linguo_cli.conformance import golden

    return tuple(golden.load_cases(golden.default_suite_dir()))


@cache
def _own_answer(index: int) -> dict[str, Any]:
    """linguo's own answer to case ``index`` as the batch protocol writes it."""
    from linguo_cli.conformance import golden

    case = golden_cases()[index]
    reply = golden.run_in_process(case.request)
    if reply.error_code is not None:
        return {"error": reply.error or {"exit": reply.error_code, "message": reply.message}}
    return dict(reply.result)


_ODD_SCALARS = (None, True, False, 0, -1, 3, 3.0, 3.5, 4, 5, 69, 256, 2**63, 10**40, -10**40,
                1e308, "3", "4", "", "\n", "\x1b[31mred", "a\u2028b", "\ud800", [], {}, [3],
                {"exit": 4}, "x" * 5000)
_ODD_TEXTS = ("NaN", "Infinity", "-Infinity", "1e99999", "-1e99999", "1" * 5000,
              "0x10", "01", "+1", ".5", "1.", "tru", "nul", "'a'", "\"\\ud800\"",
              "\"\\u0000\\u001b\\u0085\"")


def _perturb(draw: Any, obj: Any) -> Any:
    """``obj`` with one random leaf replaced, key removed or key added."""
    paths = [p for p in _paths(obj) if p]
    doc = copy.deepcopy(obj)
    how = draw(st.integers(0, 3))
    if not paths or how == 3:
        if isinstance(doc, dict):
            doc[draw(st.text(max_size=8))] = draw(st.sampled_from(_ODD_SCALARS))
        return doc
    path = draw(st.sampled_from(paths))
    if how == 0:
        return _delete(doc, path)
    return _set(doc, path, draw(st.sampled_from(_ODD_SCALARS)))


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=_needs_ascii(obj)).encode("utf-8")


def _needs_ascii(obj: Any) -> bool:
    """ASCII-escape answers holding lone surrogates (they cannot be UTF-8)."""
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


class Repeated(tuple[bytes, bytes, int, bytes]):
    """``head + part * count + tail``, built only when used (:func:`built`):
    Hypothesis keeps drawn values alive, so big ones are drawn as recipes."""

    def __new__(cls, head: bytes, part: bytes, count: int, tail: bytes) -> Repeated:
        return super().__new__(cls, (head, part, count, tail))


def built(value: bytes | Repeated) -> bytes:
    """The bytes of ``value`` (a :class:`Repeated` is built now)."""
    if isinstance(value, Repeated):
        head, part, count, tail = value
        return head + part * count + tail
    return value


def _nested(depth: int, opener: str) -> Repeated:
    close = {"[": b"]", "{\"a\":": b"}"}[opener]
    return Repeated(opener.encode() * depth + b"1", close, depth, b"")


@st.composite
def hostile_answers(draw: Any, index: int) -> bytes | Repeated:
    """Answer bytes an implementation might write for golden case ``index``:
    linguo's own answer (exact or perturbed), error objects and codes of odd
    types, ``unsupported`` and ``ready`` objects, NaN and huge numbers, deep
    nesting (up to 50,000 levels), invalid UTF-8, binary garbage, empty,
    several and enormous lines (at most :data:`MAX_HOSTILE_BYTES`)."""
    own = _own_answer(index)
    kind = draw(st.integers(0, 15))
    if kind == 0:
        return _dumps(own)
    if kind in (1, 2, 3):
        return _dumps(_perturb(draw, own))
    if kind == 4:
        return _dumps({"error": draw(st.sampled_from(_ODD_SCALARS)),
                       **draw(st.sampled_from([{}, {"message": "m\nforged: line"},
                                               {"message": 7}, {"kind": "damage"}]))})
    if kind == 5:
        err = {"exit": draw(st.sampled_from([3, 4, 4, 2, 5, "4", None, 4.0, True, 10**30]))}
        for key in ("code", "rule", "place", "message"):
            if draw(st.booleans()):
                err[key] = draw(st.sampled_from(_ODD_SCALARS + ("D7", "E_RULE")))
        return _dumps({"error": err})
    if kind == 6:
        return _dumps(draw(st.sampled_from([
            {"unsupported": True}, {"unsupported": True, "reason": "no\nreason\x07"},
            {"unsupported": True, "reason": {"a": 1}}, {"unsupported": "yes"},
            {"ready": False}, {"ready": True}, {"ready": False, "reason": "x" * 3000}])))
    if kind == 7:
        return draw(st.sampled_from(_ODD_TEXTS)).encode()
    if kind == 8:
        text = _dumps(own).decode()
        spot = draw(st.integers(0, len(text)))
        return (text[:spot] + draw(st.sampled_from(_ODD_TEXTS)) + text[spot:]).encode()
    if kind == 9:
        return _nested(draw(st.sampled_from([900, 1000, 5000, 50_000])),
                       draw(st.sampled_from(["[", "{\"a\":"])))
    if kind == 10:
        return draw(st.binary(max_size=200))
    if kind == 11:
        return draw(st.sampled_from([b"", b"\n", b"\r\n", b"   ", b"\xff\xfe{}", b"\x00",
                                     b"{\"a\":\"\xc3\x28\"}", b"\xef\xbb\xbf{}"]))
    if kind == 12:
        second = draw(st.sampled_from([b"{}", b"", b"garbage", _dumps(own)]))
        return _dumps(own) + b"\n" + second + b"\n"
    if kind == 13:
        size = draw(st.integers(1, MAX_HOSTILE_BYTES // 1024 - 1)) * 1024
        if draw(st.booleans()):  # a long array: 64 KiB at most (each item is an object)
            return Repeated(b"[", b"1,", min(size // 2, 32 * 1024), b"1]")
        head, tail = draw(st.sampled_from([(b'{"x": "', b'"}'), (b'"', b'"'), (b"", b"")]))
        return Repeated(head, b"x", size, tail)
    if kind == 14:
        return _dumps(draw(st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=10),
            lambda inner: st.lists(inner, max_size=4)
            | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=20)))
    return draw(st.sampled_from([b"1", b"\"a\"", b"[]", b"null", b"true", b"{} {}",
                                 b"{\"a\": 1}garbage", b"{\"a\": 1} "]))


@st.composite
def exchanges(draw: Any) -> tuple[int, str, int, bytes | Repeated, bytes | Repeated]:
    """``(case index, mode, exit code, stdout bytes, stderr bytes)``: one
    answer of an implementation in ``plain`` or ``batch`` mode."""
    index = draw(st.integers(0, len(golden_cases()) - 1))
    mode = draw(st.sampled_from(["plain", "batch"]))
    code = draw(st.sampled_from([0, 0, 0, 0, 1, 2, 3, 4, 5, 69, 124, 255, -9, -15, -11]))
    err = draw(st.sampled_from([b"", b"boom\n", b"a\nb\x1b[2J\n", b"\xff\xfe\n",
                                Repeated(b"", b"x", 70_000, b"\n"),
                                b"line\r\nforged: error\n"]))
    return index, mode, code, draw(hostile_answers(index)), err


class FakeBatch:
    """An in-process batch implementation: drives the real
    :class:`~linguo_cli.conformance.golden.BatchImplementation` request path (protocol
    break detection, JSON decoding, the reply) with scripted answer lines
    instead of a process. A multi-line answer leaves its extra lines to be
    found before the next request, as a real reader would."""

    def __init__(self) -> None:
        from linguo_cli.conformance import golden

        class _Batch(golden.BatchImplementation):
            def _start(inner) -> None:  # noqa: N805 - the fake process "starts"
                inner._proc = object()  # type: ignore[assignment]
                inner.hello = {"ready": True}

            def _stop(inner, graceful: bool = False) -> None:  # noqa: N805
                inner._proc = None
                self.pending.clear()

            def _extra_line(inner) -> bytes | None:  # noqa: N805
                return self.pending.pop(0) if self.pending else None

            def _exchange(inner, message: Mapping[str, Any]) -> Any:  # noqa: N805
                json.dumps(message)  # what would be written must be JSON
                if not self.next:
                    return golden.Reply(failure="the implementation ended (exit 0) without "
                                                "answering", failure_type="crash")
                first, *rest = self.next
                self.pending.extend(line for line in rest if line.strip())
                return first

        self.pending: list[bytes] = []
        self.next: list[bytes] = []
        self.impl = _Batch(["fake"], timeout=1.0)

    def __call__(self, request: Mapping[str, Any]) -> Any:
        return self.impl(request)


def _check_printable(text: str, what: str) -> None:
    assert "\n" not in text and not _RAW_CONTROL.search(text), \
        f"{what} not one printable line: {text!r}"


def judge_exchange(value: tuple[int, str, int, bytes | Repeated, bytes | Repeated],
                   fake: FakeBatch,
                   stats: Counter[str]) -> Any:
    """Run one hostile answer through the runner code of ``linguo verify``
    (the plain reply from exit code and bytes, or the batch request path of
    :class:`FakeBatch`; then judging, skips, failure lines, the early-stop
    text) and assert every line it prints is one printable line. Returns the
    :class:`~linguo_cli.conformance.golden.Outcome`."""
    from linguo_cli.conformance import golden
    from linguo_cli.conformance import run as golden_run
    from linguo_cli.conformance import select as golden_select

    index, mode, code = value[:3]
    out, err = built(value[3]), built(value[4])
    case = golden_cases()[index]
    if mode == "plain":
        def runner(_request: Mapping[str, Any]) -> Any:
            reply = golden.PlainImplementation._reply(code, out, err)
            reply.stderr = err.decode("utf-8", "replace")
            return reply
    else:
        fake.next = out.split(b"\n") if out.strip() else [out]
        runner = fake
    plan = golden_run._Plan([case], runner, lambda: None, "fake", None,
                            golden_select.SkipList(), None)
    outcome = golden_run._one(case, plan, golden_run.Options(impl="fake"), None)
    assert outcome is not None
    state = "skip" if outcome.skipped is not None else "fail" if outcome.failed else "pass"
    stats[f"{mode} {state}"] += 1
    for line in golden_run.failure_lines(outcome, verbose=False):
        _check_printable(line, "failure line")
    for line in golden_run.early_stop_lines("why", outcome):
        _check_printable(line, "early-stop line")
    _check_printable(golden_run.answer_of(outcome), "answer")
    return outcome


def check_report(outcomes: list[Any]) -> None:
    """The summary, hint and JUnit XML of a run of ``outcomes``: one line
    each, and XML that parses with one ``testcase`` per outcome."""
    import xml.etree.ElementTree as ET

    from linguo_cli.conformance import run as golden_run

    _check_printable(golden_run.summary_line(outcomes, "fake"), "summary")
    _check_printable(golden_run.same_answer_hint(outcomes, "fake"), "hint")
    golden_run.early_stop(outcomes[:20])
    root = ET.fromstring(golden_run.junit_xml(outcomes, implementation="fake", version=2))
    assert len(root.findall("./testsuite/testcase")) == len(outcomes)


@st.composite
def adapter_lines(draw: Any) -> bytes | Repeated:
    """One request line for ``linguo adapter --batch`` (without its newline):
    a golden request (exact or perturbed), or a hostile line (garbage,
    invalid UTF-8, deep nesting, NaN, blank, a line over the 1 MiB limit)."""
    kind = draw(st.integers(0, 9))
    index = draw(st.integers(0, len(golden_cases()) - 1))
    request = golden_cases()[index].request
    if kind <= 2:
        return json.dumps(request).encode()
    if kind <= 4:
        return _dumps(_perturb(draw, request))
    if kind == 5:
        return draw(st.sampled_from(_ODD_TEXTS + ("", "  ", "\x0c", "{}", "[]", "null")))\
            .encode()
    if kind == 6:
        return _nested(draw(st.sampled_from([1000, 50_000])), draw(st.sampled_from(
            ["[", "{\"a\":"])))
    if kind == 7:
        return draw(st.binary(max_size=100)).replace(b"\n", b"")
    if kind == 8 and draw(st.integers(0, 9)) == 0:
        return Repeated(b"", b"x", 1024 * 1024 + draw(st.integers(1, 4096)), b"")
    return json.dumps(request).encode()[: draw(st.integers(0, 200))]


def _answer_lines(text: str) -> list[Any]:
    lines = text.split("\n")
    assert lines[-1] == "", f"output does not end with a newline: {text[-200:]!r}"
    return [json.loads(line) for line in lines[:-1]]


def check_adapter(value: tuple[bool, list[bytes | Repeated], bytes | Repeated],
                  stats: Counter[str]) -> int:
    """Feed hostile lines to :func:`~linguo_cli.conformance.golden.serve_batch` (after a
    hello, hostile with ``bad_hello``) and one hostile request to
    :func:`~linguo_cli.conformance.golden.serve_plain`, in memory: every non-blank line
    gets exactly one JSON object line, no exception escapes, no answer is an
    internal error (exit 5). Returns the number of lines answered."""
    import io

    from linguo_cli.conformance import golden

    bad_hello = value[0]
    lines, plain = [built(line) for line in value[1]], built(value[2])
    hello = b"\xff{" if bad_hello else json.dumps({"suite": golden.SUITE_NAME,
                                                   "version": 2}).encode()
    out, err = io.StringIO(), io.StringIO()
    code = golden.serve_batch(io.BytesIO(b"\n".join([hello, *lines]) + b"\n"), out, err)
    answers = _answer_lines(out.getvalue())
    if bad_hello:
        assert code == 2 and len(answers) == 1 and answers[0]["ready"] is False
        return 1
    expected = [line for line in lines
                if len(line) + 1 > 1024 * 1024 or line.decode("utf-8", "replace").strip()]
    assert code == 0 and len(answers) == len(expected) + 1, (len(answers), len(expected))
    for answer in answers:
        assert isinstance(answer, dict)
        error = answer.get("error") if "kind" not in answer else None
        assert not (isinstance(error, dict) and error.get("exit") == 5), answer
        stats["adapter error" if error else "adapter result"] += 1
    out, err = io.StringIO(), io.StringIO()
    code = golden.serve_plain(io.BytesIO(plain), out, err)
    assert code in (0, 3, 4), (code, err.getvalue())
    plain_answers = _answer_lines(out.getvalue())
    assert len(plain_answers) == (0 if code == 3 and not plain_answers else 1)
    _check_printable(err.getvalue().rstrip("\n"), "adapter stderr")
    return len(answers) + len(plain_answers)


def adapter_sessions() -> st.SearchStrategy[tuple[bool, list[bytes | Repeated],
                                                   bytes | Repeated]]:
    """``(bad hello, request lines, plain request)`` for :func:`check_adapter`."""
    return st.tuples(st.integers(0, 19).map(lambda n: n == 0),
                     st.lists(adapter_lines(), min_size=1, max_size=8), adapter_lines())


#: Scripts of ``tests/hostile_impl.py`` run by :func:`check_subprocess`.
HOSTILE_SCRIPTS = ("garbage", "two-lines", "huge", "deep", "mixed", "exits", "sleeps", "fork",
                   "refuse", "deep-hello", "fork-hello")
#: Cases each hostile subprocess run is given (a few kinds).
HOSTILE_CASES = ["damage/apply.yaml::temp-hp-absorbs-first", "damage/apply.yaml::unknown-target",
                 "tests/degrees.yaml::success-lower-border"]


def _alive(pid: int) -> bool:
    """Is ``pid`` a living process (a zombie is not)?"""
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except OSError:
        return False


def left_behind(before: frozenset[int]) -> list[int]:
    """Living child processes of this process not in ``before``."""
    import os

    from linguo_cli.conformance import impl_process

    return [pid for pid in impl_process._children_of(os.getpid())
            if pid not in before and _alive(pid)]


def sys_executable() -> str:
    """This Python interpreter (to start ``tests/hostile_impl.py``)."""
    import sys

    return sys.executable


def check_subprocess(script: str, workdir: Any, stats: Counter[str]) -> None:
    """Run ``linguo verify --batch`` against ``tests/hostile_impl.py SCRIPT``
    with a 1 s timeout over :data:`HOSTILE_CASES`: it ends with 0 or 1, its
    summary and its JUnit XML (which parses), and leaves no process behind
    (the double-forked sleeper included)."""
    import io
    import os
    import shlex
    import sys
    import xml.etree.ElementTree as ET
    from pathlib import Path

    from linguo_cli.conformance import golden, impl_process

    work = Path(workdir)
    pidfile, junit = work / f"{script}.pid", work / f"{script}.xml"
    pidfile.unlink(missing_ok=True)
    impl = " ".join(shlex.quote(x) for x in (sys.executable, str(Path(__file__).with_name(
        "hostile_impl.py")), script, str(pidfile)))
    before = frozenset(impl_process._children_of(os.getpid()))
    out = io.StringIO()
    code = golden.verify(golden.default_suite_dir(), impl=impl, batch=True, timeout=1.0,
                         filters=HOSTILE_CASES, junit=str(junit), quiet=True, out=out,
                         err=io.StringIO())
    text = out.getvalue()
    assert code in (0, 1), (script, code, text)
    assert " cases: " in text.splitlines()[-1], (script, text[-500:])
    for line in text.splitlines():
        assert not _RAW_CONTROL.search(line), (script, line)
    ET.parse(junit)
    if pidfile.exists():
        pid = int(pidfile.read_text())
        stats["double-forked sleepers ended"] += 1
        assert not _alive(pid), f"{script}: the double-forked sleeper {pid} is still running"
    left = left_behind(before)
    assert not left and not impl_process._GROUPS, (script, left, impl_process._GROUPS)
    stats["subprocess runs"] += 1
