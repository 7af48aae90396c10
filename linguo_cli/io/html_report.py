"""Self-contained HTML pages for reports: the page shell (:func:`page`),
escaping (:func:`esc`), an inline SVG line plot (:func:`line_plot`) and the
checks on a report path (:func:`check_report_path`).

A page holds everything it shows: inline CSS, inline SVG and a little inline
script, no external file and no network address; its Content-Security-Policy
(``default-src 'none'``) makes the browser refuse any load the page would
attempt. Every text that reaches the page goes through :func:`esc` (entity
names and ids are user input). Nothing here applies a rule.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from dataclasses import dataclass

from linguo_cli.core.errors import UsageError, one_line

#: The page's Content-Security-Policy: nothing loads from outside the page.
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:; base-uri 'none'; form-action 'none'")

#: Line colours of the plot series, in series order (repeated past the end).
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
           "#e377c2", "#17becf", "#7f7f7f", "#bcbd22")

BASE_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5rem auto;
max-width:72rem;padding:0 1rem;color:#222;background:#fff;line-height:1.4}
h1{font-size:1.5rem}h2{font-size:1.2rem;border-bottom:1px solid #ccc;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;
text-align:left}th{background:#f3f3f3}
svg.plot{max-width:100%;height:auto;border:1px solid #ddd;background:#fcfcfc}
svg.plot text{font-size:12px;fill:#333}svg.plot .grid{stroke:#e5e5e5}
svg.plot .axis{stroke:#888}svg.plot circle.point{stroke:#fff;stroke-width:1}
svg.plot circle.point:hover{stroke:#000;stroke-width:2}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;margin:.3rem 0 1rem;padding:0;
list-style:none}.legend .swatch{display:inline-block;width:1.6rem;height:0;
border-top:3px solid;vertical-align:middle;margin-right:.3rem}
"""


def esc(text: object) -> str:
    """``text`` (any value, through ``str``) escaped for HTML text and quoted
    attribute values: ``& < > " '`` become character references."""
    return html.escape(str(text), quote=True)


@dataclass(frozen=True, slots=True)
class Series:
    """One line of a :func:`line_plot`: its ``key`` (written as
    ``data-series``), ``label`` (legend and tooltips), ``kind`` (written as
    ``data-kind``, e.g. ``hp``), ``values`` (one per x position; ``None``
    leaves a gap) and ``dash`` (an SVG ``stroke-dasharray``, ``""`` solid).
    ``notes`` (one per x position, may be empty) are added to the tooltips."""

    key: str
    label: str
    kind: str
    values: tuple[float | None, ...]
    dash: str = ""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Frame:
    """The plot's geometry in SVG user units: the whole ``width`` and
    ``height``, the margins ``left``/``right``/``top``/``bottom``, and the
    value range ``y_max`` (the y axis runs from 0)."""

    width: int
    height: int
    y_max: float
    left: int = 48
    right: int = 72
    top: int = 16
    bottom: int = 64

    def x(self, i: int, n: int) -> float:
        """The x coordinate of position ``i`` of ``n`` (evenly spaced)."""
        span = self.width - self.left - self.right
        return self.left + (span * i / (n - 1) if n > 1 else span / 2)

    def y(self, value: float) -> float:
        """The y coordinate of ``value`` (0 at the bottom, ``y_max`` at the top)."""
        span = self.height - self.top - self.bottom
        return self.top + span * (1 - value / self.y_max)


def _ticks(y_max: float) -> list[int]:
    """About five whole-number y ticks from 0 to at least ``y_max``."""
    step = max(1, int(-(-y_max // 5)))
    return list(range(0, int(y_max) + step, step))


def _axes(frame: Frame, x_labels: Sequence[str], y_label: str) -> list[str]:
    """The grid, the axes and their labels, as SVG elements."""
    out = []
    for t in _ticks(frame.y_max):
        y = frame.y(t)
        out.append(f'<line class="grid" x1="{frame.left}" y1="{y:.1f}" '
                   f'x2="{frame.width - frame.right}" y2="{y:.1f}"/>')
        out.append(f'<text x="{frame.left - 6}" y="{y + 4:.1f}" text-anchor="end">{t}</text>')
    bottom = frame.height - frame.bottom
    out.append(f'<line class="axis" x1="{frame.left}" y1="{bottom}" '
               f'x2="{frame.width - frame.right}" y2="{bottom}"/>')
    out.append(f'<line class="axis" x1="{frame.left}" y1="{frame.top}" '
               f'x2="{frame.left}" y2="{bottom}"/>')
    for i, label in enumerate(x_labels):
        x = frame.x(i, len(x_labels))
        out.append(f'<text class="xlabel" transform="translate({x:.1f},{bottom + 12}) '
                   f'rotate(35)">{esc(label)}</text>')
    out.append(f'<text x="12" y="{frame.top + 4}" transform="rotate(-90 12 {frame.top + 4})" '
               f'text-anchor="end">{esc(y_label)}</text>')
    return out


def _series_svg(frame: Frame, s: Series, colour: str, x_labels: Sequence[str],
                links: Sequence[str]) -> list[str]:
    """One series: its polyline (with ``data-values``, ``none`` for a gap)
    and one point per value, each with a tooltip and, where ``links`` gives
    one, a link to an anchor of the page."""
    n = len(x_labels)
    pts = [(frame.x(i, n), frame.y(v)) for i, v in enumerate(s.values) if v is not None]
    data = ",".join("none" if v is None else _num(v) for v in s.values)
    dash = f' stroke-dasharray="{esc(s.dash)}"' if s.dash else ""
    out = [f'<g class="series" data-series="{esc(s.key)}" data-kind="{esc(s.kind)}">',
           f'<polyline class="line" fill="none" stroke="{colour}" stroke-width="2"{dash} '
           f'data-values="{data}" points="'
           + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>']
    for i, v in enumerate(s.values):
        if v is None:
            continue
        note = s.notes[i] if i < len(s.notes) and s.notes[i] else ""
        tip = f"{s.label}, {x_labels[i]}: {_num(v)}" + (f" ({note})" if note else "")
        dot = (f'<circle class="point" data-index="{i}" data-value="{_num(v)}" '
               f'cx="{frame.x(i, n):.1f}" cy="{frame.y(v):.1f}" r="4" fill="{colour}">'
               f"<title>{esc(tip)}</title></circle>")
        link = links[i] if i < len(links) else ""
        out.append(f'<a href="#{esc(link)}">{dot}</a>' if link else dot)
    out.append("</g>")
    return out


def _num(v: float) -> str:
    """A value as written in the plot: whole numbers without a decimal point."""
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def line_plot(plot_id: str, series: Sequence[Series], x_labels: Sequence[str], *,
              y_label: str, links: Sequence[str] = (), width: int = 900,
              height: int = 320) -> str:
    """An inline SVG line plot (``<svg class="plot" id=plot_id>``) and its
    legend (``<ul class="legend">``) as HTML text.

    ``series`` share the x positions ``x_labels`` (each series has one value
    per label); ``links`` (optional, one anchor name per x position, ``""``
    for none) make each point a link to ``#anchor``. The y axis runs from 0
    to the largest value (at least 1). Every label is escaped. Raises
    ``ValueError`` when a series has a number of values other than
    ``len(x_labels)``.
    """
    for s in series:
        if len(s.values) != len(x_labels):
            raise ValueError(f"series {s.key!r}: {len(s.values)} values for "
                             f"{len(x_labels)} x positions")
    top = max([v for s in series for v in s.values if v is not None] + [1])
    frame = Frame(width, height, float(top))
    parts = [f'<svg class="plot" id="{esc(plot_id)}" '
             f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
             f'aria-label="{esc(y_label)}">']
    parts += _axes(frame, x_labels, y_label)
    for i, s in enumerate(series):
        parts += _series_svg(frame, s, PALETTE[i % len(PALETTE)], x_labels, links)
    parts.append("</svg>")
    legend = ['<ul class="legend">']
    for i, s in enumerate(series):
        dash = " border-top-style:dashed;" if s.dash else ""
        legend.append(f'<li data-series="{esc(s.key)}" data-kind="{esc(s.kind)}"><span '
                      f'class="swatch" style="border-color:{PALETTE[i % len(PALETTE)]};'
                      f'{dash}"></span>{esc(s.label)}</li>')
    legend.append("</ul>")
    return "\n".join(parts + legend)


def page(title: str, body: str, *, css: str = "", script: str = "") -> str:
    """A whole HTML5 page: ``title`` (escaped here), ``body`` (HTML text the
    caller escaped), :data:`BASE_CSS` plus ``css`` inline, ``script`` inline
    at the end of the body, and the :data:`CSP` that forbids every load from
    outside the page."""
    tail = f"<script>\n{script}\n</script>\n" if script else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n<style>{BASE_CSS}{css}</style>\n</head>\n"
            f"<body>\n{body}\n{tail}</body>\n</html>\n")


def check_report_path(path: str, *, option: str, inputs: Sequence[str | None]) -> None:
    """Refuse (:class:`UsageError`, exit 2) a report path that cannot be a
    report file: ``-`` (standard output carries the command's own output), a
    folder, or a file the command also reads or writes (``inputs``: paths,
    ``None`` or ``-`` skipped), which the report would overwrite. Whether the
    file can be written is found when writing it
    (:func:`linguo_cli.io.write.atomic_write`, also exit 2)."""
    shown = one_line(path, 300)
    if path == "-":
        raise UsageError(f"{option} -: the report is written to a file (standard output "
                         "carries the state or the result); give a path")
    if os.path.isdir(path):
        raise UsageError(f"{option} {shown}: cannot write: is a folder")
    for other in inputs:
        if other and other != "-" and os.path.exists(other) and os.path.exists(path) \
                and os.path.samefile(other, path):
            raise UsageError(f"{option} {shown}: is also {one_line(other, 300)}, which the "
                             "command reads or writes; give another path")
