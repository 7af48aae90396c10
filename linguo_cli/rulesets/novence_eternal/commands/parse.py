"""Reading the one-off commands' option values into NV3 request pieces.

Every function raises :class:`typer.BadParameter` (a usage error, exit 2)
naming the option for text that is not of its shape; values within the shape
but outside a rule's range are left to the request schema (exit 3).
"""

import re
from typing import Any

import typer

from linguo_cli.core.dice import DiceSource

_FACE = re.compile(r"(?:d([0-9]{1,4}):)?([0-9]{1,4})")
_DAMAGE = re.compile(
    r"(?:([0-9]{1,4}d[0-9]{1,4})?([+-][0-9]{1,6})?|([0-9]{1,6})):([a-z][a-z_]{0,39})")
_MOD = re.compile(r"([A-Za-z_]+)(?::([A-Za-z][A-Za-z0-9_]{0,39}))?=([+-]?[0-9]{1,6})")
_ARMOR = re.compile(r"([a-z][a-z_]{0,39}):([1-5]):([+-]?[0-9]{1,6})")
_RAW = re.compile(r"([a-z][a-z_]{0,39})=(-?[0-9]{1,9}(?:/[0-9]{1,9})?)")


def faces(text: str | None) -> list[Any] | None:
    """``--rolls "15,d6:4"`` -> ``[15, "d6:4"]`` (NV3 Faces: an integer, or
    ``dS:F`` naming the die it is for)."""
    if text is None:
        return None
    out: list[Any] = []
    for part in text.replace(" ", "").split(","):
        m = _FACE.fullmatch(part)
        if m is None or int(m.group(2)) < 1:
            raise typer.BadParameter(f"{part!r} is not a face (12 or d20:12)",
                                     param_hint="'--rolls'")
        out.append(part if m.group(1) else int(part))
    if len(out) > 100_000:
        raise typer.BadParameter("more than 100000 faces", param_hint="'--rolls'")
    return out


def dice(rolls: str | None, seed: int | None) -> DiceSource | None:
    """The dice source of ``--rolls``/``--seed`` (``None``: neither given,
    the system's randomness); both at once is a usage error."""
    from linguo_cli.rulesets.novence_eternal.handlers import faces_source

    given = faces(rolls)
    if given is not None and seed is not None:
        raise typer.BadParameter("give --rolls or --seed, not both", param_hint="'--seed'")
    if given is None and seed is None:
        return None
    return faces_source(given, seed)


def damage(items: list[str] | None) -> list[dict[str, Any]]:
    """``--damage 1d10+4:bludgeoning`` (also ``2d8:kinetic``, ``5:fire``) ->
    NV2 damage components ``{dice, static, type}``."""
    out: list[dict[str, Any]] = []
    for item in items or ():
        m = _DAMAGE.fullmatch(item.replace(" ", ""))
        if m is None or not (m.group(1) or m.group(3)):
            raise typer.BadParameter(f"{item!r} is not DICE[+STATIC]:TYPE or STATIC:TYPE "
                                     "(e.g. 1d10+4:bludgeoning)", param_hint="'--damage'")
        static = int(m.group(2) or m.group(3) or 0)
        out.append({"dice": m.group(1), "static": static, "type": m.group(4)})
    return out


def modifiers(items: list[str] | None) -> list[dict[str, Any]]:
    """``--mod KIND[:TYPE]=VALUE`` -> ND1 entries: ``ATK=20``, ``AFF:psychic=30``,
    ``RES:fire=-10``, ``DI=5``; a TYPE in capitals (``AFF:PHYS=10``) names a
    category of the request's catalogs."""
    out: list[dict[str, Any]] = []
    for item in items or ():
        m = _MOD.fullmatch(item.replace(" ", ""))
        if m is None:
            raise typer.BadParameter(f"{item!r} is not KIND[:TYPE]=VALUE (e.g. DEF=20, "
                                     "RES:fire=-10)", param_hint="'--mod'")
        entry: dict[str, Any] = {"kind": m.group(1), "value": int(m.group(3))}
        if m.group(2):
            key = "type" if m.group(2).islower() else "category"
            entry[key] = m.group(2)
        out.append(entry)
    return out


def armor_types(items: list[str] | None) -> dict[str, Any]:
    """``--armor kinetic:3:20`` (TYPE:LEVEL:RES) -> NV2 armor ``types``."""
    out: dict[str, Any] = {}
    for item in items or ():
        m = _ARMOR.fullmatch(item.replace(" ", ""))
        if m is None:
            raise typer.BadParameter(f"{item!r} is not TYPE:LEVEL:RES (e.g. kinetic:3:20)",
                                     param_hint="'--armor'")
        out[m.group(1)] = {"level": int(m.group(2)), "res": int(m.group(3))}
    return out


def raw(items: list[str] | None, option: str) -> dict[str, Any]:
    """``--raw psychic=25`` (or ``=5/2``) -> ``{type: exact}``."""
    out: dict[str, Any] = {}
    for item in items or ():
        m = _RAW.fullmatch(item.replace(" ", ""))
        if m is None:
            raise typer.BadParameter(f"{item!r} is not TYPE=AMOUNT (e.g. psychic=25, "
                                     "fire=5/2)", param_hint=f"'{option}'")
        value = m.group(2)
        out[m.group(1)] = int(value) if "/" not in value else value
    return out


def categories(items: list[str] | None) -> dict[str, list[str]]:
    """``--category PHYS=slashing,piercing`` -> the categories catalog (ND1)."""
    out: dict[str, list[str]] = {}
    for item in items or ():
        name, sep, members = item.replace(" ", "").partition("=")
        if not sep or not name or not members:
            raise typer.BadParameter(f"{item!r} is not NAME=TYPE,TYPE",
                                     param_hint="'--category'")
        out[name] = members.split(",")
    return out
