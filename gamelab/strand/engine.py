"""STRAND batch engine: G games advanced together, rules as pure functions.

The engine contract (``gamelab/core/contract.py``): :func:`draw_chance` (every
random number of a batch, up front), :func:`init` (section 6.1),
:func:`legal`, :func:`step`, :func:`done`, :func:`result`,
:func:`random_actions`, :func:`is_legal`.  The state, the chance and the
action codes are described in ``state.py``.

A round is three simultaneous decisions, each ``step(params, state, actions,
chance)`` with ``actions`` (G,P) int: CARGO (reveal, porter), ROPE (point /
stay / bb lock), REACT (veteran, engineer, musician, fragile), after which
the round is scored and the hands refilled from the round's
``chance.draws``.

Whole games are played by the shared driver (``core.driver.play_out``), never
here: the runner's batch by ``sim.play``, per-seat policies by ``sim.play_policies``.

Here: the chance, setup (6.1) and the step (6.2 steps 2-5).
The legal actions and the facts agents ask live in ``legal.py``, the action
codes in ``actions.py``, the round's settlement arithmetic (5.1-5.5, 6.3)
and the final result (6.4) in ``scoring.py``, the deck, refill and discards
in ``cards.py``; their public names are importable from here too.
"""

from __future__ import annotations

import numpy as np

from gamelab.core.arrays import cols, colsum
from gamelab.core.errors import ParamError

from .actions import (  # noqa: F401
    cargo_action,
    cargo_decode,
    lock_codes,
    porter_codes,
    power_action,
    power_codes,
    react_decode,
    rope_action,
    rope_decode,
    stay_action,
    switch_action,
    switch_target,
    with_switch,
)
from .cards import NO_RAIN, discard_shown, draw_rain_order, onehot, refill
from .legal import (  # noqa: F401
    can_use,
    cargo_legal,
    is_legal,
    legal,
    legal_mask,
    negotiation,
    power_ready,
    random_actions,
    react_legal,
    rope_legal,
    rounds_left,
    status,
    switch_pointers,
    switch_ready,
    switch_targets,
)
from .rules import ACID, BT_TIDE, ROLES, VETERAN, StrandParams, check_players, role_code
from .scoring import (  # noqa: F401
    KEY_BASE,
    NODE_NONE,
    NODE_TAKEN,
    NODE_VOID,
    current_node,
    form_teams,
    pair_up,
    raise_limits,
    result,
    round_cap,
    score_round,
    team_values,
)
from .state import (  # noqa: F401
    CARGO,
    DRAWS,
    MAX_VALUE,
    MIN_VALUE,
    N_VALUES,
    PHASES,
    REACT,
    REACT_PASS,
    REACT_POWER,
    REACT_SWITCH,
    ROPE,
    Chance,
    State,
)

__all__ = [
    "State",
    "Chance",
    "draw_chance",
    "deal",
    "replay_chance",
    "init",
    "legal",
    "step",
    "done",
    "result",
    "random_actions",
    "is_legal",
]


# --- chance and setup ---------------------------------------------------------
def roles_array(roles, n_games, n_players, rng=None):
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


def deal(params, n_games, n_players, *, cards, rain, roles=None, draws_dtype=np.float64) -> Chance:
    """The chance of a batch from separate generators: ``cards`` gives the
    first hands then every round's refill uniforms (``draws_dtype``: the
    runner keeps them float32), ``rain`` the time-rain order; ``roles`` as
    :func:`roles_array` takes them ("random" is drawn from ``rain``)."""
    G, P = n_games, n_players
    hands = cards.random((G, P, params.hand_size))
    draws = cards.random((params.rounds, G, P, DRAWS), dtype=draws_dtype)
    order = draw_rain_order(params, G, rain)
    return Chance(hands=hands, draws=draws, rain_order=order, roles=roles_array(roles, G, P, rain))


def draw_chance(params, n_games, n_players, rng, *, roles="random") -> Chance:
    """Every random number of ``n_games`` games, from ``rng``: the hands,
    the refills, the time-rain order and the roles (6.1 step 6: dealt at
    random; ``roles`` may name them instead, as :func:`roles_array`)."""
    return deal(params, n_games, n_players, cards=rng, rain=rng, roles=roles)


def replay_chance(params, n_games, n_players, *, roles=None, rain_order=None) -> Chance:
    """The chance of a replay: hands unknown (the record gives the cargo
    revealed, any value may be shown), the rain cards and roles as given."""
    if rain_order is None:
        rain_order = np.full((n_games, params.rounds), NO_RAIN, np.int8)
    rain_order = np.asarray(rain_order, np.int8).reshape(n_games, params.rounds)
    return Chance(hands=None, draws=None, rain_order=rain_order, roles=roles_array(roles, n_games, n_players))


def init(params: StrandParams, n_games: int, n_players: int, chance: Chance) -> State:
    """Section 6.1: shuffle, deal ``hand_size`` cards each, track at segment 1.

    A chance without hands (:func:`replay_chance`) leaves them unknown: the
    state is untracked, cargo is given, not drawn."""
    check_players(params, n_players)
    G, P = n_games, n_players
    role = np.asarray(chance.roles, np.int8)
    uses = np.asarray(params.role_uses(), np.int8)[role]
    deck = np.broadcast_to(np.asarray(params.cargo_counts, np.int8), (G, N_VALUES)).copy()
    rain_order = np.asarray(chance.rain_order, np.int8)
    tracked = chance.hands is not None
    st = State(
        hand=np.zeros((G, P, N_VALUES), np.int8),
        limit=np.full((G, P), params.hand_size, np.int8),
        deck=deck,
        discard=np.zeros((G, N_VALUES), np.int8),
        score=np.zeros((G, P), np.int16),
        lone=np.zeros((G, P), np.int8),
        seg=np.zeros(G, np.int8),
        rnd=np.zeros(G, np.int8),
        role=role,
        uses=uses,
        rain_order=rain_order,
        rain=rain_order[:, 0].copy(),
        card=np.zeros((G, P), np.int8),
        cargo=np.zeros((G, P), np.int8),
        rope=np.full((G, P), -1, np.int8),
        partner=np.full((G, P), -1, np.int8),
        tracked=tracked,
    )
    if tracked:
        refill(st, chance.hands)
    return st


def done(params, state) -> np.ndarray:
    """(G,) the game is over (6.4: after ``rounds``, or past the last segment)."""
    return state.done


# --- steps --------------------------------------------------------------------
def step(params, state, actions, chance, *, inplace=False):
    """Advance every game by one decision; returns (new_state, events).

    ``actions`` must be legal (:func:`legal`); the engine does not re-check
    them in the hot path (records are checked in ``record.py``).  ``inplace``
    updates ``state``'s arrays instead of copying them first (for a caller
    that keeps no reference to the old state: ``core.driver.play_out``)."""
    actions = np.asarray(actions)
    st = state if inplace else state.copy()
    return _PHASE_STEP[state.phase](params, st, actions, chance)


def _reveal(p, st, a, chance):
    """Step 2: cargo shown at once; porter +1 (max 5), then acid rain (min 1)."""
    v, porter = cargo_decode(a)
    if st.tracked:
        st.hand[:] -= onehot(v)
    st.uses[:] -= porter
    cargo = v + porter * (np.minimum(MAX_VALUE, v + p.porter_bonus) - v)  # np.where(porter, min(5, v + 1), v)
    acid = st.rain == ACID
    if acid.any():
        acid = cols(acid, st.n_players)
        # np.where(acid, max(1, cargo - acid_minus), cargo)
        cargo = cargo + acid * (np.maximum(MIN_VALUE, cargo - p.acid_minus) - cargo)
    st.card[:], st.cargo[:] = v, cargo
    st.phase = ROPE
    return st, {"cargo": cargo, "porter": porter}


def _ropes(p, st, a, chance):
    """Steps 4 and 5-1: ropes shown at once; mutual pairs and bb locks form teams."""
    rope, lock, locked = rope_decode(a, st.n_players)
    st.rope[:] = rope
    st.uses[:] -= locked
    st.partner[:] = form_teams(p, st.rope, lock, locked.any())
    st.phase = REACT
    return st, {"lock": lock, "rope": st.rope.copy()}


def _settle(p, st, a, chance):
    """Steps 5-2..5-6: reactions, scores, node, markers, track; then refill."""
    P = st.n_players
    power, halfed = react_decode(a)
    if halfed.any():
        for s in range(P):
            pair_up(st.partner, s, switch_target(a[:, s]), np.flatnonzero(halfed[:, s]))
    team, stay, lone = status(p, st)
    used = power & ((st.role != VETERAN) | lone)
    st.uses[:] -= halfed | used
    gained, node = score_round(p, st, team, stay, lone, used, halfed)
    st.score[:] += gained
    tide = st.rain == BT_TIDE
    if tide.any():
        st.lone[:] += lone * cols(np.where(tide, p.bt_markers, 1).astype(np.int8), P)
    else:
        st.lone[:] += lone
    raise_limits(p, st, stay)
    discard_shown(p, st, stay)
    formed = colsum(team)
    events = {
        "gained": gained,
        "partner": st.partner.copy(),
        "stay": stay,
        "lone": lone,
        "team": team,
        "used": used | halfed,
        "formed": formed,
        "seg": st.seg.copy(),
        **node,
    }
    _next_round(p, st, formed, chance)
    st.phase = CARGO
    return st, events


_PHASE_STEP = {CARGO: _reveal, ROPE: _ropes, REACT: _settle}


def _next_round(p, st, formed, chance):
    """The round's end: the track moves one segment when a team formed; the
    game ends after ``rounds`` or past the last segment (6.4); the next rain
    card is turned; the games still live refill (6.2 step 1) with this
    round's ``chance.draws``.  In place."""
    G = st.n_games
    r = int(st.rnd.min())  # the round being settled: every live game is on it (done ones are past it)
    st.seg[:] += formed
    st.rnd[:] += 1
    n_nodes = len(p.node_values)
    end = (st.rnd >= p.rounds) | (st.seg >= n_nodes)
    st.rnd[end] = p.rounds  # the track passed the last segment: the game is over
    live = ~end
    R = st.rain_order.shape[1]
    nxt = np.arange(0, G * R, R) + np.minimum(st.rnd, p.rounds - 1)  # flat index of rain_order[g, next round]
    st.rain[:] = live * (st.rain_order.take(nxt) + 1) - 1  # np.where(live, next card, NO_RAIN)
    if st.tracked and chance.draws is not None and live.any():
        refill(st, chance.draws[r], live)
