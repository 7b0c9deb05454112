"""``best``: a sampled best response to the table model (appendix B's styles).

For each seat it plays, at every decision (cargo, ropes, reactions; section
6.2 steps 2, 4 and 5), the agent tries each of its legal actions in
``best_rollouts`` play-outs to the end of the game and keeps the one with
the best mean outcome (its win share, plus ``best_margin`` x its final
score's margin over the best other seat, a tie-break among lost or won
positions).  A play-out is a copy of the game (``State.take``) in which:

* the other seats' hidden cards are dealt again from the cards it cannot
  see (the deck and their hands; the discards and shown cards are public),
  so it never reads a hand it may not see (:func:`redeal_hidden`);
* the future refills (and, under variant F, the order of the rain cards not
  yet turned) come from the agent's own generator, never the deal's chance;
* every seat, itself included, is played by the table model
  (``heuristic.Table``): the others by their styles, itself by its proxy style
  ``best_proxy``, which is also how the other seats see it in the
  negotiation (they agree pairs with it as with that style); a level-k
  agent (``level2@b``) plays them all by the policy distilled from the rung
  below instead (``learned.py``): opponents who also search.

So the agent is one step of policy improvement over its proxy style against
the table model (a rollout algorithm); options of one game share their
play-outs' chance and the table's own draws (reneging, tie-breaks; common
random numbers, :class:`SharedDraws`); a play-out of the round being decided
negotiates in that round's speaking order (public, copied from the table:
``Table.speech``), so the pairs it assumes are the pairs the table agreed.  All play-outs of a decision run
as one batch through the shared driver (``core.driver.play_out``, :class:`PlayOut`).
"""

from __future__ import annotations

import numpy as np

from gamelab.core import budgets
from gamelab.core.driver import play_out, split_streams

from . import engine
from .cards import hand_sizes, refill
from .heuristic import Table
from .restricted import RESTRICTIONS, restrict, restricted_name
from .restricted import parse as parse_restricted
from .scoring import standing
from .state import CARGO, REACT, ROPE, Chance

BEST = "best"  # the sampled best response, play-outs to the end of the game
GREEDY = "greedy"  # the same, play-outs to the end of the round (myopic)
GREEDY_HORIZON = 1  # rounds a greedy play-out settles
#: ``best@b`` (``core.budgets``): ``best`` with ``b`` play-outs per option on its seat only, so that
#: levels can meet at one table (the skill trace's budgets, ``best_rollouts`` doubling)
BUDGETS = budgets.BUDGETS
BUDGETED = budgets.named(BEST)
#: ``best@b`` restricted to a style's defining choice (``restricted.py``): ``heavy@8``; the table sees
#: it as that style (styles at skill by restricted play, Jaffe et al. 2012)
RESTRICTED = tuple(restricted_name(s, b) for s in RESTRICTIONS for b in BUDGETS)
#: level-k search (issue 27): ``level{k}@b`` is ``best@b`` whose play-outs model every seat as a
#: policy distilled from the rung below (``level{k-1}@b``; level 1 is ``best@b``, whose play-outs
#: model them by the table model: the default model is level 0); ``learned.py``, ``agents.distilled``
LEVELS = (2, 3)
LEVELED = tuple(budgets.at_level(k, b) for k in LEVELS for b in BUDGETS)
SEARCHERS = (GREEDY, BEST) + BUDGETED + RESTRICTED + LEVELED
MIX_PROXY = "mix"  # best_proxy: each searching seat takes its own style of the deal's style mix


def searcher_seats(seating) -> dict:
    """{agent name: seats} of the search agents (``greedy``, ``best``, ``best@b``) of a seating."""
    seats = {name: tuple(s for s, n in enumerate(seating) if n == name) for name in SEARCHERS}
    return {name: s for name, s in seats.items() if s}


def below(k: int, budget: int) -> str:
    """The rung a level-k search models the other seats as: ``level{k-1}@b``, ``best@b`` at k = 2."""
    return budgets.at_budget(BEST, budget) if k <= 2 else budgets.at_level(k - 1, budget)


def rollouts_of(params, name: str) -> int:
    """Play-outs per option of a ``best`` seat: ``best@b``'s own ``b``, else ``best_rollouts``."""
    b = budgets.budget_of(name)
    return int(params.best_rollouts) if b is None else b


def search_agents(params, table, seats: dict, rng, models=None):
    """The search agents of a seating over ``table``'s games (None if none),
    each with a child generator of ``rng`` (``rng`` itself is not advanced);
    ``models`` {level-k agent name: the distilled policy its play-outs play}."""
    if not seats:
        return None
    rngs = split_streams(rng.bit_generator.seed_seq, tuple(seats))  # as rng.spawn(len(seats)) would
    out = []
    if GREEDY in seats:
        out.append(
            BestResponse(
                params, table, seats[GREEDY], rngs[GREEDY], rollouts=params.greedy_rollouts, horizon=GREEDY_HORIZON
            )
        )
    horizon = params.best_horizon or None
    for name in seats:
        if name != GREEDY:
            restricted = parse_restricted(name)
            out.append(
                BestResponse(
                    params,
                    table,
                    seats[name],
                    rngs[name],
                    rollouts=rollouts_of(params, name),
                    horizon=horizon,
                    style=restricted[0] if restricted else None,
                    model=(models or {}).get(name),
                )
            )
    return out


def with_searchers(over, st, acts):
    """The table's actions ``acts``, the search agents' seats replaced (``over`` None: as they are)."""
    for agent in over or ():
        acts = agent.act(st, acts)
    return acts


class BestResponse:
    """Best responses for ``seats`` of the games ``table`` (the game's own
    table model) plays; ``rng`` the agent's own generator."""

    def __init__(self, params, table, seats, rng, *, rollouts, horizon=None, style=None, model=None):
        self.p, self.table, self.rng = params, table, rng
        self.style = style  # restricted play: the style whose defining choice it must make (None: free)
        self.model = model  # level-k: the distilled policy that plays every seat of its play-outs (None: the table)
        self.seats = tuple(int(s) for s in seats)
        self.rollouts = int(rollouts)  # play-outs per option
        self.horizon = horizon  # rounds a play-out settles at most (None: to the end)

    def act(self, st, acts):
        """``acts`` (G,P) with the best seats' columns replaced by their choices."""
        if not self.seats:
            return acts
        legal = engine.legal(self.p, st)
        acts = np.array(acts, np.int64)
        for s in self.seats:
            mask = legal[:, s] if self.style is None else restrict(self.p, st, s, legal[:, s], self.style)
            acts[:, s] = self.choose(st, s, mask)
        return acts

    def choose(self, st, seat, mask):
        """(G,) the action of ``seat`` with the best mean play-out, among ``mask``'s."""
        first = mask.argmax(1)
        several = mask.sum(1) > 1
        live = several & ~st.done
        if not live.any():
            return first
        games = np.flatnonzero(live)
        game_of, action = np.nonzero(mask[games])  # options, game-major
        K = self.rollouts
        base = self.worlds(st, games, seat, K)  # K worlds per game, shared by its options
        rows = (game_of[:, None] * K + np.arange(K)).ravel()  # option m, world k -> row of base
        value = self.playout(base, rows, games[game_of].repeat(K), seat, np.repeat(action, K))
        mean = np.bincount(np.repeat(np.arange(len(action)), K), value, len(action)) / K
        out = first.copy()
        out[games] = best_per_game(game_of, action, mean, len(games), self.rng.random(len(mean)))
        return out

    def worlds(self, st, games, seat, k):
        """``k`` copies of each game ``games`` of ``st`` as the seat may believe them:
        hidden hands dealt again, unseen rain cards reordered."""
        world = st.take(np.repeat(games, k))  # st.take(games), then k copies of each
        redeal_hidden(world, seat, self.rng)
        if self.p.time_rain:
            reorder_unseen_rain(world, self.rng)
        return world

    def playout(self, base, rows, games, seat, action):
        """(N,) the value for ``seat`` of playing ``action`` in the worlds
        ``base.take(rows)`` (of the table's games ``games``), then the table
        model to the end."""
        p = self.p
        st = base.take(rows)
        draws = self.rng.random((p.rounds, base.n_games, st.n_players, engine.DRAWS), dtype=np.float32)
        draws = draws.take(rows, axis=1)  # draws[:, rows]
        chance = Chance(hands=None, draws=draws, rain_order=st.rain_order, roles=st.role)
        make = Table if self.model is None else self.model.table
        table = make(
            p, self.table.styles.take(games, axis=0), SharedDraws(self.rng, rows, base.n_games), self.table.custom
        )
        table.fixed_t = self.table.fixed_t.take(games, axis=1)  # steady's memory (a copy), fixed_t[:, games]
        if self.table.speech is not None:  # the round's speaking order is public: the play-outs negotiate in it
            rnd, prio = self.table.speech
            table.speech = (rnd.take(games), prio.take(games, axis=1))
        if st.phase == REACT:
            table.U = table.utilities(st)  # a fragile's switch asks the utilities of the round
        until = None
        if self.horizon is not None:  # the round the play-outs stop at: settled ``horizon`` rounds
            stop = int(st.rnd.min()) + self.horizon
            until = lambda s: s.rnd.min() >= stop  # noqa: E731
        st, _ = play_out(engine, p, st, chance, PlayOut(table, seat, action), until=until, ask_legal=False)
        return outcome(p, st, seat)


class PlayOut:
    """The controller of a play-out (``contract.Controller``): the table model on every seat,
    ``seat``'s first decision replaced by ``action`` (the option tried)."""

    def __init__(self, table, seat, action):
        self.table, self.seat, self.action = table, seat, action
        self.decide = {CARGO: table.cargo, ROPE: table.ropes}

    def act(self, st, legal=None):
        acts = self.decide.get(st.phase, self.table.react)(st)
        if self.action is not None:
            acts[:, self.seat] = self.action
            self.action = None
        return acts

    def observe(self, events: dict) -> None:
        """A settlement updates the table (steady's memory)."""
        if "partner" in events:
            self.table.observe(events)


class SharedDraws:
    """The play-outs' generator: each call's uniforms are drawn once per
    world and shared by every option played in it (``rows``: play-out ->
    world), so options differ only by what they do (common random numbers)."""

    def __init__(self, rng, rows, n_worlds):
        self.rng, self.rows, self.n_worlds = rng, rows, n_worlds

    def random(self, shape, dtype=np.float64):
        shape = (shape,) if np.isscalar(shape) else tuple(shape)
        return self.rng.random((self.n_worlds, *shape[1:]), dtype=dtype).take(self.rows, axis=0)  # [self.rows]


def outcome(params, st, seat):
    """(N,) what a play-out is worth to ``seat``: its win share when the game
    is over, plus ``best_margin`` x its net score's margin over the best
    other seat (section 6.4's final score, so far)."""
    score, _, win = standing(params, st)  # engine.result's score and win, without the ranks
    margin = score[:, seat] - np.delete(score, seat, axis=1).max(1)
    return st.done * win[:, seat] + params.best_margin * margin


def best_per_game(game_of, action, mean, n_games, tie):
    """(n_games,) the action of the largest mean per game; among equal means the
    option with the largest ``tie`` uniform (at random: a rope's options are seats,
    and no seat is chosen for its place in the array)."""
    order = np.lexsort((-tie, -mean, game_of))  # by game, best mean first, then the tie-break
    firsts = np.flatnonzero(np.r_[True, game_of[order][1:] != game_of[order][:-1]])
    out = np.empty(n_games, np.int64)
    out[game_of[order][firsts]] = action[order][firsts]
    return out


def redeal_hidden(st, seat, rng):
    """The other seats' hands dealt again, in place, from the cards ``seat``
    cannot see (the deck and those hands; 6.2 step 1's draw, ``cards.refill``):
    each keeps its number of cards."""
    others = np.arange(st.n_players) != seat
    held = hand_sizes(st.hand)
    limit, discard = st.limit.copy(), st.discard.copy()
    st.deck += st.hand[:, others].sum(1, dtype=np.int8)
    st.hand[:, others] = 0
    st.discard[:] = 0  # the pool never runs dry: no reshuffle of the discards
    st.limit[:] = held
    refill(st, rng.random((st.n_games, st.n_players, int(held.max(initial=0))), dtype=np.float32))
    st.limit[:], st.discard[:] = limit, discard


def reorder_unseen_rain(st, rng):
    """Variant F: the rain cards not yet turned, in a fresh random order per game (in place)."""
    r = int(st.rnd.min()) + 1  # the rounds after the current one
    if r >= st.rain_order.shape[1]:
        return
    tail = st.rain_order[:, r:]
    order = np.argsort(rng.random(tail.shape), axis=1)
    st.rain_order[:, r:] = np.take_along_axis(tail, order, 1)
