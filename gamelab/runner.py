"""Monte Carlo runner: many seeded games of one game, as a tidy DataFrame.

Seeding: ``SeedSequence(seed)`` is spawned into one child per chunk of deals;
chunk sizes do not depend on the number of workers, so the same seed gives the
same table with 1 worker or 8.  Each deal (one child seed) is played once per
seat rotation of the lineup, so every agent sits in every seat on the same
deals and comparisons between agents and seats are paired.

A game plugs in through :class:`GameAdapter` (``gamelab.<game>.sim``), which
turns a lineup of agent names into per-seat policies and plays a batch.
"""
from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import importlib
import math
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

ADAPTERS = {"sbr": "gamelab.sbr.sim", "strand": "gamelab.strand.sim"}
DEFAULT_CHUNK_DEALS = 1024


@dataclasses.dataclass(frozen=True)
class GameAdapter:
    """What the runner needs from a game.

    ``play(params, lineup, n_games, n_players, seed_seq) -> dict`` plays
    ``n_games`` games with seat i played by agent ``lineup[i]`` and returns
    arrays of shape (G, P) (per seat) or (G,) (per game).  It must draw every
    random number from ``seed_seq`` (chance before play, so that the same seed
    deals the same games whatever the seating).
    """

    name: str
    play: Callable[..., dict]
    default_params: Callable[[], Any]
    default_lineup: Callable[[int], Sequence[str]]


def adapter(game: str | GameAdapter) -> GameAdapter:
    if isinstance(game, GameAdapter):
        return game
    if game not in ADAPTERS:
        from .errors import GamelabError
        raise GamelabError(f"unknown game {game!r}: expected one of {', '.join(sorted(ADAPTERS))}")
    return importlib.import_module(ADAPTERS[game]).ADAPTER


def _play_chunk(game, params, lineup, n_players, n_deals, seed_seq, chunk_index) -> pd.DataFrame:
    ad = adapter(game)
    frames = []
    for rot in range(n_players):
        seating = [lineup[(s + rot) % n_players] for s in range(n_players)]
        out = ad.play(params, seating, n_deals, n_players, seed_seq)
        frames.append(_tidy(out, seating, n_deals, n_players, chunk_index, rot))
    return pd.concat(frames, ignore_index=True)


def _tidy(out: dict, seating, n_deals, n_players, chunk_index, rot) -> pd.DataFrame:
    G, P = n_deals, n_players
    deal = chunk_index * 10**6 + np.arange(G)
    cols: dict[str, Any] = {
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


def simulate(game: str | GameAdapter, *, n_games: int, seed: int, params=None,
             lineup: Sequence[str] | None = None, n_players: int | None = None,
             workers: int = 1, chunk_deals: int = DEFAULT_CHUNK_DEALS,
             progress: bool | None = None) -> pd.DataFrame:
    """Play about ``n_games`` games (rounded up to whole deals x rotations).

    Returns one row per player per game: ``game`` (id), ``deal``,
    ``rotation``, ``seat`` (1-based), ``agent`` and every array the game's
    ``play`` returned.  ``workers`` > 1 uses local processes; results are
    identical for any number of workers.
    """
    ad = adapter(game)
    params = ad.default_params() if params is None else params
    if lineup is None:
        if n_players is None:
            raise ValueError("give n_players or a lineup")
        lineup = list(ad.default_lineup(n_players))
    lineup = list(lineup)
    n_players = len(lineup) if n_players is None else n_players
    if len(lineup) != n_players:
        from .errors import GamelabError
        raise GamelabError(f"lineup has {len(lineup)} agents for {n_players} players")
    n_deals = max(1, math.ceil(n_games / n_players))
    sizes = [min(chunk_deals, n_deals - i) for i in range(0, n_deals, chunk_deals)]
    children = np.random.SeedSequence(seed).spawn(len(sizes))
    jobs = [(ad.name if not isinstance(game, GameAdapter) else game, params, lineup, n_players, size, child, i)
            for i, (size, child) in enumerate(zip(sizes, children))]
    frames = _run(jobs, workers, progress, total_games=n_deals * n_players)
    df = pd.concat(frames, ignore_index=True)
    df.insert(0, "game", df.groupby(["deal", "rotation"], sort=False).ngroup())
    return df


def _run(jobs, workers, progress, total_games):
    from tqdm.auto import tqdm

    bar = tqdm(total=total_games, unit="game", delay=1.0, disable=progress is False, leave=False)
    results: list = [None] * len(jobs)
    try:
        if workers <= 1 or len(jobs) == 1:
            for i, job in enumerate(jobs):
                results[i] = _play_chunk(*job)
                bar.update(job[4] * job[3])
        else:
            with cf.ProcessPoolExecutor(max_workers=workers) as pool:
                futures = {pool.submit(_play_chunk, *job): i for i, job in enumerate(jobs)}
                for fut in cf.as_completed(futures):
                    i = futures[fut]
                    results[i] = fut.result()
                    bar.update(jobs[i][4] * jobs[i][3])
    finally:
        bar.close()
    return results
