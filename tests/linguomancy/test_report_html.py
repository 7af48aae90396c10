"""`linguo turn ... --report FILE`: the fight as one self-contained HTML page.

The structure tests parse the page with the standard library's HTML parser
and compare it with the JSON result of the same run (``--json`` together
with ``--report``): no reference outside the page, one HP series per entity
with one point per turn (plus the start) holding the HP the JSON gives,
every step with its dice and rule IDs. The browser test opens the page in
a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
driven by selenium) and is skipped, with the reason, where either is absent.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from linguo_cli.rulesets.linguomancy.report_html import timeline

from ..conftest import ROOT, run_cli

EXAMPLE = ROOT / "examples" / "encounter"


# ---------------------------------------------------------------------------
# A small DOM from html.parser


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    def walk(self) -> Iterator[Node]:
        yield self
        for c in self.children:
            yield from c.walk()

    def find(self, tag: str, **attrs: str) -> list[Node]:
        want = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}
        return [n for n in self.walk() if n.tag == tag
                and all(v in n.attrs.get(k, "").split() if k == "class" else n.attrs.get(k) == v
                        for k, v in want.items())]

    def all_text(self) -> str:
        return "".join(t for n in self.walk() for t in n.text)


VOID = {"meta", "link", "br", "img", "input", "hr", "area", "base", "col", "embed", "source",
        "track", "wbr"}
SVG_VOID = {"line", "polyline", "circle", "path", "rect"}


class DomParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.current = self.root
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.current))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.current.tag != tag:
            self.errors.append(f"</{tag}> closes <{self.current.tag}>")
            return
        assert self.current.parent is not None
        self.current = self.current.parent

    def handle_data(self, data: str) -> None:
        self.current.text.append(data)


def parse(text: str) -> Node:
    p = DomParser()
    p.feed(text)
    p.close()
    assert p.errors == [], p.errors[:5]
    assert p.current is p.root, f"unclosed <{p.current.tag}>"
    return p.root


# ---------------------------------------------------------------------------
# What the JSON says, read independently of the report module


def hp_reports(node: Any, turn: dict[str, Any], ids: set[str], key: str = "",
               parent: Any = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every ``{"before", "after"}`` report with an ``hp`` anywhere in a turn,
    in document order, with the entity it is about: a key that is an entity
    id, a step's ``target`` for ``target_report``, the actor for
    ``death_save``."""
    if isinstance(node, dict):
        if isinstance(node.get("after"), dict) and "hp" in node["after"]:
            who = (key if key in ids else parent.get("target") if key == "target_report"
                   else turn["entity"] if key == "death_save" else None)
            assert who is not None, f"a report of no known entity under {key!r}"
            yield who, node
        for k, v in node.items():
            yield from hp_reports(v, turn, ids, k, node)
    elif isinstance(node, list):
        for v in node:
            yield from hp_reports(v, turn, ids, key, parent)


def hp_per_turn(result: dict[str, Any]) -> dict[str, list[int]]:
    """Each entity's HP before the first turn and after each turn."""
    final = {e["id"]: e for e in result["state"]["entities"]}
    hp = {i: (result["entities"].get(i, {}).get("before") or e)["hp"] for i, e in final.items()}
    out = {i: [v] for i, v in hp.items()}
    for turn in result["turns"]:
        for who, rep in hp_reports(turn, turn, set(final)):
            assert rep["before"]["hp"] == hp[who], (turn["turn"], who)
            hp[who] = rep["after"]["hp"]
        for i, v in hp.items():
            out[i].append(v)
    assert {i: v[-1] for i, v in out.items()} == {i: e["hp"] for i, e in final.items()}
    return out


def faces(node: Any) -> Iterator[tuple[int, int]]:
    """Every ``(die, face)`` record in document order."""
    if isinstance(node, dict):
        if "die" in node and "face" in node:
            yield node["die"], node["face"]
            return
        for v in node.values():
            yield from faces(v)
    elif isinstance(node, list):
        for v in node:
            yield from faces(v)


def dice_in(node: Node) -> list[tuple[int, int]]:
    return [(int(n.attrs["data-die"]), int(n.attrs["data-face"]))
            for n in node.find("li", class_="die")]


def rules_in(node: Node) -> list[str]:
    return [n.attrs["data-rule"] for n in node.find("span", class_="rule")]


def own_summary(node: Node) -> Node:
    summary = [c for c in node.children if c.tag == "summary"]
    assert len(summary) == 1
    return summary[0]


# ---------------------------------------------------------------------------
# Runs


def play(tmp_path: Path, state: str | Path = EXAMPLE / "state.yaml",
         turns: str | Path = EXAMPLE / "turns.yaml", *extra: str) -> tuple[dict[str, Any], str]:
    report = tmp_path / "fight.html"
    r = run_cli("turn", str(state), str(turns), "--json", "--report", str(report), *extra)
    assert r.exit_code == 0, r.stderr
    return r.json(), report.read_text(encoding="utf-8")


def assert_self_contained(dom: Node) -> None:
    for n in dom.walk():
        for attr in ("src", "href", "xlink:href", "action", "data", "srcset", "poster"):
            value = n.attrs.get(attr)
            if value is not None:
                assert value.startswith("#"), f"<{n.tag} {attr}={value!r}>"
        assert n.tag not in {"link", "img", "iframe", "object", "embed", "base", "form"}, n.tag
        assert "url(" not in n.attrs.get("style", ""), n.attrs["style"]
    for n in dom.find("style") + dom.find("script"):  # text elsewhere is escaped user text
        assert not re.search(r"(?i)https?:|file:|ftp:|//[a-z0-9.-]+\.[a-z]{2,}/|url\(|@import|"
                             r"fetch\(|XMLHttpRequest|WebSocket|import\(", n.all_text()), n.tag
    scripts = dom.find("script")
    assert len(scripts) == 1 and "src" not in scripts[0].attrs
    csp = [m.attrs["content"] for m in dom.find("meta")
           if m.attrs.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in csp[0]


def test_report_structure_matches_the_json_of_the_same_run(tmp_path: Path) -> None:
    result, text = play(tmp_path)
    dom = parse(text)
    assert_self_contained(dom)
    n_points = len(result["turns"]) + 1
    # one HP series per entity, one point per turn plus the start, the JSON's HP
    plot = dom.find("svg", id="plot-hp")
    assert len(plot) == 1
    series = plot[0].find("g", class_="series", data_kind="hp")
    ids = [e["id"] for e in result["state"]["entities"]]
    assert [s.attrs["data-series"] for s in series] == ids
    expected = hp_per_turn(result)
    for s in series:
        values = [int(v) for v in s.find("polyline")[0].attrs["data-values"].split(",")]
        points = [int(c.attrs["data-value"]) for c in s.find("circle", class_="point")]
        assert len(values) == len(points) == n_points
        assert values == points == expected[s.attrs["data-series"]], s.attrs["data-series"]
        assert len(s.find("polyline")[0].attrs["points"].split()) == n_points
    # every step with its dice and rule IDs; each turn's start with its death save
    for turn in result["turns"]:
        node = dom.find("details", id=f"turn-{turn['turn']}")
        assert len(node) == 1 and node[0].attrs["data-entity"] == turn["entity"]
        start = node[0].find("details", class_="start")[0]
        assert dice_in(start) == list(faces(turn["start"]))
        assert rules_in(own_summary(start)) == turn["start"]["rules"]
        steps = node[0].find("details", class_="step")
        assert [int(s.attrs["data-step"]) for s in steps] == [s["step"] for s in turn["steps"]]
        for html_step, step in zip(steps, turn["steps"], strict=True):
            assert html_step.attrs["data-kind"] == step["kind"]
            assert dice_in(html_step) == list(faces(step)), (turn["turn"], step["step"])
            assert rules_in(own_summary(html_step)) == step["rules"]
    assert sum(len(list(faces(t))) for t in result["turns"]) == len(result["rolls_used"])
    assert len(dom.find("li", class_="die")) == len(result["rolls_used"])


def test_example_hp_worked_by_hand(tmp_path: Path) -> None:
    """The example encounter's HP after each turn, from the hand-worked
    golden case (golden/linguomancy/turns/encounter.yaml): Hurl - Fire 12 on
    the ogre in turn 1 (22 -> 10), the ogre's 9 on Ayla in turn 2 (14 -> 5),
    Mend - Flesh 7 on Cole in turn 4 (0 -> 7), Burst - Frost 16 on the ogre
    in turn 6 (10 -> 0); Flux: Ayla 6 +1 -3 = 4 (turn 1), +1 -1 = 4 (turn 5),
    +1 = 5 (turn 9); Bram 4 +1 -2 = 3 (turn 4), +1 -4 = 0 (turn 6), +1 = 1
    (turn 10)."""
    result, text = play(tmp_path)
    line = timeline(result)
    assert line.labels[0] == "start" and len(line.labels) == 11
    hp = {t.entity: list(t.hp) for t in line.tracks}
    assert hp["ogre"] == [22] + [10] * 5 + [0] * 5
    assert hp["ayla"] == [14, 14] + [5] * 9
    assert hp["cole"] == [0] * 4 + [7] * 7
    assert hp["bram"] == [11] * 11
    flux = {t.entity: list(t.flux) for t in line.tracks}
    assert flux["ayla"] == [6] + [4] * 8 + [5, 5]
    assert flux["bram"] == [4] * 4 + [3, 3] + [0] * 4 + [1]
    dom = parse(text)
    flux_series = dom.find("svg", id="plot-flux")[0].find("g", class_="series")
    assert {s.attrs["data-series"] for s in flux_series} == {"ayla", "bram"}
    status = {t.entity: t.status for t in line.tracks}
    assert status["ogre"][6:] == ("dead",) * 5 and status["cole"][:4] == ("Dying",) * 4


def _golden_turn_requests() -> Iterator[tuple[str, dict[str, Any]]]:
    yaml = YAML(typ="safe")
    for path in sorted((ROOT / "golden" / "linguomancy").rglob("*.yaml")):
        doc = yaml.load(path.read_text(encoding="utf-8"))
        for case in (doc or {}).get("cases", []) if isinstance(doc, dict) else []:
            req = case.get("request") or {}
            if req.get("kind") == "turn" and not req.get("check") and "state" in req:
                yield f"{path.name}::{case['id']}", req


def test_timeline_ends_at_the_state_for_every_golden_turn_case() -> None:
    """Every played golden turn: the report's last point is the result's
    state (HP, temporary HP, Flux of every entity), and the HP at each point
    is what the JSON's reports give (see hp_per_turn)."""
    import linguo_cli
    from linguo_cli.core.errors import LinguoError

    played = 0
    for name, req in _golden_turn_requests():
        try:
            result = linguo_cli.resolve(req)
        except LinguoError:
            continue
        line = timeline(result)
        final = {e["id"]: e for e in result["state"]["entities"]}
        expected = hp_per_turn(result)
        for t in line.tracks:
            e = final[t.entity]
            assert (t.hp[-1], t.temp_hp[-1], t.flux[-1]) == (e["hp"], e["temp_hp"], e["flux"]), name
            assert list(t.hp) == expected[t.entity], name
        played += 1
    assert played >= 10


# ---------------------------------------------------------------------------
# User input in the page, temporary HP


HOSTILE_STATE = """\
entities:
  - id: hero
    name: "<script>alert('pwned')</script> \\"quoted\\" & co"
    kind: player
    hp: 10
    max_hp: 10
    temp_hp: 4
    ac: 12
    movement_max: 9
  - id: brute
    name: "</title><img src=https://example.com/x.png>"
    kind: enemy
    hp: 9
    max_hp: 9
    abilities: {strength: 2}
    movement_max: 9
"""

HOSTILE_TURNS = """\
rolls: [15, 3, 3, 12, 2, 2]
turns:
  - entity: brute
    steps:
      - {kind: attack, target: "hero", ability: strength, damage: {dice: 2d4, type: slashing}}
  - entity: "hero"
    steps: []
  - entity: brute
    steps:
      - {kind: attack, target: "hero", ability: strength, damage: {dice: 2d4, type: slashing}}
"""


def test_names_are_escaped_and_temporary_hp_is_drawn(tmp_path: Path) -> None:
    """Hand-worked: 2d4 = 3+3 = 6 against 4 temporary HP: temp 4 -> 0 and HP
    10 -> 8 (H2: temporary HP absorb first); next round 2+2 = 4: HP 8 -> 4."""
    state = tmp_path / "s.yaml"
    state.write_text(HOSTILE_STATE, encoding="utf-8")
    turns = tmp_path / "t.yaml"
    turns.write_text(HOSTILE_TURNS, encoding="utf-8")
    result, text = play(tmp_path, state, turns)
    dom = parse(text)
    assert_self_contained(dom)
    assert len(dom.find("script")) == 1 and "alert(" not in dom.find("script")[0].all_text()
    assert dom.find("img") == [] and len(dom.find("title")) >= 1
    assert "<script>alert('pwned')</script> \"quoted\" & co" in dom.all_text()
    hp = dom.find("g", class_="series", data_kind="hp", data_series="hero")
    assert len(hp) == 1
    assert hp[0].find("polyline")[0].attrs["data-values"] == "10,8,8,4"
    temp = dom.find("g", class_="series", data_kind="temp_hp")
    assert [t.attrs["data-series"] for t in temp] == ["hero"]
    assert temp[0].find("polyline")[0].attrs["data-values"] == "4,0,0,0"
    assert hp_per_turn(result)["hero"] == [10, 8, 8, 4]


# ---------------------------------------------------------------------------
# The command: other outputs unchanged, refusals, atomic writing


def test_other_outputs_are_unchanged(tmp_path: Path) -> None:
    args = [str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml")]
    plain = run_cli("turn", *args)
    with_report = run_cli("turn", *args, "--report", str(tmp_path / "a.html"))
    assert plain.exit_code == with_report.exit_code == 0
    assert (plain.stdout, plain.stderr) == (with_report.stdout, with_report.stderr)
    j1 = run_cli("turn", *args, "--json")
    j2 = run_cli("turn", *args, "--json", "--report", str(tmp_path / "b.html"))
    assert j1.stdout == j2.stdout
    o1, o2 = tmp_path / "o1.yaml", tmp_path / "o2.yaml"
    run_cli("turn", *args, "-o", str(o1))
    run_cli("turn", *args, "-o", str(o2), "--report", str(tmp_path / "c.html"))
    assert o1.read_text() == o2.read_text()
    assert (tmp_path / "a.html").read_text() == (tmp_path / "c.html").read_text()


def test_report_replaces_a_file_atomically(tmp_path: Path) -> None:
    report = tmp_path / "fight.html"
    report.write_text("old", encoding="utf-8")
    r = run_cli("turn", str(EXAMPLE / "state.yaml"), str(EXAMPLE / "turns.yaml"),
                "--report", str(report))
    assert r.exit_code == 0, r.stderr
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.html"]


@pytest.mark.parametrize(("report", "extra", "says"), [
    ("{tmp}/missing/fight.html", [], "cannot write"),
    ("{tmp}", [], "is a folder"),
    ("-", [], "give a path"),
    ("{tmp}/fight.html", ["--check"], "--check"),
    ("{tmp}/s.yaml", ["--in-place"], "reads or writes"),
    ("{tmp}/out.yaml", ["-o", "{tmp}/out.yaml"], "reads or writes"),
])
def test_unwritable_report_is_exit_2_and_nothing_is_written(
        tmp_path: Path, report: str, extra: list[str], says: str) -> None:
    state = tmp_path / "s.yaml"
    shutil.copy(EXAMPLE / "state.yaml", state)
    (tmp_path / "out.yaml").write_text("before\n", encoding="utf-8")
    before = state.read_text(encoding="utf-8")
    r = run_cli("turn", str(state), str(EXAMPLE / "turns.yaml"),
                *[x.format(tmp=tmp_path) for x in extra], "--report", report.format(tmp=tmp_path))
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], r.stderr
    assert r.stdout == ""
    assert state.read_text(encoding="utf-8") == before
    assert (tmp_path / "out.yaml").read_text(encoding="utf-8") == "before\n"
    assert not (tmp_path / "fight.html").exists()


def test_readme_report_command_runs_verbatim() -> None:
    """The README's "A picture of the fight" command, run as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## A picture of the fight", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("  #")[0] for line in block.splitlines() if line.strip()]
    assert commands and any("--report" in c for c in commands)
    linguo = shutil.which("linguo")
    if linguo is None:
        pytest.skip("the linguo command is not installed in this environment")
    env = dict(os.environ, PATH=os.path.dirname(linguo) + os.pathsep + os.environ["PATH"])
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, (command, done.stderr)
    target = re.search(r"--report (\S+)", block)
    assert target is not None
    assert Path(target.group(1)).read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------------------
# A real headless browser


BROWSER_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1200,900")


def _absent(reason: str) -> None:
    """Skip for ``reason``; fail instead where CI asks for the browser test
    (``LINGUO_REQUIRE_BROWSER=1``, set by .ci/run, passed through by tox)."""
    if os.environ.get("LINGUO_REQUIRE_BROWSER") == "1":
        pytest.fail(f"LINGUO_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


def _browser(user_data: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A headless Chromium (the system's binary and driver) with a fresh
    profile and the browser console recorded; skipped (see :func:`_absent`)
    where Chromium, its driver or selenium is missing."""
    chromium = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        _absent("no headless browser: Debian's chromium and chromium-driver are not "
                "installed (apt-get install chromium chromium-driver; .ci/run does)")
    assert chromium is not None and driver is not None
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _absent("selenium (in the test extra) is not installed")
    monkeypatch.setenv("SE_OFFLINE", "true")  # selenium's manager never downloads anything
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*BROWSER_FLAGS, f"--user-data-dir={user_data}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(driver))


def console_errors(browser: Any) -> list[str]:
    """The browser console's errors since the last call (a script error, a
    load the page's Content-Security-Policy refused, a missing resource)."""
    return [json.dumps(e) for e in browser.get_log("browser")
            if e["level"] in ("SEVERE", "ERROR")]


def test_report_renders_in_a_headless_browser(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    result, _ = play(tmp_path)
    browser = _browser(tmp_path / "profile", monkeypatch)
    try:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        browser.get((tmp_path / "fight.html").as_uri())
        assert console_errors(browser) == []
        # the plot: one line per entity, a point per turn and the start, drawn
        plot = browser.find_element(By.ID, "plot-hp")
        assert plot.is_displayed() and plot.size["width"] > 300 and plot.size["height"] > 100
        lines = plot.find_elements(By.CSS_SELECTOR, "g.series[data-kind='hp'] polyline")
        assert len(lines) == len(result["state"]["entities"])
        assert all(line.size["width"] > 100 for line in lines)
        points = plot.find_elements(By.CSS_SELECTOR, "g.series[data-kind='hp'] circle.point")
        assert len(points) == len(lines) * (len(result["turns"]) + 1)
        # the steps: summaries visible, bodies folded until expanded
        summaries = browser.find_elements(By.CSS_SELECTOR, "details.step > summary")
        assert len(summaries) == sum(len(t["steps"]) for t in result["turns"])
        assert all(s.is_displayed() for s in summaries)
        cast = browser.find_element(By.ID, "turn-1-step-2")
        dice = cast.find_element(By.CSS_SELECTOR, "ul.dice")
        assert not dice.is_displayed()
        cast.find_element(By.TAG_NAME, "summary").click()
        assert cast.get_attribute("open") is not None and dice.is_displayed()
        shown = [d.text for d in dice.find_elements(By.CSS_SELECTOR, "li.die")]
        assert len(shown) == 3 and shown[0].endswith("d20 13")
        # the rule IDs carry their explanation as a tooltip
        rule = cast.find_element(By.CSS_SELECTOR, "span.rule[data-rule='H1']")
        assert "22 - 12 = 10" in (rule.get_attribute("title") or "")
        # collapse all, then a point of the plot opens its turn (the inline script)
        browser.find_element(By.CSS_SELECTOR, "button[data-expand='none']").click()
        turn6 = browser.find_element(By.ID, "turn-6")
        assert turn6.get_attribute("open") is None
        browser.execute_script("window.location.hash = '#turn-6';")
        WebDriverWait(browser, 10).until(lambda _: turn6.get_attribute("open") is not None)
        assert console_errors(browser) == []
    finally:
        browser.quit()
