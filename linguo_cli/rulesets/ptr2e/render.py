"""PTR 2e results as JSON or text: the outcome first, then with
``explain`` every step with its rule ID (``[PS3] DoS = ...``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any


def _allow(values: Mapping[str, int]) -> str:
    return "{" + ", ".join(f"{t} {a}" for t, a in values.items()) + "}"


def _test_line(r: Mapping[str, Any]) -> str:
    name = f"{r['skill']} {r['value']}" if r.get("skill") else f"skill {r['value']}"
    mod = f" {r['mod']:+d}" if r.get("mod") else ""
    outcome = f"success, DoS {r['dos']}" if r["success"] else f"failure, DoF {r['dof']}"
    return f"{name}, {r['cr']}{mod}: DC {r['dc']}, roll {r['roll']}: {outcome}"


def _skill(r: Mapping[str, Any]) -> list[str]:
    return [_test_line(r)]


def _rush(r: Mapping[str, Any]) -> list[str]:
    rec = r["rush"]
    return [f"Rush {rec['type']}: {_test_line(rec)}, +{rec['bonus']}",
            f"allowances {_allow(r['allowances'])}"]


def _move(r: Mapping[str, Any]) -> list[str]:
    lines = []
    for s in r["steps"]:
        what = f"rush {s['rush']} +{s['bonus']}" if "rush" in s else f"move {s['move']} {s['m']}"
        lines.append(f"step {s['step']}: {what} -> {_allow(s['allowances'])}")
    lines.append(f"moved {r['moved']} of {r['highest']} m; allowances "
                 f"{_allow(r['allowances'])} ({r['model']})")
    return lines


def _activation(r: Mapping[str, Any]) -> list[str]:
    line = f"legal: {r['complex']} complex, {r['simple']} simple, {r['free']} free, " \
           f"{r['moves']} move(s)"
    if r["pp"] is not None:
        line += f"; pp {r['pp']['before']} -> {r['pp']['after']}"
    return [line]


def _priority(r: Mapping[str, Any]) -> list[str]:
    lines = [f"{i}. {e['actor']} ({e['type']} {e['level']}"
             + (f", {e['action']}" if e["action"] else "") + ")"
             for i, e in enumerate(r["order"], 1)]
    owed = r["owed_skips"]
    lines.append("owed skips: " + (", ".join(f"{c} {n}" for c, n in owed.items()) or "none"))
    return lines


def _one_round(r: Mapping[str, Any]) -> list[str]:
    lines = [f"round {r['round']}"] + [f"  {line}" for line in r["timeline"]]
    for rec in r["rush"]:
        lines.append(f"  rush {rec['actor']} {rec['type']}: {_test_line(rec)}, +{rec['bonus']}")
    for d in r["delays"]:
        when = f"trigger {d['trigger']!r}" if "trigger" in d else f"level {d['level']}"
        lines.append(f"  delay {d['delay_id']} ({d['actor']} {d['action']}, {when}): "
                     f"{d['outcome']}")
    skipped = ", ".join(f"#{s['index']} {s['actor']}" for s in r["skipped"]) or "none"
    lines.append(f"  skipped: {skipped}")
    for name, a in r["allowances"].items():
        pp = f", pp {a['pp']}" if a["pp"] is not None else ""
        lines.append(f"  {name}: {_allow(a['movement'])}{pp}, owes {a['owed_skips']} skip(s)")
    return lines


def _round(r: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for one in r.get("rounds") or [r]:
        lines += _one_round(one)
    lines.append(f"next: round {r['state_after']['round']}, rolls used "
                 f"{r.get('rolls_used', [])}")
    return lines


def _chances(label: str, ladder: list[Mapping[str, Any]], key: str) -> str:
    return ", ".join(f"{label}{c[key]} {c['probability']} ({c['percent']}%)" for c in ladder)


def _odds(r: Mapping[str, Any]) -> list[str]:
    t = r["test"]
    name = f"{t['skill']} {t['value']}" if t.get("skill") else f"skill {t['value']}"
    mod = f" {t['mod']:+d}" if t.get("mod") else ""
    head = f"Rush {t['type']}: " if t["kind"] == "rush" else ""
    lines = [f"{head}{name}, {t['cr']}{mod}: DC {t['dc']}"]
    for word, key, label in (("success", "dos", "DoS "), ("failure", "dof", "DoF ")):
        c = r[word]
        lines.append(f"{word} {c['probability']} ({c['percent']}%)"
                     + (": " + _chances(label, r[key], "degree") if r[key] else ""))
    if "bonus" in r:
        lines.append("bonus " + _chances("+", r["bonus"], "bonus")
                     + f"; expected +{r['expected_bonus']}")
    return lines


_TEXT: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "skill": _skill, "rush": _rush, "move": _move, "activation": _activation,
    "priority": _priority, "round": _round, "odds": _odds,
}


def emit(result: Mapping[str, Any], *, as_json: bool, explain: bool) -> None:
    """Print a PTR 2e result: pretty JSON (``as_json``), else its text
    lines, the non-default options, warnings and (``explain``) every
    explanation step with its rule ID."""
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        return
    lines = _TEXT[str(result["kind"])](result)
    if result.get("options"):
        lines.append("options: " + ", ".join(f"{k}={v}" for k, v in result["options"].items()))
    lines += [f"warning: {w}" for w in result.get("warnings", ())]
    if explain:
        lines += [f"  [{s['rule']}] {s['text']}" for s in result.get("explanation", ())]
    sys.stdout.write("".join(f"{line}\n" for line in lines))
