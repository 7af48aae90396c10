"""An Activation's actions (PA2, PA3, PA5, PA6, PD1, PD7, PI5): the budget of
one complex or up to two simple actions, free actions, Power Points.

An Activation is legal iff, with ``s`` simple and ``c`` complex actions used
in it, ``(c = 0 and s <= 2) or (c = 1 and s = 0)`` (PA2). Free actions and
moves count 0 (PA1, PA3); a Rush counts as the simple action it is (PR1); an
action declared as a Delay counts at its cost unless ``delay_cost: none``
(PD1). Under ``interrupt_effect: cost`` the Activation starts with
``owed_cost`` simple actions already counted (PI5). The first step that
breaks the budget is refused:

==========  ==========================  ===================
step        already in the Activation   code
==========  ==========================  ===================
complex     a simple                    ``budget_mixed``
simple      a complex                   ``budget_mixed``
simple      two simple                  ``budget_simple``
complex     a complex                   ``budget_complex``
==========  ==========================  ===================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from linguo_cli.rulesets.ptr2e.refusals import refuse

#: Step costs: the three action types and a move (a free action off the catalog).
COSTS = ("simple", "complex", "free", "move")


@dataclass(frozen=True, slots=True)
class Step:
    """One step of an Activation: ``cost`` (``simple``, ``complex``,
    ``free`` or ``move``), an optional ``name``, ``pp`` Power Points it
    costs (PA5), ``delay`` (declared as a Delay, PD1) and the traits
    ``interrupt`` / ``priority`` (levels, PA6)."""

    cost: str
    name: str | None = None
    pp: int = 0
    delay: bool = False
    interrupt: int | None = None
    priority: int | None = None


@dataclass(slots=True)
class Budget:
    """What an Activation has used so far (PA2): ``simple``, ``complex``,
    ``free`` and ``moves`` counts; ``pp`` Power Points left (``None``:
    not tracked, PA5); ``warnings``."""

    simple: int = 0
    complex: int = 0
    free: int = 0
    moves: int = 0
    pp: int | None = None
    warnings: list[str] = field(default_factory=list)

    def charge(self, cost: str, place: str) -> None:
        """Count one simple or complex action (PA2), refusing the first that
        breaks the budget with its code (exit 4)."""
        if cost == "complex":
            if self.simple:
                refuse("budget_mixed", "a complex action after a simple one", place=place)
            if self.complex:
                refuse("budget_complex", "a second complex action", place=place)
            self.complex += 1
        elif cost == "simple":
            if self.complex:
                refuse("budget_mixed", "a simple action after a complex one", place=place)
            if self.simple >= 2:
                refuse("budget_simple", "a third simple action", place=place)
            self.simple += 1

    def spend_pp(self, cost: int, place: str, name: str) -> None:
        """Spend ``cost`` Power Points (PA5): ``pp_insufficient`` (exit 4)
        when fewer are left; untracked ``pp`` only warns ``pp_untracked``."""
        if cost <= 0:
            return
        if self.pp is None:
            self.warnings.append(f"pp_untracked: {place}: {name} costs {cost} Power Points")
            return
        if self.pp < cost:
            refuse("pp_insufficient", f"{name} needs {cost} Power Points, {self.pp} left",
                   place=place, details={"needed": cost, "left": self.pp})
        self.pp -= cost


def _check_kind(step: Step, options: Mapping[str, object], place: str) -> None:
    """PA6, PD1, PD7: what a step of one's own Activation may be."""
    if step.delay:
        if step.cost in ("free", "move"):
            refuse("not_delayable", f"a {step.cost} action cannot be delayed", place=place)
        if options["delayable"] == "complex" and step.cost != "complex":
            refuse("not_delayable", "only complex actions may be delayed (delayable: complex)",
                   place=place, rule="PD7")
    if step.interrupt is not None and not (
            step.delay and options["delay_interrupt_actions"] == "allowed"):
        refuse("interrupt_only", f"an [Interrupt {step.interrupt}] action is used only as an "
               "Interrupt", place=place)


def counted_cost(step: Step, options: Mapping[str, object]) -> str:
    """The cost a step counts at in the budget (PA2): a delayed action's
    cost counts where it is declared unless ``delay_cost: none`` (PD1), then
    ``"none"`` (it counts nowhere)."""
    if step.delay and options["delay_cost"] == "none":
        return "none"
    return step.cost


def play(steps: list[Step], options: Mapping[str, object], *, pp: int | None = None,
         owed_cost: int = 0) -> Budget:
    """Check one Activation's ``steps`` in order (PA2, PA3, PA5, PA6, PD1,
    PI5) and return what it used. Refusals (exit 4) name the 1-based step
    (``step 2``): ``interrupt_only``, ``not_delayable``, ``budget_*``,
    ``pp_insufficient``."""
    budget = Budget(simple=owed_cost, pp=pp)
    for i, step in enumerate(steps, 1):
        place = f"step {i}"
        _check_kind(step, options, place)
        cost = counted_cost(step, options)
        if cost == "move":
            budget.moves += 1
        elif cost == "free":
            budget.free += 1
        elif cost != "none":
            budget.charge(cost, place)
        budget.spend_pp(step.pp, place, step.name or step.cost)
    return budget
