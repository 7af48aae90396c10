"""The text view of ``script``, ``turn_start`` and ``event`` results: one
line per round and turn, one per step with what it paid and did, then each
creature touched with its HP before and after and its events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _paid(paid: Mapping[str, int]) -> str:
    parts = [f"{n} {k.upper().replace('_', ' ')}" for k, n in paid.items() if n]
    return ", ".join(parts) if parts else "free"


def _result(kind: str, result: Mapping[str, Any]) -> str:
    """A short account of a step's result."""
    if kind == "attack":
        return "; ".join(f"{a['target']}: total {a['total']} "
                         + (f"lands, damage {a['damage']}" if a["landed"] else "misses")
                         for a in result.get("attacks", ()))
    if "total" in result:
        return f"total {result['total']}" + (
            "" if result.get("success") is None else ", success" if result["success"]
            else ", failure")
    if "stealth" in result:
        return f"Stealth {result['stealth']}"
    return ", ".join(f"{k} {v}" for k, v in result.items() if isinstance(v, (int, str)))


def _turn_lines(turn: Mapping[str, Any]) -> list[str]:
    lines = [f"  {turn['actor']}'s turn" + (" (extra)" if turn.get("extra") else "")]
    start = turn.get("start") or {}
    if start.get("ended"):
        lines.append(f"    start: ends {', '.join(start['ended'])}")
    if start.get("ko_roll"):
        k = start["ko_roll"]
        lines.append("    KO roll: " + (f"d20 {k['face']}: {k['result']}" if k["rolled"]
                                         else f"none ({k['reason']})"))
    for step in turn.get("steps", ()):
        for entry in (*step.get("before", ()), *step.get("after", ())):
            lines.append(f"    {entry['actor']} ({entry['kind']}, {_paid(entry['paid'])}): "
                         + _result("attack" if "attacks" in entry["result"] else "",
                                   entry["result"]))
        text = _result(step["kind"], step["result"]) if step["result"] else ""
        lines.append(f"    step {step['step']} {step['kind']} ({_paid(step['paid'])})"
                     + (f": {text}" if text else ""))
    return lines


def script_lines(plain: Mapping[str, Any]) -> list[str]:
    """The lines of a ``script``, ``turn_start`` or ``event`` result."""
    lines: list[str] = []
    for element in plain.get("rounds", ()):
        if "events" in element:
            lines.append(f"interlude: {len(element['events'])} event(s)")
            continue
        lines.append(f"round {element['round']}" + ("" if element["started"] else " (continued)"))
        for turn in element["turns"]:
            lines.extend(_turn_lines(turn))
        end = element.get("end_of_round")
        if end is None:
            lines.append("  the round stays open")
        else:
            ended = ", ".join(f"{e['creature']}'s {e['condition']}" for e in end["ended"])
            lines.append("  end of round" + (f": {ended} end(s)" if ended else ""))
    if plain.get("kind") == "turn_start":
        lines.extend(_turn_lines({**plain, "start": plain, "steps": ()}))
    for cid, view in (plain.get("combatants") or {}).items():
        before, after = view["before"], view["after"]
        events = f" [{', '.join(view['events'])}]" if view["events"] else ""
        lines.append(f"{cid}: HP {before['hp']} -> {after['hp']}/{after['max_hp']}, "
                     f"Injury {after['injury']}" + events)
    state = plain.get("state") or {}
    if state:
        lines.append(f"state: round {state.get('round')}, turns taken "
                     f"{', '.join(state.get('turns_taken') or ()) or 'none'}")
    return lines
