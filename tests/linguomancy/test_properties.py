"""Property tests (hypothesis) of the d20 test.

* the degree never gets worse as the total rises with the same natural face;
* replaying the printed faces (``rolls_used``) gives the identical result;
* plus the invariants the contract states: faces consumed, kept face, the
  D5 shift of at most one step, success = degree at least success (D1 rev. 2), attack flags.

Each test is bounded (a couple of hundred examples, small inputs).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.core.dice import ScriptedDice, SeededDice
from linguo_cli.rulesets.linguomancy import requests
from linguo_cli.rulesets.linguomancy.checks import TestRequest, degree_for_margin, resolve_test
from linguo_cli.rulesets.linguomancy.model import Degree, Modifier, TestKind

BOUNDED = settings(max_examples=200, deadline=None, derandomize=True)

faces = st.integers(min_value=1, max_value=20)
small = st.integers(min_value=-60, max_value=60)
kinds = st.sampled_from(list(TestKind))


def resolve(kind: TestKind, target: int, mod: int, rolls: list[int], **kw: Any):
    dice = ScriptedDice(rolls)
    result = resolve_test(
        TestRequest(kind=kind, target=target, modifiers=(Modifier("m", mod),), **kw), dice)
    dice.finish()
    return result


@BOUNDED
@given(kind=kinds, natural=faces, target=small, low=small, high=small)
def test_degree_never_worse_as_total_rises_with_the_same_face(
        kind: TestKind, natural: int, target: int, low: int, high: int) -> None:
    low, high = min(low, high), max(low, high)
    worse = resolve(kind, target, low, [natural])
    better = resolve(kind, target, high, [natural])
    assert better.total is not None and worse.total is not None
    assert better.total >= worse.total
    assert better.unadjusted_degree >= worse.unadjusted_degree
    assert better.degree >= worse.degree
    if kind is TestKind.ATTACK:
        assert better.hit or not worse.hit


@BOUNDED
@given(natural=faces, mod=small, low=small, high=small)
def test_degree_never_better_as_the_target_rises(natural: int, mod: int, low: int,
                                                 high: int) -> None:
    low, high = min(low, high), max(low, high)
    easy = resolve(TestKind.CHECK, low, mod, [natural])
    hard = resolve(TestKind.CHECK, high, mod, [natural])
    assert hard.degree <= easy.degree


@BOUNDED
@given(margin_a=st.integers(-1000, 1000), margin_b=st.integers(-1000, 1000))
def test_ladder_is_monotone_in_the_margin(margin_a: int, margin_b: int) -> None:
    lo, hi = min(margin_a, margin_b), max(margin_a, margin_b)
    assert degree_for_margin(lo) <= degree_for_margin(hi)


@BOUNDED
@given(kind=kinds, natural=faces, target=small, mod=small)
def test_shift_is_one_step_toward_the_natural_and_clamped(
        kind: TestKind, natural: int, target: int, mod: int) -> None:
    r = resolve(kind, target, mod, [natural])
    step = int(r.degree) - int(r.unadjusted_degree)
    if natural == 20:
        assert r.shift == "natural_20"
        assert step == (0 if r.unadjusted_degree is Degree.CRITICAL_SUCCESS else 1)
    elif natural == 1:
        assert r.shift == "natural_1"
        assert step == (0 if r.unadjusted_degree is Degree.CRITICAL_FAILURE else -1)
    else:
        assert r.shift is None and step == 0
    assert r.margin == r.total - target  # type: ignore[operator]
    assert r.unadjusted_degree == degree_for_margin(r.margin)  # type: ignore[arg-type]
    assert r.succeeded is (r.degree >= Degree.SUCCESS)  # D1 rev. 2: the degree decides


@BOUNDED
@given(adv=st.booleans(), dis=st.booleans(), a=faces, b=faces, target=small, mod=small)
def test_faces_consumed_and_kept(adv: bool, dis: bool, a: int, b: int, target: int,
                                 mod: int) -> None:
    two = adv != dis
    r = resolve(TestKind.CHECK, target, mod, [a, b] if two else [a],
                advantage=adv, disadvantage=dis)
    kept = [f for f in r.faces if f["kept"]]
    assert len(kept) == 1
    assert kept[0]["face"] == r.natural
    if not two:
        assert r.natural == a and len(r.faces) == 1
    elif adv:
        assert r.natural == max(a, b)
    else:
        assert r.natural == min(a, b)
    if two and a == b:
        assert r.faces[0]["kept"] is True


@BOUNDED
@given(natural=faces, target=small, mod=small, ruling=st.booleans())
def test_attack_flags_agree_with_the_degree(natural: int, target: int, mod: int,
                                            ruling: bool) -> None:
    r = resolve(TestKind.ATTACK, target, mod, [natural], partial_success_hits=ruling)
    hits = {Degree.SUCCESS, Degree.CRITICAL_SUCCESS}
    if ruling:
        hits.add(Degree.PARTIAL_SUCCESS)
    assert r.hit is (r.degree in hits)
    assert r.critical_hit is (r.degree is Degree.CRITICAL_SUCCESS)
    assert r.critical_miss is (r.degree is Degree.CRITICAL_FAILURE)
    if r.critical_miss:
        assert not r.hit
    if r.critical_hit:
        assert r.hit


def requests_strategy() -> st.SearchStrategy[dict[str, Any]]:
    modifiers = st.lists(
        st.fixed_dictionaries({"label": st.sampled_from(["strength", "idiom", "bless"]),
                               "value": st.integers(-10, 10)}), max_size=3)
    common = {
        "modifiers": modifiers,
        "advantage": st.booleans(),
        "disadvantage": st.booleans(),
    }
    check = st.fixed_dictionaries({"kind": st.just("check"), "dc": st.integers(0, 40),
                                   **common})
    attack = st.fixed_dictionaries(
        {"kind": st.just("attack"),
         "ac": st.one_of(st.none(), st.integers(5, 30),
                         st.fixed_dictionaries({"signature": st.integers(-3, 5)})),
         "partial_success_hits": st.booleans(), **common})
    save = st.fixed_dictionaries({"kind": st.just("save"), "dc": st.integers(0, 40),
                                  "no_ability": st.booleans(), **common})
    return st.one_of(check, attack, save)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(request=requests_strategy(), seed=st.integers(0, 2**32))
def test_replaying_the_printed_faces_gives_the_identical_result(
        request: dict[str, Any], seed: int) -> None:
    first = requests.resolve_plain(request, SeededDice(seed))
    replay = requests.resolve_plain({**request, "rolls": first["rolls_used"]})
    assert replay == first
    assert [f["face"] for f in first["faces"]] == first["rolls_used"]
