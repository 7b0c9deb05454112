"""Whole SBR games for the tests, through the shared driver (``gamelab.sim.play.play_games``)."""

from gamelab.sbr import engine
from gamelab.sbr.game import GAME
from gamelab.sim.play import play_games


def play(params, seating, n_games, rng, n_players=None, chance=None) -> dict:
    """The engine's result of ``n_games`` games under ``seating`` (agent names or policies, one
    per seat), the chance drawn from ``rng`` first (unless given), then the agents' numbers."""
    n_players = len(seating) if n_players is None else n_players
    state = play_games(GAME, params, seating, n_games, n_players, rng, chance=chance)
    return engine.result(params, state)
