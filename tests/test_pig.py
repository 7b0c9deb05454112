"""Pig's own rule tests (docs/rules-pig.md): scripted games, the engine held
to the reference, identities against brute force, playtest records."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from gamelab.core import registry
from gamelab.core.driver import split_streams
from gamelab.core.errors import ParamError, RecordError
from gamelab.pig import agents, engine, identities, record, reference, rules
from gamelab.pig.rules import PigParams, params_for_variant
from gamelab.pig.state import HOLD, ROLL, Chance
from gamelab.rulebook import playtest
from gamelab.sim.play import play_batch

EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "playtests" / "pig_example.json"
STD = PigParams()


def scripted(params, n_players, turns):
    """Play ``turns`` (lists of faces, and whether the turn ends in a hold)
    through the engine as a batch of one; the state after each turn."""
    faces = np.array([[f for rolls, _ in turns for f in rolls]], np.int8)
    chance = Chance(faces)
    st = engine.init(params, 1, n_players, chance)
    after = []
    for rolls, hold in turns:
        for _ in rolls:
            assert engine.legal(params, st)[0, ROLL]
            st, ev = engine.step(params, st, np.array([ROLL]), chance)
        if hold:
            assert engine.legal(params, st)[0, HOLD]
            st, ev = engine.step(params, st, np.array([HOLD]), chance)
        after.append(st.copy())
    return after


# --- golden games (hand-derived) ----------------------------------------------
def test_scripted_three_player_game():
    turns = [([3, 4, 5], True), ([6, 2, 1], False), ([5, 5], True), ([2, 2, 2, 6], True), ([4], True), ([1], False)]
    after = scripted(STD, 3, turns)
    assert [s.score[0].tolist() for s in after] == [
        [12, 0, 0],
        [12, 0, 0],
        [12, 0, 10],
        [24, 0, 10],
        [24, 4, 10],
        [24, 4, 10],
    ]
    assert [int(s.player[0]) for s in after] == [1, 2, 0, 1, 2, 0]
    assert [int(s.turn[0]) for s in after] == [1, 2, 3, 4, 5, 6]
    assert after[-1].rolls[0] == 14 and not after[-1].over[0]


def test_bust_loses_the_turn_total_only():
    (st,) = scripted(STD, 2, [([6, 6, 1], False)])
    assert st.score[0].tolist() == [0, 0] and st.turn_total[0] == 0
    assert st.player[0] == 1 and st.turn[0] == 1
    two_bust = STD.replace(bust_faces=2)
    (st,) = scripted(two_bust, 2, [([5, 2], False)])
    assert st.turn_total[0] == 0 and st.player[0] == 1


def test_target_reached_on_hold_wins_at_once():
    chance = Chance(np.array([[6, 6]], np.int8))
    st = engine.init(STD, 1, 3, chance)
    st.score[0] = [95, 99, 0]
    st, _ = engine.step(STD, st, np.array([ROLL]), chance)
    assert st.turn_total[0] == 6
    legal = engine.legal(STD, st)[0]
    assert not legal[ROLL] and legal[HOLD]  # rule 6: forced hold
    st, ev = engine.step(STD, st, np.array([HOLD]), chance)
    assert ev["won"][0] and ev["banked"][0] == 6 and st.over[0]
    res = engine.result(STD, st)
    assert res["score"][0].tolist() == [101, 99, 0]
    assert res["win"][0].tolist() == [1.0, 0.0, 0.0] and res["rank"][0].tolist() == [1, 2, 3]
    assert not engine.legal(STD, st).any()
    again, _ = engine.step(STD, st, np.array([ROLL]), chance)  # a finished game ignores its action
    assert again.score[0].tolist() == [101, 99, 0] and again.rolls[0] == 1


def test_turn_cap_and_tie_split():
    capped = STD.replace(max_turns=2)
    after = scripted(capped, 2, [([5], True), ([2, 3], True), ([1], False), ([4], False)][:3] + [([1], False)])
    assert after[-1].over[0] and after[-1].turn[0] == 4
    res = engine.result(capped, after[-1])
    assert res["score"][0].tolist() == [5, 5]
    assert res["win"][0].tolist() == [0.5, 0.5] and res["rank"][0].tolist() == [1, 1]
    after = scripted(capped, 3, [([5], True), ([6], True), ([6], True), ([1], False), ([1], False), ([2], True)])
    res = engine.result(capped, after[-1])
    assert after[-1].over[0] and res["score"][0].tolist() == [5, 6, 8]
    assert res["win"][0].tolist() == [0, 0, 1] and res["rank"][0].tolist() == [3, 2, 1]
    assert not after[-2].over[0]


def test_hold_minimum_and_its_exception():
    p = params_for_variant("ten_to_hold")
    chance = Chance(np.array([[4, 4, 2, 3]], np.int8))
    st = engine.init(p, 1, 2, chance)
    assert not engine.legal(p, st)[0, HOLD]  # no turn total yet
    for _ in range(2):
        st, _ = engine.step(p, st, np.array([ROLL]), chance)
    assert st.turn_total[0] == 8 and not engine.legal(p, st)[0, HOLD]
    st, _ = engine.step(p, st, np.array([ROLL]), chance)
    assert engine.legal(p, st)[0, HOLD]  # 10: rule 5
    st = engine.init(p, 1, 2, chance)
    st.score[0, 0] = 96
    st, _ = engine.step(p, st, np.array([ROLL]), chance)
    assert engine.legal(p, st)[0].tolist() == [False, True]  # rule 5.1: 4 reaches the target


def test_a_turn_never_exceeds_its_roll_bound():
    p = STD.replace(target=10)
    n = rules.rolls_per_turn(p)
    chance = Chance(np.full((1, 50), 2, np.int8))
    st = engine.init(p, 1, 2, chance)
    k = 0
    while engine.legal(p, st)[0, ROLL] and k < 50:
        st, _ = engine.step(p, st, np.array([ROLL]), chance)
        k += 1
    assert k == n == 5 and st.turn_total[0] == 10


# --- the engine against the reference: the conformance checks (tests/test_conformance.py),
# every step of random games under each variant, the legal moves included (reference.legal_mask)


def test_reference_play_random_ends_with_a_winner_or_the_cap():
    p = params_for_variant("quick")
    for seed in range(20):
        score = reference.play_random(p, 4, np.random.default_rng(seed))
        assert len(score) == 4 and all(s >= 0 for s in score)


# --- agents and the runner's play ---------------------------------------------
def test_hold_at_20_holds_at_20_or_to_win():
    chance = Chance(np.array([[6, 6, 6, 2, 3]], np.int8))
    st = engine.init(STD, 1, 2, chance)
    taken = []
    while not st.turn[0]:
        a = agents.hold_at_policy(STD, st, engine.legal(STD, st))
        taken.append(int(a[0]))
        st, _ = engine.step(STD, st, a, chance)
    assert taken == [ROLL, ROLL, ROLL, ROLL, HOLD] and st.score[0, 0] == 20
    st = engine.init(STD, 1, 2, chance)
    st.score[0, 0] = 94
    st, _ = engine.step(STD, st, np.array([ROLL]), chance)
    assert agents.hold_at_policy(STD, st, engine.legal(STD, st))[0] == HOLD


def test_knobs_are_parameters():
    k = agents.knobs(STD.replace(target=60))
    assert k.target == 60 and k.hold_at == 20
    with pytest.raises(ParamError, match="hold_at = 0"):
        agents.AgentParams(hold_at=0)


def test_controller_plays_as_engine_play():
    p, seating = agents.AgentParams(), ["race", "random", "hold_at_20"]
    chance = engine.draw_chance(p, 200, 3, np.random.default_rng(3))
    streams = {"chance": np.random.default_rng(3), "agents": np.random.default_rng(4)}
    fast = play_batch(registry.get("pig"), p, seating, 200, 3, streams)
    ctl = registry.get("pig").controller(p, seating, 200, np.random.default_rng(4))
    st = engine.init(p, 200, 3, chance)
    while not engine.done(p, st).all():
        st, ev = engine.step(p, st, ctl.act(st, engine.legal(p, st)), chance, inplace=True)
        ctl.observe(ev)
    assert (engine.result(p, st)["score"] == fast["score"]).all()


def test_the_shared_play_s_columns_and_common_dice():
    pig = registry.get("pig")
    a = play_batch(pig, STD, ["hold_at_20", "random"], 300, 2, split_streams(np.random.SeedSequence(11), pig.streams))
    b = play_batch(pig, STD, ["hold_at_20", "random"], 300, 2, split_streams(np.random.SeedSequence(11), pig.streams))
    assert all(np.array_equal(a[k], b[k], equal_nan=True) for k in a)
    for key in ("score", "win", "rank", "busts", "holds", "rolls", "mean_banked"):
        assert a[key].shape == (300, 2)
    for key in ("turns", "length", "rounds", "capped"):
        assert a[key].shape == (300,)
    assert np.allclose(a["win"].sum(1), 1)
    assert a["win"][:, 0].mean() > 0.8  # hold at 20 beats random play
    assert (a["rolls"].sum(1) <= rules.max_rolls(STD, 2)).all()
    assert (a["length"] == a["rolls"].sum(1) + a["holds"].sum(1)).all()


# --- identities against brute force and the engine ------------------------------
def brute_turn(params, h, total=0, prob=Fraction(1)):
    """Enumerate every roll sequence of a 'hold at h' turn: (E[banked], P(bust))."""
    if total >= h:
        return prob * total, Fraction(0)
    f = params.die_faces
    value, bust = Fraction(0), prob * Fraction(params.bust_faces, f)
    for face in range(params.bust_faces + 1, f + 1):
        v, b = brute_turn(params, h, total + face, prob / f)
        value, bust = value + v, bust + b
    return value, bust


@pytest.mark.parametrize("params,h", [(STD, 20), (STD, 9), (PigParams(die_faces=8, bust_faces=2), 15)])
def test_hold_at_turn_equals_brute_force(params, h):
    assert identities.hold_at_turn(params, h) == brute_turn(params, h)


def test_classic_threshold_and_turn_value():
    assert identities.gain_threshold(STD) == 20
    values = {h: identities.expected_turn(STD, h) for h in range(1, 41)}
    best = max(values.values())
    assert {h for h, v in values.items() if v == best} == {20, 21}  # indifferent at exactly 20
    assert round(float(values[20]), 4) == 8.1418


@pytest.mark.parametrize("params", [STD, PigParams(die_faces=8, bust_faces=3)])
def test_one_roll_identities_ask_the_engine(params):
    f = params.die_faces
    chance = Chance(np.arange(1, f + 1, dtype=np.int8)[:, None])
    st = engine.init(params, f, 2, chance)
    st, ev = engine.step(params, st, np.zeros(f, np.int8), chance)
    assert Fraction(int(ev["bust"].sum()), f) == identities.bust_chance(params)
    assert Fraction(int(st.turn_total.sum()), int((~ev["bust"]).sum())) == identities.scoring_mean(params)


def test_first_turn_of_hold_at_20_matches_the_exact_value():
    G = 40000
    rng = np.random.default_rng(5)
    chance = engine.draw_chance(STD, G, 2, rng)
    st = engine.init(STD, G, 2, chance)
    banked = np.full(G, -1.0)
    while (banked < 0).any():
        st, _ = engine.step(STD, st, agents.hold_at_policy(STD, st, engine.legal(STD, st)), chance, inplace=True)
        first_over = (st.turn >= 1) & (banked < 0)  # seat 1's first turn just ended
        banked[first_over] = st.score[first_over, 0]
    se = banked.std() / np.sqrt(G)
    assert abs(banked.mean() - float(identities.expected_turn(STD, 20))) < 4 * se
    assert abs((banked == 0).mean() - float(identities.hold_at_turn(STD, 20)[1])) < 0.01


def test_identity_rows():
    rows = identities.rows(STD)
    assert [r.identity for r in rows] == ["①", "②", "③", "④", "⑤"]
    assert rows[0].exact == pytest.approx(1 / 6) and rows[2].exact == 20
    assert {r.sim_key for r in rows} >= {"bust_rate", "scoring_mean"}


# --- parameters --------------------------------------------------------------
def test_parameter_errors_name_value_and_range():
    with pytest.raises(ParamError, match=r"bust_faces = 6 is out of range: expected int in 1\.\.5"):
        PigParams(bust_faces=6)
    with pytest.raises(ParamError, match=r"target = 5 is out of range"):
        PigParams(target=5)
    with pytest.raises(ParamError, match=r"n_players = 7 is out of range: expected int in 2\.\.6"):
        rules.check_players(STD, 7)
    with pytest.raises(ParamError, match="variant 'huge' is unknown"):
        params_for_variant("huge")
    assert params_for_variant("quick", hold_minimum=5).target == 50


# --- records -----------------------------------------------------------------
def example():
    return json.loads(EXAMPLE.read_text())


def test_example_record_replays_without_mismatches():
    rec = example()
    ledger, observed = record.replay(rec)
    assert playtest.compare(rec["expect"], observed) == []
    assert observed["final"] == [51, 41] and observed["winner"] == "Ann"
    assert ledger["final"]["ended_by"] == "target"
    assert json.loads(json.dumps(ledger)) == ledger
    titles = [t for t, _ in record.tables(ledger)]
    assert titles[0] == "Turns" and "Ann" in titles[-1]


def test_record_disagreeing_with_expect_lists_mismatches():
    rec = example()
    rec["expect"]["final"] = [51, 40]
    _, observed = record.replay(rec)
    assert playtest.compare(rec["expect"], observed) == [{"key": "final", "index": [1], "expected": 40, "actual": 41}]


def _bad(change):
    rec = example()
    change(rec)
    with pytest.raises(RecordError) as info:
        record.replay(rec)
    return info.value


@pytest.mark.parametrize(
    "change,turn,player,rule",
    [
        (lambda r: r["turns"][1].update(rolls=[5, 1, 3]), 2, "Ben", "rule 3"),  # rolls after a bust
        (lambda r: r["turns"][1].update(hold=True), 2, "Ben", "rule 3"),  # a hold after a bust
        (lambda r: r["turns"][0].update(rolls=[4, 7]), 1, "Ann", "rule 2"),  # not a face
        (lambda r: r["turns"][2].update(hold=False), 3, "Ann", "rules 3 and 5"),  # neither bust nor hold
        (lambda r: r["turns"][3].update(player="Ann"), 4, "Ben", "rule 1"),  # out of turn
        (lambda r: r["turns"].append({"rolls": [3], "hold": True}), 10, "Ben", "rules 7 and 8"),  # after the win
        (lambda r: r["turns"][8].update(rolls=[2, 3]), 9, "Ann", "rule 6"),  # rolls on past the target
        (lambda r: r.update(variant="ten_to_hold", turns=[{"rolls": [4, 3], "hold": True}]), 1, "Ann", "rule 5"),
    ],
)
def test_bad_records_name_the_turn_player_and_rule(change, turn, player, rule):
    err = _bad(change)
    assert err.where == f"turn {turn}" and err.player == player and err.rule.startswith(rule)
    assert f"turn {turn}" in str(err)


def test_bad_record_form():
    assert "players" in str(_bad(lambda r: r.update(players="Ann")))
    assert "n_players = 1" in str(_bad(lambda r: r.update(players=["Ann"])))
    assert "unknown parameter" in str(_bad(lambda r: r.update(params={"targett": 60})))
    rec = copy.deepcopy(example())
    rec["expect"]["points"] = [1]
    _, observed = record.replay(rec)
    with pytest.raises(RecordError, match="unknown key 'points'"):
        playtest.compare(rec["expect"], observed)


def test_registry_finds_pig():
    game = registry.get("pig")
    assert "pig" in registry.available_games()
    assert game.title == "Pig" and game.players == (2, 6) and game.rulebook.claims is None
    assert game.max_steps == rules.max_steps(STD, 6)
    assert all(path.exists() for path in game.record.examples)
