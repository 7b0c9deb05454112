"""Batch engine against the plain reference: same chance, same random legal
actions, identical state after every rider's move and identical results."""

import sys
from pathlib import Path

import numpy as np
import pytest
from sbr_helpers import play

from gamelab.core.driver import split_streams
from gamelab.sbr import agents, engine
from gamelab.sbr.game import GAME
from gamelab.sbr.rules import params_for_variant
from gamelab.sim.play import play_batch

sys.path.insert(0, str(Path(__file__).parent))
import sbr_diff  # noqa: E402


@pytest.mark.parametrize("n_players,n_games,seed", [(4, 1500, 1), (2, 300, 2), (3, 300, 3), (5, 400, 4)])
def test_standard_every_step(n_players, n_games, seed):
    sbr_diff.run(params_for_variant("standard"), n_games, n_players, seed)


# the variants, every step: the conformance checks (tests/test_conformance.py, every_variant)


@pytest.mark.parametrize("n_players,variant", [(2, "standard"), (3, "standard"), (5, "standard"), (2, "dual")])
def test_seat_order_from_start_every_step(n_players, variant):
    """Every tie counted from a random start player, at other player counts
    and with dual riders (the start is a player's first rider)."""
    p = params_for_variant(variant, seat_order="from_start", start_player="random")
    res = sbr_diff.run(p, 200, n_players, 19)
    assert res["score"].shape == (200, n_players)


@pytest.mark.parametrize(
    "reading",
    [
        dict(extra_cost_rule="stop_before"),
        dict(heart_passes_seals=True),
        dict(seal_spent_on_stop=False),
        dict(break_on_stop=True),
        dict(seal_empty="no_seal_no_rider"),
        dict(skull_takes_current=False),
        dict(start_player="random"),
        dict(team_seals_ignored=False, riders_per_player=2, max_players=2),
        dict(seat_order="from_start", start_player="random"),
    ],
)
def test_readings_every_step(reading):
    p = params_for_variant("standard", **reading)
    sbr_diff.run(p, 200, 2 if p.riders_per_player == 2 else 4, 13)


def test_other_numbers_every_step():
    p = params_for_variant(
        "standard",
        curve_penalty=3,
        big_card=3,
        rock_penalty=2,
        seal_penalty=1,
        seal_break_cost=1,
        spin_cap=5,
        max_spin_per_beat=1,
        eye_spin=3,
        heart_steps=5,
        skull_cards=2,
        beats_per_segment=4,
    )
    sbr_diff.run(p, 300, 4, 17)


def _greedyish(params, state, rider, legal, rng):
    """Deterministic: the highest card, all allowed spin, the farthest seal."""
    G = state.n_games
    return engine.Actions(
        5 - np.argmax(legal.card[:, ::-1], axis=1),
        legal.spin.sum(axis=1) - 1,
        legal.seal.shape[1] - 1 - np.argmax(legal.seal[:, ::-1], axis=1),
        np.ones(G, bool),
        np.zeros(G, int),
    )


def _step_loop(params, chance, n_players, choose):
    """Whole games through init / legal / step; ``choose(state, legal)`` gives the actions."""
    st = engine.init(params, chance.start.size, n_players, chance)
    steps = 0
    while not engine.done(params, st).all():
        lg = engine.legal(params, st)
        a = choose(st, lg)
        assert engine.is_legal(params, st, lg, a).all()
        st, _ = engine.step(params, st, a, chance, inplace=True)
        steps += 1
    assert steps == params.beats * st.pos.shape[1] <= GAME.max_steps
    assert not engine.legal(params, st).acting.any()
    return engine.result(params, st)


@pytest.mark.parametrize("variant,n_players", [("standard", 4), ("standard", 2), ("dual", 2), ("solo", 1)])
def test_play_equals_a_loop_of_step(variant, n_players):
    """Same chance, a deterministic policy: the shared driver with the game's controller and
    a plain init / legal / step loop give identical results."""
    p = agents.AgentParams(**params_for_variant(variant).as_dict())
    chance = engine.draw_chance(p, 200, n_players, np.random.default_rng(21))
    for policy in (_greedyish, agents.greedy_policy):
        fast = play(p, [policy] * n_players, 200, None, n_players, chance=chance)
        slow = _step_loop(
            p, chance, n_players, lambda st, lg, policy=policy: policy(p, st, engine.to_move(st), lg, None)
        )
        assert fast["seals_placed"].sum() > 0 or variant == "solo"
        for k, v in slow.items():
            assert np.array_equal(v, fast[k]), (policy.__name__, k)


def test_controller_steps_like_the_runner_play():
    """GAME.controller driven through step gives the runner's play (random
    agents included: the same draws in the same order)."""
    p = agents.AgentParams()
    seating = ["greedy", "random", "lookahead"]
    fast = play_batch(GAME, p, seating, 40, 3, split_streams(np.random.SeedSequence(8), GAME.streams))
    streams = split_streams(np.random.SeedSequence(8), GAME.streams)  # as the runner splits it
    chance = engine.draw_chance(p, 40, 3, streams["chance"])
    ctrl = GAME.controller(p, seating, 40, streams["agents"])
    slow = _step_loop(p, chance, 3, ctrl.act)
    for k in ("score", "win", "rank"):
        assert np.array_equal(slow[k], fast[k]), k
    assert np.array_equal(slow["spin_spent"], fast["spin_spent"])


def test_is_legal_refuses_what_the_masks_refuse():
    p = params_for_variant("standard")
    chance = engine.draw_chance(p, 50, 4, np.random.default_rng(2))
    st = engine.init(p, 50, 4, chance)
    lg = engine.legal(p, st)
    ok = engine.random_actions(p, st, lg, np.random.default_rng(3))
    assert engine.is_legal(p, st, lg, ok).all()
    for field, bad in (("spin", 1), ("seal", 3), ("retrieve", 6), ("card", 0), ("card", 6)):
        got = engine.is_legal(p, st, lg, ok._replace(**{field: np.full(50, bad)}))
        assert not got.any(), field  # beat 1: no spin held, no square behind, no card 0 or 6
    lg = lg._replace(acting=np.zeros(50, bool))
    assert engine.is_legal(p, st, lg, ok._replace(card=np.full(50, 9))).all()
