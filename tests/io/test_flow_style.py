"""Write-back keeps the file's own flow/block style (issue 21): a flow
mapping that changes stays a flow mapping, also where the whole document is
rewritten, and a new mapping or list item is written in flow style where the
file writes that key's values (or that list's items) in flow style only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from linguo_cli.io import writeback
from linguo_cli.io.read import parse

from ..conftest import run_cli

BRAM = ("# a scene\n"
        "entities:\n"
        "- id: bram            # down\n"
        "  kind: player\n"
        "  hp: 0\n"
        "  max_hp: 20\n"
        "  conditions:\n"
        "  - {name: Dying, source: dying}\n"
        "  - {name: Unconscious, source: dying}\n"
        "  death_saves: {successes: 1, failures: 1}   # one each\n")


@pytest.mark.parametrize("face,changed", [
    (12, "{successes: 2, failures: 1}"),   # 10+ succeeds (H6): successes 1 + 1 = 2
    (3, "{successes: 1, failures: 2}"),    # below 10 fails (H6): failures 1 + 1 = 2
])
def test_death_save_in_place_changes_only_the_scalar(tmp_path: Path, face: int,
                                                     changed: str) -> None:
    state = tmp_path / "s.yaml"
    state.write_text(BRAM, encoding="utf-8")
    run = run_cli("death-save", str(state), "--entity", "bram", "--rolls", str(face),
                  "--in-place")
    assert run.exit_code == 0, run.stderr
    assert state.read_text(encoding="utf-8") == BRAM.replace(
        "{successes: 1, failures: 1}", changed)


def _render(text: str, change: Any) -> tuple[str, str]:
    doc = parse(text, "t.yaml")
    doc.snapshot()
    change(doc.data)
    return writeback.render(doc)


def test_a_flow_mapping_that_loses_a_key_stays_flow() -> None:
    """A removed key makes the editor give way to the whole-document rewrite;
    the mapping is changed in place there, so it stays flow (with its comment)."""
    text = "a: {x: 1, y: 2}   # c\nb: [1, 2]\n"
    out, how = _render(text, lambda d: d["a"].pop("y"))
    first, second = out.splitlines()
    assert how == "rewritten" and second == "b: [1, 2]"
    assert first.startswith("a: {x: 1}") and first.endswith(" # c")  # ruamel keeps its column


def test_an_entity_that_loses_a_key_keeps_its_flow_mappings() -> None:
    text = BRAM + "  note: gone soon\n"

    def change(d: Any) -> None:
        bram = d["entities"][0]
        del bram["note"]
        bram["death_saves"]["successes"] = 2

    out, how = _render(text, change)
    assert how == "rewritten"
    assert out == BRAM.replace("successes: 1", "successes: 2")


def test_a_replaced_flow_list_stays_flow_in_the_rewrite() -> None:
    text = "a: {x: 1, y: 2}\nb: [1, 2]   # c\n"

    def change(d: Any) -> None:
        d["a"].pop("y")
        d["b"] = [1, 2, 3]

    out, how = _render(text, change)
    assert how == "rewritten"
    assert out.splitlines() == ["a: {x: 1}", "b: [1, 2, 3] # c"]  # the comment kept, respaced


TWO = ("entities:\n"
       "- id: bram\n"
       "  hp: 0\n"
       "  conditions:\n"
       "  - {name: Dying, source: dying}\n"
       "  death: {cause: zero_hp}\n"
       "- id: ayla\n"
       "  hp: 5\n")


def test_new_values_follow_the_files_flow_style_for_their_key() -> None:
    def change(d: Any) -> None:
        d["entities"][1]["conditions"] = [{"name": "Dying", "source": "dying"},
                                          {"name": "Unconscious", "source": "dying"}]
        d["entities"][1]["death"] = {"cause": "massive_damage"}

    assert _render(TWO, change) == (TWO + "  conditions:\n"
                                    "  - {name: Dying, source: dying}\n"
                                    "  - {name: Unconscious, source: dying}\n"
                                    "  death: {cause: massive_damage}\n", "edited")


def test_new_values_stay_block_where_the_file_writes_them_in_block() -> None:
    text = TWO.replace("  - {name: Dying, source: dying}\n",
                       "  - name: Dying\n    source: dying\n").replace(
        "  death: {cause: zero_hp}\n", "  death:\n    cause: zero_hp\n")

    def change(d: Any) -> None:
        d["entities"][1]["conditions"] = [{"name": "Prone", "source": "fell"}]
        d["entities"][1]["death"] = {"cause": "massive_damage"}

    assert _render(text, change) == (text + "  conditions:\n"
                                     "  - name: Prone\n    source: fell\n"
                                     "  death:\n    cause: massive_damage\n", "edited")


def test_damage_to_dying_writes_conditions_as_the_file_does(tmp_path: Path) -> None:
    """Ayla (18 HP, 5 temporary) takes 6 + 6 + 12 = 24 damage (tick moderate,
    allowed off-range): 5 from temporary HP, 19 from 18 HP leaves 0 with 1
    left over, below max HP (24), so she is Dying and Unconscious (H4, H5);
    the file writes its condition items in flow style, so are hers."""
    state = tmp_path / "s.yaml"
    text = BRAM + ("- id: ayla\n  kind: player\n  hp: 18\n  max_hp: 24\n  temp_hp: 5\n")
    state.write_text(text, encoding="utf-8")
    run = run_cli("damage", "--tick", "moderate", "--dice", "2d6+12", "--allow-nonconforming",
                  "--rolls", "6,6", "--state", str(state), "--target", "ayla", "--in-place")
    assert run.exit_code == 0, run.stderr
    assert state.read_text(encoding="utf-8") == BRAM + (
        "- id: ayla\n  kind: player\n  hp: 0\n  max_hp: 24\n  temp_hp: 0\n"
        "  conditions:\n  - {name: Dying, source: dying}\n"
        "  - {name: Unconscious, source: dying}\n")
