"""The d100 skill test of the later rules (PS1-PS5): target, roll, degrees.

A test's target is ``DC = skill value + CR modifier + mod`` (PS1); one d100
succeeds iff ``roll <= DC`` (PS2: no face is special, so a DC of 100 or
more always succeeds and one of 0 or less always fails); the degrees
count tens between roll and DC (PS3). All numbers are integers; ``floor``
rounds toward minus infinity (Python's ``//``).
"""

from __future__ import annotations

from dataclasses import dataclass

from linguo_cli.rulesets.ptr2e.options import CHALLENGE_RATINGS
from linguo_cli.rulesets.ptr2e.refusals import refuse

#: Faces of the test's die (PS2).
D100 = 100


def cr_modifier(cr: str, *, field: str = "cr") -> int:
    """The DC modifier of Challenge Rating ``cr`` (PS1: ``effortless`` +60
    ... ``demanding`` 0 ... ``impossible`` -60). Raises ``bad_parameter``
    (exit 3, PV1's list of bad values) at ``field`` for a name not in the table."""
    if cr not in CHALLENGE_RATINGS:
        refuse("bad_parameter", f"{cr!r} is not a Challenge Rating of PS1 "
               f"({', '.join(CHALLENGE_RATINGS)})", field=field)
    return CHALLENGE_RATINGS[cr]


def target(value: int, cr: str, mod: int = 0) -> int:
    """``DC = value + CR modifier + mod`` (PS1); e.g. 55 at ``challenging``
    (-20) is 35."""
    return value + cr_modifier(cr) + mod


def degrees(dc: int, roll: int, dos_rule: str = "plus_one") -> tuple[bool, int]:
    """``(success, degrees)`` of ``roll`` (1-100) against ``dc`` (PS2, PS3).

    Success iff ``roll <= dc``; then ``DoS = floor((dc - roll) / 10) + 1``
    (``dos_rule`` ``plus_one``, the default) or ``floor((dc - roll) / 10)``
    (``full_intervals``: 0 on a bare success). On failure
    ``DoF = floor((roll - dc) / 10) + 1`` under both. DC 35: roll 26 is DoS
    1, roll 25 DoS 2, roll 36 DoF 1, roll 45 DoF 2."""
    if roll <= dc:
        whole = (dc - roll) // 10
        return True, whole + 1 if dos_rule == "plus_one" else whole
    return False, (roll - dc) // 10 + 1


@dataclass(frozen=True, slots=True)
class SkillTest:
    """One skill test's record (PS5): ``skill`` the skill's name (``None``
    when only a value was given), ``value``, ``cr``, ``mod``, ``dc``,
    ``roll`` (the d100 face), ``success`` and ``dos`` (success) or ``dof``
    (failure)."""

    skill: str | None
    value: int
    cr: str
    mod: int
    dc: int
    roll: int
    success: bool
    degree: int

    def as_dict(self) -> dict[str, object]:
        """The PS5 record as JSON values: ``dos`` or ``dof``, never both."""
        out: dict[str, object] = {"skill": self.skill, "value": self.value, "cr": self.cr,
                                  "mod": self.mod, "dc": self.dc, "roll": self.roll,
                                  "success": self.success}
        out["dos" if self.success else "dof"] = self.degree
        return out

    def text(self) -> str:
        """``running 55 challenging (-20) = DC 35, roll 12: success, DoS 3``."""
        name = f"{self.skill} {self.value}" if self.skill else f"skill {self.value}"
        mod = f" {self.mod:+d}" if self.mod else ""
        outcome = f"success, DoS {self.degree}" if self.success else f"failure, DoF {self.degree}"
        return (f"{name} {self.cr} ({CHALLENGE_RATINGS[self.cr]:+d}){mod} = DC {self.dc}, "
                f"roll {self.roll}: {outcome}")


def skill_test(value: int, cr: str, mod: int, roll: int, *, skill: str | None = None,
               dos_rule: str = "plus_one") -> SkillTest:
    """The skill test of PS1-PS3 for one d100 ``roll`` already drawn."""
    dc = target(value, cr, mod)
    success, degree = degrees(dc, roll, dos_rule)
    return SkillTest(skill, value, cr, mod, dc, roll, success, degree)
