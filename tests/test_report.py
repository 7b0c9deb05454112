"""Reports, looked at as a user would: built, opened in headless Chromium,
the first screen read and screenshot."""

import dataclasses
import re
from pathlib import Path

import pandas as pd
import pytest
from browser import inspect_page

from gamelab.core import contract, registry
from gamelab.report.build import build_report
from gamelab.report.compute import compute_report
from gamelab.report.data import ClaimsData, Finding, more_games_needed
from gamelab.report.format import untagged
from gamelab.report.render import render_report, sentence
from gamelab.rulebook.identities import Row, identity_table, summary
from gamelab.sim.run import RunConfig
from gamelab.sim.store import ChunkStore
from gamelab.stats.intervals import Estimate
from gamelab.toy import ToyParams

SECTIONS = [
    "summary",
    "assumptions",
    "parameters",
    "win-rates",
    "metrics",
    "scores",
    "identities",
    "diff",
    "claims",
    "reproduce",
]
REPORTS = Path(__file__).resolve().parent.parent / "reports"
RAW_KEYS = (
    "win_rate",
    "win_low",
    "win_high",
    "score_mean",
    "seal_triggers_per_game",
    "first_p",
    "inside True",
    "inside False",
    "nan",
    "NaN",
    "PosixPath",
    "gamelab/",
    "docs/",
    "data/claims",
)

ERRATA = """## TOY

Rulebook `shared/seeds/000_toy.txt`; the record `data/playtests/toy_example.json` keeps its claims.

1. **2.1: "a die has 6 faces".** The rules give 10 (see `gamelab/toy.py`). Test: `test_die_faces`.
2. Scores are **whole** numbers, listed in `data/claims/toy_rules.csv`.
"""


LAPTOP = dict(width=1366, height=900)  # the laptop: chart text at least 11 px there
MIN_CHART_PX = 11


def small_chart_text(page) -> list:
    """Every chart text under 11 px, folded charts included (:data:`browser.CHART_TEXT_JS`)."""
    return [x for x in page["folded_chart_text"] if x["px"] < MIN_CHART_PX]


def _toy_identities(params, **kw):
    return [
        Row("①", "faces of the die", 10, float(params.die)),
        Row("②", "bonus multiplier", 1.0, float(params.bonus_scale)),
        Row("③", "mean luck of a seat", 4.5, None, 0.05, sim_key="luck"),
        Row("③", "mean luck, computed", None, (params.die - 1) / 2),
    ]


def _toy_simulated(params, frames, extra):
    f = next(iter(frames.values()))
    m = float(f["luck"].mean())
    return {"luck": Estimate(m, m - 0.1, m + 0.1, len(f))}


@pytest.fixture
def toy_with_identities(monkeypatch):
    toy = registry.get("toy")
    fake = dataclasses.replace(
        toy,
        rulebook=contract.Rulebook(identities=contract.Identities(rows=_toy_identities, simulated=_toy_simulated)),
        report=dataclasses.replace(toy.report, errata_heading="TOY"),
    )
    real = registry.get
    monkeypatch.setattr(registry, "get", lambda name: fake if name == "toy" else real(name))
    return fake


def _audit():
    """A claims audit as a game's claims.measure returns it: 30 passes, 2 failures, 1 not measured."""
    rows = [
        dict(
            section="appendix A",
            table="race",
            row=f"{k} players",
            column="mean_final_square",
            value=50.0 + k,
            unit="square",
            ours=50.0 + k,
            low=49.0 + k,
            high=51.0 + k,
            n=20000.0,
            inside=True,
            note="",
        )
        for k in range(30)
    ]
    rows.append(
        dict(
            section="appendix A",
            table="race",
            row="4 players",
            column="seal_triggers_per_game",
            value=3.1,
            unit="seals",
            ours=4.6,
            low=4.5,
            high=4.7,
            n=20000.0,
            inside=False,
            note="",
        )
    )
    rows.append(
        dict(
            section="5.1",
            table="rules",
            row="cards",
            column="stated",
            value=110,
            unit="cards",
            ours=120,
            low=120,
            high=120,
            n=float("nan"),
            inside=False,
            note="exact; erratum TOY 1",
        )
    )
    rows.append(
        dict(
            section="appendix B",
            table="diagnostics",
            row="ties",
            column="4 players",
            value=3.9,
            unit="%",
            ours=float("nan"),
            low=float("nan"),
            high=float("nan"),
            n=float("nan"),
            inside=False,
            note="not measured",
        )
    )
    audit = pd.DataFrame(rows)
    return ClaimsData(audit, audit["n"].isna() & audit["ours"].notna(), None)


def test_more_games_and_sentences():
    assert more_games_needed(0.05, 0.02, 1000) == 0  # already clear
    assert more_games_needed(0.01, 0.02, 1000) == 3000  # (2/1)^2 - 1 = 3 times as many again
    assert more_games_needed(0.0, 0.02, 1000) is None
    clear = Finding(4, "seat", 1, 0.417, 0.41, 0.424, 0.25, 20000, 4, 0.18)
    assert untagged(sentence(clear)) == (
        "Seat 1 wins 41.7 % of its 4-player games against a fair 25.0 % (+16.7 points, "
        "95 % interval 41.0–42.4 %); seat 4 only 18.0 %: a real imbalance, not noise (the interval excludes the "
        "fair share)."
    )
    unsure = Finding(4, "style", "heavy", 0.26, 0.24, 0.28, 0.25, 1000)
    assert untagged(sentence(unsure)).startswith("The heavy style wins 26.0 %")
    assert untagged(sentence(unsure)).endswith("not yet clear, about 3,000 more games would settle it.")


def test_identities_are_judged_only_at_the_rules_they_were_stated_for(toy_with_identities, tmp_path):
    from gamelab.sim import runner

    frame = runner.simulate(registry.get("toy"), n_games=300, seed=0, n_players=2, progress=False)
    base = identity_table(registry.get("toy"), ToyParams(), frame=frame).set_index("quantity")["status"]
    assert list(base) == ["holds", "holds", "holds", "no rulebook figure"]
    changed = identity_table(registry.get("toy"), ToyParams(die=12), frame=frame).set_index("quantity")
    assert changed.loc["faces of the die", "status"] == "reference (rules changed)"
    assert changed.loc["faces of the die", "exact"] == 12 and changed.loc["faces of the die", "exact_at_rulebook"] == 10
    assert changed.loc["bonus multiplier", "status"] == "holds"  # the change does not touch it
    assert changed.loc["mean luck of a seat", "status"] == "reference (rules changed)"
    assert not changed["status"].str.contains("differs").any()
    assert summary(changed) == "1 holds, 2 shown as reference (rules changed); 1 row has no rulebook figure"
    wrong = identity_table(registry.get("toy"), ToyParams(die=11, bonus_scale=2.0)).set_index("quantity")
    assert wrong.loc["bonus multiplier", "status"] == "reference (rules changed)"


@pytest.mark.slow(reason="a report computed and opened in Chromium")
def test_claims_audit_errata_and_first_screen_in_chromium(toy_with_identities, tmp_path):
    data = compute_report(
        registry.get("toy"),
        params=ToyParams(bonus_scale=2.0),
        baseline=ToyParams(),
        n_games=1000,
        seed=1,
        claims=False,
        lineups={2: ["strong", "weak"], 3: ["strong", "weak", "weak"]},
        label="<script>alert('label')</script>",
        profile="cautious",
        run=RunConfig(store=ChunkStore(tmp_path / "cache")),
    )
    data = dataclasses.replace(data, with_claims=True, claims=_audit(), errata=ERRATA)
    out = tmp_path / "toy.html"
    out.write_text(render_report(data), encoding="utf-8")
    html = out.read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(&#39;label&#39;)&lt;/script&gt;" in html
    for ref in ('src="http', 'href="http', "url(http", "@import"):
        assert ref not in html
    page = inspect_page(out, first_screen=REPORTS / "toy-first-screen.png", screenshot=REPORTS / "toy-report.png")
    assert page["sections"] == SECTIONS
    assert page["errors"] == [] and page["outside"] == [] and page["scripts"] == 0
    assert page["overflow"] == []  # every table fits the page, folded ones too
    first = page["first_screen"]
    # issue 37: the first screen opens with what changed, and its sentences are about the grouping its chart
    # shows (the game's headline: seats here), not the agent grouping below it
    assert first.index("Changed from the rulebook: bonus scale = 2") < first.index("Agents at the table")
    flat = re.sub(r"\s+", " ", first)  # a tagged figure is an element of its own (issue 37's checker)
    assert re.search(r"Seat \d wins \d+\.\d % of its 2-player games against a fair 50\.0 %", flat), first
    assert "Win rate by seat with its 95 % interval" in first and "strong agent wins" not in first
    assert "Model: cautious" in first and "Agents at the table: 2 players: strong, weak" in first
    assert "chi-square 1" not in page["text"] and "chi-square 1" in page["open_text"]  # statistics folded
    text = page["text"]
    for key in RAW_KEYS:
        assert key not in text, key
    assert "<script>alert('label')</script>" in text  # shown as text
    order = [text.rindex(k) for k in ("Model assumptions", "Changed from the rulebook", "Rulebook claims audit")]
    assert order == sorted(order)
    # claims: failures first with the deciding figure, passes folded, per-section counts
    claims = text[text.rindex("Rulebook claims audit") :]
    assert "30 of 33 published figures hold, 2 fail, 1 not measured" in claims
    assert "The 2 figures that fail" in claims and "seal triggers per game" in claims
    assert "3.1 seals\t4.60 seals\tsimulated, 95 % interval 4.50–4.70" in claims
    assert "110 cards\t120 cards\texact, from the rules" in claims
    assert "30 figures that hold" in claims and "mean final square" not in claims  # folded
    assert "mean final square" in page["open_text"]
    # errata as HTML, without repository paths or test names
    assert "<strong>whole</strong>" in html and "<ol>" in html and "test_die_faces" not in html
    assert "the claims table “toy rules”" in text and "the playtest record “toy example” keeps" in text
    assert "Identities: 1 holds, 2 shown as reference (rules changed); 1 row has no rulebook figure." in text


@pytest.mark.slow(reason="a report with every tool computed and measured in Chromium, every fold opened")
def test_a_report_reads_in_words_with_chart_text_of_11_px_on_a_laptop(tmp_path, monkeypatch):
    """Every fold opened, the report names no code (snake_case, NaN, a Python
    repr, mojibake: :func:`words.unreadable`); every chart's text, the folded
    ones included, is at least 11 px at 1366 x 900."""
    from words import unreadable

    from gamelab.report.decisions import Tools

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    out = build_report(
        "toy",
        n_games=600,
        seed=2,
        player_counts=(2, 3),
        lineups={2: ["strong", "weak"], 3: ["strong", "weak", "weak"]},
        tools=Tools(levers=True, games=300),
        run=RunConfig(store=ChunkStore(tmp_path / "cache")),
    )
    page = inspect_page(out, **LAPTOP)
    assert len(page["folded_chart_text"]) >= len(page["chart_text"]) > 20  # the charts' text was read
    assert small_chart_text(page) == [], small_chart_text(page)
    assert unreadable(page["open_text"], "toy") == [], unreadable(page["open_text"], "toy")


def test_a_computed_report_is_frozen_and_rendering_only_renders(tmp_path, monkeypatch):
    """Rendering plays no game and asks no rule: with every function that
    simulates, decides or replays the rulebook made to fail, the computed
    report (its decision parts included) renders to the same page, twice."""
    from gamelab.decide import sensitivity, sequential
    from gamelab.report.decisions import Tools
    from gamelab.rulebook import claims, identities, sentences
    from gamelab.sim import runner, sweep

    data = compute_report(
        registry.get("toy"),
        params=ToyParams(bonus_scale=2.0),
        n_games=400,
        seed=4,
        player_counts=(2,),
        lineups={2: ["strong", "weak"]},
        tools=Tools(levers=True, decide=True, games=200),
        run=RunConfig(store=ChunkStore(tmp_path / "cache")),
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.findings = ()  # type: ignore[misc]
    assert data.decisions.levers is not None and all(f.decision for f in data.findings)
    first = render_report(data)

    def computes(*args, **kw):
        raise AssertionError("rendering computed")

    for module, name in (
        (runner, "simulate"),
        (sweep, "run_cell"),
        (sequential, "decide"),
        (sensitivity, "levers"),
        (claims, "measure"),
        (identities, "identity_table"),
        (sentences, "changed_sentences"),
    ):
        monkeypatch.setattr(module, name, computes)
    assert _without_svg_ids(render_report(data)) == _without_svg_ids(first)
    first = _text(first)
    assert "more than 2 points" in first and "Levers: what would" in first


def _text(html: str) -> str:
    """A page without its figures' quantity tags (:func:`gamelab.report.format.tagged_html`)."""
    return re.sub(r"</?span[^>]*>", "", html)


def _without_svg_ids(html: str) -> str:
    """A page with matplotlib's random SVG element ids blanked (each drawing draws new ones)."""
    return re.sub(r'(id="|#)[A-Za-z][\w]*?[0-9a-f]{8,12}\b', r"\1", html)


def test_toy_report_from_build_report(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    out = build_report(
        "toy", n_games=400, seed=2, player_counts=(2,), run=RunConfig(store=ChunkStore(tmp_path / "cache"))
    )
    assert out == tmp_path / "reports" / "toy.html"
    html = _text(out.read_text())
    assert "Changed from the rulebook: nothing" in html and "Model: the one Model assumptions describes" in html
    assert "Seat 1 wins" in html or "Seat 2 wins" in html or "One group per table" in html
    # one unit per metric: a spread in percentage points, a share in per cent
    design = html.split('id="metrics"', 1)[1].split("</section>", 1)[0]
    spread = design.split("<td>seat spread</td>", 1)[1].split("</tr>", 1)[0]
    decisive = design.split("<td>decisive games</td>", 1)[1].split("</tr>", 1)[0]
    assert " points (" in spread and "%" not in spread, spread
    assert " %" in decisive and "points" not in decisive, decisive


@pytest.mark.slow(reason="a whole STRAND report through the command line")
def test_strand_report_with_a_hostile_playtest_record(tmp_path):
    import json

    from gamelab.cli import commands as cli

    record = json.loads((REPORTS.parent / "data/playtests/strand_example.json").read_text())
    evil = "<script>alert('x')</script>"
    old = record["players"][0]["name"]
    text = json.dumps(record, ensure_ascii=False).replace(
        json.dumps(old, ensure_ascii=False)[1:-1], evil.replace("'", "\\u0027")
    )
    path = tmp_path / "evil.json"
    path.write_text(text)
    params = tmp_path / "params.yaml"
    params.write_text("sum_cap: 8\n")
    out = tmp_path / "strand.html"
    assert (
        cli.main(
            [
                "report",
                "strand",
                "--params",
                str(params),
                "--games",
                "400",
                "--no-claims",
                "--playtest",
                str(path),
                "--out",
                str(out),
                "--tool-games",
                "400",
                "--model-games",
                "200",
                "--trace-games",
                "60",
            ]
        )
        == 0
    )
    html = out.read_text()
    assert "<script>" not in html
    from gamelab.report.onenumber import check_page

    assert check_page(html) == []  # one number per quantity, the skill phases and a changed rule included
    page = inspect_page(out, **LAPTOP)
    assert "playtests" in page["sections"] and page["errors"] == [] and page["outside"] == [] and page["scripts"] == 0
    assert evil in page["text"]  # the name is shown as text
    assert "Changed from the rulebook: sum cap = 8" in page["text"]
    # the rulebook sentences sum_cap 8 makes wrong ("和 ≤ 7" and the pairing marks), when the text is at hand
    from gamelab.rulebook.coverage import seed_path

    shown = "sentences" in page["sections"] and "关键规则：两张货卡的货值之和 ≤ 7" in page["text"]
    assert shown == seed_path("strand").exists()
    assert "3 players: win rate by style" in page["text"] and "6 players: win rate by role" in page["text"]
    # the decision tools: levers, cross-model status, the skill ladder, sequential verdicts
    assert "Levers: what would lower the" in page["text"] and "To lower the " in page["text"]
    # issue 20: per player count, the headline imbalance traced over skill and classified in words
    assert "Across skill: a property of the rules, or of naive play?" in page["text"] and "n.s." not in page["text"]
    for n in (3, 4, 5, 6):
        assert f"{n} players: the headline imbalance is " in page["text"]
    from gamelab.models.across_skill import DECIDED_KINDS

    # issue 27: classes from sequential tests at the default model and the top decided rung
    assert any(k in page["text"] for k in DECIDED_KINDS.values())
    flat = re.sub(r"\s+", " ", page["text"])  # a tagged figure is an element of its own (issue 37's checker)
    # each rate cites its own games: the default model's the report's, a search rung's the trace's (a rung
    # above the default is quoted only where the small trace decided one)
    assert "with the default model in this report's" in flat
    assert flat.count("the top rung that beats the one below") == flat.count(
        "the top rung that beats the one below, in the trace's 60 games"
    )
    assert "the class decided by sequential tests of their own after" in flat
    assert "skill" in page["sections"] and "beats the level below" in page["text"]
    assert "Each rung beats the one below" in page["text"] and "not shown" not in page["text"]
    assert "Styles at skill by restricted play" in page["text"]
    assert "decided by a sequential test after" in page["text"]
    assert page["overflow"] == []
    # issue 31: the first screen answers across skill in one sentence, then shows the two headline charts
    assert "Across skill, the headline imbalance is " in page["first_screen"]
    top_two = sorted(page["charts"])[:2]
    assert len(top_two) == 2 and all(top + height / 2 < LAPTOP["height"] for top, height in top_two), page["charts"]
    from words import raw_words

    summary = page["text"].split("Balance review", 1)[1].split("Across skill", 1)[0]
    assert raw_words(page["first_screen"], "strand") == [] and raw_words(summary, "strand") == [], summary
    for key in RAW_KEYS:
        assert key not in page["text"], key
    from words import prose, unreadable

    assert "--params FILE   # FILE: {sum_cap: 8}" in page["text"]  # the command to copy, its file as YAML
    shown = prose(page["open_text"]).replace(evil, "")  # the hostile record's name is the reader's own text
    assert unreadable(shown, "strand") == [], unreadable(shown, "strand")
    assert small_chart_text(page) == [], small_chart_text(page)  # the trace chart's, the levers' too


def test_an_unchanged_report_is_copied_and_any_changed_input_recomputes_it(tmp_path, monkeypatch):
    from gamelab.report import build, memo

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    run = RunConfig(store=ChunkStore(tmp_path / "cache"))
    calls = []
    real = build.compute_report
    monkeypatch.setattr(build, "compute_report", lambda *a, **k: calls.append(k["seed"]) or real(*a, **k))
    kw = dict(n_games=200, player_counts=(2,), run=run)
    first = build_report("toy", seed=2, **kw).read_text()
    assert calls == [2] and len(list((tmp_path / "cache" / memo.SUBDIR).glob("*.html"))) == 1
    again = build_report("toy", seed=2, out=tmp_path / "again.html", **kw).read_text()
    assert calls == [2] and again == first  # copied, the build time included
    build_report("toy", seed=3, **kw)  # another option
    build_report("toy", seed=2, reuse=False, **kw)  # --fresh
    assert calls == [2, 3, 2]
    record = tmp_path / "goal.txt"
    record.write_text("one")
    toy = registry.get("toy")
    keys = {memo.inputs_key(toy, {"seed": 2}, [record])}
    record.write_text("two")  # an option file's content is an input
    keys.add(memo.inputs_key(toy, {"seed": 2}, [record]))
    monkeypatch.setattr(memo, "_versions", lambda: {"numpy": "0"})  # so is a library version
    keys.add(memo.inputs_key(toy, {"seed": 2}, [record]))
    package = tmp_path / "checkout" / "gamelab"
    (package / "__pycache__").mkdir(parents=True)
    (package / "rules.py").write_text("CAP = 7")
    monkeypatch.setattr(memo.paths, "PACKAGE", package)
    keys.add(memo.inputs_key(toy, {"seed": 2}, [record]))
    (package / "__pycache__" / "rules.pyc").write_bytes(b"x")  # compiled files are not inputs
    keys.add(memo.inputs_key(toy, {"seed": 2}, [record]))
    (package / "rules.py").write_text("CAP = 8")  # an edited rule is
    keys.add(memo.inputs_key(toy, {"seed": 2}, [record]))
    assert len(keys) == 5


def test_one_statement_per_verdict_across_models():
    from gamelab.models.crossmodel import HELD, HOLDS, NOT_HELD, NOT_SURE, statement

    assert statement({"report": HELD, "strong": HELD}) == HOLDS == "holds under every model we tried"
    assert statement({"report": HELD, "strong": NOT_SURE}) == "only under the report's model"
    assert (
        statement({"report": NOT_SURE, "calibrated": HELD, "strong": HELD})
        == "only under the calibrated and strong models"
    )
    assert statement({"report": NOT_SURE, "strong": NOT_SURE}) == "not decided"
    assert statement({"report": NOT_SURE, "strong": NOT_HELD}) == "does not hold"
    assert statement({"report": HELD, "strong": None}).startswith(HOLDS + " that can measure it")
    assert statement({"report": None, "strong": None}) == "not measured"


@pytest.mark.slow(reason="a whole Pig report with sequential tests and a second agent model")
def test_pig_report_states_each_verdict_once_from_the_headline_to_the_table(tmp_path, monkeypatch):
    """Pig has no skill trace: each headline verdict is asked again under a
    second model (race on every seat) and said in one statement, the same
    in the headline sentence, the cross-model lines and the table."""
    import re

    from words import raw_words

    from gamelab.cli import commands as cli

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    out = tmp_path / "pig.html"
    args = ["report", "pig", "--games", "4000", "--no-claims", "--tool-games", "500", "--model-games", "1000"]
    assert cli.main([*args, "--out", str(out)]) == 0
    from gamelab.report.onenumber import check_page

    assert check_page(out) == []  # one number per quantity, the other model's verdict table included
    page = inspect_page(out, first_screen=REPORTS / "pig-first-screen.png", **LAPTOP)
    assert page["errors"] == [] and page["outside"] == [] and page["overflow"] == []
    from words import unreadable

    assert unreadable(page["open_text"], "pig") == [], unreadable(page["open_text"], "pig")
    assert small_chart_text(page) == [], small_chart_text(page)
    text, opened = page["text"], page["open_text"]
    statements = ("holds under every model we tried", "only under the", "does not hold", "not decided")
    said = re.findall(r"Seat (\d) wins [^%]+% of its (\d)-player games.*?Across agent models: ([^.]+)\.", text)
    assert sorted(n for _, n, _ in said) == ["2", "3", "4"], text[:3000]
    assert "Across agent models: does each verdict survive another model?" in text
    for seat, n, statement in said:
        assert statement.startswith(statements), statement
        verdict = re.search(rf"{n} players, (seat {seat}'s (?:edge|handicap)): ([^\n]+)\.\n", text)  # the lines
        assert verdict and verdict.group(2) == statement, (verdict, statement)
        row = re.search(rf"{verdict.group(1)}\t{n}\t[^\n]*", opened)  # and the table's row, model by model
        assert row and row.group(0).endswith("\t" + statement), row
    assert "this report's model" in opened and "race on every seat" in opened and "across models" in opened
    assert "The models, per player count: this report's model, 4,000 games; race on every seat, 1,000 games" in text
    assert "n.s." not in opened and "Agents at the table: 2 players: hold at 20 × 2" in text
    assert raw_words(opened, "pig") == [], raw_words(opened, "pig")


def _trace(metric: str, fair: float):
    from gamelab.models.trace import Trace

    rows = [dict(level="random", agent="random", budget=None, value=None, low=None, high=None, games=100)]
    rows += [
        dict(level=name, agent=name, budget=None, value=v, low=v - 0.02, high=v + 0.02, games=100)
        for name, v in (("default", 0.31), ("best@4", 0.35))
    ]
    return Trace(registry.get("strand"), 4, metric, fair, rows, [], [])


@pytest.mark.parametrize("metric, fair, unit", [("win_rate[style=heavy]", 0.25, "%"), ("style_spread", 0.0, "points")])
def test_trace_chart_says_its_unit_and_draws_a_tick_only_where_a_point_is(metric, fair, unit):
    """The y axis names the values' unit (a win rate in per cent, a spread in
    points); random play, which has no style, gets no tick and the x axis says
    it was not measured; a search rung is its budget, said in the game's words."""
    from gamelab.report import charts

    fig = charts.trace_figure(_trace(metric, fair), registry.get("strand"))
    ax = fig.axes[0]
    assert ax.get_ylabel().endswith(", " + unit), ax.get_ylabel()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["default", "4"]  # a search rung by its budget
    assert ax.get_xlabel().splitlines() == ["N: search, N play-outs per option", "not measured: random"]
    assert list(ax.lines[0].get_ydata()) == pytest.approx([31.0, 35.0])  # in the unit the axis says


def test_levers_now_is_the_design_metrics_figure(tmp_path):
    """One number per quantity: the levers' "now" is the Design metrics
    figure of the same player count (the report's run, whose first games the
    steps are paired on), and the sentence says so."""
    import re

    from gamelab.report.decisions import Tools

    data = compute_report(
        registry.get("toy"),
        n_games=1200,
        seed=3,
        claims=False,
        player_counts=(2, 3),
        lineups={2: ["strong", "weak"], 3: ["strong", "weak", "weak"]},
        tools=Tools(levers=True, games=400),
        run=RunConfig(store=ChunkStore(tmp_path / "cache")),
    )
    levers = data.decisions.levers
    fr = levers.framing
    row = data.design[(data.design["players"] == fr.players) & (data.design["metric"] == fr.metric)].iloc[0]
    assert (fr.now, fr.now_low, fr.now_high) == (row["value"], row["low"], row["high"])
    assert fr.games == data.runs[fr.players].games > 400
    from gamelab.report.charts import tornado_figure

    title = tornado_figure(levers.steps, levers.metric).axes[0].get_title().replace("\n", " ")
    assert f"(now {fr.now * 100:.1f} points at {fr.players} players" in title, title  # the chart says it too
    html = _text(render_report(data))
    said = re.search(r"\(now (\d+\.\d) points at (\d) players, 95 % interval (\d+\.\d)–(\d+\.\d), ([\d,]+) games", html)
    design = html.split('id="metrics"', 1)[1].split("</section>", 1)[0]
    cell = design.split(f"<td>{row['label']}</td>", 1)[1].split("</tr>", 1)[0]
    shown = re.findall(r"(\d+\.\d) points \((\d+\.\d)–(\d+\.\d)\)", cell)
    assert said and said.group(2) == str(fr.players) and shown, (said, cell)
    assert (said.group(1), said.group(3), said.group(4)) in shown  # the same figure in both places
    assert "as in Design metrics; each step is played on the first 400 of those games" in html


@pytest.mark.parametrize("game", ["sbr", "strand"])
def test_the_parameter_table_reads_in_words(game):
    """Every parameter's value and meaning in words: no code name from a
    declaration's text (``crate_bonus``, ``RAIN_CARDS``, ``stop_before``) or
    a list's items (the rain card ``bt_tide``)."""
    from words import unreadable

    from gamelab.report.render import parameter_section

    section = parameter_section(registry.get(game).knobs())
    table = next(b for b in section.blocks if b.kind == "details").body[0].body
    text = re.sub(r"<[^>]+>", " ", table)
    assert "meaning" in text and unreadable(text, game) == [], unreadable(text, game)


def test_skill_section_names_every_level_in_the_games_words():
    """The skill section's table and luck line name rungs and agents as the game says them (issue 31:
    no ``best@8`` or ``lookahead@4`` where a designer reads)."""
    from types import SimpleNamespace

    from gamelab.core import registry
    from gamelab.models.ladder import ladder_row
    from gamelab.report.skill import skill_section

    names = ["random", "default", "best@8"]
    res = dict(win_rate=0.3, low=0.27, high=0.33, games=1024)
    sk = SimpleNamespace(
        players=4,
        levels=[ladder_row(names, k, 4, res if k else None) for k in range(3)],
        luck=dict(
            weakest="random", strongest="best@8", weakest_wins=0.05, low=0.04, high=0.06, fair=0.25, deal_share=0.2
        ),
        trace=None,
    )
    section = skill_section(sk, registry.get("strand"))
    text = "".join(str(b.body) for b in section.blocks if b.kind in ("table", "text"))
    assert "search, 8 play-outs per option" in text and "random play" in text
    assert "best@8" not in text and ">default<" not in text
