"""Every rules-decided number of both rulebooks, computed exactly: at the
rulebook's parameters against hand computations, and at changed parameters."""

import dataclasses

import pytest

from gamelab.claims import exact_audit, is_exact, load_claims
from gamelab.sbr import exact as sbr_exact
from gamelab.sbr.rules import SbrParams
from gamelab.strand import exact as strand_exact
from gamelab.strand.rules import StrandParams

EXACT = {"sbr": sbr_exact.exact_claims, "strand": strand_exact.exact_claims}


def _audit(game, params=None):
    c = load_claims(game)
    return exact_audit(c[is_exact(c)], EXACT[game](params))


@pytest.mark.parametrize("game", ["sbr", "strand"])
def test_every_exact_row_is_computed(game):
    t = _audit(game)
    assert len(t) > 150
    missing = sorted(set(t["quantity"]) - set(EXACT[game]()))
    assert not missing
    assert t["ours"].notna().all() and (t["low"] == t["ours"]).all() and (t["high"] == t["ours"]).all()
    assert t["n"].isna().all() and t["note"].str.startswith("exact").all()


@pytest.mark.parametrize("game", ["sbr", "strand"])
def test_every_failure_names_its_erratum_and_only_failures_do(game):
    t = _audit(game)
    flagged = t["note"].str.contains("erratum|rounding")
    assert (flagged == ~t["inside"]).all(), t.loc[flagged != ~t["inside"], ["row", "value", "ours", "note"]]


def test_sbr_failures_are_the_errata():
    t = _audit("sbr")
    bad = t[~t["inside"]]
    assert sorted(set(bad["quantity"])) == sorted(
        [
            "need_per_beat",
            "five_through_one_curve",
            "five_minus_two_through_one_curve",
            "spin_income_max",
            "pool_segments_2p",
            "pool_final_2p",
            "pool_total_2p",
            "pool_segments_3p",
            "pool_final_3p",
            "pool_total_3p",
            "segments_with_a_seal",
            "short_curves_dropped",
            "pool_without_relics_2p",
            "pool_without_relics_3p",
            "five_through_two_curves",
            "five_through_two_curves_tax",
            "five_through_two_curves_stops_on_first",
            "two_river_starts",
        ]
    )
    assert len(bad) == 20 and len(t) == 213


def test_strand_failures_are_the_errata():
    t = _audit("strand")
    bad = t[~t["inside"]]
    assert sorted(bad["quantity"]) == sorted(
        [
            "cards_in_box",
            "lone_markers_needed_4p",
            "lone_markers_needed_5p",
            "lone_markers_needed_6p",
            "overweight_rate",
            "trust_gap_5_largest_node",
        ]
    )
    assert len(t) == 201


def test_sbr_hand_computations():
    q = sbr_exact.exact_claims()
    # 1.1: 18 beats x mean card (1+2+3+4+5)/5 = 3 -> 54, 6 short of 60
    assert (q["mean_card"], q["movement_total"], q["mileage_deficit"]) == (3.0, 54.0, 6.0)
    # 6.3 / 9.2 by player count: 6 segments x (5+3+2+1+0)[:P], relics 3x2+3x2+3x3+3x1, finals (10,6,3,1,0)[:P]
    for P, seg, fin in ((2, 6 * 8, 16), (3, 6 * 10, 19), (4, 6 * 11, 20), (5, 6 * 11, 20)):
        assert q[f"pool_segments_{P}p"] == seg and q[f"pool_final_{P}p"] == fin
        assert q[f"pool_total_{P}p"] == seg + 24 + fin and q[f"pool_without_relics_{P}p"] == seg + fin
    # 4.3 on the 4.1 map
    assert [q[f"{t}_squares"] for t in ("straight", "curve", "rock", "river", "town", "relic", "finish")] == [
        30,
        13,
        6,
        6,
        4,
        12,
        1,
    ]
    assert [q[f"curves_in_segment_{s}"] for s in range(1, 7)] == [1, 2, 3, 2, 3, 2]
    assert [q[f"rocks_in_segment_{s}"] for s in range(1, 7)] == [0, 2, 2, 0, 1, 1]
    assert [q[f"river_square_{k}"] for k in range(1, 7)] == [5, 17, 25, 39, 42, 54]
    # the engine: a 5 from 2 through the curve on 3 walks 3, 4, 5; FAQ Q2 from 19 stops on 21, tax 2 + 1
    assert (q["five_through_one_curve"], q["two_through_one_curve"]) == (3, 2)
    assert (q["five_through_two_curves"], q["five_through_two_curves_stop"], q["five_through_two_curves_tax"]) == (
        2,
        21,
        3,
    )
    # FAQ Q4: a 5 from 37 (38, 39 river, 40, 41, 42 river) and a 4 from 38 enter both rivers
    assert q["two_river_starts"] == 2
    # 3.3, 5.2, 9.1
    assert [q[f"drive_cards_{P}p"] for P in (2, 3, 4, 5)] == [40, 60, 80, 100]
    assert (q["spin_income_terrain"], q["spin_income_max"], q["spin_margin"]) == (10, 6 + 4 + 3 * 2, 4)
    assert (q["short_movement"], q["short_deficit"], q["short_curves_dropped"]) == (36.0, 4.0, 3 + 2)
    assert (q["deck_runs_out"], q["beats_from_hand"], q["relic_total_in_first_places"]) == (15, 3, 4.8)


def test_sbr_rows_follow_the_parameters():
    # curve penalty 3: a 5 from 2 enters 3 (4 left - 3 = 1) and 4, so 2 squares; from 19 it enters
    # 20 (4 left - 3 = 1) and 21 with nothing left (no curve cost), so still 2 squares, tax 3
    q = sbr_exact.exact_claims(SbrParams(curve_penalty=3))
    assert (q["five_through_one_curve"], q["five_through_two_curves"], q["five_through_two_curves_tax"]) == (2, 2, 3)
    t = _audit("sbr", SbrParams(curve_penalty=3))
    five = t[t["quantity"] == "five_through_one_curve"].set_index("value")["inside"]
    assert five[2.0].all() and not five[3.0].any()  # 5.1's "2" now holds, the card table's "3" no longer
    # 3 players at most: pools stop at 3 players; 3 seals a rider: seals in 3 of 6 segments
    q = sbr_exact.exact_claims(SbrParams(max_players=3, seals_per_player=3))
    assert "pool_total_4p" not in q and q["pool_total_3p"] == 103 and q["segments_with_a_seal"] == 3
    assert q["seals_3p"] == 9 and q["score_cells"] == 18
    # final points (12, 6, 3, 1, 0): 22 on offer at 4 players
    assert sbr_exact.exact_claims(SbrParams(final_points=(12, 6, 3, 1, 0)))["pool_total_4p"] == 66 + 24 + 22


def test_strand_hand_computations():
    q = strand_exact.exact_claims()
    for a in range(1, 6):
        for b in range(1, 6):
            assert q[f"pair_sum_{a}_{b}"] == a + b
            assert q[f"pair_full_{a}_{b}"] == (a + b <= 7)
    assert [q[f"partners_{v}"] for v in range(1, 6)] == [5, 5, 4, 3, 2]
    assert (q["cargo_value_total"], q["cargo_mean"]) == (12 * 15, 3.0)
    assert (q["cards_without_roles"], q["cards_in_box"]) == (60 + 8 + 42, 60 + 8 + 42 + 6)
    assert (q["node_total"], q["node_max"], q["node_last_in_full_cargo"]) == (42, 8, 8 / 5)
    assert (q["lone_score_5"], q["lone_loss_5"], q["trust_gap_5_largest_node"]) == (3, 5 - (3 - 2), 4 + 8)
    assert q["pairable_rate"] == pytest.approx(19 / 25)
    # ② p* = (S - lone) / (mutual - lone) with N = 6, S = 1.2, L = 2
    assert q["p_star_1_pct"] == pytest.approx(100 * 2.2 / 8)
    assert q["p_star_5_pct"] == pytest.approx(100 * 0.2 / 10)
    assert (q["short_node_total"], q["max_teams_4p"], q["max_teams_6p"]) == (3 + 4 + 4 + 5 + 5, 2, 3)
    assert [q[f"print_rope_cards_{P}p"] for P in (3, 4, 5, 6)] == [21, 28, 35, 42]
    assert [q[f"lone_markers_needed_{P}p"] for P in (3, 4, 5, 6)] == [24, 32, 40, 48]


def test_strand_rows_follow_the_parameters():
    p = StrandParams(sum_cap=8)
    q = strand_exact.exact_claims(p)
    assert q["pair_full_3_5"] == 1 and q["pair_full_4_5"] == 0 and q["partners_5"] == 3 and q["partners_4"] == 4
    assert q["overweight_from"] == 9 and q["engineer_cap"] == 9
    assert q["pairable_rate"] == pytest.approx(1 - 3 / 25)  # only 4+5, 5+4, 5+5 are overweight
    t = _audit("strand", p)
    assert not t.loc[t["quantity"] == "pair_full_3_5", "inside"].any()
    q = strand_exact.exact_claims(
        dataclasses.replace(StrandParams(), node_values=(4, 4, 5, 5, 6, 6, 7, 9), lone_penalty=3)
    )
    assert (q["node_total"], q["stall_cost_1"], q["short_node_total"]) == (46, 9, 24)
    assert (q["lone_net_5"], q["lone_loss_5"], q["trust_gap_5_largest_node"]) == (0, 5, 14)
    assert (q["three_player_node_4"], q["three_player_node_5"]) == (4, 5)
