"""Notebook panels for the decision tools: "Levers" (a tornado chart of the
rule parameters that move a metric) and "Tune" (targets from a form, the
tuner's verified proposals).  Each takes a
:class:`~gamelab.ui.balance_panel.BalancePanel` (and then works from its current
sliders, player count and lineup) or a game name.

    levers = LeversPanel(panel, only=["sum_cap", "lone_penalty"]).show()
    tune = TunePanel(panel, free=["sum_cap"]).show()

Like the balance panel, each keeps its last results as attributes
(``table``, ``figure``; ``result``), so the same code is tested headless.
"""

from __future__ import annotations

import html
import os
from typing import Any

import pandas as pd

from gamelab.core import registry
from gamelab.core.params import specs
from gamelab.decide import sensitivity, tune
from gamelab.report import charts
from gamelab.sim.run import RunConfig
from gamelab.stats import balance

MAX_TARGETS = 3


class _Source:
    """The game, rules, players and lineup a panel works from."""

    def __init__(self, source, n_players: int | None, quick_games: int | None):
        from gamelab.ui.balance_panel import QUICK_GAMES

        self.panel = None if isinstance(source, str) else source
        self.game = source if isinstance(source, str) else source.game
        self.game_def = registry.get(self.game)
        self.fixed_players = n_players or (self.game_def.report.players or self.game_def.players)[0]
        self.quick_games = quick_games or (self.panel.quick_games if self.panel is not None else QUICK_GAMES)

    def params(self):
        return self.panel.params() if self.panel is not None else self.game_def.knobs()

    def players(self) -> int:
        return self.panel.players.value if self.panel is not None else self.fixed_players

    def lineup(self):
        return self.panel.lineup() if self.panel is not None else None

    def store(self):
        from gamelab.core import paths
        from gamelab.sim.store import ChunkStore

        store = getattr(self.panel, "store", None)
        return store if store is not None else ChunkStore(paths.cache_dir())


def _metric_options(game) -> list[tuple[str, str]]:
    """The catalogue's metrics as (label, name) pairs (a run adds the win
    rate of every group value)."""
    return [(m.label, name) for name, m in balance.catalogue(game).items()]


def _lineup_words(src: _Source, run) -> str:
    from gamelab.core.labels import lineup_words

    return lineup_words(src.game_def, list(run.lineup))


class _Progress:
    """What :class:`gamelab.ui.widgets.Busy` needs of a panel: a bar, a note,
    and an output to grey while work runs."""

    out: Any

    def _progress_widgets(self):
        import ipywidgets as w

        self.progress = w.FloatProgress(value=0.0, min=0.0, max=1.0, layout=w.Layout(visibility="hidden"))
        self.busy_note = w.HTML()

    def mark_stale(self, stale: bool):
        from gamelab.ui.widgets import mark_stale

        mark_stale(self, stale)

    def _follow(self, src: _Source) -> None:
        """Be told when the panel's current run changes (:meth:`panel_changed`); ``computed_for``: the
        run this view's figures were computed on, ``run_note``: which run that is, or that it is stale."""
        import ipywidgets as w

        self.computed_for = None
        self.run_note = w.HTML()
        self.stale_note = w.HTML()
        if src.panel is not None and hasattr(src.panel, "views"):
            src.panel.views.append(self)

    def _computed(self, src: _Source) -> None:
        """The figures just drawn are of the panel's current run: say which, and not greyed."""
        panel = src.panel
        current = panel.current() if panel is not None and hasattr(panel, "current") else None
        self.computed_for = current
        if current is not None:
            self.run_note.value = html.escape(
                f"Computed for: {current.words(src.game_def).split('; ', 1)[0]}; "
                f"{current.players} players, {_lineup_words(src, current)}."
            )
            self.panel_changed(current)  # not greyed: computed on the run on screen (however quick the run was)
        self.stale_note.value = ""

    def panel_changed(self, current) -> None:
        from gamelab.ui.widgets import stale_view

        stale_view(self, current, self.stale_note)


def _framing_html(fr) -> str:
    """The framing sentence, the steps sure to help in green, sure to hurt in red."""
    from gamelab.decide.sensitivity import HELPS_COLOUR, HURTS_COLOUR

    def listed(levers, colour):
        return "; ".join(
            f"<span style='color:{colour}'>{html.escape(x.words)} ({html.escape(fr.amount(x.change))})</span>"
            for x in levers[:5]
        )

    level = html.escape(fr.level())
    if fr.goal:
        head = f"To <b>{fr.goal}</b> the {html.escape(fr.label)} (now {level}): "
        good = listed(fr.helps, HELPS_COLOUR) if fr.helps else "no single step is sure to help"
        bad = f"<br>Changes that would make it worse: {listed(fr.hurts, HURTS_COLOUR)}." if fr.hurts else ""
    else:
        head = f"What raises the {html.escape(fr.label)} (now {level}): "
        good = listed(fr.helps, HELPS_COLOUR) if fr.helps else "no single step is sure to"
        bad = f"<br>What lowers it: {listed(fr.hurts, HURTS_COLOUR)}." if fr.hurts else ""
    rest = f"<br>{len(fr.unsure)} other steps move it by less than the noise (not sure)." if fr.unsure else ""
    idle = f"<br>{html.escape(fr.idle_words())}" if fr.idle else ""
    return f"<div class='gamelab-framing'>{head}{good}.{bad}{rest}{idle}</div>"


class LeversPanel(_Progress):
    """The rule parameters that move one metric, each a step down and up on
    the same deals as the current rules: a sentence framed by the metric's
    better side (green helps, red hurts) above the tornado chart."""

    def __init__(
        self,
        source,
        *,
        metric: str | None = None,
        only=None,
        n_players: int | None = None,
        quick_games: int | None = None,
        seed: int = 0,
        top: int = 12,
    ):
        import ipywidgets as w

        self.src = _Source(source, n_players, quick_games)
        self.only, self.seed, self.top = only, seed, top
        metric = metric or self.src.game_def.report.headline  # the game's headline imbalance by default
        self.metric = w.Dropdown(options=_metric_options(self.src.game_def), value=metric, description="metric")
        self.button = w.Button(description="Find levers", icon="search")
        self.status = w.HTML()
        self.sentence = w.HTML()
        self.out = w.Output()
        self.stale_too = (self.sentence,)
        self._progress_widgets()
        self._follow(self.src)
        self.button.on_click(lambda b: self.run())
        self.metric.observe(lambda change: self._draw(), names="value")
        self.table: pd.DataFrame | None = None
        self.figure = None
        self.framing: sensitivity.Framing | None = None

    def run(self):
        """Play every step (quick games) and draw the chart."""
        from gamelab.core.errors import GamelabError
        from gamelab.ui.widgets import Busy

        try:
            with Busy(self, f"Playing one step of each rule, {self.src.quick_games:,} games each"):
                self._play()  # drawn before the old chart and sentence lose their grey
        except GamelabError as exc:
            self.status.value = f"<b style='color:#c62828'>{html.escape(str(exc))}</b>"
        return self

    def _play(self):
        """Play the steps, then draw the sentence and chart (inside the progress: still greyed)."""
        table = sensitivity.levers(
            self.src.game_def,
            n_players=self.src.players(),
            lineup=self.src.lineup(),
            params=self.src.params(),
            n_games=self.src.quick_games,
            seed=self.seed,
            only=self.only,
            run=RunConfig(store=self.src.store(), progress=False),
        )
        if self._same_run_as_panel(table):
            table.attrs["now_source"] = "the same games as the panel's"
        self.table = table
        labels = {name: label for label, name in _metric_options(self.src.game_def)}
        names = list(dict.fromkeys(table["metric"]))
        current = self.metric.value
        self.metric.options = [(labels.get(n) or balance.metric(self.src.game_def, n).label, n) for n in names]
        self.metric.value = current if current in names else names[0]
        skipped = table.attrs["skipped"]
        note = f"{table.attrs['games']:,} games per setting, the same deals for each"
        self.status.value = html.escape(note + (f"; {len(skipped)} steps not played" if skipped else ""))
        self._computed(self.src)
        self._draw()

    def _same_run_as_panel(self, table) -> bool:
        """Whether the steps' paired base run is the panel's own run (its rules,
        lineup, player count, seed and games): then "now" is the panel's figure."""
        panel = self.src.panel
        frame = getattr(panel, "frame", None)
        if panel is None or frame is None:
            return False
        return (
            getattr(panel, "seed", None) == self.seed
            and table.attrs.get("games") == frame["game"].nunique()
            and table.attrs.get("players") == panel.players.value
            and getattr(panel, "frame_params", None) == self.src.params()
            and getattr(panel, "frame_lineup", None) == self.src.lineup()
        )

    def _draw(self):
        from IPython.display import display

        if self.table is None:
            return
        self.framing = sensitivity.framing(self.table, self.metric.value)
        self.sentence.value = _framing_html(self.framing)
        self.figure = charts.tornado_figure(self.table, self.metric.value, top=self.top)
        self.out.clear_output(wait=True)
        with self.out:
            display(self.figure)

    def widget(self):
        import ipywidgets as w

        from gamelab.ui.widgets import STYLE

        box = w.VBox(
            [
                w.HTML(STYLE),
                w.HBox([self.metric, self.button, self.status]),
                w.HBox([self.progress, self.busy_note]),
                self.stale_note,
                self.run_note,
                self.sentence,
                self.out,
            ]
        )
        box.add_class("gamelab-levers")
        return box

    def show(self):
        from IPython.display import display

        self.run()
        display(self.widget())
        return self


# the panel's default search: enough for a two-parameter goal (GAMELAB_TUNE_TRIALS: another count, as
# GAMELAB_QUICK_GAMES sets the quick games; the notebook tests set a short search, the default is 30)
TUNE_TRIALS = int(os.environ.get("GAMELAB_TUNE_TRIALS", "30"))
TUNE_GAMES = 2000  # at least this many games per candidate (the quick games when more)


class TunePanel(_Progress):
    """Targets and free rule parameters from a form; while the tuner runs,
    progress and the best so far; then its answer in a sentence and the
    proposals, each decided on fresh deals (:mod:`gamelab.decide.tune`)."""

    def __init__(
        self,
        source,
        *,
        free=(),
        targets=(),
        trials: int = TUNE_TRIALS,
        n_players: int | None = None,
        quick_games: int | None = None,
        seed: int = 0,
        verify: int = 2,
    ):
        import ipywidgets as w

        from gamelab.core.labels import param_words

        self.src = _Source(source, n_players, quick_games)
        self.seed, self.verify = seed, verify
        rules = {s.name for s in specs(self.src.game_def.rules)}
        numeric = [
            s.name
            for s in specs(self.src.game_def.knobs)
            if s.name in rules
            and s.choices is None
            and s.kind in (int, float, tuple)
            and s.low is not None
            and s.high is not None
        ]
        choices = [(param_words(n), n) for n in numeric + list(self.src.game_def.derived)]
        self.free = w.SelectMultiple(options=choices, value=tuple(free), description="free rules", rows=6)
        self.catalogue = balance.catalogue(self.src.game_def)
        options = [("(no target)", "")] + [(m.label, n) for n, m in self.catalogue.items() if m.goal]
        self.rows = []
        given = list(targets) + [(None, "at_most", 0.1)] * (MAX_TARGETS - len(targets))
        for metric, bound, value in given[:MAX_TARGETS]:
            percent = bool(metric) and self.catalogue[metric].percent
            self.rows.append(
                (
                    w.Dropdown(options=options, value=metric or "", layout=w.Layout(width="220px")),
                    w.Dropdown(
                        options=[("at most", "at_most"), ("at least", "at_least")],
                        value=bound,
                        layout=w.Layout(width="90px"),
                    ),
                    w.FloatText(value=round(value * 100, 6) if percent else value, layout=w.Layout(width="80px")),
                    w.HTML("points" if percent else ""),
                )
            )
        for row in self.rows:
            row[0].observe(lambda change, row=row: self._unit(row), names="value")
        self.trials = w.BoundedIntText(value=trials, min=1, max=10_000, description="trials")
        self.button = w.Button(description="Tune", icon="cogs")
        self.status = w.HTML()
        self.answer = w.HTML()
        self.out = w.Output()
        self.stale_too = (self.answer,)
        self._progress_widgets()
        self._follow(self.src)
        self.button.on_click(lambda b: self.run())
        self.result: tune.TuneResult | None = None
        self.shown: pd.DataFrame | None = None

    def _unit(self, row):
        name = row[0].value
        row[3].value = "points" if name and self.catalogue[name].percent else ""

    def games(self) -> int:
        return max(self.src.quick_games, TUNE_GAMES)

    def goal(self) -> tune.Goal:
        """The goal the form describes (free ranges: the declared ones;
        a target in points is a share of 1 in the goal)."""
        by_name = {s.name: s for s in specs(self.src.game_def.knobs)}
        free: dict[str, Any] = {}
        for name in self.free.value:
            if name in by_name:
                s = by_name[name]
                rng = [s.low, s.high]
                free[name] = [rng] if s.kind is tuple else rng
            else:
                free[name] = [0.5, 1.5] if name.endswith(sensitivity.SCALE_SUFFIX) else [-2.0, 2.0]
        targets = []
        for m, bound, v, _ in self.rows:
            if m.value:
                value = float(v.value) / 100 if self.catalogue[m.value].percent else float(v.value)
                targets.append({"metric": m.value, bound.value: value})
        base = {k: list(v) if isinstance(v, tuple) else v for k, v in self.src.params().changed().items()}
        lineup = self.src.lineup()
        return tune.Goal.model_validate(
            dict(
                game=self.src.game,
                players=self.src.players(),
                free=free,
                targets=targets,
                trials=self.trials.value,
                games=self.games(),
                seed=self.seed,
                verify=self.verify,
                lineup=list(lineup) if lineup else None,
                params=base or None,
            )
        )

    def _on_trial(self, done: int, total: int, best: float) -> None:
        """Progress while the search runs: trials done, the best so far."""
        self.progress.layout.visibility = "visible"
        self.progress.value = done / max(total, 1)
        self.progress.description = f"{done}/{total}"
        so_far = (
            "a candidate meets the targets on the search's deals"
            if best == 0
            else f"the closest candidate misses by {self._miss_words(best)}"
        )
        self.busy_note.value = html.escape(
            f"Searching: trial {done} of {total}; best so far: {so_far}. Then each proposal is decided on fresh deals."
        )

    def _miss_words(self, miss: float) -> str:
        names = [m.value for m, *_ in self.rows if m.value]
        if names and all(self.catalogue[n].percent for n in names):
            return f"{miss * 100:.1f} points"
        return f"{miss:.3g}"

    def run(self):
        from IPython.display import display

        from gamelab.core.errors import GamelabError
        from gamelab.report import format as fmt

        try:
            goal = self.goal()
            st = tune.setting(goal)
            self.mark_stale(True)
            self.busy_note.value = html.escape(f"Searching: {goal.trials} trials of {goal.games:,} games each")
            result = tune.run(
                goal,
                on_trial=self._on_trial,
                run=RunConfig(store=self.src.store(), progress=False),
                chart=charts.front_figure,
            )
        except (GamelabError, ValueError) as exc:
            self.mark_stale(False)
            self.status.value = f"<b style='color:#c62828'>{html.escape(' '.join(str(exc).split()))}</b>"
            return self
        self.result = result
        self.shown = tune.shown_rows(st, result.proposals)
        self.out.clear_output(wait=True)
        with self.out:  # the table first: the answer above it never shows beside the last run's table
            display(fmt.styler(self.shown))
            display(charts.front_figure(st, result.study, result.proposals))
        counts = ", ".join(map(str, goal.player_counts()))
        self.status.value = html.escape(
            f"{result.trials} trials of {goal.games:,} games; proposals written to {result.out.name}/. "
            f"The table's figures are on {tune.verify_games(goal):,} fresh games at {counts} players, "
            "other deals than the panel's and Levers' (so the search cannot pick lucky deals): the rules now "
            "differ there from Levers' “now” only by the noise their 95 % intervals show."
        )
        self.answer.value = f"<b>{html.escape(result.summary)}</b>"
        self.mark_stale(False)
        self._computed(self.src)
        return self

    def widget(self):
        import ipywidgets as w

        from gamelab.ui.widgets import STYLE

        rows = [w.HBox(list(r)) for r in self.rows]
        form = w.HBox([self.free, w.VBox(rows + [w.HBox([self.trials, self.button])])])
        box = w.VBox(
            [
                w.HTML(STYLE),
                form,
                w.HBox([self.progress, self.busy_note]),
                self.stale_note,
                self.run_note,
                self.status,
                self.answer,
                self.out,
            ]
        )
        box.add_class("gamelab-tune")
        return box

    def show(self, run: bool = False):
        from IPython.display import display

        if run:
            self.run()
        display(self.widget())
        return self
