"""Learned models cached like every other result: keyed by the code and the rules.

A model an agent learns by playing (a policy distilled from a search rung's games) takes tens
of seconds to train and is a pure function of the code, the rules and a fixed seed.  It is
kept as ``data/cache/learned/<kind>-<key>.npz``, the key a SHA-256 of its identity (the
rules, what it was trained on, the seed), the numpy version and every ``.py`` file of the
packages given (the game's own folder and ``core``), so a changed rule or a changed line of
the game's code trains it again; the workers of a run find the file the first one wrote.

:class:`SelfPlay` is how a game learns such a model from its own games: the game declares
what it plays and what it keeps of the games (a recorder and its arrays), and this module
splits the seeds, plays the batches through the game's play, merges the counts and caches
the arrays.  It sits here, below the games, and not in ``models/`` (above them): a game's
controller needs the model while it plays (a learned seat, a level-k search's play-outs), and
a game imports nothing above it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .driver import split_streams
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


class Record(Protocol):
    """The counts of the decisions of a batch of games (a game's recorder)."""

    def merge(self, other: Any) -> Any: ...


@dataclasses.dataclass(frozen=True, kw_only=True)
class SelfPlay:
    """A model a game learns from ``n_games`` games of one rung on every seat (self-play).

    The game declares ``record(params, seating, n_games, n_players, streams) -> Record``: one
    batch of its own play (the shared driver and its controller) with every decision counted,
    and ``arrays(record)``: the model's arrays from the counts.  The games are played ``batch``
    at a time, batch i from the i-th child of ``SeedSequence(seed)`` split into the game's
    ``streams`` as the runner splits a chunk's seed (``driver.split_streams``); ``kind`` names
    the cache file, ``packages`` the game's code in its key (:func:`cached`)."""

    kind: str
    record: Callable[[Any, Sequence[str], int, int, Mapping[str, np.random.Generator]], Record]
    arrays: Callable[[Any], dict[str, np.ndarray]]
    streams: tuple[str, ...]
    seed: int
    batch: int
    packages: tuple[Path, ...]

    def self_play(self, params, rung: str, n_players: int, n_games: int) -> Any:
        """The merged counts of ``n_games`` games of ``rung`` on every seat."""
        seating = (rung,) * n_players
        merged = None
        for i, seed in enumerate(np.random.SeedSequence(self.seed).spawn(-(-n_games // self.batch))):
            n = min(self.batch, n_games - i * self.batch)
            part = self.record(params, seating, n, n_players, split_streams(seed, self.streams))
            merged = part if merged is None else merged.merge(part)
        return merged

    def learned(self, params, rung: str, n_players: int, n_games: int, *, purpose: str) -> dict[str, np.ndarray]:
        """The model's arrays, learned from :meth:`self_play` once for these rules (``params``,
        with ``as_dict``) and this code, then read from the cache; ``purpose`` names it in the
        progress line."""
        identity = {"params": params.as_dict(), "rung": rung, "players": n_players, "games": n_games}
        return cached(
            self.kind,
            {**identity, "seed": self.seed},
            self.packages,
            lambda: self.arrays(self.self_play(params, rung, n_players, n_games)),
            say=f"learning how {rung} players play, for {purpose}: {n_games:,} games of {rung} "
            f"on every seat at {n_players} players (once for these rules and this code)",
        )
