"""SBR appendix B identities and section 4.3 map statistics, exact values at
the rulebook's parameters and at others (hand computations in comments)."""

from fractions import Fraction

import pytest

from gamelab.core import registry
from gamelab.rulebook.identities import identity_table
from gamelab.sbr import identities as ids
from gamelab.sbr.rules import SbrParams, params_for_variant

P = SbrParams()


def test_mileage_deficit_and_mean_card():
    assert ids.mean_card(P) == 3 and ids.mileage_deficit(P) == 6
    # a deck of four 1-4s and eight 5s: mean (4*(1+2+3+4) + 8*5) / 24 = 80/24; 60 - 18 * 10/3 = 0
    other = P.replace(card_counts=(4, 4, 4, 4, 8))
    assert ids.mean_card(other) == Fraction(10, 3) and ids.mileage_deficit(other) == 0
    short = params_for_variant("short")  # 9.1: 40 squares, 12 beats -> 40 - 36 = 4
    assert ids.mileage_deficit(short) == 4


def test_map_statistics_match_section_4_3():
    m = ids.map_statistics(P).set_index("segment")
    whole = m.loc["all"]
    assert (
        whole["straight"],
        whole["curve"],
        whole["rock"],
        whole["river"],
        whole["town"],
        whole["relic"],
        whole["finish"],
    ) == (30, 13, 6, 6, 4, 12, 1)
    assert list(m.loc[1:6, "curve"]) == [1, 2, 3, 2, 3, 2]
    assert list(m.loc[1:6, "rock"]) == [0, 2, 2, 0, 1, 1]
    assert ids.terrain_squares(P, 2) == [12, 16, 22, 27, 45, 52]


def test_spin_pools_and_deck():
    assert ids.spin_income(P) == {"rivers": 6, "towns": 4, "terrain": 10, "with_all_eyes": 16}
    assert ids.point_pools(P, 4) == {"segments": 66, "relics": 24, "final": 20, "total": 110}
    # 2 players: segments 6 x (5 + 3) = 48, final 10 + 6 = 16
    assert ids.point_pools(P, 2) == {"segments": 48, "relics": 24, "final": 16, "total": 88}
    # variant 9.2 (no relic squares): 66 + 20 = 86 at 4 players
    assert ids.point_pools(params_for_variant("no_relics"), 4)["total"] == 86
    assert ids.deck_runs_out(P) == 15 and ids.cards_left_in_hand(P) == 2
    assert ids.deck_runs_out(P.replace(hand_size=4)) == 16


def test_terrain_tax_bound():
    t = ids.terrain_tax_bound(P)
    # 13 curves x 2 x (8 big cards / 20) + 6 rocks x 1 = 10.4 + 6
    assert t["worst"] == 32 and t["card_mix"] == pytest.approx(16.4)
    assert ids.terrain_tax_bound(P.replace(curve_penalty=3))["card_mix"] == pytest.approx(13 * 3 * 0.4 + 6)


def test_identity_table_follows_parameters():
    t = identity_table(registry.get("sbr"), P)
    exact = t[t["exact"].notna() & t["rulebook"].notna()]
    bad = exact[~exact["status"].str.startswith("holds")]
    # the one exact figure the rulebook gets wrong on its own terms: the tax bound is 16.4, not ~11
    assert list(bad["quantity"]) == ["terrain tax if every curve and rock is crossed at the deck's big-card share"]
    changed = identity_table(registry.get("sbr"), P.replace(beats=20)).set_index("quantity")
    assert changed.loc["mileage deficit: squares - beats x mean card", "exact"] == 0


def test_short_race_pools():
    # 9.1: 4 segments x 11 = 44; 8 of the 12 relics laid out, expected 8 x 24/12 = 16; final 8+5+3+1 = 17
    assert ids.point_pools(params_for_variant("short"), 4) == {"segments": 44, "relics": 16, "final": 17, "total": 77}


def test_simulated_terrain_tax_and_mean_card():
    from gamelab.sim import runner

    greedy = identity_table(
        registry.get("sbr"), P, frame=runner.simulate(registry.get("sbr"), n_games=600, seed=4, n_players=4)
    ).set_index("quantity")
    rnd = identity_table(
        registry.get("sbr"),
        P,
        frame=runner.simulate(registry.get("sbr"), n_games=600, seed=4, n_players=4, lineup=["random"] * 4),
    ).set_index("quantity")
    tax = "terrain tax paid per rider over the game, simulated lineup"
    # the greedy agent avoids curves with big cards: it pays less than random play
    assert greedy.loc[tax, "sim_high"] < rnd.loc[tax, "sim_low"]
    card = greedy.loc["mean card played (simulated)"]
    assert 3.0 < card["simulated"] < 3.4 and card["n"] == 600
