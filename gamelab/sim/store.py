"""On-disk store of finished chunks: the cache of every run and sweep.

A chunk's file is named by the hash of everything that determines its games
(game, parameters, lineup, players, deals, seed, chunk index, gamelab
version, and the code fingerprint: the source of the game's package and of
the shared modules it imports, see :func:`code_fingerprint`), so a
chunk computed once is never computed again, whichever run or sweep asks for
it, an interrupted sweep resumes by finding its finished chunks here, and a
chunk made by other rules or agents is never found.

Each chunk is ``<key>.parquet`` plus ``<key>.json``, both written to a
temporary name and renamed, the JSON last.  The JSON side file records the
chunk's identity (game, parameter hash, lineup, players, seed, spawn key,
deals, code fingerprint), its row count and the SHA-256 of the parquet bytes.
On read every one of these is checked against the chunk asked for; a chunk
whose JSON is missing is absent, and one whose side file is damaged or of the
wrong shape, whose identity differs, or whose bytes or row count do not match
is recomputed with a :class:`CacheWarning` naming the file and the reason.
It is never silently read.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import hashlib
import io
import json
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from gamelab import __version__
from gamelab.core import paths
from gamelab.core.errors import GamelabError

FORMAT = 2  # of the side file; 1 had no identity


class CacheWarning(UserWarning):
    """A cached chunk, cell or manifest that cannot be trusted and is recomputed."""


# --- the code fingerprint ---------------------------------------------------

SOURCE_ROOT = Path(__file__).resolve().parents[1]  # gamelab/: games are its sub-packages gamelab/<name>/
ALWAYS_SHARED = ("sim/runner.py", "core/params.py")  # chunk plan, seeding and row layout; parameter defaults
PRESENTATION = ("panels.py",)  # a game's notebook panels: hashed, but what they import
# (widgets, reports) decides no chunk's rows


def code_fingerprint(game: str) -> str:
    """SHA-256 of the code that decides a chunk's rows for ``game``.

    Hashed, sorted by path relative to ``gamelab/``, each as path and bytes:
    every ``.py`` file of the game's package ``gamelab/<game>/`` (the toy
    game: ``gamelab/toy.py``), :data:`ALWAYS_SHARED`, and every
    top-level ``gamelab`` module any of these import, at module level or
    inside a function, followed transitively (today for the card games:
    runner, params, metrics, errors, stats, identities, claims, executors).
    The closure is deliberately wider than the play path: a change to a
    module that does not decide rows costs a recomputation, never a stale
    table.  The numpy version is hashed too (``Generator`` streams may
    change between numpy releases).  Nothing under ``data/`` feeds a
    chunk: the claims CSVs are read by the claims audit only and the
    playtests by replay.

    Computed once per process and game, from the files as they are then
    (a notebook kernel that reloads edited rules must call
    ``code_fingerprint.cache_clear()``, or be restarted).
    """
    return _fingerprint(game, SOURCE_ROOT)


@functools.cache
def _fingerprint(game: str, root: Path) -> str:
    h = hashlib.sha256(f"numpy {np.__version__}\n".encode())
    for rel in sorted(str(p.relative_to(root)) for p in source_files(game, root)):
        raw = (root / rel).read_bytes()
        h.update(f"{rel}\0{len(raw)}\0".encode())
        h.update(raw)
    return h.hexdigest()


code_fingerprint.cache_clear = _fingerprint.cache_clear  # type: ignore[attr-defined]


def source_files(game: str, root: Path = SOURCE_ROOT) -> set[Path]:
    """The files :func:`code_fingerprint` hashes for ``game``."""
    own = root / _own_source(game)
    if own.is_dir() and (own / "__init__.py").exists():
        files = {p for p in own.rglob("*.py") if "__pycache__" not in p.parts}
    elif own.is_file():
        files = {own}
    else:
        raise GamelabError(f"cannot fingerprint the code of game {game!r}: no package {own}")
    files |= {root / name for name in ALWAYS_SHARED}
    todo = [f for f in files if f.name not in PRESENTATION]
    while todo:
        for dep in _gamelab_imports(todo.pop(), root):
            if dep not in files:
                files.add(dep)
                todo.append(dep)
    return files


def _own_source(game: str) -> Path:
    """Where the game's code lives, relative to ``gamelab/``: its package
    ``<name>/``, or the single module that defines it (the tests' toy game)."""
    import importlib

    from gamelab.core import registry

    try:
        engine = registry.get(game).engine  # a module, or a class in the game's one module
        module = importlib.import_module(str(getattr(engine, "__module__", None) or getattr(engine, "__name__", "")))
    except GamelabError as exc:
        raise GamelabError(f"cannot fingerprint the code of game {game!r}: {exc}") from None
    path = Path(module.__file__ or "").resolve()
    try:
        rel = path.relative_to(paths.PACKAGE)
    except ValueError:
        raise GamelabError(
            f"cannot fingerprint the code of game {game!r}: it lives outside gamelab/ ({path})"
        ) from None
    return Path(rel.parts[0]) if len(rel.parts) > 1 else rel


def _gamelab_imports(path: Path, root: Path) -> set[Path]:
    """Modules of ``gamelab`` (files under ``root``) that ``path`` imports
    anywhere in its source."""
    package = ["gamelab", *path.relative_to(root).parent.parts]
    names = []
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.append(module)
            names += [f"{module}.{a.name}" for a in node.names]  # from .. import runner
    found = set()
    for name in names:
        parts = name.split(".")
        if parts[0] == "gamelab" and len(parts) >= 2:
            found |= _module_file(root, parts[1:])
    return found


def _module_file(root: Path, parts: list[str]) -> set[Path]:
    """The file of module ``gamelab.<parts>`` (a module ``a/b.py`` or a
    package's ``a/b/__init__.py``); empty for a name that is no module
    (``from gamelab.sim import runner`` also names ``gamelab.sim.runner.x``)."""
    for i in range(len(parts), 0, -1):
        base = root.joinpath(*parts[:i])
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return {candidate}
    return set()


def _jsonable(x):
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {"__class__": type(x).__qualname__, **{k: _jsonable(v) for k, v in dataclasses.asdict(x).items()}}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in sorted(x.items())}
    return x


def key_of(obj) -> str:
    """Stable hash of a JSON-able description (dataclasses included)."""
    text = json.dumps(_jsonable(obj), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def chunk_key(chunk) -> str:
    return key_of({"version": __version__, "code": code_fingerprint(chunk.game), "chunk": chunk})


def chunk_identity(chunk) -> dict:
    """What a chunk's side file must say for the chunk to be this one (JSON values)."""
    return {
        "game": chunk.game,
        "params": key_of(chunk.params),
        "lineup": [str(a) for a in chunk.lineup],
        "n_players": int(chunk.n_players),
        "seed": int(chunk.seed),
        "spawn_key": [int(chunk.index)],
        "n_deals": int(chunk.n_deals),
        "code": code_fingerprint(chunk.game),
    }


def warn_untrusted(path: Path, reason: str, what: str = "chunk") -> None:
    """The one-line warning for a cached file that is not used."""
    cache_warning(f"{path}: {reason}; the {what} is recomputed")


def cache_warning(text: str) -> None:
    """A :class:`CacheWarning` shown as one line.  ``warnings.warn`` would print the source
    line that raised it under the message (``self._reject(meta, problem)``); given as from
    ``gamelab`` line 0 there is no source line to show, so the warning is the message alone
    (``gamelab:0: CacheWarning: ...``), and it is still a warning (``pytest.warns``, filters)."""
    text = " ".join(str(text).split())  # a path with a line break still prints one line
    warnings.warn_explicit(text, CacheWarning, filename="gamelab", lineno=0, module="gamelab.sim.store")


def wrong_kind(path: Path) -> str | None:
    """What stands at ``path`` when it is there but not a regular file (a folder where a
    cache file belongs, a FIFO, ...), or None (a regular file, or nothing)."""
    from gamelab.core.files import not_regular

    try:
        mode = os.stat(path).st_mode
    except OSError:  # nothing there (or a dangling link: read as absent)
        return None
    return not_regular(mode)


def set_aside(path: Path) -> Path:
    """Rename what stands at ``path`` out of the way (``<name>.set-aside``, numbered if taken):
    a cache entry of the wrong kind is kept for a look, never deleted, and never read."""
    for i in range(1000):
        target = path.with_name(f"{path.name}.set-aside" + (f"{i}" if i else ""))
        if not os.path.lexists(target):
            os.rename(path, target)
            return target
    raise OSError(f"{path}: cannot be set aside")


def entry_problem(*entries: Path) -> str | None:
    """Each of ``entries`` that is there but is not a regular file is set aside; the reason, in
    words, naming what it was and where it went (None: every entry is a file, or absent)."""
    problems = []
    for path in entries:
        kind = wrong_kind(path)
        if kind is None:
            continue
        try:
            problems.append(f"{path.name} is {kind} where a file belongs (set aside as {set_aside(path).name})")
        except OSError as exc:
            problems.append(f"{path.name} is {kind} where a file belongs and cannot be set aside ({exc})")
    return "; ".join(problems) or None


def side_file_problem(info, identity: dict, rows: int) -> str | None:
    """Why a side file does not describe the chunk with ``identity`` and
    ``rows`` rows, or None when it does."""
    if not isinstance(info, dict):
        return f"the side file holds a {type(info).__name__}, not a mapping"
    if info.get("format") != FORMAT:
        return f"side file format {info.get('format')!r}, expected {FORMAT}"
    stored = info.get("identity")
    if not isinstance(stored, dict):
        return "the side file has no identity"
    for name, want in identity.items():
        if stored.get(name) != want:
            return f"it is another chunk: {name} {stored.get(name)!r}, expected {want!r}"
    if info.get("rows") != rows:
        return f"rows {info.get('rows')!r}, expected {rows}"
    if not isinstance(info.get("sha256"), str):
        return "the side file has no checksum"
    return None


def read_checked_parquet(path: Path, sha256: str, rows: int) -> tuple[pd.DataFrame | None, str | None]:
    """A parquet file's table if its bytes hash to ``sha256`` and it has
    ``rows`` rows; else (None, the reason)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, f"cannot read {path.name} ({exc.strerror or exc})"
    if hashlib.sha256(raw).hexdigest() != sha256:
        return None, f"{path.name} does not match its checksum"
    try:
        df = pd.read_parquet(io.BytesIO(raw))
    except Exception as exc:  # a checksum-matching file pyarrow cannot read: say why, recompute
        return None, f"{path.name} is not a readable parquet file ({type(exc).__name__})"
    if len(df) != rows:
        return None, f"{path.name} has {len(df)} rows, expected {rows}"
    return df, None


class ChunkStore:
    on_disk = True  # a worker process on this machine can write into it (a memory store cannot)

    def __init__(self, directory: str | Path | None = None):
        self.dir = Path(directory) if directory is not None else paths.cache_dir()
        self.computed = 0  # chunks written by this store object
        self.loaded = 0
        self.rejected = 0

    def _paths(self, key):
        sub = self.dir / key[:2]
        return sub / f"{key}.parquet", sub / f"{key}.json"

    def check_writable(self) -> None:
        """Raise a :class:`GamelabError` naming the directory unless chunks
        can be written there (call it before any game is played)."""
        with writing(self.dir, "the cache directory"):
            self.dir.mkdir(parents=True, exist_ok=True)
            probe = self.dir / f".probe{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()

    def get(self, chunk) -> pd.DataFrame | None:
        """The chunk's table from the store, or None (absent, or not to be trusted)."""
        data, meta = self._paths(chunk_key(chunk))
        if not os.path.lexists(meta):
            return None
        rows = chunk.n_games * chunk.n_players
        df = None
        reason = entry_problem(meta, data)  # a folder where a file belongs: set aside, recomputed
        if reason is None:
            try:
                info = json.loads(meta.read_bytes())
            except (OSError, ValueError) as exc:  # unreadable, not UTF-8, not JSON
                reason = f"unreadable side file ({type(exc).__name__})"
            else:
                reason = side_file_problem(info, chunk_identity(chunk), rows)
                if reason is None:
                    df, reason = read_checked_parquet(data, info["sha256"], rows)
        if reason is not None:
            self.rejected += 1
            warn_untrusted(meta, reason)
            return None
        self.loaded += 1
        return df

    def put(self, chunk, df: pd.DataFrame) -> None:
        self.write(chunk, df)
        self.computed += 1

    def write(self, chunk, df: pd.DataFrame) -> None:
        """:meth:`put` without counting it (a worker writes, its caller counts)."""
        data, meta = self._paths(chunk_key(chunk))
        buf = io.BytesIO()
        df.to_parquet(buf, index=False)
        raw = buf.getvalue()
        side = {
            "format": FORMAT,
            "identity": chunk_identity(chunk),
            "rows": len(df),
            "sha256": hashlib.sha256(raw).hexdigest(),
        }
        with writing(self.dir, "the cache directory"):
            data.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(data, raw)
            atomic_write(meta, json.dumps(side).encode())

    # --- a chunk's reduction: small arrays computed from its table (the meta-game keeps per-deal sums only)

    def _array_paths(self, chunk, tag: str):
        key = key_of({"chunk": chunk_key(chunk), "reduced": tag})
        sub = self.dir / key[:2]
        return sub / f"{key}.npz", sub / f"{key}.json"

    def get_arrays(self, chunk, tag: str) -> dict[str, np.ndarray] | None:
        """The arrays :meth:`put_arrays` kept for ``chunk`` under ``tag``, or None (absent, or not to be trusted)."""
        data, meta = self._array_paths(chunk, tag)
        if not os.path.lexists(meta):
            return None
        wrong = entry_problem(meta, data)  # a folder where a file belongs: set aside, recomputed
        if wrong is not None:
            self._reject(meta, wrong)
            return None
        try:
            info = json.loads(meta.read_bytes())
            raw = data.read_bytes()
        except (OSError, ValueError) as exc:
            self._reject(meta, f"unreadable ({type(exc).__name__})")
            return None
        identity = {**chunk_identity(chunk), "reduced": tag}
        problem = side_file_problem(info, identity, 0)
        if problem is None and hashlib.sha256(raw).hexdigest() != info["sha256"]:
            problem = f"{data.name} does not match its checksum"
        if problem is not None:
            self._reject(meta, problem)
            return None
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            arrays = {name: z[name] for name in z.files}
        self.loaded += 1
        return arrays

    def _reject(self, meta: Path, reason: str) -> None:
        self.rejected += 1
        warn_untrusted(meta, reason)
        return None

    def put_arrays(self, chunk, tag: str, arrays: dict[str, np.ndarray]) -> None:
        self.write_arrays(chunk, tag, arrays)
        self.computed += 1

    def write_arrays(self, chunk, tag: str, arrays: dict[str, np.ndarray]) -> None:
        """:meth:`put_arrays` without counting it (a worker writes, its caller counts)."""
        data, meta = self._array_paths(chunk, tag)
        buf = io.BytesIO()
        np.savez_compressed(buf, allow_pickle=False, **arrays)
        raw = buf.getvalue()
        side = {
            "format": FORMAT,
            "identity": {**chunk_identity(chunk), "reduced": tag},
            "rows": 0,
            "sha256": hashlib.sha256(raw).hexdigest(),
        }
        with writing(self.dir, "the cache directory"):
            data.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(data, raw)
            atomic_write(meta, json.dumps(side).encode())


class MemoryStore:
    """A chunk store in memory (benchmarks, tests): ``get`` / ``put`` by chunk
    (``get_arrays`` / ``put_arrays``: a chunk's reduction), as :class:`ChunkStore`."""

    def __init__(self):
        self.chunks: dict = {}
        self.computed = self.loaded = 0

    def get(self, chunk):
        df = self.chunks.get(chunk)
        self.loaded += df is not None
        return df

    def put(self, chunk, df) -> None:
        self.chunks[chunk] = df
        self.computed += 1

    def get_arrays(self, chunk, tag: str):
        got = self.chunks.get((chunk, tag))
        self.loaded += got is not None
        return got

    def put_arrays(self, chunk, tag: str, arrays) -> None:
        self.chunks[(chunk, tag)] = arrays
        self.computed += 1


@contextlib.contextmanager
def writing(directory: Path, what: str):
    """Turn a failed write under ``directory`` into one GamelabError naming it."""
    try:
        yield
    except OSError as exc:
        raise GamelabError(
            f"{what} {directory} is not writable: {exc.strerror or exc}"
            + (f" ({exc.filename})" if exc.filename and str(exc.filename) != str(directory) else "")
        ) from None


def atomic_write(path: Path, raw: bytes) -> None:
    """Write ``raw`` to a temporary name beside ``path``, then rename it over
    ``path``: a reader sees the old file or the new one, never part of one."""
    kind = wrong_kind(path)
    if kind is not None:  # a folder where the file belongs would refuse every later write: set it aside
        cache_warning(f"{path}: {kind} where a file belongs; set aside as {set_aside(path).name}")
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:  # a full disk, Ctrl-C: leave no temporary behind
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
