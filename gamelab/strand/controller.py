"""The agents of one seating, one decision at a time (``contract.Controller``).

:class:`Controller` plays the same table model as the fast ``sim.play``
(``styles.Table``): the mix seats' styles drawn from the generator given,
then every decision asked of the table by phase.  The roles are part of the
deal (the engine's ``Chance``), not of the controller.
"""

from __future__ import annotations

from .agents import knobs
from .sim import deal_styles
from .state import CARGO, ROPE
from .styles import Table


class Controller:
    """``act(state, legal)`` for every game of a batch; ``observe(events)``
    after each step (the table learns from the round's settlement)."""

    def __init__(self, params, seating, n_games, rng, custom=None):
        self.params = knobs(params)
        self.styles = deal_styles(seating, n_games, rng)
        self.table = Table(self.params, self.styles, rng, custom)

    def act(self, state, legal=None):
        """(G,P) the table's actions for the current phase (``legal`` is not
        needed: the table asks the engine)."""
        if state.phase == CARGO:
            return self.table.cargo(state)
        if state.phase == ROPE:
            return self.table.ropes(state)
        return self.table.react(state)

    def observe(self, events: dict) -> None:
        """A settlement's events (they carry the round's partners) update the table."""
        if "partner" in events:
            self.table.observe(events)


def controller(params, seating, n_games, rng) -> Controller:
    """``GAME.controller``: the agents of ``seating`` over ``n_games`` games."""
    return Controller(params, seating, n_games, rng)
