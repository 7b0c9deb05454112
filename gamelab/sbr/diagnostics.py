"""STEEL BALL RUN's own balance metrics (appendix A's diagnostics), by name;
the shared ones (seat spread, balance, ...) are in :mod:`gamelab.stats.balance`."""

from __future__ import annotations

from gamelab.stats.balance import ratio

METRICS = (
    ratio(
        "arrival_rate",
        "riders reaching New York",
        "finished",
        per="seat",
        percent=True,
        doc="share of riders who reach the finish (appendix A)",
    ),
    ratio(
        "seal_triggers",
        "seals triggered per game",
        "seal_triggers",
        per="game",
        doc="seals triggered in a game, all riders together (appendix A)",
    ),
    ratio(
        "terrain_tax",
        "terrain tax per rider",
        "terrain_tax",
        per="seat",
        doc="squares lost to rocks and curves per rider and game (identity 2)",
    ),
    ratio("relics_per_player", "relics per player", "relics", per="seat", doc="relics taken per player and game"),
    ratio(
        "relic_point_share",
        "relic points share",
        "relic_points",
        "score",
        percent=True,
        doc="share of all points that come from relics",
    ),
    ratio(
        "arrival_beat",
        "arrival beat of riders who arrive",
        "arrival_beat",
        "finished",
        doc="the beat a rider reaches the finish, among riders who do (appendix A)",
    ),
    ratio("final_square", "final square", "final_square", per="seat", doc="where a rider ends (appendix A)"),
    ratio("segment_points", "segment points per player", "segment_points", per="seat", doc="points from segments"),
    ratio("relic_points", "relic points per player", "relic_points", per="seat", doc="points from relics"),
    ratio("final_points", "final points per player", "final_points", per="seat", doc="points from the final ranking"),
    ratio("spin_spent", "spin spent per player", "spin_spent", per="seat", doc="spin paid per player and game"),
    ratio("seals_placed", "seals placed per player", "seals_placed", per="seat", doc="seals placed per player, game"),
)
