"""STRAND hot-path helpers for the batch arrays (no rules here).

numpy calls on (G,P) arrays: elementwise ops on whole arrays are cheap, but a
(G,) -> (G,1) broadcast, np.where, take_along_axis and reductions over the
short seat axis cost 10-100x more at these sizes; the helpers avoid them.
The engine, the settlement (``scoring.py``), the deck (``cards.py``) and the
table model (``heuristic.py``) share them.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np

from .state import N_VALUES


@lru_cache(maxsize=16)
def grid(G, P):
    """Flat offsets of each game's row in a (G,P) array, and each cell's seat."""
    flat = np.arange(G, dtype=np.int64)[:, None] * P + np.zeros(P, np.int64)
    seat = np.broadcast_to(np.arange(P, dtype=np.int8), (G, P)).copy()
    flat.flags.writeable = seat.flags.writeable = False
    return flat, seat


def at_seats(a, seats):
    """(G,P) ``a[g, seats[g, s]]`` for every cell: ``np.take_along_axis(a,
    seats, 1)`` as one flat gather."""
    flat, _ = grid(*a.shape)
    return a.take(flat + seats)


def cols(x, P):
    """(G,) -> (G,P), the game's value in every seat's column."""
    return np.repeat(x, P).reshape(-1, P)


def colsum(a):
    """Sum over the short seat axis of a (G,P) array, as a loop of column adds."""
    out = a[:, 0].copy()
    for s in range(1, a.shape[1]):
        out += a[:, s]
    return out


_ONEHOT = np.vstack([np.zeros(N_VALUES, np.int8), np.eye(N_VALUES, dtype=np.int8)])  # value 1..5 -> row


def onehot(v):
    """(..., 5) int8 rows: 1 at the index of card value ``v`` (1..5); value 0 gives a zero row."""
    return _ONEHOT.take(v, axis=0)


@lru_cache(maxsize=16)
def _value_rows(G):
    """(G,1) the offset of each game's block of N_VALUES + 1 counts (read-only)."""
    rows = np.arange(0, G * (N_VALUES + 1), N_VALUES + 1, dtype=np.int64)[:, None]
    rows.flags.writeable = False
    return rows


def value_counts(v):
    """(G,5) how many cells of each (G,P) row hold each card value 1..5 (0: no card):
    ``colsum(onehot(v))`` as one ``np.bincount`` (3x faster on a batch's rows)."""
    G = v.shape[0]
    counts = np.bincount((v + _value_rows(G)).ravel(), minlength=G * (N_VALUES + 1))
    return counts.reshape(G, N_VALUES + 1)[:, 1:]


def rowsum(a):
    """Sum over the 5 card values (explicit adds beat a short-axis reduce)."""
    return a[:, 0].astype(np.int16) + a[:, 1] + a[:, 2] + a[:, 3] + a[:, 4]


def hand_sizes(hand):
    """(G,P) cards held (explicit adds beat a short-axis reduce)."""
    return hand[..., 0] + hand[..., 1] + hand[..., 2] + hand[..., 3] + hand[..., 4]


# --- uniformly random legal actions -------------------------------------------
@cache
def _choice_table(n_actions: int):
    """For every mask (as a bit code): how many actions it allows and the k-th."""
    codes = np.arange(1 << n_actions)
    bits = (codes[:, None] >> np.arange(n_actions)) & 1
    order = np.argsort(-bits, axis=1, kind="stable").astype(np.int8)  # allowed actions first
    return bits.sum(1).astype(np.float32), order.ravel()


@cache
def _weights(n_actions):
    return (1 << np.arange(n_actions)).astype(np.int32)


def uniform_choice(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    """(G,) one allowed action per row of ``mask`` (G,A), chosen by the
    uniforms ``u`` (G,): the floor(u x count)-th allowed action (a table look-up,
    no per-action random numbers).  A row with nothing allowed gives 0."""
    G, A = mask.shape
    code = np.asarray(mask, dtype=bool).view(np.uint8) @ _weights(A)  # the mask as a bit code (views work strided)
    count, order = _choice_table(A)
    k = (u * count[code]).astype(np.int64)
    return order[code * A + k].astype(np.int64)  # order[code, k] of the (codes, A) table
