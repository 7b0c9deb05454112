"""STEEL BALL RUN compiled play: one game at a time, for the search agents.

The batch engine (:mod:`gamelab.sbr.engine`) is the reference; this module
plays the same rules and the same agents (greedy, lookahead, deep) one game
at a time in numba-compiled loops, so a search agent's play-outs cost
microseconds rather than hundreds of numpy calls each, at any batch size.
``tests/test_sbr_kernel.py`` holds it to the batch engine step by step
(every decision of random and agent play under every rule reading) and
whole games (bit-identical results).

* :data:`Arrays`: the batch :class:`~gamelab.sbr.state.State`'s arrays as
  one typed tuple, built from State's own array fields (the six counters of
  ``state.stats`` stacked as (G, 6, R)); :func:`arrays_of` / :func:`write_back`
  convert without changing a value.
* :data:`Rules`: every declared parameter of the rules and the agent knobs
  (``core.params.specs``) under its own name, a reading as its index in the
  declaration (:func:`choice`), the float knobs rounded to float32 as the
  batch agents round them; then the tables derived from them (:func:`rules_of`).
* The kernel, game ``g`` of an :data:`Arrays` at a time: :func:`_act`
  (section 6.2 steps 1-6, :mod:`~gamelab.sbr.turn`), :func:`_walk` (the move
  square by square, :mod:`~gamelab.sbr.movement`), :func:`_end_beat` /
  :func:`_begin_beat` (segment scoring, acting order), :func:`_greedy`
  (:func:`~gamelab.sbr.greedy.greedy_policy`), :func:`_lookahead` and
  :func:`_deep` (the lookahead's and deep's search, :mod:`~gamelab.sbr.lookahead`).
* Entry points: :func:`play_games` (whole games, every seat greedy,
  lookahead or deep) and :func:`search_actions` (one decision of the search
  agents for a batch, used by the lookahead policies inside the batch
  engine's loop, e.g. against random seats).

Float arithmetic follows the batch agents' dtypes step by step (float32 for
the greedy's values, float64 for the margins), so ties break the same way.

Compile time.  The compiled code is cached on disk (``cache=True``; ``make``'s
install step compiles it once: ``python -m gamelab.sbr.kernel``); later
processes load it in about half a second.  From an empty cache it costs
about 140 s of one core (docs/performance.md, "Compile time"), three times
less than before: every function now compiles exactly once (numba compiles
one version per distinct argument type, so the kernel passes typed
constants, never a literal ``0`` or ``False``, riders as int64, and the state
as C-contiguous arrays), and the greedy's turn is inlined into only two
places, the greedy play-out (:func:`_greedy_play_out`, where it is hot) and
one called copy (:func:`_greedy_once`) for everything else.  Calling instead
of inlining costs more than it saves: a call passes every array of the
state, the rules and the scratch buffers (a few hundred machine words), and
the kernel with only its small helpers inlined compiled in ~190 s but played
the lookahead 5.5x slower.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from gamelab.core.params import specs

from .greedy import SEQUENTIAL_SUM_RIDERS
from .knobs import AgentParams, knobs
from .movement import max_move
from .rules import CURVE, EYE, HEART, N_VALUES, RIVER, ROCK, SKULL, TOWN
from .state import STATS, State

try:  # numba is a dependency (pyproject.toml); without it the batch engine plays (slowly)
    from numba import njit
except ImportError:  # pragma: no cover - exercised only where numba is missing
    njit = None

GREEDY, LOOKAHEAD, DEEP = 0, 1, 2  # agent codes of a rider
AGENT_CODES = {"greedy": GREEDY, "lookahead": LOOKAHEAD, "deep": DEEP}
GREEDY_TIE_BONUS = 1e-6  # as lookahead.GREEDY_TIE_BONUS: ties go to the greedy's choice
LEVELS = 3  # scratch games: deep's play-out, the lookahead's inside it, one spare
NO_REPLY = -1  # a search whose play-outs are all greedy (the lookahead)
# Typed constants for the arguments of compiled calls: numba compiles a function once more for each
# literal argument (0, 1, False, True as written), so the kernel passes these instead.
I0, I1, NONE = np.int64(0), np.int64(1), np.int64(-1)
NO, YES = np.bool_(False), np.bool_(True)


def _jit(fn):
    """``numba.njit(cache=True)`` without reference counting (``_nrt=False``:
    the kernel allocates nothing; with it, every call between compiled
    functions counts references to each of the ~30 arrays of its
    arguments, 40x the cost of a small helper), or the plain function
    where numba is missing."""
    return fn if njit is None else njit(cache=True, _nrt=False)(fn)


def _inline(fn):
    """:func:`_jit`, inlined into its callers by numba (small helpers)."""
    return fn if njit is None else njit(cache=True, _nrt=False, inline="always")(fn)


#: the counters of ``state.stats`` as the rows of ``Arrays.stats`` (G, 6, R), in the order of state.STATS
SPIN_SPENT, SEALS_PLACED, SEAL_HITS, CARD_SUM, CARDS_PLAYED, TERRAIN_TAX = range(len(STATS))
assert STATS == ("spin_spent", "seals_placed", "seal_hits", "card_sum", "cards_played", "terrain_tax")
#: the batch State's arrays (games first), as the kernel reads them: every array field of State, in its
#: order, then ``stats`` stacked
STATE_ARRAYS = tuple(f.name for f in dataclasses.fields(State) if f.type == "np.ndarray")
Arrays = NamedTuple("Arrays", [(name, np.ndarray) for name in (*STATE_ARRAYS, "stats")])


def arrays_of(state: State) -> Arrays:
    """The kernel's view of ``state``: its own arrays (a C-contiguous copy
    put into the state where one was not, so that the kernel compiles one
    layout) and the stats stacked (a copy)."""
    for name in STATE_ARRAYS:
        a = getattr(state, name)
        if not a.flags.c_contiguous:
            setattr(state, name, np.ascontiguousarray(a))
    fields = [getattr(state, name) for name in STATE_ARRAYS]
    return Arrays(*fields, np.stack([state.stats[k] for k in STATS], axis=1))


def write_back(arr: Arrays, state: State) -> None:
    """The counters the kernel changed, back into ``state.stats`` (the other
    arrays are the state's own)."""
    for i, k in enumerate(STATS):
        state.stats[k][...] = arr.stats[:, i]


def scratch(like: Arrays, n: int = LEVELS) -> Arrays:
    """``n`` scratch games shaped as ``like``'s."""
    return Arrays(*(np.zeros((n, *a.shape[1:]), a.dtype) for a in like))


#: knobs the batch agents compare in float64 (every other float knob is rounded to float32, as they round it)
FLOAT64_KNOBS = ("greedy_seal_min",)


def _declared_type(spec):
    """The kernel's type of a declared parameter (None: not read by the kernel, e.g. the board's codes,
    read as ``terrain``): bools and ints as they are, a choice as its index in ``spec.choices``
    (:func:`choice`), floats as float32 (:data:`FLOAT64_KNOBS` float64), tuples as arrays."""
    if spec.choices is not None:
        return np.int64
    if spec.kind is tuple:
        return {int: np.ndarray, float: np.ndarray}.get(spec.item_kind)
    if spec.kind is float:
        return float if spec.name in FLOAT64_KNOBS else np.float32
    return {bool: bool, int: int}[spec.kind]


def _declared_value(spec, value):
    """``value`` of the declared parameter ``spec`` as :func:`_declared_type` says."""
    if spec.choices is not None:
        return spec.choices.index(value)
    if spec.kind is tuple:
        return np.asarray(value, np.int64 if spec.item_kind is int else np.float64)
    return _declared_type(spec)(value)


def choice(name: str, value: str) -> int:
    """The code of reading ``value`` of the declared choice ``name`` (its index in the declaration)."""
    return next(s for s in specs(AgentParams) if s.name == name).choices.index(value)


_DECLARED = [(s, _declared_type(s)) for s in specs(AgentParams)]
#: what the kernel derives from the declarations (tables, and numbers of a board or a reading)
_DERIVED = [
    ("L", int),  # the finish square (params.length)
    ("M", int),  # the most movement of a beat (movement.max_move)
    ("seal_sign", int),  # +1 ahead, -1 behind (seal_direction)
    ("terrain", np.ndarray),  # (L+1,) int64
    ("relic_worth", np.ndarray),  # (5,) int64 relic_points, index 4 (unknown) and -1 (none) worth 0
    ("relic_value", np.ndarray),  # (5,) float32: the same as the greedy values them
    ("segment_of_beat", np.ndarray),  # (beats+1,) the segment scored after beat b (1-based), -1 none
    ("card_cost", np.ndarray),  # (6,) float32: float32(greedy_card * card) by card value
    ("reach", np.ndarray),  # float64 expected victims by gap + reach_off (greedy._reach_table)
    ("reach_off", int),
    # the batch greedy's tables of a move with no seal on the way (greedy.value_table, options.option_table)
    ("raw_end", np.ndarray),  # (L+1, K) int64: the end square before the stop square's relic
    ("raw_stop", np.ndarray),  # (L+1, K) int64: the stop square, -1 if none
    ("raw_tax", np.ndarray),  # (L+1, K) int64: the terrain tax
    ("stop_square", np.ndarray),  # (L+1, K) int64: the square the move stops on, 0 if none
    ("table_value", np.ndarray),  # (L+1, H, K, RELIC_CODES) float32: the greedy's value before skull and ranks
    ("table_end", np.ndarray),  # (L+1, H, K, RELIC_CODES) int64: the end square
    ("table_spin", np.ndarray),  # (L+1, H, K, RELIC_CODES) int64: the spin held after the move
]
#: the rules and agent knobs as the kernel reads them: every declared parameter under its own name
#: (:func:`_declared_type`), then :data:`_DERIVED`; built by :func:`rules_of`
Rules = NamedTuple("Rules", [(s.name, t) for s, t in _DECLARED if t is not None] + _DERIVED)


def supported(params, n_riders: int) -> bool:
    """Whether the kernel plays ``params`` exactly as the batch engine: numba
    is installed and the seal choice sums at most SEQUENTIAL_SUM_RIDERS
    riders in order (numpy's wider sums group their terms)."""
    return ENABLED and njit is not None and n_riders <= SEQUENTIAL_SUM_RIDERS


@lru_cache(maxsize=32)
def rules_of(params) -> Rules:
    """:class:`Rules` of ``params`` (the rules; the knobs' defaults if a plain SbrParams)."""
    from .greedy import _reach_table, value_table
    from .options import option_move_tables, option_table

    kn = knobs(params)
    seg_of = np.full(params.beats + 1, -1, np.int64)
    for k, b in enumerate(params.segment_ends()):
        seg_of[b] = k
    reach, off = _reach_table(params)
    moves, table = option_move_tables(params), option_table(params)
    worth = list(params.relic_points) + [0]
    derived = dict(
        L=params.length,
        M=max_move(params),
        seal_sign=1 if params.seal_direction == "ahead" else -1,
        terrain=params.terrain_array().astype(np.int64),
        relic_worth=np.array(worth, np.int64),
        relic_value=np.array(worth, np.float32),
        segment_of_beat=seg_of,
        card_cost=(kn.greedy_card * np.arange(N_VALUES + 1)).astype(np.float32),
        reach=np.asarray(reach, np.float64),
        reach_off=int(off),
        raw_end=moves["end"].astype(np.int64),
        raw_stop=moves["stop"].astype(np.int64),
        raw_tax=moves["tax"].astype(np.int64),
        stop_square=table["stop_square"].astype(np.int64),
        table_value=value_table(params)["value"].reshape(table["end"].shape),
        table_end=table["end"].astype(np.int64),
        table_spin=table["spin"].astype(np.int64),
    )
    declared = {s.name: _declared_value(s, getattr(params, s.name, getattr(kn, s.name))) for s, t in _DECLARED if t}
    return Rules(**declared, **derived)


STOP_BEFORE = choice("extra_cost_rule", "stop_before")
NO_SEAL_NO_RIDER = choice("seal_empty", "no_seal_no_rider")
FROM_START = choice("seat_order", "from_start")


# ---------------------------------------------------------------- the move


@_inline
def _extra_cost(kp, sq, big):
    """Section 4.2: the extra cost of entering square ``sq``."""
    t = kp.terrain[sq]
    if t == ROCK:
        return kp.rock_penalty
    if t == CURVE and big:
        return kp.curve_penalty
    return 0


@_inline
def _ignored(kp, owner, r):
    """movement._ignored for one seal: passed without effect by rider ``r``."""
    k = kp.riders_per_player
    if kp.seal_owner_bonus:
        return owner >= 0 and owner // k == r // k and owner != r and kp.team_seals_ignored
    own = owner == r
    if kp.team_seals_ignored:
        own = own or (owner >= 0 and owner // k == r // k)
    return own


@_inline
def _meet_seal(kp, owner, r, m, brk, spin):
    """movement._meet_seal for one rider: (movement, spin, triggered, removed).
    (Straight-line returns: numba compiles a bool reassigned in a branch
    into slow code.)"""
    if owner < 0:
        return m, spin, False, False
    if kp.seal_owner_bonus != 0 and owner == r:  # 9.3: the owner's bonus, the seal taken off
        return m + kp.seal_owner_bonus, spin, False, True
    if _ignored(kp, owner, r):
        return m, spin, False, False
    if m == 0 and not kp.break_on_stop:  # entered with no movement left
        return m, spin, kp.seal_spent_on_stop, kp.seal_spent_on_stop
    if brk and spin >= kp.seal_break_cost:
        return m, spin - kp.seal_break_cost, True, True
    return max(0, m - kp.seal_penalty), spin, True, True


@_inline
def _first_seal(kp, A, g, r):
    """movement.first_seal: offset 1..M of the first seal ahead that matters, M + 1 if none."""
    pos = A.pos[g, r]
    for off in range(1, kp.M + 1):
        owner = A.seal[g, min(pos + off, kp.L)]
        if owner >= 0 and not _ignored(kp, owner, r):
            return off
    return kp.M + 1


@_inline
def _walk(kp, A, g, r, pos, m, big, brk, spin, removed):
    """Steps 4-5 of one move square by square (movement.walk, and the table
    it equals where no seal lies ahead), then the stop square (relic, town;
    the heart).  ``removed``: a buffer for the squares of the seals taken
    off.  Returns stop, end, tax, spin, hits, relic kind, removed count."""
    L = kp.L
    pos, m, spin = np.int64(pos), np.int64(m), np.int64(spin)
    stop, tax, hits, n_rem, river = -1, 0, 0, 0, 0
    while m > 0 and pos < L:
        sq = min(pos + 1, L)
        m -= 1
        extra = _extra_cost(kp, sq, big)
        if extra > 0 and m > 0:
            if kp.extra_cost_rule == STOP_BEFORE and m < extra:  # FAQ Q3 read as: stop before the square
                tax += m
                m = 0
                break
            take = min(extra, m)
            tax += take
            m -= take
        pos = sq
        stop = sq
        if kp.terrain[sq] == RIVER and river == 0:  # a river's spin once per beat
            river = 1
            spin = min(kp.spin_cap, spin + kp.river_spin)
        m, spin, hit, rem = _meet_seal(kp, A.seal[g, sq], r, m, brk, spin)
        if rem:
            hits += hit
            removed[n_rem] = sq
            n_rem += 1
    end = pos
    kind = -1
    if stop >= 0:
        kind = np.int64(A.relic[g, stop])
        if kind == EYE:
            spin = min(kp.spin_cap, spin + kp.eye_spin)
        if kind == HEART:
            if kp.heart_passes_seals:
                end, hits, n_rem = _heart_walk(kp, A, g, r, end, hits, n_rem, removed)
            else:
                end = min(L, end + kp.heart_steps)
        if kp.terrain[stop] == TOWN:
            spin = min(kp.spin_cap, spin + kp.town_spin)
    return stop, end, tax, spin, hits, kind, n_rem


@_inline
def _table_move(kp, A, g, pos, k, held):
    """:func:`_walk`'s result for option ``k`` from ``pos`` where no seal
    lies on the way, from the batch's tables (options.option_table, as the
    greedy's values read them)."""
    kind = np.int64(A.relic[g, kp.stop_square[pos, k]])  # square 0 (no stop) holds none
    end, spin = kp.table_end[pos, np.int64(held), k, kind + 1], kp.table_spin[pos, np.int64(held), k, kind + 1]
    return kp.raw_stop[pos, k], end, kp.raw_tax[pos, k], spin, 0, kind, 0


@_jit
def _heart_walk(kp, A, g, r, end, hits, n_rem, removed):
    """movement._heart_walk: the heart's squares meeting seals (no terrain,
    no relic, no breaking)."""
    steps = kp.heart_steps
    while steps > 0 and end < kp.L:
        sq = min(end + 1, kp.L)
        end = sq
        steps -= 1
        steps, _, hit, rem = _meet_seal(kp, A.seal[g, sq], r, steps, NO, I0)
        hits += hit
        if rem:
            removed[n_rem] = sq
            n_rem += 1
    return end, hits, n_rem


# ---------------------------------------------------------------- a turn, a beat


@_inline
def _take_back(A, g, r, want):
    """turn._take_back: card ``want`` back from the discard, else the highest there."""
    wi = min(max(want - 1, 0), N_VALUES - 1)
    v = -1
    if 1 <= want <= N_VALUES and A.discard[g, r, wi] > 0:
        v = wi
    else:
        for c in range(N_VALUES - 1, -1, -1):
            if A.discard[g, r, c] > 0:
                v = c
                break
    if v >= 0:
        A.discard[g, r, v] -= 1
        A.hand[g, r, v] += 1


@_inline
def _act(kp, A, g, slot, beat, card, spend, seal_d, brk, retrieve, removed):
    """turn.act for game ``g``: the ``slot``-th rider plays (finished riders skip)."""
    r = np.int64(A.order[g, slot])
    pos = A.pos[g, r]
    if pos >= kp.L:
        return
    c = card - 1
    A.hand[g, r, c] -= 1
    if kp.skull_takes_current:
        A.discard[g, r, c] += 1
    A.stats[g, SPIN_SPENT, r] += spend
    A.stats[g, CARD_SUM, r] += card
    A.stats[g, CARDS_PLAYED, r] += 1
    if seal_d > 0:
        A.seal[g, pos + kp.seal_sign * seal_d] = r
        A.seals_left[g, r] -= 1
        A.stats[g, SEALS_PLACED, r] += 1
    k = c * (kp.max_spin_per_beat + 1) + spend
    if (
        not kp.heart_passes_seals
        and spend <= kp.max_spin_per_beat
        and kp.raw_end[pos, k] - pos < _first_seal(kp, A, g, r)
    ):
        stop, end, tax, spin, hits, kind, n_rem = _table_move(kp, A, g, pos, k, A.spin[g, r])
    else:
        stop, end, tax, spin, hits, kind, n_rem = _walk(
            kp, A, g, r, pos, card + spend, card >= kp.big_card, brk, A.spin[g, r] - spend, removed
        )
    A.pos[g, r] = end
    A.spin[g, r] = spin
    A.stats[g, TERRAIN_TAX, r] += tax
    A.stats[g, SEAL_HITS, r] += hits
    for i in range(n_rem):
        A.seal[g, removed[i]] = -1
    if kind >= 0:
        A.relic[g, stop] = -1
        A.relic_pts[g, r] += kp.relic_worth[kind]
        A.relic_n[g, r] += 1
        if kind == SKULL:
            for _ in range(kp.skull_cards):
                _take_back(A, g, r, retrieve)
    if not kp.skull_takes_current:
        A.discard[g, r, c] += 1
    d = A.drawn[g, r]
    if d < A.deck.shape[2]:
        A.hand[g, r, A.deck[g, r, d] - 1] += 1
        A.drawn[g, r] += 1
    if A.pos[g, r] >= kp.L and A.finish_beat[g, r] == 0:
        A.finish_beat[g, r] = beat + 1


@_inline
def _seat(kp, A, g, o, first_beat):
    """ranking.seat_rank: rider ``o``'s place in the seat order."""
    R = A.pos.shape[1]
    if first_beat or kp.seat_order == FROM_START:
        return (np.int64(o) - np.int64(A.start[g])) % R
    return np.int64(o)


@_inline
def _ahead(a1, a2, a3, a4, b1, b2, b3, b4):
    """(a1, a2, a3, a4) < (b1, b2, b3, b4), as tuples."""
    if a1 != b1:
        return a1 < b1
    if a2 != b2:
        return a2 < b2
    if a3 != b3:
        return a3 < b3
    return a4 < b4


@_inline
def _rank_points(kp, A, g, points, dist, with_dist, out):
    """ranking.points_by_rank: riders ranked by distance ``dist`` (if
    ``with_dist``: segment scoring), position, relics (higher first), then
    the seat order; each rider's points of ``points`` into ``out``."""
    R = A.pos.shape[1]
    for i in range(R):
        rank = 0
        for j in range(R):
            if j != i and _ahead(
                -dist[j] if with_dist else 0,
                -np.int64(A.pos[g, j]),
                -np.int64(A.relic_n[g, j]),
                _seat(kp, A, g, j, NO),
                -dist[i] if with_dist else 0,
                -np.int64(A.pos[g, i]),
                -np.int64(A.relic_n[g, i]),
                _seat(kp, A, g, i, NO),
            ):
                rank += 1
        out[i] = points[rank]


@_inline
def _end_beat(kp, A, g, beat, dist, pts):
    """engine.end_beat for game ``g`` (``beat``: beats completed before it);
    returns the new beat count.  ``dist``, ``pts``: (R,) scratch."""
    beat += 1
    k = kp.segment_of_beat[beat]
    if k >= 0:
        R = A.pos.shape[1]
        for o in range(R):
            dist[o] = A.pos[g, o] - A.seg_start[g, o]
        _rank_points(kp, A, g, kp.segment_points, dist, YES, pts)
        for o in range(R):
            A.seg_points[g, o] += pts[o]
            A.seg_dist[g, k, o] = dist[o]
            A.seg_pts[g, k, o] = pts[o]
            A.seg_start[g, o] = A.pos[g, o]
        for sq in range(A.seal.shape[1]):
            A.seal[g, sq] = -1
    return beat


@_inline
def _begin_beat(kp, A, g, beat):
    """engine.begin_beat: the acting order, back to front, less spin, seat order."""
    R = A.pos.shape[1]
    first = beat == 0
    for i in range(R):
        rank = 0
        for j in range(R):
            if j != i and _ahead(
                np.int64(A.pos[g, j]),
                np.int64(A.spin[g, j]),
                _seat(kp, A, g, j, first),
                0,
                np.int64(A.pos[g, i]),
                np.int64(A.spin[g, i]),
                _seat(kp, A, g, i, first),
                0,
            ):
                rank += 1
        A.order[g, rank] = i


@_jit
def _scores(kp, A, g, beat, P, dist, pts, out):
    """Each player's points so far into ``out`` (P,): result's score (final
    points by the squares reached included) and, before the end, those
    final points again (as lookahead._margin counts them)."""
    k = kp.riders_per_player
    _rank_points(kp, A, g, kp.final_points, dist, NO, pts)  # 6.3: position, relics, seat order
    for p in range(P):
        score = 0
        for o in range(p * k, p * k + k):
            score += A.seg_points[g, o] + A.relic_pts[g, o] + pts[o]
            if beat < kp.beats:
                score += pts[o]
        out[p] = score
    return out


@_inline
def _margin_of(scores, player, P):
    """lookahead._margin from the players' points: own minus the best opponent's (float64)."""
    own, best = float(scores[player]), -np.inf
    for p in range(P):
        if p != player and scores[p] > best:
            best = float(scores[p])
    return own - (best if P > 1 else 0.0)


# ---------------------------------------------------------------- the greedy


@_inline
def _card_back(kp, A, g, r, card):
    """greedy._card_back: the card a skull would bring back."""
    high = 0
    for c in range(N_VALUES - 1, -1, -1):
        if A.discard[g, r, c] > 0:
            high = c + 1
            break
    return max(high, card) if kp.skull_takes_current else high


@_inline
def _values(kp, A, g, r, beat, brk, first, val, w):
    """greedy.greedy_values for one rider: ``val`` (K,) float32, -inf where
    the (card, spin) option is not legal.  ``first``: :func:`_first_seal`.
    An option whose move stops short of the first seal reads the batch
    greedy's tables (greedy.value_table: the same float32 steps, done once
    per entry), as the batch greedy does; the others walk square by square."""
    L, S1 = kp.L, kp.max_spin_per_beat + 1
    pos = A.pos[g, r]
    held = A.spin[g, r]
    beat1 = beat + 1
    seg_end = kp.segment_of_beat[beat1] >= 0
    last = beat1 == kp.beats
    mine = _projections(kp, A, g, r, w.proj, w.dproj) if seg_end or last else 0
    smax = min(held, kp.max_spin_per_beat)
    for c in range(N_VALUES):  # option k = c * S1 + s (cards major; no division per option)
        card = c + 1
        have = (A.hand[g, r, c] > 0) & (pos < L)
        for s in range(S1):
            k = c * S1 + s
            if not have or s > smax:
                val[k] = -np.inf
                continue
            if not kp.heart_passes_seals and kp.raw_end[pos, k] - pos < first:  # no seal on the way: the tables
                kind = np.int64(A.relic[g, kp.stop_square[pos, k]])  # square 0 (no stop) holds none
                end = kp.table_end[pos, held, k, kind + 1]
                base = kp.table_value[pos, held, k, kind + 1]
                spin, tax = 0, 0  # read only by the float64 values, which always walk
            else:
                stop, end, tax, spin, hits, kind, _ = _walk(
                    kp, A, g, r, pos, card + s, card >= kp.big_card, brk, held - s, w.removed
                )
                base = _base32(kp, pos, held, card, end, spin, tax, kind)
            seg_rank, fin_rank = _ranks(kp, A, g, r, end, mine, w.proj, w.dproj) if seg_end or last else (0, 0)
            back = _card_back(kp, A, g, r, card) if kind == SKULL else 0
            if kp.heart_passes_seals:
                val[k] = _value64(kp, pos, held, card, end, spin, tax, kind, back, seg_end, seg_rank, last, fin_rank)
            else:
                val[k] = _value32(kp, base, kind, back, seg_end, seg_rank, last, fin_rank)
    return val


@_inline
def _base32(kp, pos, held, card, end, spin, tax, kind):
    """greedy._base_value of one option (float32 steps; as the batch's tables hold it)."""
    f32 = np.float32
    return (
        kp.greedy_move * (f32(end) - f32(pos))
        + kp.greedy_relic * kp.relic_value[kind]  # kind -1: the appended 0
        + kp.greedy_spin * (f32(spin) - f32(held))
        - kp.greedy_tax * f32(tax)
        - kp.card_cost[card]
    )


@_inline
def _value32(kp, v, kind, back, seg_end, seg_rank, last, fin_rank):
    """One option's greedy value from its base value ``v`` in the batch
    greedy's float32 steps (the skull's card, projection.rank_terms)."""
    f32 = np.float32
    if kind == SKULL:  # float32 += float32 scalar * int64: added in float64, rounded once
        v = f32(np.float64(v) + np.float64(kp.greedy_skull_card) * back)
    if seg_end:
        v = v + kp.greedy_segment * f32(kp.segment_points[seg_rank])
    if last:
        v = v + kp.greedy_final * f32(kp.final_points[fin_rank])
    return v


@_inline
def _value64(kp, pos, held, card, end, spin, tax, kind, back, seg_end, seg_rank, last, fin_rank):
    """:func:`_value32` as the batch greedy computes it under
    ``heart_passes_seals`` (its outcome arrays are int64 there, so the sums
    run in float64), rounded to float32 at the end."""
    f64 = np.float64
    v = (
        f64(kp.greedy_move) * (f64(end) - f64(np.float32(pos)))
        + f64(kp.greedy_relic * kp.relic_value[kind])
        + f64(kp.greedy_spin) * (f64(spin) - f64(np.float32(held)))
        - f64(tax) * f64(kp.greedy_tax)
        - f64(kp.card_cost[card])
    )
    if kind == SKULL:
        v = v + f64(kp.greedy_skull_card) * back
    if seg_end:
        v = v + f64(kp.greedy_segment * np.float32(kp.segment_points[seg_rank]))
    if last:
        v = v + f64(kp.greedy_final * np.float32(kp.final_points[fin_rank]))
    return np.float32(v)


@_inline
def _projections(kp, A, g, r, proj, dproj):
    """projection.rank_terms' view of the other riders, once per rider's
    values: ``proj`` (R,) float32 each one's projected square and ``dproj``
    (R,) float64 his segment distance, by slot; returns rider ``r``'s slot."""
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


@_inline
def _ranks(kp, A, g, r, end, mine, proj, dproj):
    """projection.rank_terms' ranks of end square ``end``: (segment rank,
    final rank), the others as :func:`_projections` gives them."""
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


@_inline
def _seal_choice(kp, A, g, r, beat):
    """greedy._seal_choice_cols for one rider: the seal distance, 0 none."""
    R = A.pos.shape[1]
    if kp.seals_per_player == 0 or kp.segment_of_beat[beat + 1] >= 0:
        return 0
    k = kp.riders_per_player
    me = A.pos[g, r]
    best_v, best_i = 0.0, 0
    for d in range(1, kp.seal_range + 1):
        base = me + kp.seal_sign * d + kp.reach_off
        w = 0.0
        for o in range(R):
            opp = o // k != r // k and A.pos[g, o] < kp.L
            w = w + kp.reach[(base - A.pos[g, o]) * opp]
        if not _seal_allowed(kp, A, g, r, d):
            w = -1.0
        if d == 1 or w > best_v:  # the first of the largest (np.where(w > best, d, best) per d)
            best_v, best_i = w, d
    return best_i if best_v >= kp.greedy_seal_min else 0


@_inline
def _seal_allowed(kp, A, g, r, d):
    """legality._seal_mask for distance ``d`` >= 1."""
    if A.seals_left[g, r] <= 0:
        return False
    sq = A.pos[g, r] + kp.seal_sign * d
    if sq < 1 or sq >= kp.L:
        return False
    if A.seal[g, sq] >= 0:
        return False
    if kp.seal_empty == NO_SEAL_NO_RIDER:
        for o in range(A.pos.shape[1]):
            if A.pos[g, o] == sq:
                return False
    return True


@_inline
def _argmax(val):
    """The first index of the largest entry (np.argmax)."""
    best = 0
    for k in range(1, val.size):
        if val[k] > val[best]:
            best = k
    return best


@_inline
def _greedy(kp, A, g, r, beat, w):
    """greedy.greedy_policy for one rider: (option, seal, break); the
    values without breaking are left in ``w.val``."""
    first = _first_seal(kp, A, g, r)
    best = _argmax(_values(kp, A, g, r, beat, NO, first, w.val, w))
    brk = False
    if A.pos[g, r] < kp.L and A.spin[g, r] >= kp.seal_break_cost and first <= kp.M:
        _values(kp, A, g, r, beat, YES, first, w.vb, w)
        bb = _argmax(w.vb)
        if w.vb[bb] > w.val[best] + kp.greedy_break_margin:
            best, brk = bb, True
    return best, _seal_choice(kp, A, g, r, beat), brk


# One compiled copy each of the turn, the beat's end and start and the
# greedy, for the places where they are not hot (a decision of the real
# game, a search's own move, the lookahead beats of deep's play-outs); the
# greedy play-out inlines them (a call between compiled functions passes
# every array of the state and the rules: the greedy play-out ran 3x slower
# through calls).


@_jit
def _act_once(kp, A, g, slot, beat, card, spend, seal_d, brk, retrieve, removed):
    """:func:`_act`, called."""
    _act(kp, A, g, slot, beat, card, spend, seal_d, brk, retrieve, removed)


@_jit
def _end_beat_once(kp, A, g, beat, dist, pts):
    """:func:`_end_beat`, called."""
    return _end_beat(kp, A, g, beat, dist, pts)


@_jit
def _begin_beat_once(kp, A, g, beat):
    """:func:`_begin_beat`, called."""
    _begin_beat(kp, A, g, beat)


@_jit
def _greedy_once(kp, A, g, r, beat, w):
    """:func:`_greedy`, called."""
    return _greedy(kp, A, g, r, beat, w)


# ---------------------------------------------------------------- search


class Work(NamedTuple):
    """Scratch buffers of one search level."""

    val: np.ndarray  # (K,) float32
    vb: np.ndarray  # (K,) float32
    top: np.ndarray  # (K,) int64
    order: np.ndarray  # (K,) int64 sort scratch
    margin: np.ndarray  # (K,) float64
    removed: np.ndarray  # (2 L,) int64 squares of seals taken off
    dist: np.ndarray  # (R,) int64
    pts: np.ndarray  # (R,) int64
    scores: np.ndarray  # (K, R) int64: the players' points at the end of each option's play-out
    pv: np.ndarray  # (R,) int64: the same for the game's known greedy continuation (_lookahead)
    proj: np.ndarray  # (R,) float32: the other riders' projected squares (_projections)
    dproj: np.ndarray  # (R,) float64: their segment distances
    moves: np.ndarray  # (K, R, 2) int64: each deep play-out's moves (option, break) by slot in its first beat
    cmoves: np.ndarray  # (R, 2) int64: the same for deep's continuation (_deep), -1 where none
    cpv: np.ndarray  # (R,) int64: the players' points at the end of deep's continuation
    cbeat: np.ndarray  # (1,) int64: the beat of deep's continuation


def work(kp: Rules, n_riders: int) -> tuple:
    """One :class:`Work` per search level."""
    K = N_VALUES * (kp.max_spin_per_beat + 1)
    return tuple(
        Work(
            np.zeros(K, np.float32),
            np.zeros(K, np.float32),
            np.zeros(K, np.int64),
            np.zeros(K, np.int64),
            np.zeros(K, np.float64),
            np.zeros(2 * kp.L + 2, np.int64),
            np.zeros(n_riders, np.int64),
            np.zeros(n_riders, np.int64),
            np.zeros((K, n_riders), np.int64),
            np.zeros(n_riders, np.int64),
            np.zeros(n_riders, np.float32),
            np.zeros(n_riders, np.float64),
            np.zeros((K, n_riders, 2), np.int64),
            np.zeros((n_riders, 2), np.int64),
            np.zeros(n_riders, np.int64),
            np.zeros(1, np.int64),
        )
        for _ in range(LEVELS)
    )


@_inline
def _copy_row2(src, g, dst, h):
    """``dst[h] = src[g]`` for 2-D arrays (a loop: slice assignment allocates)."""
    for j in range(src.shape[1]):
        dst[h, j] = src[g, j]


@_inline
def _copy_row3(src, g, dst, h):
    """``dst[h] = src[g]`` for 3-D arrays."""
    for j in range(src.shape[1]):
        for k in range(src.shape[2]):
            dst[h, j, k] = src[g, j, k]


@_jit
def _copy_game(A, g, B, h):
    """Game ``g`` of ``A`` into game ``h`` of ``B``."""
    _copy_row2(A.pos, g, B.pos, h)
    _copy_row2(A.spin, g, B.spin, h)
    _copy_row2(A.seals_left, g, B.seals_left, h)
    _copy_row3(A.hand, g, B.hand, h)
    _copy_row3(A.discard, g, B.discard, h)
    _copy_row3(A.deck, g, B.deck, h)
    _copy_row2(A.drawn, g, B.drawn, h)
    _copy_row2(A.seal, g, B.seal, h)
    _copy_row2(A.relic, g, B.relic, h)
    _copy_row2(A.relic_pts, g, B.relic_pts, h)
    _copy_row2(A.relic_n, g, B.relic_n, h)
    _copy_row2(A.seg_start, g, B.seg_start, h)
    _copy_row2(A.seg_points, g, B.seg_points, h)
    _copy_row3(A.seg_dist, g, B.seg_dist, h)
    _copy_row3(A.seg_pts, g, B.seg_pts, h)
    _copy_row2(A.finish_beat, g, B.finish_beat, h)
    _copy_row2(A.order, g, B.order, h)
    B.start[h] = A.start[g]
    _copy_row3(A.stats, g, B.stats, h)


@_jit
def _greedy_play_out(kp, A, g, slot, beat, last, w):
    """lookahead._play_out with every rider greedy: finish the beat from
    ``slot``, play on until ``last`` beats are over; returns the beat count."""
    R = A.pos.shape[1]
    while True:
        for s in range(slot, R):
            r = np.int64(A.order[g, s])
            if A.pos[g, r] < kp.L:
                k, seal, brk = _greedy(kp, A, g, r, beat, w)
                _act(
                    kp,
                    A,
                    g,
                    s,
                    beat,
                    k // (kp.max_spin_per_beat + 1) + 1,
                    k % (kp.max_spin_per_beat + 1),
                    seal,
                    brk,
                    I0,
                    w.removed,
                )
        beat = _end_beat(kp, A, g, beat, w.dist, w.pts)
        if beat >= last:
            return beat
        _begin_beat(kp, A, g, beat)
        slot = I0


@_inline
def _horizon(kp, beat, beats):
    """lookahead.horizon."""
    return kp.beats if beats == 0 else min(kp.beats, beat + 1 + beats)


@_jit
def _options(kp, A, g, r, slot, beat, k, w):
    """The search's options: the greedy's choice (option, seal, break), the
    greedy's ``k`` best options in ``w.top[:k]`` (invalid ones replaced by
    the first), ``k``, the greedy's column among them and how many are
    valid (legal; they come first)."""
    best, seal, brk = _greedy_once(kp, A, g, r, beat, w)  # w.val: the values without breaking
    K = w.val.size
    k = min(k, K)
    order = _sort_desc(w.val, w.order)  # np.argsort(-val, kind="stable")
    first, n_valid = 0, 0
    found = False
    for j in range(k):
        valid = w.val[order[j]] > -np.inf  # the invalid ones are last (sorted) and replaced by the first
        n_valid += valid
        w.top[j] = order[j] if valid else order[0]
        if not found and w.top[j] == best:
            first, found = j, True
        w.margin[j] = -np.inf
    return best, seal, brk, k, first, n_valid


@_inline
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


@_jit
def _choose(w, k, first):
    """The column of the best margin (ties to the greedy's option, column ``first``)."""
    w.margin[first] += GREEDY_TIE_BONUS
    col = 0
    for j in range(1, k):
        if w.margin[j] > w.margin[col]:
            col = j
    return col


@_jit
def _lookahead(kp, A, g, r, slot, beat, B, level, works, pv_ok):
    """lookahead.search for one rider, every play-out rider greedy (the
    lookahead agent): (option, seal, break, whether ``works[level].pv``
    holds the game's greedy continuation from the state after the move).

    The continuation: where ``pv_ok``, ``w.pv`` holds the players' points
    at the end of the play-out the real game has followed since (its
    moves were the play-out's: greedy ones, or the search's own chosen
    option); the greedy's own option is then that play-out's continuation
    and its margin is read, not played again (lookahead.py's memo, kept
    per game)."""
    w = works[level]
    best, seal, brk, k, first, n_valid = _options(kp, A, g, r, slot, beat, kp.lookahead_k, w)
    if k == 1:
        return best, seal, brk, pv_ok  # the greedy's move: the continuation still holds
    last = _horizon(kp, beat, kp.lookahead_beats)
    P = A.pos.shape[1] // kp.riders_per_player
    player = r // kp.riders_per_player
    to_end = last == kp.beats
    # the greedy's own move exactly as the greedy plays it (its break only if it is also the top option)
    known = pv_ok and to_end and w.top[first] == best and (first == 0 or not brk)
    for j in range(n_valid):
        if known and j == first:
            for p in range(P):
                w.scores[j, p] = w.pv[p]
        else:
            opt = w.top[j]
            _copy_game(A, g, B, level)
            S1 = kp.max_spin_per_beat + 1
            _act_once(kp, B, level, slot, beat, opt // S1 + 1, opt % S1, seal, brk and opt == w.top[0], I0, w.removed)
            end = _greedy_play_out(kp, B, level, slot + 1, beat, last, works[LEVELS - 1])
            _scores(kp, B, level, end, P, w.dist, w.pts, w.scores[j])
        w.margin[j] = _margin_of(w.scores[j], player, P)
    col = _choose(w, k, first)
    choice = w.top[col]
    real_brk = brk and choice == w.top[first]
    # the chosen option's play-out is the game's continuation if the move played is the one played out
    followed = to_end and real_brk == (brk and choice == w.top[0])
    if followed:
        for p in range(P):
            w.pv[p] = w.scores[col, p]
    return choice, seal, real_brk, followed


@_jit
def _mixed_play_out(kp, A, g, slot, beat, until, B, works, moves, j):
    """lookahead._play_out with the riders playing as the lookahead before
    beat ``until`` and greedy after (:func:`_greedy_play_out`), to the end
    of the game; the moves of this beat (option, break) by slot into
    ``moves[j]`` (-1: none)."""
    R = A.pos.shape[1]
    S1 = kp.max_spin_per_beat + 1
    w = works[LEVELS - 1]
    pv_ok = NO  # no continuation known at the start of the play-out
    root = beat
    for s in range(R):
        moves[j, s, 0] = -1
    while beat < until:
        for s in range(slot, R):
            r = np.int64(A.order[g, s])
            if A.pos[g, r] < kp.L:
                k, seal, brk, pv_ok = _lookahead(kp, A, g, r, s, beat, B, I1, works, pv_ok)
                if beat == root:
                    moves[j, s, 0], moves[j, s, 1] = k, brk
                _act_once(kp, A, g, s, beat, k // S1 + 1, k % S1, seal, brk, I0, w.removed)
        beat = _end_beat_once(kp, A, g, beat, w.dist, w.pts)
        if beat >= kp.beats:
            return beat
        _begin_beat_once(kp, A, g, beat)
        slot = I0
    return _greedy_play_out(kp, A, g, slot, beat, kp.beats, w)


@_jit
def _deep(kp, A, g, r, slot, beat, B, works, cont_ok):
    """lookahead.deep_policy for one rider: the search with play-outs whose
    riders play as the lookahead this beat and ``deep_reply`` more:
    (option, seal, break, whether ``works[0]`` holds deep's continuation
    after the move).

    The continuation (as :func:`_lookahead`'s, for deep): where ``cont_ok``,
    the real game has followed the play-out of deep's previous choice this
    beat, whose moves by slot are ``w.cmoves`` and final points ``w.cpv``;
    an option equal to that play-out's move at this slot has the same
    play-out (the same riders, the same horizon), so its points are read."""
    w = works[0]
    best, seal, brk, k, first, n_valid = _options(kp, A, g, r, slot, beat, kp.deep_k, w)
    if k == 1:
        return best, seal, brk, False
    R = A.pos.shape[1]
    P = R // kp.riders_per_player
    until = beat + 1 + kp.deep_reply_beats
    known = cont_ok and w.cbeat[0] == beat and w.cmoves[slot, 0] >= 0
    for j in range(n_valid):
        opt = w.top[j]
        brk_j = brk and opt == w.top[0]  # the break as the play-out plays the option
        if known and opt == w.cmoves[slot, 0] and brk_j == (w.cmoves[slot, 1] == 1):
            for p in range(P):
                w.scores[j, p] = w.cpv[p]
            for s in range(R):
                w.moves[j, s, 0] = w.cmoves[s, 0] if s > slot else -1
                w.moves[j, s, 1] = w.cmoves[s, 1]
        else:
            _copy_game(A, g, B, I0)
            _act_once(
                kp,
                B,
                I0,
                slot,
                beat,
                opt // (kp.max_spin_per_beat + 1) + 1,
                opt % (kp.max_spin_per_beat + 1),
                seal,
                brk_j,
                I0,
                w.removed,
            )
            end = _mixed_play_out(kp, B, I0, slot + 1, beat, until, B, works, w.moves, j)
            _scores(kp, B, I0, end, P, w.dist, w.pts, w.scores[j])
        w.margin[j] = _margin_of(w.scores[j], r // kp.riders_per_player, P)
    col = _choose(w, k, first)
    choice = w.top[col]
    real_brk = brk and choice == w.top[first]
    # the chosen option's play-out is the continuation if the move played is the one played out
    followed = real_brk == (brk and choice == w.top[0])
    if followed:
        w.cbeat[0] = beat
        for p in range(P):
            w.cpv[p] = w.scores[col, p]
        for s in range(R):
            w.cmoves[s, 0], w.cmoves[s, 1] = w.moves[col, s, 0], w.moves[col, s, 1]
    return choice, seal, real_brk, followed


@_jit
def _decide(kp, A, g, r, slot, beat, code, B, works, cont):
    """The (option, seal, break) of rider ``r`` playing as agent ``code``,
    and which continuation ``works[0]`` holds after the move: LOOKAHEAD
    (``pv``, the greedy's, see :func:`_lookahead`; a greedy move keeps it),
    DEEP (deep's, see :func:`_deep`) or -1 (none).  ``cont``: the same
    before the move."""
    if code == LOOKAHEAD:
        k, seal, brk, ok = _lookahead(kp, A, g, r, slot, beat, B, I0, works, cont == LOOKAHEAD)
        return k, seal, brk, LOOKAHEAD if ok else -1
    if code == DEEP:
        k, seal, brk, ok = _deep(kp, A, g, r, slot, beat, B, works, cont == DEEP)
        return k, seal, brk, DEEP if ok else -1
    k, seal, brk = _greedy_once(kp, A, g, r, beat, works[0])
    return k, seal, brk, cont if cont == LOOKAHEAD else -1


@_jit
def _play_games(kp, A, codes, B, works, points):
    """engine.play_batch for every game of ``A`` (set up, beat 1's order done),
    rider ``r`` playing as agent ``codes[r]``; ``points`` (beats, G, R):
    segment + relic points after each beat (the lead changes)."""
    G, R = A.pos.shape
    S1 = kp.max_spin_per_beat + 1
    w = works[LEVELS - 1]
    for g in range(G):
        beat = I0
        cont = NONE
        for b in range(kp.beats):
            for s in range(R):
                r = np.int64(A.order[g, s])
                if A.pos[g, r] < kp.L:
                    k, seal, brk, cont = _decide(kp, A, g, r, s, beat, codes[r], B, works, cont)
                    _act_once(kp, A, g, s, beat, k // S1 + 1, k % S1, seal, brk, I0, w.removed)
            beat = _end_beat_once(kp, A, g, beat, w.dist, w.pts)
            for o in range(R):
                points[b, g, o] = A.seg_points[g, o] + A.relic_pts[g, o]
            if beat < kp.beats:
                _begin_beat_once(kp, A, g, beat)


@_jit
def _search_actions(kp, A, rider, acting, slot, beat, code, B, works, out):
    """One decision of agent ``code`` in every game: ``out`` (G, 3) option,
    seal, break (0/1) of ``np.int64(rider[g])``; the acting games search, the others
    get the greedy's choice (as the batch search's ``base``)."""
    w = works[0]
    for g in range(A.pos.shape[0]):
        if acting[g]:
            k, seal, brk, _ = _decide(kp, A, g, np.int64(rider[g]), slot, beat, code, B, works, NONE)
        else:
            k, seal, brk = _greedy_once(kp, A, g, np.int64(rider[g]), beat, w)
            brk = False  # the batch greedy breaks only where acting
        out[g, 0], out[g, 1], out[g, 2] = k, seal, brk


# ---------------------------------------------------------------- from Python


def play_games(params, state: State, seating) -> np.ndarray:
    """Play the set-up games of ``state`` to the end in place (every seat
    of ``seating`` greedy, lookahead or deep; :func:`supported` must
    hold); returns (beats, G, P) points after each beat (segment + relic,
    by player) for the lead changes."""
    kp = rules_of(params)
    R = state.pos.shape[1]
    codes = np.array([AGENT_CODES[seating[r // params.riders_per_player]] for r in range(R)], np.int64)
    A = arrays_of(state)
    points = np.zeros((params.beats, state.n_games, R), np.int64)
    _play_games(kp, A, codes, scratch(A), work(kp, R), points)
    write_back(A, state)
    state.beat, state.slot = params.beats, R
    return points.reshape(params.beats, state.n_games, state.n_players, -1).sum(axis=3)


def search_actions(params, state: State, rider, acting, agent: str):
    """(card, spin, seal, brk) (G,) arrays: agent ``agent``'s decision for
    ``rider`` in the games ``acting``, the greedy's in the others."""
    from .engine import option_list, slot_of

    kp = rules_of(params)
    R = state.pos.shape[1]
    rider = np.asarray(rider, np.int64)
    ga = np.flatnonzero(acting)
    slot = int(slot_of(state, rider)[ga[0]]) if ga.size else 0
    A = arrays_of(state)
    out = np.zeros((state.n_games, 3), np.int64)
    _search_actions(
        kp, A, rider, np.asarray(acting, bool), slot, state.beat, AGENT_CODES[agent], scratch(A), work(kp, R), out
    )
    card_k, spin_k = option_list(params.max_spin_per_beat)
    return card_k[out[:, 0]], spin_k[out[:, 0]], out[:, 1], out[:, 2].astype(bool)


@_jit
def _act_games(kp, A, slot, beat, card, spin, seal, brk, retrieve, removed):
    """:func:`_act` in every game (the differential tests' step)."""
    for g in range(A.pos.shape[0]):
        _act_once(kp, A, g, slot, beat, card[g], spin[g], seal[g], brk[g], retrieve[g], removed)


@_jit
def _next_beat(kp, A, beat, dist, pts):
    """:func:`_end_beat` and, unless the game is over, :func:`_begin_beat` in every game."""
    for g in range(A.pos.shape[0]):
        after = _end_beat_once(kp, A, g, beat, dist, pts)
        if after < kp.beats:
            _begin_beat_once(kp, A, g, after)


def act_games(params, state: State, actions, slot: int) -> None:
    """engine.act(params, state, actions, slot, inplace=True) by the kernel
    (no events; for the differential tests)."""
    kp = rules_of(params)
    A = arrays_of(state)
    a = [np.ascontiguousarray(x, np.int64) for x in (actions.card, actions.spin, actions.seal, actions.retrieve)]
    _act_games(
        kp, A, slot, state.beat, a[0], a[1], a[2], np.asarray(actions.brk, np.bool_), a[3], work(kp, 1)[0].removed
    )
    write_back(A, state)
    state.slot = slot + 1


def next_beat(params, state: State) -> None:
    """engine.end_beat and begin_beat (in place) by the kernel (for the differential tests)."""
    kp = rules_of(params)
    A = arrays_of(state)
    R = state.pos.shape[1]
    _next_beat(kp, A, state.beat, np.zeros(R, np.int64), np.zeros(R, np.int64))
    write_back(A, state)
    state.beat += 1
    if state.beat < params.beats:
        state.slot = 0


# the kernel plays only while this is True (tests switch it off to run the batch engine's own search)
ENABLED = True


def warm() -> float:
    """Compile every entry point once (or load it from the on-disk cache):
    one short game of each compiled agent, one search, one turn and beat.
    Returns the seconds it took (about 140 s of CPU the first time after
    an install or an edit of this file, well under a second after)."""
    import time

    from . import engine
    from .knobs import AgentParams

    t0 = time.perf_counter()
    params = AgentParams(beats=2, lookahead_beats=1, deep_reply_beats=0)
    rng = np.random.default_rng(0)
    chance = engine.draw_chance(params, 1, 2, rng)
    play_games(params, engine.init(params, 1, 2, chance), ["deep", "lookahead"])
    st = engine.init(params, 1, 2, chance)
    rider = st.order[:, 0].astype(np.intp)
    lg = engine.legal_for(params, st, rider)
    search_actions(params, st, rider, lg.acting, "lookahead")
    act_games(params, st, engine.random_actions(params, st, lg, rng), 0)
    next_beat(params, st)
    return time.perf_counter() - t0


if __name__ == "__main__":  # python -m gamelab.sbr.kernel: warm the compiled cache (e.g. after an install)
    from gamelab.sbr import kernel  # the package's module (functions compiled in __main__ are not cached)

    print(f"sbr kernel ready in {kernel.warm():.1f} s")
