"""STEEL BALL RUN seat order and ranks: who acts first, who wins a tie.

* :func:`seat_rank`: each rider's place in the seat order (section 6.1: from
  the start rider in beat 1; ``seat_order``, 6.1 / 6.2 / 6.3).
* :func:`_order_by`: the acting order of section 6.2 step 0 from a key.
* :func:`_points_by_rank`: points by rank with the tie-breaks of segment
  scoring (6.2) and final scoring (6.3); :func:`_count_below` ranks the
  winners (6.3).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .indexing import _rows
from .rules import SbrParams

if TYPE_CHECKING:
    from .engine import State


def seat_rank(params: SbrParams, state: State, first_beat: bool = False) -> np.ndarray:
    """Each rider's place in the "seat order" that breaks ties ((1, R) or
    (G, R)): clockwise from the start rider in beat 1 (6.1) and, under
    ``seat_order = from_start``, in every tie-break; else the seat number."""
    R = state.pos.shape[1]
    seat = np.arange(R)[None, :]
    if first_beat or params.seat_order == "from_start":
        seat = (seat - state.start[:, None].astype(np.int64)) % R
    return seat


def _order_by(key):
    """Row-wise argsort of distinct small-row keys, by pairwise comparison
    (a handful of riders: faster than a sort per row)."""
    G, R = key.shape
    order = np.empty((G, R), np.int8)
    flat, base = order.reshape(-1), _rows(G, R)
    for i, rank in enumerate(_rank_columns(key)):
        flat[base + rank] = i
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


def _count_below(key):
    """(G, R): for each rider, how many riders of his game have a smaller
    key (a loop over the few riders beats a (G, R, R) comparison)."""
    rank = np.empty(key.shape, np.intp)
    for i, col in enumerate(_rank_columns(key)):
        rank[:, i] = col
    return rank


def _points_by_rank(points, seat, *keys):
    """Rank riders by the keys (each higher first), then ``seat`` (the seat
    order, (1, R) or (G, R)); the points of each rider's rank."""
    R = keys[0].shape[1]
    key = np.zeros(keys[0].shape, np.int64)
    for k in keys:
        key = key * 512 + (255 - k.astype(np.int64))     # every key is within -255..255
    key = key * R + seat
    return np.array(points[:R], np.int16)[_count_below(key)]
