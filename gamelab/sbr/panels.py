"""STEEL BALL RUN's notebook panel: what a designer watches besides win rates.

The table is a list of metric names (appendix A's quantities,
:mod:`gamelab.sbr.diagnostics`), computed with intervals over deals by the
shared layer; the figures (where riders end, what scores are made of) are
described here as plain data.
"""

from __future__ import annotations

from gamelab.core import charts

#: appendix A's quantities, in the table's order: arrival, the score's parts, relics, spin, seals, terrain tax
MEASURES = (
    "arrival_rate",
    "arrival_beat",
    "final_square",
    "segment_points",
    "relic_points",
    "final_points",
    "relics_per_player",
    "spin_spent",
    "seals_placed",
    "seal_triggers",
    "terrain_tax",
)


def finish_squares(frame):
    """Distribution of final squares (share of riders per square)."""
    return frame["final_square"].value_counts(normalize=True).sort_index()


def figures(frame, params) -> list:
    """Where riders end, and what their scores are made of by seat."""
    dist = finish_squares(frame)
    ends = charts.Bars(list(dist.index), [charts.Series(values=dist.to_numpy() * 100)])
    parts = frame.groupby("seat")[["segment_points", "relic_points", "final_points"]].mean()
    layers = [charts.Series(values=parts[col].to_numpy(), label=col.replace("_", " ")) for col in parts]
    composition = charts.Bars(list(parts.index.astype(str)), layers)  # stacked
    # one plot a figure, 6 inches wide: a notebook shows it at its own size (100 dpi) beside the sliders
    # at 1366 px, so its text is as large as drawn (11 px and more), never shrunk to fit
    return [
        charts.Panel(
            [charts.Plot(ends, title="where riders end", xlabel="final square", ylabel="% of riders")],
            width=6,
            height=3,
        ),
        charts.Panel(
            [charts.Plot(composition, title="score composition", xlabel="seat", ylabel="mean points", legend_pt=9)],
            width=6,
            height=3,
        ),
    ]
