"""``linguo novence-eternal attack|modifiers`` (alias ``linguo novence``): the
one-off commands, their options and errors, and the README's Novence lines.

Expected numbers are worked by hand in each test's comment (rulings NH, NM,
NX, NC, NA, ND, NR)."""

from __future__ import annotations

import json
import shlex

from linguo_cli.core import ruleset as rulesets

from ..conftest import ROOT, run_cli


def _json(*args: str) -> dict:  # type: ignore[type-arg]
    run = run_cli(*args, "--json")
    assert run.exit_code == 0, run.stderr
    out: dict = json.loads(run.stdout)  # type: ignore[type-arg]
    return out


def test_the_ruleset_is_installed_with_its_alias() -> None:
    rs = rulesets.get("novence", aliases=True)
    assert rs.name == "novence-eternal" and rs.kinds[:3] == ("attack", "modifiers", "dc_effect")
    assert set(rs.kinds[3:]) == {"thp", "heal", "ko_roll", "stabilize", "rest", "resurrect",
                                "check", "ultimate", "meditate", "traverse", "party_check",
                                "sc_attack", "initiative", "reaction_order", "move",
                                "injury", "script", "turn_start", "event"}
    assert "novence-eternal" in run_cli("--help").stdout
    assert run_cli("novence", "--help").exit_code == 0


def test_attack_lands_and_rolls_the_default_damage() -> None:
    # d20 10 + 7 = 17 > AC 15: lands, THR 2; 1d8 (default kinetic) shows 3: HP 100 -> 97
    r = _json("novence-eternal", "attack", "--ac", "15", "--to-hit", "7", "--rolls", "10,3")
    a = r["attack"]
    assert (a["total"], a["against"], a["landed"], a["thr"], a["damage"]) == (17, 15, True, 2, 3)
    assert r["combatants"]["target"]["after"]["hp"] == 97
    assert r["rolls_used"] == [10, 3] and r["ruleset"] == "novence-eternal"


def test_attack_with_aim_cover_and_crr() -> None:
    # Aim 3: floor 14 (NM3) over the natural 12: 14 + 7 = 21 > 15, THR 6; CRR -2 crits on
    # 18+ only (NX1, natural before the floor: NX3). Cover 60 %: CC 6 (NC2); min THR 1 + 6 = 7
    # (NM5) > 6: exposed, factor 1 (NC3). 2d8: 4 + 5 = 9.
    r = _json("novence", "attack", "--to-hit", "7", "--ac", "15", "--crr", "-2", "--aim", "3",
              "--cover", "60", "--damage", "2d8:kinetic", "--rolls", "12,4,5")
    a = r["attack"]
    assert (a["natural"], a["effective_die"], a["total"], a["thr"], a["crits"]) == (12, 14, 21, 6,
                                                                                   0)
    assert a["cover"]["cc"] == 6 and a["cover"]["thr_c"] == 7 and a["cover"]["result"] == "exposed"
    assert a["damage"] == 9
    # natural 19 >= 18: 1 crit, the 2d8 roll twice (NX5): 1 + 2 + 3 + 4 = 10; faces named
    r = _json("novence", "attack", "--to-hit", "7", "--ac", "15", "--crr", "-2", "--aim", "3",
              "--cover", "60", "--damage", "2d8:kinetic", "--rolls", "d20:19,1,2,3,4")
    assert (r["attack"]["crits"], r["attack"]["damage"], r["rolls_used"]) == (1, 10,
                                                                              [19, 1, 2, 3, 4])


def test_attack_through_armor_with_ap() -> None:
    # 15 + 5 = 20 > 10, THR 10. AP 2 < PC 5: 2/5 bypasses (AP pool), 3/5 tested: THR 10 > 5
    # penetrates at level III (x1, RES 20, wear 2). 1d8 = 6: normal 18/5 x 4/5 = 72/25,
    # AP 12/5 x 1 (RES >= 0 ignored) = 60/25; 132/25 -> 5. PC 5 - 2 = 3.
    r = _json("novence", "attack", "--ac", "10", "--to-hit", "5", "--armor", "kinetic:3:20",
              "--pc-max", "5", "--ap", "2", "--rolls", "15,6")
    assert (r["attack"]["exact"], r["attack"]["damage"]) == ("132/25", 5)
    assert r["combatants"]["target"]["after"]["armor_pc"] == 3


def test_attack_parried_charge_factor() -> None:
    # melee 15 + 6 = 21 > 14; the target's Parry charge rolls 9 (+0), not above 21: x4/5.
    # 1d6+3 = 4 + 3 = 7; 7 x 4/5 = 28/5 -> 5.
    r = _json("novence", "attack", "--ac", "14", "--to-hit", "6", "--melee", "--damage",
              "1d6+3:bludgeoning", "--parry", "1", "--rolls", "15,9,4")
    assert r["attack"]["charge_factor"] == "4/5" and r["attack"]["damage"] == 5
    assert r["combatants"]["target"]["after"]["charges"]["parry"] == 0


def test_attack_text_and_explain() -> None:
    run = run_cli("novence", "attack", "--ac", "15", "--to-hit", "7", "--rolls", "10,3",
                  "--explain")
    assert run.exit_code == 0, run.stderr
    assert "total 17 against 15: lands, THR 2" in run.stdout
    assert "target: HP 100 -> 97" in run.stdout
    assert "[NH2] total 17 against AC 15: lands" in run.stdout
    assert run.stdout.rstrip().endswith("rolls used: 10,3")


def test_options_on_the_command_line() -> None:
    # hit_rule=meet (NH2's alternative): 8 + 7 = 15 meets AC 15 and lands; by default it misses
    r = _json("novence", "attack", "--ac", "15", "--to-hit", "7", "--rolls", "8,2",
              "--option", "hit_rule=meet")
    assert r["attack"]["landed"] is True and r["options"] == {"hit_rule": "meet"}
    r = _json("novence", "attack", "--ac", "15", "--to-hit", "7", "--rolls", "8")
    assert r["attack"]["landed"] is False and r["options"] == {}


def test_bad_options_are_exit_3_with_their_place() -> None:
    run = run_cli("novence", "attack", "--ac", "15", "--rolls", "10,3", "--option", "nope=1",
                  "--json")
    assert run.exit_code == 3
    err = json.loads(run.stdout)["error"]
    assert (err["code"], err["place"]) == ("bad_option", "--option")
    run = run_cli("novence", "modifiers", "--raw", "fire=10", "--option", "netting=bogus",
                  "--json")
    err = json.loads(run.stdout)["error"]
    assert (run.exit_code, err["code"], err["rule"]) == (3, "bad_option", "ND4")


def test_faces_errors() -> None:
    run = run_cli("novence", "attack", "--ac", "15", "--rolls", "d6:10", "--json")
    assert run.exit_code == 3 and json.loads(run.stdout)["error"]["code"] == "bad_input"
    run = run_cli("novence", "attack", "--ac", "15", "--to-hit", "7", "--rolls", "10", "--json")
    assert run.exit_code == 3 and json.loads(run.stdout)["error"]["code"] == "missing_input"
    assert run_cli("novence", "attack", "--ac", "15", "--rolls", "x").exit_code == 2
    assert run_cli("novence", "attack", "--ac", "15", "--damage", "2d8").exit_code == 2


def test_modifiers_long_example() -> None:
    # NE-50: selected ATK 50, AFF psychic 30, slashing 20, DEF 60, RES psychic 70;
    # netting psychic 70 - 30 = 40, slashing 0 - 20 = -20; mean 10; T = 60 - 50 + 10 = 20;
    # M = 4/5; 50 x 4/5 = 40.
    args = ["novence", "modifiers", "--raw", "psychic=25", "--raw", "slashing=25",
            "--mod", "ATK=20", "--mod", "ATK=50", "--mod", "AFF:psychic=30",
            "--mod", "AFF:slashing=20", "--mod", "DEF=60", "--mod", "RES:psychic=70"]
    r = _json(*args)
    normal = r["pools"]["normal"]
    assert (normal["terms"], normal["mean"], normal["t"], normal["multiplier"]) == (
        {"psychic": "40", "slashing": "-20"}, "10", "20", "4/5")
    assert (r["exact"], r["damage"], r["rolls_used"]) == ("40", 40, [])
    text = run_cli(*args).stdout
    assert "netting per type (incoming - outgoing): psychic 40, slashing -20; average 10" in text
    assert "final multiplier: 4/5" in text and "damage: floor(40) = 40" in text


def test_modifiers_halving_charge_factor_and_categories() -> None:
    # DEF 120: 120 > 50 -> 70 (k 1) -> 20 (k 2): M = 1/4 x 4/5 = 1/5; 10 x 1/5 = 2;
    # charge factor 4/5: 8/5 -> 1; final multiplier 8/5 / 10 = 4/25
    r = _json("novence", "modifiers", "--raw", "fire=10", "--mod", "DEF=120",
              "--charge-factor", "4/5")
    assert (r["pools"]["normal"]["halvings"], r["pools"]["normal"]["multiplier"]) == (2, "1/5")
    assert (r["exact"], r["damage"]) == ("8/5", 1)
    assert "final multiplier: 4/25" in run_cli("novence", "modifiers", "--raw", "fire=10",
                                               "--mod", "DEF=120", "--charge-factor",
                                               "4/5").stdout
    # NE-48: ATK 20 and PHYS AFF 10 on slashing: T = -20 + (0 - 10) = -30, x13/10; 20 -> 26
    r = _json("novence", "modifiers", "--raw", "slashing=20", "--mod", "ATK=20",
              "--mod", "AFF:PHYS=10", "--category", "PHYS=slashing,piercing")
    assert (r["pools"]["normal"]["multiplier"], r["damage"]) == ("13/10", 26)


def test_readme_novence_lines_run() -> None:
    """Every ``linguo novence`` line of the README, run as written, and each
    command's epilog example."""
    from linguo_cli.cli.app import _ruleset_group

    lines = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("linguo novence")]
    group = _ruleset_group("novence-eternal")
    assert group is not None
    names = ("attack", "modifiers", "thp", "heal", "ko-roll", "stabilize", "rest", "resurrect",
             "ultimate", "meditate", "traverse", "party-check")
    epilogs = [group.get_command(None, name).epilog or "" for name in names]
    lines += [e.split(":", 1)[1].strip() for e in epilogs]
    assert len(lines) == 22 + len(names)
    for line in lines:
        run = run_cli(*shlex.split(line, comments=True)[1:])
        assert run.exit_code == (3 if line.endswith("# exits 3") else 0), (line, run.stderr)
