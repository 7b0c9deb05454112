"""Statistics: intervals and tests (:mod:`.intervals`, re-exported here), the
balance metrics by name (:mod:`.balance`) and what games count while they
play (:mod:`.leads`).  Imports only :mod:`gamelab.core`."""

from .intervals import (
    Estimate,
    TestResult,
    equal_wins,
    mean_interval,
    ratio_of_sums,
    two_proportion,
    wilson,
    win_table,
)

__all__ = [
    "Estimate",
    "TestResult",
    "equal_wins",
    "mean_interval",
    "ratio_of_sums",
    "two_proportion",
    "win_table",
    "wilson",
]
