"""`linguo turn`'s text views (issue 21): the narrative log (default) and
`--table`, on the README's example encounter, at several widths.

Expected numbers come from the `--json` result of the same run, never from
copies of the text output. A word is broken when a token of the output is
not a token of the same view rendered unwrapped (a very wide width).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT, run_cli

EXAMPLE = ROOT / "examples" / "encounter"
README_ARGS = ("turn", str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml"))
UNWRAPPED = 100_000
RULE_TAG = re.compile(r"\[[A-Z]\d+(, [A-Z]\d+)*\]")


@pytest.fixture(scope="module")
def result() -> Any:
    """The JSON result of the README's run."""
    r = run_cli(*README_ARGS, "--json")
    assert r.exit_code == 0, r.stderr
    return r.json()


def view(monkeypatch: pytest.MonkeyPatch, width: int | None, *extra: str) -> str:
    """The text view as the README runs it (state on stdout, text on stderr)."""
    if width is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", str(width))
    r = run_cli(*README_ARGS, *extra)
    assert r.exit_code == 0, r.stderr
    assert "entities:" in r.stdout  # the state still goes to stdout
    return r.stderr


def broken_words(text: str, unwrapped: str, same_order: bool) -> list[str]:
    """Tokens of ``text`` that are not tokens of ``unwrapped`` (a word split
    over two lines gives two such tokens: its pieces); with ``same_order``
    the token sequences must be equal (the log: wrapping changes only white
    space), else the first difference is given."""
    got, want = text.split(), unwrapped.split()
    if same_order and got != want:
        return [a for a, b in zip(got, want, strict=False) if a != b][:1] or ["<length>"]
    return sorted((Counter(got) - Counter(want)).elements())


def test_the_broken_word_check_can_fail() -> None:
    text = "Turn 1: ayla\nflux_regenerat\nes:+1 and more"
    unwrapped = "Turn 1: ayla flux_regenerates:+1 and more"
    assert broken_words(text, unwrapped, same_order=False) == ["es:+1", "flux_regenerat"]
    assert broken_words(text, unwrapped, same_order=True)
    assert not broken_words("Turn 1:\nayla", "Turn 1: ayla", same_order=True)


@pytest.mark.parametrize("table", [False, True], ids=["log", "table"])
@pytest.mark.parametrize("width", [60, 80, 120])
def test_views_fit_the_width_without_breaking_words(monkeypatch: pytest.MonkeyPatch,
                                                    width: int, table: bool) -> None:
    extra = ("--table",) if table else ()
    text = view(monkeypatch, width, *extra)
    unwrapped = view(monkeypatch, UNWRAPPED, *extra)
    assert max(len(t) for t in text.split()) <= width  # so every line can fit
    too_long = [line for line in text.splitlines() if len(line) > width]
    assert not too_long, too_long
    assert not broken_words(text, unwrapped, same_order=not table)
    # Nothing left out (a narrow table puts its events under each row, without header).
    assert set(Counter(unwrapped.split()) - Counter(text.split())) <= {"events"}
    # Unwrapped, some line is wider: the checks above had work to do.
    assert max(len(line) for line in unwrapped.splitlines()) > width
    if not table:
        assert text.count("\n") > unwrapped.count("\n")


@pytest.mark.parametrize("table", [False, True], ids=["log", "table"])
def test_not_a_terminal_is_80_columns(monkeypatch: pytest.MonkeyPatch, table: bool) -> None:
    extra = ("--table",) if table else ()
    text = view(monkeypatch, None, *extra)
    assert text == view(monkeypatch, 80, *extra)
    assert 70 < max(len(line) for line in text.splitlines()) <= 80


def unwrapped_log(monkeypatch: pytest.MonkeyPatch, *extra: str) -> list[str]:
    return view(monkeypatch, UNWRAPPED, *extra).splitlines()


def round_lines(lines: list[str], number: int) -> list[str]:
    start = lines.index(f"Round {number}")
    end = next((i for i, line in enumerate(lines) if line.startswith(f"  End of round {number}:")))
    return lines[start:end + 1]


def in_order(line: str, parts: list[Any]) -> None:
    """Each of ``parts`` is in ``line`` after the one before it."""
    at = 0
    for part in parts:
        found = line.find(str(part), at)
        assert found >= 0, (part, line[at:])
        at = found + len(str(part))


def step_line(lines: list[str], turn: dict[str, Any], step: int) -> str:
    head = lines.index(next(x for x in lines if x.startswith(f"  Turn {turn['turn']}, ")))
    return next(x for x in lines[head:] if x.startswith(f"    {step}. "))


def test_first_round_reads_as_sentences_with_the_numbers(
        monkeypatch: pytest.MonkeyPatch, result: Any) -> None:
    lines = round_lines(unwrapped_log(monkeypatch), 1)
    for line in lines[1:]:
        assert line.endswith("."), line
        assert "_" not in line and not RULE_TAG.search(line), line  # words, no IDs
        assert re.match(r" {2}(Turn \d+, \w+|End of round 1:)| {4}(\d+\. \w+ |End of turn:)",
                        line), line
    turns = [t for t in result["turns"] if t["round"] == 1]
    assert [t["entity"] for t in turns] == ["ayla", "ogre", "cole", "bram"]
    ayla, ogre, cole, bram = turns

    # Ayla: Flux regained, a move, Hurl - Fire at the ogre.
    flux = ayla["start"]["remaining"]["flux"]
    in_order(lines[1], ["Turn 1, ayla", f"Flux {flux - 1} -> {flux}"])
    move = ayla["steps"][0]
    in_order(step_line(lines, ayla, 1), ["ayla moves", f"{move['cost']} m",
                                         f"{move['remaining']['movement']} m left"])
    cast = ayla["steps"][1]["cast"]
    test, amount, hit = cast["tests"][0], cast["amount"], cast["entities"]["ogre"]
    in_order(step_line(lines, ayla, 2), [
        "ayla casts Hurl - Fire at ogre", f"{cast['flux_before']} -> {cast['flux_after']}",
        f"d20 {test['natural']} + {test['modifiers'][0]['value']}", f"= {test['total']}",
        f"vs AC {test['target']}", test["degree"], "hit", amount["dice"],
        ", ".join(str(f["face"]) for f in amount["faces"]), f"= {amount['amount']} damage",
        f"ogre {hit['before']['hp']} -> {hit['after']['hp']} HP"])

    # The ogre: its weapon attack names its target, with the numbers.
    attack = ogre["steps"][2]
    roll, rep = attack["attack"], attack["target_report"]
    in_order(step_line(lines, ogre, 3), [
        f"ogre attacks {attack['target']}", f"d20 {roll['natural']}",
        f"+ {roll['modifiers'][0]['value']} strength", f"= {roll['total']}",
        f"vs AC {roll['target']}", roll["degree"], "hit",
        f"= {attack['damage']['amount']} damage",
        f"{attack['target']} {rep['before']['hp']} -> {rep['after']['hp']} HP"])

    # Cole: the death save at the start of the turn.
    save = cole["start"]["death_save"]
    in_order(next(x for x in lines if x.startswith("  Turn 3, cole")), [
        f"death save d20 {save['natural']}", save["outcome"],
        f"successes {save['before']['death_saves']['successes']} -> "
        f"{save['after']['death_saves']['successes']}"])

    # Bram heals Cole.
    heal = bram["steps"][1]["cast"]
    healed = heal["entities"]["cole"]
    in_order(step_line(lines, bram, 2), [
        "bram casts Mend - Flesh at cole", f"= {heal['amount']['amount']} healing",
        f"cole {healed['before']['hp']} -> {healed['after']['hp']} HP",
        "cole regains consciousness"])

    # The end of the round: every entity's HP.
    hp = {"ayla": rep["after"]["hp"], "bram": result["entities"]["bram"]["before"]["hp"],
          "cole": healed["after"]["hp"], "ogre": hit["after"]["hp"]}
    maxima = {e["id"]: e["max_hp"] for e in result["state"]["entities"]}
    in_order(lines[-1], ["End of round 1:"] + [f"{e} {hp[e]}/{maxima[e]} HP" for e in hp])


def test_log_ends_with_the_state_after(monkeypatch: pytest.MonkeyPatch, result: Any) -> None:
    lines = unwrapped_log(monkeypatch)
    last = next(x for x in lines if x.startswith("  After turn 10 (round 3):"))
    for e in result["state"]["entities"]:
        assert f"{e['id']} {e['hp']}/{e['max_hp']} HP" + (" (dead)" if e["dead"] else "") in last


def test_flux_at_its_maximum_is_not_bad_arithmetic(monkeypatch: pytest.MonkeyPatch,
                                                   result: Any) -> None:
    # The ogre starts its turn with Flux at its maximum: no "10 +1 = 10".
    lines = unwrapped_log(monkeypatch, "--explain")
    ogre = next(x for x in lines if x.startswith("  Turn 2, ogre"))
    flux = result["turns"][1]["start"]["remaining"]["flux"]
    assert f"Flux stays {flux}, already at its maximum" in ogre
    assert not re.search(r"Flux (\d+) \+1 = \1", "\n".join(
        x for x in lines if not x.startswith("  [")))  # the derivation is the JSON's


def test_rule_ids_only_with_explain(monkeypatch: pytest.MonkeyPatch, result: Any) -> None:
    plain = unwrapped_log(monkeypatch)
    assert not any(RULE_TAG.search(x) for x in plain)
    explained = unwrapped_log(monkeypatch, "--explain")
    cast_line = step_line(explained, result["turns"][0], 2)
    assert cast_line.endswith(f". [{', '.join(result['turns'][0]['steps'][1]['rules'])}]")
    assert "Derivation:" in explained
    assert f"  [{result['explanation'][0]['rule']}] {result['explanation'][0]['text']}" \
        in explained


def table_of_turn(lines: list[str], turn: dict[str, Any]) -> Iterator[list[str]]:
    """The rows (as token lists) of one turn's table."""
    start = lines.index(f"Turn {turn['turn']}: {turn['entity']} (round {turn['round']})")
    for line in lines[start + 2:]:
        if not line.strip() or line.startswith(("Turn ", "Round ", "End of round")):
            return
        yield line.split()


def test_table_shows_hp_targets_rounds_and_the_dead(monkeypatch: pytest.MonkeyPatch,
                                                    result: Any) -> None:
    lines = view(monkeypatch, UNWRAPPED, "--table").splitlines()
    assert [x for x in lines if x.startswith("Round ")] == ["Round 1", "Round 2", "Round 3"]
    assert sum(x.startswith("End of round ") for x in lines) == 2
    # The ogre's weapon attack: its target with HP before -> after, the ogre's HP.
    ogre = result["turns"][1]
    attack = ogre["steps"][2]
    row = next(r for r in table_of_turn(lines, ogre) if r[0] == "3")
    rep = attack["target_report"]
    tail = " ".join(row)
    assert f"attack {attack['target']}" in tail
    assert f"{attack['target']} HP {rep['before']['hp']} -> {rep['after']['hp']}" in tail
    ogre_hp = result["turns"][0]["steps"][1]["cast"]["entities"]["ogre"]["after"]["hp"]
    assert row[3:10] == [str(attack["action_points"]), str(attack["movement"]),
                        str(attack["remaining"]["action_points"]),
                        str(attack["remaining"]["movement"]),
                        str(attack["remaining"]["hands_free"]),
                        str(attack["remaining"]["flux"]), str(ogre_hp)]
    # The dead ogre's turn: HP "dead", no metres (nor Hand points, Flux, reaction) left.
    dead_turn = result["turns"][6]
    assert dead_turn["entity"] == "ogre" and dead_turn["start"]["events"] == ["dead"]
    start_row = next(table_of_turn(lines, dead_turn))
    assert start_row[:3] == ["start", "of", "turn"]
    assert start_row[3:] == [str(dead_turn["start"]["remaining"]["action_points"]),
                             "-", "-", "-", "dead", "-", "dead"]


def test_table_and_json_unchanged_by_the_view(result: Any) -> None:
    r = run_cli(*README_ARGS, "--json", "--table")
    assert r.exit_code == 0 and r.json() == result
    r = run_cli(*README_ARGS, "--json", "--explain")
    assert r.json() == result


def test_check_only_log(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    turns = tmp_path / "round1.yaml"
    text = (EXAMPLE / "turns.yaml").read_text(encoding="utf-8")
    turns.write_text(text.split("  # ---- round 2")[0], encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "60")
    r = run_cli("turn", str(EXAMPLE / "state.yaml"), str(turns), "--check")
    assert r.exit_code == 0, r.stderr
    joined = " ".join(r.stdout.split())
    assert "Checked only" in joined and "attacks ayla (not rolled: check only)" in joined
    assert "casts Hurl - Fire (final cost 3 Flux; effect not resolved: check only)" in joined
    assert "death save not rolled (check only)" in joined
    assert max(len(x) for x in r.stdout.splitlines()) <= 60


def test_readme_shows_the_log_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    shown = quick.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    text = view(monkeypatch, 80).splitlines()
    assert len(shown) >= 10 and text[:len(shown)] == shown
