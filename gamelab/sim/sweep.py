"""Parameter sweeps: ``itertools.product`` over named parameters, each cell
played on the same deals (common random numbers), summarised as tidy rows.

    sweep(GAME, {"sum_cap": [6, 7, 8], "n_players": [4, 6]}, n_games=20_000, seed=1)

Grid keys are the game's declared parameters (``gamelab.core.params.specs``), the
game's derived knobs (for example a scale of the node curve) and
``n_players``.  Every finished chunk goes to the chunk store at once
(``gamelab.sim.store``), so a sweep interrupted in any way resumes where it was and
a cell computed before returns without simulating.  ``precision=0.01`` keeps
adding chunks to a cell until every win rate's 95 % half-width is at most one
percentage point, or ``max_games`` is reached (the table says which).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gamelab import stats
from gamelab.core import paths
from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError, ParamError, short
from gamelab.core.limits import MAX_GAMES
from gamelab.core.params import from_mapping, specs
from gamelab.sim import runner
from gamelab.sim.run import RunConfig
from gamelab.sim.store import (
    atomic_write,
    code_fingerprint,
    key_of,
    read_checked_parquet,
    warn_untrusted,
    writing,
)

SPECIAL = ("n_players", "variant")


def summarize(df: pd.DataFrame) -> pd.DataFrame:
    """Tidy metrics of one cell: metric, by, group, value, low, high, n."""
    rows = []
    for by in [c for c in ("agent", "style", "role", "seat") if c in df]:
        for key, g in df.groupby(by, sort=True):
            w = stats.wilson(g["win"].sum(), len(g))
            rows.append(("win_rate", by, str(key), w.value, w.low, w.high, w.n))
            m = stats.mean_interval(g["score"])
            rows.append(("score", by, str(key), m.value, m.low, m.high, m.n))
    skip = {"game", "deal", "rotation", "seat", "agent", "win", "score"}
    for col in df.columns:
        if col in skip or not pd.api.types.is_numeric_dtype(df[col]):
            continue
        m = stats.mean_interval(df[col].astype(float))
        rows.append((col, "all", "all", m.value, m.low, m.high, m.n))
    return pd.DataFrame(rows, columns=["metric", "by", "group", "value", "low", "high", "n"])


def paired_difference(
    cell: pd.DataFrame, base: pd.DataFrame, *, metric: str = "win", by: str = "agent"
) -> pd.DataFrame:
    """Cell minus baseline per group, paired game by game on the common deals
    (both must come from the same seed and seating), with a t interval."""

    def per_game(df):
        return df.groupby(["deal", "rotation", by])[metric].mean()

    a, b = per_game(cell), per_game(base)
    joined = pd.concat([a.rename("cell"), b.rename("base")], axis=1, join="inner")
    rows = []
    for key, g in joined.groupby(level=by):
        e = stats.mean_interval(g["cell"] - g["base"])
        rows.append(
            {
                "metric": metric,
                "by": by,
                "group": str(key),
                "difference": e.value,
                "low": e.low,
                "high": e.high,
                "n": e.n,
            }
        )
    return pd.DataFrame(rows)


@dataclasses.dataclass
class CellRun:
    cell: dict
    params: Any
    lineup: tuple
    n_players: int
    games: int
    target_met: bool | None
    frame: pd.DataFrame


def grid_cells(grid: Mapping[str, Sequence]) -> list[dict]:
    names = list(grid)
    return [dict(zip(names, values)) for values in itertools.product(*(list(grid[n]) for n in names))]


def cell_setting(game: Game, cell: Mapping, *, base_params=None, lineup=None, n_players=None):
    """The parameter object, lineup and player count of one cell."""
    base = base_params if base_params is not None else game.knobs()
    known = {s.name for s in specs(game.knobs)} | set(game.derived) | set(SPECIAL)
    for k in cell:
        if k not in known:
            raise GamelabError(f"unknown sweep parameter {k!r}: known are {', '.join(sorted(known))}")
    if "variant" in cell:  # the rulebook's variant first, then the cell's own changes on top
        if not isinstance(cell["variant"], str) or cell["variant"] not in game.variants:
            raise ParamError(f"variant {short(cell['variant'])} is unknown: {game.name} has {', '.join(game.variants)}")
        variant = game.params_for_variant(cell["variant"])
        base = from_mapping(game.knobs, variant.changed(), base=base, source=f"variant {cell['variant']}")
    changes = {k: v for k, v in cell.items() if k in {s.name for s in specs(game.knobs)}}
    for k, v in cell.items():
        if k in game.derived:
            changes.update(game.derived[k](base, v))
    params = from_mapping(game.knobs, changes, base=base, source=f"sweep cell {dict(cell)}")
    players = cell.get("n_players", n_players)
    return runner.resolve(game, params, lineup, players)


def check_grid(
    game: Game, grid: Mapping[str, Sequence], *, base_params=None, lineup=None, n_players=None, source: str = "grid"
) -> None:
    """Every cell of a grid, set up without playing: a bad key, value or
    lineup is refused before any game is played (naming ``source`` and the cell)."""
    if not isinstance(grid, Mapping) or not grid:
        raise GamelabError(f"{source}: the grid is a mapping of parameter names to lists of values")
    for key, values in grid.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
            raise GamelabError(f"{source}: grid.{key}: a non-empty list of values, not {short(values)}")
    for cell in grid_cells(grid):
        try:
            cell_setting(game, cell, base_params=base_params, lineup=lineup, n_players=n_players)
        except GamelabError as exc:
            raise GamelabError(f"{source}: cell {short(dict(cell), 80)}: {exc}") from None


def run_cell(
    game: Game,
    cell: Mapping,
    *,
    n_games: int,
    seed: int,
    base_params=None,
    lineup=None,
    n_players=None,
    precision: float | None = None,
    max_games: int = MAX_GAMES,
    chunk_deals: int | None = None,
    run: RunConfig | None = None,
) -> CellRun:
    """Play one cell (from the store where possible); with ``precision``,
    keep adding chunks until every win rate is that tight or ``max_games``."""
    params, lineup, players = cell_setting(game, cell, base_params=base_params, lineup=lineup, n_players=n_players)
    run = (run or RunConfig()).ready()
    chunks = runner.plan(
        game, n_games=n_games, seed=seed, params=params, lineup=lineup, n_players=players, chunk_deals=chunk_deals
    )
    frames = _fetch(chunks, run)
    met = None
    while precision is not None:
        df = pd.concat(frames, ignore_index=True)
        widths = summarize(df).query("metric == 'win_rate'")
        met = bool(((widths["high"] - widths["low"]) / 2 <= precision).all())
        games = df["game"].nunique()
        if met or games >= max_games:
            break
        more = runner.plan(
            game,
            n_games=min(games, max_games - games),
            seed=seed,
            params=params,
            lineup=lineup,
            n_players=players,
            chunk_deals=chunk_deals,
            first_chunk=chunks[-1].index + 1,
        )
        chunks += more
        frames += _fetch(more, run)
    df = pd.concat(frames, ignore_index=True)
    return CellRun(dict(cell), params, lineup, players, int(df["game"].nunique()), met, df)


def _fetch(chunks, run: RunConfig) -> list[pd.DataFrame]:
    return runner.fetch(chunks, run.chunk_store(), run.pool(), run.progress)


@dataclasses.dataclass
class SweepResult:
    table: pd.DataFrame  # one row per cell and metric
    cells: list[CellRun | None]  # None for a cell read back from the sweep's checkpoint
    sweep_id: str
    computed: int  # chunks simulated by this call
    loaded: int  # chunks read back from the store
    resumed: int = 0  # finished cells read back from data/runs/<sweep id>/


def _cell_file(run_dir: Path, i: int) -> Path:
    return run_dir / "cells" / f"cell-{i:04d}.parquet"


SUMMARY_CODE = ("sim/sweep.py", "stats/intervals.py")  # what turns a cell's chunks into its table


def cell_code(game: Game) -> str:
    """Fingerprint of the code behind a cell's table: the game's chunks
    (:func:`gamelab.sim.store.code_fingerprint`) and the summaries of this module."""
    from gamelab.sim.store import SOURCE_ROOT

    summary = [(name, hashlib.sha256((SOURCE_ROOT / name).read_bytes()).hexdigest()) for name in SUMMARY_CODE]
    return key_of({"chunks": code_fingerprint(game.name), "summary": summary})


def _load_manifest(path: Path, sweep_id: str, spec: dict, code: str, n_cells: int) -> list:
    """The cell entries of a sweep's manifest, if it is this sweep's, made by
    this code; otherwise (with a warning unless there is none) no entries."""
    if not path.exists():
        return [None] * n_cells
    reason: str | None
    try:
        manifest = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        reason = f"unreadable manifest ({type(exc).__name__})"
    else:
        reason = _manifest_problem(manifest, sweep_id, spec, code, n_cells)
    if reason is not None:
        warn_untrusted(path, reason, "sweep")
        return [None] * n_cells
    return manifest["cells"]


def _manifest_problem(manifest, sweep_id: str, spec: dict, code: str, n_cells: int) -> str | None:
    if not isinstance(manifest, dict):
        return f"the manifest holds a {type(manifest).__name__}, not a mapping"
    if manifest.get("sweep_id") != sweep_id or manifest.get("spec") != spec:
        return "it is another sweep's manifest"
    if manifest.get("code") != code:
        return "it was made by other code (the game's rules, agents or the summaries changed)"
    cells = manifest.get("cells")
    if not isinstance(cells, list) or len(cells) != n_cells:
        return f"the manifest's cells are not a list of {n_cells}"
    return None


def _entry_problem(entry, run_dir: Path, i: int, cell: Mapping) -> str | None:
    if not isinstance(entry, dict):
        return f"cell {i}'s record is a {type(entry).__name__}, not a mapping"
    if entry.get("cell") != _json(cell):
        return f"cell {i}'s record is for cell {entry.get('cell')!r}, not {_json(cell)!r}"
    if entry.get("file") != str(_cell_file(run_dir, i).relative_to(run_dir)):
        return f"cell {i}'s record names the file {entry.get('file')!r}"
    if not isinstance(entry.get("rows"), int) or not isinstance(entry.get("sha256"), str):
        return f"cell {i}'s record has no row count or checksum"
    return None


def _json(x):
    return json.loads(json.dumps(x, default=str))


def _load_cell(run_dir: Path, i: int, entry, cell: Mapping) -> pd.DataFrame | None:
    """A finished cell's table, if its manifest record and file match; a
    record or file that does not is recomputed with a warning."""
    if entry is None:
        return None
    reason = _entry_problem(entry, run_dir, i, cell)
    t = None
    if reason is None:
        t, reason = read_checked_parquet(_cell_file(run_dir, i), entry["sha256"], entry["rows"])
    if reason is not None:
        warn_untrusted(run_dir / "manifest.json", reason, "cell")
    return t


def _save_cell(run_dir: Path, i: int, t: pd.DataFrame) -> dict:
    import io

    path = _cell_file(run_dir, i)
    buf = io.BytesIO()
    t.to_parquet(buf, index=False)
    raw = buf.getvalue()
    with writing(run_dir, "the sweep directory"):
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, raw)
    return {"file": str(path.relative_to(run_dir)), "rows": len(t), "sha256": hashlib.sha256(raw).hexdigest()}


# Over 60 lines: a third is the docstring (what resumes and what is recomputed) and two keyword
# tables (the sweep's identity, every cell's setting) that read best beside the loop using them.
def sweep(
    game: Game,
    grid: Mapping[str, Sequence],
    *,
    n_games: int,
    seed: int,
    lineup=None,
    n_players=None,
    base_params=None,
    baseline: Mapping | None = None,
    precision: float | None = None,
    max_games: int = MAX_GAMES,
    chunk_deals: int | None = None,
    runs_dir: Path | None = None,
    run: RunConfig | None = None,
) -> SweepResult:
    """Every cell of ``grid``; with ``baseline`` (a cell), paired differences
    of each cell's win rates against it are added as ``metric == 'win_rate_diff'``.

    Checkpoints: each finished cell's table is written to
    ``data/runs/<sweep id>/cells/`` and recorded (rows, SHA-256) in the
    sweep's ``manifest.json`` as it completes; every finished chunk is in the
    chunk store.  Run the same sweep again after any interruption and it
    reads the finished cells and chunks back and computes only the rest.
    The manifest records the code fingerprint (:func:`cell_code`); a manifest
    of another sweep or other code, or of the wrong shape, and a cell whose
    record or file does not match, are recomputed with a
    :class:`~gamelab.sim.store.CacheWarning`."""
    run = (run or RunConfig()).ready()
    check_grid(game, grid, base_params=base_params, lineup=lineup, n_players=n_players)  # before anything runs
    cells = grid_cells(grid)
    spec = {
        "game": game.name,  # the sweep's id hashes the name, as before
        "grid": {k: list(v) for k, v in grid.items()},
        "n_games": n_games,
        "seed": seed,
        "lineup": list(lineup) if lineup else None,
        "n_players": n_players,
        "precision": precision,
        "max_games": max_games,
        "base_params": base_params,
        "baseline": baseline,
        "chunk_deals": chunk_deals,
    }
    run_dir, manifest = _open_manifest(game, spec, len(cells), runs_dir)
    kw = dict(
        n_games=n_games,
        seed=seed,
        base_params=base_params,
        lineup=lineup,
        n_players=n_players,
        precision=precision,
        max_games=max_games,
        chunk_deals=chunk_deals,
        run=run,
    )
    base_run = None
    runs: list[CellRun | None] = []
    tables: list[pd.DataFrame] = []
    resumed = 0
    for i, cell in enumerate(cells):
        t = _load_cell(run_dir, i, manifest["cells"][i], cell)
        if t is not None:
            resumed += 1
            runs.append(None)
            tables.append(t)
            continue
        if baseline is not None and base_run is None:
            base_run = run_cell(game, baseline, **kw)
        cell_run = run_cell(game, cell, **kw)
        runs.append(cell_run)
        tables.append(_cell_table(game, cell, cell_run, base_run))
        _record_cell(run_dir, manifest, i, cell, cell_run, tables[-1])
    table = pd.concat(tables, ignore_index=True)
    with writing(run_dir, "the sweep directory"):
        table.to_parquet(run_dir / "table.parquet", index=False)
    store = run.chunk_store()
    return SweepResult(table, runs, manifest["sweep_id"], store.computed, store.loaded, resumed)


def _open_manifest(game: Game, spec: dict, n_cells: int, runs_dir) -> tuple[Path, dict]:
    """The sweep's folder ``data/runs/<sweep id>/`` and its manifest: the
    finished cells' records when the manifest is this sweep's, made by this
    code (:func:`cell_code`), else none."""
    sweep_id = key_of(spec)[:16]
    run_dir = Path(runs_dir or paths.runs_dir()) / sweep_id
    with writing(run_dir, "the sweep directory"):
        run_dir.mkdir(parents=True, exist_ok=True)
    code = cell_code(game)
    spec_json = _json(spec)
    cells = _load_manifest(run_dir / "manifest.json", sweep_id, spec_json, code, n_cells)
    return run_dir, {"sweep_id": sweep_id, "spec": spec_json, "code": code, "cells": cells}


def _cell_table(game: Game, cell: Mapping, cell_run: CellRun, base_run: CellRun | None) -> pd.DataFrame:
    """One cell's rows of the sweep table: its summary (and the paired
    difference from the baseline cell), the cell's values, games, target met."""
    t = summarize(cell_run.frame)
    if base_run is not None:
        groups = [g for g in game.report.groups if g in cell_run.frame] or ["agent"]
        d = paired_difference(cell_run.frame, base_run.frame, by=groups[0]).rename(columns={"difference": "value"})
        d["metric"] = "win_rate_diff"
        t = pd.concat([t, d[t.columns]], ignore_index=True)
    for k, v in cell.items():
        t.insert(0, k, [v] * len(t))
    t["games"] = cell_run.games
    t["target_met"] = cell_run.target_met
    return t


def _record_cell(run_dir: Path, manifest: dict, i: int, cell: Mapping, cell_run: CellRun, table: pd.DataFrame) -> None:
    """Save a finished cell's table and record it in the manifest (written whole, at once)."""
    manifest["cells"][i] = {"cell": _json(cell), "games": cell_run.games, **_save_cell(run_dir, i, table)}
    with writing(run_dir, "the sweep directory"):
        atomic_write(run_dir / "manifest.json", json.dumps(manifest, indent=1, ensure_ascii=False).encode())
