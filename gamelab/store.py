"""On-disk store of finished chunks: the cache of every run and sweep.

A chunk's file is named by the hash of everything that determines its games
(game, parameters, lineup, players, deals, seed, chunk index, gamelab
version), so a chunk computed once is never computed again, whichever run or
sweep asks for it, and an interrupted sweep resumes by finding its finished
chunks here.

Each chunk is ``<key>.parquet`` plus ``<key>.json`` (rows and SHA-256 of the
parquet bytes), both written to a temporary name and renamed, the JSON last.
A chunk whose JSON is missing, or whose bytes or row count do not match it, is
treated as absent and recomputed; it is never silently read.
"""
from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
from pathlib import Path

import pandas as pd

from . import __version__

DEFAULT_DIR = Path("data") / "cache"


def _jsonable(x):
    if dataclasses.is_dataclass(x):
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
    return key_of({"version": __version__, "chunk": chunk})


class ChunkStore:
    def __init__(self, directory: str | Path | None = None):
        self.dir = Path(directory) if directory is not None else DEFAULT_DIR
        self.computed = 0  # chunks written by this store object
        self.loaded = 0
        self.rejected = 0

    def _paths(self, key):
        sub = self.dir / key[:2]
        return sub / f"{key}.parquet", sub / f"{key}.json"

    def get(self, chunk) -> pd.DataFrame | None:
        data, meta = self._paths(chunk_key(chunk))
        if not meta.exists():
            return None
        try:
            info = json.loads(meta.read_text())
            raw = data.read_bytes()
            if hashlib.sha256(raw).hexdigest() != info["sha256"]:
                raise ValueError("checksum")
            df = pd.read_parquet(io.BytesIO(raw))
            if len(df) != info["rows"]:
                raise ValueError("rows")
        except Exception:
            self.rejected += 1
            return None
        self.loaded += 1
        return df

    def put(self, chunk, df: pd.DataFrame) -> None:
        data, meta = self._paths(chunk_key(chunk))
        data.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        df.to_parquet(buf, index=False)
        raw = buf.getvalue()
        _atomic_write(data, raw)
        _atomic_write(meta, json.dumps({"rows": len(df), "sha256": hashlib.sha256(raw).hexdigest(),
                                        "index": chunk.index, "seed": chunk.seed}).encode())
        self.computed += 1


def _atomic_write(path: Path, raw: bytes) -> None:
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(raw)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
