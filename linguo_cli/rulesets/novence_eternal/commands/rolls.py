"""``linguo novence sc-attack | initiative | reaction-order | move | injury``:
the one-off kinds of SC-based attacks (NO6), turn and reaction order (NS8,
NR2), the Move roll (NM1) and Injury stacks (NK4), built from options (the
same NV3 requests ``linguo resolve`` reads; the ruleset's options through
the global ``--option``, e.g. ``--option ep_scope=no_roll``).

No ``from __future__ import annotations``: Typer reads the signatures.
"""

import re
from typing import Annotated, Any

import typer

from linguo_cli.cli.options import ExplainOpt, JsonOpt, SeedOpt, examples, run_request
from linguo_cli.rulesets.novence_eternal.commands import parse

commands = typer.Typer()

RollsOpt = Annotated[str | None, typer.Option(
    "--rolls", help="Scripted faces in NO6/NO7's order: 3,4,5 or d20:3,d6:4 (NV3 Faces).")]
StatOpt = Annotated[int, typer.Option("--dex", min=-1000, max=1000,
                                      help="The creature's DEX (NS1).")]
InjuryOpt = Annotated[int, typer.Option("--injury", min=0, max=8,
                                        help="Injury stacks, 0-8 (NK4, NK8).")]
_CREATURE = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]{0,63}):([+-]?[0-9]{1,4})")


def _run(kind: str, fields: dict[str, Any], *, rolls: str | None, seed: int | None,
         json_: bool, explain: bool) -> None:
    request = {"ruleset": "novence-eternal", "kind": kind, **fields}
    run_request(request, name="<options>", as_json=json_, explain=explain,
                dice=parse.dice(rolls, seed))


def _creatures(items: list[str], stat: str, option: str) -> list[dict[str, Any]]:
    """``ID:VALUE`` items as combatant objects with that ``stat``, in order."""
    out = []
    for item in items:
        m = _CREATURE.fullmatch(item.replace(" ", ""))
        if m is None:
            raise typer.BadParameter(f"{item!r} is not ID:{stat} (a:3)", param_hint=option)
        out.append({"id": m.group(1), "kind": "player", "hp": 10, "max_hp": 10,
                    "stats": {stat: int(m.group(2))}})
    return out


@commands.command("sc-attack",
                  epilog=examples("linguo novence sc-attack --to-hit 6 --sc 14 --ep 7 "
                                  "--damage 2d6:psychic --hp 20 --rolls 3,4,5"),
                  short_help="One SC-based attack with Ether Piercing (NO6, NA7).")
def sc_attack(
    sc: Annotated[int, typer.Option("--sc", min=-1000, max=1000,
                                    help="The target's SC (NS5: 10 + WIS + sc_bonus).")],
    to_hit: Annotated[int, typer.Option("--to-hit", min=-1_000_000, max=1_000_000,
                                        help="Everything added to the d20 (NH1).")] = 0,
    ep: Annotated[int, typer.Option("--ep", min=0, max=1_000_000,
                                    help="The attack's Ether Piercing (NA7).")] = 0,
    damage: Annotated[list[str] | None, typer.Option(
        "--damage", help="A damage component DICE[+STATIC]:TYPE (2d6:psychic, 12:psychic); "
        "repeatable. Default 1d8:psychic.")] = None,
    crr: Annotated[int, typer.Option("--crr", min=-1_000_000, max=0,
                                     help="The attacker's CRR (NX1), 0 or below.")] = 0,
    far: Annotated[int, typer.Option("--far", min=0, max=1_000_000,
                                     help="The attacker's FAR (NX6).")] = 0,
    hp: Annotated[int, typer.Option("--hp", min=0, max=1_000_000, help="The target's HP.")]
    = 100,
    max_hp: Annotated[int | None, typer.Option("--max-hp", min=1, max=1_000_000,
                                               help="The target's max HP (default --hp).")]
    = None,
    adv: Annotated[bool, typer.Option("--adv", help="Advantage (NS3).")] = False,
    dis: Annotated[bool, typer.Option("--dis", help="Disadvantage (NS3).")] = False,
    rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """One SC-based attack (Etherhacking) on one target through NO6: to-hit
    against SC, crits, and on a roll that does not land the EP share
    min(1, EP / SC) of the damage; no charges, no cover or armor step."""
    weapon = {"name": "etherhack", "kind": "ranged", "basis": "sc", "stat": None,
              "to_hit": to_hit, "ep": ep,
              "damage": parse.damage(damage) or [{"dice": "1d8", "static": 0,
                                                   "type": "psychic"}]}
    fields: dict[str, Any] = {
        "attacker": {"id": "attacker", "kind": "player", "hp": 1, "max_hp": 1, "crr": crr,
                     "far": far},
        "target": {"id": "target", "kind": "enemy", "hp": hp,
                   "max_hp": max_hp if max_hp is not None else max(hp, 1),
                   "sc_bonus": sc - 10},
        "weapon": weapon}
    if adv:
        fields["advantage"] = True
    if dis:
        fields["disadvantage"] = True
    _run("sc_attack", fields, rolls=rolls, seed=seed, json_=json_, explain=explain)


@commands.command(epilog=examples("linguo novence initiative --combatant a:3 --combatant b:5 "
                                  "--combatant c:5 --rolls 12,10,10,6,17"),
                  short_help="Initiative order with ties and roll-offs (NS8).")
def initiative(
    combatant: Annotated[list[str], typer.Option(
        "--combatant", help="A combatant ID:DEX in listed order (a:3); repeatable.")],
    rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Initiative (NS8): d20 + DEX each, highest first; ties go to the
    higher DEX, then to a d20 roll-off, repeated while tied."""
    _run("initiative", {"combatants": _creatures(combatant, "DEX", "'--combatant'")},
         rolls=rolls, seed=seed, json_=json_, explain=explain)


@commands.command("reaction-order",
                  epilog=examples("linguo novence reaction-order --reactor a:5 --reactor b:4 "
                                  "--rolls 10,11,7,5"),
                  short_help="The order of simultaneous reactions (NR2).")
def reaction_order(
    reactor: Annotated[list[str], typer.Option(
        "--reactor", help="A reactor ID:WIS in listed order (its Perception bonus); "
        "repeatable, at least two.")],
    rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Simultaneous reactions (NR2): a contested Perception check each,
    highest first; tied reactors reroll."""
    _run("reaction_order", {"reactors": _creatures(reactor, "WIS", "'--reactor'")},
         rolls=rolls, seed=seed, json_=json_, explain=explain)


@commands.command(epilog=examples("linguo novence move --dex 3 --rolls 7"),
                  short_help="One Move roll: max(d20, 10) + DEX feet (NM1).")
def move(
    dex: StatOpt = 0, injury: InjuryOpt = 0, rolls: RollsOpt = None, seed: SeedOpt = None,
    json_: JsonOpt = False, explain: ExplainOpt = False,
) -> None:
    """One Move (NM1): feet = max(d20, 10) + DEX, never below 0; DEX with
    the Injury penalty (NK8)."""
    actor: dict[str, Any] = {"id": "creature", "kind": "player", "hp": 10, "max_hp": 10,
                             "stats": {"DEX": dex}}
    if injury:
        actor["injury"] = injury
    _run("move", {"actor": actor}, rolls=rolls, seed=seed, json_=json_, explain=explain)


@commands.command(epilog=examples("linguo novence injury --injury 4 --stacks 2 --rolls 5,1"),
                  short_help="Injury stacks on one player, each through NK4.")
def injury(
    current: InjuryOpt = 0,
    stacks: Annotated[int, typer.Option("--stacks", min=1, max=9,
                                        help="Stacks gained, 1-9.")] = 1,
    hp: Annotated[int, typer.Option("--hp", min=0, max=1_000_000, help="Current HP.")] = 10,
    ko: Annotated[bool, typer.Option("--ko", help="The player is KO (NK1).")] = False,
    location: Annotated[str | None, typer.Option(
        "--location", help="The location the source names (NK5): head, torso, right_arm, "
        "left_arm, left_leg, right_leg.")] = None,
    from_damage: Annotated[bool, typer.Option(
        "--from-damage", help="The stacks come from damage (they end stabilization, NK7).")]
    = False,
    rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Injury stacks on one player (NK4): Second Chances, the location d10
    from IV up (a head +2), the critical timer and KO at VII-VIII, death at
    IX."""
    target: dict[str, Any] = {"id": "creature", "kind": "player", "hp": hp,
                              "max_hp": max(hp, 1), "injury": current}
    if ko:
        target["ko"] = True
    fields: dict[str, Any] = {"target": target, "stacks": stacks}
    if location is not None:
        fields["location"] = location
    if from_damage:
        fields["from_damage"] = True
    _run("injury", fields, rolls=rolls, seed=seed, json_=json_, explain=explain)
