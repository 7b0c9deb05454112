"""Pig's own balance metrics, by name; the shared ones are in
:mod:`gamelab.stats.balance`."""

from __future__ import annotations

from gamelab.stats.balance import ratio

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
)
