"""Styles at skill by restricted play (Jaffe et al., "Evaluating competitive
game balance with restricted play", AIIDE 2012).

A style at a rung of the skill ladder is the rung's search agent (``best@b``,
:mod:`gamelab.strand.search`) restricted to the style's defining choice, so
that what it is worth is measured at that skill, not at the table model's:
one restricted seat among unrestricted ``best@b`` seats; its win rate
against the fair share is the style's edge at that skill.

The defining choice of each style of appendix B (``RESTRICTIONS``, declared
once; the choices are the table model's own, ``heuristic_tables.cargo_table``):

* heavy: the cargo shown is the largest card in hand (step 2);
* key: the smallest card;
* node_grabber: the card with the best expected full sum;
* steady: the largest card that still fits a 3 under the cap, else the smallest;
* mirror: when seats pointed at it last round, the rope points at (or locks)
  one of them (step 4);
* stay: the rope never makes an overweight pair: it points only at a seat
  whose shown cargo fits its own under the round's cap, or stays (step 4).

Everything else (porter, bb lock, reactions, the other phase) the search
chooses freely.  The agent ``heavy@8`` is ``best@8`` restricted to heavy;
the table sees it as a heavy seat.
"""

from __future__ import annotations

import numpy as np

from gamelab.core import budgets

from .actions import cargo_decode, rope_decode
from .heuristic_tables import GRABBER, HANDS, HEAVY, KEY, MIRROR, STAY, STEADY, STYLES, cargo_table, hand_code
from .scoring import round_cap
from .state import CARGO, ROPE

#: style -> the phase its defining choice is made in
RESTRICTIONS = {
    "heavy": CARGO,
    "key": CARGO,
    "node_grabber": CARGO,
    "steady": CARGO,
    "mirror": ROPE,
    "stay": ROPE,
}
assert set(RESTRICTIONS) == set(STYLES)


def restricted_name(style: str, budget: int) -> str:
    """The agent name of ``best@budget`` restricted to ``style``: ``heavy@8``."""
    return budgets.at_budget(style, budget)


def parse(name: str) -> tuple[str, int] | None:
    """(style, budget) of a restricted agent's name, else None."""
    parts = budgets.split(name)
    return parts if parts is not None and parts[0] in RESTRICTIONS else None


def restrict(params, st, seat: int, mask: np.ndarray, style: str) -> np.ndarray:
    """(G, A) ``mask`` narrowed to the style's defining choice (unchanged in
    the other phase, and in a game where nothing legal would be left)."""
    phase = RESTRICTIONS[style]
    if st.phase != phase:
        return mask
    code = STYLES.index(style)
    A = mask.shape[1]
    if phase == CARGO:
        keep = _cargo_codes(params, st, seat, code, A)
    else:
        keep = _rope_codes(params, st, seat, code, A)
    narrowed = mask & keep
    empty = ~narrowed.any(1)
    narrowed[empty] = mask[empty]
    return narrowed


def _cargo_codes(params, st, seat, code, n_actions):
    """(G, A) the cargo codes that show the style's card (porter either way)."""
    assert code in (HEAVY, KEY, GRABBER, STEADY)
    hand = hand_code(st.hand[:, seat : seat + 1])[:, 0] + code * HANDS  # cargo_table's row = style
    cap = round_cap(params, st)
    value = np.empty(st.n_games, np.int64)
    for c in np.unique(cap):
        at = cap == c
        table = cargo_table(int(c), params.cargo_counts, st.n_players, params.steady_mate)
        value[at] = table.take(hand[at]) + 1
    shown, _ = cargo_decode(np.arange(n_actions))
    return shown[None, :] == value[:, None]


def _rope_codes(params, st, seat, code, n_actions):
    """(G, A) the rope codes the style allows (mirror: a last round's pointer
    when there is one; stay: no overweight pair)."""
    P = st.n_players
    target, _, _ = rope_decode(np.arange(n_actions), P)  # -1: stay
    target = np.broadcast_to(target, (st.n_games, n_actions))
    if code == MIRROR:
        pointed = st.rope == seat  # last round's ropes (the table's mirror reads the same)
        pointed[:, seat] = False
        has = pointed.any(1)
        ok = np.take_along_axis(pointed, np.maximum(target, 0), 1) & (target >= 0)
        return np.where(has[:, None], ok, True)
    assert code == STAY
    cap = round_cap(params, st)
    fits = (st.cargo[:, seat : seat + 1] + st.cargo) <= cap[:, None]  # (G, P)
    ok = np.take_along_axis(fits, np.maximum(target, 0), 1) | (target < 0)
    return ok
