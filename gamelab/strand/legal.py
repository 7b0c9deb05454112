"""STRAND's legal actions and the facts about a seat that decide them.

Agents ask these (never the raw arrays): :func:`status` (team / stay /
lone after the ropes, 6.2 step 5-1), :func:`can_use` (a role card with uses
left, 5.5), :func:`power_ready` / :func:`switch_ready` / :func:`switch_targets`
/ :func:`switch_pointers` (a reaction power applies now), :func:`rounds_left`, :func:`negotiation`
(6.2 step 3).  :func:`legal` is the
(G,P,A) mask of the current decision for every seat; codes as in
``actions.py``.  Uniform random legal play: :func:`random_actions` for every
seat, :func:`random_policy` as one seat's policy (the agent "random").
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gamelab.core.arrays import uniform_choice

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


def switch_pointers(params, state, seats=None):
    """(G,P) int8: the seat each seat's rope points at while that seat is
    not in a team, else -1.  A ready fragile at s may switch to every seat j
    with ``switch_pointers[:, j] == s`` (5.5: to someone who pointed at her
    and is free)."""
    team, _, _ = seats or status(params, state)
    return np.where(team, np.int8(-1), state.rope)


def switch_targets(params, state, seats=None):
    """(G,P,P) bool ``[g, s, j]``: seat j may be switched to by a fragile at
    s (:func:`switch_pointers`)."""
    pointers = switch_pointers(params, state, seats)
    return pointers[:, None, :] == np.arange(state.n_players, dtype=np.int8)[None, :, None]


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
    out = np.zeros((st.n_games, st.n_players, 2 * N_VALUES), bool)
    held, boosted = out[..., :N_VALUES], out[..., N_VALUES:]
    if st.tracked:
        np.greater(st.hand, 0, out=held)
    else:
        held[:] = True
    porter = can_use(st, PORTER)
    if porter.any():
        np.logical_and(held, porter[..., None], out=boosted)
    return out


@lru_cache(maxsize=16)
def _rope_template(G, P):
    """(G,P,2P+1) the rope mask without bb locks (read-only, copied per call)."""
    others = ~np.eye(P, dtype=bool)
    point = np.concatenate([others, np.ones((P, 1), bool), np.zeros((P, P), bool)], 1)
    template = np.broadcast_to(point, (G, P, 2 * P + 1)).copy()
    template.flags.writeable = False
    return template


def rope_legal(params, st):
    """(G,P,2P+1) step 4: point at another seat or stay; a bb with uses left
    may lock another seat (5.5)."""
    G, P = st.n_games, st.n_players
    out = _rope_template(G, P).copy()
    bb = can_use(st, BB)
    if bb.any():
        np.logical_and(bb[..., None], ~np.eye(P, dtype=bool), out=out[..., P + 1 :])
    return out


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
    return np.stack(
        [uniform_choice(legal[:, s], rng.random(state.n_games, dtype=np.float32)) for s in range(state.n_players)], 1
    )


def random_policy(params, state, seat, mask, rng):
    """Each legal action with equal chance (one uniform per game)."""
    return uniform_choice(mask, rng.random(mask.shape[0], dtype=np.float32))
