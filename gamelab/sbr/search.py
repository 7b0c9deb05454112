"""STEEL BALL RUN lookahead agents (``docs/agents.md``), compiled.

Policy improvement over the greedy (:mod:`gamelab.sbr.heuristic`): its
``lookahead_k`` best options, each played out by the rules (section 6.2
beats, 6.3 final points by the squares reached) with every rider greedy;
the best margin wins (:func:`lookahead_policy`).  :func:`deep_policy` is the
same search with every play-out rider playing as the lookahead for the
next beat (a stronger rung of the skill ladder).

The search is written once, here, compiled (numba, the kernel's group): one
game at a time, its play-outs calling the kernel's turn and beat
(:func:`~gamelab.sbr.kernel.act`, :func:`~gamelab.sbr.kernel.end_beat`,
:func:`~gamelab.sbr.kernel.begin_beat`) and the greedy
(:func:`~gamelab.sbr.heuristic.greedy`).  The batch policies ask
:func:`search_actions` for the decision of every acting game;
:func:`play_games` plays whole games of greedy, lookahead and deep seats.
``tests/test_sbr_search.py`` holds it to a plain search written on the
engine's own calls.

A play-out is deterministic (full information, every chance drawn up
front), so one per option suffices; and a game that has followed a
play-out since the last search knows that play-out's continuation: the
lookahead's greedy option is then that play-out and its margin is read,
not played again (:func:`_lookahead`), as is deep's option equal to the
move its own previous play-out made at this slot (:func:`_deep`).

Why three compiled whole-game loops, not one (issue 42 asked for one loop from
(slot, beat) to a stopping beat, each rider's decision chosen by an agent code):
:func:`_play_games` (the real game, any seating of codes), :func:`_greedy_play_out`
(a lookahead's play-out) and :func:`_mixed_play_out` (deep's play-out: the
lookahead, then greedy).  Written as one function, the loop calls itself through
the searches it runs (the loop -> ``_decide`` -> ``_lookahead`` -> the loop), and
numba compiles such a cycle but cannot link it: the first call aborts with
"numba jitted function aborted due to unresolved symbol" (tried 2026-12-03,
numba's cache and the group's options as here).  Breaking the cycle by argument
types (the loop given ``codes=None`` for a greedy play-out and ``points=None`` for
deep's, so that numba's dead-branch pruning compiles three loops from the one
source, none calling itself) works in a small model of this call graph but still
aborted the same way in this module, after two attempts of about 6 minutes of
compiling each on the loaded machine; the time box ran out.  It would also carry
one inlined copy of the greedy and the turn in each of the three compiled loops,
where today only the greedy play-out has one (the real game and deep's play-out
call the ``_once`` copies): more compile time for no speed.  So the loops stay,
each short, all on the kernel's one turn and beat (``act``, ``end_beat``,
``begin_beat``) and the one greedy.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from gamelab.core import budgets
from gamelab.core.compiled import COMPILED, overload, unroll

from . import heuristic as gr
from .agent_params import AgentParams, knobs
from .kernel import (
    I0,
    I1,
    NO,
    NONE,
    Arrays,
    act,
    act_once,
    arrays_of,
    begin_beat,
    begin_beat_once,
    end_beat,
    end_beat_once,
    entry,
    jit,
    moves_of,
    rank_points,
    rules_of,
    scratch,
)
from .options import option_list
from .state import Actions, State

GREEDY, LOOKAHEAD, DEEP = 0, 1, 2  # agent codes of a rider
AGENT_CODES = {"greedy": GREEDY, "lookahead": LOOKAHEAD, "deep": DEEP}
GREEDY_TIE_BONUS = 1e-6  # added to the greedy's own option's margin: ties go to its choice
LEVELS = 2  # search levels: a decision of the game, a lookahead inside deep's play-outs
ARRAY_INDEX = tuple(range(len(Arrays._fields)))  # the state's arrays, for the compiled copy


class Work(NamedTuple):
    """Scratch of the search, by level where a lookahead runs inside deep's play-outs."""

    top: np.ndarray  # (LEVELS, K) int64 the options searched, the greedy's best first
    order: np.ndarray  # (LEVELS, K) int64 sort scratch
    margin: np.ndarray  # (LEVELS, K) float64 each option's margin
    scores: np.ndarray  # (LEVELS, K, R) int64 the players' points at the end of each option's play-out
    pv: np.ndarray  # (LEVELS, R) int64 the same for the game's known greedy continuation (_lookahead)
    moves: np.ndarray  # (K, R, 2) int64 each deep play-out's moves (option, break) by slot in its first beat
    cmoves: np.ndarray  # (R, 2) int64 the same for deep's continuation (_deep), -1 where none
    cpv: np.ndarray  # (R,) int64 the players' points at the end of deep's continuation
    cbeat: np.ndarray  # (1,) int64 the beat of deep's continuation
    dist: np.ndarray  # (R,) int64 beat-end scratch
    pts: np.ndarray  # (R,) int64


def work(kp, n_riders: int) -> Work:
    K, R = kp.K, n_riders
    i64 = np.int64
    return Work(
        np.zeros((LEVELS, K), i64),
        np.zeros((LEVELS, K), i64),
        np.zeros((LEVELS, K), np.float64),
        np.zeros((LEVELS, K, R), i64),
        np.zeros((LEVELS, R), i64),
        np.zeros((K, R, 2), i64),
        np.zeros((R, 2), i64),
        np.zeros(R, i64),
        np.zeros(1, i64),
        np.zeros(R, i64),
        np.zeros(R, i64),
    )


# ---------------------------------------------------------------- play-outs


def _copy_row(a, g, b, h):
    """``b[h] = a[g]``: one game's row of a state array (compiled: a loop per axis, no allocation)."""
    b[h] = a[g]


if COMPILED:

    @overload(_copy_row)
    def _copy_row_loops(a, g, b, h):
        """:func:`_copy_row` for numba, by the array's number of axes."""
        if a.ndim == 1:
            return _copy_row
        if a.ndim == 2:

            def rows2(a, g, b, h):
                for j in range(a.shape[1]):
                    b[h, j] = a[g, j]

            return rows2

        def rows3(a, g, b, h):
            for j in range(a.shape[1]):
                for k in range(a.shape[2]):
                    b[h, j, k] = a[g, j, k]

        return rows3


@jit
def _copy_game(A, g, B, h):
    """Game ``g`` of ``A`` into game ``h`` of ``B``, every array."""
    for i in unroll(ARRAY_INDEX):
        _copy_row(A[i], g, B[i], h)


@jit
def _greedy_play_out(kp, tb, gv, A, g, slot, beat, last, gs, w):
    """Finish beat ``beat`` of game ``g`` from ``slot`` and play on until
    ``last`` beats are over, every rider greedy; returns the beat count."""
    R = A.pos.shape[1]
    while True:
        for s in range(slot, R):
            r = np.int64(A.order[g, s])
            if A.pos[g, r] < kp.L:
                k, seal, brk = gr.greedy(kp, tb, gv, A, g, r, beat, gs)
                act(kp, tb, A, g, s, beat, k // kp.S1 + 1, k % kp.S1, seal, brk, I0, gs.removed)
        beat = end_beat(kp, A, g, beat, w.dist, w.pts)
        if beat >= last:
            return beat
        begin_beat(kp, A, g, beat)
        slot = I0


@jit
def _scores(kp, A, g, beat, P, dist, pts, out):
    """Each player's points so far into ``out`` (P,): the score (final points
    by the squares reached included) and, before the end, those final points
    again (:func:`lookahead_policy`'s margin)."""
    k = kp.riders_per_player
    rank_points(kp, A, g, kp.final_points, dist, NO, pts)  # 6.3: position, relics, seat order
    for p in range(P):
        score = 0
        for o in range(p * k, p * k + k):
            score += A.seg_points[g, o] + A.relic_pts[g, o] + pts[o]
            if beat < kp.beats:
                score += pts[o]
        out[p] = score
    return out


@jit
def _margin_of(scores, player, P):
    """Own points minus the best opponent's (float64)."""
    own, best = float(scores[player]), -np.inf
    for p in range(P):
        if p != player and scores[p] > best:
            best = float(scores[p])
    return own - (best if P > 1 else 0.0)


@jit
def _horizon(kp, beat, beats):
    """The beat count a play-out from beat ``beat`` (0-based) stops at: the
    game's end (``beats`` = 0) or ``beats`` beats after this one."""
    return kp.beats if beats == 0 else min(kp.beats, beat + 1 + beats)


# ---------------------------------------------------------------- the search


@jit
def _sort_desc(val, order):
    """``order`` = the indices of ``val`` by value, largest first, equal
    values in index order: plain, ``np.argsort(-val, kind="stable")``
    (an insertion sort of the few options; allocates nothing)."""
    for i in range(val.size):
        j = i
        while j > 0 and val[order[j - 1]] < val[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    return order


@jit
def _options(kp, tb, gv, A, g, r, beat, k, level, gs, w):
    """The options searched: the greedy's choice (option, seal, break), its
    ``k`` best options in ``w.top[level, :k]`` (invalid ones replaced by the
    first), ``k``, the greedy's column among them and how many are valid
    (legal; they come first)."""
    best, seal, brk = gr.greedy_once(kp, tb, gv, A, g, r, beat, gs)  # gs.val: the values without breaking
    k = min(k, gs.val.size)
    order = _sort_desc(gs.val, w.order[level])
    top, margin = w.top[level], w.margin[level]
    first, n_valid = 0, 0
    found = False
    for j in range(k):
        valid = gs.val[order[j]] > -np.inf  # the invalid ones are last (sorted) and replaced by the first
        n_valid += valid
        top[j] = order[j] if valid else order[0]
        if not found and top[j] == best:
            first, found = j, True
        margin[j] = -np.inf
    return best, seal, brk, k, first, n_valid


@jit
def _choose(margin, k, first):
    """The column of the best margin (ties to the greedy's option, column ``first``)."""
    margin[first] += GREEDY_TIE_BONUS
    col = 0
    for j in range(1, k):
        if margin[j] > margin[col]:
            col = j
    return col


@jit
def _lookahead(kp, tb, gv, A, g, r, slot, beat, B, level, gs, w, pv_ok):
    """The lookahead's decision for rider ``r``, every play-out rider greedy:
    (option, seal, break, whether ``w.pv[level]`` holds the game's greedy
    continuation from the state after the move).

    The continuation: where ``pv_ok``, ``w.pv[level]`` holds the players'
    points at the end of the play-out the real game has followed since (its
    moves were the play-out's: greedy ones, or the search's own chosen
    option); the greedy's own option is then that play-out's continuation
    and its margin is read, not played again."""
    best, seal, brk, k, first, n_valid = _options(kp, tb, gv, A, g, r, beat, kp.lookahead_k, level, gs, w)
    if k == 1:
        return best, seal, brk, pv_ok  # the greedy's move: the continuation still holds
    last = _horizon(kp, beat, kp.lookahead_beats)
    P = A.pos.shape[1] // kp.riders_per_player
    player = r // kp.riders_per_player
    to_end = last == kp.beats
    top, pv, scores, margin = w.top[level], w.pv[level], w.scores[level], w.margin[level]
    # the greedy's own move exactly as the greedy plays it (its break only if it is also the top option)
    known = pv_ok and to_end and top[first] == best and (first == 0 or not brk)
    for j in range(n_valid):
        if known and j == first:
            for p in range(P):
                scores[j, p] = pv[p]
        else:
            opt = top[j]
            _copy_game(A, g, B, level)
            act_once(
                kp, tb, B, level, slot, beat, opt // kp.S1 + 1, opt % kp.S1, seal, brk and opt == top[0], I0, gs.removed
            )
            end = _greedy_play_out(kp, tb, gv, B, level, slot + 1, beat, last, gs, w)
            _scores(kp, B, level, end, P, w.dist, w.pts, scores[j])
        margin[j] = _margin_of(scores[j], player, P)
    col = _choose(margin, k, first)
    choice = top[col]
    real_brk = brk and choice == top[first]
    # the chosen option's play-out is the game's continuation if the move played is the one played out
    followed = to_end and real_brk == (brk and choice == top[0])
    if followed:
        for p in range(P):
            pv[p] = scores[col, p]
    return choice, seal, real_brk, followed


@jit
def _mixed_play_out(kp, tb, gv, A, g, slot, beat, until, B, gs, w, j):
    """A deep play-out (game ``g`` of ``A``): the riders play as the lookahead
    before beat ``until`` and greedy after, to the end of the game; the moves
    of this beat (option, break) by slot into ``w.moves[j]`` (-1: none)."""
    R = A.pos.shape[1]
    pv_ok = NO  # no continuation known at the start of the play-out
    root = beat
    for s in range(R):
        w.moves[j, s, 0] = -1
    while beat < until:
        for s in range(slot, R):
            r = np.int64(A.order[g, s])
            if A.pos[g, r] < kp.L:
                k, seal, brk, pv_ok = _lookahead(kp, tb, gv, A, g, r, s, beat, B, I1, gs, w, pv_ok)
                if beat == root:
                    w.moves[j, s, 0], w.moves[j, s, 1] = k, brk
                act_once(kp, tb, A, g, s, beat, k // kp.S1 + 1, k % kp.S1, seal, brk, I0, gs.removed)
        beat = end_beat_once(kp, A, g, beat, w.dist, w.pts)
        if beat >= kp.beats:
            return beat
        begin_beat_once(kp, A, g, beat)
        slot = I0
    return _greedy_play_out(kp, tb, gv, A, g, slot, beat, kp.beats, gs, w)


@jit
def _deep(kp, tb, gv, A, g, r, slot, beat, B, gs, w, cont_ok):
    """Deep's decision for rider ``r``: the search with play-outs whose riders
    play as the lookahead this beat and ``deep_reply_beats`` more: (option,
    seal, break, whether ``w`` holds deep's continuation after the move).

    The continuation (as :func:`_lookahead`'s, for deep): where ``cont_ok``,
    the real game has followed the play-out of deep's previous choice this
    beat, whose moves by slot are ``w.cmoves`` and final points ``w.cpv``;
    an option equal to that play-out's move at this slot has the same
    play-out (the same riders, the same horizon), so its points are read."""
    best, seal, brk, k, first, n_valid = _options(kp, tb, gv, A, g, r, beat, kp.deep_k, I0, gs, w)
    if k == 1:
        return best, seal, brk, False
    R = A.pos.shape[1]
    P = R // kp.riders_per_player
    until = beat + 1 + kp.deep_reply_beats
    top, scores, margin = w.top[0], w.scores[0], w.margin[0]
    known = cont_ok and w.cbeat[0] == beat and w.cmoves[slot, 0] >= 0
    for j in range(n_valid):
        opt = top[j]
        brk_j = brk and opt == top[0]  # the break as the play-out plays the option
        if known and opt == w.cmoves[slot, 0] and brk_j == (w.cmoves[slot, 1] == 1):
            for p in range(P):
                scores[j, p] = w.cpv[p]
            for s in range(R):
                w.moves[j, s, 0] = w.cmoves[s, 0] if s > slot else -1
                w.moves[j, s, 1] = w.cmoves[s, 1]
        else:
            _copy_game(A, g, B, I0)
            act_once(kp, tb, B, I0, slot, beat, opt // kp.S1 + 1, opt % kp.S1, seal, brk_j, I0, gs.removed)
            end = _mixed_play_out(kp, tb, gv, B, I0, slot + 1, beat, until, B, gs, w, j)
            _scores(kp, B, I0, end, P, w.dist, w.pts, scores[j])
        margin[j] = _margin_of(scores[j], r // kp.riders_per_player, P)
    col = _choose(margin, k, first)
    choice = top[col]
    real_brk = brk and choice == top[first]
    # the chosen option's play-out is the continuation if the move played is the one played out
    followed = real_brk == (brk and choice == top[0])
    if followed:
        w.cbeat[0] = beat
        for p in range(P):
            w.cpv[p] = scores[col, p]
        for s in range(R):
            w.cmoves[s, 0], w.cmoves[s, 1] = w.moves[col, s, 0], w.moves[col, s, 1]
    return choice, seal, real_brk, followed


@jit
def _decide(kp, tb, gv, A, g, r, slot, beat, code, B, gs, w, cont):
    """The (option, seal, break) of rider ``r`` playing as agent ``code``, and
    which continuation ``w`` holds after the move: LOOKAHEAD (``pv[0]``, the
    greedy's, see :func:`_lookahead`; a greedy move keeps it), DEEP (deep's,
    see :func:`_deep`) or -1 (none).  ``cont``: the same before the move."""
    if code == LOOKAHEAD:
        k, seal, brk, ok = _lookahead(kp, tb, gv, A, g, r, slot, beat, B, I0, gs, w, cont == LOOKAHEAD)
        return k, seal, brk, LOOKAHEAD if ok else -1
    if code == DEEP:
        k, seal, brk, ok = _deep(kp, tb, gv, A, g, r, slot, beat, B, gs, w, cont == DEEP)
        return k, seal, brk, DEEP if ok else -1
    k, seal, brk = gr.greedy_once(kp, tb, gv, A, g, r, beat, gs)
    return k, seal, brk, cont if cont == LOOKAHEAD else -1


@entry
def _play_games(kp, tb, gv, A, codes, B, gs, w, points):
    """Every game of ``A`` (set up, beat 1's order done) to the end, rider ``r``
    playing as agent ``codes[r]``; ``points`` (beats, G, R): segment + relic
    points after each beat (the lead changes)."""
    G, R = A.pos.shape
    for g in range(G):
        beat = I0
        cont = NONE
        for b in range(kp.beats):
            for s in range(R):
                r = np.int64(A.order[g, s])
                if A.pos[g, r] < kp.L:
                    k, seal, brk, cont = _decide(kp, tb, gv, A, g, r, s, beat, codes[r], B, gs, w, cont)
                    act_once(kp, tb, A, g, s, beat, k // kp.S1 + 1, k % kp.S1, seal, brk, I0, gs.removed)
            beat = end_beat_once(kp, A, g, beat, w.dist, w.pts)
            for o in range(R):
                points[b, g, o] = A.seg_points[g, o] + A.relic_pts[g, o]
            if beat < kp.beats:
                begin_beat_once(kp, A, g, beat)


@entry
def _search_actions(kp, tb, gv, A, rider, acting, slot, beat, code, B, gs, w, out):
    """One decision of agent ``code`` in every game: ``out`` (G, 3) option,
    seal, break (0/1) of rider ``rider[g]`` in the acting games (the others: 0)."""
    for g in range(A.pos.shape[0]):
        if acting[g]:
            out[g, 0], out[g, 1], out[g, 2], _ = _decide(
                kp, tb, gv, A, g, np.int64(rider[g]), slot, beat, code, B, gs, w, NONE
            )


# ---------------------------------------------------------------- from Python


def _compiled(params):
    """The rules, moves, greedy values and scratch the compiled search takes."""
    return rules_of(params), moves_of(params), gr.values_of(params)


def play_games(params, state: State, seating) -> np.ndarray:
    """Play the set-up games of ``state`` to the end in place, every seat of
    ``seating`` greedy, lookahead or deep; returns (beats, G, P) points after
    each beat (segment + relic, by player) for the lead changes."""
    kp, tb, gv = _compiled(params)
    R = state.pos.shape[1]
    codes = np.array([AGENT_CODES[seating[r // params.riders_per_player]] for r in range(R)], np.int64)
    A = arrays_of(state)
    points = np.zeros((params.beats, state.n_games, R), np.int64)
    _play_games(kp, tb, gv, A, codes, scratch(A, LEVELS), gr.scratch(kp, R), work(kp, R), points)
    state.beat, state.slot = params.beats, R
    return points.reshape(params.beats, state.n_games, state.n_players, -1).sum(axis=3)


def search_actions(params, state: State, rider, acting, code: int) -> Actions:
    """Agent ``code``'s decision (:data:`AGENT_CODES`) for ``rider`` in the games
    ``acting`` (card 1, no spin, no seal, no break in the others)."""
    kp, tb, gv = _compiled(params)
    R = state.pos.shape[1]
    rider = np.asarray(rider, np.int64)
    ga = np.flatnonzero(acting)
    slot = int(np.argmax(state.order[ga[0]] == rider[ga[0]])) if ga.size else 0
    A = arrays_of(state)
    out = np.zeros((state.n_games, 3), np.int64)
    B, gs, w = scratch(A, LEVELS), gr.scratch(kp, R), work(kp, R)
    _search_actions(kp, tb, gv, A, rider, np.asarray(acting, np.bool_), slot, state.beat, code, B, gs, w, out)
    card_k, spin_k = option_list(params.max_spin_per_beat)
    G = state.n_games
    return Actions(card_k[out[:, 0]], spin_k[out[:, 0]], out[:, 1], out[:, 2] > 0, np.zeros(G, np.intp))


def _with(params, **knob_values) -> AgentParams:
    """``params`` (rules and knobs) with the knobs ``knob_values``."""
    base = params if isinstance(params, AgentParams) else AgentParams(**params.as_dict())
    changed = {k: v for k, v in knob_values.items() if getattr(base, k) != v}
    return dataclasses.replace(base, **changed) if changed else base


def search(params, state, rider, legal, k: int, beats: int, reply: int | None = None) -> Actions:
    """The greedy's ``k`` best options of each acting game, each played out
    to the end (``beats`` = 0) or ``beats`` beats after this one, every
    rider greedy, except that with ``reply`` (not None; ``beats`` 0) they
    play as the lookahead agent for the rest of this beat and ``reply``
    beats more; the best margin is played (see :func:`lookahead_policy`)."""
    if reply is None:
        return search_actions(
            _with(params, lookahead_k=k, lookahead_beats=beats), state, rider, legal.acting, LOOKAHEAD
        )
    if beats:
        raise ValueError("deep's play-outs run to the end of the game (beats = 0)")
    return search_actions(_with(params, deep_k=k, deep_reply_beats=reply), state, rider, legal.acting, DEEP)


def lookahead_policy(params, state, rider, legal, rng=None) -> Actions:
    """Policy improvement over the greedy: its ``lookahead_k`` best options
    (ties and breaking as the greedy; the greedy's seal), each played out
    with every rider greedy to the end of the game (or ``lookahead_beats``
    beats after this one); the option with the best margin (own points minus
    the best opponent's, final points counted by the squares reached) is
    played, ties to the greedy's order.  Full information makes a play-out
    deterministic, so one play-out per option suffices."""
    kn = knobs(params)
    return search(params, state, rider, legal, kn.lookahead_k, kn.lookahead_beats)


def lookahead_at(beats: int):
    """The lookahead whose play-outs stop ``beats`` beats after this one, on
    its own seat whatever ``lookahead_beats`` says (the agent ``lookahead@beats``:
    levels of the skill trace meet at one table)."""

    def policy(params, state, rider, legal, rng=None) -> Actions:
        return search(params, state, rider, legal, knobs(params).lookahead_k, beats)

    policy.__name__ = policy.__qualname__ = f"lookahead_at_{beats}"
    return policy


#: ``lookahead@b`` (``core.budgets``): the lookahead at depth ``b`` on its own seat (the skill trace's budgets)
BUDGETED = {budgets.at_budget("lookahead", b): lookahead_at(b) for b in budgets.BUDGETS}


def deep_policy(params, state, rider, legal, rng=None) -> Actions:
    """The lookahead with better-informed play-outs: the greedy's ``deep_k``
    best options, each played out to the end with every rider (the
    searching one too) playing as the lookahead agent for the rest of this
    beat and the next ``deep_reply_beats`` beats, greedy after; best margin
    wins, ties to the greedy's order."""
    kn = knobs(params)
    return search(params, state, rider, legal, kn.deep_k, 0, kn.deep_reply_beats)
