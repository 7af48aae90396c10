"""One-line texts of a turn's parts for the HTML report
(:mod:`linguo_cli.rulesets.linguomancy.report_html`): what a step did with
its numbers (:func:`step_text`), how an entity changed (:func:`change_text`)
and what happened at the start of a turn (:func:`turn_start_text`).

Read from the plain ``turn`` result (``--json``); plain text, escaped by the
page. No rule is applied here: the numbers are those the result holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def _event(text: Any) -> str:
    """An event name as words: ``flux_regenerates:+1`` -> ``flux regenerates +1``."""
    return str(text).replace("_", " ").replace(":", " ")


def _faces(roll: Mapping[str, Any]) -> str:
    """The kept faces of a roll as ``[4, 5]``."""
    return "[" + ", ".join(str(f.get("face")) for f in roll.get("faces") or []
                           if f.get("kept", True)) + "]"


def d20_text(test: Mapping[str, Any], names: Mapping[str, str], *, against: str = "") -> str:
    """A d20 test: ``d20 13 +2 = 15 vs AC 11: success, hit``."""
    if test.get("natural") is None:
        return f"{test.get('kind', 'test')}: {_event(test.get('degree') or 'automatic')}"
    who = test.get("entity")
    head = f"{test.get('kind', 'test')}" + (f" ({names.get(who, who)})" if who else "")
    target = test.get("target")
    against = against or ("AC " if test.get("kind") == "attack" else "DC ")
    versus = f" vs {against}{target}" if target is not None else ""
    outcome = _event(test.get("degree", ""))
    if "hit" in test:
        outcome += ", hit" if test["hit"] else ", miss"
        if test.get("critical_hit"):
            outcome += " (critical)"
    return (f"{head}: d20 {test['natural']} {int(test.get('modifier_total') or 0):+d} = "
            f"{test.get('total')}{versus}: {outcome}")


def amount_text(amount: Mapping[str, Any], what: str) -> str:
    """Rolled damage or healing: ``2d6+1 [4, 5] = 12 damage``."""
    dice = amount.get("rolled_dice") or amount.get("dice") or ""
    faces = _faces(amount) if amount.get("faces") else ""
    return f"{dice} {faces} = {amount.get('amount')} {what}".replace("  ", " ").strip()


def _attack(step: Mapping[str, Any], names: Mapping[str, str]) -> str:
    target = step.get("target")
    text = f"attacks {names.get(target, target)}" if target else "attacks"
    if isinstance(step.get("attack"), Mapping):
        text += "; " + d20_text(step["attack"], names, against="AC ")
    if isinstance(step.get("damage"), Mapping):
        text += "; " + amount_text(step["damage"], "damage")
    return text


def _cast(step: Mapping[str, Any], names: Mapping[str, str]) -> str:
    cast = step.get("cast") or {}
    text = f"casts {step.get('idiom') or cast.get('idiom')}"
    if cast.get("upcast"):
        text += f" upcast +{cast['upcast']}"
    if "flux_before" in cast:
        text += f" (Flux {cast['flux_before']} -> {cast.get('flux_after')}"
        text += ", overclocked)" if cast.get("overclocked") else ")"
    for test in cast.get("tests") or []:
        text += "; " + d20_text(test, names)
    amount = cast.get("amount")
    if isinstance(amount, Mapping):
        healing = any("healing" in r for r in (cast.get("entities") or {}).values())
        text += "; " + amount_text(amount, "healing" if healing else "damage")
    return text


def _named(verb: str) -> Callable[[Mapping[str, Any], Mapping[str, str]], str]:
    """A step text of its verb and the event's argument (``drops staff``)."""
    def text(step: Mapping[str, Any], names: Mapping[str, str]) -> str:
        args = [str(e).split(":", 1)[1] for e in step.get("events") or [] if ":" in str(e)]
        return f"{verb} {args[0]}" if args else verb
    return text


def _move(step: Mapping[str, Any], names: Mapping[str, str]) -> str:
    return _named("moves")(step, names) + f" m (costs {step.get('cost')} m)"


_TEXTS: dict[str, Callable[[Mapping[str, Any], Mapping[str, str]], str]] = {
    "move": _move,
    "stand_up": lambda s, n: f"stands up (costs {s.get('cost')} m)",
    "drop_prone": lambda s, n: "drops prone",
    "attack": _attack,
    "cast": _cast,
    "action": lambda s, n: f"{s.get('name')} ({s.get('cost_class')} action)",
    "reaction": lambda s, n: f"{n.get(str(s.get('entity')), s.get('entity'))} reacts",
    "hold": _named("holds"),
    "drop": _named("drops"),
    "stop_maintaining": _named("stops maintaining"),
    "end_turn": lambda s, n: "ends the turn",
}


def step_text(step: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """What a step did, with its dice and totals (``names``: entity id to
    display name); a step kind without its own text: the kind and events."""
    text = _TEXTS.get(str(step.get("kind")))
    if text is not None:
        return text(step, names)
    events = ", ".join(_event(e) for e in step.get("events") or [])
    return f"{_event(step.get('kind'))}" + (f": {events}" if events else "")


def change_text(name: str, report: Mapping[str, Any], *, quiet: bool = False) -> str:
    """How a report's ``before`` and ``after`` differ in HP, temporary HP and
    status: ``ogre: HP 22 -> 10``; when none did, ``name: HP 5 unchanged``,
    or ``""`` when ``quiet``."""
    before, after = report.get("before") or {}, report.get("after") or {}
    parts = []
    for key, label in (("hp", "HP"), ("temp_hp", "temporary HP")):
        if key in after and after[key] != before.get(key):
            parts.append(f"{label} {before.get(key)} -> {after[key]}")
    if after.get("dead") and not before.get("dead"):
        parts.append("dies")
    if not parts:
        return "" if quiet else f"{name}: HP {after.get('hp', before.get('hp'))} unchanged"
    return f"{name}: " + ", ".join(parts)


def turn_start_text(start: Mapping[str, Any]) -> str:
    """The start of a turn: its death save (``death save d20 11: success``)
    and its events, or ``nothing happens``."""
    parts = []
    save = start.get("death_save")
    if isinstance(save, Mapping) and save.get("natural") is not None:
        parts.append(f"death save d20 {save['natural']}: {_event(save.get('outcome'))}")
    parts += [_event(e) for e in start.get("events") or []
              if not (parts and str(e).startswith("death_save"))]
    return ", ".join(parts) or "nothing happens"
