"""``linguo novence thp | heal | ko-roll | stabilize | rest | resurrect``:
hit points and the KO/Injury machine outside an attack (NL1, NL3, NL4, NK2,
NK7, NK9, NK10, NK13), one creature built from options (the same NV3
requests ``linguo resolve`` reads; the options of the ruleset come through
the global ``--option``).

No ``from __future__ import annotations``: Typer reads the signatures.
"""

from typing import Annotated, Any

import typer

from linguo_cli.cli.options import ExplainOpt, JsonOpt, SeedOpt, examples, run_request
from linguo_cli.rulesets.novence_eternal.commands import parse

commands = typer.Typer()

RollsOpt = Annotated[str | None, typer.Option(
    "--rolls", help="Scripted faces in NO7's order: 9,1 or d20:9,d10:1 (NV3 Faces).")]
HpOpt = Annotated[int, typer.Option("--hp", min=0, max=1_000_000, help="Current HP (NL1).")]
MaxHpOpt = Annotated[int | None, typer.Option(
    "--max-hp", min=1, max=1_000_000, help="The modified max HP (NL1; default --hp, at least 1).")]
InjuryOpt = Annotated[int, typer.Option("--injury", min=0, max=9,
                                        help="Injury stacks, 0-9 (NK4, NK8).")]
KoOpt = Annotated[bool, typer.Option("--ko", help="The creature is KO (NK1).")]
EnemyOpt = Annotated[bool, typer.Option(
    "--enemy", help="An enemy (off the injury track, NK1) instead of a player.")]


def _creature(cid: str, hp: int, max_hp: int | None, *, enemy: bool = False, ko: bool = False,
              injury: int = 0, **more: Any) -> dict[str, Any]:
    """An NV1 combatant object with the keys given (defaults left out)."""
    doc: dict[str, Any] = {"id": cid, "kind": "enemy" if enemy else "player", "hp": hp,
                           "max_hp": max_hp if max_hp is not None else max(hp, 1)}
    if ko:
        doc["ko"] = True
    if injury:
        doc["injury"] = injury
    doc.update({k: v for k, v in more.items() if v is not None and v is not False})
    return doc


def _run(kind: str, fields: dict[str, Any], *, rolls: str | None = None,
         seed: int | None = None, json_: bool, explain: bool) -> None:
    request = {"ruleset": "novence-eternal", "kind": kind, **fields}
    run_request(request, name="<options>", as_json=json_, explain=explain,
                dice=parse.dice(rolls, seed))


@commands.command(epilog=examples("linguo novence thp --thp 4 --held-from Bless --grant 30 "
                                  "--source shield"),
                  short_help="A THP grant (NL3): one source at a time.")
def thp(
    grant: Annotated[int, typer.Option("--grant", min=0, max=1_000_000,
                                       help="The THP granted (NL3).")],
    source: Annotated[str, typer.Option("--source", help="What grants it (a label).")],
    held: Annotated[int, typer.Option("--thp", min=0, max=1_000_000,
                                      help="THP held now.")] = 0,
    held_from: Annotated[str | None, typer.Option(
        "--held-from", help="The source of the THP held (required with --thp).")] = None,
    hp: HpOpt = 10, max_hp: MaxHpOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """A THP grant (NL3): one source at a time; a grant replaces the THP
    held only when it is greater than what remains."""
    target = _creature("creature", hp, max_hp, thp=held or None,
                       thp_source=held_from if held else None)
    _run("thp", {"targets": [target], "amount": grant, "source": source}, json_=json_,
         explain=explain)


@commands.command(epilog=examples("linguo novence heal --hp 40 --max-hp 50 --true-max-hp 60 "
                                  "--amount 15"),
                  short_help="Healing up to the modified max HP (NL4).")
def heal(
    hp: HpOpt, max_hp: MaxHpOpt = None,
    true_max_hp: Annotated[int | None, typer.Option(
        "--true-max-hp", min=1, max=1_000_000, help="The true max HP (NL1).")] = None,
    amount: Annotated[int | None, typer.Option("--amount", min=0, max=1_000_000,
                                               help="HP healed.")] = None,
    roll: Annotated[str | None, typer.Option(
        "--roll", help="A healing roll NdS[+STATIC] instead of --amount, e.g. 2d4+2.")] = None,
    ko: KoOpt = False, injury: InjuryOpt = 0,
    dead: Annotated[bool, typer.Option("--dead", help="The creature is dead (NK12).")] = False,
    rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Healing (NL4): HP up to the modified max, THP untouched; a KO
    creature at Injury VI or lower wakes; the dead cannot be healed."""
    if (amount is None) == (roll is None):
        raise typer.BadParameter("give exactly one of --amount and --roll",
                                 param_hint="'--amount'")
    fields: dict[str, Any] = {"targets": [_creature(
        "creature", hp, max_hp, ko=ko, injury=injury, true_max_hp=true_max_hp, dead=dead)]}
    if amount is not None:
        fields["amount"] = amount
    else:
        fields["roll"] = _roll(roll or "")
    _run("heal", fields, rolls=rolls, seed=seed, json_=json_, explain=explain)


def _roll(text: str) -> dict[str, Any]:
    """``NdS`` or ``NdS+K`` / ``NdS-K`` as NV3's ``{dice, static}``."""
    dice, sign, static = text.replace("-", "+-").partition("+")
    if not sign:
        return {"dice": dice}
    try:
        return {"dice": dice, "static": int(static)}
    except ValueError:
        raise typer.BadParameter(f"{text!r}: NdS or NdS+K", param_hint="'--roll'") from None


@commands.command("ko-roll", epilog=examples("linguo novence ko-roll --injury 4 --rolls 9,1"),
                  short_help="The start-of-turn KO roll of a KO creature (NK2).")
def ko_roll(
    injury: InjuryOpt = 0,
    stabilized: Annotated[bool, typer.Option("--stabilized", help="Stabilized (NK7).")] = False,
    timer: Annotated[int | None, typer.Option("--timer", min=1, max=12,
                                              help="Critical timer (NK6), at VII-VIII.")] = None,
    enemy: EnemyOpt = False, max_hp: MaxHpOpt = 30, rolls: RollsOpt = None,
    seed: SeedOpt = None, json_: JsonOpt = False, explain: ExplainOpt = False,
) -> None:
    """The start-of-turn KO roll alone (NK2) of a KO creature at 0 HP: 10 or
    more wakes it, 9 or less gains a stack (with a location d10 from IV)."""
    actor = _creature("creature", 0, max_hp, enemy=enemy, ko=True, injury=injury,
                      stabilized=stabilized, critical_timer=timer)
    _run("ko_roll", {"actor": actor}, rolls=rolls, seed=seed, json_=json_, explain=explain)


@commands.command(epilog=examples("linguo novence stabilize --wis 2 --prof 2 --proficient "
                                  "--dc 15 --rolls 11"),
                  short_help="Stabilizing a KO player with a Medicine check (NK7).")
def stabilize(
    dc: Annotated[int, typer.Option("--dc", min=-1000, max=1000, help="The DC (NK7).")],
    wis: Annotated[int, typer.Option("--wis", min=-1000, max=1000,
                                     help="The helper's WIS (NS1).")] = 0,
    prof: Annotated[int, typer.Option("--prof", min=0, max=1000,
                                      help="The helper's PROF (NS7).")] = 0,
    proficient: Annotated[bool, typer.Option(
        "--proficient", help="The helper is proficient in Medicine.")] = False,
    injury: InjuryOpt = 0,
    adv: Annotated[bool, typer.Option("--adv", help="Advantage (NS3).")] = False,
    dis: Annotated[bool, typer.Option("--dis", help="Disadvantage (NS3).")] = False,
    rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Stabilizing a KO player (NK7): the helper's Medicine check (WIS, NS2)
    against the DC; success stops its start-of-turn KO rolls."""
    helper = _creature("helper", 10, 10, stats={"WIS": wis} if wis else None,
                       prof=prof or None, proficient_skills=["medicine"] if proficient else None)
    target = _creature("creature", 0, 30, ko=True, injury=injury)
    fields: dict[str, Any] = {"actor": helper, "target": target, "dc": dc}
    if adv:
        fields["advantage"] = True
    if dis:
        fields["disadvantage"] = True
    _run("stabilize", fields, rolls=rolls, seed=seed, json_=json_, explain=explain)


@commands.command(epilog=examples("linguo novence rest --long --injury 4"),
                  short_help="A short or long rest for one player (NK9).")
def rest(
    long: Annotated[bool, typer.Option("--long/--short", show_default=False,
                                       help="A long rest (the default) or a short one.")]
    = True,
    injury: InjuryOpt = 0,
    chances_max: Annotated[int | None, typer.Option(
        "--second-chances", min=1, max=1_000_000,
        help="Second Chances are on with this max (NK10).")] = None,
    pool: Annotated[int | None, typer.Option(
        "--pool", min=0, max=1_000_000, help="The Second Chance pool now (default the max).")]
    = None,
    json_: JsonOpt = False, explain: ExplainOpt = False,
) -> None:
    """A rest for one player (NK9): a long rest at Injury IV or lower removes
    every stack; and the party's Second Chances refill (NK10)."""
    state: dict[str, Any] = {"combatants": [_creature(
        "creature", 0 if injury >= 9 else 1, 30, injury=injury, dead=injury >= 9)]}
    if chances_max is not None:
        sc = {"max": chances_max} if pool is None else {"max": chances_max, "pool": pool}
        state["party"] = {"second_chances": sc}
    _run("rest", {"state": state, "rest": "long" if long else "short",
                  "creatures": ["creature"]}, json_=json_, explain=explain)


@commands.command(epilog=examples("linguo novence resurrect --seconds 40 --hp 10 --rolls 10"),
                  short_help="Resurrecting a dead player (NK13).")
def resurrect(
    seconds: Annotated[int, typer.Option("--seconds", min=0, max=1_000_000,
                                         help="Seconds since death (NK13).")],
    hp: Annotated[int, typer.Option("--hp", min=1, max=1_000_000,
                                    help="The HP it returns with.")],
    max_hp: MaxHpOpt = None, rolls: RollsOpt = None, seed: SeedOpt = None,
    json_: JsonOpt = False, explain: ExplainOpt = False,
) -> None:
    """Resurrecting a dead player (NK13): one d10 sets its Injury (within
    60 s max(1, 9 - d10), later min(8, d10 + 4))."""
    target = _creature("creature", 0, max_hp if max_hp is not None else hp, dead=True,
                       injury=9)
    _run("resurrect", {"target": target, "hp": hp, "seconds_since_death": seconds},
         rolls=rolls, seed=seed, json_=json_, explain=explain)
