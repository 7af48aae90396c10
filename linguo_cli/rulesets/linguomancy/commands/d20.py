"""Linguomancy's d20 commands: ``check``, ``attack``, ``save``, ``odds``, ``ticks``
and ``roll``.

No ``from __future__ import annotations`` here: Typer reads every command's
signature when the app starts (see :mod:`linguo_cli.cli.app`).
"""

from typing import Annotated, Any

import typer

from linguo_cli.cli.options import (
    AcOpt,
    AdvOpt,
    CheckDcOpt,
    DisOpt,
    ExplainOpt,
    JsonOpt,
    ModOpt,
    NoAbilityOpt,
    NoAcOpt,
    RollsOpt,
    RulingOpt,
    SaveDcOpt,
    SeedOpt,
    _name_value,
    dice_from_options,
    examples,
    parse_mods,
    run_request,
)
from linguo_cli.core.errors import UsageError

commands = typer.Typer()


def _test_request(kind: str, mods: list[str] | None, adv: int, dis: int, *,
                  dc: int | None = None, noun: str | None = None,
                  knows: list[str] | None = None, ac: int | None = None, no_ac: bool = False,
                  rulings: list[str] | None = None, no_ability: bool = False
                  ) -> dict[str, Any]:
    """The check/attack/save request the options of a roll or odds command
    describe; usage errors (exit 2) for --ac with --no-ac and unknown rulings."""
    req: dict[str, Any] = {"kind": kind, "modifiers": parse_mods(mods)}
    if adv:
        req["advantage"] = True
    if dis:
        req["disadvantage"] = True
    if kind == "attack":
        if (ac is None) == (not no_ac):
            raise UsageError("give exactly one of --ac N or --no-ac")
        req["ac"] = ac
        for r in rulings or []:
            if r != "partial-success-hits":
                raise typer.BadParameter(f"unknown ruling {r!r}; known: partial-success-hits",
                                         param_hint="'--ruling'")
            req["partial_success_hits"] = True
        return req
    req["dc"] = dc
    if noun is not None:
        req["noun"] = noun
    if knows:
        req["entity"] = {"idioms": list(knows)}
    if no_ability:
        req["no_ability"] = True
    return req


@commands.command(epilog=examples(
    "linguo check --mod strength=3 --mod bless=2 --dc 15 --rolls 12",
    "linguo check --dc 15 --noun Fire --rolls 12   # exits 4: a Noun check needs the idiom (D7)"))
def check(
    dc: CheckDcOpt,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    noun: Annotated[str | None, typer.Option(
        "--noun", callback=lambda v: _name_value(v, "--noun"),
        help="A check about a Noun (D7): needs --knows 'Shape - NOUN' or "
        "'Speak - NOUN'.")] = None,
    knows: Annotated[list[str] | None, typer.Option(
        "--knows", callback=lambda v: _name_value(v, "--knows"),
        help="An idiom the entity knows; repeatable.")] = None,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve an ability check against a DC (rules D1-D7)."""
    req = _test_request("check", mod, adv, dis, dc=dc, noun=noun, knows=knows)
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed), valid_by_options=True)


@commands.command(epilog=examples("linguo attack --mod signature=5 --ac 15 --rolls 18"),
                  short_help="Resolve an attack roll against an AC (D1-D5, A1-A3).")
def attack(
    ac: AcOpt = None,
    no_ac: NoAcOpt = False,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    ruling: RulingOpt = None,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve an attack roll against an AC (rules D1-D5, A1-A3)."""
    req = _test_request("attack", mod, adv, dis, ac=ac, no_ac=no_ac, rulings=ruling)
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed), valid_by_options=True)


@commands.command(epilog=examples("linguo save --mod constitution=1 --dc 14 --rolls 9"),
                  short_help="Resolve a saving throw against a save DC (D1-D5, S1, S2).")
def save(
    dc: SaveDcOpt,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    no_ability: NoAbilityOpt = False,
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve a saving throw against a save DC (rules D1-D5, S1-S2)."""
    req = _test_request("save", mod, adv, dis, dc=dc, no_ability=no_ability)
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed), valid_by_options=True)


# ---------------------------------------------------------------------------
# Exact odds and tick design: no die is rolled

odds_app = typer.Typer(
    name="odds",
    help="Exact odds of a check, attack or save (fractions and percentages, no die rolled); "
    "for attacks also the expected damage per attack.\n\n"
    + examples("linguo odds check --mod 5 --dc 15 --adv"),
    short_help="Exact odds of a check, attack or save (no die rolled).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
commands.add_typer(odds_app, name="odds")


def _run_odds(test: dict[str, Any], *, damage: dict[str, Any] | None = None,
              as_json: bool, explain: bool) -> None:
    req: dict[str, Any] = {"kind": "odds", "test": test}
    if damage is not None:
        req["damage"] = damage
    run_request(req, name="<options>", as_json=as_json, explain=explain)


@odds_app.command("check", epilog=examples("linguo odds check --mod 5 --dc 15 --adv --json"))
def odds_check(
    dc: CheckDcOpt,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    noun: Annotated[str | None, typer.Option(
        "--noun", help="A check about a Noun (D7): needs --knows 'Shape - NOUN' or "
        "'Speak - NOUN'.")] = None,
    knows: Annotated[list[str] | None, typer.Option(
        "--knows", help="An idiom the entity knows; repeatable.")] = None,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Exact probability of each degree of an ability check (D1-D5, D7)."""
    req = _test_request("check", mod, adv, dis, dc=dc, noun=noun, knows=knows)
    _run_odds(req, as_json=json_, explain=explain)


@odds_app.command("attack", short_help="Exact odds of an attack roll and its damage per attack.",
                  epilog=examples(
    "linguo odds attack --mod signature=5 --ac 15",
    "linguo odds attack --ac 15 --mod 5 --damage-dice 2d6+1 --tick moderate "
    "--damage-mod potential=3 --resist --distribution"))
def odds_attack(
    ac: AcOpt = None,
    no_ac: NoAcOpt = False,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    ruling: RulingOpt = None,
    damage_dice: Annotated[str | None, typer.Option(
        "--damage-dice", help="Damage dice, e.g. 2d6+1: adds the exact expected damage per "
        "attack (critical hits double the dice, T5).")] = None,
    tick: Annotated[str | None, typer.Option(
        "--tick", help="Damage tick of the dice (T1, T3), e.g. moderate; needed with "
        "--damage-dice.")] = None,
    damage_mod: Annotated[list[str] | None, typer.Option(
        "--damage-mod", help="Damage modifier: potential=N (multiplied by the tick's "
        "multiplier, T4) or LABEL=N (flat); repeatable. Without potential=N here, a --mod "
        "labelled potential is also used as the damage Potential.")] = None,
    resist: Annotated[bool, typer.Option(
        "--resist", help="The target resists: each outcome halved, rounded down (R1).")] = False,
    vuln: Annotated[bool, typer.Option(
        "--vuln", help="The target is vulnerable: each outcome doubled (R1, R3).")] = False,
    immune: Annotated[bool, typer.Option(
        "--immune", help="The target is immune: no damage (R1).")] = False,
    allow_nonconforming: Annotated[bool, typer.Option(
        "--allow-nonconforming", help="Accept dice outside the tick's range, with a warning "
        "(T3).")] = False,
    distribution: Annotated[bool, typer.Option(
        "--distribution", help="Show every damage amount per attack with its probability.")
    ] = False,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Exact odds of an attack roll: each degree, hit, critical hit, critical miss
    (D1-D5, A1-A3); with --damage-dice the exact damage per attack (T3-T5, R1-R3)."""
    req = _test_request("attack", mod, adv, dis, ac=ac, no_ac=no_ac, rulings=ruling)
    damage: dict[str, Any] | None = None
    if damage_dice is None:
        if tick is not None or damage_mod or resist or vuln or immune or distribution \
                or allow_nonconforming:
            raise UsageError("damage options need --damage-dice DICE")
    else:
        if tick is None:
            raise UsageError("--damage-dice needs --tick NAME (the damage tick of the dice)")
        damage = {"dice": damage_dice, "tick": tick, "modifiers": []}
        for m in parse_mods(damage_mod, "--damage-mod"):
            if m["label"].lower() == "potential":
                if "potential" in damage:
                    raise UsageError("--damage-mod potential=N given twice")
                damage["potential"] = m["value"]
            else:
                damage["modifiers"].append(m)
        if "potential" not in damage:
            attack_potential = [m for m in req["modifiers"] if m["label"].lower() == "potential"]
            if attack_potential:
                damage["potential"] = sum(m["value"] for m in attack_potential)
        for flag, on in (("resistant", resist), ("vulnerable", vuln), ("immune", immune),
                         ("allow_nonconforming", allow_nonconforming),
                         ("distribution", distribution)):
            if on:
                damage[flag] = True
    _run_odds(req, damage=damage, as_json=json_, explain=explain)


@odds_app.command("save", epilog=examples("linguo odds save --mod constitution=1 --dc 14 --dis"))
def odds_save(
    dc: SaveDcOpt,
    mod: ModOpt = None,
    adv: AdvOpt = 0,
    dis: DisOpt = 0,
    no_ability: NoAbilityOpt = False,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Exact probability of each degree of a saving throw (D1-D5, S1-S2)."""
    req = _test_request("save", mod, adv, dis, dc=dc, no_ability=no_ability)
    _run_odds(req, as_json=json_, explain=explain)


#: One example of every operator of the dice notation (``linguo ticks --help``).
NOTATION_EXAMPLES = (
    "d% (d100)", "4d6k3 (= kh3)", "2d20kl1", "4d6dh1", "4d6dl1", "5d6kh4kl2 (chained)",
    "1d6ro1 (reroll once)", "'2d6rr<3' (reroll while)", "1d6ra1 (reroll and add)",
    "1d20e20 (explode)", "'1d6e>4'", "8d6mi2", "4d6ma5", "'(1d4+1)*2'", "3d6/2 (floor)",
    "-- -1d4+5 (unary minus)", "'1d8[fire]' (annotation)")


def _ticks_epilog() -> str:
    """Every notation of :data:`NOTATION_EXAMPLES` as a ``linguo ticks`` example."""
    lines = ["linguo ticks 2d6+1", "linguo ticks 3d6 --tick low   # exits 4: 21/2 is not Low (T3)",
             "linguo ticks --suggest moderate", "linguo ticks 2d8 --healing --tick moderate"]
    lines += [f"linguo ticks {e.split(' (')[0]}" for e in NOTATION_EXAMPLES]
    return examples(*lines)


@commands.command("ticks", epilog=_ticks_epilog(),
                  short_help="Tick design: dice, their expected value and ticks (T1-T3).")
def ticks_command(
    expr: Annotated[str | None, typer.Argument(
        metavar="DICE", help="Dice notation, e.g. 2d6+1 or 4d6kh3.")] = None,
    tick: Annotated[str | None, typer.Option(
        "--tick", help="Check the dice against this tick: exit 4 when they do not conform "
        "(T3).")] = None,
    suggest: Annotated[str | None, typer.Option(
        "--suggest", help="List simple dice whose expected value conforms to this tick.")
    ] = None,
    healing: Annotated[bool, typer.Option(
        "--healing", help="--tick and --suggest name healing ticks (T2), not damage ticks.")
    ] = False,
    limit: Annotated[int, typer.Option(
        "--limit", min=1, max=100, help="At most this many suggestions.")] = 10,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Tick design: exact expected value, minimum and maximum of dice and every damage
    and healing tick they conform to (T1-T3); check one tick or get suggestions."""
    if expr is None and suggest is None:
        raise UsageError("give DICE, --suggest TICK, or both")
    if tick is not None and expr is None:
        raise UsageError("--tick needs DICE")
    req: dict[str, Any] = {"kind": "ticks"}
    if expr is not None:
        req["dice"] = expr
    if tick is not None:
        req["tick"] = tick
    if suggest is not None:
        req["suggest"] = suggest
        req["limit"] = limit
    if healing:
        req["healing"] = True
    run_request(req, name="<options>", as_json=json_, explain=explain)


@commands.command("roll", short_help="Roll any dice notation: total, every face, exact odds.",
                  epilog=examples("linguo roll 4d6dl1 --rolls 3,5,1,6",
                                  "linguo roll '2d6rr<3' --distribution",
                                  "linguo roll '(1d4+1)*2' --crit")
                  + "\n\n" + examples("2d6+1", *NOTATION_EXAMPLES, title="Notation:"))
def roll_command(
    expr: Annotated[str, typer.Argument(
        metavar="EXPR", help="Dice notation, e.g. 4d6dl1, 1d20e20 or (1d4+1)*2.")],
    rolls: RollsOpt = None,
    seed: SeedOpt = None,
    distribution: Annotated[bool, typer.Option(
        "--distribution", help="Also print the exact distribution of the total.")] = False,
    crit: Annotated[bool, typer.Option(
        "--crit", help="Roll the critical-hit expression (T5: every dice node doubled).")
    ] = False,
    json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Roll any dice notation (request kind dice): total, every face with its
    kept/dropped/rerolled/exploded marks, exact expected value, minimum and maximum."""
    req: dict[str, Any] = {"kind": "dice", "expression": expr}
    if distribution:
        req["distribution"] = True
    if crit:
        req["critical"] = True
    run_request(req, name="<options>", as_json=json_, explain=explain,
                dice=dice_from_options(rolls, seed))


