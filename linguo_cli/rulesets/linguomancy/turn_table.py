"""The table view of a ``turn`` result (``linguo turn --table``).

One table per turn under a ``Round N`` heading where each round starts (O1)
and every entity's HP at the end of each round: a row for the start of the
turn, one per step and one for its end, each with what the step spent
(action points, metres), what the actor has left (action points, metres,
free Hand points, Flux, HP, reaction; P1-P6, F2) and its events in words.
A step that changes another entity's HP names it with its HP before ->
after (an attack's target, a cast's targets). A dead entity's row shows
``dead`` for HP and ``-`` for the resources it can no longer use. The end
row shows 0 action points: unspent ones are lost (P1).

Read from the result's JSON form (shape in ``golden/README.md``, "turn");
lines fit the width without breaking words
(:func:`linguo_cli.core.textfit.fit_table`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linguo_cli.core.textfit import fit_table, wrap
from linguo_cli.rulesets.linguomancy.turn_log import Context, Tracker, event_text

Plain = Mapping[str, Any]

HEADERS = ("#", "step", "AP", "m", "AP left", "m left", "hands", "flux", "HP", "reaction",
           "events")
RIGHT = (True, False, True, True, True, True, True, True, True, True, False)


#: Events the step column already says (``moves:4`` of a move, ``casts`` of a cast...).
_SAID = ("moves", "action", "attacks", "casts", "ends_turn", "drops", "holds", "reaction",
         "stops_maintaining", "stands_up", "drops_prone")


def _label(s: Plain) -> str:
    """The step column: ``move``, ``attack ayla``, ``cast Hurl - Fire``, ``drop staff``."""
    kind = str(s.get("kind"))
    what = s.get("name") or s.get("idiom") or s.get("target") or s.get("entity")
    if not what and kind in ("drop", "hold", "stop_maintaining"):
        what = next((e.split(":", 1)[1] for e in s.get("events") or () if ":" in e), None)
    return kind.replace("_", " ") + (f" {what}" if what else "")


def _hp_changes(s: Plain, c: Context) -> list[str]:
    """``ogre HP 22 -> 10`` for each other entity whose HP the step changed
    (the tracker follows them, the actor too)."""
    records: dict[str, Plain] = {}
    if s.get("target_report"):
        records[str(s.get("target"))] = s["target_report"]
    records.update((s.get("cast") or {}).get("entities") or {})
    out = []
    for eid, rec in records.items():
        before, after = rec.get("before") or {}, rec.get("after") or {}
        c.tracker.see(eid, after)
        if eid != c.actor and before.get("hp") != after.get("hp"):
            out.append(f"{eid} HP {before.get('hp')} -> {after.get('hp')}")
    return out


def _row(num: str, label: str, left: Plain, c: Context, events: list[str],
         spent: tuple[str, str] = ("", "")) -> list[str]:
    """One row: the actor's resources left, ``-`` where a dead entity has none."""
    v = c.tracker.vitals.get(c.actor)
    dead = v is not None and v.dead
    hp = "" if v is None else "dead" if dead else (
        f"{v.hp}+{v.temp_hp}" if v.temp_hp else str(v.hp))
    res = ["-"] * 4 if dead else [
        str(left["movement"]), str(left["hands_free"]), str(left["flux"]),
        "yes" if left["reaction_available"] else "no"]
    return [num, label, *spent, str(left["action_points"]), res[0], res[1], res[2], hp, res[3],
            ", ".join(events)]


def turn_rows(turn: Plain, c: Context) -> list[list[str]]:
    """The rows of one turn: start, each step, end."""
    start = turn["start"]
    if start.get("death_save"):
        c.tracker.see(c.actor, start["death_save"].get("after") or {})
    rows = [_row("", "start of turn", start["remaining"], c,
                 [event_text(e, c.ids) for e in start.get("events") or ()])]
    for s in turn.get("steps") or ():
        changes = _hp_changes(s, c)
        events = [event_text(e, c.ids) for e in s.get("events") or ()
                  if e.partition(":")[0] not in _SAID]
        rows.append(_row(str(s["step"]), _label(s), s["remaining"], c,
                         events + changes, (str(s["action_points"]), str(s["movement"]))))
    rows.append(_row("", "end of turn", turn["remaining"], c,
                     [event_text(e, c.ids) for e in turn["end"].get("events") or ()]))
    return rows


def table_lines(result: Plain, width: int) -> list[str]:
    """The table view of a ``turn`` result's JSON form as lines of at most
    ``width`` characters (no word broken; a token longer than the width on a
    line of its own)."""
    tracker = Tracker(result)
    ids = frozenset(str(e["id"]) for e in result["state"]["entities"])
    out = wrap(f"Before: {tracker.summary()}.", width, hang="  ")
    current = None
    for turn in result["turns"]:
        if turn["round"] != current:
            if current is not None:
                out += wrap(f"End of round {current}: {tracker.summary()}.", width, hang="  ")
            out += ["", f"Round {turn['round']}"]
            current = turn["round"]
        c = Context(str(turn["entity"]), ids, tracker)
        title = (f"Turn {turn['turn']}: {c.actor} (round {turn['round']})"
                 + (" (check only)" if result.get("check") else ""))
        out += wrap(title, width)
        out += fit_table(HEADERS, turn_rows(turn, c), width, RIGHT, comfort=14)
    if current is not None:
        out += wrap(f"After turn {result['turns'][-1]['turn']} (round {current}): "
                    f"{tracker.summary()}.", width, hang="  ")
    return out
