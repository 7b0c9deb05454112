"""A toy game for testing the shared layer (runner, sweeps, checkpoints,
executors) without either real game: each seat rolls one die, and its score
is the roll plus its agent's bonus.  Not a game for designers: the registry
loads it only when ``GAMELAB_GAMES`` names this module (the tests set it).

It is a complete :class:`~gamelab.core.contract.Game` all the same (a
one-step engine, a reference, a controller, a record format), so the shared
layer can run it through every path a real game takes, and the conformance
checks (:mod:`gamelab.sim.conformance`) run on it as on any game named in
``GAMELAB_GAMES``.  Its ``crash`` agent fails in a run (``play``), on
purpose, for the tests of failing work; as a controller it plays like weak.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Annotated, NamedTuple

import numpy as np
from pydantic import Field, StrictInt

from gamelab.core.batch import Batch
from gamelab.core.contract import Bench, Game, RecordFormat, ReportSettings, players_check
from gamelab.core.errors import RecordError
from gamelab.core.params import Params, from_mapping, param
from gamelab.core.records import check_names, check_record
from gamelab.core.schemas import Name, RecordBase

BONUS = {"strong": 3, "weak": 0, "crash": 0}


@dataclasses.dataclass(frozen=True, kw_only=True)
class ToyParams(Params):
    die: int = param(10, low=2, high=100, doc="faces of the luck die")
    bonus_scale: float = param(1.0, low=0.0, high=10.0, doc="multiplies every agent's bonus")
    delay: float = param(0.0, low=0.0, high=10.0, doc="seconds each play() call sleeps (for interruption tests)")


class Chance(NamedTuple):
    luck: np.ndarray  # (G, P) die rolls 0..die-1

    def take(self, games) -> Chance:
        return Chance(self.luck[games])


@dataclasses.dataclass
class State(Batch):
    luck: np.ndarray  # (G, P)
    bonus: np.ndarray  # (G, P) the bonus each seat claimed (its action)
    rolled: np.ndarray  # (G,) the one step was taken


class Engine:
    """One decision per game: every seat names a bonus 0..3 at once."""

    @staticmethod
    def draw_chance(params, n_games, n_players, rng):
        return Chance(rng.integers(0, params.die, size=(n_games, n_players)))

    @staticmethod
    def init(params, n_games, n_players, chance):
        check_players(params, n_players)
        return State(np.asarray(chance.luck).copy(), np.zeros((n_games, n_players)), np.zeros(n_games, bool))

    @staticmethod
    def legal(params, state):
        return np.ones(state.luck.shape + (len(BONUS) + 1,), bool)  # bonus 0..3

    @staticmethod
    def step(params, state, actions, chance, *, inplace=False):
        st = state if inplace else state.copy()
        st.bonus[:] = np.where(st.rolled[:, None], st.bonus, params.bonus_scale * np.asarray(actions))
        st.rolled[:] = True
        return st, {}

    @staticmethod
    def done(params, state):
        return state.rolled.copy()

    @staticmethod
    def result(params, state):
        score = state.luck + state.bonus
        best = score == score.max(axis=1, keepdims=True)
        win = best / best.sum(axis=1, keepdims=True)
        rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
        return {"score": score, "win": win, "rank": rank}

    @staticmethod
    def random_actions(params, state, legal, rng):
        return rng.integers(0, legal.shape[2], size=state.luck.shape)

    @staticmethod
    def is_legal(params, state, legal, actions):
        a = np.asarray(actions)
        return ((a >= 0) & (a < legal.shape[2])).all(axis=1)


class Reference:
    """The same game, one at a time, in plain Python."""

    @staticmethod
    def play_random(params, n_players, rng):
        return [int(rng.integers(0, params.die)) + int(rng.integers(0, 4)) for _ in range(n_players)]

    @staticmethod
    def start(params, n_players, chance, g):
        return {
            "luck": [int(x) for x in chance.luck[g]],
            "bonus": [0.0] * n_players,
            "rolled": False,
            "scale": params.bonus_scale,
        }

    @staticmethod
    def advance(params, game, state, actions, chance, g):
        if not game["rolled"]:
            game["bonus"] = [params.bonus_scale * int(a) for a in np.asarray(actions)[g]]
            game["rolled"] = True

    @staticmethod
    def observe(game):
        return {"luck": game["luck"], "bonus": game["bonus"], "rolled": game["rolled"]}

    @staticmethod
    def observe_batch(state, g):
        return {"luck": state.luck[g].tolist(), "bonus": state.bonus[g].tolist(), "rolled": bool(state.rolled[g])}

    @staticmethod
    def result(game):
        score = [lk + b for lk, b in zip(game["luck"], game["bonus"])]
        best = max(score)
        k = score.count(best)
        return {"score": score, "win": [(s == best) / k for s in score]}


class Controller:
    def __init__(self, params, seating, n_games, rng):
        self.bonus = np.array([BONUS[a] for a in seating])
        self.crash = "crash" in seating

    def act(self, state, legal):
        return np.broadcast_to(self.bonus, state.luck.shape).copy()

    def observe(self, events):
        pass


check_players = players_check((2, 6), "the toy game is for 2-6 players")


def play(params: ToyParams, seating, n_deals, n_players, streams):
    if params.delay:
        time.sleep(params.delay)
    _maybe_die_once()
    rng = streams["play"]
    chance = Engine.draw_chance(params, n_deals, n_players, rng)  # chance first
    state = Engine.init(params, n_deals, n_players, chance)
    ctl = Controller(params, seating, n_deals, rng)
    if ctl.crash:
        raise RuntimeError("the crash agent always fails")  # in a run (tests of failing work), not in the engine
    state, _ = Engine.step(params, state, ctl.act(state, None), chance, inplace=True)
    res = Engine.result(params, state)
    return {"score": res["score"], "win": res["win"], "luck": state.luck, "length": np.full(n_deals, 7)}


def _default_lineup(n):
    return ["weak"] * n


def _random_batch(params, n_games, n_players, rng):
    state = Engine.init(params, n_games, n_players, Engine.draw_chance(params, n_games, n_players, rng))
    acts = Engine.random_actions(params, state, Engine.legal(params, state), rng)
    return Engine.step(params, state, acts, None)[0]


def _maybe_die_once():
    """With GAMELAB_TOY_KILL_ONCE=PATH set, the first call in a worker process
    creates PATH and kills its own process (tests of lost workers)."""
    flag = os.environ.get("GAMELAB_TOY_KILL_ONCE")
    if flag and multiprocessing.parent_process() is not None and not os.path.exists(flag):
        open(flag, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)


def _die_double(base, on):
    return {"die": base.die * 2} if on else {}


class ToyRecord(RecordBase):
    """A toy game written down: each player's die roll and the bonus he claimed."""

    players: Annotated[list[Name], Field(min_length=2, max_length=6)]
    rolls: list[StrictInt]
    bonus: list[StrictInt]


def replay(record: dict) -> tuple[dict, dict]:
    """The one decision of a toy game, through the engine as a batch of one."""
    rec = check_record(record, ToyRecord)
    check_names(rec.players)
    n = len(rec.players)
    if len(rec.rolls) != n or len(rec.bonus) != n:
        raise RecordError("'rolls' and 'bonus' need one entry per player")
    params = from_mapping(ToyParams, rec.params, source="record params")
    if any(not 0 <= r < params.die for r in rec.rolls) or any(not 0 <= b <= 3 for b in rec.bonus):
        raise RecordError(f"a roll is 0..{params.die - 1} and a bonus 0..3")
    chance = Chance(np.array([rec.rolls]))
    state = Engine.init(params, 1, n, chance)
    state, _ = Engine.step(params, state, np.array([rec.bonus]), chance)
    res = Engine.result(params, state)
    score = [float(x) for x in res["score"][0]]
    ledger = {"game": "toy", "players": list(rec.players), "score": score, "win": [float(x) for x in res["win"][0]]}
    return ledger, {"score": score}


def tables(ledger: dict) -> list:
    import pandas as pd

    return [("Scores", pd.DataFrame({"player": ledger["players"], "score": ledger["score"], "win": ledger["win"]}))]


EXAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "toy_example.json"


GAME = Game(
    name="toy",
    title="Toy <dice>",
    players=(2, 6),
    rules=ToyParams,
    knobs=ToyParams,
    engine=Engine,
    reference=Reference,
    agents=tuple(BONUS),
    controller=Controller,
    record=RecordFormat(replay=replay, tables=tables, examples=(EXAMPLE,) if EXAMPLE.exists() else ()),
    max_steps=1,
    default_agent="weak",
    play=play,  # its own fast path: a crash agent and a delay for the runner's tests
    streams=("play",),  # one stream: the dice, then the agents
    derived={"die_double": _die_double},
    report=ReportSettings(
        players=(2, 3), assumptions="Toy agents: <b>strong</b> adds 3 to a die roll, weak adds nothing."
    ),
    bench=Bench(random_lineup=_default_lineup, random_batch=_random_batch, agent_target=1.0),
)
