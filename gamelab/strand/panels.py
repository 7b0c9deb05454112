"""STRAND's notebook panel parts: the diagnostics table beside the win
rates (``GAME.panels``) and identity ②'s threshold panel.

    from gamelab.strand.panels import EvThresholdPanel
    EvThresholdPanel().show()
"""

from __future__ import annotations

import pandas as pd

from .. import format as fmt
from .sim import measures

EV_LABELS = {
    "mutual": "mutual (v + N)",
    "lone": "lone (half v − L)",
    "p_star": "p* (rulebook's formula)",
    "fit": "chance a partner fits",
    "p_star_with_cap": "p* counting overweight teams",
    "pairable_partners": "partner values that fit",
}


def panel_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The diagnostics a designer watches, with 95 % intervals (for panels
    and reports): lone markers, team rounds, stalls, node ties, scores."""
    m = measures(frame)
    rows = [
        ("lone markers per game", "lone_per_game"),
        ("rounds with a team", "team_round_rate"),
        ("node voided by a full tie (per round)", "node_void_rate"),
        ("node share of all points", "node_share"),
        ("mean final score", "mean_score"),
        ("points scored per game (all players)", "total_points"),
    ]
    out = [{"measure": label, "value": m[key].value, "low": m[key].low, "high": m[key].high} for label, key in rows]
    stall = 1 - m["team_round_rate"].value
    out.insert(
        2,
        {
            "measure": "stalled rounds (no team)",
            "value": stall,
            "low": 1 - m["team_round_rate"].high,
            "high": 1 - m["team_round_rate"].low,
        },
    )
    rates = (
        "rounds with a team",
        "stalled rounds (no team)",
        "node voided by a full tie (per round)",
        "node share of all points",
    )
    return fmt.percent_rows(pd.DataFrame(out), rates)


def panel_extras(frame: pd.DataFrame, params) -> list:
    """What a balance panel shows besides win rates: the diagnostics table."""
    return [panel_table(frame)]


class EvThresholdPanel:
    """STRAND identity ②: the trust threshold p* per cargo value and EV(p),
    redrawn as N, L, S, the sum cap and the node values move."""

    def __init__(self):
        import ipywidgets as w

        from ..params import specs
        from ..widgets import param_widgets
        from . import identities as ids
        from .rules import StrandParams

        self.ids, self.base = ids, StrandParams()
        by_name = {s.name: s for s in specs(StrandParams)}
        c = dict(continuous_update=False, style={"description_width": "initial"})
        self.node_share = w.FloatSlider(
            value=ids.RULEBOOK_NODE_SHARE, min=0, max=16, step=0.25, description="N (mean node share)", **c
        )
        self.stay_value = w.FloatSlider(
            value=ids.RULEBOOK_STAY_VALUE, min=0, max=5, step=0.1, description="S (value of a stay)", **c
        )
        (self.lone,) = param_widgets(by_name["lone_penalty"], self.base.lone_penalty)
        (self.cap,) = param_widgets(by_name["sum_cap"], self.base.sum_cap)
        self.nodes = param_widgets(by_name["node_values"], self.base.node_values)
        self.use_node_mean = w.Checkbox(value=False, description="N = mean of the node values")
        self.out = w.Output()
        self.table = None
        for x in [self.node_share, self.stay_value, self.lone, self.cap, self.use_node_mean, *self.nodes]:
            x.observe(self._changed, names="value")

    def _changed(self, change):
        self.update()

    def params(self):
        return self.base.replace(
            lone_penalty=self.lone.value, sum_cap=self.cap.value, node_values=tuple(x.value for x in self.nodes)
        )

    def n_value(self, params) -> float:
        return (
            (sum(params.node_values) / len(params.node_values)) if self.use_node_mean.value else self.node_share.value
        )

    def update(self):
        import matplotlib.pyplot as plt
        import numpy as np
        from IPython.display import display

        params = self.params()
        n = self.n_value(params)
        self.table = self.ids.ev_threshold(params, node_share=n, stay_value=self.stay_value.value)
        self.table["pairable_partners"] = self.ids.pairable_table(params)["partners"]
        p = np.linspace(0, 1, 101)
        fig, ax = plt.subplots(figsize=(6, 3.6))
        for v in self.ids.VALUES:
            ax.plot(p * 100, self.ids.ev_curve(params, v, p, node_share=n), label=f"cargo {v}")
        ax.axhline(self.stay_value.value, color="k", ls="--", lw=1, label="stay (S)")
        ax.set_xlabel("trust rate p (%)")
        ax.set_ylabel("EV of betting")
        ax.legend(fontsize=8)
        fig.tight_layout()
        plt.close(fig)
        self.figure = fig
        self.out.clear_output(wait=True)
        with self.out:
            display(
                fmt.styler(
                    self.table.drop(columns=["partners", "full_team"]),
                    labels=EV_LABELS,
                    percent=("p_star_with_cap", "fit"),
                    caption="p* empty: the cargo cannot team in full under the sum cap",
                )
            )
            display(fig)

    def show(self):
        import ipywidgets as w
        from IPython.display import display

        self.update()
        display(
            w.VBox(
                [
                    w.HBox(
                        [
                            w.VBox([self.node_share, self.use_node_mean, self.stay_value, self.lone, self.cap]),
                            w.VBox(self.nodes),
                        ]
                    ),
                    self.out,
                ]
            )
        )
        return self
