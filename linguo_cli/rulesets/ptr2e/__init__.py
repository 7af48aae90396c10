"""Pokémon Tabletop Reunited 2e (PTR 2e): action economy, Priority and
movement, the third ruleset (issue 20; rules in RULINGS of the PTR spec,
rule IDs PA, PP, PI, PD, PM, PR, PS, PV).

It resolves one-off rulings: the d100 skill test (``skill``, PS), a Rush
(``rush``, PR), a movement ledger (``move``, PM), an Activation's legality
(``activation``, PA) and the order of a batch of declarations
(``priority``, PP4); the exact odds of a skill test or
a Rush (``odds``, :mod:`.odds`); and whole rounds from a state and a script
(``round``, PV1-PV8: :mod:`.round_request`, :mod:`.round_play`, :mod:`.av`).
Announced in ``pyproject.toml`` as
``ptr2e = "linguo_cli.rulesets.ptr2e:RULESET"``; importing this package
imports no rule module (handlers are named ``"module:function"``).
"""

from linguo_cli.core.ruleset import Ruleset, package_files

_PKG = "linguo_cli.rulesets.ptr2e"

#: kind -> "module:function" of its handler, imported on first use.
HANDLERS: dict[str, str] = {
    "skill": f"{_PKG}.requests:resolve_skill",
    "rush": f"{_PKG}.requests:resolve_rush",
    "move": f"{_PKG}.requests:resolve_move",
    "activation": f"{_PKG}.declarations:resolve_activation",
    "priority": f"{_PKG}.declarations:resolve_priority",
    "round": f"{_PKG}.round_request:resolve_round",
    "odds": f"{_PKG}.odds:resolve_odds",
}

#: PTR 2e as linguo sees it (canonical name ``ptr2e``, alias ``ptr``).
RULESET = Ruleset(
    name="ptr2e",
    title="PTR 2e: rounds, Activations, Priority, movement, Rush.",
    handlers=HANDLERS,
    validator=f"{_PKG}.requests:validate_request",
    renderer=f"{_PKG}.render:emit",
    schemas=package_files(_PKG).joinpath("schemas"),
    suite=package_files(_PKG).joinpath("suite"),
    commands=f"{_PKG}.commands:mount",
    aliases=("ptr",),
    options=f"{_PKG}.options:OPTIONS",
)
