"""STRAND appendix A identities: exact values at the rulebook's parameters
and at other parameters, each against a hand computation."""

from fractions import Fraction

import pandas as pd
import pytest

from gamelab.core import registry
from gamelab.rulebook.identities import identity_table
from gamelab.strand import identities as ids
from gamelab.strand.rules import StrandParams

P = StrandParams()


def test_pairable_rate():
    assert ids.pairable_rate(P) == Fraction(19, 25)
    # without replacement: pairs (a, b) with a + b <= 7, 12 cards each, 60 cards
    # same-value pairs possible: 1+1, 2+2, 3+3 -> 19 ordered value pairs, 3 of them same-value
    assert ids.pairable_rate(P, replacement=False) == Fraction(16 * 12 * 12 + 3 * 12 * 11, 60 * 59)
    # cap 8: 5+3 and 4+4 join: 22 of 25 value pairs (hand count: 5+5+5+4+3)
    assert ids.pairable_rate(P.replace(sum_cap=8)) == Fraction(22, 25)
    t = ids.pairable_table(P).set_index("cargo")
    assert list(t["partners"]) == ["5 / 5", "5 / 5", "4 / 5", "3 / 5", "2 / 5"]
    assert t.loc[5, "p_without_replacement"] == pytest.approx(24 / 59)


def test_ev_threshold_matches_rulebook_table():
    t = ids.ev_threshold(P).set_index("cargo")
    assert [round(x * 100, 1) for x in t["p_star"]] == [27.5, 24.4, 13.3, 12.0, 2.0]
    assert list(t["mutual"]) == [7, 8, 9, 10, 11] and list(t["lone"]) == [-1, -1, 0, 0, 1]


def test_ev_threshold_other_parameters_by_hand():
    # lone penalty 3, N = 5, S = 1: cargo 1: lone = 1 - 3 = -2, mutual = 6 -> p* = 3/8
    t = ids.ev_threshold(P.replace(lone_penalty=3), node_share=5, stay_value=1).set_index("cargo")
    assert t.loc[1, "p_star"] == pytest.approx(3 / 8)
    # cargo 5: lone = 3 - 3 = 0, mutual = 10 -> p* = 1/10
    assert t.loc[5, "p_star"] == pytest.approx(0.1)
    # penalty 0: cargo 5 lone = 3 >= S = 1.2 -> always bet
    assert ids.ev_threshold(P.replace(lone_penalty=0)).set_index("cargo").loc[5, "p_star"] == 0


def test_full_team_pairs_and_heavier_card():
    t = ids.full_team_pairs(P).set_index("pair")
    assert len(t) == 11  # 1+1 1+2 1+3 1+4 1+5 2+2 2+3 2+4 2+5 3+3 3+4
    assert t.loc["5+1", "beats_by_heavier_card"] == "4+2, 3+3"
    assert t.loc["3+3", "loses_by_heavier_card"] == "5+1, 4+2"
    assert "4+4" not in t.index and "4+4" in ids.full_team_pairs(P.replace(sum_cap=8)).set_index("pair").index


def test_node_total_stall_and_price_follow_the_nodes():
    assert ids.node_total(P) == 42 and ids.stall_cost(P, 1) == 8 and ids.stall_cost(P, 2) == 15
    other = P.replace(node_values=(4, 4, 5, 5, 6, 6, 7, 9))
    assert ids.node_total(other) == 46 and ids.stall_cost(other, 1) == 9 and ids.stall_cost(other, 2) == 16
    price = ids.trust_price(P).set_index("cargo")
    assert price.loc[5, "without_node"] == 4 and price.loc[5, "with_largest_node"] == 12


def test_identity_table_verdicts():
    t = identity_table(registry.get("strand"), P)
    assert (t.loc[t.quantity.str.startswith("trust threshold"), "status"] == "holds").all()
    price = t[t.quantity.str.contains("largest node")].iloc[0]
    assert price["exact"] == 12 and price["status"] == "differs by +1"
    capped = identity_table(registry.get("strand"), P.replace(sum_cap=8))
    # the rulebook's 19/25 was stated for cap 7: at cap 8 it is a reference beside the new exact value
    assert capped.iloc[0]["exact"] == pytest.approx(22 / 25) and capped.iloc[0]["status"] == "reference (rules changed)"
    assert capped.iloc[0]["exact_at_rulebook"] == pytest.approx(19 / 25)
    lone5 = identity_table(registry.get("strand"), P.replace(sum_cap=5)).set_index("identity").loc["②"].iloc[4]
    assert "cargo 5 cannot team in full under sum cap 5" in lone5["quantity"] and pd.isna(lone5["exact"])


def test_simulated_column_and_trust_table():
    from gamelab.sim import runner

    frame = runner.simulate(registry.get("strand"), n_games=800, seed=3, n_players=4, progress=False)
    t = identity_table(registry.get("strand"), P, frame=frame).set_index("quantity")
    reached = t.loc["trust reached with cargo 1: share of its ropes that end mutual (simulated)"]
    assert 0 < reached["sim_low"] <= reached["simulated"] <= reached["sim_high"] < 1
    assert pd.isna(t.loc["node points on the track", "simulated"])  # exact rows get no simulated value
    trust = ids.trust_table(frame)
    assert list(trust["cargo"]) == [1, 2, 3, 4, 5]
    assert trust["p_star_rulebook"].round(3).tolist() == [0.275, 0.244, 0.133, 0.12, 0.02]
    assert (
        trust["trust_reached"]
        == [
            t.loc[f"trust reached with cargo {v}: share of its ropes that end mutual (simulated)", "simulated"]
            for v in range(1, 6)
        ]
    ).all()
    assert trust.attrs["games"] == 800
