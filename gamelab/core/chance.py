"""Chance drawn on demand, as a pure function: the k-th random number of a game from its key.

Drawing every random number up front (``Engine.draw_chance``) costs memory for the worst case.
Pig's bound is small (8,000 faces a game at 4 players); a game whose rules allow far more
draws than a real game uses (Can't Stop: 14,400 rolls at worst, about 75 in a real game)
keeps instead one key per game in its ``Chance`` (:func:`keys`, from the caller's generator)
and counts the draws made in its state.  The k-th number of game g is then
``uniform(key[g], k)``: the same under every seating and in the reference, and the engine
still draws nothing.  A counter-based generator (SplitMix64's mixer over key and counter),
written here because numpy's counter-based ``Philox`` is one generator object per stream: a
batch of games, each at its own counter, would need a generator per game and per draw.
"""

from __future__ import annotations

import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64's increment: counters k and k + 1 land far apart


def keys(rng: np.random.Generator, n_games: int) -> np.ndarray:
    """(G,) uint64 keys, one per game, from the caller's generator."""
    return rng.integers(0, 2**64, size=n_games, dtype=np.uint64)


def mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser, element-wise on uint64 (wrapping arithmetic, as in the C original)."""
    x = np.asarray(x, dtype=np.uint64)
    with np.errstate(over="ignore"):  # the mixer wraps modulo 2**64 on purpose
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def uniform(key, counter) -> np.ndarray:
    """Uniform numbers in [0, 1), one per (key, counter) pair (broadcast): 53 random bits each."""
    k = np.asarray(key, dtype=np.uint64)
    c = np.asarray(counter, dtype=np.uint64) + np.uint64(1)
    with np.errstate(over="ignore"):
        spread = k + c * GOLDEN
    return (mix(spread) >> np.uint64(11)).astype(np.float64) * 2.0**-53


def integers(key, counter, low: int, high: int) -> np.ndarray:
    """Whole numbers in ``low .. high - 1``, one per (key, counter) pair: a die is ``integers(k, n, 1, 7)``."""
    return low + np.floor(uniform(key, counter) * (high - low)).astype(np.int64)
