"""STEEL BALL RUN's rules compiled: one game at a time, the one implementation.

Every move of the batch engine (:mod:`gamelab.sbr.engine`) and of the
agents' play-outs (:mod:`gamelab.sbr.heuristic`, :mod:`gamelab.sbr.search`)
runs through these functions; ``reference.py`` is the plain specification the
differential tests hold them to.  Compiled by numba (``gamelab.core.compiled``;
without numba they run as Python).

* :data:`Arrays`: the batch :class:`~gamelab.sbr.state.State`'s own arrays
  (every array field, then each counter of ``state.stats``), read and
  written in place, game ``g`` at a time (:func:`arrays_of`).
* :func:`rules_of`: every declared parameter of the rules and the agent knobs
  (``core.params.specs``) as one numpy record, under its own name (a reading
  as its index in the declaration, :func:`choice`; floats as float32, as the
  agents round them), plus the numbers derived from them; one record is one
  machine word to pass.  :func:`moves_of`: the move of every option from
  every square where no seal lies on the way (:class:`Moves`), tabulated by
  :func:`walk` itself.
* The rules: :func:`walk` (section 6.2 steps 4-5: the terrain of 4.2, the
  seals of 5.3, the stop square's relic of 5.4 and town), :func:`act` (a
  rider's turn, steps 1-6), :func:`end_beat` (segment scoring, 6.2) and
  :func:`begin_beat` (the acting order, step 0), :func:`rank_points` (the
  ranks of 6.2 and 6.3), the legal choices (:func:`card_playable`,
  :func:`spin_affordable`, :func:`seal_allowed`: 5.1-5.3), :func:`first_seal`.
* Batch loops for the engine (``*_games``): each runs one rule over every
  game of a batch.

Compile time.  Numba compiles each function once per argument types and
caches it on disk (``python -m gamelab.core.compiled sbr`` compiles every entry
point of the game through :data:`GROUP`'s warm: the Makefile's install step).  From an empty cache this
game's compiled code (this module, the greedy's and the search's) takes the
figure in docs/performance.md, "Compile time and the first make report";
later processes load it from the cache.  What keeps it small: the rules as one record (a tuple of
sixty fields was a few hundred machine words to lower at every call), no
Python wrappers on internal functions, typed constants instead of literals
(numba compiles a function once more for each literal argument), the state
as C-contiguous arrays, and numba's inlining only for the turn-sized
functions in the hot loops (:meth:`~gamelab.core.compiled.Group.inline`).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from gamelab.core.compiled import Group
from gamelab.core.params import specs

from .agent_params import AgentParams, knobs
from .rules import CURVE, EYE, HEART, N_VALUES, RIVER, ROCK, SKULL, TOWN
from .state import STATS, UNKNOWN, State

#: this game's compiled modules: one cache stamp (an edit of any recompiles all; gamelab.core.compiled)
# warmed by the runner's short games (sim.warm: every entry point of the three modules)
GROUP = Group("gamelab.sbr.kernel", "gamelab.sbr.heuristic", "gamelab.sbr.search", warm="gamelab.sbr.sim.warm")
jit, entry, inline = GROUP.jit, GROUP.entry, GROUP.inline

# Typed constants for the arguments of compiled calls: numba compiles a function once more for each
# literal argument (0, 1, False, True as written), so compiled callers pass these instead.
I0, I1, NONE = np.int64(0), np.int64(1), np.int64(-1)
NO, YES = np.bool_(False), np.bool_(True)
RELIC_CODES = UNKNOWN + 2  # a stop square's relic code + 1: 0 none, 1..4 eye..skull, 5 unknown

#: the batch State's arrays (games first) as the kernel reads them: every array field, then the counters
STATE_ARRAYS = tuple(f.name for f in dataclasses.fields(State) if f.type == "np.ndarray")
Arrays = NamedTuple("Arrays", [(name, np.ndarray) for name in (*STATE_ARRAYS, *STATS)])


def arrays_of(state: State) -> Arrays:
    """The kernel's view of ``state``: its own arrays, no copy (a C-contiguous
    copy is put into the state where one was not, so that the kernel
    compiles one layout)."""
    for name in STATE_ARRAYS:
        a = getattr(state, name)
        if not a.flags.c_contiguous:
            setattr(state, name, np.ascontiguousarray(a))
    for k in STATS:
        if not state.stats[k].flags.c_contiguous:
            state.stats[k] = np.ascontiguousarray(state.stats[k])
    return Arrays(*(getattr(state, name) for name in STATE_ARRAYS), *(state.stats[k] for k in STATS))


def scratch(like: Arrays, n: int) -> Arrays:
    """``n`` scratch games shaped as ``like``'s."""
    return Arrays(*(np.zeros((n, *a.shape[1:]), a.dtype) for a in like))


# ---------------------------------------------------------------- the rules as one record

#: knobs the agents compare in float64 (every other float knob is rounded to float32, as they round it)
FLOAT64_KNOBS = ("greedy_seal_min",)


def _spec(name):
    return next(s for s in specs(AgentParams) if s.name == name)


def _declared_field(spec):
    """The record field of a declared parameter (None: not read compiled, e.g. the board's codes, read
    as ``terrain``): bools and ints as they are, a choice as its index in ``spec.choices`` (:func:`choice`),
    floats as float32 (:data:`FLOAT64_KNOBS` float64), tuples as arrays of their longest length."""
    if spec.choices is not None:
        return spec.name, np.int64
    if spec.kind is tuple:
        item = {int: np.int64, float: np.float64}.get(spec.item_kind)
        return None if item is None else (spec.name, item, (spec.length[1],))
    if spec.kind is float:
        return spec.name, np.float64 if spec.name in FLOAT64_KNOBS else np.float32
    return spec.name, {bool: np.bool_, int: np.int64}[spec.kind]


#: what the kernel derives from the declarations (numbers of a board, a reading or the options)
_DERIVED = [
    ("L", np.int64),  # the finish square (params.length)
    ("M", np.int64),  # the most movement of a beat (the highest card plus the most spin)
    ("S1", np.int64),  # spin choices of a beat (max_spin_per_beat + 1): option k = (card - 1) * S1 + spin
    ("K", np.int64),  # options (card, spin) of a turn
    ("seal_sign", np.int64),  # +1 ahead, -1 behind (seal_direction)
    ("terrain", np.int64, (_spec("board").length[1] + 1,)),  # by square 0..L
    ("relic_worth", np.int64, (RELIC_CODES - 1,)),  # relic_points, index 4 (unknown) and -1 (none) worth 0
    ("segment_of_beat", np.int64, (_spec("beats").high + 1,)),  # the segment scored after beat b, -1 none
    ("team", np.int64, (_spec("max_players").high * _spec("riders_per_player").high,)),  # each rider's player
]
RULES = np.dtype([f for f in map(_declared_field, specs(AgentParams)) if f is not None] + _DERIVED, align=True)


def choice(name: str, value: str) -> int:
    """The code of reading ``value`` of the declared choice ``name`` (its index in the declaration)."""
    return _spec(name).choices.index(value)


STOP_BEFORE = choice("extra_cost_rule", "stop_before")
NO_SEAL_NO_RIDER = choice("seal_empty", "no_seal_no_rider")
FROM_START = choice("seat_order", "from_start")


@lru_cache(maxsize=32)
def rules_of(params):
    """The :data:`RULES` record of ``params`` (the knobs' defaults if a plain SbrParams)."""
    kn = knobs(params)
    rec = np.zeros(1, RULES).view(np.recarray)[0]
    for spec in specs(AgentParams):
        field = _declared_field(spec)
        if field is None:
            continue
        value = getattr(params, spec.name, getattr(kn, spec.name))
        if spec.choices is not None:
            rec[spec.name] = spec.choices.index(value)
        elif spec.kind is tuple:
            rec[spec.name][: len(value)] = value
        else:
            rec[spec.name] = value
    rec.L = params.length
    rec.S1 = params.max_spin_per_beat + 1
    rec.M = N_VALUES + params.max_spin_per_beat
    rec.K = N_VALUES * rec.S1
    rec.seal_sign = 1 if params.seal_direction == "ahead" else -1
    rec.terrain[: params.length + 1] = params.terrain_array()
    rec.relic_worth[: len(params.relic_points)] = params.relic_points
    rec.team[:] = np.arange(rec.team.size) // params.riders_per_player
    rec.segment_of_beat[:] = -1
    for k, b in enumerate(params.segment_ends()):
        rec.segment_of_beat[b] = k
    return rec


class Moves(NamedTuple):
    """A move with no seal on the way, by start square and option (:func:`moves_of`):
    (L+1, K) ``raw_*`` before the stop square's relic, (L+1, H, K, RELIC_CODES) after it
    by spin held (H = spin_cap + 1) and relic code at the stop square."""

    raw_end: np.ndarray  # the end square
    raw_stop: np.ndarray  # the square stopped on, -1 if none entered
    raw_tax: np.ndarray  # movement lost to terrain
    stop_square: np.ndarray  # the square stopped on, 0 if none (square 0 never holds a relic)
    end: np.ndarray  # the end square (a heart's squares added)
    spin: np.ndarray  # the spin held after the move (rivers, an eye, a town)


@lru_cache(maxsize=32)
def moves_of(params) -> Moves:
    """:class:`Moves` of ``params``, each entry :func:`walk`'s answer on an empty board."""
    kp = rules_of(params)
    L1, K, H = kp.L + 1, kp.K, params.spin_cap + 1
    tb = Moves(
        *(np.zeros((L1, K), np.int64) for _ in range(4)),
        *(np.zeros((L1, H, K, RELIC_CODES), np.int64) for _ in range(2)),
    )
    _fill_moves(kp, tb, np.full(L1, -1, np.int8), np.zeros(2 * L1, np.int64))
    return tb


# ---------------------------------------------------------------- the move (4.2, 5.3, 5.4)


@jit
def _extra_cost(kp, sq, big):
    """Section 4.2: the extra cost of entering square ``sq`` (a rock; a curve for a big card)."""
    t = kp.terrain[sq]
    if t == ROCK:
        return kp.rock_penalty
    if t == CURVE and big:
        return kp.curve_penalty
    return 0


@jit
def ignored(kp, owner, r):
    """Whether rider ``r`` passes the seal of ``owner`` without effect (5.3): his
    own (unless 9.3 pays him) and, if so read, his team mate's (9.5)."""
    if kp.seal_owner_bonus:
        return owner >= 0 and kp.team[owner] == kp.team[r] and owner != r and kp.team_seals_ignored
    own = owner == r
    if kp.team_seals_ignored:
        own = own or (owner >= 0 and kp.team[owner] == kp.team[r])
    return own


@jit
def _meet_seal(kp, owner, r, m, brk, spin):
    """Section 5.3 on the square just entered (``owner`` -1: no seal): (movement,
    spin, triggered, removed).  Straight-line returns: numba compiles a bool
    reassigned in a branch into slow code."""
    if owner < 0:
        return m, spin, False, False
    if kp.seal_owner_bonus != 0 and owner == r:  # 9.3: the owner's bonus, the seal taken off
        return m + kp.seal_owner_bonus, spin, False, True
    if ignored(kp, owner, r):
        return m, spin, False, False
    if m == 0 and not kp.break_on_stop:  # entered with no movement left
        return m, spin, kp.seal_spent_on_stop, kp.seal_spent_on_stop
    if brk and spin >= kp.seal_break_cost:
        return m, spin - kp.seal_break_cost, True, True
    return max(0, m - kp.seal_penalty), spin, True, True


@jit
def _move(kp, seal, r, pos, m, big, brk, spin, removed):
    """Step 4 square by square on the seal row ``seal``: terrain (4.2,
    ``extra_cost_rule``: FAQ Q3), a river's spin once per beat, seals (5.3).
    ``removed``: a buffer for the squares of the seals taken off.  Returns
    stop (-1 if no square entered), end, tax, spin, hits, removed count."""
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
        if kp.terrain[sq] == RIVER and river == 0:
            river = 1
            spin = min(kp.spin_cap, spin + kp.river_spin)
        m, spin, hit, rem = _meet_seal(kp, np.int64(seal[sq]), r, m, brk, spin)
        if rem:
            hits += hit
            removed[n_rem] = sq
            n_rem += 1
    return stop, pos, tax, spin, hits, n_rem


@jit
def _stop_effects(kp, kind, stop, end, spin):
    """Step 5 on the square stopped on (``stop`` -1: none): the relic of kind
    ``kind`` (5.4: an eye's spin, a heart's squares where they meet no seals),
    then a town's spin (4.2).  Returns end, spin."""
    if stop < 0:
        return end, spin
    if kind == EYE:
        spin = min(kp.spin_cap, spin + kp.eye_spin)
    if kind == HEART and not kp.heart_passes_seals:
        end = min(kp.L, end + kp.heart_steps)
    if kp.terrain[stop] == TOWN:
        spin = min(kp.spin_cap, spin + kp.town_spin)
    return end, spin


@jit
def _heart_walk(kp, seal, r, end, hits, n_rem, removed):
    """The heart's squares meeting seals (``heart_passes_seals``): no terrain,
    no relic, no breaking."""
    steps = kp.heart_steps
    while steps > 0 and end < kp.L:
        sq = min(end + 1, kp.L)
        end = sq
        steps -= 1
        steps, _, hit, rem = _meet_seal(kp, np.int64(seal[sq]), r, steps, NO, I0)
        hits += hit
        if rem:
            removed[n_rem] = sq
            n_rem += 1
    return end, hits, n_rem


@jit
def walk(kp, A, g, r, pos, m, big, brk, spin, removed):
    """Steps 4-5 of rider ``r``'s move in game ``g`` from ``pos`` with movement
    ``m`` (a big card or not), breaking seals or not, holding ``spin`` after
    paying for it; nothing written.  Returns stop, end, tax, spin, hits,
    relic kind taken (-1 none), and the count of seal squares in ``removed``."""
    seal = A.seal[g]
    stop, end, tax, spin, hits, n_rem = _move(kp, seal, r, pos, m, big, brk, spin, removed)
    kind = np.int64(A.relic[g, stop]) if stop >= 0 else NONE
    end, spin = _stop_effects(kp, kind, stop, end, spin)
    if kind == HEART and kp.heart_passes_seals:
        end, hits, n_rem = _heart_walk(kp, seal, r, end, hits, n_rem, removed)
    return stop, end, tax, spin, hits, kind, n_rem


@jit
def first_seal(kp, A, g, r):
    """Offset 1..M of the first square ahead of rider ``r`` holding a seal that
    matters to him (M + 1 if none within one move)."""
    pos = A.pos[g, r]
    for off in range(1, kp.M + 1):
        owner = np.int64(A.seal[g, min(pos + off, kp.L)])
        if owner >= 0 and not ignored(kp, owner, r):
            return off
    return kp.M + 1


@jit
def table_move(kp, tb, A, g, pos, k, held):
    """:func:`walk`'s answer for option ``k`` from ``pos`` holding ``held``
    where no seal lies on the way, read from :class:`Moves`."""
    kind = np.int64(A.relic[g, tb.stop_square[pos, k]])  # square 0 (no stop) holds none
    end, spin = tb.end[pos, held, k, kind + 1], tb.spin[pos, held, k, kind + 1]
    return tb.raw_stop[pos, k], end, tb.raw_tax[pos, k], spin, 0, kind, 0


@jit
def move(kp, tb, A, g, r, card, spend, brk, removed):
    """What playing ``card`` with ``spend`` spin (and breaking seals or not)
    does for rider ``r`` of game ``g``: :func:`walk` (the table where no seal
    lies within the move)."""
    pos, held = np.int64(A.pos[g, r]), np.int64(A.spin[g, r])
    k = (card - 1) * kp.S1 + spend
    tabled = not kp.heart_passes_seals and spend <= kp.max_spin_per_beat and held <= kp.spin_cap
    if tabled and tb.raw_end[pos, k] - pos < first_seal(kp, A, g, r):
        return table_move(kp, tb, A, g, pos, k, held)
    return walk(kp, A, g, r, pos, card + spend, card >= kp.big_card, brk, held - spend, removed)


@entry
def _fill_moves(kp, tb, seal, removed):
    """:class:`Moves` by :func:`walk`'s own steps on the empty seal row ``seal``."""
    for pos in range(kp.L + 1):
        for k in range(kp.K):
            card, s = k // kp.S1 + 1, k % kp.S1
            for held in range(tb.end.shape[1]):
                stop, end, tax, spin, _, _ = _move(
                    kp, seal, I0, pos, card + s, card >= kp.big_card, NO, held - s, removed
                )
                tb.raw_end[pos, k], tb.raw_stop[pos, k], tb.raw_tax[pos, k] = end, stop, tax
                tb.stop_square[pos, k] = max(stop, 0)
                for code in range(RELIC_CODES):
                    tb.end[pos, held, k, code], tb.spin[pos, held, k, code] = _stop_effects(
                        kp, np.int64(code - 1), stop, end, spin
                    )


# ---------------------------------------------------------------- a turn (6.2 steps 1-6)


@jit
def _take_back(A, g, r, want):
    """Section 5.4's skull: card value ``want`` back from the discard, else the
    highest there (nothing if the discard is empty)."""
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


@inline
def act(kp, tb, A, g, slot, beat, card, spend, seal_d, brk, retrieve, removed):
    """Section 6.2 steps 1-6 for the ``slot``-th rider of game ``g``'s order
    in beat ``beat`` (0-based): the card (1, 5.1; into the discard at once
    under ``skull_takes_current``), the spin (2, 5.2), a seal (3, 5.3), the
    move (4-5), a relic and a skull's card back (5.4), the draw (6; nothing
    once the deck is out, FAQ Q14), the finish beat.  A finished rider
    skips.  Returns the square stopped on and the relic kind taken (-1 none)."""
    r = np.int64(A.order[g, slot])
    pos = A.pos[g, r]
    if pos >= kp.L:
        return NONE, NONE
    c = card - 1
    A.hand[g, r, c] -= 1
    if kp.skull_takes_current:
        A.discard[g, r, c] += 1
    A.spin_spent[g, r] += spend
    A.card_sum[g, r] += card
    A.cards_played[g, r] += 1
    if seal_d > 0:
        A.seal[g, pos + kp.seal_sign * seal_d] = r
        A.seals_left[g, r] -= 1
        A.seals_placed[g, r] += 1
    stop, end, tax, spin, hits, kind, n_rem = move(kp, tb, A, g, r, card, spend, brk, removed)
    A.pos[g, r] = end
    A.spin[g, r] = spin
    A.terrain_tax[g, r] += tax
    A.seal_hits[g, r] += hits
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
    return np.int64(stop), np.int64(kind)


@jit
def act_once(kp, tb, A, g, slot, beat, card, spend, seal_d, brk, retrieve, removed):
    """:func:`act`, called (where a turn is not in a hot loop)."""
    return act(kp, tb, A, g, slot, beat, card, spend, seal_d, brk, retrieve, removed)


# ---------------------------------------------------------------- ranks and the beat (6.2, 6.3)


@jit
def _seat(kp, A, g, o, first_beat):
    """Rider ``o``'s place in the "seat order" that breaks ties: clockwise from
    the start rider in beat 1 (6.1) and, under ``seat_order = from_start``, in
    every tie-break; else his seat number."""
    R = A.pos.shape[1]
    if first_beat or kp.seat_order == FROM_START:
        return (np.int64(o) - np.int64(A.start[g])) % R
    return np.int64(o)


@jit
def _ahead(a1, a2, a3, a4, b1, b2, b3, b4):
    """(a1, a2, a3, a4) < (b1, b2, b3, b4), as tuples."""
    if a1 != b1:
        return a1 < b1
    if a2 != b2:
        return a2 < b2
    if a3 != b3:
        return a3 < b3
    return a4 < b4


@jit
def rank_points(kp, A, g, points, dist, with_dist, out):
    """Riders ranked by distance ``dist`` (if ``with_dist``: segment scoring,
    6.2), then position, then relics (higher first), then the seat order
    (6.3 without the distance); each rider's points of ``points`` into ``out``."""
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


@inline
def end_beat(kp, A, g, beat, dist, pts):
    """The end of beat ``beat`` (0-based) of game ``g``: after every third beat
    and the last (6.2), segment points by distance this segment (ties:
    position, relics, seat order), and the seals cleared.  ``dist``, ``pts``:
    (R,) scratch.  Returns the beats completed."""
    beat += 1
    k = kp.segment_of_beat[beat]
    if k >= 0:
        R = A.pos.shape[1]
        for o in range(R):
            dist[o] = A.pos[g, o] - A.seg_start[g, o]
        rank_points(kp, A, g, kp.segment_points, dist, YES, pts)
        for o in range(R):
            A.seg_points[g, o] += pts[o]
            A.seg_dist[g, k, o] = dist[o]
            A.seg_pts[g, k, o] = pts[o]
            A.seg_start[g, o] = A.pos[g, o]
            earlier = 0  # the relic points taken in the segments before this one
            for j in range(k):
                earlier += A.seg_relic[g, j, o]
            A.seg_relic[g, k, o] = A.relic_pts[g, o] - earlier
        for sq in range(A.seal.shape[1]):
            A.seal[g, sq] = -1
    return beat


@inline
def begin_beat(kp, A, g, beat):
    """Section 6.2 step 0 for beat ``beat`` (0-based): the acting order, back
    to front, then less spin, then seat order (beat 1, or every beat under
    ``seat_order = from_start``: counted from the start rider)."""
    R = A.pos.shape[1]
    first = beat == 0
    for i in range(R):
        rank = 0
        for j in range(R):
            if j != i and _ahead(
                np.int64(A.pos[g, j]),
                np.int64(A.spin[g, j]),
                _seat(kp, A, g, j, first),
                I0,
                np.int64(A.pos[g, i]),
                np.int64(A.spin[g, i]),
                _seat(kp, A, g, i, first),
                I0,
            ):
                rank += 1
        A.order[g, rank] = i


@jit
def end_beat_once(kp, A, g, beat, dist, pts):
    """:func:`end_beat`, called."""
    return end_beat(kp, A, g, beat, dist, pts)


@jit
def begin_beat_once(kp, A, g, beat):
    """:func:`begin_beat`, called."""
    begin_beat(kp, A, g, beat)


@jit
def card_playable(kp, A, g, r, c):
    """Section 5.1: rider ``r`` may play a card of value ``c + 1``: he holds one
    and still races (a finished rider plays nothing, FAQ Q13)."""
    return A.pos[g, r] < kp.L and A.hand[g, r, c] > 0


@jit
def spin_affordable(kp, A, g, r, s):
    """Section 5.2: rider ``r`` may spend ``s`` spin: at most what he holds and
    at most ``max_spin_per_beat``."""
    return s <= min(np.int64(A.spin[g, r]), kp.max_spin_per_beat)


@jit
def seal_allowed(kp, A, g, r, d):
    """Section 5.3: whether rider ``r`` may place a seal ``d`` >= 1 squares
    away (``seal_direction``): a seal left, a square 1..L-1, empty
    (``seal_empty``: no seal, or no seal and no rider)."""
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


# ---------------------------------------------------------------- batch loops (the engine's calls)


@entry
def act_games(kp, tb, A, slot, beat, card, spin, seal, brk, retrieve, mask, stop, relic, removed):
    """:func:`act` in every game of ``mask``; the square stopped on and the relic taken into ``stop``, ``relic``."""
    for g in range(A.pos.shape[0]):
        if mask[g]:
            stop[g], relic[g] = act(kp, tb, A, g, slot, beat, card[g], spin[g], seal[g], brk[g], retrieve[g], removed)


@entry
def end_beat_games(kp, A, beat, dist, pts):
    """:func:`end_beat` in every game."""
    for g in range(A.pos.shape[0]):
        end_beat_once(kp, A, g, beat, dist, pts)


@entry
def begin_beat_games(kp, A, beat):
    """:func:`begin_beat` in every game."""
    for g in range(A.pos.shape[0]):
        begin_beat_once(kp, A, g, beat)


@entry
def final_points_games(kp, A, dist, out):
    """Each rider's final points by position (6.3: ties by relics, then seat order) into ``out`` (G, R)."""
    for g in range(A.pos.shape[0]):
        rank_points(kp, A, g, kp.final_points, dist, NO, out[g])


@entry
def legal_masks(kp, A, rider, card, spin, seal):
    """The choices of rider ``rider[g]`` of every game (6.2 steps 1-3): ``card``
    (G, 5) the values he may play, ``spin`` (G, max_spin_per_beat + 1) the
    amounts he may spend, ``seal`` (G, seal_range + 1) the distances he may
    seal (0, no seal: always)."""
    for g in range(A.pos.shape[0]):
        r = np.int64(rider[g])
        for c in range(card.shape[1]):
            card[g, c] = card_playable(kp, A, g, r, np.int64(c))
        for s in range(spin.shape[1]):
            spin[g, s] = spin_affordable(kp, A, g, r, np.int64(s))
        seal[g, 0] = True
        for d in range(1, seal.shape[1]):
            seal[g, d] = seal_allowed(kp, A, g, r, np.int64(d))


@entry
def first_seals(kp, A, rider, out):
    """:func:`first_seal` of rider ``rider[g]`` of every game into ``out``."""
    for g in range(A.pos.shape[0]):
        out[g] = first_seal(kp, A, g, np.int64(rider[g]))


@entry
def outcomes(kp, tb, A, games, rider, card, spend, brk, out, removed):
    """:func:`move` of rider ``rider[i]`` in game ``games[i]`` for (n, K) options:
    ``out`` (6, n, K) stop, end, spin, tax, hits, relic; nothing written."""
    for i in range(card.shape[0]):
        for j in range(card.shape[1]):
            stop, end, tax, spin, hits, kind, _ = move(
                kp, tb, A, games[i], np.int64(rider[i]), card[i, j], spend[i, j], brk[i, j], removed
            )
            out[0, i, j], out[1, i, j], out[2, i, j] = stop, end, spin
            out[3, i, j], out[4, i, j], out[5, i, j] = tax, hits, kind
