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

from .rules import CURVE, EYE, HEART, RIVER, ROCK, SKULL, TOWN, SbrParams, check_players

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


# ---------------------------------------------------------------- set-up
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


# ---------------------------------------------------------------- tables
@lru_cache(maxsize=32)
def _tables(params: SbrParams):
    """Movement with no seal on the way, (start, movement, big card) ->
    stop square (-1 if no square entered), river met, terrain tax, end square."""
    L, terr = params.length, params.terrain_array()
    M = 5 + params.max_spin_per_beat
    stop = np.full((L + 1, M + 1, 2), -1, np.int16)
    end = np.zeros((L + 1, M + 1, 2), np.int16)
    river = np.zeros((L + 1, M + 1, 2), bool)
    tax = np.zeros((L + 1, M + 1, 2), np.int16)
    for s in range(L + 1):
        for m0 in range(M + 1):
            for big in (0, 1):
                pos, m, riv, tx, st = s, m0, False, 0, -1
                while m > 0 and pos < L:
                    sq, m = pos + 1, m - 1
                    extra = params.rock_penalty if terr[sq] == ROCK else (
                        params.curve_penalty if terr[sq] == CURVE and big else 0)
                    if extra and m > 0:
                        if params.extra_cost_rule == "stop_before" and m < extra:
                            tx += m
                            break
                        tx += min(extra, m)
                        m -= min(extra, m)
                    pos = st = sq
                    riv |= terr[sq] == RIVER
                stop[s, m0, big], end[s, m0, big], river[s, m0, big], tax[s, m0, big] = st, pos, riv, tx
    return dict(stop=stop, end=end, river=river, tax=tax, terrain=terr, M=M,
                points=np.array(list(params.relic_points) + [0], np.int16),
                stop_i=stop.astype(np.intp).reshape(-1), end_i=end.astype(np.intp).reshape(-1),
                tax_i=tax.astype(np.intp).reshape(-1), river_i=river.reshape(-1).copy(), town=terr == TOWN,
                river_sq=terr == RIVER, extra=np.array([[params.rock_penalty if t == ROCK else (
                    params.curve_penalty if t == CURVE and b else 0) for b in (0, 1)] for t in terr],
                    np.intp).reshape(-1))


# ---------------------------------------------------------------- beat
def seat_rank(params: SbrParams, state: State, first_beat: bool = False) -> np.ndarray:
    """Each rider's place in the "seat order" that breaks ties ((1, R) or
    (G, R)): clockwise from the start rider in beat 1 (6.1) and, under
    ``seat_order = from_start``, in every tie-break; else the seat number."""
    R = state.pos.shape[1]
    seat = np.arange(R)[None, :]
    if first_beat or params.seat_order == "from_start":
        seat = (seat - state.start[:, None].astype(np.int64)) % R
    return seat


def begin_beat(params: SbrParams, state: State, inplace: bool = False) -> State:
    """Section 6.2 step 0: back to front, then less spin, then seat order
    (beat 1, or every beat under ``seat_order = from_start``: counted from
    the start rider)."""
    st = state if inplace else state.copy()
    R = st.pos.shape[1]
    key = (st.pos.astype(np.int64) * 64 + st.spin) * R + seat_rank(params, st, st.beat == 0)
    st.order = _order_by(key)
    return st


def _order_by(key):
    """Row-wise argsort of distinct small-row keys, by pairwise comparison
    (a handful of riders: faster than a sort per row)."""
    G, R = key.shape
    order = np.empty((G, R), np.int8)
    flat, base = order.reshape(-1), _rows(G, R)
    for i, rank in enumerate(_rank_columns(key)):
        flat[base + rank] = i
    return order


def _rank_columns(key):
    """For each rider (column), how many riders of his game have a smaller
    key: comparisons of whole columns (contiguous rows of the transpose)."""
    cols = np.ascontiguousarray(key.T)
    out = []
    for i in range(cols.shape[0]):
        rank = np.zeros(cols.shape[1], np.intp)
        for j in range(cols.shape[0]):
            if j != i:
                rank += cols[j] < cols[i]
        out.append(rank)
    return out


def _count_below(key):
    """(G, R): for each rider, how many riders of his game have a smaller
    key (a loop over the few riders beats a (G, R, R) comparison)."""
    rank = np.empty(key.shape, np.intp)
    for i, col in enumerate(_rank_columns(key)):
        rank[:, i] = col
    return rank


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


@lru_cache(maxsize=8)
def _rows2(G: int, width: int, K: int) -> np.ndarray:
    """(G, K): each game's row offset in a flattened (G, width) array (read-only)."""
    out = np.repeat(np.arange(G) * width, K).reshape(G, K)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=16)
def _prefix(S: int) -> np.ndarray:
    """Row h: spin amounts 0..S affordable with h held (h <= S)."""
    return np.arange(S + 1)[None, :] <= np.arange(S + 1)[:, None]


_SPIN_RANGE = np.arange(10)


@lru_cache(maxsize=16)
def _rows(G: int, width: int) -> np.ndarray:
    """Offsets of each game's row in a flattened (G, width) array (read-only)."""
    out = np.arange(G) * width
    out.flags.writeable = False
    return out


def act(params: SbrParams, state: State, actions: Actions, slot: int, inplace: bool = False,
        mask: np.ndarray | None = None):
    """Section 6.2 steps 1-6 for the ``slot``-th rider of the order (finished
    riders skip; ``mask`` (G,) False also skips, for a record that leaves a
    rider out of a beat)."""
    st = state if inplace else state.copy()
    tb = _tables(params)
    G, R = st.pos.shape
    rider_all = st.order[:, slot].astype(np.intp)
    fi_all = _rows(G, R) + rider_all
    acted = _flat(st.pos).take(fi_all) < params.length
    if mask is not None:
        acted &= np.asarray(mask, bool)
    every = bool(acted.all())
    if every:
        g, r, fi = _rows(G, 1), rider_all, fi_all
        sub = lambda x: np.asarray(x)  # noqa: E731
    else:
        g = np.flatnonzero(acted)
        r, fi = rider_all.take(g), fi_all.take(g)
        sub = lambda x: np.asarray(x).take(g)  # noqa: E731
    stops = kinds = None
    if g.size:
        card = sub(actions.card).astype(np.intp)
        spend = sub(actions.spin).astype(np.intp)
        _play_card(params, st, g, r, card, spend, sub(actions.seal).astype(np.intp), fi)
        out = _outcome(params, st, tb, g, r, card, card + spend, sub(actions.brk).astype(bool),
                       _flat(st.spin).take(fi) - spend, fi=fi)     # the spin is written after the move
        _apply(params, st, tb, g, r, out, sub(actions.retrieve).astype(np.intp), fi)
        if every:
            stops, kinds = out["stop"].astype(np.int16), out["relic"].astype(np.int8)
        else:
            stops, kinds = np.full(G, -1, np.int16), np.full(G, -1, np.int8)
            kinds[g], stops[g] = out["relic"], out["stop"]
        _finish_turn(params, st, g, r, card, fi)
    if stops is None:
        stops, kinds = np.full(G, -1, np.int16), np.full(G, -1, np.int8)
    return st, dict(rider=rider_all, acted=acted, stop=stops, relic=kinds)


def outcome(params: SbrParams, state: State, rider: np.ndarray, card: np.ndarray, spin: np.ndarray,
            brk: np.ndarray | bool = False, games: np.ndarray | None = None) -> dict:
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
    tb = _tables(params)
    R = state.pos.shape[1]
    games = np.arange(state.n_games) if games is None else np.asarray(games, np.intp)
    card = np.asarray(card, np.intp)
    n, K = card.shape
    spin = np.broadcast_to(np.asarray(spin, np.intp), card.shape)
    brk = np.broadcast_to(np.asarray(brk, bool), card.shape)
    rider = np.asarray(rider, np.intp)
    fi = games * R + rider
    held = np.repeat(_flat(state.spin)[fi].astype(np.intp), K)
    first = np.repeat(_first_seal(params, tb, state, games, rider,
                                  _flat(state.pos)[fi].astype(np.intp)), K)
    out = _outcome(params, state, tb, np.repeat(games, K), np.repeat(rider, K), card.reshape(-1),
                   (card + spin).reshape(-1), brk.reshape(-1), held - spin.reshape(-1), first)
    return {k: v.reshape(n, K) for k, v in out.items() if k not in ("removed_i", "removed_sq")}


@lru_cache(maxsize=32)
def _option_tables(params: SbrParams):
    """The movement table by start square for every (card, spin) option in
    the order of :func:`option_list`: (L+1, K) arrays."""
    tb = _tables(params)
    card, spin = option_list(params.max_spin_per_beat)
    big = (card >= params.big_card).astype(np.intp)
    m = card + spin
    return {k: np.ascontiguousarray(tb[k][:, m, big]) for k in ("stop", "end", "tax", "river")}


@lru_cache(maxsize=8)
def option_list(max_spin: int):
    """Every (card, spin) pair: cards 1..5 major, spin 0..max_spin minor."""
    return np.repeat(np.arange(1, 6), max_spin + 1), np.tile(np.arange(max_spin + 1), 5)


def options(params: SbrParams, state: State, rider: np.ndarray, brk: bool = False,
            games: np.ndarray | None = None, first: np.ndarray | None = None,
            mask: np.ndarray | None = None) -> dict:
    """:func:`outcome` of every (card, spin) option of :func:`option_list`,
    (n, K) arrays (whether the rider holds the card or the spin is not
    checked: see :func:`legal`).  With ``mask`` (n, K) only the True options
    are computed and the arrays are 1-D over them (row-major), with their
    ``row`` and ``option``.  The same rules, faster: a movement table by
    start square and option, and a walk only where a seal lies within reach
    (``first``: :func:`seal_ahead` of these games, if the caller has it)."""
    games = np.arange(state.n_games) if games is None else np.asarray(games, np.intp)
    rider = np.asarray(rider, np.intp)
    card_k, spin_k = option_list(params.max_spin_per_beat)
    n, K = games.size, card_k.size
    if mask is None:
        i, k = np.repeat(np.arange(n), K), np.tile(np.arange(K), n)
    else:
        i, k = np.nonzero(mask)
    if params.heart_passes_seals:
        out = outcome(params, state, rider[i], card_k[k][:, None], spin_k[k][:, None], brk, games[i])
        out = {key: v[:, 0] for key, v in out.items()}
    else:
        out = _options_flat(params, state, games, rider, i, k, brk, first)
    if mask is None:
        return {key: v.reshape(n, K) for key, v in out.items()}
    return dict(out, row=i, option=k)


def _options_flat(params, state, games, rider, i, k, brk, first):
    tb, ot = _tables(params), _option_tables(params)
    R, L, L1 = state.pos.shape[1], params.length, params.length + 1
    card_k, spin_k = option_list(params.max_spin_per_beat)
    K = card_k.size
    pos_g = _flat(state.pos)[games * R + rider].astype(np.intp)
    pos = pos_g[i]
    ti = pos * K + k
    stop, end, tax = (ot[key].reshape(-1)[ti] for key in ("stop", "end", "tax"))
    spin0 = _flat(state.spin)[games * R + rider].astype(np.int16)[i] - spin_k.astype(np.int16)[k]
    spin = np.minimum(params.spin_cap, spin0 + ot["river"].reshape(-1)[ti] * np.int16(params.river_spin))
    hits = np.zeros(i.size, np.int16)
    if first is None:
        first = _first_seal(params, tb, state, games, rider, pos_g)
    slow = np.nonzero(end - pos >= first[i])[0]
    if slow.size:
        gi, kk = i[slow], k[slow]
        w = _walk(params, tb, state.seal.reshape(-1), games[gi], rider[gi], pos[slow], card_k[kk] + spin_k[kk],
                  card_k[kk] >= params.big_card, np.full(slow.size, brk), spin0[slow].astype(np.intp))
        stop[slow], end[slow], tax[slow], spin[slow], hits[slow] = w[:5]
    has = stop >= 0
    sq = np.where(has, stop, 0)
    kind = np.where(has, state.relic.reshape(-1)[games[i] * L1 + sq], -1)
    end, spin = _stop_effects(params, tb, has, sq, kind, end, spin)
    return dict(stop=stop, end=end, spin=spin, tax=tax, hits=hits, relic=kind)


def _stop_effects(params, tb, has, sq, kind, end, spin):
    """The stop square's relic (eye, heart) and town on an option's end
    square and spin (no heart walk: ``heart_passes_seals`` is off)."""
    L = params.length
    spin = np.where(kind == EYE, np.minimum(params.spin_cap, spin + params.eye_spin), spin)
    end = np.where(kind == HEART, np.minimum(L, end + params.heart_steps), end)
    spin = np.where(has & (tb["terrain"][sq] == TOWN), np.minimum(params.spin_cap, spin + params.town_spin), spin)
    return end, spin


@lru_cache(maxsize=32)
def option_table(params: SbrParams):
    """:func:`options` with no seal on the way, for every (start square,
    spin held, option, relic code at the stop square + 1 (0..5)): arrays
    (L+1, H, K, 6) of stop, end, spin, tax and the relic taken (the same
    arithmetic and dtypes as :func:`options`; H = spin_cap + 1).  The relic
    code is ignored where the option enters no square."""
    tb, ot = _tables(params), _option_tables(params)
    card_k, spin_k = option_list(params.max_spin_per_beat)
    L, H, K = params.length, params.spin_cap + 1, card_k.size
    shape = (L + 1, H, K, 6)
    b = lambda a: np.broadcast_to(a, shape)  # noqa: E731
    stop, end, tax = (b(ot[key][:, None, :, None]) for key in ("stop", "end", "tax"))
    held = b(np.arange(H, dtype=np.int16)[None, :, None, None])
    spin0 = held - b(spin_k.astype(np.int16)[None, None, :, None])
    spin = np.minimum(params.spin_cap, spin0 + b(ot["river"][:, None, :, None]) * np.int16(params.river_spin))
    has = stop >= 0
    sq = np.where(has, stop, 0)
    kind = np.where(has, b(np.arange(-1, 5, dtype=np.int8)), -1)
    end, spin = _stop_effects(params, tb, has, sq, kind, end, spin)
    return dict(stop=np.ascontiguousarray(stop), end=np.ascontiguousarray(end), spin=spin,
                tax=np.ascontiguousarray(tax), relic=kind, stop_square=np.ascontiguousarray(sq[:, 0, :, 0]))


def _flat(a):
    """A view with games and riders merged: fancy indexing on one axis is faster."""
    return a.reshape(-1) if a.ndim == 2 else a.reshape(-1, a.shape[2])


def _play_card(params, st, g, r, card, spend, seal, fi):
    hc = fi * 5 + card - 1
    st.hand.reshape(-1)[hc] -= 1
    if params.skull_takes_current:
        st.discard.reshape(-1)[hc] += 1
    for k, v in (("spin_spent", spend), ("card_sum", card), ("cards_played", 1)):
        _flat(st.stats[k])[fi] += v
    si = np.flatnonzero(seal > 0)
    if si.size:
        gs, rs, fs, d = g.take(si), r.take(si), fi.take(si), seal.take(si)
        if params.seal_direction != "ahead":
            d = -d
        st.seal.reshape(-1)[gs * (params.length + 1) + _flat(st.pos).take(fs) + d] = rs
        _flat(st.seals_left)[fs] -= 1
        _flat(st.stats["seals_placed"])[fs] += 1


def _finish_turn(params, st, g, r, card, fi):
    if not params.skull_takes_current:
        st.discard.reshape(-1)[fi * 5 + card - 1] += 1
    D = st.deck.shape[2]
    d = _flat(st.drawn).take(fi).astype(np.intp)
    has = d < D
    fh = None
    if has.all():
        fh, dh = fi, d
    elif has.any():
        h = np.flatnonzero(has)
        fh, dh = fi.take(h), d.take(h)
    if fh is not None:
        st.hand.reshape(-1)[fh * 5 + st.deck.reshape(-1).take(fh * D + dh) - 1] += 1
        _flat(st.drawn)[fh] += 1
    done = np.flatnonzero((_flat(st.pos).take(fi) >= params.length) & (_flat(st.finish_beat).take(fi) == 0))
    if done.size:
        _flat(st.finish_beat)[fi.take(done)] = st.beat + 1


def _gain(spin, flag, n, cap):
    """``np.where(flag, min(cap, spin + n), spin)`` as arithmetic."""
    return spin + flag * (np.minimum(cap, spin + n) - spin)


def _outcome(params, st, tb, g, r, card, m, brk, spin, first=None, fi=None):
    """Steps 4-5 for riders ``r`` in games ``g`` (flat (n,) arrays) holding
    ``spin`` after paying for the move, as pure arrays.  The movement table
    answers where no seal that matters lies on the way; the other entries walk
    square by square (vectorised across them)."""
    L, L1, cap = params.length, params.length + 1, params.spin_cap
    if fi is None:
        fi = g * st.pos.shape[1] + r
    pos = _flat(st.pos).take(fi).astype(np.intp)
    big = card >= params.big_card
    ti = (pos * (tb["M"] + 1) + m) * 2 + big
    stop = tb["stop_i"].take(ti)
    end = tb["end_i"].take(ti)
    tax = tb["tax_i"].take(ti)
    spin0 = spin
    spin = _gain(spin, tb["river_i"].take(ti), params.river_spin, cap)
    hits = np.zeros(g.size, np.intp)
    removed_i, removed_sq = [], []
    seal_flat = st.seal.reshape(-1)
    if first is None:
        first = _first_seal(params, tb, st, g, r, pos)
    s = np.flatnonzero(end - pos >= first)
    if s.size:
        w = _walk(params, tb, seal_flat, g.take(s), r.take(s), pos.take(s), m.take(s), big.take(s), brk.take(s),
                  spin0.take(s))
        stop[s], end[s], tax[s], spin[s], hits[s] = w[:5]
        removed_i.append(s[w[5]])
        removed_sq.append(w[6])
    has = stop >= 0
    sq = np.maximum(stop, 0)
    kind = st.relic.reshape(-1).take(g * L1 + sq).astype(np.intp)
    if st.relic[:, 0].max(initial=-1) >= 0:       # square 0 holds no relic unless a caller put one there
        kind = np.where(has, kind, -1)
    spin = _gain(spin, kind == EYE, params.eye_spin, cap)
    heart = kind == HEART
    if heart.any():
        if params.heart_passes_seals:
            h = np.nonzero(heart)[0]
            hw = _heart_walk(params, seal_flat, g[h], r[h], end[h])
            end[h], hits[h] = hw[0], hits[h] + hw[1]
            removed_i.append(h[hw[2]])
            removed_sq.append(hw[3])
        else:
            end = _gain(end, heart, params.heart_steps, L)
    spin = _gain(spin, has & tb["town"].take(sq), params.town_spin, cap)
    cat = lambda xs: np.concatenate(xs) if xs else np.zeros(0, np.intp)  # noqa: E731
    return dict(stop=stop, end=end, spin=spin, tax=tax, hits=hits, relic=kind,
                removed_i=cat(removed_i), removed_sq=cat(removed_sq))


def _first_seal(params, tb, st, g, r, pos):
    """Offset (1..M) of the first square ahead of ``pos`` holding a seal that
    matters to rider ``r``; M + 1 if none within one move.  Only the games
    with a seal among the next squares (:func:`_seal_near`) are scanned."""
    M = tb["M"]
    first = np.full(g.size, M + 1, np.intp)
    s = np.nonzero(_seal_near(params, st, g, pos, M))[0]
    if s.size:
        off = np.arange(1, M + 1)
        owner = st.seal.reshape(-1)[(g[s] * (params.length + 1))[:, None] + np.minimum(pos[s, None] + off, params.length)]
        hit = (owner >= 0) & ~_ignored(params, owner, r[s, None])
        first[s] = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1, M + 1)
    return first


def _seal_near(params, st, g, pos, M):
    """(n,) True where a seal may lie on squares pos+1..pos+M (never a false
    False; a True may be a seal just beyond, which the caller's scan sorts
    out).  The seal board is int8 with -1 for "none", so eight squares read
    as one int64 are all empty exactly when the word is -1."""
    L1 = params.length + 1
    flat = st.seal.reshape(-1)
    if M > 8 or not flat.flags.c_contiguous or flat.size < 8:
        return np.ones(g.size, bool)
    words = np.ndarray(shape=(flat.size - 7,), dtype=np.int64, buffer=flat, strides=(1,))
    return words[np.minimum(g * L1 + pos + 1, flat.size - 8)] != -1       # (take would copy the strided view)


def _apply(params, st, tb, g, r, out, retrieve, fi):
    """Write an outcome into the state: position, spin, terrain tax, seals
    triggered and removed, the relic taken and its skull."""
    _flat(st.pos)[fi] = out["end"]
    _flat(st.spin)[fi] = out["spin"]
    for key, v in (("terrain_tax", out["tax"]), ("seal_hits", out["hits"])):
        if v.any():
            _flat(st.stats[key])[fi] += v
    L1 = params.length + 1
    if out["removed_i"].size:
        st.seal.reshape(-1)[g[out["removed_i"]] * L1 + out["removed_sq"]] = -1
    kind = out["relic"]
    t = np.flatnonzero(kind >= 0)
    if t.size:
        kt, ft = kind.take(t), fi.take(t)
        st.relic.reshape(-1)[g.take(t) * L1 + out["stop"].take(t)] = -1
        _flat(st.relic_pts)[ft] += tb["points"].take(kt)
        _flat(st.relic_n)[ft] += 1
        sk = t.take(np.flatnonzero(kt == SKULL))
        for _ in range(params.skull_cards):
            _take_back(st, g.take(sk), r.take(sk), retrieve.take(sk))


def _ignored(params, owner, r):
    """Seals a rider passes without effect: his own (unless 9.3 pays him) and,
    if so read, his team mate's."""
    own = owner == r
    if params.seal_owner_bonus:
        own = np.zeros_like(own)
        mate = (owner // params.riders_per_player == r // params.riders_per_player) & (owner != r)
        return mate & params.team_seals_ignored & (owner >= 0)
    if params.team_seals_ignored:
        own = own | ((owner >= 0) & (owner // params.riders_per_player == r // params.riders_per_player))
    return own


def _walk(params, tb, seal_flat, g, r, pos, m, big, brk, spin):
    """Step 4 square by square: terrain, a river, then a seal (5.3).
    Returns stop, end, tax, spin, hits, and the (entry, square) pairs of the
    seals removed."""
    L, cap = params.length, params.spin_cap
    extra_t, river_t = tb["extra"], tb["river_sq"]
    n = g.size
    base = g * (L + 1)
    stop = np.full(n, -1, np.intp)
    tax = np.zeros(n, np.intp)
    hits = np.zeros(n, np.intp)
    river = np.zeros(n, bool)
    rem_i, rem_sq = [], []
    active = (m > 0) & (pos < L)
    while active.any():
        sq = np.minimum(pos + 1, L)
        m = m - active
        extra = extra_t.take(sq * 2 + big)
        pay = active & (extra > 0) & (m > 0)
        enter = active
        if params.extra_cost_rule == "stop_before":
            blocked = pay & (m < extra)
            tax += blocked * m
            m = m - blocked * m
            enter = active & ~blocked
            pay = pay & ~blocked
        take = pay * np.minimum(extra, m)
        tax += take
        m = m - take
        pos = pos + enter * (sq - pos)
        stop = stop + enter * (sq - stop)
        riv = enter & river_t.take(sq) & ~river
        river |= riv
        spin = _gain(spin, riv, params.river_spin, cap)
        owner = (seal_flat.take(base + sq) + 1) * enter - 1
        m, spin, hit, removed = _meet_seal(params, owner, r, m, brk, spin)
        if removed.any():
            hits += hit
            ri = np.flatnonzero(removed)
            rem_i.append(ri)
            rem_sq.append(sq.take(ri))
        active = enter & (m > 0) & (pos < L)
    cat = lambda xs: np.concatenate(xs) if xs else np.zeros(0, np.intp)  # noqa: E731
    return stop, pos, tax, spin, hits, cat(rem_i), cat(rem_sq)


def _meet_seal(params, owner, r, m, brk, spin):
    """Section 5.3 on the square just entered (``owner`` -1 where none or
    not entered): returns movement, spin, triggered, removed."""
    has = owner >= 0
    removed = np.zeros(owner.shape, bool)
    if not has.any():
        return m, spin, removed, removed
    ign = _ignored(params, owner, r)
    if params.seal_owner_bonus:
        bonus = has & (owner == r)
        removed = bonus
        m = m + bonus * params.seal_owner_bonus
        ign = ign | (owner == r)
    opp = has & ~ign
    zero = opp & (m == 0) & (not params.break_on_stop)
    rest = opp & ~zero
    hit = rest | (zero & params.seal_spent_on_stop)
    can = rest & brk & (spin >= params.seal_break_cost)
    spin = spin - can * params.seal_break_cost
    pen = rest & ~can
    return m - pen * (m - np.maximum(0, m - params.seal_penalty)), spin, hit, removed | hit


def _heart_walk(params, seal_flat, g, r, pos):
    """The heart's squares meeting seals (``heart_passes_seals``): no
    terrain, no relic, no breaking."""
    L = params.length
    base = g * (L + 1)
    steps = np.full(g.size, params.heart_steps, np.intp)
    hits = np.zeros(g.size, np.intp)
    no = np.zeros(g.size, bool)
    spin = np.zeros(g.size, np.intp)
    rem_i, rem_sq = [], []
    active = (steps > 0) & (pos < L)
    while active.any():
        sq = np.where(active, np.minimum(pos + 1, L), pos)
        pos = sq
        steps = steps - active
        owner = np.where(active, seal_flat[base + sq], -1)
        steps, _, hit, removed = _meet_seal(params, owner, r, steps, no, spin)
        hits += hit
        rem_i.append(np.nonzero(removed)[0])
        rem_sq.append(sq[removed])
        active = active & (steps > 0) & (sq < L)
    return pos, hits, np.concatenate(rem_i), np.concatenate(rem_sq)


def _take_back(st, g, r, want):
    if not g.size:
        return
    fr = g * st.pos.shape[1] + r
    disc = _flat(st.discard).take(fr, axis=0)           # (n, 5)
    ok = (want >= 1) & (want <= 5)
    wi = np.minimum(np.maximum(want - 1, 0), 4)
    ok &= disc.reshape(-1).take(np.arange(g.size) * 5 + wi) > 0
    highest = 4 - np.argmax(disc[:, ::-1] > 0, axis=1)
    any_ = disc.any(axis=1)
    v = np.where(ok, wi, highest)
    fs = (fr * 5 + v).take(np.flatnonzero(ok | any_))
    st.discard.reshape(-1)[fs] -= 1
    st.hand.reshape(-1)[fs] += 1


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


def _points_by_rank(points, seat, *keys):
    """Rank riders by the keys (each higher first), then ``seat`` (the seat
    order, (1, R) or (G, R)); the points of each rider's rank."""
    R = keys[0].shape[1]
    key = np.zeros(keys[0].shape, np.int64)
    for k in keys:
        key = key * 512 + (255 - k.astype(np.int64))     # every key is within -255..255
    key = key * R + seat
    return np.array(points[:R], np.int16)[_count_below(key)]


# ---------------------------------------------------------------- result
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


def seal_ahead(params: SbrParams, state: State, rider: np.ndarray) -> np.ndarray:
    """(G,) distance to the first seal ahead of ``rider`` that would affect
    him, within one move; ``5 + max_spin_per_beat + 1`` if none."""
    tb = _tables(params)
    G, R = state.pos.shape
    fi = np.arange(G) * R + np.asarray(rider, np.intp)
    return _first_seal(params, tb, state, np.arange(G), np.asarray(rider, np.intp),
                       _flat(state.pos)[fi].astype(np.intp))


def slot_of(state: State, rider: np.ndarray) -> np.ndarray:
    """(G,) the place of ``rider`` in this beat's acting order."""
    return np.argmax(state.order == np.asarray(rider)[:, None], axis=1)
