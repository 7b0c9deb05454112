"""Learned models cached like every other result: keyed by the code and the rules.

A model an agent learns by playing (a policy distilled from a search rung's games) takes tens
of seconds to train and is a pure function of the code, the rules and a fixed seed.  It is
kept as ``data/cache/learned/<kind>-<key>.npz``, the key a SHA-256 of its identity (the
rules, what it was trained on, the seed), the numpy version and every ``.py`` file of the
packages given (the game's own folder and ``core``), so a changed rule or a changed line of
the game's code trains it again; the workers of a run find the file the first one wrote.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from .paths import PACKAGE, cache_dir


def code_hash(packages: Iterable[Path]) -> str:
    """SHA-256 of every ``.py`` file under ``packages`` (sorted by path) and the numpy version."""
    h = hashlib.sha256(f"numpy {np.__version__}\n".encode())
    files = sorted({f for p in packages for f in Path(p).rglob("*.py")})
    for f in files:
        raw = f.read_bytes()
        h.update(f"{f.relative_to(PACKAGE)}\0{len(raw)}\0".encode())
        h.update(raw)
    return h.hexdigest()


def key_of(kind: str, identity: dict, packages: Iterable[Path]) -> str:
    """The cache key of a model: its kind, identity and the code that trains and plays it."""
    text = json.dumps({"kind": kind, "identity": identity, "code": code_hash(packages)}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cached(
    kind: str,
    identity: dict,
    packages: Iterable[Path],
    build: Callable[[], dict[str, np.ndarray]],
    *,
    say: str,
    directory: Path | None = None,
) -> dict[str, np.ndarray]:
    """The arrays of the model ``kind`` of ``identity``: read from the cache, else built by
    ``build()`` (announced on stderr with ``say``: training takes a while) and stored."""
    folder = (directory or cache_dir()) / "learned"
    path = folder / f"{kind}-{key_of(kind, identity, [PACKAGE / 'core', *packages])}.npz"
    if path.exists():
        try:
            with np.load(path) as z:
                return {k: z[k] for k in z.files}
        except (OSError, ValueError):  # a damaged file: trained again below
            pass
    print(say, file=sys.stderr, flush=True)
    arrays = build()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    with open(tmp, "wb") as out:
        np.savez(out, **arrays)  # type: ignore[arg-type]  # numpy's stub reads the first keyword as allow_pickle
    os.replace(tmp, path)
    return arrays
