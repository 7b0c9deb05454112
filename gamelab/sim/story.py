"""One game told step by step: what ``gamelab show`` and the notebook viewer draw.

:func:`play_story` plays one seeded game through the game's own engine and
controller (the loop of :func:`gamelab.core.driver.play_out`, one decision at a
time) and keeps a copy of the state after every decision, with the decision in
words (the game's :class:`~gamelab.core.scenes.View`, or the plain default).
Nothing here knows a rule: the engine plays, the view describes.

The seed: the game's declared random streams split from ``SeedSequence(seed)``
(:func:`gamelab.core.driver.split_streams`); the deal is drawn from the first
stream, the agents' choices from the last.  The same seed, rules and lineup
give the same game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from gamelab.core import driver
from gamelab.core.contract import Game
from gamelab.core.labels import agent_label
from gamelab.core.scenes import DEFAULT_VIEW, View

from . import runner


@dataclasses.dataclass
class Step:
    """One picture of a story: the state (a batch of one) after ``words`` happened."""

    state: Any
    words: str
    events: dict = dataclasses.field(default_factory=dict)  # the engine's events of the step that led here
    unit: int | None = None  # a record's turn, beat or round (0-based), None for a seeded game
    marks: list[str] = dataclasses.field(default_factory=list)  # where the record and the rules disagree


@dataclasses.dataclass
class Story:
    """A whole game: its rules, seats and every step (step 0: the set-up)."""

    game: Game
    params: Any
    names: list[str]  # the seats as the pictures and the words call them
    title: str
    steps: list[Step]
    result: dict  # the engine's result of game 0, as lists: score, win, rank
    about: str = ""  # one line under the title: who plays each seat, the record's source

    @property
    def view(self) -> View:
        return view_of(self.game)


def view_of(game: Game) -> View:
    """The game's declared view, or the plain default every game gets."""
    return game.panels.view if game.panels.view is not None else DEFAULT_VIEW


def run_deal(game: Game, params, n_players: int, seed: int, chunk: int, n_deals: int, deal: int):
    """The deal ``deal`` of chunk ``chunk`` of a run with ``seed`` (``n_deals`` deals a chunk), drawn as
    the engine draws a batch's chance from the chunk's first stream (:mod:`gamelab.sim.runner`):
    a game whose ``play`` draws its deals so is replayed by :func:`play_story` with it."""
    streams = driver.split_streams(np.random.SeedSequence(seed, spawn_key=(chunk,)), game.streams)
    return game.engine.draw_chance(params, n_deals, n_players, streams[game.streams[0]]).take([deal])


def seat_names(lineup: Sequence[str]) -> list[str]:
    """``seat 1``, ``seat 2``, ...: the seats as the pictures and the words call them."""
    return [f"seat {i + 1}" for i in range(len(lineup))]


def lineup_line(game: Game, lineup: Sequence[str]) -> str:
    """``seat 1: hold at 20; seat 2: race``: who plays each seat, in the game's words."""
    return "; ".join(f"seat {i + 1}: {agent_label(game, a)}" for i, a in enumerate(lineup))


def play_story(game: Game, *, seed: int = 0, params=None, lineup=None, n_players=None, chance=None) -> Story:
    """One game of ``game`` from ``seed`` under ``params`` and ``lineup`` (the defaults
    as a run's: :func:`gamelab.sim.runner.resolve`, which refuses a bad value in one line);
    ``chance``: the deal (the engine's chance of one game) instead of the seed's."""
    if lineup is None and n_players is None:
        n_players = game.players[0]
    params, lineup, n_players = runner.resolve(game, params, lineup, n_players)
    view = view_of(game)
    eng = game.engine
    streams = driver.split_streams(np.random.SeedSequence(seed), game.streams)
    deal, agents = streams[game.streams[0]], streams[game.streams[-1]]
    chance = eng.draw_chance(params, 1, n_players, deal) if chance is None else chance
    state = eng.init(params, 1, n_players, chance)
    controller = game.controller(params, list(lineup), 1, agents)
    names = seat_names(lineup)
    steps = [Step(state.copy(), "the game is set up")]
    while not eng.done(params, state).all():
        if len(steps) > game.max_steps:
            raise RuntimeError(f"{game.name}: not over after {game.max_steps} steps (max_steps)")
        legal = eng.legal(params, state)
        actions = controller.act(state, legal)
        before = state.copy()
        state, events = eng.step(params, state, actions, chance)
        controller.observe(events)
        words = view.say(params, before, actions, events, state, 0, names)
        movers = list(view.mover(before, 0)) if view.mover is not None else []
        whys = [view.why(params, lineup[s], before, actions, 0, s) for s in movers]
        whys = [w for w in whys if w]
        if whys:
            words += " (" + "; ".join(whys) + ")"
        steps.append(Step(state.copy(), words, events))
    res = eng.result(params, state)
    result = {k: np.asarray(v)[0].tolist() for k, v in res.items() if k in ("score", "win", "rank")}
    title = f"{game.title}: seed {seed}, {n_players} players"
    return Story(game, params, names, title, steps, result, about=lineup_line(game, lineup))
