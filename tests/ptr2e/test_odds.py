"""PTR 2e odds (kind ``odds``, ``linguo ptr2e odds skill|rush``): the exact
probabilities agree with rolling every face 1..100 through the ``skill`` and
``rush`` handlers, options that change degrees or bonuses are honoured, and
the commands print text and JSON."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from linguo_cli.conformance import golden

from ..conftest import run_cli


def _odds(test: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    request: dict[str, Any] = {"ruleset": "ptr2e", "kind": "odds", "test": test}
    if options:
        request["options"] = options
    reply = golden.run_in_process(request)
    assert reply.result is not None, reply.message
    return reply.result


def _rolled(kind: str, fields: dict[str, Any], options: dict[str, Any] | None,
            face: int) -> dict[str, Any]:
    """One ``skill`` or ``rush`` request rolled with ``face`` scripted."""
    request: dict[str, Any] = {"ruleset": "ptr2e", "kind": kind, **fields, "rolls": [face]}
    if options:
        request["options"] = options
    reply = golden.run_in_process(request)
    assert reply.result is not None, reply.message
    return reply.result


def _ladder(counts: Counter[int], key: str) -> list[tuple[int, int, str]]:
    return [(k, n, str(Fraction(n, 100))) for k, n in sorted(counts.items())]


def _seen(ladder: list[dict[str, Any]], key: str) -> list[tuple[int, int, str]]:
    return [(c[key], c["faces"], c["probability"]) for c in ladder]


SKILLS = [
    ({"value": 55, "cr": "challenging"}, None),
    ({"value": 55, "cr": "challenging"}, {"dos": "full_intervals"}),
    ({"value": 55}, {"combat_cr": "difficult"}),
    ({"value": 37, "cr": "routine", "mod": -3}, None),
    ({"value": 130, "cr": "challenging"}, None),
    ({"value": 10, "cr": "challenging"}, {"dos": "full_intervals"}),
    ({"value": 0, "cr": "demanding"}, None),
]


@pytest.mark.parametrize(("fields", "options"), SKILLS)
def test_skill_odds_equal_rolling_every_face(fields: dict[str, Any],
                                             options: dict[str, Any] | None) -> None:
    rolled = [_rolled("skill", fields, options, face) for face in range(1, 101)]
    dos = Counter(r["dos"] for r in rolled if r["success"])
    dof = Counter(r["dof"] for r in rolled if not r["success"])
    odds = _odds({"kind": "skill", **fields}, options)
    assert odds["test"]["dc"] == rolled[0]["dc"]
    assert _seen(odds["dos"], "degree") == _ladder(dos, "degree")
    assert _seen(odds["dof"], "degree") == _ladder(dof, "degree")
    won = sum(dos.values())
    assert odds["success"]["faces"] == won and odds["failure"]["faces"] == 100 - won
    assert odds["success"]["probability"] == str(Fraction(won, 100))
    assert odds["rolls_used"] == []


CHARIZARD = {"movement": {"overland": 10, "fly": 15}, "skills": {"running": 55, "flying": 42}}
RUSHES = [
    ({**CHARIZARD, "type": "overland"}, None),
    ({**CHARIZARD, "type": "fly", "cr": "easy"}, {"rush_skill_table": "later"}),
    ({**CHARIZARD, "type": "overland", "pp_boost": 3}, {"rush_yield": "per_two_dos"}),
    ({**CHARIZARD, "type": "fly", "mod": 7}, {"rush_yield": "per_two_dos",
                                              "dos": "full_intervals"}),
    ({**CHARIZARD, "type": "overland", "pp": 6, "pp_boost": 1},
     {"rush_yield": "per_two_dos", "combat_cr": "ordinary"}),
]


@pytest.mark.parametrize(("fields", "options"), RUSHES)
def test_rush_odds_equal_rolling_every_face(fields: dict[str, Any],
                                            options: dict[str, Any] | None) -> None:
    rolled = [_rolled("rush", fields, options, face)["rush"] for face in range(1, 101)]
    bonus = Counter(r["bonus"] for r in rolled)
    dos = Counter(r["dos"] for r in rolled if r["success"])
    odds = _odds({"kind": "rush", **fields}, options)
    assert (odds["test"]["skill"], odds["test"]["dc"]) == (rolled[0]["skill"], rolled[0]["dc"])
    assert _seen(odds["bonus"], "bonus") == _ladder(bonus, "bonus")
    assert _seen(odds["dos"], "degree") == _ladder(dos, "degree")
    assert odds["expected_bonus"] == str(Fraction(sum(r["bonus"] for r in rolled), 100))


def test_odds_command_text_and_json() -> None:
    text = run_cli("ptr2e", "odds", "skill", "--skill", "55", "--cr", "challenging")
    assert text.exit_code == 0, text.stderr
    assert "DC 35" in text.stdout and "success 7/20 (35.00%)" in text.stdout
    assert "DoF 7 3/50 (6.00%)" in text.stdout  # rolls 95..100: 6 faces
    run = run_cli("ptr2e", "odds", "skill", "--skill", "running=55", "--json")
    assert run.exit_code == 0 and run.json()["test"]["skill"] == "running"
    assert run.json()["success"] == {"faces": 35, "probability": "7/20", "percent": "35.00"}
    rush = run_cli("ptr2e", "odds", "rush", "--score", "overland=10", "--skill", "running=55",
                   "--type", "overland", "--option", "rush_yield=per_two_dos",
                   "--pp-boost", "3", "--json")
    assert rush.exit_code == 0, rush.stderr
    assert rush.json()["expected_bonus"] == "17/20"  # (2 * 20 + 3 * 15) / 100
    plain = run_cli("ptr2e", "odds", "rush", "--score", "overland=10", "--skill",
                    "running=55", "--type", "overland")
    assert "expected +4/5" in plain.stdout


def test_odds_command_refusals() -> None:
    bad = run_cli("ptr2e", "odds", "skill", "--skill", "55", "--cr", "hard")
    assert bad.exit_code == 3 and "test.cr" in bad.stderr and "bad_parameter" in bad.stderr
    missing = run_cli("ptr2e", "odds", "rush", "--score", "overland=10", "--type", "overland",
                      "--json")
    assert missing.exit_code == 4 and missing.json()["error"]["code"] == "skill_missing"
    option = run_cli("ptr2e", "odds", "skill", "--skill", "55", "--option", "dos=sometimes")
    assert option.exit_code == 3


def test_rush_odds_warn_pp_untracked_as_the_rush_does() -> None:  # PA5
    fields = {"movement": {"overland": 10}, "skills": {"running": 55}, "type": "overland",
              "pp_boost": 2}
    options = {"rush_yield": "per_two_dos"}
    odds = _odds({"kind": "rush", **fields}, options)
    rolled = _rolled("rush", fields, options, 12)
    assert rolled["warnings"] == ["pp_untracked: rush: pp_boost 2"]
    assert odds["warnings"] == rolled["warnings"]
    tracked = _odds({"kind": "rush", **fields, "pp": 5}, options)
    assert tracked["warnings"] == []
    text = run_cli("ptr2e", "odds", "rush", "--score", "overland=10", "--skill", "running=55",
                   "--type", "overland", "--option", "rush_yield=per_two_dos",
                   "--pp-boost", "2")
    assert text.exit_code == 0, text.stderr
    assert "warning: pp_untracked: rush: pp_boost 2" in text.stdout
