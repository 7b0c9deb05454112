"""STEEL BALL RUN notebook panel: what a designer watches besides win rates.

* :func:`panel_table`: arrival, the score's parts, relics, spin, seals and
  terrain tax (appendix A's quantities) with 95 % intervals;
* :func:`finish_squares`: where riders end;
* :func:`panel_extras`: the table and two plots (final squares, score
  composition by seat).
"""

from __future__ import annotations

from gamelab.core import charts
from gamelab.stats.tables import percent_rows


def panel_table(frame):
    """What a designer watches besides win rates, with 95 % intervals (per
    game means: the players of a game are not independent): arrival, the
    score's parts, relics, spin, seals, terrain tax."""
    import pandas as pd

    from gamelab.stats.intervals import mean_interval

    per_game = frame.groupby("game")
    rows = [
        ("riders reaching square 60", per_game["finished"].mean()),
        (
            "arrival beat (riders who arrived)",
            frame.dropna(subset=["arrival_beat"]).groupby("game")["arrival_beat"].mean(),
        ),
        ("final square", per_game["final_square"].mean()),
        ("segment points per player", per_game["segment_points"].mean()),
        ("relic points per player", per_game["relic_points"].mean()),
        ("final points per player", per_game["final_points"].mean()),
        ("relics per player", per_game["relics"].mean()),
        ("spin spent per player", per_game["spin_spent"].mean()),
        ("seals placed per player", per_game["seals_placed"].mean()),
        ("seal triggers per game", per_game["seal_triggers"].first()),
        ("terrain tax per player (squares)", per_game["terrain_tax"].mean()),
    ]
    out = []
    for label, series in rows:
        e = mean_interval(series.astype(float))
        out.append({"measure": label, "value": e.value, "low": e.low, "high": e.high})
    return percent_rows(pd.DataFrame(out), ("riders reaching square 60",))


def finish_squares(frame):
    """Distribution of final squares (share of riders per square)."""
    return frame["final_square"].value_counts(normalize=True).sort_index()


def panel_extras(frame, params) -> list:
    """The SBR panel's diagnostics: the table, where riders end, and what their
    scores are made of."""
    dist = finish_squares(frame)
    ends = charts.Bars(list(dist.index), [charts.Series(values=dist.to_numpy() * 100)])
    parts = frame.groupby("seat")[["segment_points", "relic_points", "final_points"]].mean()
    layers = [charts.Series(values=parts[col].to_numpy(), label=col.replace("_", " ")) for col in parts]
    composition = charts.Bars(list(parts.index.astype(str)), layers)  # stacked
    figure = charts.Panel(
        [
            charts.Plot(ends, title="where riders end", xlabel="final square", ylabel="% of riders"),
            charts.Plot(composition, title="score composition", xlabel="seat", ylabel="mean points", legend_pt=8),
        ],
        width=10,
        height=3.2,
    )
    return [panel_table(frame), figure]
