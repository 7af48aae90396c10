"""Named options: one syntax for every ruleset (issue 14's binding decision).

A ruleset declares its options as a table of :class:`Option` (name, default,
alternatives, the rule whose reading it selects). A run sets them with
``--option NAME=VALUE`` (repeatable) on the command line and ``options:``
(``{name: value}``) in requests and states. Precedence, highest first:
command line > request > state > preset > default, name by name. A *preset*
is an option whose value sets other options at once (PTR's ``preset:
later``); an option set explicitly at any level wins over the preset.

JSON types: an option whose values are ``true``/``false`` takes a JSON
boolean, an integer option a JSON integer, every other option a string. On
the command line the value is text and is read by the option's type
(``true``/``false``, digits). An unknown name, a value not in the table, or a
value of another JSON type is invalid input (exit 3), placed at the field
``options.NAME`` (or ``--option``) and carrying the ruleset's refusal code for
it (``bad_option`` where the ruleset's spec defines codes) and the option's
rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.core.errors import Diagnostic, InputError, UsageError

OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class Option:
    """One named option of a ruleset.

    ``alternatives``: the other allowed values (``default`` is always allowed).
    An integer option (``integer=True``) allows any integer in
    ``[minimum, maximum]`` instead. ``sets``: for a preset, value -> the
    options that value sets (each lower than an explicit setting). ``rule``:
    the rule ID whose reading the option selects."""

    name: str
    default: OptionValue
    alternatives: tuple[OptionValue, ...] = ()
    rule: str = ""
    help: str = ""
    integer: bool = False
    minimum: int | None = None
    maximum: int | None = None
    sets: Mapping[OptionValue, Mapping[str, OptionValue]] = field(default_factory=dict)

    @property
    def values(self) -> tuple[OptionValue, ...]:
        """Every allowed value, default first (empty for an integer option)."""
        return () if self.integer else (self.default, *self.alternatives)

    def allows(self, value: Any) -> bool:
        """Whether ``value`` (a JSON value) is an allowed value of this option
        (of the right JSON type: ``True`` is not ``1``)."""
        if self.integer:
            return (isinstance(value, int) and not isinstance(value, bool)
                    and (self.minimum is None or value >= self.minimum)
                    and (self.maximum is None or value <= self.maximum))
        return any(type(value) is type(v) and value == v for v in self.values)

    def read(self, text: str) -> OptionValue:
        """A command-line value (text) as the option's JSON value: ``true`` /
        ``false`` for a boolean option, an integer for an integer option, the
        text otherwise (not yet checked against the allowed values)."""
        if isinstance(self.default, bool):
            lowered = text.strip().lower()
            if lowered in ("true", "false"):
                return lowered == "true"
            return text
        if self.integer:
            stripped = text.strip()
            digits = stripped.lstrip("+-")
            if digits.isascii() and digits.isdigit() and len(digits) <= 18:
                return int(stripped)
        return text

    def describe(self) -> str:
        """``name: default | alt | ...`` (or ``name: integer``), for messages."""
        if self.integer:
            return f"{self.name}: an integer"
        return f"{self.name}: " + " | ".join(_text(v) for v in self.values)


def _json(value: Any) -> str:
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class OptionError(InputError):
    """An unknown option name, or a value the option does not allow (exit 3)."""

    def __init__(self, place: str, field_: str, message: str, *, code: str | None,
                 rule: str | None) -> None:
        super().__init__(Diagnostic(place, field_, message))
        self.refusal = code
        self.rule = rule


@dataclass(frozen=True, slots=True)
class OptionTable:
    """A ruleset's options by name, and its refusal code for a bad option
    (``None`` where the ruleset defines no refusal codes)."""

    options: Mapping[str, Option]
    bad_option_code: str | None = None

    @classmethod
    def of(cls, options: Iterable[Option], bad_option_code: str | None = None) -> OptionTable:
        """The table of ``options`` (names must be unique)."""
        table = {o.name: o for o in options}
        return cls(table, bad_option_code)

    def defaults(self) -> dict[str, OptionValue]:
        """Every option at its default."""
        return {name: o.default for name, o in self.options.items()}

    def check(self, given: Any, place: str, base: str = "options") -> dict[str, OptionValue]:
        """``given`` (an ``options`` mapping from a document) checked: every
        name known, every value allowed. Raises :class:`OptionError` at
        ``base.NAME`` (the first problem; names in order)."""
        if given is None:
            return {}
        if not isinstance(given, Mapping):
            raise OptionError(place, base or "options", "must be a mapping {name: value}",
                              code=self.bad_option_code, rule=None)
        out: dict[str, OptionValue] = {}
        for name, value in given.items():
            option = self.options.get(str(name))
            where = f"{base}.{name}" if base else str(name)
            if option is None:
                raise OptionError(place, where, f"unknown option {str(name)!r}; known: "
                                  + (", ".join(sorted(self.options)) or "none"),
                                  code=self.bad_option_code, rule=None)
            if not option.allows(value):
                raise OptionError(place, where, f"{_json(value)} is not a value of "
                                  f"{option.describe()}", code=self.bad_option_code,
                                  rule=option.rule or None)
            out[option.name] = value
        return out

    def from_command_line(self, items: Sequence[str] | None) -> dict[str, OptionValue]:
        """``--option NAME=VALUE`` items read and checked (later items win).
        ``NAME=VALUE`` not of that shape is a usage error (exit 2); an
        unknown name or value is exit 3 at ``--option``."""
        given: dict[str, OptionValue] = {}
        for item in items or ():
            name, sep, text = item.partition("=")
            name = name.strip()
            if not sep or not name:
                raise UsageError(f"--option {item!r} is not NAME=VALUE")
            option = self.options.get(name)
            given[name] = option.read(text) if option is not None else text
        return self.check(given, "--option", base="")

    def effective(self, *layers: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """Every option's value in effect: ``layers`` are already checked
        mappings, lowest precedence first (state, request, command line);
        presets set by any layer come below every explicit setting."""
        explicit: dict[str, OptionValue] = {}
        for layer in layers:
            explicit.update(layer)
        values = self.defaults()
        for name, value in explicit.items():
            for other, preset in self.options[name].sets.get(value, {}).items():
                values[other] = preset
        values.update(explicit)
        return values

    def non_default(self, values: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """The options of ``values`` not at their default, in table order."""
        return {name: values[name] for name, o in self.options.items()
                if name in values and values[name] != o.default}
