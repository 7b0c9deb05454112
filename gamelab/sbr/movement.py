"""STEEL BALL RUN movement: where a card takes a rider, as pure arrays.

Section 6.2 steps 4-5: the move square by square over the terrain of 4.2
(rocks, curves for a big card, rivers once per beat; ``extra_cost_rule``,
FAQ Q3), the seals met on the way (5.3, the owner's bonus of 9.3), the stop
square's relic (5.4: eye, heart, and the heart's walk under
``heart_passes_seals``) and town (4.2), spin capped (5.2).

* :func:`_tables`: the movement with no seal on the way, by start square,
  movement and big card (built once per parameter set).
* :func:`_outcome`: the kernel :func:`~gamelab.sbr.turn.act` plays and
  :func:`outcome` previews; :func:`_walk` the square-by-square walk where a
  seal that matters lies within reach; :func:`_meet_seal`; :func:`_stop_square`
  and the :func:`_heart_walk`.
* :func:`outcome` and :func:`seal_ahead`: the queries agents ask (they never
  move riders themselves); every (card, spin) option at once is in
  :mod:`gamelab.sbr.options`.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from .indexing import _flat
from .rules import CURVE, EYE, HEART, RIVER, ROCK, TOWN, SbrParams

if TYPE_CHECKING:
    from .engine import State


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


def _gain(spin, flag, n, cap):
    """``np.where(flag, min(cap, spin + n), spin)`` as arithmetic."""
    return spin + flag * (np.minimum(cap, spin + n) - spin)


def _outcome(params, st, tb, g, r, card, m, brk, spin, first=None, fi=None):
    """Steps 4-5 for riders ``r`` in games ``g`` (flat (n,) arrays) holding
    ``spin`` after paying for the move, as pure arrays.  The movement table
    answers where no seal that matters lies on the way; the other entries walk
    square by square (vectorised across them)."""
    cap = params.spin_cap
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
    kind, end, spin = _stop_square(params, st, tb, g, r, stop, end, spin, hits, (removed_i, removed_sq))
    cat = lambda xs: np.concatenate(xs) if xs else np.zeros(0, np.intp)  # noqa: E731
    return dict(stop=stop, end=end, spin=spin, tax=tax, hits=hits, relic=kind,
                removed_i=cat(removed_i), removed_sq=cat(removed_sq))


def _stop_square(params, st, tb, g, r, stop, end, spin, hits, removed):
    """Step 5 on the stop square (-1: none entered): the relic there (5.4:
    an eye's spin; a heart's squares, walked past seals under
    ``heart_passes_seals``), then a town's spin (4.2).  Returns the relic
    kind, end square and spin; a heart's walk adds to ``hits`` and to the
    ``removed`` (entries, squares) lists in place."""
    L, L1, cap = params.length, params.length + 1, params.spin_cap
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
            hw = _heart_walk(params, st.seal.reshape(-1), g[h], r[h], end[h])
            end[h], hits[h] = hw[0], hits[h] + hw[1]
            removed[0].append(h[hw[2]])
            removed[1].append(hw[3])
        else:
            end = _gain(end, heart, params.heart_steps, L)
    spin = _gain(spin, has & tb["town"].take(sq), params.town_spin, cap)
    return kind, end, spin


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


def seal_ahead(params: SbrParams, state: State, rider: np.ndarray) -> np.ndarray:
    """(G,) distance to the first seal ahead of ``rider`` that would affect
    him, within one move; ``5 + max_spin_per_beat + 1`` if none."""
    tb = _tables(params)
    G, R = state.pos.shape
    fi = np.arange(G) * R + np.asarray(rider, np.intp)
    return _first_seal(params, tb, state, np.arange(G), np.asarray(rider, np.intp),
                       _flat(state.pos)[fi].astype(np.intp))
