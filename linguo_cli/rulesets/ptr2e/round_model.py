"""The records of a PTR 2e round in play (PV1, PV5): a creature
(:class:`Creature`), a declared Delay (:class:`Delay`, PD1-PD6), where a
step runs (:class:`Ctx`), and small helpers on script entries and steps."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linguo_cli.rulesets.ptr2e.budget import Budget
from linguo_cli.rulesets.ptr2e.refusals import refuse
from linguo_cli.rulesets.ptr2e.requests import Mover

#: The keys that declare a Delay on a step (PD1, PV1).
DELAY_KEYS = ("delay", "delay_trigger", "delay_id")
#: A Rush's parameters (PR1, PR5).
RUSH_KEYS = ("type", "cr", "mod", "pp_boost")


@dataclass(slots=True)
class Creature:
    """A combatant in play: ``speed``, ``actions`` (catalog, PA1), its
    ``mover`` (ledger, skills, Power Points), ``owed`` skips (PP3)."""

    name: str
    speed: int
    actions: Mapping[str, Mapping[str, Any]]
    mover: Mover
    owed: int = 0
    base_av: int | None = None
    owed_cost: int = 0

    def action(self, name: str, place: str) -> Mapping[str, Any]:
        """The catalog entry of ``name`` (``rush`` built in, PR1);
        ``unknown_action`` (exit 3, PA1) otherwise."""
        if name == "rush":
            return {"cost": "simple"}
        if name not in self.actions:
            refuse("unknown_action", f"{self.name} has no action {name!r}", field=place)
        return self.actions[name]


@dataclass(slots=True)
class Delay:
    """A declared Delay (PD1): ``level`` X or ``trigger`` text; ``step`` the
    declaring step without its Delay keys; ``count`` (PD2); ``active`` once
    the declaring Activation has ended (counting / trigger window open)."""

    id: str
    actor: str
    action: str
    step: dict[str, Any]
    declared_in: str
    level: int | None = None
    trigger: str | None = None
    count: int = 0
    active: bool = False
    outcome: str = "pending"
    entry: int | None = None
    at: int | None = None

    def record(self) -> dict[str, Any]:
        """The PV5 ``delays`` item."""
        out: dict[str, Any] = {"delay_id": self.id, "actor": self.actor, "action": self.action}
        if self.trigger is not None:
            out["trigger"] = self.trigger
        else:
            out["level"] = self.level
        out.update(declared_in=self.declared_in, outcome=self.outcome, entry=self.entry)
        return out


@dataclass(slots=True)
class Ctx:
    """Where a step runs: ``kind`` (activation, priority, interrupt, fire,
    delay, free), ``actor``, ``log`` context (A1, P, I, T:d1, D:d1, F),
    ``budget`` (own Activations only), ``owner`` (free entries: whose
    Activation or Delay it is attached in), ``declared`` (a Priority's action)."""

    kind: str
    actor: str
    log: str
    budget: Budget | None = None
    owner: str | None = None
    owner_kind: str = ""
    has_action: bool = False
    declared: str | None = None
    declaring: list[Delay] = field(default_factory=list)


def rush_default(key: str, opts: Mapping[str, Any]) -> Any:
    """A Rush parameter's value when a declaration leaves it out (PD4)."""
    return {"cr": opts["combat_cr"], "mod": 0, "pp_boost": 0}.get(key)


def delay_keys(step: Mapping[str, Any]) -> bool:
    """Whether the step declares a Delay (PD1)."""
    return "delay" in step or "delay_trigger" in step


def who(entry: Mapping[str, Any]) -> str:
    """An entry's ``<who>`` in a PV4 place: its actor, or ``fire <id>``."""
    return f"fire {entry['fire']}" if "fire" in entry else str(entry.get("actor", "?"))


def kind_of(entry: Mapping[str, Any]) -> str:
    """``priority`` or ``interrupt``: the list part of a PV4 place."""
    return "priority" if "priority" in entry else "interrupt"


def script_ids(script: Mapping[str, Any]) -> set[str]:
    """Every ``delay_id`` the script gives (PV1 namespace)."""
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "delay_id" in node and ("delay" in node or "delay_trigger" in node):
                out.add(str(node["delay_id"]))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(dict(script))
    return out
