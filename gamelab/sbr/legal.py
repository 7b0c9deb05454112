"""STEEL BALL RUN legal choices: what the acting rider may do, and uniform
random legal play.

* :func:`legal_for`: the masks of section 6.2 steps 1-3 for a given rider in
  each game: a card held (5.1), spin affordable (5.2: held, at most
  ``max_spin_per_beat``), a seal square allowed (5.3: 1..``seal_range``
  squares ``seal_direction``, on the track, empty under ``seal_empty``, a
  seal left);
* :func:`is_legal`: whether actions keep to the masks;
* :func:`random_actions`: uniformly random legal choices (the picks of
  :mod:`gamelab.core.arrays`);
  :func:`idle_actions` where nobody acts.
"""

from __future__ import annotations

import numpy as np

from gamelab.core.arrays import pick, pick_by  # noqa: F401  (uniform legal picks; pick is the agents' API)

from .kernel import arrays_of, legal_masks, rules_of
from .rules import N_VALUES, SbrParams
from .state import Actions, Legal, State

RETRIEVE_CHOICES = N_VALUES + 1  # a skull's wish: 0 (the highest card) or a value 1..5


def legal_for(params: SbrParams, state: State, rider: np.ndarray) -> Legal:
    """Masks of the legal choices for ``rider`` (G,) in each game (6.2 steps
    1-3: :func:`kernel.legal_masks`); a finished rider (FAQ Q13) is not
    ``acting`` and holds no card."""
    G = state.n_games
    rider = np.asarray(rider, np.int64)
    card = np.zeros((G, N_VALUES), bool)
    spin = np.zeros((G, params.max_spin_per_beat + 1), bool)
    seal = np.zeros((G, params.seal_range + 1), bool)
    legal_masks(rules_of(params), arrays_of(state), rider, card, spin, seal)
    acting = np.take_along_axis(state.pos, rider[:, None], axis=1)[:, 0] < params.length
    return Legal(card=card, spin=spin, seal=seal, acting=acting)


def is_legal(params: SbrParams, state: State, legal: Legal, actions: Actions) -> np.ndarray:
    """(G,) whether ``actions`` keep to ``legal``: a card held, spin
    affordable, a seal distance allowed, a retrieve wish 0..5; a rider not
    acting is legal with anything."""
    G = legal.acting.shape[0]

    def allowed(mask, choice):
        choice = np.broadcast_to(np.asarray(choice, np.intp), (G,))
        inside = (choice >= 0) & (choice < mask.shape[1])
        return inside & mask[np.arange(G), np.clip(choice, 0, mask.shape[1] - 1)]

    retrieve = np.broadcast_to(np.asarray(actions.retrieve, np.intp), (G,))
    ok = (
        allowed(legal.card, np.asarray(actions.card, np.intp) - 1)
        & allowed(legal.spin, actions.spin)
        & allowed(legal.seal, actions.seal)
        & (retrieve >= 0)
        & (retrieve < RETRIEVE_CHOICES)
    )
    return ~legal.acting | ok


def idle_actions(n_games: int) -> Actions:
    """Actions for games where nobody acts (legal there: a rider not acting
    is legal with anything): card 1, no spin, no seal, no break."""
    zeros = np.zeros(n_games, np.intp)
    return Actions(
        card=np.ones(n_games, np.intp),
        spin=zeros,
        seal=zeros.copy(),
        brk=np.zeros(n_games, bool),
        retrieve=zeros.copy(),
    )


def random_actions(params: SbrParams, state: State, legal: Legal, rng: np.random.Generator) -> Actions:
    """Uniformly random legal card, spin, seal; break and retrieve at random
    (one uniform draw per choice and game)."""
    u = rng.random((len(Actions._fields), state.n_games))
    return Actions(
        card=pick_by(legal.card, u[0]) + 1,
        spin=pick_by(legal.spin, u[1]),
        seal=pick_by(legal.seal, u[2]),
        brk=u[3] < 0.5,
        retrieve=(u[4] * RETRIEVE_CHOICES).astype(np.intp),
    )
