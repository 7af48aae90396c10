"""The action budget of one turn and of the round (NT4-NT7, NR1, NR11).

A turn opens (NO3 step 6) with 1 TA, its AAs (1, +1 for a Tier-2 class, +1
for a Tier-3 class, NT4) and no BA. A TA step pays with the TA, else with an
AA as a TA (NT5); an AA step never takes the TA (``ta_as_aa``). BAs are open
only right after the step that granted them (NT6). The RA and the bonus
reactions are counted per round in the state (``ra_used``,
``bonus_reactions_used``, cleared at the creature's turn start); the party's
Legendary action in ``party.legendary_available`` (NT7, NO5). Every refusal
is a :class:`~..model.Refusal` with the refusal code's first rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import Refusal


def aa_count(doc: Mapping[str, Any]) -> int:
    """NT4: 1 AA, +1 for a Tier-2 class, +1 for a Tier-3 class held."""
    tiers = set(doc.get("class_tiers") or ())
    return 1 + (2 in tiers) + (3 in tiers)


@dataclass
class Budget:
    """What is left of one turn: ``ta``, ``aa``, the open ``ba`` (NT6), and
    the record of what each step paid (NV5 ``paid``)."""

    ta: int
    aa: int
    ba: int = 0
    paid: dict[str, int] = field(default_factory=dict)

    @classmethod
    def open(cls, doc: Mapping[str, Any]) -> Budget:
        """NO3 step 6: 1 TA and the AAs of NT4."""
        return cls(1, aa_count(doc))

    def start_step(self) -> dict[str, int]:
        """A fresh NV5 ``paid`` record for the next step."""
        self.paid = {"ta": 0, "aa": 0, "ba": 0, "ra": 0, "bonus_reaction": 0, "legendary": 0}
        return self.paid

    def pay_ta(self, pay: str | None = None) -> str:
        """NT5: a tactical action: the TA, else an AA as a TA (``pay: aa``
        takes an AA while the TA is left). Neither left: ``budget_ta``;
        ``pay: aa`` with no AA: ``budget_aa``. Returns what paid."""
        if pay == "aa":
            if self.aa < 1:
                raise Refusal("budget_aa", "NT4", "pay: aa, but no AA is left")
            self.aa -= 1
            self.paid["aa"] += 1
            return "aa"
        if self.ta > 0:
            self.ta -= 1
            self.paid["ta"] += 1
            return "ta"
        if self.aa > 0:
            self.aa -= 1
            self.paid["aa"] += 1
            return "aa"
        raise Refusal("budget_ta", "NT4", "no TA and no AA left for a tactical action")

    def pay_aa(self, cost: int, pay: str | None = None) -> None:
        """NT4, NT5: ``cost`` AAs; the TA never pays one (``pay: ta``:
        ``ta_as_aa``); fewer AAs left: ``budget_aa``."""
        if pay == "ta":
            raise Refusal("ta_as_aa", "NT5", "a TA cannot be spent as an AA")
        if cost > self.aa:
            raise Refusal("budget_aa", "NT4", f"{cost} AA needed, {self.aa} left")
        self.aa -= cost
        self.paid["aa"] += cost

    def pay_ba(self) -> None:
        """NT6: one open BA; none open: ``budget_ba``."""
        if self.ba < 1:
            raise Refusal("budget_ba", "NT4",
                          "no bonus action is open (none granted, or its window closed)")
        self.ba -= 1
        self.paid["ba"] += 1


def pay_ra(doc: dict[str, Any], paid: dict[str, int]) -> None:
    """NR1: a creature's one RA per round; used: ``budget_ra``."""
    if doc.get("ra_used", False):
        raise Refusal("budget_ra", "NT4", f"{doc['id']} has used its RA this round")
    doc["ra_used"] = True
    paid["ra"] += 1


def pay_bonus_reaction(doc: dict[str, Any], paid: dict[str, int]) -> None:
    """NR1: one of the creature's bonus reactions this round; none left:
    ``budget_ra``."""
    used = doc.get("bonus_reactions_used", 0)
    if used >= doc.get("bonus_reactions", 0):
        raise Refusal("budget_ra", "NT4", f"{doc['id']} has no bonus reaction left this round")
    doc["bonus_reactions_used"] = used + 1
    paid["bonus_reaction"] += 1


def pay_legendary(party: dict[str, Any], paid: dict[str, int]) -> None:
    """NT7: the party's one Legendary action per round; spent:
    ``legendary_used``."""
    if not party.get("legendary_available", True):
        raise Refusal("legendary_used", "NT7", "the party's Legendary action is spent this round")
    party["legendary_available"] = False
    paid["legendary"] += 1
