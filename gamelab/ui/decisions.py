"""Notebook panels for the decision tools: "Levers" (a tornado chart of the
rule parameters that move a metric) and "Tune" (targets from a form, the
tuner's verified proposals).  Each takes a
:class:`~gamelab.ui.widgets.BalancePanel` (and then works from its current
sliders, player count and lineup) or a game name.

    levers = LeversPanel(panel, only=["sum_cap", "lone_penalty"]).show()
    tune = TunePanel(panel, free=["sum_cap"]).show()

Like the balance panel, each keeps its last results as attributes
(``table``, ``figure``; ``result``), so the same code is tested headless.
"""

from __future__ import annotations

import html
from typing import Any

import pandas as pd

from gamelab.core import registry
from gamelab.core.params import specs
from gamelab.decide import sensitivity, tune
from gamelab.stats import balance

DEFAULT_METRIC = "seat_spread"
MAX_TARGETS = 3


class _Source:
    """The game, rules, players and lineup a panel works from."""

    def __init__(self, source, n_players: int | None, quick_games: int | None):
        from gamelab.ui.widgets import QUICK_GAMES

        self.panel = None if isinstance(source, str) else source
        self.game = source if isinstance(source, str) else source.game
        self.adapter = registry.get(self.game)
        self.fixed_players = n_players or (self.adapter.report.players or self.adapter.players)[0]
        self.quick_games = quick_games or (self.panel.quick_games if self.panel is not None else QUICK_GAMES)

    def params(self):
        return self.panel.params() if self.panel is not None else self.adapter.knobs()

    def players(self) -> int:
        return self.panel.players.value if self.panel is not None else self.fixed_players

    def lineup(self):
        return self.panel.lineup() if self.panel is not None else None

    def store(self):
        from gamelab.core import paths
        from gamelab.sim.store import ChunkStore

        store = getattr(self.panel, "store", None)
        return store if store is not None else ChunkStore(paths.cache_dir())


def _metric_names(game) -> list[str]:
    """The catalogue's names (a run adds the win rate of every group value)."""
    return list(balance.catalogue(game))


class LeversPanel:
    """A tornado chart of the rule parameters that move one metric, each a
    step down and up on the same deals as the current rules."""

    def __init__(
        self,
        source,
        *,
        metric: str = DEFAULT_METRIC,
        only=None,
        n_players: int | None = None,
        quick_games: int | None = None,
        seed: int = 0,
        top: int = 12,
    ):
        import ipywidgets as w

        self.src = _Source(source, n_players, quick_games)
        self.only, self.seed, self.top = only, seed, top
        self.metric = w.Dropdown(options=_metric_names(self.src.adapter), value=metric, description="metric")
        self.button = w.Button(description="Find levers", icon="search")
        self.status = w.HTML()
        self.out = w.Output()
        self.button.on_click(lambda b: self.run())
        self.metric.observe(lambda change: self._draw(), names="value")
        self.table: pd.DataFrame | None = None
        self.figure = None

    def run(self):
        """Play every step (quick games) and draw the chart."""
        from gamelab.core.errors import GamelabError

        try:
            table = sensitivity.levers(
                self.src.game,
                n_players=self.src.players(),
                lineup=self.src.lineup(),
                params=self.src.params(),
                n_games=self.src.quick_games,
                seed=self.seed,
                only=self.only,
                store=self.src.store(),
                progress=False,
            )
        except GamelabError as exc:
            self.status.value = f"<b style='color:#c62828'>{html.escape(str(exc))}</b>"
            return self
        self.table = table
        names = list(dict.fromkeys(table["metric"]))
        current = self.metric.value
        self.metric.options = names
        self.metric.value = current if current in names else names[0]
        skipped = table.attrs["skipped"]
        self.status.value = html.escape(f"{table.attrs['games']:,} games per setting, {len(skipped)} steps skipped")
        self._draw()
        return self

    def _draw(self):
        from IPython.display import display

        if self.table is None:
            return
        self.figure = sensitivity.tornado_figure(self.table, self.metric.value, top=self.top)
        self.out.clear_output(wait=True)
        with self.out:
            display(self.figure)

    def widget(self):
        import ipywidgets as w

        return w.VBox([w.HBox([self.metric, self.button, self.status]), self.out])

    def show(self):
        from IPython.display import display

        self.run()
        display(self.widget())
        return self


class TunePanel:
    """Targets and free parameters from a form; the tuner's verified
    proposals (table and front) below it."""

    def __init__(
        self,
        source,
        *,
        free=(),
        targets=(),
        trials: int = 20,
        n_players: int | None = None,
        quick_games: int | None = None,
        seed: int = 0,
        verify: int = 2,
    ):
        import ipywidgets as w

        self.src = _Source(source, n_players, quick_games)
        self.seed, self.verify = seed, verify
        numeric = [
            s.name
            for s in specs(self.src.adapter.knobs)
            if s.choices is None and s.kind in (int, float, tuple) and s.low is not None and s.high is not None
        ]
        choices = numeric + list(self.src.adapter.derived)
        self.free = w.SelectMultiple(options=choices, value=tuple(free), description="free", rows=6)
        names = list(balance.catalogue(self.src.adapter))
        self.rows = []
        given = list(targets) + [(None, "at_most", 0.1)] * (MAX_TARGETS - len(targets))
        for metric, bound, value in given[:MAX_TARGETS]:
            self.rows.append(
                (
                    w.Combobox(options=names, value=metric or "", placeholder="metric (none)"),
                    w.Dropdown(options=["at_most", "at_least"], value=bound, layout=w.Layout(width="90px")),
                    w.FloatText(value=value, layout=w.Layout(width="80px")),
                )
            )
        self.trials = w.IntText(value=trials, description="trials")
        self.button = w.Button(description="Tune", icon="cogs")
        self.status = w.HTML()
        self.out = w.Output()
        self.button.on_click(lambda b: self.run())
        self.result: tune.TuneResult | None = None

    def goal(self) -> tune.Goal:
        """The goal the form describes (free ranges: the declared ones)."""
        by_name = {s.name: s for s in specs(self.src.adapter.knobs)}
        free: dict[str, Any] = {}
        for name in self.free.value:
            if name in by_name:
                s = by_name[name]
                rng = [s.low, s.high]
                free[name] = [rng] if s.kind is tuple else rng
            else:
                free[name] = [0.5, 1.5] if name.endswith(sensitivity.SCALE_SUFFIX) else [-2.0, 2.0]
        targets = [{"metric": m.value, bound.value: float(v.value)} for m, bound, v in self.rows if m.value]
        base = {k: list(v) if isinstance(v, tuple) else v for k, v in self.src.params().changed().items()}
        lineup = self.src.lineup()
        return tune.Goal.model_validate(
            dict(
                game=self.src.game,
                players=self.src.players(),
                free=free,
                targets=targets,
                trials=self.trials.value,
                games=self.src.quick_games,
                seed=self.seed,
                verify=self.verify,
                lineup=list(lineup) if lineup else None,
                params=base or None,
            )
        )

    def run(self):
        from IPython.display import display

        from gamelab.core.errors import GamelabError

        try:
            goal = self.goal()
            result = tune.run(goal, store=self.src.store(), progress=False)
        except (GamelabError, ValueError) as exc:
            self.status.value = f"<b style='color:#c62828'>{html.escape(' '.join(str(exc).split()))}</b>"
            return self
        self.result = result
        self.status.value = html.escape(f"{result.trials} trials; proposals in {result.out}")
        shown = result.proposals.drop(columns=[c for c in result.proposals if c.endswith((" low", " high"))])
        self.out.clear_output(wait=True)
        with self.out:
            display(shown.style.format(precision=3).hide(axis="index"))
            display(tune.front_figure(tune.setting(goal), result.study, result.proposals))
        return self

    def widget(self):
        import ipywidgets as w

        rows = [w.HBox(list(r)) for r in self.rows]
        return w.VBox([w.HBox([self.free, w.VBox(rows + [w.HBox([self.trials, self.button])])]), self.status, self.out])

    def show(self, run: bool = False):
        from IPython.display import display

        if run:
            self.run()
        display(self.widget())
        return self
