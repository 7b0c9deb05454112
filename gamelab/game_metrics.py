"""The games' own balance diagnostics, until each game declares them.

TEMPORARY TABLE: the metrics below belong in each game's ``GAME.metrics``
(``contract.Game.metrics``); the lead moves them there.  Until then the
decision tools (sensitivity, tuner, sequential tests) read ``game.metrics``
first and fall back to :data:`BY_GAME`, through :func:`catalogue` and
:func:`metric` here, which otherwise are :func:`gamelab.balance.catalogue`
and :func:`gamelab.balance.metric`.

Every metric is a :func:`gamelab.balance.ratio` of columns the game's
``play`` already returns (rulebook sections in the docs).
"""
from __future__ import annotations

import numpy as np

from . import balance
from .balance import Metric, ratio


def fair_gap(group: str) -> Metric:
    """The largest distance of a ``group`` value's per-seat win rate from the
    fair share 1 / players ("every style within 5 points of fair")."""

    def columns(frame):
        win = frame["win"].to_numpy(float)
        out = {"fair:games": (~frame["game"].duplicated()).to_numpy(float), "fair:seats": np.ones(len(frame))}
        for v in frame[group].unique():
            mine = (frame[group] == v).to_numpy(float)
            out[f"{group}={v}:w"], out[f"{group}={v}:n"] = win * mine, mine
        return out

    def value(s):
        keys = sorted(k[:-2] for k in s if k.startswith(f"{group}=") and k.endswith(":w"))
        rates = np.stack([s[f"{k}:w"] / np.where(s[f"{k}:n"] > 0, s[f"{k}:n"], np.nan) for k in keys], axis=-1)
        fair = s["fair:games"] / s["fair:seats"]
        return np.nanmax(np.abs(rates - np.asarray(fair)[..., None]), axis=-1)

    return Metric(f"{group}_gap", f"{group} gap from fair",
                  f"largest distance of a {group}'s per-seat win rate from the fair 1/players", columns, value,
                  percent=True, goal="lower")

#: shared by every game (a per-seat column every ``play`` returns)
MEAN_SCORE = ratio("mean_score", "mean final score", "score", per="seat",
                   doc="mean final score per seat")

BY_GAME: dict[str, tuple[Metric, ...]] = {
    "strand": (
        fair_gap("style"),
        fair_gap("role"),
        # section 6.4 / appendix B: a round in which at least one team formed
        ratio("rounds_with_team", "rounds with a team", "team_rounds", "rounds", percent=True,
              doc="share of rounds in which at least one team formed (appendix B)", goal="higher"),
        # section 6.4: a lone marker costs lone_penalty final points
        ratio("lone_markers", "lone markers", "lone", per="seat",
              doc="lone markers per seat per game (section 6.4)", goal="lower"),
        # identity (2): node points over gross points
        ratio("node_share", "node share", "node_points", "gross", percent=True,
              doc="share of gross points that came from nodes (section 5.4)"),
        MEAN_SCORE,
    ),
    "sbr": (
        # appendix A: riders reaching the finish
        ratio("arrival_rate", "arrival rate", "finished", per="seat", percent=True,
              doc="share of riders who reached the finish (appendix A)", goal="higher"),
        ratio("relic_share", "relic share", "relic_points", "score", percent=True,
              doc="share of the points that came from relics (section 5.4)"),
        MEAN_SCORE,
    ),
    "toy": (MEAN_SCORE,),
}


def own_metrics(game) -> tuple[Metric, ...]:
    """The game's declared diagnostics, else the temporary table's."""
    declared = tuple(getattr(game, "metrics", ()) or ())
    return declared or BY_GAME.get(game.name, (MEAN_SCORE,))


def catalogue(game) -> dict[str, Metric]:
    """Every named metric of ``game``: the shared ones and its own."""
    out = balance.catalogue(game)
    for m in own_metrics(game):
        out.setdefault(m.name, m)
    return out


def metric(game, name: str) -> Metric:
    """The metric called ``name`` (``win_rate[GROUP=VALUE]`` included); an
    unknown name is an error listing the table's metrics too."""
    import dataclasses

    return balance.metric(dataclasses.replace(game, metrics=own_metrics(game)), name)
