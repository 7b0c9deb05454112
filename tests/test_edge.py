"""Where the edge comes from, and a typical game behind it (issue 40): the headline group's
points gap split by each game's declared sources and phases adds up to the gap measured
from the scores; the first screen says it in one sentence with its chart and links a viewer
page of a typical game; a planted wrong share is caught by the one-number checker."""

import dataclasses
import re
from html import unescape

import numpy as np
import pandas as pd
import pytest

from gamelab.core import registry
from gamelab.core.contract import PointPart
from gamelab.report.build import build_report
from gamelab.report.compute import compute_report
from gamelab.report.onenumber import check_page, read_page
from gamelab.report.render import render_report
from gamelab.sim.run import RunConfig
from gamelab.sim.store import ChunkStore
from gamelab.stats.edge import check_parts, decompose

CASES = [("sbr", 4), ("strand", 4)]  # the default reports' headline groups: a seat, a style


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def report(request, tmp_path_factory):
    game, players = request.param
    cache = tmp_path_factory.mktemp("cache")
    return compute_report(
        registry.get(game),
        n_games=600,
        seed=3,
        player_counts=(players,),
        claims=False,
        run=RunConfig(store=ChunkStore(cache)),
    )


def measured_gap(frame: pd.DataFrame, by: str, group: str) -> tuple[float, np.ndarray]:
    """The group's mean score minus the other seats' mean score, game by game, averaged per deal
    (computed here from the score column alone, not through the parts)."""
    rows = []
    for (deal, _game), g in frame.groupby(["deal", "game"]):
        inside = g[by].astype(str) == group
        if inside.any() and (~inside).any():
            rows.append((deal, g.loc[inside, "score"].mean() - g.loc[~inside, "score"].mean()))
    per_deal = pd.DataFrame(rows, columns=["deal", "gap"]).groupby("deal")["gap"].mean().to_numpy()
    return float(per_deal.mean()), per_deal


def test_the_sources_and_the_phases_add_up_to_the_measured_gap(report):
    e = report.edge
    assert e is not None and e.players in report.counts
    finding = next(f for f in report.findings if f.by == e.by and f.players == e.players)
    assert e.group == str(finding.group if finding.rate >= finding.fair else finding.weakest)  # the top group
    gap, per_deal = measured_gap(report.runs[e.players].frame, e.by, e.group)
    half = 1.96 * per_deal.std(ddof=1) / np.sqrt(len(per_deal))
    for table in (e.sources, e.phases):
        parts = table.iloc[:-1]
        assert table.iloc[-1].part == "score" and table.iloc[-1].points == pytest.approx(gap, abs=1e-9)
        assert abs(parts.points.sum() - gap) <= half  # within the gap's interval (in fact equal)
        assert parts.points.sum() == pytest.approx(gap, abs=1e-9)
        assert parts.share.sum() == pytest.approx(1.0, abs=1e-9)
        assert (parts.low <= parts.points).all() and (parts.points <= parts.high).all()
    assert len(e.phases) > 3 and len(e.sources) == 4  # three sources and the gap; a row per phase


def test_parts_that_do_not_add_up_are_refused(report):
    e = report.edge
    frame = report.runs[e.players].frame
    parts = report.game.report.edge.sources(report.params, e.players)
    check_parts(frame, parts)  # the declared parts add up
    with pytest.raises(ValueError, match="add up to"):
        decompose(frame, e.by, e.group, parts[1:])  # a source left out
    with pytest.raises(ValueError, match="add up to"):
        decompose(frame, e.by, e.group, (*parts, PointPart("twice", {"score": 1})))


def test_the_first_screen_says_it_charts_it_and_links_a_typical_game(report, tmp_path):
    page_path = tmp_path / "report.html"
    html = render_report(report)
    html = html.replace(f'href="{report.game.name}-typical.html"', 'href="report-typical.html"')
    page_path.write_text(html, encoding="utf-8")
    (tmp_path / "report-typical.html").write_text(report.typical.page, encoding="utf-8")
    summary = html[
        html.index('data-section="summary"') : html.index("</section>", html.index('data-section="summary"'))
    ]
    sentence = re.search(r'<p class="edge">(.*?)</p>', summary, re.S)
    assert sentence is not None
    words = unescape(re.sub(r"<[^>]+>", "", sentence.group(1)))
    assert words.count(". ") == 0 and words.endswith(".")  # one sentence
    assert "edge comes from" in words and "%" in words
    e = report.edge
    assert f"edge_points[players={e.players},{e.by}={e.group}]" in unescape(summary)  # the chart's data
    assert "<svg" in summary[sentence.end() :]
    link = re.search(r'<a class="typical" href="([^"]+)"', summary)
    assert link is not None
    linked = tmp_path / link.group(1)
    assert linked.is_file()
    viewer = linked.read_text(encoding="utf-8")
    t = report.typical
    assert t.label() in unescape(viewer) and report.game.title in viewer and "<svg" in viewer
    assert t.label() in unescape(summary)
    assert not check_page(page_path)


def test_a_planted_wrong_share_is_caught(report):
    e = report.edge
    assert not check_page(render_report(report))
    sources = e.sources.copy()
    top = sources.iloc[:-1].share.idxmax()
    sources.loc[top, "share"] *= 1.5  # the sentence's share, not the chart's
    planted = dataclasses.replace(report, edge=dataclasses.replace(e, sources=sources))
    problems = check_page(render_report(planted))
    assert any("edge_share" in p for p in problems), problems


def test_build_report_writes_the_typical_game_beside_the_page(tmp_path):
    out = build_report(
        "sbr",
        n_games=200,
        seed=2,
        player_counts=(3,),
        claims=False,
        out=tmp_path / "mine.html",
        run=RunConfig(store=ChunkStore(tmp_path / "cache")),
    )
    html = out.read_text(encoding="utf-8")
    assert 'href="mine-typical.html"' in html
    assert (tmp_path / "mine-typical.html").is_file()
    page = read_page(html)
    assert any(f.name.startswith("edge_share[") for f in page.figures)
    (tmp_path / "mine-typical.html").unlink()
    again = build_report(  # the memo serves the page only with its typical game's
        "sbr",
        n_games=200,
        seed=2,
        player_counts=(3,),
        claims=False,
        out=tmp_path / "mine.html",
        run=RunConfig(store=ChunkStore(tmp_path / "cache")),
    )
    assert again == out and (tmp_path / "mine-typical.html").is_file()


def test_the_levers_link_the_typical_deal_under_the_top_lever(tmp_path):
    """With levers, the typical game's seed is played again under the top lever's change, and the
    page links it beside the report (the change's words on the page; the checker passes)."""
    from gamelab.report.decisions import Tools

    out = build_report(
        "sbr",
        n_games=200,
        seed=2,
        player_counts=(4,),
        claims=False,
        tools=Tools(levers=True, games=100),
        out=tmp_path / "levers.html",
        run=RunConfig(store=ChunkStore(tmp_path / "cache")),
    )
    html = out.read_text(encoding="utf-8")
    assert 'href="levers-lever.html"' in html and 'href="levers-typical.html"' in html
    lever_page = (tmp_path / "levers-lever.html").read_text(encoding="utf-8")
    typical_page = (tmp_path / "levers-typical.html").read_text(encoding="utf-8")
    why = unescape(re.sub(r"<[^>]+>", "", typical_page)).split("Why this game: ", 1)[1]
    which = re.match(r"(seed \d+|game \d+ of the report's run)", why).group(1)
    text = unescape(re.sub(r"<[^>]+>", "", lever_page))
    assert f"{which} again, the same deal under" in text
    assert lever_page != typical_page
    assert not check_page(out)


def test_the_typical_game_is_the_reports_own_where_a_replay_gives_its_scores(report):
    """SBR's greedy riders draw no random numbers: the typical game is one of the report's own games,
    replayed from the run's deal to the run's scores, its margin about the median of the group's wins;
    STRAND's mixed styles are drawn apart from the engine's chance, so its replay of a run's deal does not
    give the run's scores and the typical game is a ``gamelab show`` seed."""
    from gamelab.report.typical import margins
    from gamelab.sim.story import play_story, run_deal

    t, e = report.typical, report.edge
    frame = report.runs[e.players].frame
    won = margins(frame, e.by, e.group)
    if report.game.name == "sbr":
        assert t.deal is not None
        seed, chunk, n_deals, deal = t.deal
        rows = frame[frame["deal"] == chunk * 10**7 + deal].sort_values("seat")
        story = play_story(
            report.game,
            params=report.params,
            lineup=list(t.lineup),
            chance=run_deal(report.game, report.params, len(t.lineup), seed, chunk, n_deals, deal),
        )
        assert [float(x) for x in story.result["score"]] == rows["score"].astype(float).tolist()
        assert abs(t.margin - t.median) <= (won - t.median).abs().sort_values().iloc[4] + 1e-9
    else:
        assert t.deal is None and t.seed >= 0 and f"gamelab show {report.game.name} --seed {t.seed}" in t.command
        story = play_story(report.game, seed=t.seed, params=report.params, lineup=list(t.lineup))
        score = story.result["score"]
        assert score[t.seat - 1] - max(s for i, s in enumerate(score) if i != t.seat - 1) == t.margin
    assert t.median == float(np.median(won.to_numpy())) and t.won == len(won)
