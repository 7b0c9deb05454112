"""The six play styles of appendix B as data: codes, objectives, look-up tables.

Cargo (step 2), per style, from the seat's own hand (``cargo_table``, one
entry per possible hand):
  heavy: the largest card (has a 5, plays the 5); key: the smallest;
  node_grabber: the card with the largest expected best full sum against the
  other seats' cards (``grab_values``); steady: the largest card that still
  fits a 3 (knob ``steady_mate``) under the cap (no risk), else the smallest;
  mirror, stay: the median.

Ropes (steps 3-4): each style's objective ``U`` for a partner, a weighted sum
(``coef(params)``, from the declared knobs ``COEF_KNOBS`` names: heavy_points,
heavy_team_sum, ...) of what the pair would do with the revealed cargo, asked of the
engine (``engine.team_values``, sections 5.1, 5.4, 6.3): ``utility_tables``
and ``utility_lookup`` hold it for every round cap (normal, variant F's static
and tools cards), style and pair of cards.  The table model that plays the
styles (``heuristic.Table``) reads these tables.  Every table is cached on its
hashable arguments (the frozen parameters, or the knob values), so a changed
knob builds new tables once and the defaults build them once per process.
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from . import engine
from .rules import RAIN_CARDS, STATIC, TOOLS
from .state import N_VALUES

STYLES = ("heavy", "key", "node_grabber", "steady", "mirror", "stay")
HEAVY, KEY, GRABBER, STEADY, MIRROR, STAY = range(6)
RANDOM, CUSTOM = 6, 7
CODES = {**{s: i for i, s in enumerate(STYLES)}, "random": RANDOM, "custom": CUSTOM}

N_CODES = 8  # style codes: the six styles, random, custom

#: the terms of a style's utility U_i(j) for partner j, COEF's columns: points i scores,
#: full x partner's cargo, full x node key / 8, full x fixed partner, last round's pointer
#: at i, overweight, full x team sum
TERMS = ("points", "partner_cargo", "node_key", "fixed", "pointer", "overweight", "team_sum")
POINTS, PARTNER_CARGO, NODE_KEY, TERM_FIXED, TERM_POINTER, OVERWEIGHT, TEAM_SUM = range(len(TERMS))

#: the declared knob (``agents.AgentParams``) of each coefficient a style uses: knob ->
#: (style, term); every other coefficient is 0 (random and custom seats do not negotiate)
COEF_KNOBS = {
    "heavy_points": (HEAVY, POINTS),  # heavy: its own points, then a bigger sum
    "heavy_team_sum": (HEAVY, TEAM_SUM),
    "key_points": (KEY, POINTS),  # key: carries the heaviest card it can (node to share)
    "key_partner_cargo": (KEY, PARTNER_CARGO),
    "grabber_points": (GRABBER, POINTS),  # node_grabber: the largest full sum (then heavier card)
    "grabber_node_key": (GRABBER, NODE_KEY),
    "steady_points": (STEADY, POINTS),  # steady: its fixed partner when the pair is full
    "steady_fixed": (STEADY, TERM_FIXED),
    "mirror_points": (MIRROR, POINTS),  # mirror: whoever pointed at it last round
    "mirror_pointer": (MIRROR, TERM_POINTER),
    "stay_points": (STAY, POINTS),  # stay: a full team or nothing
    "stay_overweight": (STAY, OVERWEIGHT),
}


def coef_values(params) -> tuple:
    """The coefficients' knob values of ``params``, in ``COEF_KNOBS`` order (hashable)."""
    return tuple(float(getattr(params, name)) for name in COEF_KNOBS)


@lru_cache(maxsize=64)
def coef_matrix(values: tuple) -> np.ndarray:
    """(N_CODES, len(TERMS)) float32 COEF, U = sum of coefficient x term per style
    code, from the knob values ``coef_values`` gives."""
    coef = np.zeros((N_CODES, len(TERMS)), np.float32)
    for (style, term), value in zip(COEF_KNOBS.values(), values, strict=True):
        coef[style, term] = value
    coef.flags.writeable = False
    return coef


def coef(params) -> np.ndarray:
    """COEF of ``params`` (cached)."""
    return coef_matrix(coef_values(params))


NEVER = np.float32(-1e9)


@lru_cache(maxsize=64)
def grab_values(cap: int, counts: tuple, n_players: int) -> np.ndarray:
    """(5,) for each card v: E[v + w + max(v, w)/8], w the largest of the other
    seats' cards (independent draws from the deck mix) with v + w <= cap, 0
    when none fits -- the node_grabber's 'largest full sum' at reveal time."""
    q = np.asarray(counts, float) / sum(counts)
    out = np.zeros(5)
    for v in range(1, 6):
        fits = [w for w in range(1, 6) if v + w <= cap]
        for w in fits:  # P(best fitting card == w) = P(no bigger fitting) - P(none >= w fitting)
            above = sum(q[x - 1] for x in fits if x > w)
            p_w = (1 - above) ** (n_players - 1) - (1 - above - q[w - 1]) ** (n_players - 1)
            out[v - 1] += p_w * (v + w + max(v, w) / 8)
    return out


HAND_BASE = 6  # a hand's count of one value is 0..5
HANDS = HAND_BASE**N_VALUES  # hands as codes: sum of count(v) x 6^(v-1)


def hand_code(hand):
    """(G,P) int32 code of each hand (G,P,5): ``sum_v count(v) * 6 ** (v - 1)``
    (explicit adds beat a dot over the short axis)."""
    h = hand.astype(np.int32)
    return h[..., 0] + 6 * h[..., 1] + 36 * h[..., 2] + 216 * h[..., 3] + 1296 * h[..., 4]


@lru_cache(maxsize=64)
def cargo_table(cap: int, counts: tuple, n_players: int, steady_mate: int) -> np.ndarray:
    """(N_CODES x HANDS,) the card index (value - 1) each style shows from each
    hand (row = style code; random and custom rows are placeholders); steady
    shows the largest card that fits ``steady_mate`` under the cap."""
    hand = (np.arange(HANDS)[:, None] // HAND_BASE ** np.arange(N_VALUES)) % HAND_BASE
    held = hand > 0
    vals = np.arange(1, N_VALUES + 1)
    last = N_VALUES - 1  # index of the largest value
    smallest = held.argmax(1)
    largest = last - held[:, ::-1].argmax(1)
    n = hand.sum(1)
    median = (hand.cumsum(1) > ((n - 1) // 2)[:, None]).argmax(1)
    grab = np.where(held, grab_values(cap, counts, n_players), -1.0).argmax(1)
    fits = held & (vals <= cap - steady_mate)
    steady = np.where(fits.any(1), last - fits[:, ::-1].argmax(1), smallest)
    return np.concatenate([largest, smallest, grab, steady, median, median, median, median]).astype(np.int8)


@lru_cache(maxsize=64)
def utility_tables(params):
    """Flat look-up tables of the static part of ``U`` for every (round cap
    kind: normal / static / tools, style, cargo i, cargo j), and whether the
    pair is full, both from ``engine.team_values`` asked about every pair."""
    base, fulls = [], []
    for rain in (-1, STATIC, TOOLS):
        probe = SimpleNamespace(cargo=np.arange(1, N_VALUES + 1, dtype=np.int8)[None], rain=np.array([rain]))
        full, pts, key = (a[0] for a in engine.team_values(params, probe))
        c = np.arange(1, N_VALUES + 1, dtype=np.float32)
        terms = (
            pts,
            full * c[None, :],
            np.maximum(key, 0) / float(engine.KEY_BASE),
            0 * pts,
            0 * pts,
            ~full,
            full * (c[:, None] + c[None, :]),
        )
        base.append(np.einsum("sk,kij->sij", coef(params), np.stack(terms).astype(np.float32)))
        fulls.append(full)
    return np.stack(base).astype(np.float32).ravel(), np.stack(fulls).ravel()


#: utility_lookup's layout: (cap kind, style of i, cargo i, cargo j, flags), C order, so the
#: entry of (k, s, ci, cj, f) is np.ravel_multi_index((k, s, ci, cj, f), (3, 8, 5, 5, N_FLAGS))
FIXED_FLAG, POINTER_FLAG = 1, 2
N_FLAGS = 4
STRIDE_J = N_FLAGS
STRIDE_I = N_VALUES * STRIDE_J
STRIDE_STYLE = N_VALUES * STRIDE_I
STRIDE_KIND = N_CODES * STRIDE_STYLE
N_KINDS = 3  # cap kinds: normal, static, tools


def utility_lookup(params, steady: bool, mirror: bool) -> np.ndarray:
    """The whole ``U`` as one flat float32 table over (cap kind, style of i,
    cargo i, cargo j, flags): FIXED_FLAG = j is i's fixed partner (steady adds
    its weight when the pair is full), POINTER_FLAG = j pointed at i last round
    (mirror adds its weight).  The same float32 sums, in the same order, as
    adding the dynamic terms to the static table game by game; a dynamic
    term is added only when some seat plays its style."""
    return _utility_lookup(params, bool(steady), bool(mirror))


@lru_cache(maxsize=64)
def _utility_lookup(params, steady, mirror):
    base, full = utility_tables(params)
    w = coef(params)
    base = base.reshape(N_KINDS, N_CODES, N_VALUES, N_VALUES)
    full = full.reshape(N_KINDS, 1, N_VALUES, N_VALUES)
    codes = np.arange(N_CODES)[None, :, None, None]
    w_fixed = w[STEADY, TERM_FIXED] * (codes == STEADY)
    w_pointer = w[MIRROR, TERM_POINTER] * (codes == MIRROR)
    out = np.empty((N_KINDS, N_CODES, N_VALUES, N_VALUES, N_FLAGS), np.float32)
    for f in range(N_FLAGS):
        u = base.copy()
        if steady:
            u += w_fixed * (full & bool(f & FIXED_FLAG))
        if mirror:
            u += w_pointer * bool(f & POINTER_FLAG)
        out[..., f] = u
    return out.ravel()


#: rain card (+1, -1 = none) -> cap kind of the utility tables: normal, static, tools
CAP_KIND = np.zeros(len(RAIN_CARDS) + 1, np.int16)
CAP_KIND[STATIC + 1], CAP_KIND[TOOLS + 1] = 1, 2
