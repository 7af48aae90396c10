"""Rush (PR1-PR5): the built-in simple action that adds to a movement type's
score for the rest of the round, through a skill test (PS).

The skill linked to a type comes from the creature's own ``rush_skills``
first, then the table of option ``rush_skill_table`` (PR1); the test's CR
defaults to ``combat_cr`` (PS4). The bonus is ``DoS`` (``rush_yield:
per_dos``, PR2) or ``floor((DoS + k) / 2)`` with ``pp_boost`` k
(``per_two_dos``, PR5); a failure pays 0 and the action is still used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from linguo_cli.rulesets.ptr2e.refusals import refuse
from linguo_cli.rulesets.ptr2e.skill import SkillTest, skill_test

#: type -> skill (PR1), by ``rush_skill_table``; a type not listed has no link.
SKILL_TABLES: dict[str, dict[str, str]] = {
    "seed": {"overland": "running", "fly": "running", "burrow": "climb", "swim": "swim"},
    "later": {"overland": "running", "fly": "flying", "burrow": "climb", "swim": "swimming",
              "threaded": "acrobatics", "teleport": "occult"},
}
#: Highest ``pp_boost`` of a Rush (PR5).
MAX_PP_BOOST = 6


def linked_skill(kind: str, rush_skills: Mapping[str, str], table: str) -> str | None:
    """The skill a Rush on ``kind`` tests (PR1): the creature's
    ``rush_skills`` link, else the option's table; ``None`` without a link."""
    if kind in rush_skills:
        return rush_skills[kind]
    return SKILL_TABLES[table].get(kind)


def skill_value(kind: str, skills: Mapping[str, int], rush_skills: Mapping[str, str],
                table: str, place: str = "") -> tuple[str, int]:
    """``(skill, value)`` for a Rush on ``kind``. Raises ``rush_no_skill``
    (exit 4, PR1) without a link and ``skill_missing`` (exit 4, PR1) when
    the creature has no value for the linked skill (never guessed)."""
    skill = linked_skill(kind, rush_skills, table)
    if skill is None:
        refuse("rush_no_skill", f"no skill is linked to {kind!r} "
               f"(rush_skill_table: {table})", place=place)
    assert skill is not None
    if skill not in skills:
        refuse("skill_missing", f"a Rush on {kind} tests {skill}, which the creature lacks",
               place=place)
    return skill, skills[skill]


def bonus(test: SkillTest, rush_yield: str, pp_boost: int = 0) -> int:
    """The score bonus of a Rush (PR2, PR5): 0 on failure; on success DoS
    (``per_dos``) or ``floor((DoS + pp_boost) / 2)`` (``per_two_dos``)."""
    if not test.success:
        return 0
    if rush_yield == "per_two_dos":
        return (test.degree + pp_boost) // 2
    return test.degree


@dataclass(frozen=True, slots=True)
class RushRecord:
    """One Rush (PV5's ``rush`` record): the movement ``type``, its
    skill test and ``bonus``; ``pp_boost`` spent (PR5)."""

    type: str
    test: SkillTest
    bonus: int
    pp_boost: int = 0

    def as_dict(self) -> dict[str, object]:
        """``{type, skill, value, cr, mod, dc, roll, success, dos|dof, bonus}``
        (``pp_boost`` only when not 0)."""
        out: dict[str, object] = {"type": self.type, **self.test.as_dict(), "bonus": self.bonus}
        if self.pp_boost:
            out["pp_boost"] = self.pp_boost
        return out


def rush(kind: str, roll: int, *, skill: str, value: int, cr: str, mod: int,
         dos_rule: str, rush_yield: str, pp_boost: int = 0) -> RushRecord:
    """A Rush on ``kind`` with the d100 ``roll`` already drawn (PR1, PR2, PR5)."""
    test = skill_test(value, cr, mod, roll, skill=skill, dos_rule=dos_rule)
    return RushRecord(kind, test, bonus(test, rush_yield, pp_boost), pp_boost)
