"""A toy game for testing the shared layer (runner, sweeps, checkpoints,
executors) without either real game: each seat's score is a die roll plus
its agent's bonus.  Not a game for designers."""
from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
import time

import numpy as np

from .params import Params, param
from .runner import GameAdapter

BONUS = {"strong": 3, "weak": 0, "crash": 0}


@dataclasses.dataclass(frozen=True, kw_only=True)
class ToyParams(Params):
    die: int = param(10, low=2, high=100, doc="faces of the luck die")
    bonus_scale: float = param(1.0, low=0.0, high=10.0, doc="multiplies every agent's bonus")
    delay: float = param(0.0, low=0.0, high=10.0, doc="seconds each play() call sleeps (for interruption tests)")


def play(params: ToyParams, seating, n_deals, n_players, seed_seq):
    if params.delay:
        time.sleep(params.delay)
    _maybe_die_once()
    rng = np.random.Generator(np.random.PCG64(seed_seq))
    luck = rng.integers(0, params.die, size=(n_deals, n_players))  # chance first
    if "crash" in seating:
        raise RuntimeError("the crash agent always fails")
    score = luck + params.bonus_scale * np.array([BONUS[a] for a in seating])
    best = score.max(axis=1, keepdims=True)
    win = (score == best) / (score == best).sum(axis=1, keepdims=True)
    return {"score": score, "win": win, "luck": luck, "length": np.full(n_deals, 7)}


def _default_lineup(n):
    return ["weak"] * n


def _maybe_die_once():
    """With GAMELAB_TOY_KILL_ONCE=PATH set, the first call in a worker process
    creates PATH and kills its own process (tests of lost workers)."""
    flag = os.environ.get("GAMELAB_TOY_KILL_ONCE")
    if flag and multiprocessing.parent_process() is not None and not os.path.exists(flag):
        open(flag, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)


ADAPTER = GameAdapter("toy", play, ToyParams, _default_lineup, agents=tuple(BONUS), players=(2, 6),
                      derived={"die_double": lambda base, on: {"die": base.die * 2} if on else {}},
                      title="Toy <dice>", report_players=(2, 3),
                      assumptions="Toy agents: <b>strong</b> adds 3 to a die roll, weak adds nothing.")
