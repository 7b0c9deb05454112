"""STEEL BALL RUN play-out memo: margins of greedy continuations by exact state.

A lookahead play-out of option ``c`` (:mod:`gamelab.sbr.lookahead`) runs on
with every rider greedy, the searching rider too: when that rider comes to
its next decision inside the play-out, the rest of the play-out is the
greedy continuation of that state.  If the real game reaches exactly the
same state (the option was chosen and the opponents played as the play-out
assumed: greedy opponents do), the play-out of the greedy's own option from
there is that same continuation, and its margin is already known.

Entries are keyed by the complete state of one game (every array of
:class:`~gamelab.sbr.state.State`, the counters included) plus the beat, the
slot and the rider, under the rules-and-knobs ``params`` and the play-out's
horizon: a hit is an exactly equal state, so a memoised margin is the margin
the play-out would compute (a play-out is deterministic: greedy riders, all
chance drawn up front).  Only the chosen options' states are kept (the real
game can reach no other), in two generations of ``GENERATION`` entries for
each of the last ``CONTEXTS`` (params, horizon) pairs; a lost entry only
costs a play-out.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .state import State

GENERATION = 20_000  # entries per generation (two kept; ~500 bytes an entry at four players)
CONTEXTS = 2  # (params, horizon) pairs kept at once
_ARRAYS = tuple(f.name for f in dataclasses.fields(State) if f.name not in ("stats", "beat", "n_players", "slot"))


class Memo:
    """Margins by state key, two generations (the older one dropped when the
    newer fills up)."""

    def __init__(self, size: int = GENERATION):
        self.size, self.new, self.old = size, {}, {}

    def get(self, key: bytes) -> float | None:
        got = self.new.get(key)
        return self.old.get(key) if got is None else got

    def put(self, keys, values) -> None:
        for key, value in zip(keys, values):
            self.new[key] = float(value)
            if len(self.new) >= self.size:
                self.old, self.new = self.new, {}


_MEMOS: dict = {}


def memo_for(params, last: int) -> Memo:
    """The memo of play-outs under ``params`` up to beat ``last``."""
    key = (params, last)
    memo = _MEMOS.get(key)
    if memo is None:
        if len(_MEMOS) >= CONTEXTS:
            _MEMOS.pop(next(iter(_MEMOS)))
        memo = _MEMOS[key] = Memo()
    return memo


def clear() -> None:
    """Forget every memoised play-out (tests: a search without the memo)."""
    _MEMOS.clear()


def state_keys(state: State, games: np.ndarray, rider: np.ndarray, slot: int) -> list[bytes]:
    """One key per game of ``games``: its whole state (every array, the
    counters of ``state.stats`` too), the beat, ``slot``, ``rider`` (n,) and
    the table's size."""
    n = games.size
    head = np.empty((n, 5), np.int64)
    head[:, 0], head[:, 1], head[:, 2] = state.beat, slot, rider
    head[:, 3], head[:, 4] = state.n_players, state.pos.shape[1]
    parts = [head.view(np.uint8).reshape(n, -1)]
    arrays = [getattr(state, name) for name in _ARRAYS] + [state.stats[k] for k in sorted(state.stats)]
    for a in arrays:
        rows = np.ascontiguousarray(a.take(games, axis=0))
        parts.append(rows.view(np.uint8).reshape(n, -1))
    flat = np.ascontiguousarray(np.concatenate(parts, axis=1))
    return [row.tobytes() for row in flat]
