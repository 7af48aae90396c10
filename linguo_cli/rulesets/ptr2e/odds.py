"""Exact odds of a PTR 2e skill test (PS1-PS3) and of a Rush's bonus (PR1,
PR2, PR5), as fractions: no die is rolled.

Request kind ``odds``: ``{"kind": "odds", "test": {"kind": "skill", value,
skill?, cr?, mod?}}`` or ``{"kind": "odds", "test": {"kind": "rush",
movement, skills?, rush_skills?, pp?, type, cr?, mod?, pp_boost?}}`` (the
``test`` holds the fields of a ``skill`` or ``rush`` request), with the
request's ``options``. Every face 1..100 of the d100 (PS2, equally likely,
so each is 1/100) goes through the very functions the ``skill`` and ``rush``
handlers use (:func:`~linguo_cli.rulesets.ptr2e.skill.skill_test`;
:func:`~linguo_cli.rulesets.ptr2e.requests.check_rush_input` and
:func:`~linguo_cli.rulesets.ptr2e.requests.do_rush` on a fresh creature per
face), so odds and rolls never disagree and every option that changes a
degree or a bonus (``dos``, ``combat_cr``, ``rush_yield``,
``rush_skill_table``) is honoured. A Rush the rules refuse (``rush_no_skill``,
``skill_missing``, ``pp_insufficient``) is refused here too, with its code;
a ``pp_boost`` without ``pp`` warns ``pp_untracked`` as the ``rush`` request
does (PA5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from linguo_cli.core.dice import DiceSource
from linguo_cli.core.dice_sources import ScriptedDice
from linguo_cli.core.distribution import fraction_text, probability_dict
from linguo_cli.rulesets.ptr2e import options as ptr_options
from linguo_cli.rulesets.ptr2e.requests import Mover, Trace, check_rush_input, do_rush
from linguo_cli.rulesets.ptr2e.skill import D100, SkillTest, cr_modifier, skill_test

#: Every face of the d100 (PS2), each with probability 1/100.
FACES = range(1, D100 + 1)


def skill_faces(test: Mapping[str, Any], opts: Mapping[str, Any]) -> list[SkillTest]:
    """The PS5 record of every face 1..100 of a skill test ``test``
    (``value``, ``cr`` default ``combat_cr`` (PS4), ``mod``, ``skill``),
    through :func:`~linguo_cli.rulesets.ptr2e.skill.skill_test`. A ``cr`` not
    in PS1 is ``bad_parameter`` (exit 3) at ``test.cr``."""
    cr = str(test.get("cr", opts["combat_cr"]))
    cr_modifier(cr, field="test.cr")
    return [skill_test(int(test["value"]), cr, int(test.get("mod", 0)), face,
                       skill=test.get("skill"), dos_rule=str(opts["dos"])) for face in FACES]


def rush_faces(test: Mapping[str, Any], opts: Mapping[str, Any],
               warnings: list[str] | None = None) -> list[tuple[SkillTest, int]]:
    """``(skill test, bonus)`` of a Rush ``test`` for every face 1..100:
    the input checks of :func:`check_rush_input` (exit 3 at ``test.<field>``)
    once, then :func:`do_rush` on a fresh creature with that one face
    scripted (its refusals, exit 4, raise on the first face). The first
    face's warnings (``pp_untracked`` for a ``pp_boost`` without ``pp``,
    PA5; every face gives the same) are added to ``warnings``."""
    check_rush_input(test, Mover.of(test, opts), opts, "test.")
    out = []
    for face in FACES:
        trace = Trace()
        record = do_rush(test, Mover.of(test, opts), opts, ScriptedDice([face]), trace)
        if face == FACES[0] and warnings is not None:
            warnings.extend(trace.warnings)
        out.append((record.test, record.bonus))
    return out


def _chance(faces: int) -> dict[str, Any]:
    return {"faces": faces, **probability_dict(Fraction(faces, D100))}


def _ladder(counts: Counter[int], key: str) -> list[dict[str, Any]]:
    return [{key: k, **_chance(n)} for k, n in sorted(counts.items())]


def _degree_odds(tests: list[SkillTest], trace: Trace) -> dict[str, Any]:
    """``success``, ``failure``, ``dos`` and ``dof`` (lowest degree first)."""
    dos = Counter(t.degree for t in tests if t.success)
    dof = Counter(t.degree for t in tests if not t.success)
    won = sum(dos.values())
    dc = tests[0].dc
    trace.note("PS2", f"success iff roll <= {dc}: {won} of {D100} faces "
               f"= {fraction_text(Fraction(won, D100))}")
    for label, counts in (("DoS", dos), ("DoF", dof)):
        for degree, n in sorted(counts.items()):
            trace.note("PS3", f"{label} {degree}: {n} face(s) = "
                       f"{fraction_text(Fraction(n, D100))}")
    return {"success": _chance(won), "failure": _chance(D100 - won),
            "dos": _ladder(dos, "degree"), "dof": _ladder(dof, "degree")}


def _test_values(t: SkillTest) -> dict[str, Any]:
    return {"skill": t.skill, "value": t.value, "cr": t.cr, "mod": t.mod, "dc": t.dc}


def _skill_odds(test: Mapping[str, Any], opts: Mapping[str, Any],
                trace: Trace) -> dict[str, Any]:
    tests = skill_faces(test, opts)
    t = tests[0]
    if "cr" not in test:
        trace.note("PS4", f"no CR given: combat_cr {t.cr}")
    trace.note("PS1", f"DC = {t.value} {cr_modifier(t.cr):+d} ({t.cr})"
               + (f" {t.mod:+d}" if t.mod else "") + f" = {t.dc}")
    return {"test": {"kind": "skill", **_test_values(t)}, **_degree_odds(tests, trace)}


def _rush_odds(test: Mapping[str, Any], opts: Mapping[str, Any],
               trace: Trace) -> dict[str, Any]:
    faces = rush_faces(test, opts, trace.warnings)
    t = faces[0][0]
    boost = int(test.get("pp_boost", 0))
    if boost:
        trace.note("PA5", f"pp_boost {boost}: spends {boost} of {test['pp']} Power Points"
                   if "pp" in test else f"pp_boost {boost}: Power Points not tracked "
                   "(pp_untracked)")
    trace.note("PR1", f"Rush {test['type']}: tests {t.skill} {t.value}")
    if "cr" not in test:
        trace.note("PS4", f"CR combat_cr: {t.cr}")
    trace.note("PS1", f"DC = {t.value} {cr_modifier(t.cr):+d} ({t.cr})"
               + (f" {t.mod:+d}" if t.mod else "") + f" = {t.dc}")
    values = _degree_odds([f[0] for f in faces], trace)
    bonuses = Counter(b for _, b in faces)
    rule = "PR5" if opts["rush_yield"] == "per_two_dos" else "PR2"
    how = f"floor((DoS + {boost}) / 2)" if rule == "PR5" else "DoS"
    expected = Fraction(sum(b * n for b, n in bonuses.items()), D100)
    trace.note(rule, f"bonus {how} on success, 0 on failure; expected "
               f"{fraction_text(expected)}")
    test_out = {"kind": "rush", "type": test["type"], **_test_values(t)}
    if boost:
        test_out["pp_boost"] = boost
    return {"test": test_out, **values, "bonus": _ladder(bonuses, "bonus"),
            "expected_bonus": fraction_text(expected)}


def resolve_odds(request: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Kind ``odds``: the exact probability of each degree of a skill test
    or Rush (``success``, ``failure``, ``dos`` and ``dof`` as lists of
    ``{degree, faces, probability, percent}``, lowest degree first, only
    degrees some face reaches) and, for a Rush, of each ``bonus`` and the
    ``expected_bonus`` (an exact fraction). ``faces`` counts the d100 faces
    (of 100) giving that outcome; ``probability`` is ``faces/100`` reduced,
    ``percent`` two decimals. ``dice`` is never rolled."""
    del dice  # no die is rolled
    opts = ptr_options.effective(request)
    trace = Trace()
    test = request["test"]
    if test["kind"] == "rush":
        values = _rush_odds(test, opts, trace)
    else:
        values = _skill_odds(test, opts, trace)
    return trace.result("odds", values, opts)
