"""STRAND's published simulation numbers (appendix B, FAQ Q10) beside ours.

One run per player count (:func:`runs`; default lineup: the style mix,
roles "first_p", the negotiation + reneging model), played by the shared
layer, serves every cell of that column; this module plays nothing.  A style's (role's) published value is the share of
games it won: its win shares summed over games / games, so a column sums to
100 %.  Intervals are 95 % Student-t intervals over deals (the rotations of
one deal are averaged first: they share the cards).  ``inside`` allows the
published figure's rounding (half a unit of its last digit).

The rulebook's cells come from 600 games each: ``se600`` is the standard
error such a sample has under our model (the sd over single games / sqrt of
the games, or of the games a style or role sits in), ``low600``/``high600``
= ours -+ 1.96 se600 (plus the rounding) the band 600 games could show, and
``inside600`` whether the published value lies in it; ``residual`` =
(published - ours) / se600.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from gamelab.core.contract import Run
from gamelab.stats.intervals import Estimate, mean_interval, two_proportion

from .sim import measures

PLAYERS = (3, 4, 5, 6)
#: the rulebook's chapters are headed by an emoji and a title, without a number (the coverage map's sections)
SECTION_TITLES = {
    "游戏概述": "overview",
    "游戏信息": "game information",
    "详细物料清单": "components",
    "游戏地图详解": "map",
    "地图特点和资源统计": "map statistics",
    "道具详解": "components",
    "游戏规则": "6",
    "完整游戏流程示例": "example",
    "终局结算": "example final",
    "新手策略提示": "strategy",
    "变体规则": "variants",
    "常见问题": "FAQ",
    "相关链接": "links",
}
BLOCK = 600  # the rulebook's games per cell
Z95 = 1.959964  # two-sided 95 % normal quantile
DIAG = {
    "lone_markers_per_game": ("lone_per_game", 1.0),
    "rounds_with_team": ("team_round_rate", 100.0),
    "node_tie_rate": ("node_void_rate", 100.0),
}


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


def published_se(frame: pd.DataFrame, n_players: int, block: int = BLOCK) -> dict:
    """{(table, row, column): standard error of the cell's statistic in a
    sample of ``block`` single games} under our model (``cells``' keys)."""
    col = f"{n_players} players"
    games = frame.groupby("game", sort=False).first()
    out = {}
    for table, by in (("styles", "style"), ("roles", "role")):
        won = frame.groupby(["game", by])["win"].sum().unstack(fill_value=0.0)
        for k in won.columns:
            out[(table, k, col)] = float(np.std(100 * won[k], ddof=1)) / np.sqrt(block)
    rate = 100 * games["team_rounds"] / games["rounds"]
    out[("diagnostics", "rounds_with_team", col)] = float(rate.std(ddof=1)) / np.sqrt(block)
    void = 100 * games["void_nodes"] / games["rounds"]
    out[("diagnostics", "node_tie_rate", col)] = float(void.std(ddof=1)) / np.sqrt(block)
    lone = float(games["lone_total"].std(ddof=1)) / np.sqrt(block)
    out[("diagnostics", "lone_markers_per_game", col)] = lone
    out[("lone markers", col, "per_game")] = lone
    out[("lone markers", col, "per_player")] = lone / n_players
    # a style's mean score in 600 games rests on the games it sits in (P of the 6 styles per game)
    seats = block * n_players / frame["style"].nunique()
    by_style = frame.groupby("style")["score"].std(ddof=1)
    for row in ("mean_score_low", "mean_score_high"):
        out[("diagnostics", row, col)] = float(by_style.mean()) / np.sqrt(seats)
    return out


def _tolerance(row) -> float:
    if str(row["row"]).startswith("mean_score"):
        return 0.5
    if row["column"] == "per_player":
        return 0.005
    return 0.05


def runs(rows: pd.DataFrame, n_games: int, seed: int) -> dict:
    """The runs the published simulation cells need: the default lineup at
    every player count of appendix B."""
    return {P: Run(n_players=P, n_games=n_games, seed=seed) for P in PLAYERS}


def audit(rows: pd.DataFrame, exact: pd.DataFrame | None, frames: dict, seed: int) -> pd.DataFrame:
    """The STRAND rows of the claims with ``ours``, ``low``, ``high``, ``n``,
    ``inside`` and ``note`` (the published row's own note moves to
    ``claim_note``): ``exact`` holds the rules-decided rows already audited,
    the others are measured from ``frames`` (:func:`runs`' tables)."""
    parts = []
    if exact is not None:
        parts.append(exact.assign(claim_note=rows.loc[exact.index, "note"]))
    simulated = rows if exact is None else rows.drop(exact.index)
    if len(simulated):
        parts.append(_simulated(simulated.copy(), frames))
    return pd.concat(parts).sort_index().reset_index(drop=True)


def _simulated(rows, frames: dict) -> pd.DataFrame:
    found, se600 = {}, {}
    for P in PLAYERS:
        frame = frames[P]
        found.update(cells(frame, P))
        se600.update(published_se(frame, P))
    rows = rows.rename(columns={"note": "claim_note"})
    names = ("ours", "low", "high", "n", "se", "se600", "low600", "high600", "inside", "inside600", "note")
    out: dict = {k: [] for k in names}
    for _, r in rows.iterrows():
        key = (r["table"], r["row"], r["column"])
        e, note = found.get(key, (None, "not measured"))
        for k, v in _cell_columns(e, se600.get(key, np.nan), r["value"], _tolerance(r)).items():
            out[k].append(v)
        out["note"].append(note)
    for k, v in out.items():
        rows[k] = v
    rows["residual"] = (rows["value"] - rows["ours"]) / rows["se600"]
    return rows


def _cell_columns(e, se600: float, published: float, tol: float) -> dict:
    """One cell's columns: ours with its interval and standard error, the
    600-game band and whether the published value lies in each."""
    if e is None:
        nan = float("nan")
        return dict(
            ours=nan,
            low=nan,
            high=nan,
            n=nan,
            se=nan,
            se600=nan,
            low600=nan,
            high600=nan,
            inside=False,
            inside600=False,
        )
    low600, high600 = e.value - Z95 * se600 - tol, e.value + Z95 * se600 + tol
    return dict(
        ours=e.value,
        low=e.low,
        high=e.high,
        n=e.n,
        se=(e.high - e.low) / (2 * Z95),
        se600=se600,
        low600=low600,
        high600=high600,
        inside=bool(e.low - tol <= published <= e.high + tol),
        inside600=bool(low600 <= published <= high600),
    )


#: appendix B's balance conclusions: (players, grouping, who, "strongest"/"weakest", the rulebook's words)
CONCLUSIONS = (
    (6, "style", "node_grabber", "strongest", "6 players: the node grabber is the strongest style (24.5 %)"),
    (6, "style", "heavy", "weakest", "6 players: the heavy style is the weakest (11.8 %)"),
    (3, "style", "mirror", "weakest", "3 players: the mirror style is the weakest (10.8 %)"),
    (3, "role", "fragile", "strongest", "3 players: the fragile is the strongest role (37.7 %, variant C)"),
    (6, "role", "bb", "weakest", "6 players: the bb is the weakest role (11.5 %)"),
)


CONCLUSION_PLAYERS = tuple(sorted({c[0] for c in CONCLUSIONS}))


def conclusions(frames: dict) -> pd.DataFrame:
    """Each of appendix B's "strongest"/"weakest" statements about the
    player counts in ``frames`` ({players: default-lineup table}), tested
    against the runner-up under our model: a two-proportion test of per-seat
    win rates (``gamelab.stats.two_proportion``), difference with its 95 %
    interval.  ``holds`` when the interval is on the claimed side of 0,
    ``contradicted`` when it is on the other, else ``not resolved``."""
    rows = []
    for count, by, who, side, words in CONCLUSIONS:
        if count not in frames:
            continue
        f = frames[count]
        g = f.groupby(by)["win"].agg(["sum", "size"])
        g = g[g.index != "none"]
        rate = g["sum"] / g["size"]
        others = rate.drop(who)
        rival = others.idxmax() if side == "strongest" else others.idxmin()
        diff, test = two_proportion(
            g.loc[who, "sum"], int(g.loc[who, "size"]), g.loc[rival, "sum"], int(g.loc[rival, "size"])
        )
        if side == "weakest":
            verdict = "holds" if diff.high < 0 else ("contradicted" if diff.low > 0 else "not resolved")
        else:
            verdict = "holds" if diff.low > 0 else ("contradicted" if diff.high < 0 else "not resolved")
        rows.append(
            {
                "claim": words,
                "who": who,
                "rate": rate[who],
                "compared_with": rival,
                "their_rate": rate[rival],
                "difference": diff.value,
                "low": diff.low,
                "high": diff.high,
                "p": test.pvalue,
                "verdict": verdict,
            }
        )
    return pd.DataFrame(rows)
