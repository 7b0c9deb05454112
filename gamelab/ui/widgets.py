"""ipywidgets panels for the notebooks: sliders made from the parameter
declarations (never retyped; labels and tooltips from the same place), a
quick re-simulation on every change, a full-precision run, and a Publish
button that writes into ``reports/`` at the project root and shows a link.

    from gamelab import BalancePanel
    BalancePanel(GAME, sliders=[PARAMETER, ...]).show()   # GAME: a name from registry.available_games()

Work that takes longer than half a second shows progress in the panel, and the
numbers on screen are marked stale until the new ones arrive.  A panel keeps
its last results (``frame``, ``tables``) as attributes, so the same code
path is tested without a browser.  Tables and charts come from
:mod:`gamelab.report.format`, the layer the reports use.
"""

from __future__ import annotations

import functools
import html
import os
import threading
import time
from pathlib import Path

import pandas as pd

from gamelab import stats
from gamelab.core import registry
from gamelab.core.contract import Game
from gamelab.core.labels import agent_label, lineup_words
from gamelab.core.params import specs
from gamelab.report import charts
from gamelab.report import format as fmt
from gamelab.sim import sweep
from gamelab.sim.run import RunConfig

QUICK_GAMES = int(os.environ.get("GAMELAB_QUICK_GAMES", "2000"))
SLOW = 0.5  # seconds: longer work shows progress and marks the old numbers stale
TICK = 0.25  # seconds between progress updates
STALE_CLASS = "gamelab-stale"
CONTROLS_HEIGHT = "560px"  # the controls column scrolls past this: results stay beside the sliders
STYLE = (
    f"<style>.{STALE_CLASS} {{ opacity: 0.35; filter: grayscale(1); transition: opacity 0.2s; }}"
    ".gamelab-panel .widget-label {{ min-width: 11em; }}</style>"
)
DEFAULT_LINEUP = "(default lineup)"
WIN_LABELS = {
    "n": "seats played",
    "win_rate": "win rate",
    "win_low": "low",
    "win_high": "high",
    "score_mean": "mean score",
    "score_low": "score low",
    "score_high": "score high",
}
IDENTITY_LABELS = {
    "exact": "exact here",
    "exact_at_rulebook": "exact at the rulebook's rules",
    "sim_low": "low",
    "sim_high": "high",
    "n": "sample",
}


def param_widgets(spec, value):
    """One widget per parameter (a tuple gets one slider per item), bounded by
    the declared range, labelled in words, with the declaration's doc and
    rulebook section as tooltip; ``continuous_update=False`` so a drag
    simulates once; a choice's values shown in words."""
    import ipywidgets as w

    tip = fmt.param_tooltip(spec)
    common = dict(
        continuous_update=False, style={"description_width": "initial"}, layout=w.Layout(width="340px"), tooltip=tip
    )
    label = fmt.param_label(spec)
    # a dropdown or a checkbox with a description shows no tooltip in ipywidgets 8 (their views set
    # ``title`` only without one): the description carries it, as an HTML span with a title
    hover = f"<span title='{html.escape(tip, quote=True)}'>{html.escape(label)}</span>"
    if spec.choices is not None:
        return [
            w.Dropdown(
                options=[(fmt.choice_label(c), c) for c in spec.choices],
                value=value,
                description=hover,
                description_allow_html=True,
                style=common["style"],
                tooltip=tip,
            )
        ]
    if spec.kind is bool:
        return [w.Checkbox(value=value, description=hover, description_allow_html=True, tooltip=tip, indent=False)]
    if spec.kind is tuple:
        lo = int(spec.low if spec.low is not None else 0)
        hi = int(spec.high if spec.high is not None else max(value) * 2)
        return [
            w.IntSlider(value=v, min=lo, max=hi, description=fmt.param_label(spec, i), **common)
            for i, v in enumerate(value)
        ]
    if spec.kind is int:
        return [w.IntSlider(value=value, min=int(spec.low), max=int(spec.high), description=label, **common)]
    return [
        w.FloatSlider(
            value=value,
            min=float(spec.low),
            max=float(spec.high),
            step=(float(spec.high) - float(spec.low)) / 100,
            description=label,
            **common,
        )
    ]


def mark_stale(panel, stale: bool) -> None:
    """Grey a panel's shown numbers (``panel.out`` and ``panel.stale_too``) and show its progress bar
    and note (or undo all three): every panel with slow work shares this."""
    shown = [panel.out, *getattr(panel, "stale_too", ())]  # e.g. a sentence above the chart
    if stale:
        for widget in shown:
            widget.add_class(STALE_CLASS)
        panel.progress.layout.visibility = "visible"
    else:
        for widget in shown:
            widget.remove_class(STALE_CLASS)
        panel.progress.layout.visibility = "hidden"
        panel.busy_note.value = ""


class Busy:
    """Progress in the panel while work runs: after :data:`SLOW` seconds the
    output is marked stale (greyed, a line says so) and a bar shows the
    elapsed time against the expected time (when a similar run was timed
    before), until the block ends."""

    def __init__(self, panel, what: str, expected: float | None = None):
        self.panel, self.what, self.expected = panel, what, expected
        self.done = threading.Event()
        self.shown = False

    def __enter__(self):
        self.start = time.perf_counter()
        self.thread = threading.Thread(target=self._tick, daemon=True)
        self.thread.start()
        return self

    def _tick(self):
        while not self.done.wait(TICK):
            elapsed = time.perf_counter() - self.start
            if elapsed < SLOW:
                continue
            if not self.shown:
                self.shown = True
                self.panel.mark_stale(True)
            bar = self.panel.progress
            if self.expected and elapsed < self.expected:
                bar.value = min(0.97, elapsed / self.expected)
                left = f", about {max(1.0, self.expected - elapsed):.0f} s left"
            elif self.expected:  # past the estimate: say so rather than "0 s left"
                bar.value = (elapsed % 4) / 4
                left = f", longer than the {self.expected:.0f} s the last similar run took"
            else:
                bar.value = (elapsed % 4) / 4
                left = ""
            bar.description = f"{elapsed:.0f} s"
            self.panel.busy_note.value = (
                f"<i>{html.escape(self.what)}{left}. The numbers below are from the previous setting.</i>"
            )

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        self.seconds = time.perf_counter() - self.start
        if self.shown:
            self.panel.mark_stale(False)
        return False


def _knob_slider(name: str, doc: str, lo: float, hi: float, step: float, default: float):
    """A slider for a derived knob (one that sets several rule parameters at
    once); its tooltip is the knob's docstring, first sentence."""
    import ipywidgets as w

    what = doc.strip().split("\n\n")[0]  # the docstring's first paragraph, in the designer's words
    what = " ".join(what.split()).removeprefix("Sweep knob: ").rstrip(".")

    return w.FloatSlider(
        value=default,
        min=lo,
        max=hi,
        step=step,
        description=fmt.words(name),
        continuous_update=False,
        style={"description_width": "initial"},
        layout=w.Layout(width="340px"),
        tooltip=f"{fmt.words(name)}: {what or 'sets several rule parameters at once'}; "
        "it moves the sliders of what it sets, and a slider moved after it wins",
    )


def metagame_line(game, params, n_players: int, seed: int, run) -> str | None:
    """The strategies worth playing if players adapt, one line (None: the game has no meta-game)."""
    if game.strategies is None or not game.strategies.profile_agent:
        return None
    from gamelab.models.metagame import worth_line

    return worth_line(game, n_players, params=params, seed=seed, run=run)


def game_panel(game, frame: pd.DataFrame, params) -> list:
    """The game's own panel (``Game.panels``): its measures' table, each with a 95 % interval
    over deals (:func:`gamelab.stats.balance.panel_table`), then its figures."""
    from gamelab.stats import balance

    return [balance.panel_table(game, frame), *game.panels.figures(frame, params)]


class BalancePanel:
    """Sliders for some parameters of ``game``; win rates with intervals,
    plots and the identity table follow every change."""

    def __init__(
        self,
        game: str,
        *,
        sliders=(),
        knobs: dict | None = None,
        n_players: int = 4,
        seed: int = 0,
        quick_games: int | None = None,
        precision: float = 0.01,
        store=None,
        extra=None,
    ):
        import ipywidgets as w

        self.game, self.seed, self.precision = game, seed, precision
        self.game_def = registry.get(game)
        if extra is None and self.game_def.panels is not None:  # the game's own diagnostics (tables, figures)
            extra = functools.partial(game_panel, self.game_def)
        self.extra = extra
        self.quick_games = quick_games or QUICK_GAMES
        self.store = store
        self.base = self.game_def.knobs()
        by_name = {s.name: s for s in specs(self.base)}
        unknown = [n for n in sliders if n not in by_name]
        if unknown:
            raise ValueError(f"no parameter {unknown[0]!r} in {game}; known: {', '.join(by_name)}")
        self.controls = {n: param_widgets(by_name[n], getattr(self.base, n)) for n in sliders}
        self.knobs = {
            name: _knob_slider(name, self.game_def.derived[name].__doc__ or "", *spec)
            for name, spec in (knobs or {}).items()
        }
        self.players, self.focus = self._table_controls(n_players)
        self.full_button = w.Button(
            description="Full precision run",
            icon="play",
            tooltip=f"add games until every win rate is within ±{precision * 100:g} points",
        )
        self.publish_button = w.Button(
            description="Publish", icon="file", tooltip="write this view as an HTML report into reports/"
        )
        self.status = w.HTML()
        self.busy_note = w.HTML()
        self.progress = w.FloatProgress(value=0.0, min=0.0, max=1.0, layout=w.Layout(visibility="hidden"))
        self.out = w.Output()
        self.sentence_note = w.HTML()  # the rulebook sentences: after the numbers, without redrawing them
        self.worth_note = w.HTML()  # the styles worth playing (a game with a meta-game): after them too
        # the headline imbalance in a line (a bootstrap interval, 0.1-0.3 s): just after the numbers, above them
        self.headline_note = w.HTML()
        self.stale_too = (self.sentence_note, self.worth_note, self.headline_note)
        self._holding = False  # True while a knob writes its derived values into the sliders
        for widget in self._all_controls():
            if widget in self.knobs.values():
                continue
            widget.observe(lambda change: None if self._holding else self.update(), names="value")
        for name, slider in self.knobs.items():
            slider.observe(lambda change, name=name: self._apply_knob(name), names="value")
        self.full_button.on_click(lambda b: self.update(full=True))
        self.publish_button.on_click(lambda b: self.publish())
        self.frame = None
        self.tables: dict[str, pd.DataFrame] = {}
        self.last_path: Path | None = None
        self.seconds_per_game: dict[tuple, float] = {}

    def _table_controls(self, n_players: int):
        """The player count slider and the seat-1 agent choice."""
        import ipywidgets as w

        lo, hi = self.game_def.players
        players = w.IntSlider(
            value=n_players,
            min=lo,
            max=hi,
            description="players",
            continuous_update=False,
            tooltip=f"players at the table ({lo} to {hi})",
        )
        focus = w.Dropdown(
            options=[("default lineup", DEFAULT_LINEUP)]
            + [(agent_label(self.game_def, a), a) for a in self.game_def.agents],
            description="agent in seat 1",
            style={"description_width": "initial"},
            tooltip="one seat played by this agent against the default lineup (the runner "
            "rotates it through every seat); lookahead play is slow, about 20 s",
        )
        return players, focus

    def _all_controls(self):
        for ws in self.controls.values():
            yield from ws
        yield from self.knobs.values()
        yield self.players
        yield self.focus

    def _knob_changes(self) -> dict:
        """What the derived knobs set (from the rulebook's values), in knob order."""
        changes: dict = {}
        for name, slider in self.knobs.items():
            changes.update(self.game_def.derived[name](self.base, slider.value))
        return changes

    def _apply_knob(self, name: str) -> None:
        """A knob moved: write the values it derives into the sliders of the
        parameters it sets (so the sliders show the rules in use), then
        re-simulate once.  A slider moved after the knob wins: the sliders
        are what :meth:`params` reads."""
        from gamelab.core.errors import GamelabError

        try:
            derived = self.game_def.derived[name](self.base, self.knobs[name].value)
        except GamelabError as exc:
            self.status.value = f"<b style='color:#c62828'>{html.escape(str(exc))}</b>"
            return
        self._holding = True
        try:
            for param, value in derived.items():
                for widget, v in zip(self.controls.get(param, ()), value if isinstance(value, tuple) else (value,)):
                    widget.value = v
        finally:
            self._holding = False
        self.update()

    def params(self):
        """The parameter object the sliders describe (validated): a derived
        knob's values for the parameters without a slider, then every
        slider's value (a knob has already written its values into the
        sliders of the parameters it sets, :meth:`_apply_knob`)."""
        changes = {k: v for k, v in self._knob_changes().items() if k not in self.controls}
        for name, ws in self.controls.items():
            values = [x.value for x in ws]
            changes[name] = tuple(values) if isinstance(getattr(self.base, name), tuple) else values[0]
        return self.base.replace(**changes)

    def lineup(self):
        default = list(self.game_def.default_lineup(self.players.value))
        if self.focus.value in self.game_def.agents:
            default[0] = self.focus.value
        return default

    def mark_stale(self, stale: bool):
        mark_stale(self, stale)

    def _expected(self, games: int) -> float | None:
        key = (tuple(self.lineup()), self.players.value)
        per = self.seconds_per_game.get(key)
        return per * games if per else None

    def update(self, full: bool = False):
        """Re-simulate (quick, or to the precision target) and redraw."""
        from gamelab.core.errors import GamelabError
        from gamelab.rulebook.identities import identity_table
        from gamelab.sim.store import ChunkStore

        start = time.perf_counter()
        try:
            params = self.params()
        except GamelabError as exc:
            self.status.value = f"<b style='color:#c62828'>{html.escape(str(exc))}</b>"
            return
        kw = dict(
            n_games=self.quick_games,
            seed=self.seed,
            base_params=params,
            lineup=self.lineup(),
            n_players=self.players.value,
            run=RunConfig(store=self.store or ChunkStore(), progress=False),
        )
        if full:
            kw.update(precision=self.precision)
        lineup = lineup_words(self.game_def, self.lineup())
        with Busy(
            self,
            f"Simulating {self.quick_games:,} games ({lineup})"
            if not full
            else f"Adding games until every win rate is within ±{self.precision * 100:g} points",
            self._expected(self.quick_games),
        ) as busy:
            run = sweep.run_cell(self.game_def, {}, **kw)
            self.frame = run.frame
            self.frame_params, self.frame_lineup = params, kw["lineup"]  # what the frame was played with
            self.tables = {by: stats.win_table(run.frame, by) for by in self.game_def.report.groups if by in run.frame}
            self.tables["identities"] = identity_table(self.game_def, params, frame=run.frame)
            self.extras = [charts.drawn(x) for x in self.extra(run.frame, params)] if self.extra is not None else []
            self.sentences = None
            self.worth = None
            self.headline = ""
        if busy.seconds > 0.2:  # timed a real run, not a cache read
            self.seconds_per_game[(tuple(self.lineup()), self.players.value)] = busy.seconds / run.games
        note = f"{run.games:,} games" + (
            "" if run.target_met is None else (" (precision target met)" if run.target_met else " (cap reached)")
        )
        self.status.value = html.escape(note)
        self.headline_note.value = ""  # never the last run's figure beside these numbers
        self._draw()  # the numbers first; the rulebook sentences (not simulation) after them
        self.seconds = time.perf_counter() - start  # a move's time to its numbers (``gamelab bench``)
        self.headline = headline_figure(self.game_def, self.frame, self.players.value, self.seed)
        self.headline_note.value = f"<b>{html.escape(self.headline)}</b>" if self.headline else ""
        if sentences_pending(self.game_def, params):
            self.sentence_note.value = "<i>Checking which rulebook sentences these rules make wrong…</i>"
        self.sentences = rulebook_sentences(self.game_def, params)
        self.sentence_note.value = self.sentences.to_html() if self.sentences is not None else ""
        # the meta-game's line (issue 28): a payoff table of its own, so it comes after the numbers too
        if self.game_def.strategies is not None:
            self.worth_note.value = "<i>Solving which styles adapting players would keep…</i>"
        self.worth = metagame_line(self.game_def, params, self.players.value, self.seed, kw["run"])
        self.worth_note.value = f"<b>{html.escape(self.worth)}</b>" if self.worth else ""

    def items(self, sentences: bool = True) -> list:
        """What the panel shows under its controls, in order: the headline
        imbalance in a line (:func:`headline_figure`), the win-rate
        chart (the headline grouping, the fair share marked), the win
        tables, the game's own diagnostics, the identity table, then (with
        ``sentences``) the styles worth playing and the rulebook sentences note (a widget of its own in
        the notebook, :attr:`sentence_note`)."""
        fair = 1 / self.players.value
        groups = [(by, t) for by, t in self.tables.items() if by != "identities"]
        out: list = []
        shown = [(by, t) for by, t in groups if len(t) > 1]
        if sentences and getattr(self, "headline", None):  # the figure Levers says "now" for (its own widget)
            out.append(Note(f"<b>{html.escape(self.headline)}</b>"))
        headline = self.game_def.report.headline.removesuffix("_spread")
        shown = [x for x in shown if x[0] == headline] or shown[:1]  # one chart: the headline grouping
        if shown:
            panels = [
                fmt.WinPanel(f"win rate by {fmt.words(by)}, {self.players.value} players", t, by, fair)
                for by, t in shown
            ]
            out.append(charts.win_rate_chart(panels, columns=1, width=6.5))
        n = self.players.value
        for by, t in groups:
            t = t.assign(**{by: [fmt.group_label(by, v) for v in t[by]]})
            caption = f"Win rate by {fmt.words(by)}, {n} players (95 % interval; fair share {fair * 100:.1f} %)"
            out.append(fmt.styler(t, labels={**WIN_LABELS, by: fmt.words(by)}, caption=caption))
        for x in self.extras:  # the game's own measures: a table says its player count
            out.append(
                fmt.styler(x, caption=f"The game's own measures, {n} players, the same games")
                if isinstance(x, pd.DataFrame)
                else x
            )
        ids = self.tables["identities"]
        if len(ids):
            caption = f"Identities (exact: from the rules; simulated: these {n}-player games)"
            out.append(fmt.styler(ids, labels=IDENTITY_LABELS, caption=caption))
        if sentences and getattr(self, "worth", None):  # the meta-game's line (issue 28)
            out.append(Note(f"<b>{html.escape(str(self.worth))}</b>"))
        if sentences and getattr(self, "sentences", None) is not None:
            out.append(self.sentences)
        return out

    def _draw(self):
        from IPython.display import display

        self.out.clear_output(wait=True)
        with self.out:
            for item in self.items(sentences=False):
                display(item)

    def snapshot_html(self) -> str:
        """The panel as a static HTML page (controls in words with their
        values, then :meth:`items`): what a notebook shows, for a browser
        test or a file."""
        parts = [
            f"<li title='{html.escape(getattr(x, 'tooltip', '') or '')}'>{html.escape(plain_label(x))}: "
            f"<b>{html.escape(_shown_value(x))}</b></li>"
            for x in self._all_controls()
        ]
        body = [f"<ul class='controls'>{''.join(parts)}</ul><p>{self.status.value}</p>"]
        for item in self.items():
            if hasattr(item, "savefig"):
                body.append(f"<figure>{charts.svg(item)}</figure>")
            elif hasattr(item, "to_html"):
                body.append(item.to_html())
            else:
                body.append(f"<pre>{html.escape(str(item))}</pre>")
        style = (
            "body{font-family:system-ui,sans-serif;max-width:1100px;margin:1em auto;font-size:14px}"
            "table{border-collapse:collapse;margin:.8em 0}td,th{border:1px solid #ddd;padding:2px 6px}"
            "caption{text-align:left;font-weight:600;padding:4px 0}figure svg{max-width:100%;height:auto}"
            ".controls{columns:3}"
        )
        return (
            f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(self.game)} panel</title>"
            f"<style>{style}</style></head><body>{''.join(body)}</body></html>"
        )

    def publish(self, out: str | Path | None = None) -> Path:
        """Write the current view as an HTML report (default
        ``reports/<game>-<time>.html`` at the project root) and show a link."""
        import datetime as dt

        from gamelab.core.paths import reports_dir
        from gamelab.report.build import build_report

        out = Path(out) if out else reports_dir() / f"{self.game}-{dt.datetime.now():%Y%m%d-%H%M%S}.html"
        with Busy(self, "Writing the report"):
            self.last_path = build_report(
                self.game,
                params=self.params(),
                n_games=self.quick_games,
                seed=self.seed,
                out=out,
                player_counts=(self.players.value,),
                lineups={self.players.value: self.lineup()},
                run=RunConfig(store=self.store, progress=False),
            )
        self.status.value = publish_link(self.last_path)
        return self.last_path

    def widget(self):
        """Controls on the left (scrolling on their own when there are many),
        results on the right: a slider and the numbers it moves are on screen
        together (a 1366 × 900 laptop included)."""
        import ipywidgets as w

        sliders = [x for ws in self.controls.values() for x in ws] + list(self.knobs.values())
        left = w.VBox(
            sliders,
            layout=w.Layout(width="370px", min_width="370px", max_height=CONTROLS_HEIGHT, overflow="auto"),
        )
        from gamelab.ui.viewer import ShowGame

        self.show_game = ShowGame(self)  # "Show a game": one game under these rules and lineup, shown last
        actions = w.HBox([self.full_button, self.publish_button, self.show_game.button])
        right = w.VBox(
            [
                w.HBox([self.players, self.focus]),
                actions,
                self.status,
                w.HBox([self.progress, self.busy_note]),
                self.headline_note,
                self.out,
                self.worth_note,
                self.sentence_note,
                self.show_game.out,
            ],
            layout=w.Layout(flex="1 1 auto", min_width="0"),
        )
        box = w.VBox([w.HTML(STYLE), w.HBox([left, right])])
        box.add_class("gamelab-panel")
        return box

    def show(self):
        from IPython.display import display

        self.update()
        display(self.widget())
        return self


def time_slider_move(game: Game, parameter: str, value, *, reps: int = 3) -> float:
    """Seconds from moving ``parameter``'s slider(s) to ``value`` until the
    panel's numbers are drawn, at the notebook's default sample
    (:data:`QUICK_GAMES`) and 4 players, nothing cached (a fresh chunk store
    each time; one move first to warm imports and compiled code); the median of
    ``reps``.  What ``gamelab bench`` reports as ``panel_slider_s``."""
    import statistics
    import tempfile

    from gamelab.sim.store import ChunkStore

    times = []
    for i in range(reps + 1):
        with tempfile.TemporaryDirectory() as tmp:
            panel = BalancePanel(game.name, sliders=[parameter], n_players=4, seed=100 + i, store=ChunkStore(Path(tmp)))
            panel._draw = functools.partial(_render, panel)  # type: ignore[method-assign]
            panel.update()
            ws = panel.controls[parameter]
            for widget, v in zip(ws, value if isinstance(value, tuple) else (value,)):
                if widget.value != v:
                    panel._holding = True  # every item but the last: no run of its own
                    widget.value = v
            panel._holding = False
            panel.update()
            if i:  # the first: imports and compiled code
                times.append(panel.seconds)
    return statistics.median(times)


def _render(panel) -> None:
    """What a notebook does to show a panel's items: a figure to PNG, a table to HTML."""
    import io

    for item in panel.items(sentences=False):
        if hasattr(item, "savefig"):
            item.savefig(io.BytesIO(), format="png")
        elif hasattr(item, "to_html"):
            item.to_html()


def headline_figure(game_def, frame, n_players: int, seed: int) -> str:
    """``Style spread, 4 players: 24.6 points (95 % interval 20.8–27.8), these
    2,000 games``: the game's headline imbalance on the panel's run, estimated as
    Levers estimates its "now" (the same games give the same figure); empty
    when this run cannot give it."""
    import numpy as np

    from gamelab.core.errors import GamelabError
    from gamelab.stats import balance

    m = balance.metric(game_def, game_def.report.headline)
    try:
        e = balance.estimate(frame, [m], rng=np.random.default_rng(seed)).iloc[0]
    except (GamelabError, KeyError, ValueError):
        return ""
    if not np.isfinite(e["value"]):
        return ""
    scale, unit = (100, " points" if balance.in_points(m) else " %") if m.percent else (1, "")
    value, low, high = (f"{x * scale:.1f}" if scale == 100 else f"{x:.3g}" for x in (e["value"], e["low"], e["high"]))
    games = frame["game"].nunique()
    return (
        f"{m.label[0].upper()}{m.label[1:]}, {n_players} players: {value}{unit} (95 % interval {low}–{high}), "
        f"these {games:,} games"
    )


class Note:
    """A line of HTML among a panel's items (shown by the notebook and by :meth:`BalancePanel.snapshot_html`)."""

    def __init__(self, body: str):
        self.body = body

    def _repr_html_(self) -> str:
        return f"<p>{self.body}</p>"

    to_html = _repr_html_


_SENTENCES: dict = {}


def _sentences_key(game: Game, params):
    from gamelab.rulebook import sentences

    changed = sentences.rules_of(game, params).changed()
    return (game.name, repr(sorted(changed.items()))) if changed else None


def sentences_pending(game: Game, params) -> bool:
    """Whether :func:`rulebook_sentences` has work to do (rules not checked before)."""
    from gamelab.rulebook import coverage

    if game.name not in coverage.rulebooks() or not coverage.seed_path(game.name).exists():
        return False
    key = _sentences_key(game, params)
    return key is not None and key not in _SENTENCES


def rulebook_sentences(game: Game, params) -> Note | None:
    """How many rulebook sentences the panel's rules make wrong, with a link
    to the list (``reports/<game>-sentences.md``, the Markdown of ``gamelab
    claims GAME --params FILE --rewrite``); None at the rulebook's rules or
    for a game without a rulebook text."""
    from gamelab.core.paths import reports_dir
    from gamelab.rulebook import coverage, sentences

    if game.name not in coverage.rulebooks() or not coverage.seed_path(game.name).exists():
        return None
    rules = sentences.rules_of(game, params)
    changed = rules.changed()
    key = _sentences_key(game, params)
    if key is None:
        return None
    if key not in _SENTENCES:  # asking the rules takes a second or two: once per rule set
        table, counts = sentences.changed_sentences(game, rules)
        _SENTENCES[key] = (table, counts, changed)
    table, counts, changed = _SENTENCES[key]
    path = reports_dir() / f"{game.name}-sentences.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    # with a byte-order mark: Jupyter serves .md as text/markdown without a charset, and a browser
    # then reads the Chinese sentences as Latin-1 (mojibake); the mark makes it read UTF-8
    path.write_text(sentences.rewrite(game, table, changed), encoding="utf-8-sig")
    return Note(
        f"{len(table)} rulebook sentences no longer hold under these rules "
        f"({counts['lines_hold']} of {counts['lines']} lines checked by the rules still do): "
        + publish_link(path).replace("published ", "the list ", 1)
    )


LINK_STYLE = "color:#1565c0;text-decoration:underline;cursor:pointer"


def running_servers() -> list[dict]:
    """The running Jupyter servers' info files (``jpserver-*.json`` in the
    runtime folder, whose process is alive): what
    ``jupyter_server.serverapp.list_running_servers`` reads, by hand because
    importing ``jupyter_server.serverapp`` takes 6 s of a kernel's first
    slider move (it loads jsonschema's format grammars)."""
    import json

    from jupyter_core.paths import jupyter_runtime_dir

    out = []
    for file in sorted(Path(jupyter_runtime_dir()).glob("jpserver-*.json")):
        try:
            info = json.loads(file.read_text(encoding="utf-8"))
            pid = int(info["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        try:
            os.kill(pid, 0)  # signal 0: only asks whether the process exists
        except PermissionError:  # another user's process: it exists
            pass
        except OSError:
            continue
        out.append(info)
    return out


def server_href(path: Path) -> str | None:
    """The address of ``path`` on the Jupyter server this kernel belongs to:
    ``<base_url>files/<path under the server's root>``, which opens from any
    JupyterLab location (``/lab/tree/notebooks`` too).  The server is the
    running one whose root holds the kernel's working directory (the
    notebook's folder); None when no running server serves the file."""
    from urllib.parse import quote

    here = Path.cwd().resolve()
    best = None
    for info in running_servers():
        root = Path(info.get("root_dir") or info.get("notebook_dir") or "").resolve()
        if not info.get("root_dir") and not info.get("notebook_dir"):
            continue
        if here.is_relative_to(root) and path.is_relative_to(root):
            if best is None or len(str(root)) > len(str(best[0])):
                best = (root, info)
    if best is None:
        return None
    root, info = best
    base = info.get("base_url") or "/"
    return f"{base.rstrip('/')}/files/{quote(path.relative_to(root).as_posix())}"


def publish_link(path: Path) -> str:
    """An HTML link to a published file that looks like a link: on the
    Jupyter server's ``files/`` route when a server serves it
    (:func:`server_href`), else relative to the notebook's folder (the
    kernel's working directory); its name relative to the project root."""
    from gamelab.core.paths import workspace

    path = Path(path).resolve()
    href = server_href(path)
    if href is None:
        try:
            href = os.path.relpath(path, Path.cwd())
        except ValueError:  # another drive
            href = path.as_uri()
    try:
        name = str(path.relative_to(workspace()))
    except ValueError:
        name = str(path)
    return (
        f'published <a href="{html.escape(href)}" target="_blank" rel="noopener" style="{LINK_STYLE}">'
        f"{html.escape(name)}</a>"
    )


def plain_label(widget) -> str:
    """A control's description as text (a dropdown's or checkbox's is an HTML span carrying its tooltip)."""
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", widget.description))


def _shown_value(widget) -> str:
    """A control's value as the widget shows it (a dropdown's label, not its key)."""
    options = getattr(widget, "options", None)
    if options and isinstance(options[0], tuple):
        return next((str(label) for label, v in options if v == widget.value), str(widget.value))
    return fmt.number(widget.value) if not isinstance(widget.value, str) else widget.value
