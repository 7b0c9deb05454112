"""A report whose every input is unchanged is not computed again.

A report is a pure function of its inputs: the code (every file of the
``gamelab`` package), the project's data (``data/``: claims, calibration
and profile files, playtest records; not the caches), the game's rulebook
text, the library versions, and the options it was asked for (parameters,
games, seed, sections, playtest and goal files, by content).  The chunk
store already keeps every simulation; this keeps the finished page, keyed
by a hash of all of these, so a second ``make report`` with nothing
changed copies the page instead of re-reading chunks, re-running the
bootstraps and re-drawing the figures.  The page says when it was built.
Any edit of any input (a rule, a docstring, a claims row, an option) is a
new key; ``gamelab report --fresh`` ignores the memo.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from gamelab.core import paths
from gamelab.core.contract import Game
from gamelab.sim.store import atomic_write, key_of

LIBRARIES = ("numpy", "pandas", "scipy", "matplotlib", "numba", "pyarrow")
SKIPPED_DATA = ("cache", "runs")  # data/ folders of results, not inputs
SUBDIR = "reports"  # under the chunk store's directory


def _files(root: Path, skip: Iterable[str] = ()) -> list[Path]:
    if not root.is_dir():
        return []
    skipped = set(skip)
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not skipped & set(p.relative_to(root).parts[:1])
    )


def _versions() -> dict:
    out: dict[str, str | None] = {"python": sys.version.split()[0]}
    for name in LIBRARIES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def inputs_key(game: Game, options: dict, files: Iterable[str | Path] = ()) -> str:
    """The hash of everything a report of ``game`` depends on: ``options``
    (JSON-able, dataclasses included) and the contents of ``files`` (the
    option files it reads), besides the code, the data and the rulebook."""
    from gamelab.rulebook.coverage import rulebooks, seed_path

    h = hashlib.sha256(json.dumps(_versions(), sort_keys=True).encode())
    checkout = paths.PACKAGE.parent
    sources = _files(paths.PACKAGE) + _files(checkout / "data", SKIPPED_DATA)
    extra = [Path(f) for f in files] + _outside_code(game)
    if game.name in rulebooks() and seed_path(game.name).is_file():
        extra.append(seed_path(game.name))
    for path in sources + extra:
        raw = path.read_bytes() if path.is_file() else b"<missing>"
        name = str(path.relative_to(checkout)) if path.is_relative_to(checkout) else str(path.resolve())
        h.update(f"{name}\0{len(raw)}\0".encode())
        h.update(raw)
    h.update(key_of({"game": game.name, "options": options}).encode())
    return h.hexdigest()[:32]


def _outside_code(game: Game) -> list[Path]:
    """The source of a game registered from outside the package (``GAMELAB_GAMES``):
    its module, or every module of its package."""
    import importlib

    module = importlib.import_module(game.play.__module__)
    path = Path(module.__file__ or "").resolve()
    if not path.is_file() or path.is_relative_to(paths.PACKAGE):
        return []
    root = importlib.import_module(module.__name__.split(".")[0])
    top = Path(root.__file__ or path).resolve()
    return _files(top.parent) if top.name == "__init__.py" else [path]


def _path(directory: Path, key: str) -> Path:
    return directory / SUBDIR / f"{key}.html"


def lookup(directory: Path, key: str) -> str | None:
    """The page kept for ``key`` under the store's ``directory``, or None."""
    path = _path(directory, key)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def keep(directory: Path, key: str, html: str) -> None:
    """Keep the page for ``key`` (atomically: a reader never sees half a page).
    A cache that cannot be written only costs the next run its time."""
    path = _path(directory, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, html.encode("utf-8"))
    except OSError:
        pass
