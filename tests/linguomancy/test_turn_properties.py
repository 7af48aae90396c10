"""Property tests of the turn engine over generated turns.

For every generated document that is legal: resources never go negative,
the movement spent equals the sum of the step costs (worked out here from
P2/P3, not by the engine), the action points of each step are its P1 cost
(a jump move 1, P1 rev. 2) and add up, every turn ends with 0 action
points (P1 rev. 2), rounds are counted as O1 rev. 2 says (worked out here),
and replaying with the printed dice faces gives the identical result. For every illegal one:
the refused step is the first illegal one (the turns before it are legal).
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from linguo_cli.core import requests
from linguo_cli.core.dice import ScriptedDice, SeededDice
from linguo_cli.core.errors import RulesError
from linguo_cli.core.results import to_plain
from linguo_cli.io.document import Document
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

halves = st.integers(min_value=1, max_value=40).map(lambda n: n / 2)

actor = st.fixed_dictionaries({
    "id": st.just("hero"), "kind": st.just("player"),
    "hp": st.integers(1, 20), "max_hp": st.just(20),
    "movement_max": st.integers(0, 40).map(lambda n: n / 2),
    "action_points_per_turn": st.integers(0, 4),
    "hand_points": st.integers(0, 3),
    "flux": st.integers(0, 10),
    "abilities": st.just({"strength": 2}),
    "held_items": st.lists(st.sampled_from(["torch", "rope"]), max_size=2),
    "conditions": st.sampled_from([[], [{"name": "Prone"}],
                                   [{"name": "Stunned", "remaining_turns": 1}]]),
})

foe = st.fixed_dictionaries({
    "id": st.just("foe"), "kind": st.just("enemy"),
    "hp": st.integers(1, 30), "max_hp": st.just(30),
    "ac": st.one_of(st.none(), st.integers(5, 25)),
    "abilities": st.just({"strength": 1}),
    "movement_max": st.just(10),
})

step = st.one_of(
    st.fixed_dictionaries({"kind": st.just("move"), "metres": halves,
                           "mode": st.sampled_from(["walk", "crawl", "jump", "swim"]),
                           "terrain": st.sampled_from(["normal", "difficult"])}),
    st.fixed_dictionaries({"kind": st.just("action"),
                           "name": st.sampled_from(["help", "jump", "sprint", "talk", "hide"]),
                           "hands": st.integers(0, 2)}),
    st.just({"kind": "drop_prone"}),
    st.just({"kind": "stand_up"}),
    st.fixed_dictionaries({"kind": st.just("hold"), "item": st.sampled_from(["torch", "axe"])}),
    st.fixed_dictionaries({"kind": st.just("drop"), "item": st.sampled_from(["torch", "rope"])}),
    st.fixed_dictionaries({"kind": st.just("attack"), "target": st.just("foe"),
                           "ability": st.just("strength"),
                           "damage": st.just({"dice": "1d6+1", "type": "slashing"})}),
    st.just({"kind": "reaction", "entity": "foe"}),
)

turns = st.lists(
    st.fixed_dictionaries({"entity": st.sampled_from(["hero", "hero", "foe"]),
                           "steps": st.lists(step, max_size=6)}),
    min_size=1, max_size=3)


def request(entities: list[dict[str, Any]], ts: list[dict[str, Any]]) -> dict[str, Any]:
    req = {"kind": "turn", "state": {"entities": entities}, "turns": ts}
    SCHEMAS.validate(Document("request", copy.deepcopy(req)), "request")
    return req


def step_movement(s: dict[str, Any], movement_max: Fraction) -> Fraction:
    """P2/P3 worked out independently of the engine."""
    if s["kind"] == "move":
        extra = (s["mode"] == "crawl") + (s["terrain"] == "difficult")
        return Fraction(str(s["metres"])) * (1 + extra)
    if s["kind"] == "stand_up":
        return movement_max / 2
    return Fraction(0)


#: P1 cost of each generated step kind / action name (a jump move: 1 AP).
ACTION_AP = {"help": 2, "jump": 1, "sprint": 3, "talk": 0, "hide": 2}


def step_ap(s: dict[str, Any]) -> int:
    """P1 (rev. 2) worked out independently of the engine."""
    if s["kind"] == "move":
        return 1 if s["mode"] == "jump" else 0
    if s["kind"] == "action":
        return ACTION_AP[s["name"]]
    return {"stand_up": 1, "attack": 2}.get(s["kind"], 0)


def rounds(entities: list[str]) -> list[int]:
    """O1 rev. 2 from round 0: a turn by an entity that already acted in the
    current round starts the next one."""
    out, acted, n = [], set(), 0
    for eid in entities:
        if n == 0 or eid in acted:
            n, acted = n + 1, set()
        acted.add(eid)
        out.append(n)
    return out


def walk(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every `remaining` block of the result."""
    out = []
    for t in result["turns"]:
        out.append(t["start"]["remaining"])
        out.extend(s["remaining"] for s in t["steps"])
        out.append(t["remaining"])
    return out


@SETTINGS
@given(hero=actor, enemy=foe, ts=turns, seed=st.integers(0, 2**32))
def test_generated_turns(hero: dict[str, Any], enemy: dict[str, Any],
                         ts: list[dict[str, Any]], seed: int) -> None:
    req = request([hero, enemy], ts)
    try:
        result = to_plain(requests.resolve(copy.deepcopy(req), SeededDice(seed)))
    except RulesError as err:
        event(f"illegal ({err.rule})")
        # The refused step is the first illegal one: everything before it is legal.
        t, s = int(err.details["turn"]), err.step
        assert s is not None and 1 <= t <= len(ts) and 1 <= s <= len(ts[t - 1]["steps"])
        prefix = copy.deepcopy(ts[:t])
        prefix[-1]["steps"] = prefix[-1]["steps"][: s - 1]
        requests.resolve(request([hero, enemy], prefix), SeededDice(seed))
        return

    event("legal")
    # Resources never negative.
    for left in walk(result):
        assert left["action_points"] >= 0 and left["movement"] >= 0
        assert left["hands_free"] >= 0 and left["flux"] >= 0
    for e in result["state"]["entities"]:
        assert 0 <= e["hp"] <= e["max_hp"]
        assert e["action_points"] >= 0 and e["movement"] >= 0 and e["hands_spent"] >= 0

    # Movement spent = sum of step costs; action points spent add up.
    maxima = {"hero": Fraction(str(hero["movement_max"])), "foe": Fraction(10)}
    for t, done in zip(ts, result["turns"], strict=True):
        start, end = done["start"]["remaining"], done["remaining"]
        costs = [step_movement(s, maxima[t["entity"]]) for s in t["steps"]]
        assert [Fraction(str(s["movement"])) for s in done["steps"]] == costs
        assert Fraction(str(start["movement"])) - Fraction(str(end["movement"])) == sum(costs)
        assert [s["action_points"] for s in done["steps"]] == [step_ap(s) for s in t["steps"]]
        last = done["steps"][-1]["remaining"] if done["steps"] else start
        assert start["action_points"] - last["action_points"] == sum(
            s["action_points"] for s in done["steps"])
        assert end["action_points"] == 0  # unspent points are lost (P1 rev. 2)

    # Rounds (O1 rev. 2): no entity acts twice in a round; the state ends in
    # the round of the last turn.
    expected = rounds([t["entity"] for t in ts])
    assert [t["round"] for t in result["turns"]] == expected
    assert result["state"]["round"] == expected[-1]

    # Replay from the printed faces gives the identical result.
    again = to_plain(requests.resolve(copy.deepcopy(req), ScriptedDice(result["rolls_used"])))
    assert again == result


@SETTINGS
@given(hero=actor, enemy=foe, ts=turns)
def test_check_only_consumes_no_dice(hero: dict[str, Any], enemy: dict[str, Any],
                                     ts: list[dict[str, Any]]) -> None:
    req = request([hero, enemy], ts)
    req["check"] = True
    try:
        result = to_plain(requests.resolve(req, ScriptedDice([])))
    except RulesError:
        return
    assert result["rolls_used"] == []
    for left in walk(result):
        assert left["action_points"] >= 0 and left["movement"] >= 0
