"""Every chart gamelab draws, in one module: the only one that imports matplotlib.

A chart is a :class:`Chart`, a ``matplotlib.figure.Figure`` built with the
object API: no pyplot state and no ``matplotlib.use``, so drawing one leaves
a notebook's backend alone.  A chart saves with ``savefig`` (PNG for the
command line, :func:`svg` for the report) and shows in Jupyter by itself.

The layers below the report (games, ``decide``, ``models``) draw nothing:
they compute, or return a plain description (:mod:`gamelab.core.charts`)
that :func:`draw` turns into a chart.

    from gamelab.report import charts
    charts.svg(charts.win_rate_chart([fmt.WinPanel("4 players", table, "seat", 0.25)]))
"""

from __future__ import annotations

import dataclasses
import io
import math
import re
import textwrap
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from gamelab.core import charts as spec
from gamelab.core.contract import Game
from gamelab.core.labels import key_words, param_words
from gamelab.decide import sensitivity, tune
from gamelab.models import metagame, skill_words, trace
from gamelab.report.format import (
    CLEAR_COLOUR,
    FAIR_COLOUR,
    LEGEND_PT,
    POINT_COLOUR,
    TICK_PT,
    TITLE_PT,
    WinPanel,
    chart_limit,
    group_label,
    score_edges,
    words,
)
from gamelab.stats import balance, balance_metric


class Chart(Figure):
    """A figure that shows itself in Jupyter (as PNG) without pyplot."""

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        self.savefig(buf, format="png", bbox_inches="tight")
        return buf.getvalue()


def new(width: float, height: float) -> Chart:
    """An empty chart of ``width`` x ``height`` inches (at rcParams dpi, as pyplot made them)."""
    return Chart(figsize=(width, height))


def svg(fig: Figure) -> str:
    """A figure as inline SVG (no XML prolog, no metadata)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    return re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)


figure_svg = svg  # the report's and the panels' name for it

#: the tornado's bars: sure to help the goal, sure to hurt it, not sure (the words' colours in a panel)
HELPS, HURTS, UNSURE = sensitivity.HELPS_COLOUR, sensitivity.HURTS_COLOUR, sensitivity.UNSURE_COLOUR
TORNADO_PT = 8.5  # the labels and legend: 12 px as a notebook shows the chart (100 dpi), more in a report
#: the trace chart's text in points (ticks and axis labels, title, legend): at least 11 px in a report at 1366 x 900
TRACE_PT = (9.5, 10, 9)
#: a panel's width in inches in a chart half the page wide: two panels (5.8 in) fill the half column of
#: a 1366 x 900 laptop's report (about 535 px) at 1.28 px a point, so 9.5-point text is 12 px there
HALF_PANEL_IN = 2.9


def _subplots(*grid: int, figsize: tuple[float, float], **kw):
    """``pyplot.subplots`` without pyplot: a :class:`Chart` and its axes."""
    fig = Chart(figsize=figsize)
    return fig, fig.subplots(*grid, **kw)


def win_rate_chart(
    panels: Sequence[WinPanel], *, xmax: float | None = None, columns: int | None = None, width: float = 10.0
):
    """Win rates with 95 % intervals, the fair share as a dashed line, every
    panel on one axis (0 to ``xmax`` percent), groups in reading order (seat 1
    at the top).  A group whose interval excludes the fair share is drawn in
    red; every axis has its tick labels (``sharex`` would hide them above the
    last row)."""
    columns = columns or min(len(panels), 4)
    rows = math.ceil(len(panels) / columns)
    height = max(len(p.table) for p in panels)
    fig, axes = _subplots(rows, columns, figsize=(width, rows * (0.34 * height + 1.2)), squeeze=False)
    xmax = xmax or chart_limit([p.table for p in panels], [p.fair for p in panels])
    for ax, p in zip(axes.flat, panels):
        t = p.table.reset_index(drop=True)
        y = np.arange(len(t))
        rate, low, high = (t[c].to_numpy(float) * 100 for c in ("win_rate", "win_low", "win_high"))
        off = (low > p.fair * 100) | (high < p.fair * 100)
        colours = [CLEAR_COLOUR if o else POINT_COLOUR for o in off]
        ax.hlines(y, low, high, colors=colours, lw=2)
        ax.scatter(rate, y, c=colours, s=22, zorder=3)
        ax.axvline(p.fair * 100, color=FAIR_COLOUR, ls="--", lw=1)
        ax.set_yticks(y, [group_label(p.by, v) for v in t[p.by]], fontsize=TICK_PT)
        ax.set_ylim(len(t) - 0.5, -0.5)  # first row at the top
        ax.set_xlim(0, xmax)
        ax.set_title(f"{p.title} (fair {p.fair * 100:.0f} %)" if p.fair else p.title, fontsize=TITLE_PT, loc="left")
        ax.grid(axis="x", alpha=0.3)
        ax.tick_params(axis="x", labelsize=TICK_PT)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("win rate, % (95 % interval)", fontsize=TICK_PT)
    fig.tight_layout()
    return fig


def edge_figure(sources: pd.DataFrame, phases: pd.DataFrame, *, title: str = "", width: float = 10.0):
    """Where a group's points gap comes from: two panels of bars, the contribution of each
    scoring source and of each phase (points a game, 95 % interval over deals), the gap itself
    as the last bar of each (:func:`gamelab.stats.edge.decompose` tables)."""
    fig, axes = _subplots(1, 2, figsize=(width, 0.24 * max(len(sources), len(phases)) + 1.3))
    for ax, table, label in ((axes[0], sources, "by source"), (axes[1], phases, "by phase")):
        rows = table.iloc[::-1].reset_index(drop=True)  # the gap at the bottom, the first part on top
        colours = [FAIR_COLOUR if i == 0 else POINT_COLOUR for i in range(len(rows))]
        ax.barh(range(len(rows)), rows["points"], height=0.6, color=colours, alpha=0.85)
        err = [(rows["points"] - rows["low"]).clip(lower=0), (rows["high"] - rows["points"]).clip(lower=0)]
        ax.errorbar(rows["points"], range(len(rows)), xerr=err, fmt="none", ecolor="k", capsize=2, lw=0.8)
        ax.set_yticks(range(len(rows)), ["the gap" if i == 0 else p for i, p in enumerate(rows["part"])])
        ax.axvline(0, color="k", lw=0.8)
        ax.set_title(label, fontsize=TITLE_PT)
        ax.set_xlabel("points a game over the others, 95 % interval", fontsize=TICK_PT)
        ax.tick_params(labelsize=TICK_PT)
    if title:
        fig.suptitle(title, fontsize=TITLE_PT)
    fig.tight_layout()
    return fig


def score_multiples(frames: dict, group: str, *, bins: int = 30, width: float = 10.0):
    """Final scores per player count as small multiples (one panel each,
    shared score axis), a step histogram per group with a legend on every
    panel."""
    n = len(frames)
    columns = min(n, 3)
    rows = math.ceil(n / columns)
    fig, axes = _subplots(rows, columns, figsize=(width, 2.9 * rows), squeeze=False, sharex=True)
    edges = score_edges(frames, bins)
    for ax, (players, df) in zip(axes.flat, frames.items()):
        by = group if group in df else "seat"
        for key, g in df.groupby(by, sort=True):
            ax.hist(g["score"], bins=edges, histtype="step", density=True, lw=1.3, label=group_label(by, key))
        ax.set_title(f"{players} players", fontsize=TITLE_PT, loc="left")
        ax.legend(fontsize=LEGEND_PT, title=words(by), title_fontsize=LEGEND_PT, frameon=False, loc="upper right")
        ax.tick_params(labelsize=TICK_PT)
        ax.set_yticks([])
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("final score", fontsize=TICK_PT)
    fig.tight_layout()
    return fig


def tornado_figure(table: pd.DataFrame, metric: str, *, top: int = 15, goal: str | None = None):
    """The parameters ranked by how far they move ``metric``: one bar per
    step with its 95 % interval, green when it is sure to help the goal
    (:func:`gamelab.decide.sensitivity.framing`), red when sure to hurt, grey when not sure; every
    label in words."""
    ranked = sensitivity.ranking(table, metric)
    fr = sensitivity.framing(table, metric, goal)
    helps = {x.words for x in fr.helps}
    hurts = {x.words for x in fr.hurts}
    words = ranked["words"] if "words" in ranked else ranked["parameter"].map(param_words) + " → " + ranked["value"]
    ranked = ranked.assign(words=list(words))
    names = list(dict.fromkeys(ranked["parameter"]))[:top]
    scale = 100.0 if fr.percent else 1.0
    fig, ax = _subplots(figsize=(7.5, 0.42 * len(names) + 1.6))
    for y, name in enumerate(reversed(names)):
        mine = ranked[ranked["parameter"] == name].reset_index(drop=True)
        height = 0.8 / len(mine)
        for j, r in mine.iterrows():
            yy = y - 0.4 + height * (j + 0.5)
            colour = HELPS if r["words"] in helps else HURTS if r["words"] in hurts else UNSURE
            ax.barh(yy, r["change"] * scale, height=height * 0.9, color=colour, alpha=0.8)
            ax.errorbar(
                r["change"] * scale,
                yy,
                xerr=[[(r["change"] - r["low"]) * scale], [(r["high"] - r["change"]) * scale]],
                fmt="none",
                ecolor="k",
                capsize=2,
                lw=0.8,
            )
            end = (r["high"] if r["change"] >= 0 else r["low"]) * scale  # the label beyond the interval
            ax.annotate(
                "→ " + r["words"].split(" → ")[-1],
                (end, yy),
                fontsize=TORNADO_PT,
                va="center",
                xytext=(3 if r["change"] >= 0 else -3, 0),
                textcoords="offset points",
                ha="left" if r["change"] >= 0 else "right",
            )
    ax.set_yticks(range(len(names)), [param_words(n) for n in reversed(names)])
    ax.axvline(0, color="k", lw=0.8)
    unit = " (points)" if scale == 100 else ""
    ax.set_xlabel(f"change of the {fr.label}{unit}, 95 % interval")

    better = f"sure to {fr.goal} it (better)" if fr.goal else "sure to raise it"
    worse = "sure to make it worse" if fr.goal else "sure to lower it"
    ax.legend(
        handles=[Patch(color=HELPS, label=better), Patch(color=HURTS, label=worse)]
        + [Patch(color=UNSURE, label="not sure")],
        fontsize=TORNADO_PT,
        loc="best",
    )
    aim = f"; {fr.goal} is better" if fr.goal else ""
    title = f"What moves the {fr.label} (now {dataclasses.replace(fr, source='').level()}{aim})"
    ax.set_title(textwrap.fill(title, 80), fontsize=TORNADO_PT + 1)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def front_figure(st: tune.Setting, study, proposals: pd.DataFrame | None = None):
    """Every trial's miss against its distance from the starting rules, the
    Pareto front joined, the verified proposals marked."""
    from optuna.trial import TrialState

    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    scale = 100.0 if all(m.percent for m in st.metrics) else 1.0  # the miss in the targets' unit: points
    fig, ax = _subplots(figsize=(6.5, 4))
    ax.scatter(
        [t.values[1] for t in done],
        [t.values[0] * scale for t in done],
        s=12,
        color="#90a4ae",
        label="trials (search deals)",
    )
    front = sorted(study.best_trials, key=lambda t: t.values[1])
    ax.step(
        [t.values[1] for t in front],
        [t.values[0] * scale for t in front],
        where="post",
        color="#1565c0",
        label="best trade-offs",
    )
    if proposals is not None:
        for r in proposals.itertuples():
            dist = r.changed + r.size
            ax.scatter([dist], [r.miss * scale], marker="*", s=120, color="#c62828", zorder=3)
            ax.annotate(
                "start" if r.proposal == "start" else f"P{r.proposal}",
                (dist, r.miss * scale),
                xytext=(4, 4),
                textcoords="offset points",
                fontsize=8,
            )
    ax.set_xlabel("distance from the starting rules (values changed + size of the changes)")
    unit = " in points" if scale == 100.0 else ""
    ax.set_ylabel(f"miss of the targets{unit} (0 = all met)")
    refused = len(tune.finished_trials(study)) - len(done)
    played = f"{len(done)} trials" + (f", {refused} refused by the declarations" if refused else "")
    ax.set_title(f"{st.game.title}: what the tuner tried ({played}; stars: verified on fresh deals)", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def skill_figure(levels: Sequence[dict], *, title: str = ""):
    """The skill trace: each level's win rate against the level below, with
    its interval and the fair share."""
    rows = [r for r in levels if r["win_rate_vs_below"] is not None]
    fig, ax = _subplots(figsize=(6, 3.2))
    x = np.arange(len(rows))
    y = np.array([r["win_rate_vs_below"] for r in rows])
    err = np.array(
        [[r["win_rate_vs_below"] - r["low"] for r in rows], [r["high"] - r["win_rate_vs_below"] for r in rows]]
    )
    ax.errorbar(x, 100 * y, yerr=100 * err, marker="o", capsize=4)
    ax.axhline(100 * rows[0]["fair"] if rows else 50, ls="--", color="grey", label="fair share")
    ax.set_xticks(x, [f"{r['agent']}\nvs {r['below']}" for r in rows])
    ax.set_ylabel("win rate of one seat, %")
    ax.set_ylim(0, 100)
    ax.set_title(title or "Skill trace: each level against the level below")
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def trace_figure(t: trace.Trace, game: Game, *, title: str = "", ax=None):
    """The trace chart: the metric against skill level, its 95 % interval as
    a band, the fair value as a dashed line.  The y axis says the values' unit
    (a win rate in per cent, a spread in points); a level where the metric has
    no value (random play has no style) gets no tick, and the x axis says so.
    ``game``: the game traced (its metric's label and unit)."""
    m = balance.metric(game, t.metric)
    pct = 100 if m.percent else 1
    unit = (", points" if balance_metric.in_points(m) else ", %") if m.percent else ""
    if ax is None:
        fig, ax = _subplots(figsize=(6, 3.2))
    else:
        fig = ax.figure
    rows = [r for r in t.rows if r["value"] is not None]
    x = np.arange(len(rows))
    val, low, high = (np.array([r[k] for r in rows], float) * pct for k in ("value", "low", "high"))
    ax.fill_between(x, low, high, alpha=0.25, label="95 % interval")
    ax.plot(x, val, marker="o")  # the title and the y axis name it
    if t.fair is not None:
        ax.axhline(t.fair * pct, ls="--", color="grey", label="fair")
    ticks, searched = skill_words.level_ticks(t.game, [r["level"] for r in rows])
    ax.set_xticks(x, ticks, rotation=30, ha="right")
    ax.tick_params(labelsize=TRACE_PT[0])
    missing = [r["level"] for r in t.rows if r["value"] is None]
    notes = ([searched] if searched else []) + ([f"not measured: {', '.join(missing)}"] if missing else [])
    if notes:
        ax.set_xlabel("\n".join(notes), fontsize=TRACE_PT[0])
    ax.set_ylabel(("win rate" if t.metric.startswith("win_rate[") else m.label) + unit, fontsize=TRACE_PT[0])
    ax.set_title(title or f"{t.players} players: {m.label} by skill level", fontsize=TRACE_PT[1])
    ax.legend(loc="best", fontsize=TRACE_PT[2])
    fig.tight_layout()
    return fig


def trace_chart(traces: Mapping, game: Game) -> Figure:
    """One trace panel per player count of ``game``, two to a row (the chart
    sits beside the win-rate chart)."""
    from gamelab.models import skill_words

    cols = min(2, len(traces))
    rows = -(-len(traces) // cols)  # ceil(len / cols)
    fig, axes = _subplots(rows, cols, figsize=(HALF_PANEL_IN * cols, 2.9 * rows), squeeze=False)
    for ax, (n, t) in zip(axes.ravel(), sorted(traces.items())):
        label, _ = skill_words.metric_words(t)
        trace_figure(t, game, ax=ax, title=textwrap.fill(f"{n} players: {label}", 34))  # a half-page panel
    for ax in axes.ravel()[len(traces) :]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def metagame_figure(a: metagame.Analysis, *, title: str | None = None):
    """The heatmap beside the equilibria's shares (bars, 95 % intervals)."""
    labels = [key_words(n) for n in a.names]
    S = len(labels)
    fig, (ax, bx) = _subplots(1, 2, figsize=(10.5, 3.9), gridspec_kw={"width_ratios": [1.15, 1]})
    h = metagame.heatmap_values(a)

    fair = 100 / a.n_players  # white at the fair share, red above, blue below
    im = ax.imshow(100 * h, cmap="RdBu_r", norm=TwoSlopeNorm(fair, vmin=0, vmax=max(2 * fair, 100 * h.max())))
    for r in range(S):
        for c in range(S):
            ax.text(c, r, f"{100 * h[r, c]:.0f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(S), labels, rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(S), labels, fontsize=8)
    ax.set_xlabel(f"the other {a.n_players - 1} seats all play")
    ax.set_ylabel("one seat plays")
    ax.set_title(f"Win share (%), fair {100 / a.n_players:.0f} %", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    width = 0.8 / max(1, len(a.equilibria))
    for i, e in enumerate(a.equilibria):
        x = np.arange(S) + (i - (len(a.equilibria) - 1) / 2) * width
        lo, hi = a.shares_low[i], a.shares_high[i]
        err = np.vstack([np.clip(e.shares - lo, 0, None), np.clip(hi - e.shares, 0, None)]) * 100
        bx.bar(x, 100 * e.shares, width, yerr=err, capsize=3, label=f"equilibrium {i + 1}")
    bx.set_xticks(range(S), labels, rotation=35, ha="right", fontsize=8)
    bx.set_ylim(0, 105)
    bx.set_ylabel("share of seats (%)")
    bx.set_title("Where adapting players settle (95 % intervals)", fontsize=9)
    if len(a.equilibria) > 1:
        bx.legend(fontsize=8)
    fig.suptitle(title or f"{a.n_players} players: the {a.label}s' meta-game", fontsize=10)
    fig.tight_layout()
    return fig


# -- descriptions (gamelab.core.charts) drawn -------------------------------------------


def draw(panel: spec.Panel) -> Chart:
    """A game's described chart as a figure: its plots side by side."""
    fig = new(panel.width, panel.height)
    axes = fig.subplots(1, len(panel.plots), squeeze=False)[0]
    for ax, plot in zip(axes, panel.plots):
        _draw_plot(ax, plot)
    fig.tight_layout()
    return fig


def drawn(item):
    """``item`` drawn if it is a described chart, else as it is (a table, a figure)."""
    return draw(item) if isinstance(item, spec.Panel) else item


def _draw_plot(ax, plot: spec.Plot) -> None:
    c = plot.chart
    if isinstance(c, spec.Histogram):
        ax.hist(np.asarray(c.values), bins=np.asarray(c.bins))
    elif isinstance(c, spec.Bars):
        bottom = np.zeros(len(c.x))
        for s in c.series:
            values = np.asarray(s.values, float)
            ax.bar(list(c.x), values, width=c.width, bottom=bottom, **_label(s.label))
            bottom += values
        if len(c.x) and all(isinstance(x, (int, np.integer)) for x in c.x):  # whole numbers (a square)
            ax.set_xticks(_whole_ticks([int(x) for x in c.x]))  # ticked at values it can take, never 47.5
    else:
        for s in c.series:
            ax.plot(np.asarray(c.x), np.asarray(s.values), **_label(s.label))
    for r in plot.references:
        ax.axhline(r.y, color=r.colour, ls="--", lw=1, **_label(r.label))
    ax.set_xlabel(plot.xlabel)
    ax.set_ylabel(plot.ylabel)
    ax.set_title(plot.title, **({} if plot.title_pt is None else {"fontsize": plot.title_pt}))
    if plot.legend_pt is not None:
        ax.legend(fontsize=plot.legend_pt)


def _whole_ticks(xs: list[int], most: int = 10) -> list[int]:
    """Ticks for bars at whole numbers: every whole number from the lowest bar to the highest, or every
    2nd, 5th, 10th, ... one (multiples of the step) so that at most ``most`` are shown."""
    lo, hi = min(xs), max(xs)
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9) if (hi - lo) // s + 1 <= most)
    return list(range(-(-lo // step) * step, hi + 1, step)) or [lo]


def _label(label: str) -> dict:
    """A legend entry only where the description names one."""
    return {"label": label} if label else {}
