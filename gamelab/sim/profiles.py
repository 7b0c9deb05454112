"""Every profile of a game's strategies played on the same deals: the
meta-game's payoff table as per-deal sums (:mod:`gamelab.models.metagame`
solves it; ``gamelab bench`` times it).

A profile seats one of the game's strategies (``Game.metagame``) on each
seat; :func:`payoff_table` plays every multiset of ``P`` strategies through
the runner's chunks, each reduced where it is played to per-deal sums that the
chunk store keeps (missing chunks in one pass through the run's executor; a
rerun is read back), every profile with the same seed,
so on the same deals (common random numbers), each deal in every seat
rotation, and keeps per deal the wins and seats of each strategy in each
profile (:class:`gamelab.stats.metagame.DealSums`), so that resampling deals
gives the intervals of everything solved from it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamelab.core.contract import Game, Run
from gamelab.core.errors import GamelabError
from gamelab.sim import runner
from gamelab.sim.prefetch import run_args
from gamelab.sim.run import RunConfig
from gamelab.stats import metagame as solve
from gamelab.stats.metagame import DealSums


def declared(game: Game) -> Any:
    """The game's strategies (``Game.metagame``), or a one-line error naming the game."""
    if game.metagame is None:
        raise GamelabError(f"{game.name} declares no strategies, so it has no meta-game (Game.metagame)")
    return game.metagame


def profile_lineups(names: Sequence[str], n_players: int) -> list[tuple[str, ...]]:
    """Every profile as a lineup (one name per seat), in :func:`solve.profiles` order."""
    return [
        tuple(n for s, c in enumerate(row) for n in [names[s]] * int(c))
        for row in solve.profiles(len(names), n_players)
    ]


PROFILE_CHUNK = 512  # deals per chunk of a profile's run: a top-up adds whole chunks, the same for every profile
PILOT_DEALS = 1024  # deals per profile before the table is sized by its precision
TARGET = 0.01  # every win share of the table within this (95 % half-width): ±1 point
# the half-widths sizing the table are estimates, and the ones reported come from resampling (the widest
# of a few hundred noisy ones): a profile is topped up past TRIGGER of the target, to AIM of it
TRIGGER, AIM = 0.92, 0.86
TOP_UPS = 3  # rounds of top-up at most


def profile_runs(game: Game, n_players: int, *, params=None, deals=None, seed: int = 0, names=None) -> list:
    """The runs of every profile (:class:`gamelab.core.contract.Run`), on the same deals
    (``deals``: one number for every profile, or one per profile)."""
    strategies = declared(game)
    names = tuple(names or strategies.names)
    lineups = profile_lineups(names, n_players)
    per = np.broadcast_to(np.asarray(strategies.deals if deals is None else deals, np.int64), (len(lineups),))
    return [
        Run(
            n_players=n_players,
            n_games=int(d) * (1 if len(set(lu)) == 1 else n_players),
            seed=seed,
            lineup=lu,
            params=params,
        )
        for lu, d in zip(lineups, per)
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


SUMS_VERSION = 1  # of :func:`chunk_sums`' reduction: part of the key its arrays are kept under


def sums_tag(names: Sequence[str]) -> str:
    """What a chunk's kept sums are named by in the store, besides the chunk: the reduction and the strategy order."""
    return f"profile-sums-{SUMS_VERSION}:" + ",".join(names)


def chunk_sums(chunk, names: Sequence[str]) -> dict[str, np.ndarray]:
    """One chunk of a profile played and reduced to its (deals, S) wins and seats of each strategy
    (what :func:`sums_of` counts from the chunk's table, counted from the games' arrays)."""
    names = list(names)
    wins = np.zeros((chunk.n_deals, len(names)))
    seats = np.zeros_like(wins)
    for _, seating, out in runner.played(chunk):
        win = np.asarray(out["win"], float)
        for seat, agent in enumerate(seating):
            wins[:, names.index(agent)] += win[:, seat]
            seats[:, names.index(agent)] += 1
    return {"wins": wins, "seats": seats}


def played_sums(store, names: Sequence[str], chunk) -> dict[str, np.ndarray]:
    """:func:`chunk_sums`, written into ``store`` where it is played (None: the caller keeps it)."""
    sums = chunk_sums(chunk, names)
    if store is not None:
        store.write_arrays(chunk, sums_tag(names), sums)
    return sums


def play_profiles(
    game: Game, runs: Sequence[Run], names, *, run: RunConfig, chunk_deals: int | None = None, skip=None
) -> tuple[np.ndarray, np.ndarray]:
    """Play ``runs`` chunk by chunk, each chunk reduced to per-deal sums where it is played
    (:func:`chunk_sums`: the workers do the counting, and the store keeps the sums, not the
    games' rows): (D, K, S) wins and seats, ``D`` the longest run's deals.  A chunk whose sums
    the store holds is read back; the missing ones go through the run's executor in one pass.
    Every run has the same seed and chunk size, so its deals are the first of the longest run's
    (common random numbers); a profile's later deals hold zeros.  ``skip[k]``: chunks of run ``k``
    already counted elsewhere (a top-up)."""
    from gamelab.sim.executors import run_all

    run = run.ready()
    store = run.chunk_store()
    names = tuple(names)
    tag = sums_tag(names)
    plans = [runner.plan(game, **run_args(r), chunk_deals=chunk_deals) for r in runs]
    longest = max(plans, key=lambda p: sum(c.n_deals for c in p))
    if any(c.n_deals != longest[i].n_deals for p in plans for i, c in enumerate(p)):
        raise GamelabError("every profile must be played on the same deals (a shorter run: the first of them)")
    first_deal = dict(zip([c.index for c in longest], np.cumsum([0] + [c.n_deals for c in longest])))
    chunks = [(k, c) for k, p in enumerate(plans) for c in p[(0 if skip is None else int(skip[k])) :]]
    wins = np.zeros((sum(c.n_deals for c in longest), len(runs), len(names)))
    seats = np.zeros_like(wins)

    def add(i, sums):
        k, c = chunks[i]
        at = slice(first_deal[c.index], first_deal[c.index] + c.n_deals)
        wins[at, k] += sums["wins"]
        seats[at, k] += sums["seats"]

    todo = []
    for i, (_, c) in enumerate(chunks):
        sums = store.get_arrays(c, tag)
        if sums is None:
            todo.append(i)
        else:
            add(i, sums)
    executor = run.pool()
    writes = getattr(store, "on_disk", False) and getattr(executor, "shares_disk", False)

    def keep(j, sums):
        if writes:
            store.computed += 1
        else:
            store.put_arrays(chunks[todo[j]][1], tag, sums)
        add(todo[j], sums)

    if todo:
        run_all(
            executor,
            functools.partial(played_sums, store if writes else None, names),
            [chunks[i][1] for i in todo],
            progress=run.progress,
            weights=[chunks[i][1].n_games for i in todo],
            unit="game",
            on_result=keep,
        )
    return wins, seats


def half_widths(wins: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """(K, S) the 95 % half-width of each win share of per-deal sums (:meth:`DealSums.half_widths`)."""
    return DealSums((), 0, np.zeros((0, 0)), wins, seats).half_widths()


def deals_needed(half: np.ndarray, deals: np.ndarray, target: float = TARGET, chunk: int = PROFILE_CHUNK) -> np.ndarray:
    """(K,) deals each profile needs for its widest half-width to come within ``target``
    (past ``TRIGGER`` of it, aiming at ``AIM`` of it): the half-width shrinks as one over the root of the deals;
    in whole chunks, never fewer than now."""
    widest = np.nan_to_num(np.nanmax(half, axis=1))  # every profile holds some strategy
    want = np.ceil(deals * (widest / (target * AIM)) ** 2)
    chunks = np.ceil(np.maximum(want, deals) / chunk).astype(np.int64)
    return np.where(widest > target * TRIGGER, chunks * chunk, deals)


def pilot_deals(target: float) -> int:
    """The pilot's deals a profile for a table within ±``target``: :data:`PILOT_DEALS` at
    :data:`TARGET`, scaled as one over the target squared (a half-width shrinks as one over
    the root of the deals), in whole chunks of :data:`PROFILE_CHUNK` deals (a smaller chunk
    plays fewer games a second: a batch's fixed cost is shared by fewer games)."""
    return PROFILE_CHUNK * max(1, math.ceil(PILOT_DEALS * (TARGET / target) ** 2 / PROFILE_CHUNK))


def payoff_table(
    game: Game,
    n_players: int,
    *,
    params=None,
    deals: int | None = None,
    seed: int = 0,
    run: RunConfig | None = None,
    target: float = TARGET,
    pilot: int | None = None,
    say=None,
) -> DealSums:
    """Every profile of the game's strategies at ``n_players`` played on the same deals, as per-deal sums.

    ``deals`` given: that many deals per profile.  Else the table is sized by its precision:
    a pilot of ``pilot`` deals per profile (None: :func:`pilot_deals` for ``target``), then each
    profile whose widest win share's 95 % half-width is above ``target`` is topped up (:func:`deals_needed`, at most
    :data:`TOP_UPS` rounds): whole chunks of :data:`PROFILE_CHUNK` deals (or of the pilot's, if
    fewer) added after the ones
    it has, so every profile's deals are the first of the others' (common random numbers kept)
    and a rerun reads every chunk back from the store."""
    strategies = declared(game)
    lo, hi = game.players
    if not lo <= n_players <= hi:
        raise GamelabError(f"--players {n_players} is out of range: {game.name} is for {lo}-{hi} players")
    names = tuple(strategies.names)
    K = solve.profiles(len(names), n_players)
    say = say or (lambda text: None)
    per = np.full(len(K), int(deals or pilot or pilot_deals(target)), np.int64)
    chunk = min(PROFILE_CHUNK, int(per[0]))  # a top-up adds whole chunks of this many deals
    run = (run or RunConfig()).ready()
    wins = seats = np.zeros((0, len(K), len(names)))
    have = np.zeros(len(K), np.int64)  # chunks of each profile counted so far
    for step in range(TOP_UPS + 1):
        runs = profile_runs(game, n_players, params=params, deals=per, seed=seed)
        w, n = play_profiles(game, runs, names, run=run, chunk_deals=chunk, skip=have)
        wins, seats = _grown(wins, len(w)) + w, _grown(seats, len(n)) + n
        have = -(-per // chunk)
        if deals is not None:
            break
        need = deals_needed(half_widths(wins, seats), per, target, chunk)
        if (need <= per).all() or step == TOP_UPS:
            break
        more = need > per
        say(f"  {int(more.sum())} of {len(K)} profiles topped up to within ±{100 * target:g} points")
        per = np.maximum(per, need)
    return DealSums(names, n_players, K, wins, seats)


def _grown(a: np.ndarray, n_deals: int) -> np.ndarray:
    """``a`` (D, K, S) padded with zero deals to ``n_deals``."""
    return np.pad(a, ((0, n_deals - len(a)), (0, 0), (0, 0)))
