"""Balance metrics a game does not declare yet, and the catalogue with them.

TEMPORARY TABLE: each game declares its own diagnostics in ``GAME.metrics``
(``gamelab/<game>/metrics.py``); :data:`BY_GAME` holds the few the decision
tools need that no game declares yet (STRAND's ``style_gap`` and
``role_gap``: "every style within 5 points of fair"), for the lead to move
into the game (or, being generic, into :mod:`gamelab.balance`).  The
decision tools read ``game.metrics`` first and this table after it, through
:func:`catalogue` and :func:`metric`, which otherwise are
:func:`gamelab.balance.catalogue` and :func:`gamelab.balance.metric`.
"""
from __future__ import annotations

import numpy as np

from . import balance
from .balance import Metric


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


BY_GAME: dict[str, tuple[Metric, ...]] = {
    "strand": (fair_gap("style"), fair_gap("role")),
}


def own_metrics(game) -> tuple[Metric, ...]:
    """The game's declared diagnostics, then the temporary table's it lacks."""
    declared = tuple(getattr(game, "metrics", ()) or ())
    names = {m.name for m in declared}
    return declared + tuple(m for m in BY_GAME.get(game.name, ()) if m.name not in names)


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
