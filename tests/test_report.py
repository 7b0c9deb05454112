"""Reports, looked at as a user would: built, opened in headless Chromium."""
from pathlib import Path

from browser import open_page

from gamelab.report import build_report
from gamelab.store import ChunkStore
from gamelab.testing import ToyParams

SECTIONS = ["summary", "parameters", "reproduce", "win-rates", "metrics", "scores", "identities", "diff",
            "claims", "assumptions"]
REPORTS = Path(__file__).resolve().parent.parent / "reports"


def test_toy_report_in_chromium(tmp_path):
    out = build_report("toy", params=ToyParams(bonus_scale=2.0), baseline=ToyParams(), n_games=1000, seed=1,
                       store=ChunkStore(tmp_path / "cache"), out=tmp_path / "toy.html",
                       lineups={2: ["strong", "weak"], 3: ["strong", "weak", "weak"]},
                       label="<script>alert('label')</script>")
    html = out.read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(&#39;label&#39;)&lt;/script&gt;" in html
    assert "<svg" in html
    for ref in ('src="http', "href=\"http", "url(http", "@import"):
        assert ref not in html
    sections, errors, outside, text, scripts = open_page(out, screenshot=REPORTS / "toy-report.png")
    assert sections == SECTIONS
    assert errors == [] and outside == [] and scripts == 0
    assert "<script>alert('label')</script>" in text  # shown as text
    assert "Changed from the rulebook: bonus_scale = 2.0" in text
    assert "2 players, by agent: chi-square" in text and "they do not win equally" in text
    assert (REPORTS / "toy-report.png").stat().st_size > 10_000


def test_strand_report_with_a_hostile_playtest_record(tmp_path):
    import json

    from gamelab import cli

    record = json.loads((REPORTS.parent / "data/playtests/strand_example.json").read_text())
    evil = "<script>alert('x')</script>"
    old = record["players"][0]["name"]
    text = json.dumps(record, ensure_ascii=False).replace(json.dumps(old, ensure_ascii=False)[1:-1], evil.replace("'", "\\u0027"))
    path = tmp_path / "evil.json"
    path.write_text(text)
    params = tmp_path / "params.yaml"
    params.write_text("sum_cap: 8\n")
    out = tmp_path / "strand.html"
    assert cli.main(["report", "strand", "--params", str(params), "--games", "400", "--no-claims",
                     "--playtest", str(path), "--out", str(out)]) == 0
    html = out.read_text()
    assert "<script>" not in html
    sections, errors, outside, page_text, scripts = open_page(out)
    assert "playtests" in sections and errors == [] and outside == [] and scripts == 0
    assert evil in page_text                              # the name is shown as text
    assert "Changed from the rulebook: sum_cap = 8" in page_text
    assert "3 players: win rate by style" in page_text and "6 players: win rate by role" in page_text
