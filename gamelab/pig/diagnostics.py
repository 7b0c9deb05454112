"""Pig's measures: what the shared play counts from the engine's events (``COUNTS``) and the
game's own balance metrics over those columns (``METRICS``, in the panel's order, before the
shared ``lead_changes`` and ``winner_score`` of :mod:`gamelab.stats.balance`).  Metrics, not
rules: nothing here is in the state.

Columns per seat (G, P): ``score`` (banked), ``win`` (ties split 1/k), ``rank``, ``rolls``,
``busts``, ``holds``, ``pips`` (points rolled on scoring faces), ``mean_banked`` (points per
hold, NaN without a hold).  Per game (G,): ``turns`` (turns played), ``rounds`` (turns per
player, the last round maybe cut short by a win), ``length`` (decisions), ``capped`` (the turn
cap ended it, rule 8), ``lead_changes`` (times the sole leader by banked score changed).
"""

from __future__ import annotations

import numpy as np

from gamelab.core.contract import Counts
from gamelab.stats.balance import ratio


def columns(params, state, result: dict, n: dict) -> dict:
    """The runner's columns of a finished batch, in the table's order (``n``: the counts)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_banked = np.where(n["holds"] > 0, result["score"] / n["holds"], np.nan)
    turns, seat = state.turn.astype(np.int32), {k: n[k] for k in ("rolls", "busts", "holds", "pips")}
    ended = {"turns": turns, "rounds": -(-turns // state.n_players), "length": n["length"]}
    capped = result["score"].max(axis=1) < params.target
    return {**result, **seat, "mean_banked": mean_banked, **ended, "capped": capped, "lead_changes": n["lead_changes"]}


#: per seat, summed over the engine's events; banked scores (the lead) move only on a hold
SEAT = {"rolls": "roll", "busts": "bust", "holds": "hold", "pips": "gained"}
COUNTS = Counts(seat=SEAT, leads="score", leads_on="hold", columns=columns)

METRICS = (
    ratio("turns_per_game", "turns per game", "turns", doc="turns played in a game, all players together"),
    ratio("rolls_per_turn", "rolls per turn", "rolls", "turns", doc="dice rolled per turn"),
    ratio("bust_rate", "rolls that bust", "busts", "rolls", percent=True, doc="share of rolls that lose the turn"),
    ratio("holds_per_player", "holds per player", "holds", per="seat", doc="turns a player ends by banking, per game"),
    ratio("banked_per_hold", "points banked per hold", "score", "holds", doc="mean points banked when holding"),
    ratio("capped_games", "games ended by the turn cap", "capped", percent=True, doc="games the turn cap ends, rule 8"),
)
