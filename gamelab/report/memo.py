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
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from gamelab.core import paths
from gamelab.core.contract import Game
from gamelab.sim.store import atomic_write, entry_problem, key_of, warn_untrusted

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

    module = importlib.import_module((game.play or game.controller).__module__)  # a function of the game's own
    path = Path(module.__file__ or "").resolve()
    if not path.is_file() or path.is_relative_to(paths.PACKAGE):
        return []
    root = importlib.import_module(module.__name__.split(".")[0])
    top = Path(root.__file__ or path).resolve()
    return _files(top.parent) if top.name == "__init__.py" else [path]


FORMAT = 1  # of a page's side file


def _path(directory: Path, key: str) -> Path:
    return directory / SUBDIR / f"{key}.html"


def _side(directory: Path, key: str) -> Path:
    return directory / SUBDIR / f"{key}.json"


def lookup(directory: Path, key: str) -> str | None:
    """The page kept for ``key`` under the store's ``directory``, or None: absent, or not to be
    trusted.  A page is served only when its side file (``<key>.json``, written last, as a
    chunk's) names this key and the page's bytes match its length and SHA-256: a page cut short,
    overwritten, emptied or with one byte changed is rebuilt, with one warning line naming the
    file and the reason; a folder (anything not a file) where the page or its side file belongs
    is set aside (``<name>.set-aside``) and the page rebuilt."""
    page, side = _path(directory, key), _side(directory, key)
    if not os.path.lexists(page) and not os.path.lexists(side):
        return None
    problem = entry_problem(page, side) or _page_problem(page, side, key)
    if problem is not None:
        warn_untrusted(page, problem, "report page")
        return None
    return page.read_bytes().decode("utf-8")


def _page_problem(page: Path, side: Path, key: str) -> str | None:
    """Why the page at ``page`` is not the one its side file describes (None: it is)."""
    if not page.is_file():
        return "the page is missing beside its side file"
    if not side.is_file():
        return "no side file with its checksum (a page from before checksums, or one cut off while written)"
    try:
        info = json.loads(side.read_bytes())
        raw = page.read_bytes()
    except (OSError, ValueError) as exc:
        return f"unreadable ({type(exc).__name__})"
    if not isinstance(info, dict) or info.get("format") != FORMAT or info.get("key") != key:
        return f"{side.name} does not describe this page"
    if info.get("bytes") != len(raw):
        return f"{len(raw):,} bytes, expected {info.get('bytes')!r}"
    if hashlib.sha256(raw).hexdigest() != info.get("sha256"):
        return "the page does not match its checksum"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8 text"
    return None


def keep(directory: Path, key: str, html: str) -> None:
    """Keep the page for ``key`` (atomically: a reader never sees half a page), then its side
    file with the page's length and SHA-256 (last: a page without one is never served).  A
    cache that cannot be written only costs the next run its time."""
    page, side = _path(directory, key), _side(directory, key)
    raw = html.encode("utf-8")
    info = {"format": FORMAT, "key": key, "bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
    try:
        page.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(page, raw)
        atomic_write(side, json.dumps(info).encode())
    except OSError:
        pass
