"""Shared by the meta-game tests: a two-seat game's payoff table."""

import numpy as np

from gamelab.stats import metagame as mg


def two_seat_table(M):
    """The heuristic payoff table of the symmetric two-seat game with row payoffs ``M``."""
    M = np.asarray(M, float)
    K = mg.profiles(len(M), 2)
    out = np.full(K.shape, np.nan)
    for k, row in enumerate(K):
        present = np.flatnonzero(row)
        i, j = (present[0], present[0]) if len(present) == 1 else present
        out[k, i], out[k, j] = M[i, j], M[j, i]
    return out
