"""Identity tables: each design identity of a rulebook as one row with the
rulebook's stated value, the exact value from the rule parameters, the value a
simulation measures (with its 95 % interval) and a verdict.

Each game's :class:`~gamelab.contract.Identities` lists its rows
(``rows(params)``, exact values only) and says which simulated metric backs
which row (``simulated(params, frames)``); this module joins them and judges.
"""
from __future__ import annotations

import dataclasses
import math

import pandas as pd

COLUMNS = ["identity", "quantity", "rulebook", "exact", "simulated", "sim_low", "sim_high", "n", "status"]


@dataclasses.dataclass
class Row:
    identity: str                  # "①", "②", ...
    quantity: str                  # what is measured, in our words
    rulebook: float | None         # the value the rulebook states (None: not stated)
    exact: float | None = None     # computed from the parameters (None: needs simulation)
    tolerance: float = 0.0         # rounding of the printed rulebook figure
    simulated: float | None = None
    sim_low: float | None = None
    sim_high: float | None = None
    n: int | None = None
    sim_key: str | None = None     # which simulated metric fills this row


def judge(row: Row) -> str:
    """holds / differs by ... / the simulation does not support it."""
    if row.rulebook is None:
        return "computed (no rulebook figure)" if row.exact is not None or row.simulated is not None \
            else "needs simulation"
    parts = []
    if row.exact is not None:
        gap = row.exact - row.rulebook
        if abs(gap) <= row.tolerance + 1e-9:
            parts.append("holds")
        else:
            parts.append(f"differs by {float(gap):+.4g}")  # exact values may be Fractions
    if row.simulated is not None and row.sim_low is not None and row.sim_high is not None:
        lo, hi = row.sim_low - row.tolerance, row.sim_high + row.tolerance
        if lo <= row.rulebook <= hi:
            parts.append("simulation supports it")
        else:
            parts.append(f"simulation does not support it ({float(row.simulated):.4g})")
    return "; ".join(parts) if parts else "needs simulation"


def rounding(printed: str) -> float:
    """Half a unit of the last printed digit: '27.5' -> 0.05, '6' -> 0.5."""
    if "." not in printed:
        return 0.5
    return 0.5 * 10 ** -len(printed.split(".")[1])


def players_of(frame: pd.DataFrame) -> int:
    return int(frame.groupby("game").size().iloc[0])


def identity_table(game: str, params=None, *, frame: pd.DataFrame | None = None,
                   frames: dict | None = None, **kw) -> pd.DataFrame:
    """The identity table of ``game`` at ``params``; with simulated frames
    (from :func:`gamelab.runner.simulate`: ``frame``, or ``frames`` by player
    count), the simulated column.  A row whose metric needs a player count
    that was not simulated stays empty."""
    from . import registry

    mod = registry.get(game).identities
    if mod is None:
        return pd.DataFrame(columns=COLUMNS)
    params = params if params is not None else registry.get(game).rules()
    rows: list[Row] = mod.rows(params, **kw)
    frames = dict(frames or {})
    if frame is not None:
        frames.setdefault(players_of(frame), frame)
    if frames:
        measured = mod.simulated(params, frames)
        for r in rows:
            if r.sim_key in measured:
                est = measured[r.sim_key]
                r.simulated, r.sim_low, r.sim_high, r.n = est.value, est.low, est.high, est.n
    order = "①②③④⑤⑥⑦⑧"
    rows = sorted(rows, key=lambda r: order.index(r.identity) if r.identity in order else len(order))
    out = pd.DataFrame([{**{c: getattr(r, c) for c in COLUMNS if c != "status"}, "status": judge(r)}
                        for r in rows], columns=COLUMNS)
    return out


def fmt(x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return f"{float(x):.4g}"  # a Fraction has no .4g
