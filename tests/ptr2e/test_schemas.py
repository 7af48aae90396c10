"""PTR 2e's document schemas (issue 20): the STATE and SCRIPT documents of
``linguo ptr2e round`` have their own schemas (``state.schema.json``,
``script.schema.json``), the round request refers to them by ``$id`` instead
of repeating them, the examples in ``examples/ptr2e/`` and every golden round
case fit them, and a broken document is refused with ``file:line:col``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from linguo_cli.conformance import golden
from linguo_cli.core.errors import InputError
from linguo_cli.io.document import Document
from linguo_cli.io.read import load
from linguo_cli.rulesets.ptr2e.requests import schemas

from ..conftest import ROOT

EXAMPLES = ROOT / "examples" / "ptr2e"
SCHEMAS = ROOT / "linguo_cli" / "rulesets" / "ptr2e" / "schemas"
ROUND_CASES = [c for c in golden.load_suite(ROOT / "golden" / "ptr2e").cases
               if isinstance(c.request, dict) and c.request.get("kind") == "round"]
#: The request keys that are not the script's (PV1): the round request is a script plus these.
NOT_SCRIPT = ("ruleset", "kind", "description", "state")


def _refused(path: Path, name: str) -> InputError:
    with pytest.raises(InputError) as caught:
        schemas().validate(load(str(path)), name)
    return caught.value


@pytest.mark.parametrize("name", ["state", "script"])
def test_the_document_schemas_are_valid_schemas(name: str) -> None:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == f"urn:linguo-ptr2e:{name}"


def test_the_round_request_refers_to_the_document_schemas() -> None:
    request = json.loads((SCHEMAS / "round-request.schema.json").read_text(encoding="utf-8"))
    script = json.loads((SCHEMAS / "script.schema.json").read_text(encoding="utf-8"))
    assert "$defs" not in request  # one source of truth: nothing is repeated here
    props = request["properties"]
    assert props["state"] == {"$ref": "urn:linguo-ptr2e:state"}
    assert set(props) - set(NOT_SCRIPT) == set(script["properties"])
    for key in script["properties"]:
        assert props[key] == {"$ref": f"urn:linguo-ptr2e:script#/$defs/{key}"}


def test_the_example_state_and_script_fit_their_schemas() -> None:
    schemas().validate(load(str(EXAMPLES / "state.yaml")), "state")
    schemas().validate(load(str(EXAMPLES / "round.yaml")), "script")


def test_a_broken_state_is_refused_at_its_place(tmp_path: Path) -> None:
    text = (EXAMPLES / "state.yaml").read_text(encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "fly: 15}" in t)
    broken = tmp_path / "state.yaml"
    broken.write_text(text.replace("fly: 15}", "fly: fifteen}", 1), encoding="utf-8")
    [diag] = _refused(broken, "state").diagnostics
    assert diag.place.startswith(f"{broken}:{line}:"), diag
    assert diag.field == "combatants.charizard.movement.fly"
    assert "fifteen" in diag.message


def test_a_broken_script_is_refused_at_its_place(tmp_path: Path) -> None:
    text = (EXAMPLES / "round.yaml").read_text(encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "{move: swim, m: 4}" in t)
    broken = tmp_path / "round.yaml"
    broken.write_text(text.replace("{move: swim, m: 4}", "{move: swim, metres: 4}", 1),
                      encoding="utf-8")
    diags = _refused(broken, "script").diagnostics
    assert any(d.place.startswith(f"{broken}:{line}:") for d in diags), diags
    assert any("metres" in d.message for d in diags), diags


def test_a_state_key_in_a_script_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "round.yaml"
    broken.write_text("stream: [a]\ncombatants: {}\n", encoding="utf-8")
    [diag] = _refused(broken, "script").diagnostics
    assert diag.place == f"{broken}:2:1" and "combatants" in diag.message


@pytest.mark.parametrize("case", ROUND_CASES, ids=[c.local_id for c in ROUND_CASES])
def test_every_golden_round_is_a_state_and_a_script(case: golden.Case) -> None:
    """A round request fits its schema exactly when its state fits the state
    schema and its other keys (less ruleset, kind, description) the script's."""
    request: dict[str, Any] = copy.deepcopy(case.request)
    state = request.pop("state")
    script = {k: v for k, v in request.items() if k not in NOT_SCRIPT}
    parts = (not schemas().errors(Document("state", state), "state"),
             not schemas().errors(Document("script", script), "script"))
    whole = not schemas().errors(Document("request", case.request), "round-request")
    assert whole == all(parts), parts
    assert whole or case.expect_error is not None
