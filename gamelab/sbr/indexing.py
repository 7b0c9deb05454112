"""Flat-index helpers shared by the STEEL BALL RUN batch modules.

No rules here: offsets that turn (G, R) and (G, width) arrays into one flat
axis, where fancy indexing is fastest.  The engine, the movement kernel and
the agents all index the state this way; each helper's docstring gives the
plain indexing it stands for.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .rules import N_VALUES


@lru_cache(maxsize=16)
def row_starts(G: int, width: int) -> np.ndarray:
    """Offsets of each game's row in a flattened (G, width) array (read-only):
    ``flat(a).take(row_starts(G, R) + r)`` is ``a[np.arange(G), r]``."""
    out = np.arange(G) * width
    out.flags.writeable = False
    return out


@lru_cache(maxsize=8)
def row_starts_k(G: int, width: int, K: int) -> np.ndarray:
    """(G, K): each game's row offset in a flattened (G, width) array, repeated
    K times (read-only): ``a.reshape(-1).take(row_starts_k(G, W, K) + j)`` is
    ``np.take_along_axis(a, j, axis=1)`` for (G, K) column indices ``j``."""
    out = np.repeat(np.arange(G) * width, K).reshape(G, K)
    out.flags.writeable = False
    return out


def flat(a):
    """A view with games and riders merged: fancy indexing on one axis is
    faster.  (G, R) -> (G*R,); (G, R, W) -> (G*R, W)."""
    return a.reshape(-1) if a.ndim == 2 else a.reshape(-1, a.shape[2])


def value_index(fi, card):
    """Flat index of card value ``card`` (1..5) of flat rider ``fi`` in a
    (G, R, 5) hand or discard: ``hand.reshape(-1)[value_index(fi, v)]`` is
    ``hand[g, r, v - 1]`` with ``fi = g * R + r``."""
    return fi * N_VALUES + card - 1


def flat_index(g, width, j):
    """Flat index of entry ``j`` of game ``g`` in a flattened (G, width) array
    (a rider of a (G, R) array, a square of a (G, L+1) board):
    ``a.reshape(-1)[flat_index(g, W, j)]`` is ``a[g, j]``."""
    return g * width + j


@lru_cache(maxsize=16)
def spin_affordable(S: int) -> np.ndarray:
    """(S+1, S+1) bool, row h: spin amounts 0..S affordable with h held (h <= S)."""
    return np.arange(S + 1)[None, :] <= np.arange(S + 1)[:, None]
