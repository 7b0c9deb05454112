"""Notebook panels: sliders come from the declarations and drive real runs."""

import html

import pytest

from gamelab.core.params import specs
from gamelab.sim.store import ChunkStore
from gamelab.toy import ToyParams
from gamelab.ui.balance_panel import BalancePanel
from gamelab.ui.widgets import param_widgets, plain_label


def test_sliders_follow_the_declaration():
    by_name = {s.name: s for s in specs(ToyParams)}
    (die,) = param_widgets(by_name["die"], 10)
    assert (die.min, die.max, die.value, die.continuous_update) == (2, 100, 10, False)
    assert die.description == "die"
    assert "faces of the luck die" in die.tooltip and "allowed: int in 2..100" in die.tooltip
    (scale,) = param_widgets(by_name["bonus_scale"], 1.0)
    assert scale.description == "bonus scale"


def test_choices_are_shown_in_words():
    from gamelab.core.params import ParamSpec

    spec = ParamSpec(
        name="roles",
        default="first_p",
        kind=str,
        choices=("first_p", "none", "random"),
        doc="role cards dealt",
        section="appendix B",
    )
    (drop,) = param_widgets(spec, "first_p")
    assert drop.options == (("the first P roles", "first_p"), ("none", "none"), ("random", "random"))
    assert drop.value == "first_p" and "Rulebook appendix B" in drop.tooltip


def test_panel_resimulates_on_change(tmp_path):
    panel = BalancePanel(
        "toy", sliders=["bonus_scale", "die"], n_players=2, quick_games=400, store=ChunkStore(tmp_path)
    )
    panel.focus.value = "strong"  # each change re-simulates
    strong = panel.tables["agent"].set_index("agent").loc["strong", "win_rate"]
    panel.controls["bonus_scale"][0].value = 0.0
    even = panel.tables["agent"].set_index("agent").loc["strong", "win_rate"]
    assert strong > 0.6 and even == pytest.approx(0.5)
    panel.controls["die"][0].value = 2
    assert panel.params() == ToyParams(bonus_scale=0.0, die=2)
    path = panel.publish(tmp_path / "published.html")
    assert path.exists() and "bonus scale = 0" in path.read_text()


def test_publish_writes_into_the_project_reports_and_links_it(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path / "project"))
    monkeypatch.chdir(tmp_path)  # a notebook's folder: not where reports go
    panel = BalancePanel("toy", sliders=["die"], n_players=2, quick_games=200, store=ChunkStore(tmp_path / "c"))
    path = panel.publish()
    assert path.parent == tmp_path / "project" / "reports" and path.exists()
    assert not (tmp_path / "reports").exists()
    assert panel.status.value.startswith('published <a href="project/reports/toy-')
    assert f">reports/{path.name}</a>" in panel.status.value


def test_slow_work_shows_progress_and_marks_old_numbers_stale(tmp_path, monkeypatch):
    from gamelab.ui import widgets

    monkeypatch.setattr(widgets, "SLOW", 0.2)
    panel = BalancePanel("toy", sliders=["delay"], n_players=2, quick_games=100, store=ChunkStore(tmp_path))
    seen = []
    panel.busy_note.observe(
        lambda ch: seen.append((ch["new"], list(panel.out._dom_classes), panel.progress.layout.visibility)),
        names="value",
    )
    panel.controls["delay"][0].value = 0.8  # each play() call sleeps 0.8 s
    shown = [s for s in seen if s[0]]
    assert shown and "previous setting" in shown[0][0]
    assert widgets.STALE_CLASS in shown[0][1] and shown[0][2] == "visible"
    assert widgets.STALE_CLASS not in panel.out._dom_classes and panel.progress.layout.visibility == "hidden"
    assert panel.seconds_per_game  # timed: the next run shows time left


def test_panel_rejects_unknown_slider():
    with pytest.raises(ValueError, match="no parameter 'colour'"):
        BalancePanel("toy", sliders=["colour"])


def test_ev_threshold_panel_redraws():
    from gamelab.ui.explorer import ExplorerPanel

    panel = ExplorerPanel("strand", "trust")
    panel.update()
    assert [round(x * 100, 1) for x in panel.table["p_star"]] == [27.5, 24.4, 13.3, 12.0, 2.0]
    (lone,) = panel.rule_controls["lone_penalty"]
    lone.value = 3  # cargo 1: lone = 1 - 3 = -2, mutual 7 -> p* = 3.2 / 9
    assert panel.table.loc[0, "p_star"] == pytest.approx(3.2 / 9)
    (cap,) = panel.rule_controls["sum_cap"]
    cap.value = 8
    assert list(panel.table["pairable_partners"]) == ["5 / 5", "5 / 5", "5 / 5", "4 / 5", "3 / 5"]
    # N follows the node values: the slider shows the N in use and is disabled
    (n_slider,) = panel.own_controls["node_share"]
    assert n_slider.disabled and n_slider.value == pytest.approx(6.0)
    nodes = panel.rule_controls["node_values"]
    total = sum(w.value for w in nodes)
    nodes[0].value += 4  # more node points: N grows with their total
    assert n_slider.value == pytest.approx(6.0 * (total + 4) / total)
    assert panel.table.loc[4, "mutual"] == pytest.approx(5 + n_slider.value)
    (follow,) = panel.own_controls["node_share_follows_nodes"]
    follow.value = False  # N by hand
    assert not n_slider.disabled
    n_slider.value = 5.25  # cargo 5: (1.2 - 0) / (10.25 - 0)
    assert panel.table.loc[4, "p_star"] == pytest.approx(1.2 / 10.25)


def test_sbr_panel_changes_the_rules(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    panel = BalancePanel(
        "sbr", sliders=["curve_penalty", "relic_points"], n_players=3, quick_games=300, store=ChunkStore(tmp_path)
    )
    panel.update()
    assert panel.sentences is None  # the rulebook's rules: no sentence to update
    before = panel.extras[0].set_index("measure").loc["terrain tax per rider", "value"]
    panel.controls["curve_penalty"][0].value = 4
    after = panel.extras[0].set_index("measure").loc["terrain tax per rider", "value"]
    assert panel.params().curve_penalty == 4 and after != before
    # the rulebook sentences the new curve penalty makes wrong: counted, with a link to the list
    from gamelab.rulebook.coverage import seed_path

    if not seed_path("sbr").exists():  # the rulebook text is not beside the checkout: nothing to count
        assert panel.sentences is None
    else:
        note = panel.sentences.to_html()
        assert "rulebook sentences no longer hold" in note and "sbr-sentences.md" in note
        assert "额外消耗 2 点移动力" in (tmp_path / "reports" / "sbr-sentences.md").read_text(encoding="utf-8")
    panel.controls["relic_points"][2].value = 6  # spine worth 6
    assert panel.params().relic_points == (2, 2, 6, 1)
    captions = [x.caption for x in panel.items(sentences=False) if hasattr(x, "caption")]
    assert len(captions) >= 4 and all(c and ("3 players" in c or "3-player" in c) for c in captions), captions
    ids = panel.tables["identities"].set_index("quantity")
    assert ids.loc["relic points on offer, 4 players", "exact"] == 2 * 3 + 2 * 3 + 6 * 3 + 1 * 3


def test_levers_panel_frames_the_goal_in_words_and_greys_while_slow(tmp_path, monkeypatch):
    from gamelab.ui import widgets
    from gamelab.ui.decisions import LeversPanel

    monkeypatch.setattr(widgets, "SLOW", 0.1)
    panel = BalancePanel("toy", sliders=["delay"], n_players=2, quick_games=100, store=ChunkStore(tmp_path))
    panel.controls["delay"][0].value = 0.15  # every play() call sleeps: the levers take over SLOW
    levers = LeversPanel(panel, metric="seat_spread", only=["bonus_scale", "delay"])
    seen = []
    levers.busy_note.observe(lambda ch: seen.append((ch["new"], list(levers.out._dom_classes))), names="value")
    levers.run()
    shown = [s for s in seen if s[0]]
    assert shown and widgets.STALE_CLASS in shown[0][1]  # greyed while it ran
    assert widgets.STALE_CLASS not in levers.out._dom_classes
    assert dict(levers.metric.options)["seat spread"] == "seat_spread"  # labels, names behind them
    text = levers.sentence.value
    assert "the seat spread (now " in text and "_" not in text.replace("gamelab-framing", "")


def test_tune_panel_form_in_words_and_its_answer(tmp_path, monkeypatch):
    from gamelab.sim.store import MemoryStore
    from gamelab.ui.decisions import TunePanel

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))  # a fresh study: every trial is played

    class Src:  # a panel-like source: the toy game's rules and lineup
        game = "toy"
        quick_games = 1000
        store = MemoryStore()
        players = type("P", (), {"value": 2})()

        def params(self):
            from gamelab.toy import ToyParams

            return ToyParams()

        def lineup(self):
            return ["strong", "weak"]

    tuner = TunePanel(Src(), free=["bonus_scale"], targets=[("seat_spread", "at_most", 0.2)], trials=12)
    labels = [label for label, _ in tuner.free.options]
    assert "bonus scale" in labels and all("_" not in x for x in labels)
    assert tuner.rows[0][2].value == 20 and tuner.rows[0][3].value == "points"  # shown in points
    goal = tuner.goal()
    assert goal.targets[0].at_most == pytest.approx(0.2) and goal.games == 2000
    seen = []
    tuner.busy_note.observe(lambda ch: seen.append(ch["new"]), names="value")
    tuner.run()
    assert any("trial 12 of 12" in s and "best so far" in s for s in seen)
    answer = tuner.answer.value
    assert answer.startswith("<b>Proposal 1, bonus scale 1 → ") or "Nothing found" in answer
    # which run the figures are, where they are: the player count and the fresh games (not Levers' run)
    assert "seat spread, 2 players (8,000 fresh games)" in tuner.shown.columns
    status = html.unescape(tuner.status.value)
    assert "on 8,000 fresh games at 2 players, other deals than the panel's and Levers'" in status
    text = tuner.shown.to_string()
    for raw in ("all_met", "all_sure", "search_miss", "nan", "False", "True", "bonus_scale", "@2"):
        assert raw not in text, raw
    assert widgets_stale_cleared(tuner)


def widgets_stale_cleared(panel) -> bool:
    from gamelab.ui import widgets

    return widgets.STALE_CLASS not in panel.out._dom_classes and panel.progress.layout.visibility == "hidden"


def test_identity2_controls_that_do_nothing_are_disabled_and_the_simulation_follows(monkeypatch):
    from gamelab.ui.explorer import ExplorerPanel

    monkeypatch.setenv("GAMELAB_QUICK_GAMES", "300")
    panel = ExplorerPanel("strand", "trust")
    panel.update()
    nodes = panel.rule_controls["node_values"]
    (n_slider,) = panel.own_controls["node_share"]
    assert not any(w.disabled for w in nodes) and n_slider.disabled  # the node values drive N: N shown = N used
    (follow,) = panel.own_controls["node_share_follows_nodes"]
    follow.value = False  # N by hand: the node values no longer change the exact table
    assert all(w.disabled for w in nodes) and "N is set by hand" in nodes[0].tooltip
    panel.follow(seed=1)  # the simulated side uses every rule: the node values act again
    assert not any(w.disabled for w in nodes)
    first = panel.sim_table.copy()
    (cap,) = panel.rule_controls["sum_cap"]
    cap.value = 5  # the simulated side follows the slider
    assert not panel.sim_table.equals(first)
    assert panel.sim_table.attrs["games"] == 300
    shown = panel.styled(panel.sim_table).to_html()
    assert "betting beats staying" in shown and "p_star" not in shown and "nan" not in shown


def _notebook_panels():
    """Every ``BalancePanel(...)`` call of the notebooks: game, sliders, knobs (read from the cells)."""
    import ast
    import json
    from pathlib import Path

    found = []
    for path in sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "code" or "BalancePanel(" not in "".join(cell["source"]):
                continue
            for node in ast.walk(ast.parse("".join(cell["source"]))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "BalancePanel":
                    kw = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
                    found.append((path.stem, ast.literal_eval(node.args[0]), kw.get("sliders", []), kw.get("knobs")))
    return found


def _without_worth_line(monkeypatch):
    """The panel's meta-game line left out of every move (``balance_panel.METAGAME_AUTO``): its own payoff
    table, about half of a STRAND move's time. The tests that move every control assert the rules played
    and the sliders; the line's words are read where the whole panel is (test_notebook_panel_text_reads_as_words,
    tests/test_notebooks.py, tests/test_jupyterlab.py)."""
    from gamelab.ui import balance_panel

    monkeypatch.setattr(balance_panel, "METAGAME_AUTO", False)


def _moved(widget):
    """Move a control to another value within its range; the value it had."""
    old = widget.value
    if hasattr(widget, "options"):
        values = [v for _, v in widget.options]
        widget.value = values[(values.index(old) + 1) % len(values)]
    elif isinstance(old, bool):
        widget.value = not old
    else:
        step = widget.step if isinstance(old, float) else 1
        up = old + (5 * step if isinstance(old, float) else 1)
        widget.value = up if up <= widget.max else old - (5 * step if isinstance(old, float) else 1)
    return old


@pytest.mark.parametrize("where,game,sliders,knobs", _notebook_panels(), ids=lambda x: str(x)[:20])
def test_every_control_of_every_notebook_panel_changes_the_rules_used_and_the_report(
    where, game, sliders, knobs, tmp_path, monkeypatch
):
    """Each rule and model control of each notebook panel, moved in turn: the
    rules the panel's run is played under change in that parameter (and only
    there), and the report published after all the moves lists every change
    (``Changed from the rulebook``).  A derived knob (``node scale``) writes
    its values into the sliders it sets, and a slider moved after it still counts."""
    from gamelab.report import format as fmt
    from gamelab.sim import sweep

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    _without_worth_line(monkeypatch)
    panel = BalancePanel(game, sliders=sliders, knobs=knobs, n_players=4, quick_games=64, store=ChunkStore(tmp_path))
    used = []
    real = sweep.run_cell

    def spy(game, cell, **kw):  # the rules each re-simulation is played under
        used.append(kw["base_params"])
        return real(game, cell, **kw)

    monkeypatch.setattr(sweep, "run_cell", spy)
    panel.update()
    moves = [(n, i, x) for n, ws in panel.controls.items() for i, x in enumerate(ws)]
    moves = [(n, None, x) for n, x in panel.knobs.items()] + moves  # a knob first, then the sliders it wrote
    moved_params = set()
    from gamelab.ui.widgets import plain_label

    for name, _item, widget in moves:  # every control explains itself on hover, beyond its name
        tip = widget.tooltip or ""
        assert len(tip) > len(plain_label(widget)) + 10 and "_" not in tip.split("Rulebook")[0], (name, tip)
        if not hasattr(widget, "max"):  # a dropdown or checkbox: ipywidgets shows its tooltip from the label
            assert f"title='{html.escape(tip, quote=True)}'" in widget.description, widget.description
    for name, item, widget in moves:
        before, runs = used[-1], len(used)
        _moved(widget)
        assert len(used) == runs + 1, f"{widget.description}: moving it re-simulates once"
        after = used[-1]
        changed = {k for k, v in after.changed().items() if before.changed().get(k, getattr(before, k)) != v}
        changed |= {k for k in before.changed() if getattr(after, k) != getattr(before, k)}
        expected = set(panel.game_def.derived[name](panel.base, widget.value)) if item is None else {name}
        assert changed == expected, f"{widget.description}: the rules used changed in {changed}"
        if item is not None:
            shown = [x.value for x in panel.controls[name]]
            value = getattr(after, name)
            assert (list(value) if isinstance(value, tuple) else [value]) == shown, "the sliders show the rules used"
        moved_params |= expected
    path = panel.publish(tmp_path / "published.html")
    text = path.read_text()
    said = text[text.index("Changed from the rulebook: ") :].split("<", 1)[0]
    by_name = {s.name: s for s in specs(panel.base)}
    for name in moved_params:
        assert fmt.param_label(by_name[name]) in said, f"{name} missing from {said!r}"


def test_identity2_table_chart_caption_and_simulated_side_agree_at_every_slider_position(monkeypatch):
    """At every sum cap and lone penalty of the sliders' ranges: one EV line
    per cargo with a p* (none for a cargo that cannot team in full), each
    crossing the stay at its p*; the caption names exactly the cargo without
    p* (empty at the rulebook's rules); the simulated side's verdict is its
    reached rate against the p* it shows."""
    import numpy as np

    from gamelab.strand import identities as ids
    from gamelab.ui.explorer import ExplorerPanel

    monkeypatch.setenv("GAMELAB_QUICK_GAMES", "300")
    panel = ExplorerPanel("strand", "trust")
    panel.update()
    assert panel.caption() == ""  # the rulebook's rules: every cargo has a p*
    (cap,) = panel.rule_controls["sum_cap"]
    (lone,) = panel.rule_controls["lone_penalty"]
    for c in range(cap.min, cap.max + 1):
        for penalty in (lone.min, 2, lone.max):
            cap.value, lone.value = c, penalty
            table, fig = panel.table, panel.figure
            lines = {int(x.get_label().split()[1]): x for x in fig.axes[0].lines if x.get_label().startswith("cargo")}
            with_p = table.dropna(subset=["p_star"])
            assert sorted(lines) == list(with_p["cargo"]), (c, penalty)
            stay = panel.controls().stay_value
            for row in with_p.itertuples():
                x, y = lines[row.cargo].get_data()
                assert np.interp(row.p_star * 100, x, y) == pytest.approx(stay, abs=1e-6) or row.p_star == 0
            missing = [str(v) for v in table.loc[table["p_star"].isna(), "cargo"]]
            assert (panel.caption() != "") == bool(missing)
            assert all(f"cargo {', '.join(missing)} cannot team" in panel.caption() for _ in missing[:1])
    cap.value = 5  # cargo 5 teams with nobody in full: its simulated verdict is against the p* as played
    panel.follow(seed=2)
    sim = panel.sim_table.set_index("cargo")
    for v, r in sim.iterrows():
        assert r["betting_beats_staying"] == bool(r["low"] > r["p_star_measured_N_S"]), v
    assert not np.isnan(sim.loc[5, "p_star_measured_N_S"])  # overweight teams counted: a threshold exists
    assert "as played" in panel.simulate(seed=2).caption
    assert ids.partner_fit(panel.rules(), 5)[0] == 0


def test_seat_one_agents_and_lineups_in_the_games_words():
    """The seat-1 list and the progress note name agents as the game declares
    them (``Game.report.agent_words``): no ``@``, no ``mix1``."""
    from gamelab.core import registry
    from gamelab.core.labels import agent_label, lineup_words

    strand, sbr = registry.get("strand"), registry.get("sbr")
    assert agent_label(strand, "best@8") == "search, 8 play-outs per option"
    assert agent_label(sbr, "lookahead@4") == "lookahead, 4 beats deep"
    assert lineup_words(strand, strand.default_lineup(4)) == "the style mix on every seat"
    panel = BalancePanel("strand", sliders=[], n_players=4)
    labels = [label for label, _ in panel.focus.options]
    assert not [x for x in labels if "@" in x or "_" in x or x[-1].isdigit()], labels


#: a notebook shows a figure as a PNG at 100 dpi, at its own size in a 1366 x 900 window: 8 points is 11 px
MIN_PANEL_PT = 8


def small_text(fig) -> list[tuple[str, float]]:
    """Every visible text of ``fig`` under :data:`MIN_PANEL_PT` points."""
    from matplotlib.text import Text

    return [
        (t.get_text(), t.get_fontsize())
        for t in fig.findobj(Text)
        if t.get_visible() and t.get_text().strip() and t.get_fontsize() < MIN_PANEL_PT
    ]


def test_every_panel_chart_has_text_of_11_px_at_least(tmp_path):
    """The balance panel's win-rate chart, the Levers tornado, the Tune
    front and the identity explorer's chart: no text under 8 points (11 px
    as a notebook shows them)."""
    from gamelab.sim.store import MemoryStore
    from gamelab.ui.decisions import LeversPanel, TunePanel
    from gamelab.ui.explorer import ExplorerPanel

    panel = BalancePanel("strand", sliders=["sum_cap"], n_players=4, quick_games=300, store=ChunkStore(tmp_path))
    panel.update()
    figures = [x for x in panel.items() if hasattr(x, "savefig")]
    toy = BalancePanel("toy", sliders=["bonus_scale"], n_players=2, quick_games=400, store=ChunkStore(tmp_path))
    levers = LeversPanel(toy, metric="seat_spread", only=["bonus_scale", "die"])
    levers.run()
    figures.append(levers.figure)
    tuner = TunePanel(toy, free=["bonus_scale"], targets=[("seat_spread", "at_most", 0.2)], trials=4)
    toy.store = MemoryStore()
    tuner.run()
    from gamelab.decide import tune
    from gamelab.report import charts

    st = tune.setting(tuner.goal())
    figures.append(charts.front_figure(st, tuner.result.study, tuner.result.proposals))
    explorer = ExplorerPanel("strand", "trust")
    explorer.update()
    figures.append(explorer.figure)
    assert len(figures) == 4 and all(f is not None for f in figures)
    small = [(i, s) for i, f in enumerate(figures) for s in small_text(f)]
    assert small == [], small


def test_the_panel_states_the_headline_figure_that_levers_calls_now(tmp_path):
    """One number per quantity in the notebook: the panel states the game's
    headline imbalance with its player count and games, and Levers' "now"
    is that figure, said to be the panel's games; after a slider move that
    Levers has not followed, it is not said to be."""
    import re

    from gamelab.ui.decisions import LeversPanel

    panel = BalancePanel("strand", sliders=["sum_cap"], n_players=4, quick_games=300, store=ChunkStore(tmp_path))
    panel.update()
    line = re.fullmatch(
        r"Style spread, 4 players: (\d+\.\d) points \(95 % interval (\d+\.\d)–(\d+\.\d)\), these 300 games",
        panel.headline,
    )
    assert line, panel.headline
    notes = [x.to_html() for x in panel.items() if hasattr(x, "body")]
    assert any(panel.headline in n for n in notes)
    levers = LeversPanel(panel, metric="style_spread", only=["sum_cap"])
    levers.run()
    said = html.unescape(levers.sentence.value)
    now = f"(now {line[1]} points at 4 players, 95 % interval {line[2]}–{line[3]}, 300 games"
    assert f"{now}, the same games as the panel's)" in said, said
    panel.controls["sum_cap"][0].value = 8  # the panel moves on; the Levers run is no longer its run
    levers.run()
    assert "the same games as the panel's" in html.unescape(levers.sentence.value)  # it replayed at the new rules
    other = LeversPanel(panel, metric="style_spread", only=["sum_cap"], seed=7)
    other.run()
    assert "the same games as the panel's" not in html.unescape(other.sentence.value)  # other deals: not said


def _strand_notebook_panel(tmp_path, monkeypatch, quick_games=64):
    """The STRAND notebook's panel (its sliders and knob, read from the notebook), on a small sample."""
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    ((_, game, sliders, knobs),) = [p for p in _notebook_panels() if p[0] == "strand_balance"]
    return BalancePanel(
        game, sliders=sliders, knobs=knobs, n_players=4, quick_games=quick_games, store=ChunkStore(tmp_path)
    )


def test_no_control_destroys_a_value_set_by_hand(tmp_path, monkeypatch):
    """Issue 37: every node value raised by one by hand, then every other control moved (node scale
    included): the node values played stay the hand-set ones (node scale: those times the scale, shown on
    the sliders; back at 1, exactly the hand-set ones), and no other control moves a node value."""
    _without_worth_line(monkeypatch)
    panel = _strand_notebook_panel(tmp_path, monkeypatch)
    panel.update()
    nodes = panel.controls["node_values"]
    for w in nodes:
        w.value += 1
    hand = [w.value for w in nodes]
    assert tuple(hand) != panel.base.node_values and panel.params().node_values == tuple(hand)
    scale = panel.knobs["node_scale"]
    others = [w for name, ws in panel.controls.items() if name != "node_values" for w in ws]
    others += [panel.players, panel.focus]
    for widget in [scale, *others, scale]:
        _moved(widget)
        played = panel.params().node_values
        assert played == tuple(w.value for w in nodes)  # the sliders show what is played
        expected = [min(30, int(v * scale.value + 0.5)) for v in hand]
        assert list(played) == expected, (plain_label(widget), played, hand, scale.value)
        assert panel.frame_params.node_values == played  # and the run was played with them
    assert scale.value != 1.0 and "set by hand" in panel.knob_note.value
    scale.value = 1.0
    assert [w.value for w in nodes] == hand and panel.knob_note.value == ""
    scale.value = 1.5
    nodes[0].value = 2  # a slider moved after the knob: the shown values are the hand-set ones, the knob neutral
    assert scale.value == 1.0 and panel.params().node_values == (2, *[int(v * 1.5 + 0.5) for v in hand[1:]])


def test_every_view_names_its_run_and_is_greyed_when_the_run_moves_on(tmp_path, monkeypatch):
    """Issue 37: Levers and Tune state the run they were computed for; a slider move greys them and says
    "computed for the rules before your change, rerun"; moving back, or rerunning, makes them current."""
    from gamelab.sim.store import MemoryStore
    from gamelab.ui import widgets
    from gamelab.ui.decisions import LeversPanel, TunePanel

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    panel = BalancePanel("toy", sliders=["bonus_scale", "die"], n_players=2, quick_games=200, store=MemoryStore())
    panel.update()
    levers = LeversPanel(panel, metric="seat_spread", only=["bonus_scale"])
    tuner = TunePanel(panel, free=["bonus_scale"], targets=[("seat_spread", "at_most", 0.3)], trials=3)
    levers.run()
    tuner.run()
    for view in (levers, tuner):
        assert "Computed for: the rulebook's rules; 2 players" in html.unescape(view.run_note.value)
        assert widgets.STALE_CLASS not in view.out._dom_classes and view.stale_note.value == ""
    assert "This run: the rulebook's rules; 2 players" in html.unescape(panel.status.value)
    (die,) = panel.controls["die"]
    old = die.value
    die.value = old + 2
    for view in (levers, tuner):
        assert widgets.STALE_CLASS in view.out._dom_classes and widgets.STALE_CLASS in view.stale_too[0]._dom_classes
        assert widgets.RERUN_NOTE in view.stale_note.value.lower()
    assert f"die = {old + 2}" in html.unescape(panel.status.value)  # the panel names its new run
    die.value = old  # back to the rules they were computed for: current again
    assert all(widgets.STALE_CLASS not in v.out._dom_classes and v.stale_note.value == "" for v in (levers, tuner))
    die.value = old + 2
    levers.run()  # a rerun: current, and it names the new rules
    assert widgets.STALE_CLASS not in levers.out._dom_classes and levers.stale_note.value == ""
    assert f"die = {old + 2}" in html.unescape(levers.run_note.value)
    assert widgets.STALE_CLASS in tuner.out._dom_classes  # not rerun: still greyed
    panel.update(full=True)  # more games at the same rules: the views are still of these rules
    assert widgets.STALE_CLASS not in levers.out._dom_classes


def test_publish_publishes_the_run_on_screen(tmp_path, monkeypatch):
    """Issue 37: after Full precision, Publish writes those games (not a fresh quick run), at the panel's
    rules, and the report's first screen opens with what changed from the rulebook."""
    import re

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    panel = BalancePanel(
        "toy", sliders=["bonus_scale"], n_players=2, quick_games=200, precision=0.03, store=ChunkStore(tmp_path)
    )
    panel.focus.value = "strong"  # two agents at the table: a win rate each
    panel.controls["bonus_scale"][0].value = 0.5
    panel.update(full=True)
    games = panel.run_id.games
    assert games > 200 and panel.run_id.precision == 0.03  # the target took more than the quick games
    rate = panel.tables["agent"].set_index("agent")["win_rate"]
    text = panel.publish(tmp_path / "published.html").read_text()
    plain = html.unescape(re.sub(r"<[^>]+>", " ", text))
    assert f"Games per player count: {games:,} (seed 0)" in " ".join(plain.split())
    first = plain.index("Changed from the rulebook: bonus scale = 0.5")
    assert first < plain.index("Agents at the table")  # before any figure of the first screen
    assert f"{games:,} games" in panel.status.value and "published" in panel.status.value
    for agent, r in rate.items():  # the published win rates are the panel's, to the shown precision
        assert f"{r * 100:.1f}" in plain, agent


def test_sbr_panel_figures_are_legible_at_their_size(tmp_path):
    """Issue 37: the SBR panel's figures fit beside the sliders at 1366 px without being shrunk (at most
    6.5 inches at 100 dpi), no text under 8 points (11 px), and the "final square" axis ticked at whole
    squares (a square is a whole number: never 47.5)."""
    panel = BalancePanel("sbr", sliders=["curve_penalty"], n_players=4, quick_games=200, store=ChunkStore(tmp_path))
    panel.update()
    figures = [x for x in panel.items(sentences=False) if hasattr(x, "savefig")]
    assert len(figures) >= 3  # the win-rate chart, where riders end, the score's parts
    for fig in figures:
        fig.canvas.draw()
        assert fig.get_size_inches()[0] <= 6.5 and small_text(fig) == [], (fig.get_size_inches(), small_text(fig))
    (ends,) = [f for f in figures if f.axes[0].get_xlabel() == "final square"]
    ticks = [t.get_text().replace("−", "-") for t in ends.axes[0].get_xticklabels() if t.get_text()]
    assert ticks and all(t.lstrip("-").isdigit() for t in ticks), ticks
    from gamelab.core import charts as spec
    from gamelab.report import charts

    for squares in ([50], [47, 52], list(range(3, 61))):  # one square alone: matplotlib would tick 49.6, 49.8, ...
        bars = spec.Bars(squares, [spec.Series(values=[1.0] * len(squares))])
        fig = charts.draw(spec.Panel([spec.Plot(bars)], 6, 3))
        fig.canvas.draw()
        ticks = [t.get_text().replace("−", "-") for t in fig.axes[0].get_xticklabels() if t.get_text()]
        assert ticks and all(t.lstrip("-").isdigit() for t in ticks) and len(ticks) <= 10, ticks


@pytest.mark.parametrize("game", ["strand", "sbr"])
def test_notebook_panel_text_reads_as_words(game, tmp_path, monkeypatch):
    """Issue 37, the words check on panel outputs: the notebook's panel as shown (controls, numbers,
    tables, notes) names no raw identifier and no code notation (``1..N``, ``<terrain>``, ``>=``, a range
    whose ends agree); every parameter's meaning, as the parameter tables and tooltips show it, neither."""
    import re

    from words import notation, unreadable

    from gamelab.core.labels import doc_words
    from gamelab.report import format as fmt

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    ((_, _, sliders, knobs),) = [p for p in _notebook_panels() if p[1] == game]
    panel = BalancePanel(game, sliders=sliders, knobs=knobs, n_players=4, quick_games=64, store=ChunkStore(tmp_path))
    panel.update()
    text = html.unescape(re.sub(r"<[^>]+>", " ", panel.snapshot_html().split("</style>", 1)[1]))
    assert unreadable(text, game) == [] and notation(text) == [], (unreadable(text, game), notation(text))
    meanings = " | ".join(f"{fmt.param_label(s)}: {doc_words(s.doc)}" for s in specs(panel.base))
    assert notation(meanings) == [], notation(meanings)
    labels = [label for label, _ in panel.focus.options]  # the seat-1 agents: each once, a search budget apart
    assert len(labels) == len(set(labels)) and not any("play-out" in x or "beats deep" in x for x in labels), labels
