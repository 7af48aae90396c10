"""core.textfit: wrapping and tables that fit a width without breaking words."""

from __future__ import annotations

import io
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linguo_cli.core.textfit import DEFAULT_WIDTH, fit_table, output_width, wrap

TOKENS = st.text(alphabet="abcxyz:_+->[]0123456789", min_size=1, max_size=30)


@given(st.lists(TOKENS, max_size=30), st.integers(min_value=1, max_value=60))
def test_wrap_keeps_every_token_whole_and_in_order(tokens: list[str], width: int) -> None:
    lines = wrap(" ".join(tokens), width, indent="  ", hang="    ")
    assert " ".join(lines).split() == tokens
    for line in lines:
        # Only a line holding one token longer than the width may be longer.
        assert len(line) <= width or len(line.split()) == 1


def test_a_token_longer_than_the_width_gets_a_line_of_its_own() -> None:
    assert wrap("a flux_regenerates:+1 b", 10) == ["a", "flux_regenerates:+1", "b"]
    assert wrap("one two three", 7, indent="> ", hang="  ") == ["> one", "  two", "  three"]
    assert wrap("", 10, indent="  ") == [""]


def test_fit_table_side_by_side_then_events_below_then_stacked() -> None:
    headers = ("#", "step", "events")
    rows = [["1", "cast Hurl - Fire", "ogre HP 22 -> 10, dies"]]
    wide = fit_table(headers, rows, 80, (True, False, False))
    assert wide == ["#  step              events", "1  cast Hurl - Fire  ogre HP 22 -> 10, dies"]
    narrow = fit_table(headers, rows, 24, (True, False, False))
    assert all(len(x) <= 24 for x in narrow)
    assert " ".join(narrow).split() == ["#", "step", "1", "cast", "Hurl", "-", "Fire",
                                        "ogre", "HP", "22", "->", "10,", "dies"]
    stacked = fit_table(headers, rows, 5)  # "#" and "step" side by side need 6
    assert stacked[0] == "#: 1" and "step:" in stacked[1]
    assert {t for x in stacked for t in x.split()} >= {"Hurl", "Fire", "dies"}
    with pytest.raises(ValueError):
        fit_table(headers, [["1"]], 80)


def test_fit_table_right_aligns_numbers_and_wraps_cells_at_spaces() -> None:
    lines = fit_table(("n", "what"), [["7", "a b c d e f"], ["12", "x"]], 9, (True, False),
                      spill_last=False, comfort=0)
    assert lines == [" n  what", " 7  a b c", "    d e f", "12  x"]


def test_output_width_columns_terminal_or_80(monkeypatch: pytest.MonkeyPatch) -> None:
    assert output_width(io.StringIO(), {}) == DEFAULT_WIDTH == 80
    assert output_width(io.StringIO(), {"COLUMNS": "120"}) == 120
    assert output_width(io.StringIO(), {"COLUMNS": "5"}) == 20
    assert output_width(io.StringIO(), {"COLUMNS": "wide"}) == 80

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

        def fileno(self) -> int:
            return 99

    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((133, 40)))
    assert output_width(Tty(), {}) == 133
    assert output_width(Tty(), {"COLUMNS": "70"}) == 70
