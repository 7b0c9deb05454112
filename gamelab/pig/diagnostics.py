"""Pig's own balance metrics, by name; the shared ones are in
:mod:`gamelab.stats.balance`."""

from __future__ import annotations

from gamelab.stats.balance import ratio
from gamelab.stats.balance_metric import Metric


def _winner_columns(frame):
    won = (frame["rank"] == 1).to_numpy(float)
    return {"winner_score:num": frame["score"].to_numpy(float) * won, "winner_score:den": won}


METRICS = (
    ratio("bust_rate", "rolls that bust", "busts", "rolls", percent=True, doc="share of rolls that lose the turn"),
    ratio("banked_per_hold", "points banked per hold", "score", "holds", doc="mean points banked when holding"),
    ratio(
        "capped_games",
        "games ended by the turn cap",
        "capped",
        per="game",
        percent=True,
        doc="share of games that reach the turn cap (rule 10)",
    ),
    ratio("turns_per_game", "turns per game", "turns", per="game", doc="turns played in a game, all players together"),
    ratio("rolls_per_turn", "rolls per turn", "rolls", "turns", doc="dice rolled per turn"),
    ratio("holds_per_player", "holds per player", "holds", per="seat", doc="turns a player ends by banking, per game"),
    Metric(
        "winner_score",
        "winner's score",
        "the banked score of the game's winner (each of tied winners counted)",
        _winner_columns,
        lambda s: s["winner_score:num"] / s["winner_score:den"],
    ),
)
