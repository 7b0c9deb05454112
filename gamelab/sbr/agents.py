"""STEEL BALL RUN agents (``docs/agents.md``).

Policies follow the engine's signature ``policy(params, state, rider, legal,
rng) -> engine.Actions`` (``legal``: the :class:`engine.Legal` masks) and
choose only among the rules' legal actions.  They ask the engine what a move
would do (:func:`engine.outcome`); none moves a rider itself.  Every model knob is a declared parameter of
:class:`AgentParams` (a subclass of the rules' ``SbrParams``), so sweeps and
sliders read it like a rule; a plain ``SbrParams`` gets the knobs' defaults.

* :func:`random_policy`: uniformly random legal choices.
* :func:`greedy_policy`: the rulebook's "deterministic greedy, full
  information" AI, with our objective (appendix A does not give one).
* :func:`lookahead_policy`: the greedy's top options, each played out to the
  end of the game (or a horizon) with every rider greedy; the best margin wins.
* :func:`deep_policy`: the same search with the play-outs' riders playing
  as the lookahead for the next beat (the top of the skill ladder).
* ``learned``: the greedy with its option weights fitted to the top decided
  rung's choices (:mod:`~gamelab.sbr.learned`, the learned rung).
* :func:`from_function`: a plain per-game Python function as a policy.
* :class:`Controller` (``GAME.controller``): the agents of a seating by name
  (:data:`POLICIES`) or as policies, driven by the shared driver through the
  engine's ``legal`` and ``step``; the seat dispatch.

This module is the agents' front: the random policy and custom agents live
here; the knobs in :mod:`~gamelab.sbr.agent_params`, the greedy in
:mod:`~gamelab.sbr.heuristic` and the lookahead and deep in
:mod:`~gamelab.sbr.search` (both compiled, calling the kernel's rules),
all importable from here.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from gamelab.core.errors import GamelabError

from . import engine
from .agent_params import AgentParams, knobs
from .heuristic import greedy_policy, greedy_values
from .learned import learned_policy
from .legal import pick
from .search import BUDGETED, deep_policy, lookahead_policy
from .state import Actions

__all__ = [
    "AgentParams",
    "knobs",
    "pick",
    "random_policy",
    "greedy_values",
    "greedy_policy",
    "lookahead_policy",
    "deep_policy",
    "POLICIES",
    "Controller",
    "seat_groups",
    "controller",
    "View",
    "from_function",
]


def random_policy(params, state, rider, legal, rng) -> Actions:
    """Uniformly random legal card, spin, seal; break and retrieve at random
    (:func:`engine.random_actions`)."""
    return engine.random_actions(params, state, legal, rng)


POLICIES = {
    "greedy": greedy_policy,
    "random": random_policy,
    "lookahead": lookahead_policy,
    "deep": deep_policy,
    "learned": learned_policy,  # the greedy with weights learned from the top decided rung (sbr/learned.py)
    **BUDGETED,  # lookahead@b: the lookahead at depth b on its own seat (the skill trace)
}


class Controller:
    """The agents of one seating (one per seat: an agent name of :data:`POLICIES`, or a policy)
    over a batch of games (``contract.Controller``, driven by :func:`gamelab.core.driver.play_out`).

    Each game's actions come from the policy of the seat whose rider is to move.  Seats sharing
    one policy are asked once per decision, and each policy sees as acting only its own seats'
    games (``legal.acting`` masked), so a search spends no play-outs on the other seats' moves.
    Where no rider acts (every rider of the slot finished) no policy is asked, so a policy's
    random numbers are drawn only for real decisions."""

    def __init__(self, params, seating, n_games: int, rng: np.random.Generator):
        unknown = [name for name in seating if isinstance(name, str) and name not in POLICIES]
        if unknown:
            raise GamelabError(f"unknown sbr agent {unknown[0]!r}: expected one of {', '.join(POLICIES)}")
        self.params, self.rng, self.n_games = params, rng, n_games
        self.groups = seat_groups([POLICIES[name] if isinstance(name, str) else name for name in seating])
        R = len(seating) * params.riders_per_player
        self.seat_of = np.arange(R) // params.riders_per_player

    def act(self, state, legal) -> Actions:
        if not legal.acting.any():  # nobody to move: no agent is asked
            return engine.idle_actions(state.n_games)
        rider = engine.to_move(state)
        if len(self.groups) == 1:
            return self.groups[0][0](self.params, state, rider, legal, self.rng)
        acts = None
        for policy, seats in self.groups:
            mine = np.isin(self.seat_of[rider], seats)
            a = policy(self.params, state, rider, legal._replace(acting=legal.acting & mine), self.rng)
            acts = a if acts is None else Actions(*(np.where(mine, x, y) for x, y in zip(a, acts)))
        return acts

    def observe(self, events: dict) -> None:
        """Full information: the agents read the state, not the events."""


def seat_groups(policies) -> list:
    """``[(policy, seats)]``: seats sharing one policy object, asked once per decision."""
    groups: dict[int, list] = {}
    for s, pol in enumerate(policies):
        groups.setdefault(id(pol), [pol, []])[1].append(s)
    return [(pol, seats) for pol, seats in groups.values()]


def controller(params, seating, n_games: int, rng: np.random.Generator) -> Controller:
    """``GAME.controller``: a :class:`Controller` for ``seating``."""
    return Controller(params, seating, n_games, rng)


@dataclasses.dataclass
class View:
    """One game as a custom agent sees it (full information, plain Python).

    ``me`` the acting rider; ``pos``, ``spin``, ``seals_left``, ``relics`` per
    rider; ``hand`` card counts for values 1..5; ``beat`` (1-based);
    ``board`` terrain codes by square; ``relic`` relic type by square (-1
    none); ``seal`` seal owner by square (-1 none); ``cards``, ``spins``,
    ``seals`` the legal choices.  ``preview(card, spin=0, brk=False)`` is the
    engine's :func:`engine.outcome` for this rider: a dict of stop, end,
    spin, tax, hits, relic."""

    me: int
    pos: list
    spin: list
    seals_left: list
    relics: list
    hand: list
    beat: int
    board: list
    relic: list
    seal: list
    cards: list
    spins: list
    seals: list
    preview: object


def from_function(fn):
    """Wrap ``fn(view: View) -> (card, spin, seal, brk)`` (a tuple, shorter
    tuples take spin 0, no seal, no break; or a dict with those keys and
    ``retrieve``) as a batch policy.  Slow (a Python call per game), for
    trying an idea in a notebook::

        def fives_first(v):
            return (max(v.cards), max(v.spins))
        policy = agents.from_function(fives_first)
        state = play_games(GAME, params, [policy, "greedy"], 200, 2, rng)  # gamelab.sim.play
        engine.result(params, state)["win"]

    A choice outside the legal ones is an error naming it."""

    def policy(params, state, rider, legal, rng=None) -> Actions:
        G = state.n_games
        out = dict(
            card=np.ones(G, np.intp),
            spin=np.zeros(G, np.intp),
            seal=np.zeros(G, np.intp),
            brk=np.zeros(G, bool),
            retrieve=np.zeros(G, np.intp),
        )
        for g in np.nonzero(legal.acting)[0]:
            view = _view(params, state, int(g), int(rider[g]), legal)
            got = fn(view)
            got = dict(zip(("card", "spin", "seal", "brk", "retrieve"), got)) if isinstance(got, tuple) else got
            for key, value in got.items():
                if key not in out:
                    raise GamelabError(f"custom agent returned unknown key {key!r}")
                out[key][g] = value
            for key, allowed in (("card", view.cards), ("spin", view.spins), ("seal", view.seals)):
                if out[key][g] not in allowed:
                    raise GamelabError(
                        f"custom agent chose {key} {out[key][g]} in game {g}, beat {view.beat}: legal are {allowed}"
                    )
        return Actions(**out)

    policy.__name__ = getattr(fn, "__name__", "custom")
    return policy


def _view(params, state, g, r, legal) -> View:
    def preview(card, spin=0, brk=False):
        o = engine.outcome(
            params, state, np.array([r]), np.array([[card]]), np.array([[spin]]), brk, games=np.array([g])
        )
        return {k: int(v[0, 0]) for k, v in o.items()}

    return View(
        me=r,
        pos=state.pos[g].tolist(),
        spin=state.spin[g].tolist(),
        seals_left=state.seals_left[g].tolist(),
        relics=state.relic_n[g].tolist(),
        hand=state.hand[g, r].tolist(),
        beat=state.beat + 1,
        board=list(params.board),
        relic=state.relic[g].tolist(),
        seal=state.seal[g].tolist(),
        cards=[v + 1 for v in range(legal.card.shape[1]) if legal.card[g, v]],
        spins=[s for s in range(legal.spin.shape[1]) if legal.spin[g, s]],
        seals=[d for d in range(legal.seal.shape[1]) if legal.seal[g, d]],
        preview=preview,
    )
