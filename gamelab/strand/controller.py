"""The agents of one seating, one decision at a time (``contract.Controller``).

:class:`Controller` plays the same table model as the fast ``sim.play``
(``styles.Table``): the mix seats' styles drawn from the generator given,
then every decision asked of the table by phase, the ``greedy`` and
``best`` seats' then replaced by the search agents' (``best.py``, their
generators children of the one given).  The roles are part of the
deal (the engine's ``Chance``), not of the controller.
"""

from __future__ import annotations

from .agents import knobs
from .best import search_agents, searcher_seats, with_searchers
from .sim import deal_styles, distilled_models
from .state import CARGO, ROPE
from .styles import Table


class Controller:
    """``act(state, legal)`` for every game of a batch; ``observe(events)``
    after each step (the table learns from the round's settlement)."""

    def __init__(self, params, seating, n_games, rng, custom=None):
        self.params = knobs(params)
        self.styles = deal_styles(seating, n_games, rng, self.params.best_proxy)
        self.table = Table(self.params, self.styles, rng, custom)
        seats = searcher_seats(seating)
        self.search = search_agents(
            self.params, self.table, seats, rng, distilled_models(self.params, seats, len(seating))
        )

    def act(self, state, legal=None):
        """(G,P) the table's actions for the current phase (``legal`` is not
        needed: the table asks the engine)."""
        if state.phase == CARGO:
            acts = self.table.cargo(state)
        elif state.phase == ROPE:
            acts = self.table.ropes(state)
        else:
            acts = self.table.react(state)
        return with_searchers(self.search, state, acts)

    def observe(self, events: dict) -> None:
        """A settlement's events (they carry the round's partners) update the table."""
        if "partner" in events:
            self.table.observe(events)


def controller(params, seating, n_games, rng) -> Controller:
    """``GAME.controller``: the agents of ``seating`` over ``n_games`` games."""
    return Controller(params, seating, n_games, rng)
