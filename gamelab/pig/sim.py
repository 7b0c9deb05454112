"""Pig for the runner: ``play`` (the contract's fast path) and its columns.

Lineup entries: the agents of :mod:`gamelab.pig.agents` (``hold_at_20``,
``race``, ``random``); the default lineup is ``hold_at_20`` on every seat.

Chance first and apart from the agents, as in ``gamelab/sbr/sim.py``:
``seed_seq.spawn(2)`` gives the dice (all drawn before the first decision)
and the agents' generator, so a deal is the same under every seating and
every model setting (common random numbers).

Columns per seat (G, P): ``score`` (banked), ``win`` (ties split 1/k),
``rank``, ``rolls``, ``busts``, ``holds``, ``pips`` (points rolled on scoring
faces), ``mean_banked`` (points per hold, NaN without a hold).  Per game
(G,): ``turns`` (turns played), ``rounds`` (turns per player, the last round
maybe cut short by a win), ``length`` (decisions), ``capped`` (the turn cap
ended it, rule 8), ``lead_changes``.
"""

from __future__ import annotations

import numpy as np

from . import engine
from .agents import POLICIES, knobs, policies_for

AGENTS = tuple(POLICIES)
CHUNK_DEALS = 1024  # deals per runner chunk (part of what a seed means)


def random_lineup(n_players: int) -> list:
    return ["random"] * n_players


def play(params, seating, n_deals, n_players, seed_seq) -> dict:
    """The runner's entry point: chance first from one child of ``seed_seq``,
    the agents' randomness from the other."""
    params = knobs(params)
    chance_seq, agent_seq = seed_seq.spawn(2)
    chance = engine.draw_chance(params, n_deals, n_players, np.random.default_rng(chance_seq))
    res = engine.play_batch(
        params, policies_for(seating), n_deals, np.random.default_rng(agent_seq), n_players, chance=chance
    )
    return columns(params, res, n_players)


def columns(params, res: dict, n_players: int) -> dict:
    """The runner's columns from ``engine.play_batch``'s result."""
    holds = res["holds"]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_banked = np.where(holds > 0, res["score"] / holds, np.nan)
    turns = res["turns"].astype(np.int32)
    return {
        "score": res["score"],
        "win": res["win"],
        "rank": res["rank"],
        "rolls": res["rolls"],
        "busts": res["busts"],
        "holds": holds,
        "pips": res["pips"],
        "mean_banked": mean_banked,
        "turns": turns,
        "rounds": -(-turns // n_players),
        "length": res["length"],
        "capped": res["score"].max(axis=1) < params.target,
        "lead_changes": res["lead_changes"],
    }


def random_batch(params, n_games, n_players, rng):
    """Random legal play straight through the engine (as ``reference.play_random``)."""
    return engine.play_batch(params, policies_for(random_lineup(n_players)), n_games, rng, n_players)


ASSUMPTIONS = (
    "Every seat holds at a turn total of 20 (or as soon as banking reaches the target) unless a lineup says "
    "otherwise: the classic threshold that maximises one turn's expected gain, not optimal play (which "
    "depends on both scores). The race agent keeps pace with the leader and rolls to win once an opponent "
    "nears the target; random picks roll or hold with a fair coin. A turn cap (40 turns each) ends the rare "
    "game nobody wins."
)
