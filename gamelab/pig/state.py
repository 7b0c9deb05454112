"""Pig's batch types: the state, the chance, the action codes.

Kept apart from the engine so that every module (engine, agents, reference,
record) imports the types from here, never from the engine front.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from gamelab.core.batch import Batch

#: the two decisions of a turn (rules 2 and 5); a legal mask has one column each
ROLL, HOLD = 0, 1
N_ACTIONS = 2
#: the ``face`` event of a decision that rolled nothing (a hold, a finished game)
NO_FACE = 0


@dataclasses.dataclass
class Chance(Batch):
    """Every die of a batch, drawn up front.  ``faces`` (G, R) uint8 (numpy
    draws uint8 twice as fast as int8): game g's k-th roll shows
    ``faces[g, k]``; R is ``rules.max_rolls`` (rule 10), a bound no game
    exceeds, so a deal reads its dice in the same order under every seating
    and policy.  A record or a scripted test passes its own dice."""

    faces: np.ndarray


@dataclasses.dataclass
class State(Batch):
    """G games of P players (leading axis: the batch).

    ``score`` (G,P) banked points; ``turn_total`` (G,) points at stake in the
    current turn; ``player`` (G,) the seat to move (0-based); ``turn`` (G,)
    turns completed; ``rolls`` (G,) dice used (index of the next face in
    ``Chance.faces``); ``over`` (G,) the game has ended (rules 7, 8).
    """

    score: np.ndarray
    turn_total: np.ndarray
    player: np.ndarray
    turn: np.ndarray
    rolls: np.ndarray
    over: np.ndarray

    @property
    def n_players(self) -> int:
        return self.score.shape[1]
