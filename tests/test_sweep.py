"""Sweeps: cells, common random numbers, the chunk store, precision targets."""

import pandas as pd
import pytest

from gamelab.core import registry
from gamelab.core.errors import GamelabError, ParamError
from gamelab.sim import runner, sweep
from gamelab.sim.run import RunConfig
from gamelab.sim.store import CacheWarning, ChunkStore
from gamelab.toy import ToyParams


@pytest.fixture
def store(tmp_path):
    return ChunkStore(tmp_path / "cache")


def test_two_parameter_grid_gives_every_cell(store, tmp_path):
    res = sweep.sweep(
        registry.get("toy"),
        {"bonus_scale": [0.0, 2.0], "die": [10, 20]},
        n_games=300,
        seed=4,
        lineup=["strong", "weak"],
        runs_dir=tmp_path / "runs",
        run=RunConfig(store=store, progress=False),
    )
    cells = res.table[["bonus_scale", "die"]].drop_duplicates()
    assert sorted(map(tuple, cells.to_numpy())) == [(0.0, 10), (0.0, 20), (2.0, 10), (2.0, 20)]
    wr = res.table.query("metric == 'win_rate' and by == 'agent'")
    strong = wr[(wr.group == "strong") & (wr.die == 10)].set_index("bonus_scale")
    assert strong.loc[2.0, "value"] > strong.loc[0.0, "value"] + 0.1
    assert (tmp_path / "runs" / res.sweep_id / "manifest.json").exists()


def test_a_lineup_of_the_wrong_length_is_refused_before_any_game(store, tmp_path):
    with pytest.raises(GamelabError, match="cell .*'n_players': 3.*the lineup has 2 agents for 3 players"):
        sweep.sweep(
            registry.get("toy"),
            {"n_players": [2, 3]},
            n_games=300,
            seed=4,
            lineup=["strong", "weak"],
            runs_dir=tmp_path / "runs",
            run=RunConfig(store=store, progress=False),
        )
    assert store.computed == 0 and not (tmp_path / "runs").exists()


def test_cell_equals_standalone_run(store):
    run = sweep.run_cell(
        registry.get("toy"),
        {"bonus_scale": 2.0},
        n_games=500,
        seed=9,
        lineup=["strong", "weak"],
        run=RunConfig(store=store),
    )
    alone = runner.simulate(
        registry.get("toy"), n_games=500, seed=9, lineup=["strong", "weak"], params=ToyParams(bonus_scale=2.0)
    )
    pd.testing.assert_frame_equal(run.frame, alone)


def test_cached_cell_is_not_simulated_again(store):
    kw = dict(n_games=2000, seed=2, lineup=["strong", "weak"], chunk_deals=100, run=RunConfig(store=store))
    sweep.run_cell(registry.get("toy"), {}, **kw)
    assert store.computed == 10 and store.loaded == 0
    again = sweep.run_cell(registry.get("toy"), {}, **kw)
    assert store.computed == 10 and store.loaded == 10 and again.games == 2000


def test_precision_target_met_or_cap_reported(store):
    run = sweep.run_cell(
        registry.get("toy"),
        {},
        n_games=200,
        seed=1,
        lineup=["strong", "weak"],
        precision=0.02,
        max_games=100_000,
        chunk_deals=100,
        run=RunConfig(store=store),
    )
    t = sweep.summarize(run.frame).query("metric == 'win_rate'")
    assert run.target_met and ((t.high - t.low) / 2 <= 0.02).all() and run.games > 200
    capped = sweep.run_cell(
        registry.get("toy"),
        {},
        n_games=200,
        seed=1,
        lineup=["strong", "weak"],
        precision=0.001,
        max_games=800,
        chunk_deals=100,
        run=RunConfig(store=store),
    )
    assert capped.target_met is False and capped.games == 800


def test_paired_difference_against_baseline(store, tmp_path):
    res = sweep.sweep(
        registry.get("toy"),
        {"bonus_scale": [1.0, 3.0]},
        baseline={"bonus_scale": 1.0},
        n_games=2000,
        seed=5,
        lineup=["strong", "weak"],
        runs_dir=tmp_path,
        run=RunConfig(store=store, progress=False),
    )
    d = res.table.query("metric == 'win_rate_diff' and group == 'strong'").set_index("bonus_scale")
    assert d.loc[1.0, "value"] == 0 and d.loc[1.0, "low"] == 0  # a cell against itself
    assert d.loc[3.0, "low"] > 0


def test_unknown_or_bad_sweep_values(store):
    with pytest.raises(GamelabError, match="unknown sweep parameter 'colour'"):
        sweep.run_cell(registry.get("toy"), {"colour": 1}, n_games=10, seed=1, n_players=2, run=RunConfig(store=store))
    with pytest.raises(ParamError, match="die = 1 is out of range"):
        sweep.run_cell(registry.get("toy"), {"die": 1}, n_games=10, seed=1, n_players=2, run=RunConfig(store=store))
    run = sweep.run_cell(
        registry.get("toy"), {"die_double": True}, n_games=10, seed=1, n_players=2, run=RunConfig(store=store)
    )
    assert run.params.die == 20


def test_corrupt_chunk_is_recomputed(store):
    kw = dict(n_games=400, seed=3, lineup=["strong", "weak"], chunk_deals=100, run=RunConfig(store=store))
    first = sweep.run_cell(registry.get("toy"), {}, **kw)
    victim = sorted(store.dir.rglob("*.parquet"))[0]
    victim.write_bytes(victim.read_bytes()[:50])  # truncated
    with pytest.warns(CacheWarning, match=f"{victim.stem}.json: {victim.name} does not match its checksum"):
        again = sweep.run_cell(registry.get("toy"), {}, **kw)
    assert store.rejected == 1 and store.computed == 3  # 2 chunks, then the bad one again
    pd.testing.assert_frame_equal(first.frame, again.frame)


def test_variant_is_a_sweep_parameter(store, tmp_path):
    res = sweep.sweep(
        registry.get("strand"),
        {"variant": ["standard", "short"]},
        n_games=200,
        seed=1,
        n_players=4,
        runs_dir=tmp_path,
        run=RunConfig(store=store, progress=False),
    )
    runs = {r.cell["variant"]: r for r in res.cells}
    assert runs["short"].params.rounds == 5 and runs["short"].params.node_values == (3, 4, 4, 5, 5)
    assert runs["standard"].params.rounds == 8
    with pytest.raises(ParamError, match="variant 'long' is unknown"):
        sweep.run_cell(
            registry.get("strand"), {"variant": "long"}, n_games=10, seed=1, n_players=4, run=RunConfig(store=store)
        )


@pytest.mark.parametrize("value", [4.5, 2.0, "four", True])
@pytest.mark.parametrize("game", ["sbr", "strand"])
def test_n_players_in_a_grid_file_is_checked_in_one_line(tmp_path, capsys, game, value):
    """A grid's player count that is not a whole number is refused naming it,
    for the games whose default lineup depends on it (once a traceback)."""
    import yaml

    from gamelab.cli.commands import main

    path = tmp_path / "grid.yaml"
    path.write_text(yaml.safe_dump({"game": game, "grid": {"n_players": [value]}, "n_games": 100, "seed": 1}))
    assert main(["sweep", str(path), "--cache-dir", str(tmp_path / "cache"), "--runs-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert f"the number of players is a whole number, not {value!r}" in err
