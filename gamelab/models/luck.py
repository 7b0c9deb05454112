"""Luck: how often one seat of the weakest level beats the strongest, and how much the deal decides.

In the spirit of restricted play (Jaffe et al., "Evaluating competitive game
balance with restricted play", 2012): how often one seat of the weakest
level beats the strongest on the other seats, and how much of a seat's score
variance the deal explains (the intraclass correlation of the score by deal
across seat rotations: 1 when the cards decide everything, 0 when they
decide nothing).  Over the ladder's agents (:func:`luck`) or the skill
trace's levels (:func:`trace_luck`).
"""

from __future__ import annotations

from gamelab.core.contract import Game, Run
from gamelab.models.ladder import deal_share, h2h_run, head_to_head, ladder_of
from gamelab.sim.levels import Level, mixed_params, trace_levels
from gamelab.sim.run import RunConfig


def luck(
    game: Game,
    *,
    n_players: int,
    n_games: int = 1000,
    seed: int = 0,
    params=None,
    levels=None,
    run: RunConfig | None = None,
) -> dict:
    """How often one seat of the weakest level beats the strongest (win rate
    with its interval, against the fair share), and the share of the weakest
    seat's score variance the deal explains in that match."""
    run = run or RunConfig()
    names = ladder_of(game, levels)
    res, frame = head_to_head(
        game, names[0], names[-1], n_players=n_players, n_games=n_games, seed=seed, params=params, run=run
    )
    return {
        "weakest": names[0],
        "strongest": names[-1],
        "weakest_wins": res["win_rate"],
        "low": res["low"],
        "high": res["high"],
        "games": res["games"],
        "fair": 1 / n_players,
        "deal_share": deal_share(frame, names[0]),
    }


def _weak_strong(game: Game, n_players: int, params, rungs) -> tuple[Level, Level]:
    """Random play and the strongest of ``rungs`` (rung names; None: every level)."""
    levels = [lv for lv in trace_levels(game, n_players, params) if rungs is None or lv.name in rungs]
    return levels[0], levels[-1]


def luck_run(game: Game, *, n_players: int, n_games: int, seed: int = 0, params=None, rungs=None) -> Run:
    """The run of :func:`trace_luck`: one random seat among the strongest rung."""
    weak, strong = _weak_strong(game, n_players, params, rungs)
    return h2h_run(
        weak.seat, strong.rest, n_players=n_players, n_games=n_games, seed=seed, params=mixed_params(game, weak, strong)
    )


def trace_luck(
    game: Game,
    *,
    n_players: int,
    n_games: int,
    seed: int = 0,
    params=None,
    run: RunConfig | None = None,
    rungs=None,
) -> dict:
    """:func:`luck` over the trace's levels: one seat of random play among
    the strongest rung (of ``rungs``, the decided ones; None: every level) on every other seat."""
    run = run or RunConfig()
    weak, strong = _weak_strong(game, n_players, params, rungs)
    r = luck_run(game, n_players=n_players, n_games=n_games, seed=seed, params=params, rungs=rungs)
    res, frame = head_to_head(
        game, weak.seat, strong.rest, n_players=n_players, n_games=n_games, seed=seed, params=r.params, run=run.quiet()
    )
    return {
        "weakest": weak.name,
        "strongest": strong.name,
        "weakest_wins": res["win_rate"],
        "low": res["low"],
        "high": res["high"],
        "games": res["games"],
        "fair": 1 / n_players,
        "deal_share": deal_share(frame, weak.seat),
    }
