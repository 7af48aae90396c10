"""The fight as one HTML page (``linguo turn STATE TURNS --report FILE``).

Built from the plain result of kind ``turn`` (what ``--json`` prints), so
the page shows nothing the JSON does not hold: the encounter round by
round, the HP, temporary HP and Flux of every entity after each turn as
inline SVG plots (:func:`timeline`), and every step with its dice and rule
IDs (the explanation's lines of that step on hover, the rest on expanding
the step). The page is self-contained (see :mod:`linguo_cli.io.html_report`);
no rule is applied here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linguo_cli.io.html_report import Series, esc, line_plot, page
from linguo_cli.rulesets.linguomancy.report_steps import change_text, step_text, turn_start_text

#: Values the plots follow, as named in an entity's report (``before``/``after``).
TRACKED = ("hp", "temp_hp", "flux")


@dataclass(frozen=True, slots=True)
class Track:
    """One entity over the fight: its ``entity`` id, ``name`` (its state's
    ``name``, else the id), ``max_hp``, and its ``hp``, ``temp_hp`` and
    ``flux`` (Flux points) at each point of the :class:`Timeline`, with a
    ``status`` per point (``"dead"``, ``"Dying"`` or ``""``)."""

    entity: str
    name: str
    max_hp: int
    hp: tuple[int, ...]
    temp_hp: tuple[int, ...]
    flux: tuple[int, ...]
    status: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Timeline:
    """The points of the plots: before the first turn (``"start"``), then
    after each turn (``labels`` such as ``"R1 T2 ogre"``; ``anchors`` name
    each point's turn section, ``""`` for the start), and one :class:`Track`
    per entity of the state, in state order."""

    labels: tuple[str, ...]
    anchors: tuple[str, ...]
    tracks: tuple[Track, ...]


def _snapshot(entity: Mapping[str, Any]) -> dict[str, Any]:
    """The tracked values and status of an entity (state shape or report)."""
    out: dict[str, Any] = {k: int(entity.get(k) or 0) for k in TRACKED}
    out["status"] = _status(entity)
    return out


def _status(report: Mapping[str, Any]) -> str:
    """``"dead"``, ``"Dying"`` or ``""`` for an entity or report side."""
    if report.get("dead"):
        return "dead"
    names = [c.get("name") for c in report.get("conditions") or [] if isinstance(c, Mapping)]
    return "Dying" if "Dying" in names else ""


def _apply(current: dict[str, Any], after: Mapping[str, Any]) -> None:
    """Take the tracked values ``after`` gives (a report's ``after`` side)."""
    for key in TRACKED:
        if isinstance(after.get(key), int):
            current[key] = after[key]
    if "dead" in after or "conditions" in after:
        current["status"] = _status(after)


def entity_reports(turn: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The ``(entity id, report)`` pairs of a turn in the order they
    happened: the start's death save (the actor), then per step the attack's
    ``target_report`` (its ``target``) and the cast's ``entities``. Each
    report has ``before`` and ``after`` sides."""
    save = turn.get("start", {}).get("death_save")
    if isinstance(save, Mapping) and "after" in save:
        yield str(turn["entity"]), save
    for step in turn.get("steps", []):
        yield from step_reports(step)


def step_reports(step: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The ``(entity id, report)`` pairs of one step (see :func:`entity_reports`)."""
    rep = step.get("target_report")
    if isinstance(rep, Mapping) and "after" in rep:
        yield str(step.get("target")), rep
    cast = step.get("cast")
    if isinstance(cast, Mapping):
        for eid, rep in (cast.get("entities") or {}).items():
            if isinstance(rep, Mapping) and "after" in rep:
                yield str(eid), rep


def timeline(result: Mapping[str, Any]) -> Timeline:
    """Every entity's HP, temporary HP and Flux before the first turn and
    after each turn of a plain ``turn`` result (see :class:`Timeline`).

    The start values are each touched entity's ``entities[id].before`` (an
    untouched entity keeps its state values throughout); then, turn by turn,
    the ``after`` side of every report (:func:`entity_reports`) and the
    actor's Flux from the ``remaining`` resources at the start and after
    each step. The last point equals the result's ``state`` (checked by the
    tests)."""
    entities = result["state"]["entities"]
    touched = result.get("entities") or {}
    current = {e["id"]: _snapshot(touched.get(e["id"], {}).get("before", e))
               for e in entities}
    points = [{k: dict(v) for k, v in current.items()}]
    labels, anchors = ["start"], [""]
    for turn in result.get("turns", []):
        actor = str(turn["entity"])
        for eid, rep in entity_reports(turn):
            if eid in current:
                _apply(current[eid], rep["after"])
        if actor in current:
            flux = [s["remaining"]["flux"] for s in turn.get("steps", []) if "remaining" in s]
            flux.insert(0, turn.get("start", {}).get("remaining", {}).get("flux"))
            if isinstance(flux[-1], int):
                current[actor]["flux"] = flux[-1]
        points.append({k: dict(v) for k, v in current.items()})
        labels.append(f"R{turn['round']} T{turn['turn']} {actor}")
        anchors.append(f"turn-{turn['turn']}")
    tracks = tuple(
        Track(e["id"], str(e.get("name") or e["id"]), int(e.get("max_hp") or 0),
              tuple(p[e["id"]]["hp"] for p in points),
              tuple(p[e["id"]]["temp_hp"] for p in points),
              tuple(p[e["id"]]["flux"] for p in points),
              tuple(p[e["id"]]["status"] for p in points))
        for e in entities)
    return Timeline(tuple(labels), tuple(anchors), tracks)


# ---------------------------------------------------------------------------
# Dice and rule IDs of a step


def dice_of(node: Any, label: str = "") -> Iterator[tuple[str, int, int, bool]]:
    """Every die face in ``node`` (a step, a turn start), in document order
    (mapping keys in order, lists in order): ``(label, die, face, kept)``,
    the label naming the roll (``attack``, ``save (ogre)``, ``2d6+1``,
    ``death save``)."""
    if isinstance(node, Mapping):
        if "die" in node and "face" in node:
            yield label, int(node["die"]), int(node["face"]), bool(node.get("kept", True))
            return
        here = _roll_label(node) or label or "roll"
        for key, value in node.items():
            yield from dice_of(value, "death save" if key == "death_save" else here)
    elif isinstance(node, list):
        for item in node:
            yield from dice_of(item, label)


def _roll_label(node: Mapping[str, Any]) -> str:
    """What a mapping that holds faces rolled: its dice or its test."""
    if "faces" not in node and "face" not in node:
        return ""
    if isinstance(node.get("dice"), str):
        return str(node["dice"])
    kind = str(node.get("kind") or "")
    return f"{kind} ({node['entity']})" if kind and node.get("entity") else kind


_PLACE = re.compile(r"turn (\d+) ")


def explanation_by_place(result: Mapping[str, Any]) -> dict[tuple[int, str], list[Any]]:
    """The explanation's lines grouped by where they happened: ``(turn,
    "start")``, ``(turn, "end")``, ``(turn, "step K")`` or ``(turn, "")``
    (the turn's own lines), each a list of ``{"rule", "text"}`` with the
    place prefix taken off the text. Lines of no turn are left out."""
    actors = {int(t["turn"]): str(t["entity"]) for t in result.get("turns", [])}
    out: dict[tuple[int, str], list[Any]] = {}
    for line in result.get("explanation") or []:
        m = _PLACE.match(str(line.get("text", "")))
        if m is None or int(m.group(1)) not in actors:
            continue
        n = int(m.group(1))
        rest = line["text"][m.end():]
        head = f"({actors[n]})"
        if not rest.startswith(head):
            continue
        rest = rest[len(head):]
        where, sep, text = rest.partition(": ")
        where = where.removeprefix(", ")
        out.setdefault((n, where), []).append({"rule": line["rule"], "text": text if sep else rest})
    return out


def _rules_html(rules: Sequence[str], lines: Sequence[Mapping[str, Any]]) -> str:
    """The rule IDs as ``<span class="rule">`` with the explanation lines
    of each as its tooltip."""
    spans = []
    for rule in rules:
        tip = "\n".join(str(ln["text"]) for ln in lines if ln["rule"] == rule)
        spans.append(f'<span class="rule" data-rule="{esc(rule)}" title="{esc(tip)}">'
                     f"{esc(rule)}</span>")
    return '<span class="rules">' + " ".join(spans) + "</span>"


def _dice_html(node: Any) -> str:
    """The faces of ``node`` as ``<ul class="dice">`` (empty text when none);
    a face not kept (advantage, disadvantage) is struck through."""
    items = [f'<li class="die" data-die="{die}" data-face="{face}" data-kept="{str(kept).lower()}"'
             f">{esc(label)}: d{die} <b>{'' if kept else '<s>'}{face}{'' if kept else '</s>'}"
             "</b></li>" for label, die, face, kept in dice_of(node)]
    return '<ul class="dice">' + "".join(items) + "</ul>" if items else ""


def _explain_html(lines: Sequence[Mapping[str, Any]]) -> str:
    """The explanation lines as a list, each with its rule ID."""
    if not lines:
        return ""
    rows = "".join(f'<li><span class="rule-id">{esc(ln["rule"])}</span> {esc(ln["text"])}</li>'
                   for ln in lines)
    return f'<ol class="explain">{rows}</ol>'


_CSS = """
.round{margin-top:1.5rem}details.turn{border:1px solid #ccc;border-radius:4px;margin:.5rem 0;
padding:.3rem .6rem}details.turn>summary{font-weight:600;cursor:pointer}
details.step{margin:.3rem 0 .3rem 1rem;border-left:3px solid #ddd;padding-left:.5rem}
details.step>summary,details.start>summary{cursor:pointer}details.step[open]{border-left-color:#1f77b4}
.rules{margin-left:.5rem}.rule,.rule-id{font:12px ui-monospace,monospace;background:#eef;
border:1px solid #ccd;border-radius:3px;padding:0 .25rem;margin-right:.15rem;cursor:help}
ul.dice{display:flex;flex-wrap:wrap;gap:.2rem .8rem;list-style:none;padding:0;margin:.3rem 0}
ol.explain{font-size:.9rem;color:#333}.hp{color:#a00}.muted{color:#666}
.status-dead{color:#900;font-weight:600}.status-Dying{color:#c60}
"""

_SCRIPT = """
(function () {
  "use strict";
  function openTurn() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (el && el.tagName === "DETAILS") { el.open = true; }
  }
  window.addEventListener("hashchange", openTurn);
  openTurn();
  document.querySelectorAll("button[data-expand]").forEach(function (b) {
    b.addEventListener("click", function () {
      var open = b.getAttribute("data-expand") === "all";
      document.querySelectorAll("details").forEach(function (d) { d.open = open; });
    });
  });
})();
"""


def _names(result: Mapping[str, Any]) -> dict[str, str]:
    """Entity id to display name (the state's ``name``, else the id)."""
    return {e["id"]: str(e.get("name") or e["id"]) for e in result["state"]["entities"]}


def _step_html(turn: Mapping[str, Any], step: Mapping[str, Any], names: Mapping[str, str],
               lines: Sequence[Mapping[str, Any]]) -> str:
    """One step as ``<details class="step">``: the summary line (what it did,
    its numbers and its rule IDs), and when expanded its dice, resources and
    explanation."""
    texts = (change_text(names.get(eid, eid), rep, quiet=eid == turn["entity"])
             for eid, rep in step_reports(step))
    changes = "; ".join(t for t in texts if t)
    rem = step.get("remaining") or {}
    left = (f"{rem.get('action_points')} AP, {rem.get('movement')} m, "
            f"{rem.get('hands_free')} Hand points free, Flux {rem.get('flux')}")
    return (f'<details class="step" id="turn-{turn["turn"]}-step-{step["step"]}" '
            f'data-step="{esc(step["step"])}" data-kind="{esc(step["kind"])}">'
            f"<summary>Step {esc(step['step'])}: {esc(step_text(step, names))}"
            + (f' <span class="hp">{esc(changes)}</span>' if changes else "")
            + _rules_html(step.get("rules") or [], lines) + "</summary>"
            + _dice_html(step)
            + f'<p class="muted">Spent {esc(step.get("action_points"))} AP and '
            f'{esc(step.get("movement"))} m; left: {esc(left)}</p>'
            + _explain_html(lines) + "</details>")


def _turn_html(result: Mapping[str, Any], turn: Mapping[str, Any], after: Sequence[str],
               names: Mapping[str, str], expl: Mapping[tuple[int, str], list[Any]]) -> str:
    """One turn as ``<details class="turn" open>``: its start (death save,
    events), its steps, its end, and everyone's HP after it (``after``)."""
    n = int(turn["turn"])
    start = turn.get("start") or {}
    end = turn.get("end") or {}
    start_lines = expl.get((n, ""), []) + expl.get((n, "start"), [])
    parts = [f'<details class="turn" id="turn-{n}" data-turn="{n}" '
             f'data-entity="{esc(turn["entity"])}" open>',
             f"<summary>Turn {n}: {esc(names.get(turn['entity'], turn['entity']))}"
             f' <span class="muted">({esc(turn["entity"])})</span></summary>',
             f'<details class="start" data-part="start"><summary>Start: '
             f"{esc(turn_start_text(start))}{_rules_html(start.get('rules') or [], start_lines)}"
             f"</summary>{_dice_html(start)}{_explain_html(start_lines)}</details>"]
    steps = turn.get("steps") or []
    parts += [_step_html(turn, s, names, expl.get((n, f"step {s['step']}"), [])) for s in steps]
    if not steps:
        parts.append('<p class="muted">No steps.</p>')
    end_events = ", ".join(str(e) for e in end.get("events") or []) or "nothing ends"
    parts.append(f'<div class="end" data-part="end">End: {esc(end_events)}'
                 f"{_rules_html(end.get('rules') or [], expl.get((n, 'end'), []))}</div>")
    parts.append(f'<p class="after">After the turn: {esc("; ".join(after))}</p></details>')
    return "\n".join(parts)


def _after_texts(line: Timeline, index: int) -> list[str]:
    """Everyone's HP (temporary HP, status) at point ``index``."""
    out = []
    for t in line.tracks:
        text = f"{t.name} {t.hp[index]}/{t.max_hp} HP"
        if t.temp_hp[index]:
            text += f" +{t.temp_hp[index]} temp"
        out.append(text + (f" ({t.status[index]})" if t.status[index] else ""))
    return out


def _plots(line: Timeline) -> str:
    """The HP plot (temporary HP dashed, for entities that had some) and the
    Flux plot (entities whose Flux changed)."""
    hp = [Series(t.entity, t.name, "hp", tuple(float(v) for v in t.hp), notes=t.status)
          for t in line.tracks]
    hp += [Series(t.entity, f"{t.name}: temporary HP", "temp_hp",
                  tuple(float(v) for v in t.temp_hp), dash="6 4")
           for t in line.tracks if any(t.temp_hp)]
    flux = [Series(t.entity, t.name, "flux", tuple(float(v) for v in t.flux), dash="2 3")
            for t in line.tracks if len(set(t.flux)) > 1]
    out = ["<h2>Hit points</h2>",
           line_plot("plot-hp", hp, line.labels, y_label="HP", links=line.anchors)]
    if flux:
        out += ["<h2>Flux</h2>",
                line_plot("plot-flux", flux, line.labels, y_label="Flux", links=line.anchors)]
    return "\n".join(out)


def _entity_table(line: Timeline) -> str:
    """Each entity at the start and at the end of the fight."""
    rows = ["<table class=\"entities\"><tr><th>Entity</th><th>id</th><th>HP</th>"
            "<th>Temporary HP</th><th>Flux</th><th>At the end</th></tr>"]
    for t in line.tracks:
        status = t.status[-1]
        rows.append(f'<tr data-entity="{esc(t.entity)}"><td>{esc(t.name)}</td>'
                    f"<td>{esc(t.entity)}</td><td>{t.hp[0]} &rarr; {t.hp[-1]} "
                    f"(max {t.max_hp})</td><td>{t.temp_hp[0]} &rarr; {t.temp_hp[-1]}</td>"
                    f"<td>{t.flux[0]} &rarr; {t.flux[-1]}</td>"
                    f'<td class="status-{esc(status or "ok")}">{esc(status or "up")}</td></tr>')
    rows.append("</table>")
    return "\n".join(rows)


def render_report(result: Mapping[str, Any]) -> str:
    """The whole page for a plain ``turn`` result (see the module docstring):
    title (the state's ``description``, else ``linguo turn``), the entities
    at start and end, the plots, then each round with its turns and steps."""
    line = timeline(result)
    names = _names(result)
    expl = explanation_by_place(result)
    turns = result.get("turns") or []
    title = str(result["state"].get("description") or "linguo turn")
    rounds = sorted({int(t["round"]) for t in turns})
    body = [f"<h1>{esc(title)}</h1>",
            f"<p>{len(rounds)} round(s), {len(turns)} turn(s). Rules applied: "
            f"{_rules_html(result.get('rules') or [], [])}. Dice faces used: "
            f"{esc(', '.join(str(f) for f in result.get('rolls_used') or []) or 'none')}.</p>",
            _entity_table(line), _plots(line),
            '<h2>Round by round</h2><p><button type="button" data-expand="all">Expand all'
            '</button> <button type="button" data-expand="none">Collapse all</button></p>']
    for r in rounds:
        body.append(f'<section class="round" id="round-{r}" data-round="{r}"><h3>Round {r}</h3>')
        for i, turn in enumerate(turns):
            if int(turn["round"]) == r:
                body.append(_turn_html(result, turn, _after_texts(line, i + 1), names, expl))
        body.append("</section>")
    return page(title, "\n".join(body), css=_CSS, script=_SCRIPT)


def check_path(path: str, *, check: bool, inputs: Sequence[str | None]) -> None:
    """Refuse (:class:`~linguo_cli.core.errors.UsageError`, exit 2) a
    ``--report`` that cannot be written before anything is played: with
    ``--check`` (no die is rolled, so there is no fight to draw), ``-``, a
    folder, or one of the command's own files (``inputs``); see
    :func:`linguo_cli.io.html_report.check_report_path`."""
    from linguo_cli.core.errors import UsageError
    from linguo_cli.io.html_report import check_report_path

    if check:
        raise UsageError("--report draws a fight and --check rolls no die: drop one of them")
    check_report_path(path, option="--report", inputs=inputs)


def writer(path: str) -> Callable[[Any], None]:
    """A callback for the command: the page of a typed or plain ``turn``
    result written atomically to ``path``
    (:func:`linguo_cli.io.write.atomic_write`; a path that cannot be written
    is :class:`~linguo_cli.core.errors.UsageError`, exit 2, one line)."""
    def write(result: Any) -> None:
        from linguo_cli.core.results import to_plain
        from linguo_cli.io.write import atomic_write

        plain = result if isinstance(result, Mapping) else to_plain(result)
        atomic_write(path, render_report(plain))
    return write
