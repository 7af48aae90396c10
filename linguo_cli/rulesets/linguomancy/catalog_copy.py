"""JSON copies of Linguomancy's default catalogs: ``data/idioms.json`` and
``data/conditions.json`` hold the values of ``data/idioms.yaml`` and
``data/conditions.yaml`` (the YAML files stay the source of truth, with
their comments; ``examples/idioms.yaml`` is the same text as the idioms).

The commands read the JSON copies (:func:`default_text`), so that a command
whose documents are JSON never imports the YAML reader (ruamel.yaml) nor
parses YAML for its catalogs (issue 16: about a third of a 1,000-entity
JSON turn). ``python -m linguo_cli.rulesets.linguomancy.catalog_copy``
regenerates the copies from the YAML; ``tests/linguomancy/test_catalog_copy.py``
fails while a copy differs from what the YAML gives.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: The default catalogs, by the name of their files under ``data/``.
CATALOGS = ("idioms", "conditions")


def json_copy(yaml_text: str, name: str) -> str:
    """The JSON copy of a catalog's YAML text: its values (read by linguo's
    reader, :func:`linguo_cli.io.read.parse`) as JSON, one-space indented,
    UTF-8 text, a final newline. Raises
    :class:`~linguo_cli.core.errors.InputError` for YAML linguo refuses."""
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import parse

    data = to_plain(parse(yaml_text, name).data)
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def default_text(catalog: str) -> tuple[str, str]:
    """``(name, text)`` of the JSON copy of the packaged catalog ``catalog``
    (one of :data:`CATALOGS`); ``name`` is its path in the package."""
    from linguo_cli.rulesets.linguomancy import packaged

    rel = f"data/{catalog}.json"
    return f"linguo_cli/rulesets/linguomancy/{rel}", packaged(rel).read_text(encoding="utf-8")


def main() -> int:
    """Rewrite ``data/NAME.json`` of the source tree from ``data/NAME.yaml``
    for each of :data:`CATALOGS` where they differ; prints what it did."""
    data = Path(__file__).resolve().parent / "data"
    for catalog in CATALOGS:
        source, target = data / f"{catalog}.yaml", data / f"{catalog}.json"
        want = json_copy(source.read_text(encoding="utf-8"), str(source))
        if target.is_file() and target.read_text(encoding="utf-8") == want:
            sys.stdout.write(f"{target.name} is up to date\n")
            continue
        target.write_text(want, encoding="utf-8")
        sys.stdout.write(f"updated {target.name}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
