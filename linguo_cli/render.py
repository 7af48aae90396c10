"""Renderers: a result dict to JSON or to human text (Rich).

The JSON shape is the result of :func:`linguo_cli.requests.resolve`, printed
as is (exact numbers; fractions are strings such as ``"21/2"``). The text view
puts the outcome first and, with ``explain``, every derivation step with its
rule ID. Rich is imported only when text is rendered.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

_DEGREE_STYLE = {
    "critical_failure": "bold white on red",
    "failure": "bold red",
    "partial_failure": "red",
    "partial_success": "yellow",
    "success": "bold green",
    "critical_success": "bold black on green",
}

_KIND_TITLE = {"check": "Ability check", "attack": "Attack roll", "save": "Saving throw"}


def to_json(result: Any) -> str:
    """The result as pretty, stable JSON text (keys in result order)."""
    return json.dumps(result, indent=2, ensure_ascii=False)


def emit(result: dict[str, Any], *, as_json: bool, explain: bool, out: TextIO | None = None
         ) -> None:
    """Print ``result`` on stdout: JSON, or the text view (with steps when
    ``explain``)."""
    import sys

    stream = out or sys.stdout
    if as_json:
        stream.write(to_json(result) + "\n")
        return
    from rich.console import Console

    console = Console(file=stream, highlight=False, soft_wrap=True)
    renderer = TEXT_RENDERERS.get(str(result.get("kind")), _generic_text)
    renderer(console, result)
    if explain:
        explain_lines(console, result.get("explanation") or [])
    rolls = result.get("rolls_used")
    if rolls:
        console.print(f"[dim]replay with --rolls {','.join(str(r) for r in rolls)}[/dim]")


def explain_lines(console: Any, steps: list[dict[str, str]], indent: str = "  ") -> None:
    """Print derivation steps as ``[RULE] text`` lines."""
    from rich.markup import escape

    for s in steps:
        console.print(f"{indent}[cyan]\\[{escape(s['rule'])}][/cyan] {escape(s['text'])}")


def degree_markup(label: str) -> str:
    """Rich markup that makes a degree stand out, e.g. ``[bold green]Success[/]``."""
    title = label.replace("_", " ").title()
    return f"[{_DEGREE_STYLE.get(label, 'bold')}] {title} [/]"


def _test_text(console: Any, r: dict[str, Any]) -> None:
    from rich.markup import escape

    title = _KIND_TITLE.get(r["kind"], r["kind"])
    if r["natural"] is None:
        line = f"{title}: no die rolled"
    else:
        faces = [f["face"] for f in r["faces"]]
        dice = f"d20 {faces[0]}" if len(faces) == 1 else (
            f"d20 {faces[0]} and {faces[1]}, kept {r['natural']}")
        mods = "".join(
            f" {'+' if m['value'] >= 0 else '-'} {abs(m['value'])} {escape(m['label'])}"
            for m in r["modifiers"])
        target = {"check": "DC", "attack": "AC", "save": "save DC"}[r["kind"]]
        line = (f"{title}: {dice}{mods} = [bold]{r['total']}[/bold] vs {target} {r['target']}"
                f" (margin {r['margin']:+d})")
    console.print(line)
    verdict = degree_markup(r["degree"])
    if r["unadjusted_degree"] != r["degree"]:
        shift = "natural 20" if r["shift"] == "natural_20" else "natural 1"
        verdict += (f"  (from {r['unadjusted_degree'].replace('_', ' ')} by {shift})")
    if r["kind"] == "attack":
        verdict += "  [bold]HIT[/bold]" if r["hit"] else "  [bold]MISS[/bold]"
        if r["critical_hit"]:
            verdict += " (critical hit)"
        if r["critical_miss"]:
            verdict += " (critical miss)"
    console.print(verdict)


def _generic_text(console: Any, r: dict[str, Any]) -> None:
    from rich.markup import escape

    for key, value in r.items():
        if key in ("explanation", "rolls_used"):
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        console.print(f"[bold]{escape(str(key))}[/bold]: {escape(str(text))}")


#: result kind -> text renderer ``(console, result) -> None``.
TEXT_RENDERERS: dict[str, Callable[[Any, dict[str, Any]], None]] = {
    "check": _test_text,
    "attack": _test_text,
    "save": _test_text,
}
