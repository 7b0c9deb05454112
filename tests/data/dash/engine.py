"""Dash's batch engine: G games at once, the contract's eight functions (three of them the shared turn game's)."""

from __future__ import annotations

import numpy as np

from gamelab.core import turns

from .rules import DashParams, check_players
from .state import ROLL, WALK, Chance, State


def draw_chance(params: DashParams, n_games: int, n_players: int, rng: np.random.Generator) -> Chance:
    """A face for every turn a game can have (rule 4's bound)."""
    check_players(params, n_players)
    return Chance(rng.integers(1, params.die_faces + 1, size=(n_games, params.max_turns * n_players), dtype=np.int8))


def init(params: DashParams, n_games: int, n_players: int, chance: Chance) -> State:
    """Rule 1: every rider on square 0, seat 1 to move."""
    check_players(params, n_players)
    G = n_games
    return State(np.zeros((G, n_players), np.int16), np.zeros(G, np.int8), np.zeros(G, np.int16), np.zeros(G, bool))


def legal(params: DashParams, state: State) -> np.ndarray:
    """(G, 2) WALK and ROLL are both legal in a running game, nothing in a finished one."""
    return np.repeat(~state.over[:, None], 2, axis=1)


def step(params: DashParams, state: State, actions, chance: Chance, *, inplace: bool = False):
    """Rules 2-4 for every running game."""
    st = state if inplace else state.copy()
    live = ~st.over
    g = np.flatnonzero(live)
    p = st.player[g].astype(np.intp)
    face = chance.faces[g, st.turn[g]]
    rolled = np.asarray(actions)[g] == ROLL
    move = np.where(rolled, np.where(face == 1, -params.trip_back, face), params.walk)
    st.square[g, p] = np.maximum(0, st.square[g, p] + move)
    st.turn[g] += 1
    n_players = st.square.shape[1]
    st.over[g] = (st.square[g, p] >= params.track) | (st.turn[g] >= params.max_turns * n_players)
    st.player[g] = (p + 1) % n_players
    return st, {"live": live}


def result(params: DashParams, state: State) -> dict:
    """Rules 3-4: the furthest rider wins (the first to the track is the only one there); ties split."""
    score = np.minimum(state.square, params.track).astype(np.int32)
    best = score.max(axis=1, keepdims=True)
    win = (score == best) / (score == best).sum(axis=1, keepdims=True)
    rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
    return {"score": score, "win": win, "rank": rank}


def random_actions(params: DashParams, state: State, legal_mask: np.ndarray, rng: np.random.Generator):
    return np.where(rng.random(state.n_games) < 0.5, WALK, ROLL).astype(np.int8)


done, to_move, is_legal = turns.done, turns.to_move, turns.is_legal  # the end in state.over, the mover in state.player
