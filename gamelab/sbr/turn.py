"""STEEL BALL RUN turn: one rider's move of a beat, written into the state.

Section 6.2 steps 1-6: the card played (1, 5.1), spin spent (2, 5.2), a seal
placed (3, 5.3; ``seal_direction``), the move and stop square
(4-5, :mod:`gamelab.sbr.movement`) written back: position, spin, seals
triggered and removed, the relic taken (5.4) and a skull's card back
(``skull_takes_current``), then the draw (6; nothing once the deck is out,
FAQ Q14) and the finish beat.
"""

from __future__ import annotations

import numpy as np

from .indexing import flat, flat_index, row_starts, value_index
from .movement import move_outcome, move_tables
from .rules import N_VALUES, SKULL, SbrParams
from .state import Actions, State


def _as_array(x):
    return np.asarray(x)


def _taker(g):
    """``x -> np.asarray(x).take(g)``: the entries of the games ``g``."""

    def sub(x):
        return np.asarray(x).take(g)

    return sub


def act(
    params: SbrParams, state: State, actions: Actions, slot: int, inplace: bool = False, mask: np.ndarray | None = None
):
    """Section 6.2 steps 1-6 for the ``slot``-th rider of the order (finished
    riders skip; ``mask`` (G,) False also skips, for a record that leaves a
    rider out of a beat).  Afterwards ``state.slot`` is ``slot + 1``."""
    st = state if inplace else state.copy()
    tb = move_tables(params)
    G, R = st.pos.shape
    rider_all = st.order[:, slot].astype(np.intp)
    fi_all = row_starts(G, R) + rider_all
    acted = flat(st.pos).take(fi_all) < params.length
    if mask is not None:
        acted &= np.asarray(mask, bool)
    every = bool(acted.all())
    if every:
        g, r, fi = row_starts(G, 1), rider_all, fi_all
        sub = _as_array
    else:
        g = np.flatnonzero(acted)
        r, fi = rider_all.take(g), fi_all.take(g)
        sub = _taker(g)
    stops = kinds = None
    if g.size:
        card = sub(actions.card).astype(np.intp)
        spend = sub(actions.spin).astype(np.intp)
        _play_card(params, st, g, r, card, spend, sub(actions.seal).astype(np.intp), fi)
        out = move_outcome(
            params,
            st,
            tb,
            g,
            r,
            card,
            card + spend,
            sub(actions.brk).astype(bool),
            flat(st.spin).take(fi) - spend,
            fi=fi,
        )  # the spin is written after the move
        _apply(params, st, tb, g, r, out, sub(actions.retrieve).astype(np.intp), fi)
        if every:
            stops, kinds = out["stop"].astype(np.int16), out["relic"].astype(np.int8)
        else:
            stops, kinds = np.full(G, -1, np.int16), np.full(G, -1, np.int8)
            kinds[g], stops[g] = out["relic"], out["stop"]
        _finish_turn(params, st, g, r, card, fi)
    if stops is None:
        stops, kinds = np.full(G, -1, np.int16), np.full(G, -1, np.int8)
    st.slot = slot + 1
    return st, dict(rider=rider_all, acted=acted, stop=stops, relic=kinds)


def _play_card(params, st, g, r, card, spend, seal, fi):
    """Steps 1-3: the card leaves the hand (into the discard at once under
    ``skull_takes_current``), the spin is counted, the seal is placed."""
    hc = value_index(fi, card)
    st.hand.reshape(-1)[hc] -= 1
    if params.skull_takes_current:
        st.discard.reshape(-1)[hc] += 1
    for k, v in (("spin_spent", spend), ("card_sum", card), ("cards_played", 1)):
        flat(st.stats[k])[fi] += v
    si = np.flatnonzero(seal > 0)
    if si.size:
        gs, rs, fs, d = g.take(si), r.take(si), fi.take(si), seal.take(si)
        if params.seal_direction != "ahead":
            d = -d
        st.seal.reshape(-1)[flat_index(gs, params.length + 1, flat(st.pos).take(fs) + d)] = rs
        flat(st.seals_left)[fs] -= 1
        flat(st.stats["seals_placed"])[fs] += 1


def _apply(params, st, tb, g, r, out, retrieve, fi):
    """Write an outcome into the state: position, spin, terrain tax, seals
    triggered and removed, the relic taken and its skull."""
    flat(st.pos)[fi] = out["end"]
    flat(st.spin)[fi] = out["spin"]
    for key, v in (("terrain_tax", out["tax"]), ("seal_hits", out["hits"])):
        if v.any():
            flat(st.stats[key])[fi] += v
    L1 = params.length + 1
    if out["removed_i"].size:
        st.seal.reshape(-1)[flat_index(g[out["removed_i"]], L1, out["removed_sq"])] = -1
    kind = out["relic"]
    t = np.flatnonzero(kind >= 0)
    if t.size:
        kt, ft = kind.take(t), fi.take(t)
        st.relic.reshape(-1)[flat_index(g.take(t), L1, out["stop"].take(t))] = -1
        flat(st.relic_pts)[ft] += tb["points"].take(kt)
        flat(st.relic_n)[ft] += 1
        sk = t.take(np.flatnonzero(kt == SKULL))
        for _ in range(params.skull_cards):
            _take_back(st, g.take(sk), r.take(sk), retrieve.take(sk))


def _take_back(st, g, r, want):
    """Section 5.4's skull: card value ``want`` back from the discard, else
    the highest there (nothing if the discard is empty)."""
    if not g.size:
        return
    fr = flat_index(g, st.pos.shape[1], r)
    disc = flat(st.discard).take(fr, axis=0)  # (n, 5)
    ok = (want >= 1) & (want <= N_VALUES)
    wi = np.minimum(np.maximum(want - 1, 0), N_VALUES - 1)  # want's column, clipped
    ok &= disc.reshape(-1).take(value_index(np.arange(g.size), wi + 1)) > 0  # disc[i, wi] > 0
    highest = N_VALUES - 1 - np.argmax(disc[:, ::-1] > 0, axis=1)  # column of the highest card there
    any_ = disc.any(axis=1)
    v = np.where(ok, wi, highest)
    fs = value_index(fr, v + 1).take(np.flatnonzero(ok | any_))
    st.discard.reshape(-1)[fs] -= 1
    st.hand.reshape(-1)[fs] += 1


def _finish_turn(params, st, g, r, card, fi):
    """Step 6 and the end of the move: the card into the discard (unless
    already there), the draw, the finish beat."""
    if not params.skull_takes_current:
        st.discard.reshape(-1)[value_index(fi, card)] += 1
    D = st.deck.shape[2]
    d = flat(st.drawn).take(fi).astype(np.intp)
    has = d < D
    fh = None
    if has.all():
        fh, dh = fi, d
    elif has.any():
        h = np.flatnonzero(has)
        fh, dh = fi.take(h), d.take(h)
    if fh is not None:
        drawn = st.deck.reshape(-1).take(flat_index(fh, D, dh))  # deck[g, r, drawn[g, r]]
        st.hand.reshape(-1)[value_index(fh, drawn)] += 1
        flat(st.drawn)[fh] += 1
    done = np.flatnonzero((flat(st.pos).take(fi) >= params.length) & (flat(st.finish_beat).take(fi) == 0))
    if done.size:
        flat(st.finish_beat)[fi.take(done)] = st.beat + 1
