"""Every metric with a 95 % bootstrap interval over deals, and the paired bootstrap of two runs.

Two runs on the same deals (common random numbers) are compared by
resampling the same deals for both: the paired bootstrap.  It is written
here rather than called from ``scipy.stats.bootstrap``: one multinomial
weight matrix over deals, shared by every metric and by both arms of a
paired comparison, is what makes the comparison paired and costs a single
matrix product per run.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from gamelab.core.errors import GamelabError
from gamelab.stats.balance_metric import Metric

BOOTSTRAP = 400
BLOCKS = 250  # a meta-game metric's deals are summed in this many blocks (see deal_sums)


def deal_blocks(deal: np.ndarray) -> np.ndarray:
    """Each row's block of deals: the sorted deals cut into BLOCKS runs of consecutive ones (two
    tables of the same deals get the same blocks, so paired comparisons stay paired)."""
    deals, inverse = np.unique(deal, return_inverse=True)
    width = max(1, -(-len(deals) // BLOCKS))  # ceil
    return deals[(inverse // width) * width]  # a block is named by its first deal


def deal_sums(frame: pd.DataFrame, metrics: Sequence[Metric]) -> pd.DataFrame:
    """Per deal, every sum the metrics need (rows: deals, columns: parts).

    With a meta-game metric (``Metric.sums``: hundreds of sums a deal) the rows
    are blocks of deals instead (:func:`deal_blocks`): deals are independent,
    so resampling blocks of them is a bootstrap too, and the table stays small."""
    cols: dict[str, np.ndarray] = {}
    direct: list[Callable] = []
    for m in metrics:
        try:
            cols.update(m.columns(frame))
            if m.sums is not None and not any(m.sums is d for d in direct):
                direct.append(m.sums)
        except KeyError as exc:
            raise GamelabError(f"metric {m.name}: the table has no column {exc}") from None
    parts = pd.DataFrame(cols, index=frame.index)
    deal = frame["deal"].to_numpy()
    if not direct:
        return parts.groupby(deal, sort=True).sum()
    block = deal_blocks(deal)
    out = parts.groupby(block, sort=True).sum()
    for fn in direct:
        extra = fn(frame, block)
        out = pd.concat([out, extra.loc[:, ~extra.columns.isin(out.columns)]], axis=1)
    return out.fillna(0.0)


def _weights(n_deals: int, n_boot: int, rng: np.random.Generator | None) -> np.ndarray:
    """(B, D) bootstrap weights: how often each deal is drawn in each resample
    (``rng`` None: those of ``default_rng(0)``, drawn once per size and kept)."""
    if rng is None:
        return _default_weights(n_deals, n_boot)
    return rng.multinomial(n_deals, np.full(n_deals, 1 / n_deals), size=n_boot).astype(float)


@functools.lru_cache(maxsize=8)  # a report's sizes: each player count's deals, the traces' runs
def _default_weights(n_deals: int, n_boot: int) -> np.ndarray:
    """``_weights(n_deals, n_boot, np.random.default_rng(0))``, read-only: a
    report resamples the same deals for many metrics and rule steps."""
    w = _weights(n_deals, n_boot, np.random.default_rng(0))
    w.flags.writeable = False
    return w


def _values(metrics, sums: pd.DataFrame, weights: np.ndarray | None):
    arr = sums.to_numpy(float)
    totals = arr.sum(axis=0) if weights is None else weights @ arr
    named = {c: totals[..., i] for i, c in enumerate(sums.columns)}
    with np.errstate(invalid="ignore", divide="ignore"):
        return {m.name: np.asarray(m.value(named), float) for m in metrics}


def _tail(values: np.ndarray, q: float, m: Metric) -> float:
    """A percentile of resampled values; of a count, one of the values themselves (a count's
    interval is whole numbers: 2 to 2, never 2 to 2.02)."""
    if m.count:
        return float(np.nanpercentile(values, q, method="lower" if q < 50 else "higher"))
    return float(np.nanpercentile(values, q))


def estimate(
    frame: pd.DataFrame, metrics: Sequence[Metric], *, n_boot: int = BOOTSTRAP, rng: np.random.Generator | None = None
) -> pd.DataFrame:
    """Each metric with a 95 % bootstrap interval over deals."""
    sums = deal_sums(frame, metrics)
    point = _values(metrics, sums, None)
    boot = _values(metrics, sums, _weights(len(sums), n_boot, rng))
    return pd.DataFrame(
        [
            {
                "metric": m.name,
                "value": float(point[m.name]),
                "low": _tail(boot[m.name], 2.5, m),
                "high": _tail(boot[m.name], 97.5, m),
                "deals": len(sums),
            }
            for m in metrics
        ]
    )


def paired_change(
    frame: pd.DataFrame,
    base: pd.DataFrame,
    metrics: Sequence[Metric],
    *,
    n_boot: int = BOOTSTRAP,
    rng: np.random.Generator | None = None,
) -> pd.DataFrame:
    """``frame`` minus ``base`` for each metric, on the deals both played,
    with a 95 % paired-bootstrap interval (the same deals resampled for both)."""
    a, b = deal_sums(frame, metrics), deal_sums(base, metrics)
    deals = a.index.intersection(b.index)
    if not len(deals):
        raise GamelabError("the two runs share no deal: play them with the same seed")
    cols = a.columns.union(b.columns)
    a, b = (x.reindex(index=deals, columns=cols, fill_value=0.0) for x in (a, b))
    w = _weights(len(deals), n_boot, rng)
    pa, pb = _values(metrics, a, None), _values(metrics, b, None)
    ba, bb = _values(metrics, a, w), _values(metrics, b, w)
    rows = []
    for m in metrics:
        d = ba[m.name] - bb[m.name]
        rows.append(
            {
                "metric": m.name,
                "value": float(pa[m.name]),
                "base": float(pb[m.name]),
                "change": float(pa[m.name] - pb[m.name]),
                "low": _tail(d, 2.5, m),
                "high": _tail(d, 97.5, m),
                "deals": len(deals),
            }
        )
    return pd.DataFrame(rows)
