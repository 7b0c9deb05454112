"""Where a group's edge comes from: its points against the others', split into parts.

A game declares the parts of a seat's points twice (``contract.EdgeSources``): by scoring
source and by phase, each a list of run columns with weights that add up to the points
column exactly.  For one group (``seat`` 1, a style, ...) the *gap* of a game is the
group's mean points minus the other seats' mean points in that game; a part's
*contribution* is the same difference of that part's points, so the contributions of one
partition add up to the gap in every game, and so do their means.

Intervals are over deals (the rotations of one deal are not independent): each deal's
games are averaged first, then the deals' means give a t interval (scipy) for the gap and
each contribution; a part's *share* (contribution / gap) gets the ratio estimator's CLT
interval (the delta method: the spread of contribution − share x gap over the deals).

    table = decompose(frame, "seat", 1, parts)        # parts: contract.PointPart, one row each, then the gap
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

Z = 0.975  # a 95 % two-sided interval


def part_points(frame: pd.DataFrame, part) -> np.ndarray:
    """A part's points for every row of ``frame``: the weighted sum of its columns."""
    out = np.zeros(len(frame))
    for column, weight in part.columns.items():
        if column not in frame:
            raise KeyError(f"the part {part.words!r} names the column {column!r}, which the run has not")
        out += weight * frame[column].to_numpy(dtype=float)
    return out


def check_parts(frame: pd.DataFrame, parts: Sequence, points: str = "score") -> None:
    """Raise (naming the first row) unless the parts add up to ``points`` in every row."""
    total = sum((part_points(frame, p) for p in parts), np.zeros(len(frame)))
    bad = np.flatnonzero(np.abs(total - frame[points].to_numpy(dtype=float)) > 1e-6)
    if len(bad):
        r = frame.iloc[bad[0]]
        raise ValueError(
            f"the parts ({', '.join(p.words for p in parts)}) add up to {total[bad[0]]:g}, not {points} = "
            f"{r[points]:g}, in {len(bad):,} rows (the first: game {r.get('game')}, seat {r.get('seat')})"
        )


def _interval(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95 % t interval of per-deal values."""
    n = len(x)
    mean = float(x.mean()) if n else float("nan")
    if n < 2:
        return mean, float("nan"), float("nan")
    half = float(stats.t.ppf(Z, n - 1) * x.std(ddof=1) / np.sqrt(n))
    return mean, mean - half, mean + half


def per_deal_gaps(frame: pd.DataFrame, by: str, group, parts: Sequence, points: str = "score") -> pd.DataFrame:
    """One row per deal: the gap (group − others, in points) and each part's, averaged over the
    deal's games in which the group sits beside at least one other seat."""
    inside = frame[by].astype(str).to_numpy() == str(group)
    values = {p.words: part_points(frame, p) for p in parts}
    values[points] = frame[points].to_numpy(dtype=float)
    cols = pd.DataFrame(values)
    cols["game"], cols["deal"], cols["inside"] = frame["game"].to_numpy(), frame["deal"].to_numpy(), inside
    sums = cols.groupby(["game", "inside"], sort=False).mean(numeric_only=True)  # per game: the mean of each side
    sums = sums.drop(columns="deal")
    mine = sums.xs(True, level="inside")
    theirs = sums.xs(False, level="inside")
    both = mine.index.intersection(theirs.index)
    gaps = mine.loc[both] - theirs.loc[both]
    deal = cols.drop_duplicates("game").set_index("game").loc[both, "deal"]
    return gaps.groupby(deal.to_numpy()).mean()


def decompose(frame: pd.DataFrame, by: str, group, parts: Sequence, points: str = "score") -> pd.DataFrame:
    """One row per part and a last row ``points`` (the gap itself): ``part``, ``points`` (its mean
    contribution), ``low``, ``high`` (95 % over deals), ``share`` of the gap with ``share_low`` /
    ``share_high``.  The contributions add up to the gap (the parts add up to the points)."""
    check_parts(frame, parts, points)
    deals = per_deal_gaps(frame, by, group, parts, points)
    gap = deals[points].to_numpy()
    g = float(gap.mean()) if len(gap) else float("nan")
    rows = []
    for p in [*parts, None]:
        words = points if p is None else p.words
        x = deals[words].to_numpy()
        mean, low, high = _interval(x)
        share = mean / g if g else float("nan")
        n = len(x)
        if n > 1 and g:
            half = float(stats.t.ppf(Z, n - 1) * (x - share * gap).std(ddof=1) / np.sqrt(n) / abs(g))
        else:
            half = float("nan")
        rows.append(
            dict(
                part=words,
                points=mean,
                low=low,
                high=high,
                share=share,
                share_low=share - half,
                share_high=share + half,
                deals=n,
            )
        )
    return pd.DataFrame(rows)
