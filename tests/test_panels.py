"""A game's notebook panel: its measures declared as metrics by name, each
with a 95 % interval over deals (the shared layer's ``panel_table``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from gamelab.core import registry
from gamelab.sim import runner
from gamelab.stats import balance


@pytest.fixture(scope="module")
def pig_frame() -> pd.DataFrame:
    return runner.simulate(registry.get("pig"), n_games=600, seed=5, lineup=["hold_at_20", "race"])


@pytest.mark.parametrize("name", registry.shipped_games())
def test_every_panel_measure_is_a_metric_of_its_game(name):
    game = registry.get(name)
    catalogue = balance.catalogue(game)
    assert game.panel_measures
    assert [m for m in game.panel_measures if m not in catalogue] == []


def test_the_panel_table_is_the_declared_metrics_from_the_frame(pig_frame):
    game = registry.get("pig")
    table = balance.panel_table(game, pig_frame).set_index("measure")
    labels = [balance.metric(game, m).label for m in game.panel_measures]
    assert [label.removesuffix(" (%)") for label in table.index] == labels
    busts = table.loc["rolls that bust (%)"]
    assert busts["value"] == pytest.approx(100 * pig_frame["busts"].sum() / pig_frame["rolls"].sum())
    winners = pig_frame[pig_frame["rank"] == 1]
    assert table.loc["winner's score", "value"] == pytest.approx(winners["score"].mean())
    assert (table["low"] <= table["value"]).all() and (table["value"] <= table["high"]).all()
    assert (table["deals"] == pig_frame["deal"].nunique()).all()


def test_a_deals_rotations_do_not_narrow_the_interval(pig_frame):
    """The seat rotations of one deal share its dice: played twice more on the same deals,
    a table tells nothing new, and its intervals (over deals) are as wide as before, where
    intervals over games would shrink by a factor of about the square root of 3."""
    game = registry.get("pig")
    one = pig_frame[pig_frame["rotation"] == 0]
    tripled = pd.concat([one.assign(game=one["game"] + k * 10**9, rotation=k) for k in range(3)], ignore_index=True)
    a, b = (balance.panel_table(game, f).set_index("measure") for f in (one, tripled))
    np.testing.assert_allclose(b["value"], a["value"])
    np.testing.assert_allclose(b["high"] - b["low"], a["high"] - a["low"], rtol=1e-9)
