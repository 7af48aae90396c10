"""Checking a Novence Eternal request document against its schemas.

:data:`SCHEMAS` is the :class:`~linguo_cli.io.schema.SchemaSet` of
``schemas/`` (the source of truth, copied into ``golden/novence-eternal/
schemas/``); :func:`validate_request` checks a loaded request with
``request.schema.json``, which dispatches on ``kind`` to
``attack-request``/``modifiers-request``. Each fault is placed at
``file:line:col`` with its field; the error carries NV6's refusal code:
``missing_input`` when the first fault is a required key left out, else
``bad_input``. A request that fits its schemas is then checked as NV1-NV3
say (:mod:`.state_checks`: the state, catalogs, options and the ids named),
every problem reported together (NV6) in one ``StateError`` (exit 3).
"""

from __future__ import annotations

from typing import Any

from linguo_cli.core.errors import InputError
from linguo_cli.io.schema import SchemaSet
from linguo_cli.rulesets.novence_eternal import packaged

#: Novence Eternal's schemas (read on first use).
SCHEMAS = SchemaSet(packaged("schemas"))


class RequestError(InputError):
    """A request that does not fit its schema (exit 3, rule NV3) with its
    refusal code (``missing_input`` or ``bad_input``)."""

    def __init__(self, diagnostics: Any, code: str) -> None:
        super().__init__(diagnostics)
        self.refusal = code
        self.rule = "NV3"


def validate_request(document: Any) -> None:
    """Check a loaded request document (``document.data``) against
    ``schemas/request.schema.json``; raises :class:`RequestError` (exit 3)
    with every fault, placed."""
    diags = SCHEMAS.errors(document, "request")
    if not diags:
        from .state_checks import check_request, raise_problems

        raise_problems(check_request(document.data), document)  # NV1-NV3, NV6: all at once
        return
    data = document.data
    validator = SCHEMAS.validator(SCHEMAS.dispatch("request", data))
    first = min(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)),
                default=None)
    code = "missing_input" if first is not None and first.validator == "required" \
        else "bad_input"
    raise RequestError(diags, code)
