"""Dash's rules: a race of ``track`` squares (a tiny game that exists to show
that a new game is one folder; ``tests/test_a_new_game.py`` adds it).

1. 2-4 players take turns in seat order, seat 1 first; every rider starts on square 0.
2. On a turn the player walks ``walk`` squares or rolls one die of ``die_faces`` faces
   and moves that many squares; a roll of 1 trips instead: ``trip_back`` squares back
   (never below 0).
3. The first rider to reach ``track`` wins at once.
4. After ``max_turns`` turns each, the rider furthest along wins (ties split).
"""

from __future__ import annotations

import dataclasses

from gamelab.core.contract import players_check
from gamelab.core.params import Params, param, variant_maker

PLAYERS = (2, 4)


@dataclasses.dataclass(frozen=True, kw_only=True)
class DashParams(Params):
    track: int = param(20, low=5, high=100, section="rule 3", doc="the square that wins")
    walk: int = param(1, low=1, high=3, section="rule 2", doc="squares a walk moves")
    die_faces: int = param(6, low=2, high=12, section="rule 2", doc="faces of the die")
    trip_back: int = param(2, low=0, high=10, section="rule 2", doc="squares back on a roll of 1")
    max_turns: int = param(15, low=1, high=100, section="rule 4", doc="turns each before the furthest wins")


#: rule 1: ``check_players(params, n_players)`` refuses a count outside 2-4
check_players = players_check(PLAYERS, "Dash seats 2-4 players, rule 1")


VARIANT_CHANGES = {"standard": {}, "long": {"track": 40, "max_turns": 30}}
params_for_variant = variant_maker(DashParams, VARIANT_CHANGES)
