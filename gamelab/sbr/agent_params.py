"""STEEL BALL RUN agent knobs: the model parameters of every policy.

:class:`AgentParams` is the rules' ``SbrParams`` plus the agents' knobs
(modelling choices, not rules: ``docs/agents.md``), declared once with their
defaults and ranges so sweeps and sliders read them like a rule;
:func:`knobs` gives a plain ``SbrParams`` the knobs' defaults.
"""

from __future__ import annotations

import dataclasses

from gamelab.core.params import knobs_of, param

from .rules import SbrParams


@dataclasses.dataclass(frozen=True, kw_only=True)
class AgentParams(SbrParams):
    """The rules plus the agents' model knobs (not rules: modelling choices)."""

    greedy_move: float = param(
        1.0,
        low=0.0,
        high=10.0,
        section="agents",
        doc="greedy: value of a square gained this beat (a heart's squares included)",
    )
    greedy_relic: float = param(1.0, low=0.0, high=10.0, section="agents", doc="greedy: value of a relic point taken")
    greedy_spin: float = param(
        0.6,
        low=0.0,
        high=10.0,
        section="agents",
        doc="greedy: value of a spin held after the move (spent, rivers, eye, town)",
    )
    greedy_card: float = param(
        0.15,
        low=-5.0,  # below 0: pips spent are worth something of their own (the learned rung's weights, sbr/learned.py)
        high=5.0,
        section="agents",
        doc="greedy: value of a card pip kept in hand (a skull's card back too)",
    )
    greedy_skull_card: float = param(
        0.15,
        low=0.0,
        high=5.0,
        section="agents",
        doc="greedy: value of a card pip a skull brings back from the discard (5.4)",
    )
    greedy_break_margin: float = param(
        0.0,
        low=0.0,
        high=10.0,
        section="agents",
        doc="greedy: breaking a seal (5.3) is chosen only if its best value beats not breaking by more than this",
    )
    greedy_tax: float = param(
        0.25,
        low=0.0,
        high=5.0,
        section="agents",
        doc="greedy: extra penalty per movement point lost to rocks and curves",
    )
    greedy_segment: float = param(
        1.0,
        low=0.0,
        high=10.0,
        section="agents",
        doc="greedy: weight of the projected segment points on a segment's last beat",
    )
    greedy_final: float = param(
        1.0, low=0.0, high=10.0, section="agents", doc="greedy: weight of the projected final points on the last beat"
    )
    greedy_expect: float = param(
        3.0,
        low=0.0,
        high=7.0,
        section="agents",
        doc="greedy: squares a rider still to act this beat is expected to move",
    )
    greedy_seal_reach: tuple = param(
        (1.0, 0.9, 0.7, 0.5, 0.3, 0.1),
        low=0.0,
        high=1.0,
        length=(1, 10),
        section="agents",
        doc="greedy: chance an opponent 1, 2, ... squares behind a seal runs over it",
    )
    greedy_seal_min: float = param(
        0.5, low=0.0, high=20.0, section="agents", doc="greedy: place a seal when its expected victims reach this"
    )
    lookahead_k: int = param(3, low=1, high=30, section="agents", doc="lookahead: greedy options tried per decision")
    lookahead_beats: int = param(
        0, low=0, high=40, section="agents", doc="lookahead: beats played out after the current one (0 = to the end)"
    )
    deep_k: int = param(3, low=1, high=30, section="agents", doc="deep: greedy options tried per decision")
    deep_reply_beats: int = param(
        1,
        low=0,
        high=40,
        section="agents",
        doc="deep: beats after this one in which the play-outs' riders play as the lookahead (0: this beat only)",
    )


def knobs(params) -> AgentParams:
    """The agent knobs of ``params``: itself if it has them, else its rules with the knobs'
    defaults (``core.params.knobs_of``; this returned the default rules for a plain SbrParams)."""
    return knobs_of(params, AgentParams)
