"""STRAND's cards, batch form: the deck, the refill and the discards.

Section 6.1 (the deal), 6.2 step 1 (each seat fills its hand up to its limit;
an empty deck takes the discards back), step 5-6 (shown cards go to the
discards) and variant F's time-rain deck.  The draws are made with uniforms
drawn up front (``state.Chance``: ``hands`` for the deal, ``draws`` for
each round's refill); ``reference.draw_card`` is the one-game form of the
same draw.  Everything here but :func:`draw_rain_order` updates arrays in place.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import kernel
from .rules import CLEAR
from .state import DRAWS, N_VALUES  # noqa: F401  (DRAWS: the refill's draws per seat, known here as cards.DRAWS too)

# --- counts by card value (1..5) of batch arrays --------------------------------
_ONEHOT = np.vstack([np.zeros(N_VALUES, np.int8), np.eye(N_VALUES, dtype=np.int8)])  # value 1..5 -> row


def onehot(v):
    """(..., 5) int8 rows: 1 at the index of card value ``v`` (1..5); value 0 gives a zero row."""
    return _ONEHOT.take(v, axis=0)


@lru_cache(maxsize=16)
def _value_rows(G):
    """(G,1) the offset of each game's block of N_VALUES + 1 counts (read-only)."""
    rows = np.arange(0, G * (N_VALUES + 1), N_VALUES + 1, dtype=np.int64)[:, None]
    rows.flags.writeable = False
    return rows


def value_counts(v):
    """(G,5) how many cells of each (G,P) row hold each card value 1..5 (0: no card):
    ``colsum(onehot(v))`` as one ``np.bincount`` (3x faster on a batch's rows)."""
    G = v.shape[0]
    counts = np.bincount((v + _value_rows(G)).ravel(), minlength=G * (N_VALUES + 1))
    return counts.reshape(G, N_VALUES + 1)[:, 1:]


def rowsum(a):
    """Sum over the 5 card values (explicit adds beat a short-axis reduce)."""
    return a[:, 0].astype(np.int16) + a[:, 1] + a[:, 2] + a[:, 3] + a[:, 4]


def hand_sizes(hand):
    """(G,P) cards held (explicit adds beat a short-axis reduce)."""
    return hand[..., 0] + hand[..., 1] + hand[..., 2] + hand[..., 3] + hand[..., 4]


NO_RAIN = -1  # no time-rain card this round


def draw_rain_order(params, G, rng):
    """(G, rounds) variant F's card of each round: the rain deck shuffled,
    reshuffled when the rounds outlast it (NO_RAIN without variant F)."""
    order = np.full((G, params.rounds), NO_RAIN, np.int8)
    deck = np.array([c for c in params.rain_codes if not (params.clear_redraw and c == CLEAR)], np.int8)
    if not params.time_rain or len(deck) == 0:
        return order
    for start in range(0, params.rounds, len(deck)):
        perm = deck[np.argsort(rng.random((G, len(deck))), axis=1)]
        k = min(len(deck), params.rounds - start)
        order[:, start : start + k] = perm[:, :k]
    return order


def _reshuffle(deck, discard, total, active=None):
    """Games (of ``active``, None: all) whose deck is empty take their discards back."""
    empty = total == 0
    if active is not None:
        empty &= active
    if empty.any():
        deck[empty] += discard[empty]
        discard[empty] = 0
        total = rowsum(deck)
    return total


def _draw(deck, discard, u, total, active=None):
    """One card for each game of ``active`` (None: all) from its deck of
    ``total`` cards; see ``reference.draw_card``.  In place: returns the (G,5)
    one-hot rows of the cards drawn (zero for inactive games) and the new totals.
    Inactive games go through the same arithmetic and are masked out, which is
    cheaper than gathering and scattering the active ones."""
    total = _reshuffle(deck, discard, total, active)
    r = (u * total).astype(np.int16)  # the r-th card in value order
    c = deck[:, 0].astype(np.int16)  # cards of value <= k + 1
    v = (c <= r).astype(np.int8)  # v = how many values lie wholly below the r-th card
    for k in (1, 2, 3):
        c = c + deck[:, k]
        v += c <= r
    v += 1  # the card's value 1..5
    if active is not None:
        v *= active  # value 0: no card (a zero one-hot row)
    got = onehot(v)
    deck -= got
    total = total - (True if active is None else active)
    return got, _reshuffle(deck, discard, total, active)


def refill(st, draws, live=None):
    """Section 6.2 step 1 (and 6.1, the deal): each seat in turn fills up to
    its limit, card k of seat s drawn with ``draws[:, s, k]``; only the
    games of ``live`` (None: all).  In place.  Compiled (``kernel.refill``)
    where numba is installed, else :func:`refill_batch`."""
    if kernel.COMPILED:
        kernel.refill(st, draws, live)
    else:  # pragma: no cover - exercised only where numba is missing
        refill_batch(st, draws, live)


def refill_batch(st, draws, live=None):
    """:func:`refill` in numpy over the batch (the reference ``kernel.refill`` is held to)."""
    held = hand_sizes(st.hand)
    total = rowsum(st.deck)
    for s in range(st.n_players):
        need = st.limit[:, s] - held[:, s]
        if live is not None:
            need = need * live
        for k in range(int(need.max(initial=0))):
            active = need > k
            got, total = _draw(st.deck, st.discard, draws[:, s, k], total, None if active.all() else active)
            st.hand[:, s] += got


def discard_shown(p, st, stay):
    """Step 5-6: shown cards go to the discards (a stayer's back to hand if so read)."""
    back = stay & p.stay_returns_cargo
    if not back.any():  # every shown card goes to the discards
        st.discard[:] += value_counts(st.card)  # colsum(onehot(st.card))
        return
    rows = np.arange(st.n_games)
    for s in range(st.n_players):
        keep = back[:, s]
        v = st.card[:, s].astype(np.int64) - 1
        st.discard[rows, v] += ~keep
        if st.tracked:
            st.hand[rows, s, v] += keep
