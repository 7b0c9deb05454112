"""Dash's entry in the registry."""

from __future__ import annotations

from gamelab.core import contract

from . import engine, reference, sim
from .agents import POLICIES
from .rules import PLAYERS, VARIANT_CHANGES, DashParams

GAME = contract.Game(
    name="dash",
    title="Dash",
    players=PLAYERS,
    rules=DashParams,
    knobs=DashParams,
    engine=engine,
    reference=reference,
    agents=tuple(POLICIES),
    controller=sim.controller,
    play=sim.play,
    record=None,
    variants=VARIANT_CHANGES,
    report=contract.ReportSettings(players=(2, 3), assumptions="Every seat chases: rolls while behind, walks ahead."),
    max_steps=4 * 30,
)
