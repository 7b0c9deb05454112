"""The rulebooks' published numbers, kept as data under ``data/claims/``.

One CSV per published table; each row is one cell: game, section, table,
row, column, value, unit, note.  ``load_claims`` reads them all; the audit
that puts our measurement beside each cell builds on this frame.

Two kinds of cells: the appendices' simulated figures, measured by each
game's ``claims.measure`` with a 95 % interval, and every number the rules
alone decide (``<game>_rules.csv``), whose ``quantity`` column names the key
of the game's ``exact.exact_claims(params)``: :func:`exact_audit` puts the
exact value beside them (``low = high = ours``, ``n`` NaN) and ``inside``
means equal up to the printed rounding (half a unit of the last digit of
the figure as written in the CSV, kept in ``printed``).
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
        if path.stem.endswith("_coverage"):  # the rulebook lines' coverage map (gamelab.coverage), not cells
            continue
        df = pd.read_csv(path, dtype={"value": str}, keep_default_na=False)
        missing = [c for c in COLUMNS if c not in df.columns]
        if missing:
            raise ValueError(f"{path.name}: missing columns {missing}")
        df["printed"] = df["value"].str.strip()
        df["value"] = df["printed"].astype(float)
        if "quantity" not in df:
            df["quantity"] = ""
        df["source"] = path.name
        frames.append(df)
    out = pd.concat(frames, ignore_index=True)
    return out if game is None else out[out["game"] == game].reset_index(drop=True)


def is_exact(claims: pd.DataFrame) -> pd.Series:
    """Rows whose figure the rules alone decide (a ``quantity`` is named)."""
    if "quantity" not in claims:
        return pd.Series(False, index=claims.index)
    return claims["quantity"].fillna("").astype(str).str.len() > 0


def exact_audit(rows: pd.DataFrame, values: dict) -> pd.DataFrame:
    """``rows`` (exact claims) with ``ours`` = ``values[quantity]``, ``low`` =
    ``high`` = ours, ``n`` NaN, ``inside`` (equal up to the printed rounding)
    and ``note`` "exact" (plus the row's own note, e.g. its erratum)."""
    from .identities import rounding

    out = rows.copy()
    ours = [float(values[q]) if q in values else float("nan") for q in out["quantity"]]
    out["ours"] = ours
    out["low"] = out["high"] = out["ours"]
    out["n"] = float("nan")
    printed = out["printed"] if "printed" in out else out["value"].map(repr)
    tol = [rounding(str(p)) for p in printed]
    out["inside"] = [bool(abs(o - v) <= t + 1e-9) for o, v, t in zip(ours, out["value"], tol)]
    out["note"] = [
        "exact" + (f"; {n}" if n else "") + ("" if q in values else "; not computed")
        for n, q in zip(out["note"].fillna(""), out["quantity"])
    ]
    return out


def games_with_claims() -> tuple[str, ...]:
    """The registered games that publish figures to audit."""
    from . import registry

    return tuple(g for g in registry.available_games() if registry.get(g).claims is not None)


def audit(
    games=None,
    *,
    n_games: int = 20_000,
    seed: int = 0,
    workers: int = 2,
    progress: bool | None = None,
    params: dict | None = None,
) -> pd.DataFrame:
    """Every published cell with ours beside it: ``ours``, ``low``, ``high``
    (95 %), ``n``, ``inside`` (the published value lies in our interval);
    ``games`` defaults to every game with claims; ``params`` maps a game to
    the parameters it is measured with (default: its rules and model defaults)."""
    from . import registry

    frames = []
    for game in games or games_with_claims():
        claims = registry.get(game).claims
        if claims is None:
            continue
        frames.append(
            claims.measure(
                load_claims(game),
                n_games=n_games,
                seed=seed,
                workers=workers,
                progress=progress,
                params=(params or {}).get(game),
            )
        )
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
