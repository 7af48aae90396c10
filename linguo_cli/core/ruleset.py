"""Rulesets: what a ruleset brings to linguo, and how linguo finds them.

A ruleset is a frozen :class:`Ruleset` value exported by its package (for
Linguomancy ``linguo_cli.rulesets.linguomancy.ruleset:RULESET``) and
announced through the entry-point group :data:`GROUP` (``linguo.rulesets``)
of its distribution::

    [project.entry-points."linguo.rulesets"]
    linguomancy = "linguo_cli.rulesets.linguomancy.ruleset:RULESET"

Everything a ruleset names as ``"module:function"`` (request handlers, the
request validator, the command mounter, the text renderer) is imported on
first use only, so discovering rulesets never imports their rules.

The default ruleset (:data:`DEFAULT`, Linguomancy) is built in: asking for
it never scans the installed distributions (that scan costs ~15 ms of every
one-off command's start-up); :func:`installed` scans once per process
(:func:`clear_cache` forgets it, for tests).

Names: requests, suites and results use canonical names only
(``linguomancy``, ``novence-eternal``, ``ptr2e``); aliases (``novence``) are
accepted on the command line only (:func:`get` with ``aliases=True``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from linguo_cli.core.dice_sources import make_source
from linguo_cli.core.errors import Diagnostic, InputError

if TYPE_CHECKING:
    from importlib.abc import Traversable

#: The entry-point group rulesets are announced in.
GROUP = "linguo.rulesets"
#: The ruleset of a request without ``ruleset``.
DEFAULT = "linguomancy"
#: Where the default ruleset's value lives (built in: found without discovery).
_DEFAULT_TARGET = "linguo_cli.rulesets.linguomancy.ruleset:RULESET"

#: A request handler: (validated request, dice source) -> result dict.
Handler = Callable[..., dict[str, Any]]


def load_target(target: str) -> Any:
    """``"package.module:name"`` -> that object (the module is imported).

    Raises :class:`ImportError`/:class:`AttributeError` for a wrong target (a
    broken ruleset: an internal error, exit 5)."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def package_files(package: str) -> Traversable:
    """What ``importlib.resources.files(package)`` returns (a ruleset's
    ``schemas`` and ``suite`` live below it), without importing
    ``importlib.resources`` (and with it ``zipfile``, ``tempfile``...) for a
    package in a folder, where it is the folder as a :class:`pathlib.Path`;
    any other package (in a zip file, without a file) is left to
    ``importlib.resources``. Raises :class:`ImportError` for no such package."""
    import sys
    from importlib.machinery import SourceFileLoader, SourcelessFileLoader

    module = sys.modules.get(package) or importlib.import_module(package)
    spec = module.__spec__
    loader = getattr(spec, "loader", None)
    if isinstance(loader, (SourceFileLoader, SourcelessFileLoader)) and \
            spec is not None and spec.submodule_search_locations is not None:
        from pathlib import Path

        return Path(loader.path).parent
    from importlib import resources

    return resources.files(package)


@cache
def _loaded(target: str) -> Any:
    return load_target(target)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One ruleset, as linguo sees it.

    ``name``: canonical name (``[a-z][a-z0-9-]*``), used in requests, suites,
    results and test ids. ``aliases``: other names accepted on the command
    line only. ``title``: one line for ``linguo --help``. ``handlers``:
    request kind -> ``"module:function"`` of its handler (called with the
    validated request and a :class:`~linguo_cli.core.dice.DiceSource`,
    returning the result dict). ``validator``: ``"module:function"`` that
    checks a loaded request document (:class:`linguo_cli.io.Document`)
    against the ruleset's request schema and raises
    :class:`~linguo_cli.core.errors.InputError` (exit 3). ``schemas``: the
    folder of its JSON Schemas (source of truth); ``suite``: its golden suite
    folder (``golden/<name>/``). ``commands``: ``"module:function"`` that adds
    its Typer commands to a Typer app (``None``: no commands). ``renderer``:
    ``"module:function"`` ``(result, *, as_json, explain)`` printing a result.
    ``options``: ``"module:NAME"`` of its
    :class:`~linguo_cli.core.options.OptionTable` (``None``: no options);
    ``preparer``: ``"module:function"`` applied to a valid request before its
    handler (e.g. the named options in effect written into the fields the
    rules read; ``None``: the request as it is). ``dice``: ``"module:function"``
    ``(rolls, seed) -> DiceSource`` reading a request's ``rolls`` (for a
    ruleset whose faces are more than integers, e.g. ``"d20:12"``; ``None``:
    :func:`~linguo_cli.core.dice.make_source`, integer faces).
    """

    name: str
    title: str
    handlers: Mapping[str, str]
    validator: str
    renderer: str
    schemas: Traversable
    suite: Traversable
    commands: str | None = None
    aliases: tuple[str, ...] = ()
    options: str | None = None
    preparer: str | None = None
    dice: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The request kinds it resolves, in the order of :attr:`handlers`."""
        return tuple(self.handlers)

    def handler(self, kind: str) -> Handler:
        """The handler of ``kind``; :class:`InputError` (exit 3, field
        ``kind``) when the ruleset has no such kind."""
        target = self.handlers.get(kind)
        if target is None:
            raise InputError(Diagnostic("request", "kind", f"unknown request kind {kind!r}"))
        fn: Handler = _loaded(target)
        return fn

    def option_table(self) -> Any:
        """Its :class:`~linguo_cli.core.options.OptionTable` (an empty one
        when it has no options)."""
        if self.options is None:
            from linguo_cli.core.options import OptionTable

            return OptionTable.of([])
        return _loaded(self.options)

    def prepare(self, request: Mapping[str, Any]) -> Mapping[str, Any]:
        """``request`` as its handler reads it (see ``preparer``)."""
        if self.preparer is None:
            return request
        prepared: Mapping[str, Any] = _loaded(self.preparer)(request)
        return prepared

    def dice_source(self, rolls: Any, seed: int | None) -> Any:
        """The :class:`~linguo_cli.core.dice.DiceSource` of a request's
        ``rolls`` (else ``seed``, else the system's) for this ruleset."""
        if self.dice is None:
            return make_source(rolls, seed)
        return _loaded(self.dice)(rolls, seed)

    def validate(self, document: Any) -> None:
        """Check a loaded request document with the ruleset's validator."""
        _loaded(self.validator)(document)

    def render(self, result: Any, *, as_json: bool, explain: bool) -> None:
        """Print ``result`` with the ruleset's renderer."""
        _loaded(self.renderer)(result, as_json=as_json, explain=explain)

    def mount(self, app: Any) -> None:
        """Add the ruleset's commands to the Typer ``app`` (nothing if it has none)."""
        if self.commands is not None:
            _loaded(self.commands)(app)


def default() -> Ruleset:
    """The default ruleset (Linguomancy), without scanning distributions."""
    rs: Ruleset = _loaded(_DEFAULT_TARGET)
    return rs


@cache
def installed() -> dict[str, Ruleset]:
    """Every installed ruleset by canonical name, the default first, then by
    name: the values of the entry points of group :data:`GROUP` (the default
    ruleset is always there). Cached per process (:func:`clear_cache`).

    An entry point that does not load a :class:`Ruleset`, or whose name is not
    the ruleset's name, is skipped with a warning on stderr; two
    distributions announcing the same name: the first found wins."""
    from importlib.metadata import entry_points

    found: dict[str, Ruleset] = {DEFAULT: default()}
    for ep in entry_points(group=GROUP):
        if ep.name in found:
            continue
        try:
            value = ep.load()
        except Exception as exc:  # a broken plug-in must not break linguo
            _warn(f"ruleset {ep.name!r} ({ep.value}) does not load: "
                  f"{type(exc).__name__}: {exc}")
            continue
        if not isinstance(value, Ruleset) or value.name != ep.name:
            _warn(f"entry point {ep.name!r} ({ep.value}) is not the Ruleset {ep.name!r}")
            continue
        found[value.name] = value
    return {name: found[name] for name in [DEFAULT, *sorted(n for n in found if n != DEFAULT)]}


def _warn(message: str) -> None:
    import sys

    sys.stderr.write(f"linguo: warning: {message}\n")


def clear_cache() -> None:
    """Forget the discovered rulesets (the next :func:`installed` scans again)."""
    installed.cache_clear()


def names() -> list[str]:
    """Canonical names of the installed rulesets (the default first)."""
    return list(installed())


def get(name: str, *, aliases: bool = False, field_name: str = "ruleset",
        place: str = "request") -> Ruleset:
    """The installed ruleset ``name`` (canonical; with ``aliases``, also an
    alias: command-line use). The default ruleset is found without
    discovery. Raises :class:`InputError` (exit 3) naming ``field_name``
    for an unknown ruleset."""
    if name == DEFAULT:
        return default()
    rulesets = installed()
    if name in rulesets:
        return rulesets[name]
    if aliases:
        for rs in rulesets.values():
            if name in rs.aliases:
                return rs
    raise InputError(Diagnostic(place, field_name, f"unknown ruleset {name!r} (installed: "
                                                    f"{', '.join(rulesets)})"))


def canonical(name: str) -> str | None:
    """The canonical name of an installed ruleset named ``name`` or by an
    alias of it; ``None`` when none is installed under that name."""
    try:
        return get(name, aliases=True).name
    except InputError:
        return None
