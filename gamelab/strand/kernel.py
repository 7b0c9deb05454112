"""STRAND compiled pieces: the hot loops of a batch step.

The batch engine's and table model's numpy code is the reference; these
numba loops compute the same arrays, value for value, for the pieces whose
numpy form is many calls per step, which dominate the search agent's
play-outs (``search.py``: thousands of rows a step, a quarter of a step's
time the calls themselves): the refill (:func:`refill`,
``cards.refill_batch``: a loop of one-card draws over the seats, each a
dozen numpy calls), the negotiation's matching (:func:`match`,
``heuristic.Table.match_batch``: some 130 numpy calls) and the reneging
(:func:`renege`, ``heuristic.Table.renege_batch``).  The refill loops game by
game; the matching and the reneging keep the games as the innermost loop
over seat-major arrays, so the compiler vectorizes them as numpy would,
without a pass per call (a game-by-game matching ran at 1.7x numpy's time).
Nothing here draws a random number: the callers pass the same uniforms in
the same order, so every result is bit-identical by construction.
``tests/test_strand_kernel.py`` holds each function to the numpy code it
replaces on random states under every rule reading that reaches it.

Float arithmetic keeps the numpy dtypes step by step (float32 keys, an
int16 card count times the draw's own float type), so ties and truncations
fall the same way.  The compiled code is cached on disk (:data:`GROUP`,
``core.compiled``); :func:`warm` compiles it, for ``python -m
gamelab.core.compiled`` (the Makefile's install runs it; its time from an
empty cache: docs/performance.md, "Compile time and the first make
report").  Without numba the numpy code runs (:data:`COMPILED` is False).
"""

from __future__ import annotations

import numpy as np

from gamelab.core.compiled import COMPILED as COMPILED  # the callers ask kernel.COMPILED (tests switch it)
from gamelab.core.compiled import Group

from .state import N_VALUES

#: the compiled functions of this module, cached on disk (``core.compiled``); ``COMPILED`` False: numpy plays
GROUP = Group("gamelab.strand.kernel")


# --- 6.2 step 1: the refill (cards.refill_batch) ---------------------------------
@GROUP.entry
def _refill(hand, limit, deck, discard, draws, live):
    """Each live game's seats in turn fill up to their limits; card k of seat s
    drawn with ``draws[g, s, k]`` (``reference.draw_card``): the r-th card in
    value order of the deck, r = floor(u x cards left); an empty deck takes
    the discards back before and after each draw.  In place; False (and
    stopped) where a seat needs more cards than ``draws`` has uniforms."""
    G, P = limit.shape
    for g in range(G):
        if not live[g]:
            continue
        total = 0  # cards left in the deck
        for v in range(N_VALUES):
            total += deck[g, v]
        for s in range(P):
            held = 0
            for v in range(N_VALUES):
                held += hand[g, s, v]
            need = limit[g, s] - held
            if need > draws.shape[2]:  # more cards than uniforms: the caller raises (numpy's IndexError)
                return False
            for k in range(need):
                total = _reshuffle(deck, discard, g, total)
                # the r-th card in value order; u x total in u's float type (total int16, as cards.rowsum)
                r = int(draws[g, s, k] * np.int16(total))
                c = 0
                v = 0  # values lying wholly below the r-th card
                for w in range(N_VALUES - 1):
                    c += deck[g, w]
                    v += c <= r
                deck[g, v] -= 1
                hand[g, s, v] += 1
                total = _reshuffle(deck, discard, g, total - 1)
    return True


@GROUP.jit
def _reshuffle(deck, discard, g, total):
    """Game ``g``'s discards back into its empty deck; its new card count."""
    if total != 0:
        return total
    total = 0
    for v in range(N_VALUES):
        deck[g, v] += discard[g, v]
        discard[g, v] = 0
        total += deck[g, v]
    return total


def refill(st, draws, live=None):
    """``cards.refill_batch`` compiled: same arguments, same arrays after."""
    flags = np.ones(st.n_games, np.bool_) if live is None else np.ascontiguousarray(live, np.bool_)
    if not _refill(st.hand, st.limit, st.deck, st.discard, draws, flags):
        raise IndexError(f"refill: a seat needs more cards than the {draws.shape[2]} uniforms per seat given")


# --- steps 3-4: the negotiation's matching (heuristic.Table.match_batch) ---------------
@GROUP.jit
def _earlier(key, prio, best_key, best_prio):
    """A pair's (key, priority) comes before the best so far: a smaller key, or an
    equal key and a smaller priority (the speaking order's, ``heuristic.pair_order``)."""
    return key < best_key or (key == best_key and prio < best_prio)


@GROUP.entry
def _match(U, talks_t, accept, I, J, prio, dead, live, rank_weight, key, rank, best, bprio, b, partner):
    """Greedy mutual-preference matching over the seat-major ``U`` (P,P,G),
    as ``Table.match_batch`` step by step: each pair's key (the two ranks,
    then the utilities; refused pairs dead), then up to P // 2 rounds of
    the smallest live key per game (among equal keys the smallest ``prio``
    (pairs,G): the speaking order's tie-break), its seats taken.  ``partner``
    (P,G) agreed seat or -1; ``key`` (pairs,G), ``rank``, ``best``, ``bprio``,
    ``b`` (G,) scratch.  The games are the innermost loop everywhere (long
    contiguous rows: the compiler vectorizes them)."""
    P, _, G = U.shape
    n = I.shape[0]
    for q in range(n):
        i, j = I[q], J[q]
        for g in range(G):
            rank[g] = 0
        for k in range(P):  # rank = how many partners one likes better
            for g in range(G):
                rank[g] += (U[i, k, g] > U[i, j, g]) + (U[j, k, g] > U[j, i, g])
        for g in range(G):
            uij, uji = U[i, j, g], U[j, i, g]
            ok = (uij > accept) & (uji > accept) & talks_t[i, g] & talks_t[j, g]
            key[q, g] = np.float32(rank[g]) * rank_weight - (uij + uji) + dead * np.float32(not ok)
    for s in range(P):
        for g in range(G):
            partner[s, g] = -1
    for _ in range(P // 2):
        for g in range(G):
            best[g], bprio[g], b[g] = key[0, g], prio[0, g], 0
        for q in range(1, n):  # the first key in (key, speaking order)
            for g in range(G):
                if _earlier(key[q, g], prio[q, g], best[g], bprio[g]):
                    best[g], bprio[g], b[g] = key[q, g], prio[q, g], q
        n_good = 0
        for g in range(G):
            good = best[g] < live
            n_good += good
            b[g] = b[g] if good else n  # n: no pair chosen in that game
        if n_good == 0:
            break
        for g in range(G):
            q = b[g]
            if q < n:
                partner[I[q], g], partner[J[q], g] = J[q], I[q]
        for q in range(n):  # every pair with a seat taken is dead
            i, j = I[q], J[q]
            for g in range(G):
                key[q, g] += dead * np.float32((partner[i, g] >= 0) | (partner[j, g] >= 0))


def match(U, talks_t, accept, pairs, prio, dead, live, rank_weight):
    """``heuristic.Table.match_batch`` compiled: (P,G) agreed partner or -1 (seat-major);
    ``prio`` (pairs,G) the order among pairs of equal keys (smaller first)."""
    P, _, G = U.shape
    I, J = (np.ascontiguousarray(a, np.int64) for a in pairs)
    partner = np.empty((P, G), np.int8)
    key, rank = np.empty((len(I), G), np.float32), np.empty(G, np.int64)
    best, bprio, b = np.empty(G, np.float32), np.empty(G, np.float32), np.empty(G, np.int64)
    prio = np.ascontiguousarray(prio, np.float32)
    _match(U, talks_t, np.float32(accept), I, J, prio, dead, live, rank_weight, key, rank, best, bprio, b, partner)
    return partner


# --- step 3: the reneging (heuristic.Table.renege_batch) ------------------------------
STAY_PUT, BETTER_OR_STAY, BEST_ALTERNATIVE = 0, 1, 2  # renege_to, as heuristic.RENEGE_TO orders it


@GROUP.entry
def _renege(U, mate, reneg, stay, accept, shun, how, tie, rope):
    """(P,G) ``rope``: each seat's agreed partner (``mate``, -1 none: stay);
    a reneger (``reneg``) stays (``how`` STAY_PUT) or points at its best other
    seat by ``U`` (among equals the largest ``tie`` (P,P,G) uniform: at random)
    if acceptable (BEST_ALTERNATIVE), and only if it beats the agreed partner
    (BETTER_OR_STAY), else stays."""
    P, _, G = U.shape
    for i in range(P):
        for g in range(G):
            m = mate[i, g]
            r = m if (m >= 0 and not reneg[i, g]) else stay
            if m >= 0 and reneg[i, g] and how != STAY_PUT:
                alt_u, alt_t, alt = U[i, 0, g] - shun * np.float32(m == 0), tie[i, 0, g], 0
                for k in range(1, P):
                    u = U[i, k, g] - shun * np.float32(m == k)
                    if u > alt_u or (u == alt_u and tie[i, k, g] > alt_t):
                        alt_u, alt_t, alt = u, tie[i, k, g], k
                if alt_u > accept and (how == BEST_ALTERNATIVE or alt_u > U[i, m, g]):
                    r = alt
            rope[i, g] = r


def renege(U, mate, reneg, stay, accept, shun, how, tie):
    """``heuristic.Table.renege_batch`` compiled: (P,G) rope codes; ``how`` a STAY_PUT.. code;
    ``tie`` (P,P,G) uniforms breaking ties among equally good alternatives."""
    rope = np.empty(mate.shape, np.int8)
    tie = np.ascontiguousarray(tie, np.float32)
    _renege(U, mate, reneg, int(stay), np.float32(accept), np.float32(shun), int(how), tie, rope)
    return rope


def warm() -> None:
    """Compile every function once (or load it from the on-disk cache) for
    both draw types (float64 deals, float32 refills): :data:`GROUP`'s warm."""
    G, P = 2, 4
    for dtype in (np.float32, np.float64):
        hand, discard = np.zeros((G, P, N_VALUES), np.int8), np.zeros((G, N_VALUES), np.int8)
        deck = np.full((G, N_VALUES), 12, np.int8)
        _refill(hand, np.full((G, P), 3, np.int8), deck, discard, np.zeros((G, P, 3), dtype), np.ones(G, np.bool_))
    U = np.zeros((P, P, G), np.float32)
    pairs = np.triu_indices(P, 1)
    prio = np.zeros((len(pairs[0]), G), np.float32)
    match(U, np.ones((P, G), np.bool_), 0.0, pairs, prio, np.float32(1e30), np.float32(1e29), np.float32(1e3))
    renege(U, np.zeros((P, G), np.int8), np.ones((P, G), np.bool_), P, 0.0, 1e10, BEST_ALTERNATIVE, U)
