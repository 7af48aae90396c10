"""Linguomancy's Flux commands: ``cast`` and ``overclock``.

No ``from __future__ import annotations`` here: Typer reads every command's
signature when the app starts (see :mod:`linguo_cli.cli.app`).
"""

from typing import Annotated, Any

import typer

from linguo_cli.cli.options import (
    AdvOpt,
    DisOpt,
    ExplainOpt,
    InPlaceOpt,
    JsonOpt,
    OutputOpt,
    RollsOpt,
    SeedOpt,
    dice_from_options,
    examples,
    parse_mods,
    run_request,
)
from linguo_cli.rulesets.linguomancy.commands.state import (
    ConditionsOpt,
    IdiomsOpt,
    _catalog_entries,
    load_state,
    run_state_request,
)

commands = typer.Typer()


# ---------------------------------------------------------------------------
# Casting and overclocking (rules F1-F5, S3, C1-C2)


@commands.command(short_help="Cast an idiom from a state file (F1-F5, S3, its effect).",
                  epilog=examples(
    "linguo cast examples/cast-state.yaml --caster ayla --idiom 'Hurl - Fire' --upcast 2 "
    "--target goblin --rolls 14,3,5",
    "linguo cast examples/cast-state.yaml --caster ayla --idiom 'Hurl - Fire' --upcast 4 "
    "--target goblin   # exits 4: above the upcast cap (F3)"))
def cast(
    state: Annotated[str, typer.Argument(help="State file (YAML or JSON); - for stdin.")],
    caster: Annotated[str, typer.Option("--caster", help="Id of the casting entity.")],
    idiom: Annotated[str, typer.Option("--idiom", help="Idiom name, e.g. 'Hurl - Fire' or "
                                                       "Smith.")],
    upcast: Annotated[int, typer.Option(
        "--upcast", min=0, max=100, help="Extra Flux points above the base cost (F3).")] = 0,
    overclock: Annotated[bool, typer.Option(
        "--overclock", help="Overclock when short of Flux (F4); no Adjectives in a cast "
                            "that actually overclocks.")] = False,
    adjective: Annotated[list[str] | None, typer.Option(
        "--adjective", help="An Adjective of the idiom; repeatable.")] = None,
    target: Annotated[list[str] | None, typer.Option(
        "--target", help="Target entity id; repeatable, in order.")] = None,
    mod: Annotated[list[str] | None, typer.Option(
        "--mod", help="Modifier LABEL=N on the attack roll; repeatable.")] = None,
    amount_mod: Annotated[list[str] | None, typer.Option(
        "--amount-mod", help="Flat modifier LABEL=N on the damage or healing; repeatable.")
    ] = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    nonlethal: Annotated[bool, typer.Option(
        "--nonlethal", help="Declare the damage nonlethal, whoever casts (H5).")] = False,
    idioms: IdiomsOpt = None,
    conditions: ConditionsOpt = None,
    output: OutputOpt = None,
    in_place: InPlaceOpt = False,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Cast an idiom from a state file: cost, upcast cap, Flux, overclocking and
    the effect (rules F1-F5, S3, then the d20, damage and healing rules).

    Hand points are read from the state as at the start of a turn (held items,
    maintained idioms; P5, P6); action points are not checked.
    Dice order: the attack d20 (or each target's save d20, in target order),
    then the damage or healing dice. An illegal cast exits 4 and writes nothing.
    """
    state_doc = load_state(state)
    req: dict[str, Any] = {"kind": "cast", "caster": caster, "idiom": idiom}
    if upcast:
        req["upcast"] = upcast
    if overclock:
        req["overclock"] = True
    if adjective:
        req["adjectives"] = list(adjective)
    if target:
        req["targets"] = list(target)
    if mod:
        req["modifiers"] = parse_mods(mod)
    if amount_mod:
        req["amount_modifiers"] = parse_mods(amount_mod, "--amount-mod")
    if adv:
        req["advantage"] = True
    if dis:
        req["disadvantage"] = True
    if nonlethal:
        req["nonlethal"] = True
    for key, path in (("idioms", idioms), ("conditions", conditions)):
        entries = _catalog_entries(key, path)
        if entries is not None:
            req[key] = entries
    run_state_request(req, state_doc, output=output, in_place=in_place, as_json=json_,
                      explain=explain, dice=dice_from_options(rolls, seed))


@commands.command("overclock", epilog=examples("linguo overclock --cost 7 --flux 3"),
                  short_help="The overclocking row for a cost and Flux at hand (F4, F5).")
def overclock_command(
    cost: Annotated[int, typer.Option("--cost", min=0, max=100,
                                      help="Final Flux cost of the cast.")],
    flux: Annotated[int, typer.Option("--flux", min=0, max=1000,
                                      help="Flux the caster has before casting.")],
    exhaustion: Annotated[int, typer.Option(
        "--exhaustion", min=0, max=5, help="Exhaustion tiers already held.")] = 0,
    conditions: ConditionsOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Show the overclocking row for a cost and the Flux at hand, and what it
    does (rules F4, F5), as a one-off."""
    req: dict[str, Any] = {"kind": "overclock", "cost": cost, "flux": flux}
    if exhaustion:
        req["exhaustion"] = exhaustion
    entries = _catalog_entries("conditions", conditions)
    if entries is not None:
        req["conditions"] = entries
    run_request(req, name="<options>", as_json=json_, explain=explain)


