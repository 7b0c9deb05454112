"""STRAND agent knobs: the table model's parameters (appendix B).

:class:`AgentParams` is the rules' ``StrandParams`` plus the model's knobs
(modelling choices, not rules), the runner's parameter class, so sweeps and
sliders address ``reneging`` or ``negotiation`` exactly like ``sum_cap``;
:func:`knobs` gives rules-only parameters the model's defaults.  Apart from
the agents (:mod:`~gamelab.strand.agents`) because the table model
(``heuristic.py``) and the runner read them below the agents.
"""

from __future__ import annotations

import dataclasses

from gamelab.core.params import knobs_of, param

from .heuristic_tables import STYLES
from .rules import ROLES, StrandParams

#: ``speaking_order``'s readings (``heuristic.pair_order`` orders the negotiation's equal pairs by them)
SPEAKING_ORDERS = ("none", "rotating", "fixed")


@dataclasses.dataclass(frozen=True, kw_only=True)
class AgentParams(StrandParams):
    """The rules plus the table model of appendix B ("议价配对 + 22% 临场反悔")."""

    reneging: float = param(
        0.22,
        low=0.0,
        high=1.0,
        section="appendix B",
        doc="chance that a player drops the partner agreed in the negotiation",
    )
    renege_to: str = param(
        "better_or_stay",
        choices=("better_or_stay", "best", "stay"),
        section="appendix B",
        doc="what a reneger does: points at its best alternative only when that one beats the "
        "agreed partner by its own objective, else stays (better_or_stay); always points "
        "at its best alternative (best); always stays (stay)",
    )
    negotiation: bool = param(
        True,
        section="6.2 step 3",
        doc="the table negotiates pairs after the reveal (off: each style points by its "
        "own heuristic; variant B and the fog card also switch it off)",
    )
    speaking_order: str = param(
        "none",
        choices=SPEAKING_ORDERS,
        section="6.1 step 7",
        doc="the negotiation's speaking order, which settles two pairs it wants equally: none (at "
        "random, a fresh order every round), rotating (seat 1 first in round 1, the next seat each "
        "round), fixed (seat 1, the first player, every round); the rules let it touch nothing else",
    )
    roles: str = param(
        "first_p",
        choices=("first_p", "none", "random"),
        section="appendix B",
        doc="role cards dealt: the first P of "
        + ", ".join(ROLES)
        + " (appendix B's role table), none, or P of the six at random",
    )

    # --- the styles' objectives U (heuristic_tables.COEF_KNOBS: knob -> style, term) ---------
    heavy_points: float = param(
        1.0, low=0.0, high=5.0, section="appendix B", doc="heavy: weight of its own points this round"
    )
    heavy_team_sum: float = param(
        0.1, low=0.0, high=2.0, section="appendix B", doc="heavy: weight of the team's cargo sum when full"
    )
    key_points: float = param(1.0, low=0.0, high=5.0, section="appendix B", doc="key: weight of its own points")
    key_partner_cargo: float = param(
        1.0,
        low=0.0,
        high=5.0,
        section="appendix B",
        doc="key: weight of the partner's cargo when the pair is full (it carries the heaviest card it can)",
    )
    grabber_points: float = param(
        0.01, low=0.0, high=5.0, section="appendix B", doc="node_grabber: weight of its own points (a tie-break)"
    )
    grabber_node_key: float = param(
        1.0,
        low=0.0,
        high=5.0,
        section="appendix B",
        doc="node_grabber: weight of the pair's node key / 8 (full sum, then the heavier card; 0 overweight)",
    )
    steady_points: float = param(1.0, low=0.0, high=5.0, section="appendix B", doc="steady: weight of its own points")
    steady_fixed: float = param(
        5.0,
        low=0.0,
        high=20.0,
        section="appendix B",
        doc="steady: bonus for its fixed partner (its last teammate) when the pair is full",
    )
    mirror_points: float = param(1.0, low=0.0, high=5.0, section="appendix B", doc="mirror: weight of its own points")
    mirror_pointer: float = param(
        10.0, low=0.0, high=20.0, section="appendix B", doc="mirror: bonus for whoever pointed at it last round"
    )
    stay_points: float = param(1.0, low=0.0, high=5.0, section="appendix B", doc="stay: weight of its own points")
    stay_overweight: float = param(
        -100.0,
        low=-200.0,
        high=0.0,
        section="appendix B",
        doc="stay: weight of an overweight pair (at or below 'accept' it refuses one: a full team or nothing)",
    )
    accept: float = param(
        -50.0,
        low=-200.0,
        high=0.0,
        section="appendix B",
        doc="every style refuses a partner it scores at or below this (in the negotiation and alone)",
    )
    # --- the styles' cargo and role-power thresholds --------------------------------------
    steady_mate: int = param(
        3,
        low=1,
        high=5,
        section="appendix B",
        doc="steady shows the largest card that still fits a card of this value under the cap, else its smallest",
    )
    big_cargo: int = param(
        4,
        low=1,
        high=5,
        section="5.5",
        doc="cargo worth a power: heavy and node_grabber use the porter on it, a bb locks and a lone veteran "
        "scores in full from it",
    )
    big_node: int = param(6, low=0, high=30, section="5.5", doc="a node worth a bb lock whatever the cargo")
    # --- the strong agent ``best`` (search.py) --------------------------------------------
    best_rollouts: int = param(
        8,
        low=1,
        high=256,
        section="appendix B",
        doc="best: play-outs per legal action and decision (more: stronger and slower)",
    )
    best_horizon: int = param(
        0,
        low=0,
        high=12,
        section="appendix B",
        doc="best: rounds a play-out settles (0: to the end of the game)",
    )
    greedy_rollouts: int = param(
        8,
        low=1,
        high=256,
        section="appendix B",
        doc="greedy: play-outs per legal action and decision, each to the end of the round",
    )
    best_proxy: str = param(
        "node_grabber",
        choices=STYLES + ("mix",),
        section="appendix B",
        doc="best and greedy: the style that plays their seat in the play-outs, and as which the "
        "other seats negotiate with them (mix: each its own style of the deal's style mix, shown as its style)",
    )
    best_margin: float = param(
        0.2,
        low=0.0,
        high=1.0,
        section="6.4",
        doc="best and greedy: value of a point of net-score margin over the best other seat, beside a win (1)",
    )


def knobs(params) -> AgentParams:
    """The runner's parameters: rules-only parameters get the model's defaults (``core.params.knobs_of``)."""
    return knobs_of(params, AgentParams)
