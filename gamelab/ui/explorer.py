"""A game's identity explorer (``Game.panels.explorers``) as a notebook panel:
sliders for the rules it names and for its own declared quantities, the
table and the figure redrawn on every change, and the same table beside
simulated play on demand.

    from gamelab import ExplorerPanel
    ExplorerPanel(GAME, NAME).show()   # NAME: one of registry.get(GAME).panels.explorers

The game declares pure functions (:class:`gamelab.core.contract.Explorer`);
this panel only builds controls from the declarations, calls them and shows
the result.  A control the rules decide at the moment (``derived``) shows
the value in use and is disabled, with the reason as its tooltip.
"""

from __future__ import annotations

import html
import os
from typing import Any

from gamelab.core import registry
from gamelab.core.params import specs
from gamelab.report import charts
from gamelab.report import format as fmt
from gamelab.sim import runner
from gamelab.ui.widgets import param_widgets

DERIVED_TIP = "set by the rules at the moment (see the boxes above); change them to set this by hand"


class ExplorerPanel:
    """Sliders over one explorer of a game; ``table``, ``figure`` and
    ``sim_table`` keep the last results (tested without a browser)."""

    def __init__(self, game: str, name: str, *, rules=None):
        g = registry.get(game)
        if name not in g.panels.explorers:
            known = ", ".join(g.panels.explorers) or "none"
            raise KeyError(f"{game} has no explorer {name!r}: expected one of {known}")
        self.game, self.spec = g, g.panels.explorers[name]
        self.base = rules if rules is not None else g.rules()
        by_name = {s.name: s for s in specs(g.rules)}
        self.rule_controls = {n: param_widgets(by_name[n], getattr(self.base, n)) for n in self.spec.rules}
        start = self.spec.controls()
        self.own_controls = {s.name: param_widgets(s, getattr(start, s.name)) for s in specs(self.spec.controls)}
        self.table = self.sim_table = None
        self.figure: charts.Chart | None = None
        self._setting = False
        self._out: Any = None
        self._sim_out: Any = None
        self.following = False  # the simulated side is redrawn after every change
        self.seed = 0
        import ipywidgets as w

        self.progress = w.FloatProgress(value=0.0, min=0.0, max=1.0, layout=w.Layout(visibility="hidden"))
        self.busy_note = w.HTML()
        self.out = w.Output()  # the simulated side (what Busy greys)
        for control in self._widgets():
            control.observe(self._changed, names="value")

    def _widgets(self):
        for ws in (*self.rule_controls.values(), *self.own_controls.values()):
            yield from ws

    def _changed(self, change):
        if not self._setting:
            self.update()

    @staticmethod
    def _value(ws, like):
        values = [w.value for w in ws]
        return tuple(values) if isinstance(like, tuple) else values[0]

    def rules(self):
        """The rule parameters the sliders describe (validated)."""
        return self.base.replace(**{n: self._value(ws, getattr(self.base, n)) for n, ws in self.rule_controls.items()})

    def controls(self):
        """The explorer's own quantities, with the ones the rules decide filled in."""
        start = self.spec.controls()
        given = start.replace(**{n: self._value(ws, getattr(start, n)) for n, ws in self.own_controls.items()})
        return given.replace(**self.spec.derived(self.rules(), given))

    def _show_derived(self, rules, given) -> None:
        """Derived controls show the value in use and are disabled (tooltip: why)."""
        derived = self.spec.derived(rules, given)
        self._setting = True
        try:
            for name, ws in self.own_controls.items():
                for w in ws:
                    w.disabled = name in derived
                    w.tooltip = DERIVED_TIP if name in derived else fmt.param_tooltip(_spec(self.spec.controls, name))
                if name in derived and len(ws) == 1:
                    ws[0].value = derived[name]
        finally:
            self._setting = False

    def _show_idle(self, rules, controls) -> None:
        """Rule sliders that do nothing now are disabled, the reason as
        tooltip (unless the simulated side follows them: play uses every rule)."""
        idle = {} if self.following else self.spec.idle(rules, controls)
        by_name = {s.name: s for s in specs(self.game.rules)}
        for name, ws in self.rule_controls.items():
            for w in ws:
                w.disabled = name in idle
                w.tooltip = idle[name] if name in idle else fmt.param_tooltip(by_name[name])

    def mark_stale(self, stale: bool) -> None:
        """Grey the simulated side and show the progress bar (or undo both)."""
        from gamelab.ui.widgets import STALE_CLASS

        if stale:
            self.out.add_class(STALE_CLASS)
            self.progress.layout.visibility = "visible"
        else:
            self.out.remove_class(STALE_CLASS)
            self.progress.layout.visibility = "hidden"
            self.busy_note.value = ""

    def update(self) -> None:
        rules, controls = self.rules(), self.controls()
        self._show_derived(rules, controls)
        self._show_idle(rules, controls)
        self.table = self.spec.table(rules, controls)
        self.figure = charts.draw(self.spec.figure(rules, controls)) if self.spec.figure else None
        if self._out is not None:
            from IPython.display import display

            self._out.clear_output(wait=True)
            with self._out:
                display(self.styled(self.table, self.caption()))
                if self.figure is not None:
                    display(self.figure)
        if self.following:
            self._draw_simulated()

    def follow(self, seed: int = 0) -> None:
        """Show the simulated side in the panel, redrawn after every change
        (greyed with progress while it plays)."""
        self.following, self.seed = True, seed
        self.update()

    def _draw_simulated(self) -> None:
        from IPython.display import display

        from gamelab.ui.widgets import Busy

        with Busy(self, "Playing games at the new rules"):
            shown = self.simulate(seed=self.seed)
        self.out.clear_output(wait=True)
        with self.out:
            display(shown)

    def caption(self) -> str:
        """The table's caption at the current sliders (a function of the table when the game declares one)."""
        c = self.spec.caption
        return c(self.table) if callable(c) else c

    def styled(self, table, caption: str = ""):
        return fmt.styler(table, labels=dict(self.spec.labels), percent=self.spec.percent, caption=caption)

    def simulate(self, n_games: int | None = None, seed: int = 0):
        """The explorer's table beside play at the current rules (the game's
        default lineup at ``sim_players``); the formatted table."""
        if self.spec.simulated is None:
            raise ValueError(f"the explorer {self.spec.title!r} has no simulated side")
        n_games = n_games or int(os.environ.get("GAMELAB_QUICK_GAMES", "4000"))
        rules = self.rules()
        params = self.game.knobs().replace(**rules.changed())
        players = self.spec.sim_players or self.game.players[0]
        frame = runner.simulate(self.game, n_games=n_games, seed=seed, n_players=players, params=params, progress=False)
        self.sim_table = self.spec.simulated(rules, self.controls(), frame)  # the exact table's N and S
        games = int(frame["game"].nunique())
        table = self.sim_table
        caption = f"{games:,} simulated {players}-player games at the rules above"
        if table is not None and table.attrs.get("caption"):
            caption += f"; {table.attrs['caption']}"
        return self.styled(table, caption)

    def widget(self):
        """Controls on the left (scrolling on their own), the table, the
        figure and the simulated side on the right: a slider and what it
        moves are on screen together."""
        import ipywidgets as w

        from gamelab.ui.widgets import CONTROLS_HEIGHT, STYLE

        self._out = w.Output()
        self._sim_out = self.out
        button = w.Button(
            description="Simulate at these rules",
            tooltip="play games at the rules, then after every change",
            layout=w.Layout(width="auto"),
        )
        button.on_click(lambda _: self.follow(self.seed))
        own = [x for ws in self.own_controls.values() for x in ws]
        rules = [x for ws in self.rule_controls.values() for x in ws]
        left = w.VBox(
            own + rules, layout=w.Layout(width="370px", min_width="370px", max_height=CONTROLS_HEIGHT, overflow="auto")
        )
        right = [self._out]
        if self.spec.simulated is not None:
            right += [button, w.HBox([self.progress, self.busy_note]), self.out]
        box = w.VBox(
            [
                w.HTML(STYLE),
                w.HTML(f"<b>{html.escape(self.spec.title)}</b>"),
                w.HBox([left, w.VBox(right, layout=w.Layout(flex="1 1 auto", min_width="0"))]),
            ]
        )
        box.add_class("gamelab-panel")
        return box

    def show(self):
        from IPython.display import display

        box = self.widget()
        self.update()
        display(box)
        return self


def _spec(cls, name: str):
    return next(s for s in specs(cls) if s.name == name)
