"""A cache of loaded and checked suites, so that ``linguo verify`` and
``linguo golden check`` parse and schema-check a suite once, not on every run.

An entry is a JSON file under ``$XDG_CACHE_HOME/linguo/suites/`` (default
``~/.cache/linguo/suites/``), named by its key: a SHA-256 of what the loaded
value depends on, namely what is cached (a suite, strict or not, or a
catalog), the suite folder as given, the name and every byte of each file
read, linguo's version and jsonschema's, and the bytes of linguo's loading
code and schemas (so an edited checkout never reuses an entry). A cached
value is therefore exactly what loading would give.

``LINGUO_NO_CACHE=1`` turns the cache off. Nothing here ever fails a
command: an entry that cannot be read, is not whole (its first line is the
SHA-256 of the rest) or does not have the expected shape is ignored (the
suite is loaded as without a cache), and a cache folder that cannot be
written is not written. At most :data:`KEEP` entries are kept (the oldest go).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

#: Changes whenever the layout of an entry changes.
FORMAT = 1
#: Most entries kept in the cache folder.
KEEP = 64
#: linguo's modules whose code makes a loaded suite (relative to the package).
_LOADING_CODE = (
    "__init__.py", "conformance/suite.py", "conformance/catalog.py",
    "conformance/suite_cache.py", "core/errors.py", "io/document.py", "io/json_text.py",
    "io/places.py", "io/read.py", "io/schema.py", "io/schema_fast.py", "io/yaml_text.py",
)

T = TypeVar("T")


def folder() -> Path | None:
    """The cache folder, or ``None`` when ``LINGUO_NO_CACHE`` is set (to
    anything but ``""`` or ``0``)."""
    if os.environ.get("LINGUO_NO_CACHE", "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "linguo" / "suites"


@cache
def _code_fingerprint() -> bytes:
    """A digest of linguo's version, jsonschema's, the loading code and
    Linguomancy's schemas (the case-file schema and what it refers to)."""
    from importlib.metadata import PackageNotFoundError, version

    import linguo_cli

    h = hashlib.sha256(f"{FORMAT}\0{linguo_cli.__version__}\0".encode())
    try:
        h.update(version("jsonschema").encode())
    except PackageNotFoundError:  # pragma: no cover - jsonschema is a dependency
        pass
    package = Path(linguo_cli.__file__).parent
    schemas = package / "rulesets" / "linguomancy" / "schemas"
    paths = [package / rel for rel in _LOADING_CODE] + sorted(schemas.glob("*.schema.json"))
    for path in paths:
        h.update(path.name.encode() + b"\0")
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"(unreadable)")
    return h.digest()


def key(what: str, root: Path, files: Sequence[Path]) -> str | None:
    """The entry name of ``what`` loaded from ``files`` of the suite at
    ``root``; ``None`` when a file cannot be read (loading reports it)."""
    h = hashlib.sha256(_code_fingerprint())
    h.update(f"\0{what}\0{root}\0".encode())
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        h.update(f"{path}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def get(name: str | None, decode: Callable[[Any], T]) -> T | None:
    """The value of entry ``name`` as ``decode`` makes it from the stored
    JSON; ``None`` when there is none, or it is not whole, or ``decode``
    fails on it."""
    where = folder()
    if name is None or where is None:
        return None
    try:
        raw = (where / f"{name}.json").read_bytes()
        digest, _, body = raw.partition(b"\n")
        if hashlib.sha256(body).hexdigest().encode() != digest:
            return None
        return decode(json.loads(body))
    except Exception:  # unreadable, cut short, of another shape: load afresh
        return None


def put(name: str | None, value: Any) -> None:
    """Store ``value`` (JSON-ready) as entry ``name``, atomically; nothing
    when the cache is off or cannot be written."""
    where = folder()
    if name is None or where is None:
        return
    try:
        body = json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode()
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
            os.replace(tmp, where / f"{name}.json")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _prune(where)
    except (OSError, ValueError, TypeError):  # read-only home, odd value: no cache
        pass


def _prune(where: Path) -> None:
    entries = [p for p in where.glob("*.json") if not p.name.startswith(".")]
    if len(entries) <= KEEP:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[: len(entries) - KEEP]:
        old.unlink(missing_ok=True)
