"""Dash for the runner: ``play`` and its columns (per seat: score, win, rank;
per game: turns)."""

from __future__ import annotations

from gamelab.core import driver

from . import engine
from .agents import POLICIES

controller = driver.seat_controller(POLICIES)


def play(params, seating, n_deals, n_players, streams) -> dict:
    chance = engine.draw_chance(params, n_deals, n_players, streams["chance"])
    state = engine.init(params, n_deals, n_players, chance)
    state, _ = driver.play_out(engine, params, state, chance, controller(params, seating, n_deals, streams["agents"]))
    return {**engine.result(params, state), "turns": state.turn.copy()}
