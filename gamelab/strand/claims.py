"""STRAND's published simulation numbers (appendix B, FAQ Q10) beside ours.

One :func:`gamelab.runner.simulate` per player count (default lineup: the
style mix, roles "first_p", the negotiation + reneging model) serves every
cell of that column.  A style's (role's) published value is the share of
games it won: its win shares summed over games / games, so a column sums to
100 %.  Intervals are 95 % Student-t intervals over deals (the rotations of
one deal are averaged first: they share the cards).  ``inside`` allows the
published figure's rounding (half a unit of its last digit).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import runner
from ..stats import Estimate, mean_interval
from .sim import measures

PLAYERS = (3, 4, 5, 6)
DIAG = {"lone_markers_per_game": ("lone_per_game", 1.0), "rounds_with_team": ("team_round_rate", 100.0),
        "node_tie_rate": ("node_void_rate", 100.0)}


def _share_by(frame: pd.DataFrame, by: str, n_players: int) -> dict:
    """% of games won by each group of ``by``, as Estimates (per-deal means)."""
    wins = frame.groupby(["deal", by])["win"].sum().unstack(fill_value=0.0) / n_players
    return {k: mean_interval(100 * wins[k]) for k in wins.columns}


def _style_scores(frame: pd.DataFrame) -> dict:
    per = frame.groupby(["deal", "style"])["score"].mean().unstack()
    return {k: mean_interval(per[k].dropna()) for k in per.columns}


def cells(frame: pd.DataFrame, n_players: int) -> dict:
    """{(table, row, column): (Estimate, note)} of one player count's run."""
    col = f"{n_players} players"
    out = {}
    for table, by in (("styles", "style"), ("roles", "role")):
        for k, e in _share_by(frame, by, n_players).items():
            out[(table, k, col)] = (e, "")
    m = measures(frame)
    for row, (key, scale) in DIAG.items():
        e = m[key]
        out[("diagnostics", row, col)] = (Estimate(e.value * scale, e.low * scale, e.high * scale, e.n), "")
    scores = _style_scores(frame)
    overall = m["mean_score"]
    lo, hi = min(scores, key=lambda k: scores[k].value), max(scores, key=lambda k: scores[k].value)
    note = f"overall mean {overall.value:.1f} [{overall.low:.1f}, {overall.high:.1f}]"
    out[("diagnostics", "mean_score_low", col)] = (scores[lo], f"lowest style mean ({lo}); {note}")
    out[("diagnostics", "mean_score_high", col)] = (scores[hi], f"highest style mean ({hi}); {note}")
    lone = m["lone_per_game"]
    per_player = Estimate(lone.value / n_players, lone.low / n_players, lone.high / n_players, lone.n)
    out[("lone markers", f"{n_players} players", "per_game")] = (lone, "")
    out[("lone markers", f"{n_players} players", "per_player")] = (per_player, "")
    return out


def _tolerance(row) -> float:
    if str(row["row"]).startswith("mean_score"):
        return 0.5
    if row["column"] == "per_player":
        return 0.005
    return 0.05


def measure(claims: pd.DataFrame, *, n_games: int = 20000, seed: int = 0, workers: int = 1,
            progress=None, params=None) -> pd.DataFrame:
    """The STRAND rows of ``claims`` with ``ours``, ``low``, ``high``, ``n``,
    ``inside`` and ``note`` (the published row's own note moves to
    ``claim_note``)."""
    rows = claims[claims["game"] == "strand"].copy().reset_index(drop=True)
    found = {}
    for P in PLAYERS:
        frame = runner.simulate("strand", n_games=n_games, seed=seed, n_players=P, params=params,
                                workers=workers, progress=progress)
        found.update(cells(frame, P))
    rows = rows.rename(columns={"note": "claim_note"})
    out = {"ours": [], "low": [], "high": [], "n": [], "inside": [], "note": []}
    for _, r in rows.iterrows():
        e, note = found.get((r["table"], r["row"], r["column"]), (None, "not measured"))
        if e is None:
            for k in ("ours", "low", "high", "n"):
                out[k].append(np.nan)
            out["inside"].append(False)
        else:
            tol = _tolerance(r)
            out["ours"].append(e.value)
            out["low"].append(e.low)
            out["high"].append(e.high)
            out["n"].append(e.n)
            out["inside"].append(bool(e.low - tol <= r["value"] <= e.high + tol))
        out["note"].append(note)
    for k, v in out.items():
        rows[k] = v
    return rows
