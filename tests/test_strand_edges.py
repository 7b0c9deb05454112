"""One scripted test per rule edge (figures derived by hand from the rulebook)."""

import numpy as np
import pytest
from strand_helpers import run

from gamelab.strand import engine
from gamelab.strand.rules import StrandParams

P4 = "A B C D"


def _first_card(p, st):
    """(1,P) each seat shows its smallest card."""
    return engine.legal(p, st)[0].argmax(1)[None]


def test_pointing_triangle_all_lone_then_node_waits():
    led = run(P4, [("3 4 5 2", "B C A -"), ("1 2 3 4", "B A D C")])
    r1, r2 = led["rounds"]
    assert r1["teams"] == [] and r1["status"] == ["lone", "lone", "lone", "stay"]
    assert r1["scores"] == [2, 2, 3, 0] and r1["lone"] == [1, 1, 1, 0]
    assert r1["node"] is None and r1["segment"] == 1  # no team: the track stays
    assert r2["node"] == {"segment": 1, "points": 3, "players": ["C", "D"]}  # the node waited
    assert r2["scores"] == [1, 2, 6, 7] and r2["segment"] == 2


def test_three_point_at_one_who_points_back_at_one():
    led = run(P4, [("2 3 4 5", "D D D A")])
    r = led["rounds"][0]
    assert r["teams"] == [["A", "D"]]
    assert r["scores"] == [5, 2, 2, 8] and r["lone"] == [0, 1, 1, 0]


@pytest.mark.parametrize("reading,limit2,hand2", [("accumulate", 4, 4), ("one_round", 3, 3)])
def test_stay_raises_the_hand_limit(reading, limit2, hand2):
    p = StrandParams(stay_bonus=reading)
    chance = engine.draw_chance(p, 1, 4, np.random.default_rng(3), roles=None)
    st = engine.init(p, 1, 4, chance)
    for ropes in ([[4, 2, 1, 1]], [[1, 0, 3, 2]]):  # round 1: A stays; round 2: nobody stays
        st, _ = engine.step(p, st, _first_card(p, st), chance)
        st, _ = engine.step(p, st, np.array(ropes), chance)
        st, ev = engine.step(p, st, np.zeros((1, 4), int), chance)
        if ropes[0][0] == 4:
            assert ev["stay"][0].tolist() == [True, False, False, False] and ev["gained"][0, 0] == 0
            assert st.limit[0].tolist() == [4, 3, 3, 3] and st.hand[0].sum(1).tolist() == [4, 3, 3, 3]
            assert st.lone[0, 0] == 0
    assert st.limit[0, 0] == limit2 and st.hand[0, 0].sum() == hand2


def test_stays_accumulate_up_to_max_hand():
    p = StrandParams()
    chance = engine.draw_chance(p, 1, 3, np.random.default_rng(4), roles=None)
    st = engine.init(p, 1, 3, chance)
    for _ in range(4):
        st, _ = engine.step(p, st, _first_card(p, st), chance)
        st, _ = engine.step(p, st, np.array([[3, 2, 1]]), chance)
        st, _ = engine.step(p, st, np.zeros((1, 3), int), chance)
    assert st.limit[0, 0] == 5 and st.hand[0, 0].sum() == 5


def test_overweight_team_moves_the_track_without_a_node():
    led = run(P4, [("4 5 1 2", "B A - -"), ("1 2 1 1", "B A - -")])
    r1, r2 = led["rounds"]
    assert r1["teams"] == [["A", "B"]] and r1["scores"] == [2, 3, 0, 0]
    assert r1["node"] is None and r1["segment"] == 2 and r1["lone"] == [0, 0, 0, 0]
    assert r2["node"]["segment"] == 2 and r2["scores"] == [5, 6, 0, 0]


def test_node_tie_broken_by_the_heavier_card():
    r = run(P4, [("5 1 4 2", "B A D C")])["rounds"][0]
    assert r["node"]["players"] == ["A", "B"] and r["scores"] == [8, 4, 4, 2]


def test_full_tie_voids_the_node_even_for_a_smaller_team():
    r1, r2 = run("A B C D E F", [("3 3 3 3 1 1", "B A D C F E"), ("1 1 1 1 1 1", "B A - - - -")])["rounds"]
    assert r1["node"] == "void" and r1["scores"] == [3, 3, 3, 3, 1, 1] and r1["segment"] == 2
    assert r2["node"]["segment"] == 2 and r2["node"]["points"] == 4  # the voided node is gone


def test_sum_equal_to_the_cap_is_full():
    r = run(P4, [("3 4 1 1", "B A - -")])["rounds"][0]
    assert r["scores"] == [6, 7, 0, 0]


def test_node_award_split_reading():
    r = run(P4, [("5 1 1 1", "B A - -")], node_award="split")["rounds"][0]
    assert r["scores"] == [5 + 2, 1 + 1, 0, 0]  # 3 shared: heavier card 2, lighter 1
