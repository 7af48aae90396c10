"""linguo's Python API: resolve requests and play states from a script.

``import linguo_cli`` exposes every public name of this module (imported on
first use, so ``import linguo_cli`` itself stays cheap). A request is the
mapping ``linguo resolve`` reads (``golden/README.md`` documents every kind
and its result); a result is the JSON-ready mapping ``linguo ... --json``
prints, with ``rolls_used`` (every die face consumed, in order) last.

Untrusted input is checked the way the command line checks a document before
any rule runs: the input limits of README "Limits" (nesting, size, integer
digits, no ``NaN``), the request schema of the kind, and the semantic checks
of states (rule V1). The errors are those of the command line, each with its
exit code (:data:`EXIT_CODES`):

* :class:`InputError` (exit 3): invalid input, every problem with its place
  (``<request>``, ``<arguments>``, ``<state>`` or ``file:line:col``), its field
  path and a message (``exc.diagnostics``);
* :class:`RulesError` (exit 4): a request the rules forbid, with ``exc.rule``
  (the rule ID, e.g. ``D7``) and ``exc.details``;
* :class:`DiceError` (exit 3): scripted faces that do not fit (too few, left
  unused, larger than the die);
* :class:`UsageError` (exit 2): arguments that contradict each other (``rolls``
  and ``seed``; ``targets`` without ``state``), or a file that cannot be written.

Every error is a :class:`LinguoError`; :func:`error_object` gives the error
object of ``--json`` (``{"exit", "code", "rule", "place", "message"}``).

Dice: ``rolls=[12, 5]`` scripts the faces (each 1-1000, consumed in the
documented order; all must be used), ``seed=N`` gives replayable
pseudo-random dice (same linguo only), neither uses system randomness. Either
replaces the request's own ``rolls``/``seed``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from linguo_cli.core.errors import (
    Diagnostic,
    DiceError,
    InputError,
    LinguoError,
    RulesError,
    UsageError,
)

__all__ = [
    "EXIT_CODES", "Diagnostic", "DiceError", "InputError", "LinguoError", "RulesError",
    "UsageError", "attack", "cast", "check", "damage", "error_object", "load_state",
    "resolve", "save", "turn", "write_state",
]

#: Exit code -> meaning (README "Exit codes"); each error class has its ``code``.
EXIT_CODES: Mapping[int, str] = {
    0: "resolved",
    1: "a conformance run found failures",
    2: "usage error",
    3: "invalid input",
    4: "rules violation",
    5: "internal error (a bug in linguo)",
}

#: Modifiers as a script gives them: ``{"strength": 3}``, or items ``"strength=3"``,
#: ``3`` (label ``modifier``) or ``("strength", 3)``.
Mods = Mapping[str, int] | Iterable[int | str | tuple[str, int]]
#: A state: the path of a state file (YAML or JSON), or the state mapping itself.
StateArg = str | os.PathLike[str] | Mapping[str, Any]
#: A condition or idiom catalog: the path of a catalog file, or its entries.
CatalogArg = str | os.PathLike[str] | Sequence[Mapping[str, Any]]

_MAX_DEPTH = 64


# ---------------------------------------------------------------------------
# The glue to the engine: the only calls into the layers below (io, rulesets).


def _engine_resolve(request: dict[str, Any]) -> dict[str, Any]:
    """Resolve a validated request with its own ``rolls``/``seed`` (its JSON
    form: the API hands out JSON-ready values)."""
    from linguo_cli.core import requests

    return requests.resolve(request)


def _validate(doc: Any, name: str) -> None:
    """A request document by its ruleset's validator; a state by
    Linguomancy's schemas and checks (the API's states are Linguomancy's)."""
    if name == "request":
        from linguo_cli.core.requests import ruleset_of

        ruleset_of(doc.data).validate(doc)
        return
    from linguo_cli.rulesets.linguomancy.state import SCHEMAS

    SCHEMAS.validate(doc, name)


def _state_io() -> Any:
    """The io functions the API uses, by one name each."""
    from types import SimpleNamespace

    from linguo_cli.io import document, places, read, write
    from linguo_cli.rulesets.linguomancy import state

    return SimpleNamespace(
        load=read.load, parse=read.parse, Document=document.Document,
        to_plain=document.to_plain, field_path=places.field_path,
        relocated=places.relocated, locate_errors=places.locate_errors, validate=_validate,
        atomic_write=write.atomic_write, dump_yaml=write.dump_yaml,
        dump_document=write.dump_document, entities_of=state.entities_of,
        update_entities=state.update_entities)


def _catalog_entries(kind: str, catalog: CatalogArg) -> list[dict[str, Any]]:
    """A catalog file's entries (checked with places in that file), or the
    given entries as they are (the request schema checks them)."""
    if not isinstance(catalog, (str, os.PathLike)):
        return [dict(entry) for entry in catalog]
    state_io = _state_io()
    doc = state_io.load(os.fspath(catalog))
    if kind == "idioms":
        from linguo_cli.rulesets.linguomancy import idioms

        entries: list[dict[str, Any]] = idioms.load_catalog(
            doc.data, name=doc.name, document=doc).as_list()
        return entries
    from linguo_cli.rulesets.linguomancy import conditions

    entries = conditions.load_catalog(doc.data, name=doc.name, document=doc).as_list()
    return entries


# ---------------------------------------------------------------------------
# Untrusted values in, validated documents out


def _plain(value: Any, path: tuple[Any, ...], name: str) -> Any:
    """``value`` as JSON values (a tuple becomes a list); :class:`InputError`
    for a non-string key, a value with no JSON form or nesting beyond 64."""
    if isinstance(value, (str, bool, int, float)) or value is None:
        return value
    if len(path) >= _MAX_DEPTH:
        raise _bad(name, path, f"nested deeper than {_MAX_DEPTH} levels")
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise _bad(name, path, f"key {key!r} is not a string (keys are strings)")
            out[key] = _plain(item, (*path, key), name)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(item, (*path, i), name) for i, item in enumerate(value)]
    raise _bad(name, path, f"a {type(value).__name__} has no JSON form")


def _bad(name: str, path: Sequence[Any], message: str) -> InputError:
    return InputError(Diagnostic(name, _state_io().field_path(path), message))


def _document(value: Any, name: str) -> Any:
    """An in-memory document of ``value`` read as the command line reads a JSON
    document (the same limits and errors), places named ``name``."""
    state_io = _state_io()
    plain = _plain(value, (), name)
    try:
        text = json.dumps(plain, ensure_ascii=False)
    except ValueError as exc:  # an integer too long to write out
        raise _bad(name, (), f"cannot be read: {exc}") from None
    try:
        parsed = state_io.parse(text, name)
    except InputError as exc:  # a one-line text's line:col says nothing: the field does
        raise InputError([Diagnostic(name, d.field, d.message) for d in exc.diagnostics]
                         ) from None
    return state_io.Document(name, state_io.to_plain(parsed.data))


def _dice_fields(request: dict[str, Any], rolls: Iterable[int] | None, seed: int | None) -> None:
    """Put ``rolls``/``seed`` into ``request`` in place of its own."""
    if rolls is not None and seed is not None:
        raise UsageError("give rolls or seed, not both")
    if rolls is not None or seed is not None:
        request.pop("rolls", None)
        request.pop("seed", None)
    if rolls is not None:
        request["rolls"] = list(rolls)
    if seed is not None:
        request["seed"] = seed


def _run(request: Mapping[str, Any], name: str, state_doc: Any = None) -> dict[str, Any]:
    """Check ``request`` (limits, schema, inline state), resolve it, place errors."""
    state_io = _state_io()
    doc = _document(request, name)
    state_io.validate(doc, "request")
    try:
        return _engine_resolve(doc.data)
    except InputError as exc:
        if state_doc is not None:
            raise state_io.locate_errors(exc, doc, state_doc) from None
        raise state_io.relocated(exc, doc) from None


def _with_state(request: dict[str, Any], state: StateArg, name: str) -> dict[str, Any]:
    """Resolve ``request`` on ``state`` (a file: checked with places in it)."""
    if not isinstance(state, (str, os.PathLike)):
        request["state"] = state
        return _run(request, name)
    state_io = _state_io()
    doc = state_io.load(os.fspath(state), lock=True)
    try:
        state_io.validate(doc, "state")
        request["state"] = state_io.to_plain(doc.data)
        return _run(request, name, state_doc=doc)
    finally:
        doc.release()


def _modifiers(mods: Mods | None, argument: str) -> list[dict[str, Any]]:
    """Modifiers as the request's ``[{"label", "value"}]``; a malformed item
    is a :class:`UsageError` (as a malformed ``--mod`` is)."""
    if mods is None:
        return []
    if isinstance(mods, Mapping):
        return [{"label": label, "value": value} for label, value in mods.items()]
    out = []
    for item in [mods] if isinstance(mods, str) else mods:
        if isinstance(item, tuple) and len(item) == 2:
            out.append({"label": item[0], "value": item[1]})
        elif isinstance(item, int) and not isinstance(item, bool):
            out.append({"label": "modifier", "value": item})
        elif isinstance(item, str):
            label, sep, value = item.partition("=")
            label, value = (label.strip(), value) if sep else ("modifier", item)
            try:
                out.append({"label": label, "value": int(value.strip())})
            except ValueError:
                raise UsageError(f"{argument}: {item!r} is not LABEL=N or N "
                                 "(e.g. strength=3, bless=+2, -1)") from None
        else:
            raise UsageError(f"{argument}: {item!r} is not a modifier (LABEL=N, N or "
                             "(LABEL, N))")
    return out


# ---------------------------------------------------------------------------
# The API


def resolve(request: Mapping[str, Any], *, rolls: Iterable[int] | None = None,
            seed: int | None = None) -> dict[str, Any]:
    """Resolve one request of any kind (``check``, ``attack``, ``save``,
    ``damage``, ``heal``, ``temp_hp``, ``death_save``, ``cast``, ``overclock``,
    ``turn``, ``rest``, ``odds``, ``ticks``, ``dice``), as ``linguo resolve``.

    ``request`` is untrusted: it is checked against the input limits and the
    request schema (``schemas/request.schema.json`` and the kind's own), and an
    inline ``state`` against the state rules (V1), before any rule runs.
    Returns the result mapping of the kind (``golden/README.md``; units:
    HP, Flux points, metres; probabilities as exact fractions ``"7/20"``),
    ending with ``rolls_used``.

    Raises :class:`InputError` (exit 3; places ``<request>``),
    :class:`RulesError` (exit 4, with the rule ID), :class:`DiceError`
    (exit 3) and :class:`UsageError` (exit 2: both ``rolls`` and ``seed``).
    """
    if not isinstance(request, Mapping):
        raise _bad("<request>", (), "a request is a mapping with a 'kind'")
    plain = dict(request)
    _dice_fields(plain, rolls, seed)
    return _run(plain, "<request>")


def check(dc: int, *, mods: Mods | None = None, adv: bool = False, dis: bool = False,
          noun: str | None = None, knows: Iterable[str] = (),
          rolls: Iterable[int] | None = None, seed: int | None = None) -> dict[str, Any]:
    """An ability check against ``dc`` (rules D1-D7), as ``linguo check``:
    d20 (advantage ``adv``, disadvantage ``dis``: D2) + ``mods`` against the
    DC; the result's ``degree`` is one of the six degrees of success (D4), after
    the natural 20/1 shift (D5). ``noun``: a check about a Noun, allowed only
    when ``knows`` holds its ``Speak - NOUN`` or ``Shape - NOUN`` idiom
    (:class:`RulesError` D7 otherwise). Errors: see :func:`resolve` (places
    ``<arguments>``).
    """
    req: dict[str, Any] = {"kind": "check", "modifiers": _modifiers(mods, "mods")}
    _advantage(req, adv, dis)
    req["dc"] = dc
    if noun is not None:
        req["noun"] = noun
    known = list(knows)
    if known:
        req["entity"] = {"idioms": known}
    _dice_fields(req, rolls, seed)
    return _run(req, "<arguments>")


def attack(ac: int | Mapping[str, Any] | None, *, mods: Mods | None = None, adv: bool = False,
           dis: bool = False, partial_success_hits: bool = False,
           rolls: Iterable[int] | None = None, seed: int | None = None) -> dict[str, Any]:
    """An attack roll against ``ac`` (rules D1-D5, A1-A4), as ``linguo attack``:
    ``ac`` a number, a mapping ``{"armour", "signature", "shield", "other"}``
    (A4), or ``None`` for a target without AC (``--no-ac``: automatic hit, no
    die, A3). ``hit`` is true at success or critical success (D1);
    ``partial_success_hits`` is the alternative ruling ``--ruling
    partial-success-hits`` (A1). Errors: see :func:`resolve`.
    """
    req: dict[str, Any] = {"kind": "attack", "modifiers": _modifiers(mods, "mods")}
    _advantage(req, adv, dis)
    req["ac"] = ac
    if partial_success_hits:
        req["partial_success_hits"] = True
    _dice_fields(req, rolls, seed)
    return _run(req, "<arguments>")


def save(dc: int, *, mods: Mods | None = None, adv: bool = False, dis: bool = False,
         no_ability: bool = False, rolls: Iterable[int] | None = None,
         seed: int | None = None) -> dict[str, Any]:
    """A saving throw against a save DC (rules D1-D5, S1-S2), as ``linguo
    save``; ``no_ability``: the entity has no score for the ability, an
    automatic failure without a die (S2). Errors: see :func:`resolve`."""
    req: dict[str, Any] = {"kind": "save", "modifiers": _modifiers(mods, "mods")}
    _advantage(req, adv, dis)
    req["dc"] = dc
    if no_ability:
        req["no_ability"] = True
    _dice_fields(req, rolls, seed)
    return _run(req, "<arguments>")


def _advantage(req: dict[str, Any], adv: bool, dis: bool) -> None:
    if adv:
        req["advantage"] = True
    if dis:
        req["disadvantage"] = True


def damage(tick: str, dice: str | None = None, *, mods: Mods | None = None, crit: bool = False,
           damage_type: str | None = None, nonlethal: bool = False,
           allow_nonconforming: bool = False, state: StateArg | None = None,
           targets: Iterable[str] = (), rolls: Iterable[int] | None = None,
           seed: int | None = None) -> dict[str, Any]:
    """Roll damage of a tick (rules T1-T6), as ``linguo damage``; with
    ``state`` and ``targets`` apply it (R1-R3, H1, H4, H5, H7).

    ``tick``: a damage tick name (``low``, ``moderate``, ...); ``dice``: dice
    notation whose expected value lies in the tick's range (T3; else
    :class:`RulesError` unless ``allow_nonconforming``); ``mods``: the label
    ``potential`` is multiplied by the tick's multiplier (T4), other labels are
    flat; ``crit``: each dice term rolled again as its own group (T5);
    ``damage_type`` (``--type``): e.g. ``fire``; ``nonlethal``: H5.
    ``state``: a state file's path or a state mapping; the result's ``state``
    is the new state (nothing is written: see :func:`write_state`), its
    ``targets`` each target's before/after and events. All targets share one
    roll (T6). Errors: see :func:`resolve`; ``targets`` without ``state`` or
    ``state`` without ``targets`` is a :class:`UsageError`.
    """
    req = _amount_request("damage", "potential", tick, dice, mods, allow_nonconforming)
    if crit:
        req["critical"] = True
    if damage_type is not None:
        req["damage_type"] = damage_type.strip().lower()
    if nonlethal:
        req["nonlethal"] = True
    ids = list(targets)
    _dice_fields(req, rolls, seed)
    if state is None:
        if ids:
            raise UsageError("targets need a state")
        return _run(req, "<arguments>")
    if not ids:
        raise UsageError("a state needs at least one target")
    req["targets"] = ids
    return _with_state(req, state, "<arguments>")


def _amount_request(kind: str, ability: str, tick: str, dice: str | None, mods: Mods | None,
                    allow_nonconforming: bool) -> dict[str, Any]:
    """The fields ``damage`` and ``heal`` share (as the command line builds
    them): the tick name normalised, the ``ability`` modifier split off."""
    req: dict[str, Any] = {"kind": kind,
                           "tick": tick.strip().lower().replace(" ", "_").replace("-", "_")}
    if dice is not None:
        req["dice"] = dice
    flat = []
    for m in _modifiers(mods, "mods"):
        if str(m["label"]).lower() == ability:
            if ability in req:
                raise UsageError(f"mods: {ability}=N given twice")
            req[ability] = m["value"]
        else:
            flat.append(m)
    req["modifiers"] = flat
    if allow_nonconforming:
        req["allow_nonconforming"] = True
    return req


def cast(state: StateArg, *, caster: str, idiom: str, upcast: int = 0, overclock: bool = False,
         adjectives: Iterable[str] = (), targets: Iterable[str] = (), mods: Mods | None = None,
         amount_mods: Mods | None = None, adv: bool = False, dis: bool = False,
         nonlethal: bool = False, idioms: CatalogArg | None = None,
         conditions: CatalogArg | None = None, rolls: Iterable[int] | None = None,
         seed: int | None = None) -> dict[str, Any]:
    """``caster`` casts ``idiom`` in ``state`` (rules F1-F5, S3, P5, P6, C1-C2,
    then the d20, damage and healing rules), as ``linguo cast``.

    ``upcast``: extra Flux points above the base cost, at most min(Expertise in
    the Noun, Wordsmithing Level, 10) (F3); ``overclock``: allowed to overclock
    when short of Flux (F4); ``mods`` on the attack roll, ``amount_mods`` flat
    on the damage or healing; ``idioms``/``conditions``: a catalog file or its
    entries instead of the defaults. Dice order: the attack d20 (or each
    target's save d20, in target order), then the damage or healing dice.
    Returns the cast's result with the new ``state`` (nothing is written).
    Errors: see :func:`resolve`; an illegal cast is a :class:`RulesError`.
    """
    req: dict[str, Any] = {"kind": "cast", "caster": caster, "idiom": idiom}
    if upcast:
        req["upcast"] = upcast
    if overclock:
        req["overclock"] = True
    for key, items in (("adjectives", list(adjectives)), ("targets", list(targets))):
        if items:
            req[key] = items
    for key, given in (("modifiers", mods), ("amount_modifiers", amount_mods)):
        if given:
            req[key] = _modifiers(given, "mods" if key == "modifiers" else "amount_mods")
    _advantage(req, adv, dis)
    if nonlethal:
        req["nonlethal"] = True
    _catalogs(req, idioms, conditions)
    _dice_fields(req, rolls, seed)
    return _with_state(req, state, "<arguments>")


def _catalogs(req: dict[str, Any], idioms: CatalogArg | None,
              conditions: CatalogArg | None) -> None:
    for key, catalog in (("idioms", idioms), ("conditions", conditions)):
        if catalog is not None:
            req[key] = _catalog_entries(key, catalog)


def turn(state: StateArg, turns: Iterable[Mapping[str, Any]], *, check: bool = False,
         idioms: CatalogArg | None = None, conditions: CatalogArg | None = None,
         rolls: Iterable[int] | None = None, seed: int | None = None) -> dict[str, Any]:
    """Play whole turns on ``state`` (rules O1, P1-P6, C1-C2 and the rules of
    each step), as ``linguo turn``: ``turns`` is a list of ``{"entity": ID,
    "steps": [...]}`` (the steps of ``golden/README.md``, "turn").

    All or nothing: the first illegal step raises :class:`RulesError` naming
    the turn and step, the rule and the numbers. ``check``: only check that
    every step is legal, rolling no die (``rolls``/``seed`` are not used).
    Returns the turns' result with the new ``state`` (round counting
    included; nothing is written). Errors: see :func:`resolve`.
    """
    req: dict[str, Any] = {"kind": "turn", "turns": list(turns)}
    _catalogs(req, idioms, conditions)
    if check:
        req["check"] = True
        req["rolls"] = []
    else:
        _dice_fields(req, rolls, seed)
    return _with_state(req, state, "<arguments>")


def load_state(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The state in the YAML or JSON file ``path``, checked (the input limits,
    ``schemas/state.schema.json`` and the state rules, V1) as every command
    that reads a state checks it. Returns the plain mapping (``entities``,
    ``round``, ...). Raises :class:`InputError` (exit 3) with every problem
    and its ``file:line:col``."""
    state_io = _state_io()
    doc = state_io.load(os.fspath(path), lock=True)
    try:
        state_io.validate(doc, "state")
        plain: dict[str, Any] = state_io.to_plain(doc.data)
        return plain
    finally:
        doc.release()


def write_state(path: str | os.PathLike[str], state: Mapping[str, Any]) -> None:
    """Write ``state`` to the file ``path``, atomically (a temporary file in
    the same folder, renamed over it) and under the file's lock.

    ``state`` is checked first (limits, schema, V1; :class:`InputError`,
    places ``<state>``). Where ``path`` already holds a state, only what
    changed is edited in its text, as ``--in-place`` does (comments, key
    order, quoting and indentation kept; an entity field that is absent and
    stays at its default stays absent; README "Limits"); a new file is YAML,
    or JSON when its name ends in ``.json``. Raises :class:`UsageError`
    (exit 2) for a path that cannot be written and :class:`InputError` when
    the existing file is not a valid state (nothing is changed then).
    """
    state_io = _state_io()
    new = _document(state, "<state>")
    state_io.validate(new, "state")
    target = os.fspath(path)
    if not os.path.lexists(target):
        if target.endswith(".json"):
            text = json.dumps(new.data, indent=2, ensure_ascii=False) + "\n"
        else:
            text = state_io.dump_yaml(new.data)
        state_io.atomic_write(target, text)
        return
    doc = state_io.load(target, lock=True)
    try:
        state_io.validate(doc, "state")
        _update_document(doc, new)
        state_io.atomic_write(target, state_io.dump_document(doc))
    finally:
        doc.release()


def _update_document(doc: Any, new: Any) -> None:
    """Make the state document ``doc`` (a file's) hold the state of ``new``,
    changing only what differs, as the commands do: an entity (same ids in
    the same order) field by field, a field that is absent and stays at its
    default left absent; other top-level keys where they differ."""
    state_io = _state_io()
    doc.snapshot()  # the tree as read: the writer edits only what differs
    before, after = state_io.entities_of(doc), state_io.entities_of(new)
    if list(before) == list(after):
        state_io.update_entities(doc, before, after)
    else:
        doc.data["entities"] = new.data["entities"]
    for key in [k for k in doc.data if k not in new.data]:
        del doc.data[key]
    for key, value in new.data.items():
        if key != "entities" and value != doc.data.get(key):
            doc.data[key] = value


def error_object(exc: LinguoError) -> dict[str, Any]:
    """The error object of ``exc`` as ``--json`` prints it: ``{"exit", "code",
    "rule", "place", "message"}`` (``golden/README.md``, "Errors")."""
    from linguo_cli.core.error_object import error_object as build

    return build(exc)
