"""Linguomancy's state semantics: its schema set (:data:`SCHEMAS`), the one
semantic check of states (rule V1, with D6's one-ability-one-way), entities
by id, and writing changed entities back into a state document.

Every command that reads a Linguomancy document validates it with
``SCHEMAS.validate(doc, name)``: the schema first, then, for a state (a state
file, ``--state``, a request's inline ``state``) and a d20 test's
``entity``, :func:`semantic_checks`, before any rule runs.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from linguo_cli.core.errors import Diagnostic, InputError
from linguo_cli.io.document import Document, to_plain
from linguo_cli.io.places import brief, capped, field_path, parse_field_path
from linguo_cli.io.schema import SchemaSet
from linguo_cli.rulesets.linguomancy import packaged


def semantic_checks(doc: Document, schema: str) -> None:
    """The checks of a Linguomancy document that passed schema ``schema``:
    an ability given both as a modifier and as a score in a test's
    ``entity`` (D6), then the semantic checks of states (see
    :func:`entities_of`; rule V1) for a ``state`` document and for a request
    carrying its state inline. Raises :class:`InputError` (exit 3) with
    every error of the first check that fails, each with its place."""
    if isinstance(doc.data, Mapping) and isinstance(doc.data.get("entity"), Mapping):
        twice = [(["entity", *where], message)
                 for where, message in duplicate_abilities(doc.data["entity"])]
        if twice:  # a d20 test's entity: D6 takes a modifier or a score, not both
            raise InputError([Diagnostic(doc.place(p), field_path(p), m) for p, m in twice])
    if schema == "state":
        doc.checked[_ENTITIES] = entities_of(doc)
    elif isinstance(doc.data, Mapping) and isinstance(doc.data.get("state"), Mapping) \
            and isinstance(doc.data["state"].get("entities"), list):
        entities_of(doc, base=["state"])


#: Linguomancy's schemas (``schemas/*.schema.json`` of this package: requests,
#: states, catalogs, golden case files), with :func:`semantic_checks` run
#: after the schema by ``SCHEMAS.validate``. Nothing is read until first use.
SCHEMAS = SchemaSet(packaged("schemas"), checks=semantic_checks)


#: The key of a state's entities in ``Document.checked`` (see :func:`checked_entities`).
_ENTITIES = "linguomancy.entities"


def checked_entities(doc: Document) -> dict[str, Any]:
    """:func:`entities_of` a state document (``doc.data`` the state), checked
    once per document: what ``SCHEMAS.validate(doc, "state")`` found when it
    checked the same tree (kept in ``doc.checked`` until the tree starts
    being updated), else :func:`entities_of` now. Raises what
    :func:`entities_of` raises."""
    found = doc.checked.get(_ENTITIES)
    if found is None:
        found = doc.checked[_ENTITIES] = entities_of(doc)
    return dict(found)


def _at(data: Any, path: Sequence[Any]) -> Any:
    for p in path:
        data = data[p]
    return data


def entities_of(doc: Document, base: Sequence[Any] = ()) -> dict[str, Any]:
    """The entities of a schema-valid state (``doc.data``, or the mapping at
    ``base`` inside it, e.g. ``["state"]`` of a request) as
    :class:`~linguo_cli.rulesets.linguomancy.model.Entity` values by id, in file order.

    This is the one semantic check of states: every command that reads a
    state (a state file, ``--state``, a request's inline ``state``) comes
    through here, through ``SCHEMAS.validate``, before any rule runs. Raises
    :class:`InputError` (exit 3) with every semantic error at once, each with
    its place (at most :data:`~linguo_cli.core.errors.MAX_DIAGNOSTICS`, then
    a count): duplicate ids;
    the contradictions of rule V1 (see
    :func:`~linguo_cli.rulesets.linguomancy.model.contradictions`: HP, Flux, temporary HP out of
    bounds, impossible death-save counts, Dying/Stable above 0 HP, a living
    ``dies`` entity at 0 HP not knocked out, 6+ Exhaustion tiers alive, a dead
    entity above 0 HP); ``movement_max`` or ``movement`` above 100,000 m; and
    a ``maintained`` idiom missing from the entity's ``idioms`` (checked when
    it lists at least one idiom: states written without ``idioms`` leave what
    an entity knows open).
    """
    from linguo_cli.rulesets.linguomancy.model import Entity

    out: dict[str, Entity] = {}
    diags: list[Diagnostic] = []
    state = _at(doc.data, base)
    for i, raw in enumerate(state["entities"]):
        e = Entity.from_dict(raw)  # from_dict copies what it keeps
        at = [*base, "entities", i]
        for where, message in _entity_problems(e, raw, known_ids=out):
            p = at + list(where)
            diags.append(Diagnostic(doc.place(p), field_path(p), message))
        out[e.id] = e
    if diags:
        raise InputError(capped(diags, doc.name))
    return out


def _entity_problems(e: Any, raw: Any, known_ids: Mapping[str, Any]
                     ) -> list[tuple[tuple[Any, ...], str]]:
    """Semantic problems of one state entity ``e`` (read from ``raw``) as
    ``(path inside the entity, message)`` pairs, in field order."""
    from linguo_cli.rulesets.linguomancy.model import MAX_METRES, contradictions

    found: list[tuple[tuple[Any, ...], str]] = []
    if e.id in known_ids:
        found.append((("id",), f"duplicate entity id {e.id!r}"))
    found += duplicate_abilities(raw)
    found += contradictions(e)  # V1
    # (movement may exceed movement_max: a catalog's movement factor above 1
    # raises it for the turn, C2; fraction strings are bounded here)
    for name in ("movement_max", "movement"):
        if getattr(e, name) > MAX_METRES:
            found.append(((name,), f"{name} {_metres(getattr(e, name))} is above "
                                   f"{_metres(MAX_METRES)} m"))
    if e.idioms:  # an entity listing no idiom leaves its knowledge open
        known = {name.casefold() for name in e.idioms}
        for j, m in enumerate(e.maintained):
            if m.idiom.casefold() not in known:
                found.append((("maintained", j, "idiom"),
                              f"maintains {m.idiom!r}, an idiom {e.id} does not know "
                              f"(its idioms: {', '.join(e.idioms) or 'none'})"))
    return found


def duplicate_abilities(entity: Any) -> list[tuple[tuple[Any, ...], str]]:
    """An ability given both as a modifier (``abilities``) and as a score
    (``ability_scores``) in one entity mapping: one ``(path, message)`` pair
    per such ability, the path at its score. Rule D6 takes one or the other;
    both at once are invalid input (exit 3), whatever their values."""
    if not isinstance(entity, Mapping):
        return []
    mods, scores = entity.get("abilities"), entity.get("ability_scores")
    if not isinstance(mods, Mapping) or not isinstance(scores, Mapping):
        return []
    return [(("ability_scores", name),
             f"{name} is given both as a modifier (abilities.{name}) and as a score: "
             "give one or the other (D6)")
            for name in scores if name in mods]


def _metres(value: Any) -> str:
    from linguo_cli.rulesets.linguomancy.model import metres

    return str(metres(value))


def require_entity(state: Any, entity_id: str, field: str, *,
                   document: Document | None = None) -> Any:
    """The :class:`~linguo_cli.rulesets.linguomancy.model.Entity` with id ``entity_id`` in
    ``state`` (a state mapping ``{entities: [...]}``, a request's inline
    ``state``, or a state :class:`Document`).

    ``field`` is the path of the request field that named it (``target``,
    ``steps[2].target``). Raises :class:`InputError` (exit 3) when there is no
    such entity, suggesting the closest id; the place is ``field`` inside
    ``document`` when given, else ``request``
    (:func:`~linguo_cli.io.places.locate_errors` turns that into
    ``file:line:col`` at the CLI). Pure: call it at the top of a handler,
    before any rule runs.
    """
    from linguo_cli.rulesets.linguomancy.model import Entity

    data = state.data if isinstance(state, Document) else state
    entities = data.get("entities") if isinstance(data, Mapping) else None
    for raw in entities or ():
        if isinstance(raw, Mapping) and raw.get("id") == entity_id:
            return Entity.from_dict(to_plain(raw))
    ids = [str(raw.get("id")) for raw in entities or () if isinstance(raw, Mapping)]
    hint = difflib.get_close_matches(str(entity_id), ids, n=1)
    msg = f"no entity with id {brief(entity_id)} in the state"
    if hint:
        msg += f" (did you mean {hint[0]!r}?)"
    elif ids:
        shown = ", ".join(ids[:20]) + (", ..." if len(ids) > 20 else "")
        msg += f"; its ids: {shown}"
    else:
        msg += "; it has no entities"
    place = document.place(parse_field_path(field)) if document is not None else "request"
    raise InputError(Diagnostic(place, field, msg))


def update_entities(data: Any, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    """Write the changes between ``before`` and ``after`` entities (by id) into
    ``data``: a :class:`Document` (its plain tree; the tree as read is kept
    so that :func:`~linguo_cli.io.write.dump_document` edits only what
    changed) or a tree. Field by field; fields whose new value equals their
    default and that were absent stay absent."""
    if isinstance(data, Document):
        data.snapshot()  # the tree as read: the writer edits only what differs
        update_entities(data.data, before, after)
        return
    index = {str(e.get("id")): e for e in data["entities"]}
    for eid, new in after.items():
        old = before.get(eid)
        node = index.get(eid)
        if node is None or old is None or old == new:  # equal entities: equal dicts
            continue
        old_d, new_d = old.as_dict(), new.as_dict()
        for key, value in new_d.items():
            if value != old_d.get(key):
                node[key] = value


def checked_catalog(data: Any, key: str, *, schema: str, name: str, document: Any = None,
                    base: Sequence[Any] = ()) -> tuple[dict[str, Any], list[Any], Document]:
    """Validate a catalog (conditions, idioms) given as a catalog document
    ``{key: [...]}`` or as the bare list of entries a request inlines, against
    Linguomancy's schema ``schema``.

    Returns ``(plain, outer, doc)``: the catalog as plain data in the
    document shape, the path of that shape inside ``doc`` (so that paths
    such as ``outer + [key, 3, "name"]`` give places), and the document
    errors are placed in (``document`` when given, else a document named
    ``name``). Raises :class:`InputError` (exit 3) with every schema error.
    """
    wrapped: dict[str, Any] = dict(data) if isinstance(data, Mapping) else {key: list(data)}
    # Paths inside ``wrapped`` start with ``key``; a bare list sits at ``base``
    # itself, so its entries are at ``base[:-1] + [key, i]``.
    outer = list(base) if isinstance(data, Mapping) else list(base)[:-1]
    doc = document if document is not None else Document(name, wrapped)
    diags = SCHEMAS.errors(doc, schema, base=outer, instance=wrapped)
    if diags:
        raise InputError(diags)
    return to_plain(wrapped), outer, doc
