"""Text view of the Ultimate, Meditate, Traversal and party results
(``ultimate``, ``meditate``, ``traverse``, ``party_check``; NV5): the
outcome first, then each creature touched with its UP."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The kinds :func:`nu_lines` shows.
KINDS = ("ultimate", "meditate", "traverse", "party_check")


def _gain(g: Mapping[str, Any]) -> str:
    faces = ", ".join(map(str, g["faces"]))
    return (f"d4 {faces}" if faces else "no die") + (f" + {g['bonus']}" if g["bonus"] else "") \
        + f": UP +{g['gained']}" + (f" ({g['lost']} lost at the cap)" if g["lost"] else "") \
        + f" = {g['up_after']}"


def _ultimate(plain: Mapping[str, Any]) -> list[str]:
    lines = [f"{plain['actor']} casts {plain['name']}: UP {plain['up_before']} -> "
             f"{plain['up_after']}; ZP {plain['zp_before']} -> {plain['zp_after']}; "
             f"Zenith level {plain['level_before']} -> {plain['level_after']}"]
    lines.extend(f"{e['target']}: UP +{e['gained']} = {e['up_after']}" for e in plain["effects"])
    return lines


def _meditate(plain: Mapping[str, Any]) -> list[str]:
    lines = [f"{plain['actor']} meditates"]
    for d in plain["debuffs"]:
        save = d["save"]
        lines.append(f"{d['name']}: {d['stacks_before']} -> {d['stacks_after']} stacks"
                     + ("" if save is None else f" (save {save['total']} against DC "
                        f"{save['dc']}: {'success' if save['success'] else 'failure'})"))
    lines.append(f"UP gain: {_gain(plain['up_gain'])}")
    return lines


def _traverse(plain: Mapping[str, Any]) -> list[str]:
    lines = [f"Traversal d20 {plain['face']}: {plain['outcome']}"
             + (" (regional exclusive)" if plain["regional_exclusive"] else "")]
    fu = plain["follow_up"]
    if fu is not None and fu["check"] is not None:
        c = fu["check"]
        lines.append((f"{fu['way']}: " if fu["way"] else "")
                     + f"check {c['total']} against DC {c['dc']}: "
                     + ("success" if c["success"] else "failure")
                     + (f"; {fu['damage']} damage" if fu["damage"] else ""))
    elif fu is not None:
        lines.append(f"distance {fu['distance_change']:+} ft")
    return lines


def nu_lines(plain: Mapping[str, Any]) -> list[str]:
    """The lines of a result of one of :data:`KINDS`."""
    kind = plain["kind"]
    lines = (_ultimate(plain) if kind == "ultimate" else _meditate(plain)
             if kind == "meditate" else _traverse(plain) if kind == "traverse" else
             [f"legal party of {plain['roster_size']}"
              + ("" if plain["bank_after"] is None else
                 f"; bank {plain['bank_before']} -> {plain['bank_after']} gp")])
    for cid, c in (plain.get("combatants") or {}).items():
        after = c["after"]
        events = ", ".join(c["events"])
        lines.append(f"{cid}: HP {after['hp']} / {after['max_hp']}; UP {after['up']}"
                     + ("; KO" if after["ko"] else "") + (f"; {events}" if events else ""))
    return lines
