"""Dash's batch types: the state, the chance, the action codes."""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from gamelab.core.batch import Batch

WALK, ROLL = 0, 1  # rule 2


class Chance(NamedTuple):
    """``faces`` (G, T): the die game g's t-th turn shows if its player rolls."""

    faces: np.ndarray

    def take(self, games) -> Chance:
        return Chance(self.faces[games])


@dataclasses.dataclass
class State(Batch):
    """``square`` (G, P) each rider's square; ``player`` (G,) the seat to move;
    ``turn`` (G,) turns played; ``over`` (G,) the game has ended."""

    square: np.ndarray
    player: np.ndarray
    turn: np.ndarray
    over: np.ndarray
