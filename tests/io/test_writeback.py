"""Writing a state back changes only what changed (issue 15, section 1).

Every write-back here is also read back and compared with the new state.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linguo_cli.io import writeback
from linguo_cli.io.document import to_plain
from linguo_cli.io.read import load, parse
from linguo_cli.rulesets.linguomancy.commands.state import update_round
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

from .. import fuzzing
from ..conftest import ROOT, run_cli


def _damage(path: Path, target: str, rolls: str = "3,4", *extra: str) -> Any:
    return run_cli("damage", "--tick", "low", "--dice", "2d6", "--state", str(path),
                   "--target", target, "--rolls", rolls, "--in-place", *extra)


def _write(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8"))


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def _reads_back_as_entities(path: Path) -> None:
    doc = load(str(path))
    SCHEMAS.validate(doc, "state")


def test_long_plain_description_is_kept_byte_for_byte(tmp_path: Path) -> None:
    desc = "a" * 2000 + "   three spaces " + "b" * 2084  # 4,100 characters
    text = f"description: {desc}\nentities:\n- {{id: g, kind: enemy, hp: 20, max_hp: 20}}\n"
    p = tmp_path / "s.yaml"
    _write(p, text)
    r = _damage(p, "g")
    assert r.exit_code == 0, r.stderr
    assert _read(p) == text.replace(", hp: 20,", ", hp: 13,")


@pytest.mark.parametrize("name", ["+0x1", "-0x10"])
def test_number_like_name_stays_as_written(tmp_path: Path, name: str) -> None:
    text = f"entities:\n- id: g\n  name: {name}\n  kind: enemy\n  hp: 20\n  max_hp: 20\n"
    p = tmp_path / "s.yaml"
    _write(p, text)
    for hp in (13, 6):
        r = _damage(p, "g")
        assert r.exit_code == 0, r.stderr  # the second run reads the first's output
        assert _read(p) == text.replace("  hp: 20\n", f"  hp: {hp}\n")


def test_quoted_fraction_keeps_its_quotes(tmp_path: Path) -> None:
    text = ('entities:\n- {id: g, kind: enemy, hp: 20, max_hp: 20, movement_max: "25/2", '
            "movement: '10/3'}\n")
    p = tmp_path / "s.yaml"
    _write(p, text)
    assert _damage(p, "g").exit_code == 0
    assert _read(p) == text.replace(", hp: 20,", ", hp: 13,")


def test_comments_crlf_and_bom_are_kept(tmp_path: Path) -> None:
    text = ("\ufeff# the bridge\r\nround: 3   # third round\r\nentities:\r\n"
            "  # the troll\r\n  - id: troll\r\n    kind: enemy\r\n    hp: 30    # full\r\n"
            "    max_hp: 30\r\n    vulnerabilities: [fire]  # torches\r\n")
    p = tmp_path / "s.yaml"
    _write(p, text)
    assert _damage(p, "troll").exit_code == 0
    assert _read(p) == text.replace("hp: 30    # full", "hp: 23    # full")


@pytest.mark.parametrize("directive", ["%YAML 1.1", "%YAML 1.2", "%TAG !e! tag:example.com,2026:"])
def test_a_directive_is_refused_and_nothing_written(tmp_path: Path, directive: str) -> None:
    text = f"{directive}\n---\nround: 010\nentities:\n- {{id: no, kind: enemy, hp: 7, max_hp: 7}}\n"
    p = tmp_path / "s.yaml"
    _write(p, text)
    r = _damage(p, "no")
    assert r.exit_code == 3
    assert f"{p}:1:1" in r.stderr and "directives" in r.stderr
    assert _read(p) == text


def test_o_dev_stdout_appended_to_a_log_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "s.yaml"
    _write(state, "entities:\n- {id: g, kind: enemy, hp: 20, max_hp: 20}\n")
    log = tmp_path / "log"
    _write(log, "earlier line\n")
    cmd = [sys.executable, "-m", "linguo_cli", "damage", "--tick", "low", "--dice", "2d6",
           "--rolls", "3,4", "--state", str(state), "--target", "g"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for path in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
        with open(log, "a") as out:
            proc = subprocess.run(cmd + ["-o", path], stdout=out, stderr=subprocess.PIPE,
                                  env=env, text=True, timeout=60)
        assert proc.returncode == 2, proc.stderr
        assert "use -o - to write to standard output" in proc.stderr
        assert _read(log) == "earlier line\n"
    with open(log, "a") as out:
        proc = subprocess.run(cmd + ["-o", "-"], stdout=out, stderr=subprocess.PIPE,
                              env=env, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert _read(log) == "earlier line\nentities:\n- {id: g, kind: enemy, hp: 13, max_hp: 20}\n"


def test_o_to_a_device_or_fifo_is_exit_2(tmp_path: Path) -> None:
    state = tmp_path / "s.yaml"
    _write(state, "entities:\n- {id: g, kind: enemy, hp: 20, max_hp: 20}\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/null", str(fifo)):
        r = run_cli("damage", "--tick", "low", "--dice", "2d6", "--rolls", "3,4", "--state",
                    str(state), "--target", "g", "-o", path)
        assert r.exit_code == 2 and "not a regular file" in r.stderr


STATE = {"round": 1, "entities": [
    {"id": "troll", "kind": "enemy", "hp": 30, "max_hp": 30, "movement_max": 7.5},
    {"id": "bram", "kind": "player", "hp": 0, "max_hp": 20,
     "conditions": [{"name": "Dying", "source": "dying"},
                    {"name": "Unconscious", "source": "dying"}],
     "death_saves": {"successes": 1, "failures": 1}}]}


@pytest.mark.parametrize("indent,seps", [(4, (",", ": ")), (None, (",", ":")),
                                         ("\t", (", ", ": ")), (None, (", ", ": "))])
def test_json_keeps_its_layout(tmp_path: Path, indent: Any, seps: tuple[str, str]) -> None:
    text = json.dumps(STATE, indent=indent, separators=seps)
    p = tmp_path / "s.json"
    _write(p, text)
    assert _damage(p, "troll").exit_code == 0
    colon = seps[1]
    assert _read(p) == text.replace(f'"hp"{colon}30', f'"hp"{colon}23')


@pytest.mark.parametrize("indent,seps", [(2, (",", ": ")), (None, (",", ":"))])
def test_json_structure_change_is_local(tmp_path: Path, indent: Any,
                                        seps: tuple[str, str]) -> None:
    text = json.dumps(STATE, indent=indent, separators=seps)
    p = tmp_path / "s.json"
    _write(p, text)
    r = run_cli("heal", "--tick", "low", "--dice", "2d6", "--rolls", "3,4", "--state", str(p),
                "--target", "bram", "--in-place")
    assert r.exit_code == 0, r.stderr
    out = _read(p)
    troll_part = json.dumps(STATE["entities"][0], indent=indent, separators=seps)
    assert out.startswith(text[:text.index("bram")])  # everything before bram kept
    assert troll_part.replace("\n", "\n" + " " * (2 * indent if indent else 0)) in out
    got = json.loads(out)["entities"][1]
    assert got["hp"] == 7 and got["conditions"] == []
    assert ("\n" in out) == (indent is not None)
    _reads_back_as_entities(p)


def test_block_entity_gains_keys_as_lines_after_its_last_entry(tmp_path: Path) -> None:
    text = ("entities:\n  - id: gob   # a goblin\n    kind: enemy\n    hp: 5\n"
            "    max_hp: 7    # small\n  # next one\n"
            "  - {id: orc, kind: enemy, hp: 9, max_hp: 9}\n")
    p = tmp_path / "s.yaml"
    _write(p, text)
    assert _damage(p, "gob").exit_code == 0
    assert _read(p) == text.replace(
        "    hp: 5\n    max_hp: 7    # small\n",
        "    hp: 0\n    max_hp: 7    # small\n    dead: true\n    death:\n      cause: zero_hp\n")
    assert _damage(p, "orc").exit_code == 0
    assert _read(p).endswith(
        "  - {id: orc, kind: enemy, hp: 2, max_hp: 9}\n")
    _reads_back_as_entities(p)


def test_list_that_shrinks_is_replaced_in_place(tmp_path: Path) -> None:
    text = ("entities:\n- id: bram\n  kind: player   # down\n  hp: 0\n  max_hp: 20\n"
            "  conditions:\n  - name: Dying\n    source: dying\n"
            "  - {name: Unconscious, source: dying}\n"
            "  death_saves: {successes: 1, failures: 1}  # one each\n")
    p = tmp_path / "s.yaml"
    _write(p, text)
    r = run_cli("heal", "--tick", "low", "--dice", "2d6", "--rolls", "3,4", "--state", str(p),
                "--target", "bram", "--in-place")
    assert r.exit_code == 0, r.stderr
    assert _read(p) == (
        "entities:\n- id: bram\n  kind: player   # down\n  hp: 7\n  max_hp: 20\n"
        "  conditions: []\n"
        "  death_saves: {successes: 0, failures: 0}  # one each\n")


BRAM = ("entities:\n- id: bram   # x\n  kind: player\n  hp: 0\n  max_hp: 9\n  conditions:\n"
        "    - {name: Dying, source: dying}   # d\n    # between\n"
        "    - name: Unconscious\n      source: dying\n    - {name: Prone, source: fell}\n")


@pytest.mark.parametrize("change,expected", [
    (lambda c: c.pop(0), BRAM.replace("    - {name: Dying, source: dying}   # d\n"
                                      "    # between\n", "")),
    (lambda c: c.pop(2), BRAM.replace("    - {name: Prone, source: fell}\n", "")),
    (lambda c: c.append({"name": "Grappled"}), BRAM + "    - {name: Grappled}\n"),
    (lambda c: c.insert(1, {"name": "Hidden", "source": "x"}),
     BRAM.replace("    - name: Unconscious\n", "    - {name: Hidden, source: x}\n"
                                                "    - name: Unconscious\n")),
    (lambda c: c.insert(2, {"name": "Hidden", "source": "x"}),
     BRAM.replace("    - {name: Prone", "    - name: Hidden\n      source: x\n"
                                        "    - {name: Prone")),
])
def test_block_list_grows_and_shrinks_item_by_item(change: Any, expected: str) -> None:
    doc = parse(BRAM, "t")
    doc.snapshot()
    change(doc.data["entities"][0]["conditions"])
    assert writeback.render(doc) == (expected, "edited")


def _edited(text: str, change: Any) -> tuple[str, str]:
    doc = parse(text, "t")
    doc.snapshot()
    change(doc.data)
    return writeback.render(doc)


@pytest.mark.parametrize("before,after", [
    ("name: 'Ayla'", "name: 'Bram''s'"),        # single quotes kept
    ('name: "Ayla"', 'name: "Bram"'),            # double quotes kept
    ("name: Ayla", "name: Bram"),                # plain kept
    ("name: Ayla", 'name: "010"'),              # would read as a number: quoted
    ("name: Ayla", 'name: "yes"'),              # a YAML 1.1 boolean: quoted
    ("name: Ayla", 'name: "a: b"'),             # would read as a mapping: quoted
    ("name: |\n  Ayla", 'name: "Bram"'),         # block scalar: double-quoted
])
def test_changed_string_keeps_a_style_that_reads_back(before: str, after: str) -> None:
    new_value = after.split(": ", 1)[1].strip().strip("'\"").replace("''", "'")
    text, how = _edited(f"{before}\nn: 1\n", lambda d: d.__setitem__("name", new_value))
    assert how == "edited"
    assert text == f"{after}\nn: 1\n"
    assert parse(text, "t").data["name"] == new_value


@pytest.mark.parametrize("before,value,after", [
    ("n: 010  # c", 9, "n: 9  # c"),
    ("n: True", False, "n: False"),
    ("n: ~", 3, "n: 3"),
    ("n:\nm: 1", 3, "n: 3\nm: 1"),
    ("n: 1", 2.5, "n: 2.5"),
    ("n: 0x0A", 8, "n: 0x8"),
    ("n: 0o17", 9, "n: 0o11"),
])
def test_changed_scalar_is_plain_and_reads_back(before: str, value: Any, after: str) -> None:
    text, how = _edited(before + "\n", lambda d: d.__setitem__("n", value))
    assert (text, how) == (after + "\n", "edited")


def test_new_round_keys_go_before_entities() -> None:
    original = "# scene\nentities:   # all\n- {id: a, kind: enemy, hp: 1, max_hp: 1}\n"
    doc = parse(original, "t")
    update_round(doc, {"round": 2, "acted_this_round": ["a"]})
    text, how = writeback.render(doc)
    assert how == "edited"
    assert text == "# scene\nround: 2\nacted_this_round: [a]\n" + original[len("# scene\n"):]


def test_unchanged_document_is_written_as_read() -> None:
    original = "\ufeff# c\r\nentities: [{id: a, kind: enemy, hp: 1, max_hp: 1}]\r\n"
    doc = parse(original, "t")
    assert writeback.render(doc) == (original, "unchanged")


def test_a_tree_changed_without_snapshot_is_still_written() -> None:
    doc = parse("round: 1  # r\nentities: []\n", "t")
    doc.data["round"] = 2
    assert writeback.render(doc) == ("round: 2  # r\nentities: []\n", "edited")


def test_removed_key_falls_back_to_the_round_trip_writer() -> None:
    original = ("# kept\ndescription: 'quoted'  # also kept\nround: 3\n"
                "entities: [{id: a, kind: enemy, hp: 1, max_hp: 1}]\n")
    doc = parse(original, "t")
    doc.snapshot()
    del doc.data["round"]
    text, how = writeback.render(doc)
    assert how == "rewritten"
    assert text.startswith("# kept\ndescription: 'quoted'  # also kept\n")
    assert to_plain(parse(text, "t").data) == to_plain(doc.data)


def test_value_under_an_alias_replaces_only_the_alias() -> None:
    original = ("base: &b {kind: enemy, hp: 3, max_hp: 3}\n"
                "entities:\n- id: a\n  stats: *b\n")
    doc = parse(original, "t")
    doc.snapshot()
    doc.data["entities"][0]["stats"] = dict(doc.data["entities"][0]["stats"], hp=1)
    text, how = writeback.render(doc)
    assert how == "edited"
    assert to_plain(parse(text, "t").data) == to_plain(doc.data)
    assert text == original.replace(" *b", "\n    kind: enemy\n    hp: 1\n    max_hp: 3")


def test_text_that_would_not_read_back_is_an_internal_error_and_nothing_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "entities:\n- {id: g, kind: enemy, hp: 20, max_hp: 20}\n"
    p = tmp_path / "s.yaml"
    _write(p, text)
    monkeypatch.setattr(writeback, "reads_back", lambda *a: False)
    r = _damage(p, "g")
    assert r.exit_code == 5
    assert "would not read back" in r.stderr and "nothing was written" in r.stderr
    assert _read(p) == text


def test_bytes_outside_sees_a_change_outside_the_regions() -> None:
    assert fuzzing.bytes_outside("hp: 3 # c\nx:  y\n", "hp: 12 # c\nx:  y\n", [(4, 5)]) == 0
    assert fuzzing.bytes_outside("hp: 3 # c\nx:  y\n", "hp: 12 # c\nx: y\n", [(4, 5)]) > 0
    assert fuzzing.bytes_outside("a: 1\n", "b: 1\n", [(3, 4)]) > 0


@given(fuzzing.writeback_texts(), st.integers(0, 7), st.integers(1, 6), st.integers(1, 6))
def test_random_states_written_back_change_only_the_changed_values(
        text: tuple[str, str], pick: int, a: int, b: int) -> None:
    stats: Counter[str] = Counter()
    fuzzing.check_writeback((text, pick, a, b), stats)
    assert stats["bytes outside changed values"] == 0


def test_when_the_round_trip_writer_fails_the_plain_tree_is_written(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The last fallback (found by the long fuzz campaign, 1 in ~25,000
    states with reused anchors): when neither the edit nor ruamel's
    round-trip text reads back as the new state, the plain tree is written
    (comments and anchors lost) rather than failing with exit 5."""
    from linguo_cli.io import writeback
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import parse

    text = "# top\nentities:\n- {id: e0, kind: enemy, hp: &a0 10, max_hp: 20}\n"
    doc = parse(text, "s.yaml")
    doc.snapshot()
    doc.data["entities"][0]["hp"] = 7
    monkeypatch.setattr(writeback._Editor, "run", lambda self, before, new: None)
    monkeypatch.setattr(writeback, "_rewrite", lambda doc, before, new: "not: [a, state")
    out, how = writeback.render(doc)
    assert how == "rewritten"
    again = parse(out, "s.yaml")
    assert to_plain(again.data) == {
        "entities": [{"id": "e0", "kind": "enemy", "hp": 7, "max_hp": 20}]}
