"""STRAND agents: the policies, a seating's deal of styles, and the agents of a seating
one decision at a time.

Policies follow ``policy(params, state, seat, legal_mask, rng) -> (G,) actions``:
agents only choose among the engine's legal actions (``legal_mask``) and ask
the engine what a move would do (``engine.team_values``, ``engine.round_cap``).

* :func:`random_policy` -- each legal action with equal chance ("random"; in ``legal.py``).
* :func:`per_game` -- wraps a plain one-game Python function as a policy, so a
  designer can write an agent in a notebook in a few lines (slow, fine);
  :class:`PolicyController` plays such policies through the shared driver.
* the six play styles of appendix B and the table model "negotiation pairing
  + last-minute reneging" live in :mod:`gamelab.strand.heuristic`, which plays a
  whole table at once (negotiation is a joint decision of the seats).
* the deal of a seating (:func:`deal_styles`, :func:`deal_roles`, :func:`deal_chance`): which
  style each seat plays, the roles and the engine's ``Chance``, from the runner's streams
  (:data:`STREAMS`); :func:`seated` gives a batch's first state and its :class:`Controller`.
* :class:`Controller` (``GAME.controller``): the agents of one seating, one
  decision at a time (``contract.Controller``), played by ``core.driver.play_out``.
* the learned models its seats play with (a level-k search's play-outs, the learned rung):
  :data:`SELF_PLAY` declares what is learned from what; the shared
  ``core.learned.SelfPlay`` plays the games, splits their seeds and caches the tables.

The model's knobs are declared once in :class:`AgentParams`
(:mod:`~gamelab.strand.agent_params`, rules + model), the runner's parameter
class; :func:`knobs` gives rules-only parameters the model's defaults.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

import numpy as np

from gamelab.core import budgets
from gamelab.core.arrays import uniform_choice
from gamelab.core.budgets import level_of
from gamelab.core.driver import play_out
from gamelab.core.learned import SelfPlay

from . import engine
from .actions import lock_codes, porter_codes, power_codes
from .agent_params import AgentParams, knobs
from .heuristic import CUSTOM, RANDOM, STYLES, Table
from .learned import Policy, Recorder
from .legal import random_policy
from .restricted import RESTRICTIONS
from .rules import ENGINEER, FRAGILE, MUSICIAN, ROLES, VETERAN
from .search import (
    BEST,
    BUDGETS,
    MIX_PROXY,
    RESTRICTED,
    SEARCHERS,
    below,
    search_agents,
    searcher_seats,
    with_searchers,
)
from .state import CARGO, REACT, REACT_PASS, ROPE

__all__ = [
    "AgentParams",
    "knobs",
    "random_policy",
    "passive_random_policy",
    "per_game",
    "uniform_choice",
    "Controller",
    "controller",
]

MIX = tuple(f"mix{k}" for k in range(1, 7))
ANY_STYLE = "mix"  # each such seat: the next style of the deal's random ordering (mix1, mix2, ... in seat order)
#: the meta-game's seats (models/metagame.py): per deal, the styles of all such seats are a multiset drawn
#: uniformly from every multiset of the six (repeats allowed), in a random seat order
PROFILE = "any_profile"
#: the learned rung (issue 39): a policy distilled from the top decided search rung's own games,
#: played on its seat at about the styles' cost (:func:`learned_policy`); ``learned_heavy`` ..
#: ``learned_stay``: it held to a style's defining choice (restricted play at the learned rung)
LEARNED = "learned"
LEARNED_RESTRICTED = tuple(f"{LEARNED}_{s}" for s in STYLES)


# --- uniformly random legal actions -------------------------------------------
def passive_random_policy(params, state, seat, mask, rng):
    """Random cargo and ropes, but never a role power (for power-free baselines)."""
    mask = mask.copy()
    if state.phase == CARGO:
        mask[:, porter_codes()] = False
    elif state.phase == ROPE:
        mask[:, lock_codes(state.n_players)] = False
    else:
        mask[:, power_codes()] = False
    return random_policy(params, state, seat, mask, rng)


# --- plain per-game functions as policies ---------------------------------------
PHASE_NAMES = ("cargo", "rope", "react")  # by phase code


def observation(state, g: int, seat: int) -> dict:
    """What ``seat`` may see in game ``g``: its own hand, everything public."""
    return {
        "phase": PHASE_NAMES[state.phase],
        "seat": seat,
        "n_players": state.n_players,
        "round": int(state.rnd[g]),
        "segment": int(state.seg[g]),
        "rain": int(state.rain[g]),
        "hand": {v + 1: int(n) for v, n in enumerate(state.hand[g, seat]) if n},
        "cargo": state.cargo[g].tolist(),
        "ropes": state.rope[g].tolist(),
        "partner": state.partner[g].tolist(),
        "scores": state.score[g].tolist(),
        "lone": state.lone[g].tolist(),
        "role": int(state.role[g, seat]),
        "uses": int(state.uses[g, seat]),
    }


def per_game(fn):
    """Turn ``fn(obs: dict, legal: list[int]) -> int`` into a batch policy.

    ``obs`` is :func:`observation` (``phase`` is "cargo", "rope" or "react";
    action codes as in ``reference.py``); an illegal answer raises.  Example,
    an agent that always shows its smallest card and points at seat 0::

        def cautious(obs, legal):
            if obs["phase"] == "cargo":
                return min(obs["hand"]) - 1          # action = value - 1
            if obs["phase"] == "rope":
                return 0 if 0 in legal else legal[0]
            return 0                                 # never a role power

        policy = per_game(cautious)
        sim.play_policies(params, [policy, random_policy, random_policy], 100, rng, 3)
    """

    def policy(params, state, seat, mask, rng):
        out = np.empty(state.n_games, np.int64)
        for g in range(state.n_games):
            legal = np.flatnonzero(mask[g]).tolist()
            a = int(fn(observation(state, g, seat), legal))
            if a not in legal:
                raise ValueError(
                    f"{getattr(fn, '__name__', 'agent')} chose {a} in game {g}, seat {seat}: legal actions are {legal}"
                )
            out[g] = a
        return out

    policy.__name__ = getattr(fn, "__name__", "per_game")
    return policy


# --- the deal of a seating: styles, roles, chance -------------------------------------
# Chance comes first and apart from the agents: the runner splits a chunk's seed into the four
# streams the game declares (:data:`STREAMS`): the cards (hands and refills), the deal's style
# order and roles, the time-rain order, and the agents' generator.  So a deal is the same under
# every seating and every model setting (common random numbers).
def deal_styles(seating, n_deals, rng, best_proxy=None):
    """Style codes (G,P) of the seats: a mix seat's style from a random
    ordering of the six styles per deal (one draw of (G, 6) uniforms); the
    k-th ``mix`` seat takes the k-th style of it; a ``best`` seat's code is
    its proxy style (``AgentParams.best_proxy``: how the table sees it); with
    the proxy ``mix``, the search seats take in seat order the styles of the
    ordering that no ``mixK`` seat holds."""
    order = np.argsort(rng.random((n_deals, len(STYLES))), axis=1)
    styles = np.empty((n_deals, len(seating)), np.int8)
    n_any = 0
    free = [k for k in range(len(STYLES)) if MIX[k] not in seating]  # for searchers playing the mix
    for s, name in enumerate(seating):
        if name in MIX:
            styles[:, s] = order[:, MIX.index(name)]
        elif name == ANY_STYLE:
            styles[:, s] = order[:, n_any]
            n_any += 1
        elif name in RESTRICTED:  # restricted play: the table sees the style it is restricted to
            styles[:, s] = STYLES.index(budgets.agent_of(name))
        elif name == LEARNED:  # its style of the mix (the policy is distilled apart per style)
            styles[:, s] = order[:, free.pop(0)]
        elif name in LEARNED_RESTRICTED:
            styles[:, s] = LEARNED_RESTRICTED.index(name)
        elif name in SEARCHERS:
            if best_proxy is None:
                raise ValueError("a best seat needs its proxy style (AgentParams.best_proxy)")
            if best_proxy == MIX_PROXY:
                styles[:, s] = order[:, free.pop(0)]
            else:
                styles[:, s] = STYLES.index(best_proxy)
        elif name == PROFILE:
            continue  # below, once every other seat is set
        elif name == "random":
            styles[:, s] = RANDOM
        elif name == "custom":
            styles[:, s] = CUSTOM
        else:
            styles[:, s] = STYLES.index(name)
    profile_seats = [s for s, name in enumerate(seating) if name == PROFILE]
    if profile_seats:  # an extra draw only for these lineups: every other lineup's deals are as they were
        styles[:, profile_seats] = random_profiles(len(profile_seats), n_deals, rng)
    return styles


def random_profiles(n_seats: int, n_deals: int, rng) -> np.ndarray:
    """(G, n_seats) style codes: per deal one multiset of ``n_seats`` styles,
    each of the C(6 + n - 1, n) multisets equally likely, seated in a random
    order (one draw of (G, n + 1) uniforms: the multiset, then the order)."""
    multisets = np.array(list(itertools.combinations_with_replacement(range(len(STYLES)), n_seats)), np.int8)
    u = rng.random((n_deals, n_seats + 1))
    pick = multisets[np.minimum((u[:, 0] * len(multisets)).astype(np.int64), len(multisets) - 1)]
    order = np.argsort(u[:, 1:], axis=1)
    return np.take_along_axis(pick, order, axis=1)


def deal_roles(params, n_deals, n_players, rng):
    """Role codes (G,P) as ``params.roles`` deals them (one draw of (G, 6) uniforms)."""
    G, P = n_deals, n_players
    keys = rng.random((G, len(ROLES)))
    if params.roles == "first_p":
        roles = np.argsort(keys[:, :P], axis=1) + 1
    elif params.roles == "random":
        roles = np.argsort(keys, axis=1)[:, :P] + 1
    else:
        roles = np.zeros((G, P), np.int64)
    return roles.astype(np.int8)


def deal_setup(params, seating, n_deals, n_players, rng):
    """Style codes (G,P) of the seats and role codes (G,P), from chance."""
    styles = deal_styles(seating, n_deals, rng, params.best_proxy)
    return styles, deal_roles(params, n_deals, n_players, rng)


def deal_chance(params, n_deals, n_players, roles, cards, rain) -> engine.Chance:
    """The engine's Chance from the runner's generators: the hands then the
    refills from ``cards`` (refills float32), the time-rain order from ``rain``."""
    return engine.deal(params, n_deals, n_players, cards=cards, rain=rain, roles=roles, draws_dtype=np.float32)


STREAMS = ("cards", "setup", "rain", "agents")  # the runner's split of a chunk's seed (``GAME.streams``)


def seated(params, seating, n_deals, n_players, streams, custom=None):
    """A batch of ``seating`` from the runner's ``streams``: (first state, chance, controller)."""
    params = knobs(params)
    styles, roles = deal_setup(params, seating, n_deals, n_players, streams["setup"])
    chance = deal_chance(params, n_deals, n_players, roles, streams["cards"], streams["rain"])
    state = engine.init(params, n_deals, n_players, chance)
    agents = Controller(
        params,
        styles,
        streams["agents"],
        custom=custom,
        searchers=searcher_seats(seating),
        learned=learned_seats(seating),
    )
    return state, chance, agents


def learned_seats(seating) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(seats whose card, seats whose rope) the learned policy plays in ``seating``: a
    ``learned`` seat both; a restricted one (``learned_heavy``) the one its style does not define."""
    defines = {LEARNED: None} | {f"{LEARNED}_{s}": phase for s, phase in RESTRICTIONS.items()}
    cards = tuple(s for s, n in enumerate(seating) if n in defines and defines[n] != CARGO)
    ropes = tuple(s for s, n in enumerate(seating) if n in defines and defines[n] != ROPE)
    return cards, ropes


def make_table(params, styles, agents, custom=None, learned=None) -> Table:
    """The table model of a batch (``heuristic.Table``), the learned rung's seats (``learned``:
    :func:`learned_seats`) played by its policy (``learned.DistilledTable``)."""
    if learned and (learned[0] or learned[1]):
        policy = learned_policy(params, styles.shape[1])
        return policy.table(params, styles, agents, custom, seats=learned[0], ropes=learned[1])
    return Table(params, styles, agents, custom)


# --- the agents of one seating, one decision at a time (contract.Controller) -----------
# The table model (``heuristic.Table``) asked by phase, the search seats' actions then replaced
# by the search agents' (``search.py``, their generators children of the one given).  The roles
# are part of the deal (the engine's ``Chance``), not of the controller.
class Controller:
    """``act(state, legal)`` for every game of a batch; ``observe(events)`` after each step (the
    table learns from the round's settlement).  ``styles`` (G,P) the seats' style codes,
    ``searchers`` {name: seats} of the search agents, ``learned`` (card seats, rope seats) the
    learned policy plays (:func:`learned_seats`); ``proposed``: the table's own actions of the
    last decision (before the search seats chose)."""

    def __init__(self, params, styles, rng, *, custom=None, searchers=None, learned=None):
        self.params, self.styles, self.custom = knobs(params), styles, custom
        self.table = make_table(self.params, styles, rng, custom, learned)
        self.searchers = searchers or {}
        models = distilled_models(self.params, self.searchers, styles.shape[1])
        self.search = search_agents(self.params, self.table, self.searchers, rng, models)
        self.reacts: bool | None = None  # does any seat react (known at the first reaction)
        self.proposed = None

    def act(self, state, legal=None):
        """(G,P) the table's actions for the current phase (``legal`` is not
        needed: the table asks the engine)."""
        if state.phase == CARGO:
            acts = self.table.cargo(state)
        elif state.phase == ROPE:
            acts = self.table.ropes(state)
        elif self.quiet(state):  # no seat can react: every one passes, nothing asked
            acts = np.full(state.rope.shape, REACT_PASS, np.int64)
        else:
            acts = self.table.react(state)
        self.proposed = acts
        return with_searchers(self.search, state, acts)

    def quiet(self, state) -> bool:
        """No reaction to ask in this batch: no roles, no random or custom seat."""
        if self.reacts is None:
            self.reacts = bool((state.role > 0).any()) or self.table.any_random or bool(self.custom)
        return not self.reacts

    def observe(self, events: dict) -> None:
        """A settlement's events (they carry the round's partners) update the table."""
        if "partner" in events:
            self.table.observe(events)


def controller(params, seating, n_games, rng) -> Controller:
    """``GAME.controller``: the agents of ``seating`` over ``n_games`` games, the mix seats'
    styles drawn from ``rng`` first."""
    params = knobs(params)
    styles = deal_styles(seating, n_games, rng, params.best_proxy)
    return Controller(params, styles, rng, searchers=searcher_seats(seating), learned=learned_seats(seating))


class PolicyController:
    """Per-seat policies (``policy(params, state, seat, legal_mask, rng)``, one per seat) asked
    every step in seat order, every seat at once (6.2: a STRAND decision is simultaneous), all
    from ``rng``; in a batch with no reacting role the reactions pass without asking."""

    def __init__(self, params, policies, rng):
        self.params, self.policies, self.rng = params, policies, rng
        self.reacts: bool | None = None

    def act(self, state, legal=None):
        if state.phase == REACT:
            if self.reacts is None:
                self.reacts = bool(np.isin(state.role, (VETERAN, FRAGILE, ENGINEER, MUSICIAN)).any())
            if not self.reacts:
                return np.full(state.rope.shape, REACT_PASS, np.int64)
        mask = engine.legal(self.params, state) if legal is None else legal
        return np.stack(
            [policy(self.params, state, s, mask[:, s], self.rng) for s, policy in enumerate(self.policies)], 1
        )

    def observe(self, events: dict) -> None:
        """The policies keep no memory."""


# --- the learned models the seats play with (level-k search, the learned rung) ----------
def recorded(params, seating, n_games, n_players, streams) -> Recorder:
    """``SELF_PLAY.record``: a batch of ``seating`` from ``streams`` played through the shared
    driver, every cargo and rope decision counted beside the table's own (``learned.Recorder``)."""
    state, chance, agents = seated(params, seating, n_games, n_players, streams)
    record = Recorder(agents.params, agents.styles)
    play_out(
        engine,
        agents.params,
        state,
        chance,
        agents,
        before=lambda st, legal, acts: record(st, acts, agents.proposed),
        ask_legal=False,
    )
    return record


DISTILL_GAMES = 1024  # games of the rung below a level-k search's model of it is distilled from
#: what STRAND learns by playing itself: a rung's decisions on every seat, distilled into
#: ``learned.Policy`` tables (256 games at a time: a search's play-outs hold every option's
#: copies), their deals the same for every run, so a model is a function of code and rules
SELF_PLAY = SelfPlay(
    kind="strand-distilled",
    record=recorded,
    arrays=lambda record: record.policy().arrays(),
    streams=STREAMS,
    seed=0x1E7E1,
    batch=256,
    packages=(Path(__file__).parent,),
)
#: the rung the learned rung is distilled from: the top decided search rung (docs/agents.md)
LEARNED_FROM = budgets.at_budget(BEST, BUDGETS[-1])
LEARN_GAMES = DISTILL_GAMES  # its games (the same model as level2@16's: one file serves both)


def distilled_models(params, seats: dict, n_players: int) -> dict:
    """{level-k agent name: the policy its play-outs play} for the search seats ``seats``."""
    levels = {name: lv for name in seats if (lv := level_of(name))}
    if not levels:  # no level-k seat (the styles, the plain search): nothing to learn or look up
        return {}
    # a named search agent carries its budget: the budget knob does not change the model (one model per rung)
    params = knobs(params).replace(best_rollouts=AgentParams().best_rollouts)
    return {name: distilled(params, *lv, n_players) for name, lv in levels.items()}


@functools.lru_cache(maxsize=16)
def distilled(params, k: int, budget: int, n_players: int) -> Policy:
    """The policy ``level{k}@budget`` models every seat by: distilled from ``DISTILL_GAMES``
    games of the rung below on every seat."""
    purpose = budgets.at_level(k, budget)
    return Policy.from_arrays(SELF_PLAY.learned(params, below(k, budget), n_players, DISTILL_GAMES, purpose=purpose))


@functools.lru_cache(maxsize=16)
def learned_policy(params, n_players: int) -> Policy:
    """The learned rung's policy at ``n_players`` under ``params``' rules and style knobs:
    distilled from ``LEARNED_FROM`` on every seat, each seat searching as its style of the mix
    (the search knobs of the skill trace; the budget is the rung's own), its ropes sharpened
    to each cell's most frequent outcome (``Policy.sharpened``)."""
    params = knobs(params).replace(best_rollouts=AgentParams().best_rollouts, best_proxy=MIX_PROXY)
    arrays = SELF_PLAY.learned(params, LEARNED_FROM, n_players, LEARN_GAMES, purpose="the learned rung")
    return Policy.from_arrays(arrays).sharpened()
