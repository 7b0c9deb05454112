"""STEEL BALL RUN batch engine: G games at once as numpy arrays.

The engine contract (:mod:`gamelab.core.contract`; all pure unless ``inplace=True``;
no printing, no random draws but ``draw_chance`` and ``random_actions`` from
the caller's generator):

* ``draw_chance(params, n_games, n_players, rng) -> Chance``: every deck order
  (G, R, 20), the relic layout (G, N+1) and the start rider (G,).
* ``init(params, n_games, n_players, chance) -> State``: set-up (6.1) and the
  acting order of beat 1; ``state.slot`` = 0.
* ``legal(params, state) -> Legal``: the masks for the rider whose turn it is
  in every game (``to_move``: ``state.order[:, state.slot]``): ``card``
  (G, 5) for values 1..5, ``spin`` (G, max_spin+1), ``seal``
  (G, seal_range+1) (index 0 = no seal), ``acting`` (G,).
* ``step(params, state, actions, chance, *, inplace=False) -> (state, events)``:
  the current slot's rider plays (``act``); after the beat's last slot the
  beat ends (``end_beat``) and, unless the game is over, the next begins
  (``begin_beat``).  ``events``: rider, acted, stop square (-1 none), relic
  taken (-1 none, 4 = a relic the caller left unknown), ``beat_over``.
* ``done(params, state) -> (G,) bool``, ``result(params, state) -> dict``,
  ``random_actions(params, state, legal, rng)``, ``is_legal(params, state,
  legal, actions) -> (G,) bool``.

The building blocks: ``begin_beat`` (6.2 step 0 order into ``state.order``),
``legal_for(params, state, rider)`` (the masks for any rider),
``act(params, state, actions, slot)`` (the ``slot``-th rider of this beat's
order plays ``actions``, an :class:`Actions` of (G,) arrays card, spin, seal,
brk, retrieve), ``end_beat`` (segment scoring and seal clearing).
``outcome(params, state, rider, card, spin, brk)`` and ``options(...)``:
what a move would do (stop square, square after a heart, spin after,
terrain tax, seals triggered, relic taken) for (G, K) options, without
changing the state: the same kernel ``act`` plays (agents ask these, never
move riders themselves); ``seal_ahead`` and ``slot_of`` help them.
Whole games are played by the shared driver (:func:`gamelab.core.driver.play_out`,
a loop of ``legal`` and ``step``) with the agents' controller
(:class:`gamelab.sbr.agents.Controller`), or by the compiled search's twin
(:func:`gamelab.sbr.search.play_games`).

This module holds set-up (6.1), the turn, the beat and the end (6.3) of a
batch.  The rules themselves are written once, compiled, in
:mod:`~gamelab.sbr.kernel` (the walk, the turn, the beat's end and start,
the ranks), one game at a time; ``act``, ``end_beat``, ``begin_beat`` and
``result`` run them over the batch.  The rest lives below and every name
above is importable from here: :mod:`~gamelab.sbr.state` (the types),
:mod:`~gamelab.sbr.legal` (``legal_for``, ``is_legal``,
``random_actions``), :mod:`~gamelab.sbr.movement` (``outcome``,
``seal_ahead``: the move asked, 4.2, 5.3, 5.4), :mod:`~gamelab.sbr.options`
(``options``, ``option_list``) and :mod:`~gamelab.sbr.ranking` (the winners
of 6.3).

A policy is ``policy(params, state, rider, legal, rng) -> Actions``: ``rider``
(G,) is the rider acting in each game (its seat's games are those where
``legal.acting`` and the rider belongs to the seat); it returns actions for
all G games and the controller keeps its seat's.

``result`` returns (G, P) ``score``, ``win`` (1/k shares after the tie breaks),
``rank``; and the diagnostics of appendix A per rider: ``position``,
``finish_beat``, ``relics``, ``relic_points``, ``segment_points``,
``segment_points_each`` and ``relic_points_each`` (G, S, R: each segment's), ``final_points``, ``spin_spent``,
``seals_placed``, ``seal_hits`` (seals that
triggered on the rider), ``card_sum``, ``cards_played``, ``terrain_tax``
(movement lost to rocks and curves).  The lead changes are counted while the
games are played (``GAME.counts``: after every beat, from
``State.points_so_far``).
"""

from __future__ import annotations

import numpy as np

from gamelab.core.arrays import count_below

from . import kernel
from .legal import idle_actions, is_legal, legal_for, random_actions
from .movement import outcome, seal_ahead
from .options import option_list, options
from .ranking import win_key
from .rules import N_VALUES, RELIC_TYPES, SbrParams, n_riders
from .state import STATS, UNKNOWN, Actions, Chance, Legal, State

__all__ = [
    "UNKNOWN",
    "STATS",
    "Chance",
    "Actions",
    "Legal",
    "State",
    "draw_chance",
    "init",
    "begin_beat",
    "legal",
    "legal_for",
    "to_move",
    "act",
    "step",
    "done",
    "is_legal",
    "random_actions",
    "idle_actions",
    "outcome",
    "options",
    "option_list",
    "seal_ahead",
    "end_beat",
    "result",
    "slot_of",
]


def draw_chance(params: SbrParams, n_games: int, n_players: int, rng: np.random.Generator) -> Chance:
    """All chance of a game drawn up front from the caller's generator: the
    decks shuffled (6.1), the relics laid face down (4.3, 5.4), the start
    player (6.1, ``start_player``)."""
    R = n_riders(params, n_players)
    base = np.repeat(np.arange(1, N_VALUES + 1, dtype=np.int8), params.card_counts)
    decks = rng.permuted(np.broadcast_to(base, (n_games, R, base.size)), axis=2)
    squares = np.array(params.relic_squares(), dtype=np.intp)
    pile = np.repeat(np.arange(len(RELIC_TYPES), dtype=np.int8), params.relic_counts)
    relics = np.full((n_games, params.length + 1), -1, dtype=np.int8)
    if squares.size:
        relics[:, squares] = rng.permuted(np.broadcast_to(pile, (n_games, pile.size)), axis=1)[:, : squares.size]
    start = np.zeros(n_games, dtype=np.int8)
    if params.start_player == "random":
        start = (rng.integers(0, n_players, n_games) * params.riders_per_player).astype(np.int8)
    return Chance(decks.astype(np.int8), relics, start)


def init(params: SbrParams, n_games: int, n_players: int, chance: Chance) -> State:
    """Section 6.1: decks shuffled, five cards in hand, riders on square 0;
    then beat 1's acting order (6.2 step 0)."""
    R = n_riders(params, n_players)
    G, D = n_games, chance.decks.shape[2]
    S = len(params.segment_ends())
    deck = np.ascontiguousarray(chance.decks, dtype=np.int8).reshape(G, R, D)  # flat views, never copies
    one_hot = np.eye(N_VALUES, dtype=np.int8)
    hand = np.zeros((G, R, N_VALUES), np.int8)
    for j in range(min(params.hand_size, D)):
        hand += one_hot.take(deck[:, :, j] - 1, axis=0)

    def zeros(dtype=np.int8):
        return np.zeros((G, R), dtype=dtype)

    st = State(
        pos=zeros(),
        spin=zeros(),
        seals_left=np.full((G, R), params.seals_per_player, np.int8),
        hand=hand,
        discard=np.zeros((G, R, N_VALUES), np.int8),
        deck=deck,
        drawn=np.full((G, R), params.hand_size, np.int8),
        seal=np.full((G, params.length + 1), -1, np.int8),
        relic=np.asarray(chance.relics, dtype=np.int8).copy(),
        relic_pts=zeros(np.int16),
        relic_n=zeros(),
        seg_start=zeros(),
        seg_points=zeros(np.int16),
        seg_dist=np.zeros((G, S, R), np.int16),
        seg_pts=np.zeros((G, S, R), np.int16),
        seg_relic=np.zeros((G, S, R), np.int16),
        finish_beat=zeros(),
        order=np.tile(np.arange(R, dtype=np.int8), (G, 1)),
        start=np.asarray(chance.start, dtype=np.int8).copy(),
        stats={k: zeros(np.int16) for k in STATS},
        beat=0,
        n_players=n_players,
    )
    return begin_beat(params, st, inplace=True)


def begin_beat(params: SbrParams, state: State, inplace: bool = False) -> State:
    """Section 6.2 step 0: back to front, then less spin, then seat order
    (beat 1, or every beat under ``seat_order = from_start``: counted from
    the start rider); the first slot is next."""
    st = state if inplace else state.copy()
    kernel.begin_beat_games(kernel.rules_of(params), kernel.arrays_of(st), st.beat)
    st.slot = 0
    return st


def to_move(state: State) -> np.ndarray:
    """(G,) the rider of this beat's slot ``state.slot`` (the last slot's
    rider once the beat's slots are played)."""
    slot = min(state.slot, state.order.shape[1] - 1)
    return state.order[:, slot].astype(np.intp)


def legal(params: SbrParams, state: State) -> Legal:
    """Masks of the legal choices for the rider whose turn it is in each game
    (:func:`legal_for` of :func:`to_move`); nobody acts once the game is over."""
    lg = legal_for(params, state, to_move(state))
    if state.beat >= params.beats:
        lg = lg._replace(card=np.zeros_like(lg.card), acting=np.zeros_like(lg.acting))
    return lg


def act(
    params: SbrParams, state: State, actions: Actions, slot: int, inplace: bool = False, mask: np.ndarray | None = None
):
    """Section 6.2 steps 1-6 for the ``slot``-th rider of the order in every
    game (:func:`kernel.act`; finished riders skip, and so do the games where
    ``mask`` (G,) is False: a record that leaves a rider out of a beat).
    Afterwards ``state.slot`` is ``slot + 1``.  Events: ``rider``, ``acted``,
    ``stop`` (the square stopped on, -1 none), ``relic`` (the kind taken, -1 none)."""
    st = state if inplace else state.copy()
    G = st.n_games
    rider = st.order[:, slot].astype(np.intp)
    acted = np.take_along_axis(st.pos, rider[:, None], axis=1)[:, 0] < params.length
    if mask is not None:
        acted &= np.asarray(mask, bool)
    stop, relic = np.full(G, -1, np.int16), np.full(G, -1, np.int8)
    if acted.any():
        a = _checked(params, st, actions, rider, acted)
        removed = np.zeros(2 * params.length + 2, np.int64)
        kp, tb = kernel.rules_of(params), kernel.moves_of(params)
        kernel.act_games(kp, tb, kernel.arrays_of(st), slot, st.beat, *a, acted, stop, relic, removed)
    st.slot = slot + 1
    return st, dict(rider=rider, acted=acted, stop=stop, relic=relic)


def _checked(params, st, actions, rider, acted):
    """``actions`` as the kernel takes them (int64 card, spin, seal, bool break,
    int64 retrieve), refused where a card, a spin or a seal square of an acting
    game lies off the hand, the track or the beat's spin."""
    G = st.n_games
    card, spin, seal, brk, retrieve = (
        np.ascontiguousarray(np.broadcast_to(np.asarray(x), (G,)), t)
        for x, t in zip(actions, (np.int64, np.int64, np.int64, np.bool_, np.int64))
    )
    pos = np.take_along_axis(st.pos, rider[:, None], axis=1)[:, 0].astype(np.int64)
    square = pos + np.where(seal > 0, seal, 0) * (1 if params.seal_direction == "ahead" else -1)
    bad = acted & ((card < 1) | (card > N_VALUES) | (spin < 0) | (seal < 0) | (square < 0) | (square > params.length))
    if bad.any():
        g = int(np.flatnonzero(bad)[0])
        raise ValueError(f"game {g}: card {card[g]}, spin {spin[g]}, seal {seal[g]} cannot be played (6.2 steps 1-3)")
    return card, spin, seal, brk, retrieve


def step(
    params: SbrParams, state: State, actions: Actions, chance: Chance, *, inplace: bool = False
) -> tuple[State, dict]:
    """One decision in every game: the rider of slot ``state.slot`` plays
    ``actions`` (:func:`act`; riders not acting skip); after the beat's last
    slot, :func:`end_beat` and, unless the game is over, :func:`begin_beat`.
    ``chance`` is not read (all chance is in the state since :func:`init`)."""
    st = state if inplace else state.copy()
    R = st.order.shape[1]
    if st.beat >= params.beats or st.slot >= R:
        G = st.n_games
        return st, dict(
            rider=to_move(st),
            acted=np.zeros(G, bool),
            stop=np.full(G, -1, np.int16),
            relic=np.full(G, -1, np.int8),
            beat_over=False,
        )
    _, events = act(params, st, actions, st.slot, inplace=True)
    events["beat_over"] = st.slot >= R
    if events["beat_over"]:
        end_beat(params, st, inplace=True)
        if st.beat < params.beats:
            begin_beat(params, st, inplace=True)
    return st, events


def done(params: SbrParams, state: State) -> np.ndarray:
    """(G,) True once every beat is played (6.2: a game has ``beats`` beats;
    finished riders wait, and segments are still scored)."""
    return np.full(state.n_games, state.beat >= params.beats)


def end_beat(params: SbrParams, state: State, inplace: bool = False) -> State:
    """Segment scoring after every third beat (6.2): distance this segment,
    ties by position, then relics, then seat order; seals cleared."""
    st = state if inplace else state.copy()
    R = st.pos.shape[1]
    kernel.end_beat_games(
        kernel.rules_of(params), kernel.arrays_of(st), st.beat, np.zeros(R, np.int64), np.zeros(R, np.int64)
    )
    st.beat += 1
    return st


def result(params: SbrParams, state: State) -> dict:
    """Section 6.3: final points by position (ties: relics, seat order), totals,
    winners (ties: relic count, position, then shared; 9.4 solo: reaching the
    finish)."""
    st = state
    G = st.n_games
    P, k = st.n_players, params.riders_per_player
    final = np.zeros(st.pos.shape, np.int64)
    kernel.final_points_games(kernel.rules_of(params), kernel.arrays_of(st), np.zeros(st.pos.shape[1], np.int64), final)
    final = final.astype(np.int16)
    rider_total = st.seg_points + st.relic_pts + final
    score = rider_total.reshape(G, P, k).sum(axis=2)
    relics = st.relic_n.reshape(G, P, k).sum(axis=2, dtype=np.int64)
    pos = st.pos.reshape(G, P, k).sum(axis=2, dtype=np.int64)
    key = win_key(score, relics, pos)
    if P == 1:
        best = st.pos[:, :1] >= params.length
    else:
        best = key == key.max(axis=1, keepdims=True)
    win = best / np.maximum(best.sum(axis=1, keepdims=True), 1)
    rank = 1 + count_below(-key)
    out = dict(
        score=score,
        win=win,
        rank=rank,
        position=st.pos.copy(),
        finish_beat=st.finish_beat.copy(),
        relics=st.relic_n.copy(),
        relic_points=st.relic_pts.copy(),
        segment_points=st.seg_points.copy(),
        segment_points_each=st.seg_pts.copy(),  # (G, S, R): each segment's points (they sum to segment_points)
        relic_points_each=st.seg_relic.copy(),  # (G, S, R): relic points taken in each segment (sum: relic_points)
        final_points=final,
        rider_total=rider_total,
    )
    out.update({k_: v.copy() for k_, v in st.stats.items()})
    return out


def slot_of(state: State, rider: np.ndarray) -> np.ndarray:
    """(G,) the place of ``rider`` in this beat's acting order."""
    return np.argmax(state.order == np.asarray(rider)[:, None], axis=1)
