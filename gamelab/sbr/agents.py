"""STEEL BALL RUN agents.  Policies follow the engine's signature
``policy(params, state, rider, legal, rng) -> engine.Actions`` and choose only
among the rules' legal actions (more agents come with the agents issue)."""
from __future__ import annotations

import numpy as np

from .engine import Actions


def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random True column of each row (0 where a row has none)."""
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def random_policy(params, state, rider, legal, rng) -> Actions:
    """Uniformly random legal card, spin, seal; break and retrieve at random."""
    G = state.n_games
    return Actions(card=pick(legal["card"], rng) + 1, spin=pick(legal["spin"], rng),
                   seal=pick(legal["seal"], rng), brk=rng.random(G) < 0.5,
                   retrieve=rng.integers(0, 6, G))
