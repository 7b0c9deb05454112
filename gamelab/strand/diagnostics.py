"""STRAND's own balance metrics (appendix B's diagnostics), by name; the
shared ones (seat, style and role spread, balance, ...) are in
:mod:`gamelab.stats.balance`."""

from __future__ import annotations

from gamelab.stats.balance import complement, ratio

ROUNDS_WITH_TEAM = ratio(
    "rounds_with_team",
    "rounds with a team",
    "team_rounds",
    "rounds",
    percent=True,
    goal="higher",
    doc="share of rounds in which at least one team formed (appendix B)",
)

METRICS = (
    ROUNDS_WITH_TEAM,
    ratio(
        "lone_markers",
        "lone markers per game",
        "lone_total",
        per="game",
        doc="lone markers handed out in a game, all players together (appendix B)",
    ),
    ratio(
        "node_share",
        "node points share",
        "node_points",
        "gross",
        percent=True,
        doc="share of gross points that come from nodes (identity 4)",
    ),
    ratio(
        "void_nodes",
        "voided nodes per round",
        "void_nodes",
        "rounds",
        percent=True,
        doc="share of rounds whose node is voided by a full tie",
    ),
    ratio(
        "total_points",
        "points per game, all players",
        "gross",
        per="game",
        doc="gross points scored in a game, all players together",
    ),
    # the rounds in which nobody teamed (appendix B's stall), beside ``rounds_with_team``
    complement(ROUNDS_WITH_TEAM, "stalled_rounds", "stalled rounds (no team)", doc="share of rounds without a team"),
)
