"""STEEL BALL RUN: CONTINENTAL SPIN (rulebook shared/seeds/000_dd784b01c1fe9a1b.txt).

rules (parameters, board, variants) <- reference (plain one-game spec)
<- engine (batch arrays) <- agents; record replays playtest files.
"""
from .rules import SbrParams, params_for_variant

__all__ = ["SbrParams", "params_for_variant"]
