"""``linguo novence attack`` and ``linguo novence modifiers``: one-off requests
built from options (the same NV3 requests ``linguo resolve`` reads).

No ``from __future__ import annotations``: Typer reads the signatures.
"""

from typing import Annotated, Any

import typer

from linguo_cli.cli.options import ExplainOpt, JsonOpt, SeedOpt, examples, run_request
from linguo_cli.rulesets.novence_eternal.commands import parse

commands = typer.Typer()

RollsOpt = Annotated[str | None, typer.Option(
    "--rolls", help="Scripted faces in NO1's order: 15,4 or d20:15,d6:4 (NV3 Faces).")]
ModOpt = Annotated[list[str] | None, typer.Option(
    "--mod", help="A damage-modifier entry KIND[:TYPE]=VALUE (ND1), e.g. ATK=20, "
    "AFF:psychic=30, DEF=60, RES:fire=-10, DI=5; repeatable.")]
CategoryOpt = Annotated[list[str] | None, typer.Option(
    "--category", help="A category NAME=TYPE,TYPE (ND1), e.g. PHYS=slashing,piercing; "
    "repeatable.")]

ATTACK_EPILOG = examples("linguo novence attack --to-hit 7 --ac 15 --crr -2 --aim 3 "
                         "--cover 60 --damage 2d8:kinetic --rolls 12,4,5")


def _target(ac: int, hp: int, max_hp: int | None, armor: dict[str, Any] | None,
            charges: dict[str, int]) -> dict[str, Any]:
    """The target of a one-off attack: AC = 10 + ac_bonus (NS4, its cap raised
    to the AC when above 30), no stats; with a Parry charge, an unarmed
    strike with parry_mod +0 to parry with."""
    target: dict[str, Any] = {"id": "target", "kind": "enemy", "hp": hp,
                              "max_hp": max_hp if max_hp is not None else max(hp, 1),
                              "ac_bonus": ac - 10, "ac_cap": max(30, ac)}
    if armor is not None:
        target["armor"] = armor
    if any(charges.values()):
        target["charges"] = {k: v for k, v in charges.items() if v}
    if charges.get("parry"):  # it parries unarmed: its strike's parry_mod is +0 (NV2, NR5)
        target["equipped"] = None
        target["weapons"] = {"unarmed": {"name": "unarmed strike", "kind": "melee",
                                         "unarmed": True, "stat": None, "parry_mod": 0,
                                         "damage": [{"static": 0, "type": "bludgeoning"}]}}
    return target


@commands.command(epilog=ATTACK_EPILOG,
                  short_help="One AC-based attack through the NO1 pipeline.")
def attack(
    ac: Annotated[int, typer.Option("--ac", min=-1000, max=1000, help="The target's AC (NS4).")],
    to_hit: Annotated[int, typer.Option("--to-hit", min=-1_000_000, max=1_000_000,
                                        help="Everything added to the d20 (NH1).")] = 0,
    damage: Annotated[list[str] | None, typer.Option(
        "--damage", help="A damage component DICE[+STATIC]:TYPE (1d10+4:bludgeoning, "
        "2d8:kinetic, 5:fire); repeatable. Default 1d8:kinetic.")] = None,
    crr: Annotated[int, typer.Option("--crr", min=-1_000_000, max=0,
                                     help="The attacker's CRR (NX1), 0 or below.")] = 0,
    far: Annotated[int, typer.Option("--far", min=0, max=1_000_000,
                                     help="The attacker's FAR (NX6).")] = 0,
    aim: Annotated[int, typer.Option("--aim", min=0, max=8,
                                     help="Aim stacks on the weapon (NM2-NM5): ranged.")] = 0,
    melee: Annotated[bool, typer.Option("--melee", help="A melee weapon (default ranged).")]
    = False,
    cover: Annotated[int | None, typer.Option("--cover", min=0, max=100,
                                              help="Cover percentage p (NC2).")] = None,
    cc: Annotated[int | None, typer.Option("--cc", min=0, max=10,
                                           help="Cover class instead of --cover (NC2).")] = None,
    cdm: Annotated[str | None, typer.Option("--cdm", help="Cover damage multiplier, exact "
                                            "0..1 (NC4), e.g. 1/2.")] = None,
    ap: Annotated[int | None, typer.Option("--ap", min=0, max=1_000_000,
                                           help="The attack's AP (NA5).")] = None,
    armor: Annotated[list[str] | None, typer.Option(
        "--armor", help="The target's armor per type TYPE:LEVEL:RES (NA1-NA3), e.g. "
        "kinetic:3:20; repeatable.")] = None,
    pc: Annotated[int | None, typer.Option("--pc", min=0, max=1_000_000,
                                           help="The armor's PC (default --pc-max).")] = None,
    pc_max: Annotated[int, typer.Option("--pc-max", min=0, max=1_000_000,
                                        help="The armor's PC max (NA4).")] = 0,
    hp: Annotated[int, typer.Option("--hp", min=0, max=1_000_000, help="The target's HP.")]
    = 100,
    max_hp: Annotated[int | None, typer.Option("--max-hp", min=1, max=1_000_000,
                                               help="The target's max HP (default --hp).")]
    = None,
    parry: Annotated[int, typer.Option("--parry", min=0, max=100,
                                       help="The target's Parry charges (NR5).")] = 0,
    dodge: Annotated[int, typer.Option("--dodge", min=0, max=100,
                                       help="The target's Dodge charges (NR7).")] = 0,
    guard: Annotated[int, typer.Option("--guard", min=0, max=100,
                                       help="The target's Guard charges (NR8).")] = 0,
    adv: Annotated[bool, typer.Option("--adv", help="Advantage (NS3).")] = False,
    dis: Annotated[bool, typer.Option("--dis", help="Disadvantage (NS3).")] = False,
    mod: ModOpt = None, category: CategoryOpt = None,
    rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """One AC-based attack on one target through NO1: to-hit and THR, crits
    (CRR), the Aim floor, cover, armor and AP, charges, damage modifiers,
    THP then HP, KO."""
    weapon: dict[str, Any] = {"name": "weapon", "kind": "melee" if melee else "ranged",
                              "stat": None, "to_hit": to_hit,
                              "damage": parse.damage(damage) or [
                                  {"dice": "1d8", "static": 0, "type": "kinetic"}]}
    if aim:
        weapon["aim"] = aim
    if ap is not None:
        weapon["ap"] = ap
    request: dict[str, Any] = {
        "ruleset": "novence-eternal", "kind": "attack",
        "attacker": {"id": "attacker", "kind": "player", "hp": 1, "max_hp": 1, "crr": crr,
                     "far": far, "weapons": {"weapon": weapon}, "equipped": "weapon"},
        "target": _target(ac, hp, max_hp, _armor(armor, pc, pc_max),
                          {"parry": parry, "dodge": dodge, "guard": guard}),
    }
    _cover(request, cover, cc, cdm)
    _flags(request, adv=adv, dis=dis, mods=parse.modifiers(mod),
           categories=parse.categories(category))
    run_request(request, name="<options>", as_json=json_, explain=explain,
                dice=parse.dice(rolls, seed))


def _armor(types: list[str] | None, pc: int | None, pc_max: int) -> dict[str, Any] | None:
    if not types and not pc_max:
        return None
    armor: dict[str, Any] = {"pc_max": pc_max, "types": parse.armor_types(types)}
    if pc is not None:
        armor["pc"] = pc
    return armor


def _cover(request: dict[str, Any], p: int | None, cc: int | None, cdm: str | None) -> None:
    if p is None and cc is None:
        return
    cover: dict[str, Any] = {"p": p} if p is not None else {"cc": cc}
    if cdm is not None:
        cover["cdm"] = int(cdm) if cdm.lstrip("-").isdigit() else cdm
    request["cover"] = cover


def _flags(request: dict[str, Any], *, adv: bool, dis: bool, mods: list[dict[str, Any]],
           categories: dict[str, list[str]]) -> None:
    if adv:
        request["advantage"] = True
    if dis:
        request["disadvantage"] = True
    if mods:
        request["modifiers"] = mods
    if categories:
        request["catalogs"] = {"categories": categories}


MODIFIERS_EPILOG = examples("linguo novence modifiers --raw psychic=25 --raw slashing=25 "
                            "--mod ATK=50 --mod AFF:psychic=30 --mod AFF:slashing=20 "
                            "--mod DEF=60 --mod RES:psychic=70")


@commands.command(epilog=MODIFIERS_EPILOG,
                  short_help="The damage-modifier pool on its own (ND1-ND8, NR10).")
def modifiers(
    raw: Annotated[list[str], typer.Option(
        "--raw", help="Raw damage of the normal pool TYPE=AMOUNT (exact, e.g. fire=5/2); "
        "repeatable, at least one.")],
    mod: ModOpt = None,
    ap_raw: Annotated[list[str] | None, typer.Option(
        "--ap-raw", help="Raw damage of the AP pool TYPE=AMOUNT (NA5, ND6); repeatable.")]
    = None,
    crits: Annotated[int, typer.Option("--crits", min=0, max=1_000_000,
                                       help="Crits of the attack: CRIT_AFF and crit-only "
                                       "entries enter (NX5).")] = 0,
    status: Annotated[bool, typer.Option("--status", help="A status tick: no ATK or DEF "
                                         "(ND7).")] = False,
    charge_factor: Annotated[str, typer.Option(
        "--charge-factor", help="1, 4/5 or 3/5 (NR10).")] = "1",
    category: CategoryOpt = None, json_: JsonOpt = False, explain: ExplainOpt = False,
) -> None:
    """The damage-modifier pool on its own (ND1-ND8, NR10): the selected
    values, DI/RI, the netting per type, the average, the halvings and the
    final multiplier as an exact fraction, and the damage (floor)."""
    request: dict[str, Any] = {"ruleset": "novence-eternal", "kind": "modifiers",
                               "raw": parse.raw(raw, "--raw")}
    if ap_raw:
        request["ap_raw"] = parse.raw(ap_raw, "--ap-raw")
    entries = parse.modifiers(mod)
    if entries:
        request["modifiers"] = entries
    if crits:
        request["crits"] = crits
    if status:
        request["status"] = True
    if charge_factor != "1":
        request["charge_factor"] = charge_factor
    cats = parse.categories(category)
    if cats:
        request["catalogs"] = {"categories": cats}
    run_request(request, name="<options>", as_json=json_, explain=explain)
