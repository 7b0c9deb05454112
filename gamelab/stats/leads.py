"""Design metrics counted while games are played (not rules): lead changes,
counted the same way for every game by :class:`LeadCounter`."""

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


class LeadCounter:
    """The lead changes of a batch of ``n_games`` games: :meth:`count` is shown
    each game's points so far (G, P) whenever they may have moved (every step,
    beat or round, as the game declares); ``changes`` (G,) counts the times the
    sole leader changed, in ``dtype`` (the game's column type)."""

    def __init__(self, n_games: int, dtype=np.int16):
        self.leader = np.full(n_games, -1, np.int8)
        self.changes = np.zeros(n_games, dtype)

    def count(self, points: np.ndarray) -> None:
        self.leader = sole_leader_step(points, self.leader, self.changes)


def lead_changes(points_by_step, n_games: int, dtype=np.int16) -> np.ndarray:
    """(G,) lead changes over a whole game's points after each step ((steps, G, P))."""
    counter = LeadCounter(n_games, dtype)
    for points in points_by_step:
        counter.count(points)
    return counter.changes
