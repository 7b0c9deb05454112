"""STRAND policies: ``policy(params, state, seat, legal_mask, rng) -> (G,) actions``.

Agents only choose among the engine's legal actions (``legal_mask``).  The
rulebook's play styles come in a later issue; here is the uniformly random
legal policy the differential tests use.
"""
from __future__ import annotations

import numpy as np


def random_policy(params, state, seat, mask, rng):
    """Each legal action with equal chance (one uniform per action, argmax)."""
    return np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)


def passive_random_policy(params, state, seat, mask, rng):
    """Random cargo and ropes, but never a role power (for power-free baselines)."""
    mask = mask.copy()
    if state.phase == 0:
        mask[:, 5:] = False
    elif state.phase == 1:
        mask[:, state.n_players + 1:] = False
    else:
        mask[:, 1:] = False
    return random_policy(params, state, seat, mask, rng)
