"""A batch of games as one object: the part of every game's ``State`` that is
not the game's (issue 30: it was written once per game).

A game's ``State`` is a dataclass whose numpy array fields (and dicts of
arrays, such as SBR's per-rider tallies) hold the games on their leading
axis; other fields (a phase, a beat number, a flag) belong to the whole
batch.  :class:`Batch` gives such a dataclass ``n_games``, ``copy`` and
``take``::

    @dataclasses.dataclass
    class State(Batch):
        score: np.ndarray   # (G, P)
        beat: int = 0       # the batch's

    st.take([3])            # game 3 as a batch of one (copies)
    st.copy(score=new)      # a deep copy with one field replaced
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np


def as_games(games):
    """An int as a one-game index (keeps the games axis); anything else as is."""
    return [int(games)] if isinstance(games, (int, np.integer)) else games


def rows_of(a: np.ndarray, idx, axis: int = 0) -> np.ndarray:
    """A copy of ``a``'s entries ``idx`` along ``axis`` (an index list or array, a bool mask or a
    slice): ``np.take`` for indices (several times faster than ``a[idx].copy()`` on small
    multi-dimensional arrays), else ``a[idx].copy()`` along the axis."""
    index = np.asarray(idx) if not isinstance(idx, slice) else None
    if index is not None and index.dtype == bool:
        return a.take(np.flatnonzero(index), axis=axis)
    if index is not None and index.dtype.kind in "iu":
        return a.take(index, axis=axis)
    return a[(slice(None),) * axis + (idx,)].copy()  # a slice, an empty list, ... as numpy reads them


def _per_game(value) -> bool:
    return isinstance(value, np.ndarray) or (
        isinstance(value, dict) and all(isinstance(v, np.ndarray) for v in value.values())
    )


_LEAD: dict[type, str] = {}  # a State class -> its first array field (asked often: n_games in a search's loop)


def _lead(cls: type, batch) -> str:
    if cls not in _LEAD:
        _LEAD[cls] = next(n for n, v in batch.per_game().items() if isinstance(v, np.ndarray))
    return _LEAD[cls]


class Batch:
    """``n_games``, ``copy`` and ``take`` for a dataclass of per-game arrays (the module docstring)."""

    def per_game(self) -> dict[str, Any]:
        """{field name: value} of the fields with the games on their leading axis."""
        return {
            f.name: value
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
            if _per_game(value := getattr(self, f.name))
        }

    @property
    def n_games(self) -> int:
        return getattr(self, _lead(type(self), self)).shape[0]

    def copy(self, **changes):
        """A deep copy (every array copied), with ``changes`` (field name -> new value) applied."""
        copied = {
            name: v.copy() if isinstance(v, np.ndarray) else {k: a.copy() for k, a in v.items()}
            for name, v in self.per_game().items()
        }
        return dataclasses.replace(self, **{**copied, **changes})  # type: ignore[type-var]

    def take(self, games):
        """The games ``games`` (an int, an index array, a slice or a bool mask) as a new batch of
        their own (copies); an int keeps the games axis (a batch of one)."""
        idx = as_games(games)
        taken = {
            name: rows_of(v, idx) if isinstance(v, np.ndarray) else {k: rows_of(a, idx) for k, a in v.items()}
            for name, v in self.per_game().items()
        }
        return dataclasses.replace(self, **taken)  # type: ignore[type-var]
