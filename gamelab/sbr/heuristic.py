"""STEEL BALL RUN greedy agent (``docs/agents.md``), compiled.

The rulebook's "deterministic greedy, full information" AI (appendix A),
with our objective: every legal (card, spin) option is valued by what the
rules' own move says it does (:func:`gamelab.sbr.kernel.move`: squares
gained, relic points of 5.4, spin held, cards kept, terrain tax of 4.2),
plus, on a scoring beat, the segment (6.2) and final (6.3) points its end
square would earn against the others' projected squares; breaking a seal
(5.3) is tried where one lies within reach; a seal goes where it catches the
most opponents (5.3, cleared at the segment's end, 6.2).  Knobs:
:class:`~gamelab.sbr.agent_params.AgentParams`.

One implementation, compiled (numba, the kernel's group): :func:`greedy`
decides for one rider of one game; the batch policy (:func:`greedy_policy`)
and the search's play-outs (:mod:`gamelab.sbr.search`) call it.
``reference.greedy_choice`` is the plain version the tests hold it to.

Float arithmetic: the values are float32, step by step (a skull's card added
in float64 and rounded once; under ``heart_passes_seals`` the whole sum in
float64, rounded at the end), the seal's expected victims float64 summed in
seat order; ties go to the first option (smaller card, less spin), no break.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .agent_params import knobs
from .kernel import (
    RELIC_CODES,
    arrays_of,
    card_playable,
    entry,
    first_seal,
    inline,
    jit,
    moves_of,
    rules_of,
    seal_allowed,
    spin_affordable,
    walk,
)
from .options import option_list
from .rules import N_VALUES, SKULL
from .state import Actions


class Values(NamedTuple):
    """The greedy's numbers derived from its knobs (:func:`values_of`)."""

    table: np.ndarray  # (L+1, H, K, RELIC_CODES) float32: an option's value where no seal lies on the way
    card_cost: np.ndarray  # (6,) float32: float32(greedy_card * card) by card value
    relic_value: np.ndarray  # (5,) float32 relic_points, index 4 (unknown) and -1 (none) worth 0
    reach: np.ndarray  # float64 expected victims of a seal by gap + L + seal_range + 1 (index 0: 0)


class Scratch(NamedTuple):
    """Buffers of one greedy decision (:func:`scratch`)."""

    val: np.ndarray  # (K,) float32 the values without breaking
    vb: np.ndarray  # (K,) float32 the values breaking
    removed: np.ndarray  # (2 L + 2,) int64 squares of seals taken off
    proj: np.ndarray  # (R,) float32 the others' projected squares (:func:`_projections`)
    dproj: np.ndarray  # (R,) float64 their segment distances


def scratch(kp, n_riders: int) -> Scratch:
    return Scratch(
        np.zeros(kp.K, np.float32),
        np.zeros(kp.K, np.float32),
        np.zeros(2 * kp.L + 2, np.int64),
        np.zeros(n_riders, np.float32),
        np.zeros(n_riders, np.float64),
    )


@lru_cache(maxsize=32)
def values_of(params) -> Values:
    """:class:`Values` of ``params`` (the knobs' defaults if a plain SbrParams)."""
    kn = knobs(params)
    kp, tb = rules_of(params), moves_of(params)
    off = params.length + params.seal_range + 1
    reach = np.zeros(2 * off + 1)
    reach[off + 1 : off + 1 + len(kn.greedy_seal_reach)] = kn.greedy_seal_reach
    gv = Values(
        np.zeros(tb.end.shape, np.float32),
        (kn.greedy_card * np.arange(N_VALUES + 1)).astype(np.float32),
        np.array([*params.relic_points, 0], np.float32),
        reach,
    )
    _fill_table(kp, tb, gv)
    return gv


@jit
def _base32(kp, gv, pos, held, card, end, spin, tax, kind):
    """An option's value before a skull's card and the ranks (float32 steps)."""
    f32 = np.float32
    return (
        kp.greedy_move * (f32(end) - f32(pos))
        + kp.greedy_relic * gv.relic_value[kind]  # kind -1: the appended 0
        + kp.greedy_spin * (f32(spin) - f32(held))
        - kp.greedy_tax * f32(tax)
        - gv.card_cost[card]
    )


@entry
def _fill_table(kp, tb, gv):
    """``gv.table``: :func:`_base32` of every entry of the kernel's :class:`~gamelab.sbr.kernel.Moves`."""
    for pos in range(kp.L + 1):
        for held in range(tb.end.shape[1]):
            for k in range(kp.K):
                stop = tb.raw_stop[pos, k]
                for code in range(RELIC_CODES):
                    kind = code - 1 if stop >= 0 else -1
                    end, spin = tb.end[pos, held, k, code], tb.spin[pos, held, k, code]
                    card = k // kp.S1 + 1
                    gv.table[pos, held, k, code] = _base32(kp, gv, pos, held, card, end, spin, tb.raw_tax[pos, k], kind)


@jit
def _value32(kp, v, kind, back, seg_end, seg_rank, last, fin_rank):
    """One option's value from its base value ``v``: a skull's card (float32
    plus a float32 times an int: added in float64, rounded once), the rank terms."""
    f32 = np.float32
    if kind == SKULL:
        v = f32(np.float64(v) + np.float64(kp.greedy_skull_card) * back)
    if seg_end:
        v = v + kp.greedy_segment * f32(kp.segment_points[seg_rank])
    if last:
        v = v + kp.greedy_final * f32(kp.final_points[fin_rank])
    return v


@jit
def _value64(kp, gv, pos, held, card, end, spin, tax, kind, back, seg_end, seg_rank, last, fin_rank):
    """:func:`_value32` under ``heart_passes_seals``: the sum in float64, rounded to float32 at the end."""
    f64 = np.float64
    v = (
        f64(kp.greedy_move) * (f64(end) - f64(np.float32(pos)))
        + f64(kp.greedy_relic * gv.relic_value[kind])
        + f64(kp.greedy_spin) * (f64(spin) - f64(np.float32(held)))
        - f64(tax) * f64(kp.greedy_tax)
        - f64(gv.card_cost[card])
    )
    if kind == SKULL:
        v = v + f64(kp.greedy_skull_card) * back
    if seg_end:
        v = v + f64(kp.greedy_segment * np.float32(kp.segment_points[seg_rank]))
    if last:
        v = v + f64(kp.greedy_final * np.float32(kp.final_points[fin_rank]))
    return np.float32(v)


@jit
def _card_back(kp, A, g, r, card):
    """The card a skull would bring back (the highest in the discard; the card
    played this beat too under ``skull_takes_current``)."""
    high = 0
    for c in range(N_VALUES - 1, -1, -1):
        if A.discard[g, r, c] > 0:
            high = c + 1
            break
    return max(high, card) if kp.skull_takes_current else high


@jit
def _projections(kp, A, g, r, proj, dproj):
    """The others as a scoring beat's ranks see them, once per rider's values:
    ``proj`` (R,) float32 each one's square, ``greedy_expect`` more for those
    still to act this beat, and ``dproj`` (R,) float64 his segment distance,
    by slot; returns rider ``r``'s slot."""
    R = A.pos.shape[1]
    f32 = np.float32
    mine = 0
    for s in range(R):
        if A.order[g, s] == r:
            mine = s
    for s in range(R):
        o = A.order[g, s]
        po = f32(A.pos[g, o])
        later = s > mine and A.pos[g, o] < kp.L
        proj[s] = min(f32(kp.L), po + kp.greedy_expect * f32(later))
        dproj[s] = np.float64(proj[s] - f32(A.seg_start[g, o]))
    return mine


@jit
def _ranks(kp, A, g, r, end, mine, proj, dproj):
    """The segment and final rank end square ``end`` would give against the
    others' projections (:func:`_projections`)."""
    R = A.pos.shape[1]
    d_me = np.float64(end) - np.float64(np.float32(A.seg_start[g, r]))
    seg_rank, fin_rank = 0, 0
    for s in range(R):
        if s == mine:
            continue
        ahead = proj[s] > end
        if dproj[s] > d_me or (dproj[s] == d_me and ahead):
            seg_rank += 1
        if ahead:
            fin_rank += 1
    return seg_rank, fin_rank


@inline
def values(kp, tb, gv, A, g, r, beat, brk, first, val, w):
    """``val`` (K,) float32: the value of every (card, spin) option of rider
    ``r`` in game ``g`` (-inf where the card is not held or the spin not
    affordable), breaking seals or not.  ``first``: the kernel's
    :func:`~gamelab.sbr.kernel.first_seal`.  An option whose move stops
    short of the first seal reads :class:`Values`' table (the same float32
    steps, done once per entry); the others walk."""
    S1 = kp.S1
    pos = np.int64(A.pos[g, r])
    held = np.int64(A.spin[g, r])
    beat1 = beat + 1
    seg_end = kp.segment_of_beat[beat1] >= 0
    last = beat1 == kp.beats
    mine = _projections(kp, A, g, r, w.proj, w.dproj) if seg_end or last else 0
    for c in range(N_VALUES):  # option k = c * S1 + s (cards major; no division per option)
        card = c + 1
        have = card_playable(kp, A, g, r, np.int64(c))
        for s in range(S1):
            k = c * S1 + s
            if not have or not spin_affordable(kp, A, g, r, np.int64(s)):
                val[k] = -np.inf
                continue
            if not kp.heart_passes_seals and tb.raw_end[pos, k] - pos < first:  # no seal on the way
                kind = np.int64(A.relic[g, tb.stop_square[pos, k]])  # square 0 (no stop) holds none
                end = tb.end[pos, held, k, kind + 1]
                base = gv.table[pos, held, k, kind + 1]
                spin, tax = 0, 0  # read only by the float64 values, which always walk
            else:
                _, end, tax, spin, _, kind, _ = walk(
                    kp, A, g, r, pos, card + s, card >= kp.big_card, brk, held - s, w.removed
                )
                base = _base32(kp, gv, pos, held, card, end, spin, tax, kind)
            seg_rank, fin_rank = _ranks(kp, A, g, r, end, mine, w.proj, w.dproj) if seg_end or last else (0, 0)
            back = _card_back(kp, A, g, r, card) if kind == SKULL else 0
            if kp.heart_passes_seals:
                val[k] = _value64(
                    kp, gv, pos, held, card, end, spin, tax, kind, back, seg_end, seg_rank, last, fin_rank
                )
            else:
                val[k] = _value32(kp, base, kind, back, seg_end, seg_rank, last, fin_rank)
    return val


@inline
def seal_choice(kp, gv, A, g, r, beat):
    """The seal distance with the most expected victims (opponents racing
    behind it, weighted by ``greedy_seal_reach``), 0 for none: if enough
    (``greedy_seal_min``) and the segment has a beat left (seals are cleared
    at its end)."""
    R = A.pos.shape[1]
    if kp.seals_per_player == 0 or kp.segment_of_beat[beat + 1] >= 0:
        return 0
    me = A.pos[g, r]
    off = kp.L + kp.seal_range + 1
    best_v, best_i = 0.0, 0
    for d in range(1, kp.seal_range + 1):
        base = me + kp.seal_sign * d + off
        w = 0.0
        for o in range(R):
            opp = kp.team[o] != kp.team[r] and A.pos[g, o] < kp.L
            w = w + gv.reach[(base - A.pos[g, o]) * opp]
        if not seal_allowed(kp, A, g, r, d):
            w = -1.0
        if d == 1 or w > best_v:  # the first of the largest
            best_v, best_i = w, d
    return best_i if best_v >= kp.greedy_seal_min else 0


@inline
def _argmax(val):
    """The first index of the largest entry (np.argmax)."""
    best = 0
    for k in range(1, val.size):
        if val[k] > val[best]:
            best = k
    return best


@inline
def greedy(kp, tb, gv, A, g, r, beat, w):
    """Rider ``r``'s choice in game ``g``: (option, seal distance, break).  The
    option of highest value (ties: smaller card, less spin); breaking (5.3)
    is tried where a seal lies within reach and the rider can pay, and
    chosen if its best value beats not breaking by more than
    ``greedy_break_margin``.  The values without breaking are left in ``w.val``."""
    first = first_seal(kp, A, g, r)
    tries = 2 if A.pos[g, r] < kp.L and A.spin[g, r] >= kp.seal_break_cost and first <= kp.M else 1
    for t in range(tries):  # without breaking into w.val, then breaking into w.vb (one copy of the values' code)
        values(kp, tb, gv, A, g, r, beat, t == 1, first, w.vb if t else w.val, w)
    best = _argmax(w.val)
    brk = False
    if tries == 2:
        bb = _argmax(w.vb)
        if w.vb[bb] > w.val[best] + kp.greedy_break_margin:
            best, brk = bb, True
    return best, seal_choice(kp, gv, A, g, r, beat), brk


@jit
def greedy_once(kp, tb, gv, A, g, r, beat, w):
    """:func:`greedy`, called (where a decision is not in a hot loop)."""
    return greedy(kp, tb, gv, A, g, r, beat, w)


@entry
def _greedy_games(kp, tb, gv, A, rider, acting, beat, w, out):
    """:func:`greedy` of rider ``rider[g]`` in every acting game: ``out`` (G, 3) option, seal, break."""
    for g in range(A.pos.shape[0]):
        if acting[g]:
            out[g, 0], out[g, 1], out[g, 2] = greedy(kp, tb, gv, A, g, np.int64(rider[g]), beat, w)


@entry
def _values_games(kp, tb, gv, A, games, rider, beat, w, out):
    """The values (without breaking) of rider ``rider[i]`` in game ``games[i]`` into ``out[i]``."""
    for i in range(games.size):
        greedy_once(kp, tb, gv, A, games[i], np.int64(rider[i]), beat, w)
        for k in range(w.val.size):
            out[i, k] = w.val[k]


def greedy_policy(params, state, rider, legal, rng=None) -> Actions:
    """Deterministic greedy with full information (:func:`greedy`) for the
    rider ``rider[g]`` of every game where ``legal.acting`` (elsewhere card 1,
    no spin, no seal, no break)."""
    kp = rules_of(params)
    G = state.n_games
    out = np.zeros((G, 3), np.int64)
    acting = np.asarray(legal.acting, np.bool_)
    if acting.any():
        A, w = arrays_of(state), scratch(kp, state.pos.shape[1])
        rider = np.asarray(rider, np.int64)
        _greedy_games(kp, moves_of(params), values_of(params), A, rider, acting, state.beat, w, out)
    card_k, spin_k = option_list(params.max_spin_per_beat)
    return Actions(card_k[out[:, 0]], spin_k[out[:, 0]], out[:, 1], out[:, 2] > 0, np.zeros(G, np.intp))


def greedy_values(params, state, rider, games=None) -> np.ndarray:
    """(n, K) the greedy's value of every (card, spin) option of
    :func:`~gamelab.sbr.options.option_list` for rider ``rider[i]`` (n,) in
    game ``games[i]`` (default: every game), without breaking seals; -inf
    where the option is not legal."""
    kp = rules_of(params)
    games = np.arange(state.n_games) if games is None else np.asarray(games, np.int64)
    out = np.zeros((games.size, kp.K), np.float32)
    if games.size:
        A, w = arrays_of(state), scratch(kp, state.pos.shape[1])
        rider = np.asarray(rider, np.int64)
        _values_games(kp, moves_of(params), values_of(params), A, games, rider, state.beat, w, out)
    return out
