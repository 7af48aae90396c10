"""Error places for request files: every problem of a request document is
reported as ``file:line:col: field: message`` (1-based), exit 3, all at once,
never a traceback. Through ``linguo resolve FILE`` and through
:mod:`linguo_cli.io.read` directly."""

from __future__ import annotations

from pathlib import Path

import pytest

from linguo_cli.core.errors import InputError
from linguo_cli.io.read import load
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

from ..conftest import Run, run_cli


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def resolve_fails(path: Path | str) -> Run:
    run = run_cli("resolve", str(path))
    assert run.exit_code == 3, (run.stdout, run.stderr)
    assert run.stdout == ""
    assert "Traceback" not in run.stderr
    assert all(line.startswith("linguo: error: ") for line in run.stderr.splitlines())
    return run


def diagnostics(path: Path) -> list[tuple[str, str]]:
    """``(place, field)`` of every diagnostic of a request file."""
    with pytest.raises(InputError) as info:
        doc = load(str(path))
        SCHEMAS.validate(doc, "request")
    return [(d.place, d.field) for d in info.value.diagnostics]


# ---------------------------------------------------------------------------
# Schema errors: the place of the offending value (or key)


def test_dc_word_in_yaml(tmp_path: Path) -> None:
    path = write(tmp_path, "high.yaml", 'kind: check\ndc: "high"\nrolls: [12]\n')
    run = resolve_fails(path)
    assert f"{path}:2:5: dc: " in run.stderr
    assert "'high'" in run.stderr
    assert diagnostics(path) == [(f"{path}:2:5", "dc")]


def test_dc_word_in_json(tmp_path: Path) -> None:
    path = write(tmp_path, "high.json", '{"kind": "check",\n  "dc": "high",\n  "rolls": [12]}\n')
    assert diagnostics(path) == [(f"{path}:2:9", "dc")]
    assert f"{path}:2:9: dc: " in resolve_fails(path).stderr


def test_dc_word_from_stdin() -> None:
    run = run_cli("resolve", "-", input='kind: check\ndc: "high"\n')
    assert run.exit_code == 3
    assert "<stdin>:2:5: dc: " in run.stderr


def test_nested_places_and_every_error_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, "two.yaml",
                 "kind: check\n"
                 "dc: 12\n"
                 "modifiers:\n"
                 "  - {label: strength, value: 3}\n"
                 "  - {label: idiom, value: two}\n"
                 "rolls: [12, x]\n")
    assert diagnostics(path) == [(f"{path}:5:27", "modifiers[1].value"),
                                 (f"{path}:6:13", "rolls[1]")]
    run = resolve_fails(path)
    assert len(run.stderr.splitlines()) == 2


def test_errors_are_sorted_by_place(tmp_path: Path) -> None:
    path = write(tmp_path, "order.yaml",
                 "rolls: [0]\nkind: check\nadvantage: maybe\ndc: high\n")
    places = [p for p, _ in diagnostics(path)]
    lines = [int(p.rsplit(":", 2)[1]) for p in places]
    assert lines == sorted(lines) and len(lines) == 3


def test_unknown_field_points_at_the_key_with_a_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, "typo.yaml", "kind: check\ndc: 12\nmodifers: []\nrolls: [12]\n")
    assert diagnostics(path) == [(f"{path}:3:1", "modifers")]
    assert "did you mean 'modifiers'" in resolve_fails(path).stderr


def test_unknown_kind_suggests_the_closest(tmp_path: Path) -> None:
    path = write(tmp_path, "kind.yaml", "kind: chek\ndc: 12\n")
    run = resolve_fails(path)
    assert f"{path}:1:7: kind: " in run.stderr
    assert "did you mean 'check'" in run.stderr


def test_missing_required_field_points_at_the_document(tmp_path: Path) -> None:
    path = write(tmp_path, "nodc.yaml", "kind: check\nrolls: [12]\n")
    run = resolve_fails(path)
    assert f"{path}:1:1: " in run.stderr
    assert "'dc'" in run.stderr


def test_entity_ability_name_pattern(tmp_path: Path) -> None:
    path = write(tmp_path, "ent.yaml",
                 "kind: check\ndc: 12\nentity:\n  abilities: {Strength: 3}\nrolls: [12]\n")
    run = resolve_fails(path)
    assert f"{path}:4:" in run.stderr
    assert "entity.abilities" in run.stderr


def test_idiom_dc_missing_potential(tmp_path: Path) -> None:
    path = write(tmp_path, "idc.yaml", "kind: save\nidiom_dc: {flux_cost: 3}\nrolls: [3]\n")
    run = resolve_fails(path)
    assert f"{path}:2:" in run.stderr
    assert "potential" in run.stderr


def test_ac_parts_with_an_unknown_part(tmp_path: Path) -> None:
    path = write(tmp_path, "ac.yaml", "kind: attack\nac: {armour: 12, sheild: 2}\nrolls: [3]\n")
    run = resolve_fails(path)
    assert f"{path}:2:" in run.stderr
    assert " ac" in run.stderr


def test_float_modifier_in_json(tmp_path: Path) -> None:
    path = write(tmp_path, "f.json",
                 '{"kind": "check", "dc": 12,\n'
                 ' "modifiers": [{"label": "x", "value": 1}, {"label": "y", "value": 1.5}],\n'
                 ' "rolls": [12]}')
    assert diagnostics(path) == [(f"{path}:2:68", "modifiers[1].value")]


def test_not_a_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, "list.yaml", "- kind: check\n")
    run = resolve_fails(path)
    assert f"{path}:1:1" in run.stderr
    assert "object" in run.stderr


# ---------------------------------------------------------------------------
# Syntax and file errors


def test_yaml_syntax_error_place(tmp_path: Path) -> None:
    path = write(tmp_path, "syntax.yaml", "kind: check\ndc: [12\nrolls: [12]\n")
    run = resolve_fails(path)
    assert f"{path}:3:" in run.stderr
    assert "syntax" in run.stderr


def test_json_syntax_error_place(tmp_path: Path) -> None:
    path = write(tmp_path, "syntax.json", '{"kind": "check",\n "dc": 12,,\n "rolls": [12]}')
    run = resolve_fails(path)
    assert f"{path}:2:" in run.stderr


def test_duplicate_key(tmp_path: Path) -> None:
    path = write(tmp_path, "dup.yaml", "kind: check\ndc: 12\ndc: 13\nrolls: [12]\n")
    run = resolve_fails(path)
    assert f"{path}:3:" in run.stderr
    assert "duplicate" in run.stderr


def test_yaml_tag_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "tag.yaml", "kind: check\ndc: !custom 12\nrolls: [12]\n")
    run = resolve_fails(path)
    assert "tag" in run.stderr


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n"])
def test_empty_document(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "empty.yaml", text)
    assert "empty document" in resolve_fails(path).stderr


def test_not_utf8_names_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "latin.yaml", b"kind: check\ndc: 1\xff2\n")
    run = resolve_fails(path)
    assert f"{path}:2:6: " in run.stderr
    assert "UTF-8" in run.stderr


def test_binary_file(tmp_path: Path) -> None:
    path = write(tmp_path, "bin.yaml", b"kind: check\x00\n")
    assert "binary" in resolve_fails(path).stderr


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.yaml"
    run = resolve_fails(path)
    assert f"{path}: " in run.stderr
    assert "no such file" in run.stderr


def test_directory(tmp_path: Path) -> None:
    assert "directory" in resolve_fails(tmp_path).stderr


def test_bom_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, "bom.yaml", "\ufeffkind: check\ndc: 12\nrolls: [12]\n")
    run = run_cli("resolve", str(path), "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["total"] == 12


# ---------------------------------------------------------------------------
# Errors found while resolving (after the schema)


def test_face_that_does_not_fit_names_the_die(tmp_path: Path) -> None:
    path = write(tmp_path, "d21.yaml", "kind: check\ndc: 12\nrolls: [21]\n")
    run = resolve_fails(path)
    assert "21" in run.stderr and "d20" in run.stderr


def test_unused_faces_are_listed(tmp_path: Path) -> None:
    path = write(tmp_path, "extra.yaml", "kind: check\ndc: 12\nrolls: [12, 4, 5]\n")
    run = resolve_fails(path)
    assert "4, 5" in run.stderr and "unused" in run.stderr


def test_check_ability_the_entity_lacks_names_the_field(tmp_path: Path) -> None:
    path = write(tmp_path, "abil.yaml",
                 "kind: check\ndc: 12\nability: strength\nentity: {abilities: {cohesion: 1}}\n"
                 "rolls: [12]\n")
    run = resolve_fails(path)
    assert "ability" in run.stderr and "strength" in run.stderr


# ---------------------------------------------------------------------------
# One ability given twice (issue 12): a modifier and a score are refused (D6)


@pytest.mark.parametrize("kind,extra", [("check", "dc: 12\n"), ("attack", "ac: 12\n"),
                                        ("save", "dc: 12\n")])
def test_ability_given_as_modifier_and_score_is_refused(tmp_path: Path, kind: str,
                                                        extra: str) -> None:
    path = write(tmp_path, "both.yaml",
                 f"kind: {kind}\n{extra}ability: strength\nentity:\n"
                 "  abilities: {strength: 1}\n"
                 "  ability_scores:\n"
                 "    strength: 18\n"
                 "rolls: [12]\n")
    run = resolve_fails(path)
    assert f"{path}:7:15: entity.ability_scores.strength: " in run.stderr
    assert "D6" in run.stderr
    assert diagnostics(path) == [(f"{path}:7:15", "entity.ability_scores.strength")]


def test_ability_given_twice_is_refused_even_when_not_used(tmp_path: Path) -> None:
    # the test reads cohesion, but strength is given both ways: the entity is invalid
    path = write(tmp_path, "both.json",
                 '{"kind": "check", "dc": 12, "ability": "cohesion", "rolls": [12],\n'
                 ' "entity": {"abilities": {"strength": 1, "cohesion": 2},\n'
                 '            "ability_scores": {"strength": 1}}}\n')
    assert diagnostics(path) == [(f"{path}:3:44", "entity.ability_scores.strength")]


def test_different_abilities_as_modifier_and_score_are_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.yaml",
                 "kind: check\ndc: 12\nability: strength\nentity:\n"
                 "  abilities: {cohesion: 1}\n  ability_scores: {strength: 14}\nrolls: [10]\n")
    run = run_cli("resolve", str(path), "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["total"] == 12  # 10 + floor((14 - 10) / 2)


def test_state_entity_takes_no_ability_scores(tmp_path: Path) -> None:
    """A state entity gives modifiers only (``abilities``): ``ability_scores``
    there, alone or beside ``abilities``, is an unknown field, with its place."""
    state = write(tmp_path, "state.yaml",
                  "entities:\n  - id: a\n    kind: player\n    hp: 5\n    max_hp: 5\n"
                  "    abilities: {strength: 1}\n    ability_scores: {strength: 12}\n")
    run = run_cli("temp-hp", str(state), "--target", "a", "--amount", "1", "--in-place")
    assert run.exit_code == 3
    assert f"{state}:7:5: entities[0].ability_scores: unknown field" in run.stderr
