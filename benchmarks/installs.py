"""Side installations the benchmarks measure: wheels in virtual environments
under ``.benchmarks/`` (``--cache-dir``).

* :func:`baseline_install`: a wheel of a previous commit (``git archive`` of
  the commit, ``pip wheel``), e.g. issue 16's previous main or issue 14's
  ``3e79094``;
* :func:`checkout_install`: a wheel of this checkout as it is on disk
  (committed or not), with d20 beside it when this environment has d20, so
  one-off commands are timed from a normal install (an editable install adds
  its import hooks to every start-up).

Each environment gets its dependencies at the versions this environment has
(a constraints file from ``pip freeze``; only pip needs the package
registries) and is reused while those versions, and for the checkout its
sources, stay the same.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUIET = ["-q", "--disable-pip-version-check"]
#: Folders of the checkout a wheel never needs (left out of its copy and key).
NOT_IN_WHEEL = ("tests/", "benchmarks/", ".ci/")


@dataclass
class Install:
    """One linguo installation to measure: its interpreter (its ``linguo``
    console script is beside it) and a label."""

    label: str
    python: str


def repo_root() -> Path:
    """The git checkout this script belongs to."""
    out = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def pins() -> str:
    """This environment's packages as ``name==version`` lines (linguo left
    out): the constraints of every side environment."""
    freeze = subprocess.run([sys.executable, "-m", "pip", "freeze", *QUIET, "--exclude", "linguo"],
                            capture_output=True, text=True, check=True).stdout
    return "".join(line + "\n" for line in freeze.splitlines()
                   if "==" in line and not line.startswith("-"))


def pinned(name: str, constraints: str) -> bool:
    """Whether ``constraints`` (from :func:`pins`) holds package ``name``."""
    want = name.lower().replace("_", "-")
    return any(line.split("==")[0].lower().replace("_", "-") == want
               for line in constraints.splitlines())


def _run(cmd: list[str]) -> None:
    """Run a build step quietly (pip's warnings about its configured indexes
    are noise here). Raises :class:`RuntimeError` with the end of its output
    when it fails."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(cmd[:4])} ... exited {proc.returncode}: "
                           + " | ".join(tail))


def _ready(home: Path, wanted: str, key: str) -> bool:
    python, marker, constraints = home / "venv" / "bin" / "python", home / "installed", \
        home / "constraints.txt"
    return (marker.exists() and python.exists() and constraints.exists()
            and constraints.read_text(encoding="utf-8") == wanted
            and marker.read_text(encoding="utf-8").strip() == key)


def _build(home: Path, src: Path, wanted: str, key: str, extra: list[str],
           extras: str = "") -> None:
    """``pip wheel`` of ``src``, a venv in ``home/venv`` with the wheel (with
    its ``extras``) and the requirements ``extra`` installed under the
    constraints ``wanted``; marked ready with ``key`` last."""
    wheels = home / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", *QUIET, "--no-deps", "-w", str(wheels), str(src)])
    _run([sys.executable, "-m", "venv", str(home / "venv")])
    wheel = f"{next(wheels.glob('*.whl'))}" + (f"[{extras}]" if extras else "")
    constraints = home / "constraints.txt"
    constraints.write_text(wanted, encoding="utf-8")
    python = home / "venv" / "bin" / "python"
    _run([str(python), "-m", "pip", "install", *QUIET, "-c", str(constraints), wheel, *extra])
    (home / "installed").write_text(f"{key}\n", encoding="utf-8")


def baseline_install(rev: str, cache: Path) -> Install:
    """A virtual environment holding a wheel of commit ``rev``, built once
    under ``cache`` (``git archive`` of the commit -> ``pip wheel`` -> a venv
    with the wheel installed, its dependencies at the versions this
    environment has, from the package registries) and reused while those
    versions stay the same.

    Raises :class:`subprocess.CalledProcessError` for an unknown ``rev``,
    :class:`RuntimeError` for a failed build.
    """
    root = repo_root()
    sha = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         capture_output=True, text=True, check=True).stdout.strip()
    home = cache.resolve() / f"baseline-{sha[:12]}"
    label = f"{rev} ({sha[:9]})"
    wanted = pins()
    if _ready(home, wanted, sha):
        return Install(label, str(home / "venv" / "bin" / "python"))
    if home.exists():
        shutil.rmtree(home)
    src = home / "src"
    src.mkdir(parents=True)
    print(f"building a wheel of {rev} ({sha[:9]}) into {home} ...", flush=True)
    archive = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", sha],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(src, filter="data")
    _build(home, src, wanted, sha, [])
    return Install(label, str(home / "venv" / "bin" / "python"))


def checkout_files(root: Path) -> list[str]:
    """The checkout's files as git sees them (tracked and untracked, ignored
    ones left out, deleted ones too), without :data:`NOT_IN_WHEEL`."""
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "-co", "--exclude-standard"],
                         capture_output=True, check=True).stdout.decode()
    return sorted({p for p in out.split("\0") if p and not p.startswith(NOT_IN_WHEEL)
                   and os.path.lexists(root / p)})


def checkout_key(root: Path, files: list[str]) -> str:
    """A hash of ``files`` (paths, contents, link targets): a new wheel when
    any of them changes."""
    digest = hashlib.sha256()
    for rel in files:
        path = root / rel
        digest.update(rel.encode() + b"\0")
        if path.is_symlink():
            digest.update(b"link:" + os.readlink(path).encode())
        else:
            digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def checkout_install(cache: Path, extras: str = "") -> Install:
    """A virtual environment holding a wheel of this checkout as it is on
    disk (``extras``, e.g. ``"fast"``, installed with it), plus d20 when this
    environment has it (the one-off figure's peer, from the same kind of
    install). Built under ``cache``; an older build of the checkout is
    removed.

    Raises :class:`RuntimeError` for a failed build.
    """
    root = repo_root()
    files = checkout_files(root)
    wanted = pins()
    key = checkout_key(root, files) + (f"[{extras}]" if extras else "")
    home = cache.resolve() / f"checkout-{hashlib.sha256(key.encode()).hexdigest()[:12]}"
    label = "this checkout (wheel)"
    if _ready(home, wanted, key):
        return Install(label, str(home / "venv" / "bin" / "python"))
    for old in cache.resolve().glob("checkout-*"):
        shutil.rmtree(old)
    src = home / "src"
    src.mkdir(parents=True)
    print(f"building a wheel of this checkout into {home} ...", flush=True)
    for rel in files:
        target = src / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if (root / rel).is_symlink():
            os.symlink(os.readlink(root / rel), target)
        else:
            shutil.copy2(root / rel, target)
    extra = ["d20"] if pinned("d20", wanted) else []
    _build(home, src, wanted, key, extra, extras)
    return Install(label, str(home / "venv" / "bin" / "python"))
