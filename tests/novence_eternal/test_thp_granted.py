"""``thp_granted``, linguo's extension beyond NV1 for ``thp_compare:
granted`` (NL3): a grant compares with it, a replacing grant sets it, and
wherever THP reaches 0 (NL2 damage) it is cleared with ``thp_source``.
Documents without the field keep their outputs. Expected values are worked
by hand from NL2 and NL3."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from linguo_cli.core import requests
from linguo_cli.core.derivation import Derivation
from linguo_cli.io.read import load
from linguo_cli.rulesets.novence_eternal.model import Creature
from linguo_cli.rulesets.novence_eternal.recovery import grant_thp

CASES = Path(__file__).parents[2] / "golden" / "novence-eternal" / "documents" / \
    "state-checks.yaml"
SHIELDED = Creature("pc", 20, 20, kind="player", thp=3, thp_source="shield")


def _attack(**cole: Any) -> dict[str, Any]:
    """The ogre's club (static 4, d20 15 + STR 4 = 19 hits AC 10) on cole."""
    cases = {c["id"]: c for c in load(str(CASES)).data["cases"]}
    request = copy.deepcopy(cases["nv1-thp-granted-without-thp"]["request"])
    target = request["state"]["combatants"][1]
    target.pop("thp_granted")
    target.update(cole)
    return request


@pytest.mark.parametrize(("held", "granted", "amount", "kept", "after"), [
    (None, True, 4, "new", 4),     # absent: compared with thp 3; 4 > 3
    (30, True, 4, "old", 30),      # NG-37 (a) Alt: 4 > 30 is false
    (30, True, 30, "old", 30),     # equal: not greater
    (30, True, 31, "new", 31),     # 31 > 30
    (30, False, 4, "new", 4),      # remaining: 4 > 3; the held field follows
    (None, False, 4, "new", None),  # remaining, no field: none is written
])
def test_a_grant_compares_and_sets_thp_granted(held: int | None, granted: bool, amount: int,
                                               kept: str, after: int | None) -> None:
    c = replace(SHIELDED, thp_granted=held)
    new, record = grant_thp(c, amount, "Bless", Derivation(), granted)
    assert record.kept == kept
    assert new.thp == (amount if kept == "new" else 3)
    assert new.thp_granted == after


def test_damage_that_empties_the_thp_clears_thp_granted() -> None:
    # THP 3 absorbs 3 of the club's 4: THP 0, HP 30 - 1 = 29; source and grant cleared
    result = requests.resolve(_attack(thp=3, thp_source="shield", thp_granted=30))
    after = result["combatants"]["cole"]["after"]
    assert (after["thp"], after["hp"], after["thp_source"]) == (0, 29, None)
    assert "thp_granted" not in after
    cole = result["state"]["combatants"][1]
    assert "thp_granted" not in cole and "thp_source" not in cole


def test_damage_that_leaves_thp_keeps_thp_granted() -> None:
    # THP 5 absorbs 4: THP 1 from the shield that granted 30, HP 30
    result = requests.resolve(_attack(thp=5, thp_source="shield", thp_granted=30))
    after = result["combatants"]["cole"]["after"]
    assert (after["thp"], after["hp"], after["thp_granted"]) == (1, 30, 30)
    assert result["state"]["combatants"][1]["thp_granted"] == 30


def test_documents_without_the_field_do_not_gain_it() -> None:
    result = requests.resolve(_attack(thp=5, thp_source="shield"))
    assert "thp_granted" not in result["combatants"]["cole"]["after"]
    assert "thp_granted" not in result["state"]["combatants"][1]


@pytest.mark.parametrize(("option", "thp", "source"), [
    ("granted", 3, "shield"),    # NG-37 (a) Alt: 4 > 30 is false, ignored
    ("remaining", 4, "Bless"),   # NG-37 (a): 4 > 3, replaces; thp_granted follows: 4
])
def test_the_thp_event_reads_thp_compare(option: str, thp: int, source: str) -> None:
    request = {"ruleset": "novence-eternal", "kind": "event", "options": {"thp_compare": option},
               "state": {"combatants": [{"id": "a", "kind": "ally", "hp": 20, "max_hp": 20,
                                         "thp": 3, "thp_source": "shield",
                                         "thp_granted": 30}]},
               "events": [{"kind": "thp", "targets": ["a"], "amount": 4, "source": "Bless"}]}
    a = requests.resolve(request)["state"]["combatants"][0]
    assert (a["thp"], a["thp_source"], a["thp_granted"]) == (thp, source, 30 if thp == 3 else 4)
