"""Charts as plain data: what a game's panel or explorer shows, described,
not drawn.

A game returns a :class:`Panel` (one row of :class:`Plot` s, each a
:class:`Bars`, :class:`Histogram` or :class:`Lines` with its titles, axis
labels in their units and reference lines); :func:`gamelab.report.charts.draw`
is the one place that turns it into a figure.  Nothing here imports
matplotlib, so the layers below the report can describe a chart.

    Panel(
        (Plot(Histogram(rounds, bins), title="game length", xlabel="rounds", ylabel="games"),),
        width=6, height=3.2,
    )
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np


@dataclasses.dataclass(frozen=True, kw_only=True)
class Series:
    """One set of values along a plot's x: a bar layer (stacked on the ones
    before it) or a line; ``label`` names it in the legend."""

    values: Sequence[float]
    label: str = ""


@dataclasses.dataclass(frozen=True)
class Bars:
    """Bars at ``x`` (category names or numbers); several series stack."""

    x: Sequence
    series: Sequence[Series]
    width: float = 0.8


@dataclasses.dataclass(frozen=True)
class Histogram:
    """Counts of ``values`` between the ``bins`` edges."""

    values: Sequence[float]
    bins: Sequence[float]


@dataclasses.dataclass(frozen=True)
class Lines:
    """One line per series over the shared ``x``."""

    x: Sequence[float]
    series: Sequence[Series]


@dataclasses.dataclass(frozen=True, kw_only=True)
class Reference:
    """A dashed horizontal line at ``y`` (a fair share, the value of staying)."""

    y: float
    colour: str = "grey"
    label: str = ""


@dataclasses.dataclass(frozen=True)
class Plot:
    """One set of axes: the chart, its words (sizes in points; ``None``: the
    default size) and reference lines; a legend when ``legend_pt`` is set."""

    chart: Bars | Histogram | Lines
    _: dataclasses.KW_ONLY
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    references: Sequence[Reference] = ()
    title_pt: float | None = None
    legend_pt: float | None = None


@dataclasses.dataclass(frozen=True)
class Panel:
    """Plots side by side in a figure of ``width`` x ``height`` inches."""

    plots: Sequence[Plot]
    width: float
    height: float


#: run columns that measure a game's length, in the order a figure prefers them, with their axis words
LENGTH_WORDS = {
    "game_length": "game length",
    "rounds": "rounds (turns per player)",
    "turns": "turns",
    "length": "steps",
}


def length_and_wins(frame, params) -> list[Panel]:
    """A figure any game's panel can show (``Panels.figures``): how long games last (the first
    length column of ``frame`` in :data:`LENGTH_WORDS`), and the win rate by seat beside the fair share."""
    column = next(c for c in LENGTH_WORDS if c in frame.columns)
    length = frame.groupby("game")[column].first()
    by_seat = frame.groupby("seat")["win"].mean()
    n_players = int(frame.groupby("game").size().iloc[0])
    bins = (np.arange(length.min(), length.max() + 2) - 0.5).tolist()
    lasts = Plot(Histogram(length.to_numpy(), bins), title="game length", xlabel=LENGTH_WORDS[column], ylabel="games")
    seats = Bars(list(by_seat.index.astype(str)), [Series(values=by_seat.to_numpy() * 100)])
    fair = [Reference(y=100 / n_players)]
    wins = Plot(seats, title="wins by seat (dashed: fair share)", xlabel="seat", ylabel="win rate (%)", references=fair)
    return [Panel([lasts, wins], width=10, height=3.2)]
