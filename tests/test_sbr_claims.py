"""The appendix A comparison table is produced and lines up with the claims data."""

import numpy as np

from gamelab.core import registry
from gamelab.rulebook.claims import load_claims, measure


def test_claims_table_small():
    claims = load_claims("sbr")
    t = measure(registry.get("sbr"), claims, n_games=600, seed=1)
    assert len(t) == len(claims) == 56 + 415
    exact = t["quantity"].str.len() > 0
    assert (t.loc[exact, "note"].str.startswith("exact")).all()
    t = t[~exact].reset_index(drop=True)
    claims = claims[claims["quantity"] == ""].reset_index(drop=True)
    assert (t[["row", "column", "value"]].values == claims[["row", "column", "value"]].values).all()
    for col in ("ours", "low", "high", "n", "inside", "low300", "high300", "inside300", "note"):
        assert col in t
    assert (t["low"] <= t["high"]).all() and np.isfinite(t["ours"]).all()
    arr = t[t.column == "arrival_rate"].set_index("row")["ours"]
    assert 20 < arr["4 players"] < 100  # percent, like the rulebook
    rel = t[t.column == "relics_per_player"].set_index("row")["ours"]
    assert rel["2 players"] > rel["3 players"] > rel["4 players"] > rel["5 players"]
