"""The skill ladder measured by intervals (``gamelab skill``): each level against the one below.

``GAME.skill.ladder`` names agents from weakest to strongest.  Level k is
measured against the level below on paired, seat-rotated deals: one seat of
level k among P - 1 seats of level k - 1, every deal played once per seat
rotation (``gamelab.sim.runner``), so the stronger agent sits in every seat on
the same cards.  Its win rate, with a 95 % interval over deals (the
rotations of a deal share its cards, so the deal is the unit), is compared
with the fair share 1 / P: a level "beats the one below" when the whole
interval lies above it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from gamelab.core.contract import Game, Run
from gamelab.core.errors import GamelabError
from gamelab.sim import runner
from gamelab.sim.prefetch import run_args
from gamelab.sim.run import RunConfig
from gamelab.stats.intervals import mean_interval


def ladder_of(game: Game, ladder=None) -> tuple[str, ...]:
    names = tuple(ladder or game.skill.ladder)
    if len(names) < 2:
        raise GamelabError(f"{game.name} has no skill ladder (GAME.skill.ladder names fewer than two agents)")
    unknown = [a for a in names if game.agents and a not in game.agents]
    if unknown:
        raise GamelabError(f"skill ladder: unknown agent {unknown[0]!r} of {game.name}")
    return names


def head_to_head(
    game: Game,
    strong: str,
    weak,
    *,
    n_players: int,
    n_games: int,
    seed: int,
    params=None,
    run: RunConfig | None = None,
) -> tuple[dict, pd.DataFrame]:
    """One seat of ``strong`` among ``weak`` seats (an agent name, or the
    P - 1 names of the other seats): its win rate over deals."""
    run = run or RunConfig()
    frame = run_table(game, h2h_run(strong, weak, n_players=n_players, n_games=n_games, seed=seed, params=params), run)
    mine = frame[frame["agent"] == strong]
    e = mean_interval(mine.groupby("deal")["win"].mean())
    low, high = max(0.0, e.low), min(1.0, e.high)  # a rate: the t interval clipped to [0, 1]
    return {"win_rate": e.value, "low": low, "high": high, "games": int(frame["game"].nunique())}, frame


def h2h_run(strong: str, weak, *, n_players: int, n_games: int, seed: int, params=None) -> Run:
    """The run of :func:`head_to_head`: one seat of ``strong``, then the weak seats."""
    rest = [weak] * (n_players - 1) if isinstance(weak, str) else list(weak)
    return Run(n_players=n_players, n_games=n_games, seed=seed, lineup=(strong, *rest), params=params)


def deal_share(frame: pd.DataFrame, agent: str) -> float:
    """Share of ``agent``'s score variance explained by the deal (one-way
    ANOVA intraclass correlation over the seat rotations of each deal)."""
    rows = frame[frame["agent"] == agent]
    groups = rows.groupby("deal")["score"]
    k = float(groups.size().mean())
    if k < 2 or groups.ngroups < 2:
        return float("nan")
    means = groups.mean()
    grand = rows["score"].mean()
    msb = k * ((means - grand) ** 2).sum() / (groups.ngroups - 1)
    msw = groups.var(ddof=1).sum() / groups.ngroups
    denom = msb + (k - 1) * msw
    return float(np.clip((msb - msw) / denom, 0.0, 1.0)) if denom > 0 else float("nan")


def ladder(
    game: Game,
    *,
    n_players: int,
    n_games: int = 1000,
    seed: int = 0,
    params=None,
    levels=None,
    run: RunConfig | None = None,
) -> list[dict]:
    """One object per level: level, agent, win_rate_vs_below, low, high,
    games, fair, beats_below (the interval above the fair share), deal_share.
    Level 0 (the weakest) has no level below: its win figures are None."""
    run = run or RunConfig()
    names = ladder_of(game, levels)
    out = [ladder_row(names, 0, n_players)]
    for k in range(1, len(names)):
        res, frame = head_to_head(
            game, names[k], names[k - 1], n_players=n_players, n_games=n_games, seed=seed + k, params=params, run=run
        )
        out.append(ladder_row(names, k, n_players, res, deal_share(frame, names[k])))
    return out


def ladder_row(
    names: Sequence[str], k: int, n_players: int, res: dict | None = None, deal: float | None = None
) -> dict:
    """Level ``k`` of a ladder of ``names``: one seat of it against the level
    below, from ``res`` (its head-to-head win rate, interval and games; None
    for level 0, which has no level below); it beats the level below when
    the interval lies above the fair share."""
    fair = 1 / n_players
    got = res or {}
    return dict(
        level=k,
        agent=names[k],
        below=names[k - 1] if res else None,
        win_rate_vs_below=got.get("win_rate"),
        low=got.get("low"),
        high=got.get("high"),
        games=got.get("games", 0),
        fair=fair,
        beats_below=bool(got["low"] > fair) if res else None,
        deal_share=deal,
    )


def run_table(game: Game, r: Run, run: RunConfig) -> pd.DataFrame:
    """The table of run ``r`` (through the run's store)."""
    return runner.simulate(game, **run_args(r), **run.simulate_args())
