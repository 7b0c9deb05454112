"""STEEL BALL RUN batch types: the state, the actions, the chance, the legal masks.

Every kernel module (turn, movement, options, ranking, greedy, ...) imports
these from here; :mod:`gamelab.sbr.engine` re-exports them.

State fields, (G, R) unless noted (R riders = players x riders_per_player):
pos, spin, seals_left, hand (G,R,5) counts of values 1..5, discard (G,R,5),
deck (G,R,D) card values in draw order, drawn (cards drawn so far), seal
(G,N+1) owner rider or -1, relic (G,N+1) type or -1, relic_pts, relic_n,
seg_start, seg_points, seg_dist/seg_pts/seg_relic (G,S,R) per segment (seg_relic: the
relic points taken in it, written at its end), finish_beat
(0 = not finished), order (this beat's acting order, section 6.2 step 0),
start (G,) the start rider (6.1), stats (dict of (G,R)), beat (int, beats
completed), slot (int, the index into ``order`` of the next decision),
n_players (int).
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from gamelab.core.batch import Batch

UNKNOWN = 4  # relic code for a face-down relic a record does not name
STATS = ("spin_spent", "seals_placed", "seal_hits", "card_sum", "cards_played", "terrain_tax")


class Chance(NamedTuple):
    """Every random number of a batch of games, drawn up front (section 6.1)."""

    decks: np.ndarray  # (G, R, D) card values in draw order
    relics: np.ndarray  # (G, N+1) relic type by square, -1 none
    start: np.ndarray  # (G,) start rider (beat-1 ties, section 6.1; every tie under seat_order from_start)

    def take(self, games) -> Chance:
        """The chance of games ``games`` (indices), as a new batch."""
        return Chance(self.decks[games], self.relics[games], self.start[games])


class Actions(NamedTuple):
    """One rider's choices of section 6.2 steps 1-3 (and 5.3, 5.4), (G,) each."""

    card: np.ndarray
    spin: np.ndarray
    seal: np.ndarray  # 0 none, else distance 1..seal_range
    brk: np.ndarray  # break opponents' seals with spin when possible
    retrieve: np.ndarray  # skull: card value wanted back (0 = the highest)


class Legal(NamedTuple):
    """The legal choices of the rider acting in each game (G games)."""

    card: np.ndarray  # (G, 5): card value v + 1 held (False for every value where not acting)
    spin: np.ndarray  # (G, max_spin + 1): spin amounts affordable
    seal: np.ndarray  # (G, seal_range + 1): seal distances allowed (index 0 = no seal, always)
    acting: np.ndarray  # (G,): the rider still races (and the game is not over)


@dataclasses.dataclass
class State(Batch):
    """G games of STEEL BALL RUN (fields: the module docstring)."""

    pos: np.ndarray
    spin: np.ndarray
    seals_left: np.ndarray
    hand: np.ndarray
    discard: np.ndarray
    deck: np.ndarray
    drawn: np.ndarray
    seal: np.ndarray
    relic: np.ndarray
    relic_pts: np.ndarray
    relic_n: np.ndarray
    seg_start: np.ndarray
    seg_points: np.ndarray
    seg_dist: np.ndarray
    seg_pts: np.ndarray
    seg_relic: np.ndarray
    finish_beat: np.ndarray
    order: np.ndarray
    start: np.ndarray
    stats: dict
    beat: int
    n_players: int
    slot: int = 0

    @property
    def points_so_far(self) -> np.ndarray:
        """(G, P) each player's points so far (segment + relic): the score whose sole leader
        the lead changes follow, beat by beat (a design metric, not a rule; ``GAME.counts``)."""
        return (self.seg_points + self.relic_pts).reshape(self.pos.shape[0], self.n_players, -1).sum(axis=2)
