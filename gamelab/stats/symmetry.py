"""A run that breaks the rules' seat symmetry: a warning about the player model (issue 38).

Where a game declares that its rules ignore a relabelling of the seats
(``Game.symmetry``), seats of one orbit must win alike whatever the lineup: the
runner plays a mixed lineup in every seat rotation, and the same agent on every
seat is the same everywhere.  When the seats of an orbit differ by more than
chance allows, the difference comes from the model (a tie broken by the order
of an array, say), not from the rules; reports and panels say so instead of
presenting it as a finding.

The test: each seat's win rate against its orbit's mean, with its standard
error over deals (the rotations of a deal are correlated, so a deal is one
observation); a warning when any seat's distance passes the two-sided
Bonferroni bound for ``alpha`` over the seats.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
from scipy import stats

from gamelab.core.symmetry import orbits

ALPHA = 0.001  # chance of a warning on a run of a symmetric model (over all seats)


@dataclasses.dataclass(frozen=True)
class SeatWarning:
    """The seat furthest from its orbit's share: ``rate`` against ``share`` (both per seat,
    fractions), ``z`` its distance in standard errors over ``deals`` deals."""

    seat: int
    rate: float
    share: float
    z: float
    deals: int

    def words(self) -> str:
        return (
            f"Warning about the player model, not the rules: the rules treat every seat alike, yet seat "
            f"{self.seat} wins {self.rate:.1%} against the {self.share:.1%} of the seats it is "
            f"interchangeable with ({self.z:+.1f} standard errors over {self.deals:,} deals). "
            "Some agent decides by a seat's place at the table; its figures are not findings about the rules."
        )


def seat_warning(frame: pd.DataFrame, generators, n_players: int, *, alpha: float = ALPHA) -> SeatWarning | None:
    """The warning for a run's table ``frame`` (columns deal, seat 1..P, win), or None when
    every seat is within chance of its orbit's share, or no seat relabelling is declared."""
    classes = [c for c in orbits(tuple(generators), n_players) if len(c) > 1]
    if not classes or frame.empty:
        return None
    per_deal = frame.pivot_table(index="deal", columns="seat", values="win", aggfunc="sum", fill_value=0.0)
    games = frame.groupby("deal")["game"].nunique().reindex(per_deal.index).to_numpy(float)
    n = len(per_deal)
    if n < 30:
        return None
    bound = stats.norm.isf(alpha / (2 * n_players))
    worst = None
    for seats in classes:
        cols = [s + 1 for s in seats]
        wins = per_deal[cols].to_numpy(float)
        share = wins.sum() / (games.sum() * len(cols))
        for k, seat in enumerate(cols):
            rate = wins[:, k].sum() / games.sum()
            resid = wins[:, k] - rate * games  # ratio estimator's residuals per deal
            se = np.sqrt((resid**2).sum()) / games.sum()
            z = (rate - share) / se if se > 0 else 0.0
            if abs(z) > bound and (worst is None or abs(z) > abs(worst.z)):
                worst = SeatWarning(seat, rate, share, float(z), n)
    return worst
