"""One number per quantity (issue 37): every figure a designer reads in a report is the figure of
the same quantity beside it (the tables, the charts' data, the sentences), checked on the saved page
by :mod:`gamelab.report.onenumber`; the checker fails on a planted disagreement."""

import dataclasses
import json
import re
from html import escape, unescape

import pytest

from gamelab.core import registry
from gamelab.report import format as fmt
from gamelab.report.compute import compute_report
from gamelab.report.decisions import Tools
from gamelab.report.names import win_name
from gamelab.report.onenumber import assert_one_number, check_page, check_text, parse_figure, read_page
from gamelab.report.render import render_report
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
    m = re.search(r'<div class="chart-data" hidden data-values="([^"]*)">', html)
    data = json.loads(unescape(m.group(1)))
    name = next(k for k in data if k.startswith("win_rate[") and not k.endswith((".low", ".high")))
    data[name] += 0.03
    charted = html.replace(m.group(1), escape(json.dumps(data), quote=True), 1)
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


def test_gamelab_report_prints_the_pages_own_figures(tmp_path, monkeypatch, capsys):
    """The command's answer (the first screen's verdicts) quotes the page it wrote, figure for figure."""
    from gamelab.cli.commands import main
    from gamelab.report.onenumber import first_screen

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    out = tmp_path / "toy.html"
    argv = ["report", "toy", "--games", "400", "--seed", "3", "--out", str(out), "--no-levers", "--no-claims"]
    assert main([*argv, "--no-cross-model", "--no-skill", "--no-metagame"]) == 0
    answer = capsys.readouterr().out
    html = out.read_text()
    lines = first_screen(html)
    assert lines and all(line in answer for line in lines)
    assert re.search(r"\d+\.\d %", answer) and check_text(answer, html) == []
    assert check_text(answer.replace(lines[0], _bumped(lines[0])), html)  # a figure the page does not show


def _bumped(line: str) -> str:
    """``line`` with its first rate one point higher."""
    return re.sub(r"(\d+)\.(\d) %", lambda m: f"{int(m.group(1)) + 1}.{m.group(2)} %", line, count=1)


def _game_report(game: str, counts, tmp_path, *, params=None, tools=None, n_games=1000):
    g = registry.get(game)
    return compute_report(
        g,
        params=params,
        n_games=n_games,
        seed=1,
        player_counts=counts,
        tools=tools,
        run=RunConfig(store=ChunkStore(tmp_path / "cache")),
    )


@pytest.mark.parametrize("game, counts", [("strand", (4, 6)), ("sbr", (2, 4))])
def test_the_default_reports_show_one_number_per_quantity(game, counts, tmp_path):
    """Both games' reports (few games, levers and sequential verdicts, no skill phases): one number
    per quantity over the tables, the sentences, the charts and the levers' "now"."""
    data = _game_report(game, counts, tmp_path, tools=Tools(levers=True, decide=True, games=200))
    html = render_report(data)
    page = assert_one_number(html)
    assert {f.section for f in page.figures} >= {"summary", "win-rates", "metrics"}
    for f in data.findings:
        assert win_name(f.players, f.by, f.group) in page.charts
    from words import notation

    shown = unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style|svg)\b.*?</\1>", "", html, flags=re.S)))
    assert notation(shown) == [], notation(shown)  # the claims' ">= 8" and "<= 7" (issue 37) read in words


def test_an_interval_whose_ends_agree_reads_as_one_figure():
    """The meta-game's table once read "100 %-100 %" and "0.0-0.0": an interval's ends that agree as
    shown are one figure; others keep both ends."""
    from gamelab.models.metagame import ends

    assert ends("100 %", "100 %") == "100 %" and ends("0.0", "0.0") == "0.0"
    assert ends("12 %", "31 %") == "12–31 %" and ends("9.3", "12.0") == "9.3–12.0"


def test_a_report_with_changed_rules_shows_one_number_per_quantity(tmp_path):
    """SBR with its spin cap changed: the rulebook sentences to update are the rulebook's figures (a
    part with its own sample, saying why); every figure of the run is one number per quantity."""
    from gamelab.rulebook import coverage

    if not coverage.seed_path("sbr").exists():  # the sentences to update are read from the rulebook's text
        pytest.skip(f"rulebook text {coverage.seed_path('sbr')} is not beside the checkout")
    g = registry.get("sbr")
    params = dataclasses.replace(g.knobs(), spin_cap=2)
    data = _game_report("sbr", (2,), tmp_path, params=params, tools=Tools(decide=True))
    page = assert_one_number(render_report(data))
    assert "Changed from the rulebook: spin cap = 2" in fmt.untagged(render_report(data))
    assert data.sentences is not None and len(data.sentences.table) and page.exempt["sentences"]


@pytest.mark.slow(reason="a whole report with its skill trace and sequential tests: a few minutes a game")
@pytest.mark.parametrize("game, counts", [("strand", (4,)), ("sbr", (2,))])
def test_the_sentence_across_skill_quotes_the_rates_its_table_and_chart_show(game, counts, tmp_path):
    """The first screen's sentence across skill (the issue's "44.1 % with the default model" beside a
    table of 41.9 %): its default-model rate is the win table's and the trace chart's, its top-rung
    rate the trace chart's; the sequential tests are cited by their games.  A few minutes a game."""
    tools = Tools(decide=True, cross_model=True, model_games=100, trace_games=60)
    data = _game_report(game, counts, tmp_path, tools=tools, n_games=2000)
    html = render_report(data)
    page = assert_one_number(html)
    for f in data.findings:
        name = win_name(f.players, f.by, f.group)
        assert {x.section for x in page.by_name()[name]} >= {"summary", "win-rates"}
        assert len(page.charts[name]) >= 2  # the win-rate chart and the trace chart plot the same point
    lines = " ".join(data.decisions.cross_model_lines)
    assert re.search(r"sequential tests of their own after [\d,]+ games", fmt.untagged(lines)), lines
    # the planted bug: the sentence quoting the default-model test's own estimate instead
    f = data.findings[0]
    wrong = fmt.q_percent(win_name(f.players, f.by, f.group), f.rate + 0.022)
    planted = html.replace(
        fmt.tagged_html(fmt.q_percent(win_name(f.players, f.by, f.group), f.rate)), fmt.tagged_html(wrong), 1
    )
    assert planted != html and check_page(planted)


def test_the_sentence_across_skill_cites_the_tests_by_their_games_not_their_estimates():
    """The issue's sentence: the default-model test's own estimate (44.1 %) and the top rung's (23.0 %)
    are other samples than the table and the chart; the sentence quotes the trace chart's points (its
    default point is the report's table's) and cites the tests by their games (896 + 4,736)."""
    from gamelab.models.trace import Trace
    from gamelab.report.decision_words import across_words

    rows = [dict(level="random", agent="random", budget=None, value=None, low=None, high=None, games=60)]
    rows += [
        dict(level=name, agent=name, budget=None, value=v, low=v - 0.02, high=v + 0.02, games=g)
        for name, v, g in (("default", 0.419, 20_000), ("best@4", 0.286, 300))
    ]
    t = Trace(registry.get("strand"), 4, "win_rate[style=heavy]", 0.25, rows, [], [])
    tests = (
        dict(decision="yes", estimate=0.441, low=0.42, high=0.46, games=896, sign=1),
        dict(decision="no", estimate=0.230, low=0.20, high=0.26, games=4_736, sign=1),
        None,
    )
    said = across_words(registry.get("strand"), "the heavy style's edge", t, "vanishes", tests)
    words = fmt.untagged(said)
    assert "41.9 % with the default model in this report's 20,000 games" in words, words
    assert "28.6 % with search, 4 play-outs per option" in words and "in the trace's 300 games" in words, words
    assert "44.1" not in words and "23.0" not in words and "after 5,632 games" in words, words
    # tagged as the report's win rate and the trace's top point: the checker compares them with the table and chart
    assert f"{fmt.Q_OPEN}{win_name(4, 'style', 'heavy')}{fmt.Q_SEP}" in said


def test_the_checker_runs_from_the_command_line(toy_report, tmp_path, capsys):
    from gamelab.report.onenumber import main

    good, bad = tmp_path / "good.html", tmp_path / "bad.html"
    good.write_text(render_report(toy_report))
    bad.write_text(render_report(_moved(toy_report)))
    assert main([str(good)]) == 0 and "0 problems" in capsys.readouterr().out
    assert main([str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "two values of one quantity" in out and f"{bad}: " in out
    assert main([str(tmp_path / "none.html")]) == 2


def test_a_model_warning_shows_on_the_first_screen_and_keeps_one_number(toy_report):
    """Issue 38's guard: a warning about the player model reads first, in its own part (its figures
    are a check of the model on the run), and the page still passes the checker."""
    words = "2 players: Warning about the player model, not the rules: seat 1 wins 61.0 % against 50.0 %."
    page = render_report(dataclasses.replace(toy_report, model_warnings=((2, words),)))
    assert "Warning about the player model, not the rules" in unescape(re.sub(r"<[^>]+>", "", page))
    assert_one_number(page)


def _cells(html_text: str, quantity: str) -> list[str]:
    """The cells of the table row whose text names ``quantity`` (tags removed, as shown)."""
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html_text, re.S):
        cells = [unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if quantity in cells:
            return cells
    raise AssertionError(f"no row names {quantity!r}")


@pytest.mark.parametrize("game", ["strand", "pig"])
def test_a_rate_reads_in_percent_in_every_identity_table(game, tmp_path, monkeypatch, capsys):
    """Issue 37, one format per quantity: a rate (an identity row declared ``percent``) reads in % in the
    report's identity table, the notebook panel's and the command line's, every figure of its row (the
    panel once showed 2.65 % where the identity table said 0.0265); a row of counts has no %."""
    from gamelab.cli.commands import main
    from gamelab.rulebook.identities import identity_table
    from gamelab.sim import runner
    from gamelab.ui.balance_panel import BalancePanel

    g = registry.get(game)
    n = g.report.players[0] if g.report.players else g.players[0]
    frame = runner.simulate(g, n_games=60, seed=1, n_players=n, progress=False)
    table = identity_table(g, g.rules(), frame=frame)
    rates = table[table["percent"]]
    assert len(rates) and len(table[~table["percent"]])  # rates beside counts
    report_html = fmt.table_html(fmt.identity_frame(table))
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    panel = BalancePanel(game, n_players=n, quick_games=60, store=ChunkStore(tmp_path))
    panel.update()
    panel_html = panel.snapshot_html()
    assert main(["identities", game]) == 0
    cli = capsys.readouterr().out
    for ids, page in ((table, report_html), (panel.tables["identities"], panel_html)):
        for _, row in ids.iterrows():
            shown = [v for v in (row["rulebook"], row["exact"], row["simulated"]) if v is not None and v == v]
            cells = _cells(page, row["quantity"])
            figures = [c for c in cells if re.fullmatch(r"[−+-]?[\d,.]+(?: %)?(?:[–][\d.,]+ %)?", c)]
            if row["n"] == row["n"] and row["n"] is not None:  # the sample: a count of games, never a rate
                figures.remove(f"{int(row['n']):,}")
            assert len(figures) >= len(shown), (row["quantity"], cells)
            assert all(c.endswith(" %") == bool(row["percent"]) for c in figures), (row["quantity"], cells)
    for _, row in rates.iterrows():
        if row["exact"] is not None and row["exact"] == row["exact"]:
            line = next(x for x in cli.splitlines() if row["quantity"] in x)
            assert fmt.rate(row["exact"]) in line, (line, fmt.rate(row["exact"]))
    assert check_page(report_html) == []  # the rates' figures are tagged at their shown precision


def test_a_measures_table_shows_its_rates_in_percent_in_the_cells():
    """The panel's measures table: a rate row's figures in % in each cell (``2.6 %``, as the report's Design
    metrics table), not ``2.64`` under a label ending ``(%)``; other rows as numbers."""
    import pandas as pd

    table = pd.DataFrame(
        {
            "measure": ["rolls that bust (%)", "turns per game"],
            "value": [2.65, 12.5],
            "low": [2.0, 11.9],
            "high": [3.3, 13.1],
            "deals": [40, 40],
        }
    )
    shown = fmt.display_frame(fmt.measure_frame(table)).map(fmt.untagged)
    assert list(shown.iloc[0]) == ["rolls that bust", "2.6 %", "2.0 %", "3.3 %", "40"]
    assert list(shown.iloc[1]) == ["turns per game", "12.5", "11.9", "13.1", "40"]


def test_a_game_count_that_is_not_the_one_asked_for_says_why(tmp_path):
    """Issue 37: a report once read "20,001, 20,000, 20,000, 20,004" games with no word why. Each deal is
    played once in every seat rotation, so a count is the games asked for rounded up to whole deals: the
    provenance line says so once, naming the counts that differ; when every count is the one asked for,
    nothing is added."""
    from gamelab.report.render import games_words

    data = compute_report(
        registry.get("toy"),
        n_games=100,
        seed=2,
        player_counts=(2, 3),
        lineups={2: ["strong", "weak"], 3: ["strong", "weak", "weak"]},
        tools=Tools(levers=False, decide=False),
        claims=False,
        run=RunConfig(store=ChunkStore(tmp_path)),
    )
    played = {n: data.runs[n].games for n in data.counts}
    assert played == {2: 100, 3: 102}  # 34 deals x 3 seatings: the runner's whole deals (runner.plan)
    words = games_words(data)
    assert words.startswith("100, 102 (seed 2; 100 asked for") and "102 at 3 players" in words, words
    assert "at 2 players" not in words
    assert "rounded up" in fmt.untagged(render_report(data))
    even = dataclasses.replace(data, counts=(2,))
    assert games_words(even) == "100 (seed 2)"
