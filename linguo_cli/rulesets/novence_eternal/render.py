"""Text and JSON output of Novence Eternal results.

:func:`emit` prints a result: JSON (through ``core.results.to_plain``, the one
JSON boundary), or plain text with the outcome first and, with ``explain``,
every derivation step with its rule ID. Exact numbers are fractions written
``"48/5"``; HP and faces are integers.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from linguo_cli.core.results import to_plain


def emit(result: Any, *, as_json: bool, explain: bool, out: TextIO | None = None) -> None:
    """Print ``result`` (an :class:`~.handlers.AttackResult` or
    :class:`~.handlers.ModifiersResult`, or its plain dict) on ``out``
    (default stdout): JSON with ``as_json``, else :func:`text_lines`."""
    stream = out or sys.stdout
    plain: dict[str, Any] = result if isinstance(result, dict) else to_plain(result)
    if as_json:
        stream.write(json.dumps(plain, indent=2, ensure_ascii=False) + "\n")
        return
    stream.write("".join(f"{line}\n" for line in text_lines(plain, explain=explain)))


def text_lines(plain: Mapping[str, Any], *, explain: bool = False) -> list[str]:
    """The text view of a plain result: its kind's lines, the non-default
    options, with ``explain`` every ``[rule] step``, and the faces used."""
    from . import render_rolls

    kind = plain.get("kind")
    from .render_nu import KINDS, nu_lines

    if kind in KINDS:
        lines = nu_lines(plain)
    elif kind in render_rolls.KINDS:
        lines = render_rolls.lines(plain)
    else:
        lines = (attack_lines(plain) if kind == "attack" else effect_lines(plain)
                 if kind == "dc_effect" else modifiers_lines(plain) if kind == "modifiers"
                 else _script_lines(plain) if kind in ("script", "turn_start", "event")
                 else care_lines(plain))
    options = plain.get("options") or {}
    if options:
        lines.append("options: " + ", ".join(f"{k}={_value(v)}" for k, v in options.items()))
    if explain:
        lines.append("derivation:")
        lines.extend(f"  [{s['rule']}] {s['text']}" for s in plain.get("explanation") or ())
    rolls = plain.get("rolls_used")
    if rolls:
        lines.append("rolls used: " + ",".join(str(r) for r in rolls))
    return lines


def _script_lines(plain: Mapping[str, Any]) -> list[str]:
    from .script.text import script_lines

    return script_lines(plain)


def _value(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def attack_lines(plain: Mapping[str, Any]) -> list[str]:
    """An attack: who hits whom with what, the to-hit, crits, damage and
    each combatant's HP change and events (NO1)."""
    a = plain["attack"]
    faces = ", ".join(str(f["face"]) + ("" if f.get("kept", True) else " (dropped)")
                      for f in a.get("faces") or ())
    lines = [f"{a['attacker']} attacks {a['target']} with {a['weapon']}"]
    lines.append(f"to-hit: d20 {faces or '-'}; effective die {a['effective_die']}, "
                 f"total {a['total']} against {a['against']}: "
                 + ("lands" if a["landed"] else "misses")
                 + (f", THR {a['thr']}" if a.get("thr") is not None else "")
                 + (f", {a['crits']} crit(s)" if a.get("crits") else "")
                 + (", crit fail" if a.get("crit_fail") else ""))
    if a.get("defense"):
        lines.append(f"defense: {_brief(a['defense'])}")
    if a["landed"]:
        charge = f", charge factor {a['charge_factor']}" if a["charge_factor"] != "1" else ""
        lines.append(f"damage: exact {a['exact']}{charge} -> {a['damage']} "
                     f"(THP absorbed {a['thp_absorbed']}, HP lost {a['hp_lost']})")
    if a.get("cover"):
        lines.append(f"cover: {_brief(a['cover'])}")
    if a.get("armor"):
        lines.append(f"armor: {_brief(a['armor'])}")
    for cid, view in (plain.get("combatants") or {}).items():
        before, after = view["before"], view["after"]
        change = f"HP {before['hp']} -> {after['hp']}"
        if before.get("thp") or after.get("thp"):
            change += f", THP {before['thp']} -> {after['thp']}"
        events = view.get("events") or ()
        lines.append(f"{cid}: {change}" + (f" ({', '.join(events)})" if events else ""))
    return lines


def effect_lines(plain: Mapping[str, Any]) -> list[str]:
    """A DC-based effect (NO2): the DC, the damage rolled, then per target its
    cover or save, the factors, the damage and its HP change."""
    rolls = "; ".join(
        ", ".join(f"{r['type']} {r['raw']}" for r in group) for group in plain["damage_rolls"])
    lines = [f"DC {plain['dc']}; damage rolled: {rolls or 'none'}"]
    views = plain.get("combatants") or {}
    for t in plain["targets"]:
        save = t.get("save")
        how = (f"relies on cover: x{t['cover_factor']}" if t["relied_on_cover"] else
               f"save {save['total']}: {'success' if save['success'] else 'failure'}"
               + (f" (charge {save['charge']})" if save.get("charge") else "")
               + (f", x{t['save_factor']}" if save["success"] else ""))
        if t.get("charge_factor", "1") != "1":
            how += f", charge factor {t['charge_factor']}"
        view = views.get(t["target"], {})
        hp = (f"; HP {view['before']['hp']} -> {view['after']['hp']}" if view else "")
        lines.append(f"{t['target']}: {how}; exact {t['exact']} -> {t['damage']}{hp}")
    return lines


def _brief(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_brief(v)}" for k, v in value.items() if v not in (None, [], {}))
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "[" + ", ".join(_brief(v) for v in value) + "]"
    return _value(value)


def _entry(s: Mapping[str, Any]) -> str:
    typed = f"[{s['type']}]" if s.get("type") else ""
    return f"{s['side']} {s['kind']}{typed} {s['value']:+d}"


def pool_lines(name: str, pool: Mapping[str, Any]) -> list[str]:
    """One pool of ND: raw damage, the selected values (ND2), DI/RI (ND3),
    the netting per type and their average (ND4), T, the halvings and the
    multiplier (ND5), and the pool's exact damage."""
    raw = ", ".join(f"{t} {v}" for t, v in (pool.get("raw") or {}).items()) or "none"
    selected = "; ".join(_entry(s) for s in pool.get("selected") or ()) or "nothing"
    terms = ", ".join(f"{t} {v}" for t, v in (pool.get("terms") or {}).items()) or "none"
    lines = [f"{name} pool: raw {raw}", f"  selected: {selected}"]
    if pool.get("di") or pool.get("ri"):
        ri = ", ".join(f"{t} {v}" for t, v in (pool.get("ri") or {}).items()) or "none"
        lines.append(f"  DI {pool.get('di', 0)}, RI {ri}")
    lines.append(f"  netting per type (incoming - outgoing): {terms}; average {pool['mean']}")
    if pool.get("outgoing") is not None:
        lines.append(f"  outgoing O {pool['outgoing']}")
    lines.append(f"  T {pool['t']}: {pool['halvings']} halving(s), multiplier "
                 f"{pool['multiplier']}; exact {pool['exact']}")
    return lines


def modifiers_lines(plain: Mapping[str, Any]) -> list[str]:
    """A ``modifiers`` result: both pools (:func:`pool_lines`), the charge
    factor, the final multiplier as an exact fraction with its derivation,
    and the damage (floor, ND8)."""
    pools = plain.get("pools") or {}
    lines: list[str] = []
    for name in ("normal", "ap"):
        pool = pools.get(name)
        if pool and (pool.get("raw") or name == "normal"):
            lines.extend(pool_lines("normal" if name == "normal" else "AP", pool))
    normal = pools.get("normal") or {}
    lines.append(f"final multiplier: {final_multiplier(plain)} "
                 f"(= ({_sum_text(plain)}) x charge factor {plain['charge_factor']} "
                 f"/ raw total {_raw_total(plain)})" if _raw_total(plain) != "0"
                 else f"final multiplier: {normal.get('multiplier', '1')} (no raw damage)")
    lines.append(f"damage: floor({plain['exact']}) = {plain['damage']}")
    return lines


def _fraction(text: Any) -> Any:
    from fractions import Fraction

    return Fraction(str(text))


def _text(value: Any) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def _raw_total(plain: Mapping[str, Any]) -> str:
    pools = plain.get("pools") or {}
    total = sum((_fraction(v) for p in pools.values() for v in (p.get("raw") or {}).values()),
                _fraction(0))
    return _text(total)


def _sum_text(plain: Mapping[str, Any]) -> str:
    pools = plain.get("pools") or {}
    parts = []
    for p in pools.values():
        raw = sum((_fraction(v) for v in (p.get("raw") or {}).values()), _fraction(0))
        if raw:
            parts.append(f"{_text(raw)} x {p['multiplier']}")
    return " + ".join(parts) or "0"


def final_multiplier(plain: Mapping[str, Any]) -> str:
    """The whole multiplier of a ``modifiers`` result, exact: the exact
    damage over the raw total of both pools (``exact`` already holds the
    charge factor, NR10); ``"1"`` when there is no raw damage."""
    total = _fraction(_raw_total(plain))
    if not total:
        return "1"
    return _text(_fraction(plain["exact"]) / total)


def care_lines(plain: Mapping[str, Any]) -> list[str]:
    """``thp``, ``heal``, ``ko_roll``, ``stabilize``, ``rest``, ``resurrect``:
    the kind's outcome, then each creature touched with its HP in NL1's
    notation, its Injury and its events."""
    kind = plain.get("kind")
    lines: list[str] = []
    if kind == "heal" and plain.get("roll"):
        r = plain["roll"]
        lines.append(f"healing roll {r['dice']}: {', '.join(map(str, r['faces']))}"
                     + (f" + {r['static']}" if r["static"] else "") + f" = {r['total']}")
    if kind == "thp":
        lines.extend(f"{t['target']}: grant {t['granted']}: keeps the {t['kept']} THP "
                     f"({t['thp_after']}" + (f" from {t['source_after']}" if t["source_after"]
                                             else "") + ")" for t in plain["targets"])
    if kind == "ko_roll":
        k = plain["ko_roll"]
        lines.append(f"{plain['actor']}: KO roll " + (f"d20 {k['face']}: {k['result']}"
                                                       if k["rolled"] else
                                                       f"not made ({k['reason']})"))
    if kind == "check":
        what = f"{plain['stat']} save" if plain["save"] else plain["skill"] or plain["stat"]
        lines.append(f"{plain['actor']}: {what} d20 {', '.join(map(str, plain['faces']))}: "
                     f"total {plain['total']} against DC {plain['dc']}: "
                     + ("success" if plain["success"] else "failure")
                     + (f" (a {plain['charge']} charge spent)" if plain["charge"] else "")
                     + (" (crit fail)" if plain["crit_fail"] else ""))
    if kind == "stabilize":
        lines.append(f"{plain['actor']}: Medicine d20 {', '.join(map(str, plain['faces']))}: "
                     f"total {plain['total']} against DC {plain['dc']}: "
                     + ("stabilized" if plain["stabilized"] else
                        "success" if plain["success"] else "failure"))
    if kind == "resurrect":
        lines.append(f"{plain['target']}: resurrected, d10 {plain['face']}: Injury "
                     f"{plain['injury']}" + (", KO" if plain["ko"] else ""))
    if kind == "rest" and plain["party"]["after"].get("second_chances"):
        sc = plain["party"]["after"]["second_chances"]
        lines.append(f"Second Chances: {sc['pool']} of {sc['max']}")
    for cid, c in plain.get("combatants", {}).items():
        events = ", ".join(c["events"])
        lines.append(f"{cid}: HP {plain['hp'][cid]}; Injury {c['after']['injury']}"
                     + ("; KO" if c["after"]["ko"] else "") + ("; dead" if c["after"]["dead"]
                                                                else "")
                     + (f"; {events}" if events else ""))
    return lines
