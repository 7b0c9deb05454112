"""The runner's seeding, rotation and tidy output, on a toy game."""
import numpy as np
import pandas as pd

from gamelab import runner, stats

BONUS = {"strong": 3, "weak": 0}


def toy_play(params, lineup, n_games, n_players, seed_seq):
    rng = np.random.Generator(np.random.PCG64(seed_seq))
    luck = rng.integers(0, 10, size=(n_games, n_players))  # chance first: same deal for every seating
    score = luck + np.array([BONUS[a] for a in lineup])
    best = score.max(axis=1, keepdims=True)
    win = (score == best) / (score == best).sum(axis=1, keepdims=True)
    return {"score": score, "win": win, "luck": luck, "length": np.full(n_games, 7)}


def no_params():
    return None


def all_weak(n):
    return ["weak"] * n


TOY = runner.GameAdapter("toy", toy_play, no_params, all_weak)


def test_same_seed_same_table_any_workers():
    a = runner.simulate(TOY, n_games=3000, seed=7, lineup=["strong", "weak", "weak"], chunk_deals=300, workers=1)
    b = runner.simulate(TOY, n_games=3000, seed=7, lineup=["strong", "weak", "weak"], chunk_deals=300, workers=2)
    pd.testing.assert_frame_equal(a, b)
    c = runner.simulate(TOY, n_games=3000, seed=8, lineup=["strong", "weak", "weak"], chunk_deals=300)
    assert not a["score"].equals(c["score"])


def test_rotation_puts_every_agent_in_every_seat_on_the_same_deals():
    df = runner.simulate(TOY, n_games=600, seed=1, lineup=["strong", "weak", "weak"], chunk_deals=64)
    assert df["game"].nunique() == 600 and len(df) == 1800
    seats = df[df.agent == "strong"].groupby("seat").size()
    assert list(seats) == [200, 200, 200]
    # paired: a deal's chance ("luck" by seat) is identical under every rotation
    luck = df.pivot_table(index=["deal", "seat"], columns="rotation", values="luck")
    assert (luck.nunique(axis=1) == 1).all()
    assert (df["length"] == 7).all()
    t = stats.win_table(df, "agent").set_index("agent")
    assert t.loc["strong", "win_low"] > t.loc["weak", "win_high"]
