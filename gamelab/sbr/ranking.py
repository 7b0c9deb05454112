"""STEEL BALL RUN winners: who wins a game and the players' ranks (section 6.3).

The riders' ranks of segment and final scoring (6.2, 6.3) and the acting
order (6.2 step 0) are the kernel's (:func:`~gamelab.sbr.kernel.rank_points`,
:func:`~gamelab.sbr.kernel.begin_beat`); these rank the players of a finished
game: :func:`win_key` packs the winners' tie-breaks, and the engine ranks by
it (:func:`gamelab.core.arrays.count_below`).
"""

from __future__ import annotations

import numpy as np

WIN_RELICS = 1_000  # result's key: score, then relics (< 1000), then squares (< 1000)
WIN_SCORE = 1_000_000


def win_key(score, relics, squares):
    """Section 6.3's winner order as one int64 per player, higher first:
    plain, the tuple ``(score, relics, squares)``."""
    return score.astype(np.int64) * WIN_SCORE + relics * WIN_RELICS + squares
