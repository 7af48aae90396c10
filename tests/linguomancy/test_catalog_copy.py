"""The JSON copies of the default catalogs (issue 16): each holds exactly the
values of its YAML source, and the default catalogs are read from them
without the YAML reader."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from linguo_cli.io.document import to_plain
from linguo_cli.io.read import parse
from linguo_cli.rulesets.linguomancy import catalog_copy, conditions, idioms

DATA = Path(catalog_copy.__file__).resolve().parent / "data"


@pytest.mark.parametrize("catalog", catalog_copy.CATALOGS)
def test_json_copy_is_generated_from_the_yaml(catalog: str) -> None:
    yaml_path, json_path = DATA / f"{catalog}.yaml", DATA / f"{catalog}.json"
    want = catalog_copy.json_copy(yaml_path.read_text(encoding="utf-8"), str(yaml_path))
    assert json_path.read_text(encoding="utf-8") == want, (
        "run python -m linguo_cli.rulesets.linguomancy.catalog_copy")


@pytest.mark.parametrize("catalog", catalog_copy.CATALOGS)
def test_json_copy_holds_the_values_of_the_yaml(catalog: str) -> None:
    yaml_doc = parse((DATA / f"{catalog}.yaml").read_text(encoding="utf-8"), "yaml")
    name, text = catalog_copy.default_text(catalog)
    json_doc = parse(text, name)
    assert json_doc.format == "json" and yaml_doc.format == "yaml"
    assert json.loads(text) == to_plain(yaml_doc.data)
    assert to_plain(json_doc.data) == to_plain(yaml_doc.data)
    assert to_plain(yaml_doc.data)[catalog]  # not an empty catalog


def test_default_catalogs_equal_the_yaml_catalogs() -> None:
    for module in (idioms, conditions):
        name = module.__name__.rsplit(".", 1)[1]
        doc = parse((DATA / f"{name}.yaml").read_text(encoding="utf-8"), "yaml")
        from_yaml = module.load_catalog(doc.data, name="default", document=doc)
        assert module.default_catalog() == from_yaml


def test_default_catalogs_do_not_import_the_yaml_reader() -> None:
    code = ("import sys\n"
            "from linguo_cli.rulesets.linguomancy import conditions, idioms\n"
            "assert idioms.default_catalog().idioms and conditions.default_catalog()\n"
            "print('ruamel' in ' '.join(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
