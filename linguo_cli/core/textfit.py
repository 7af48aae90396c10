"""Fitting plain text to a width without breaking words (ruleset-neutral).

Pure functions over ``str`` (no Rich, no terminal): a ruleset's text views
build their lines with these and print them as they are.

- :func:`wrap`: one paragraph to lines of at most ``width`` columns, broken
  only at spaces; a token (a run of non-space characters) longer than the
  width gets a line of its own and is never split.
- :func:`fit_table`: rows of cells to table lines that fit the width, each
  cell wrapped at spaces inside its column; when the columns cannot fit
  whole words side by side, a narrower layout (the last column on lines of
  its own under each row, then one ``header: value`` block per row).
- :func:`output_width`: the width to fit for a stream: ``COLUMNS`` when
  set, else its terminal's when it is a terminal, else 80 (files, pipes).

Widths are counted in characters (``len``); text with wide or combining
characters is counted as one column per character.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

#: The width used when the output is not a terminal and COLUMNS is not set.
DEFAULT_WIDTH = 80
#: The narrowest width fitted: a smaller terminal or COLUMNS counts as this.
MIN_WIDTH = 20


def output_width(stream: Any, environ: Mapping[str, str] | None = None) -> int:
    """The width (columns) to fit text written to ``stream``: ``COLUMNS``
    from ``environ`` (default ``os.environ``) when it is a positive integer,
    else the terminal's width when ``stream`` is a terminal, else
    :data:`DEFAULT_WIDTH` (80: files, pipes, CI logs). Never below
    :data:`MIN_WIDTH`. Raises nothing."""
    env = os.environ if environ is None else environ
    text = env.get("COLUMNS", "").strip()
    if text.isdigit() and int(text) > 0:
        return max(MIN_WIDTH, int(text))
    try:
        if stream.isatty():
            return max(MIN_WIDTH, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, OSError, ValueError):
        pass
    return DEFAULT_WIDTH


def wrap(text: str, width: int, indent: str = "", hang: str | None = None) -> list[str]:
    """``text`` as lines of at most ``width`` characters, broken at spaces
    only: the first line starts with ``indent``, the others with ``hang``
    (default: ``indent``). Runs of spaces between tokens become one space;
    a token that does not fit in the width even on a line of its own is put
    on a line of its own whole (that line is longer than ``width``: the only
    case). Empty text gives ``[indent]`` stripped of trailing spaces."""
    rest = indent if hang is None else hang
    lines: list[str] = []
    line = ""
    for token in text.split():
        lead = indent if not lines else rest
        if not line:
            line = lead + token
        elif len(line) + 1 + len(token) <= width:
            line += " " + token
        else:
            lines.append(line)
            line = rest + token
    lines.append(line if line else indent.rstrip())
    return lines


def _min_width(cells: Sequence[str]) -> int:
    """The narrowest a column can be: its longest token."""
    return max((len(t) for c in cells for t in c.split()), default=0)


def _column_widths(columns: Sequence[Sequence[str]], width: int, gap: int,
                   comfort: int) -> list[int] | None:
    """Column widths that fit ``width`` with ``gap`` spaces between columns:
    each column as wide as its longest cell, the widest shrunk first, never
    below its longest token nor below ``comfort`` (or its longest cell when
    shorter); ``None`` when those minimums side by side do not fit."""
    widths = [max((len(" ".join(x.split())) for x in c), default=0) for c in columns]
    mins = [max(_min_width(c), min(w, comfort)) for c, w in zip(columns, widths, strict=True)]
    room = width - gap * (len(columns) - 1)
    if sum(mins) > room:
        return None
    while sum(widths) > room:
        i = max((k for k in range(len(widths)) if widths[k] > mins[k]),
                key=lambda k: (widths[k], k))
        widths[i] -= 1
    return widths


def _render_rows(rows: Sequence[Sequence[str]], widths: list[int], right: Sequence[bool],
                 gap: int) -> list[str]:
    """Rows as lines: each cell wrapped in its column, aligned, the row as
    tall as its tallest cell; trailing spaces stripped."""
    out: list[str] = []
    for row in rows:
        cells = [wrap(c, w) for c, w in zip(row, widths, strict=True)]
        for i in range(max(len(c) for c in cells)):
            parts = []
            for cell, w, r in zip(cells, widths, right, strict=True):
                text = cell[i] if i < len(cell) else ""
                parts.append(text.rjust(w) if r else text.ljust(w))
            out.append((" " * gap).join(parts).rstrip())
    return out


def _grid(headers: Sequence[str], rows: Sequence[Sequence[str]], width: int,
          right: Sequence[bool], below: bool, gap: int, comfort: int) -> list[str] | None:
    """The side-by-side table with ``gap`` spaces between columns (``below``:
    the last column goes on wrapped lines of its own, indented 4, under each
    row instead); ``None`` when it does not fit (``comfort``: see
    :func:`_column_widths`)."""
    table = [list(headers), *[list(r) for r in rows]]
    if below:
        table = [r[:-1] for r in table]
        right = right[:-1]
    widths = _column_widths(list(zip(*table, strict=True)), width, gap, comfort)
    if widths is None:
        return None
    if not below:
        return _render_rows(table, widths, right, gap)
    out = _render_rows(table[:1], widths, right, gap)
    for row, full in zip(table[1:], rows, strict=True):
        out.extend(_render_rows([row], widths, right, gap))
        if full[-1].strip():
            out.extend(wrap(full[-1], width, indent="    "))
    return out


def _stacked(headers: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[str]:
    """One block per row, one ``header: value`` line per non-empty cell
    (wrapped, continuation lines indented), blocks apart by a blank line."""
    out: list[str] = []
    for row in rows:
        if out:
            out.append("")
        for head, cell in zip(headers, row, strict=True):
            if cell.strip():
                out.extend(wrap(f"{head}: {cell}", width, hang="    "))
    return out


def fit_table(headers: Sequence[str], rows: Sequence[Sequence[str]], width: int,
              right: Sequence[bool] | None = None, spill_last: bool = True,
              comfort: int = 12) -> list[str]:
    """A table as lines that fit ``width``, no word broken (see
    :func:`wrap`). ``headers``: one per column; ``rows``: cells as text
    (every row as many cells as headers, else ``ValueError``); ``right``:
    per column, right-aligned (numbers) or not (default: all left). Tried in
    layouts, the one with the fewest lines is given: all columns side by
    side (each cell wrapped at spaces in its column, no column narrower than
    ``comfort`` characters or its longest cell), two spaces or one between
    columns; with ``spill_last``, also the last column on its own wrapped
    lines (indented 4) under each row. When none fits, the same without
    ``comfort`` (columns as narrow as their longest token); then one block
    of ``header: value`` lines per row (always fits, up to tokens longer
    than the width)."""
    if any(len(r) != len(headers) for r in rows):
        raise ValueError("fit_table: every row needs one cell per header")
    align = list(right) if right is not None else [False] * len(headers)
    spill = (False, True) if spill_last and len(headers) > 1 else (False,)
    for least in dict.fromkeys((comfort, 0)):
        found = [lines for below in spill for gap in (2, 1)
                 if (lines := _grid(headers, rows, width, align, below, gap, least)) is not None]
        if found:
            return min(found, key=len)
    return _stacked(headers, rows, width)
