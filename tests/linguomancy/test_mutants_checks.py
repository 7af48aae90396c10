"""The d20 test's explanation and edges (issue 13, mutation run of
``checks``): D1-D5, A1-A3 and S1-S2 through
:func:`~linguo_cli.rulesets.linguomancy.checks.resolve_test`, each line of
the explanation under the branch that writes it. Values are worked by hand
from ``RULINGS.md`` in each test's comment.
"""

from __future__ import annotations

from typing import Any

import pytest

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.core.errors import DiceError
from linguo_cli.core.results import to_plain
from linguo_cli.rulesets.linguomancy import checks
from linguo_cli.rulesets.linguomancy.model import Degree, TestKind


def resolve(kind: TestKind, faces: list[int], target: int | None = 10,
            **kw: Any) -> checks.TestResult:
    return checks.resolve_test(checks.TestRequest(kind=kind, target=target, **kw),
                               ScriptedDice(faces))


def notes(r: checks.TestResult, rule: str) -> list[str]:
    return [s.text for s in r.steps if s.rule == rule]


def test_partial_success_does_not_hit_by_default() -> None:
    # A1: partial success hits only under the alternative ruling.
    assert checks.attack_hits(Degree.PARTIAL_SUCCESS) is False
    assert checks.attack_hits(Degree.PARTIAL_SUCCESS, True) is True
    assert checks.attack_hits(Degree.SUCCESS) is True


@pytest.mark.parametrize(("kw", "faces"), [({}, [21]), ({"advantage": True}, [21, 5]),
                                           ({"advantage": True}, [5, 21]),
                                           ({"disadvantage": True}, [5, 21]),
                                           ({"advantage": True, "disadvantage": True}, [21])])
def test_every_die_of_a_test_is_a_d20(kw: dict[str, Any], faces: list[int]) -> None:
    # D1/D2: a scripted 21 does not fit a d20.
    with pytest.raises(DiceError):
        resolve(TestKind.CHECK, faces, **kw)


def test_advantage_and_disadvantage_notes() -> None:
    # D2: advantage keeps the higher of 5 and 12, disadvantage the lower.
    adv = resolve(TestKind.CHECK, [5, 12], advantage=True)
    assert adv.natural == 12
    assert notes(adv, "D2") == ["advantage: rolled 5 and 12, kept the higher"]
    dis = resolve(TestKind.CHECK, [5, 12], disadvantage=True)
    assert dis.natural == 5
    assert notes(dis, "D2") == ["disadvantage: rolled 5 and 12, kept the lower"]
    both = resolve(TestKind.CHECK, [7], advantage=True, disadvantage=True)
    assert notes(both, "D2") == ["advantage and disadvantage together: one die, rolled 7"]
    plain = resolve(TestKind.CHECK, [7])
    assert notes(plain, "D2") == []
    assert [s.rule for s in plain.steps] == ["D3", "D1", "D4", "D1"]


@pytest.mark.parametrize(("face", "target", "psh", "text"), [
    (9, 10, False, "partial success does not hit (default ruling; partial-success-hits "
                   "selects the alternative)"),
    (9, 10, True, "partial success hits (ruling partial-success-hits)"),
    (12, 10, False, "the attack hits"),
    (5, 10, False, "the attack misses"),
])
def test_a1_note(face: int, target: int, psh: bool, text: str) -> None:
    # A1: 9 vs AC 10 is margin -1, partial success; 12 succeeds; 5 fails.
    r = resolve(TestKind.ATTACK, [face], target, partial_success_hits=psh)
    assert notes(r, "A1") == [text]


@pytest.mark.parametrize(("kind", "face", "verb"), [
    (TestKind.CHECK, 10, "the check succeeds"), (TestKind.CHECK, 9, "the check fails"),
    (TestKind.SAVE, 10, "the save succeeds"), (TestKind.SAVE, 9, "the save fails"),
])
def test_d1_and_s1_notes_say_the_outcome(kind: TestKind, face: int, verb: str) -> None:
    # D1/S1: 10 vs 10 succeeds (margin 0); 9 is partial success, which fails.
    r = resolve(kind, [face])
    rule = "D1" if kind is TestKind.CHECK else "S1"
    assert notes(r, rule)[-1].startswith(verb + " (")


@pytest.mark.parametrize(("face", "target", "text"), [
    (20, 25, "natural 20: one degree better, Failure -> Partial Failure"),
    (1, 1, "natural 1: one degree worse, Success -> Partial Success"),
    (20, 10, "natural 20: one degree better, Critical Success -> Critical Success "
             "(already the best)"),
    (1, 30, "natural 1: one degree worse, Critical Failure -> Critical Failure "
            "(already the worst)"),
])
def test_d5_note(face: int, target: int, text: str) -> None:
    # D4/D5 without modifiers: 20 vs 25, m = -5 failure -> partial failure;
    # 1 vs 1, m = 0 success -> partial success; 20 vs 10, m = 10 critical
    # success stays; 1 vs 30, m = -29 critical failure stays.
    r = resolve(TestKind.CHECK, [face], target)
    assert notes(r, "D5") == [text]


def test_an_automatic_save_failure_has_no_attack_fields() -> None:
    # S2: no ability score: failure, no die, no hit fields for a save.
    r = resolve(TestKind.SAVE, [], 12, automatic="no_ability")
    out = to_plain(r)
    assert (out["degree"], out["success"], out["natural"]) == ("failure", False, None)
    assert "hit" not in out and "critical_hit" not in out and "critical_miss" not in out
    attack = to_plain(resolve(TestKind.ATTACK, [], 12, automatic="no_ability"))
    assert (attack["hit"], attack["critical_hit"], attack["critical_miss"]) == (None, None, None)
