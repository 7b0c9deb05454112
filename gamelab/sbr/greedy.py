"""STEEL BALL RUN greedy agent (``docs/agents.md``).

The rulebook's "deterministic greedy, full information" AI (appendix A),
with our objective: every legal (card, spin) option is valued by what the
engine says it does (:func:`engine.options`: squares gained, relic points
of 5.4, spin held, cards kept, terrain tax of 4.2), plus the rank terms of
a scoring beat (:mod:`gamelab.sbr.projection`); breaking a seal (5.3) is
tried where one lies within reach; a seal goes where it catches the most
opponents (5.3, cleared at the segment's end, 6.2).  Knobs:
:class:`~gamelab.sbr.knobs.AgentParams`.

* :func:`greedy_policy` and :func:`greedy_values`;
* :func:`value_table` and :func:`_dense_values`: the same values from
  tables by start square, spin held and option, where no seal is near;
* :func:`seal_choice`: where to place a seal.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import engine
from .indexing import flat_index, row_starts, row_starts_k
from .knobs import knobs
from .movement import max_move
from .projection import dense_rank_terms, rank_terms
from .rules import N_VALUES, SKULL
from .state import Actions

LEGAL_TABLE_BITS = 14  # legal patterns (card bits + spin bits) up to this wide go through a table
SEQUENTIAL_SUM_RIDERS = 7  # numpy sums up to 7 terms along an axis in order: column loops match it


def greedy_policy(params, state, rider, legal, rng=None) -> Actions:
    """Deterministic greedy with full information: the option of highest
    :func:`greedy_values` (ties: smaller card, less spin, no break); breaking
    (5.3) is tried where a seal lies within reach and the rider can pay, and
    chosen if it beats not breaking by more than ``greedy_break_margin``."""
    rider = np.asarray(rider, np.intp)
    kn = knobs(params)
    G = state.n_games
    card_k, spin_k = engine.option_list(params.max_spin_per_beat)
    first = engine.seal_ahead(params, state, rider)
    val = greedy_values(params, state, rider, legal, first=first)
    best = np.argmax(val, axis=1)
    brk = np.zeros(G, bool)
    held = state.spin.reshape(-1)[flat_index(np.arange(G), state.pos.shape[1], rider)]
    need = legal.acting & (held >= params.seal_break_cost) & (first <= max_move(params))
    if need.any():
        gs = np.nonzero(need)[0]
        vb = greedy_values(params, state, rider[gs], legal, games=gs, brk=True, first=first[gs])
        better = vb.max(axis=1) > val[gs].max(axis=1) + np.float32(kn.greedy_break_margin)
        best[gs[better]] = np.argmax(vb[better], axis=1)
        brk[gs[better]] = True
    seal = seal_choice(params, kn, state, rider, legal)
    return Actions(card=card_k[best], spin=spin_k[best], seal=seal, brk=brk, retrieve=np.zeros(G, np.intp))


def greedy_values(params, state, rider, legal, games=None, brk=False, first=None):
    """(n, K) greedy value of every (card, spin) option of
    :func:`engine.option_list` (-inf if illegal), for the games ``games``
    (default all; ``rider`` (n,)) and breaking seals or not.  Only the legal
    options are evaluated."""
    kn = knobs(params)
    card_k, _ = engine.option_list(params.max_spin_per_beat)
    if games is None and not brk and not params.heart_passes_seals and first is not None:
        return _dense_values(params, kn, state, rider, legal, first)
    lc, ls = legal.card, legal.spin
    if games is not None:
        lc, ls = lc[games], ls[games]
    ok = (lc[:, :, None] & ls[:, None, :]).reshape(lc.shape[0], -1)
    out = engine.options(params, state, rider, brk, games=games, first=first, mask=ok)
    games = np.arange(state.n_games) if games is None else games
    i, k = out["row"], out["option"]
    fi = flat_index(games, state.pos.shape[1], rider)[i]
    pos = state.pos.reshape(-1)[fi].astype(np.float32)
    held = state.spin.reshape(-1)[fi].astype(np.float32)
    kind = out["relic"]
    v = _base_value(params, kn, out["end"], pos, kind, out["spin"], held, out["tax"], k)
    skull = np.nonzero(kind == SKULL)[0]
    if skull.size:
        v[skull] += np.float32(kn.greedy_skull_card) * _card_back(params, state, fi[skull], card_k[k[skull]])
    v = rank_terms(params, kn, state, games, rider, i, out["end"], v)
    val = np.full(ok.shape, -np.inf, np.float32)
    val[i, k] = v
    return val


def _base_value(params, kn, end, pos, kind, spin, held, tax, k):
    """The greedy value before a skull's card and the rank terms (float32;
    ``pos`` and ``held`` float32, the outcome arrays as :func:`engine.options`
    gives them)."""
    card_k, _ = engine.option_list(params.max_spin_per_beat)
    points = np.array(list(params.relic_points) + [0], np.float32)
    f32 = np.float32
    return (
        f32(kn.greedy_move) * (end - pos)
        + f32(kn.greedy_relic) * points[kind]
        + f32(kn.greedy_spin) * (spin - held)
        - f32(kn.greedy_tax) * tax
        - (kn.greedy_card * card_k).astype(f32)[k]
    )


@lru_cache(maxsize=32)
def value_table(params):
    """:func:`_base_value` of every entry of :func:`engine.option_table`
    (the same float32 arithmetic): (L+1, H, K, RELIC_CODES) flattened, and
    the end squares; ``rowk[pos * H + held, k]`` is the flat index of
    (pos, held, k, relic code 0), so adding the relic code + 1 finds an entry."""
    kn = knobs(params)
    ot = engine.option_table(params)
    L1, H, K, C = ot["end"].shape

    def b(a):
        return np.broadcast_to(a, ot["end"].shape)

    pos = b(np.arange(L1, dtype=np.float32)[:, None, None, None])
    held = b(np.arange(H, dtype=np.float32)[None, :, None, None])
    k = b(np.arange(K)[None, None, :, None])
    v = _base_value(params, kn, ot["end"], pos, ot["relic"], ot["spin"], held, ot["tax"], k)
    dend = (ot["end"] - np.arange(L1, dtype=np.int16)[:, None, None, None]).astype(np.intp).reshape(-1)
    return dict(
        value=np.ascontiguousarray(v, np.float32).reshape(-1),
        dend=dend,
        J=int(dend.max()) + 1,
        rowk=flat_index(flat_index(np.arange(L1 * H)[:, None], K, np.arange(K)), C, 1),
        stop_square=ot["stop_square"].astype(np.intp),
        K=K,
        M=max_move(params),
    )


def _dense_values(params, kn, state, rider, legal, first):
    """:func:`greedy_values` of all games at once, no breaking, from the
    tables of :func:`value_table` (identical values: the same arithmetic,
    done once per table entry); games with a seal that matters within reach
    (``first``) go through the general path."""
    tv = value_table(params)
    G, R = state.pos.shape
    L1, K = params.length + 1, tv["K"]
    fi = row_starts(G, R) + rider
    pos = state.pos.reshape(-1).take(fi).astype(np.intp)
    held = state.spin.reshape(-1).take(fi).astype(np.intp)
    sq = tv["stop_square"].take(pos, axis=0)  # (G, K)
    sq += row_starts_k(G, L1, K)  # flat squares of each game's relic row
    kind = state.relic.reshape(-1).take(sq)  # (G, K) int8 (square 0: never a relic)
    idx = tv["rowk"].take(flat_index(pos, params.spin_cap + 1, held), axis=0)
    idx += kind  # value[pos, held, k, kind + 1], flat
    v = tv["value"].take(idx)
    flat = v.reshape(-1)
    skull = np.flatnonzero(kind == SKULL)
    if skull.size:
        card_k, _ = engine.option_list(params.max_spin_per_beat)
        game, option = np.divmod(skull, K)  # skull = flat_index(game, K, option)
        flat[skull] += np.float32(kn.greedy_skull_card) * _card_back(params, state, fi[game], card_k[option])
    beat = state.beat + 1
    if beat in params.segment_ends() or beat == params.beats:
        v = dense_rank_terms(params, kn, state, rider, pos, tv["dend"].take(idx), tv["J"], v)
    v += _illegal(legal.card, legal.spin)
    near = np.flatnonzero(first <= tv["M"])
    if near.size:
        v[near] = greedy_values(params, state, rider[near], legal, games=near, first=first[near])
    return v


@lru_cache(maxsize=8)
def _illegal_table(n_card, n_spin):
    """(2**(n_card + n_spin), n_card * n_spin): 0 for the options a (card
    bits, spin bits << n_card) pattern allows, -inf for the others."""
    codes = np.arange(2 ** (n_card + n_spin))
    c = (codes[:, None] >> np.arange(n_card)) & 1
    s = (codes[:, None] >> (n_card + np.arange(n_spin))) & 1
    ok = (c[:, :, None] & s[:, None, :]).reshape(codes.size, -1).astype(bool)
    return np.where(ok, np.float32(0), np.float32(-np.inf)).astype(np.float32)


def _illegal(card, spin):
    """(G, K) 0 where the (card, spin) option is legal, -inf elsewhere."""
    nc, ns = card.shape[1], spin.shape[1]
    if nc + ns > LEGAL_TABLE_BITS:
        ok = (card[:, :, None] & spin[:, None, :]).reshape(card.shape[0], -1)
        return np.where(ok, np.float32(0), np.float32(-np.inf))
    bits = np.zeros(card.shape[0], np.intp)  # bits = card bits | spin bits << nc: the pattern as a number
    for j, m in enumerate([card[:, c] for c in range(nc)] + [spin[:, c] for c in range(ns)]):
        bits |= m.view(np.uint8).astype(np.intp) << j
    return _illegal_table(nc, ns).take(bits, axis=0)


def _card_back(params, state, fi, cards):
    """The card a skull would bring back (the highest in the discard)."""
    disc = state.discard.reshape(-1, N_VALUES)[fi] > 0
    high = np.where(disc.any(axis=1), N_VALUES - np.argmax(disc[:, ::-1], axis=1), 0)
    return np.maximum(high, cards) if params.skull_takes_current else high


def seal_choice(params, kn, state, rider, legal):
    """The seal square with the most expected victims (opponents racing
    behind it, weighted by ``greedy_seal_reach``), if enough and the segment
    has a beat left (seals are cleared at its end)."""
    G, R = state.pos.shape
    if params.seals_per_player == 0 or (state.beat + 1) in params.segment_ends():
        return np.zeros(G, np.intp)
    if R <= SEQUENTIAL_SUM_RIDERS:
        return _seal_choice_cols(params, kn, state, rider, legal)
    reach = np.asarray(kn.greedy_seal_reach, np.float64)
    d = np.arange(1, params.seal_range + 1)
    pos = state.pos.astype(np.intp)
    me = np.take_along_axis(pos, rider[:, None], axis=1)
    sq = me + (d if params.seal_direction == "ahead" else -d)  # (G, D)
    gap = sq[:, :, None] - pos[:, None, :]  # (G, D, R)
    team = np.arange(R) // params.riders_per_player
    opp = (team[None, :] != team[rider][:, None]) & (pos < params.length)
    w = np.where(
        (gap >= 1) & (gap <= reach.size) & opp[:, None, :], reach[np.clip(gap - 1, 0, reach.size - 1)], 0.0
    ).sum(axis=2)
    w = np.where(legal.seal[:, 1:], w, -1.0)
    best = np.argmax(w, axis=1)
    return np.where(w.max(axis=1) >= kn.greedy_seal_min, best + 1, 0)


@lru_cache(maxsize=32)
def _reach_table(params):
    """Expected victims by gap (square minus the opponent's square) + offset:
    ``greedy_seal_reach`` for gaps 1..n, 0 elsewhere (index 0 always 0)."""
    reach = np.asarray(knobs(params).greedy_seal_reach, np.float64)
    off = params.length + params.seal_range + 1
    table = np.zeros(2 * off + 1)
    table[off + 1 : off + 1 + reach.size] = reach
    return table, off


def _seal_choice_cols(params, kn, state, rider, legal):
    """:func:`seal_choice` as loops over the few squares and riders (the
    same float64 sums in the same order as ``sum(axis=2)`` for up to 7
    riders)."""
    G, R = state.pos.shape
    table, off = _reach_table(params)
    fi = row_starts(G, R) + rider
    me = state.pos.reshape(-1).take(fi).astype(np.intp)
    team = np.arange(R) // params.riders_per_player
    my_team = team.take(rider)
    pos = [state.pos[:, o].astype(np.intp) for o in range(R)]
    opp = [(my_team != team[o]) & (pos[o] < params.length) for o in range(R)]
    sign = 1 if params.seal_direction == "ahead" else -1
    seal_ok = legal.seal
    best_v = best_i = None
    for d in range(1, params.seal_range + 1):
        base = me + (sign * d + off)
        w = np.zeros(G)
        for o in range(R):
            w = w + table.take((base - pos[o]) * opp[o])  # np.where(opp[o], table[sq - pos[o] + off], 0)
        w = np.where(seal_ok[:, d], w, -1.0)
        if best_v is None:
            best_v, best_i = w, np.full(G, d, np.intp)
        else:
            up = w > best_v
            best_i = np.where(up, d, best_i)
            best_v = np.maximum(best_v, w)
    return np.where(best_v >= kn.greedy_seal_min, best_i, 0)
