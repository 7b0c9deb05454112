"""STRAND's batch types: the state, the chance of a batch, the action codes.

State (:class:`State`, leading axis G games, P seats):

====================  ============  ==========================================
``hand``              (G,P,5) i8    cards held per value 1..5 (unknown in replay)
``limit``             (G,P) i8      hand limit (3, raised by stays up to 5)
``deck``/``discard``  (G,5) i8      cards left per value; discards per value
``score``             (G,P) i16     gross points so far
``lone``              (G,P) i8      lone markers
``seg``               (G,) i8       track marker: segment index 0.. (n = passed the end)
``rnd``               (G,) i8       rounds played
``role``/``uses``     (G,P) i8      role code (rules.ROLES, 0 none), uses left
``rain_order``        (G,R) i8      time-rain card of each round (-1 none)
``rain``              (G,) i8       this round's card
``card``/``cargo``    (G,P) i8      printed card shown / effective cargo this round
``rope``              (G,P) i8      seat pointed at (-1 stay); kept until next ropes
``partner``           (G,P) i8      teammate this round (-1 none)
``phase``             int           CARGO, ROPE or REACT (all games in step)
``tracked``           bool          hands are known (simulation) or not (replay)
====================  ============  ==========================================

Chance (:class:`Chance`): every random number of a batch, drawn before play
(``engine.draw_chance``, ``engine.deal``).  Roles are part of the deal
(section 6.1 step 6: the role cards are dealt with the hands).

Action codes, one int per seat and decision (``actions.py`` builds and reads
them; ``reference.py`` uses the same codes):

* cargo: ``value - 1 + N_VALUES * porter`` (porter = use the porter's +1)
* rope: seat ``j`` (point at j), ``P`` (stay), ``P + 1 + j`` (bb: lock j)
* reaction: ``REACT_PASS``, ``REACT_POWER`` (veteran / engineer / musician),
  ``REACT_SWITCH + j`` (fragile: switch to seat j)
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from gamelab.core.batch import Batch, as_games, rows_of

#: the three decisions of a round (section 6.2 steps 2, 4 and 5)
CARGO, ROPE, REACT = 0, 1, 2
PHASES = (CARGO, ROPE, REACT)

N_VALUES = 5  # cargo card values 1..5 (section 2)
MIN_VALUE, MAX_VALUE = 1, 5  # the smallest and largest card values: acid rain and the porter stop there
DRAWS = 2  # a refill never needs more than two cards per seat (limit rises by one per round)

REACT_PASS, REACT_POWER, REACT_SWITCH = 0, 1, 2


@dataclasses.dataclass
class State(Batch):
    """One batch of games (mutable: the engine updates it only with ``inplace=True``)."""

    hand: np.ndarray
    limit: np.ndarray
    deck: np.ndarray
    discard: np.ndarray
    score: np.ndarray
    lone: np.ndarray
    seg: np.ndarray
    rnd: np.ndarray
    role: np.ndarray
    uses: np.ndarray
    rain_order: np.ndarray
    rain: np.ndarray
    card: np.ndarray
    cargo: np.ndarray
    rope: np.ndarray
    partner: np.ndarray
    phase: int = CARGO
    tracked: bool = True

    @property
    def n_players(self):
        return self.score.shape[1]

    @property
    def done(self):
        return self.rnd >= self.rain_order.shape[1]


class Chance(NamedTuple):
    """Every random number a batch uses, drawn up front.

    ``hands`` (G,P,hand_size) uniforms of the first deal, ``draws``
    (rounds,G,P,DRAWS) uniforms of each round's refill (``reference.draw_card``
    says how a uniform picks a card); both None when the hands are unknown
    (a replay: the record gives the cargo revealed).  ``rain_order`` (G,
    rounds) time-rain card codes (-1 none), ``roles`` (G,P) role codes
    (0 none)."""

    hands: np.ndarray | None
    draws: np.ndarray | None
    rain_order: np.ndarray
    roles: np.ndarray

    def take(self, games):
        """The chance of the games ``games`` (as :meth:`State.take`)."""
        idx = as_games(games)
        return Chance(
            hands=None if self.hands is None else rows_of(self.hands, idx),
            draws=None if self.draws is None else rows_of(self.draws, idx, axis=1),
            rain_order=rows_of(self.rain_order, idx),
            roles=rows_of(self.roles, idx),
        )
