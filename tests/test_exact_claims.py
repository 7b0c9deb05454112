"""Every checkable sentence of both rulebooks, computed exactly: at the
rulebook's parameters against hand computations, at changed parameters, and
(``test_every_value_depends_on_its_source``) with the rules themselves
changed under the values, so that no row can hold by restating a formula.

How a row is made able to fail.  ``gamelab/<game>/exact_claims.py`` declares, per
part of ``exact_claims`` (``core.exact_claims.Part``), where its values come from: ``data``
(the board and deck data of ``rules.py``), ``engine`` (scripted states run
through the engine) or ``record`` (the worked example replayed).  The test
then attacks each source and requires every value of the part to move under
at least one attack:

* ``data``: the part is recomputed at changed data (another board, other card
  counts, other point tables).  A number typed in, or copied from the
  rulebook, does not move.
* ``engine`` / ``record``: the part is recomputed at the *rulebook's*
  parameters while the engine plays by other rules: the module attribute
  ``engine`` of every module in ``ENGINE_CALLERS`` (the exact modules and the
  game's ``record``) is swapped for a proxy that hands changed parameters to
  every engine function, and some engine kernels that no parameter reaches
  (acting order, rank tie-breaks, node ranking) are sabotaged in place (SBR's
  in a copy of its kernel run as Python: compiled callers keep the code they
  were compiled with, so a patch must meet Python ones).  A
  value that restates the rulebook's formula from the parameters the exact
  module holds (say "deck empty from beat 20 - 5") never meets the changed
  rules, so it does not move and the test names it.  Only a value that asked
  the engine -- played the draws, walked the squares, scored the round --
  follows the engine.
"""

import dataclasses
import importlib
import inspect
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from gamelab.core.exact_claims import DATA, SOURCES
from gamelab.rulebook.claims import exact_audit, is_exact, load_claims
from gamelab.sbr import exact_claims as sbr_exact
from gamelab.sbr.rules import DEFAULT_BOARD, SbrParams
from gamelab.strand import exact_claims as strand_exact
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
    bad = bad.assign(note=bad["note"].str.replace("exact; ", ""))
    errata = {
        "need_per_beat": 13,
        "five_through_one_curve": 1,
        "five_minus_two_through_one_curve": 1,
        "spin_income_max": 14,
        "pool_segments_2p": 15,
        "pool_final_2p": 15,
        "pool_total_2p": 15,
        "pool_segments_3p": 15,
        "pool_final_3p": 15,
        "pool_total_3p": 15,
        "segments_with_a_seal": 16,
        "short_curves_dropped": 11,
        "pool_without_relics_2p": 15,
        "pool_without_relics_3p": 15,
        "five_through_two_curves": 2,
        "five_through_two_curves_tax": 2,
        "five_through_two_curves_stops_on_first": 2,
        "two_river_starts": 17,
        # found by asking the engine and the example's replay for every sentence
        "segments_with_rocks": 18,
        "one_seal_bites": 19,
        "ex_seg2_leader": 20,
        "ex_beat_1_tax_4": 3,
        "ex_spin_beat_2_1": 4,
        "ex_relic_points_1": 7,
        "ex_seg6_total_1": 7,
        "ex_total_1": 7,
        "ex_gap_1_3": 7,
        "ex_gap_1_2": 8,
        "ex_squares_1_3": 9,
        "ex_top_two_segments_3": 10,
        # found by accounting for every number of the rulebook (data/claims/sbr_coverage.csv)
        "towns_in_back_half": 21,
        "deck_empty_from_beat": 22,
        "relic_kinds_worth_2": 23,
    }
    assert sorted(set(bad["quantity"])) == sorted(errata)
    for q, n in errata.items():
        assert bad.loc[bad["quantity"] == q, "note"].str.contains(f"erratum SBR {n}$|erratum SBR {n};").all(), q
    assert len(bad) == 36 and len(t) == 415


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
            "ex_mule_heaviest_rounds",
            "node_mean",
            "ex_r7_mule_fragile_sum",
            "ex_mule_short_rounds",
            "team_mate_of_seat_1_4p",
        ]
    )
    assert len(t) == 289


def test_sbr_hand_computations():
    q = sbr_exact.exact_claims()
    # 1.1: 18 beats x mean card (1+2+3+4+5)/5 = 3 -> 54, 6 short of 60
    assert (q["mean_card"], q["movement_total"], q["mileage_deficit"]) == (3.0, 54.0, 6.0)
    # 6.3 / 9.2 by player count: 6 segments x (5+3+2+1+0)[:P], relics 3x2+3x2+3x3+3x1, finals (10,6,3,1,0)[:P]
    for P, seg, fin in ((2, 6 * 8, 16), (3, 6 * 10, 19), (4, 6 * 11, 20), (5, 6 * 11, 20)):
        assert q[f"pool_segments_{P}p"] == seg and q[f"pool_final_{P}p"] == fin
        assert q[f"pool_total_{P}p"] == seg + 24 + fin and q[f"pool_without_relics_{P}p"] == seg + fin
    # 4.3 on the 4.1 map
    assert [q[f"{t}_squares"] for t in ("straight", "curve", "rock", "river", "town", "relic")] == [30, 13, 6, 6, 4, 12]
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
    # the engine's draws: a hand of 6 empties the 20-card deck after beat 14, 4 beats from the hand
    q = sbr_exact.exact_claims(SbrParams(hand_size=6))
    assert (q["deck_runs_out"], q["beats_from_hand"], q["cards_left_in_hand"]) == (14, 4, 2)
    # final points (12, 6, 3, 1, 0): 22 on offer at 4 players
    assert sbr_exact.exact_claims(SbrParams(final_points=(12, 6, 3, 1, 0)))["pool_total_4p"] == 66 + 24 + 22


def test_strand_hand_computations():
    q = strand_exact.exact_claims()
    for a in range(1, 6):
        for b in range(1, 6):
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
    # variant C is defined on the rulebook's nodes
    assert (q["three_player_node_4"], q["three_player_node_5"]) == (4, 4)


# --- every value depends on its source ----------------------------------------------------
def _rotate(board, k):
    """Squares 1..N-1 rotated by ``k`` (the finish stays last): every segment gets another's terrain."""
    body = list(board[:-1])
    return tuple(body[k:] + body[:k]) + (board[-1],)


def _edit(board, **squares):
    """``board`` with some squares (``s12="rock"``) given another terrain."""
    out = list(board)
    for key, code in squares.items():
        out[int(key[1:]) - 1] = code
    return tuple(out)


#: fewer rivers (segments 1, 3, 5), curves, rocks, towns and relics (two gone from segment 6, one on a curve)
SBR_EDITED = _edit(DEFAULT_BOARD, s5="straight", s25="straight", s42="straight", s3="straight", s12="straight",
                   s8="straight", s53="straight", s57="straight", s4="rock+relic", s7="straight")  # fmt: skip
SBR_CHANGES = [
    {"board": SBR_EDITED, "relics_on_straights": False},
    {"board": _edit(DEFAULT_BOARD, s1="river", s2="rock")},
    {"board": DEFAULT_BOARD[:-1] + ("straight", "finish")},
    {"curve_penalty": 3},
    {"curve_penalty": 1},
    {"big_card": 5},
    {"rock_penalty": 2},
    {"big_card": 2},
    {"seal_penalty": 3, "seal_break_cost": 1},
    {"seal_range": 2, "seals_per_player": 3},
    {"spin_cap": 8, "max_spin_per_beat": 1},
    {"river_spin": 2, "town_spin": 2},
    {"hand_size": 6},
    {"beats": 15},
    {"beats_per_segment": 2},
    {"segment_points": (6, 4, 3, 1, 0), "final_points": (12, 7, 4, 2, 0)},
    {"relic_points": (3, 4, 5, 2), "eye_spin": 3, "heart_steps": 4, "skull_cards": 2},
    {"card_counts": (5, 3, 5, 3, 4)},
    {"card_counts": (4, 4, 4, 5, 5)},
    {"card_counts": (0, 5, 5, 5, 5)},
    {"board": _rotate(DEFAULT_BOARD, 10)},
    {"board": _rotate(DEFAULT_BOARD, 20)},
    {"board": _rotate(DEFAULT_BOARD, 1)},
    {"board": _rotate(DEFAULT_BOARD, 38)},
    {"riders_per_player": 2, "segment_points": (5, 3, 2, 1) + (0,) * 6, "final_points": (10, 6, 3, 1) + (0,) * 6},
    {"riders_per_player": 1},  # a no-op for the standard game; variant 9.5's script asks for 2
    {"min_players": 3, "max_players": 4},
    {"relic_counts": (4, 4, 4, 2)},
    {"extra_cost_rule": "stop_before"},
]


def _reverse_order(orig):
    def sabotaged(kp, A, g, beat):
        orig(kp, A, g, beat)
        A.order[g] = A.order[g][::-1].copy()

    return sabotaged


def _reverse_keys(orig):
    def sabotaged(*keys):
        return orig(*keys[4:], *keys[:4])  # every order and rank by its keys reversed

    return sabotaged


def _negate(orig):
    def sabotaged(*a, **k):
        return -orig(*a, **k)

    return sabotaged


def _win_by_seat(orig):
    def sabotaged(score, relics, squares):
        key = orig(score, relics, squares)
        return key * key.shape[1] + np.arange(key.shape[1])[::-1]  # no shared wins: seat order decides

    return sabotaged


def _town_one_back(orig):
    def sabotaged(kp, kind, stop, end, spin):
        # the town of the square passed, not the one stopped on
        return orig(kp, kind, stop - 1 if stop > 0 else stop, end, spin)

    return sabotaged


def _relic_one_back(orig):
    def sabotaged(kp, tb, A, g, r, *rest):
        stop, end, tax, spin, hits, kind, n_rem = orig(kp, tb, A, g, r, *rest)
        if stop > 0:  # the relic of the square passed, not the one stopped on
            kind = int(A.relic[g, stop - 1])
        return stop, end, tax, spin, hits, kind, n_rem

    return sabotaged


def _no_break(orig):
    def sabotaged(kp, owner, r, m, brk, spin):
        return orig(kp, owner, r, m, False, spin)

    return sabotaged


def _never_removed(orig):
    def sabotaged(*a):
        m, spin, hit, removed = orig(*a)
        return m, spin, hit, False

    return sabotaged


def _inverted(orig):
    def sabotaged(kp, owner, r):
        return owner >= 0 and not orig(kp, owner, r)

    return sabotaged


def _not(orig):
    def sabotaged(*a):
        return not orig(*a)

    return sabotaged


#: the game's compiled kernel run as Python (:func:`_python_sbr`), so that a function patched there
#: reaches every caller (compiled callers keep the code they were compiled with)
SBR_PY = "gamelab.sbr._as_python"
#: in the order that lets each part stop soonest (a part stops once every value has moved; each sabotaged
#: run plays the kernel as Python, one to three seconds): the rank keys move the point, short-race and
#: record figures, the relic and town moves the movement and spin figures, the seals the seal figures;
#: the win keys only the order figures (cheap ones)
SBR_SABOTAGE = [
    (f"{SBR_PY}.kernel", "_ahead", _reverse_keys),
    (f"{SBR_PY}.kernel", "begin_beat", _reverse_order),
    (f"{SBR_PY}.kernel", "move", _relic_one_back),
    (f"{SBR_PY}.kernel", "_stop_effects", _town_one_back),
    (f"{SBR_PY}.kernel", "_meet_seal", _no_break),
    (f"{SBR_PY}.kernel", "_meet_seal", _never_removed),
    (f"{SBR_PY}.kernel", "ignored", _inverted),
    (f"{SBR_PY}.kernel", "seal_allowed", _not),
    (f"{SBR_PY}.engine", "win_key", _negate),
    (f"{SBR_PY}.engine", "win_key", _win_by_seat),
]
#: the modules of gamelab.sbr that hold compiled code or call it by name: copied (the others are shared)
SBR_COMPILED_CALLERS = ("kernel", "legal", "movement", "options", "engine")


def _python_sbr(monkeypatch, exact):
    """Every engine caller of ``exact`` (``ENGINE_CALLERS``) plays through a copy of
    ``gamelab.sbr.engine`` whose compiled kernel runs as Python (loaded once, under
    :data:`SBR_PY`; its caches cleared, so that tables follow a sabotage)."""
    from gamelab.core import compiled

    if f"{SBR_PY}.engine" not in sys.modules:
        pkg = types.ModuleType(SBR_PY)
        pkg.__path__ = [str(Path(sbr_exact.__file__).parent)]
        monkeypatch.setitem(sys.modules, SBR_PY, pkg)
        for name in ("rules", "agent_params", "state", "ranking"):
            monkeypatch.setitem(sys.modules, f"{SBR_PY}.{name}", importlib.import_module(f"gamelab.sbr.{name}"))
        with monkeypatch.context() as m:
            m.setattr(compiled, "COMPILED", False)
            for name in SBR_COMPILED_CALLERS:
                monkeypatch.setitem(sys.modules, f"{SBR_PY}.{name}", importlib.import_module(f"{SBR_PY}.{name}"))
    kernel = sys.modules[f"{SBR_PY}.kernel"]
    kernel.rules_of.cache_clear()
    kernel.moves_of.cache_clear()

    for name in exact.ENGINE_CALLERS:
        monkeypatch.setattr(importlib.import_module(name), "engine", sys.modules[f"{SBR_PY}.engine"])


STRAND_CHANGES = [
    {"sum_cap": 6},
    {"sum_cap": 8},
    {"lone_penalty": 3},
    {"half_rounding": "down"},
    {"hand_size": 2, "max_hand": 4},
    {"max_hand": 6},
    {"node_values": (2, 3, 5, 6, 4, 7, 9, 10)},
    {"rounds": 7, "node_values": (3, 4, 4, 5, 5, 6, 7)},
    {"cargo_counts": (13, 11, 13, 11, 13)},
    {"cargo_counts": (12, 12, 12, 12, 14)},
    {"veteran_uses": 1, "bb_uses": 2, "fragile_uses": 2, "porter_uses": 2, "musician_uses": 3, "engineer_uses": 1},
    {"porter_bonus": 2, "musician_bonus": 2, "engineer_bonus": 2},
    {"node_award": "split"},
    {"bb_lock": "yield"},
    {"fragile_sum": "half"},
    {"stay_bonus": "one_round"},
    {"rain_cards": ("acid", "fog", "static")},
    {"acid_minus": 2, "static_cap": 5, "tools_cap": 9, "bt_markers": 3, "crate_bonus": 3, "tower_factor": 3},
]


def _heavier_loses(orig):
    def sabotaged(total, heavier):
        return orig(total, -heavier)

    return sabotaged


def _ties_kept(orig):
    def sabotaged(p, st, full, total, contrib, mc, seat, mate):
        return orig(p, st, full, total * 0, contrib, mc, seat, mate)  # every full team ties on the sum

    return sabotaged


def _no_mutual(orig):
    def sabotaged(rope, bound):
        return np.zeros_like(orig(rope, bound))

    return sabotaged


def _any_players(orig):
    def sabotaged(params, n_players):
        return None

    return sabotaged


def _full_inverted(orig):
    def sabotaged(p, st, team, used, contrib):
        seat, mate, mc, total, full = orig(p, st, team, used, contrib)
        return seat, mate, mc, total, team & ~full

    return sabotaged


def _node_ignores_full(orig):
    def sabotaged(p, st, full, *rest):
        return orig(p, st, full | (st.partner >= 0), *rest)

    return sabotaged


def _every_full_team_wins(orig):
    def sabotaged(p, st, full, *rest):
        win, award, value, result = orig(p, st, full, *rest)
        return full, full * value[:, None], value, result

    return sabotaged


def _pair_keys(orig):
    def sabotaged(total, heavier):
        return orig(total, heavier) * 2 + np.arange(np.shape(total)[-1]) // 2  # teams 0+1, 2+3 never tie

    return sabotaged


def _half_is_whole(orig):
    def sabotaged(v, p):
        return v

    return sabotaged


def _lone_as_stay(orig):
    def sabotaged(params, state):
        team, stay, lone = orig(params, state)
        return team, lone, stay

    return sabotaged


def _track_inverted(orig):
    def sabotaged(p, st, formed, chance):
        return orig(p, st, ~formed, chance)

    return sabotaged


def _self_allowed(orig):
    def sabotaged(G, P):
        out = orig(G, P).copy()
        out[..., :P] = True
        return out

    return sabotaged


def _first_seat_wins(orig):
    def sabotaged(params, st):
        res = orig(params, st)
        first = np.argmax(res["win"] > 0, axis=1)
        res["win"] = np.eye(res["win"].shape[1])[first]
        return res

    return sabotaged


def _markers_reversed(orig):
    def sabotaged(params, st):
        return orig(params, st.copy(lone=(st.lone.max() - st.lone).astype(st.lone.dtype)))

    return sabotaged


def _point_more(orig):
    def sabotaged(p, st, team, *rest):
        gained, node = orig(p, st, team, *rest)
        return (gained + team).astype(gained.dtype), node  # every team member one point more

    return sabotaged


def _constant(value):
    def patch(orig):
        return value

    return patch


STRAND_SABOTAGE = [
    ("gamelab.strand.scoring", "_node_key", _heavier_loses),
    ("gamelab.strand.scoring", "_node_key", _pair_keys),
    ("gamelab.strand.scoring", "_node", _ties_kept),
    ("gamelab.strand.scoring", "_node", _node_ignores_full),
    ("gamelab.strand.scoring", "_node", _every_full_team_wins),
    ("gamelab.strand.scoring", "_crossing", _full_inverted),
    ("gamelab.strand.scoring", "_half", _half_is_whole),
    ("gamelab.strand.scoring", "_mutual", _no_mutual),
    ("gamelab.strand.engine", "status", _lone_as_stay),
    ("gamelab.strand.engine", "score_round", _point_more),
    ("gamelab.strand.engine", "_next_round", _track_inverted),
    ("gamelab.strand.engine", "check_players", _any_players),
    ("gamelab.strand.engine", "MAX_VALUE", _constant(6)),
    ("gamelab.strand.engine", "result", _first_seat_wins),
    ("gamelab.strand.engine", "result", _markers_reversed),
    ("gamelab.strand.legal", "_rope_template", _self_allowed),
]
#: module data the components tables count (not parameters): other boxes
STRAND_DATA = [
    ("gamelab.strand.exact_claims", "PLAYERS", (3, 7)),
    ("gamelab.strand.exact_claims", "PLAYERS", (4, 7)),
    ("gamelab.strand.exact_claims", "ROLES", ("veteran", "bb")),
]

GAMES = {
    "sbr": (sbr_exact, SbrParams, SBR_CHANGES, SBR_SABOTAGE, [], _python_sbr),
    "strand": (strand_exact, StrandParams, STRAND_CHANGES, STRAND_SABOTAGE, STRAND_DATA, None),
}


class RulesProxy:
    """A stand-in for an engine module: every function is called with the
    parameters replaced by ``changed`` (the rest of the arguments as given)."""

    def __init__(self, module, params_type, changes):
        self._module, self._type, self._changes = module, params_type, changes
        self._swapped = {}  # id(params) -> (params, changed): a replace validates every field (ms a call)

    def _swap(self, x):
        if not isinstance(x, self._type):
            return x
        if id(x) not in self._swapped:
            self._swapped[id(x)] = (x, dataclasses.replace(x, **self._changes))  # x kept: its id stays its own
        return self._swapped[id(x)][1]

    def __getattr__(self, name):
        obj = getattr(self._module, name)
        if not inspect.isfunction(obj):
            return obj

        def call(*args, **kw):
            return obj(*(self._swap(a) for a in args), **{k: self._swap(v) for k, v in kw.items()})

        return call


def _values(fn, params):
    try:
        return fn(params)
    except Exception:  # noqa: BLE001 - rules so changed that the script cannot run: no evidence either way
        return None


def _moved(base, other):
    if other is None:
        return set()
    return {q for q, v in base.items() if q in other and not np.isclose(float(other[q]), float(v), equal_nan=True)}


def _engine_swapped(monkeypatch, exact, params_type, changes):
    for name in exact.ENGINE_CALLERS:
        mod = importlib.import_module(name)
        real = importlib.import_module(mod.engine.__name__) if not isinstance(mod.engine, RulesProxy) else None
        monkeypatch.setattr(mod, "engine", RulesProxy(real, params_type, changes))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_value_depends_on_its_source(game, monkeypatch):
    exact, params_type, changes, sabotage, constants, sabotage_setup = GAMES[game]
    params = params_type()
    stuck = {}
    for part in exact.exact_claims.parts:
        base = part.fn(params)
        moved = set()
        for change in changes:
            if moved >= set(base):
                break
            if part.source == DATA:
                moved |= _moved(base, _values(part.fn, dataclasses.replace(params, **change)))
            else:
                with monkeypatch.context() as m:
                    _engine_swapped(m, exact, params_type, change)
                    moved |= _moved(base, _values(part.fn, params))
        for module, name, value in constants if part.source == DATA else []:
            with monkeypatch.context() as m:
                m.setattr(importlib.import_module(module), name, value)
                moved |= _moved(base, _values(part.fn, params))
        if part.source != DATA:
            for module, name, wrap in sabotage:
                if moved >= set(base):
                    break
                with monkeypatch.context() as m:
                    if sabotage_setup is not None:
                        sabotage_setup(m, exact)
                    mod = importlib.import_module(module)
                    m.setattr(mod, name, wrap(getattr(mod, name)))
                    moved |= _moved(base, _values(part.fn, params))
        if set(base) - moved:
            stuck[f"{part.fn.__name__} ({part.source})"] = sorted(set(base) - moved)
    assert not stuck, f"values that do not follow their source: {stuck}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_row_has_a_source(game):
    exact = GAMES[game][0]
    c = load_claims(game)
    src = exact.exact_claims.sources()
    assert set(c.loc[is_exact(c), "quantity"]) <= set(src)
    assert set(src.values()) <= set(SOURCES)


def test_a_restated_formula_is_caught(monkeypatch):
    """The check itself: a part that restates the deck formula (20 - 5) instead
    of playing the draws is named by the test's attack."""
    from gamelab.sbr import exact_games

    def restated(params):
        return {"deck_runs_out": sum(params.card_counts) - params.hand_size}

    real = exact_games.game_figures(SbrParams())["deck_runs_out"]
    with monkeypatch.context() as m:
        _engine_swapped(m, sbr_exact, SbrParams, {"hand_size": 6})
        assert exact_games.game_figures(SbrParams())["deck_runs_out"] != real  # the engine's draws follow
        assert restated(SbrParams())["deck_runs_out"] == real  # the formula does not
