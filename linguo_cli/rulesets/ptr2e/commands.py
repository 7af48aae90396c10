"""``linguo ptr2e skill|rush|move|activation|priority|round|initiative|odds``: one-off rulings
built from options into the same requests ``linguo resolve`` reads.

No ``from __future__ import annotations``: Typer reads the signatures.
"""

from typing import Annotated, Any

import typer

from linguo_cli.cli.options import (
    ExplainOpt,
    InPlaceOpt,
    JsonOpt,
    OutputOpt,
    RollsOpt,
    SeedOpt,
    dice_from_options,
    examples,
    run_request,
    with_command_line_options,
)

commands = typer.Typer()

ScoreOpt = Annotated[list[str] | None, typer.Option(
    "--score", help="A movement score TYPE=N (repeatable), e.g. overland=10.")]
SkillsOpt = Annotated[list[str] | None, typer.Option(
    "--skill", help="A skill value NAME=N (repeatable), e.g. running=55.")]
RushSkillOpt = Annotated[list[str] | None, typer.Option(
    "--rush-skill", help="Link a movement type to a skill TYPE=SKILL (PR1), repeatable.")]
CrOpt = Annotated[str | None, typer.Option(
    "--cr", help="Challenge Rating (PS1), default combat_cr (challenging).")]
ModOpt = Annotated[int, typer.Option("--mod", min=-1_000_000, max=1_000_000,
                                     help="Flat DC modifier.")]
PpOpt = Annotated[int | None, typer.Option("--pp", min=0, max=1_000_000,
                                           help="The creature's Power Points (PA5).")]


def _pairs(items: list[str] | None, option: str, *, numbers: bool = True) -> dict[str, Any]:
    """``["overland=10"]`` -> ``{"overland": 10}``; a bad item is a usage error."""
    out: dict[str, Any] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        ok = bool(sep and name and value) and len(name) <= 100
        if ok and numbers:
            digits = value.lstrip("+-")
            ok = digits.isascii() and digits.isdigit() and len(digits) <= 7
        if not ok:
            raise typer.BadParameter(f"{item!r} is not NAME={'N' if numbers else 'VALUE'}",
                                     param_hint=f"'{option}'")
        out[name] = int(value) if numbers else value
    return out


def _run(request: dict[str, Any], rolls: str | None, seed: int | None, json_: bool,
         explain: bool) -> None:
    run_request({"ruleset": "ptr2e", **request}, name="<options>", as_json=json_,
                explain=explain, dice=dice_from_options(rolls, seed))


@commands.command(short_help="A d100 skill test: DC, success, degrees (PS1-PS5).",
                  epilog=examples("linguo ptr2e skill --skill 55 --cr challenging --rolls 12"))
def skill(skill_: Annotated[str, typer.Option(
              "--skill", help="The skill's value N, or NAME=N (running=55).")],
          cr: CrOpt = None, mod: ModOpt = 0, rolls: RollsOpt = None, seed: SeedOpt = None,
          json_: JsonOpt = False, explain: ExplainOpt = False) -> None:
    """A d100 skill test: DC = skill + CR + mod, success on roll <= DC, degrees (PS1-PS5)."""
    request: dict[str, Any] = {"kind": "skill"}
    if "=" in skill_:
        name, value = next(iter(_pairs([skill_], "--skill").items()))
        request.update(skill=name, value=value)
    else:
        request["value"] = next(iter(_pairs([f"skill={skill_}"], "--skill").values()))
    if cr is not None:
        request["cr"] = cr
    if mod:
        request["mod"] = mod
    _run(request, rolls, seed, json_, explain)


def _creature(score: list[str] | None, skills: list[str] | None,
              rush_skill: list[str] | None, pp: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {"movement": _pairs(score, "--score")}
    if skills:
        out["skills"] = _pairs(skills, "--skill")
    if rush_skill:
        out["rush_skills"] = _pairs(rush_skill, "--rush-skill", numbers=False)
    if pp is not None:
        out["pp"] = pp
    return out


@commands.command(short_help="One Rush: degrees of success added to a movement (PR).",
                  epilog=examples("linguo ptr2e rush --score overland=10 --score fly=15 "
                                  "--skill running=55 --type overland --rolls 12"))
def rush(type_: Annotated[str, typer.Option("--type", help="The movement type to Rush.")],
         score: ScoreOpt = None, skill_: SkillsOpt = None, rush_skill: RushSkillOpt = None,
         cr: CrOpt = None, mod: ModOpt = 0, pp: PpOpt = None,
         pp_boost: Annotated[int | None, typer.Option(
             "--pp-boost", help="Power Points spent on the Rush (PR5, rush_yield: per_two_dos).")
         ] = None,
         rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
         explain: ExplainOpt = False) -> None:
    """One Rush: a skill test that adds its degrees of success to a movement type (PR1-PR5)."""
    request: dict[str, Any] = {"kind": "rush", **_creature(score, skill_, rush_skill, pp),
                               "type": type_}
    for key, value in (("cr", cr), ("pp_boost", pp_boost)):
        if value is not None:
            request[key] = value
    if mod:
        request["mod"] = mod
    _run(request, rolls, seed, json_, explain)


def _move_step(token: str) -> dict[str, Any]:
    """``overland:3`` -> a move; ``rush:overland`` (``rush:overland:easy``) -> a Rush."""
    parts = token.split(":")
    if len(parts) in (2, 3) and parts[0] == "rush" and parts[1]:
        return {"rush": parts[1], **({"cr": parts[2]} if len(parts) == 3 else {})}
    if len(parts) == 2 and parts[0]:
        digits = parts[1].lstrip("-")
        if digits.isascii() and digits.isdigit() and len(digits) <= 7:
            return {"move": parts[0], "m": int(parts[1])}
    raise typer.BadParameter(f"{token!r} is not TYPE:METRES or rush:TYPE[:CR]",
                             param_hint="'STEPS'")


@commands.command(short_help="A movement ledger through one round (PM1-PM5, PR).",
                  epilog=examples("linguo ptr2e move --score overland=10 --score fly=15 "
                                  "overland:3 fly:4"))
def move(steps: Annotated[list[str], typer.Argument(
             help="Moves TYPE:METRES and Rushes rush:TYPE[:CR], in order.")],
         score: ScoreOpt = None, skill_: SkillsOpt = None, rush_skill: RushSkillOpt = None,
         pp: PpOpt = None, rolls: RollsOpt = None, seed: SeedOpt = None,
         json_: JsonOpt = False, explain: ExplainOpt = False) -> None:
    """A movement ledger through one round: shared allowances, the cascade, the round
    maximum (PM1-PM5) and Rushes (PR)."""
    request = {"kind": "move", **_creature(score, skill_, rush_skill, pp),
               "steps": [_move_step(t) for t in steps]}
    _run(request, rolls, seed, json_, explain)


def _action_step(token: str) -> dict[str, Any]:
    """``simple``, ``complex:delay``, ``free:pp=1``, ``move``, ``simple:interrupt=4``."""
    cost, *flags = token.split(":")
    if cost not in ("simple", "complex", "free", "move"):
        raise typer.BadParameter(f"{token!r}: a step is simple, complex, free or move "
                                 "(with :delay, :pp=N, :priority=X, :interrupt=X)",
                                 param_hint="'STEPS'")
    step: dict[str, Any] = {"cost": cost}
    for flag in flags:
        key, sep, value = flag.partition("=")
        if key == "delay" and not sep:
            step["delay"] = True
        elif key in ("pp", "priority", "interrupt") and value.isascii() and value.isdigit() \
                and len(value) <= 7:
            step[key] = int(value)
        else:
            raise typer.BadParameter(f"{token!r}: unknown flag {flag!r}", param_hint="'STEPS'")
    return step


@commands.command(short_help="Whether one Activation's actions are legal (PA2-PA6).",
                  epilog=examples("linguo ptr2e activation simple complex   # exits 4: "
                                  "budget_mixed (PA2)"))
def activation(steps: Annotated[list[str] | None, typer.Argument(
                   help="The Activation's steps: simple, complex, free, move "
                   "(flags :delay, :pp=N, :priority=X, :interrupt=X).")] = None,
               pp: PpOpt = None,
               owed_cost: Annotated[int, typer.Option(
                   "--owed-cost", min=0, max=2,
                   help="Simple actions already paid for Interrupts (PI5).")] = 0,
               json_: JsonOpt = False, explain: ExplainOpt = False) -> None:
    """Whether one Activation's actions are legal: one complex or up to two simple,
    free actions, Power Points (PA2-PA6, PD1)."""
    request: dict[str, Any] = {"kind": "activation",
                               "steps": [_action_step(t) for t in steps or []]}
    if pp is not None:
        request["pp"] = pp
    if owed_cost:
        request["owed_cost"] = owed_cost
    _run(request, None, None, json_, explain)


def _entry(token: str) -> dict[str, Any]:
    """``a:P2`` (Priority 2), ``b:I4`` (Interrupt 4), ``c:fire`` (a trigger
    delay firing), each optionally ``:ACTION``."""
    actor, _, rest = token.partition(":")
    what, _, action = rest.partition(":")
    entry: dict[str, Any]
    if what == "fire":
        entry = {"actor": actor, "type": "fire"}
    elif what[:1] in ("P", "I") and what[1:].isascii() and what[1:].isdigit() \
            and len(what) <= 4:
        entry = {"actor": actor, "type": "priority" if what[0] == "P" else "interrupt",
                 "level": int(what[1:])}
    else:
        raise typer.BadParameter(f"{token!r} is not ACTOR:P<level>, ACTOR:I<level> or "
                                 "ACTOR:fire (optionally :ACTION)", param_hint="'ENTRIES'")
    if not actor:
        raise typer.BadParameter(f"{token!r} names no actor", param_hint="'ENTRIES'")
    if action:
        entry["action"] = action
    return entry


@commands.command(short_help="The order of a batch of declarations (PP4).",
                  epilog=examples("linguo ptr2e priority a:P2 b:P2 --speed a=80 --speed b=95"))
def priority(entries: Annotated[list[str], typer.Argument(
                 help="Declarations ACTOR:P<level>, ACTOR:I<level> or ACTOR:fire.")],
             speed: Annotated[list[str] | None, typer.Option(
                 "--speed", help="A creature's Speed NAME=N (every actor needs one).")] = None,
             base_av: Annotated[list[str] | None, typer.Option(
                 "--base-av", help="A creature's Base AV NAME=N (PI5).")] = None,
             owes: Annotated[list[str] | None, typer.Option(
                 "--owes", help="A creature that owes a skip NAME=N (PP5).")] = None,
             pending: Annotated[str | None, typer.Option(
                 "--pending", help="Creatures with a scheduled Activation to come, in the "
                 "order of their next one, e.g. c,b,a (PV3).")] = None,
             initiative: Annotated[str | None, typer.Option(
                 "--initiative", help="The state's initiative list for the rest (PV3).")
             ] = None,
             json_: JsonOpt = False, explain: ExplainOpt = False) -> None:
    """The order a batch of simultaneous Priority/Interrupt declarations resolves in (PP4)."""
    parsed = [_entry(t) for t in entries]
    speeds, avs, owed = _pairs(speed, "--speed"), _pairs(base_av, "--base-av"), \
        _pairs(owes, "--owes")
    creatures: dict[str, Any] = {}
    for name in dict.fromkeys([e["actor"] for e in parsed] + list(speeds)):
        if name not in speeds:
            raise typer.BadParameter(f"no Speed for {name!r}", param_hint="'--speed'")
        creatures[name] = {"speed": speeds[name]}
        if name in avs:
            creatures[name]["base_av"] = avs[name]
        if owed.get(name):
            creatures[name]["owed_skips"] = owed[name]
    request: dict[str, Any] = {"kind": "priority", "creatures": creatures, "entries": parsed}
    for key, value in (("pending", pending), ("initiative", initiative)):
        if value is not None:
            request[key] = [c.strip() for c in value.split(",") if c.strip()]
    _run(request, None, None, json_, explain)


@commands.command(name="round", short_help="Play a round from a state and a script (PV1-PV8).",
                  epilog=examples("linguo ptr2e round examples/ptr2e/state.yaml "
                                  "examples/ptr2e/round.yaml"))
def round_(state: Annotated[str, typer.Argument(help="State file: round, combatants, "
                                                 "initiative, pending_triggers (YAML/JSON).")],
           script: Annotated[str, typer.Argument(
               help="Script file: stream and script (one round) or rounds; optionally "
               "rolls and options.")],
           output: OutputOpt = None, in_place: InPlaceOpt = False,
           rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
           explain: ExplainOpt = False) -> None:
    """Play one round (or several) from a state and a script, all or nothing (PV1-PV5):
    skips, budgets, Priority/Interrupt batches, Delays, free actions, movement, Rush.

    The timeline is printed; with -o FILE or --in-place the state for the next round is
    written atomically (nothing is written when the round is refused: exit 3 bad input,
    exit 4 a rules refusal naming its rule ID and refusal code)."""
    from linguo_cli.rulesets.ptr2e.round_cli import play_round

    play_round(state, script, output=output, in_place=in_place,
               dice=dice_from_options(rolls, seed), as_json=json_, explain=explain,
               with_options=with_command_line_options)


@commands.command(short_help="The Action Value timeline of a state (PV6, PV7).",
                  epilog=examples("linguo ptr2e initiative examples/ptr2e/state.yaml --rounds 2"))
def initiative(state: Annotated[str, typer.Argument(help="State file (YAML/JSON).")],
               rounds: Annotated[int, typer.Option("--rounds", min=1, max=100,
                                                   help="How many rounds to show.")] = 1,
               json_: JsonOpt = False) -> None:
    """The later rules' Action Value timeline of a state (PV6, PV7): Base AVs, the order
    of Activations round by round, and the AVs the next round starts with."""
    from linguo_cli.rulesets.ptr2e.round_cli import show_initiative

    show_initiative(state, rounds, as_json=json_, with_options=with_command_line_options)


# ---------------------------------------------------------------------------
# Exact odds: no die is rolled

odds_app = typer.Typer(
    name="odds",
    help="Exact odds of each degree of a skill test and of each Rush bonus (fractions and "
    "percentages, no die rolled; PS1-PS3, PR2, PR5).\n\n"
    + examples("linguo ptr2e odds skill --skill 55 --cr challenging"),
    short_help="Exact odds of a skill test or a Rush (no die rolled).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
commands.add_typer(odds_app, name="odds")


def _run_odds(test: dict[str, Any], json_: bool, explain: bool) -> None:
    _run({"kind": "odds", "test": test}, None, None, json_, explain)


@odds_app.command("skill", short_help="Exact odds of each degree of a skill test (PS1-PS3).",
                  epilog=examples("linguo ptr2e odds skill --skill 55 --cr challenging",
                                  "linguo ptr2e odds skill --skill running=55 --json"))
def odds_skill(skill_: Annotated[str, typer.Option(
                   "--skill", help="The skill's value N, or NAME=N (running=55).")],
               cr: CrOpt = None, mod: ModOpt = 0, json_: JsonOpt = False,
               explain: ExplainOpt = False) -> None:
    """The exact probability of success, failure and each degree of a d100 skill test
    (PS1-PS3), every face 1-100 through the skill test's own rules; no die is rolled."""
    test: dict[str, Any] = {"kind": "skill"}
    if "=" in skill_:
        name, value = next(iter(_pairs([skill_], "--skill").items()))
        test.update(skill=name, value=value)
    else:
        test["value"] = next(iter(_pairs([f"skill={skill_}"], "--skill").values()))
    if cr is not None:
        test["cr"] = cr
    if mod:
        test["mod"] = mod
    _run_odds(test, json_, explain)


@odds_app.command("rush", short_help="Exact odds of each bonus of a Rush (PR1, PR2, PR5).",
                  epilog=examples("linguo ptr2e odds rush --score overland=10 "
                                  "--skill running=55 --type overland"))
def odds_rush(type_: Annotated[str, typer.Option("--type", help="The movement type to Rush.")],
              score: ScoreOpt = None, skill_: SkillsOpt = None,
              rush_skill: RushSkillOpt = None, cr: CrOpt = None, mod: ModOpt = 0,
              pp: PpOpt = None,
              pp_boost: Annotated[int | None, typer.Option(
                  "--pp-boost",
                  help="Power Points spent on the Rush (PR5, rush_yield: per_two_dos).")
              ] = None,
              json_: JsonOpt = False, explain: ExplainOpt = False) -> None:
    """The exact probability of each degree and each bonus of a Rush, and its expected
    bonus (PR1, PR2, PR5, PS1-PS3); no die is rolled."""
    test: dict[str, Any] = {"kind": "rush", **_creature(score, skill_, rush_skill, pp),
                            "type": type_}
    for key, value in (("cr", cr), ("pp_boost", pp_boost)):
        if value is not None:
            test[key] = value
    if mod:
        test["mod"] = mod
    _run_odds(test, json_, explain)


#: Each command -> the module whose Typer ``commands`` registers it, in the order
#: ``linguo ptr2e --help`` lists them: ``linguo ptr2e skill`` builds ``skill`` alone
#: (:class:`linguo_cli.cli.lazy.RulesetGroup`; tests/cli/test_lazy_commands.py
#: keeps it in step with the commands).
COMMANDS: dict[str, str] = dict.fromkeys(
    ("skill", "rush", "move", "activation", "priority", "round", "initiative"), __name__)
#: Each group of commands -> its module, listed after the commands.
GROUPS: dict[str, str] = {"odds": __name__}


def mount(app: Any) -> None:
    """Add the PTR 2e commands and the ``odds`` group to the Typer ``app``
    (``linguo ptr2e ...``)."""
    app.registered_commands.extend(commands.registered_commands)
    app.registered_groups.extend(commands.registered_groups)
