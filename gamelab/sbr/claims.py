"""STEEL BALL RUN appendix A beside our simulation (``docs/agents.md``).

:func:`runs` asks for ``n_games`` deals per player count with the greedy
agent on every seat (the rulebook's "deterministic greedy, full information"
AI; ours has our objective); the shared layer plays them and :func:`audit`
puts, beside every published cell, our value with a 95 % interval and
whether the published value lies inside.  Pure: this module plays nothing.

All-greedy play is deterministic given the deal, so rotating seats would
replay each deal identically: the runner plays a one-agent lineup once per
deal, ``n_games`` distinct deals per cell.

Intervals: means, rates and per-game totals: Student t over games (the game
is the unit: the players of a game are not independent); a ratio (mean
arrival beat, over arrivals) and the score sd: percentile bootstrap over
games.  ``score_min``/``score_max``/``min_final_square`` are extremes of 300
games: ours is the median of that extreme over disjoint 300-game blocks and
the interval its 2.5-97.5 % range.  For every cell the columns
``low300``/``high300`` give the range the statistic takes over 300-game
blocks: what the rulebook's 300 games could show if our model were theirs.
``se`` is our estimate's standard error, ``se300`` the standard error of
the statistic in a 300-game sample under our model (means: the sd over games
/ sqrt(300); ratios and the sd: the bootstrap's, scaled to 300 games;
extremes: the sd over 300-game blocks), and ``residual`` = (published -
ours) / se300.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.stats

from gamelab import stats
from gamelab.core.contract import Run

BLOCK = 300  # the rulebook's games per row
BOOT = 400  # bootstrap replicates
MEDIAN_SE = 1.2533  # sqrt(pi / 2): the median's standard error over the mean's, normal samples


#: the per-game columns of the runner's table (the others are per seat)
PER_GAME = ("seal_triggers", "lead_changes", "game_length")
#: the columns appendix A is measured from
MEASURED = (
    "score",
    "finished",
    "final_square",
    "arrival_beat",
    "relics",
    "spin_spent",
    "seals_placed",
    "seal_triggers",
)


def arrays(frame: pd.DataFrame, n_players: int) -> dict:
    """The runner's table of a one-agent run (one row per seat, game after
    game) back as arrays: (G, P) per seat, (G,) per game."""
    out = {}
    for col in MEASURED:
        a = frame[col].to_numpy().reshape(-1, n_players)
        out[col] = a[:, 0] if col in PER_GAME else a
    return out


def runs(rows: pd.DataFrame, n_games: int, seed: int) -> dict:
    """The runs appendix A's rows need: the greedy agent on every seat
    (the rulebook's AI), at least 300 deals per player count."""
    counts = sorted({int(r.split()[0]) for r in rows["row"]})
    return {P: Run(n_players=P, n_games=max(n_games, BLOCK), seed=seed, lineup=("greedy",) * P) for P in counts}


def _per_game(d: dict) -> dict:
    """Per-game values (G,) for every column of appendix A."""
    s, fin = d["score"].astype(float), d["finished"]
    return dict(
        mean_score=s.mean(1),
        first_last_gap=s.max(1) - s.min(1),
        mean_winner_score=s.max(1),
        mean_final_square=d["final_square"].mean(1),
        arrival_rate=100 * fin.mean(1),
        relics_per_player=d["relics"].mean(1),
        spin_spent_per_player=d["spin_spent"].mean(1),
        seals_placed_per_player=d["seals_placed"].mean(1),
        seal_triggers_per_game=d["seal_triggers"].astype(float),
    )


def _blocks(x, fn):
    """``fn`` over disjoint blocks of BLOCK games (axis 0)."""
    B = x.shape[0] // BLOCK
    return np.array([fn(x[i * BLOCK : (i + 1) * BLOCK]) for i in range(B)])


def _ratio(num, den):
    """The statistic ``sum(num) / sum(den)`` over the games ``idx``."""

    def ratio(idx):
        return num[idx].sum() / max(den[idx].sum(), 1)

    return ratio


def _bootstrap(fn, n, rng):
    """The 2.5 and 97.5 % percentiles of ``fn`` over bootstrap resamples of the game indices,
    and its standard error (``scipy.stats.bootstrap``; ``random_state``: scipy 1.11's name for ``rng``)."""
    res = scipy.stats.bootstrap(
        (np.arange(n),), fn, n_resamples=BOOT, method="percentile", vectorized=False, random_state=rng
    )
    return res.confidence_interval.low, res.confidence_interval.high, float(res.standard_error)


def _resampled(f, G, rng, method) -> tuple:
    """A statistic ``f`` of the game indices: value, bootstrap interval, the
    300-game range, and the standard errors at G and at 300 games."""
    lo, hi, se = _bootstrap(f, G, rng)
    b = _blocks(np.arange(G), f)
    return (f(np.arange(G)), lo, hi, G, *np.percentile(b, [2.5, 97.5]), method, se, se * np.sqrt(G / BLOCK))


def cell_table(d: dict, rng) -> dict:
    """{column: (ours, low, high, n, low300, high300, method, se, se300)} for one player count."""
    G = d["score"].shape[0]
    pg = _per_game(d)
    out = {}
    for col, x in pg.items():
        e = stats.mean_interval(x)
        b = _blocks(x, np.mean)
        sd = float(np.std(x, ddof=1))
        out[col] = (
            e.value,
            e.low,
            e.high,
            G,
            *np.percentile(b, [2.5, 97.5]),
            "t over games",
            sd / np.sqrt(G),
            sd / np.sqrt(BLOCK),
        )
    beats = np.nan_to_num(d["arrival_beat"]).sum(1)
    arrivals = d["finished"].sum(1).astype(float)
    out["mean_arrival_beat"] = _resampled(_ratio(beats, arrivals), G, rng, "bootstrap over games (ratio over arrivals)")
    s = d["score"].astype(float)

    def sd(idx):
        return s[idx].std(ddof=1)

    out["score_sd"] = _resampled(sd, G, rng, "bootstrap over games")
    for col, x, fn in (
        ("score_min", s, np.min),
        ("score_max", s, np.max),
        ("min_final_square", d["final_square"], np.min),
    ):
        b = _blocks(x, fn)
        q = np.percentile(b, [2.5, 97.5])
        spread = float(b.std(ddof=1)) if b.size > 1 else float("nan")
        out[col] = (
            float(np.median(b)),
            *q,
            b.size,
            *q,
            f"extreme of {BLOCK} games: median and 95 % range over {b.size} blocks (all {G} games: {fn(x):g})",
            MEDIAN_SE * spread / np.sqrt(b.size),
            spread,
        )
    return out


def audit(rows: pd.DataFrame, exact: pd.DataFrame | None, frames: dict, seed: int) -> pd.DataFrame:
    """The SBR rows of the claims with ``ours``, ``low``, ``high``, ``n``,
    ``inside``, ``low300``, ``high300``, ``inside300``, ``se``, ``se300``,
    ``residual`` and ``note``: ``exact`` holds the rules-decided rows already
    audited (:func:`gamelab.rulebook.claims.exact_audit`), the appendix A rows
    are measured from ``frames`` (:func:`runs`' tables)."""
    parts = [] if exact is None else [exact]
    simulated = rows if exact is None else rows.drop(exact.index)
    if len(simulated):
        parts.append(_simulated(simulated, frames, seed))
    return pd.concat(parts).sort_index().reset_index(drop=True)


def _simulated(rows, frames: dict, seed: int) -> pd.DataFrame:
    counts = sorted({int(r.split()[0]) for r in rows["row"]})
    sims = {P: arrays(frames[P], P) for P in counts}
    rng = np.random.default_rng(seed)
    cells = {P: cell_table(sims[P], rng) for P in counts}
    got = [cells[int(r.row.split()[0])][r.column] for r in rows.itertuples()]
    out = rows.copy()
    for i, name in enumerate(("ours", "low", "high", "n", "low300", "high300")):
        out[name] = [g[i] for g in got]
    out["inside"] = (out["low"] <= out["value"]) & (out["value"] <= out["high"])
    out["inside300"] = (out["low300"] <= out["value"]) & (out["value"] <= out["high300"])
    out["note"] = [g[6] for g in got]
    out["se"] = [g[7] for g in got]
    out["se300"] = [g[8] for g in got]
    out["residual"] = (out["value"] - out["ours"]) / out["se300"]
    return out
