"""STRAND settlement arithmetic, batch form: what a round and a game score.

Functions of the batch state (``state.State``), no chance; ``pair_up`` and
``raise_limits`` write into the arrays they are given (the engine's ``step``
owns the copy):

* 6.2 step 5-1: two mutual ropes, or a bb lock (5.5, ``bb_lock``), form a
  team (``form_teams``); the fragile's switch re-pairs (``pair_up``).
* 5.1 / 6.3: a team crosses in full when its cargo sum is at most the round's
  cap (``round_cap``: ``sum_cap``, or variant F's static / tools card) and
  both score their cargo; overweight, both score half; lone, half the cargo;
  stay, nothing (``score_round``).  ``team_values`` asks the same of every
  possible pair, for agents.
* 5.2 point 3: a stay raises the hand limit (``raise_limits``).
* 5.4: the node goes to the full team with the largest sum, then the heavier
  card; a full tie voids it (``_node``); ``node_award`` reads who scores it.
* 5.5 role powers at settlement: engineer (cap + ``engineer_bonus``),
  veteran (full cargo when lone), musician (+``musician_bonus``), fragile
  (``fragile_sum``: its half cargo in the team sum); variant F's crate and
  tower cards.
* 6.4: the final score, ranks and win shares (``result``); variant E
  compares team totals.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gamelab.core.arrays import cols, colsum, grid

from .rules import CRATE, ENGINEER, MUSICIAN, RAIN_CARDS, STATIC, TOOLS, TOWER, VETERAN
from .state import MAX_VALUE

#: a round's node (5.4): no full team, taken, voided by a full tie
NODE_NONE, NODE_TAKEN, NODE_VOID = 0, 1, 2
KEY_BASE = MAX_VALUE + 3  # node key = sum x KEY_BASE + heavier card: the sum first (any base > 5)
MARK_BASE = 1024  # win key = final x MARK_BASE - markers: points first, then fewer markers
TEAM_SEATS = 2  # variant E: a team's win share goes to each of its two seats


def current_node(params, state) -> np.ndarray:
    """(G,) int16 the printed value of the node at the track marker (5.4;
    the last node once the marker is past the end)."""
    return np.asarray(params.node_values, np.int16)[np.minimum(state.seg, len(params.node_values) - 1)]


def round_cap(params, state) -> np.ndarray:
    """(G,) this round's sum cap: ``sum_cap``, or the static / tools card's."""
    return _cap_table(params.sum_cap, params.static_cap, params.tools_cap).take(state.rain.astype(np.intp) + 1)


@lru_cache(maxsize=64)
def _cap_table(sum_cap, static_cap, tools_cap):
    """Round cap by rain card + 1 (0: no card)."""
    caps = np.full(len(RAIN_CARDS) + 1, sum_cap, np.int64)
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
    return total * KEY_BASE + heavier


def _half(v, p):
    return (v + 1) // 2 if p.half_rounding == "up" else v // 2


def pair_up(partner, seat, other, games):
    """Pair ``seat`` with ``other[g]`` in the games ``games`` (indices).  In place."""
    partner[games, seat] = other[games]
    partner[games, other[games]] = seat


def _mutual(rope, bound):
    """(G,P) two free seats whose ropes point at each other."""
    flat, seat = grid(*rope.shape)
    valid = (rope >= 0) & ~bound
    tgt = flat + rope * valid  # flat index of the seat pointed at (own row start when not valid)
    ok = valid & ~bound.take(tgt) & (rope.take(tgt) == seat)
    return ok


def form_teams(p, rope, lock, any_locked):
    """Step 5-1: who teams with whom, (G,P) partner seat or -1.  Two seats
    pointing at each other pair up; a bb lock (``lock`` (G,P) locked seat or
    -1) pairs its holder with the seat locked, before the ropes
    (``bb_lock="override"``) or after them, only when the seat locked is
    still free ("yield")."""
    P = rope.shape[1]
    partner = np.full_like(rope, -1)
    locks = [(s, np.flatnonzero(lock[:, s] >= 0)) for s in range(P)] if any_locked else []
    if p.bb_lock == "override":
        for s, g in locks:
            pair_up(partner, s, lock[:, s], g)
    mut = _mutual(rope, partner >= 0)
    partner += mut * (rope - partner)  # np.where(mut, rope, partner)
    if p.bb_lock == "yield":
        for s, g in locks:
            g = g[partner[g, lock[g, s]] < 0]
            pair_up(partner, s, lock[:, s], g)
    return partner


def score_round(p, st, team, stay, lone, used, halfed):
    """Section 6.3: team (full or overweight), lone, stay; 5.4: the node."""
    P = st.n_players
    cargo = st.cargo.astype(np.int16)
    hv = _half(cargo, p)
    contrib = cargo + (halfed * (hv - cargo) if p.fragile_sum == "half" else 0)  # np.where(halfed, hv, cargo)
    seat, mate, mc, total, full = _crossing(p, st, team, used, contrib)
    over = team & ~full
    vet = used & (st.role == VETERAN)
    gained = (full & ~halfed) * cargo + ((full & halfed) | over) * hv
    gained += lone * (hv + vet * (cargo - hv))  # lone: np.where(vet, cargo, hv)
    mus = used & (st.role == MUSICIAN) & (full | (over & p.musician_on_overweight))
    gained += mus * p.musician_bonus
    crate = p.crate_bonus if p.crate_to == "each" else p.crate_bonus // 2
    crated = st.rain == CRATE
    if crated.any():
        gained += (team & cols(crated, P)) * crate
    win, award, value, result = _node(p, st, full, total, contrib, mc, seat, mate)
    gained = (gained + award).astype(np.int16)
    return gained, {
        "full": full,
        "over": over,
        "node_winner": win,
        "node_points": award,
        "node_value": value.reshape(-1),
        "node_result": result,
    }


def _crossing(p, st, team, used, contrib):
    """Section 5.1: does each seat's team cross in full (its sum of ``contrib``
    at most the round's cap, raised by a used engineer of either member)?
    Returns each cell's seat, its teammate (own seat when not in a team), the
    teammate's contribution, the team sum and ``full`` (G,P)."""
    flat, seat = grid(*st.cargo.shape)
    mate = seat + team * (st.partner - seat)  # np.where(team, partner, seat): own seat when not in a team
    at_mate = flat + mate
    mc = contrib.take(at_mate)
    total = contrib + mc
    eng = used & (st.role == ENGINEER)
    eng = eng | eng.take(at_mate)
    cap = cols(round_cap(p, st), st.n_players)
    full = team & (total <= cap + eng * p.engineer_bonus)
    return seat, mate, mc, total, full


def _node(p, st, full, total, contrib, mc, seat, mate):
    """Section 5.4: the full team with the best (sum, heavier card) takes the
    node, a tie of two teams voids it.  Returns the winners (G,P), the node
    points (G,P), the node's value and the result (NODE_NONE/TAKEN/VOID, (G,))."""
    P = st.n_players
    key = full * (_node_key(total, np.maximum(contrib, mc)) + 1) - 1  # np.where(full, node key, -1)
    best = key[:, 0].copy()
    for s in range(1, P):
        np.maximum(best, key[:, s], out=best)
    top = key == cols(best, P)
    n_top = colsum(top.view(np.int8))
    one_team = (n_top == 2) & (best >= 0)  # the two seats of one full team hold the best key
    win = top & cols(one_team, P)
    tower = 1 + (st.rain == TOWER) * (p.tower_factor - 1)  # np.where(tower card, tower_factor, 1)
    value = (current_node(p, st) * tower).astype(np.int16)
    if p.node_award == "each":
        award = win * cols(value, P)
    else:
        value = value[:, None]
        big = (contrib > mc) | ((contrib == mc) & (seat < mate))
        award = np.where(win, np.where(big, (value + 1) // 2, value // 2), 0)
    # NODE_NONE without a full team, else NODE_TAKEN by one team or NODE_VOID by a full tie
    result = ((best >= 0) * (NODE_VOID - (n_top == 2))).astype(np.int8)
    return win, award, value, result


def raise_limits(p, st, stay):
    """Section 5.2 point 3: a stay raises the hand limit by one, up to max_hand.  In place."""
    raised = np.minimum(st.limit + 1, p.max_hand).astype(np.int8)
    other = st.limit if p.stay_bonus == "accumulate" else np.int8(p.hand_size)
    st.limit[:] = other + stay * (raised - other)  # np.where(stay, raised, other)


# --- the end -------------------------------------------------------------------
def result(params, st) -> dict:
    """Section 6.4: final = gross - penalty x markers; more points, then fewer
    markers; still tied -> shared win.  Variant E compares team totals."""
    final, key, win = standing(params, st)
    rank = 1 + (key[:, None, :] > key[:, :, None]).sum(2)
    return {"score": final, "win": win, "rank": rank, "gross": st.score.copy(), "lone": st.lone.copy()}


def standing(params, st):
    """Section 6.4's final score (G,P), win key (G,P) and win share (G,P), as
    :func:`result` gives them (without the ranks: a play-out's value asks only these)."""
    P = st.n_players
    final = st.score.astype(np.int32) - params.lone_penalty * st.lone.astype(np.int32)
    marks = st.lone.astype(np.int32)
    if params.teams:
        other = (np.arange(P) + P // 2) % P
        key = (final + final[:, other]) * MARK_BASE - (marks + marks[:, other])
    else:
        key = final * MARK_BASE - marks
    best = key.max(1, keepdims=True)
    tops = key == best
    share = float(TEAM_SEATS if params.teams else 1) / tops.sum(1, keepdims=True)
    return final, key, tops * share
