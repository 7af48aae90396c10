"""Cheaper suite loading for ``linguo verify`` (issue 16): ``suite_version``
reads EXAMPLES alone and gives what the whole catalog gives
(``load_catalog(root).version``), for the real suites and for broken ones; the
scan for non-JSON values runs only on trees that are not plain JSON."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linguo_cli.conformance import catalog
from linguo_cli.conformance.golden import suite_dir
from linguo_cli.conformance.suite import _non_json_values
from linguo_cli.io.schema_fast import plain_json

from ..conftest import ROOT


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LINGUO_NO_CACHE", "1")


@pytest.mark.parametrize("ruleset", ["linguomancy", "novence-eternal", "ptr2e"])
def test_the_version_of_each_suite(ruleset: str) -> None:
    root = suite_dir(ruleset)
    assert catalog.suite_version(root) == catalog.load_catalog(root).version
    assert catalog.suite_version(root) is not None
    assert catalog.suite_version(ROOT / "golden" / ruleset) == catalog.load_catalog(
        root).version


@pytest.mark.parametrize("examples", [
    None,  # missing
    "version: 3\nexamples: []\n",
    "version: 3\nexamples: []\nextra: &a [1]\nmore: *a\n",  # not JSON-compatible, still read
    "version: 0\nexamples: []\n",
    "version: true\nexamples: []\n",
    "version: '2'\nexamples: []\n",
    "examples: []\n",
    "version: 2\nexamples: [\n",  # broken YAML
    '{"version": 5, "examples": []}',
])
def test_broken_or_odd_examples_give_the_catalogs_version(tmp_path: Path,
                                                         examples: str | None) -> None:
    root = tmp_path / "suite"
    shutil.copytree(suite_dir("linguomancy"), root)
    if examples is None:
        (root / "EXAMPLES.yaml").unlink()
    else:
        (root / "EXAMPLES.yaml").write_text(examples, encoding="utf-8")
    (root / "RULES.yaml").write_text("rules: {broken\n", encoding="utf-8")
    assert catalog.suite_version(root) == catalog.load_catalog(root).version


json_ish = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=3),
              st.dates(), st.tuples(st.integers())),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.one_of(st.text(max_size=2), st.integers()),
                                            inner, max_size=3)), max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(json_ish)
def test_a_tree_of_plain_json_values_has_no_non_json_value_to_report(tree: object) -> None:
    # suite loading asks _non_json_values only about trees plain_json does not pass
    found = _non_json_values("f.yaml", tree, tree, [])
    if plain_json(tree):
        assert found == []
