"""Flat-index helpers shared by the STEEL BALL RUN batch modules.

No rules here: offsets that turn (G, R) and (G, width) arrays into one flat
axis, where fancy indexing is fastest.  The engine, the movement kernel and
the agents all index the state this way.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=16)
def _rows(G: int, width: int) -> np.ndarray:
    """Offsets of each game's row in a flattened (G, width) array (read-only)."""
    out = np.arange(G) * width
    out.flags.writeable = False
    return out


@lru_cache(maxsize=8)
def _rows2(G: int, width: int, K: int) -> np.ndarray:
    """(G, K): each game's row offset in a flattened (G, width) array (read-only)."""
    out = np.repeat(np.arange(G) * width, K).reshape(G, K)
    out.flags.writeable = False
    return out


def _flat(a):
    """A view with games and riders merged: fancy indexing on one axis is faster."""
    return a.reshape(-1) if a.ndim == 2 else a.reshape(-1, a.shape[2])


@lru_cache(maxsize=16)
def _prefix(S: int) -> np.ndarray:
    """Row h: spin amounts 0..S affordable with h held (h <= S)."""
    return np.arange(S + 1)[None, :] <= np.arange(S + 1)[:, None]
