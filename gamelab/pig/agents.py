"""Pig agents (not rules: ``docs/rules-pig.md`` "Agents").

A policy is ``policy(params, state, legal, rng) -> (G,) actions`` and picks
only among the engine's legal actions (:func:`engine.prefer`); what a hold
would bank it asks the engine (:func:`engine.banking_reaches`,
:func:`engine.mover_score`).  Model knobs are declared parameters of
:class:`AgentParams`; a plain :class:`PigParams` gets their defaults
(:func:`knobs`).

* ``hold_at_20``: hold at a turn total of ``hold_at`` (20), or when banking
  would reach the target.
* ``race``: Neller and Presser's "keep pace and end race": roll to win once
  an opponent is within ``race_end`` of the target, else hold at ``hold_at``
  plus the gap to the leading opponent over ``race_step``.
* ``random``: uniformly random legal moves (:func:`engine.random_actions`).

A seating is played by the shared ``core.driver.SeatController`` over
:data:`POLICIES` (:data:`controller`, ``GAME.controller``); :func:`why` says
in one line why an agent chose as it did (``gamelab show``), and
:data:`ASSUMPTIONS` is the model in a report's words.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from gamelab.core import driver
from gamelab.core.params import knobs_of, param

from . import engine
from .rules import PigParams
from .state import HOLD


@dataclasses.dataclass(frozen=True, kw_only=True)
class AgentParams(PigParams):
    """The rules plus the agents' model knobs."""

    hold_at: int = param(
        20,
        low=1,
        high=200,
        section="agents",
        doc="the hold at 20 and race agents: hold once the turn total reaches this",
    )
    race_step: int = param(
        8, low=1, high=100, section="agents", doc="race: points of gap to the leading opponent per point of threshold"
    )
    race_end: int = param(
        29, low=0, high=200, section="agents", doc="race: roll to win once an opponent is this close to the target"
    )


def knobs(params) -> AgentParams:
    """The agent knobs of ``params``: itself if it has them, else a copy of
    its rules with the knobs' defaults (``core.params.knobs_of``)."""
    return knobs_of(params, AgentParams)


def best_opponent(state) -> np.ndarray:
    """(G,) the highest banked score among the other seats."""
    others = state.score.copy()
    others[np.arange(state.n_games), state.player] = np.iinfo(others.dtype).min
    return others.max(axis=1)


def hold_at_policy(params, state, legal, rng=None) -> np.ndarray:
    """Hold at ``hold_at`` or when banking reaches the target."""
    k = knobs(params)
    want = (state.turn_total >= k.hold_at) | engine.banking_reaches(params, state)
    return engine.prefer(legal, want)


def race_threshold(params, state) -> np.ndarray:
    """(G,) the turn total at which ``race`` holds."""
    k = knobs(params)
    mine, lead = engine.mover_score(state).astype(np.int32), best_opponent(state).astype(np.int32)
    pace = np.maximum(1, k.hold_at + np.rint((lead - mine) / k.race_step)).astype(np.int32)
    end_race = lead >= params.target - k.race_end
    return np.where(end_race, params.target - mine, pace)


def race_policy(params, state, legal, rng=None) -> np.ndarray:
    """Keep pace and end race (threshold: :func:`race_threshold`)."""
    want = (state.turn_total >= race_threshold(params, state)) | engine.banking_reaches(params, state)
    return engine.prefer(legal, want)


def random_policy(params, state, legal, rng) -> np.ndarray:
    return engine.random_actions(params, state, legal, rng)


POLICIES = {"hold_at_20": hold_at_policy, "race": race_policy, "random": random_policy}
controller = driver.seat_controller(POLICIES)


ASSUMPTIONS = (
    "Every seat holds at a turn total of 20 (or as soon as banking reaches the target) unless a lineup says "
    "otherwise: the classic threshold that maximises one turn's expected gain, not optimal play (which "
    "depends on both scores). The race agent keeps pace with the leader and rolls to win once an opponent "
    "nears the target; random picks roll or hold with a fair coin. A turn cap (40 turns each) ends the rare "
    "game nobody wins."
)


def why(params, agent, state, actions, g, seat) -> str:
    """The threshold the hold-at and race agents compare the turn total with (``View.why``)."""
    k = knobs(params)
    held = int(np.asarray(actions)[g]) == HOLD
    if engine.legal(params, state.take(np.array([g])))[0].sum() == 1:
        return "banking now reaches the target: the hold is forced, rule 6" if held else "the only legal move: a roll"
    total = int(state.turn_total[g])
    if agent == "hold_at_20":
        threshold = k.hold_at
        kind = f"holds at {threshold}"
    elif agent == "race":
        threshold = int(race_threshold(k, state.take(np.array([g])))[0])
        kind = f"keeps pace: holds at {threshold} now"
    else:
        return "a coin flip" if agent == "random" else ""
    reach = int(state.score[g, int(state.player[g])]) + total >= params.target
    if held and reach and total < threshold:
        return f"{kind}; banking now reaches the target"
    sign = "≥" if total >= threshold else "<"
    return f"{kind}; turn total {total} {sign} {threshold}"
