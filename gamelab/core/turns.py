"""What every turn-by-turn game writes the same way, written once.

A turn game here is one whose batch state holds the seat to move in
``state.player`` (G,) and the end of each game in ``state.over`` (G,), whose
actions are the columns of its legal mask (G, n_actions), and whose
one-game reference is an object with ``legal()`` (the legal action codes),
``act(code)``, ``over`` and ``result()`` and attributes named as the batch
state's fields.  Such a game assigns these functions instead of writing
them (``done = turns.done`` in its engine; ``advance, legal_mask, observe,
result = turns.reference_side(State, N_ACTIONS)`` in its reference).

Games with simultaneous moves or structured actions (a card and a target)
write their own.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np


def to_move(state) -> np.ndarray:
    """(G,) the seat whose decision each game waits for: ``state.player``."""
    return state.player


def mover(state, g: int) -> list[int]:
    """The seat that decides in game ``g`` of a turn game (``scenes.View.mover``); plain
    ``[state.player[g]]``."""
    return [int(state.player[g])]


def done(params, state) -> np.ndarray:
    """(G,) each game has ended: a copy of ``state.over``."""
    return state.over.copy()


def is_legal(params, state, legal_mask: np.ndarray, actions) -> np.ndarray:
    """(G,) each action is a column its game's legal mask allows; a finished
    game accepts any code (its step ignores it).  Plain, per game g:
    ``state.over[g] or (0 <= a[g] < n_actions and legal_mask[g, a[g]])``."""
    a = np.asarray(actions)
    known = (a >= 0) & (a < legal_mask.shape[1])
    chosen = legal_mask[np.arange(len(a)), np.where(known, a, 0).astype(np.intp)]
    return state.over | (known & chosen)


def reference_side(state_type: type, n_actions: int):
    """The reference's side of the conformance checks for a turn game, as
    ``(advance, legal_mask, observe, result)`` (``contract.Reference``):
    ``advance`` acts the engine's action of game g (a finished game ignores
    it, as the engine's step does); ``legal_mask`` is the reference's
    ``legal()`` as the engine's mask of one game (``n_actions`` columns); ``observe`` reads the
    reference game's attributes named as ``state_type``'s fields;
    ``result`` is the reference game's ``result()``."""
    fields = tuple(f.name for f in dataclasses.fields(state_type))

    def advance(params, game, state, actions, chance, g: int) -> None:
        if not game.over:
            game.act(int(actions[g]))

    def legal_mask(params, game) -> list[bool]:
        codes = game.legal()
        return [code in codes for code in range(n_actions)]

    def observe(game) -> dict[str, Any]:
        return {name: _plain(getattr(game, name)) for name in fields}

    def result(game) -> dict:
        return game.result()

    return advance, legal_mask, observe, result


def _plain(value):
    """A list copy of a list (the reference's per-seat values), anything else as is."""
    return list(value) if isinstance(value, list) else value
