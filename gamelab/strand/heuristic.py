"""The six play styles of appendix B and the table model "议价配对 + 22% 临场反悔".

A :class:`Table` decides for every seat of every game at once (negotiation
is a joint decision).  Each seat plays a style code: the six styles of
``STYLES``, ``RANDOM`` (uniformly random legal moves) or ``CUSTOM`` (a batch
policy given per seat).  ``docs/agents.md`` states the model in words.

Cargo (step 2), per style, from the seat's own hand: heavy the largest card,
key the smallest, node_grabber the best expected full sum, steady the largest
that fits a 3, mirror and stay the median (``heuristic_tables.py`` holds the
styles' codes, cargo choices and objectives as look-up tables; their names
are importable from here too).

Ropes (steps 3-4): every styled seat scores each partner with its objective
``U`` from the revealed cargo (``engine.team_values``; coefficients: the
declared knobs heavy_points .. stay_overweight, ``heuristic_tables.coef``).
With negotiation the table forms disjoint pairs greedily by mutual preference
(smallest sum of the two ranks first, then the larger sum of utilities; both
must find the other acceptable: U above the knob ``accept``), then each matched player independently
reneges with chance ``reneging`` (``renege_to`` says what a reneger does);
unmatched players stay, except that one left out while a seat that does not
negotiate (random, custom) is at the table points at the silent seat it
scores best, if acceptable (it may point back).  Without negotiation (``negotiation=False``, variant
B, the fog card) each styled seat points at its best-scored partner if
acceptable, else stays.

Ties (issue 38): STRAND is simultaneous, so no choice among equals may go
by a seat's place in an array.  A seat choosing among partners it scores
alike takes one at random (:meth:`Table.ties`, uniforms from the agents'
generator); the negotiation takes pairs it wants equally in the order the
knob ``speaking_order`` says (:func:`pair_order`; random by default).

Role powers (5.5; 4 and 6 are the knobs ``big_cargo`` and ``big_node``):
porter +1 on a 4 (heavy, node_grabber) or when its uses would otherwise go
unspent; bb locks its agreed partner (its own top choice without
negotiation) when it has cargo >= 4, the node is worth >= 6 or uses would go
unspent; veteran when lone with cargo >= 4 or uses to spare;
musician whenever in a team; engineer when the team's sum is just over the
cap; fragile whenever lone and pointed at (to the best such pointer).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from gamelab.core.arrays import at_seats, cols, uniform_choice

from . import engine, kernel
from .agent_params import knobs

# the styles' codes and tables, re-exported: callers know them as heuristic.X
from .heuristic_tables import (  # noqa: F401
    CAP_KIND,
    CODES,
    COEF_KNOBS,
    CUSTOM,
    GRABBER,
    HANDS,
    HEAVY,
    KEY,
    MIRROR,
    NEVER,
    POINTER_FLAG,
    RANDOM,
    STAY,
    STEADY,
    STRIDE_I,
    STRIDE_J,
    STRIDE_KIND,
    STRIDE_STYLE,
    STYLES,
    cargo_table,
    coef,
    grab_values,
    hand_code,
    utility_lookup,
    utility_tables,
)
from .rules import BB, ENGINEER, MUSICIAN, PORTER, VETERAN
from .state import MAX_VALUE

DEAD = np.float32(1e30)  # added to a refused or taken pair's matching key (far above any live key)
LIVE = DEAD / 10  # a matching key below this is a pair still open
SHUN = np.float32(1e10)  # subtracted from an excluded partner's utility (below NEVER)
RANK_WEIGHT = np.float32(1000)  # matching key: the two ranks first, then the utilities
NO_PAIR = np.int8(100)  # a pair index past every pair: nothing chosen in that game
RENEGE_TO = ("stay", "better_or_stay", "best")  # renege_to's readings, as kernel.renege codes them


def best_partner(U, tie):
    """(argmax, max) over axis 1 of a seat-major (P,P,G) ``U``, among equal
    maxima the partner with the largest ``tie`` (P,P,G) uniform (ties broken at
    random: no seat is chosen for its place in the array); a loop over the P
    partners of long rows.  Plain equivalent per chooser i and game g: the k
    maximising the pair (U[i, k, g], tie[i, k, g])."""
    best, won = U[:, 0].copy(), tie[:, 0].copy()
    arg = np.zeros(best.shape, np.int8)
    for k in range(1, U.shape[1]):
        Uk, Tk = U[:, k], tie[:, k]
        better = (Uk > best) | ((Uk == best) & (Tk > won))
        np.copyto(best, Uk, where=better)
        np.copyto(won, Tk, where=better)
        np.copyto(arg, np.int8(k), where=better)
    return arg, best


def _seat_major(a):
    """(G,P) -> contiguous (P,G)."""
    return np.ascontiguousarray(a.T)


@cache
def _pairs(P):
    I, J = np.triu_indices(P, 1)
    share = (I[:, None] == I) | (I[:, None] == J) | (J[:, None] == I) | (J[:, None] == J)
    return I, J, share


def pair_order(order: str, rnd, P: int, rng):
    """(pairs,G) float32: the order in which the negotiation takes pairs of
    equal keys, smaller first (6.1 step 7: the first player only sets the
    speaking order of the negotiation).  ``none``: a fresh random order every
    round (the speaking order plays no part); ``fixed``: seat 1 speaks first,
    then seat 2, ...: the pair holding the earlier speaker first, then by its
    other seat; ``rotating``: the same from seat 1 + the round (mod P).
    ``rnd`` (G,) the rounds; ``rng`` draws only for ``none``."""
    I, J, _ = _pairs(P)
    if order == "none":
        return np.ascontiguousarray(rng.random((len(rnd), len(I)), dtype=np.float32).T)
    first = np.zeros_like(rnd) if order == "fixed" else rnd % P  # the round's first speaker
    pos_i, pos_j = (I[:, None] - first) % P, (J[:, None] - first) % P  # places in the speaking order
    return (np.minimum(pos_i, pos_j) * P + np.maximum(pos_i, pos_j)).astype(np.float32)


class Table:
    """Decisions of a whole batch of tables; ``styles`` (G,P) style codes,
    ``custom`` {seat: policy} for CUSTOM seats, ``rng`` the agents' generator.

    The utilities and the matching work seat-major, ``U[i, j, g]`` (P,P,G),
    so every numpy call runs over long rows of games."""

    def __init__(self, params, styles, rng, custom=None):
        self.p, self.rng = knobs(params), rng
        self.accept = np.float32(self.p.accept)  # a partner scored at or below this is refused
        self.styles = np.asarray(styles, np.int8)
        G, P = self.styles.shape
        self.custom = custom or {}
        self.talks = self.styles < RANDOM  # seats that negotiate
        self.random = self.styles == RANDOM
        self.any_steady = bool((self.styles == STEADY).any())
        self.any_mirror = bool((self.styles == MIRROR).any())
        self.any_random = bool(self.random.any())
        self.any_silent = bool((~self.talks).any())  # random or custom seats: they do not negotiate
        self.talks_t = _seat_major(self.talks)
        self.row_t = _seat_major(self.styles).astype(np.int16) * STRIDE_STYLE  # style's offset in utility_lookup
        self.fixed_t = np.full((P, G), -1, np.int8)  # steady's partner (last teammate), seat-major
        # the speaking order of the round negotiated last, (rounds (G,), pair order (pairs,G)): public, so
        # a search's play-outs of the same round negotiate in it too (``best.BestResponse.playout`` copies it)
        self.speech = None
        self.seat_j = np.arange(P, dtype=np.int8)[None, :, None]
        self.seat_i = np.arange(P, dtype=np.int8)[:, None, None]
        self.U = None

    # --- step 2 -------------------------------------------------------------
    def cargo(self, st):
        p = self.p
        value = self.shown(st, engine.round_cap(p, st))
        porter = engine.can_use(st, PORTER) & (value < MAX_VALUE)
        if porter.any():
            left = engine.rounds_left(p, st)[:, None]
            boost = ((value == p.big_cargo) & ((self.styles == HEAVY) | (self.styles == GRABBER))) | (
                (st.uses >= left) & (self.styles != KEY)
            )
            porter = porter & boost & (self.styles < RANDOM)
        else:
            porter = False
        return self._others(st, engine.cargo_action(value, porter).astype(np.int64))

    def shown(self, st, cap):
        """(G,P) the card each seat shows, by its style, under the round caps ``cap`` (G,)."""
        p = self.p
        code = hand_code(st.hand) + self.styles.astype(np.int32) * HANDS  # row = style (cargo_table's layout)
        caps = [cap.min()] if cap.min() == cap.max() else np.unique(cap)  # np.unique(cap): one cap is the rule
        v = cargo_table(int(caps[0]), p.cargo_counts, st.n_players, p.steady_mate).take(code)
        for c in caps[1:]:
            shown = cargo_table(int(c), p.cargo_counts, st.n_players, p.steady_mate).take(code)
            v = np.where((cap == c)[:, None], shown, v)
        return v + 1  # the table holds value - 1

    def _others(self, st, acts):
        """Random and custom seats overwrite their columns."""
        if not (self.any_random or self.custom):
            return acts
        legal = engine.legal(self.p, st)
        if self.any_random:
            for s in np.flatnonzero(self.random.any(0)):
                pick = uniform_choice(legal[:, s], self.rng.random(st.n_games, dtype=np.float32))
                acts[:, s] = np.where(self.random[:, s], pick, acts[:, s])
        for s, policy in self.custom.items():
            pick = policy(self.p, st, s, legal[:, s], self.rng)
            acts[:, s] = np.where(self.styles[:, s] == CUSTOM, pick, acts[:, s])
        return acts

    # --- steps 3-4 ----------------------------------------------------------
    def utilities(self, st):
        """(P,P,G) U[i,j,g]: how much styled seat i likes teaming with j in game g."""
        table = utility_lookup(self.p, self.any_steady, self.any_mirror)
        P = st.n_players
        c0 = _seat_major(st.cargo).astype(np.int16) - 1  # int16 indices: cheap to build, < 2,400
        kind = CAP_KIND.take(st.rain.astype(np.intp) + 1)
        # idx[i, j, g] = ravel_multi_index((kind, style of i, cargo i, cargo j, flags)), flags added below
        idx = (self.row_t + kind * STRIDE_KIND + c0 * STRIDE_I)[:, None, :] + (c0 * STRIDE_J)[None, :, :]
        if self.any_steady:
            idx += self.fixed_t[:, None, :] == self.seat_j  # + FIXED_FLAG (1)
        if self.any_mirror:
            idx += (_seat_major(st.rope)[None, :, :] == self.seat_i) * np.int16(POINTER_FLAG)
        U = table.take(idx)
        for i in range(P):
            U[i, i] = NEVER
        return U

    def match(self, U, prio):
        """Greedy mutual-preference matching: (P,G) agreed partner or -1 (seat-major);
        ``prio`` (pairs,G) orders pairs of equal keys (:func:`pair_order`).
        Compiled (``kernel.match``) where numba is installed, else :meth:`match_batch`."""
        if kernel.COMPILED:
            return kernel.match(U, self.talks_t, self.accept, _pairs(U.shape[0])[:2], prio, DEAD, LIVE, RANK_WEIGHT)
        return self.match_batch(U, prio)  # pragma: no cover - exercised only where numba is missing

    def match_batch(self, U, prio):
        """:meth:`match` in numpy over the batch (the reference ``kernel.match`` is held to)."""
        P, _, G = U.shape
        I, J, _ = _pairs(P)
        uij, uji = U[I, J], U[J, I]
        rank_ij = np.zeros(uij.shape, np.int16)
        rank_ji = np.zeros(uij.shape, np.int16)
        for k in range(P):  # rank = how many partners one likes better
            rank_ij += U[I, k] > uij
            rank_ji += U[J, k] > uji
        ok = (uij > self.accept) & (uji > self.accept) & self.talks_t[I] & self.talks_t[J]
        K = (rank_ij + rank_ji) * RANK_WEIGHT - (uij + uji)
        K += ~ok * DEAD
        partner = np.full((P, G), -1, np.int8)
        for _ in range(P // 2):
            best, bprio, b = K[0].copy(), prio[0].copy(), np.zeros(G, np.int8)
            for q in range(1, len(I)):  # argmin over the pairs of (key, speaking order)
                better = (K[q] < best) | ((K[q] == best) & (prio[q] < bprio))
                np.copyto(best, K[q], where=better)
                np.copyto(bprio, prio[q], where=better)
                np.copyto(b, np.int8(q), where=better)
            good = best < LIVE
            if not good.any():
                break
            b += ~good * NO_PAIR
            for q in range(len(I)):
                chosen = b == q
                partner[I[q]] += chosen * np.int8(J[q] + 1)  # np.where(chosen, J[q], partner): it was -1
                partner[J[q]] += chosen * np.int8(I[q] + 1)
            taken = partner >= 0
            K += (taken[I] | taken[J]) * DEAD
        return partner

    def ties(self, G, P):
        """(P,P,G) uniforms that break a seat's ties between equally scored
        partners at random (the largest wins), drawn games-first from the
        agents' own generator (so play-outs share them, ``search.SharedDraws``)."""
        return np.ascontiguousarray(self.rng.random((G, P, P), dtype=np.float32).transpose(1, 2, 0))

    def ropes(self, st):
        p, P = self.p, st.n_players
        stay = engine.stay_action(P)
        U = self.U = self.utilities(st)
        tie = self.ties(st.n_games, P)
        talk = engine.negotiation(p, st) & p.negotiation
        every = bool(talk.all())
        if not every:
            top, top_u = best_partner(U, tie)
            rope = stay + (top_u > self.accept) * (top - np.int8(stay))  # np.where(top_u > accept, top, stay)
            keeps = rope < stay  # the rope a bb would lock
        if talk.any():
            agreed, mate = self._negotiated(st, U, tie)
            if self.any_silent:
                agreed = self._silent_chance(U, tie, agreed, mate, stay)
            kept = (mate >= 0) & (agreed == mate) & (p.reneging > 0)
            if every:
                rope, keeps = agreed, kept
            else:
                rope = rope + talk * (agreed - rope)  # np.where(talk, agreed, rope)
                keeps = np.where(talk, kept, keeps)
        acts = self._locks(st, _seat_major(rope), _seat_major(keeps))
        return self._others(st, acts)

    def _silent_chance(self, U, tie, agreed, mate, stay):
        """(P,G) rope codes: a styled seat the negotiation left without a
        partner points at the seat it scores best among those that did not
        negotiate (random and custom seats: silent, they may still point
        back, 6.2 step 4), if acceptable; else it stays.  Among styled seats
        only, nobody is left out who could be asked, so nothing changes."""
        silent = U - self.talks_t[None, :, :] * SHUN  # talkers shunned: only silent partners
        top, top_u = best_partner(silent, tie)
        ask = (mate < 0) & self.talks_t & (top_u > self.accept)
        return agreed + ask * (top - agreed)  # np.where(ask, top, agreed)

    def speaking(self, st, P):
        """(pairs,G) this round's speaking order (:func:`pair_order`): the one of :attr:`speech`
        if it is this round's (a play-out of the round it was copied from), else a new one."""
        if self.speech is None or not np.array_equal(self.speech[0], st.rnd):
            self.speech = (st.rnd.copy(), pair_order(self.p.speaking_order, st.rnd, P, self.rng))
        return self.speech[1]

    def _negotiated(self, st, U, tie):
        """Rope codes after the negotiation and the reneging; and the agreed partners (seat-major)."""
        P, _, G = U.shape
        mate = self.match(U, self.speaking(st, P))
        draw = self.rng.random((G, P), dtype=np.float32) < self.p.reneging
        reneg = (mate >= 0) & _seat_major(draw)
        if kernel.COMPILED:
            how = RENEGE_TO.index(self.p.renege_to)
            return kernel.renege(U, mate, reneg, engine.stay_action(P), self.accept, SHUN, how, tie), mate
        return self.renege_batch(U, mate, reneg, tie), mate  # pragma: no cover - exercised only where numba is missing

    def renege_batch(self, U, mate, reneg, tie):
        """(P,G) rope codes: the agreed partner, or for a reneger (``reneg``) what
        ``renege_to`` says, its ties broken by ``tie`` (numpy; the reference ``kernel.renege`` is held to)."""
        P, _, G = U.shape
        matched = mate >= 0
        stay = engine.stay_action(P)
        rope = stay + (matched & ~reneg) * (mate - np.int8(stay))  # np.where(matched & ~reneg, mate, stay)
        how = self.p.renege_to
        if how == "stay" or not reneg.any():
            return rope
        mate_u = np.zeros((P, G), np.float32)  # U of the agreed partner
        for k in range(P):  # best alternative to the agreed partner
            Uk = U[:, k]
            out = mate == k
            mate_u += out * Uk
        alt, alt_u = best_partner(U - (mate[:, None, :] == self.seat_j) * SHUN, tie)
        go = reneg & (alt_u > self.accept)
        if how == "better_or_stay":
            go &= alt_u > mate_u
        return rope + go * (alt - rope)  # np.where(go, alt, rope)

    def _locks(self, st, rope, keeps):
        """bb: lock the chosen partner when a betrayal would cost much."""
        p, P = self.p, st.n_players
        bb = engine.can_use(st, BB) & keeps & self.talks
        if not bb.any():
            return rope
        left = cols(engine.rounds_left(p, st), P)
        big_node = cols(engine.current_node(p, st) >= p.big_node, P)
        worth = (st.cargo >= p.big_cargo) | big_node | (st.uses >= left)
        return engine.rope_action(rope, bb & worth, P)

    # --- after the ropes (5.5 powers) ---------------------------------------
    def react(self, st):
        p, P = self.p, st.n_players
        seats = engine.status(p, st)
        left = cols(engine.rounds_left(p, st), P)
        vet = (st.role == VETERAN) & ((st.cargo >= p.big_cargo) | (st.uses >= left))
        total = st.cargo + at_seats(st.cargo, np.maximum(st.partner, 0))  # the team's sum (used in a team only)
        cap = cols(engine.round_cap(p, st), P)
        eng = (st.role == ENGINEER) & (total > cap) & (total <= cap + p.engineer_bonus)
        mus = st.role == MUSICIAN
        use = engine.power_ready(p, st, seats) & self.talks & (vet | eng | mus)
        acts = engine.power_action(use)
        frag = engine.switch_ready(p, st, seats) & self.talks
        if frag.any():
            acts = self._fragile(st, seats, frag, acts)
        return self._others(st, acts)

    def _fragile(self, st, seats, frag, acts):
        """A lone fragile switches to the pointer (not in a team) it likes best."""
        pointers_t = _seat_major(engine.switch_pointers(self.p, st, seats))
        pk = pointers_t[None, :, :] == self.seat_i  # (P,P,G): k pointed at seat i and is free
        j, _ = best_partner(self.U - ~pk * SHUN, self.ties(st.n_games, st.n_players))
        switch = frag & _seat_major(pk.any(1))
        return engine.with_switch(acts, switch, _seat_major(j))

    def observe(self, events):
        """After a round: steady keeps its last teammate."""
        partner = _seat_major(events["partner"])
        self.fixed_t += (partner >= 0) * (partner - self.fixed_t)  # np.where(partner >= 0, partner, fixed)
