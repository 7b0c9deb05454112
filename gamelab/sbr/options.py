"""STEEL BALL RUN options: every (card, spin) choice of a turn at once.

* :func:`option_list`: the options, cards 1..5 major, spin minor;
  :func:`option_index` the column of a (card, spin) option.
* :func:`options`: :func:`~gamelab.sbr.movement.outcome` of every option
  for a batch of riders.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .movement import outcome
from .rules import N_VALUES, SbrParams
from .state import State


@lru_cache(maxsize=8)
def option_list(max_spin: int):
    """Every (card, spin) pair: cards 1..5 major, spin 0..max_spin minor."""
    return np.repeat(np.arange(1, N_VALUES + 1), max_spin + 1), np.tile(np.arange(max_spin + 1), N_VALUES)


def option_index(card, spin, max_spin: int):
    """The column of option (``card``, ``spin``) in :func:`option_list`:
    plain, the k with ``option_list(max_spin)[k] == (card, spin)``."""
    return (card - 1) * (max_spin + 1) + spin


def options(
    params: SbrParams,
    state: State,
    rider: np.ndarray,
    brk: bool = False,
    games: np.ndarray | None = None,
    mask: np.ndarray | None = None,
) -> dict:
    """:func:`outcome` of every (card, spin) option of :func:`option_list`,
    (n, K) arrays (whether the rider holds the card or the spin is not
    checked: see :func:`legal`).  With ``mask`` (n, K) only the True options
    are returned, as 1-D arrays over them (row-major), with their ``row``
    and ``option``."""
    n = state.n_games if games is None else len(games)
    card_k, spin_k = option_list(params.max_spin_per_beat)
    out = outcome(params, state, rider, np.tile(card_k, (n, 1)), np.tile(spin_k, (n, 1)), brk, games)
    if mask is None:
        return out
    i, k = np.nonzero(mask)
    return dict({key: v[i, k] for key, v in out.items()}, row=i, option=k)
