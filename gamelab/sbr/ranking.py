"""STEEL BALL RUN seat order and ranks: who acts first, who wins a tie.

* :func:`seat_rank`: each rider's place in the seat order (section 6.1: from
  the start rider in beat 1; ``seat_order``, 6.1 / 6.2 / 6.3).
* :func:`acting_order`: the acting order of section 6.2 step 0;
  :func:`order_by` sorts riders by a key.
* :func:`points_by_rank`: points by rank with the tie-breaks of segment
  scoring (6.2) and final scoring (6.3); :func:`count_below` ranks the
  winners (6.3) and :func:`win_key` packs the winners' tie-breaks.
"""

from __future__ import annotations

import numpy as np

from .indexing import row_starts
from .rules import SbrParams
from .state import State

SPIN_RADIX = 64  # more than any spin held (spin_cap <= 20): packs (square, spin) in one key
KEY_MAX = 255  # every ranking key lies within -255..255 (squares, distances, relics)
KEY_RADIX = 512  # 2 * KEY_MAX + 2: one ranking key per digit
WIN_RELICS = 1_000  # result's key: score, then relics (< 1000), then squares (< 1000)
WIN_SCORE = 1_000_000


def seat_rank(params: SbrParams, state: State, first_beat: bool = False) -> np.ndarray:
    """Each rider's place in the "seat order" that breaks ties ((1, R) or
    (G, R)): clockwise from the start rider in beat 1 (6.1) and, under
    ``seat_order = from_start``, in every tie-break; else the seat number."""
    R = state.pos.shape[1]
    seat = np.arange(R)[None, :]
    if first_beat or params.seat_order == "from_start":
        seat = (seat - state.start[:, None].astype(np.int64)) % R
    return seat


def acting_order(params: SbrParams, state: State) -> np.ndarray:
    """Section 6.2 step 0, (G, R) riders in acting order: back to front, then
    less spin, then seat order (beat 1, or every beat under ``seat_order =
    from_start``: counted from the start rider).  The key packs the three:
    plain, ``sorted(riders, key=lambda r: (pos[r], spin[r], seat[r]))``."""
    R = state.pos.shape[1]
    seat = seat_rank(params, state, state.beat == 0)
    return order_by((state.pos.astype(np.int64) * SPIN_RADIX + state.spin) * R + seat)


def order_by(key):
    """Row-wise argsort of distinct small-row keys, by pairwise comparison
    (a handful of riders: faster than a sort per row)."""
    G, R = key.shape
    order = np.empty((G, R), np.int8)
    flat, base = order.reshape(-1), row_starts(G, R)
    for i, rank in enumerate(_rank_columns(key)):
        flat[base + rank] = i  # order[g, rank[g]] = i
    return order


def _rank_columns(key):
    """For each rider (column), how many riders of his game have a smaller
    key: comparisons of whole columns (contiguous rows of the transpose)."""
    cols = np.ascontiguousarray(key.T)
    out = []
    for i in range(cols.shape[0]):
        rank = np.zeros(cols.shape[1], np.intp)
        for j in range(cols.shape[0]):
            if j != i:
                rank += cols[j] < cols[i]
        out.append(rank)
    return out


def count_below(key):
    """(G, R): for each rider, how many riders of his game have a smaller
    key (a loop over the few riders beats a (G, R, R) comparison)."""
    rank = np.empty(key.shape, np.intp)
    for i, col in enumerate(_rank_columns(key)):
        rank[:, i] = col
    return rank


def points_by_rank(points, seat, *keys):
    """Rank riders by the keys (each higher first), then ``seat`` (the seat
    order, (1, R) or (G, R)); the points of each rider's rank.  The keys are
    packed one per base-512 digit, each as ``KEY_MAX - k`` so that higher
    ranks first: plain, ``sorted(riders, key=lambda r: (-k1[r], -k2[r], ...,
    seat[r]))``."""
    R = keys[0].shape[1]
    key = np.zeros(keys[0].shape, np.int64)
    for k in keys:
        key = key * KEY_RADIX + (KEY_MAX - k.astype(np.int64))
    key = key * R + seat
    return np.array(points[:R], np.int16)[count_below(key)]


def win_key(score, relics, squares):
    """Section 6.3's winner order as one int64 per player, higher first:
    plain, the tuple ``(score, relics, squares)``."""
    return score.astype(np.int64) * WIN_SCORE + relics * WIN_RELICS + squares
