"""STRAND, one game at a time: the executable specification.

Written straight from the rulebook for reading, not for speed.  The batch
engine (``engine.py``) must agree with this after every step (the
differential tests hold it to that).  Both take the same actions and the same
chance: a round is three decisions (cargo, rope, reaction), and the refill
after a round draws with the uniforms ``draws[seat][k]`` (see ``draw_card``).

Action codes (shared with the engine, written out here on purpose):

* cargo: ``value - 1 + 5 * porter`` (porter = use the porter's +1)
* rope: seat ``j`` (point at j), ``n`` (stay), ``n + 1 + j`` (bb: lock j)
* reaction: 0 pass, 1 use my veteran / engineer / musician power,
  ``2 + j`` fragile: switch to seat j

The functions at the end drive a reference game like the batch engine
(``start``, ``advance``, ``observe``, ``observe_batch``, ``result``), for
the conformance tests.
"""

from __future__ import annotations

from .rules import (
    ACID,
    BB,
    BT_TIDE,
    CRATE,
    ENGINEER,
    FRAGILE,
    MUSICIAN,
    PORTER,
    STATIC,
    TOOLS,
    TOWER,
    VETERAN,
    StrandParams,
    half,
)
from .state import CARGO, REACT, ROPE


def draw_card(deck: list, discard: list, u: float) -> int:
    """Draw one card (value index 0..4) from a shuffled deck.

    A uniformly shuffled deck hands out each remaining card with equal chance,
    so the card is the ``floor(u * cards left)``-th in value order.  When the
    deck is empty the discards are shuffled back in (section 6.2 step 1), before
    a draw and right after the draw that empties it.
    """
    if sum(deck) == 0:
        _reshuffle(deck, discard)
    r = int(u * sum(deck))
    v = 0
    while r >= deck[v]:
        r -= deck[v]
        v += 1
    deck[v] -= 1
    if sum(deck) == 0:
        _reshuffle(deck, discard)
    return v


def _reshuffle(deck, discard):
    for v in range(5):
        deck[v] += discard[v]
        discard[v] = 0


class Game:
    """One game of STRAND.  ``hands`` is None when hands are unknown (replay)."""

    def __init__(self, params: StrandParams, roles, hands, deck, rain_order=()):
        p = params
        self.p, self.n = p, len(roles)
        self.roles = list(roles)
        self.uses = [p.role_uses()[r] for r in roles]
        self.hands = None if hands is None else [list(h) for h in hands]
        self.deck, self.discard = list(deck), [0] * 5
        self.limit = [p.hand_size] * self.n
        self.score, self.lone = [0] * self.n, [0] * self.n
        self.seg, self.rnd, self.phase = 0, 0, CARGO
        self.rain_order = list(rain_order)
        self.rain = self.rain_order[0] if self.rain_order else -1
        self.cargo, self.card = [0] * self.n, [0] * self.n
        self.rope, self.partner = [-1] * self.n, [-1] * self.n
        self.done = False

    # --- step 2: reveal cargo ------------------------------------------------
    def cargo_legal(self, seat):
        out = []
        for a in range(10):
            v, porter = a % 5, a // 5
            held = self.hands is None or self.hands[seat][v] > 0
            if held and (not porter or (self.roles[seat] == PORTER and self.uses[seat] > 0)):
                out.append(a)
        return out

    def reveal(self, actions):
        """All reveal at once; porter +1 (max 5), then acid rain -1 (min 1)."""
        for s, a in enumerate(actions):
            v = a % 5 + 1
            self.card[s] = v
            if self.hands is not None:
                self.hands[s][v - 1] -= 1
            if a >= 5:
                self.uses[s] -= 1
                v = min(5, v + self.p.porter_bonus)
            if self.rain == ACID:
                v = max(1, v - self.p.acid_minus)
            self.cargo[s] = v
        self.phase = ROPE

    # --- step 4/5-1: ropes and teams ----------------------------------------
    def rope_legal(self, seat):
        out = [j for j in range(self.n) if j != seat] + [self.n]
        if self.roles[seat] == BB and self.uses[seat] > 0:
            out += [self.n + 1 + j for j in range(self.n) if j != seat]
        return out

    def ropes(self, actions):
        n = self.n
        lock = [-1] * n
        for s, a in enumerate(actions):
            if a > n:
                lock[s] = a - n - 1
                self.uses[s] -= 1
                self.rope[s] = lock[s]  # the bb's card points at the partner he locks
            else:
                self.rope[s] = -1 if a == n else a
        self.partner = [-1] * n
        bound = set()
        if self.p.bb_lock == "override":
            for b in range(n):
                if lock[b] >= 0:
                    self._pair(b, lock[b])
                    bound |= {b, lock[b]}
        for i in range(n):
            j = self.rope[i]
            if i in bound or j < 0 or j in bound:
                continue
            if self.rope[j] == i:
                self.partner[i] = j
        if self.p.bb_lock == "yield":
            for b in range(n):
                if lock[b] >= 0 and self.partner[lock[b]] < 0:
                    self._pair(b, lock[b])
        self.phase = REACT

    def _pair(self, a, b):
        self.partner[a], self.partner[b] = b, a

    def status(self, seat):
        if self.partner[seat] >= 0:
            return "team"
        return "stay" if self.rope[seat] < 0 else "lone"

    # --- 5-2..5-6: reactions, scoring, node, track ----------------------------
    def react_legal(self, seat):
        out, role, st = [0], self.roles[seat], self.status(seat)
        if self.uses[seat] <= 0:
            return out
        if (role == VETERAN and st == "lone") or (role in (ENGINEER, MUSICIAN) and st == "team"):
            out.append(1)
        if role == FRAGILE and st == "lone":
            out += [2 + j for j in range(self.n) if self.rope[j] == seat and self.partner[j] < 0]
        return out

    def settle(self, actions, draws=None):
        """Reactions, then the round's scores; ``draws`` refill the hands."""
        p, n = self.p, self.n
        halfed = [False] * n
        for s, a in enumerate(actions):  # fragile switches happen first
            if a >= 2:
                self._pair(s, a - 2)
                halfed[s] = True
                self.uses[s] -= 1
        used = [False] * n
        for s, a in enumerate(actions):
            role = self.roles[s]
            if a == 1 and (role != VETERAN or self.status(s) == "lone"):
                used[s] = True
                self.uses[s] -= 1
        contrib = [
            half(self.cargo[s], p.half_rounding) if halfed[s] and p.fragile_sum == "half" else self.cargo[s]
            for s in range(n)
        ]
        cap = {STATIC: p.static_cap, TOOLS: p.tools_cap}.get(self.rain, p.sum_cap)
        gained = [0] * n
        keys = {}
        for s in range(n):
            st, v, hv = self.status(s), self.cargo[s], half(self.cargo[s], p.half_rounding)
            if st == "stay":
                self.limit[s] = min(self.limit[s] + 1, p.max_hand)
            elif p.stay_bonus == "one_round":
                self.limit[s] = p.hand_size
            if st == "lone":
                gained[s] = v if (used[s] and self.roles[s] == VETERAN) else hv
                self.lone[s] += p.bt_markers if self.rain == BT_TIDE else 1
            if st != "team":
                continue
            m = self.partner[s]
            total = contrib[s] + contrib[m]
            eng = any(used[x] and self.roles[x] == ENGINEER for x in (s, m))
            full = total <= cap + (p.engineer_bonus if eng else 0)
            gained[s] = hv if (halfed[s] or not full) else v
            if used[s] and self.roles[s] == MUSICIAN and (full or p.musician_on_overweight):
                gained[s] += p.musician_bonus
            if self.rain == CRATE:
                gained[s] += p.crate_bonus if p.crate_to == "each" else p.crate_bonus // 2
            if full:
                keys[s] = (total, max(contrib[s], contrib[m]))
        node = self._node(keys, gained, contrib)
        for s in range(n):
            self.score[s] += gained[s]
        formed = any(self.status(s) == "team" for s in range(n))
        self._end_round(formed, draws)
        return {"gained": gained, "node": node, "formed": formed}

    def _node(self, keys, gained, contrib):
        """5.4: largest sum among full teams; tie -> heavier card; still tied -> void."""
        if not keys:
            return None
        best = max(keys.values())
        winners = [s for s, k in keys.items() if k == best]
        if len(winners) > 2:
            return "void"
        value = self.p.node_values[self.seg] * (self.p.tower_factor if self.rain == TOWER else 1)
        a, b = sorted(winners)
        if self.p.node_award == "each":
            gained[a] += value
            gained[b] += value
        else:
            big = a if contrib[a] >= contrib[b] else b
            gained[big] += (value + 1) // 2
            gained[a + b - big] += value // 2
        return winners

    def _end_round(self, formed, draws):
        p = self.p
        for s in range(self.n):
            if p.stay_returns_cargo and self.status(s) == "stay":
                if self.hands is not None:
                    self.hands[s][self.card[s] - 1] += 1
            else:
                self.discard[self.card[s] - 1] += 1
        if formed:
            self.seg += 1
        self.rnd += 1
        self.done = self.rnd >= p.rounds or self.seg >= len(p.node_values)
        self.phase = CARGO
        if self.done:
            self.rain = -1
            return
        self.rain = self.rain_order[self.rnd] if self.rnd < len(self.rain_order) else -1
        if self.hands is not None and draws is not None:
            for s in range(self.n):
                for k in range(self.limit[s] - sum(self.hands[s])):
                    self.hands[s][draw_card(self.deck, self.discard, draws[s][k])] += 1

    # --- 6.4: end ------------------------------------------------------------
    def final(self):
        return [self.score[s] - self.p.lone_penalty * self.lone[s] for s in range(self.n)]

    def win_shares(self):
        """Highest final score; tie -> fewer markers; still tied -> shared win.
        Variant E: opposite seats add up, and each member gets the team's share."""
        n, fin = self.n, self.final()
        if self.p.teams:
            t = n // 2
            key = {s: (fin[s] + fin[(s + t) % n], -(self.lone[s] + self.lone[(s + t) % n])) for s in range(n)}
        else:
            key = {s: (fin[s], -self.lone[s]) for s in range(n)}
        best = max(key.values())
        tops = [s for s in range(n) if key[s] == best]
        share = (2.0 if self.p.teams else 1.0) / len(tops)
        return [share if s in tops else 0.0 for s in range(n)]


# --- driving the reference like the batch engine ---------------------------------
def deal_hands(params, n_players, uniforms):
    """Section 6.1: hands dealt seat by seat, card k of seat s drawn with
    ``uniforms[s][k]``; returns (hands, deck, discard)."""
    deck, discard = list(params.cargo_counts), [0] * 5
    hands = [[0] * 5 for _ in range(n_players)]
    for s in range(n_players):
        for k in range(params.hand_size):
            hands[s][draw_card(deck, discard, uniforms[s][k])] += 1
    return hands, deck, discard


def play_random(params: StrandParams, n_players: int, rng) -> list:
    """One game under uniformly random legal play, dealt by ``draw_card``
    (the one-game-at-a-time baseline the batch engine is timed against)."""
    uniforms = [[rng.random() for _ in range(params.hand_size)] for _ in range(n_players)]
    hands, deck, _ = deal_hands(params, n_players, uniforms)
    game = Game(params, [0] * n_players, hands, deck)

    def pick(options):
        return options[int(rng.random() * len(options))]

    while not game.done:
        game.reveal([pick(game.cargo_legal(s)) for s in range(n_players)])
        game.ropes([pick(game.rope_legal(s)) for s in range(n_players)])
        game.settle(
            [pick(game.react_legal(s)) for s in range(n_players)],
            [[rng.random() for _ in range(2)] for _ in range(n_players)],
        )
    return game.final()


def start(params, n_players: int, chance, g: int) -> Game:
    """Game ``g`` of a batch dealt by ``chance`` (``state.Chance``), as
    ``engine.init`` deals it; hands unknown when the chance has none."""
    roles = [int(r) for r in chance.roles[g]]
    rain_order = [int(c) for c in chance.rain_order[g]]
    if chance.hands is None:
        return Game(params, roles, None, params.cargo_counts, rain_order)
    hands, deck, discard = deal_hands(params, n_players, chance.hands[g].tolist())
    game = Game(params, roles, hands, deck, rain_order)
    game.discard = discard
    return game


def advance(params, game: Game, state, actions, chance, g: int) -> None:
    """The decision ``engine.step(state, actions, chance)`` makes for game
    ``g`` (``state``: before the step): reveal, ropes or settle by phase,
    the settle with that round's refill draws."""
    if game.done:
        return
    a = [int(x) for x in actions[g]]
    if state.phase == CARGO:
        game.reveal(a)
    elif state.phase == ROPE:
        game.ropes(a)
    else:
        draws = None if chance.draws is None else chance.draws[game.rnd, g].tolist()
        game.settle(a, draws)


_OBSERVED = ("limit", "score", "lone", "uses", "cargo", "card", "rope", "partner")


def observe(game: Game) -> dict:
    """The rule-relevant state as plain Python values."""
    out = {"hand": game.hands, "deck": list(game.deck), "discard": list(game.discard)}
    out.update({name: list(getattr(game, name)) for name in _OBSERVED})
    out.update(seg=game.seg, rnd=game.rnd, rain=game.rain, phase=game.phase)
    return out


def observe_batch(state, g: int) -> dict:
    """The same keys from game ``g`` of the batch state."""
    out = {
        "hand": state.hand[g].tolist() if state.tracked else None,
        "deck": state.deck[g].tolist(),
        "discard": state.discard[g].tolist(),
    }
    out.update({name: getattr(state, name)[g].tolist() for name in _OBSERVED})
    out.update(seg=int(state.seg[g]), rnd=int(state.rnd[g]), rain=int(state.rain[g]), phase=state.phase)
    return out


def result(game: Game) -> dict:
    """``score`` (final) and ``win`` (shares) per seat, as lists."""
    return {"score": game.final(), "win": game.win_shares()}
