"""The meta-game drawn: the payoff heatmap (one seat of a strategy among
the others all of one strategy) and the equilibria's shares as bars with
their bootstrap intervals (:mod:`gamelab.models.metagame` computes them);
the report's section and first-screen sentence of it."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from gamelab.core.labels import key_words
from gamelab.models import metagame
from gamelab.report import charts
from gamelab.report.blocks import Block, Section


def front_sentence(found: Mapping) -> str:
    """One sentence for the first screen: at each player count, what adapting players keep."""
    parts = []
    for n, a in sorted(found.items()):
        worth = [key_words(a.names[s]) for s in a.worth]
        parts.append(f"{n} players: {', '.join(worth) or 'none'}")
    label = next(iter(found.values())).label if found else "style"
    return f"If players adapt, the {label}s worth playing are, at " + "; ".join(parts) + "."


def section(found: Mapping, figure_svg) -> Section:
    """The report's meta-game section: per player count the answer, the chart and the styles' table."""
    blocks: list = [
        Block(
            "text",
            "Appendix B's table gives win rates in one fixed mix of styles. If players learn which style "
            "pays and switch, they settle where no style pays more than the one it replaces: a symmetric "
            "equilibrium of the meta-game whose moves are the styles. Every mix of styles at the table was "
            "played on the same deals; the intervals resample those deals.",
        )
    ]
    for n, a in sorted(found.items()):
        blocks.append(Block("heading", f"{n} players"))
        blocks.append(Block("text", metagame.sentence(a)))
        if a.psro:
            blocks.append(Block("text", metagame.psro_sentence(a)))
        blocks.append(Block("figure", figure_svg(charts.metagame_figure(a)), caption=_caption(a)))
        blocks.append(Block("table", _table_html(metagame.style_table(a))))
    return Section("metagame", "Styles when players adapt (the meta-game)", blocks)


def _caption(a: metagame.Analysis) -> str:
    return (
        f"Left: the win share of one seat of the row's {a.label} with every other seat the column's "
        f"({metagame.deal_words(a)} a profile, every seat rotation; the widest 95 % half-width of a table entry is "
        f"{100 * a.half_width:.1f} points). Right: each {a.label}'s share of the seats in each equilibrium "
        "found, with its 95 % bootstrap interval."
    )


def _table_html(table: pd.DataFrame) -> str:
    from gamelab.report.format import table_html

    return table_html(table)
