"""Dash's entry in the registry."""

from __future__ import annotations

from gamelab.core import contract

from . import engine, reference
from .agents import POLICIES, controller
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
    controller=controller,
    record=None,
    variants=VARIANT_CHANGES,
    max_steps=4 * 30,
    report=contract.ReportSettings(players=(2, 3), assumptions="Every seat chases: rolls while behind, walks ahead."),
)
