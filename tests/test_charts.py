"""Drawing in one place: only ``gamelab/report/charts.py`` imports matplotlib,
the games describe their charts as plain data, and drawing leaves the
backend (a notebook's) alone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from gamelab.core import charts as spec
from gamelab.report import charts

PACKAGE = Path(__file__).resolve().parents[1] / "gamelab"
IMPORT = re.compile(r"^\s*(import matplotlib|from matplotlib)\b", re.M)


def test_matplotlib_is_imported_by_the_charts_module_only():
    importers = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if IMPORT.search(p.read_text()))
    assert importers == ["report/charts.py"]


DRAW_IN_A_NOTEBOOK = """
import matplotlib
matplotlib.use("pdf")  # a backend no library code would pick, standing in for a notebook's
import sys
from gamelab.core import registry
from gamelab.core.params import specs
from gamelab.report import charts, format as fmt
from gamelab.sim import runner
from gamelab.strand import panels as strand_panels
from gamelab.strand.rules import StrandParams
from gamelab import stats

frame = runner.simulate(registry.get("pig"), n_games=200, seed=3, n_players=2)
report = charts.win_rate_chart([fmt.WinPanel("2 players", stats.win_table(frame, "seat"), "seat", 0.5)])
assert charts.svg(report).startswith("<svg")
panel = charts.drawn(registry.get("pig").panels.figures(frame, None)[0])
trust = charts.draw(strand_panels.trust_figure(StrandParams(), strand_panels.TrustControls()))
assert panel._repr_png_().startswith(b"\\x89PNG") and trust._repr_png_().startswith(b"\\x89PNG")
print(matplotlib.get_backend(), "matplotlib.pyplot" in sys.modules)
"""


def test_drawing_leaves_the_backend_alone():
    """A report chart and a game's panel figure drawn in a process whose
    backend is set (as a notebook's is): the backend is the same after, and
    pyplot, whose state a notebook owns, was never imported."""
    out = subprocess.run([sys.executable, "-c", DRAW_IN_A_NOTEBOOK], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["pdf", "False"], out.stderr


def test_a_described_panel_draws_with_its_words():
    """Titles, axis labels, reference lines, stacked bars and the legend of a
    description reach the figure."""
    bars = spec.Bars(["1", "2"], [spec.Series(values=[1, 2], label="a"), spec.Series(values=[3, 4], label="b")])
    lines = spec.Lines(np.arange(3), [spec.Series(values=[0, 1, 2], label="cargo 1")])
    described = spec.Panel(
        [
            spec.Plot(bars, title="stacked", xlabel="seat", ylabel="points", legend_pt=8),
            spec.Plot(
                lines, title="lines", title_pt=10, references=[spec.Reference(y=1, label="stay (S)")], legend_pt=9
            ),
            spec.Plot(spec.Histogram([1, 2, 2, 3], [0.5, 1.5, 2.5, 3.5]), title="length", ylabel="games"),
        ],
        width=10,
        height=3,
    )
    fig = charts.draw(described)
    a, b, c = fig.axes
    assert (a.get_title(), a.get_xlabel(), a.get_ylabel()) == ("stacked", "seat", "points")
    assert [p.get_y() for p in a.patches] == [0, 0, 1, 2]  # the second series on top of the first
    assert [t.get_text() for t in a.get_legend().get_texts()] == ["a", "b"]
    assert b.title.get_fontsize() == 10
    assert [t.get_text() for t in b.get_legend().get_texts()] == ["cargo 1", "stay (S)"]
    assert c.get_legend() is None and [p.get_height() for p in c.patches] == [1, 2, 1]
