"""The chunk store and sweep checkpoints: every cached result is provably
current (code fingerprint, stored identity) and a damaged or foreign file is
recomputed with a warning, never trusted and never a traceback."""

import json
import shutil

import pandas as pd
import pytest

from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.sim import store as store_mod
from gamelab.sim import sweep
from gamelab.sim.run import RunConfig
from gamelab.sim.store import CacheWarning, ChunkStore

KW = dict(n_games=400, seed=3, lineup=["strong", "weak"], chunk_deals=100)  # 2 chunks of 100 deals x 2 seatings


@pytest.fixture
def store(tmp_path):
    return ChunkStore(tmp_path / "cache")


@pytest.fixture
def source_copy(tmp_path, monkeypatch):
    """A copy of gamelab's sources that the fingerprint reads instead of the real ones."""
    root = tmp_path / "src"
    shutil.copytree(store_mod.SOURCE_ROOT, root, ignore=shutil.ignore_patterns("__pycache__", "templates"))
    monkeypatch.setattr(store_mod, "SOURCE_ROOT", root)
    yield root
    store_mod.code_fingerprint.cache_clear()


def _edit(path, old=None, new=None):
    """Edit a source file the way a designer would, then let this process see it."""
    text = path.read_text()
    path.write_text(text.replace(old, new) if old else text + "\n# edited\n")
    store_mod.code_fingerprint.cache_clear()


def _side_files(store):
    files = sorted(store.dir.rglob("*.json"))
    return {json.loads(f.read_text())["identity"]["spawn_key"][0]: f for f in files}


def test_a_source_edit_in_a_game_package_changes_the_fingerprint(source_copy):
    before = {g: store_mod.code_fingerprint(g) for g in ("sbr", "strand", "toy")}
    _edit(source_copy / "sbr" / "rules.py")
    assert store_mod.code_fingerprint("sbr") != before["sbr"]
    assert store_mod.code_fingerprint("strand") == before["strand"]  # another game's code: its cache stands
    _edit(source_copy / "report" / "render.py")  # not on the play path
    assert store_mod.code_fingerprint("strand") == before["strand"]
    _edit(source_copy / "stats" / "balance.py")  # the metrics over the rows, not on the play path
    assert store_mod.code_fingerprint("toy") == before["toy"]
    _edit(source_copy / "stats" / "leads.py")  # shared, counted by the games' play (the runner's shared play too)
    assert store_mod.code_fingerprint("strand") != before["strand"]
    assert store_mod.code_fingerprint("toy") != before["toy"]


def test_a_rule_edit_invalidates_cached_chunks(store, source_copy):
    sweep.run_cell(registry.get("toy"), {}, **KW, run=RunConfig(store=store))
    sweep.run_cell(registry.get("toy"), {}, **KW, run=RunConfig(store=store))
    assert (store.computed, store.loaded) == (2, 2)
    _edit(source_copy / "toy.py", '"strong": 3', '"strong": 4')
    sweep.run_cell(registry.get("toy"), {}, **KW, run=RunConfig(store=store))
    assert (store.computed, store.loaded) == (4, 2)  # played again, not read back


def test_the_fingerprint_follows_imports_of_shared_modules():
    root = store_mod.SOURCE_ROOT
    names = {str(p.relative_to(root)) for p in store_mod.source_files("sbr") if p.parent != root / "sbr"}
    assert {"sim/runner.py", "core/params.py", "stats/leads.py", "core/errors.py"} <= names
    assert not {n for n in names if n.startswith(("report/", "ui/", "cli/", "strand/", "pig/"))}
    assert "sim/sweep.py" not in names
    with pytest.raises(GamelabError, match="cannot fingerprint the code of game 'chess'"):
        store_mod.code_fingerprint("chess")


def test_a_chunk_copied_over_another_is_recomputed_with_a_warning(store):
    first = sweep.run_cell(registry.get("toy"), {}, **KW, run=RunConfig(store=store))
    side = _side_files(store)
    for suffix in (".json", ".parquet"):
        shutil.copy(side[0].with_suffix(suffix), side[1].with_suffix(suffix))
    with pytest.warns(CacheWarning, match=rf"{side[1].name}: it is another chunk: spawn_key \[0\], expected \[1\]"):
        again = sweep.run_cell(registry.get("toy"), {}, **KW, run=RunConfig(store=store))
    assert (store.computed, store.loaded, store.rejected) == (3, 1, 1)
    pd.testing.assert_frame_equal(first.frame, again.frame)


@pytest.mark.parametrize(
    "damage, reason",
    [
        (lambda t: t[: len(t) // 2], "unreadable side file"),
        (lambda t: "\x00\xff garbage", "unreadable side file"),
        (lambda t: "[1, 2, 3]", "the side file holds a list, not a mapping"),
        (lambda t: json.dumps({**json.loads(t), "rows": "many"}), "rows 'many', expected 400"),
        (
            lambda t: json.dumps({k: v for k, v in json.loads(t).items() if k != "identity"}),
            "the side file has no identity",
        ),
        (lambda t: json.dumps({**json.loads(t), "sha256": None}), "the side file has no checksum"),
    ],
)
def test_a_damaged_side_file_is_recomputed(store, damage, reason):
    first = sweep.run_cell(registry.get("toy"), {}, **KW, run=RunConfig(store=store))
    victim = _side_files(store)[1]
    victim.write_text(damage(victim.read_text()))
    with pytest.warns(CacheWarning, match=f"{victim.name}: {reason}"):
        again = sweep.run_cell(registry.get("toy"), {}, **KW, run=RunConfig(store=store))
    assert (store.computed, store.rejected) == (3, 1)
    pd.testing.assert_frame_equal(first.frame, again.frame)
    sweep.run_cell(
        registry.get("toy"), {}, **KW, run=RunConfig(store=store)
    )  # rewritten whole: read back without a warning
    assert store.rejected == 1


def _sweep(store, tmp_path):
    return sweep.sweep(
        registry.get("toy"),
        {"bonus_scale": [1.0, 2.0]},
        runs_dir=tmp_path / "runs",
        **KW,
        run=RunConfig(store=store, progress=False),
    )


@pytest.mark.parametrize(
    "manifest, reason",
    [
        ('["not", "a", "manifest"]', "holds a list, not a mapping"),
        ('{"cells": 5}', "another sweep's manifest"),
        ("{", "unreadable manifest"),
    ],
)
def test_a_wrong_shape_manifest_is_recomputed_with_a_warning(store, tmp_path, manifest, reason):
    first = _sweep(store, tmp_path)
    path = tmp_path / "runs" / first.sweep_id / "manifest.json"
    path.write_text(manifest)
    with pytest.warns(CacheWarning, match=f"manifest.json: .*{reason}.*; the sweep is recomputed"):
        again = _sweep(store, tmp_path)
    assert again.resumed == 0
    pd.testing.assert_frame_equal(first.table, again.table)
    assert _sweep(store, tmp_path).resumed == 2  # the manifest was rewritten whole


def test_manifest_cell_records_are_checked(store, tmp_path):
    first = _sweep(store, tmp_path)
    path = tmp_path / "runs" / first.sweep_id / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["cells"][0], manifest["cells"][1] = manifest["cells"][1], 7  # a cell's record moved, one garbage
    path.write_text(json.dumps(manifest))
    with pytest.warns(CacheWarning) as caught:
        again = _sweep(store, tmp_path)
    text = " | ".join(str(w.message) for w in caught)
    assert "cell 0's record is for cell {'bonus_scale': 2.0}" in text and "cell 1's record is a int" in text
    assert again.resumed == 0
    pd.testing.assert_frame_equal(first.table, again.table)


def test_a_code_change_invalidates_finished_sweep_cells(store, tmp_path, source_copy):
    _sweep(store, tmp_path)
    assert _sweep(store, tmp_path).resumed == 2
    _edit(source_copy / "toy.py")
    with pytest.warns(CacheWarning, match="made by other code"):
        again = _sweep(ChunkStore(store.dir), tmp_path)
    assert (again.resumed, again.computed, again.loaded) == (0, 4, 0)  # no cell and no chunk reused


def test_an_unwritable_cache_directory_is_refused_naming_it(tmp_path):
    blocker = tmp_path / "somefile"
    blocker.write_text("a file where the cache directory should be")
    bad = ChunkStore(blocker / "sub")
    with pytest.raises(GamelabError, match=f"the cache directory {blocker / 'sub'} is not writable"):
        bad.check_writable()
    with pytest.raises(GamelabError, match=f"the cache directory {blocker / 'sub'} is not writable"):
        sweep.run_cell(registry.get("toy"), {}, **KW, run=RunConfig(store=bad))
    with pytest.raises(GamelabError, match=f"the sweep directory {blocker / 'runs'}/[0-9a-f]+ is not writable"):
        sweep.sweep(
            registry.get("toy"),
            {"bonus_scale": [1.0]},
            runs_dir=blocker / "runs",
            **KW,
            run=RunConfig(store=ChunkStore(tmp_path / "ok"), progress=False),
        )
    assert not list((tmp_path / "ok").rglob("*.json"))  # refused before any game was played
    ChunkStore(tmp_path / "fine").check_writable()
    assert not list((tmp_path / "fine").iterdir())  # the probe leaves nothing behind


def test_a_chunks_arrays_round_trip_and_a_damaged_file_is_recomputed(store):
    import numpy as np

    from gamelab import runner

    (chunk,) = runner.plan(registry.get("toy"), n_games=20, seed=1, n_players=2, lineup=["strong", "weak"])
    arrays = {"wins": np.arange(6.0).reshape(3, 2) / 3, "seats": np.ones((3, 2))}
    assert store.get_arrays(chunk, "t") is None
    store.put_arrays(chunk, "t", arrays)
    got = store.get_arrays(chunk, "t")
    assert set(got) == {"wins", "seats"} and all(np.array_equal(got[k], arrays[k]) for k in arrays)
    assert store.get_arrays(chunk, "another tag") is None and store.get(chunk) is None
    (data,) = store.dir.rglob("*.npz")
    data.write_bytes(data.read_bytes()[:-3] + b"xyz")
    with pytest.warns(CacheWarning, match="does not match its checksum"):
        assert store.get_arrays(chunk, "t") is None
