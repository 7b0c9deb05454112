"""STRAND's notebook panel parts: the diagnostics beside the win rates
(``GAME.panels``: metric names) and identity ②'s explorer (``GAME.panels.explorers``),
declared here as pure functions and shown by the notebook layer::

    from gamelab import ExplorerPanel
    ExplorerPanel("strand", "trust").show()
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from gamelab.core import charts
from gamelab.core.contract import Explorer
from gamelab.core.params import Params, param

from . import identities as ids

EV_LABELS = {
    "mutual": "mutual (v + N)",
    "lone": "lone (half v − L)",
    "p_star": "p*, rulebook's formula (full teams only)",
    "fit": "chance a partner fits the cap",
    "p_star_with_cap": "p*, overweight teams counted",
    "pairable_partners": "partner values that fit",
}


#: appendix B's diagnostics, in the table's order (:mod:`gamelab.strand.diagnostics` and the shared
#: ``mean_score``): lone markers, team rounds and stalls, node ties, node share, scores
MEASURES = (
    "lone_markers",
    "rounds_with_team",
    "stalled_rounds",
    "void_nodes",
    "node_share",
    "mean_score",
    "total_points",
)


@dataclasses.dataclass(frozen=True, kw_only=True)
class TrustControls(Params):
    """Identity ②'s own quantities, beside the rules (the explorer's sliders)."""

    node_share_follows_nodes: bool = param(
        True,
        section="identity ②",
        doc="N follows the node values: the rulebook's 6 scaled to their total (untick to set N by hand)",
    )
    node_share: float = param(
        ids.RULEBOOK_NODE_SHARE, low=0.0, high=16.0, section="identity ②", doc="N: the mean node share a team adds"
    )
    stay_value: float = param(
        ids.RULEBOOK_STAY_VALUE, low=0.0, high=5.0, section="identity ②", doc="S: what a stay is worth"
    )


def trust_derived(rules, controls: TrustControls) -> dict:
    """The controls the rules decide now: N, while it follows the node values."""
    return {"node_share": ids.rulebook_node_share(rules)} if controls.node_share_follows_nodes else {}


def trust_idle(rules, controls: TrustControls) -> dict:
    """The node values do nothing to the exact table while N is set by hand."""
    if controls.node_share_follows_nodes:
        return {}
    return {
        "node_values": "N is set by hand (the box above is unticked): the node values change only simulated "
        "play; tick the box to let them set N"
    }


def _node_share(rules, controls: TrustControls) -> float:
    return trust_derived(rules, controls).get("node_share", controls.node_share)


def trust_threshold_table(rules, controls: TrustControls) -> pd.DataFrame:
    """② per cargo value: mutual and lone results, p*, the chance a partner
    fits under the sum cap and the partner values that do."""
    table = ids.ev_threshold(rules, node_share=_node_share(rules, controls), stay_value=controls.stay_value)
    table["pairable_partners"] = ids.pairable_table(rules)["partners"]
    return table.drop(columns=["partners", "full_team"])


def trust_figure(rules, controls: TrustControls):
    """EV of betting against the trust rate, one line per cargo value, and the stay."""
    n = _node_share(rules, controls)
    p = np.linspace(0, 1, 101)
    lines = [  # the table's p* column: a cargo with no full partner has no line, as it has no p*
        charts.Series(values=ids.ev_curve(rules, v, p, node_share=n), label=f"cargo {v}")
        for v in ids.VALUES
        if ids.partner_fit(rules, v)[0]
    ]
    plot = charts.Plot(
        charts.Lines(p * 100, lines),
        title="a line crosses the stay at its p* (full teams, the rulebook's formula)",
        xlabel="trust rate p (%)",
        ylabel="expected points of betting",
        references=[charts.Reference(y=controls.stay_value, colour="k", label="stay (S)")],
        title_pt=10,
        legend_pt=9,
    )
    return charts.Panel([plot], width=6, height=3.6)


TRUST_LABELS = {
    **EV_LABELS,
    "cargo": "cargo value",
    "p_star_rulebook": "p*, rulebook's formula at these rules and the N and S above (the exact table's p*)",
    "p_star_measured_N_S": "p* at the N and S play shows, overweight teams counted",
    "trust_reached": "trust reached in play",
    "low": "low (95 %)",
    "high": "high (95 %)",
    "ropes": "ropes pointed",
    "betting_beats_staying": "betting beats staying",
}

#: identity ② as a notebook explorer (``ExplorerPanel("strand", "trust")``)
TRUST = Explorer(
    title="Identity ②: when does betting on a rope beat staying?",
    rules=("lone_penalty", "sum_cap", "node_values"),
    controls=TrustControls,
    table=trust_threshold_table,
    figure=trust_figure,
    derived=trust_derived,
    idle=trust_idle,
    labels=TRUST_LABELS,
    percent=(
        "p_star",
        "p_star_with_cap",
        "fit",
        "p_star_rulebook",
        "p_star_measured_N_S",
        "trust_reached",
        "low",
        "high",
    ),
    caption=lambda table: (
        "p* empty: cargo "
        + ", ".join(str(v) for v in table.loc[table["p_star"].isna(), "cargo"])
        + " cannot team in full under this sum cap (no partner value fits), so the rulebook's formula has no p*"
        if table["p_star"].isna().any()
        else ""
    ),
    simulated=lambda rules, controls, frame: ids.trust_table(
        frame, rules, node_share=_node_share(rules, controls), stay_value=controls.stay_value
    ),
    sim_players=4,
)
