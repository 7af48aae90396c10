"""Unit tests of :mod:`linguo_cli.rulesets.linguomancy.checks` (rules D1-D5, A1-A3, S1-S2) and of
the :class:`~linguo_cli.rulesets.linguomancy.model.Degree` ladder.

The oracle below is written from the D4 table of RULINGS.md, not from the
implementation: a list of margin bands and the ladder spelled out by hand.
"""

from __future__ import annotations

import pytest

from linguo_cli.core.dice import ScriptedDice
from linguo_cli.core.errors import DiceError
from linguo_cli.rulesets.linguomancy.checks import (
    DEGREE_LADDER,
    TestRequest,
    degree_for_margin,
    resolve_test,
)
from linguo_cli.rulesets.linguomancy.model import Degree, Modifier, TestKind

#: The D4 ladder worst to best, as spelled in JSON.
LADDER = [
    "critical_failure",
    "failure",
    "partial_failure",
    "partial_success",
    "success",
    "critical_success",
]


def oracle_degree(margin: int) -> str:
    """D4 written out band by band (the "or more" reading of the ruling)."""
    if margin >= 10:
        return "critical_success"
    if 0 <= margin <= 9:
        return "success"
    if margin == -1:
        return "partial_success"
    if margin in (-2, -3):
        return "partial_failure"
    if -9 <= margin <= -4:
        return "failure"
    return "critical_failure"


def oracle_shifted(label: str, natural: int) -> str:
    """D5: one step up for a natural 20, down for a natural 1, clamped."""
    i = LADDER.index(label)
    if natural == 20:
        i = min(i + 1, len(LADDER) - 1)
    elif natural == 1:
        i = max(i - 1, 0)
    return LADDER[i]


def check(target: int, faces: list[int], mods: tuple[int, ...] = (), **kw: object):
    """Resolve a check against ``target`` with scripted ``faces``; all faces
    must be consumed."""
    dice = ScriptedDice(faces)
    req = TestRequest(
        kind=kw.pop("kind", TestKind.CHECK),  # type: ignore[arg-type]
        target=target,
        modifiers=tuple(Modifier(f"m{i}", v) for i, v in enumerate(mods)),
        **kw,  # type: ignore[arg-type]
    )
    result = resolve_test(req, dice)
    dice.finish()
    return result, dice


# ---------------------------------------------------------------------------
# D4: the ladder


@pytest.mark.parametrize(
    ("margin", "expected"),
    [
        (1_000_000, "critical_success"),
        (11, "critical_success"),
        (10, "critical_success"),
        (9, "success"),
        (0, "success"),
        (-1, "partial_success"),
        (-2, "partial_failure"),
        (-3, "partial_failure"),
        (-4, "failure"),
        (-9, "failure"),
        (-10, "critical_failure"),
        (-11, "critical_failure"),
        (-1_000_000, "critical_failure"),
    ],
)
def test_degree_for_margin_borders(margin: int, expected: str) -> None:
    assert degree_for_margin(margin).label == expected


def test_degree_for_margin_matches_oracle_on_a_wide_range() -> None:
    for margin in range(-40, 41):
        assert degree_for_margin(margin).label == oracle_degree(margin), margin


def test_ladder_rows_are_best_first_and_strictly_decreasing() -> None:
    lowest = [row[0] for row in DEGREE_LADDER]
    assert lowest == sorted(lowest, reverse=True)
    assert len(set(lowest)) == len(lowest)
    degrees = [row[1] for row in DEGREE_LADDER]
    assert degrees == sorted(degrees, reverse=True)


# ---------------------------------------------------------------------------
# Degree (model.py)


def test_degree_labels_are_the_json_spellings_worst_to_best() -> None:
    assert [d.label for d in sorted(Degree)] == LADDER


@pytest.mark.parametrize("label", LADDER)
def test_degree_from_label_round_trips(label: str) -> None:
    assert Degree.from_label(label).label == label


def test_degree_from_unknown_label_raises() -> None:
    with pytest.raises(KeyError):
        Degree.from_label("great_success")


@pytest.mark.parametrize("start", range(6))
@pytest.mark.parametrize("steps", [-7, -2, -1, 0, 1, 2, 7])
def test_degree_shift_is_clamped(start: int, steps: int) -> None:
    expected = LADDER[min(max(start + steps, 0), 5)]
    assert Degree(start).shifted(steps).label == expected


def test_degree_titles() -> None:
    assert Degree.PARTIAL_SUCCESS.title == "Partial Success"
    assert Degree.CRITICAL_FAILURE.title == "Critical Failure"


# ---------------------------------------------------------------------------
# D1-D5: every face against a grid of margins


@pytest.mark.parametrize("natural", range(1, 21))
def test_every_face_against_a_grid_of_margins(natural: int) -> None:
    dc = 15
    for margin in range(-15, 16):
        mod = dc + margin - natural
        result, dice = check(dc, [natural], (mod,))
        assert dice.used == [natural]
        assert result.natural == natural
        assert result.total == natural + mod == dc + margin
        assert result.target == dc
        assert result.margin == margin
        unadjusted = oracle_degree(margin)
        assert result.unadjusted_degree.label == unadjusted
        assert result.degree.label == oracle_shifted(unadjusted, natural)
        assert result.shift == {20: "natural_20", 1: "natural_1"}.get(natural)
        # D1 rev. 2: the outcome is the shifted degree, not total >= DC.
        assert result.succeeded is (
            oracle_shifted(unadjusted, natural) in ("success", "critical_success"))


def test_modifiers_are_summed_and_kept_in_order() -> None:
    result, _ = check(12, [10], (3, 2, -4))
    assert [m.value for m in result.modifiers] == [3, 2, -4]
    assert result.total == 11
    d = result.as_dict()
    assert d["modifier_total"] == 1
    assert d["modifiers"] == [
        {"label": "m0", "value": 3}, {"label": "m1", "value": 2}, {"label": "m2", "value": -4}]


# ---------------------------------------------------------------------------
# D2/D3: advantage and disadvantage


@pytest.mark.parametrize(
    ("adv", "dis", "faces", "natural", "kept"),
    [
        (True, False, [7, 15], 15, [False, True]),
        (True, False, [15, 7], 15, [True, False]),
        (True, False, [12, 12], 12, [True, False]),
        (False, True, [7, 15], 7, [True, False]),
        (False, True, [15, 7], 7, [False, True]),
        (False, True, [9, 9], 9, [True, False]),
        (True, True, [13], 13, [True]),
        (False, False, [13], 13, [True]),
    ],
)
def test_advantage_and_disadvantage(adv: bool, dis: bool, faces: list[int], natural: int,
                                    kept: list[bool]) -> None:
    result, dice = check(10, faces, advantage=adv, disadvantage=dis)
    assert dice.used == faces
    assert result.natural == natural
    assert [f["kept"] for f in result.faces] == kept
    assert [f["face"] for f in result.faces] == faces
    assert all(f["die"] == 20 for f in result.faces)


def test_advantage_keeps_a_20_and_shifts() -> None:
    result, _ = check(25, [3, 20], (2,), advantage=True)
    assert result.natural == 20
    assert result.shift == "natural_20"
    assert result.degree is Degree.PARTIAL_SUCCESS


def test_disadvantage_drops_a_20_and_does_not_shift() -> None:
    result, _ = check(10, [20, 6], (3,), disadvantage=True)
    assert result.natural == 6
    assert result.shift is None


def test_advantage_with_too_few_faces_raises_dice_error() -> None:
    with pytest.raises(DiceError) as info:
        check(10, [12], advantage=True)
    assert info.value.code == 3


def test_both_advantage_and_disadvantage_leave_a_second_face_unused() -> None:
    with pytest.raises(DiceError):
        check(10, [12, 4], advantage=True, disadvantage=True)


# ---------------------------------------------------------------------------
# A1-A3: attacks


def attack(ac: int | None, faces: list[int], mods: tuple[int, ...] = (), **kw: object):
    if ac is None:
        kw["automatic"] = "no_ac"
    return check(ac, faces, mods, kind=TestKind.ATTACK, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("face", "mod", "degree", "hit", "crit_hit", "crit_miss"),
    [
        (17, 5, "critical_success", True, True, False),   # 22 vs AC 12: +10
        (16, 5, "success", True, False, False),           # 21: +9
        (7, 5, "success", True, False, False),            # 12: 0
        (6, 5, "partial_success", False, False, False),   # 11: -1
        (5, 5, "partial_failure", False, False, False),   # 10: -2
        (3, 5, "failure", False, False, False),           # 8: -4
        (3, 0, "failure", False, False, False),           # 3: -9
        (2, 0, "critical_failure", False, False, True),   # 2: -10
        (20, -6, "critical_success", True, True, False),  # 14: +2, natural 20 lifts success
        (20, -9, "success", True, False, False),          # 11: -1, natural 20 lifts partial success
        (20, -20, "failure", False, False, False),        # 0: -12, natural 20 lifts crit. failure
        (1, 11, "partial_success", False, False, False),  # 12: 0, natural 1 drops success
        (1, 21, "success", True, False, False),           # 22: +10, natural 1 drops crit. success
        (1, 5, "critical_failure", False, False, True),   # 6: -6, natural 1 drops failure
    ],
)
def test_attack_flags_follow_the_degree(face: int, mod: int, degree: str, hit: bool,
                                        crit_hit: bool, crit_miss: bool) -> None:
    result, _ = attack(12, [face], (mod,))
    assert result.degree.label == degree
    assert (result.hit, result.critical_hit, result.critical_miss) == (hit, crit_hit, crit_miss)
    d = result.as_dict()
    assert (d["hit"], d["critical_hit"], d["critical_miss"]) == (hit, crit_hit, crit_miss)


@pytest.mark.parametrize(
    ("face", "hit_default", "hit_ruling"),
    [
        (7, True, True),     # 12 vs 12: success
        (6, False, True),    # 11: -1 partial success
        (5, False, False),   # 10: -2 partial failure
        (2, False, False),   # 7: -5 failure
    ],
)
def test_partial_success_hits_ruling(face: int, hit_default: bool, hit_ruling: bool) -> None:
    default, _ = attack(12, [face], (5,))
    ruling, _ = attack(12, [face], (5,), partial_success_hits=True)
    assert default.hit is hit_default
    assert ruling.hit is hit_ruling
    assert default.degree == ruling.degree


def test_partial_success_hits_ruling_is_named_in_the_explanation() -> None:
    result, _ = attack(12, [6], (5,), partial_success_hits=True)
    a1 = [s.text for s in result.steps if s.rule == "A1"]
    assert a1 and "partial-success-hits" in a1[0]


def test_critical_miss_never_hits_even_with_the_ruling() -> None:
    result, _ = attack(15, [1], (6,), partial_success_hits=True)
    assert result.degree is Degree.CRITICAL_FAILURE
    assert result.critical_miss is True
    assert result.hit is False


def test_no_ac_hits_automatically_without_a_die() -> None:
    result, dice = attack(None, [], (5,))
    assert dice.used == []
    assert result.faces == ()
    assert result.natural is None
    assert result.margin is None
    assert result.degree is Degree.SUCCESS
    assert (result.hit, result.critical_hit, result.critical_miss) == (True, False, False)
    assert result.succeeded is True
    assert "A3" in result.rules


def test_no_ac_with_advantage_still_rolls_nothing() -> None:
    result, dice = attack(None, [], advantage=True)
    assert dice.used == []
    assert result.hit is True


def test_no_ac_with_a_scripted_face_leaves_it_unused() -> None:
    with pytest.raises(DiceError):
        attack(None, [20])


# ---------------------------------------------------------------------------
# S1-S2: saves


def save(dc: int, faces: list[int], mods: tuple[int, ...] = (), **kw: object):
    return check(dc, faces, mods, kind=TestKind.SAVE, **kw)  # type: ignore[arg-type]


def test_save_at_the_dc_succeeds_and_below_fails() -> None:
    ok, _ = save(14, [12], (2,))
    short, _ = save(14, [11], (2,))
    assert ok.succeeded is True and ok.degree is Degree.SUCCESS
    assert short.succeeded is False and short.degree is Degree.PARTIAL_SUCCESS
    assert "S1" in ok.rules


def test_save_has_no_attack_fields() -> None:
    result, _ = save(14, [12], (2,))
    d = result.as_dict()
    assert "hit" not in d and "critical_hit" not in d and "critical_miss" not in d
    assert d["kind"] == "save"


def test_no_ability_save_fails_automatically_without_a_die() -> None:
    result, dice = save(5, [], (10,), automatic="no_ability", advantage=True)
    assert dice.used == []
    assert result.faces == ()
    assert result.natural is None
    assert result.margin is None
    assert result.unadjusted_degree is Degree.FAILURE
    assert result.degree is Degree.FAILURE
    assert result.shift is None
    assert result.succeeded is False
    assert result.target == 5
    assert "S2" in result.rules


# ---------------------------------------------------------------------------
# The derivation and the JSON shape


def test_result_shape_of_a_check() -> None:
    result, _ = check(30, [20], (3,))
    d = result.as_dict()
    assert list(d) == [
        "kind", "faces", "natural", "modifiers", "modifier_total", "total", "target",
        "margin", "unadjusted_degree", "degree", "shift", "success", "rules", "explanation",
    ]
    assert d["faces"] == [{"die": 20, "face": 20, "kept": True}]
    assert (d["total"], d["margin"]) == (23, -7)
    assert (d["unadjusted_degree"], d["degree"], d["shift"]) == (
        "failure", "partial_failure", "natural_20")
    assert d["success"] is False


def test_attack_shape_adds_hit_fields() -> None:
    result, _ = attack(15, [1], (5,))
    d = result.as_dict()
    assert d["kind"] == "attack"
    assert (d["hit"], d["critical_hit"], d["critical_miss"]) == (False, False, True)


def test_explanation_cites_each_rule_used() -> None:
    result, _ = check(30, [20], (3,))
    rules = [s["rule"] for s in result.as_dict()["explanation"]]
    for rule in ("D1", "D3", "D4", "D5"):
        assert rule in rules
    assert list(result.rules) == list(dict.fromkeys(rules))


def test_no_shift_means_no_d5_step() -> None:
    result, _ = check(10, [12])
    assert "D5" not in result.rules
    assert result.shift is None


def test_clamped_shift_says_so() -> None:
    top, _ = check(10, [20], (5,))
    bottom, _ = check(20, [1])
    assert "already the best" in [s.text for s in top.steps if s.rule == "D5"][0]
    assert "already the worst" in [s.text for s in bottom.steps if s.rule == "D5"][0]


def test_critical_hit_and_miss_cite_a2() -> None:
    crit, _ = attack(12, [17], (5,))
    miss, _ = attack(12, [2])
    plain, _ = attack(12, [10])
    assert "A2" in crit.rules and "A2" in miss.rules
    assert "A2" not in plain.rules


def test_steps_given_by_the_request_come_first() -> None:
    from linguo_cli.core.derivation import Step

    result, _ = check(10, [12], steps=(Step("D6", "strength score 16 gives +3"),))
    assert result.steps[0].rule == "D6"
    assert result.rules[0] == "D6"


def test_resolve_runs_out_of_faces() -> None:
    with pytest.raises(DiceError):
        check(10, [])


# ---------------------------------------------------------------------------
# One copy of the rules: odds and rolls agree on every face of a grid


def _faces(adv: bool, dis: bool) -> list[list[int]]:
    """Every equally likely sequence of faces a test rolls (D2)."""
    if adv != dis:
        return [[a, b] for a in range(1, 21) for b in range(1, 21)]
    return [[n] for n in range(1, 21)]


@pytest.mark.parametrize(("adv", "dis"), [(False, False), (True, False), (False, True),
                                          (True, True)])
@pytest.mark.parametrize("psh", [False, True])
def test_odds_and_rolls_agree_on_every_face(adv: bool, dis: bool, psh: bool) -> None:
    """Every natural 1-20 (every pair with advantage or disadvantage) x offsets
    -25..25 (``total - target = natural + offset``) x the A1 ruling: the exact
    mass odds give each degree, success, hit, critical hit and critical miss
    equals the share of faces whose rolled result (resolve_test with scripted
    dice) has it. Both go through checks.d20_outcome and checks.attack_hits."""
    from fractions import Fraction

    from linguo_cli.rulesets.linguomancy.odds import odds_for_test

    sequences = _faces(adv, dis)
    whole = len(sequences)
    for offset in range(-25, 26):
        request = TestRequest(TestKind.ATTACK, 15, (Modifier("m", offset + 15),),
                              advantage=adv, disadvantage=dis, partial_success_hits=psh)
        odds = odds_for_test(request)
        degrees = dict.fromkeys(Degree, 0)
        success = hit = crit = miss = 0
        for faces in sequences:
            r = resolve_test(request, ScriptedDice(faces))
            degrees[r.degree] += 1
            success += r.success
            hit += bool(r.hit)
            crit += bool(r.critical_hit)
            miss += bool(r.critical_miss)
        assert odds.degrees == {d: Fraction(n, whole) for d, n in degrees.items()}, offset
        assert odds.success == Fraction(success, whole), offset
        assert odds.hit == Fraction(hit, whole), offset
        assert odds.critical_hit == Fraction(crit, whole), offset
        assert odds.critical_miss == Fraction(miss, whole), offset


def test_d20_test_is_the_core_test_with_linguomancys_ladder() -> None:
    """D4/D5 expressed through core.tests: the ladder as data, natural shifts."""
    from linguo_cli.core.tests import Comparator
    from linguo_cli.rulesets.linguomancy.checks import D20_TEST, d20_outcome

    assert D20_TEST.sides == 20
    assert D20_TEST.comparator is Comparator.AT_LEAST
    for natural in range(1, 21):
        for offset in range(-30, 31):
            out = d20_outcome(natural, offset, 0)
            assert out.unadjusted.label == oracle_degree(natural + offset)
            assert out.degree.label == oracle_shifted(oracle_degree(natural + offset), natural)


def test_test_result_json_keys_in_order() -> None:
    """The typed result converts to the documented JSON keys, in order;
    hit keys only on attacks; rolls_used last."""
    from dataclasses import replace

    from linguo_cli.core.results import to_plain

    check_keys = ["kind", "faces", "natural", "modifiers", "modifier_total", "total", "target",
                  "margin", "unadjusted_degree", "degree", "shift", "success", "rules",
                  "explanation", "rolls_used"]
    r = resolve_test(TestRequest(TestKind.CHECK, 10), ScriptedDice([12]))
    assert list(to_plain(replace(r, rolls_used=(12,)))) == check_keys
    assert to_plain(r)["degree"] == "success"
    a = resolve_test(TestRequest(TestKind.ATTACK, 10), ScriptedDice([12]))
    keys = list(to_plain(a))
    assert keys[keys.index("success") + 1:keys.index("rules")] == [
        "hit", "critical_hit", "critical_miss"]
    assert "rolls_used" not in a.as_dict()
