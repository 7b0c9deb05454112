"""Pig batch engine: G games at once as numpy arrays, rules as pure functions.

The engine contract of ``gamelab/core/contract.py``, all pure unless
``inplace=True``.  Chance is every die face a batch can use (rule 10's
bound); ``legal`` is (G, 2) bool, ROLL / HOLD for the seat to move (rules 5,
6), nothing in a finished game; ``step`` is one decision of every running
game (rules 2-8), a finished game ignores its action; ``result`` is rule 9;
``done``, ``to_move`` and ``is_legal`` are the shared turn game's (``core.turns``).

Agents ask :func:`banking_reaches`, :func:`mover_score` and :func:`prefer`;
they never re-derive a rule.  Whole games are played by ``core.driver``.
"""

from __future__ import annotations

import numpy as np

from gamelab.core import turns

from .rules import PigParams, check_players, max_rolls
from .state import HOLD, N_ACTIONS, NO_FACE, ROLL, Chance, State


def draw_chance(params: PigParams, n_games: int, n_players: int, rng: np.random.Generator) -> Chance:
    """Rule 2 and 10: ``max_rolls`` fair faces per game, drawn up front."""
    check_players(params, n_players)
    R = max_rolls(params, n_players)
    return Chance(rng.integers(1, params.die_faces + 1, size=(n_games, R), dtype=np.uint8))


def init(params: PigParams, n_games: int, n_players: int, chance: Chance | None = None) -> State:
    """Rule 1: every score 0, seat 1 to roll."""
    check_players(params, n_players)
    if chance is not None and chance.faces.shape[0] != n_games:
        raise ValueError(f"chance is for {chance.faces.shape[0]} games, not {n_games}")
    G = n_games
    return State(
        score=np.zeros((G, n_players), np.int16),
        turn_total=np.zeros(G, np.int16),
        player=np.zeros(G, np.int8),
        turn=np.zeros(G, np.int16),
        rolls=np.zeros(G, np.int32),
        over=np.zeros(G, bool),
    )


def mover_score(state: State) -> np.ndarray:
    """(G,) banked score of the seat to move; plain: ``state.score[g, state.player[g]]``."""
    return state.score[np.arange(state.n_games), state.player]


def banking_reaches(params: PigParams, state: State) -> np.ndarray:
    """(G,) holding now would bank the target or more (rules 5.1, 6, 7)."""
    return mover_score(state) + state.turn_total >= params.target


def legal(params: PigParams, state: State) -> np.ndarray:
    """(G, 2) bool, columns ROLL and HOLD, for the seat to move.

    ROLL unless the game is over or banking would reach the target (rule 6);
    HOLD with a positive turn total of at least ``hold_minimum`` (rule 5),
    or one that reaches the target (rule 5.1)."""
    live = ~state.over
    reach = banking_reaches(params, state)
    tt = state.turn_total
    out = np.empty((state.n_games, N_ACTIONS), bool)
    out[:, ROLL] = live & ~reach
    out[:, HOLD] = live & (tt > 0) & ((tt >= params.hold_minimum) | reach)
    return out


def next_face(chance: Chance, rolls: np.ndarray) -> np.ndarray:
    """(G,) the face each game's next roll shows; plain:
    ``chance.faces[g, rolls[g]]`` (clipped for finished games, which read it
    but do not use it)."""
    R = chance.faces.shape[1]
    return np.take_along_axis(chance.faces, np.minimum(rolls, R - 1)[:, None].astype(np.intp), 1)[:, 0]


def step(params: PigParams, state: State, actions, chance: Chance, *, inplace: bool = False):
    """One decision in every running game; returns (state, events).

    ROLL: rule 2; a bust face loses the turn total and ends the turn (rule 3),
    any other face adds to it (rule 4).  HOLD: bank the turn total (rule 5);
    reaching the target wins (rule 7); the turn passes.  The game ends on a
    win or after ``P * max_turns`` turns (rule 8).  ``actions`` must be
    legal (:func:`legal`); finished games ignore theirs.

    ``events`` (all (G,)): ``player`` who decided, ``live`` the game was
    running, ``roll``, ``face`` rolled (NO_FACE if none), ``gained`` (what the
    roll added to the turn total), ``bust``, ``hold``,
    ``banked`` (points banked by a hold), ``turn_end``, ``won``."""
    st = state if inplace else state.copy()
    a = np.asarray(actions)
    G, P = st.n_games, st.n_players
    live = ~st.over
    roll, hold = live & (a == ROLL), live & (a == HOLD)
    face = np.where(roll, next_face(chance, st.rolls), NO_FACE).astype(np.int8)
    st.rolls += roll
    bust = roll & (face <= params.bust_faces)
    gained = np.where(roll & ~bust, face, 0).astype(np.int16)
    st.turn_total += gained
    player = st.player.copy()
    banked = np.where(hold, st.turn_total, 0).astype(np.int16)
    games = np.arange(G)
    st.score[games, player] += banked
    won = hold & (st.score[games, player] >= params.target)
    turn_end = bust | hold
    st.turn_total[turn_end] = 0
    st.turn += turn_end
    st.player[:] = (player + turn_end) % P
    st.over |= won | (st.turn >= P * params.max_turns)
    events = {
        "player": player,
        "live": live,
        "roll": roll,
        "face": face,
        "gained": gained,
        "bust": bust,
        "hold": hold,
        "banked": banked,
        "turn_end": turn_end,
        "won": won,
    }
    return st, events


def result(params: PigParams, state: State) -> dict:
    """Rule 9: ``score`` (banked), ``win`` (the highest score; ties split
    1/k: a target winner is always alone on top), ``rank`` (1 + players
    strictly ahead); each (G, P)."""
    score = state.score.copy()
    top = score == score.max(axis=1, keepdims=True)
    win = top / top.sum(axis=1, keepdims=True)
    rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
    return {"score": score, "win": win, "rank": rank}


def prefer(legal_mask: np.ndarray, hold: np.ndarray) -> np.ndarray:
    """(G,) actions: HOLD where ``hold`` is wanted and legal, or where rolling
    is not legal; else ROLL.  Plain: ``np.where((hold & legal[:, HOLD]) |
    ~legal[:, ROLL], HOLD, ROLL)``."""
    choose_hold = (hold & legal_mask[:, HOLD]) | ~legal_mask[:, ROLL]
    return np.where(choose_hold, HOLD, ROLL).astype(np.int8)


def random_actions(params: PigParams, state: State, legal_mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uniformly random legal actions: a fair coin where both are legal (one
    uniform per game, every call, so the stream does not depend on the play)."""
    coin = rng.random(state.n_games) < 0.5
    return prefer(legal_mask, coin)


#: the end of a game (rules 7 and 8) is ``state.over``, the seat to move (rule 1) ``state.player``, and an
#: action a column of the legal mask: the shared turn-game functions answer ``done``, ``to_move``, ``is_legal``
done, to_move, is_legal = turns.done, turns.to_move, turns.is_legal
