"""A rulebook figure as the games and the rulebook layer exchange it: one
identity row (:class:`Row`), and the rounding a printed figure carries."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class Row:
    identity: str  # "①", "②", ...
    quantity: str  # what is measured, in our words
    rulebook: float | None  # the value the rulebook states (None: not stated)
    exact: float | None = None  # computed from the parameters (None: needs simulation)
    tolerance: float = 0.0  # rounding of the printed rulebook figure
    simulated: float | None = None
    sim_low: float | None = None
    sim_high: float | None = None
    n: int | None = None
    sim_key: str | None = None  # which simulated metric fills this row
    percent: bool = False  # a rate (a share of 1): every table shows it as a percentage (issue 37)


def rounding(printed: str) -> float:
    """Half a unit of the last printed digit: '27.5' -> 0.05, '6' -> 0.5."""
    if "." not in printed:
        return 0.5
    return 0.5 * 10 ** -len(printed.split(".")[1])
