"""The suites' copies of linguo's schemas: ``golden/linguomancy/schemas/`` mirrors
``linguo_cli/rulesets/linguomancy/schemas/`` (and ``golden/novence-eternal/schemas/``
``linguo_cli/rulesets/novence_eternal/schemas/``).

The schemas (requests, states, catalogs, case files and, under ``results/``,
one result schema per request kind) live in ``schemas/`` (shipped as
``linguo_cli/schemas``), their source of truth. The golden suite carries an
identical copy so that the suite folder alone is enough for an implementer.
``python -m linguo_cli.conformance.schema_copy`` regenerates the copy;
``tests/test_conformance_schemas.py`` fails while it differs.
"""

from __future__ import annotations

import sys
from pathlib import Path


def schema_files(root: Path) -> dict[str, bytes]:
    """Every ``*.json`` below ``root``: relative POSIX path -> bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*.json")) if p.is_file()}


def differences(source: Path, copy: Path) -> list[str]:
    """Relative paths that are missing, extra or different in ``copy``."""
    want, have = schema_files(source), schema_files(copy) if copy.is_dir() else {}
    return sorted(k for k in want.keys() | have.keys() if want.get(k) != have.get(k))


def sync(source: Path, copy: Path) -> list[str]:
    """Make ``copy`` identical to ``source`` (``*.json`` files); returns the
    paths written or removed."""
    changed = differences(source, copy)
    want = schema_files(source)
    for rel in changed:
        target = copy / rel
        if rel in want:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(want[rel])
        else:
            target.unlink()
    return changed


#: Each ruleset of the source tree: (its package folder, its suite folder name).
RULESETS = (("linguomancy", "linguomancy"), ("novence_eternal", "novence-eternal"),
            ("ptr2e", "ptr2e"))


def main() -> int:
    """Regenerate ``golden/<suite>/schemas/`` of the source tree from each
    ruleset's ``schemas/`` (:data:`RULESETS`)."""
    top = Path(__file__).resolve().parents[2]
    for package, suite in RULESETS:
        changed = sync(top / "linguo_cli" / "rulesets" / package / "schemas",
                       top / "golden" / suite / "schemas")
        sys.stdout.write("".join(f"updated golden/{suite}/schemas/{c}\n" for c in changed)
                         or f"golden/{suite}/schemas/ is up to date\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
