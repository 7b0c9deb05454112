"""ipywidgets panels for the notebooks: sliders made from the parameter
declarations (never retyped), a quick re-simulation on every change, a
full-precision run with a progress bar, and a Publish button.

    from gamelab.widgets import BalancePanel
    BalancePanel("strand", sliders=["sum_cap", "lone_penalty"]).show()

A panel keeps its last results (``frame``, ``tables``) as attributes, so the
same code path is tested without a browser.
"""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from . import registry, stats, sweep
from .params import specs

QUICK_GAMES = int(os.environ.get("GAMELAB_QUICK_GAMES", "2000"))


def param_widgets(spec, value):
    """One widget per parameter (a tuple gets one slider per item), bounded by
    the declared range; ``continuous_update=False`` so a drag simulates once."""
    import ipywidgets as w

    common = dict(continuous_update=False, style={"description_width": "initial"},
                  layout=w.Layout(width="320px"))
    if spec.choices is not None:
        return [w.Dropdown(options=list(spec.choices), value=value, description=spec.name,
                           style=common["style"])]
    if spec.kind is bool:
        return [w.Checkbox(value=value, description=spec.name)]
    if spec.kind is tuple:
        lo = int(spec.low if spec.low is not None else 0)
        hi = int(spec.high if spec.high is not None else max(value) * 2)
        return [w.IntSlider(value=v, min=lo, max=hi, description=f"{spec.name}[{i + 1}]", **common)
                for i, v in enumerate(value)]
    if spec.kind is int:
        return [w.IntSlider(value=value, min=int(spec.low), max=int(spec.high), description=spec.name, **common)]
    return [w.FloatSlider(value=value, min=float(spec.low), max=float(spec.high),
                          step=(float(spec.high) - float(spec.low)) / 100, description=spec.name, **common)]


class BalancePanel:
    """Sliders for some parameters of ``game``; win rates with intervals,
    plots and the identity table follow every change."""

    def __init__(self, game: str, *, sliders=(), knobs: dict | None = None, n_players: int = 4,
                 seed: int = 0, quick_games: int | None = None, precision: float = 0.01,
                 store=None, extra=None):
        import ipywidgets as w

        self.game, self.seed, self.precision = game, seed, precision
        self.adapter = registry.get(game)
        if extra is None and self.adapter.panels is not None:  # the game's own diagnostics (tables, figures)
            extra = self.adapter.panels.extras
        self.extra = extra
        self.quick_games = quick_games or QUICK_GAMES
        self.store = store
        self.base = self.adapter.knobs()
        by_name = {s.name: s for s in specs(self.base)}
        unknown = [n for n in sliders if n not in by_name]
        if unknown:
            raise ValueError(f"no parameter {unknown[0]!r} in {game}; known: {', '.join(by_name)}")
        self.controls = {n: param_widgets(by_name[n], getattr(self.base, n)) for n in sliders}
        self.knobs = {}
        for name, (lo, hi, step, default) in (knobs or {}).items():
            self.knobs[name] = w.FloatSlider(value=default, min=lo, max=hi, step=step, description=name,
                                             continuous_update=False)
        lo, hi = self.adapter.players
        self.players = w.IntSlider(value=n_players, min=lo, max=hi, description="players", continuous_update=False)
        self.focus = w.Dropdown(options=["(default lineup)"] + list(self.adapter.agents), description="seat agent")
        self.full_button = w.Button(description="Full precision run", icon="play")
        self.publish_button = w.Button(description="Publish", icon="file")
        self.status = w.HTML()
        self.out = w.Output()
        for widget in self._all_controls():
            widget.observe(lambda change: self.update(), names="value")
        self.full_button.on_click(lambda b: self.update(full=True))
        self.publish_button.on_click(lambda b: self.publish())
        self.frame = None
        self.tables: dict[str, pd.DataFrame] = {}
        self.last_path: Path | None = None

    def _all_controls(self):
        for ws in self.controls.values():
            yield from ws
        yield from self.knobs.values()
        yield self.players
        yield self.focus

    def params(self):
        """The parameter object the sliders describe (validated)."""
        changes = {}
        for name, ws in self.controls.items():
            values = [x.value for x in ws]
            changes[name] = tuple(values) if isinstance(getattr(self.base, name), tuple) else values[0]
        for name, slider in self.knobs.items():
            changes.update(self.adapter.derived[name](self.base, slider.value))
        return self.base.replace(**changes)

    def lineup(self):
        default = list(self.adapter.default_lineup(self.players.value))
        if self.focus.value in self.adapter.agents:
            default[0] = self.focus.value
        return default

    def update(self, full: bool = False):
        """Re-simulate (quick, or to the precision target) and redraw."""
        from .errors import GamelabError
        from .store import ChunkStore

        try:
            params = self.params()
        except GamelabError as exc:
            self.status.value = f"<b style='color:#c62828'>{_escape(str(exc))}</b>"
            return
        kw = dict(n_games=self.quick_games, seed=self.seed, base_params=params, lineup=self.lineup(),
                  n_players=self.players.value, store=self.store or ChunkStore())
        if full:
            kw.update(precision=self.precision, progress=True)
        run = sweep.run_cell(self.game, {}, **kw)
        self.frame = run.frame
        self.tables = {by: stats.win_table(run.frame, by) for by in self.adapter.report_groups if by in run.frame}
        from .identities import identity_table
        self.tables["identities"] = identity_table(self.game, params, frame=run.frame)
        self.extras = list(self.extra(run.frame, params)) if self.extra is not None else []
        note = f"{run.games} games" + ("" if run.target_met is None else
                                       (" (precision target met)" if run.target_met else " (cap reached)"))
        self.status.value = _escape(note)
        self._draw()

    def _draw(self):
        from IPython.display import display

        self.out.clear_output(wait=True)
        with self.out:
            for by, t in self.tables.items():
                if by == "identities":
                    continue
                display(t.style.format(precision=3).set_caption(f"win rate by {by} (95% Wilson)").hide(axis="index"))
                display(win_rate_plot(t, by))
            for item in self.extras:
                display(item)
            display(self.tables["identities"].style.set_caption("identities").hide(axis="index"))

    def publish(self, out: str | Path | None = None) -> Path:
        """Write the current view as an HTML report (``reports/<game>-<time>.html``)."""
        import datetime as dt

        from .report import build_report

        out = out or Path("reports") / f"{self.game}-{dt.datetime.now():%Y%m%d-%H%M%S}.html"
        self.last_path = build_report(self.game, params=self.params(), n_games=self.quick_games, seed=self.seed,
                                      out=out, player_counts=(self.players.value,),
                                      lineups={self.players.value: self.lineup()}, store=self.store)
        self.status.value = f"published {_escape(str(self.last_path))}"
        return self.last_path

    def widget(self):
        import ipywidgets as w

        sliders = [x for ws in self.controls.values() for x in ws] + list(self.knobs.values())
        return w.VBox([w.HBox([w.VBox(sliders), w.VBox([self.players, self.focus, self.full_button,
                                                         self.publish_button, self.status])]), self.out])

    def show(self):
        from IPython.display import display

        self.update()
        display(self.widget())
        return self


def win_rate_plot(table: pd.DataFrame, by: str):
    """Win rate per group with its 95 % interval as error bars."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 0.45 * len(table) + 1.0))
    y = range(len(table))
    ax.errorbar(table["win_rate"] * 100, y,
                xerr=[(table["win_rate"] - table["win_low"]) * 100, (table["win_high"] - table["win_rate"]) * 100],
                fmt="o", capsize=3)
    ax.set_yticks(list(y), [str(v) for v in table[by]])
    ax.set_xlabel("win rate, % (95% interval)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    plt.close(fig)
    return fig


def _escape(text: str) -> str:
    import html
    return html.escape(text)
