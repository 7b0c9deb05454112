"""Design metrics counted while games are played (not rules): kept here so
both games count them the same way."""

from __future__ import annotations

import numpy as np


def sole_leader_step(points: np.ndarray, leader: np.ndarray, changes: np.ndarray) -> np.ndarray:
    """One step of lead-change counting over a batch: ``points`` (G, P) so far,
    ``leader`` (G,) the last sole leader (-1 none yet); adds 1 to ``changes``
    where a different player now leads alone (a tie leads no one and changes
    nothing) and returns the new ``leader``."""
    best = points.max(axis=1)
    top = points == best[:, None]
    sole = top.sum(axis=1) == 1
    who = np.where(sole, top.argmax(axis=1), -1).astype(np.int8)
    changes += (who >= 0) & (leader >= 0) & (who != leader)
    return np.where(who >= 0, who, leader).astype(np.int8)
