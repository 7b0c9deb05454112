"""Pig: the rule parameters, their checks, the variants and the bounds.

Rule numbers refer to ``docs/rules-pig.md``.  Every number the rules fix is
a declared parameter of :class:`PigParams`; sliders, sweeps, parameter files
and reports read the declaration.
"""

from __future__ import annotations

import dataclasses

from gamelab.core.contract import players_check
from gamelab.core.errors import ParamError
from gamelab.core.params import Params, param, variant_maker

#: players a game may seat (rule 1)
PLAYERS = (2, 6)

VARIANT_CHANGES = {
    "standard": {},
    "quick": {"target": 50, "max_turns": 25},
    "ten_to_hold": {"hold_minimum": 10},
}


@dataclasses.dataclass(frozen=True, kw_only=True)
class PigParams(Params):
    """The rules of Pig as numbers (rule numbers in ``section``)."""

    target: int = param(100, low=10, high=200, section="rule 7", doc="banking this many points or more wins at once")
    die_faces: int = param(6, low=2, high=20, section="rule 2", doc="faces of the die, showing 1 up to this number")
    bust_faces: int = param(
        1,
        low=1,
        high=19,
        section="rule 3",
        doc="faces 1 up to this number bust: the turn total is lost and the turn ends",
    )
    max_turns: int = param(
        40, low=1, high=60, section="rule 8", doc="turns per player before the game ends on the highest banked score"
    )
    hold_minimum: int = param(
        0, low=0, high=200, section="rule 5", doc="smallest turn total a player may hold (0: any positive total)"
    )

    def check(self) -> None:
        if self.bust_faces > self.die_faces - 1:
            raise ParamError(
                f"bust_faces = {self.bust_faces} is out of range: expected int in "
                f"1..{self.die_faces - 1} (die_faces - 1: at least one face must score)"
            )

    @property
    def scoring_faces(self) -> range:
        """The faces that add to the turn total (rule 4)."""
        return range(self.bust_faces + 1, self.die_faces + 1)


#: rule 1: ``check_players(params, n_players)`` refuses a count outside 2-6
check_players = players_check(PLAYERS, "Pig seats 2-6 players, rule 1")


def rolls_per_turn(params: PigParams) -> int:
    """Rule 10: the most rolls one turn can take.  Before every roll the banked
    score plus the turn total is below the target (rule 6) and each scoring
    roll adds at least ``bust_faces + 1``, so at most ``(target - 1) //
    (bust_faces + 1)`` scoring rolls come before the turn's last roll."""
    return (params.target - 1) // (params.bust_faces + 1) + 1


def max_rolls(params: PigParams, n_players: int) -> int:
    """Rule 10: the most rolls a game can take (``P * max_turns`` turns)."""
    return n_players * params.max_turns * rolls_per_turn(params)


def max_steps(params: PigParams, n_players: int) -> int:
    """Rule 10: the most decisions a game can take: every roll, plus one
    hold per turn."""
    return max_rolls(params, n_players) + n_players * params.max_turns


#: ``params_for_variant(name, **overrides)``: a named variant (``docs/rules-pig.md``), then single overrides on top
params_for_variant = variant_maker(PigParams, VARIANT_CHANGES)
