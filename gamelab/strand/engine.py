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

Here: the state, setup (6.1), the legal actions, the step driver (6.2 steps
2-5) and ``play``.  The round's settlement arithmetic (5.1-5.5, 6.3) and the
final result (6.4, ``results``) live in ``scoring.py``, the deck, refill and
discards in ``cards.py``; their public names are importable from here too.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from .arrays import _cols, _colsum, _onehot
from .cards import DRAWS, _discard, _rain_order, _refill
from .rules import (ACID, BB, BT_TIDE, FOG, ENGINEER, FRAGILE, MUSICIAN, PORTER, ROLES, VETERAN,
                    StrandParams, check_players, role_code)
# NODE_NONE, NODE_TAKEN, round_cap and team_values are re-exported (callers ask the engine)
from .scoring import (NODE_NONE, NODE_TAKEN, NODE_VOID, _limits, _pair, _score, _teams,  # noqa: F401
                      results, round_cap, team_values)
from ..errors import ParamError

CARGO, ROPE, REACT = 0, 1, 2


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


def draw_chance(params, state, rng) -> dict:
    """Chance for a step: refill uniforms for the REACT step, nothing otherwise."""
    if state.phase != REACT or not state.tracked:
        return {}
    return {"draws": rng.random((state.n_games, state.n_players, DRAWS))}


def negotiation(params, state) -> np.ndarray:
    """(G,) whether players may talk before ropes (step 3): not in variant B,
    not under variant F's fog card.  The rules never read it; agents do."""
    return np.full(state.n_games, not params.silent) & (state.rain != FOG)


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
    G = st.n_games
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


def _ropes(p, st, a, chance):
    """Steps 4 and 5-1: ropes shown at once; mutual pairs and bb locks form teams."""
    P = st.n_players
    locked = a > P
    lock = locked * (a - P) - 1
    st.rope[:] = lock + (a < P) * (a - lock)
    st.uses[:] -= locked
    st.partner[:] = _teams(p, st.rope, lock, locked.any())
    return dataclasses.replace(st, phase=REACT), {"lock": lock, "rope": st.rope.copy()}


def _settle(p, st, a, chance):
    """Steps 5-2..5-6: reactions, scores, node, markers, track; then refill."""
    P = st.n_players
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
    _next_round(p, st, formed, chance)
    return dataclasses.replace(st, phase=CARGO), events


def _next_round(p, st, formed, chance):
    """The round's end: the track moves one segment when a team formed; the
    game ends after ``rounds`` or past the last segment (6.4); the next rain
    card is turned; the games still live refill (6.2 step 1).  In place."""
    G = st.n_games
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
