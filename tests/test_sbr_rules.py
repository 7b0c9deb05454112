"""STEEL BALL RUN rule edges, scripted on the batch engine and on the reference.

Each scenario sets a position by hand and plays one rider's move through both
implementations; both must give the hand-derived answer."""

import numpy as np
import pytest
from sbr_helpers import play

from gamelab.core.errors import ParamError
from gamelab.sbr import engine
from gamelab.sbr.reference import Game
from gamelab.sbr.rules import DEFAULT_BOARD, EYE, HEART, SKULL, SPINE, SbrParams, n_riders, params_for_variant

P = SbrParams()


class Scene:
    """One game, batch of one, riders placed by hand; every rider holds his
    whole deck so any card can be played."""

    def __init__(self, params=P, n_players=4, pos=None, spin=None, relics=None, seals=None):
        self.p = params
        R = n_riders(params, n_players)
        layout = np.full(params.length + 1, -1, np.int8)
        for sq, kind in (relics or {}).items():
            layout[sq] = kind
        deck = np.repeat(np.arange(1, 6, dtype=np.int8), params.card_counts)
        chance = engine.Chance(np.broadcast_to(deck, (1, R, deck.size)).copy(), layout[None], np.zeros(1, np.int8))
        self.st = engine.init(params, 1, n_players, chance)
        self.ref = Game(params, n_players, chance.decks[0], layout, 0)
        self.st.hand[:] = params.card_counts
        self.st.drawn[:] = deck.size
        for r in range(R):
            self.ref.hand[r] = list(params.card_counts)
            self.ref.drawn[r] = deck.size
        for r, x in enumerate(pos or []):
            self.st.pos[0, r] = self.ref.pos[r] = self.st.seg_start[0, r] = self.ref.seg_start[r] = x
        for r, x in enumerate(spin or []):
            self.st.spin[0, r] = self.ref.spin[r] = x
        for sq, owner in (seals or {}).items():
            self.st.seal[0, sq] = self.ref.seal[sq] = owner

    def move(self, r, card, spin=0, seal=0, brk=False, retrieve=0):
        """Rider r acts; returns (position, spin) after, checked equal in both."""
        self.st.order[0] = [r] + [x for x in range(self.st.pos.shape[1]) if x != r]
        a = engine.Actions(*(np.array([v]) for v in (card, spin, seal, brk, retrieve)))
        self.st, self.ev = engine.act(self.p, self.st, a, 0)
        self.ref.act(r, card, spin, seal, brk, retrieve)
        got = (int(self.st.pos[0, r]), int(self.st.spin[0, r]))
        assert got == (self.ref.pos[r], self.ref.spin[r])
        assert self.st.seal[0].tolist() == self.ref.seal
        assert self.st.stats["terrain_tax"][0].tolist() == self.ref.stats["terrain_tax"]
        return got


def test_default_board_matches_section_4_3():
    terr = P.terrain_array()
    assert P.length == 60 and DEFAULT_BOARD[-1] == "finish"
    assert [i for i in range(61) if terr[i] == 1] == [3, 14, 20, 21, 24, 28, 33, 37, 43, 47, 50, 56, 59]
    assert [i for i in range(61) if terr[i] == 2] == [12, 16, 22, 27, 45, 52]
    assert [i for i in range(61) if terr[i] == 3] == [5, 17, 25, 39, 42, 54]
    assert [i for i in range(61) if terr[i] == 4] == [8, 35, 48, 58]
    assert P.relic_squares() == [4, 7, 13, 18, 23, 29, 32, 36, 41, 46, 53, 57]


def test_stop_exactly_on_rock_and_on_curve_costs_nothing_extra():
    assert Scene(pos=[10]).move(0, 2) == (12, 0)  # 11, 12 rock: stop, no rock cost
    s = Scene(pos=[10])
    assert s.move(0, 4) == (13, 0)  # 11, 12 rock (-1), 13
    assert s.st.stats["terrain_tax"][0, 0] == 1
    s = Scene(pos=[33])
    assert s.move(0, 4) == (37, 0)  # 34 35 36 37 curve, exactly used up
    assert s.st.stats["terrain_tax"][0, 0] == 0
    s = Scene(pos=[33])
    assert s.move(0, 5) == (37, 0)  # 1 left on the curve: it takes that 1
    assert s.st.stats["terrain_tax"][0, 0] == 1


def test_five_through_one_curve_moves_three_squares():
    """Section 5.1 says a 5 through a curve = 2 squares; the step rule gives 3."""
    assert Scene(pos=[2]).move(0, 5) == (5, 1)  # 3 curve (4-2=2 left), 4, 5 river
    assert Scene(pos=[2]).move(0, 2) == (4, 0)  # a 2 through the curve: 2 squares


def test_five_through_two_consecutive_curves():
    """FAQ Q2 says 0 squares, stopping on the first curve; the step rule stops
    on the second: 20 (4-2 = 2 left), 21 (1 left, the curve takes it)."""
    s = Scene(pos=[19])
    assert s.move(0, 5) == (21, 0)
    assert s.st.stats["terrain_tax"][0, 0] == 3
    assert Scene(pos=[19]).move(0, 3) == (22, 0)  # a small card ignores curves


def test_river_passed_and_river_stopped_on_gives_one_spin():
    assert Scene(pos=[37]).move(0, 5) == (42, 1)  # 39 river passed, 42 river stop: +1 once
    assert Scene(pos=[3]).move(0, 2) == (5, 1)  # stop on a river: +1
    assert Scene(pos=[3], spin=[2]).move(0, 3, spin=2) == (8, 2)  # spend 2, pass 5 (+1), stop on the 8 town (+1)


def test_town_only_on_a_stop():
    assert Scene(pos=[5]).move(0, 3) == (8, 1)
    assert Scene(pos=[5]).move(0, 4) == (9, 0)


def test_opponent_seal_costs_two_or_is_broken_with_spin():
    s = Scene(pos=[8, 30], seals={10: 1})
    assert s.move(0, 4) == (10, 0)  # 9, 10 seal: 2 left - 2 = 0
    assert s.st.seal[0, 10] == -1 and s.st.stats["seal_hits"][0, 0] == 1
    s = Scene(pos=[8, 30], spin=[2], seals={10: 1})
    assert s.move(0, 4, brk=True) == (12, 0)  # break for 2 spin, then 11, 12 rock
    assert s.st.seal[0, 10] == -1
    s = Scene(pos=[8, 30], spin=[1], seals={10: 1})
    assert s.move(0, 4, brk=True) == (10, 1)  # cannot pay 2 spin: the seal bites


def test_own_seal_ignored():
    s = Scene(pos=[8, 30], seals={10: 0})
    assert s.move(0, 4) == (12, 0)
    assert s.st.seal[0, 10] == 0  # still there for the opponents


def test_seal_on_a_relic_square_stops_the_opponent_on_the_relic():
    """FAQ Q8: terrain, then the seal, then the relic."""
    s = Scene(pos=[5, 30], relics={7: SPINE}, seals={7: 1})
    assert s.move(0, 4) == (7, 0)  # 6, 7 (2 left, seal -2 = exact stop)
    assert s.st.relic_pts[0, 0] == 3


def test_heart_lands_beyond_without_taking_a_relic():
    s = Scene(pos=[1], relics={4: HEART, 7: SPINE})
    assert s.move(0, 3) == (7, 0)  # stop on 4: heart, 3 forward onto relic square 7
    assert s.st.relic[0, 7] == SPINE and s.st.relic_n[0, 0] == 1 and s.st.relic_pts[0, 0] == 2
    s = Scene(pos=[12], relics={13: HEART}, seals={15: 1})
    assert s.move(0, 1) == (16, 0)  # 14 curve, 15 seal, 16 rock: none bite
    assert s.st.seal[0, 15] == 1


def test_skull_takes_a_card_back():
    s = Scene(pos=[1], relics={4: SKULL})
    s.move(0, 3, retrieve=3)
    assert s.st.hand[0, 0].tolist() == [4, 4, 4, 4, 4]  # the 3 just played comes back
    assert s.st.discard[0, 0].tolist() == [0, 0, 0, 0, 0]
    s = Scene(pos=[1], relics={4: SKULL})
    s.st.hand[0, 0, 4] = 3
    s.st.discard[0, 0, 4] = 1
    s.ref.hand[0][4], s.ref.discard[0][4] = 3, 1
    s.move(0, 3)  # retrieve 0: the highest, a 5
    assert s.st.hand[0, 0].tolist() == [4, 4, 3, 4, 4] and s.st.discard[0, 0].tolist() == [0, 0, 1, 0, 0]


def test_reaching_sixty_loses_the_surplus():
    s = Scene(pos=[58])
    assert s.move(0, 3) == (60, 0)
    assert s.st.finish_beat[0, 0] == 1 and s.ev["stop"][0] == 60


def test_spin_capped_at_nine():
    s = Scene(pos=[16], spin=[8], relics={18: EYE})
    assert s.move(0, 2) == (18, 9)  # river +1 -> 9, eye +2 -> still 9


def test_three_way_segment_tie_by_position_then_relics_then_seat():
    s = Scene(pos=[15, 17, 17, 2])
    s.st.seg_start[0] = [10, 12, 12, 0]  # distances 5, 5, 5, 2
    s.st.relic_n[0, 2] = 1
    s.st.beat = 2
    st = engine.end_beat(P, s.st)
    assert st.seg_pts[0, 0].tolist() == [2, 3, 5, 1]
    s.st.relic_n[0, 2] = 0
    st = engine.end_beat(P, s.st)
    assert st.seg_pts[0, 0].tolist() == [2, 5, 3, 1]  # relics equal: seat decides
    assert (st.seal == -1).all() and st.seg_start[0].tolist() == [15, 17, 17, 2]


def test_finished_rider_skipped():
    s = Scene(pos=[60, 20, 20, 20])
    s.st.beat = 5
    st = engine.begin_beat(P, s.st)
    assert st.order[0, -1] == 0
    lg = engine.legal_for(P, st, np.array([0]))
    assert not lg.acting[0] and not lg.card.any()
    a = engine.Actions(*(np.array([v]) for v in (3, 0, 0, False, 0)))
    assert engine.is_legal(P, st, lg, a)[0]  # a rider not acting is legal with anything
    st2, ev = engine.act(P, st, a, 3)
    assert not ev["acted"][0] and st2.hand[0, 0].tolist() == [4] * 5


def test_acting_order_with_equal_positions():
    s = Scene(pos=[5, 5, 5, 3], spin=[1, 0, 1, 0])
    s.st.beat = 1
    assert engine.begin_beat(P, s.st).order[0].tolist() == [3, 1, 0, 2]
    s.ref.beat = 1
    assert s.ref.order() == [3, 1, 0, 2]
    s = Scene()
    s.st.start[0] = s.ref.start = 2  # beat 1: seats from the start player
    assert engine.begin_beat(P, s.st).order[0].tolist() == [2, 3, 0, 1] == s.ref.order()


@pytest.mark.parametrize("seat_order,first,taker", [("fixed", 0, 0), ("from_start", 2, 2)])
def test_beat_3_tie_acting_order_by_seat_order(seat_order, first, taker):
    """Beat 3, riders 1 and 3 (0 and 2 here) both on square 5 with no spin,
    seat 3 the start player: under ``fixed`` seat 1 acts first, under
    ``from_start`` seat 3 does, and the first to stop on 7 takes its relic."""
    p = P.replace(seat_order=seat_order, start_player="random")
    s = Scene(p, pos=[5, 20, 5, 25], relics={7: SPINE})
    s.st.start[0] = s.ref.start = 2
    s.st.beat = s.ref.beat = 2
    st = engine.begin_beat(p, s.st)
    assert st.order[0].tolist() == s.ref.order() == [first, 2 - first, 1, 3]
    for slot, r in enumerate(s.ref.order()):
        a = engine.Actions(*(np.array([v]) for v in (2, 0, 0, False, 0)))
        st, _ = engine.act(p, st, a, slot)
        s.ref.act(r, 2)
    assert st.pos[0].tolist() == s.ref.pos == [7, 22, 7, 27]
    assert st.relic_pts[0].tolist() == s.ref.relic_pts
    assert st.relic_pts[0, taker] == 3 and st.relic_pts[0].sum() == 3
    st = engine.end_beat(p, st)  # segment 1: 0 and 2 tie on 7 ... relics
    s.ref.end_beat()
    assert st.seg_pts[0, 0].tolist() == s.ref.segments[0][1]


def test_seat_order_in_segment_and_final_ranking():
    """Equal distance, square and relics: ``fixed`` ranks seat 1 first,
    ``from_start`` the rider first clockwise from the start player."""
    for seat_order, seg, final in [("fixed", [5, 3, 2, 1], [10, 6, 3, 1]), ("from_start", [2, 1, 5, 3], [3, 1, 10, 6])]:
        p = P.replace(seat_order=seat_order, start_player="random")
        s = Scene(p, pos=[12, 12, 12, 12])
        s.st.seg_start[0] = s.ref.seg_start = [7, 7, 7, 7]
        s.st.start[0] = s.ref.start = 2
        s.st.beat = s.ref.beat = 2
        st = engine.end_beat(p, s.st)
        s.ref.end_beat()
        assert st.seg_pts[0, 0].tolist() == s.ref.segments[0][1] == seg
        res = engine.result(p, st)
        assert res["final_points"][0].tolist() == s.ref.result()["final_points"] == final
    p = P.replace(seat_order="from_start")  # start_player seat: the same as fixed
    s = Scene(p, pos=[12, 12, 12, 12])
    s.st.beat = 2
    assert engine.end_beat(p, s.st).seg_pts[0, 0].tolist() == [5, 3, 2, 1]


def test_readings_change_what_they_say():
    p = P.replace(extra_cost_rule="stop_before")
    assert Scene(p, pos=[0]).move(0, 4) == (2, 0)  # cannot pay the curve at 3: stays on 2
    assert Scene(pos=[0]).move(0, 4) == (3, 0)
    p = P.replace(seal_spent_on_stop=False)
    s = Scene(p, pos=[8, 30], seals={10: 1})
    s.move(0, 2)
    assert s.st.seal[0, 10] == 1  # stopped on it: it stays
    s = Scene(pos=[8, 30], seals={10: 1})
    s.move(0, 2)
    assert s.st.seal[0, 10] == -1
    p = P.replace(heart_passes_seals=True)
    s = Scene(p, pos=[12], relics={13: HEART}, seals={14: 1})
    assert s.move(0, 1) == (14, 0)  # the heart's 3 squares meet the seal at 14
    p = P.replace(seal_empty="no_seal_no_rider")
    s = Scene(p, pos=[10, 8])
    assert not engine.legal_for(p, s.st, np.array([0])).seal[0, 2]
    assert engine.legal_for(P, s.st, np.array([0])).seal[0, 2]


def test_variants():
    short = params_for_variant("short")
    assert short.length == 40 and short.beats == 12 and short.final_points == (8, 5, 3, 1, 0)
    assert short.relic_squares() == [4, 7, 13, 18, 23, 29, 32, 36]
    assert params_for_variant("no_relics").relic_squares() == []
    fw = params_for_variant("forward_seals")
    assert fw.spin_cap == 7
    s = Scene(fw, pos=[10, 5])
    assert engine.legal_for(fw, s.st, np.array([0])).seal[0].tolist() == [True] * 4
    s.move(0, 1, seal=3)  # placed from 10 before moving: 13
    assert s.st.seal[0, 13] == 0
    s = Scene(fw, pos=[10, 5], seals={12: 0, 7: 0})
    assert s.move(0, 2) == (14, 0)  # own seal at 12: +2 -> 13, 14 curve
    assert s.move(1, 3) == (7, 0)  # opponent: 6, 7 seal -2
    solo = params_for_variant("solo")
    out = play(solo, [lambda *a: _fastest(*a)], 50, np.random.default_rng(3), n_players=1)
    assert out["win"].shape == (50, 1)
    assert np.array_equal(out["win"][:, 0] > 0, out["finish_beat"][:, 0] > 0)
    dual = params_for_variant("dual")
    out = play(dual, [_fastest, _fastest], 50, np.random.default_rng(3))
    assert out["score"].shape == (50, 2) and out["position"].shape == (50, 4)
    assert np.array_equal(out["score"], out["rider_total"].reshape(50, 2, 2).sum(axis=2))
    s = Scene(dual, n_players=2, pos=[8, 30, 30, 30], seals={10: 1})
    assert s.move(0, 4) == (12, 0)  # the team mate's seal is ignored


def _fastest(params, state, rider, legal, rng):
    card = 5 - np.argmax(legal.card[:, ::-1], axis=1)
    spin = legal.spin.sum(axis=1) - 1
    G = state.n_games
    return engine.Actions(card, spin, np.zeros(G, int), np.ones(G, bool), np.zeros(G, int))


def test_parameter_validation():
    with pytest.raises(ParamError, match="finish must be the last square"):
        SbrParams(board=DEFAULT_BOARD[:-1] + ("straight",))
    with pytest.raises(ParamError, match="relic squares \\[3\\] are not straights"):
        SbrParams(board=("straight", "straight", "curve+relic", "straight") + DEFAULT_BOARD[4:])
    SbrParams(board=("straight", "straight", "curve+relic", "straight") + DEFAULT_BOARD[4:], relics_on_straights=False)
    with pytest.raises(ParamError, match="unknown terrain code 'swamp'"):
        SbrParams(board=("swamp",) + DEFAULT_BOARD[1:])
    with pytest.raises(ParamError, match="board = .* has 130 items"):
        SbrParams(board=("straight",) * 129 + ("finish",))
    with pytest.raises(ParamError, match="n_players = 6 is not allowed: this game takes 2-5 players"):
        engine.draw_chance(P, 1, 6, np.random.default_rng(0))
    with pytest.raises(ParamError, match="curve_penalty = -1 is out of range"):
        SbrParams(curve_penalty=-1)
    with pytest.raises(ParamError, match="variant 'tag' is unknown"):
        params_for_variant("tag")


def test_same_seed_same_game():
    from gamelab.sbr.agents import random_policy

    a = play(P, [random_policy] * 4, 300, np.random.default_rng(42))
    b = play(P, [random_policy] * 4, 300, np.random.default_rng(42))
    c = play(P, [random_policy] * 4, 300, np.random.default_rng(43))
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["score"], c["score"])
    assert np.allclose(a["win"].sum(axis=1), 1)
