"""The head-to-head matrix of a skill trace: one seat of each level among seats of each lower level."""

from __future__ import annotations

from gamelab.core.contract import Game, Run
from gamelab.decide.ladder import SEEDS_APART
from gamelab.models.ladder import h2h_run, head_to_head
from gamelab.sim.levels import Level, mixed_params
from gamelab.sim.run import RunConfig


def matrix(
    game: Game,
    levels: list[Level],
    *,
    n_players: int,
    n_games: int,
    seed: int,
    pairs: str = "all",
    run: RunConfig | None = None,
) -> list[dict]:
    """Head to head: for each pair of levels (``all``, ``adjacent`` ones
    only, or ``none``), one seat of the higher level among P - 1 seats of the lower, its
    win rate over deals with the 95 % interval, against the fair share."""
    run = run or RunConfig()
    out = []
    for hi, lo, r in matrix_runs(game, levels, n_players=n_players, n_games=n_games, seed=seed, pairs=pairs):
        res, _ = head_to_head(
            game, hi.seat, lo.rest, n_players=n_players, n_games=r.n_games, seed=r.seed, params=r.params, run=run
        )
        out.append(
            {
                "row": hi.name,
                "column": lo.name,
                "win_rate": res["win_rate"],
                "low": res["low"],
                "high": res["high"],
                "games": res["games"],
                "fair": 1 / n_players,
                "beats": bool(res["low"] > 1 / n_players),
            }
        )
    return out


def matrix_runs(
    game: Game, levels: list[Level], *, n_players: int, n_games: int, seed: int, pairs: str = "all"
) -> list[tuple[Level, Level, Run]]:
    """(higher level, lower level, the run of their head-to-head cell) of each cell of :func:`matrix`."""
    out = []
    for j, hi in enumerate(levels):
        for i, lo in enumerate(levels[:j]):
            if pairs == "none" or (pairs == "adjacent" and i != j - 1):
                continue
            cell = h2h_run(
                hi.seat,
                lo.rest,
                n_players=n_players,
                n_games=n_games,
                seed=seed + SEEDS_APART * (1 + j * len(levels) + i),
                params=mixed_params(game, hi, lo),  # budgets ride on the seats' names (search@b)
            )
            out.append((hi, lo, cell))
    return out
