"""The names of the quantities a report shows (issue 37: one number per quantity): every figure
the page prints is tagged with one of these (:func:`gamelab.report.format.quantity`), and the
checker (:mod:`gamelab.report.onenumber`) compares the figures and chart values of each name."""

from __future__ import annotations

import re

from gamelab.report.format import qname


def win_name(players: int, by: str, group) -> str:
    """The quantity a group's win rate is (:func:`gamelab.report.format.qname`): ``win_rate[players=4,seat=1]``."""
    return qname("win_rate", players=players, **{by: group})


def trace_name(t, level: str) -> str:
    """The quantity a skill trace's point is: at the default model, a traced win rate is the report's
    own (its games are the report's table's); elsewhere ``trace[players=4,metric=...,level=best@8]``."""
    hit = re.fullmatch(r"win_rate\[(\w+)=(.+)\]", t.metric)
    if level == "default" and hit:
        return win_name(t.players, hit.group(1), hit.group(2))
    return qname("trace", players=t.players, metric=t.metric, level=level)


def metric_name(players: int, metric: str) -> str:
    """The quantity a design metric is at a player count (the Design metrics table, the levers' "now")."""
    return qname("metric", players=players, name=metric)


def lever_name(players, metric: str, step: str) -> str:
    """The quantity a rule step's effect is: ``lever[players=4,metric=seat_spread,step=hand size 5 → 4]``."""
    return qname("lever", players=players, metric=metric, step=step)
