"""Where the headline's edge comes from (issue 40): the headline group's points against the
other seats', split by the game's declared scoring sources and phases
(``contract.ReportSettings.edge``, computed by :mod:`gamelab.stats.edge`), as one value the
first screen draws: a chart and one sentence whose every figure is a tagged quantity.

The group is the headline grouping's top group (the highest win rate) at the player count
whose finding departs furthest from the fair share."""

from __future__ import annotations

import dataclasses

import pandas as pd

from gamelab.core.contract import Game
from gamelab.report import format as fmt
from gamelab.stats.edge import decompose


@dataclasses.dataclass(frozen=True)
class Edge:
    """The headline group's points gap at one player count, by source and by phase
    (:func:`gamelab.stats.edge.decompose` tables: a row per part, the last the gap)."""

    players: int
    by: str
    group: str
    sources: pd.DataFrame
    phases: pd.DataFrame
    points: str  # the points column the parts add up to
    why: str = ""

    @property
    def gap(self) -> pd.Series:
        return self.sources.iloc[-1]

    def name(self, kind: str, **part) -> str:
        """The quantity of one figure: ``edge_points[players=4,seat=1]`` (the gap),
        ``edge_points[players=4,seat=1,source=relics]``, ``edge_share[...,phase=segment 1]``."""
        return fmt.qname(kind, players=self.players, **{self.by: self.group}, **part)


def top_group(finding) -> str:
    """The headline grouping's group with the highest win rate (the finding's, or its other end)."""
    return str(finding.group if finding.rate >= finding.fair or finding.weakest is None else finding.weakest)


def edge_of(game: Game, params, frames: dict, findings) -> Edge | None:
    """The edge of the headline grouping's top group at the player count of the largest finding
    (None: the game declares no sources, or no finding is of the headline grouping)."""
    declared = game.report.edge
    by = game.report.headline.removesuffix("_spread")
    mine = [f for f in findings if f.by == by and f.players in frames]
    if declared is None or not mine:
        return None
    f = max(mine, key=lambda f: abs(f.effect))
    group, n = top_group(f), f.players
    frame = frames[n]
    sources = decompose(frame, by, group, declared.sources(params, n), declared.points)
    phases = decompose(frame, by, group, declared.phases(params, n), declared.points)
    return Edge(n, by, group, sources, phases, declared.points, declared.why)


def subject(edge: Edge) -> str:
    return f"seat {edge.group}" if edge.by == "seat" else f"the {fmt.group_label(edge.by, edge.group)} {edge.by}"


def _shares(edge: Edge, table: pd.DataFrame, kind: str, most: int) -> list[str]:
    """The largest parts' shares, in words: ``61 % from segment points``."""
    parts = table.iloc[:-1].sort_values("share", ascending=False).head(most)
    return [fmt.q_percent(edge.name("edge_share", **{kind: r.part}), r.share, 0) for r in parts.itertuples()]


def sentence(edge: Edge) -> str:
    """The first screen's one sentence: the gap with its interval, the two largest sources'
    shares and the two largest phases' (each figure tagged with its quantity)."""
    g = edge.gap
    gap = fmt.quantity(edge.name("edge_points"), g.points, f"{g.points:+.2f}".replace("-", "−"))
    low = fmt.quantity(edge.name("edge_points") + ".low", g.low, f"{g.low:.2f}".replace("-", "−"))
    high = fmt.quantity(edge.name("edge_points") + ".high", g.high, f"{g.high:.2f}".replace("-", "−"))
    src = edge.sources.iloc[:-1].sort_values("share", ascending=False)
    pieces = [f"{s} of it from {r.part}" for s, r in zip(_shares(edge, edge.sources, "source", 2), src.itertuples())]
    phases = edge.phases.iloc[:-1].sort_values("share", ascending=False)
    when = [f"{s} in {r.part}" for s, r in zip(_shares(edge, edge.phases, "phase", 2), phases.itertuples())]
    return (
        f"Where {subject(edge)}'s edge comes from ({edge.players} players): {gap} points a game over the other "
        f"seats' mean (95 % interval {low} to {high}), {' and '.join(pieces)}; by phase, {' and '.join(when)}."
    )


def chart_values(edge: Edge) -> dict[str, float]:
    """The values the edge chart plots, by quantity: each part's contribution with its interval, and
    its share of the plotted gap (the chart's own division: a share the text misstates disagrees)."""
    values: dict[str, float] = {}
    gap = float(edge.gap.points)
    for kind, table in (("source", edge.sources), ("phase", edge.phases)):
        for r in table.iloc[:-1].itertuples():
            name = edge.name("edge_points", **{kind: r.part})
            values.update({name: r.points, f"{name}.low": r.low, f"{name}.high": r.high})
            if gap:
                values[edge.name("edge_share", **{kind: r.part})] = r.points / gap
    g = edge.gap
    values.update({edge.name("edge_points"): g.points, edge.name("edge_points") + ".low": g.low})
    values[edge.name("edge_points") + ".high"] = g.high
    return values
