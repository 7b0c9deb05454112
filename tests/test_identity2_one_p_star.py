"""Identity ② (issue 37, item 6): one p* per cell.  The explorer's simulated
table shows the rulebook formula's p* at the N and S of the exact table above
it (by the node values or set by hand), the very figure of the exact table, and
its caption prints no negative zero."""

from __future__ import annotations

import math
import re

import pytest

from gamelab.strand import identities as ids
from gamelab.strand.rules import half

NEGATIVE_ZERO = re.compile(r"[-\u2212]0\.0+(?![0-9]*[1-9])")


def _p_star_by_hand(rules, v: int, n: float, s: float) -> float:
    """The rulebook's formula, written out: p (v + N) + (1 - p) (half v - L) = S."""
    lone = half(v, rules.half_rounding) - rules.lone_penalty
    return (s - lone) / (v + n - lone)


@pytest.fixture
def panel(monkeypatch):
    from gamelab.ui.explorer import ExplorerPanel

    monkeypatch.setenv("GAMELAB_QUICK_GAMES", "300")
    p = ExplorerPanel("strand", "trust")
    p.update()
    return p


def _same_p_star(panel) -> None:
    exact = panel.table.set_index("cargo")["p_star"]
    shown = panel.sim_table.set_index("cargo")["p_star_rulebook"]
    controls = panel.controls()
    for v in ids.VALUES:
        assert (math.isnan(exact[v]) and math.isnan(shown[v])) or exact[v] == shown[v], v
        if not math.isnan(exact[v]):
            assert exact[v] == pytest.approx(
                _p_star_by_hand(panel.rules(), v, controls.node_share, controls.stay_value)
            )


def test_the_simulated_table_shows_the_exact_tables_p_star_when_n_or_s_is_set_by_hand(panel):
    nodes = panel.rule_controls["node_values"]
    for w in nodes:
        w.value += 1  # N follows the node values: about 6.3 now
    (stay,) = panel.own_controls["stay_value"]
    stay.value = 1.25  # the case: 27.2 % against 26.6 % for cargo 1
    panel.follow(seed=0)
    assert panel.controls().node_share == pytest.approx(6.0 * (42 + 8) / 42)
    _same_p_star(panel)
    (follow,) = panel.own_controls["node_share_follows_nodes"]
    follow.value = False
    (n_slider,) = panel.own_controls["node_share"]
    n_slider.value = 7.84  # N by hand: 22.9 % against 26.1 % before
    _same_p_star(panel)
    assert panel.table.set_index("cargo").loc[1, "p_star"] == pytest.approx(2.25 / 9.84)
    caption = panel.simulate(seed=0).caption
    assert "N = 7.84 and S = 1.25 (the exact table's p*)" in caption
    assert not NEGATIVE_ZERO.search(caption), caption


@pytest.mark.parametrize(
    "x, shown", [(-0.001, "0.00"), (-0.0049, "0.00"), (0.0, "0.00"), (-0.006, "\u22120.01"), (1.254, "1.25")]
)
def test_a_caption_number_is_never_a_negative_zero(x, shown):
    assert ids.number(x) == shown
