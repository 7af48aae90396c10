"""The later rules' Action Value timeline (PV6-PV8; ``scheduler: av``).

* :func:`base_av` (PV6): a creature's ``base_av`` as given, else from the
  average level L of all combatants, its Speed and speed stages, in IEEE 754
  doubles in the later code's order, floored and clamped to ``lo..hi``;
* :func:`one_round` (PV7, PV8): who comes up in one round (step by step:
  :func:`arrive`, then :func:`settle` once the Activation is over). The lowest AV
  comes up; its AV is subtracted from every AV (the Round marker's too),
  it takes (or skips) its Activation, then its AV becomes its Base AV. The
  marker coming up ends the round and goes back to ``round_av``. Ties: the
  marker after every creature; between creatures ``av_tiebreak``:
  ``base_av`` (lower Base AV, then higher Speed, then the state's
  ``initiative`` list) or ``speed`` (higher Speed, more speed stages, then
  ``initiative``); two creatures the list cannot order are
  ``tie_unresolved`` (exit 4, PV7). Priority and Interrupt change no AV
  (PV8), so a round's order follows from the state alone;
* :func:`ranks` (PV3): the current initiative order under ``scheduler:
  av``, ascending current AV with PV7's ties.

AVs are exact (:class:`~fractions.Fraction`), shown as integers when whole.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from linguo_cli.rulesets.ptr2e.refusals import refuse

#: At most this many Activations in one round (a guard against a
#: timeline that never reaches the marker; Base AV is at least 1 here).
MAX_ACTIVATIONS = 10_000


def base_av(name: str, spec: Mapping[str, Any], level_avg: float | None) -> int:
    """PV6: ``spec["base_av"]`` if given, else the formula (``level_avg``
    the combatants' average level). ``bad_parameter`` (exit 3) when neither
    a ``base_av`` nor the ``level`` and a positive ``speed`` are known."""
    if "base_av" in spec:
        return int(spec["base_av"])
    speed = int(spec.get("speed", 0))
    if level_avg is None or speed <= 0:
        refuse("bad_parameter", f"{name} has no base_av, and the formula needs every "
               "combatant's level and a positive speed (PV6)",
               field=f"state combatants.{name}", rule="PV6")
    assert level_avg is not None
    s = max(-6, min(6, int(spec.get("speed_stages", 0))))
    raw = 750 * (1 + level_avg * 23 / 99) * (1 - s * 0.125) / speed
    lo = 70 - max(5 * min(5, s), 0)
    hi = 125 - min(5 * max(-5, s), 0)
    x = ((raw - lo) / (hi - lo)) * 7 - 3.5
    sig = 1 / (1 + math.exp(-x))
    return max(lo, min(hi, math.floor(sig * (hi - lo) + lo)))


def base_avs(combatants: Mapping[str, Mapping[str, Any]]) -> dict[str, int]:
    """Every combatant's Base AV (PV6), in the state's order."""
    levels = [c.get("level") for c in combatants.values()]
    avg = sum(int(x) for x in levels if x is not None) / len(levels) \
        if levels and all(x is not None for x in levels) else None
    return {name: base_av(name, spec, avg) for name, spec in combatants.items()}


@dataclass(slots=True)
class Timeline:
    """The AVs between rounds: ``av`` per creature, ``marker`` the Round
    marker's, ``base`` the Base AVs (PV7)."""

    av: dict[str, Fraction]
    marker: Fraction
    base: dict[str, int]

    @classmethod
    def of(cls, state: Mapping[str, Any], round_av: int) -> Timeline:
        """The timeline a state carries (``av``, ``round_marker_av``), or the
        start of combat: every AV its Base AV, the marker at ``round_av``."""
        combatants = state["combatants"]
        base = base_avs(combatants)
        av = {n: Fraction(str(c["av"])) if "av" in c else Fraction(base[n])
              for n, c in combatants.items()}
        marker = Fraction(str(state.get("round_marker_av", round_av)))
        return cls(av, marker, base)


def _key(name: str, spec: Mapping[str, Any], base: int, initiative: Sequence[str],
         tiebreak: str) -> tuple[Any, ...]:
    place = initiative.index(name) if name in initiative else None
    if tiebreak == "speed":
        return (-int(spec.get("speed", 0)), -int(spec.get("speed_stages", 0)), place)
    return (base, -int(spec.get("speed", 0)), place)


def _next(tl: Timeline, state: Mapping[str, Any], opts: Mapping[str, Any], place: str) -> str:
    """Who comes up next: a creature's name, or ``""`` for the marker."""
    low = min(tl.av.values(), default=tl.marker)
    tied = [n for n, v in tl.av.items() if v == low and v <= tl.marker]
    if not tied:
        return ""
    initiative = list(state.get("initiative") or [])
    keys = {n: _key(n, state["combatants"][n], tl.base[n], initiative,
                    str(opts["av_tiebreak"])) for n in tied}
    best = min(tied, key=lambda n: keys[n][:-1])
    rivals = [n for n in tied if keys[n][:-1] == keys[best][:-1]]
    if len(rivals) > 1:
        if any(keys[n][-1] is None for n in rivals):
            refuse("tie_unresolved", f"{', '.join(rivals)} tie at AV {low} and the "
                   "initiative list cannot order them", place=place, rule="PV7")
        best = min(rivals, key=lambda n: keys[n][-1])
    return best


def arrive(tl: Timeline, state: Mapping[str, Any], opts: Mapping[str, Any],
           place: str) -> str:
    """Whoever comes up next (PV7): its AV is subtracted from every AV (the
    marker's too), so it stands at 0 while its Activation (or skip) runs.
    Returns the creature's name, or ``""`` for the marker (the round ends).
    ``tie_unresolved`` (exit 4) at ``place`` for a tie the ``initiative``
    list cannot break. :func:`settle` completes the step."""
    who = _next(tl, state, opts, place)
    low = tl.av[who] if who else tl.marker
    for n in tl.av:
        tl.av[n] -= low
    tl.marker -= low
    return who


def settle(tl: Timeline, who: str, opts: Mapping[str, Any]) -> None:
    """The end of a step of the timeline (PV7): the creature that came up
    (its Activation over) goes back to its Base AV; the marker (``who``
    empty) goes back to ``round_av``."""
    if who:
        tl.av[who] = Fraction(tl.base[who])
    else:
        tl.marker = Fraction(int(str(opts["round_av"])))


def come_next(tl: Timeline, state: Mapping[str, Any], opts: Mapping[str, Any],
              place: str) -> str:
    """One whole step of the timeline (PV7): :func:`arrive`, then
    :func:`settle`; returns the creature's name, or ``""`` for the marker."""
    who = arrive(tl, state, opts, place)
    settle(tl, who, opts)
    return who


def ranks(tl: Timeline, state: Mapping[str, Any], opts: Mapping[str, Any]
          ) -> dict[str, tuple[int, ...]]:
    """The current initiative order under ``scheduler: av`` (PV3): ascending
    current AV, ties as in PV7 (``av_tiebreak``: lower Base AV then higher
    Speed, or higher Speed then more speed stages; then the state's
    ``initiative`` list). Ranks ``name -> (1, position)`` for a creature
    alone at its place; creatures still tied get the same position plus
    their ``initiative`` place, ``(1, position, place)``, and one missing
    from that list gets none: :func:`.priority.earlier` cannot order it
    against its rivals (``tie_unresolved``)."""
    initiative = list(state.get("initiative") or [])
    keys = {n: (tl.av[n], *_key(n, state["combatants"][n], tl.base[n], initiative,
                                str(opts["av_tiebreak"]))) for n in tl.av}
    places = sorted({k[:-1] for k in keys.values()})
    out: dict[str, tuple[int, ...]] = {}
    for n, k in keys.items():
        pos = places.index(k[:-1])
        rivals = [m for m in keys if keys[m][:-1] == k[:-1]]
        out[n] = (1, pos) if len(rivals) == 1 or k[-1] is None else (1, pos, k[-1])
    return out


def advanced(base: int, levels: int) -> Fraction:
    """PP6: the AV after an Activation that resolved [Priority X] actions
    whose levels sum to ``levels``: ``max(0, Base - Base * S / 10)``."""
    return max(Fraction(0), Fraction(base) - Fraction(base * levels, 10))


def one_round(tl: Timeline, state: Mapping[str, Any], opts: Mapping[str, Any],
              prefix: str = "") -> list[str]:
    """Play the timeline through one round (PV7): the order of the round's
    scheduled Activations; ``tl`` is left as the next round starts."""
    stream: list[str] = []
    while who := come_next(tl, state, opts, f"{prefix}stream {len(stream) + 1}"):
        stream.append(who)
        if len(stream) > MAX_ACTIVATIONS:
            refuse("bad_parameter", "the timeline does not reach the Round marker",
                   field=f"{prefix}stream", rule="PV7")
    return stream


def plain(value: Fraction) -> int | str:
    """An AV for a result: an integer when whole, else ``"p/q"``."""
    return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
