"""The ruleset's wiring on the core: discovery, its dice hook (faces ``dS:F``,
NV3), request validation with NV6 codes, and typed results."""

from __future__ import annotations

import pytest

from linguo_cli.core import requests
from linguo_cli.core import ruleset as rulesets
from linguo_cli.core.dice import ScriptedDice
from linguo_cli.core.error_object import error_object
from linguo_cli.core.errors import LinguoError
from linguo_cli.io.document import Document
from linguo_cli.rulesets.novence_eternal.documents import NamedFaces
from linguo_cli.rulesets.novence_eternal.handlers import AttackResult

MACE = {"name": "mace", "kind": "melee", "to_hit": 1, "stat": "STR", "proficient": True,
        "damage": [{"dice": "1d6", "static": 3, "type": "bludgeoning"}]}


def _attack(**more: object) -> dict[str, object]:
    return {"ruleset": "novence-eternal", "kind": "attack",
            "attacker": {"kind": "enemy", "stats": {"STR": 3}, "prof": 2, "hp": 20,
                         "max_hp": 20},
            "target": {"kind": "enemy", "stats": {"DEX": 4}, "hp": 30, "max_hp": 30},
            "weapon": MACE, **more}


def _error(request: dict[str, object]) -> dict[str, object]:
    with pytest.raises(LinguoError) as info:
        requests.validate(Document("request", request))
        requests.resolve(request)
    return error_object(info.value)


def test_dice_hook() -> None:
    assert isinstance(rulesets.default().dice_source([3], None), ScriptedDice)
    rs = rulesets.get("novence-eternal")
    assert isinstance(rs.dice_source(["d20:3"], None), NamedFaces)


def test_named_faces_through_the_core() -> None:
    # NG-82: 15 + 3 + 2 + 1 = 21 > 14; 1d6+3 = 4 + 3 = 7: HP 30 -> 23
    typed = requests.resolve_typed(_attack(rolls=["d20:15", "d6:4"]))
    assert isinstance(typed, AttackResult) and typed.rolls_used == (15, 4)
    plain = requests.resolve(_attack(rolls=[15, 4]))
    assert plain["attack"]["damage"] == 7 and plain["rolls_used"] == [15, 4]
    assert list(plain)[:2] == ["kind", "ruleset"] and list(plain)[-1] == "rolls_used"


def test_validation_codes() -> None:
    assert _error(_attack(rolls=[15, 4], reach=5))["code"] == "bad_input"  # not a request key
    err = _error({"ruleset": "novence-eternal", "kind": "modifiers"})
    assert (err["exit"], err["code"], err["rule"]) == (3, "missing_input", "NV3")
    err = _error({"ruleset": "novence-eternal", "kind": "modifiers", "raw": {"fire": 0.5}})
    assert err["code"] == "bad_input"  # exact values are integers or "p/q" strings
    err = _error({"ruleset": "novence-eternal", "kind": "nope"})
    assert err["exit"] == 3
    err = _error(_attack(rolls=[15, 4], options={"hit_rule": "equal"}))
    assert (err["exit"], err["code"], err["rule"]) == (3, "bad_option", "NH2")


def test_refusal_is_exit_4_with_code_and_rule() -> None:
    err = _error(_attack(rolls=[15, 4], map=True, distance=10,
                         weapon={**MACE, "reach": 5}))
    assert (err["exit"], err["code"], err["rule"]) == (4, "out_of_reach", "NH4")
    assert err["place"] == "request"  # NV6: a one-off request's refusal stands at request


def test_a_script_refusal_stands_at_its_step() -> None:
    """NV6 places: a refusal during play names the round, turn and step."""
    from pathlib import Path

    from linguo_cli.io.read import load

    suite = load(str(Path(__file__).parents[2] / "golden" / "novence-eternal" / "script"
                     / "actions.yaml")).data
    case = next(c for c in suite["cases"] if c["id"] == "ne20-one-helper-at-a-time")
    err = _error(case["request"])
    assert (err["exit"], err["code"], err["place"]) == (4, "already_helped",
                                                        "R1 turn 2 (b) step 1")


def test_dc_effect_text_view(tmp_path: object) -> None:
    import io
    import json
    from pathlib import Path

    from linguo_cli.rulesets.novence_eternal.render import emit

    from ..conftest import run_cli

    shown = run_cli("golden", "show", "novence-eternal/dc_effect/effects.yaml::ng13-explosion",
                    "--request")
    request = json.loads(shown.stdout)
    out = io.StringIO()
    emit(requests.resolve_typed(request), as_json=False, explain=False, out=out)
    # NG-13 by hand: shared 18; a x2/5 -> 7; b saves 13 < 15 with its Dodge charge, x4/5 -> 14
    assert out.getvalue().splitlines()[:3] == [
        "DC 15; damage rolled: fire 18",
        "a: relies on cover: x2/5; exact 36/5 -> 7; HP 30 -> 23",
        "b: save 13: failure (charge dodge), charge factor 4/5; exact 72/5 -> 14; HP 30 -> 16"]
    path = Path(str(tmp_path)) / "ng13.json"
    path.write_text(shown.stdout, encoding="utf-8")
    run = run_cli("resolve", str(path))
    assert run.exit_code == 0 and "c: relies on cover: x7/10" in run.stdout
