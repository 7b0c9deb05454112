"""Dash's agents: policies ``policy(params, state, legal, rng) -> (G,) actions``, and the
controller that seats them (the shared one, ``core.driver.seat_controller``)."""

from __future__ import annotations

import numpy as np

from gamelab.core import driver

from .state import ROLL, WALK


def walker(params, state, legal, rng):
    return np.full(state.n_games, WALK, np.int8)


def roller(params, state, legal, rng):
    return np.full(state.n_games, ROLL, np.int8)


def chaser(params, state, legal, rng):
    """Roll while behind the leader, walk when ahead."""
    mine = state.square[np.arange(state.n_games), state.player]
    return np.where(mine < state.square.max(axis=1), ROLL, WALK).astype(np.int8)


def random(params, state, legal, rng):
    return np.where(rng.random(state.n_games) < 0.5, WALK, ROLL).astype(np.int8)


POLICIES = {"chaser": chaser, "walker": walker, "roller": roller, "random": random}
controller = driver.seat_controller(POLICIES)
