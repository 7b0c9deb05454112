"""The rulebooks' published numbers, kept as data under ``data/claims/``.

One CSV per published table; each row is one cell: game, section, table,
row, column, value, unit, note.  ``load_claims`` reads them all; the audit
that puts our measurement beside each cell builds on this frame.

Two kinds of cells: the appendices' simulated figures, measured (:func:`measure`:
the runs each game's ``claims.runs`` asks for, played here, then its pure
``claims.audit``) with a 95 % interval, and every number the rules
alone decide (``<game>_rules.csv``), whose ``quantity`` column names the key
of the game's ``exact_claims.exact_claims(params)``: :func:`exact_audit` puts the
exact value beside them (``low = high = ours``, ``n`` NaN) and ``inside``
means equal up to the printed rounding (half a unit of the last digit of
the figure as written in the CSV, kept in ``printed``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gamelab.core.contract import Game, Run
from gamelab.core.errors import GamelabError
from gamelab.sim.run import RunConfig

CLAIMS_DIR = Path(__file__).resolve().parents[2] / "data" / "claims"
COLUMNS = ["game", "section", "table", "row", "column", "value", "unit", "note"]


def load_claims(game: str | None = None, directory: Path | None = None) -> pd.DataFrame:
    """All published cells (optionally of one game, by the name in the files'
    ``game`` column), with a ``source`` column naming the file each came from."""
    directory = Path(directory or CLAIMS_DIR)
    frames = []
    for path in sorted(directory.glob("*.csv")):
        if path.stem.endswith("_coverage"):  # the rulebook lines' coverage map (gamelab.rulebook.coverage), not cells
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
    from gamelab.rulebook.identities import rounding

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


def measure(
    game: Game,
    claims: pd.DataFrame | None = None,
    *,
    n_games: int = 20_000,
    seed: int = 0,
    params=None,
    run: RunConfig | None = None,
) -> pd.DataFrame:
    """The game's rows of ``claims`` (default: all it publishes) with ours
    beside each: the rules-decided rows exactly (:func:`exact_audit`), the
    simulated ones from the runs the game asks for (``Game.rulebook.claims.runs``),
    played here and handed to the game's pure ``audit``."""
    run = run or RunConfig()
    from gamelab.rulebook.identities import play_runs

    if game.rulebook.claims is None:
        raise GamelabError(f"{game.name} publishes no figures to audit (Game.rulebook.claims)")
    name = game.name
    rows = load_claims(name) if claims is None else claims[claims["game"] == name].reset_index(drop=True)
    exact = is_exact(rows)
    audited = exact_audit(rows[exact], game.rulebook.claims.exact_claims(params)) if exact.any() else None
    simulated = rows[~exact]
    runs = game.rulebook.claims.runs(simulated, n_games, seed) if len(simulated) else {}
    frames = play_runs(game, runs, params, run=run)
    return game.rulebook.claims.audit(rows, audited, frames, seed)


def conclusions(
    game: Game,
    *,
    n_games: int = 20_000,
    seed: int = 0,
    params=None,
    frames: dict | None = None,
    players: int | None = None,
    run: RunConfig | None = None,
) -> pd.DataFrame | None:
    """The rulebook's balance conclusions (``Game.rulebook.claims.conclusions``)
    tested under our model, from ``frames`` ({players: default-lineup
    table}) where given, else from runs played here; ``players``: only the
    conclusions about that player count.  None for a game that draws none."""
    run = run or RunConfig()
    from gamelab.rulebook.identities import play_runs

    if game.rulebook.claims is None or game.rulebook.claims.conclusions is None:
        return None
    counts = [p for p in game.rulebook.claims.conclusion_players if players is None or p == players]
    given = {p: f for p, f in (frames or {}).items() if p in counts}
    runs = {p: Run(n_players=p, n_games=n_games, seed=seed) for p in counts if p not in given}
    given.update(play_runs(game, runs, params, run=run))
    return game.rulebook.claims.conclusions(given)


def claiming_games() -> tuple[Game, ...]:
    """The registered games that publish figures to audit."""
    from gamelab.core import registry

    return tuple(g for g in registry.games() if g.rulebook.claims is not None)


def games_with_claims() -> tuple[str, ...]:
    """The names of the registered games that publish figures to audit (the command line's choices)."""
    return tuple(g.name for g in claiming_games())


def audit(
    games: Sequence[Game] | None = None,
    *,
    n_games: int = 20_000,
    seed: int = 0,
    run: RunConfig | None = None,
    params: dict | None = None,
) -> pd.DataFrame:
    """Every published cell with ours beside it: ``ours``, ``low``, ``high``
    (95 %), ``n``, ``inside`` (the published value lies in our interval);
    ``games`` defaults to every game with claims; ``params`` maps a game's name to
    the parameters it is measured with (default: its rules and model defaults)."""
    run = run or RunConfig(workers=2)
    frames = []
    for game in games or claiming_games():
        if game.rulebook.claims is None:
            continue
        frames.append(measure(game, n_games=n_games, seed=seed, params=(params or {}).get(game.name), run=run))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
