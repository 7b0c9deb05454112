"""The six play styles of appendix B and the table model "议价配对 + 22% 临场反悔".

A :class:`Table` decides for every seat of every game at once (negotiation
is a joint decision).  Each seat plays a style code: the six styles of
``STYLES``, ``RANDOM`` (uniformly random legal moves) or ``CUSTOM`` (a batch
policy given per seat).  ``docs/agents.md`` states the model in words.

Cargo (step 2), per style, from the seat's own hand:
  heavy: the largest card (has a 5, plays the 5); key: the smallest;
  node_grabber: the card with the largest expected best full sum against the
  other seats' cards (``grab_values``); steady: the largest card that still
  fits a 3 under the cap (no risk), else the smallest; mirror, stay: the median.

Ropes (steps 3-4): every styled seat scores each partner with its objective
``U`` from the revealed cargo (``engine.team_values``; coefficients ``COEF``).
With negotiation the table forms disjoint pairs greedily by mutual preference
(smallest sum of the two ranks first, then the larger sum of utilities; both
must find the other acceptable), then each matched player independently
reneges with chance ``reneging`` (``renege_to`` says what a reneger does);
unmatched players stay.  Without negotiation (``negotiation=False``, variant
B, the fog card) each styled seat points at its best-scored partner if
acceptable, else stays.

Role powers (5.5): porter +1 on a 4 (heavy, node_grabber) or when its uses
would otherwise go unspent; bb locks its agreed partner (its own top choice
without negotiation) when it has cargo >= 4, the node is worth >= 6 or uses
would go unspent; veteran when lone with cargo >= 4 or uses to spare;
musician whenever in a team; engineer when the team's sum is just over the
cap; fragile whenever lone and pointed at (to the best such pointer).
"""
from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from . import engine
from .agents import uniform_choice
from .rules import BB, ENGINEER, FRAGILE, MUSICIAN, PORTER, STATIC, TOOLS, VETERAN

STYLES = ("heavy", "key", "node_grabber", "steady", "mirror", "stay")
HEAVY, KEY, GRABBER, STEADY, MIRROR, STAY = range(6)
RANDOM, CUSTOM = 6, 7
CODES = {**{s: i for i, s in enumerate(STYLES)}, "random": RANDOM, "custom": CUSTOM}

#: utility U_i(j) = sum of coefficient x term, per style code; terms:
#: points i scores, full x partner's cargo, full x node key / 8, full x fixed
#: partner, last round's pointer at i, overweight, full x team sum
COEF = np.array([
    [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.1],      # heavy: its own points, then a bigger sum
    [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],      # key: carries the heaviest card it can (node to share)
    [0.01, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],     # node_grabber: the largest full sum (then heavier card)
    [1.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0],      # steady: its fixed partner when the pair is full
    [1.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0],     # mirror: whoever pointed at it last round
    [1.0, 0.0, 0.0, 0.0, 0.0, -100.0, 0.0],   # stay: a full team or nothing
    [0.0] * 7, [0.0] * 7,                     # random, custom: not negotiating
], np.float32)
ACCEPT = -50.0          # a partner scored at or below this is refused (stay style: overweight)
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


HANDS = 6 ** 5  # a hand as a code: sum of count(v) x 6^(v-1), counts 0..5


@lru_cache(maxsize=64)
def cargo_table(cap: int, counts: tuple, n_players: int) -> np.ndarray:
    """(8 x HANDS,) the card index (value - 1) each style shows from each hand
    (row = style code; random and custom rows are placeholders)."""
    hand = (np.arange(HANDS)[:, None] // 6 ** np.arange(5)) % 6
    held = hand > 0
    vals = np.arange(1, 6)
    smallest = held.argmax(1)
    largest = 4 - held[:, ::-1].argmax(1)
    n = hand.sum(1)
    median = (hand.cumsum(1) > ((n - 1) // 2)[:, None]).argmax(1)
    grab = np.where(held, grab_values(cap, counts, n_players), -1.0).argmax(1)
    fits3 = held & (vals <= cap - 3)
    steady = np.where(fits3.any(1), 4 - fits3[:, ::-1].argmax(1), smallest)
    return np.concatenate([largest, smallest, grab, steady, median, median, median, median]).astype(np.int8)


@lru_cache(maxsize=64)
def utility_tables(params):
    """Flat look-up tables of the static part of ``U`` for every (round cap
    kind: normal / static / tools, style, cargo i, cargo j), and whether the
    pair is full, both from ``engine.team_values`` asked about every pair."""
    base, fulls = [], []
    for rain in (-1, STATIC, TOOLS):
        probe = SimpleNamespace(cargo=np.arange(1, 6, dtype=np.int8)[None], rain=np.array([rain]))
        full, pts, key = (a[0] for a in engine.team_values(params, probe))
        c = np.arange(1, 6, dtype=np.float32)
        terms = (pts, full * c[None, :], np.maximum(key, 0) / 8.0, 0 * pts, 0 * pts, ~full,
                 full * (c[:, None] + c[None, :]))
        base.append(np.einsum("sk,kij->sij", COEF, np.stack(terms).astype(np.float32)))
        fulls.append(full)
    return np.stack(base).astype(np.float32).ravel(), np.stack(fulls).ravel()


def _best(U):
    """(argmax, max) over the last (short) axis: a loop over P beats a reduce."""
    best, arg = U[..., 0].copy(), np.zeros(U.shape[:-1], np.int64)
    for k in range(1, U.shape[-1]):
        better = U[..., k] > best
        best = np.where(better, U[..., k], best)
        arg[better] = k
    return arg, best


def _pairs(P):
    I, J = np.triu_indices(P, 1)
    share = (I[:, None] == I) | (I[:, None] == J) | (J[:, None] == I) | (J[:, None] == J)
    return I, J, share


class Table:
    """Decisions of a whole batch of tables; ``styles`` (G,P) style codes,
    ``custom`` {seat: policy} for CUSTOM seats, ``rng`` the agents' generator."""

    def __init__(self, params, styles, rng, custom=None):
        self.p, self.rng = params, rng
        self.styles = np.asarray(styles, np.int8)
        G, P = self.styles.shape
        self.custom = custom or {}
        self.coef = COEF[self.styles]                         # (G,P,7)
        self.talks = self.styles < RANDOM                     # seats that negotiate
        self.random = self.styles == RANDOM
        self.any_steady = bool((self.styles == STEADY).any())
        self.any_mirror = bool((self.styles == MIRROR).any())
        self.w_fixed = (COEF[STEADY, 3] * (self.styles == STEADY))[:, :, None].astype(np.float32)
        self.w_pointer = (COEF[MIRROR, 4] * (self.styles == MIRROR))[:, :, None].astype(np.float32)
        self.any_random = bool(self.random.any())
        self.fixed = np.full((G, P), -1, np.int8)             # steady's partner (last teammate)
        self.idx = np.arange(P)
        self.U = None

    # --- step 2 -------------------------------------------------------------
    def cargo(self, st):
        p = self.p
        h = st.hand.astype(np.int32)
        code = h[..., 0] + 6 * h[..., 1] + 36 * h[..., 2] + 216 * h[..., 3] + 1296 * h[..., 4]
        code += self.styles.astype(np.int32) * HANDS
        cap = engine.round_cap(p, st)
        caps = np.unique(cap)
        v = cargo_table(int(caps[0]), p.cargo_counts, st.n_players)[code]
        for c in caps[1:]:
            v = np.where((cap == c)[:, None], cargo_table(int(c), p.cargo_counts, st.n_players)[code], v)
        left = (p.rounds - st.rnd)[:, None]
        porter = (st.role == PORTER) & (st.uses > 0) & (v < 4)
        if porter.any():
            boost = ((v == 3) & ((self.styles == HEAVY) | (self.styles == GRABBER))) \
                | ((st.uses >= left) & (self.styles != KEY))
            v = v + 5 * (porter & boost & (self.styles < RANDOM))
        return self._others(st, v.astype(np.int64))

    def _others(self, st, acts):
        """Random and custom seats overwrite their columns."""
        if self.any_random:
            for s in np.flatnonzero(self.random.any(0)):
                mask = engine.legal_mask(self.p, st, s)
                pick = uniform_choice(mask, self.rng.random(st.n_games, dtype=np.float32))
                acts[:, s] = np.where(self.random[:, s], pick, acts[:, s])
        for s, policy in self.custom.items():
            pick = policy(self.p, st, s, engine.legal_mask(self.p, st, s), self.rng)
            acts[:, s] = np.where(self.styles[:, s] == CUSTOM, pick, acts[:, s])
        return acts

    # --- steps 3-4 ----------------------------------------------------------
    def utilities(self, st):
        """(G,P,P) U[g,i,j]: how much styled seat i likes teaming with j."""
        base, full = utility_tables(self.p)
        G, P = st.cargo.shape
        c0 = st.cargo.astype(np.int32) - 1
        kind = np.select([st.rain == STATIC, st.rain == TOOLS], [1, 2], 0)
        off = ((kind[:, None] * len(COEF) + self.styles) * 5 + c0) * 5
        U = base[off[:, :, None] + c0[:, None, :]]
        idx = self.idx
        if self.any_steady:
            pair = (kind[:, None, None] * 5 + c0[:, :, None]) * 5 + c0[:, None, :]
            fixed = full[pair] & (self.fixed[:, :, None] == idx)
            U += self.w_fixed * fixed
        if self.any_mirror:
            pointer = st.rope[:, None, :] == idx[:, None]
            U += self.w_pointer * pointer
        U.reshape(G, P * P)[:, ::P + 1] = NEVER
        return U

    def match(self, U):
        """Greedy mutual-preference matching: (G,P) agreed partner or -1."""
        G, P, _ = U.shape
        I, J, share = _pairs(P)
        uij, uji = U[:, I, J], U[:, J, I]
        rank_ij = np.zeros(uij.shape, np.int16)
        rank_ji = np.zeros(uij.shape, np.int16)
        for k in range(P):  # rank = how many partners one likes better
            rank_ij += U[:, I, k] > uij
            rank_ji += U[:, J, k] > uji
        ok = (uij > ACCEPT) & (uji > ACCEPT) & self.talks[:, I] & self.talks[:, J]
        K = np.where(ok, (rank_ij + rank_ji) * np.float32(1000) - (uij + uji), np.inf)
        partner = np.full((G, P), -1, np.int64)
        rows = np.arange(G)
        for _ in range(P // 2):
            b = K.argmin(1)
            good = np.flatnonzero(K[rows, b] < np.inf)
            if len(good) == 0:
                break
            bg = b[good]
            partner[good, I[bg]] = J[bg]
            partner[good, J[bg]] = I[bg]
            K = np.where(share[b], np.inf, K)
        return partner

    def ropes(self, st):
        p, P = self.p, st.n_players
        U = self.U = self.utilities(st)
        top, top_u = _best(U)
        rope = np.where(top_u > ACCEPT, top, P)
        keeps = rope < P                      # the rope a bb would lock
        talk = engine.negotiation(p, st) & p.negotiation
        if talk.any():
            agreed, mate = self._negotiated(U, P)
            rope = np.where(talk[:, None], agreed, rope)
            keeps = np.where(talk[:, None], (mate >= 0) & (agreed == mate) & (p.reneging > 0), keeps)
        acts = self._locks(st, rope, keeps)
        return self._others(st, acts)

    def _negotiated(self, U, P):
        """Ropes after the negotiation and the reneging; and the agreed partners."""
        mate = self.match(U)
        matched = mate >= 0
        reneg = matched & (self.rng.random(mate.shape, dtype=np.float32) < self.p.reneging)
        rope = np.where(matched & ~reneg, mate, P)
        how = self.p.renege_to
        if how == "stay" or not reneg.any():
            return rope, mate
        U2 = np.where(self.idx == mate[..., None], NEVER, U)
        alt, alt_u = _best(U2)
        go = reneg & (alt_u > ACCEPT)
        if how == "better_or_stay":
            go &= alt_u > np.take_along_axis(U, np.maximum(mate, 0)[..., None], 2)[..., 0]
        return np.where(go, alt, rope), mate

    def _locks(self, st, rope, keeps):
        """bb: lock the chosen partner when a betrayal would cost much."""
        p, P = self.p, st.n_players
        bb = (st.role == BB) & (st.uses > 0) & keeps & (self.styles < RANDOM)
        if not bb.any():
            return rope
        node = np.asarray(p.node_values)[np.minimum(st.seg, len(p.node_values) - 1)]
        left = (p.rounds - st.rnd)[:, None]
        worth = (st.cargo >= 4) | (node >= 6)[:, None] | (st.uses >= left)
        return np.where(bb & worth, P + 1 + rope, rope)

    # --- after the ropes (5.5 powers) ---------------------------------------
    def react(self, st):
        p = self.p
        team = st.partner >= 0
        lone = ~team & (st.rope >= 0)
        has = (st.uses > 0) & (self.styles < RANDOM)
        left = (p.rounds - st.rnd)[:, None]
        vet = (st.role == VETERAN) & lone & ((st.cargo >= 4) | (st.uses >= left))
        mate = np.where(team, st.partner, 0).astype(np.int64)
        total = st.cargo + np.take_along_axis(st.cargo, mate, 1)
        cap = engine.round_cap(p, st)[:, None]
        eng = (st.role == ENGINEER) & team & (total > cap) & (total <= cap + p.engineer_bonus)
        mus = (st.role == MUSICIAN) & team
        acts = np.where(has & (vet | eng | mus), 1, 0)
        frag = has & (st.role == FRAGILE) & lone
        if frag.any():
            pointed = (st.rope[:, None, :] == self.idx[:, None]) & ~team[:, None, :]
            j, _ = _best(np.where(pointed, self.U, NEVER))
            acts = np.where(frag & pointed.any(2), 2 + j, acts)
        return self._others(st, acts)

    def observe(self, events):
        """After a round: steady keeps its last teammate."""
        self.fixed = np.where(events["partner"] >= 0, events["partner"], self.fixed).astype(np.int8)
