"""STEEL BALL RUN, one game at a time in plain Python: the executable specification.

Written straight from the rulebook for reading, not speed.  The batch engine
(``engine.py``) is held to this file by the differential tests: same chance
(deck orders, relic layout, start player), same actions, identical states.

A game is driven beat by beat::

    g = Game(params, n_players, decks, relics, start)
    for beat in range(params.beats):
        for r in g.order():                 # section 6.2 step 0
            g.act(r, card, spin, seal, brk, retrieve)   # steps 1-6
        g.end_beat()                        # segment scoring every 3rd beat
    g.result()

Also here, plainly: the greedy agent's choice (:func:`greedy_choice`, appendix
A's greedy with our objective, docs/agents.md), each option's outcome asked of
a copy of the game; the compiled greedy (``heuristic.py``) is held to it.
"""

from __future__ import annotations

import copy

import numpy as np

from .agent_params import knobs
from .rules import CURVE, EYE, HEART, N_VALUES, RIVER, ROCK, SKULL, TOWN, SbrParams, n_riders


class Game:
    def __init__(self, params: SbrParams, n_players: int, decks, relics, start: int = 0):
        p = self.p = params
        self.n_players = n_players
        self.R = R = n_riders(p, n_players)
        self.team = [r // p.riders_per_player for r in range(R)]
        self.L = p.length
        self.terrain = [int(t) for t in p.terrain_array()]
        self.deck = [[int(v) for v in d] for d in decks]
        self.hand = [[0] * N_VALUES for _ in range(R)]
        for r in range(R):
            for v in self.deck[r][: p.hand_size]:
                self.hand[r][v - 1] += 1
        self.drawn = [p.hand_size] * R
        self.discard = [[0] * N_VALUES for _ in range(R)]
        self.pos, self.spin = [0] * R, [0] * R
        self.seals_left = [p.seals_per_player] * R
        self.seal = [-1] * (self.L + 1)  # owner of the seal on each square
        self.relic = [int(x) for x in relics]  # relic type face down, -1 none
        self.relic_pts, self.relic_n = [0] * R, [0] * R
        self.seg_start, self.seg_points = [0] * R, [0] * R
        self.segments = []  # (distance list, points list)
        self.finish_beat = [0] * R
        self.beat, self.start = 0, start
        self.beat_order: list[int] = []  # this beat's racing riders in acting order (advance)
        self.stats = {
            k: [0] * R for k in ("spin_spent", "seals_placed", "seal_hits", "card_sum", "cards_played", "terrain_tax")
        }

    # --- "seat order" (6.2 step 0, segment and final ranking) ---
    def seat(self, r: int, first_beat: bool = False) -> int:
        """Rider r's place in the seat order: clockwise from the start player
        in beat 1 (6.1) and, under ``seat_order = from_start``, in every
        tie-break; otherwise his seat number."""
        if first_beat or self.p.seat_order == "from_start":
            return (r - self.start) % self.R
        return r

    # --- section 6.2 step 0 ---
    def order(self) -> list[int]:
        """Riders still racing, back to front; ties: less spin, then seat
        order (in beat 1 counted from the start player, section 6.1)."""
        first = self.beat == 0
        racing = [r for r in range(self.R) if self.pos[r] < self.L]
        return sorted(racing, key=lambda r: (self.pos[r], self.spin[r], self.seat(r, first)))

    def gain_spin(self, r, n):
        self.spin[r] = min(self.p.spin_cap, self.spin[r] + n)

    # --- section 6.2 steps 1-6 ---
    def act(self, r, card, spin=0, seal=0, brk=False, retrieve=0):
        p = self.p
        assert self.pos[r] < self.L and self.hand[r][card - 1] > 0
        assert 0 <= spin <= min(p.max_spin_per_beat, self.spin[r])
        self.hand[r][card - 1] -= 1  # step 1
        if p.skull_takes_current:
            self.discard[r][card - 1] += 1
        self.spin[r] -= spin  # step 2
        self.stats["spin_spent"][r] += spin
        self.stats["card_sum"][r] += card
        self.stats["cards_played"][r] += 1
        if seal:  # step 3
            self.place_seal(r, seal)
        stopped = self.move(r, card + spin, card, brk)  # step 4
        if stopped is not None:
            self.resolve_stop(r, stopped, retrieve)  # step 4.3 and 5
        if not p.skull_takes_current:
            self.discard[r][card - 1] += 1
        if self.drawn[r] < len(self.deck[r]):  # step 6
            self.hand[r][self.deck[r][self.drawn[r]] - 1] += 1
            self.drawn[r] += 1
        if self.pos[r] >= self.L and not self.finish_beat[r]:
            self.finish_beat[r] = self.beat + 1

    def seal_square(self, r, dist):
        return self.pos[r] + dist if self.p.seal_direction == "ahead" else self.pos[r] - dist

    def seal_ok(self, r, dist) -> bool:
        """Section 5.3: 1..range squares away, on the board, empty, a seal left."""
        sq = self.seal_square(r, dist)
        if not (1 <= dist <= self.p.seal_range and 1 <= sq < self.L and self.seals_left[r] > 0):
            return False
        if self.seal[sq] >= 0:
            return False
        return not (self.p.seal_empty == "no_seal_no_rider" and sq in self.pos)

    def place_seal(self, r, dist):
        assert self.seal_ok(r, dist)
        self.seal[self.seal_square(r, dist)] = r
        self.seals_left[r] -= 1
        self.stats["seals_placed"][r] += 1

    def extra_cost(self, square, card):
        """Section 4.2: a rock costs more; a curve costs more for a big card."""
        t = self.terrain[square]
        if t == ROCK:
            return self.p.rock_penalty
        if t == CURVE and card >= self.p.big_card:
            return self.p.curve_penalty
        return 0

    def move(self, r, m, card, brk):
        """Square by square (6.2 step 4): terrain, then seals.  The square the
        rider stopped on, or None if he entered no square."""
        p, river, stopped = self.p, False, None
        while m > 0 and self.pos[r] < self.L:
            sq = self.pos[r] + 1
            m -= 1
            extra = self.extra_cost(sq, card)
            if extra and m > 0:  # only while movement remains
                if p.extra_cost_rule == "stop_before" and m < extra:
                    self.stats["terrain_tax"][r] += m
                    break
                self.stats["terrain_tax"][r] += min(extra, m)
                m -= min(extra, m)
            self.pos[r] = stopped = sq
            if self.terrain[sq] == RIVER and not river:
                river = True
                self.gain_spin(r, p.river_spin)
            m = self.meet_seal(r, sq, m, brk)
        return stopped

    def meet_seal(self, r, sq, m, brk):
        """Section 5.3: an opponent's seal costs movement or spin; own seals
        are ignored (9.3: the owner gains)."""
        p, o = self.p, self.seal[sq]
        if o < 0:
            return m
        if o == r or (p.team_seals_ignored and self.team[o] == self.team[r]):
            if o == r and p.seal_owner_bonus:
                self.seal[sq] = -1
                return m + p.seal_owner_bonus
            return m
        if m == 0 and not p.break_on_stop:
            if p.seal_spent_on_stop:
                self.seal[sq] = -1
                self.stats["seal_hits"][r] += 1
            return m
        self.seal[sq] = -1
        self.stats["seal_hits"][r] += 1
        if brk and self.spin[r] >= p.seal_break_cost:
            self.spin[r] -= p.seal_break_cost
            return m
        return max(0, m - p.seal_penalty)

    def resolve_stop(self, r, sq, retrieve):
        """Relic on an exact stop (5.4), then a town (4.2)."""
        p, kind = self.p, self.relic[sq]
        if kind >= 0:
            self.relic[sq] = -1
            self.relic_pts[r] += p.relic_points[kind]
            self.relic_n[r] += 1
            if kind == EYE:
                self.gain_spin(r, p.eye_spin)
            elif kind == HEART:
                self.heart(r)
            elif kind == SKULL:
                for _ in range(p.skull_cards):
                    self.take_back(r, retrieve)
        if self.terrain[sq] == TOWN:
            self.gain_spin(r, p.town_spin)

    def heart(self, r):
        """Forward without terrain or relics; seals only if the reading says so."""
        steps = self.p.heart_steps
        if not self.p.heart_passes_seals:
            self.pos[r] = min(self.L, self.pos[r] + steps)
            return
        while steps > 0 and self.pos[r] < self.L:
            self.pos[r] += 1
            steps = self.meet_seal(r, self.pos[r], steps - 1, False)

    def take_back(self, r, value):
        """The chosen card from the discard, else the highest there."""
        d = self.discard[r]
        if not (1 <= value <= N_VALUES and d[value - 1] > 0):
            held = [v for v in range(N_VALUES, 0, -1) if d[v - 1] > 0]
            if not held:
                return
            value = held[0]
        d[value - 1] -= 1
        self.hand[r][value - 1] += 1

    # --- segment scoring (6.2) ---
    def end_beat(self):
        self.beat += 1
        if self.beat in self.p.segment_ends():
            dist = [self.pos[r] - self.seg_start[r] for r in range(self.R)]
            ranked = sorted(range(self.R), key=lambda r: (-dist[r], -self.pos[r], -self.relic_n[r], self.seat(r)))
            pts = [0] * self.R
            for k, r in enumerate(ranked):
                pts[r] = self.p.segment_points[k]
                self.seg_points[r] += pts[r]
            self.segments.append((dist, pts))
            self.seg_start = list(self.pos)
            self.seal = [-1] * (self.L + 1)

    # --- section 6.3 ---
    def result(self) -> dict:
        R, P = self.R, self.n_players
        ranked = sorted(range(R), key=lambda r: (-self.pos[r], -self.relic_n[r], self.seat(r)))
        final = [0] * R
        for k, r in enumerate(ranked):
            final[r] = self.p.final_points[k]
        rider_total = [self.seg_points[r] + self.relic_pts[r] + final[r] for r in range(R)]
        score, relics, pos = [0] * P, [0] * P, [0] * P
        for r in range(R):
            t = self.team[r]
            score[t] += rider_total[r]
            relics[t] += self.relic_n[r]
            pos[t] += self.pos[r]
        key = [(score[i], relics[i], pos[i]) for i in range(P)]
        best = max(key)
        winners = [i for i in range(P) if key[i] == best]
        if P == 1:  # 9.4: the time trial is won by reaching the finish
            winners = [0] if self.pos[0] >= self.L else []
        win = [1 / len(winners) if i in winners else 0.0 for i in range(P)]
        rank = [1 + sum(key[j] > key[i] for j in range(P)) for i in range(P)]
        return dict(score=score, win=win, rank=rank, final_points=final, rider_total=rider_total)


# --- the greedy agent (appendix A; docs/agents.md), plainly ---


def _matters(game: Game, r: int, owner: int) -> bool:
    """Whether rider ``r`` meets the seal of ``owner`` (5.3, 9.3, 9.5): not his own
    (unless 9.3 pays him), not his team mate's if those are ignored."""
    p = game.p
    if owner == r:
        return bool(p.seal_owner_bonus)
    return not (p.team_seals_ignored and game.team[owner] == game.team[r])


def _outcome(game: Game, r: int, card: int, spin: int, brk: bool):
    """What the move does, asked of a copy of the game: end square, spin held
    after, terrain tax, relic kind taken (-1 none)."""
    g = copy.deepcopy(game, {id(game.p): game.p})
    g.act(r, card, spin, 0, brk, 0)
    taken = [game.relic[sq] for sq in range(game.L + 1) if game.relic[sq] >= 0 and g.relic[sq] < 0]
    tax = g.stats["terrain_tax"][r] - game.stats["terrain_tax"][r]
    return g.pos[r], g.spin[r], tax, taken[0] if taken else -1


def greedy_values(game: Game, r: int, order: list, brk: bool = False) -> list:
    """The greedy's value of each (card, spin) option of rider ``r`` (cards
    major, spin minor; None where not legal), ``order`` this beat's acting
    order.  Float32 step by step (a skull's card added in float64, rounded
    once), float64 under ``heart_passes_seals`` rounded at the end."""
    p, kn, f32, f64 = game.p, knobs(game.p), np.float32, np.float64
    pos, held = game.pos[r], game.spin[r]
    beat = game.beat + 1
    seg_end, last = beat in p.segment_ends(), beat == p.beats
    later = set(order[order.index(r) + 1 :]) if r in order else set()
    proj = {o: min(f32(game.L), f32(game.pos[o]) + f32(kn.greedy_expect) * f32(o in later)) for o in range(game.R)}
    high = max([v for v in range(1, N_VALUES + 1) if game.discard[r][v - 1] > 0], default=0)
    out = []
    for card in range(1, N_VALUES + 1):
        for s in range(p.max_spin_per_beat + 1):
            if pos >= game.L or game.hand[r][card - 1] == 0 or s > min(held, p.max_spin_per_beat):
                out.append(None)
                continue
            end, spin, tax, kind = _outcome(game, r, card, s, brk)
            worth = f32(p.relic_points[kind]) if 0 <= kind < len(p.relic_points) else f32(0)
            back = (max(high, card) if p.skull_takes_current else high) if kind == SKULL else 0
            d_me = f64(end) - f64(f32(game.seg_start[r]))
            others = [o for o in range(game.R) if o != r]
            d_o = {o: f64(proj[o] - f32(game.seg_start[o])) for o in others}
            seg_rank = sum(d_o[o] > d_me or (d_o[o] == d_me and proj[o] > end) for o in others)
            fin_rank = sum(proj[o] > end for o in others)
            if p.heart_passes_seals:
                v = (
                    f64(f32(kn.greedy_move)) * (f64(end) - f64(f32(pos)))
                    + f64(f32(kn.greedy_relic) * worth)
                    + f64(f32(kn.greedy_spin)) * (f64(spin) - f64(f32(held)))
                    - f64(tax) * f64(f32(kn.greedy_tax))
                    - f64(f32(kn.greedy_card * card))
                )
                v += f64(f32(kn.greedy_skull_card)) * back if kind == SKULL else 0.0
                v += f64(f32(kn.greedy_segment) * f32(p.segment_points[seg_rank])) if seg_end else 0.0
                v += f64(f32(kn.greedy_final) * f32(p.final_points[fin_rank])) if last else 0.0
                out.append(f32(v))
                continue
            v = (
                f32(kn.greedy_move) * (f32(end) - f32(pos))
                + f32(kn.greedy_relic) * worth
                + f32(kn.greedy_spin) * (f32(spin) - f32(held))
                - f32(kn.greedy_tax) * f32(tax)
                - f32(kn.greedy_card * card)
            )
            if kind == SKULL:
                v = f32(f64(v) + f64(f32(kn.greedy_skull_card)) * back)
            if seg_end:
                v = v + f32(kn.greedy_segment) * f32(p.segment_points[seg_rank])
            if last:
                v = v + f32(kn.greedy_final) * f32(p.final_points[fin_rank])
            out.append(v)
    return out


def _best(values: list) -> int:
    """The first option of the highest value."""
    return max(range(len(values)), key=lambda k: (values[k] is not None, values[k] or 0, -k))


def greedy_seal(game: Game, r: int) -> int:
    """The seal distance with the most expected victims (opponents racing
    behind it, weighted by ``greedy_seal_reach`` by the squares between),
    0 if too few or the segment ends this beat (its seals are cleared)."""
    p, kn = game.p, knobs(game.p)
    if p.seals_per_player == 0 or game.beat + 1 in p.segment_ends():
        return 0
    reach = kn.greedy_seal_reach
    best_v, best_d = 0.0, 0
    for d in range(1, p.seal_range + 1):
        sq = game.seal_square(r, d)
        w = 0.0
        for o in range(game.R):
            if game.team[o] != game.team[r] and game.pos[o] < game.L and 1 <= sq - game.pos[o] <= len(reach):
                w += reach[sq - game.pos[o] - 1]
        w = w if game.seal_ok(r, d) else -1.0
        if d == 1 or w > best_v:
            best_v, best_d = w, d
    return best_d if best_v >= kn.greedy_seal_min else 0


def greedy_choice(game: Game, r: int, order: list) -> tuple:
    """The greedy's (card, spin, seal, break) for rider ``r``: the option of
    highest value (ties: smaller card, less spin); breaking seals (5.3) is
    tried where one that matters lies within one move and the rider can pay,
    and chosen if it beats not breaking by more than ``greedy_break_margin``."""
    p = game.p
    S1 = p.max_spin_per_beat + 1
    val = greedy_values(game, r, order)
    best, brk = _best(val), False
    M = N_VALUES + p.max_spin_per_beat
    near = [off for off in range(1, M + 1) if game.seal[min(game.pos[r] + off, game.L)] >= 0]
    if game.spin[r] >= p.seal_break_cost and any(
        _matters(game, r, game.seal[min(game.pos[r] + o, game.L)]) for o in near
    ):
        vb = greedy_values(game, r, order, brk=True)
        bb = _best(vb)
        if (
            vb[bb] is not None
            and val[best] is not None
            and vb[bb] > val[best] + np.float32(knobs(p).greedy_break_margin)
        ):
            best, brk = bb, True
    return best // S1 + 1, best % S1, greedy_seal(game, r), brk


def play_random(params: SbrParams, n_players: int, rng) -> list:
    """One whole game under uniformly random legal play (the one-game-at-a-time
    baseline the batch engine is timed against): decks and relics shuffled
    here, then each rider picks a held card, a spin amount, a seal square (or
    none), whether to break and a card to take back, uniformly among the legal
    choices.  Returns the per-seat final scores."""
    R = n_riders(params, n_players)
    base = [v for v in range(1, N_VALUES + 1) for _ in range(params.card_counts[v - 1])]
    decks = [rng.permutation(base).tolist() for _ in range(R)]
    squares = [i + 1 for i, c in enumerate(params.board) if "relic" in c]
    pile = rng.permutation([k for k in range(4) for _ in range(params.relic_counts[k])]).tolist()
    relics = [-1] * (params.length + 1)
    for sq, kind in zip(squares, pile):
        relics[sq] = kind
    g = Game(params, n_players, decks, relics)

    def pick(options):
        return options[int(rng.random() * len(options))]

    for _ in range(params.beats):
        for r in g.order():
            card = pick([v for v in range(1, N_VALUES + 1) if g.hand[r][v - 1] > 0])
            spin = pick(range(min(params.max_spin_per_beat, g.spin[r]) + 1))
            seal = pick([0] + [d for d in range(1, params.seal_range + 1) if g.seal_ok(r, d)])
            g.act(r, card, spin, seal, rng.random() < 0.5, pick(range(N_VALUES + 1)))
        g.end_beat()
    return g.result()["score"]


# --- driving the reference like the batch engine (contract.Reference) ---

OBSERVED = (
    "pos",
    "spin",
    "seals_left",
    "hand",
    "discard",
    "drawn",
    "seal",
    "relic",
    "relic_pts",
    "relic_n",
    "seg_points",
    "finish_beat",
    "beat",
)


def start(params: SbrParams, n_players: int, chance, g: int) -> Game:
    """The reference game for game ``g`` of a batch drawn as ``chance``."""
    return Game(params, n_players, chance.decks[g], chance.relics[g], int(chance.start[g]))


def advance(params: SbrParams, game: Game, state, actions, chance, g: int) -> None:
    """What ``engine.step(state, actions)`` does to game ``g``: the rider of
    slot ``state.slot`` acts (the reference's own order of the beat, fixed
    at its first slot; finished riders come after the racing ones and skip);
    after the beat's last slot, the beat ends."""
    slot, R = int(state.slot), game.R
    if game.beat >= params.beats or slot >= R:
        return
    if slot == 0:
        game.beat_order = game.order()
    racing = game.beat_order
    if slot < len(racing):
        game.act(
            racing[slot],
            int(actions.card[g]),
            int(actions.spin[g]),
            int(actions.seal[g]),
            bool(actions.brk[g]),
            int(actions.retrieve[g]),
        )
    if slot == R - 1:
        game.end_beat()


def observe(game: Game) -> dict:
    """The rule-relevant state of ``game`` as plain Python values."""
    out = {k: getattr(game, k) for k in OBSERVED}
    out.update(game.stats)
    return out


def observe_batch(state, g: int) -> dict:
    """The keys of :func:`observe` from game ``g`` of the engine's batch state."""
    out = {k: getattr(state, k)[g].tolist() for k in OBSERVED if k != "beat"}
    out["beat"] = int(state.beat)
    out.update({k: v[g].tolist() for k, v in state.stats.items()})
    return out


def result(game: Game) -> dict:
    """``score``, ``win`` and ``rank`` per seat, as lists (section 6.3)."""
    res = game.result()
    return {k: res[k] for k in ("score", "win", "rank")}
