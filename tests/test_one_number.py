"""One number per quantity (issue 37): every figure a designer reads in a report is the figure of
the same quantity beside it (the tables, the charts' data, the sentences), checked on the saved page
by :mod:`gamelab.report.onenumber`; the checker fails on a planted disagreement."""

import dataclasses
import json
import re

import pytest

from gamelab.core import registry
from gamelab.report import format as fmt
from gamelab.report.compute import compute_report
from gamelab.report.decisions import Tools
from gamelab.report.onenumber import assert_one_number, check_page, check_text, parse_figure, read_page
from gamelab.report.render import render_report, win_name
from gamelab.sim.run import RunConfig
from gamelab.sim.store import ChunkStore


@pytest.fixture(scope="module")
def toy_report(tmp_path_factory):
    """A small toy report with levers and sequential verdicts (a few seconds)."""
    cache = tmp_path_factory.mktemp("cache")
    return compute_report(
        registry.get("toy"),
        n_games=800,
        seed=5,
        player_counts=(2, 3),
        lineups={2: ["strong", "weak"], 3: ["strong", "weak", "weak"]},
        tools=Tools(levers=True, decide=True, games=300),
        run=RunConfig(store=ChunkStore(cache)),
    )


def test_parse_figure_reads_the_shown_precision():
    assert parse_figure("41.9 %", 100) == pytest.approx((0.419, 0.0005))
    assert parse_figure("−16.7 points", 100) == pytest.approx((-0.167, 0.0005))
    assert parse_figure("7,711", 1) == pytest.approx((7711, 0.5))
    assert parse_figure("1.2e-05", 1) == pytest.approx((1.2e-05, 0.5e-06))
    assert parse_figure("—", 1) is None


def test_a_report_shows_one_number_per_quantity(toy_report):
    """Every figure of the toy report agrees with the table and the chart data of its quantity; the
    sentences' rates are the tables' (the same name, the same value), and each win rate the first
    screen states is also in the win-rate table and plotted in the chart."""
    page = assert_one_number(render_report(toy_report))
    named = page.by_name()
    for f in toy_report.findings:
        name = win_name(f.players, f.by, f.group)
        sections = {x.section for x in named[name]}
        assert {"summary", "win-rates"} <= sections, (name, sections)
        assert page.charts[name] and page.charts[name][0] == pytest.approx(f.rate)
    levers = toy_report.decisions.levers
    now = f"metric[players={levers.framing.players},name={levers.metric}]"
    assert {x.section for x in named[now]} == {"summary", "metrics"}  # the levers' "now" is the Design figure
    assert now in page.charts  # and the tornado chart's
    assert len(page.figures) > 100 and not page.untagged


def _moved(report, delta=0.021):
    """The report with its first finding's rate taken from another sample (the issue's sentence)."""
    f = report.findings[0]
    return dataclasses.replace(report, findings=(dataclasses.replace(f, rate=f.rate + delta), *report.findings[1:]))


def test_the_checker_catches_a_sentence_that_quotes_another_sample(toy_report):
    f = toy_report.findings[0]
    problems = check_page(render_report(_moved(toy_report)))
    name = win_name(f.players, f.by, f.group)
    assert any(p.startswith(f"{name}: ") and "two values of one quantity" in p for p in problems), problems
    assert any(p.startswith(f"{name}: ") and "the chart plots" in p for p in problems), problems
    # a move smaller than the shown precision is no disagreement: the checker reads the shown digits
    assert check_page(render_report(_moved(toy_report, 0.00001))) == []


def test_the_checker_catches_untagged_figures_charts_and_misprinted_figures(toy_report):
    html = render_report(toy_report)
    assert check_page(html) == []
    # a rate in a sentence that names no quantity (as a sequential test's estimate once was)
    planted = html.replace("<h3>With this report", "<p>Seat 1 wins 44.1 % with the default model.</p><h3>X", 1)
    planted = planted if planted != html else html.replace("</ul>", "<li>44.1 % with the default model</li></ul>", 1)
    assert any("'44.1 %'" in p and "no quantity's figure" in p for p in check_page(planted))
    # a chart plotting another value than the table's
    m = re.search(r'<script type="application/json" class="chart-data">(.*?)</script>', html)
    data = json.loads(m.group(1))
    name = next(k for k in data if k.startswith("win_rate[") and not k.endswith((".low", ".high")))
    data[name] += 0.03
    charted = html.replace(m.group(1), json.dumps(data), 1)
    assert any(p.startswith(f"{name}: ") and "the chart plots" in p for p in check_page(charted))
    # a figure whose text is not its value
    span = re.search(r'(<span class="q" data-q="[^"]+" data-v="[^"]+" data-scale="100">)(\d+)\.(\d) %', html)
    wrong = html.replace(span.group(0), f"{span.group(1)}{int(span.group(2)) + 1}.{span.group(3)} %", 1)
    assert any("shows" in p for p in check_page(wrong))
    # a tag left in the text undrawn
    assert check_page(html.replace("</body>", fmt.q_percent("x", 0.5) + "</body>"))


def test_a_part_with_its_own_sample_says_why(toy_report):
    """The rates of the claims audit are the rulebook's and the audit's own games: their part of the
    page says so (data-own-sample), and no rate of the report's run is left untagged outside it."""
    page = read_page(render_report(toy_report))
    assert page.exempt.get("claims") and page.exempt.get("parameters")
    assert "summary" not in page.exempt and "win-rates" not in page.exempt and "metrics" not in page.exempt


def test_a_command_answer_quotes_the_page(toy_report):
    html = render_report(toy_report)
    page = read_page(html)
    f = next(x for x in page.figures if x.name.startswith("win_rate[") and x.shown.endswith("%"))
    assert check_text(f"seat 1 wins {f.shown}", page) == []
    other = f"{(f.value + 0.05) * 100:.1f} %"
    assert check_text(f"seat 1 wins {other}", page)
