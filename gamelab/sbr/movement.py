"""STEEL BALL RUN movement: where a card takes a rider, as pure arrays.

Section 6.2 steps 4-5: the move square by square over the terrain of 4.2
(rocks, curves for a big card, rivers once per beat; ``extra_cost_rule``,
FAQ Q3), the seals met on the way (5.3, the owner's bonus of 9.3), the stop
square's relic (5.4: eye, heart, and the heart's walk under
``heart_passes_seals``) and town (4.2), spin capped (5.2).

* :func:`move_tables`: the movement with no seal on the way, by start
  square, movement and big card (built once per parameter set);
  :func:`table_index` indexes them.
* :func:`move_outcome`: the kernel :func:`~gamelab.sbr.turn.act` plays and
  :func:`outcome` previews; :func:`walk` the square-by-square walk where a
  seal that matters lies within reach (:func:`first_seal`); :func:`_meet_seal`;
  :func:`_stop_square` and the :func:`_heart_walk`.
* :func:`outcome` and :func:`seal_ahead`: the queries agents ask (they never
  move riders themselves); every (card, spin) option at once is in
  :mod:`gamelab.sbr.options`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .indexing import flat, flat_index
from .rules import CURVE, EYE, HEART, N_VALUES, RIVER, ROCK, TOWN, SbrParams
from .state import State

SEAL_WORD = 8  # squares of the int8 seal board read at once as one int64 (:func:`_seal_near`)


def max_move(params: SbrParams) -> int:
    """The most movement of one beat: the highest card plus the most spin (5.1, 5.2)."""
    return N_VALUES + params.max_spin_per_beat


def _extra_cost(params, terrain, big):
    """Section 4.2: the extra cost of entering a square of ``terrain`` (a rock;
    a curve for a big card)."""
    if terrain == ROCK:
        return params.rock_penalty
    return params.curve_penalty if terrain == CURVE and big else 0


@lru_cache(maxsize=32)
def move_tables(params: SbrParams):
    """Movement with no seal on the way, (start, movement, big card) ->
    stop square (-1 if no square entered), river met, terrain tax, end square
    (``*_i``: the same flattened, index with :func:`table_index`)."""
    L, terr = params.length, params.terrain_array()
    M = max_move(params)
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
                    extra = _extra_cost(params, terr[sq], big)
                    if extra and m > 0:
                        if params.extra_cost_rule == "stop_before" and m < extra:
                            tx += m
                            break
                        tx += min(extra, m)
                        m -= min(extra, m)
                    pos = st = sq
                    riv |= terr[sq] == RIVER
                stop[s, m0, big], end[s, m0, big], river[s, m0, big], tax[s, m0, big] = st, pos, riv, tx
    return dict(
        stop=stop,
        end=end,
        river=river,
        tax=tax,
        terrain=terr,
        M=M,
        points=np.array(list(params.relic_points) + [0], np.int16),
        stop_i=stop.astype(np.intp).reshape(-1),
        end_i=end.astype(np.intp).reshape(-1),
        tax_i=tax.astype(np.intp).reshape(-1),
        river_i=river.reshape(-1).copy(),
        town=terr == TOWN,
        river_sq=terr == RIVER,
        extra=np.array([[_extra_cost(params, t, b) for b in (0, 1)] for t in terr], np.intp).reshape(-1),
    )


def table_index(pos, m, big, M):
    """Flat index into the ``*_i`` arrays of :func:`move_tables` ((L+1, M+1, 2)
    flattened): plain, ``[pos, m, big]``."""
    return (pos * (M + 1) + m) * 2 + big


def extra_index(sq, big):
    """Flat index into ``move_tables(...)["extra"]`` ((L+1, 2) flattened):
    plain, ``[sq, big]``."""
    return sq * 2 + big


def _concat(parts):
    """The index arrays of ``parts`` joined (empty intp if none)."""
    return np.concatenate(parts) if parts else np.zeros(0, np.intp)


def _gain(spin, flag, n, cap):
    """``np.where(flag, min(cap, spin + n), spin)`` as arithmetic."""
    return spin + flag * (np.minimum(cap, spin + n) - spin)


def move_outcome(params, st, tb, g, r, card, m, brk, spin, first=None, fi=None):
    """Steps 4-5 for riders ``r`` in games ``g`` (flat (n,) arrays) holding
    ``spin`` after paying for the move, as pure arrays.  The movement table
    answers where no seal that matters lies on the way; the other entries walk
    square by square (vectorised across them)."""
    cap = params.spin_cap
    if fi is None:
        fi = flat_index(g, st.pos.shape[1], r)
    pos = flat(st.pos).take(fi).astype(np.intp)
    big = card >= params.big_card
    ti = table_index(pos, m, big, tb["M"])
    stop = tb["stop_i"].take(ti)
    end = tb["end_i"].take(ti)
    tax = tb["tax_i"].take(ti)
    spin0 = spin
    spin = _gain(spin, tb["river_i"].take(ti), params.river_spin, cap)
    hits = np.zeros(g.size, np.intp)
    removed_i, removed_sq = [], []
    seal_flat = st.seal.reshape(-1)
    if first is None:
        first = first_seal(params, tb, st, g, r, pos)
    s = np.flatnonzero(end - pos >= first)
    if s.size:
        w = walk(
            params, tb, seal_flat, g.take(s), r.take(s), pos.take(s), m.take(s), big.take(s), brk.take(s), spin0.take(s)
        )
        stop[s], end[s], tax[s], spin[s], hits[s] = w[:5]
        removed_i.append(s[w[5]])
        removed_sq.append(w[6])
    kind, end, spin = _stop_square(params, st, tb, g, r, stop, end, spin, hits, (removed_i, removed_sq))
    return dict(
        stop=stop,
        end=end,
        spin=spin,
        tax=tax,
        hits=hits,
        relic=kind,
        removed_i=_concat(removed_i),
        removed_sq=_concat(removed_sq),
    )


def _stop_square(params, st, tb, g, r, stop, end, spin, hits, removed):
    """Step 5 on the stop square (-1: none entered): the relic there (5.4:
    an eye's spin; a heart's squares, walked past seals under
    ``heart_passes_seals``), then a town's spin (4.2).  Returns the relic
    kind, end square and spin; a heart's walk adds to ``hits`` and to the
    ``removed`` (entries, squares) lists in place."""
    L, L1, cap = params.length, params.length + 1, params.spin_cap
    has = stop >= 0
    sq = np.maximum(stop, 0)
    kind = st.relic.reshape(-1).take(flat_index(g, L1, sq)).astype(np.intp)
    if st.relic[:, 0].max(initial=-1) >= 0:  # square 0 holds no relic unless a caller put one there
        kind = np.where(has, kind, -1)
    spin = _gain(spin, kind == EYE, params.eye_spin, cap)
    heart = kind == HEART
    if heart.any():
        if params.heart_passes_seals:
            h = np.nonzero(heart)[0]
            hw = _heart_walk(params, st.seal.reshape(-1), g[h], r[h], end[h])
            end[h], hits[h] = hw[0], hits[h] + hw[1]
            removed[0].append(h[hw[2]])
            removed[1].append(hw[3])
        else:
            end = _gain(end, heart, params.heart_steps, L)
    spin = _gain(spin, has & tb["town"].take(sq), params.town_spin, cap)
    return kind, end, spin


def first_seal(params, tb, st, g, r, pos):
    """Offset (1..M) of the first square ahead of ``pos`` holding a seal that
    matters to rider ``r``; M + 1 if none within one move.  Only the games
    with a seal among the next squares (:func:`_seal_near`) are scanned."""
    M = tb["M"]
    first = np.full(g.size, M + 1, np.intp)
    s = np.nonzero(_seal_near(params, st, g, pos, M))[0]
    if s.size:
        off = np.arange(1, M + 1)
        ahead = np.minimum(pos[s, None] + off, params.length)  # (n, M) squares, clipped
        owner = st.seal.reshape(-1)[flat_index(g[s, None], params.length + 1, ahead)]
        hit = (owner >= 0) & ~_ignored(params, owner, r[s, None])
        first[s] = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1, M + 1)
    return first


def _seal_near(params, st, g, pos, M):
    """(n,) True where a seal may lie on squares pos+1..pos+M (never a false
    False; a True may be a seal just beyond, which the caller's scan sorts
    out).  The seal board is int8 with -1 for "none", so eight squares read
    as one int64 are all empty exactly when the word is -1."""
    L1, W = params.length + 1, SEAL_WORD
    board = st.seal.reshape(-1)
    if M > W or not board.flags.c_contiguous or board.size < W:
        return np.ones(g.size, bool)
    # words[i] = the W bytes board[i:i+W] as one int64 (a strided view, no copy)
    words = np.ndarray(shape=(board.size - W + 1,), dtype=np.int64, buffer=board, strides=(1,))
    first = np.minimum(flat_index(g, L1, pos + 1), board.size - W)
    return words[first] != -1  # plain: (board[first:first+W] >= 0).any(); take would copy the view


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


def walk(params, tb, seal_flat, g, r, pos, m, big, brk, spin):
    """Step 4 square by square: terrain, a river, then a seal (5.3).
    Returns stop, end, tax, spin, hits, and the (entry, square) pairs of the
    seals removed."""
    L, cap = params.length, params.spin_cap
    extra_t, river_t = tb["extra"], tb["river_sq"]
    n = g.size
    base = g * (L + 1)  # each game's row of the seal board
    stop = np.full(n, -1, np.intp)
    tax = np.zeros(n, np.intp)
    hits = np.zeros(n, np.intp)
    river = np.zeros(n, bool)
    rem_i, rem_sq = [], []
    active = (m > 0) & (pos < L)
    while active.any():
        sq = np.minimum(pos + 1, L)
        m = m - active  # np.where(active, m - 1, m)
        extra = extra_t.take(extra_index(sq, big))
        pay = active & (extra > 0) & (m > 0)
        enter = active
        if params.extra_cost_rule == "stop_before":
            blocked = pay & (m < extra)
            tax += blocked * m  # np.where(blocked, tax + m, tax)
            m = m - blocked * m  # np.where(blocked, 0, m)
            enter = active & ~blocked
            pay = pay & ~blocked
        take = pay * np.minimum(extra, m)  # np.where(pay, min(extra, m), 0)
        tax += take
        m = m - take
        pos = pos + enter * (sq - pos)  # np.where(enter, sq, pos)
        stop = stop + enter * (sq - stop)  # np.where(enter, sq, stop)
        riv = enter & river_t.take(sq) & ~river
        river |= riv
        spin = _gain(spin, riv, params.river_spin, cap)
        owner = (seal_flat.take(base + sq) + 1) * enter - 1  # np.where(enter, seal[g, sq], -1)
        m, spin, hit, removed = _meet_seal(params, owner, r, m, brk, spin)
        if removed.any():
            hits += hit
            ri = np.flatnonzero(removed)
            rem_i.append(ri)
            rem_sq.append(sq.take(ri))
        active = enter & (m > 0) & (pos < L)
    return stop, pos, tax, spin, hits, _concat(rem_i), _concat(rem_sq)


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
        m = m + bonus * params.seal_owner_bonus  # np.where(bonus, m + seal_owner_bonus, m)
        ign = ign | (owner == r)
    opp = has & ~ign
    zero = opp & (m == 0) & (not params.break_on_stop)
    rest = opp & ~zero
    hit = rest | (zero & params.seal_spent_on_stop)
    can = rest & brk & (spin >= params.seal_break_cost)
    spin = spin - can * params.seal_break_cost  # np.where(can, spin - seal_break_cost, spin)
    pen = rest & ~can
    m = m - pen * (m - np.maximum(0, m - params.seal_penalty))  # np.where(pen, max(0, m - penalty), m)
    return m, spin, hit, removed | hit


def _heart_walk(params, seal_flat, g, r, pos):
    """The heart's squares meeting seals (``heart_passes_seals``): no
    terrain, no relic, no breaking."""
    L = params.length
    base = g * (L + 1)  # each game's row of the seal board
    steps = np.full(g.size, params.heart_steps, np.intp)
    hits = np.zeros(g.size, np.intp)
    no = np.zeros(g.size, bool)
    spin = np.zeros(g.size, np.intp)
    rem_i, rem_sq = [], []
    active = (steps > 0) & (pos < L)
    while active.any():
        sq = np.where(active, np.minimum(pos + 1, L), pos)
        pos = sq
        steps = steps - active  # np.where(active, steps - 1, steps)
        owner = np.where(active, seal_flat[base + sq], -1)
        steps, _, hit, removed = _meet_seal(params, owner, r, steps, no, spin)
        hits += hit
        rem_i.append(np.nonzero(removed)[0])
        rem_sq.append(sq[removed])
        active = active & (steps > 0) & (sq < L)
    return pos, hits, np.concatenate(rem_i), np.concatenate(rem_sq)


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
    tb = move_tables(params)
    R = state.pos.shape[1]
    games = np.arange(state.n_games) if games is None else np.asarray(games, np.intp)
    card = np.asarray(card, np.intp)
    n, K = card.shape
    spin = np.broadcast_to(np.asarray(spin, np.intp), card.shape)
    brk = np.broadcast_to(np.asarray(brk, bool), card.shape)
    rider = np.asarray(rider, np.intp)
    fi = flat_index(games, R, rider)
    held = np.repeat(flat(state.spin)[fi].astype(np.intp), K)
    first = np.repeat(first_seal(params, tb, state, games, rider, flat(state.pos)[fi].astype(np.intp)), K)
    out = move_outcome(
        params,
        state,
        tb,
        np.repeat(games, K),
        np.repeat(rider, K),
        card.reshape(-1),
        (card + spin).reshape(-1),
        brk.reshape(-1),
        held - spin.reshape(-1),
        first,
    )
    return {k: v.reshape(n, K) for k, v in out.items() if k not in ("removed_i", "removed_sq")}


def seal_ahead(params: SbrParams, state: State, rider: np.ndarray) -> np.ndarray:
    """(G,) distance to the first seal ahead of ``rider`` that would affect
    him, within one move; ``max_move(params) + 1`` if none."""
    tb = move_tables(params)
    G, R = state.pos.shape
    fi = flat_index(np.arange(G), R, np.asarray(rider, np.intp))
    return first_seal(params, tb, state, np.arange(G), np.asarray(rider, np.intp), flat(state.pos)[fi].astype(np.intp))
