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
