"""Renderers: a result to JSON or to human text (Rich).

The JSON is the result of :func:`linguo_cli.rulesets.linguomancy.requests.resolve`
made plain by :func:`linguo_cli.core.results.to_plain` in :func:`emit` (the
one JSON boundary; dict results of kinds not typed yet are printed as they
are), with exact numbers (fractions are strings such as ``"21/2"``). The text
view reads the typed result, puts the outcome first and, with ``explain``,
every derivation step with its rule ID. Rich is imported only when text is
rendered.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TextIO

from linguo_cli.core.results import to_plain

if TYPE_CHECKING:
    from linguo_cli.rulesets.linguomancy.amounts import Amount
    from linguo_cli.rulesets.linguomancy.checks import TestResult
    from linguo_cli.rulesets.linguomancy.damage import DeathSaveResult, TempHpResult
    from linguo_cli.rulesets.linguomancy.dice_request import DiceResult
    from linguo_cli.rulesets.linguomancy.flux import CastResult
    from linguo_cli.rulesets.linguomancy.hp import Change
    from linguo_cli.rulesets.linguomancy.odds import OddsResult
    from linguo_cli.rulesets.linguomancy.overclock import Consequence, OverclockResult
    from linguo_cli.rulesets.linguomancy.rest import RestResult
    from linguo_cli.rulesets.linguomancy.ticks import TicksResult
    from linguo_cli.rulesets.linguomancy.turn_results import TurnResult

_DEGREE_STYLE = {
    "critical_failure": "bold white on red",
    "failure": "bold red",
    "partial_failure": "red",
    "partial_success": "yellow",
    "success": "bold green",
    "critical_success": "bold black on green",
}

_KIND_TITLE = {"check": "Ability check", "attack": "Attack roll", "save": "Saving throw"}
_TARGET = {"check": "DC", "attack": "AC", "save": "save DC"}


def to_json(result: Any) -> str:
    """The result as pretty, stable JSON text (keys in result order); a typed
    result is made plain by :func:`linguo_cli.core.results.to_plain` first."""
    plain = result if isinstance(result, (dict, list)) else to_plain(result)
    return json.dumps(plain, indent=2, ensure_ascii=False)


def emit(result: Any, *, as_json: bool, explain: bool, out: TextIO | None = None,
         table: bool = False) -> None:
    """Print ``result`` (a typed result, or a dict for kinds not typed yet)
    on stdout: JSON, or the text view (with steps when ``explain``). A typed
    result becomes JSON here, through :func:`linguo_cli.core.results.to_plain`;
    its text renderer reads the typed result. ``table``: kind ``turn`` as
    tables instead of the narrative log (:func:`turn_text`)."""
    import sys

    from linguo_cli.core.results import to_plain

    stream = out or sys.stdout
    plain: dict[str, Any] = result if isinstance(result, dict) else to_plain(result)
    if as_json:
        stream.write(to_json(plain) + "\n")
        return
    kind = str(plain.get("kind"))
    console = text_console(stream, plain=kind not in RICH_KINDS)
    if kind == "turn":
        turn_text(console, plain, explain=explain, table=table)
        return
    if kind in TYPED_RENDERERS and not isinstance(result, dict):
        TYPED_RENDERERS[kind](console, result)
    else:
        renderer = TEXT_RENDERERS.get(kind)
        if renderer is None:
            _generic_text(console, plain)
        else:
            renderer(console, result)
    if explain:
        explain_lines(console, plain.get("explanation") or [])
    rolls = plain.get("rolls_used")
    if rolls:
        console.print(f"[dim]replay with --rolls {','.join(str(r) for r in rolls)}[/dim]")


#: Kinds whose text view lays out tables with Rich (never the plain writer).
RICH_KINDS = frozenset({"odds", "ticks"})


def _rich_console(stream: TextIO) -> Any:
    """Rich's console for the text views: no highlighting, no wrapping."""
    from rich.console import Console

    return Console(file=stream, highlight=False, soft_wrap=True)


def text_console(stream: TextIO, *, plain: bool = True) -> Any:
    """The console a text view prints to: with ``plain``, a
    :class:`~linguo_cli.core.textout.PlainConsole` when Rich would print no
    escape codes on ``stream`` (same bytes, without importing Rich), else
    Rich's console."""
    if plain:
        from linguo_cli.core.textout import plain_console

        found = plain_console(stream, lambda: _rich_console(stream))
        if found is not None:
            return found
    return _rich_console(stream)


def print_line(console: Any, line: str, style: str = "") -> None:
    """Print ``line`` as written (no markup), in ``style`` on a terminal."""
    from linguo_cli.core.textout import PlainConsole

    if isinstance(console, PlainConsole):
        console.print_text(line, style)
        return
    from rich.text import Text

    console.print(Text(line, style=style), soft_wrap=True)


def explain_lines(console: Any, steps: list[dict[str, str]], indent: str = "  ") -> None:
    """Print derivation steps as ``[RULE] text`` lines."""
    from linguo_cli.core.textout import escape

    for s in steps:
        console.print(f"{indent}[cyan]\\[{escape(s['rule'])}][/cyan] {escape(s['text'])}")


def degree_markup(label: str) -> str:
    """Rich markup that makes a degree stand out, e.g. ``[bold green]Success[/]``."""
    title = label.replace("_", " ").title()
    return f"[{_DEGREE_STYLE.get(label, 'bold')}] {title} [/]"


def _test_text(console: Any, r: TestResult) -> None:
    """Kinds check, attack, save: the roll against its target, then the
    degree (and its D5 shift) and the outcome."""
    from linguo_cli.core.textout import escape

    kind = r.kind.value
    title = _KIND_TITLE.get(kind, kind)
    if r.natural is None:
        line = f"{title}: no die rolled"
    else:
        faces = [f["face"] for f in r.faces]
        dice = f"d20 {faces[0]}" if len(faces) == 1 else (
            f"d20 {faces[0]} and {faces[1]}, kept {r.natural}")
        mods = "".join(f" {'+' if m.value >= 0 else '-'} {abs(m.value)} {escape(m.label)}"
                       for m in r.modifiers)
        assert r.margin is not None
        line = (f"{title}: {dice}{mods} = [bold]{r.total}[/bold] vs {_TARGET[kind]} "
                f"{r.target} (margin {r.margin:+d})")
    console.print(line)
    verdict = degree_markup(r.degree.label)
    if r.unadjusted_degree != r.degree:
        shift = "natural 20" if r.shift == "natural_20" else "natural 1"
        verdict += f"  (from {r.unadjusted_degree.label.replace('_', ' ')} by {shift})"
    if kind == "attack":
        verdict += "  [bold]HIT[/bold]" if r.hit else "  [bold]MISS[/bold]"
        if r.critical_hit:
            verdict += " (critical hit)"
        if r.critical_miss:
            verdict += " (critical miss)"
    else:  # D1/S1 rev. 2: the outcome is the degree's, as in ``success``
        verdict += "  [bold]SUCCEEDS[/bold]" if r.success else "  [bold]FAILS[/bold]"
    console.print(verdict)


def _generic_text(console: Any, r: dict[str, Any]) -> None:
    from linguo_cli.core.textout import escape

    for key, value in r.items():
        if key in ("explanation", "rolls_used"):
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        console.print(f"[bold]{escape(str(key))}[/bold]: {escape(str(text))}")


def turn_text(console: Any, r: TurnResult | dict[str, Any], *, explain: bool, table: bool
              ) -> None:
    """Kind ``turn`` as text: the narrative log (default,
    :mod:`.turn_log`) or, with ``table``, one table per turn
    (:mod:`.turn_table`); with ``explain`` the rule IDs and the derivation;
    then the replay line. Every line fits the width of the console's file
    (:func:`linguo_cli.core.textfit.output_width`: ``COLUMNS`` when set,
    else its terminal's, else 80) without a word broken. Reads the result's
    JSON form, as ``--json`` prints it."""
    from linguo_cli.core.textfit import output_width
    from linguo_cli.rulesets.linguomancy import turn_log, turn_table

    plain = r if isinstance(r, dict) else to_plain(r)
    width = output_width(console.file)
    lines = (turn_table.table_lines(plain, width) if table
             else turn_log.log_lines(plain, width, explain))
    for line in lines + turn_log.tail_lines(plain, width, explain):
        style = "bold" if line.startswith(("Round ", "Turn ")) else ""
        print_line(console, line, style)


def amount_text(r: Amount) -> str:
    """A damage or healing amount (a typed :class:`Amount`) with its parts
    (T4, T5, T7), e.g. ``2d6 [3, 5] = 8 + potential +3 x 1 = 11 (moderate,
    fire)``; dropped faces are marked ``x``."""
    from linguo_cli.core.textout import escape

    if r.full_restoration or r.amount is None:
        return f"full restoration to max HP ({r.tick})"
    parts = []
    if r.rolled_dice:
        faces = ", ".join(str(f["face"]) + ("" if f["kept"] else "x") for f in r.faces)
        parts.append(f"{r.rolled_dice} [{faces}] = {r.dice_total}")
    if r.multiplier and r.ability_modifier:
        parts.append(f"{r.ability} {r.ability_modifier:+d} x {r.multiplier}")
    parts.extend(f"{escape(m.label)} {m.value:+d}" for m in r.modifiers)
    what = " + ".join(parts) or f"{r.amount} HP given"
    extra = [r.tick] + (["critical hit"] if r.critical else [])
    if r.damage_type:
        extra.append(str(r.damage_type))
    total = "" if not parts or (len(parts) == 1 and r.rolled_dice
                                and r.amount == r.dice_total) else f" = [bold]{r.amount}[/bold]"
    return f"{what}{total} ({', '.join(extra)})"


def _resistance_note(rep: Change) -> str:
    """``", vulnerable: 7 -> 14"`` when resistance, vulnerability or immunity
    changed the damage an entity took (R1-R3), else ``""``."""
    from linguo_cli.rulesets.linguomancy.hp import DamageChange

    if not isinstance(rep, DamageChange) or rep.damage == rep.damage_after_resistance:
        return ""
    dealt, after = rep.damage, rep.damage_after_resistance
    how = ("immune" if after == 0 else "vulnerable" if after > dealt else "resistant"
           if after * 2 <= dealt else "resistant and vulnerable")
    return f", {how}: {dealt} -> {after}"


def _hp_head(console: Any, r: Amount | TempHpResult | DeathSaveResult) -> None:
    """The first line(s) of a damage, heal, temp_hp or death_save result."""
    from linguo_cli.core.textout import escape
    from linguo_cli.rulesets.linguomancy.amounts import Amount
    from linguo_cli.rulesets.linguomancy.damage import TempHpResult

    if isinstance(r, Amount):
        word = "Damage" if r.kind == "damage" else "Healing"
        console.print(f"{word}: {amount_text(r)}")
        for w in r.warnings:
            console.print(f"[yellow]warning:[/yellow] {escape(w)}")
    elif isinstance(r, TempHpResult):
        console.print(f"Temporary HP: {r.amount} granted (keep {r.keep})")
    else:
        console.print(f"Death saving throw: d20 {r.natural}: {r.outcome.replace('_', ' ')}")


def _hp_text(console: Any, r: Amount | TempHpResult | DeathSaveResult) -> None:
    """Damage, heal, temp_hp, death_save (typed results): the amount and its
    parts, then one line per entity touched (HP before -> after, events)."""
    from linguo_cli.core.textout import escape

    _hp_head(console, r)
    for eid, rep in (r.entities.items() if isinstance(r.entities, Mapping) else ()):
        b, a = rep.before, rep.after
        text = f"  {escape(eid)}: HP {b['hp']} -> {a['hp']}/{a['max_hp']}"
        text += _resistance_note(rep)
        if b["temp_hp"] or a["temp_hp"]:
            text += f", temp HP {b['temp_hp']} -> {a['temp_hp']}"
        ds = a["death_saves"]
        if ds["successes"] or ds["failures"]:
            text += f", death saves {ds['successes']} ok / {ds['failures']} failed"
        if rep.events:
            text += "  [bold]" + escape(", ".join(rep.events)) + "[/bold]"
        console.print(text)


def _bar(p: Any, width: int = 32) -> str:
    """A horizontal bar of ``width`` cells for a probability, in eighths of a cell."""
    from fractions import Fraction

    eighths = round(Fraction(p) * width * 8)
    return "█" * (eighths // 8) + ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")[eighths % 8]


def _approx(text: str) -> str:
    """``"49/16"`` -> ``"49/16 (about 3.06)"`` (display only; the fraction is exact)."""
    from fractions import Fraction

    value = Fraction(text)
    if value.denominator == 1:
        return text
    hundredths = round(value * 100)
    sign = "-" if hundredths < 0 else ""
    return f"{text} (about {sign}{abs(hundredths) // 100}.{abs(hundredths) % 100:02d})"


def _odds_text(console: Any, r: OddsResult) -> None:
    """Exact odds: a bar chart of the six degrees (best first), then hit,
    critical hit and critical miss for attacks, then expected damage."""
    from rich.table import Table

    from linguo_cli.core.distribution import expected, fraction_text
    from linguo_cli.core.textout import escape

    t = r.test
    kind = t.kind.value
    title = _KIND_TITLE.get(kind, kind)
    if t.dice is None:
        what = ("no AC: automatic hit, no die" if t.automatic == "no_ac"
                else "no ability score: automatic failure, no die")
    else:
        mods = "".join(f" {'+' if m.value >= 0 else '-'} {abs(m.value)} "
                       f"{escape(m.label)}" for m in t.modifiers)
        what = f"{t.dice}{mods} vs {_TARGET[kind]} {t.target}"
    console.print(f"[bold]{title} odds[/bold]: {what}")
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column()
    table.add_column()
    table.add_column(justify="right")
    table.add_column(justify="right")
    for label in reversed(list(r.degrees)):
        p = r.degrees[label].__json__()
        table.add_row(degree_markup(label), f"[{_DEGREE_STYLE.get(label, 'bold')}]"
                      f"{_bar(p['probability'])}[/]", f"{p['percent']}%", p["probability"])
    console.print(table)
    s = r.success.__json__()
    console.print(f"Success (success or critical success, D1): {s['percent']}% "
                  f"({s['probability']})")
    if kind == "attack":
        chances = ((r.hit, "Hit"), (r.critical_hit, "critical hit"),
                   (r.critical_miss, "critical miss"))
        console.print("  ".join(
            f"{name}: [bold]{c.__json__()['percent']}%[/bold] ({c.__json__()['probability']})"
            for c, name in chances if c))
    d = r.damage
    if d:
        parts = [d.expression.text(), f"Potential {d.potential:+d} x {d.tick.multiplier}"]
        parts += [f"{escape(m.label)} {m.value:+d}" for m in d.modifiers]
        flags = [w for w, on in (("immune", d.immune), ("resistant", d.resistant),
                                 ("vulnerable", d.vulnerable)) if on]
        console.print(f"[bold]Damage[/bold] ({d.tick.name} tick{', ' if flags else ''}"
                      f"{', '.join(flags)}): {' + '.join(parts)}; critical hit "
                      f"{d.expression.doubled().text()}")
        console.print(
            f"Expected damage per attack: [bold]{_approx(fraction_text(expected(d.per_attack)))}"
            f"[/bold]; on a hit {_approx(fraction_text(expected(d.on_hit)))}, on a critical "
            f"hit {_approx(fraction_text(expected(d.on_critical_hit)))}; range "
            f"{min(d.per_attack)}-{max(d.per_attack)}")
        if d.show_distribution:
            dist = Table(box=None, show_header=False, pad_edge=False)
            dist.add_column(justify="right")
            dist.add_column()
            dist.add_column(justify="right")
            dist.add_column(justify="right")
            for row in d.as_dict()["distribution"]:
                dist.add_row(str(row["amount"]), _bar(row["probability"]),
                             f"{row['percent']}%", row["probability"])
            console.print(dist)
    for w in r.warnings or ():
        console.print(f"[yellow]warning:[/yellow] {escape(w)}")


def _ticks_text(console: Any, r: TicksResult) -> None:
    """Tick design: expected value and conforming ticks, then suggestions."""
    from rich.table import Table

    from linguo_cli.core.textout import escape
    from linguo_cli.rulesets.linguomancy.ticks import get_tick

    def titles(names: tuple[str, ...], healing: bool) -> str:
        return ", ".join(f"{(t := get_tick(n, healing)).title} ({t.range_text()})"
                         for n in names) or "none"

    if r.dice and isinstance(r.damage_ticks, tuple) and isinstance(r.healing_ticks, tuple):
        assert isinstance(r.expected_value, str)
        console.print(f"[bold]{escape(r.dice)}[/bold]: expected value "
                      f"[bold]{_approx(r.expected_value)}[/bold], minimum {r.minimum}, "
                      f"maximum {r.maximum}")
        console.print(f"Damage ticks: {titles(r.damage_ticks, False)}")
        console.print(f"Healing ticks: {titles(r.healing_ticks, True)}")
    if r.tick:
        t = r.tick
        console.print(f"[bold green]Conforms[/bold green] to the {t.title} "
                      f"{'healing' if t.healing else 'damage'} tick ({t.range}, "
                      f"multiplier {t.multiplier})")
    s = r.suggestions
    if s:
        table_name = "healing" if s.tick.healing else "damage"
        console.print(f"[bold]Dice for the {s.tick.title} "
                      f"{table_name} tick[/bold] ({s.tick.range_text()}): {escape(s.note)}")
        table = Table(box=None, pad_edge=False)
        for col in ("dice", "expected", "min", "max", "off by"):
            table.add_column(col, justify="left" if col == "dice" else "right")
        for d in s.dice:
            row = d.as_dict()
            table.add_row(row["dice"], row["expected_value"], str(row["minimum"]),
                          str(row["maximum"]), row["distance"])
        if s.dice:
            console.print(table)


def _consequence_line(c: Consequence | OverclockResult) -> str:
    """One line for an overclocking consequence (F4, F5), typed."""
    parts = [g.name + ("" if g.turns is None else f" for {g.turns} turn(s)")
             for g in c.conditions]
    if c.exhaustion_gained:
        parts.append(f"Exhaustion {c.exhaustion_before} -> {c.exhaustion_after}")
    if c.dead:
        cause = c.death.cause if c.death is not None else None
        resurrection = c.death.resurrection if c.death is not None else None
        parts.append("[bold red]DIES[/bold red] (" + str(cause or "").replace("_", " ")
                     + (f", resurrection {resurrection.replace('_', ' ')}"
                        if resurrection else "") + ")")
        ended = [e.split(":", 1)[1] for e in c.events if e.startswith("condition_ends:")]
        if ended:  # H10: a death ends every condition
            parts.append("every condition ends: " + ", ".join(ended))
    return ", ".join(parts) or "nothing"


def _cast_head(console: Any, r: CastResult) -> None:
    """Who casts what, its cost and cap (F1, F3), Flux (F4), Adjectives and
    Hand points (P5, P6), the save DC (S3)."""
    from linguo_cli.core.textout import escape

    sample = " (sample idiom)" if r.sample else ""
    console.print(f"[bold]{escape(r.caster)}[/bold] casts [bold]{escape(r.idiom)}"
                  f"[/bold]{sample}: cost {r.base_cost}"
                  + (f" + upcast {r.upcast} = {r.final_cost}" if r.upcast else "")
                  + f" (cap {r.cap}: {', '.join(r.cap_set_by)}"
                  + ("" if r.cap_applies else ", not applied without upcast") + ")")
    line = f"Flux {r.flux_before} -> {r.flux_after}"
    if r.overclocked:
        line += f"  [bold yellow]OVERCLOCKED[/bold yellow], {r.missing} missing"
    console.print(line)
    for a in r.adjectives:
        console.print(f"Adjective {escape(a.name)}: {escape(a.effect)} (not enforced)")
    if r.hands_free is not None:
        console.print(f"Hand points: {r.hands_free} free, the cast takes {r.hand_cost}")
    if r.maintained:
        console.print(f"maintained (Hand cost {r.hand_cost} at the start of each later turn)")
    elif r.not_maintained:
        console.print(f"[yellow]not maintained:[/yellow] {escape(r.not_maintained)}")
    if r.save_dc is not None:
        console.print(f"save DC {r.save_dc}")


def _cast_test_line(r: CastResult, t: Mapping[str, Any]) -> str:
    """One d20 test of a cast: the die, modifiers and total, the degree and
    what it did (hit or miss; saves or fails, with the effect left)."""
    from linguo_cli.core.textout import escape

    if t["natural"] is None:
        what = "no die rolled"
    else:
        mods = "".join(f" {'+' if m['value'] >= 0 else '-'} {abs(m['value'])} "
                       f"{escape(m['label'])}" for m in t.get("modifiers") or [])
        what = f"d20 {t['natural']}{mods} = {t['total']} vs {t['target']}"
    verdict = degree_markup(t["degree"])
    if t["kind"] == "attack":
        verdict += "  HIT" if t.get("hit") else "  MISS"
    elif t["kind"] == "save":
        record = r.entities.get(t["entity"])
        test = getattr(record, "test", None)
        effect = getattr(test, "effect", None)
        verdict += ("  SAVES" if t.get("success") else "  FAILS") + (
            f" ({effect} effect)" if effect else "")
    return f"  {t['kind']} on {escape(t['entity'])}: {what} {verdict}"


def _cast_text(console: Any, r: CastResult) -> None:
    """A cast (typed): head, tests, amount, check bonus, each entity's
    changes and events, the overclocking consequence, notes."""
    from linguo_cli.core.results import OMIT
    from linguo_cli.core.textout import escape

    _cast_head(console, r)
    for t in r.tests:
        console.print(_cast_test_line(r, t))
    if r.amount:
        word = "healing" if r.amount.full_restoration is not OMIT else "damage"
        console.print(f"  {word}: {amount_text(r.amount)}")
    if r.check_bonus:
        console.print(f"  {r.check_bonus.value:+d} to {escape(r.check_bonus.applies_to)}")
    for eid, e in r.entities.items():
        b, a = e.before, e.after
        changes = [f"{k} {b[k]} -> {a[k]}" for k in ("hp", "flux", "exhaustion")
                   if b.get(k) != a.get(k)]
        events = ", ".join(e.events)
        console.print(f"  {escape(eid)}: {escape('; '.join(changes) or 'no change')}"
                      + (f"  \\[{escape(events)}]" if events else ""))
    if r.consequence:
        console.print("Overclocking: " + _consequence_line(r.consequence))
    for n in r.notes:
        console.print(f"[yellow]note:[/yellow] {escape(n)}")


def _overclock_text(console: Any, r: OverclockResult) -> None:
    from linguo_cli.core.textout import escape

    console.print(f"cost {r.cost} with {r.flux_before} Flux: "
                  + (f"{r.missing} missing" if r.overclocked else "no overclocking needed"))
    if r.overclocked and r.row is not None:
        console.print(f"row {r.missing}: {escape(r.row.text)}")
        console.print("effect: " + _consequence_line(r))
    for n in r.notes:
        console.print(f"[yellow]note:[/yellow] {escape(n)}")


def _rest_text(console: Any, r: RestResult) -> None:
    """Rest (H9): its length, then one line per resting entity (what changed,
    events) and one per entity skipped with its reason."""
    from linguo_cli.core.textout import escape

    reasons = {"dead": "dead", "dying": "Dying", "stable": "Stable at 0 HP"}
    console.print(f"{'Long' if r.long else 'Short'} rest: {len(r.resting)} resting"
                  + (f", {len(r.skipped)} skipped" if r.skipped else ""))
    for eid, rep in r.entities.items():
        b, a = rep["before"], rep["after"]
        changes = [f"{label} {b[k]} -> {a[k]}" + (f"/{a[top]}" if top else "")
                   for k, label, top in (("hp", "HP", "max_hp"), ("temp_hp", "temp HP", ""),
                                         ("flux", "Flux", "flux_max"),
                                         ("exhaustion", "Exhaustion", ""))
                   if b[k] != a[k]]
        ended = rep.get("conditions_ended") or []
        if ended:
            changes.append("ends " + ", ".join(ended))
        others = [ev for ev in rep.get("events") or []
                  if ev != "temp_hp_ends" and not ev.startswith("condition_ends:")]
        console.print(f"  {escape(eid)}: {escape('; '.join(changes) or 'no change')}"
                      + ("  [bold]" + escape(", ".join(others)) + "[/bold]" if others else ""))
    for eid, why in r.skipped.items():
        console.print(f"  {escape(eid)}: does not rest ({reasons.get(why, why)}, H9)")


def _dice_text(console: Any, r: DiceResult) -> None:
    """Kind ``dice``: total, faces with their marks, exact odds."""
    from linguo_cli.core.textout import escape
    from linguo_cli.rulesets.linguomancy.dice_request import face_text

    console.print(f"[bold]{escape(r.expression)}[/bold] = [bold]{r.total}[/bold]"
                  + (f"  [{escape(', '.join(r.labels))}]" if r.labels else ""))
    if r.faces:
        console.print("faces: " + escape(", ".join(face_text(f) for f in r.faces)))
    console.print(f"expected value {_approx(r.expected_value)}, minimum {r.minimum}, "
                  f"maximum {r.maximum}")
    for row in r.distribution or ():
        console.print(f"  {row.total:>6}  {row.probability:>14}  {row.percent:>6}%")
    if r.truncated_mass and r.truncated_mass != "0":
        console.print(f"mass beyond the explosion bound: {r.truncated_mass}")


#: result kind -> text renderer ``(console, result) -> None``.
TEXT_RENDERERS: dict[str, Callable[[Any, Any], None]] = {
    "check": _test_text,
    "attack": _test_text,
    "save": _test_text,
    "damage": _hp_text,
    "heal": _hp_text,
    "temp_hp": _hp_text,
    "death_save": _hp_text,
    "odds": _odds_text,
    "ticks": _ticks_text,
    "cast": _cast_text,
    "overclock": _overclock_text,
    "rest": _rest_text,
    "dice": _dice_text,
}

#: result kind -> text renderer reading the kind's typed result.
TYPED_RENDERERS: dict[str, Callable[[Any, Any], None]] = {
    "turn": lambda console, r: turn_text(console, r, explain=False, table=False),
}
