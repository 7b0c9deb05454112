"""The runner's seeding, rotation and tidy output, on the toy game."""

import pandas as pd
import pytest

from gamelab import stats
from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.sim import runner
from gamelab.toy import ToyParams


def test_same_seed_same_table_any_workers():
    kw = dict(n_games=3000, seed=7, lineup=["strong", "weak", "weak"], chunk_deals=300)
    a = runner.simulate(registry.get("toy"), workers=1, **kw)
    b = runner.simulate(registry.get("toy"), workers=2, **kw)
    pd.testing.assert_frame_equal(a, b)
    c = runner.simulate(registry.get("toy"), **{**kw, "seed": 8})
    assert not a["score"].equals(c["score"])


def test_rotation_puts_every_agent_in_every_seat_on_the_same_deals():
    df = runner.simulate(registry.get("toy"), n_games=600, seed=1, lineup=["strong", "weak", "weak"], chunk_deals=64)
    assert df["game"].nunique() == 600 and len(df) == 1800
    seats = df[df.agent == "strong"].groupby("seat").size()
    assert list(seats) == [200, 200, 200]
    # paired: a deal's chance ("luck" by seat) is identical under every rotation
    luck = df.pivot_table(index=["deal", "seat"], columns="rotation", values="luck")
    assert (luck.nunique(axis=1) == 1).all()
    assert (df["length"] == 7).all()
    t = stats.win_table(df, "agent").set_index("agent")
    assert t.loc["strong", "win_low"] > t.loc["weak", "win_high"]


def test_common_random_numbers_across_parameters():
    a = runner.simulate(registry.get("toy"), n_games=200, seed=3, n_players=2)
    b = runner.simulate(registry.get("toy"), n_games=200, seed=3, n_players=2, params=ToyParams(bonus_scale=2.0))
    assert a["luck"].equals(b["luck"])


def test_bad_settings_are_clear_errors():
    with pytest.raises(GamelabError, match="n_players = 9 is out of range: toy is for 2-6 players"):
        runner.simulate(registry.get("toy"), n_games=10, seed=1, n_players=9)
    with pytest.raises(GamelabError, match="unknown agent 'godlike'"):
        runner.simulate(registry.get("toy"), n_games=10, seed=1, lineup=["godlike", "weak"])
    with pytest.raises(GamelabError, match="unknown game 'chess'"):
        runner.simulate(registry.get("chess"), n_games=10, seed=1, n_players=2)
    with pytest.raises(GamelabError, match=r"a run takes the game itself \(gamelab.registry.get\(name\)\), not 'toy'"):
        runner.simulate("toy", n_games=10, seed=1, n_players=2)  # a name: the caller looks it up


def test_a_failing_chunk_raises_its_own_error_in_process():
    # (on a cluster the same failure is reported with its seed: test_distributed.py)
    with pytest.raises(RuntimeError, match="crash agent"):
        runner.simulate(registry.get("toy"), n_games=10, seed=5, lineup=["crash", "weak"])


def test_one_agent_everywhere_is_played_once_per_deal():
    df = runner.simulate(registry.get("toy"), n_games=500, seed=2, n_players=3)  # default lineup: weak x 3
    assert df["game"].nunique() == 500 and df["deal"].nunique() == 500 and (df["rotation"] == 0).all()


def test_simulate_command_writes_the_table_and_resumes_from_the_cache(tmp_path, capsys):
    from gamelab.cli import commands as cli

    args = [
        "simulate",
        "strand",
        "--players",
        "4",
        "--games",
        "400",
        "--seed",
        "5",
        "--cache-dir",
        str(tmp_path / "c"),
        "--out",
        str(tmp_path / "t.csv"),
    ]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "strand: 400 games, 4 players, seed 5 (1 chunks simulated, 0 read from the cache)" in out
    assert "Win rate by style" in out and "Win rate by role" in out
    first = pd.read_csv(tmp_path / "t.csv")
    assert cli.main(args + ["--workers", "2"]) == 0
    assert "(0 chunks simulated, 1 read from the cache)" in capsys.readouterr().out
    pd.testing.assert_frame_equal(first, pd.read_csv(tmp_path / "t.csv"))
    assert first["game"].nunique() == 400 and set(first["style"]) <= {
        "heavy",
        "key",
        "node_grabber",
        "steady",
        "mirror",
        "stay",
    }
