"""STEEL BALL RUN winners: who wins a game and the players' ranks (section 6.3).

The riders' ranks of segment and final scoring (6.2, 6.3) and the acting
order (6.2 step 0) are the kernel's (:func:`~gamelab.sbr.kernel.rank_points`,
:func:`~gamelab.sbr.kernel.begin_beat`); these rank the players of a finished
game: :func:`win_key` packs the winners' tie-breaks, :func:`count_below`
ranks by it.
"""

from __future__ import annotations

import numpy as np

WIN_RELICS = 1_000  # result's key: score, then relics (< 1000), then squares (< 1000)
WIN_SCORE = 1_000_000


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


def win_key(score, relics, squares):
    """Section 6.3's winner order as one int64 per player, higher first:
    plain, the tuple ``(score, relics, squares)``."""
    return score.astype(np.int64) * WIN_SCORE + relics * WIN_RELICS + squares
