"""STRAND agents: the policies, and the agents of a seating one decision at a time.

Policies follow ``policy(params, state, seat, legal_mask, rng) -> (G,) actions``:
agents only choose among the engine's legal actions (``legal_mask``) and ask
the engine what a move would do (``engine.team_values``, ``engine.round_cap``).

* :func:`random_policy` -- each legal action with equal chance ("random"; in ``legal.py``).
* :func:`per_game` -- wraps a plain one-game Python function as a policy, so a
  designer can write an agent in a notebook in a few lines (slow, fine).
* the six play styles of appendix B and the table model "negotiation pairing
  + last-minute reneging" live in :mod:`gamelab.strand.heuristic`, which plays a
  whole table at once (negotiation is a joint decision of the seats).
* :class:`Controller` (``GAME.controller``): the agents of one seating, one
  decision at a time (``contract.Controller``).

The model's knobs are declared once in :class:`AgentParams`
(:mod:`~gamelab.strand.agent_params`, rules + model), the runner's parameter
class; :func:`knobs` gives rules-only parameters the model's defaults.
"""

from __future__ import annotations

import numpy as np

from gamelab.core.arrays import uniform_choice

from .actions import lock_codes, porter_codes, power_codes
from .agent_params import AgentParams, knobs
from .legal import random_policy
from .search import search_agents, searcher_seats, with_searchers
from .sim import deal_styles, distilled_models, learned_seats, make_table
from .state import CARGO, ROPE

__all__ = [
    "AgentParams",
    "knobs",
    "random_policy",
    "passive_random_policy",
    "per_game",
    "uniform_choice",
    "Controller",
    "controller",
]


# --- uniformly random legal actions -------------------------------------------
def passive_random_policy(params, state, seat, mask, rng):
    """Random cargo and ropes, but never a role power (for power-free baselines)."""
    mask = mask.copy()
    if state.phase == CARGO:
        mask[:, porter_codes()] = False
    elif state.phase == ROPE:
        mask[:, lock_codes(state.n_players)] = False
    else:
        mask[:, power_codes()] = False
    return random_policy(params, state, seat, mask, rng)


# --- plain per-game functions as policies ---------------------------------------
PHASE_NAMES = ("cargo", "rope", "react")  # by phase code


def observation(state, g: int, seat: int) -> dict:
    """What ``seat`` may see in game ``g``: its own hand, everything public."""
    return {
        "phase": PHASE_NAMES[state.phase],
        "seat": seat,
        "n_players": state.n_players,
        "round": int(state.rnd[g]),
        "segment": int(state.seg[g]),
        "rain": int(state.rain[g]),
        "hand": {v + 1: int(n) for v, n in enumerate(state.hand[g, seat]) if n},
        "cargo": state.cargo[g].tolist(),
        "ropes": state.rope[g].tolist(),
        "partner": state.partner[g].tolist(),
        "scores": state.score[g].tolist(),
        "lone": state.lone[g].tolist(),
        "role": int(state.role[g, seat]),
        "uses": int(state.uses[g, seat]),
    }


def per_game(fn):
    """Turn ``fn(obs: dict, legal: list[int]) -> int`` into a batch policy.

    ``obs`` is :func:`observation` (``phase`` is "cargo", "rope" or "react";
    action codes as in ``reference.py``); an illegal answer raises.  Example,
    an agent that always shows its smallest card and points at seat 0::

        def cautious(obs, legal):
            if obs["phase"] == "cargo":
                return min(obs["hand"]) - 1          # action = value - 1
            if obs["phase"] == "rope":
                return 0 if 0 in legal else legal[0]
            return 0                                 # never a role power

        policy = per_game(cautious)
        engine.play_batch(params, [policy, random_policy, random_policy], 100, rng, 3)
    """

    def policy(params, state, seat, mask, rng):
        out = np.empty(state.n_games, np.int64)
        for g in range(state.n_games):
            legal = np.flatnonzero(mask[g]).tolist()
            a = int(fn(observation(state, g, seat), legal))
            if a not in legal:
                raise ValueError(
                    f"{getattr(fn, '__name__', 'agent')} chose {a} in game {g}, seat {seat}: legal actions are {legal}"
                )
            out[g] = a
        return out

    policy.__name__ = getattr(fn, "__name__", "per_game")
    return policy


# --- the agents of one seating, one decision at a time (contract.Controller) -----------
# It plays the same table model as the fast ``sim.play`` (``heuristic.Table``): the mix seats'
# styles drawn from the generator given, then every decision asked of the table by phase,
# the ``greedy`` and ``best`` seats' then replaced by the search agents' (``search.py``, their
# generators children of the one given).  The roles are part of the deal (the engine's
# ``Chance``), not of the controller.
class Controller:
    """``act(state, legal)`` for every game of a batch; ``observe(events)``
    after each step (the table learns from the round's settlement)."""

    def __init__(self, params, seating, n_games, rng, custom=None):
        self.params = knobs(params)
        self.styles = deal_styles(seating, n_games, rng, self.params.best_proxy)
        self.table = make_table(self.params, self.styles, rng, custom, learned_seats(seating))
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
