"""Statistics over simulated games: intervals, tests, win tables (the balance
metrics by name are in :mod:`gamelab.stats.balance`).

Everything here comes from scipy and returns small frozen result objects or
tidy DataFrames with the estimate, its 95 % interval and ``n`` side by side
(the scipy.stats pattern in ``house-style.md``).

Win shares are fractional (a tie among k players gives each 1/k), so the
Wilson interval is computed from the score formula with ``scipy.stats.norm``
rather than from ``binomtest``, which needs whole counts; for whole counts the
two agree (see the known-answer tests).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
from scipy import stats as st

__all__ = ["Estimate", "wilson", "mean_interval", "two_proportion", "equal_wins", "win_table", "ratio_of_sums"]


@dataclasses.dataclass(frozen=True)
class Estimate:
    """An estimate with its confidence interval and sample size."""

    value: float
    low: float
    high: float
    n: int
    confidence: float = 0.95

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def _z(confidence: float) -> float:
    return float(st.norm.ppf(0.5 + confidence / 2))


def wilson(successes: float, n: int, *, confidence: float = 0.95) -> Estimate:
    """Wilson score interval for a proportion (successes may be fractional)."""
    if n <= 0:
        return Estimate(float("nan"), 0.0, 1.0, 0, confidence)
    p = successes / n
    z = _z(confidence)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Estimate(float(p), float(max(0.0, centre - half)), float(min(1.0, centre + half)), int(n), confidence)


def mean_interval(values, *, confidence: float = 0.95) -> Estimate:
    """Mean with a Student-t interval."""
    x = np.asarray(values, dtype=float)
    n = x.size
    m = float(x.mean()) if n else float("nan")
    if n < 2:
        return Estimate(m, float("nan"), float("nan"), n, confidence)
    sem = st.sem(x)
    if sem == 0:
        return Estimate(m, m, m, n, confidence)
    lo, hi = st.t.interval(confidence, n - 1, loc=m, scale=sem)
    return Estimate(m, float(lo), float(hi), n, confidence)


def ratio_of_sums(num, den) -> Estimate:
    """``sum(num) / sum(den)`` over clusters (one entry per cluster, e.g. per
    deal), with a delta-method 95 % interval; ``n`` is ``sum(den)``."""
    num, den = np.asarray(num, float), np.asarray(den, float)
    total = den.sum()
    if total == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    r = num.sum() / total
    n = len(num)
    se = ((num - r * den) / den.mean()).std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
    return Estimate(float(r), float(r - 1.96 * se), float(r + 1.96 * se), int(total))


@dataclasses.dataclass(frozen=True)
class TestResult:
    statistic: float
    pvalue: float
    df: int | None = None

    def verdict(self, alpha: float = 0.05) -> str:
        return "differ" if self.pvalue < alpha else "no evidence of a difference"


def two_proportion(k1: float, n1: int, k2: float, n2: int) -> tuple[Estimate, TestResult]:
    """Difference p1 - p2 with a Newcombe (Wilson-hybrid) interval and the
    pooled two-sided z test (equivalent to the 2x2 chi-square without
    continuity correction)."""
    a, b = wilson(k1, n1), wilson(k2, n2)
    d = a.value - b.value
    lo = d - np.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2)
    hi = d + np.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2)
    pooled = (k1 + k2) / (n1 + n2)
    se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    z = 0.0 if se == 0 else d / se
    p = float(2 * st.norm.sf(abs(z)))
    return Estimate(float(d), float(lo), float(hi), int(n1 + n2)), TestResult(float(z), p)


def equal_wins(wins, seats) -> TestResult:
    """Chi-square test that every group (style, role, seat) wins in proportion
    to the seats it occupied.  ``wins[i]`` is group i's total win share,
    ``seats[i]`` how many player-seats it filled."""
    wins = np.asarray(wins, dtype=float)
    seats = np.asarray(seats, dtype=float)
    expected = seats / seats.sum() * wins.sum()
    res = st.chisquare(wins, expected)
    return TestResult(float(res.statistic), float(res.pvalue), int(len(wins) - 1))


def win_table(df: pd.DataFrame, by: str, *, confidence: float = 0.95) -> pd.DataFrame:
    """Win rate per ``by`` group (one row per player per game in ``df``, with a
    ``win`` column holding the win share) with Wilson intervals, mean score
    and its interval."""
    rows = []
    for key, g in df.groupby(by, sort=True, observed=True):
        w = wilson(g["win"].sum(), len(g), confidence=confidence)
        row = {by: key, "n": w.n, "win_rate": w.value, "win_low": w.low, "win_high": w.high}
        if "score" in g:
            m = mean_interval(g["score"], confidence=confidence)
            row.update(score_mean=m.value, score_low=m.low, score_high=m.high)
        rows.append(row)
    return pd.DataFrame(rows)
