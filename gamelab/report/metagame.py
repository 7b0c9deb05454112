"""The meta-game drawn: the payoff heatmap (one seat of a strategy among
the others all of one strategy) and the equilibria's shares as bars with
their bootstrap intervals (:mod:`gamelab.models.metagame` computes them);
the report's section and first-screen sentence of it."""

from __future__ import annotations

import numpy as np
import pandas as pd

from gamelab.core.labels import key_words
from gamelab.models import metagame
from gamelab.report.blocks import Block, Section
from gamelab.stats import metagame as solve


def heatmap_values(a: metagame.Analysis) -> np.ndarray:
    """(S, S): the win share of one seat of the row's strategy with every other seat the column's."""
    S, P = len(a.names), a.n_players
    index = solve.profile_index(S, P)
    out = np.empty((S, S))
    for r in range(S):
        for c in range(S):
            counts = np.zeros(S, np.int64)
            counts[c] += P - 1
            counts[r] += 1
            out[r, c] = a.payoffs[index[tuple(int(x) for x in counts)], r]
    return out


def figure(a: metagame.Analysis, *, title: str | None = None):
    """The heatmap beside the equilibria's shares (bars, 95 % intervals)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [key_words(n) for n in a.names]
    S = len(labels)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10.5, 3.9), gridspec_kw={"width_ratios": [1.15, 1]})
    h = heatmap_values(a)
    from matplotlib.colors import TwoSlopeNorm

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


def front_sentence(found: dict) -> str:
    """One sentence for the first screen: at each player count, what adapting players keep."""
    parts = []
    for n, a in sorted(found.items()):
        worth = [key_words(a.names[s]) for s in a.worth]
        parts.append(f"{n} players: {', '.join(worth) or 'none'}")
    label = next(iter(found.values())).label if found else "style"
    return f"If players adapt, the {label}s worth playing are, at " + "; ".join(parts) + "."


def section(found: dict, figure_svg) -> Section:
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
        blocks.append(Block("figure", figure_svg(figure(a)), caption=_caption(a)))
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
