"""The narrative log of a ``turn`` result: the fight as it happened, in words.

The default text view of ``linguo turn``: a ``Round N`` header where each
round starts (O1), a line per turn start (Flux regained, F2; the death
save, H6; a dead entity's missed turn), one sentence per step naming the
actor, the action, the target and the numbers (the d20 and its total
against the AC or DC with the degree, D1-D5; the damage or healing roll,
T1-T7; HP before -> after, H1-H10), what ends with the turn (C1, P1), and
every entity's HP at the end of each round. Rule IDs only with
``explain``, after each line and as the full derivation at the end.

Everything is read from the result's JSON form (:func:`linguo_cli.core.results.to_plain`;
shape in ``golden/README.md``, "turn"), so the log shows exactly what
``--json`` holds. Lines fit a width without breaking words
(:mod:`linguo_cli.core.textfit`). Entities are named by their ``id``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linguo_cli.core.textfit import wrap

Plain = Mapping[str, Any]

_TARGET = {"attack": "AC", "save": "DC", "check": "DC"}
_OUTCOME = {"hit": "hit", "miss": "miss", "critical_hit": "critical hit",
            "critical_miss": "critical miss"}


def words(name: str) -> str:
    """A rules token in words: ``falls_unconscious`` -> ``falls unconscious``."""
    return name.replace("_", " ")


def event_text(event: str, ids: Sequence[str] | frozenset[str] = (),
               subject: str | None = None) -> str:
    """An event string in words (golden/README.md, "turn", event strings):
    ``flux_regenerates:+1`` -> ``flux regenerates +1``,
    ``cole:regains_consciousness`` -> ``cole regains consciousness`` (an
    entity id from ``ids`` is kept as it is), ``condition_ends:Drained`` ->
    ``Drained ends``; the part after the colon of any other is kept verbatim
    (idiom, item and action names). ``subject``: the entity the event is
    of, named first (``ogre dies``) or last (``Prone ends on ogre``)."""
    head, sep, tail = event.partition(":")
    if sep and head in ids:
        return event_text(tail, ids, head)
    if head == "condition_ends":
        return f"{tail} ends" + (f" on {subject}" if subject else "")
    text = f"{words(head)} {tail}" if sep else words(event)
    return f"{subject} {text}" if subject else text


def signed(value: int, label: str = "") -> str:
    """`` + 2 potential`` / `` - 1 signature`` (leading space; no label: number only)."""
    return f" {'+' if value >= 0 else '-'} {abs(value)}" + (f" {label}" if label else "")


# ---------------------------------------------------------------------------
# HP followed through the script


@dataclass
class Vital:
    """What the log follows of an entity: ``hp``, ``max_hp``, ``temp_hp``,
    ``dead``, ``dying`` (holds Dying, H5), ``flux`` and ``flux_max`` (Flux points)."""

    hp: int
    max_hp: int
    temp_hp: int
    dead: bool
    dying: bool
    flux: int
    flux_max: int

    def text(self, eid: str) -> str:
        """``cole 0/12 HP (Dying)``, ``ayla 5/14 HP + 3 temporary``, ``ogre 0/22 HP (dead)``."""
        out = f"{eid} {self.hp}/{self.max_hp} HP"
        if self.temp_hp:
            out += f" + {self.temp_hp} temporary"
        return out + (" (dead)" if self.dead else " (Dying)" if self.dying else "")


class Tracker:
    """HP of the entities a script touched (``result["entities"]``, in state
    order), from their ``before`` and each before/after record the turns
    give (death saves, attacks' target reports, casts' entities)."""

    def __init__(self, result: Plain) -> None:
        touched: Plain = result.get("entities") or {}
        state_ids = [str(e["id"]) for e in result["state"]["entities"]]
        self.order = [i for i in state_ids if i in touched]
        self.vitals: dict[str, Vital] = {}
        for eid in self.order:
            b = touched[eid]["before"]
            self.vitals[eid] = Vital(int(b["hp"]), int(b["max_hp"]), int(b.get("temp_hp", 0)),
                                     bool(b.get("dead")), _dying(b), int(b.get("flux", 0)),
                                     int(b.get("flux_max", 0)))

    def see(self, eid: str, record: Plain) -> None:
        """Take an entity's ``after``-style record (``hp``, ``temp_hp``,
        ``dead``, ``conditions``, ``flux`` when given) as its present state."""
        v = self.vitals.get(eid)
        if v is None:
            return
        v.hp = int(record.get("hp", v.hp))
        v.temp_hp = int(record.get("temp_hp", v.temp_hp))
        v.dead = bool(record.get("dead", v.dead))
        v.flux = int(record.get("flux", v.flux))
        if "conditions" in record:
            v.dying = _dying(record)

    def summary(self) -> str:
        """Every followed entity's :meth:`Vital.text`, comma-separated."""
        return ", ".join(self.vitals[e].text(e) for e in self.order)


def _dying(record: Plain) -> bool:
    return any(c.get("name") == "Dying" for c in record.get("conditions") or ())


# ---------------------------------------------------------------------------
# The numbers of a step


def test_text(t: Plain) -> str:
    """A d20 test (D1-D5) in words: ``d20 13 + 2 potential = 15 vs AC 11,
    success, hit``; two dice (advantage or disadvantage) ``d20 13 and 7
    (kept 13)``; the degree's shift by a natural 20 or 1 (D5) named."""
    degree = words(str(t.get("degree")))
    faces = [f["face"] for f in t.get("faces") or ()]
    if t.get("natural") is None or not faces:
        text = f"no die rolled, {degree}"
    else:
        dice = f"d20 {faces[0]}" if len(faces) == 1 else (
            f"d20 {' and '.join(str(f) for f in faces)} (kept {t['natural']})")
        mods = "".join(signed(int(m["value"]), str(m["label"])) for m in t.get("modifiers") or ())
        text = (f"{dice}{mods} = {t['total']} vs {_TARGET.get(str(t.get('kind')), 'DC')} "
                f"{t['target']}, {degree}")
    if t.get("unadjusted_degree") not in (None, t.get("degree")):
        text += f" (raised from {words(str(t['unadjusted_degree']))} by a natural 20)" \
            if t.get("shift") == "natural_20" else \
            f" (lowered from {words(str(t['unadjusted_degree']))} by a natural 1)"
    if t.get("kind") == "attack":
        text += ", " + ("critical hit" if t.get("critical_hit") else "hit" if t.get("hit")
                        else "critical miss" if t.get("critical_miss") else "miss")
    return text


def amount_text(a: Plain, what: str) -> str:
    """A damage or healing roll (T4, T5, T7) and its result: ``2d6+1 [4, 5]
    = 10 + 2 potential = 12 damage``; a multiplied modifier as ``+ 2
    (potential 1 x 2)``; dropped faces marked ``x``; ``what``: ``damage`` or
    ``healing``."""
    if a.get("full_restoration") or a.get("amount") is None:
        return f"full restoration to max HP ({a.get('tick')} {what})"
    mult, mod = int(a.get("multiplier") or 0), int(a.get("ability_modifier") or 0)
    extras = ""
    if mult and mod:
        label = str(a.get("ability")) if mult == 1 else f"({a.get('ability')} {mod} x {mult})"
        extras = signed(mod * mult, label)
    extras += "".join(signed(int(m["value"]), str(m["label"])) for m in a.get("modifiers") or ())
    total = f"{a['amount']} {what}" + (" (critical)" if a.get("critical") else "")
    if not a.get("rolled_dice"):
        return f"{extras.strip()} = {total}" if extras else total
    faces = ", ".join(f"{f['face']}" + ("" if f.get("kept", True) else "x")
                      for f in a.get("faces") or ())
    dice = f"{a['rolled_dice']} [{faces}]"
    if extras or a.get("dice_total") != a["amount"]:
        return f"{dice} = {a['dice_total']}{extras} = {total}"
    return f"{dice} = {total}"


def change_text(eid: str, rec: Plain, ids: frozenset[str], dealt: Plain | None = None,
                rolled: Any = None) -> str:
    """What happened to one entity: ``ogre 22 -> 10 HP``, with the damage
    resistance changed (R1-R3), temporary HP absorbed (H2) and its events
    (``ogre dies``, ``cole regains consciousness``); ``rolled``: the damage
    rolled, when the entity may have taken a part of it (a save's half)."""
    before, after = rec.get("before") or {}, rec.get("after") or {}
    bits = _dealt_bits(eid, dealt, rolled) if dealt is not None else []
    if before.get("hp") != after.get("hp") or not bits:
        bits.append(f"{eid} {before.get('hp')} -> {after.get('hp')} HP")
    bits.extend(event_text(e, ids, eid) for e in rec.get("events") or () if e != "casts")
    return ", ".join(bits)


def _dealt_bits(eid: str, dealt: Plain, rolled: Any) -> list[str]:
    """How much of the ``rolled`` damage an entity took: a save's half (S1),
    resistance, vulnerability or immunity (R1-R3), temporary HP (H2)."""
    taken, final = dealt.get("damage"), dealt.get("damage_after_resistance", dealt.get("damage"))
    bits = []
    if rolled is not None and dealt.get("amount", taken) != rolled:
        bits.append(f"{eid} takes {dealt.get('amount', taken)} of it")
    if final != taken:
        how = ("immune" if final == 0 else "resistant" if int(final or 0) < int(taken or 0)
               else "vulnerable")
        bits.append(f"{eid} {how}: {taken} -> {final} damage")
    if dealt.get("temp_hp_absorbed"):
        bits.append(f"{dealt['temp_hp_absorbed']} absorbed by temporary HP")
    return bits


# ---------------------------------------------------------------------------
# One sentence per step


@dataclass
class Context:
    """What a step's sentence needs: the ``actor``, the entity ``ids`` (to
    keep them as they are in event words) and the :class:`Tracker`."""

    actor: str
    ids: frozenset[str]
    tracker: Tracker


def _move(s: Plain, c: Context) -> str:
    cost, left = s.get("cost", s.get("movement")), s["remaining"]["movement"]
    metres = next((e.split(":", 1)[1] for e in s.get("events") or () if e.startswith("moves:")),
                  cost)
    spent = f" for {cost} m of movement" if str(cost) != str(metres) else ""
    return f"{c.actor} moves {metres} m{spent}; {left} m left"


def _attack(s: Plain, c: Context) -> str:
    tid = str(s.get("target"))
    if "attack" not in s:
        return f"{c.actor} attacks {tid} (not rolled: check only)"
    text = f"{c.actor} attacks {tid}: {test_text(s['attack'])}"
    rep = s.get("target_report")
    if rep is not None:
        c.tracker.see(tid, rep.get("after") or {})
        text += f"; {amount_text(s['damage'], 'damage')}, {change_text(tid, rep, c.ids, rep)}"
    return text


def _cast_costs(s: Plain, cast: Plain) -> str:
    """``2 AP, 3 Flux: 7 -> 4`` with an upcast and an overclock's consequence (F1-F4)."""
    bits = [f"{s['action_points']} AP"]
    if cast.get("upcast"):
        bits.append(f"upcast +{cast['upcast']}")
    bits.append(f"{cast['final_cost']} Flux: {cast['flux_before']} -> {cast['flux_after']}")
    if cast.get("overclocked"):
        cons = cast.get("consequence") or {}
        row = (cons.get("row") or {}).get("text")
        bits.append(f"overclocked ({cast.get('missing')} Flux missing)"
                    + (f": {row}" if row else ""))
    if cast.get("maintained"):
        bits.append("maintained")
    return ", ".join(bits)


def _cast_effects(cast: Plain, c: Context) -> list[str]:
    """The clauses of a cast's effect: each target's test, the shared roll
    (T6), each target's HP change, a check bonus."""
    records: Plain = cast.get("entities") or {}
    tests = cast.get("tests") or ()
    clauses = [_cast_test(t, records, len(tests)) for t in tests]
    touched = {k: v for k, v in records.items() if "damage" in v or "healing" in v}
    amount = cast.get("amount")
    if amount:
        clauses.append(amount_text(amount, "healing" if any(
            "healing" in v for v in touched.values()) else "damage"))
    for tid, rec in records.items():
        c.tracker.see(tid, rec.get("after") or {})
        if tid in touched:
            clauses.append(change_text(tid, rec, c.ids, rec.get("damage"),
                                       (amount or {}).get("amount")))
        elif tid != c.actor and rec.get("test"):
            clauses.append(f"no effect on {tid}")
    bonus = cast.get("check_bonus")
    if bonus:
        clauses.append(f"check bonus {int(bonus.get('value', 0)):+d} on {bonus.get('applies_to')}")
    return clauses


def _cast_test(t: Plain, records: Plain, count: int) -> str:
    """One test of a cast: ``d20 13 + 2 potential = 15 vs AC 11, success,
    hit`` (an attack; ``on ID:`` first when the cast has several tests) or
    ``ogre saves d20 7 - 1 signature = 6 vs DC 16, critical failure, full
    effect`` (a save, with the effect it leaves, S1)."""
    eid = str(t.get("entity"))
    if t.get("kind") == "attack":
        return (f"on {eid}: " if count > 1 else "") + test_text(t)
    effect = ((records.get(eid) or {}).get("test") or {}).get("effect")
    return (f"{eid} {t.get('kind')}s {test_text(t)}"
            + (f", {effect} effect" if effect else ""))


def _cast(s: Plain, c: Context) -> str:
    idiom = s.get("idiom")
    cast = s.get("cast")
    if cast is None:
        over = ", overclocked" if s.get("overclocked") else ""
        return (f"{c.actor} casts {idiom} (final cost {s.get('final_cost')} Flux{over}; "
                "effect not resolved: check only)")
    targets = [t for t in (cast.get("entities") or {}) if t != c.actor]
    at = f" at {', '.join(targets)}" if targets else ""
    clauses = _cast_effects(cast, c)
    return f"{c.actor} casts {idiom}{at} ({_cast_costs(s, cast)})" + (
        ": " + "; ".join(clauses) if clauses else "")


def _action(s: Plain, c: Context) -> str:
    ap = int(s.get("action_points") or 0)
    return (f"{c.actor} takes the {s.get('cost_class', '')} action {s.get('name')}"
            f" ({ap} AP, {s['remaining']['action_points']} left)")


def _simple(verb: str) -> Callable[[Plain, Context], str]:
    def phrase(s: Plain, c: Context) -> str:
        item = next((e.split(":", 1)[1] for e in s.get("events") or () if ":" in e), "")
        return f"{c.actor} {verb}" + (f" {item}" if item else "")
    return phrase


def _reaction(s: Plain, c: Context) -> str:
    return f"{s.get('entity')} uses its reaction during {c.actor}'s turn"


def _stand_up(s: Plain, c: Context) -> str:
    return f"{c.actor} stands up ({s.get('action_points')} AP and {s.get('cost')} m)"


def _end_turn(s: Plain, c: Context) -> str:
    return f"{c.actor} ends the turn"


#: step kind -> its sentence (without the final period).
STEP_TEXT: dict[str, Callable[[Plain, Context], str]] = {
    "move": _move, "attack": _attack, "cast": _cast, "action": _action,
    "drop_prone": _simple("drops prone"), "stand_up": _stand_up, "hold": _simple("holds"),
    "drop": _simple("drops"), "stop_maintaining": _simple("stops maintaining"),
    "reaction": _reaction, "end_turn": _end_turn,
}


def step_text(s: Plain, c: Context) -> str:
    """One step as a sentence (no final period); an unknown kind by its events."""
    phrase = STEP_TEXT.get(str(s.get("kind")))
    if phrase is not None:
        return phrase(s, c)
    events = ", ".join(event_text(e, c.ids) for e in s.get("events") or ())
    return f"{c.actor} {words(str(s.get('kind')))}" + (f": {events}" if events else "")


# ---------------------------------------------------------------------------
# Turn starts and ends


def _death_save(eid: str, d: Plain, c: Context) -> str:
    """H6: ``death save d20 11, success (successes 0 -> 1, failures 1)``."""
    if d.get("skipped"):
        return "death save not rolled (check only)"
    b = (d.get("before") or {}).get("death_saves") or {}
    a = (d.get("after") or {}).get("death_saves") or {}
    counts = []
    for key in ("successes", "failures"):
        before, after = b.get(key, 0), a.get(key, 0)
        counts.append(f"{key} {before} -> {after}" if before != after else f"{key} {after}")
    c.tracker.see(eid, d.get("after") or {})
    outcome = words(str(d.get("outcome")))
    text = f"death save d20 {d.get('natural')}, {outcome} ({', '.join(counts)})"
    hp_b, hp_a = (d.get("before") or {}).get("hp"), (d.get("after") or {}).get("hp")
    if hp_b != hp_a:
        text += f", {eid} {hp_b} -> {hp_a} HP"
    rest = [event_text(e, c.ids, eid) for e in d.get("events") or ()
            if not e.startswith("death_save")]
    return text + "".join(f", {e}" for e in rest)


def start_notes(turn: Plain, c: Context, explain: bool) -> list[str]:
    """What the start of a turn did that a reader wants (O1, F2, H6, P6)."""
    start = turn["start"]
    events = list(start.get("events") or ())
    if "dead" in events:
        return ["dead, no turn"]
    notes = []
    flux = int(start["remaining"]["flux"])
    vital = c.tracker.vitals.get(c.actor)
    gain = next((int(e.split(":", 1)[1]) for e in events if e.startswith("flux_regenerates:")),
                None)
    if gain is not None:
        notes.append(f"Flux {flux - gain} -> {flux} ({gain:+d})")
    elif explain and vital is not None and flux >= vital.flux_max:
        notes.append(f"Flux stays {flux}, already at its maximum")
    if vital is not None:
        vital.flux = flux
    said = ["reaction_back"]
    if "death_save" in start:
        notes.append(_death_save(c.actor, start["death_save"], c))
        said += start["death_save"].get("events") or []
    for e in events:
        if e in said:
            said.remove(e)
        elif not e.startswith("flux_regenerates:"):
            notes.append(event_text(e, c.ids))
    return notes


def end_notes(turn: Plain) -> list[str]:
    """What the end of a turn did (C1 durations, P1 unspent action points lost)."""
    steps = turn.get("steps") or ()
    left = (steps[-1] if steps else turn["start"])["remaining"]["action_points"]
    notes = [event_text(e) for e in turn["end"].get("events") or ()]
    if left and "dead" not in (turn["start"].get("events") or ()):
        notes.append(f"{left} unspent action point{'s' if left != 1 else ''} lost")
    return notes


def _tag(rules: Sequence[str], explain: bool) -> str:
    return f" [{', '.join(rules)}]" if explain and rules else ""


def turn_lines(turn: Plain, c: Context, width: int, explain: bool) -> list[str]:
    """One turn of the log: its start line, a numbered line per step, its end line."""
    notes = start_notes(turn, c, explain)
    head = f"Turn {turn['turn']}, {c.actor}" + (": " + "; ".join(notes) if notes else "")
    out = wrap(head + "." + _tag(turn["start"].get("rules") or (), explain), width,
               indent="  ", hang="      ")
    for s in turn.get("steps") or ():
        lead = f"    {s['step']}. "
        out.extend(wrap(step_text(s, c) + "." + _tag(s.get("rules") or (), explain), width,
                        indent=lead, hang=" " * len(lead)))
    ended = end_notes(turn)
    if ended:
        out.extend(wrap("End of turn: " + "; ".join(ended) + "."
                        + _tag(turn["end"].get("rules") or (), explain), width,
                        indent="    ", hang="      "))
    return out


# ---------------------------------------------------------------------------
# The whole log


def log_lines(result: Plain, width: int, explain: bool = False) -> list[str]:
    """The narrative log of a ``turn`` result's JSON form as lines of at most
    ``width`` characters (a token longer than the width on a line of its own).
    ``explain``: rule IDs after each line. The derivation and the replay
    line are not included (:func:`tail_lines`)."""
    tracker = Tracker(result)
    ids = frozenset(str(e["id"]) for e in result["state"]["entities"])
    out = []
    if result.get("check"):
        out += wrap("Checked only: no die rolled, so hits, damage, healing and death "
                    "saves are not applied.", width)
    if tracker.order:
        out += wrap(f"Before: {tracker.summary()}.", width, hang="  ")
    current = None
    for turn in result["turns"]:
        if turn["round"] != current:
            if current is not None:
                out += wrap(f"End of round {current}: {tracker.summary()}.", width,
                            indent="  ", hang="    ")
            out += ["", f"Round {turn['round']}"]
            current = turn["round"]
        out += turn_lines(turn, Context(str(turn["entity"]), ids, tracker), width, explain)
    if current is not None:
        last = result["turns"][-1]["turn"]
        out += wrap(f"After turn {last} (round {current}): {tracker.summary()}.", width,
                    indent="  ", hang="    ")
    return out


def tail_lines(result: Plain, width: int, explain: bool) -> list[str]:
    """After either view: with ``explain`` the derivation, one ``[RULE] text``
    per step; then the replay line (``--rolls`` with every face used)."""
    out: list[str] = []
    if explain and result.get("explanation"):
        out += ["", "Derivation:"]
        for s in result["explanation"]:
            out += wrap(f"[{s['rule']}] {s['text']}", width, indent="  ", hang="      ")
    rolls = result.get("rolls_used")
    if rolls:
        out += wrap("replay with --rolls " + ",".join(str(r) for r in rolls), width)
    return out
