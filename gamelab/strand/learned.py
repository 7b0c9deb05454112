"""A cheap distilled policy of a search rung: what its players show and when they leave the
pair the table negotiated, as look-up tables (level-k search, issue 27).

A search rung ``best@b`` models every other seat in its play-outs by the table model (the
styles of appendix B).  A level-k rung (``level2@b``, ``level3@b``, ...) models them as the rung
below instead: its play-outs are played by a :class:`Policy` distilled from the rung below's
own games (``agents.distilled``).  Playing the search itself inside every play-out would cost
its budget again at every step; the tables cost about what the styles cost.

What is distilled, from every decision the rung below made on every seat of its games, apart
for each style of the mix its seats searched as (the style the table saw):

* step 2, the card shown: the card its players showed most often from that hand under that
  round's cap (the hand as ``heuristic_tables.hand_code``); a hand never seen: the style's card;
* steps 3-4, the rope: how often its players pointed where the table's negotiation had them
  point (``follow``), stayed instead (``stay``) or pointed at another seat, by the seat's cargo
  and what the negotiation proposed (no partner, a full pair, an overweight pair).  The distilled
  seats negotiate as their styles, then leave the agreed rope with those chances (to stay, or to
  the other seat their style scores best);
* everything else (the porter, bb locks, reactions) is the seat's style, as in the table model.

A first version distilled the partners themselves (how often a seat with each cargo was pointed
at, negotiated on as the objective): it modelled ``best@4`` worse than the styles do (a
``level2@4`` seat won 18.3 % among three ``best@4``, fair 25 %, 4,096 games); the rope after the
negotiation is what the search changes, so that is what is distilled.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from . import engine
from .actions import cargo_decode, rope_decode
from .heuristic import Table, best_partner
from .heuristic_tables import HANDS, STYLES, hand_code
from .state import CARGO, N_VALUES, ROPE

MAX_CAP = 10  # rules.StrandParams' largest cap (sum_cap, static_cap and tools_cap are at most 10)
CARDS = (len(STYLES), MAX_CAP + 1, HANDS)  # (style, cap, hand) -> the card shown
PROPOSED = ("no partner", "a full pair", "an overweight pair")  # what the negotiation proposed
#: (style, own cargo, proposed) -> the rope's outcome: followed, stayed, pointed elsewhere
ROPES = (len(STYLES), N_VALUES, len(PROPOSED))
FOLLOW, STAY, OTHER = range(3)


@dataclasses.dataclass(frozen=True)
class Policy:
    """The distilled tables: ``card`` over ``CARDS`` the value shown (0: never seen),
    ``rope`` over ``ROPES`` x 3 the chances of following / staying / pointing elsewhere;
    ``decisions`` the decisions they came from."""

    card: np.ndarray
    rope: np.ndarray
    decisions: int

    def table(self, params, styles, rng, custom=None, seats=None, ropes=None) -> Table:
        """The table model with every seat (or the seats ``seats``; ``ropes``: those whose rope
        it plays, if not the same) played by this policy (:class:`DistilledTable`)."""
        return DistilledTable(params, styles, rng, custom, policy=self, seats=seats, ropes=ropes)

    def sharpened(self) -> Policy:
        """This policy with each rope cell's most frequent outcome always taken (the learned
        rung plays so: sampling the search's outcomes by their chances loses to the styles,
        the most frequent one beats them; docs/agents.md)."""
        rope = np.zeros_like(self.rope)
        rope[np.arange(len(rope)), self.rope.argmax(1)] = 1  # ties: the first of follow, stay, other
        return dataclasses.replace(self, rope=rope)

    def arrays(self) -> dict:
        return {"card": self.card, "rope": self.rope, "decisions": np.array(self.decisions)}

    @classmethod
    def from_arrays(cls, a) -> Policy:
        return cls(np.asarray(a["card"], np.int8), np.asarray(a["rope"], np.float32), int(a["decisions"]))


def style_of(styles):
    """The seats' style codes, a random or custom seat's as the last style (it is never asked)."""
    return np.minimum(np.asarray(styles), len(STYLES) - 1)


def rope_cell(params, st, styles, target):
    """(G,P) flat ``ROPES`` index of each seat: its style, its cargo and what ``target`` (the
    rope the negotiation proposed, -1 stay) would make of it."""
    mate = np.take_along_axis(st.cargo, np.maximum(target, 0), 1)
    full = st.cargo + mate <= engine.round_cap(params, st)[:, None]
    proposed = np.where(target < 0, 0, np.where(full, 1, 2))
    return np.ravel_multi_index((styles, st.cargo - 1, proposed), ROPES)


class DistilledTable(Table):
    """``heuristic.Table`` whose seats show the distilled card and leave the negotiated rope as
    the distilled chances say: every seat (level k), or the seats ``seats`` (the learned rung's;
    ``ropes``: the seats whose rope is distilled, if not the same: restricted play holds a seat
    to its style's own card or rope); the other seats play their styles."""

    def __init__(self, params, styles, rng, custom=None, *, policy: Policy, seats=None, ropes=None):
        super().__init__(params, styles, rng, custom)
        self.policy = policy
        self.style = style_of(self.styles)
        P = self.styles.shape[1]
        self.mine = np.ones(P, bool) if seats is None else np.isin(np.arange(P), list(seats))  # (P,) cards
        self.mine_rope = self.mine if ropes is None else np.isin(np.arange(P), list(ropes))  # (P,) ropes

    def shown(self, st, cap):
        value = super().shown(st, cap)  # the style's card: where the hand was never seen
        learned = self.policy.card[self.style, np.minimum(cap, MAX_CAP)[:, None], hand_code(st.hand)]
        return np.where((learned > 0) & self.mine, learned, value).astype(value.dtype)

    def ropes(self, st):
        acts = super().ropes(st)  # the negotiated ropes (and self.U, the styles' scores)
        P = st.n_players
        target, _, _ = rope_decode(acts, P)
        chance = self.policy.rope[rope_cell(self.p, st, self.style, target)]  # (G,P,3)
        u = self.rng.random(acts.shape, dtype=np.float32)
        talks = self.talks & self.mine_rope  # the seats whose rope this policy plays (all at level k)
        stay = talks & (u >= chance[..., FOLLOW]) & (u < chance[..., FOLLOW] + chance[..., STAY])
        other = talks & (u >= chance[..., FOLLOW] + chance[..., STAY])
        # elsewhere: the seat its style scores best among those the negotiation left alone (they
        # point somewhere too, most often), else among all but the proposed one
        alone = np.ascontiguousarray((target < 0).T)[None, :, :]  # (1,P,G)
        shunned = self.U + alone * np.float32(1e6)
        for i in range(P):
            shunned[i, np.maximum(target[:, i], 0), np.arange(st.n_games)] -= (target[:, i] >= 0) * np.float32(1e10)
            shunned[i, i] = -np.inf
        alt, _ = best_partner(shunned, self.ties(st.n_games, P))  # (P,G) the best, ties at random as the table's
        acts = np.where(other, alt.T, acts)  # a plain rope at that seat
        return np.where(stay, engine.stay_action(P), acts)


class Recorder:
    """Counts of the decisions of a batch of games, fed step by step
    (``record(st, acts, proposed)``: the actions played and the table's own)."""

    def __init__(self, params, styles):
        self.p = params
        self.styles = style_of(styles)  # (G,P) the seats' styles of the mix
        self.card = np.zeros((*CARDS, N_VALUES), np.int32)
        self.rope = np.zeros((int(np.prod(ROPES)), 3), np.int64)
        self.decisions = 0

    def __call__(self, st, acts, proposed):
        live = ~st.done
        if st.phase == CARGO:
            value, _ = cargo_decode(acts)
            cap = np.broadcast_to(engine.round_cap(self.p, st)[:, None], acts.shape)
            np.add.at(self.card, (self.styles[live], cap[live], hand_code(st.hand)[live], value[live] - 1), 1)
        elif st.phase == ROPE:
            P = st.n_players
            target, _, _ = rope_decode(proposed, P)
            chosen, _, _ = rope_decode(acts, P)
            outcome = np.where(chosen == target, FOLLOW, np.where(chosen < 0, STAY, OTHER))
            cell = rope_cell(self.p, st, self.styles, target)
            np.add.at(self.rope, (cell[live], outcome[live]), 1)
        else:
            return
        self.decisions += int(live.sum()) * st.n_players

    def merge(self, other: Recorder) -> Recorder:
        """These counts with ``other``'s added (in place)."""
        self.card += other.card
        self.rope += other.rope
        self.decisions += other.decisions
        return self

    def policy(self) -> Policy:
        """The distilled tables of the counts so far (a rope cell never seen: always followed)."""
        seen = self.card.sum(-1) > 0
        card = np.where(seen, self.card.argmax(-1) + 1, 0).astype(np.int8)
        n = self.rope.sum(1, keepdims=True)
        rope = np.where(n > 0, self.rope / np.maximum(n, 1), [1.0, 0.0, 0.0]).astype(np.float32)
        return Policy(card, rope, self.decisions)
