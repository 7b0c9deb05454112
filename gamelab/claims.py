"""The rulebooks' published numbers, kept as data under ``data/claims/``.

One CSV per published table; each row is one cell: game, section, table,
row, column, value, unit, note.  ``load_claims`` reads them all; the audit
that puts our measurement beside each cell builds on this frame.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

CLAIMS_DIR = Path(__file__).resolve().parent.parent / "data" / "claims"
COLUMNS = ["game", "section", "table", "row", "column", "value", "unit", "note"]


def load_claims(game: str | None = None, directory: Path | None = None) -> pd.DataFrame:
    """All published cells (optionally of one game), with a ``source`` column
    naming the file each came from."""
    directory = Path(directory or CLAIMS_DIR)
    frames = []
    for path in sorted(directory.glob("*.csv")):
        df = pd.read_csv(path, dtype={"value": float}, keep_default_na=False)
        missing = [c for c in COLUMNS if c not in df.columns]
        if missing:
            raise ValueError(f"{path.name}: missing columns {missing}")
        df["source"] = path.name
        frames.append(df)
    out = pd.concat(frames, ignore_index=True)
    return out if game is None else out[out["game"] == game].reset_index(drop=True)


def audit(games=("sbr", "strand"), *, n_games: int = 20_000, seed: int = 0, workers: int = 2,
          progress: bool | None = None) -> pd.DataFrame:
    """Every published cell with ours beside it: ``ours``, ``low``, ``high``
    (95 %), ``n``, ``inside`` (the published value lies in our interval)."""
    import importlib

    frames = []
    for game in games:
        mod = importlib.import_module(f"gamelab.{game}.claims")
        frames.append(mod.measure(load_claims(game), n_games=n_games, seed=seed, workers=workers, progress=progress))
    return pd.concat(frames, ignore_index=True)
