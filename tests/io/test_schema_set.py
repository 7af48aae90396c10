"""The io layer's schema set (:class:`linguo_cli.io.schema.SchemaSet`) and its
boundary: io imports only the core, reads no schema and imports no jsonschema
before the first validation, and knows nothing of a ruleset's semantics
(those come in as the set's ``checks``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from linguo_cli.core.errors import InputError
from linguo_cli.io.document import Document
from linguo_cli.io.read import parse
from linguo_cli.io.schema import SchemaSet


def _folder(tmp_path: Path) -> Path:
    """A tiny ruleset's schemas: a request dispatching on ``kind`` to two
    kind schemas, one of which refers to a shared definition."""
    schemas = {
        "defs": {"$defs": {"side": {"type": "string", "enum": ["heads", "tails"]}}},
        "flip-request": {"type": "object", "required": ["kind", "call"],
                         "properties": {"kind": {"const": "flip"},
                                        "call": {"$ref": "urn:test:defs#/$defs/side"}},
                         "additionalProperties": False},
        "roll-request": {"type": "object", "required": ["kind"],
                         "properties": {"kind": {"const": "roll"}, "sides": {"type": "integer"}},
                         "additionalProperties": False},
        "request": {"type": "object", "required": ["kind"],
                    "properties": {"kind": {"enum": ["flip", "roll"]}},
                    "allOf": [
                        {"if": {"properties": {"kind": {"const": "flip"}}},
                         "then": {"$ref": "urn:test:flip-request"}},
                        {"if": {"properties": {"kind": {"const": "roll"}}},
                         "then": {"$ref": "urn:test:roll-request"}}]},
    }
    folder = tmp_path / "schemas"
    folder.mkdir()
    for name, schema in schemas.items():
        (folder / f"{name}.schema.json").write_text(
            json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema",
                        "$id": f"urn:test:{name}", **schema}), encoding="utf-8")
    (folder / "README.md").write_text("not a schema\n", encoding="utf-8")
    return folder


def test_a_schema_set_validates_with_places_refs_and_kind_dispatch(tmp_path: Path) -> None:
    schemas = SchemaSet(_folder(tmp_path))
    assert schemas.names() == ["defs", "flip-request", "request", "roll-request"]
    assert schemas.kind_schemas("request") == {"flip": "flip-request", "roll": "roll-request"}
    assert schemas.kind_schemas("defs") == {}
    assert schemas.dispatch("request", {"kind": "flip"}) == "flip-request"
    assert schemas.dispatch("request", {"kind": "other"}) == "request"
    doc = parse("kind: flip\ncall: heds\nextra: 1\n", "r.yaml")
    errors = schemas.errors(doc, "request")
    assert [(d.place, d.field) for d in errors] == [("r.yaml:2:7", "call"), ("r.yaml:3:1", "extra")]
    assert "did you mean 'heads'?" in errors[0].message  # through the $ref to defs
    with pytest.raises(InputError) as info:
        schemas.validate(doc, "request")
    assert len(info.value.diagnostics) == 2
    schemas.validate(Document("r", {"kind": "roll", "sides": 6}), "request")


def test_checks_run_only_after_the_schema_passes(tmp_path: Path) -> None:
    seen: list[tuple[str, str]] = []
    schemas = SchemaSet(_folder(tmp_path), checks=lambda doc, name: seen.append((doc.name, name)))
    with pytest.raises(InputError):
        schemas.validate(Document("bad", {"kind": "flip"}), "request")
    assert seen == []
    schemas.validate(Document("good", {"kind": "flip", "call": "tails"}), "request")
    assert seen == [("good", "request")]


def test_a_schema_set_reads_nothing_before_its_first_use(tmp_path: Path) -> None:
    missing = SchemaSet(tmp_path / "no-such-folder")  # no error: nothing is read yet
    with pytest.raises(FileNotFoundError):
        missing.schema("request")


def test_io_imports_only_the_core_and_no_jsonschema_until_validation() -> None:
    code = (
        "import sys\n"
        "import linguo_cli.io.read, linguo_cli.io.write, linguo_cli.io.places\n"
        "import linguo_cli.io.schema, linguo_cli.io.writeback\n"
        "names = [m for m in sys.modules if m.startswith('linguo_cli.')]\n"
        "assert all(m.split('.')[1] in ('core', 'io') for m in names), names\n"
        "import linguo_cli.rulesets.linguomancy.state as state\n"
        "assert 'jsonschema' not in sys.modules and 'referencing' not in sys.modules\n"
        "state.SCHEMAS.validate(state.Document('r', {'kind': 'dice', 'expression': 'd6'}),"
        " 'request')\n"
        # a valid request: checked by the accelerator when installed (jsonschema not needed)
        "assert ('jsonschema_rs' in sys.modules) != ('jsonschema' in sys.modules)\n"
        "assert state.SCHEMAS.errors(state.Document('r', {'kind': 'dice'}), 'request')\n"
        "assert 'jsonschema' in sys.modules\n"  # an invalid one: jsonschema's errors
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
