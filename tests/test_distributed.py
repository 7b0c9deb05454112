"""Issue 9: sweeps that survive interruption, and Dask clusters that give the
same tables as local runs (a LocalCluster on 127.0.0.1 started by the test)."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest

from gamelab.core import registry
from gamelab.sim import runner, sweep
from gamelab.sim.executors import DaskExecutor, LocalExecutor
from gamelab.sim.run import RunConfig
from gamelab.sim.store import CacheWarning, ChunkStore
from gamelab.toy import ToyParams

pytestmark = pytest.mark.slow(
    reason="a Dask LocalCluster started, workers killed, and metagame, report, skill and calibrate played twice"
)

GRID = """game: toy
grid: {bonus_scale: [0.5, 2.0]}
params: {delay: %s}
n_games: 1200
chunk_deals: 100
seed: 11
lineup: [strong, weak]
"""


def _sweep_cmd(tmp_path, name, delay):
    f = tmp_path / f"{name}.yaml"
    f.write_text(GRID % delay)
    return [
        sys.executable,
        "-m",
        "gamelab",
        "sweep",
        str(f),
        "--cache-dir",
        str(tmp_path / f"cache-{name}"),
        "--runs-dir",
        str(tmp_path / f"runs-{name}"),
        "--out",
        str(tmp_path / f"{name}.csv"),
    ]


def test_sigkill_midway_then_resume_matches_uninterrupted(tmp_path):
    cmd = _sweep_cmd(tmp_path, "killed", 0.1)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    cache = tmp_path / "cache-killed"
    deadline = time.time() + 60
    while len(list(cache.rglob("*.json"))) < 4 and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = len(list(cache.rglob("*.json")))
    assert 4 <= done_before < 12, done_before  # killed mid-way: 12 chunks in all, 6 a cell
    cells_done = len(list((tmp_path / "runs-killed").rglob("cell-*.parquet")))
    assert cells_done <= done_before // 6  # a cell's file follows its last chunk
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    # finished cells come back from the sweep's checkpoint, finished chunks from the cache: nothing twice
    assert (
        f"2 cells ({cells_done} read back finished), {12 - done_before} chunks simulated, "
        f"{done_before - 6 * cells_done} read from the cache"
    ) in out, out
    clean = subprocess.run(_sweep_cmd(tmp_path, "clean", 0.1), capture_output=True, text=True, check=True).stdout
    assert "12 chunks simulated, 0 read from the cache" in clean
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "killed.csv"), pd.read_csv(tmp_path / "clean.csv"))


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as c,
        distributed.Client(c) as client,
    ):
        yield c, client


def test_dask_cluster_gives_the_local_table(cluster):
    _, client = cluster
    kw = dict(n_games=3000, seed=21, lineup=["strong", "weak", "weak"], chunk_deals=200)
    local = runner.simulate(registry.get("toy"), **kw)
    remote = runner.simulate(registry.get("toy"), executor=DaskExecutor(client), **kw)
    pd.testing.assert_frame_equal(local, remote)


def test_killed_dask_worker_loses_no_results(cluster, tmp_path):
    c, client = cluster
    params = ToyParams(delay=0.15)
    kw = dict(n_games=2400, seed=31, lineup=["strong", "weak"], chunk_deals=100, base_params=params)
    expected = sweep.run_cell(
        registry.get("toy"), {}, **kw, run=RunConfig(store=ChunkStore(tmp_path / "a"), executor=LocalExecutor(2))
    )
    store = ChunkStore(tmp_path / "b")
    result = {}
    t = threading.Thread(
        target=lambda: result.update(
            run=sweep.run_cell(registry.get("toy"), {}, **kw, run=RunConfig(store=store, executor=DaskExecutor(client)))
        )
    )
    t.start()
    deadline = time.time() + 60
    while store.computed < 2 and time.time() < deadline:
        time.sleep(0.02)
    pids = client.run(os.getpid)
    os.kill(next(iter(pids.values())), signal.SIGKILL)
    t.join(120)
    assert "run" in result, "the sweep did not finish after a worker was killed"
    pd.testing.assert_frame_equal(result["run"].frame, expected.frame)
    assert store.computed == 12


def test_local_pool_survives_a_killed_worker(tmp_path):
    # a chunk that kills its own worker process once: the pool is rebuilt and the chunk rerun
    flag = tmp_path / "killed-once"
    os.environ["GAMELAB_TOY_KILL_ONCE"] = str(flag)
    try:
        kw = dict(n_games=800, seed=41, lineup=["strong", "weak"], chunk_deals=100)
        got = runner.simulate(registry.get("toy"), executor=LocalExecutor(2), **kw)
    finally:
        del os.environ["GAMELAB_TOY_KILL_ONCE"]
    assert flag.exists()
    pd.testing.assert_frame_equal(got, runner.simulate(registry.get("toy"), **kw))


def test_a_chunk_failing_on_every_worker_is_reported_with_its_seed(cluster):
    from gamelab.sim.executors import ChunkFailed

    _, client = cluster
    with pytest.raises(
        ChunkFailed,
        match=r"chunk 0 \(seed 77, spawn_key \(0,\)\) failed repeatedly: "
        r"RuntimeError: the crash agent always fails",
    ):
        runner.simulate(
            registry.get("toy"), n_games=20, seed=77, lineup=["crash", "weak"], executor=DaskExecutor(client, retries=1)
        )


def test_a_damaged_cell_checkpoint_is_recomputed(tmp_path):
    kw = dict(
        n_games=400,
        seed=6,
        lineup=["strong", "weak"],
        runs_dir=tmp_path / "r",
        run=RunConfig(store=ChunkStore(tmp_path / "c"), progress=False),
    )
    first = sweep.sweep(registry.get("toy"), {"bonus_scale": [1.0, 2.0]}, **kw)
    again = sweep.sweep(registry.get("toy"), {"bonus_scale": [1.0, 2.0]}, **kw)
    assert again.resumed == 2 and again.computed == first.computed
    victim = sorted((tmp_path / "r").rglob("cell-0001.parquet"))[0]
    victim.write_bytes(victim.read_bytes()[:-20])
    with pytest.warns(CacheWarning, match="manifest.json: cell-0001.parquet does not match its checksum"):
        third = sweep.sweep(registry.get("toy"), {"bonus_scale": [1.0, 2.0]}, **kw)
    assert third.resumed == 1 and third.cells[1] is not None
    pd.testing.assert_frame_equal(first.table, third.table)


def _worker_pid(_item) -> int:
    return os.getpid()


def _fail(_item) -> int:
    raise ValueError("a chunk that fails")


def test_local_workers_are_kept_across_calls_from_one_thread():
    """A report's many small runs share one pool: the second call is played by the first
    call's workers; a failed chunk stops that pool, another thread gets its own."""
    from gamelab.sim.executors import run_all

    ex = LocalExecutor(2)
    try:
        first = set(run_all(ex, _worker_pid, range(8), progress=False))
        pool = ex._pool
        workers = set(pool._processes)  # the pool's worker pids (a quick call may use only one of them)
        assert first <= workers and os.getpid() not in workers
        second = set(run_all(ex, _worker_pid, range(8), progress=False))
        assert ex._pool is pool and second <= workers
        with pytest.raises(ValueError, match="a chunk that fails"):
            run_all(ex, _fail, range(2), progress=False)
        after = set(run_all(ex, _worker_pid, range(8), progress=False))
        assert ex._pool is not pool and not after & workers  # the failed call's pool was stopped: new workers
        kept = set(ex._pool._processes)
        other: list = []
        t = threading.Thread(target=lambda: other.extend(run_all(ex, _worker_pid, range(8), progress=False)))
        t.start()
        t.join(60)
        assert other and not set(other) & kept  # PR_SET_PDEATHSIG follows the starting thread: its own pool
    finally:
        ex.close()


# --- issue 42: the heaviest commands on the cluster give the local answer --------------------------


def _command(capsys, monkeypatch, home, argv) -> str:
    """``gamelab ARGV``'s standard output, with the workspace (its chunk store and report cache) at ``home``:
    every run starts from an empty store, so the cluster plays every game the local run played."""
    from gamelab.cli.commands import main

    monkeypatch.setenv("GAMELAB_HOME", str(home))
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _local_and_cluster(cluster, capsys, monkeypatch, tmp_path, argv) -> tuple[str, str]:
    from dask.distributed import get_task_stream

    c, client = cluster
    local = _command(capsys, monkeypatch, tmp_path / "local", argv)
    with get_task_stream(client) as tasks:
        remote = _command(capsys, monkeypatch, tmp_path / "cluster", [*argv, "--scheduler", c.scheduler_address])
    assert tasks.data, "the cluster played no game"  # the games went to the cluster, not to local processes
    return local, remote


def test_metagame_on_the_cluster_gives_the_local_answer(cluster, capsys, monkeypatch, tmp_path):
    argv = ["metagame", "strand", "--players", "4", "--deals", "16", "--psro", "0", "--json"]
    local, remote = _local_and_cluster(cluster, capsys, monkeypatch, tmp_path, argv)
    assert json.loads(local)["table_answer"] and remote == local
    # the cluster played every profile: its store holds as many chunks as the local one
    assert len(list((tmp_path / "cluster").rglob("*.json"))) == len(list((tmp_path / "local").rglob("*.json"))) > 0


def test_report_on_the_cluster_gives_the_local_answer(cluster, capsys, monkeypatch, tmp_path):
    import matplotlib

    monkeypatch.setitem(matplotlib.rcParams, "svg.hashsalt", "issue 42")  # the charts' clip-path ids, else random
    argv = ["report", "strand", "--games", "200", "--tool-games", "100", "--no-skill", "--no-cross-model"]
    local, remote = _local_and_cluster(cluster, capsys, monkeypatch, tmp_path, [*argv, "--no-metagame"])
    pages = [tmp_path / where / "reports" / "strand.html" for where in ("local", "cluster")]
    assert local.replace(str(pages[0]), "PAGE") == remote.replace(str(pages[1]), "PAGE")
    assert "%" in local  # the first screen's figures, read back from each page
    # the pages are the same but for the minute each was made (its footer's "YYYY-MM-DD HH:MM")
    local_page, remote_page = (re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d", "WHEN", p.read_text("utf-8")) for p in pages)
    assert remote_page == local_page


def test_skill_and_calibrate_on_the_cluster_give_the_local_answer(cluster, capsys, monkeypatch, tmp_path):
    local, remote = _local_and_cluster(
        cluster, capsys, monkeypatch, tmp_path / "skill", ["skill", "pig", "--players", "2", "--games", "400", "--json"]
    )
    assert len(json.loads(local)) >= 2 and remote == local
    argv = ["calibrate", "strand", "--trials", "2", "--games", "100", "--verbose"]
    local, remote = _local_and_cluster(cluster, capsys, monkeypatch, tmp_path / "calibrate", argv)
    # the study and the profile live in each run's own workspace: the rest, every trial's objective, is the same
    homes = [str(tmp_path / "calibrate" / where) for where in ("local", "cluster")]
    assert "trial 1: objective" in local and local.replace(homes[0], "HOME") == remote.replace(homes[1], "HOME")
