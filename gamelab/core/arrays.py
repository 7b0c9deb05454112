"""Array helpers of the games' hot paths, and uniform picks among allowed columns (no rules here).

numpy calls on (G, P) arrays, G games by P seats: elementwise ops on whole
arrays are cheap, but a (G,) -> (G, 1) broadcast, ``np.where``,
``take_along_axis`` and reductions over the short seat axis cost 10-100x
more at these sizes; the helpers avoid them (each docstring gives the plain
numpy it stands for).

Uniform legal picks: a uniformly random allowed column of each row of a mask,
chosen by uniforms the caller drew (the caller owns the generator).  Two
table look-ups, each bit for bit what a game's recorded results were made
with (a game that switched would change its random games):

* :func:`uniform_choice`: the ``floor(u x count)``-th allowed column;
* :func:`pick_by` (and :func:`pick`, drawing its uniforms): the same for
  counts dividing 60, through 60 equal slices of [0, 1).
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np


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


def count_below(key):
    """(G, P): for each player, how many players of his game have a smaller
    key (a loop over the few players beats a (G, P, P) comparison)."""
    cols = np.ascontiguousarray(key.T)
    rank = np.empty(key.shape, np.intp)
    for i in range(cols.shape[0]):
        below = np.zeros(cols.shape[1], np.intp)
        for j in range(cols.shape[0]):
            if j != i:
                below += cols[j] < cols[i]
        rank[:, i] = below
    return rank


# --- uniformly random allowed columns ------------------------------------------
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


PICK_SLOTS = 60  # divisible by 1..5: every count of options is exact
PICK_TABLE_WIDTH = 8  # masks up to this wide are picked through a table by bit pattern


def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random True column of each row (0 where a row has none)."""
    return pick_by(mask, rng.random(mask.shape[0]))


@lru_cache(maxsize=8)
def _pick_table(width: int) -> np.ndarray:
    """(2**width, PICK_SLOTS): for each mask pattern, the column chosen by each
    of PICK_SLOTS equal slices of [0, 1)."""
    table = np.zeros((2**width, PICK_SLOTS), np.intp)
    for pattern in range(1, 2**width):
        cols = [c for c in range(width) if pattern >> c & 1]
        table[pattern] = [cols[j * len(cols) // PICK_SLOTS] for j in range(PICK_SLOTS)]
    return table


def pick_by(mask, u):
    """The column of each row's True entries picked by uniform ``u`` (G,):
    plain, ``np.flatnonzero(row)[int(u * row.sum())]`` (the table's slices
    of [0, 1) give exactly that for counts dividing PICK_SLOTS)."""
    if mask.shape[1] > PICK_TABLE_WIDTH:  # wide masks: the k-th True column
        c = mask.cumsum(axis=1)
        return np.argmax(c > (u * c[:, -1]).astype(np.intp)[:, None], axis=1)
    x = mask.view(np.uint8)
    bits = x[:, 0].astype(np.intp)  # bits = sum(mask[:, c] << c): the row as a number
    for c in range(1, mask.shape[1]):
        bits |= x[:, c].astype(np.intp) << c
    slot = (u * PICK_SLOTS).astype(np.intp)
    return _pick_table(mask.shape[1]).reshape(-1).take(bits * PICK_SLOTS + slot)  # table[bits, slot]
