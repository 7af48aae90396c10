"""``linguo novence ultimate | meditate | traverse | party-check``:
Ultimates and the Zenith meter (NU1-NU7), Meditate (NT12, NU3), the
Traversal roll (NP1, NP2) and the party's roster and bank (NP3, NP4), as
the same NV3 requests ``linguo resolve`` reads. ``--state FILE`` reads an
NV1 state (YAML or JSON) and names its combatants by id; without it one
creature is built from the options. The ruleset's options come through the
global ``--option`` (e.g. ``--option zenith_meter=per_creature``).

No ``from __future__ import annotations``: Typer reads the signatures.
"""

from typing import Annotated, Any

import typer

from linguo_cli.cli.options import ExplainOpt, JsonOpt, SeedOpt, examples, run_request
from linguo_cli.rulesets.novence_eternal.commands import parse

commands = typer.Typer()

RollsOpt = Annotated[str | None, typer.Option(
    "--rolls", help="Scripted faces in NO7's order: 15,3 or d20:15,d4:3 (NV3 Faces).")]
StateOpt = Annotated[str | None, typer.Option(
    "--state", help="An NV1 state file (YAML or JSON); --actor/--character then name its "
    "combatants by id.")]
ActorOpt = Annotated[str, typer.Option(
    "--actor", help="The actor's id in --state (default: the built creature).")]
UpOpt = Annotated[int, typer.Option("--up", min=0, max=100, help="The creature's UP (NU1).")]
ZpOpt = Annotated[int, typer.Option("--zp", min=0, max=1_000_000,
                                    help="The Zenith meter's ZP (NU4).")]


def _state(path: str) -> dict[str, Any]:
    """The state of ``path`` (bounded reading, places from the io layer)."""
    from linguo_cli.io.read import load

    data = load(path).data
    if not isinstance(data, dict):
        raise typer.BadParameter("the state file holds no object", param_hint="'--state'")
    return data


def _run(kind: str, fields: dict[str, Any], *, rolls: str | None = None,
         seed: int | None = None, json_: bool, explain: bool) -> None:
    request = {"ruleset": "novence-eternal", "kind": kind, **fields}
    run_request(request, name="<options>", as_json=json_, explain=explain,
                dice=parse.dice(rolls, seed))


def _creature(up: int, **more: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"kind": "player", "hp": 10, "max_hp": 10}
    if up:
        doc["up"] = up
    doc.update({k: v for k, v in more.items() if v})
    return doc


@commands.command(epilog=examples(
    "linguo novence ultimate --name Starfall --cost 60 --ult-zp 12 --min-level 5 --up 65 "
    "--zp 81"), short_help="Casting an Ultimate (NU6): UP to 0, ZP up.")
def ultimate(
    name: Annotated[str, typer.Option("--name", help="The Ultimate's name (NV2).")],
    cost: Annotated[int | None, typer.Option("--cost", min=0, max=100,
                                             help="Its UP cost (NU6); without --state.")] = None,
    ult_zp: Annotated[int, typer.Option("--ult-zp", min=0, max=1_000_000,
                                        help="The ZP it adds (NU4).")] = 0,
    min_level: Annotated[int, typer.Option("--min-level", min=0, max=1_000_000,
                                           help="Its minimum Zenith Level (NU6).")] = 0,
    used: Annotated[bool, typer.Option("--used", help="Already used in this encounter.")]
    = False,
    up: UpOpt = 0, zp: ZpOpt = 0, state: StateOpt = None, actor: ActorOpt = "actor",
    json_: JsonOpt = False, explain: ExplainOpt = False,
) -> None:
    """Casting an Ultimate (NU6): refused when already used, below its
    minimum Zenith Level or short of its UP cost; else UP = 0 and the meter
    gains its ZP (NU4: level = floor(ZP / 9))."""
    fields: dict[str, Any] = {"name": name}
    if cost is not None:
        fields["catalogs"] = {"ultimates": {name: {"cost": cost, "zp": ult_zp,
                                                   "min_level": min_level}}}
    if state is not None:
        fields.update(state=_state(state), actor=actor)
    else:
        if cost is None:
            raise typer.BadParameter("give --cost (or --state with the catalog)",
                                     param_hint="'--cost'")
        fields["actor"] = _creature(up, ultimates_used=[name] if used else None)
        if zp:
            fields["zp"] = zp
    _run("ultimate", fields, json_=json_, explain=explain)


@commands.command(epilog=examples("linguo novence meditate --up 50 --zp 30 --rolls 2"),
                  short_help="Meditate (NT12, NU3): mental debuffs, then UP.")
def meditate(
    debuff: Annotated[str | None, typer.Option(
        "--debuff", help="The debuff worked on, under --option meditate_scope=one.")] = None,
    up: UpOpt = 0, zp: ZpOpt = 0, state: StateOpt = None, actor: ActorOpt = "actor",
    rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Meditate (NT12, NU3): each mental debuff loses a stack (3 or more
    stacks: on a save against DC 20 + 5 x (stacks - 3)); then 1d4 + the
    Zenith bonuses (III +1, VII +1d4, IX +2) UP, capped at 100."""
    fields: dict[str, Any] = {}
    if debuff is not None:
        fields["debuff"] = debuff
    if state is not None:
        fields.update(state=_state(state), actor=actor)
    else:
        fields["actor"] = _creature(up)
        if zp:
            fields["zp"] = zp
    _run("meditate", fields, rolls=rolls, seed=seed, json_=json_, explain=explain)


@commands.command(epilog=examples("linguo novence traverse --weather-feet 500 --rolls 16"),
                  short_help="The Traversal roll (NP1) and its follow-up (NP2).")
def traverse(
    weather_feet: Annotated[int | None, typer.Option(
        "--weather-feet", min=0, max=1_000_000,
        help="Feet good or bad weather adds or removes (NP2).")] = None,
    state: StateOpt = None,
    follow_ups: Annotated[str | None, typer.Option(
        "--follow-ups", help="The follow_ups object as JSON (NV3), e.g. "
        "'{\"cryptid\": {\"character\": \"ayla\", \"stat\": \"STR\", \"dc\": 15}}'.")] = None,
    rolls: RollsOpt = None, seed: SeedOpt = None, json_: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """The Traversal roll (NP1): a plain d20 gives the outcome code; the
    follow-up of the outcome rolled runs (NP2): a check whose failure deals
    damage, or a weather distance change."""
    import json

    fields: dict[str, Any] = {}
    given: dict[str, Any] = {}
    if follow_ups is not None:
        try:
            given = json.loads(follow_ups)
        except ValueError:
            raise typer.BadParameter("not JSON", param_hint="'--follow-ups'") from None
    if weather_feet is not None and isinstance(given, dict):
        given = {"good_weather": {"feet": weather_feet}, "bad_weather": {"feet": weather_feet},
                 **given}
    if given:
        fields["follow_ups"] = given
    if state is not None:
        fields["state"] = _state(state)
    _run("traverse", fields, rolls=rolls, seed=seed, json_=json_, explain=explain)


@commands.command("party-check", epilog=examples(
    "linguo novence party-check --control P1=A:own --control P1=B --control P2=C:own "
    "--bank 230 --attending 5"), short_help="The party's roster and bank (NP3, NP4).")
def party_check(
    control: Annotated[list[str], typer.Option(
        "--control", help="PLAYER=CHARACTER[:own]: a player present controls a character "
        "(own: one of that player's own PCs); repeatable.")],
    player: Annotated[list[str] | None, typer.Option(
        "--player", help="A player present who controls nothing listed; repeatable.")] = None,
    bank: Annotated[int | None, typer.Option("--bank", min=0, max=1_000_000,
                                             help="The bank's balance, gp (NP4).")] = None,
    attending: Annotated[int, typer.Option("--attending", min=0, max=1_000_000,
                                           help="Players attending the session.")] = 0,
    purchase: Annotated[bool, typer.Option(
        "--purchase-for-one", help="A purchase for one player (NP4).")] = False,
    approved: Annotated[bool, typer.Option(
        "--approved", help="The purchase is unanimously approved.")] = False,
    json_: JsonOpt = False, explain: ExplainOpt = False,
) -> None:
    """The party's roster (NP3): at most 10 characters; each player present
    controls 1 or 2, at most one their own PC; the bank gains 100 gp per
    player attending, and a purchase for one player needs approval (NP4)."""
    players: list[str] = []
    roster = []
    for item in control:
        who, eq, rest = item.partition("=")
        character, _, own = rest.partition(":")
        if not eq or not who or not character or own not in ("", "own"):
            raise typer.BadParameter(f"{item!r}: PLAYER=CHARACTER[:own]",
                                     param_hint="'--control'")
        players += [who] if who not in players else []
        roster.append({"character": character, "controlled_by": who, "own_pc": own == "own"})
    players += [p for p in player or () if p not in players]
    fields: dict[str, Any] = {"players": players, "roster": roster}
    if bank is not None:
        fields["bank"] = {"balance": bank, "attending": attending}
    if purchase:
        fields["purchase"] = {"for_one_player": True, "approved": approved}
    _run("party_check", fields, json_=json_, explain=explain)
