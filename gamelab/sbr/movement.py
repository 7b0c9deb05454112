"""STEEL BALL RUN movement queries: what a move would do, as arrays, without playing it.

Section 6.2 steps 4-5 (the terrain of 4.2, seals of 5.3, the stop square's
relic of 5.4 and town) are the kernel's :func:`~gamelab.sbr.kernel.move`,
the move :func:`~gamelab.sbr.engine.act` plays; these ask it for a batch:

* :func:`outcome`: (n, K) options of chosen riders, nothing written;
* :func:`seal_ahead`: how far ahead the first seal that matters lies.

Agents ask these; none moves a rider itself.  Every (card, spin) option at
once: :func:`gamelab.sbr.options.options`.
"""

from __future__ import annotations

import numpy as np

from .kernel import arrays_of, first_seals, moves_of, outcomes, rules_of
from .rules import N_VALUES, SbrParams
from .state import State

OUTCOME = ("stop", "end", "spin", "tax", "hits", "relic")


def outcome(
    params: SbrParams,
    state: State,
    rider: np.ndarray,
    card: np.ndarray,
    spin: np.ndarray,
    brk: np.ndarray | bool = False,
    games: np.ndarray | None = None,
) -> dict:
    """What ``rider`` would get from playing ``card`` with ``spin`` spent (both
    (n, K): K options per game) and breaking seals or not, without changing
    the state: steps 4-5 of 6.2 exactly as :func:`act` plays them.  ``rider``
    is (n,) for the games ``games`` (default: all G games, n = G).

    Returns (n, K) arrays: ``stop`` (square the move stopped on, -1 none),
    ``end`` (square after a heart), ``spin`` (spin held afterwards: spent,
    rivers, seals broken, an eye, a town), ``tax`` (movement lost to terrain),
    ``hits`` (seals triggered), ``relic`` (kind taken, -1 none; full
    information: the face-down type).  The rider's own seal placed this turn
    is not on the board yet (it matters only under 9.3 forward seals)."""
    games = np.arange(state.n_games) if games is None else np.asarray(games, np.int64)
    card = np.ascontiguousarray(card, np.int64)
    if card.ndim != 2 or ((card < 1) | (card > N_VALUES)).any():
        raise ValueError(f"outcome: cards are (n, K) values 1..{N_VALUES}")
    spin = np.ascontiguousarray(np.broadcast_to(np.asarray(spin, np.int64), card.shape))
    brk = np.ascontiguousarray(np.broadcast_to(np.asarray(brk, np.bool_), card.shape))
    kp = rules_of(params)
    out = np.zeros((len(OUTCOME), *card.shape), np.int64)
    removed = np.zeros(2 * params.length + 2, np.int64)
    outcomes(kp, moves_of(params), arrays_of(state), games, np.asarray(rider, np.int64), card, spin, brk, out, removed)
    return dict(zip(OUTCOME, out))


def seal_ahead(params: SbrParams, state: State, rider: np.ndarray) -> np.ndarray:
    """(G,) distance to the first seal ahead of ``rider`` that would affect
    him, within one move; one more than the longest move (the highest card
    plus the most spin, 5.1, 5.2) if none."""
    out = np.zeros(state.n_games, np.int64)
    first_seals(rules_of(params), arrays_of(state), np.asarray(rider, np.int64), out)
    return out
