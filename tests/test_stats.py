"""Known-answer tests for the statistics layer."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from gamelab import stats
from gamelab.core import registry


def test_wilson_matches_scipy_for_whole_counts():
    for k, n in [(0, 10), (3, 10), (57, 300), (300, 300)]:
        ours = stats.wilson(k, n)
        ref = st.binomtest(k, n).proportion_ci(method="wilson")
        assert ours.low == pytest.approx(ref.low, abs=1e-12)
        assert ours.high == pytest.approx(ref.high, abs=1e-12)


def test_wilson_hand_computed():
    # p = 0.5, n = 100, z = 1.959964: centre 0.5, half = z*sqrt(.0025 + z^2/40000)/(1+z^2/100)
    e = stats.wilson(50, 100)
    z = 1.959963984540054
    half = z * np.sqrt(0.0025 + z * z / 40000) / (1 + z * z / 100)
    assert e.low == pytest.approx(0.5 - half) and e.high == pytest.approx(0.5 + half)
    assert e.low == pytest.approx(0.40383, abs=1e-5)


def test_mean_interval_and_two_proportion():
    m = stats.mean_interval([1, 2, 3, 4, 5])
    # t(0.975, 4) = 2.776445, sem = sqrt(2.5/5)
    assert m.value == 3 and m.high - 3 == pytest.approx(2.776445 * np.sqrt(0.5), rel=1e-6)
    d, t = stats.two_proportion(60, 100, 40, 100)
    assert d.value == pytest.approx(0.2)
    chi2 = st.chi2_contingency([[60, 40], [40, 60]], correction=False)
    assert t.pvalue == pytest.approx(chi2.pvalue, rel=1e-9)
    assert d.low > 0  # the difference is significant, so its interval excludes 0


def test_equal_wins_chisquare():
    r = stats.equal_wins([25, 25, 25, 25], [100, 100, 100, 100])
    assert r.statistic == 0 and r.pvalue == 1
    r = stats.equal_wins([40, 20, 20, 20], [100, 100, 100, 100])
    assert r.statistic == pytest.approx((15**2 + 3 * 5**2) / 25)  # = 12
    assert r.df == 3 and r.pvalue < 0.05


def test_win_table():
    df = pd.DataFrame({"game": [0, 0, 1, 1], "seat": [1, 2] * 2, "win": [1, 0, 0.5, 0.5]})
    assert list(stats.win_table(df, "seat")["win_rate"]) == [0.75, 0.25]


def test_ratio_of_sums_is_the_pooled_ratio_with_a_delta_interval():
    e = stats.ratio_of_sums([1, 2, 3, 2], [4, 4, 4, 4])
    assert e.value == pytest.approx(0.5) and e.n == 16
    resid = np.array([1, 2, 3, 2]) / 4 - 0.5
    se = resid.std(ddof=1) / 2
    assert (e.low, e.high) == pytest.approx((0.5 - 1.96 * se, 0.5 + 1.96 * se))


def test_strand_lead_changes_are_bounded_by_the_rounds():
    from gamelab.sim import runner

    f = runner.simulate(registry.get("strand"), n_games=400, seed=2, n_players=5).groupby("game").first()
    assert (f["lead_changes"] >= 0).all() and (f["lead_changes"] <= f["rounds"] - 1).all()
    assert f["lead_changes"].max() >= 2  # the lead does change hands in some games
