"""STRAND's legal actions and the facts about a seat that decide them.

Agents ask these (never the raw arrays): :func:`status` (team / stay /
lone after the ropes, 6.2 step 5-1), :func:`can_use` (a role card with uses
left, 5.5), :func:`power_ready` / :func:`switch_ready` / :func:`switch_targets`
(a reaction power applies now), :func:`rounds_left`, :func:`negotiation`
(6.2 step 3).  :func:`legal` is the
(G,P,A) mask of the current decision for every seat; codes as in
``actions.py``.
"""
from __future__ import annotations

import numpy as np

from .arrays import uniform_choice
from .rules import BB, ENGINEER, FOG, FRAGILE, MUSICIAN, PORTER, VETERAN
from .state import CARGO, N_VALUES, REACT, ROPE


def status(params, state):
    """(team, stay, lone), each (G,P) bool: in a team, staying (the stay
    card, no team), lone (a rope that found no partner).  Section 6.2 step 5-1."""
    team = state.partner >= 0
    stay = (state.rope < 0) & ~team
    return team, stay, ~team & ~stay


def can_use(state, role):
    """(G,P) the seat holds the role card ``role`` and has uses left (5.5)."""
    return (state.role == role) & (state.uses > 0)


def power_ready(params, state, seats=None):
    """(G,P) the reaction power applies now (5.5): a veteran who is lone, an
    engineer or musician in a team, with uses left.  ``seats``: the
    :func:`status` of ``state`` when the caller has it."""
    team, _, lone = seats or status(params, state)
    role = state.role
    return (state.uses > 0) & (((role == VETERAN) & lone) | (((role == ENGINEER) | (role == MUSICIAN)) & team))


def switch_ready(params, state, seats=None):
    """(G,P) a fragile who is lone with uses left: may switch to one of her
    :func:`switch_targets` (5.5)."""
    _, _, lone = seats or status(params, state)
    return can_use(state, FRAGILE) & lone


def switch_targets(params, state, seats=None):
    """(G,P,P) bool ``[g, s, j]``: seat j's rope points at s and j is not in
    a team -- whom a ready fragile at s may switch to (5.5)."""
    team, _, _ = seats or status(params, state)
    pointed_at = state.rope[:, None, :] == np.arange(state.n_players)[None, :, None]
    return pointed_at & ~team[:, None, :]


def rounds_left(params, state) -> np.ndarray:
    """(G,) rounds still to play, this one included (6.4)."""
    return params.rounds - state.rnd


def negotiation(params, state) -> np.ndarray:
    """(G,) whether players may talk before ropes (step 3): not in variant B,
    not under variant F's fog card.  The rules never read it; agents do."""
    return np.full(state.n_games, not params.silent) & (state.rain != FOG)


# --- the masks -------------------------------------------------------------------
def cargo_legal(params, st):
    """(G,P,10) step 2: a card held (any value when hands are unknown), with
    the porter's +1 for a porter with uses left."""
    held = st.hand > 0 if st.tracked else np.ones((st.n_games, st.n_players, N_VALUES), bool)
    porter = can_use(st, PORTER)
    return np.concatenate([held, held & porter[..., None]], 2)


def rope_legal(params, st):
    """(G,P,2P+1) step 4: point at another seat or stay; a bb with uses left
    may lock another seat (5.5)."""
    G, P = st.n_games, st.n_players
    others = ~np.eye(P, dtype=bool)
    point = np.concatenate([others, np.ones((P, 1), bool)], 1)
    lock = can_use(st, BB)[..., None] & others
    return np.concatenate([np.broadcast_to(point, (G, P, P + 1)), lock], 2)


def react_legal(params, st):
    """(G,P,P+2) step 5: pass; a ready power; a fragile's switch to each seat
    that pointed at her and is not in a team."""
    G, P = st.n_games, st.n_players
    seats = status(params, st)
    power = power_ready(params, st, seats)
    switch = switch_ready(params, st, seats)[..., None] & switch_targets(params, st, seats)
    return np.concatenate([np.ones((G, P, 1), bool), power[..., None], switch], 2)


_MASKS = {CARGO: cargo_legal, ROPE: rope_legal, REACT: react_legal}


def legal(params, state) -> np.ndarray:
    """(G,P,A) bool: the legal actions of every seat in the current phase."""
    return _MASKS[state.phase](params, state)


def legal_mask(params, state, seat) -> np.ndarray:
    """(G,A) bool: the legal actions of ``seat`` in the current phase."""
    return legal(params, state)[:, seat]


def is_legal(params, state, legal, actions) -> np.ndarray:
    """(G,) every seat's action is one of its legal actions."""
    a = np.asarray(actions)
    n_actions = legal.shape[2]
    inside = (a >= 0) & (a < n_actions)
    chosen = np.take_along_axis(legal, np.clip(a, 0, n_actions - 1)[..., None], 2)[..., 0]
    return (inside & chosen).all(1)


def random_actions(params, state, legal, rng) -> np.ndarray:
    """(G,P) a uniformly random legal action per seat (one uniform per game and seat)."""
    return np.stack([uniform_choice(legal[:, s], rng.random(state.n_games, dtype=np.float32))
                     for s in range(state.n_players)], 1)
