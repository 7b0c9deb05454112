"""Pig for the runner: ``play`` (the contract's fast path) and its columns.

Lineup entries: the agents of :mod:`gamelab.pig.agents` (``hold_at_20``,
``race``, ``random``); the default lineup is ``hold_at_20`` on every seat.

Chance first and apart from the agents: the runner hands ``play`` the
streams the game declares (``GAME.streams``: the dice, all drawn before the
first decision, and the agents' generator), so a deal is the same under every
seating and every model setting (common random numbers).

Columns per seat (G, P): ``score`` (banked), ``win`` (ties split 1/k),
``rank``, ``rolls``, ``busts``, ``holds``, ``pips`` (points rolled on scoring
faces), ``mean_banked`` (points per hold, NaN without a hold).  Per game
(G,): ``turns`` (turns played), ``rounds`` (turns per player, the last round
maybe cut short by a win), ``length`` (decisions), ``capped`` (the turn cap
ended it, rule 8), ``lead_changes`` (times the sole leader by banked score
changed).
"""

from __future__ import annotations

import numpy as np

from gamelab.core import driver
from gamelab.stats.leads import LeadCounter

from . import engine
from .agents import POLICIES, knobs
from .state import NO_FACE

STREAMS = ("chance", "agents")
controller = driver.seat_controller(POLICIES)


def play(params, seating, n_deals, n_players, streams) -> dict:
    """The runner's entry point: the dice from the ``chance`` stream, the
    agents' randomness from ``agents``."""
    params = knobs(params)
    chance = engine.draw_chance(params, n_deals, n_players, streams["chance"])
    state = engine.init(params, n_deals, n_players, chance)
    ctl = controller(params, seating, n_deals, streams["agents"])
    tally = Tally(n_deals, n_players)
    state, _ = driver.play_out(engine, params, state, chance, ctl, watch=[tally.add])
    return columns(params, state, tally)


class Tally:
    """Counters of a batch of games (metrics, not rules), per seat (G, P)
    and per game (G,): see the module doc."""

    def __init__(self, G: int, P: int):
        self.rolls, self.busts, self.holds, self.pips = (np.zeros((G, P), np.int32) for _ in range(4))
        self.length = np.zeros(G, np.int32)
        self.leads = LeadCounter(G)
        self.games = np.arange(G)

    def add(self, state, ev: dict) -> None:
        g, p = self.games, ev["player"]
        rolled = ev["face"] != NO_FACE
        self.rolls[g, p] += rolled
        self.busts[g, p] += ev["bust"]
        self.holds[g, p] += ev["hold"]
        self.pips[g, p] += np.where(rolled & ~ev["bust"], ev["face"], 0)
        self.length += ev["live"]
        if ev["hold"].any():  # banked scores move only on a hold
            self.leads.count(state.score)


def columns(params, state, tally: Tally) -> dict:
    """The runner's columns of a finished batch."""
    res = engine.result(params, state)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_banked = np.where(tally.holds > 0, res["score"] / tally.holds, np.nan)
    turns = state.turn.astype(np.int32)
    return {
        **res,
        "rolls": tally.rolls,
        "busts": tally.busts,
        "holds": tally.holds,
        "pips": tally.pips,
        "mean_banked": mean_banked,
        "turns": turns,
        "rounds": -(-turns // state.n_players),
        "length": tally.length,
        "capped": res["score"].max(axis=1) < params.target,
        "lead_changes": tally.leads.changes,
    }


ASSUMPTIONS = (
    "Every seat holds at a turn total of 20 (or as soon as banking reaches the target) unless a lineup says "
    "otherwise: the classic threshold that maximises one turn's expected gain, not optimal play (which "
    "depends on both scores). The race agent keeps pace with the leader and rolls to win once an opponent "
    "nears the target; random picks roll or hold with a fair coin. A turn cap (40 turns each) ends the rare "
    "game nobody wins."
)
