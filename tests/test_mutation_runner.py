"""The mutation runner (tests/mutation/, issue 13): mutants, ids, the
equivalent list, the in-process swap, and both run paths on a tiny module."""

from __future__ import annotations

import ast
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from tests.mutation.equivalent import parse_equivalent
from tests.mutation.mutants import Mutant, mutants_of, mutated_source
from tests.mutation.swap import Unsound, swap_in
from tests.mutation.workers import Job, Pool, Result, Step

RULES = textwrap.dedent('''\
    """A tiny rules module."""
    from dataclasses import dataclass
    from enum import IntEnum

    LIMIT = 10


    class Colour(IntEnum):
        RED = 1


    @dataclass(frozen=True)
    class Box:
        size: int = 0

        def bigger(self, other: "Box") -> bool:
            return self.size > other.size


    EMPTY = Box()


    def clamp(x: int) -> int:
        """At most LIMIT."""
        if x > LIMIT:
            return LIMIT
        return x


    def is_empty(box: Box) -> bool:
        return box == EMPTY and not box.bigger(EMPTY)
    ''')

TESTS = textwrap.dedent('''\
    from tinymut.rules import Box, clamp, is_empty


    def test_clamp():
        assert clamp(11) == 10
        assert clamp(3) == 3


    def test_empty():
        assert is_empty(Box(0))
        assert not is_empty(Box(2))
    ''')


def _ids(source: str) -> list[str]:
    return [m.id for m in mutants_of("rules", source)]


def _find(source: str, line_text: str, op: str) -> Mutant:
    lines = source.splitlines()
    return next(m for m in mutants_of("rules", source)
                if lines[m.line - 1].strip() == line_text and m.op == op)


def test_mutant_generation_covers_each_operator_and_skips_docs_and_annotations() -> None:
    source = 'def f(a: int = 3) -> bool:\n    """1 < 2"""\n    return not a + 1 < 2 and True\n'
    assert _ids(source) == [
        "rules:1:15:3->4", "rules:3:11:And->Or", "rules:3:11:NotRemoved", "rules:3:15:Add->Sub",
        "rules:3:15:Lt->LtE", "rules:3:19:1->2", "rules:3:23:2->3", "rules:3:29:True->False",
    ]
    assert "a + 1 <= 2" in mutated_source(source, Mutant("rules", 3, 15, "Lt->LtE"))
    assert "not" not in mutated_source(source, Mutant("rules", 3, 11, "NotRemoved"))
    marked = source.replace("and True\n", "and True  # pragma: no mutate\n")
    assert _ids(marked) == ["rules:1:15:3->4"]


def test_ids_move_with_lines_but_text_ids_do_not() -> None:
    moved = "\n\n" + RULES
    before, after = mutants_of("rules", RULES), mutants_of("rules", moved)
    assert [m.id for m in before] != [m.id for m in after]
    lines_b, lines_a = RULES.splitlines(), moved.splitlines()
    assert [m.text_id(lines_b) for m in before] == [m.text_id(lines_a) for m in after]
    assert "rules:@if x > LIMIT:" in _find(RULES, "if x > LIMIT:", "Gt->GtE").text_id(lines_b)


def test_equivalent_accepts_both_id_forms_and_reports_bad_and_stale_lines() -> None:
    lines = RULES.splitlines()
    m = _find(RULES, "if x > LIMIT:", "Gt->GtE")
    text = (f"# a comment\n{m.id} equal at the limit: LIMIT either way\n"
            "rules:@return self.size > other.size:15:Gt->GtE sizes: a reason: with colons\n"
            "rules:@no such line:3:Lt->LtE stale\nnot an id\n")
    eq = parse_equivalent(text)
    assert eq.reason(m, lines) == "equal at the limit: LIMIT either way"
    moved = "\n" + RULES
    m2 = _find(moved, "return self.size > other.size", "Gt->GtE")
    assert eq.reason(m2, moved.splitlines()) == "sizes: a reason: with colons"
    assert eq.reason(_find(moved, "if x > LIMIT:", "Gt->GtE"), moved.splitlines()) is None
    assert eq.bad == ["not an id"]
    assert eq.unmatched("rules", mutants_of("rules", RULES), lines) == [
        "rules:@no such line:3:Lt->LtE"]


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny repository: package ``tinymut`` and its test, imported here."""
    repo = tmp_path / "repo"
    (repo / "tinymut").mkdir(parents=True)
    (repo / "tinymut" / "__init__.py").write_text("", encoding="utf-8")
    (repo / "tinymut" / "rules.py").write_text(RULES, encoding="utf-8")
    (repo / "test_tinymut_rules.py").write_text(TESTS, encoding="utf-8")
    (repo / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(repo))
    monkeypatch.chdir(repo)
    for name in ("tinymut", "tinymut.rules", "test_tinymut_rules"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import tinymut.rules  # noqa: F401

    return repo


def _swap(mutant: Mutant) -> None:
    swap_in("tinymut.rules", ast.parse(RULES), ast.parse(mutated_source(RULES, mutant)),
            "tinymut/rules.py")


def test_swap_changes_behaviour_through_imported_names_and_keeps_identity(tiny: Path) -> None:
    import tinymut.rules as rules

    clamp, box_cls, empty = rules.clamp, rules.Box, rules.EMPTY
    _swap(_find(RULES, "if x > LIMIT:", "CondNegated"))
    assert clamp(3) == 10  # the function other modules imported runs the mutant
    _swap(_find(RULES, "LIMIT = 10", "10->11"))
    assert clamp(11) == 11 and rules.LIMIT == 11  # the kept function sees the new constant
    assert rules.Box is box_cls and rules.clamp is clamp
    assert isinstance(rules.EMPTY, box_cls) and rules.EMPTY == empty
    _swap(_find(RULES, "return self.size > other.size", "Gt->GtE"))
    assert box_cls(1).bigger(box_cls(1))  # a method of the kept class


def test_swap_refuses_changed_enum_members(tiny: Path) -> None:
    with pytest.raises(Unsound):
        _swap(_find(RULES, "RED = 1", "1->2"))


SLOTS = textwrap.dedent('''\
    from dataclasses import dataclass, field


    @dataclass(frozen=True, slots=True)
    class Shelf:
        name: str
        memo: dict = field(default_factory=dict, repr=False, compare=False)

        def label(self) -> str:
            return super().__repr__()
    ''')


def test_swap_reaches_generated_methods_a_wrapper_closes_over(tiny: Path) -> None:
    # A slots dataclass's __repr__ is reprlib's wrapper around the generated
    # function: the swap must reach the function the wrapper closes over
    # (a forked run once let a field's repr=False->True survive unnoticed),
    # and leave the class cells of the generated methods (super()) alone.
    (tiny / "tinymut" / "shelf.py").write_text(SLOTS, encoding="utf-8")
    import tinymut.shelf as shelf

    kept = shelf.Shelf
    item = kept("a")
    assert repr(item) == "Shelf(name='a')"
    mutant = next(m for m in mutants_of("shelf", SLOTS) if m.op == "False->True"
                  and SLOTS.splitlines()[m.line - 1][m.col:].startswith("False, compare"))
    swap_in("tinymut.shelf", ast.parse(SLOTS), ast.parse(mutated_source(SLOTS, mutant)),
            "tinymut/shelf.py")
    assert shelf.Shelf is kept
    assert repr(item) == "Shelf(name='a', memo={})"
    with pytest.raises(AttributeError):
        item.name = "b"  # still frozen


def _run(repo: Path, tmp: Path, mutant: Mutant, isolated: bool) -> Result:
    scratch = tmp / ("iso" if isolated else "fork")
    shutil.copytree(repo, scratch)
    results: list[Result] = []

    def done(job: Job, result: Result) -> list[Job]:
        results.append(result)
        return []

    job = Job("rules", "tinymut/rules.py", RULES, mutant,
              [Step(["test_tinymut_rules.py"], 120.0)], isolated=isolated)
    Pool([scratch], tmp).run([job], done)
    assert (scratch / "tinymut/rules.py").read_text(encoding="utf-8") == RULES  # restored
    return results[0]


@pytest.mark.parametrize("isolated", [False, True], ids=["forked", "isolated"])
def test_a_known_mutant_is_killed_and_a_known_one_survives(
        tiny: Path, tmp_path: Path, isolated: bool) -> None:
    killed = _find(RULES, "if x > LIMIT:", "CondNegated")
    survivor = _find(RULES, "if x > LIMIT:", "Gt->GtE")  # clamp(10) is 10 either way
    assert not _run(tiny, tmp_path / "k", killed, isolated).passed
    assert _run(tiny, tmp_path / "s", survivor, isolated).passed


def test_the_default_timeout_is_twice_the_baseline_and_half_a_minute() -> None:
    # A mutant runs a subset of its module's baseline tests: twice the
    # baseline plus 30 s, never the 10 x that let a looping mutant run 11 min.
    from tests.mutation.plan import default_timeout

    assert default_timeout(0.0) == 30
    assert default_timeout(63.0) == 156
