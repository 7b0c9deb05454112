"""What a Pig panel shows besides win rates: a table of measures with 95 %
intervals and a small figure.  Means are taken per deal first (the players
of a game, and the rotations of a deal, are not independent)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..stats import mean_interval


def _per_deal(frame: pd.DataFrame, column: str, how: str = "mean") -> pd.Series:
    """A per-game (``how="first"``) or per-player quantity averaged by deal."""
    per_game = getattr(frame.groupby("game")[column], how)()
    deal = frame.groupby("game")["deal"].first()
    return per_game.groupby(deal).mean()


def _ratio_per_deal(frame: pd.DataFrame, num: str, den: str) -> pd.Series:
    sums = frame.groupby("deal")[[num, den]].sum()
    return (sums[num] / sums[den].where(sums[den] > 0)).dropna()


def panel_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Game length, dice, busts, holds, what a hold banks, the turn cap."""
    rows = [("turns per game", _per_deal(frame, "turns", "first")),
            ("rolls per turn", _ratio_per_deal(frame.assign(turns_share=frame["turns"] / _players(frame)),
                                               "rolls", "turns_share")),
            ("bust rate per roll", _ratio_per_deal(frame, "busts", "rolls")),
            ("holds per player", _per_deal(frame, "holds")),
            ("points banked per hold", _ratio_per_deal(frame, "score", "holds")),
            ("games ended by the turn cap", _per_deal(frame, "capped", "first").astype(float)),
            ("lead changes per game", _per_deal(frame, "lead_changes", "first")),
            ("winner's score", _per_deal(frame[frame["rank"] == 1], "score"))]
    out = []
    for label, series in rows:
        e = mean_interval(series.astype(float))
        out.append({"measure": label, "value": e.value, "low": e.low, "high": e.high, "n": e.n})
    return pd.DataFrame(out)


def _players(frame: pd.DataFrame) -> int:
    return int(frame.groupby("game").size().iloc[0])


def panel_extras(frame: pd.DataFrame, params) -> list:
    """The table, how long games last, and who wins by seat."""
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.2))
    rounds = frame.groupby("game")["rounds"].first()
    a.hist(rounds, bins=np.arange(rounds.min(), rounds.max() + 2) - 0.5)
    a.set_xlabel("rounds (turns per player)")
    a.set_ylabel("games")
    a.set_title("game length")
    by_seat = frame.groupby("seat")["win"].mean()
    b.bar(by_seat.index.astype(str), by_seat.to_numpy() * 100)
    b.axhline(100 / _players(frame), color="grey", linestyle="--", linewidth=1)
    b.set_xlabel("seat")
    b.set_ylabel("win rate (%)")
    b.set_title("wins by seat (dashed: fair share)")
    fig.tight_layout()
    plt.close(fig)
    return [panel_table(frame), fig]
