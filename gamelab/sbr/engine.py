"""STEEL BALL RUN batch engine: G games at once as numpy arrays.

API (all pure unless ``inplace=True``; no printing, no random draws):

* ``draw_chance(params, n_games, n_players, rng) -> Chance``: every deck order
  (G, R, 20), the relic layout (G, N+1) and the start rider (G,).
* ``init(params, n_games, n_players, rng=None, chance=None) -> State``.
* ``begin_beat(params, state) -> state``: the acting order (section 6.2 step 0)
  into ``state.order`` (G, R).
* ``legal(params, state, rider) -> dict`` of masks for the rider (G,) acting in
  each game: ``card`` (G, 5) for values 1..5, ``spin`` (G, max_spin+1),
  ``seal`` (G, seal_range+1) (index 0 = no seal), ``acting`` (G,).
* ``act(params, state, actions, slot) -> (state, events)``: the ``slot``-th
  rider of this beat's order plays ``actions`` (an :class:`Actions` of (G,)
  arrays card, spin, seal, brk, retrieve; assumed legal: ``legal`` gives the
  masks, ``record`` checks a playtest).  ``events``: rider, acted, stop square
  (-1 none), relic taken (-1 none, 4 = a relic the caller left unknown).
* ``outcome(params, state, rider, card, spin, brk)`` and ``options(...)``:
  what a move would do (stop square, square after a heart, spin after,
  terrain tax, seals triggered, relic taken) for (G, K) options, without
  changing the state: the same kernel ``act`` plays (agents ask these, never
  move riders themselves); ``seal_ahead`` and ``slot_of`` help them.
* ``end_beat(params, state) -> state``: segment scoring and seal clearing.
* ``result(params, state) -> dict`` and ``play(params, policies, n_games, rng,
  n_players=4) -> dict``.

This module holds the state, set-up (6.1), the beat (6.2 step 0 order, the
legal choices, segment scoring), the end (6.3) and whole games; the rest
lives below it and every name above is importable from here:
:mod:`~gamelab.sbr.turn` (``act``, 6.2 steps 1-6),
:mod:`~gamelab.sbr.movement` (``outcome``, ``seal_ahead``: the move, 4.2,
5.3, 5.4), :mod:`~gamelab.sbr.options` (``options``, ``option_list``,
``option_table``), :mod:`~gamelab.sbr.ranking` (``seat_rank``, tie-breaks)
and :mod:`~gamelab.sbr.indexing` (flat offsets).

A policy is ``policy(params, state, rider, legal, rng) -> Actions``: ``rider``
(G,) is the rider acting in each game (its seat's games are those where
``legal["acting"]`` and the rider belongs to the seat); it returns actions for
all G games and the engine keeps its seat's.  Seats sharing one policy object
are asked once per slot.

State fields, (G, R) unless noted (R riders = players x riders_per_player):
pos, spin, seals_left, hand (G,R,5) counts, discard (G,R,5), deck (G,R,D),
drawn, seal (G,N+1) owner rider or -1, relic (G,N+1) type or -1, relic_pts,
relic_n, seg_start, seg_points, seg_dist/seg_pts (G,S,R) per segment,
finish_beat (0 = not finished), order, start (G,), stats (dict of (G,R)),
beat (int, beats completed).

``play`` returns (G, P) ``score``, ``win`` (1/k shares after the tie breaks),
``rank``; and the diagnostics of appendix A per rider: ``position``,
``finish_beat``, ``relics``, ``relic_points``, ``segment_points``,
``final_points``, ``spin_spent``, ``seals_placed``, ``seal_hits`` (seals that
triggered on the rider), ``card_sum``, ``cards_played``, ``terrain_tax``
(movement lost to rocks and curves).
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .indexing import _flat, _prefix, _rows, _rows2
from .movement import outcome, seal_ahead
from .options import option_list, option_table, options
from .ranking import _count_below, _order_by, _points_by_rank, seat_rank
from .rules import SbrParams, check_players
from .turn import act

__all__ = ["UNKNOWN", "STATS", "Chance", "Actions", "State", "draw_chance", "init", "seat_rank", "begin_beat",
           "legal", "act", "outcome", "options", "option_list", "option_table", "seal_ahead", "end_beat",
           "result", "play", "slot_of"]

UNKNOWN = 4        # relic code for a face-down relic a record does not name
STATS = ("spin_spent", "seals_placed", "seal_hits", "card_sum", "cards_played", "terrain_tax")


class Chance(NamedTuple):
    decks: np.ndarray     # (G, R, D) card values in draw order
    relics: np.ndarray    # (G, N+1) relic type by square, -1 none
    start: np.ndarray     # (G,) start rider (beat-1 ties, section 6.1; every tie under seat_order from_start)


class Actions(NamedTuple):
    card: np.ndarray
    spin: np.ndarray
    seal: np.ndarray      # 0 none, else distance 1..seal_range
    brk: np.ndarray       # break opponents' seals with spin when possible
    retrieve: np.ndarray  # skull: card value wanted back (0 = the highest)


@dataclasses.dataclass
class State:
    pos: np.ndarray
    spin: np.ndarray
    seals_left: np.ndarray
    hand: np.ndarray
    discard: np.ndarray
    deck: np.ndarray
    drawn: np.ndarray
    seal: np.ndarray
    relic: np.ndarray
    relic_pts: np.ndarray
    relic_n: np.ndarray
    seg_start: np.ndarray
    seg_points: np.ndarray
    seg_dist: np.ndarray
    seg_pts: np.ndarray
    finish_beat: np.ndarray
    order: np.ndarray
    start: np.ndarray
    stats: dict
    beat: int
    n_players: int

    def copy(self) -> "State":
        out = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.copy() if isinstance(v, np.ndarray) else (
                {k: a.copy() for k, a in v.items()} if isinstance(v, dict) else v)
        return State(**out)

    def take(self, games) -> "State":
        """The games ``games`` (indices, repeats allowed) as a new state."""
        out = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = v[games] if isinstance(v, np.ndarray) else (
                {k: a[games] for k, a in v.items()} if isinstance(v, dict) else v)
        return State(**out)

    @property
    def n_games(self) -> int:
        return self.pos.shape[0]


def draw_chance(params: SbrParams, n_games: int, n_players: int, rng: np.random.Generator) -> Chance:
    """All chance of a game drawn up front from the caller's generator."""
    R = check_players(params, n_players)
    base = np.repeat(np.arange(1, 6, dtype=np.int8), params.card_counts)
    decks = rng.permuted(np.broadcast_to(base, (n_games, R, base.size)), axis=2)
    squares = np.array(params.relic_squares(), dtype=np.intp)
    pile = np.repeat(np.arange(4, dtype=np.int8), params.relic_counts)
    relics = np.full((n_games, params.length + 1), -1, dtype=np.int8)
    if squares.size:
        relics[:, squares] = rng.permuted(np.broadcast_to(pile, (n_games, pile.size)), axis=1)[:, :squares.size]
    start = np.zeros(n_games, dtype=np.int8)
    if params.start_player == "random":
        start = (rng.integers(0, n_players, n_games) * params.riders_per_player).astype(np.int8)
    return Chance(decks.astype(np.int8), relics, start)


def init(params: SbrParams, n_games: int, n_players: int, rng=None, chance: Chance | None = None) -> State:
    """Section 6.1: decks shuffled, five cards in hand, riders on square 0."""
    R = check_players(params, n_players)
    if chance is None:
        if rng is None:
            raise ValueError("init needs rng (a numpy Generator) or chance")
        chance = draw_chance(params, n_games, n_players, rng)
    G, D = n_games, chance.decks.shape[2]
    S = len(params.segment_ends())
    deck = np.ascontiguousarray(chance.decks, dtype=np.int8).reshape(G, R, D)   # flat views, never copies
    one_hot = np.eye(5, dtype=np.int8)
    hand = np.zeros((G, R, 5), np.int8)
    for j in range(min(params.hand_size, D)):
        hand += one_hot.take(deck[:, :, j] - 1, axis=0)
    z = lambda dt=np.int8: np.zeros((G, R), dtype=dt)  # noqa: E731
    return State(
        pos=z(), spin=z(), seals_left=np.full((G, R), params.seals_per_player, np.int8),
        hand=hand, discard=np.zeros((G, R, 5), np.int8), deck=deck,
        drawn=np.full((G, R), params.hand_size, np.int8),
        seal=np.full((G, params.length + 1), -1, np.int8),
        relic=np.asarray(chance.relics, dtype=np.int8).copy(),
        relic_pts=z(np.int16), relic_n=z(), seg_start=z(), seg_points=z(np.int16),
        seg_dist=np.zeros((G, S, R), np.int16), seg_pts=np.zeros((G, S, R), np.int16),
        finish_beat=z(), order=np.tile(np.arange(R, dtype=np.int8), (G, 1)),
        start=np.asarray(chance.start, dtype=np.int8).copy(),
        stats={k: z(np.int16) for k in STATS}, beat=0, n_players=n_players)


def begin_beat(params: SbrParams, state: State, inplace: bool = False) -> State:
    """Section 6.2 step 0: back to front, then less spin, then seat order
    (beat 1, or every beat under ``seat_order = from_start``: counted from
    the start rider)."""
    st = state if inplace else state.copy()
    R = st.pos.shape[1]
    key = (st.pos.astype(np.int64) * 64 + st.spin) * R + seat_rank(params, st, st.beat == 0)
    st.order = _order_by(key)
    return st


def legal(params: SbrParams, state: State, rider: np.ndarray) -> dict:
    """Masks of the legal choices for ``rider`` (G,) in each game."""
    G, R = state.pos.shape
    L, S = params.length, params.max_spin_per_beat
    fi = _rows(G, R) + rider
    pos = _flat(state.pos).take(fi)
    acting = pos < L
    card = _flat(state.hand).take(fi, axis=0) > 0
    if not acting.all():
        card[~acting] = False
    spin_ok = _prefix(S).take(np.minimum(_flat(state.spin).take(fi), S), axis=0)
    sqc, valid = _seal_squares(params)
    D1 = params.seal_range + 1
    pi = pos.astype(np.intp)
    sq = sqc.take(pi, axis=0)                                      # (G, D+1) squares, clipped
    free = state.seal.reshape(-1).take(sq + _rows2(G, L + 1, D1)) < 0
    if params.seal_empty == "no_seal_no_rider":
        free &= ~(state.pos[:, None, :] == sq[:, :, None]).any(axis=2)
    seal = free & valid.take(pi + (_flat(state.seals_left).take(fi) > 0) * (L + 1), axis=0)
    seal[:, 0] = True
    return dict(card=card, spin=spin_ok, seal=seal, acting=acting)


@lru_cache(maxsize=32)
def _seal_squares(params: SbrParams):
    """By the rider's square: the squares 0..seal_range away (clipped to
    the board) and, (2 (L+1), D+1) by (has a seal left, square), whether a
    seal may go there (a square 1..L-1; never without a seal left)."""
    L, D = params.length, params.seal_range
    d = np.arange(D + 1)
    sq = np.arange(L + 1)[:, None] + (d if params.seal_direction == "ahead" else -d)
    ok = (sq >= 1) & (sq < L)
    valid = np.concatenate([np.zeros_like(ok), ok])
    return np.minimum(np.maximum(sq, 0), L), valid


def end_beat(params: SbrParams, state: State, inplace: bool = False) -> State:
    """Segment scoring after every third beat (6.2): distance this segment,
    ties by position, then relics, then seat order; seals cleared."""
    st = state if inplace else state.copy()
    st.beat += 1
    ends = params.segment_ends()
    if st.beat in ends:
        k = ends.index(st.beat)
        G, R = st.pos.shape
        dist = st.pos.astype(np.int16) - st.seg_start
        pts = _points_by_rank(params.segment_points, seat_rank(params, st), dist, st.pos, st.relic_n)
        st.seg_points += pts
        st.seg_dist[:, k], st.seg_pts[:, k] = dist, pts
        st.seg_start = st.pos.copy()
        st.seal[:] = -1
    return st


def result(params: SbrParams, state: State) -> dict:
    """Section 6.3: final points by position (ties: relics, seat order), totals,
    winners (ties: relic count, position, then shared)."""
    st = state
    G, R = st.pos.shape
    P, k = st.n_players, params.riders_per_player
    final = _points_by_rank(params.final_points, seat_rank(params, st), st.pos, st.relic_n)
    rider_total = st.seg_points + st.relic_pts + final
    score = rider_total.reshape(G, P, k).sum(axis=2)
    relics = st.relic_n.reshape(G, P, k).sum(axis=2, dtype=np.int64)
    pos = st.pos.reshape(G, P, k).sum(axis=2, dtype=np.int64)
    key = score.astype(np.int64) * 1_000_000 + relics * 1_000 + pos
    if P == 1:
        best = st.pos[:, :1] >= params.length
    else:
        best = key == key.max(axis=1, keepdims=True)
    win = best / np.maximum(best.sum(axis=1, keepdims=True), 1)
    rank = 1 + _count_below(-key)
    out = dict(score=score, win=win, rank=rank, position=st.pos.copy(), finish_beat=st.finish_beat.copy(),
               relics=st.relic_n.copy(), relic_points=st.relic_pts.copy(), segment_points=st.seg_points.copy(),
               final_points=final, rider_total=rider_total)
    out.update({k_: v.copy() for k_, v in st.stats.items()})
    return out


def play(params: SbrParams, policies, n_games: int, rng: np.random.Generator, n_players: int | None = None,
         chance: Chance | None = None) -> dict:
    """Whole games under one policy per seat (player); see the module doc."""
    n_players = len(policies) if n_players is None else n_players
    if len(policies) != n_players:
        raise ValueError(f"{len(policies)} policies for {n_players} players")
    st = init(params, n_games, n_players, rng=rng, chance=chance)
    R = st.pos.shape[1]
    seat_of = np.arange(R) // params.riders_per_player
    groups: dict[int, list] = {}
    for s, pol in enumerate(policies):
        groups.setdefault(id(pol), [pol, []])[1].append(s)
    leader = np.full(n_games, -1, np.int8)
    lead_changes = np.zeros(n_games, np.int16)
    for _ in range(params.beats):
        begin_beat(params, st, inplace=True)
        for slot in range(R):
            rider = st.order[:, slot].astype(np.intp)
            lg = legal(params, st, rider)
            if not lg["acting"].any():
                continue
            acts = None
            for pol, seats in groups.values():
                a = pol(params, st, rider, lg, rng)
                if acts is None:
                    acts = a
                    continue
                mine = np.isin(seat_of[rider], seats)
                acts = Actions(*(np.where(mine, x, y) for x, y in zip(a, acts)))
            act(params, st, acts, slot, inplace=True)
        end_beat(params, st, inplace=True)
        leader = _lead(params, st, n_players, leader, lead_changes)
    out = result(params, st)
    out["lead_changes"] = lead_changes
    return out


def _lead(params, st, n_players, leader, changes):
    """Design metric, not a rule: lead changes by points so far (segment + relic)."""
    from ..metrics import sole_leader_step

    pts = (st.seg_points + st.relic_pts).reshape(st.pos.shape[0], n_players, -1).sum(axis=2)
    return sole_leader_step(pts, leader, changes)


def slot_of(state: State, rider: np.ndarray) -> np.ndarray:
    """(G,) the place of ``rider`` in this beat's acting order."""
    return np.argmax(state.order == np.asarray(rider)[:, None], axis=1)
