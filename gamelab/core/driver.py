"""The whole-game driver every game shares: named random streams, seat
dispatch, and the loop ``legal -> act -> step -> observe`` until every game
of a batch is over.

* :func:`split_streams`: the random streams a game declares
  (``Game.streams``, e.g. chance and agents), children of one
  ``SeedSequence`` keyed by their index, so the first k streams are the same
  whatever streams follow them (``ss.spawn(4)[:2]`` equals ``ss.spawn(2)``).
  The runner splits a chunk's seed this way; a game never splits it itself.
* :class:`SeatController`: the default controller (``contract.Controller``):
  one policy per agent name, each asked once per decision however many seats
  it holds, and in each game the answer of the seat to move kept.
* :func:`play_out`: a batch of games played to the end by a controller, each
  step shown to the caller's watchers (the game's counters, a legality
  check); :func:`random_play`: the same under uniformly random legal play.

Every whole game the package plays in Python goes through :func:`play_out`:
the shared play, a game's own batch (``Game.play``: a game that deals and counts
in its own code, its controller playing every seat at once), searches'
play-outs (``until=``) and self-play.  The one other whole-game loop is a
game's compiled twin (``Game.compiled``: whole games of compiled searchers),
which the shared play asks first; the conformance checks hold both to the rules.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from gamelab.core import turns
from gamelab.core.contract import Controller, Engine, State

#: a policy: ``policy(params, state, legal, rng) -> actions`` for every game of the batch
Policy = Callable[[Any, Any, Any, np.random.Generator], Any]
#: a watcher of play: ``watch(state, events)`` after every step (``state``: after it)
Watch = Callable[[Any, dict], None]


def split_streams(seed_seq: np.random.SeedSequence, names: Sequence[str]) -> dict[str, np.random.Generator]:
    """One generator per named stream: stream k from ``seed_seq``'s k-th child."""
    return {name: np.random.default_rng(child) for name, child in zip(names, seed_seq.spawn(len(names)), strict=True)}


class SeatController:
    """The agents of one seating (one agent name per seat) over a batch of
    games whose state says whose move it is (``to_move(state) -> (G,) seat``).

    Seats that share a policy ask it once per decision, in seat order, all
    from the one generator ``rng``; the policies keep no memory of past
    decisions (``observe`` does nothing)."""

    def __init__(
        self,
        params,
        seating: Sequence[str],
        n_games: int,
        rng: np.random.Generator,
        *,
        policies: Mapping[str, Policy],
        to_move: Callable[[Any], np.ndarray],
    ):
        self.params, self.rng, self.to_move = params, rng, to_move
        self.seats = [policies[name] for name in seating]

    def act(self, state, legal) -> np.ndarray:
        """The actions of the policy of the seat to move in each game."""
        answers: dict[int, np.ndarray] = {}
        for policy in self.seats:
            if id(policy) not in answers:
                answers[id(policy)] = np.asarray(policy(self.params, state, legal, self.rng))
        mover = self.to_move(state)
        acts = np.zeros_like(answers[id(self.seats[0])])
        for seat, policy in enumerate(self.seats):
            mine = mover == seat
            acts[mine] = answers[id(policy)][mine]
        return acts

    def observe(self, events: dict) -> None:
        """The policies keep no memory of past decisions."""


def seat_controller(policies: Mapping[str, Policy], to_move: Callable[[Any], np.ndarray] = turns.to_move):
    """``Game.controller`` for a game whose agents are per-seat policies (the seat to move:
    ``state.player`` unless ``to_move`` says otherwise)."""
    return functools.partial(SeatController, policies=policies, to_move=to_move)


class RandomController:
    """Uniformly random legal play through the engine's ``random_actions``."""

    def __init__(self, engine: Engine, params, rng: np.random.Generator):
        self.engine, self.params, self.rng = engine, params, rng

    def act(self, state, legal):
        return self.engine.random_actions(self.params, state, legal, self.rng)

    def observe(self, events: dict) -> None:
        """Random play remembers nothing."""


def play_out(
    engine: Engine,
    params,
    state: State,
    chance,
    controller: Controller,
    *,
    watch: Iterable[Watch] = (),
    before: Callable[[Any, Any, Any], None] | None = None,
    max_steps: int | None = None,
    until: Callable[[State], bool] | None = None,
    ask_legal: bool = True,
) -> tuple[State, int]:
    """Play ``state`` (changed in place) to the end of every game; returns the
    final state and the number of steps.  ``before(state, legal, actions)``
    sees each decision before it is made, each of ``watch`` every step after
    it; more than ``max_steps`` steps raise ``RuntimeError``.  ``until(state)``
    true before a step stops play there (a search's play-out to a horizon);
    ``ask_legal`` False: the controller asks the engine itself what is legal
    (``act`` gets None), so no step pays for masks nobody reads."""
    watch = tuple(watch)
    steps = 0
    while not engine.done(params, state).all() and not (until is not None and until(state)):
        if max_steps is not None and steps >= max_steps:
            raise RuntimeError(f"not over after {steps} steps (max_steps)")
        legal = engine.legal(params, state) if ask_legal else None
        actions = controller.act(state, legal)
        if before is not None:
            before(state, legal, actions)
        state, events = engine.step(params, state, actions, chance, inplace=True)
        controller.observe(events)
        for w in watch:
            w(state, events)
        steps += 1
    return state, steps


def random_play(
    engine: Engine, params, n_games: int, n_players: int, rng: np.random.Generator, *, chance=None, **kw
) -> tuple[State, Any, int]:
    """``n_games`` games of uniformly random legal play: the chance drawn from
    ``rng`` first (unless given), then every random action from it.  Returns
    the final state, the chance and the steps (``kw``: :func:`play_out`'s options)."""
    chance = engine.draw_chance(params, n_games, n_players, rng) if chance is None else chance
    state = engine.init(params, n_games, n_players, chance)
    state, steps = play_out(engine, params, state, chance, RandomController(engine, params, rng), **kw)
    return state, chance, steps
