"""Monte Carlo runner: many seeded games of one game, as a tidy DataFrame.

Work is cut into chunks (:class:`Chunk`) of ``chunk_deals`` deals.  Chunk ``i`` of a
run with seed ``s`` draws every random number from
``SeedSequence(s, spawn_key=(i,))``: chunk sizes never depend on the number of
workers, and a run can be extended by more chunks later (precision-driven
sweeps), so the same seed gives the same table however the work is spread.

Each deal is played once per seat rotation of the lineup, so every agent sits
in every seat on the same deals and comparisons between agents and seats are
paired (a lineup of one agent on every seat is played once per deal); two
lineups or two parameter sets run with the same seed are played on the same
deals too (common random numbers).

A game plugs in through its :class:`~gamelab.core.contract.Game` (``GAME.play``),
which the caller passes in; the runner owns the seed split: each chunk's seed
gives the game the named streams it declares (``GAME.streams``).  A
:class:`Chunk` carries only the game's name: it is pickled to worker processes
and keyed by name in the chunk store, so :func:`played` finds the game in
:mod:`gamelab.core.registry` where the chunk is played (the one place the
runner reads the registry).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamelab.core import registry
from gamelab.core.contract import Game
from gamelab.core.driver import split_streams
from gamelab.core.errors import GamelabError, short
from gamelab.core.limits import MAX_GAMES
from gamelab.sim.play import play_batch

DEFAULT_CHUNK_DEALS = 1024


@dataclasses.dataclass(frozen=True)
class Chunk:
    """One unit of work: ``n_deals`` deals x every seat rotation.  ``game`` is
    the game's name (the chunk is pickled and keyed by it; the store's keys
    and the chunks already stored depend on it)."""

    game: str
    params: Any
    lineup: tuple
    n_players: int
    n_deals: int
    seed: int
    index: int

    def seed_seq(self) -> np.random.SeedSequence:
        return np.random.SeedSequence(self.seed, spawn_key=(self.index,))

    @property
    def rotations(self) -> int:
        """Seatings each deal is played under: every rotation of the lineup,
        or one when every seat holds the same agent (rotating would replay
        the same game, and count it P times)."""
        return 1 if len(set(self.lineup)) == 1 else self.n_players

    @property
    def n_games(self) -> int:
        return self.n_deals * self.rotations


def resolve(game: Game, params=None, lineup=None, n_players=None):
    """Fill in defaults and check a run's setting; errors name the bad value."""
    if not isinstance(game, Game):  # a name: the caller finds the game (registry.get) and passes it
        raise GamelabError(f"a run takes the game itself (gamelab.registry.get(name)), not {short(game)}")
    params = game.knobs() if params is None else params
    if n_players is not None and (isinstance(n_players, bool) or not isinstance(n_players, (int, np.integer))):
        raise GamelabError(f"the number of players is a whole number, not {short(n_players)}")
    if lineup is None:
        if n_players is None:
            raise GamelabError("give the number of players (--players N) or a lineup (--lineup AGENT ...)")
        lineup = game.default_lineup(int(n_players))
    if isinstance(lineup, str) or not isinstance(lineup, Sequence) or not all(isinstance(a, str) for a in lineup):
        raise GamelabError(f"a lineup is a list of agent names, one per seat, not {short(lineup)}")
    lineup = tuple(lineup)
    if n_players is None:
        n_players = len(lineup)
    if isinstance(n_players, bool) or not isinstance(n_players, (int, np.integer)):
        raise GamelabError(f"the number of players is a whole number, not {short(n_players)}")
    n_players = int(n_players)
    lo, hi = game.players
    if not lo <= n_players <= hi:
        raise GamelabError(f"n_players = {n_players} is out of range: {game.name} is for {lo}-{hi} players")
    if len(lineup) != n_players:
        raise GamelabError(f"the lineup has {len(lineup)} agents for {n_players} players")
    unknown = [a for a in lineup if game.agents and a not in game.playable]
    if unknown:
        raise GamelabError(f"unknown agent {unknown[0]!r}: expected one of {', '.join(game.agents)}")
    return params, lineup, n_players


def plan(
    game: Game,
    *,
    n_games: int,
    seed: int,
    params=None,
    lineup=None,
    n_players=None,
    chunk_deals: int | None = None,
    first_chunk: int = 0,
) -> list[Chunk]:
    """The chunks of a run of about ``n_games`` games (whole deals x rotations);
    ``chunk_deals`` defaults to the game's own (part of what a seed means)."""
    params, lineup, n_players = resolve(game, params, lineup, n_players)
    for name, value, low in (
        ("the number of games", n_games, 1),
        ("the seed", seed, 0),
        ("chunk_deals", 1 if chunk_deals is None else chunk_deals, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise GamelabError(f"{name} must be a whole number of at least {low}, not {short(value)}")
    if n_games > MAX_GAMES:  # the largest run (core.limits): refused before any chunk is planned
        raise GamelabError(f"the number of games = {n_games:,} is above the maximum of {MAX_GAMES:,}")
    chunk_deals = int(chunk_deals or game.chunk_deals)
    rotations = 1 if len(set(lineup)) == 1 else n_players
    n_deals = max(1, math.ceil(n_games / rotations))
    sizes = [min(chunk_deals, n_deals - i) for i in range(0, n_deals, chunk_deals)]
    return [
        Chunk(game.name, params, lineup, n_players, size, int(seed), first_chunk + i) for i, size in enumerate(sizes)
    ]


def play_seated(game: Game, params, seating, n_deals: int, n_players: int, seed_seq) -> dict:
    """The columns of ``n_deals`` deals under one seating: the game's ``play`` (or the shared
    one, :func:`gamelab.sim.play.play_batch`) given the random streams it declares
    (``Game.streams``), split from ``seed_seq``."""
    streams = split_streams(seed_seq, game.streams)
    if game.play is None:
        return play_batch(game, params, seating, n_deals, n_players, streams)
    return game.play(params, seating, n_deals, n_players, streams)


def played(chunk: Chunk):
    """Play one chunk: ``(rotation, seating, out)`` for each seat rotation, ``out`` the arrays
    the game's ``play`` returned for the chunk's deals under that seating (the same deals
    every rotation: each rotation draws from the same streams of the chunk's seed).  The game is
    found by the chunk's name: a chunk may have come from another process."""
    ad = registry.get(chunk.game)
    P = chunk.n_players
    for rot in range(chunk.rotations):
        seating = [chunk.lineup[(s + rot) % P] for s in range(P)]
        yield rot, seating, play_seated(ad, chunk.params, seating, chunk.n_deals, P, chunk.seed_seq())


def run_chunk(chunk: Chunk) -> pd.DataFrame:
    """Play one chunk; one row per player per game."""
    return pd.concat([_tidy(out, seating, chunk, rot) for rot, seating, out in played(chunk)], ignore_index=True)


def run_and_write(store, chunk: Chunk) -> pd.DataFrame:
    """Play one chunk and write it into ``store`` where it is played (a worker that shares the caller's disk)."""
    df = run_chunk(chunk)
    store.write(chunk, df)
    return df


def chunk_job(executor, store):
    """``(fn, writes)``: the function ``executor`` runs on each chunk, and whether it writes the
    chunk into ``store`` itself.  Workers that share this disk write their own chunks (else the
    caller writes every chunk in turn while the workers wait); a cluster's workers hand them back."""
    if getattr(store, "on_disk", False) and getattr(executor, "shares_disk", False):
        return functools.partial(run_and_write, store), True
    return run_chunk, False


def _tidy(out: dict, seating, chunk: Chunk, rot: int) -> pd.DataFrame:
    G, P = chunk.n_deals, chunk.n_players
    deal = np.arange(G, dtype=np.int64) + chunk.index * 10**7
    cols: dict[str, Any] = {
        "game": np.repeat((deal * P + rot), P),
        "deal": np.repeat(deal, P),
        "rotation": np.full(G * P, rot, dtype=np.int16),
        "seat": np.tile(np.arange(1, P + 1, dtype=np.int16), G),
        "agent": np.tile(np.asarray(seating, dtype=object), G),
    }
    for key, arr in out.items():
        arr = np.asarray(arr)
        if arr.shape == (G, P):
            cols[key] = arr.reshape(-1)
        elif arr.shape == (G,):
            cols[key] = np.repeat(arr, P)
        else:
            raise ValueError(f"play() returned {key!r} with shape {arr.shape}, expected ({G}, {P}) or ({G},)")
    return pd.DataFrame(cols)


def simulate(
    game: Game,
    *,
    n_games: int,
    seed: int,
    params=None,
    lineup: Sequence[str] | None = None,
    n_players: int | None = None,
    workers: int = 1,
    executor=None,
    chunk_deals: int | None = None,
    progress: bool | None = None,
    store=None,
) -> pd.DataFrame:
    """Play about ``n_games`` games; one row per player per game.

    Columns: ``game`` (id), ``deal``, ``rotation``, ``seat`` (1-based),
    ``agent`` and every array the game's ``play`` returned.  ``workers`` > 1
    uses local processes, ``executor`` any :mod:`gamelab.sim.executors` executor
    (e.g. a Dask cluster); the table is identical either way.  With a
    ``store`` (:class:`gamelab.sim.store.ChunkStore`) each chunk is read from
    it when there and put there when played: the same table, played once.
    """
    from gamelab.sim.executors import make_executor

    chunks = plan(
        game, n_games=n_games, seed=seed, params=params, lineup=lineup, n_players=n_players, chunk_deals=chunk_deals
    )
    executor = executor or make_executor(workers)
    return pd.concat(fetch(chunks, store, executor, progress), ignore_index=True)


def fetch(chunks: list[Chunk], store, executor, progress: bool | None = None) -> list[pd.DataFrame]:
    """The tables of ``chunks``: from ``store`` where it has them (None: no
    store), the others played by ``executor`` and put into the store."""
    from gamelab.sim.executors import run_all

    frames: list = [store.get(c) if store is not None else None for c in chunks]
    missing = [i for i, f in enumerate(frames) if f is None]
    if missing:
        todo = [chunks[i] for i in missing]
        fn, writes = chunk_job(executor, store)

        def keep(j, df):
            if store is not None:
                if writes:
                    store.computed += 1
                else:
                    store.put(todo[j], df)
            frames[missing[j]] = df

        run_all(
            executor,
            fn,
            todo,
            progress=progress,
            weights=[c.n_games for c in todo],
            unit="game",
            on_result=keep,
        )
    return frames
