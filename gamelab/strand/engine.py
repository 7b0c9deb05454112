"""STRAND batch engine: G games advanced together, rules as pure functions.

State (:class:`State`, leading axis G games, P seats):

====================  ============  ==========================================
``hand``              (G,P,5) i8    cards held per value 1..5 (unknown in replay)
``limit``             (G,P) i8      hand limit (3, raised by stays up to 5)
``deck``/``discard``  (G,5) i8      cards left per value; discards per value
``score``             (G,P) i16     gross points so far
``lone``              (G,P) i8      lone markers
``seg``               (G,) i8       track marker: segment index 0.. (n = passed the end)
``rnd``               (G,) i8       rounds played
``role``/``uses``     (G,P) i8      role code (rules.ROLES, 0 none), uses left
``rain_order``        (G,R) i8      time-rain card of each round (-1 none)
``rain``              (G,) i8       this round's card
``card``/``cargo``    (G,P) i8      printed card shown / effective cargo this round
``rope``              (G,P) i8      seat pointed at (-1 stay); kept until next ropes
``partner``           (G,P) i8      teammate this round (-1 none)
``phase``             int           CARGO, ROPE or REACT (all games in step)
``tracked``           bool          hands are known (simulation) or not (replay)
====================  ============  ==========================================

A round is three simultaneous decisions, each ``step(params, state, actions,
chance)`` with ``actions`` (G,P) int (codes in ``reference.py``'s docstring):
CARGO (reveal, porter), ROPE (point / stay / bb lock), REACT (veteran,
engineer, musician, fragile), after which the round is scored and the hands
refilled from ``chance["draws"]`` (G,P,2) uniforms drawn by the caller.

``play`` returns, per game: ``score`` (G,P) final score, ``win`` (G,P) win share
(ties split 1/k; under variant E each member gets its team's share), ``rank``
(G,P) 1 = best, ``gross``, ``lone`` (G,P) markers, and the appendix B
diagnostics: ``lone_total`` (G,) markers in the game, ``formed_rounds`` (G,)
rounds with a team (the track moved), ``void_nodes`` (G,) nodes voided by a
full tie, ``node_points`` (G,P) node points scored, ``final_seg`` (G,).
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from .rules import (ACID, BB, BT_TIDE, CLEAR, CRATE, FOG, ENGINEER, FRAGILE, MUSICIAN, PORTER, ROLES,
                    STATIC, TOOLS, TOWER, VETERAN, StrandParams, check_players, role_code)
from ..errors import ParamError

CARGO, ROPE, REACT = 0, 1, 2
DRAWS = 2  # a refill never needs more than two cards per seat (limit rises by one per round)
NODE_NONE, NODE_TAKEN, NODE_VOID = 0, 1, 2


@dataclasses.dataclass(frozen=True)
class State:
    hand: np.ndarray
    limit: np.ndarray
    deck: np.ndarray
    discard: np.ndarray
    score: np.ndarray
    lone: np.ndarray
    seg: np.ndarray
    rnd: np.ndarray
    role: np.ndarray
    uses: np.ndarray
    rain_order: np.ndarray
    rain: np.ndarray
    card: np.ndarray
    cargo: np.ndarray
    rope: np.ndarray
    partner: np.ndarray
    phase: int = CARGO
    tracked: bool = True

    @property
    def n_games(self):
        return self.score.shape[0]

    @property
    def n_players(self):
        return self.score.shape[1]

    @property
    def done(self):
        return self.rnd >= self.rain_order.shape[1]

    def copy(self, **changes):
        arrays = {f.name: getattr(self, f.name).copy() for f in dataclasses.fields(self)
                  if isinstance(getattr(self, f.name), np.ndarray)}
        arrays.update(changes)
        return dataclasses.replace(self, **arrays)


# --- setup --------------------------------------------------------------------
def roles_array(roles, n_games, n_players, rng=None, params=None):
    """Role codes (G,P): None (no roles), one name per seat, a (G,P) code
    array, or "random" (each game deals distinct roles, section 6.1 step 6)."""
    if roles is None:
        return np.zeros((n_games, n_players), np.int8)
    if isinstance(roles, str) and roles == "random":
        keys = rng.random((n_games, len(ROLES)))
        return (np.argsort(keys, axis=1)[:, :n_players] + 1).astype(np.int8)
    arr = np.asarray(roles)
    if arr.ndim == 1:
        if len(arr) != n_players:
            raise ParamError(f"roles has {len(arr)} entries: expected one per seat ({n_players})")
        arr = np.array([role_code(r) for r in roles], np.int8)[None].repeat(n_games, 0)
    arr = arr.astype(np.int8)
    srt = np.sort(arr, 1)
    if ((srt[:, 1:] == srt[:, :-1]) & (srt[:, 1:] > 0)).any():
        raise ParamError("roles: each role card exists once, so no two seats may hold the same role")
    return arr


def init(params: StrandParams, n_games: int, n_players: int, rng=None, *, roles=None,
         rain_order=None) -> State:
    """Section 6.1: shuffle, deal ``hand_size`` cards each, track at segment 1.

    With ``rng`` None the hands stay unknown (replay: cargo is given, not
    drawn); time-rain cards then come from ``rain_order`` (G, rounds)."""
    check_players(n_players, params)
    G, P = n_games, n_players
    role = roles_array(roles, G, P, rng, params)
    uses = np.asarray(params.role_uses(), np.int8)[role]
    deck = np.broadcast_to(np.asarray(params.cargo_counts, np.int8), (G, 5)).copy()
    if rain_order is None:
        rain_order = _rain_order(params, G, rng)
    rain_order = np.asarray(rain_order, np.int8).reshape(G, params.rounds)
    z = lambda dt=np.int8: np.zeros((G, P), dt)
    st = State(hand=np.zeros((G, P, 5), np.int8), limit=np.full((G, P), params.hand_size, np.int8),
               deck=deck, discard=np.zeros((G, 5), np.int8), score=z(np.int16), lone=z(),
               seg=np.zeros(G, np.int8), rnd=np.zeros(G, np.int8), role=role, uses=uses,
               rain_order=rain_order, rain=rain_order[:, 0].copy(), card=z(), cargo=z(),
               rope=np.full((G, P), -1, np.int8), partner=np.full((G, P), -1, np.int8),
               tracked=rng is not None)
    if rng is not None:
        _refill(st, rng.random((G, P, params.hand_size)))
    return st


def _rain_order(params, G, rng):
    """Variant F: the rain deck shuffled, reshuffled when the rounds outlast it."""
    order = np.full((G, params.rounds), -1, np.int8)
    deck = np.array([c for c in params.rain_codes if not (params.clear_redraw and c == CLEAR)], np.int8)
    if not params.time_rain or len(deck) == 0:
        return order
    for start in range(0, params.rounds, len(deck)):
        perm = deck[np.argsort(rng.random((G, len(deck))), axis=1)]
        k = min(len(deck), params.rounds - start)
        order[:, start:start + k] = perm[:, :k]
    return order


def draw_chance(params, state, rng) -> dict:
    """Chance for a step: refill uniforms for the REACT step, nothing otherwise."""
    if state.phase != REACT or not state.tracked:
        return {}
    return {"draws": rng.random((state.n_games, state.n_players, DRAWS))}


# --- hot-path helpers -----------------------------------------------------------
# numpy calls on (G,P) arrays: elementwise ops on whole arrays are cheap, but a
# (G,) -> (G,1) broadcast, np.where, take_along_axis and reductions over the
# short seat axis cost 10-100x more at these sizes; the helpers avoid them.
@lru_cache(maxsize=16)
def _grid(G, P):
    """Flat offsets of each game's row in a (G,P) array, and each cell's seat."""
    flat = np.arange(G, dtype=np.int64)[:, None] * P + np.zeros(P, np.int64)
    seat = np.broadcast_to(np.arange(P, dtype=np.int8), (G, P)).copy()
    flat.flags.writeable = seat.flags.writeable = False
    return flat, seat


def _cols(x, P):
    """(G,) -> (G,P), the game's value in every seat's column."""
    return np.repeat(x, P).reshape(-1, P)


def _colsum(a):
    """Sum over the short seat axis of a (G,P) array, as a loop of column adds."""
    out = a[:, 0].copy()
    for s in range(1, a.shape[1]):
        out += a[:, s]
    return out


_ONEHOT = np.vstack([np.zeros(5, np.int8), np.eye(5, dtype=np.int8)])  # card value 1..5 -> (5,) row


def _onehot(v):
    """(..., 5) int8 rows: 1 at the index of card value ``v`` (1..5)."""
    return _ONEHOT.take(v, axis=0)


# --- card draws ---------------------------------------------------------------
def _rowsum(a):
    """Sum over the 5 card values (explicit adds beat a short-axis reduce)."""
    return a[:, 0].astype(np.int16) + a[:, 1] + a[:, 2] + a[:, 3] + a[:, 4]


def _reshuffle(deck, discard, total, active=None):
    """Games (of ``active``, None: all) whose deck is empty take their discards back."""
    empty = total == 0
    if active is not None:
        empty &= active
    if empty.any():
        deck[empty] += discard[empty]
        discard[empty] = 0
        total = _rowsum(deck)
    return total


def _draw(deck, discard, u, total, active=None):
    """One card for each game of ``active`` (None: all) from its deck of
    ``total`` cards; see ``reference.draw_card``.  In place: returns the (G,5)
    one-hot rows of the cards drawn (zero for inactive games) and the new totals.
    Inactive games go through the same arithmetic and are masked out, which is
    cheaper than gathering and scattering the active ones."""
    total = _reshuffle(deck, discard, total, active)
    r = (u * total).astype(np.int16)
    c = deck[:, 0].astype(np.int16)
    v = (c <= r).astype(np.int8)
    for k in (1, 2, 3):
        c = c + deck[:, k]
        v += c <= r
    v += 1
    if active is not None:
        v *= active
    got = _onehot(v)
    deck -= got
    total = total - (True if active is None else active)
    return got, _reshuffle(deck, discard, total, active)


def _hand_sizes(hand):
    """(G,P) cards held (explicit adds beat a short-axis reduce)."""
    return hand[..., 0] + hand[..., 1] + hand[..., 2] + hand[..., 3] + hand[..., 4]


def _refill(st, draws, live=None):
    """Section 6.2 step 1: each seat in turn fills up to its limit.  In place."""
    held = _hand_sizes(st.hand)
    total = _rowsum(st.deck)
    for s in range(st.n_players):
        need = st.limit[:, s] - held[:, s]
        if live is not None:
            need = need * live
        for k in range(int(need.max(initial=0))):
            active = need > k
            got, total = _draw(st.deck, st.discard, draws[:, s, k], total, None if active.all() else active)
            st.hand[:, s] += got


def negotiation(params, state) -> np.ndarray:
    """(G,) whether players may talk before ropes (step 3): not in variant B,
    not under variant F's fog card.  The rules never read it; agents do."""
    return np.full(state.n_games, not params.silent) & (state.rain != FOG)


def round_cap(params, state) -> np.ndarray:
    """(G,) this round's sum cap: ``sum_cap``, or the static / tools card's."""
    return _cap_table(params.sum_cap, params.static_cap, params.tools_cap).take(state.rain.astype(np.intp) + 1)


@lru_cache(maxsize=64)
def _cap_table(sum_cap, static_cap, tools_cap):
    """Round cap by rain card + 1 (0: no card)."""
    caps = np.full(9, sum_cap, np.int64)
    caps[STATIC + 1], caps[TOOLS + 1] = static_cap, tools_cap
    return caps


def team_values(params, state):
    """What each possible team would do with the revealed cargo (ROPE phase).

    Returns ``(full, points, key)``, each (G,P,P) for seat i teamed with seat j:
    ``full`` the pair crosses in full (sum <= this round's cap, 5.1), ``points``
    the cargo points i would score (6.3: cargo, or half when overweight;
    role powers aside), ``key`` the node ranking of the pair (5.4: sum, then
    the heavier card; -1 when overweight).  Agents ask this, not the rules."""
    c = state.cargo.astype(np.int16)
    ci, cj = c[:, :, None], c[:, None, :]
    total = ci + cj
    full = total <= round_cap(params, state)[:, None, None]
    points = np.where(full, ci, _half(ci, params))
    key = np.where(full, _node_key(total, np.maximum(ci, cj)), -1)
    return full, points, key


def _node_key(total, heavier):
    return total * 8 + heavier


# --- legal actions -----------------------------------------------------------
def legal_mask(params, state, seat) -> np.ndarray:
    """(G, A) bool of the legal actions of ``seat`` in the current phase."""
    return (cargo_mask, rope_mask, react_mask)[state.phase](params, state, seat)


def cargo_mask(params, st, seat):
    held = st.hand[:, seat] > 0 if st.tracked else np.ones((st.n_games, 5), bool)
    porter = (st.role[:, seat] == PORTER) & (st.uses[:, seat] > 0)
    return np.concatenate([held, held & porter[:, None]], 1)


def rope_mask(params, st, seat):
    G, P = st.n_games, st.n_players
    point = np.ones((G, P + 1), bool)
    point[:, seat] = False
    bb = (st.role[:, seat] == BB) & (st.uses[:, seat] > 0)
    lock = np.repeat(bb[:, None], P, 1)
    lock[:, seat] = False
    return np.concatenate([point, lock], 1)


def _status(st):
    team = st.partner >= 0
    stay = (st.rope < 0) & ~team
    return team, stay, ~team & ~stay


def react_mask(params, st, seat):
    G, P = st.n_games, st.n_players
    team, stay, lone = _status(st)
    role, has = st.role[:, seat], st.uses[:, seat] > 0
    power = has & (((role == VETERAN) & lone[:, seat])
                   | (((role == ENGINEER) | (role == MUSICIAN)) & team[:, seat]))
    frag = has & (role == FRAGILE) & lone[:, seat]
    switch = frag[:, None] & (st.rope == seat) & ~team
    return np.concatenate([np.ones((G, 1), bool), power[:, None], switch], 1)


# --- steps --------------------------------------------------------------------
def step(params, state, actions, chance=None, *, inplace=False):
    """Advance every game by one decision; returns (new_state, events).

    ``actions`` must be legal (``legal_mask``); the engine does not re-check
    them in the hot path (records are checked in ``record.py``).  ``inplace``
    updates ``state``'s arrays instead of copying them first (for a caller
    that keeps no reference to the old state: ``play``, ``sim.play_games``)."""
    actions = np.asarray(actions)
    st = state if inplace else state.copy()
    return (_reveal, _ropes, _settle)[state.phase](params, st, actions, chance or {})


def _reveal(p, st, a, chance):
    """Step 2: cargo shown at once; porter +1 (max 5), then acid rain (min 1)."""
    porter = a >= 5
    v = (a + 1 - 5 * porter).astype(np.int8)
    if st.tracked:
        st.hand[:] -= _onehot(v)
    st.uses[:] -= porter
    cargo = v + porter * (np.minimum(5, v + p.porter_bonus) - v)
    acid = st.rain == ACID
    if acid.any():
        acid = _cols(acid, st.n_players)
        cargo = cargo + acid * (np.maximum(1, cargo - p.acid_minus) - cargo)
    st.card[:], st.cargo[:] = v, cargo
    return dataclasses.replace(st, phase=ROPE), {"cargo": cargo, "porter": porter}


def _pair(partner, seat, other, games):
    partner[games, seat] = other[games]
    partner[games, other[games]] = seat


def _mutual(rope, bound):
    flat, seat = _grid(*rope.shape)
    valid = (rope >= 0) & ~bound
    tgt = flat + rope * valid
    ok = valid & ~bound.take(tgt) & (rope.take(tgt) == seat)
    return ok


def _ropes(p, st, a, chance):
    """Steps 4 and 5-1: ropes shown at once; mutual pairs and bb locks form teams."""
    P = st.n_players
    locked = a > P
    lock = locked * (a - P) - 1
    st.rope[:] = lock + (a < P) * (a - lock)
    st.uses[:] -= locked
    partner = np.full_like(st.rope, -1)
    locks = [(s, np.flatnonzero(lock[:, s] >= 0)) for s in range(P)] if locked.any() else []
    if p.bb_lock == "override":
        for s, g in locks:
            _pair(partner, s, lock[:, s], g)
    mut = _mutual(st.rope, partner >= 0)
    partner += mut * (st.rope - partner)
    if p.bb_lock == "yield":
        for s, g in locks:
            g = g[partner[g, lock[g, s]] < 0]
            _pair(partner, s, lock[:, s], g)
    st.partner[:] = partner
    return dataclasses.replace(st, phase=REACT), {"lock": lock, "rope": st.rope.copy()}


def _settle(p, st, a, chance):
    """Steps 5-2..5-6: reactions, scores, node, markers, track; then refill."""
    G, P = st.n_games, st.n_players
    idx = np.arange(P)
    halfed = a >= 2
    if halfed.any():
        for s in range(P):
            _pair(st.partner, s, a[:, s] - 2, np.flatnonzero(halfed[:, s]))
    team, stay, lone = _status(st)
    used = (a == 1) & ((st.role != VETERAN) | lone)
    st.uses[:] -= halfed | used
    gained, node = _score(p, st, team, stay, lone, used, halfed)
    st.score[:] += gained
    tide = st.rain == BT_TIDE
    if tide.any():
        st.lone[:] += lone * _cols(np.where(tide, p.bt_markers, 1).astype(np.int8), P)
    else:
        st.lone[:] += lone
    _limits(p, st, stay)
    _discard(p, st, stay)
    formed = _colsum(team)
    events = {"gained": gained, "partner": st.partner.copy(), "stay": stay, "lone": lone,
              "team": team, "used": used | halfed, "formed": formed, "seg": st.seg.copy(), **node}
    st.seg[:] += formed
    st.rnd[:] += 1
    n_nodes = len(p.node_values)
    end = (st.rnd >= p.rounds) | (st.seg >= n_nodes)
    st.rnd[end] = p.rounds  # the track passed the last segment: the game is over
    live = ~end
    R = st.rain_order.shape[1]
    nxt = np.arange(0, G * R, R) + np.minimum(st.rnd, p.rounds - 1)
    st.rain[:] = live * (st.rain_order.take(nxt) + 1) - 1
    if st.tracked and "draws" in chance and live.any():
        _refill(st, chance["draws"], live)
    return dataclasses.replace(st, phase=CARGO), events


def _half(v, p):
    return (v + 1) // 2 if p.half_rounding == "up" else v // 2


def _score(p, st, team, stay, lone, used, halfed):
    """Section 6.3: team (full or overweight), lone, stay; 5.4: the node."""
    P = st.n_players
    flat, seat = _grid(*st.cargo.shape)
    cargo = st.cargo.astype(np.int16)
    hv = _half(cargo, p)
    contrib = cargo + (halfed * (hv - cargo) if p.fragile_sum == "half" else 0)
    mate = seat + team * (st.partner - seat)          # own seat when not in a team
    at_mate = flat + mate
    mc = contrib.take(at_mate)
    total = contrib + mc
    eng = used & (st.role == ENGINEER)
    eng = eng | eng.take(at_mate)
    cap = _cols(round_cap(p, st), P)
    full = team & (total <= cap + eng * p.engineer_bonus)
    over = team & ~full
    vet = used & (st.role == VETERAN)
    gained = (full & ~halfed) * cargo + ((full & halfed) | over) * hv
    gained += lone * (hv + vet * (cargo - hv))
    mus = used & (st.role == MUSICIAN) & (full | (over & p.musician_on_overweight))
    gained += mus * p.musician_bonus
    crate = p.crate_bonus if p.crate_to == "each" else p.crate_bonus // 2
    crated = st.rain == CRATE
    if crated.any():
        gained += (team & _cols(crated, P)) * crate
    key = full * (_node_key(total, np.maximum(contrib, mc)) + 1) - 1
    best = key[:, 0].copy()
    for s in range(1, P):
        np.maximum(best, key[:, s], out=best)
    top = key == _cols(best, P)
    n_top = _colsum(top.view(np.int8))
    win = top & _cols((n_top == 2) & (best >= 0), P)
    seg = np.minimum(st.seg, len(p.node_values) - 1)
    value = np.asarray(p.node_values, np.int16)[seg] * (1 + (st.rain == TOWER) * (p.tower_factor - 1))
    value = value.astype(np.int16)
    if p.node_award == "each":
        award = win * _cols(value, P)
    else:
        value = value[:, None]
        big = (contrib > mc) | ((contrib == mc) & (seat < mate))
        award = np.where(win, np.where(big, (value + 1) // 2, value // 2), 0)
    gained = (gained + award).astype(np.int16)
    result = ((best >= 0) * (NODE_VOID - (n_top == 2))).astype(np.int8)
    return gained, {"full": full, "over": over, "node_winner": win, "node_points": award,
                    "node_value": value.reshape(-1), "node_result": result}


def _limits(p, st, stay):
    """Section 5.2 point 3: a stay raises the hand limit by one, up to max_hand."""
    raised = np.minimum(st.limit + 1, p.max_hand).astype(np.int8)
    other = st.limit if p.stay_bonus == "accumulate" else np.int8(p.hand_size)
    st.limit[:] = other + stay * (raised - other)


def _discard(p, st, stay):
    """Step 5-6: shown cards go to the discards (a stayer's back to hand if so read)."""
    back = stay & p.stay_returns_cargo
    if not back.any():   # every shown card goes to the discards
        st.discard[:] += _colsum(_onehot(st.card))
        return
    rows = np.arange(st.n_games)
    for s in range(st.n_players):
        keep = back[:, s]
        v = st.card[:, s].astype(np.int64) - 1
        st.discard[rows, v] += ~keep
        if st.tracked:
            st.hand[rows, s, v] += keep


# --- the end -------------------------------------------------------------------
def results(params, st) -> dict:
    """Section 6.4: final = gross - penalty x markers; more points, then fewer
    markers; still tied -> shared win.  Variant E compares team totals."""
    P = st.n_players
    final = st.score.astype(np.int32) - params.lone_penalty * st.lone.astype(np.int32)
    marks = st.lone.astype(np.int32)
    if params.teams:
        other = (np.arange(P) + P // 2) % P
        key = (final + final[:, other]) * 1024 - (marks + marks[:, other])
    else:
        key = final * 1024 - marks
    best = key.max(1, keepdims=True)
    tops = key == best
    share = (2.0 if params.teams else 1.0) / tops.sum(1, keepdims=True)
    rank = 1 + (key[:, None, :] > key[:, :, None]).sum(2)
    return {"score": final, "win": tops * share, "rank": rank, "gross": st.score.copy(),
            "lone": st.lone.copy()}


def play(params, policies, n_games, rng, n_players=4, *, roles=None) -> dict:
    """Play ``n_games`` to the end.  ``policies[seat](params, state, seat,
    legal_mask, rng) -> (G,) actions``; ``rng`` is the only source of chance."""
    st = init(params, n_games, n_players, rng, roles=roles)
    G, P = n_games, n_players
    react_roles = np.isin(st.role, (VETERAN, FRAGILE, ENGINEER, MUSICIAN)).any()
    diag = {"lone_total": np.zeros(G, np.int16), "formed_rounds": np.zeros(G, np.int8),
            "void_nodes": np.zeros(G, np.int8), "node_points": np.zeros((G, P), np.int16)}
    while not st.done.all():
        for phase in (CARGO, ROPE, REACT):
            if phase == REACT and not react_roles:
                acts = np.zeros((G, P), np.int64)
            else:
                acts = np.stack([policies[s](params, st, s, legal_mask(params, st, s), rng)
                                 for s in range(P)], 1)
            st, ev = step(params, st, acts, draw_chance(params, st, rng), inplace=True)
        diag["formed_rounds"] += ev["formed"]
        diag["void_nodes"] += ev["node_result"] == NODE_VOID
        diag["node_points"] += ev["node_points"]
    out = results(params, st)
    out.update(diag, lone_total=st.lone.sum(1), final_seg=st.seg.copy())
    return out
