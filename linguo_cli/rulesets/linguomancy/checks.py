"""The d20 test: ability checks, attack rolls and saving throws.

Implements D1-D5 (roll, advantage/disadvantage, natural face, degree ladder,
natural 20/1 shifts), A1-A3 (hit, critical hit/miss, no AC) and S1-S2 (save,
no ability score). Building a test from an entity (D6 ability modifiers, D7
Noun checks, A4 AC from parts, S3 idiom save DC) happens in
:mod:`linguo_cli.rulesets.linguomancy.requests`, which records those rules in the same derivation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from linguo_cli.core.derivation import Step
from linguo_cli.core.dice import DiceSource, face_record
from linguo_cli.rulesets.linguomancy.model import Degree, Modifier, TestKind

#: The degree ladder of rule D4 as data: (lowest margin, degree), best first.
#: A margin below every row is a critical failure.
DEGREE_LADDER: tuple[tuple[int, Degree], ...] = (
    (10, Degree.CRITICAL_SUCCESS),
    (0, Degree.SUCCESS),
    (-1, Degree.PARTIAL_SUCCESS),
    (-3, Degree.PARTIAL_FAILURE),
    (-9, Degree.FAILURE),
)


def degree_for_margin(margin: int) -> Degree:
    """Rule D4: the degree of success for ``margin = total - target``.

    >= 10 critical success; 0..9 success; -1 partial success; -2..-3 partial
    failure; -4..-9 failure; <= -10 critical failure.
    """
    for lowest, degree in DEGREE_LADDER:
        if margin >= lowest:
            return degree
    return Degree.CRITICAL_FAILURE


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
    """The outcome of one d20 test with its whole derivation.

    ``faces``: every d20 rolled in order, with ``kept``; ``natural``: the kept
    face (``None`` when no die was rolled); ``margin = total - target``;
    ``unadjusted_degree`` from D4, ``degree`` after the D5 shift; the outcome
    (:attr:`succeeded`, JSON ``success``) reads ``degree`` (D1 rev. 2). Attacks
    set ``hit`` (the degree, A1; partial success too under
    ``partial_success_hits``), ``critical_hit``, ``critical_miss``; other tests
    leave them ``None``.
    """

    __test__ = False

    kind: TestKind
    faces: tuple[dict[str, object], ...]
    natural: int | None
    modifiers: tuple[Modifier, ...]
    total: int | None
    target: int | None
    margin: int | None
    unadjusted_degree: Degree
    degree: Degree
    shift: str | None
    hit: bool | None = None
    critical_hit: bool | None = None
    critical_miss: bool | None = None
    rules: tuple[str, ...] = ()
    steps: tuple[Step, ...] = field(default=())

    @property
    def succeeded(self) -> bool:
        """Rule D1/S1 (rev. 2): the test succeeds when its degree after the D5
        shift is success or critical success (so a natural 20 at margin -1
        succeeds and a natural 1 at margin 0 does not); an automatic hit (A3)
        succeeds, an S2 automatic failure does not. Never ``total >= target``."""
        return self.degree >= Degree.SUCCESS

    def as_dict(self) -> dict[str, object]:
        """The stable JSON shape (see ``golden/README.md``)."""
        out: dict[str, object] = {
            "kind": self.kind.value,
            "faces": list(self.faces),
            "natural": self.natural,
            "modifiers": [m.as_dict() for m in self.modifiers],
            "modifier_total": sum(m.value for m in self.modifiers),
            "total": self.total,
            "target": self.target,
            "margin": self.margin,
            "unadjusted_degree": self.unadjusted_degree.label,
            "degree": self.degree.label,
            "shift": self.shift,
            "success": self.succeeded,
        }
        if self.kind is TestKind.ATTACK:
            out["hit"] = self.hit
            out["critical_hit"] = self.critical_hit
            out["critical_miss"] = self.critical_miss
        out["rules"] = list(self.rules)
        out["explanation"] = [s.as_dict() for s in self.steps]
        return out


def _target_name(kind: TestKind) -> str:
    return {TestKind.CHECK: "DC", TestKind.ATTACK: "AC", TestKind.SAVE: "save DC"}[kind]


def resolve_test(request: TestRequest, dice: DiceSource) -> TestResult:
    """Resolve one d20 test, asking ``dice`` for d20 faces (0, 1 or 2 of them).

    Order of faces: with advantage or disadvantage alone, two d20 in the order
    rolled; with both (or neither), one d20 (D2); with ``automatic``, none.
    Raises :class:`~linguo_cli.core.errors.DiceError` when scripted faces run out.
    """
    steps = list(request.steps)
    rules: list[str] = [s.rule for s in request.steps]

    def note(rule: str, text: str) -> None:
        steps.append(Step(rule, text))
        if rule not in rules:
            rules.append(rule)

    if request.automatic == "no_ac":
        note("A3", "the target has no AC: the attack hits automatically, no die is rolled, "
             "no critical hit")
        return TestResult(
            kind=request.kind, faces=(), natural=None, modifiers=request.modifiers,
            total=None, target=None, margin=None,
            unadjusted_degree=Degree.SUCCESS, degree=Degree.SUCCESS, shift=None,
            hit=True, critical_hit=False, critical_miss=False,
            rules=tuple(rules), steps=tuple(steps),
        )
    if request.automatic == "no_ability":
        note("S2", "no score for the save's ability: automatic failure, no die is rolled")
        return TestResult(
            kind=request.kind, faces=(), natural=None, modifiers=request.modifiers,
            total=None, target=request.target, margin=None,
            unadjusted_degree=Degree.FAILURE, degree=Degree.FAILURE, shift=None,
            rules=tuple(rules), steps=tuple(steps),
        )
    assert request.target is not None

    # D2/D3: how many dice and which one is kept.
    adv, dis = request.advantage, request.disadvantage
    faces: tuple[dict[str, object], ...]
    if adv and not dis:
        a, b = dice.roll(20), dice.roll(20)
        natural = max(a, b)
        kept_index = 0 if a >= b else 1
        faces = (face_record(20, a, kept_index == 0), face_record(20, b, kept_index == 1))
        note("D2", f"advantage: rolled {a} and {b}, kept the higher")
    elif dis and not adv:
        a, b = dice.roll(20), dice.roll(20)
        natural = min(a, b)
        kept_index = 0 if a <= b else 1
        faces = (face_record(20, a, kept_index == 0), face_record(20, b, kept_index == 1))
        note("D2", f"disadvantage: rolled {a} and {b}, kept the lower")
    else:
        natural = dice.roll(20)
        faces = (face_record(20, natural, True),)
        if adv and dis:
            note("D2", f"advantage and disadvantage together: one die, rolled {natural}")
    note("D3", f"natural {natural}")

    mod_total = sum(m.value for m in request.modifiers)
    total = natural + mod_total
    target = request.target
    margin = total - target
    mods_text = "".join(f" {'+' if m.value >= 0 else '-'} {abs(m.value)} ({m.label})"
                        for m in request.modifiers)
    note("D1", f"total {natural}{mods_text} = {total} against {_target_name(request.kind)} "
         f"{target}: margin {margin:+d}")
    unadjusted = degree_for_margin(margin)
    note("D4", f"margin {margin:+d} gives {unadjusted.title}")

    shift: str | None = None
    degree = unadjusted
    if natural == 20:
        shift = "natural_20"
        degree = unadjusted.shifted(+1)
        note("D5", f"natural 20: one degree better, {unadjusted.title} -> {degree.title}"
             + (" (already the best)" if degree == unadjusted else ""))
    elif natural == 1:
        shift = "natural_1"
        degree = unadjusted.shifted(-1)
        note("D5", f"natural 1: one degree worse, {unadjusted.title} -> {degree.title}"
             + (" (already the worst)" if degree == unadjusted else ""))

    hit = critical_hit = critical_miss = None
    if request.kind is TestKind.ATTACK:
        critical_hit = degree is Degree.CRITICAL_SUCCESS
        critical_miss = degree is Degree.CRITICAL_FAILURE
        hits: tuple[Degree, ...] = (Degree.SUCCESS, Degree.CRITICAL_SUCCESS)
        if request.partial_success_hits:
            hits += (Degree.PARTIAL_SUCCESS,)
        hit = degree in hits
        if degree is Degree.PARTIAL_SUCCESS:
            note("A1", "partial success " + (
                "hits (ruling partial-success-hits)" if hit else
                "does not hit (default ruling; partial-success-hits selects the alternative)"))
        else:
            note("A1", "the attack " + ("hits" if hit else "misses"))
        if critical_hit:
            note("A2", "critical success: a critical hit")
        if critical_miss:
            note("A2", "critical failure: a critical miss, which always misses")
    elif request.kind is TestKind.CHECK:
        note("D1", "the check " + ("succeeds" if degree >= Degree.SUCCESS else "fails")
             + f" ({degree.title}: success or critical success succeeds)")
    elif request.kind is TestKind.SAVE:
        note("S1", "the save " + ("succeeds" if degree >= Degree.SUCCESS else "fails")
             + f" ({degree.title}, D1: success or critical success saves); the effect "
             "decides what the degree changes")

    return TestResult(
        kind=request.kind, faces=faces, natural=natural, modifiers=request.modifiers,
        total=total, target=target, margin=margin,
        unadjusted_degree=unadjusted, degree=degree, shift=shift,
        hit=hit, critical_hit=critical_hit, critical_miss=critical_miss,
        rules=tuple(rules), steps=tuple(steps),
    )
