"""Every profile of a game's strategies played on the same deals: the
meta-game's payoff table as per-deal sums (:mod:`gamelab.models.metagame`
solves it; ``gamelab bench`` times it).

A profile seats one of the game's strategies (``Game.strategies``) on each
seat; :func:`payoff_table` plays every multiset of ``P`` strategies through
the runner's chunks and the chunk store (missing chunks in one pass through
the run's executor; a rerun is read back), every profile with the same seed,
so on the same deals (common random numbers), each deal in every seat
rotation, and keeps per deal the wins and seats of each strategy in each
profile (:class:`gamelab.stats.metagame.DealSums`), so that resampling deals
gives the intervals of everything solved from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamelab.core import registry
from gamelab.core.contract import Run
from gamelab.core.errors import GamelabError
from gamelab.sim import runner
from gamelab.sim.prefetch import play_chunks, run_args
from gamelab.sim.run import RunConfig
from gamelab.stats import metagame as solve
from gamelab.stats.metagame import DealSums


def declared(game) -> Any:
    """The game's strategies (``Game.strategies``), or a one-line error naming the game."""
    game = registry.get(game) if isinstance(game, str) else game
    if game.strategies is None:
        raise GamelabError(f"{game.name} declares no strategies, so it has no meta-game (Game.strategies)")
    return game.strategies


def profile_lineups(names: Sequence[str], n_players: int) -> list[tuple[str, ...]]:
    """Every profile as a lineup (one name per seat), in :func:`solve.profiles` order."""
    return [
        tuple(n for s, c in enumerate(row) for n in [names[s]] * int(c))
        for row in solve.profiles(len(names), n_players)
    ]


def profile_runs(game, n_players: int, *, params=None, deals: int | None = None, seed: int = 0, names=None) -> list:
    """The runs of every profile (:class:`gamelab.core.contract.Run`), on the same deals."""
    game = registry.get(game) if isinstance(game, str) else game
    strategies = declared(game)
    names = tuple(names or strategies.names)
    deals = int(deals or strategies.deals)
    return [
        Run(
            n_players=n_players,
            n_games=deals * (1 if len(set(lu)) == 1 else n_players),
            seed=seed,
            lineup=lu,
            params=params,
        )
        for lu in profile_lineups(names, n_players)
    ]


def sums_of(frame: pd.DataFrame, names: Sequence[str], deal_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(D, S) wins and seats of each strategy per deal of one profile's table."""
    S, D = len(names), len(deal_ids)
    strategy = pd.Categorical(frame["agent"], categories=list(names)).codes
    deal = np.searchsorted(deal_ids, frame["deal"].to_numpy())
    flat = deal * S + strategy
    wins = np.bincount(flat, frame["win"].to_numpy(float), D * S).reshape(D, S)
    seats = np.bincount(flat, minlength=D * S).astype(float).reshape(D, S)
    return wins, seats


def play_profiles(game, runs: Sequence[Run], names, *, run: RunConfig) -> tuple[np.ndarray, np.ndarray]:
    """Play ``runs`` through the chunk store (the missing chunks in one pass
    through the run's executor, :func:`gamelab.sim.prefetch.play_chunks`),
    each chunk reduced to per-deal sums as it is read or lands: (D, K, S) wins and seats.
    Every run has the same seed, so the same deals (common random numbers)."""
    game = registry.get(game) if isinstance(game, str) else game
    run = run.ready()
    store = run.chunk_store()
    chunks = [(k, c) for k, r in enumerate(runs) for c in runner.plan(game.name, **run_args(r))]
    n_deals = sum(c.n_deals for k, c in chunks if k == 0)
    if any(sum(c.n_deals for j, c in chunks if j == k) != n_deals for k in range(len(runs))):
        raise GamelabError("every profile must be played on the same deals")
    deal_ids = np.concatenate(
        [np.arange(c.n_deals, dtype=np.int64) + c.index * 10**7 for k, c in chunks if k == 0]
    )  # runner._tidy's deal numbers
    wins = np.zeros((len(deal_ids), len(runs), len(names)))
    seats = np.zeros_like(wins)

    def add(i, frame):
        k = chunks[i][0]
        w, n = sums_of(frame, names, deal_ids)
        wins[:, k] += w
        seats[:, k] += n

    todo = []
    for i, (_, c) in enumerate(chunks):
        frame = store.get(c)
        if frame is None:
            todo.append(i)
        else:
            add(i, frame)
    play_chunks([chunks[i][1] for i in todo], store, run=run, on_result=lambda j, df: add(todo[j], df))
    return wins, seats


def payoff_table(
    game, n_players: int, *, params=None, deals: int | None = None, seed: int = 0, run: RunConfig | None = None
) -> DealSums:
    """Every profile of the game's strategies at ``n_players`` played on the same deals, as per-deal sums."""
    game = registry.get(game) if isinstance(game, str) else game
    strategies = declared(game)
    lo, hi = game.players
    if not lo <= n_players <= hi:
        raise GamelabError(f"--players {n_players} is out of range: {game.name} is for {lo}-{hi} players")
    names = tuple(strategies.names)
    runs = profile_runs(game, n_players, params=params, deals=deals, seed=seed)
    wins, seats = play_profiles(game, runs, names, run=run or RunConfig())
    return DealSums(names, n_players, solve.profiles(len(names), n_players), wins, seats)
