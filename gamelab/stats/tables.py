"""Tables of estimates as games and panels hand them on: a measures table
(``measure``, ``value``, ``low``, ``high``) whose rates read as percentages."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd


def percent_rows(table: pd.DataFrame, measures: Iterable[str], columns=("value", "low", "high")) -> pd.DataFrame:
    """A measures table (``measure``, ``value``, ``low``, ``high``) with the
    rows named in ``measures`` shown as percentages: values times 100 and
    " (%)" after the label (rates beside counts in one table)."""
    out = table.copy()
    rows = out["measure"].isin(list(measures))
    for c in columns:
        if c in out:
            out[c] = out[c].astype(float)
            out.loc[rows, c] = out.loc[rows, c] * 100
    out.loc[rows, "measure"] = out.loc[rows, "measure"] + " (%)"
    return out
