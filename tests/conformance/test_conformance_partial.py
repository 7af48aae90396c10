"""Acceptance of issue 18: an independent, partial implementation passes.

``tests/partial_impl/engine.js`` is a Node program written from the suite
alone (README, RULES statements, the schemas' copy; it never imports or runs
linguo's code) that implements check, attack and save only. Run through
``linguo verify`` on the JSON export of the suite, it passes every d20 case
and every other case is skipped: in batch mode (its hello declares the kinds),
in plain mode (``--kinds``) and in the JUnit report. It stops working when
the suite's rules text is removed, and an implementation that answers exit 3
(or "unsupported") to what it does not implement never gets a case passed.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from linguo_cli.conformance import golden

from ..conftest import ROOT, run_cli

ENGINE = ROOT / "tests" / "partial_impl" / "engine.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: the partial "
                                "implementation of tests/partial_impl/ is a Node program")
D20 = ("check", "attack", "save")
# Plain mode starts one process per case: a few files keep the test short
# (the whole suite in plain mode is test_plain_mode_on_the_whole_suite, slow).
PLAIN_FILES = ["tests/invalid.yaml", "tests/noun-checks.yaml", "tests/outcome.yaml",
               "damage/rolls.yaml", "flux/save-dc.yaml"]


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The suite exported as JSON (what a Node implementer reads)."""
    out = tmp_path_factory.mktemp("suite") / "golden-json"
    run = run_cli("golden", "export", str(out))
    assert run.exit_code == 0, run.stderr
    return out


def engine(suite: Path, *args: str) -> str:
    return " ".join(shlex.quote(a) for a in [str(NODE), str(ENGINE), "--suite", str(suite),
                                             *args])


def counts(stdout: str) -> tuple[int, int, int, int]:
    m = re.search(r"(\d+) cases: (\d+) passed, (\d+) failed, (\d+) skipped", stdout)
    assert m, stdout[-2000:]
    total, passed, failed, skipped = (int(x) for x in m.groups())
    return total, passed, failed, skipped


def d20_ids(suite: Path, files: list[str] | None = None) -> tuple[set[str], set[str]]:
    """(test ids of the d20 cases, test ids of the others) of the suite."""
    cases = golden.load_cases(suite)
    if files is not None:
        stems = {f.rsplit(".", 1)[0] for f in files}
        cases = [c for c in cases if c.file.rsplit(".", 1)[0] in stems]
    d20 = {c.test_id for c in cases if c.request.get("kind") in D20}
    return d20, {c.test_id for c in cases} - d20


def test_the_rules_text_the_engine_relies_on_is_in_the_suite() -> None:
    source = ENGINE.read_text(encoding="utf-8")
    relies = re.search(r"const RELIES_ON = \[([^\]]*)\]", source)
    assert relies is not None
    ids = re.findall(r"'([A-Z][0-9]+)'", relies.group(1))
    assert set(ids) >= {"D4", "D5", "A2", "A3", "S2", "D6", "D7"}
    catalog = golden.load_catalog(ROOT / "golden" / "linguomancy")
    for rule in ids:
        assert len(catalog.rules[rule].statement.split()) >= golden.MIN_STATEMENT_WORDS, rule
    d4 = catalog.rules["D4"].statement
    for degree in ("critical_success", "success", "partial_success", "partial_failure",
                   "failure", "critical_failure"):
        assert f"is {degree}" in d4
    assert "linguo_cli" not in source and "require('child_process')" not in source


def test_batch_passes_every_d20_case_and_skips_the_rest(export: Path, tmp_path: Path) -> None:
    d20, others = d20_ids(export)
    junit = tmp_path / "report.xml"
    run = run_cli("verify", str(export), "--impl", engine(export, "--batch"), "--batch",
                  "--junit", str(junit), "--junit-root", str(export.parent), "--quiet")
    assert run.exit_code == 0, run.stdout[-3000:]
    assert counts(run.stdout) == (len(d20) + len(others), len(d20), 0, len(others))
    root = ET.parse(junit).getroot()
    suite = root.find("testsuite")
    assert suite is not None
    assert suite.get("skipped") == str(len(others)) and suite.get("failures") == "0"
    for tc in root.iter("testcase"):
        assert tc.get("file", "").startswith("golden-json/")  # relative to --junit-root
        test_id = (f"linguomancy/{tc.get('file', '').removeprefix('golden-json/')}::"
                   f"{tc.get('name')}")
        skipped = tc.find("skipped")
        assert tc.find("failure") is None
        if test_id in d20:
            assert skipped is None, test_id
        else:
            assert skipped is not None and "not declared" in skipped.get("message", "")


def test_plain_mode_with_kinds(export: Path, tmp_path: Path) -> None:
    d20, others = d20_ids(export, PLAIN_FILES)
    assert d20 and others
    filters = [a for f in PLAIN_FILES for a in ("--filter", "file:" + f.replace(".yaml",
                                                                                 ".json"))]
    junit = tmp_path / "plain.xml"
    run = run_cli("verify", str(export), "--impl", engine(export), "--kinds",
                  "check,attack,linguomancy/save", *filters, "--junit", str(junit),
                  "--quiet")
    assert run.exit_code == 0, run.stdout[-3000:]
    assert counts(run.stdout) == (len(d20) + len(others), len(d20), 0, len(others))
    assert ET.parse(junit).getroot().get("skipped") == str(len(others))


def test_plain_mode_on_the_whole_suite(export: Path) -> None:
    """One Node process per d20 case (about 2 minutes): plain mode is part of
    the acceptance, so it runs in the README's test command."""
    d20, others = d20_ids(export)
    run = run_cli("verify", str(export), "--impl", engine(export), "--kinds",
                  "check,attack,save", "--quiet")
    assert run.exit_code == 0, run.stdout[-3000:]
    assert counts(run.stdout) == (len(d20) + len(others), len(d20), 0, len(others))


def test_the_d20_subset_is_selectable_exactly(export: Path) -> None:
    d20, _ = d20_ids(export)
    chosen = golden.select(golden.load_cases(export),
                           ["kind:check", "kind:attack", "kind:linguomancy/save"])
    assert {c.test_id for c in chosen} == d20


def test_without_the_rules_text_the_engine_cannot_pass(export: Path, tmp_path: Path) -> None:
    broken = tmp_path / "no-rules"
    shutil.copytree(export, broken)
    rules = json.loads((broken / "RULES.json").read_text(encoding="utf-8"))
    for rule in rules["rules"]:
        rule.pop("statement", None)
    (broken / "RULES.json").write_text(json.dumps(rules), encoding="utf-8")
    batch = run_cli("verify", str(broken), "--impl", engine(broken, "--batch"), "--batch",
                    "--quiet", "--filter", "tests/degrees.json")
    assert batch.exit_code == 1
    assert "no full statement of D1" in batch.stdout
    assert counts(batch.stdout)[1] == 0
    plain = run_cli("verify", str(broken), "--impl", engine(broken), "--quiet",
                    "--kinds", "check", "--filter", "tests/degrees.json::success-lower-border")
    assert plain.exit_code == 1 and counts(plain.stdout)[1] == 0


def _kinds_sent(log: Path) -> set[str]:
    return set(log.read_text(encoding="utf-8").split()) if log.exists() else set()


def test_exit_3_to_undeclared_kinds_is_never_a_pass(export: Path, tmp_path: Path) -> None:
    """The trap: answering exit 3 to every kind it does not implement would pass
    the cases that expect exit 3. Declared kinds keep those cases from being sent."""
    log = tmp_path / "batch.log"
    run = run_cli("verify", str(export), "--impl",
                  engine(export, "--batch", "--outside", "exit3", "--log", str(log)),
                  "--batch", "--quiet")
    d20, others = d20_ids(export)
    assert counts(run.stdout) == (len(d20) + len(others), len(d20), 0, len(others))
    assert _kinds_sent(log) == set(D20)
    log = tmp_path / "plain.log"
    trap = [c.test_id for c in golden.load_cases(export)
            if c.request.get("kind") not in D20 and c.expect_error is not None]
    assert len(trap) >= 10
    filters = [a for t in trap for a in ("--filter", f"id:{t}")]
    run = run_cli("verify", str(export), "--impl",
                  engine(export, "--outside", "exit3", "--log", str(log)),
                  "--kinds", "check,attack,save", *filters, "--quiet")
    assert counts(run.stdout) == (len(trap), 0, 0, len(trap))
    assert _kinds_sent(log) == set()


def test_the_unsupported_answer_is_skipped_never_passed(export: Path, tmp_path: Path) -> None:
    """Without a declaration every case is sent; the reserved answers
    (batch ``{"unsupported": true}``, plain exit 69) skip the case."""
    d20, others = d20_ids(export)
    junit = tmp_path / "report.xml"
    run = run_cli("verify", str(export), "--impl", engine(export, "--batch", "--no-declare"),
                  "--batch", "--quiet", "--junit", str(junit))
    assert counts(run.stdout) == (len(d20) + len(others), len(d20), 0, len(others))
    messages = {s.get("message", "") for s in ET.parse(junit).getroot().iter("skipped")}
    assert messages == {"unsupported: this engine implements check, attack, save only"}
    trap = [c.test_id for c in golden.load_cases(export)
            if c.request.get("kind") not in D20 and c.expect_error == 3][:6]
    filters = [a for t in trap for a in ("--filter", f"id:{t}")]
    run = run_cli("verify", str(export), "--impl", engine(export), *filters, "--quiet")
    assert counts(run.stdout) == (len(trap), 0, 0, len(trap))
    assert run.exit_code == 0
