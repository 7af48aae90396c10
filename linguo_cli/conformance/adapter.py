"""The reference adapter: linguo answering the golden adapter protocol.

``python -m linguo_cli.conformance.adapter`` (or ``linguo adapter``) reads one request as
JSON on stdin and writes its result as JSON on stdout; an error is a non-zero
exit code (3 invalid input, 4 rules violation) with one line on stderr.
``--batch`` speaks JSON lines to one long-lived process: first the hello
exchange, then one answer line per request line (the error object
``{"error": {"exit": CODE, "code": null, "rule": ..., "place": ...,
"message": ...}}`` for an error). The protocol is written in
``golden/README.md`` ("Adapter protocol"); the code is in
:func:`~linguo_cli.conformance.golden.serve_plain` and
:func:`~linguo_cli.conformance.golden.serve_batch`.

An implementation in another language mirrors this file::

    linguo verify --impl 'python -m linguo_cli.conformance.adapter'
    linguo verify --impl 'python -m linguo_cli.conformance.adapter --batch' --batch
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Serve the protocol on the standard streams; ``--batch`` for JSON lines."""
    from linguo_cli.conformance import golden

    args = sys.argv[1:] if argv is None else argv
    unknown = [a for a in args if a != "--batch"]
    if unknown:
        sys.stderr.write(f"linguo: error: adapter: unknown argument {unknown[0]!r} "
                         "(only --batch)\n")
        return 2
    return golden.serve("--batch" in args)


if __name__ == "__main__":
    sys.exit(main())
