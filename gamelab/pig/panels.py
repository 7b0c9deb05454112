"""What a Pig panel shows besides win rates: a table of measures with 95 %
intervals and a small figure.  Deals are the independent units (the players
of a game, and the rotations of a deal, are not): a mean is taken per deal
first, a rate is a ratio of sums with deals as clusters."""

from __future__ import annotations

import numpy as np
import pandas as pd

from gamelab.core import charts
from gamelab.stats.intervals import Estimate, mean_interval, ratio_of_sums
from gamelab.stats.tables import percent_rows


def _mean_by_deal(frame: pd.DataFrame, column: str, how: str = "mean") -> Estimate:
    """A per-game (``how="first"``) or per-player quantity, averaged by deal."""
    games = frame.groupby("game")
    per_game = getattr(games[column], how)().astype(float)
    return mean_interval(per_game.groupby(games["deal"].first()).mean())


def _rate(frame: pd.DataFrame, num, den) -> Estimate:
    sums = frame.assign(_num=num, _den=den).groupby("deal")[["_num", "_den"]].sum()
    return ratio_of_sums(sums["_num"], sums["_den"])


def n_players(frame: pd.DataFrame) -> int:
    return int(frame.groupby("game").size().iloc[0])


def panel_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Game length, dice, busts, holds, what a hold banks, the turn cap."""
    turn_share = frame["turns"] / n_players(frame)  # a game's turns, spread over its rows
    rows = [
        ("turns per game", _mean_by_deal(frame, "turns", "first")),
        ("rolls per turn", _rate(frame, frame["rolls"], turn_share)),
        ("bust rate per roll", _rate(frame, frame["busts"], frame["rolls"])),
        ("holds per player", _mean_by_deal(frame, "holds")),
        ("points banked per hold", _rate(frame, frame["score"], frame["holds"])),
        ("games ended by the turn cap", _mean_by_deal(frame, "capped", "first")),
        ("lead changes per game", _mean_by_deal(frame, "lead_changes", "first")),
        ("winner's score", _mean_by_deal(frame[frame["rank"] == 1], "score")),
    ]
    table = pd.DataFrame(
        [{"measure": label, "value": e.value, "low": e.low, "high": e.high, "n": e.n} for label, e in rows]
    )
    return percent_rows(table, ("bust rate per roll", "games ended by the turn cap"))


def panel_extras(frame: pd.DataFrame, params) -> list:
    """The table, how long games last, and who wins by seat."""
    rounds = frame.groupby("game")["rounds"].first()
    by_seat = frame.groupby("seat")["win"].mean()
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
                references=[charts.Reference(y=100 / n_players(frame))],
            ),
        ],
        width=10,
        height=3.2,
    )
    return [panel_table(frame), figure]
