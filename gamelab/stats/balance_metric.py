"""What a balance metric is: per-row contributions summed per deal, and a value from those sums.

Every metric is a function of sums over deals: each deal of a run (played
in every seat rotation) contributes a few numbers (wins of seat 1, seats
of style ``heavy``, rounds with a team, ...), and the metric is computed from
their totals.  So one resampling of deals serves every metric at once
(:mod:`gamelab.stats.bootstrap`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

Sums = Mapping[str, np.ndarray]


@dataclasses.dataclass(frozen=True)
class Metric:
    """A balance metric: per-row contributions summed per deal, and the value
    from those sums (vectorised over a leading axis of resamples)."""

    name: str
    label: str
    doc: str
    columns: Callable[[pd.DataFrame], dict[str, np.ndarray]]  # per frame row
    value: Callable[[Sums], np.ndarray]
    percent: bool = False  # shown as a percentage
    goal: str = ""  # "lower" / "higher": what a designer usually wants
    # the per-deal sums straight from a frame (rows: deals, sorted), for a metric of many sums a deal
    # (the meta-game's wins per profile and strategy) that per-row columns would make too wide
    sums: Callable[[pd.DataFrame, np.ndarray], pd.DataFrame] | None = None  # frame, each row's block
    count: bool = False  # a whole number of things ("the number of styles worth playing")

    @property
    def smooth(self) -> bool:
        """Whether the metric is a smooth function of its sums (a gradient weighs it: the SPRT
        of :mod:`gamelab.decide.sequential`); the meta-game's are not (a count of an
        equilibrium's support jumps), and :mod:`gamelab.decide.grouped` decides them."""
        return self.sums is None


DIFFERENCES = ("_spread", "_gap", "_advantage")  # metric names that are differences of two shares


def in_points(m: Metric) -> bool:
    """Whether ``m`` reads in percentage points: a difference of shares (a
    spread, a gap, an advantage), where a share itself reads in per cent."""
    return bool(m.percent) and m.name.endswith(DIFFERENCES)
