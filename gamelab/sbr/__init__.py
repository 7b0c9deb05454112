"""STEEL BALL RUN: CONTINENTAL SPIN (the rules as implemented: docs/rules-sbr.md).

rules (parameters, board, variants) <- reference (plain one-game spec)
<- state (batch types) <- agent_params (the agents' knobs) <- engine (batch
arrays: legal choices in legal, turn, movement, options, ranking) <- heuristic
(the greedy rider) <- search (lookahead, deep) <- learned <- agents (the
policies by name, the Controller) <- sim (the runner's entry point),
panels (notebook); record replays playtest files; game.py is the
contract's ``GAME`` record.
"""

from .rules import SbrParams, params_for_variant

__all__ = ["SbrParams", "params_for_variant"]
