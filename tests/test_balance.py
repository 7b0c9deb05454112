"""The balance metrics (gamelab/stats/balance.py, bootstrap.py) on hand-made tables with known answers."""

import numpy as np
import pandas as pd
import pytest

from gamelab.core import registry
from gamelab.stats import balance, bootstrap

TOY = registry.get("toy")


def _frame():
    """Four two-player games, each its own deal: seat 1 wins games 0 and 1,
    game 2 is a tie, seat 2 wins game 3."""
    return pd.DataFrame(
        {
            "game": [0, 0, 1, 1, 2, 2, 3, 3],
            "deal": [0, 0, 1, 1, 2, 2, 3, 3],
            "seat": [1, 2] * 4,
            "agent": ["strong", "weak"] * 4,
            "win": [1, 0, 1, 0, 0.5, 0.5, 0, 1],
            "score": [10, 5, 8, 6, 7, 7, 4, 9],
            "lead_changes": [2, 2, 0, 0, 1, 1, 1, 1],
            "rounds": [8, 8, 6, 6, 8, 8, 8, 8],
        }
    )


def _point(name):
    return bootstrap.estimate(_frame(), [balance.metric(TOY, name)], n_boot=50).iloc[0]["value"]


@pytest.mark.parametrize(
    "name,value",
    [
        ("seat_spread", 0.25),  # seats win 0.625 and 0.375
        ("balance", 0.75),
        ("first_seat_advantage", 0.125),
        ("seat_gap", 0.125),
        ("decisiveness", 0.75),  # one tie in four games
        ("mean_margin", (5 + 2 + 0 + 5) / 4),
        ("lead_changes", 1.0),
        ("mean_length", 7.5),
        ("mean_score", 7.0),
        ("win_rate[seat=1]", 0.625),
        ("win_rate[agent=weak]", 0.375),
    ],
)
def test_known_answers(name, value):
    assert _point(name) == pytest.approx(value)


def test_a_paired_change_on_the_same_deals():
    base = _frame()
    new = base.assign(win=[1, 0, 1, 0, 1, 0, 1, 0])  # seat 1 now wins every game
    t = bootstrap.paired_change(
        new, base, [balance.metric(TOY, "win_rate[seat=1]")], n_boot=200, rng=np.random.default_rng(1)
    ).iloc[0]
    # resampling only the unchanged deals 0 and 1 gives no change: the interval reaches down to 0, not below
    assert t["change"] == pytest.approx(0.375) and t["low"] == pytest.approx(0.0) and t["high"] > t["change"]
    assert t["deals"] == 4


def test_an_unknown_metric_names_the_close_ones():
    from gamelab.core.errors import GamelabError

    with pytest.raises(GamelabError, match="did you mean seat_spread"):
        balance.metric(TOY, "seat_sprea")
