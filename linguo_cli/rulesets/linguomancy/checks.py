"""The d20 test: ability checks, attack rolls and saving throws.

Implements D1-D5 (roll, advantage/disadvantage, natural face, degree ladder,
natural 20/1 shifts), A1-A3 (hit, critical hit/miss, no AC) and S1-S2 (save,
no ability score). Building a test from an entity (D6 ability modifiers, D7
Noun checks, A4 AC from parts, S3 idiom save DC) happens in
:mod:`linguo_cli.rulesets.linguomancy.requests`, which records those rules in the same derivation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice_sources import DiceSource, face_record
from linguo_cli.core.results import OMIT, Omit, to_plain
from linguo_cli.core.tests import Comparator, Ladder, Outcome, TestSpec, kept_face_weights
from linguo_cli.rulesets.linguomancy.d20_model import Degree, Modifier, TestKind

#: The degree ladder of rule D4 as data: (lowest margin, degree), best first.
#: A margin below every row is a critical failure.
DEGREE_LADDER: tuple[tuple[int, Degree], ...] = (
    (10, Degree.CRITICAL_SUCCESS),
    (0, Degree.SUCCESS),
    (-1, Degree.PARTIAL_SUCCESS),
    (-3, Degree.PARTIAL_FAILURE),
    (-9, Degree.FAILURE),
)

#: Linguomancy's d20 test as data (D1, D4, D5): one d20 plus modifiers,
#: ``total >= target`` read through ``margin = total - target`` on the six
#: degrees of D4, a natural 20 one degree up and a natural 1 one down (D5).
D20_TEST: TestSpec[Degree] = TestSpec(
    sides=20, comparator=Comparator.AT_LEAST,
    ladder=Ladder(order=tuple(Degree), rows=DEGREE_LADDER, bottom=Degree.CRITICAL_FAILURE,
                  natural_shifts={20: +1, 1: -1}))


def degree_for_margin(margin: int) -> Degree:
    """Rule D4: the degree of success for ``margin = total - target``.

    >= 10 critical success; 0..9 success; -1 partial success; -2..-3 partial
    failure; -4..-9 failure; <= -10 critical failure.
    """
    return D20_TEST.ladder.for_margin(margin)


@lru_cache(maxsize=4096)
def d20_outcome(natural: int, modifier_total: int, target: int) -> Outcome[Degree]:
    """Rules D1, D4, D5 for one natural face: total, margin, the D4 degree and
    the degree after the D5 shift of a natural 20 or 1 (the one copy rolls and
    odds both use). Cached: an :class:`Outcome` is frozen and depends on the
    three integers only."""
    return D20_TEST.outcome(natural, modifier_total, target)


def succeeds(degree: Degree) -> bool:
    """Rule D1/S1 (rev. 2): a test succeeds at success or critical success."""
    return degree >= Degree.SUCCESS


def attack_hits(degree: Degree, partial_success_hits: bool = False) -> bool:
    """Rule A1: success and critical success hit; partial success only under
    the alternative ruling ``partial-success-hits``."""
    return succeeds(degree) or (partial_success_hits and degree is Degree.PARTIAL_SUCCESS)


def natural_weights(advantage: bool, disadvantage: bool) -> tuple[tuple[int, ...], int]:
    """Rules D2/D3: ways for the kept d20 face 1..20 and their total. One die:
    1 each of 20; advantage alone: ``2k - 1`` of 400 (the higher of two);
    disadvantage alone: ``41 - 2k`` of 400 (the lower); both: one die."""
    keep = "high" if advantage and not disadvantage else (
        "low" if disadvantage and not advantage else None)
    return kept_face_weights(20, keep)


@dataclass(frozen=True, slots=True)
class TestRequest:
    """What to roll for one d20 test.

    ``target`` is the DC, AC or save DC (``None`` only with ``automatic``).
    ``automatic`` is ``None``, ``"no_ac"`` (A3: automatic hit) or
    ``"no_ability"`` (S2: automatic failure): then no die is rolled.
    ``partial_success_hits`` selects the A1 alternative ruling.
    ``steps`` are derivation lines already settled while building the test
    (D6, D7, A4, S3) and are placed first in the result's explanation.
    """

    __test__ = False

    kind: TestKind
    target: int | None
    modifiers: tuple[Modifier, ...] = ()
    advantage: bool = False
    disadvantage: bool = False
    automatic: str | None = None
    partial_success_hits: bool = False
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class TestResult:
    """The outcome of one d20 test with its whole derivation: the result of
    kinds ``check``, ``attack`` and ``save`` (fields in JSON order, see
    ``golden/README.md``).

    ``faces``: every d20 rolled in order, with ``kept``; ``natural``: the kept
    face (``None`` when no die was rolled); ``modifier_total``: the sum of
    ``modifiers``; ``margin = total - target``; ``unadjusted_degree`` from D4,
    ``degree`` after the D5 shift (``shift``: ``natural_20``, ``natural_1`` or
    ``None``); ``success`` reads ``degree`` (D1 rev. 2). Attacks set ``hit``
    (the degree, A1; partial success too under ``partial_success_hits``),
    ``critical_hit``, ``critical_miss``; other tests leave them out
    (:data:`~linguo_cli.core.results.OMIT`). ``rolls_used`` is set by the
    dispatcher.
    """

    __test__ = False

    kind: TestKind
    faces: tuple[dict[str, object], ...]
    natural: int | None
    modifiers: tuple[Modifier, ...]
    modifier_total: int
    total: int | None
    target: int | None
    margin: int | None
    unadjusted_degree: Degree
    degree: Degree
    shift: str | None
    success: bool
    hit: bool | None | Omit = OMIT
    critical_hit: bool | None | Omit = OMIT
    critical_miss: bool | None | Omit = OMIT
    rules: tuple[str, ...] = ()
    steps: tuple[Step, ...] = field(default=(), metadata={"json": "explanation"})
    rolls_used: tuple[int, ...] = ()

    @property
    def succeeded(self) -> bool:
        """Rule D1/S1 (rev. 2): the test succeeds when its degree after the D5
        shift is success or critical success (so a natural 20 at margin -1
        succeeds and a natural 1 at margin 0 does not); an automatic hit (A3)
        succeeds, an S2 automatic failure does not. Never ``total >= target``."""
        return self.success

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape without ``rolls_used`` (a test inside another result)."""
        out: dict[str, Any] = to_plain(self)
        out.pop("rolls_used", None)
        return out


_TARGET_NAMES: dict[TestKind, str] = {
    TestKind.CHECK: "DC", TestKind.ATTACK: "AC", TestKind.SAVE: "save DC"}


def _target_name(kind: TestKind) -> str:
    return _TARGET_NAMES[kind]


def _automatic(request: TestRequest, log: Derivation) -> TestResult:
    """A3 (no AC: automatic hit) or S2 (no ability: automatic failure)."""
    mod_total = sum(m.value for m in request.modifiers)
    if request.automatic == "no_ac":
        log.note("A3", "the target has no AC: the attack hits automatically, no die is "
                 "rolled, no critical hit")
        return TestResult(
            kind=request.kind, faces=(), natural=None, modifiers=request.modifiers,
            modifier_total=mod_total, total=None, target=None, margin=None,
            unadjusted_degree=Degree.SUCCESS, degree=Degree.SUCCESS, shift=None, success=True,
            hit=True, critical_hit=False, critical_miss=False,
            rules=log.rules, steps=tuple(log.steps))
    log.note("S2", "no score for the save's ability: automatic failure, no die is rolled")
    attack = request.kind is TestKind.ATTACK
    return TestResult(
        kind=request.kind, faces=(), natural=None, modifiers=request.modifiers,
        modifier_total=mod_total, total=None, target=request.target, margin=None,
        unadjusted_degree=Degree.FAILURE, degree=Degree.FAILURE, shift=None, success=False,
        hit=None if attack else OMIT, critical_hit=None if attack else OMIT,
        critical_miss=None if attack else OMIT,
        rules=log.rules, steps=tuple(log.steps))


def _roll_natural(request: TestRequest, dice: DiceSource, log: Derivation
                  ) -> tuple[int, tuple[dict[str, object], ...]]:
    """Rules D2/D3: roll one or two d20 and keep the natural face."""
    adv, dis = request.advantage, request.disadvantage
    faces: tuple[dict[str, object], ...]
    if adv != dis:
        a, b = dice.roll(20), dice.roll(20)
        first = a >= b if adv else a <= b
        natural = a if first else b
        faces = (face_record(20, a, first), face_record(20, b, not first))
        log.note("D2", f"advantage: rolled {a} and {b}, kept the higher" if adv else
                 f"disadvantage: rolled {a} and {b}, kept the lower")
    else:
        natural = dice.roll(20)
        faces = (face_record(20, natural, True),)
        if adv and dis:
            log.note("D2", f"advantage and disadvantage together: one die, rolled {natural}")
    log.note("D3", f"natural {natural}")
    return natural, faces


def _note_outcome(request: TestRequest, degree: Degree, log: Derivation
                  ) -> tuple[bool | Omit, bool | Omit, bool | Omit]:
    """A1/A2 for attacks (hit, critical hit, critical miss), D1 for checks,
    S1 for saves; the notes only for the latter two."""
    if request.kind is TestKind.ATTACK:
        hit = attack_hits(degree, request.partial_success_hits)
        if degree is Degree.PARTIAL_SUCCESS:
            log.note("A1", "partial success " + (
                "hits (ruling partial-success-hits)" if hit else
                "does not hit (default ruling; partial-success-hits selects the alternative)"))
        else:
            log.note("A1", "the attack " + ("hits" if hit else "misses"))
        critical_hit = degree is Degree.CRITICAL_SUCCESS
        critical_miss = degree is Degree.CRITICAL_FAILURE
        if critical_hit:
            log.note("A2", "critical success: a critical hit")
        if critical_miss:
            log.note("A2", "critical failure: a critical miss, which always misses")
        return hit, critical_hit, critical_miss
    verb = "succeeds" if succeeds(degree) else "fails"
    if request.kind is TestKind.CHECK:
        log.note("D1", f"the check {verb} ({degree.title}: success or critical success "
                 "succeeds)")
    else:
        log.note("S1", f"the save {verb} ({degree.title}, D1: success or critical success "
                 "saves); the effect decides what the degree changes")
    return OMIT, OMIT, OMIT


def resolve_test(request: TestRequest, dice: DiceSource) -> TestResult:
    """Resolve one d20 test, asking ``dice`` for d20 faces (0, 1 or 2 of them).

    Order of faces: with advantage or disadvantage alone, two d20 in the order
    rolled; with both (or neither), one d20 (D2); with ``automatic``, none.
    The degree comes from :func:`d20_outcome` (D1, D4, D5), the hit from
    :func:`attack_hits` (A1): the functions odds use too.
    Raises :class:`~linguo_cli.core.errors.DiceError` when scripted faces run out.
    """
    log = Derivation(list(request.steps))
    if request.automatic in ("no_ac", "no_ability"):
        return _automatic(request, log)
    assert request.target is not None
    natural, faces = _roll_natural(request, dice, log)
    mod_total = sum(m.value for m in request.modifiers)
    target = request.target
    out = d20_outcome(natural, mod_total, target)
    mods_text = "".join([f" {'+' if m.value >= 0 else '-'} {abs(m.value)} ({m.label})"
                         for m in request.modifiers])
    log.note("D1", f"total {natural}{mods_text} = {out.total} against "
             f"{_target_name(request.kind)} {target}: margin {out.margin:+d}")
    unadjusted, degree = out.unadjusted, out.degree
    log.note("D4", f"margin {out.margin:+d} gives {unadjusted.title}")
    shift: str | None = None
    if out.shift:
        better = out.shift > 0
        shift = "natural_20" if better else "natural_1"
        log.note("D5", (f"natural 20: one degree better, {unadjusted.title} -> {degree.title}"
                        if better else
                        f"natural 1: one degree worse, {unadjusted.title} -> {degree.title}")
                 + ("" if degree != unadjusted else
                    " (already the best)" if better else " (already the worst)"))
    hit, critical_hit, critical_miss = _note_outcome(request, degree, log)
    return TestResult(
        kind=request.kind, faces=faces, natural=natural, modifiers=request.modifiers,
        modifier_total=mod_total, total=out.total, target=target, margin=out.margin,
        unadjusted_degree=unadjusted, degree=degree, shift=shift, success=succeeds(degree),
        hit=hit, critical_hit=critical_hit, critical_miss=critical_miss,
        rules=log.rules, steps=tuple(log.steps))
