"""The golden conformance suite: one import for loading, checking, exporting
and running it (the code lives in the modules named below).

A case file (``golden/<ruleset>/**/*.yaml``, JSON-compatible YAML, or
``*.json`` in an exported suite) holds a list of cases; each case is a
request, the dice faces it consumes (inside the request's ``rolls``), and
either ``expect`` (a partial result: listed keys must match exactly, unlisted
keys are free) or ``expect_error`` (an exit code, 3 invalid input or 4 rules
violation, or an error object ``{"exit", "code"?, "rule"?}``:
:mod:`linguo_cli.core.error_object`). The suite's catalog files list what
must be covered: ``EXAMPLES.yaml`` (every worked-example ID, with the suite
``version``) and ``RULES.yaml`` (every rule ID of the rulings, each with its
full ``statement``). The contract is written in ``golden/README.md``.

* :mod:`~linguo_cli.conformance.suite`: cases, loading, test ids ``RULESET/FILE::ID``;
* :mod:`~linguo_cli.conformance.catalog`: catalogs, ``golden check``, ``golden export``;
* :mod:`~linguo_cli.conformance.compare`: comparing and judging replies;
* :mod:`~linguo_cli.conformance.runners`: linguo in process, plain and batch implementations;
* :mod:`~linguo_cli.conformance.serve`: ``linguo adapter`` (the implementation side);
* :mod:`~linguo_cli.conformance.run` and :mod:`~linguo_cli.conformance.select`:
  ``linguo verify``'s loop, reports, selection and skipping.

Suite problems are :class:`~linguo_cli.core.errors.Diagnostic` values with
``file:line:col`` places; nothing here applies a rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from linguo_cli.conformance.catalog import (
    Catalog,
    CatalogEntry,
    CheckReport,
    check_json,
    check_lines,
    check_suite,
    contract_text,
    export_json,
    load_catalog,
    percent,
    statement_problems,
    suite_version,
)
from linguo_cli.conformance.compare import (
    MISSING,
    Mismatch,
    Outcome,
    Reply,
    Runner,
    compare,
    iter_outcomes,
    judge,
    run_case,
    show,
)
from linguo_cli.conformance.runners import (
    BatchImplementation,
    PlainImplementation,
    _decode_json,
    _snippet,
    _tail,
    _xml_safe,
    run_in_process,
    split_command,
)
from linguo_cli.conformance.serve import (
    _answer_line,
    _error_answer,
    answer,
    serve,
    serve_batch,
    serve_plain,
)
from linguo_cli.conformance.suite import (
    CATALOG_NAMES,
    DEFAULT_RULESET,
    DEFAULT_TIMEOUT,
    MIN_STATEMENT_WORDS,
    SCHEMAS_DIR,
    SUITE_NAME,
    UNSUPPORTED_EXIT,
    Case,
    Suite,
    case_files,
    default_suite_dir,
    json_compat_problems,
    load_cases,
    load_suite,
    require_suite,
    suite_dir,
)

__all__ = [
    "CATALOG_NAMES", "DEFAULT_RULESET", "DEFAULT_TIMEOUT", "MIN_STATEMENT_WORDS", "MISSING",
    "SCHEMAS_DIR", "SUITE_NAME", "UNSUPPORTED_EXIT", "BatchImplementation", "Case", "Catalog",
    "CatalogEntry", "CheckReport", "Mismatch", "Outcome", "PlainImplementation", "Reply",
    "Runner", "Suite", "_answer_line", "_decode_json", "_error_answer", "_snippet", "_tail",
    "_xml_safe", "answer", "case_files", "check_json", "check_lines", "check_suite", "compare",
    "contract_text", "default_suite_dir", "export_json", "iter_outcomes", "json_compat_problems",
    "judge", "load_cases", "load_catalog", "load_suite", "matches_filter", "percent",
    "require_suite", "run_case", "run_in_process", "select", "serve", "serve_batch",
    "serve_plain", "show", "split_command", "statement_problems", "suite_dir", "suite_version",
    "verify",
]


def matches_filter(case: Case, pattern: str) -> bool:
    """``--filter`` semantics (see :func:`linguo_cli.conformance.select.matches`)."""
    from linguo_cli.conformance import select as golden_select

    return golden_select.matches(case, pattern)


def select(cases: list[Case], patterns: list[str] | None,
           excludes: list[str] | None = None) -> list[Case]:
    """The cases matching any of ``patterns`` (all when there are none) and
    none of ``excludes``."""
    from linguo_cli.conformance import select as golden_select

    return golden_select.select(cases, patterns, excludes)


def verify(root: Path | None, *, impl: str | None = None, batch: bool = False,
           timeout: float = DEFAULT_TIMEOUT, filters: list[str] | None = None,
           junit: str | None = None, quiet: bool = False,
           out: IO[str] | None = None, err: IO[str] | None = None, **more: Any) -> int:
    """Run the suite at ``root`` (``None``: the suites of the chosen installed
    rulesets, see :func:`linguo_cli.conformance.run.run`) against linguo
    itself (``impl`` ``None``) or against the command ``impl`` (plain mode, or
    ``batch``); the other options (``excludes``, ``rulesets``, ``kinds``,
    ``skip_file``, ``junit_root``, ``verbose``, ``maxfail``, ``total_timeout``,
    ``progress_interval``) are those of :class:`linguo_cli.conformance.run.Options`.
    Returns 1 when a case failed or the run stopped early, else 0.

    Raises :class:`InputError` (exit 3) for a broken suite and
    :class:`UsageError` (exit 2) for bad options or a filter matching nothing.
    """
    from linguo_cli.conformance import run as golden_run

    opts = golden_run.Options(impl=impl, batch=batch, timeout=timeout,
                              filters=list(filters or []), junit=junit, quiet=quiet, **more)
    return golden_run.run(root, opts, out=out, err=err)
