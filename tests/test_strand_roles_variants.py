"""Role powers (section 5.5), their uses, and the variants A-F."""

import numpy as np
import pytest
from strand_helpers import run

from gamelab.core.errors import RecordError
from gamelab.strand import engine, rules
from gamelab.strand.rules import StrandParams, params_for_variant

LONE = ("4 1 2 3", "B C B -")  # A lone (B and C pair), D stays


def test_veteran_full_cargo_but_still_a_marker_and_used_up():
    led = run("A:veteran B C D", [LONE + ({"A": "veteran"},)] * 2)
    assert [r["scores"][0] for r in led["rounds"]] == [4, 4] and led["final"]["lone"][0] == 2
    with pytest.raises(RecordError, match=r"round 3, player A: uses the veteran power beyond its 2 use"):
        run("A:veteran B C D", [LONE + ({"A": "veteran"},)] * 3)
    with pytest.raises(RecordError, match="round 1, player A: the veteran power applies only when you are lone"):
        run("A:veteran B C D", [("1 2 3 3", "B A - -", {"A": "veteran"})])


@pytest.mark.parametrize(
    "reading,teams,scores",
    [
        ("override", [["B", "C"]], [0, 5, 6, 2]),  # the lock beats C's pair with D
        ("yield", [["C", "D"]], [0, 1, 6, 7]),  # C's mutual pair stands, the bb is lone
    ],
)
def test_bb_lock(reading, teams, scores):
    led = run("A B:bb C D", [("1 2 3 4", "- A D C", {"B": {"bb": "C"}})], bb_lock=reading)
    r = led["rounds"][0]
    assert r["teams"] == teams and r["scores"] == scores
    with pytest.raises(RecordError, match="round 2, player B: uses the bb power beyond its 1 use"):
        run("A B:bb C D", [("1 2 3 4", "- A D C", {"B": {"bb": "C"}})] * 2)


def test_bb_lock_holds_a_partner_who_stays():
    r = run("A B:bb C D", [("1 2 3 4", "- A - -", {"B": {"bb": "C"}})])["rounds"][0]
    assert r["teams"] == [["B", "C"]] and r["scores"] == [0, 5, 6, 0]


@pytest.mark.parametrize("reading,scores", [("full", [2, 1, 3, 2]), ("half", [7, 1, 6, 2])])
def test_fragile_switch_and_its_half_cargo(reading, scores):
    # A->C, B->D, C->B, D->A: nobody mutual; C (fragile) switches to A, who pointed at her
    r = run("A B C:fragile D", [("4 1 5 3", "C D B A", {"C": {"fragile": "A"}})], fragile_sum=reading)["rounds"][0]
    assert r["teams"] == [["A", "C"]] and r["scores"] == scores  # full: 4+5 overweight; half: 4+3
    assert r["lone"] == [0, 1, 0, 1]


def test_fragile_needs_someone_who_pointed_at_her():
    with pytest.raises(RecordError, match="round 1, player C: the fragile power applies only when you are lone"):
        run("A B C:fragile D", [("4 1 5 3", "C D B A", {"C": {"fragile": "D"}})])


def test_porter_plus_one_capped_at_five_and_used_up():
    led = run(
        "A B C D:porter",
        [
            ("1 1 1 5", "B A - -", {"D": "porter"}),
            ("1 1 1 4", "B A - -", {"D": "porter"}),
            ("1 1 1 2", "B A - -", {"D": "porter"}),
        ],
    )
    assert [r["cargo"][3] for r in led["rounds"]] == [5, 5, 3]
    with pytest.raises(RecordError, match="round 4, player D: uses the porter power beyond its 3 use"):
        run("A B C D:porter", [("1 1 1 2", "B A - -", {"D": "porter"})] * 4)


@pytest.mark.parametrize("on_over,bonus", [(True, 1), (False, 0)])
def test_musician_bonus_in_a_formed_team(on_over, bonus):
    led = run(
        "A B:musician C D",
        [("1 2 1 1", "B A - -", {"B": "musician"}), ("4 5 1 1", "B A - -", {"B": "musician"})],
        musician_on_overweight=on_over,
    )
    assert [r["scores"][1] for r in led["rounds"]] == [2 + 3 + 1, 3 + bonus]
    with pytest.raises(RecordError, match="musician power applies only when your team formed"):
        run("A B:musician C D", [("1 2 1 1", "C A - -", {"B": "musician"})])


def test_engineer_raises_the_cap_to_eight():
    plain = run("A:engineer B C D", [("4 4 1 1", "B A - -")])["rounds"][0]
    eng = run("A:engineer B C D", [("4 4 1 1", "B A - -", {"A": "engineer"})])["rounds"][0]
    assert plain["scores"] == [2, 2, 0, 0] and plain["node"] is None
    assert eng["scores"] == [7, 7, 0, 0] and eng["node"]["players"] == ["A", "B"]
    with pytest.raises(RecordError, match="round 3, player A: uses the engineer power beyond its 2 use"):
        run("A:engineer B C D", [("4 4 1 1", "B A - -", {"A": "engineer"})] * 3)


def test_power_without_the_role():
    with pytest.raises(
        RecordError,
        match=r"round 1, player A: uses the porter power without that role "
        r"\(role: veteran\)",
    ):
        run("A:veteran B C D", [("1 2 1 1", "B A - -", {"A": "porter"})])


# --- variants -----------------------------------------------------------------
def test_variant_a_short_game():
    p = params_for_variant("short")
    assert p.rounds == 5 and p.node_values == (3, 4, 4, 5, 5) and sum(p.node_values) == 21
    with pytest.raises(RecordError, match="the record has 6 rounds, the game only 5"):
        run("A B C D", [("1 1 1 1", "B A D C")] * 6, variant="short")
    led = run("A B C D", [("1 1 1 1", "B A D C")] * 5, variant="short")
    assert led["rounds"][-1]["segment"] == 6


def test_variant_b_silent_and_fog_flags():
    assert params_for_variant("silent").silent and not StrandParams().silent
    p = params_for_variant("time_rain")
    st = engine.init(p, 2, 4, engine.replay_chance(p, 2, 4, rain_order=[[rules.FOG] + [7] * 7, [7] * 8]))
    assert engine.negotiation(p, st).tolist() == [False, True]
    silent = engine.init(StrandParams(), 1, 4, engine.replay_chance(StrandParams(), 1, 4))
    assert engine.negotiation(params_for_variant("silent"), silent).tolist() == [False]


def test_variant_c_three_players():
    p = params_for_variant("three_player")
    assert p.node_values == (3, 4, 4, 4, 4, 6, 7, 8)
    with pytest.raises(RecordError, match="variant three_player is for 3 players"):
        run("A B C D", [("1 1 1 1", "B A D C")], variant="three_player")


def test_variant_d_six_players_only_changes_the_player_count():
    assert params_for_variant("six_player") == StrandParams()
    with pytest.raises(RecordError, match="variant six_player is for 6 players"):
        run("A B C D", [("1 1 1 1", "B A D C")], variant="six_player")


def test_variant_e_teams_of_opposite_seats():
    # 4 players: seats 1&3 and 2&4.  A+C gross 1+1=2 vs B+D 2+2+... see scores
    led = run("A B C D", [("1 2 3 4", "B A D C")], variant="teams")
    assert led["rounds"][0]["scores"] == [1, 2, 3 + 3, 4 + 3]
    assert led["final"]["winners"] == ["B", "D"]  # 2+7 = 9 beats 1+6 = 7
    assert rules.team_of_seat(0, 6) == rules.team_of_seat(3, 6) and rules.team_of_seat(2, 4) == 0
    with pytest.raises(RecordError, match="teams"):
        run("A B C", [("1 1 1", "B A -")], variant="teams")


@pytest.mark.parametrize(
    "card,cargo,ropes,scores,lone",
    [
        ("acid", "1 5 3 2", "B A D C", [1 + 3, 4 + 3, 2, 1], [0] * 4),  # 1 4 2 1: A+B 5 takes the node
        ("static", "3 4 1 1", "B A - -", [2, 2, 0, 0], [0] * 4),  # 7 > cap 6: overweight
        ("tools", "4 4 1 1", "B A - -", [7, 7, 0, 0], [0] * 4),  # 8 <= cap 8: full, node 3
        ("bt_tide", "4 1 2 3", "B C B -", [2, 1 + 3, 2 + 3, 0], [2, 0, 0, 0]),
        ("crate", "4 5 1 2", "B A D C", [2 + 2, 3 + 2, 1 + 3 + 2, 2 + 3 + 2], [0] * 4),
        ("tower", "1 2 1 1", "B A - -", [1 + 6, 2 + 6, 0, 0], [0] * 4),
        ("clear", "1 2 1 1", "B A - -", [1 + 3, 2 + 3, 0, 0], [0] * 4),
        ("fog", "1 2 1 1", "B A - -", [1 + 3, 2 + 3, 0, 0], [0] * 4),
    ],
)
def test_variant_f_time_rain_cards(card, cargo, ropes, scores, lone):
    r = run("A B C D", [(cargo, ropes, None, card)], variant="time_rain")["rounds"][0]
    assert r["rain"] == card and r["scores"] == scores and r["lone"] == lone


def test_variant_f_needs_the_rain_card_in_the_record():
    with pytest.raises(RecordError, match="round 1: time rain needs the round's card"):
        run("A B C D", [("1 2 1 1", "B A - -")], variant="time_rain")


def test_time_rain_deck_deals_each_card_once():
    p = params_for_variant("time_rain")
    st = engine.init(p, 200, 4, engine.draw_chance(p, 200, 4, np.random.default_rng(1)))
    assert (np.sort(st.rain_order, 1) == np.arange(8)).all()
    p2 = p.replace(clear_redraw=True, rain_cards=("acid", "clear", "tower"))
    order = engine.draw_chance(p2, 50, 4, np.random.default_rng(1)).rain_order
    assert set(np.unique(order)) == {rules.ACID, rules.TOWER}
