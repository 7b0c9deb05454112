"""What a Pig panel shows besides win rates: its measures, declared as
metrics (:mod:`gamelab.pig.diagnostics` and the shared ones; the shared
layer gives each a 95 % interval over deals), and a small figure."""

from __future__ import annotations

import numpy as np

from gamelab.core import charts

#: game length, dice, busts, holds, what a hold banks, the turn cap, lead changes, the winner's score
MEASURES = (
    "turns_per_game",
    "rolls_per_turn",
    "bust_rate",
    "holds_per_player",
    "banked_per_hold",
    "capped_games",
    "lead_changes",
    "winner_score",
)


def figures(frame, params) -> list:
    """How long games last, and who wins by seat."""
    rounds = frame.groupby("game")["rounds"].first()
    by_seat = frame.groupby("seat")["win"].mean()
    n_players = int(frame.groupby("game").size().iloc[0])
    length = charts.Histogram(rounds.to_numpy(), np.arange(rounds.min(), rounds.max() + 2) - 0.5)
    seats = charts.Bars(list(by_seat.index.astype(str)), [charts.Series(values=by_seat.to_numpy() * 100)])
    figure = charts.Panel(
        [
            charts.Plot(length, title="game length", xlabel="rounds (turns per player)", ylabel="games"),
            charts.Plot(
                seats,
                title="wins by seat (dashed: fair share)",
                xlabel="seat",
                ylabel="win rate (%)",
                references=[charts.Reference(y=100 / n_players)],
            ),
        ],
        width=10,
        height=3.2,
    )
    return [figure]
