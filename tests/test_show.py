"""``gamelab show``: one game or a playtest record as a page to step through.

The story is the engine's game (the words add up to the engine's result), a new
game gets the plain default view, a record's disagreements with the rules are
marked on the step they are about, errors are one line, and (slow) Chromium steps
through every page and sees the pictures change (screenshots in reports/, which
.gitignore covers)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from gamelab.cli.commands import main
from gamelab.core import registry
from gamelab.report.viewer import MAX_BYTES, page
from gamelab.rulebook.story import record_story
from gamelab.sim.story import play_story

ROOT = Path(__file__).resolve().parent.parent
PLAYTESTS = ROOT / "data" / "playtests"
REPORTS = ROOT / "reports"


def test_a_pig_story_is_the_engines_game_and_its_words_add_up_to_the_result():
    pig = registry.get("pig")
    story = play_story(pig, seed=5, n_players=3)
    again = play_story(pig, seed=5, n_players=3)
    assert [s.words for s in story.steps] == [s.words for s in again.steps]  # the seed decides the game
    other = play_story(pig, seed=6, n_players=3)
    assert [s.words for s in other.steps] != [s.words for s in story.steps]
    banked = [0, 0, 0]
    for step in story.steps[1:]:
        m = re.match(r"seat (\d) holds, banks (\d+)", step.words)
        if m:
            banked[int(m[1]) - 1] += int(m[2])
    assert banked == story.result["score"]  # the words tell every point the engine scored
    assert max(story.result["score"]) >= pig.knobs().target and "wins" in story.steps[-1].words
    # each hold-at-20 decision says its threshold, and it is the one the agent used
    for step in story.steps[1:]:
        if "holds, banks" in step.words and "target" not in step.words:
            total = int(re.search(r"turn total (\d+) ≥ 20", step.words)[1])
            assert total >= 20


def test_a_game_without_a_view_gets_its_state_as_a_table():
    toy = registry.get("toy")
    assert toy.panels.view is None
    story = play_story(toy, seed=1, lineup=["strong", "weak"])
    html = page(story)
    assert len(story.steps) == 2  # the set-up and the one decision
    assert "seat 1 chose 3; seat 2 chose 0" in story.steps[1].words  # strong claims its bonus of 3
    frames = re.findall(r'<div class="frame.*?</div>', html, re.S)
    assert len(frames) == 2 and frames[0] != frames[1]
    for field in ("luck", "bonus", "rolled"):
        assert f"<th>{field}</th>" in frames[1]
    luck = story.steps[1].state.luck[0].tolist()
    assert f"[{luck[0]}, {luck[1]}]" in frames[1]


def test_the_sbr_records_disagreement_is_marked_on_its_beat():
    story = record_story(PLAYTESTS / "sbr_example.json")
    marked = [i for i, s in enumerate(story.steps) if s.marks]
    assert len(marked) == 1
    step = story.steps[marked[0]]
    # spin[1][0]: beat 2 (unit 1), the last step of that beat (its end)
    assert step.unit == 1 and all(s.unit != 1 for s in story.steps[marked[0] + 1 :])
    assert "the hand ledger says 0, the rules give 1" in step.marks[0]
    html = page(story)
    assert html.count('<p class="mark">⚠') == 1 and "step(s) where the hand ledger and the rules disagree" in html


@pytest.mark.parametrize("name", ["pig_example.json", "strand_example.json"])
def test_a_planted_wrong_total_is_marked_on_its_turn_and_a_right_record_has_none(name, tmp_path):
    record = json.loads((PLAYTESTS / name).read_text(encoding="utf-8"))
    assert not any(s.marks for s in record_story(PLAYTESTS / name).steps)
    key = "scores" if record["game"] == "pig" else "totals"
    record["expect"][key][2][1] += 7  # the hand ledger's third turn or round is wrong for the second seat
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    story = record_story(path)
    marked = [i for i, s in enumerate(story.steps) if s.marks]
    assert len(marked) == 1
    step = story.steps[marked[0]]
    assert step.unit == 2 and story.steps[marked[0] + 1].unit == 3  # the last step of that turn or round
    assert f"says {record['expect'][key][2][1]}, the rules give {record['expect'][key][2][1] - 7}" in step.marks[0]


def test_the_page_is_small_and_quick(tmp_path):
    pig = registry.get("pig")
    play_story(pig, seed=0, n_players=2)  # imports and first use out of the timing
    started = time.perf_counter()
    html = page(play_story(pig, seed=9, n_players=6))
    assert time.perf_counter() - started < 2.0
    assert len(html.encode()) < MAX_BYTES
    assert "<script" in html and "http" not in html.replace("http://www.w3.org/2000/svg", "")  # nothing fetched


@pytest.mark.parametrize(
    "argv, words",
    [
        (["show", "nosuchgame"], "'nosuchgame' is neither a game"),
        (["show", "pig", "--lineup", "nobody", "nobody"], "unknown agent 'nobody'"),
        (["show", str(PLAYTESTS / "pig_example.json"), "--players", "3"], "--players is for a game"),
        (["show", "pig", "--out", "x.txt"], "--out"),
        (["show", "missing.json"], "missing.json"),
    ],
)
def test_a_bad_argument_is_one_line(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err and "Traceback" not in err


# -- in Chromium: every page steps, plays and changes its pictures

PAGES = {
    "pig": ["show", "pig", "--players", "3", "--seed", "4"],
    "sbr": ["show", "sbr", "--players", "4", "--seed", "1"],
    "strand": ["show", "strand", "--players", "4", "--seed", "2"],
    "pig-record": ["show", str(PLAYTESTS / "pig_example.json")],
    "sbr-record": ["show", str(PLAYTESTS / "sbr_example.json")],
    "strand-record": ["show", str(PLAYTESTS / "strand_example.json")],
}

VISIBLE = "() => document.querySelector('.frame:not([hidden])').innerText"


@pytest.mark.slow(reason="Chromium started for each page and stepped through every frame")
@pytest.mark.parametrize("name", list(PAGES))
def test_chromium_steps_through_the_page_and_the_pictures_change(name, tmp_path):
    from browser import FLAGS, ensure_chromium
    from playwright.sync_api import sync_playwright

    out = tmp_path / f"{name}.html"
    started = time.perf_counter()
    assert main([*PAGES[name], "--out", str(out)]) == 0
    assert out.stat().st_size < MAX_BYTES
    if name != "sbr":  # SBR's agents compile on first use (numba); the others are built at once
        assert time.perf_counter() - started < 30
    REPORTS.mkdir(exist_ok=True)
    errors, outside = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=ensure_chromium(), args=FLAGS)
        pg = browser.new_page(viewport={"width": 1100, "height": 900})
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.route(
            "**/*", lambda r: r.continue_() if r.request.url.startswith("file://") else outside.append(r) or r.abort()
        )
        pg.goto(f"file://{out}")

        def pictures() -> str:
            return pg.evaluate(
                "() => Array.from(document.querySelector('.frame:not([hidden])').querySelectorAll('figure'))"
                ".map(f => f.innerHTML).join('')"
            )

        n = int(pg.get_attribute("#slider", "max"))
        assert n >= 5 and pg.evaluate("document.querySelectorAll('.frame:not([hidden])').length") == 1
        seen = [pictures()]
        shots = [pg.screenshot(path=str(REPORTS / f"show-{name}-step0.png"))]
        for k in range(1, 5):
            pg.click("#next")
            assert pg.inner_text("#counter") == f"step {k} of {n}"
            seen.append(pictures())
        shots.append(pg.screenshot(path=str(REPORTS / f"show-{name}-step4.png")))
        changed = sum(a != b for a, b in zip(seen, seen[1:], strict=False))
        assert changed >= 3, f"{name}: the pictures changed on only {changed} of 4 steps"
        assert shots[0] != shots[1]  # what the designer sees changed, not only the markup
        pg.click("#prev")
        assert pictures() == seen[3]
        pg.fill("#slider", str(n))
        pg.dispatch_event("#slider", "input")
        assert pg.inner_text("#counter") == f"step {n} of {n}"
        pg.screenshot(path=str(REPORTS / f"show-{name}-last.png"))
        last = pictures()
        pg.click("#first")
        pg.click("#play")
        pg.wait_for_function(f"document.getElementById('counter').textContent !== 'step 0 of {n}'", timeout=5000)
        pg.click("#play")  # pause
        assert pictures() != last or n == 1
        marked = pg.query_selector_all(".log li.marked")
        if name == "sbr-record":
            assert len(marked) == 1
            pg.click("summary")
            marked[0].click()
            assert "the hand ledger says" in pg.evaluate(VISIBLE)
            pg.screenshot(path=str(REPORTS / f"show-{name}-marked.png"))
        else:
            assert not marked
        if pg.query_selector("input.optional"):
            pg.check("input.optional")
            assert pg.evaluate(
                "() => Array.from(document.querySelectorAll('.frame:not([hidden]) .opt')).some(e => e.offsetHeight > 0)"
            )
        browser.close()
    assert not errors and not outside


# -- in a notebook: the viewer widget, and the balance panels' "Show a game"


def test_the_notebook_viewer_steps_and_shows_the_hands_on_request():
    from gamelab.ui import GameViewer

    v = GameViewer.play("strand", seed=2, n_players=4)
    first = v.html.value
    assert "Step 0" in first and "<svg" in first
    v.next.click()
    assert v.slider.value == 1 and v.html.value != first and "Step 1" in v.html.value
    v.prev.click()
    assert v.html.value == first
    v.go(10**6)
    assert v.slider.value == len(v.story.steps) - 1
    assert ".opt-hands{display:block}" not in v.html.value
    v.optional["hands"].value = True
    assert ".opt-hands{display:block}" in v.html.value and "Hands (cards of each value held)" in v.html.value
    rec = GameViewer.record(PLAYTESTS / "sbr_example.json")
    marked = [k for k, s in enumerate(rec.story.steps) if s.marks]
    rec.go(marked[0])
    assert "the hand ledger says" in rec.html.value


def test_show_a_game_plays_under_the_panels_rules_and_lineup(tmp_path):
    from gamelab.sim.store import ChunkStore
    from gamelab.ui.balance_panel import BalancePanel

    panel = BalancePanel("pig", sliders=["target"], n_players=3, quick_games=50, store=ChunkStore(tmp_path))
    panel.widget()
    panel.controls["target"][0].value = 30  # a short game: the panel's rules, not the rulebook's
    panel.focus.value = "race"
    shown = panel.show_game.show()
    assert shown is not None and shown.story.params.target == 30
    assert shown.story.names == ["seat 1", "seat 2", "seat 3"] and "seat 1: race" in shown.story.about
    assert max(shown.story.result["score"]) >= 30 and max(shown.story.result["score"]) < 30 + 6 * 2
    again = panel.show_game.show()  # the next click: the next seed
    assert [s.words for s in again.story.steps] != [s.words for s in shown.story.steps]


@pytest.mark.parametrize(
    "game, story",
    [
        ("pig", lambda: play_story(registry.get("pig"), seed=3, lineup=["hold_at_20", "race", "random"])),
        ("strand", lambda: play_story(registry.get("strand"), seed=3, n_players=5)),
        ("pig", lambda: record_story(PLAYTESTS / "pig_example.json")),
        ("sbr", lambda: record_story(PLAYTESTS / "sbr_example.json")),
        ("strand", lambda: record_story(PLAYTESTS / "strand_example.json")),
    ],
)
def test_the_page_reads_in_words(game, story):
    from words import unreadable

    html = page(story())
    body = html[html.index("<body>") : html.index("<script>")]
    text = re.sub(r"<[^>]+>", " ", body).replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&")
    assert unreadable(text, game) == []
