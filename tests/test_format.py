"""The one formatting layer: words, percentages, no nan, charts a designer reads."""

import numpy as np
import pandas as pd
import pytest

from gamelab.core.params import specs
from gamelab.report import charts
from gamelab.report import format as fmt
from gamelab.toy import ToyParams

RAW = ("win_rate", "win_low", "score_mean", "nan", "NaN")


def _win_table(rates, by="seat", n=1000):
    rates = np.asarray(rates)
    half = 1.96 * np.sqrt(rates * (1 - rates) / n)
    return pd.DataFrame(
        {
            by: range(1, len(rates) + 1),
            "n": n,
            "win_rate": rates,
            "win_low": rates - half,
            "win_high": rates + half,
            "score_mean": 40 + rates,
        }
    )


@pytest.mark.parametrize(
    "value, kw, text",
    [
        (7711.0, {}, "7,711"),
        (0.416, {"percent": True}, "41.6 %"),
        (float("nan"), {}, ""),
        (None, {}, ""),
        (3.14159, {}, "3.14"),
        (43.21, {}, "43.2"),
        (0.012345, {}, "0.0123"),
        (-0.08, {"signed": True}, "−0.0800"),
        (0.0123, {"percent": True, "signed": True}, "+1.2 %"),
        (True, {}, "yes"),
    ],
)
def test_numbers_read_as_a_designer_reads_them(value, kw, text):
    assert fmt.number(value, **kw) == text


def test_tables_have_words_percent_no_nan_and_no_index():
    t = _win_table([0.417, 0.25, 0.2, 0.133]).set_index("seat")
    t.loc[3, "win_low"] = np.nan
    shown = fmt.display_frame(t, labels={"n": "seats played"})
    assert list(shown.columns) == ["seat", "seats played", "win rate", "low", "high", "mean score"]
    assert shown.iloc[0]["win rate"] == "41.7 %" and shown.iloc[2]["low"] == ""
    html = fmt.table_html(t)
    assert "<th" in html and not any(k in html for k in RAW)
    assert html.count('<td class="num">') == 4 * 6 and "<td>" not in html  # every column here is numeric
    sty = fmt.styler(t).to_html()
    assert "41.7 %" in sty and not any(f">{k}<" in sty for k in RAW)
    assert 'class="row_heading' not in sty  # no index column


def test_keys_in_cells_become_words_and_markup_is_escaped():
    df = pd.DataFrame({"row": ["seal_triggers_per_game", "<b>x</b>"], "value": [1.0, 2.5]})
    html = fmt.table_html(df)
    assert "seal triggers per game" in html and "&lt;b&gt;x&lt;/b&gt;" in html and "<b>" not in html


def test_labels_and_tooltips_come_from_the_declarations():
    die = {s.name: s for s in specs(ToyParams)}["bonus_scale"]
    assert fmt.param_label(die) == "bonus scale"
    assert fmt.param_tooltip(die).startswith("multiplies every agent's bonus.")
    assert "Rulebook value: 1.0" in fmt.param_tooltip(die)
    assert fmt.choice_label("first_p") == "the first P roles" and fmt.choice_label("no_seal") == "no seal"


def test_metric_labels_come_from_the_metric_declarations():
    from gamelab.core import registry

    toy = registry.get("toy")
    assert fmt.column_label("first_seat_advantage", toy) == "first-seat advantage"
    assert fmt.column_label("seat_spread", toy) == "seat spread"
    shown = fmt.display_frame(pd.DataFrame({"seat_spread": [0.05]}), game=toy)
    assert shown.iloc[0, 0] == "5.0 %"


def test_win_rate_chart_shares_one_axis_with_the_fair_line_and_seat_1_on_top():
    small = fmt.WinPanel("role", _win_table([0.27, 0.23], by="role"), "role", 0.25)
    big = fmt.WinPanel("style", _win_table([0.45, 0.20, 0.10]), "seat", 0.25)
    fig = charts.win_rate_chart([small, big], columns=2)
    a, b = fig.axes
    assert a.get_xlim() == b.get_xlim() == (0, 50)  # a 4-point gap looks like a 4-point gap
    bottom, top = b.get_ylim()
    assert top < bottom  # first row drawn at the top
    assert [t.get_text() for t in b.get_yticklabels()] == ["seat 1", "seat 2", "seat 3"]
    fair = [line for line in b.get_lines() if list(line.get_xdata()) == [25.0, 25.0]]
    assert fair and fair[0].get_linestyle() == "--"


def test_score_distributions_have_a_legend_on_every_panel():
    rng = np.random.default_rng(0)
    frames = {
        n: pd.DataFrame({"seat": np.tile(np.arange(1, n + 1), 50), "score": rng.integers(0, 30, 50 * n)})
        for n in (3, 4, 5)
    }
    fig = charts.score_multiples(frames, "seat")
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert len(shown) == 3 and all(ax.get_legend() is not None for ax in shown)
    assert len({ax.get_xlim() for ax in shown}) == 1
    assert [t.get_text() for t in shown[1].get_legend().get_texts()] == ["seat 1", "seat 2", "seat 3", "seat 4"]
