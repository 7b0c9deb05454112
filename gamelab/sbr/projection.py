"""STEEL BALL RUN greedy's rank terms on a scoring beat.

On a segment's last beat the greedy adds the segment points (section 6.2)
its move's end square would earn against the other riders' projected
squares (those still to act this beat move ``greedy_expect``); on the last
beat the final points (6.3) too.  :func:`rank_terms` for any options,
:func:`dense_rank_terms` the same for every option of every game.
"""

from __future__ import annotations

import numpy as np

from .indexing import row_starts, row_starts_k

NOT_AHEAD = 1e6  # subtracted from a rider's own threshold: no end square lies below it


def rank_terms(params, kn, state, games, rider, i, end, v):
    """On a segment's last beat, add the segment points of the rank the move
    would give against the others' projected squares (those still to act
    this beat move ``greedy_expect``); on the last beat, the final points too.
    ``i``: the game row of each option in ``end`` and ``v``."""
    beat = state.beat + 1
    seg_end, last = beat in params.segment_ends(), beat == params.beats
    if not (seg_end or last):
        return v
    L, R = params.length, state.pos.shape[1]
    pos_all = state.pos[games].astype(np.float32)
    place = np.argsort(state.order[games], axis=1)  # place[g, o] = o's slot this beat
    mine = np.take_along_axis(place, rider[:, None], axis=1)
    proj = np.minimum(L, pos_all + np.float32(kn.greedy_expect) * ((place > mine) & (pos_all < L)))
    start = state.seg_start[games].astype(np.float32)
    d_me = end - np.take_along_axis(start, rider[:, None], axis=1)[i, 0]
    seg_rank = np.zeros(end.shape, np.intp)
    fin_rank = np.zeros(end.shape, np.intp)
    for o in range(R):
        other = (rider != o)[i]
        ahead = other & (proj[i, o] > end)
        d_o = (proj[:, o] - start[:, o])[i]
        seg_rank += other & ((d_o > d_me) | ((d_o == d_me) & ahead))
        fin_rank += ahead
    if seg_end:
        v = v + np.float32(kn.greedy_segment) * np.asarray(params.segment_points, np.float32)[seg_rank]
    if last:
        v = v + np.float32(kn.greedy_final) * np.asarray(params.final_points, np.float32)[fin_rank]
    return v


def dense_rank_terms(params, kn, state, rider, pos, dend, J, v):
    """:func:`rank_terms` for (G, K) options of every game (``dend``: each
    option's end square minus ``pos``).  The rank is a count of the others
    ahead, so each opponent becomes one threshold on the end square (exact:
    the ends are integers and the same float32 projections are compared);
    the terms are tabulated per game and end offset (``J`` of them: one more
    than the largest offset), then looked up."""
    beat = state.beat + 1
    seg_end, last = beat in params.segment_ends(), beat == params.beats
    L = params.length
    G, R = state.pos.shape
    f32 = np.float32
    place = _places(state.order)
    mine = place.reshape(-1).take(row_starts(G, R) + rider)
    s_me = state.seg_start.reshape(-1).take(row_starts(G, R) + rider).astype(f32)
    seg_b, fin_b = [], []
    for o in range(R):
        pos_o = state.pos[:, o].astype(f32)
        proj = np.minimum(L, pos_o + f32(kn.greedy_expect) * ((place[:, o] > mine) & (pos_o < L)))
        d_o = proj - state.seg_start[:, o].astype(f32)
        c = np.ceil(d_o)
        a = s_me + c  # ends below: d_o > d_me; at a: a tie on distance
        me = rider == o
        seg_b.append(a + ((d_o == c) & (proj > a)) - me * f32(NOT_AHEAD))
        fin_b.append(proj - me * f32(NOT_AHEAD))
    e = pos.astype(f32)
    out = v
    for on, bounds, table, w in (
        (seg_end, seg_b, params.segment_points, kn.greedy_segment),
        (last, fin_b, params.final_points, kn.greedy_final),
    ):
        if not on:
            continue
        terms = f32(w) * np.asarray(table, f32)
        add = np.empty((G, J), f32)
        for j in range(J):
            rank = np.zeros(G, np.intp)
            ej = e + f32(j)
            for bnd in bounds:
                rank += ej < bnd
            add[:, j] = terms.take(rank)
        out = out + add.reshape(-1).take(row_starts_k(G, J, dend.shape[1]) + dend)  # add[g, dend[g, k]]
    return out


def _places(order):
    """(G, R) each rider's slot in this beat's order (the inverse of ``order``)."""
    G, R = order.shape
    place = np.empty((G, R), np.int8)
    flat, base = place.reshape(-1), row_starts(G, R)
    for s in range(R):
        flat[base + order[:, s]] = s  # place[g, order[g, s]] = s
    return place
