"""STEEL BALL RUN agents (``docs/agents.md``).

Policies follow the engine's signature ``policy(params, state, rider, legal,
rng) -> engine.Actions`` and choose only among the rules' legal actions.  They
ask the engine what a move would do (:func:`engine.outcome`); none moves a
rider itself.  Every model knob is a declared parameter of
:class:`AgentParams` (a subclass of the rules' ``SbrParams``), so sweeps and
sliders read it like a rule; a plain ``SbrParams`` gets the knobs' defaults.

* :func:`random_policy`: uniformly random legal choices.
* :func:`greedy_policy`: the rulebook's "deterministic greedy, full
  information" AI, with our objective (appendix A does not give one).
* :func:`lookahead_policy`: the greedy's top options, each played out to the
  end of the game (or a horizon) with every rider greedy; the best margin wins.
* :func:`from_function`: a plain per-game Python function as a policy.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from ..errors import GamelabError
from ..params import param
from . import engine
from .engine import Actions
from .rules import SKULL, SbrParams


@dataclasses.dataclass(frozen=True, kw_only=True)
class AgentParams(SbrParams):
    """The rules plus the agents' model knobs (not rules: modelling choices)."""

    greedy_move: float = param(1.0, low=0.0, high=10.0, section="agents",
                               doc="greedy: value of a square gained this beat (a heart's squares included)")
    greedy_relic: float = param(1.0, low=0.0, high=10.0, section="agents",
                                doc="greedy: value of a relic point taken")
    greedy_spin: float = param(0.6, low=0.0, high=10.0, section="agents",
                               doc="greedy: value of a spin held after the move (spent, rivers, eye, town)")
    greedy_card: float = param(0.15, low=0.0, high=5.0, section="agents",
                               doc="greedy: value of a card pip kept in hand (a skull's card back too)")
    greedy_tax: float = param(0.25, low=0.0, high=5.0, section="agents",
                              doc="greedy: extra penalty per movement point lost to rocks and curves")
    greedy_segment: float = param(1.0, low=0.0, high=10.0, section="agents",
                                  doc="greedy: weight of the projected segment points on a segment's last beat")
    greedy_final: float = param(1.0, low=0.0, high=10.0, section="agents",
                                doc="greedy: weight of the projected final points on the last beat")
    greedy_expect: float = param(3.0, low=0.0, high=7.0, section="agents",
                                 doc="greedy: squares a rider still to act this beat is expected to move")
    greedy_seal_reach: tuple = param((1.0, 0.9, 0.7, 0.5, 0.3, 0.1), low=0.0, high=1.0, length=(1, 10),
                                     section="agents",
                                     doc="greedy: chance an opponent 1, 2, ... squares behind a seal runs over it")
    greedy_seal_min: float = param(0.5, low=0.0, high=20.0, section="agents",
                                   doc="greedy: place a seal when its expected victims reach this")
    lookahead_k: int = param(3, low=1, high=30, section="agents",
                             doc="lookahead: greedy options tried per decision")
    lookahead_beats: int = param(0, low=0, high=40, section="agents",
                                 doc="lookahead: beats played out after the current one (0 = to the end)")


@lru_cache(maxsize=1)
def _defaults() -> AgentParams:
    return AgentParams()


def knobs(params) -> AgentParams:
    """The agent knobs of ``params`` (defaults for a plain SbrParams)."""
    return params if isinstance(params, AgentParams) else _defaults()


# ---------------------------------------------------------------- random
def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random True column of each row (0 where a row has none)."""
    return _pick(mask, rng.random(mask.shape[0]))


_SLOTS = 60                      # divisible by 1..5: every count of options is exact


@lru_cache(maxsize=8)
def _pick_table(width: int) -> np.ndarray:
    """(2**width, 60): for each mask pattern, the column chosen by each of 60
    equal slices of [0, 1)."""
    table = np.zeros((2 ** width, _SLOTS), np.intp)
    for pattern in range(1, 2 ** width):
        cols = [c for c in range(width) if pattern >> c & 1]
        table[pattern] = [cols[j * len(cols) // _SLOTS] for j in range(_SLOTS)]
    return table


def _pick(mask, u):
    """The column of each row's True entries picked by uniform ``u`` (G,)."""
    if mask.shape[1] > 8:                        # wide masks: the k-th True column
        c = mask.cumsum(axis=1)
        return np.argmax(c > (u * c[:, -1]).astype(np.intp)[:, None], axis=1)
    x = mask.view(np.uint8)
    bits = x[:, 0].astype(np.intp)
    for c in range(1, mask.shape[1]):
        bits |= x[:, c].astype(np.intp) << c
    return _pick_table(mask.shape[1]).reshape(-1).take(bits * _SLOTS + (u * _SLOTS).astype(np.intp))


def random_policy(params, state, rider, legal, rng) -> Actions:
    """Uniformly random legal card, spin, seal; break and retrieve at random."""
    u = rng.random((5, state.n_games))
    return Actions(card=_pick(legal["card"], u[0]) + 1, spin=_pick(legal["spin"], u[1]),
                   seal=_pick(legal["seal"], u[2]), brk=u[3] < 0.5, retrieve=(u[4] * 6).astype(np.intp))


# ---------------------------------------------------------------- greedy
def greedy_values(params, state, rider, legal, games=None, brk=False, first=None):
    """(n, K) greedy value of every (card, spin) option of
    :func:`engine.option_list` (-inf if illegal), for the games ``games``
    (default all; ``rider`` (n,)) and breaking seals or not.  Only the legal
    options are evaluated."""
    kn = knobs(params)
    card_k, _ = engine.option_list(params.max_spin_per_beat)
    if games is None and not brk and not params.heart_passes_seals and first is not None:
        return _dense_values(params, kn, state, rider, legal, first)
    lc, ls = legal["card"], legal["spin"]
    if games is not None:
        lc, ls = lc[games], ls[games]
    ok = (lc[:, :, None] & ls[:, None, :]).reshape(lc.shape[0], -1)
    out = engine.options(params, state, rider, brk, games=games, first=first, mask=ok)
    games = np.arange(state.n_games) if games is None else games
    i, k = out["row"], out["option"]
    fi = (games * state.pos.shape[1] + rider)[i]
    pos = state.pos.reshape(-1)[fi].astype(np.float32)
    held = state.spin.reshape(-1)[fi].astype(np.float32)
    kind = out["relic"]
    v = _base_value(params, kn, out["end"], pos, kind, out["spin"], held, out["tax"], k)
    skull = np.nonzero(kind == SKULL)[0]
    if skull.size:
        v[skull] += np.float32(kn.greedy_card) * _card_back(params, state, fi[skull], card_k[k[skull]])
    v = _rank_terms(params, kn, state, games, rider, i, out["end"], v)
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
    return (f32(kn.greedy_move) * (end - pos) + f32(kn.greedy_relic) * points[kind]
            + f32(kn.greedy_spin) * (spin - held) - f32(kn.greedy_tax) * tax
            - (kn.greedy_card * card_k).astype(f32)[k])


@lru_cache(maxsize=32)
def _value_table(params):
    """:func:`_base_value` of every entry of :func:`engine.option_table`
    (the same float32 arithmetic): (L+1, H, K, 6) and the end squares."""
    kn = knobs(params)
    ot = engine.option_table(params)
    L1, H, K, _ = ot["end"].shape
    b = lambda a: np.broadcast_to(a, ot["end"].shape)  # noqa: E731
    pos = b(np.arange(L1, dtype=np.float32)[:, None, None, None])
    held = b(np.arange(H, dtype=np.float32)[None, :, None, None])
    k = b(np.arange(K)[None, None, :, None])
    v = _base_value(params, kn, ot["end"], pos, ot["relic"], ot["spin"], held, ot["tax"], k)
    dend = (ot["end"] - np.arange(L1, dtype=np.int16)[:, None, None, None]).astype(np.intp).reshape(-1)
    return dict(value=np.ascontiguousarray(v, np.float32).reshape(-1), dend=dend, J=int(dend.max()) + 1,
                rowk=((np.arange(L1 * H) * K)[:, None] + np.arange(K)) * 6 + 1,
                stop_square=ot["stop_square"].astype(np.intp), K=K, M=5 + params.max_spin_per_beat)


def _dense_values(params, kn, state, rider, legal, first):
    """:func:`greedy_values` of all games at once, no breaking, from the
    tables of :func:`_value_table` (identical values: the same arithmetic,
    done once per table entry); games with a seal that matters within reach
    (``first``) go through the general path."""
    tv = _value_table(params)
    G, R = state.pos.shape
    L1, K = params.length + 1, tv["K"]
    fi = engine._rows(G, R) + rider
    pos = state.pos.reshape(-1).take(fi).astype(np.intp)
    held = state.spin.reshape(-1).take(fi).astype(np.intp)
    sq = tv["stop_square"].take(pos, axis=0)                      # (G, K)
    sq += engine._rows2(G, L1, K)
    kind = state.relic.reshape(-1).take(sq)                        # (G, K) int8 (square 0: never a relic)
    idx = tv["rowk"].take(pos * (params.spin_cap + 1) + held, axis=0)
    idx += kind
    v = tv["value"].take(idx)
    flat = v.reshape(-1)
    skull = np.flatnonzero(kind == SKULL)
    if skull.size:
        card_k, _ = engine.option_list(params.max_spin_per_beat)
        flat[skull] += np.float32(kn.greedy_card) * _card_back(params, state, fi[skull // K], card_k[skull % K])
    beat = state.beat + 1
    if beat in params.segment_ends() or beat == params.beats:
        v = _dense_rank_terms(params, kn, state, rider, pos, tv["dend"].take(idx), v)
    v += _illegal(legal["card"], legal["spin"])
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
    if nc + ns > 14:
        ok = (card[:, :, None] & spin[:, None, :]).reshape(card.shape[0], -1)
        return np.where(ok, np.float32(0), np.float32(-np.inf))
    bits = np.zeros(card.shape[0], np.intp)
    for j, m in enumerate([card[:, c] for c in range(nc)] + [spin[:, c] for c in range(ns)]):
        bits |= m.view(np.uint8).astype(np.intp) << j
    return _illegal_table(nc, ns).take(bits, axis=0)


def _dense_rank_terms(params, kn, state, rider, pos, dend, v):
    """:func:`_rank_terms` for (G, K) options of every game (``dend``: each
    option's end square minus ``pos``).  The rank is a count of the others
    ahead, so each opponent becomes one threshold on the end square (exact:
    the ends are integers and the same float32 projections are compared);
    the terms are tabulated per game and end offset, then looked up."""
    beat = state.beat + 1
    seg_end, last = beat in params.segment_ends(), beat == params.beats
    L = params.length
    G, R = state.pos.shape
    J = _value_table(params)["J"]
    f32 = np.float32
    place = _places(state.order)
    mine = place.reshape(-1).take(engine._rows(G, R) + rider)
    s_me = state.seg_start.reshape(-1).take(engine._rows(G, R) + rider).astype(f32)
    seg_b, fin_b = [], []
    for o in range(R):
        pos_o = state.pos[:, o].astype(f32)
        proj = np.minimum(L, pos_o + f32(kn.greedy_expect) * ((place[:, o] > mine) & (pos_o < L)))
        d_o = proj - state.seg_start[:, o].astype(f32)
        c = np.ceil(d_o)
        a = s_me + c                       # ends below: d_o > d_me; at a: a tie on distance
        me = rider == o
        seg_b.append(a + ((d_o == c) & (proj > a)) - me * f32(1e6))
        fin_b.append(proj - me * f32(1e6))
    e = pos.astype(f32)
    out = v
    for on, bounds, table, w in ((seg_end, seg_b, params.segment_points, kn.greedy_segment),
                                 (last, fin_b, params.final_points, kn.greedy_final)):
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
        out = out + add.reshape(-1).take(engine._rows2(G, J, dend.shape[1]) + dend)
    return out


def _places(order):
    """(G, R) each rider's slot in this beat's order (the inverse of ``order``)."""
    G, R = order.shape
    place = np.empty((G, R), np.int8)
    flat, base = place.reshape(-1), engine._rows(G, R)
    for s in range(R):
        flat[base + order[:, s]] = s
    return place


def _card_back(params, state, fi, cards):
    """The card a skull would bring back (the highest in the discard)."""
    disc = state.discard.reshape(-1, 5)[fi] > 0
    high = np.where(disc.any(axis=1), 5 - np.argmax(disc[:, ::-1], axis=1), 0)
    return np.maximum(high, cards) if params.skull_takes_current else high


def _rank_terms(params, kn, state, games, rider, i, end, v):
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
    place = np.argsort(state.order[games], axis=1)        # place[g, o] = o's slot this beat
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


def _seal_choice(params, kn, state, rider, legal):
    """The seal square with the most expected victims (opponents racing
    behind it, weighted by ``greedy_seal_reach``), if enough and the segment
    has a beat left (seals are cleared at its end)."""
    G, R = state.pos.shape
    if params.seals_per_player == 0 or (state.beat + 1) in params.segment_ends():
        return np.zeros(G, np.intp)
    if R <= 7:
        return _seal_choice_cols(params, kn, state, rider, legal)
    reach = np.asarray(kn.greedy_seal_reach, np.float64)
    d = np.arange(1, params.seal_range + 1)
    pos = state.pos.astype(np.intp)
    me = np.take_along_axis(pos, rider[:, None], axis=1)
    sq = me + (d if params.seal_direction == "ahead" else -d)             # (G, D)
    gap = sq[:, :, None] - pos[:, None, :]                                  # (G, D, R)
    team = np.arange(R) // params.riders_per_player
    opp = (team[None, :] != team[rider][:, None]) & (pos < params.length)
    w = np.where((gap >= 1) & (gap <= reach.size) & opp[:, None, :],
                 reach[np.clip(gap - 1, 0, reach.size - 1)], 0.0).sum(axis=2)
    w = np.where(legal["seal"][:, 1:], w, -1.0)
    best = np.argmax(w, axis=1)
    return np.where(w.max(axis=1) >= kn.greedy_seal_min, best + 1, 0)


@lru_cache(maxsize=32)
def _reach_table(params):
    """Expected victims by gap (square minus the opponent's square) + offset:
    ``greedy_seal_reach`` for gaps 1..n, 0 elsewhere (index 0 always 0)."""
    reach = np.asarray(knobs(params).greedy_seal_reach, np.float64)
    off = params.length + params.seal_range + 1
    table = np.zeros(2 * off + 1)
    table[off + 1:off + 1 + reach.size] = reach
    return table, off


def _seal_choice_cols(params, kn, state, rider, legal):
    """:func:`_seal_choice` as loops over the few squares and riders (the
    same float64 sums in the same order as ``sum(axis=2)`` for up to 7
    riders)."""
    G, R = state.pos.shape
    table, off = _reach_table(params)
    fi = engine._rows(G, R) + rider
    me = state.pos.reshape(-1).take(fi).astype(np.intp)
    team = np.arange(R) // params.riders_per_player
    my_team = team.take(rider)
    pos = [state.pos[:, o].astype(np.intp) for o in range(R)]
    opp = [(my_team != team[o]) & (pos[o] < params.length) for o in range(R)]
    sign = 1 if params.seal_direction == "ahead" else -1
    seal_ok = legal["seal"]
    best_v = best_i = None
    for d in range(1, params.seal_range + 1):
        base = me + (sign * d + off)
        w = np.zeros(G)
        for o in range(R):
            w = w + table.take((base - pos[o]) * opp[o])
        w = np.where(seal_ok[:, d], w, -1.0)
        if best_v is None:
            best_v, best_i = w, np.full(G, d, np.intp)
        else:
            up = w > best_v
            best_i = np.where(up, d, best_i)
            best_v = np.maximum(best_v, w)
    return np.where(best_v >= kn.greedy_seal_min, best_i, 0)


def greedy_policy(params, state, rider, legal, rng=None) -> Actions:
    """Deterministic greedy with full information: the option of highest
    :func:`greedy_values` (ties: smaller card, less spin, no break); breaking
    is tried where a seal lies within reach and the rider can pay."""
    rider = np.asarray(rider, np.intp)
    G = state.n_games
    card_k, spin_k = engine.option_list(params.max_spin_per_beat)
    first = engine.seal_ahead(params, state, rider)
    val = greedy_values(params, state, rider, legal, first=first)
    best = np.argmax(val, axis=1)
    brk = np.zeros(G, bool)
    held = state.spin.reshape(-1)[np.arange(G) * state.pos.shape[1] + rider]
    need = legal["acting"] & (held >= params.seal_break_cost) & (first <= 5 + params.max_spin_per_beat)
    if need.any():
        gs = np.nonzero(need)[0]
        vb = greedy_values(params, state, rider[gs], legal, games=gs, brk=True, first=first[gs])
        better = vb.max(axis=1) > val[gs].max(axis=1)
        best[gs[better]] = np.argmax(vb[better], axis=1)
        brk[gs[better]] = True
    seal = _seal_choice(params, knobs(params), state, rider, legal)
    return Actions(card=card_k[best], spin=spin_k[best], seal=seal, brk=brk, retrieve=np.zeros(G, np.intp))


# ---------------------------------------------------------------- lookahead
def lookahead_policy(params, state, rider, legal, rng=None) -> Actions:
    """Policy improvement over the greedy: its ``lookahead_k`` best options
    (ties and breaking as the greedy; the greedy's seal), each played out
    with every rider greedy to the end of the game (or ``lookahead_beats``
    beats after this one); the option with the best margin (own points minus
    the best opponent's, final points counted by the squares reached) is
    played, ties to the greedy's order.  Full information makes a play-out
    deterministic, so one play-out per option suffices."""
    kn = knobs(params)
    rider = np.asarray(rider, np.intp)
    base = greedy_policy(params, state, rider, legal)
    ga = np.nonzero(legal["acting"])[0]
    if ga.size == 0 or kn.lookahead_k == 1:
        return base
    card_k, spin_k = engine.option_list(params.max_spin_per_beat)
    val = greedy_values(params, state, rider[ga], legal, games=ga)
    k = min(kn.lookahead_k, val.shape[1])
    top = np.argsort(-val, axis=1, kind="stable")[:, :k]             # (n, k)
    valid = np.take_along_axis(val, top, axis=1) > -np.inf
    top = np.where(valid, top, top[:, :1])
    first = np.argmax(base.card[ga, None] * 100 + base.spin[ga, None] ==
                      card_k[top] * 100 + spin_k[top], axis=1)          # the greedy's pick among them
    reps = np.repeat(ga, k)
    sim = state.take(reps)
    n = reps.size
    acts = Actions(card=card_k[top].reshape(-1), spin=spin_k[top].reshape(-1),
                   seal=base.seal[reps], brk=base.brk[reps] & (top == top[:, :1]).reshape(-1),
                   retrieve=np.zeros(n, np.intp))
    slot = int(engine.slot_of(state, rider)[ga[0]])
    engine.act(params, sim, acts, slot, inplace=True)
    _play_out(params, sim, slot + 1, kn.lookahead_beats)
    margin = _margin(params, sim, rider[reps] // params.riders_per_player).reshape(-1, k)
    margin = np.where(valid, margin, -np.inf)
    margin[np.arange(ga.size), first] += 1e-6        # ties: the greedy's own choice
    choice = top[np.arange(ga.size), np.argmax(margin, axis=1)]
    card, spin = base.card.copy(), base.spin.copy()
    card[ga], spin[ga] = card_k[choice], spin_k[choice]
    brk = base.brk.copy()
    brk[ga] &= choice == top[np.arange(ga.size), first]
    return Actions(card=card, spin=spin, seal=base.seal, brk=brk, retrieve=base.retrieve)


def _play_out(params, st, slot, beats):
    """Finish the current beat from ``slot`` and play ``beats`` more (0: to
    the end), every rider greedy."""
    R = st.pos.shape[1]
    last = params.beats if beats == 0 else min(params.beats, st.beat + 1 + beats)
    while True:
        for s in range(slot, R):
            rider = st.order[:, s].astype(np.intp)
            lg = engine.legal(params, st, rider)
            if lg["acting"].any():
                engine.act(params, st, greedy_policy(params, st, rider, lg), s, inplace=True)
        engine.end_beat(params, st, inplace=True)
        if st.beat >= last:
            return
        engine.begin_beat(params, st, inplace=True)
        slot = 0


def _margin(params, st, player):
    """Points so far plus final points by the squares reached, own minus the
    best opponent's."""
    res = engine.result(params, st)
    score = res["score"].astype(np.float64)
    if st.beat < params.beats:
        P, k = st.n_players, params.riders_per_player
        score = score + res["final_points"].reshape(-1, P, k).sum(axis=2)
    own = np.take_along_axis(score, player[:, None], axis=1)[:, 0]
    other = np.where(np.arange(score.shape[1])[None, :] == player[:, None], -np.inf, score).max(axis=1)
    return own - (other if score.shape[1] > 1 else 0.0)


# ---------------------------------------------------------------- custom agents
@dataclasses.dataclass
class View:
    """One game as a custom agent sees it (full information, plain Python).

    ``me`` the acting rider; ``pos``, ``spin``, ``seals_left``, ``relics`` per
    rider; ``hand`` card counts for values 1..5; ``beat`` (1-based);
    ``board`` terrain codes by square; ``relic`` relic type by square (-1
    none); ``seal`` seal owner by square (-1 none); ``cards``, ``spins``,
    ``seals`` the legal choices.  ``preview(card, spin=0, brk=False)`` is the
    engine's :func:`engine.outcome` for this rider: a dict of stop, end,
    spin, tax, hits, relic."""

    me: int
    pos: list
    spin: list
    seals_left: list
    relics: list
    hand: list
    beat: int
    board: list
    relic: list
    seal: list
    cards: list
    spins: list
    seals: list
    preview: object


def from_function(fn):
    """Wrap ``fn(view: View) -> (card, spin, seal, brk)`` (a tuple, shorter
    tuples take spin 0, no seal, no break; or a dict with those keys and
    ``retrieve``) as a batch policy.  Slow (a Python call per game), for
    trying an idea in a notebook::

        def fives_first(v):
            return (max(v.cards), max(v.spins))
        policy = agents.from_function(fives_first)
        engine.play(params, [policy, agents.greedy_policy], 200, rng)

    A choice outside the legal ones is an error naming it."""
    def policy(params, state, rider, legal, rng=None) -> Actions:
        G = state.n_games
        out = dict(card=np.ones(G, np.intp), spin=np.zeros(G, np.intp), seal=np.zeros(G, np.intp),
                   brk=np.zeros(G, bool), retrieve=np.zeros(G, np.intp))
        for g in np.nonzero(legal["acting"])[0]:
            view = _view(params, state, int(g), int(rider[g]), legal)
            got = fn(view)
            got = dict(zip(("card", "spin", "seal", "brk", "retrieve"), got)) if isinstance(got, tuple) else got
            for key, value in got.items():
                if key not in out:
                    raise GamelabError(f"custom agent returned unknown key {key!r}")
                out[key][g] = value
            for key, allowed in (("card", view.cards), ("spin", view.spins), ("seal", view.seals)):
                if out[key][g] not in allowed:
                    raise GamelabError(f"custom agent chose {key} {out[key][g]} in game {g}, "
                                       f"beat {view.beat}: legal are {allowed}")
        return Actions(**out)
    policy.__name__ = getattr(fn, "__name__", "custom")
    return policy


def _view(params, state, g, r, legal) -> View:
    def preview(card, spin=0, brk=False):
        o = engine.outcome(params, state, np.array([r]), np.array([[card]]), np.array([[spin]]), brk,
                           games=np.array([g]))
        return {k: int(v[0, 0]) for k, v in o.items()}
    return View(me=r, pos=state.pos[g].tolist(), spin=state.spin[g].tolist(),
                seals_left=state.seals_left[g].tolist(), relics=state.relic_n[g].tolist(),
                hand=state.hand[g, r].tolist(), beat=state.beat + 1, board=list(params.board),
                relic=state.relic[g].tolist(), seal=state.seal[g].tolist(),
                cards=[v + 1 for v in range(5) if legal["card"][g, v]],
                spins=[s for s in range(legal["spin"].shape[1]) if legal["spin"][g, s]],
                seals=[d for d in range(legal["seal"].shape[1]) if legal["seal"][g, d]], preview=preview)
