"""Rulings revision 2 for hit points, nonlethal damage and death (issue 12,
finding 2 and the smaller faults about H8 and H10): H5, H7, H8, H10.

Every expected value below is worked out from RULINGS.md rev. 2, not read
from the program's output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from linguo_cli.core import dice, requests
from linguo_cli.core.results import to_plain
from linguo_cli.io.read import load
from linguo_cli.rulesets.linguomancy import conditions, damage, dying, flux
from linguo_cli.rulesets.linguomancy.model import Entity
from linguo_cli.rulesets.linguomancy.state import entities_of

from ..conftest import run_cli

KO = [{"name": "Unconscious", "source": "nonlethal"}, {"name": "Stable", "source": "nonlethal"}]
DYING = [{"name": "Dying", "source": "dying"}, {"name": "Unconscious", "source": "dying"}]
CATALOG = conditions.default_catalog()


def player(**kw: Any) -> dict[str, Any]:
    return {"id": "pc", "kind": "player", "hp": 0, "max_hp": 15, **kw}


def enemy(**kw: Any) -> dict[str, Any]:
    return {"id": "foe", "kind": "enemy", "hp": 0, "max_hp": 15, **kw}


def hit(entities: list[dict[str, Any]], faces: list[int], *, dice_text: str = "1d4",
        tick: str = "tiny", **kw: Any) -> dict[str, Any]:
    """A one-off damage request on ``entities`` (every one a target)."""
    req = {"kind": "damage", "tick": tick, "dice": dice_text, "rolls": faces,
           "state": {"entities": entities}, "targets": [e["id"] for e in entities], **kw}
    return requests.resolve(req)


def names(after: dict[str, Any]) -> list[str]:
    return [c["name"] for c in after["conditions"]]


# ---------------------------------------------------------------------------
# Finding 2: nonlethal damage at 0 HP never kills nor adds failures (H5, H7)


def test_nonlethal_15_on_knocked_out_player_and_enemy_keeps_both_stable() -> None:
    # 4d6 is Strong (expected 14); faces 3 + 4 + 4 + 4 = 15 >= max HP 15.
    r = hit([player(conditions=KO), enemy(conditions=KO)], [3, 4, 4, 4], dice_text="4d6",
            tick="strong", nonlethal=True)
    assert r["amount"] == 15
    for eid in ("pc", "foe"):
        after = r["entities"][eid]["after"]
        assert (after["hp"], after["dead"], after["death"]) == (0, False, None)
        assert names(after) == ["Unconscious", "Stable"]
        assert after["death_saves"] == {"successes": 0, "failures": 0}
        assert "dies" not in r["entities"][eid]["events"]


def test_lethal_damage_kills_knocked_out_enemy_and_redyes_stable_player() -> None:
    r = hit([player(conditions=KO), enemy(conditions=KO)], [3])
    foe, pc = r["entities"]["foe"], r["entities"]["pc"]
    assert foe["after"]["dead"] is True and foe["after"]["death"] == {"cause": "zero_hp"}
    assert foe["after"]["conditions"] == []
    assert pc["after"]["dead"] is False
    assert names(pc["after"]) == ["Unconscious", "Dying"]
    assert pc["after"]["death_saves"] == {"successes": 0, "failures": 1}
    assert pc["events"] == ["starts_dying", "death_save_failure"]


def test_lethal_damage_at_max_hp_kills_stable_player_at_once() -> None:
    r = hit([player(conditions=KO)], [3, 4, 4, 4], dice_text="4d6", tick="strong")
    after = r["entities"]["pc"]["after"]
    assert after["dead"] is True and after["death"] == {"cause": "damage_at_zero_hp"}
    assert after["conditions"] == []


def test_dying_player_hit_by_3_nonlethal_becomes_stable_with_counts_reset() -> None:
    r = hit([player(conditions=DYING, death_saves={"successes": 1, "failures": 2})], [3],
            nonlethal=True)
    rep = r["entities"]["pc"]
    assert rep["after"]["dead"] is False
    assert names(rep["after"]) == ["Unconscious", "Stable"]
    assert rep["after"]["death_saves"] == {"successes": 0, "failures": 0}
    assert rep["events"] == ["stable"]


@pytest.mark.parametrize("critical", [False, True])
def test_nonlethal_never_adds_failures_nor_kills_at_zero_hp(critical: bool) -> None:
    for failures in range(3):
        down = Entity.from_dict(player(conditions=DYING, death_saves={"failures": failures}))
        for amount in (1, 14, 15, 40):
            after, rep = damage.apply_damage(down, amount, critical=critical, nonlethal=True)
            assert not after.dead and after.death_failures == 0
            assert after.has("Stable") and after.has("Unconscious") and not after.has("Dying")
            assert "death_save_failure" not in rep.events


def test_nonlethal_massive_damage_leaves_player_stable() -> None:
    # H4: 10 HP of max 15 taking 25: leftover 15 >= 15 would kill.
    e = Entity.from_dict(player(hp=10))
    after, rep = damage.apply_damage(e, 25, nonlethal=True)
    assert (after.hp, after.dead) == (0, False)
    assert [c.name for c in after.conditions] == ["Unconscious", "Stable"]
    assert rep.events == ["falls_unconscious", "stable"]


# ---------------------------------------------------------------------------
# H5 rev. 2: a one-off damage or cast request may declare nonlethal (GM's call)


def test_one_off_cast_by_an_enemy_may_be_nonlethal() -> None:
    # Hurl - Fire by an enemy caster: d20 15 + Potential 0 = 15 vs AC 10
    # hits; 2d6+1 = 4 + 5 + 1 = 10 on an enemy at 5 of 10 HP: 0 HP, leftover
    # 5 < 10; H5 would kill it (at_zero_hp dies), nonlethal spares it.
    state = {"entities": [
        {"id": "witch", "kind": "enemy", "hp": 10, "max_hp": 10, "idioms": ["Hurl - Fire"]},
        {"id": "imp", "kind": "enemy", "hp": 5, "max_hp": 10, "ac": 10},
    ]}
    r = requests.resolve({"kind": "cast", "caster": "witch", "idiom": "Hurl - Fire",
                          "targets": ["imp"], "nonlethal": True, "state": state,
                          "rolls": [15, 4, 5]})
    after = r["entities"]["imp"]["after"]
    assert (after["hp"], after["dead"]) == (0, False)
    assert names(after) == ["Unconscious", "Stable"]


# ---------------------------------------------------------------------------
# H8 rev. 2: no "regains_consciousness" while an Unconscious of another
# source stays


OVERCLOCKED_DYING = [{"name": "Unconscious", "source": "overclocking Smith"},
                     {"name": "Dying", "source": "dying"},
                     {"name": "Unconscious", "source": "dying"}]


def test_natural_20_death_save_keeps_overclock_unconscious_and_does_not_wake() -> None:
    r = requests.resolve({"kind": "death_save", "entity": "pc", "rolls": [20],
                          "state": {"entities": [player(conditions=OVERCLOCKED_DYING,
                                                        death_saves={"failures": 1})]}})
    rep = r["entities"]["pc"]
    assert rep["after"]["hp"] == 1
    assert rep["after"]["conditions"] == [OVERCLOCKED_DYING[0]]
    assert rep["after"]["death_saves"] == {"successes": 0, "failures": 0}
    assert rep["events"] == ["death_save_success"]
    assert not any("wake" in s["text"] and "not wake" not in s["text"]
                   for s in r["explanation"])


def test_heal_at_zero_keeps_overclock_unconscious_and_does_not_wake() -> None:
    r = requests.resolve({"kind": "heal", "tick": "tiny", "dice": "1d4", "rolls": [2],
                          "targets": ["pc"],
                          "state": {"entities": [player(conditions=OVERCLOCKED_DYING)]}})
    rep = r["entities"]["pc"]
    assert rep["after"]["hp"] == 2
    assert rep["after"]["conditions"] == [OVERCLOCKED_DYING[0]]
    assert rep["events"] == []


def test_heal_and_natural_20_still_wake_without_another_unconscious() -> None:
    healed, rep = damage.apply_healing(Entity.from_dict(player(conditions=DYING)), 2)
    assert healed.conditions == () and rep.events == ["regains_consciousness"]
    saved, rep = damage.roll_death_save(Entity.from_dict(player(conditions=DYING)),
                                        dice.ScriptedDice([20]))
    assert saved.conditions == ()
    assert rep.events == ["death_save_success", "regains_consciousness"]


# ---------------------------------------------------------------------------
# H10 rev. 2: one death for every path; every condition ends and is listed


PRONE = {"name": "Prone", "source": "shove"}


def _damage_death(kw: dict[str, Any], amount: int, **opts: Any) -> tuple[Entity, list[str]]:
    e, rep = damage.apply_damage(Entity.from_dict(kw), amount, **opts)
    return e, rep.events


def _save_death(kw: dict[str, Any]) -> tuple[Entity, list[str]]:
    e, rep = damage.roll_death_save(Entity.from_dict(kw), dice.ScriptedDice([4]))
    return e, rep.events


def _overclock_death(kw: dict[str, Any], missing: int) -> tuple[Entity, list[str]]:
    e, cons = flux.apply_overclock(Entity.from_dict(kw), missing, catalog=CATALOG,
                                   source="oc")
    return e, list(cons.events)


DEATHS = {
    # path: (run, cause, resurrection, conditions that end, in order)
    "H4 massive damage": (lambda: _damage_death(enemy(hp=10, conditions=[PRONE]), 25),
                          "massive_damage", None, ["Prone"]),
    "H5 enemy at 0 HP": (lambda: _damage_death(enemy(hp=5, conditions=[PRONE]), 7),
                         "zero_hp", None, ["Prone"]),
    "H7 knocked-out enemy": (lambda: _damage_death(enemy(conditions=[*KO, PRONE]), 1),
                             "zero_hp", None, ["Unconscious", "Stable", "Prone"]),
    "H7 instant death": (lambda: _damage_death(player(conditions=[*DYING, PRONE]), 15),
                         "damage_at_zero_hp", None, ["Dying", "Unconscious", "Prone"]),
    "H7 third failure": (lambda: _damage_death(player(conditions=DYING,
                                                      death_saves={"failures": 2}), 1),
                         "death_saves", None, ["Dying", "Unconscious"]),
    "H6 third failure": (lambda: _save_death(player(conditions=DYING,
                                                    death_saves={"failures": 2})),
                         "death_saves", None, ["Dying", "Unconscious"]),
    "F4 row 8": (lambda: _overclock_death(player(hp=9, conditions=[PRONE]), 8),
                 "exhaustion", None, ["Prone"]),
    "F4 row 9": (lambda: _overclock_death(player(hp=9, conditions=[PRONE]), 9),
                 "overclock_body_consumed", "very_hard", ["Prone"]),
    "F4 row 10": (lambda: _overclock_death(player(hp=9), 10),
                  "overclock_essence_shattered", "impossible", []),
    "F5 row 3 at 6 tiers": (lambda: _overclock_death(player(hp=9, exhaustion=5), 3),
                            "exhaustion", None, ["Stunned"]),
    "F5 row 7 at 6 tiers": (lambda: _overclock_death(player(hp=9, exhaustion=1), 7),
                            "exhaustion", None, ["Unconscious"]),
}


@pytest.mark.parametrize("path", list(DEATHS))
def test_every_death_ends_every_condition_and_lists_them(path: str) -> None:
    run, cause, resurrection, ended = DEATHS[path]
    e, events = run()
    assert e.dead and e.hp == 0
    assert (e.death_cause, e.resurrection) == (cause, resurrection)
    assert e.conditions == ()
    at = events.index("dies")
    assert events[at + 1:] == [f"condition_ends:{n}" for n in ended]


def test_flux_die_and_damage_die_are_one() -> None:
    held = Entity.from_dict(player(hp=9, conditions=[PRONE, {"name": "Stunned"}]))
    assert flux.die(held, "exhaustion") == damage.die(held, "exhaustion")
    dead, events = damage.die(held, "overclock_body_consumed", "very_hard")
    assert dead.as_dict()["death"] == {"cause": "overclock_body_consumed",
                                       "resurrection": "very_hard"}
    assert events == ["dies", "condition_ends:Prone", "condition_ends:Stunned"]


def test_one_die_for_an_entity_knocked_out_nonlethally_and_stable() -> None:
    # The case where flux's and damage's copies of die() were said to disagree
    # (issue 14): an enemy knocked out by nonlethal damage (0 HP, Unconscious
    # and Stable, both from "nonlethal", counts 0), holding 2 Exhaustion tiers.
    # H10 rev. 2: it is dead, HP 0, with a death record (cause; resurrection
    # only for overclocking rows 9-10), and every condition it had ends, each
    # listed after "dies" in the order held. H7: a knocked-out enemy dies from
    # any later lethal damage above 0. F4 row 10: essence shattered, no
    # resurrection. Exhaustion is not a condition of the state: 2 tiers stay.
    assert flux.die is damage.die is dying.die  # one die() (H10 rev. 2)
    ko = Entity.from_dict(enemy(conditions=KO, exhaustion=2))
    ended = ["dies", "condition_ends:Unconscious", "condition_ends:Stable"]

    dead, events = dying.die(ko, "zero_hp")
    assert (dead.dead, dead.hp, dead.conditions) == (True, 0, ())
    assert (dead.death_cause, dead.resurrection) == ("zero_hp", None)
    assert dead.exhaustion == 2 and events == ended

    by_damage, events = _damage_death(enemy(conditions=KO, exhaustion=2), 1)  # H7
    assert by_damage == dead and events == ended

    by_overclock, events = _overclock_death(enemy(hp=9, exhaustion=2), 10)
    assert by_overclock.as_dict()["death"] == {"cause": "overclock_essence_shattered",
                                               "resurrection": "impossible"}
    oc, oc_events = flux.apply_overclock(ko, 10, catalog=CATALOG)
    assert (oc.dead, oc.hp, oc.conditions, list(oc_events.events)) == (True, 0, (), ended)
    assert oc.as_dict()["death"] == {"cause": "overclock_essence_shattered",
                                     "resurrection": "impossible"}


def test_cast_killed_by_exhaustion_keeps_no_stunned() -> None:
    # Smith upcast 10 (cost 10) with 7 Flux: 3 missing, row 3: Stunned and
    # +1 tier; 5 + 1 = 6 tiers: dies (F5), and Stunned ends (H10).
    state = {"entities": [{"id": "kael", "kind": "player", "hp": 12, "max_hp": 12, "flux": 7,
                           "exhaustion": 5, "expertise": {"Flux": 10}, "idioms": ["Smith"]}]}
    r = requests.resolve({"kind": "cast", "caster": "kael", "idiom": "Smith", "upcast": 10,
                          "overclock": True, "state": state, "rolls": []})
    kael = r["entities"]["kael"]
    assert kael["after"]["dead"] is True and kael["after"]["conditions"] == []
    assert kael["events"][-2:] == ["dies", "condition_ends:Stunned"]
    assert r["consequence"]["events"][-2:] == ["dies", "condition_ends:Stunned"]


def test_one_off_overclock_death_lists_the_conditions_that_end() -> None:
    r = requests.resolve({"kind": "overclock", "cost": 6, "flux": 1, "exhaustion": 3,
                          "rolls": []})
    assert r["dead"] is True
    assert r["events"] == ["becomes_stunned", "gains_exhaustion", "dies",
                           "condition_ends:Stunned"]


# ---------------------------------------------------------------------------
# The same through the command line and a turn


KNOCKED_OUT_PAIR = """\
entities:
- id: pc
  kind: player
  hp: 0
  max_hp: 15
  conditions: [{name: Unconscious, source: nonlethal}, {name: Stable, source: nonlethal}]
- id: foe
  kind: enemy
  hp: 0
  max_hp: 15
  conditions: [{name: Unconscious, source: nonlethal}, {name: Stable, source: nonlethal}]
"""


def test_cli_nonlethal_damage_writes_both_stable(tmp_path: Path) -> None:
    state = tmp_path / "s.yaml"
    state.write_text(KNOCKED_OUT_PAIR, encoding="utf-8")
    r = run_cli("damage", "--tick", "strong", "--dice", "4d6", "--nonlethal", "--state",
                str(state), "--target", "pc", "--target", "foe", "--rolls", "3,4,4,4",
                "--in-place", "--json")
    assert r.exit_code == 0, r.stderr
    written = entities_of(load(str(state)))
    for e in written.values():
        assert not e.dead and [c.name for c in e.conditions] == ["Unconscious", "Stable"]


def test_cli_natural_20_does_not_say_it_woke(tmp_path: Path) -> None:
    state = tmp_path / "s.yaml"
    state.write_text("entities:\n- {id: kael, kind: player, hp: 0, max_hp: 12, conditions: "
                     "[{name: Unconscious, source: overclocking Smith}, "
                     "{name: Dying, source: dying}]}\n", encoding="utf-8")
    r = run_cli("death-save", str(state), "--entity", "kael", "--rolls", "20", "--explain")
    assert r.exit_code == 0, r.stderr
    text = r.stdout + r.stderr
    assert "regains_consciousness" not in text
    assert "does not wake" in text


def test_turn_natural_20_death_save_does_not_wake_an_overclocked_entity() -> None:
    state = {"entities": [player(id="kael", conditions=[OVERCLOCKED_DYING[0],
                                                         OVERCLOCKED_DYING[1]])]}
    r = to_plain(requests.resolve({"kind": "turn", "state": state, "rolls": [20],
                                   "turns": [{"entity": "kael", "steps": []}]}))
    assert "regains_consciousness" not in r["entities"]["kael"]["events"]
    after = r["state"]["entities"][0]
    assert after["hp"] == 1 and [c["name"] for c in after["conditions"]] == ["Unconscious"]


def test_overclock_text_says_the_conditions_end() -> None:
    r = run_cli("overclock", "--cost", "6", "--flux", "1", "--exhaustion", "3")
    assert r.exit_code == 0, r.stderr
    assert "every condition ends: Stunned" in r.stdout
