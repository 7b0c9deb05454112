"""STRAND hot-path helpers for the batch arrays (no rules here).

numpy calls on (G,P) arrays: elementwise ops on whole arrays are cheap, but a
(G,) -> (G,1) broadcast, np.where, take_along_axis and reductions over the
short seat axis cost 10-100x more at these sizes; the helpers avoid them.
The engine, the settlement (``scoring.py``), the deck (``cards.py``) and the
table model (``styles.py``) share them.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=16)
def _grid(G, P):
    """Flat offsets of each game's row in a (G,P) array, and each cell's seat."""
    flat = np.arange(G, dtype=np.int64)[:, None] * P + np.zeros(P, np.int64)
    seat = np.broadcast_to(np.arange(P, dtype=np.int8), (G, P)).copy()
    flat.flags.writeable = seat.flags.writeable = False
    return flat, seat


def _cols(x, P):
    """(G,) -> (G,P), the game's value in every seat's column."""
    return np.repeat(x, P).reshape(-1, P)


def _colsum(a):
    """Sum over the short seat axis of a (G,P) array, as a loop of column adds."""
    out = a[:, 0].copy()
    for s in range(1, a.shape[1]):
        out += a[:, s]
    return out


_ONEHOT = np.vstack([np.zeros(5, np.int8), np.eye(5, dtype=np.int8)])  # card value 1..5 -> (5,) row


def _onehot(v):
    """(..., 5) int8 rows: 1 at the index of card value ``v`` (1..5)."""
    return _ONEHOT.take(v, axis=0)


def _rowsum(a):
    """Sum over the 5 card values (explicit adds beat a short-axis reduce)."""
    return a[:, 0].astype(np.int16) + a[:, 1] + a[:, 2] + a[:, 3] + a[:, 4]


def _hand_sizes(hand):
    """(G,P) cards held (explicit adds beat a short-axis reduce)."""
    return hand[..., 0] + hand[..., 1] + hand[..., 2] + hand[..., 3] + hand[..., 4]
