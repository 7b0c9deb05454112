"""The STRAND claims table: every published cell gets our estimate."""

import numpy as np
import pytest

from gamelab.core import registry
from gamelab.rulebook import claims
from gamelab.rulebook.claims import load_claims


def test_claims_table_matches_the_claims_rows():
    published = load_claims("strand")
    table = claims.measure(registry.get("strand"), published, n_games=240, seed=1)
    assert len(table) == len(published)
    assert (
        table[["table", "row", "column", "value"]].to_numpy()
        == published[["table", "row", "column", "value"]].to_numpy()
    ).all()
    for col in ("ours", "low", "high", "n", "inside", "note", "claim_note"):
        assert col in table
    assert table["ours"].notna().all()
    assert (table.loc[table["quantity"] != "", "note"].str.startswith("exact")).all()
    table = table[table["quantity"] == ""]
    assert ((table["low"] <= table["ours"] + 1e-9) & (table["ours"] <= table["high"] + 1e-9)).all()
    # a column of the style table sums to 100 % (every game has exactly one winner share)
    styles = table[table["table"] == "styles"].groupby("column")["ours"].sum()
    assert np.allclose(styles, 100.0)
    per_player = table[(table["table"] == "lone markers") & (table["column"] == "per_player")]
    per_game = table[(table["table"] == "lone markers") & (table["column"] == "per_game")]
    assert np.allclose(per_player["ours"].to_numpy() * [3, 4, 5, 6], per_game["ours"].to_numpy())


def test_conclusions_are_tested_pairwise():
    from gamelab.strand.claims import CONCLUSIONS

    c = claims.conclusions(registry.get("strand"), n_games=1200, seed=2)
    assert len(c) == len(CONCLUSIONS)
    assert set(c["verdict"]) <= {"holds", "contradicted", "not resolved"}
    for r in c.itertuples():
        assert r.low <= r.difference <= r.high
        assert r.difference == pytest.approx(r.rate - r.their_rate)
        if r.verdict == "holds":
            assert (r.low > 0) if "strongest" in r.claim else (r.high < 0)
