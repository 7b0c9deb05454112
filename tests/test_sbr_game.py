"""STEEL BALL RUN's contract record: found by the registry, every part wired."""

import numpy as np

from gamelab.core import registry
from gamelab.sbr import agents, engine, reference
from gamelab.sbr.game import GAME


def test_registry_finds_the_game_and_its_rules_reach_the_runner():
    assert registry.get("sbr") is GAME and "sbr" in registry.available_games()
    # the player range is the rules' own (section 2), and every agent the policies define is offered
    rules = GAME.rules()
    assert GAME.players == (rules.min_players, rules.max_players)
    assert set(GAME.agents) == set(agents.POLICIES)
    # a derived knob moves the rule parameters it names
    scaled = GAME.knobs().replace(**GAME.derived["relic_scale"](GAME.knobs(), 2.0))
    assert scaled.relic_points == tuple(2 * v for v in rules.relic_points)


def test_max_steps_bounds_the_longest_game_the_ranges_allow():
    p = GAME.rules(beats=40, max_players=5, riders_per_player=2, segment_points=(1,) * 10, final_points=(1,) * 10)
    assert p.beats * p.max_players * p.riders_per_player <= GAME.max_steps <= 1.1 * p.beats * 10


def test_controller_is_a_contract_controller_and_plays_legally():
    p = GAME.knobs()
    chance = GAME.engine.draw_chance(p, 30, 2, np.random.default_rng(4))
    ctrl = GAME.controller(p, ["random", "greedy"], 30, np.random.default_rng(5))
    assert isinstance(ctrl, agents.Controller) and callable(ctrl.act) and callable(ctrl.observe)
    st = GAME.engine.init(p, 30, 2, chance)
    while not GAME.engine.done(p, st).all():
        lg = GAME.engine.legal(p, st)
        a = ctrl.act(st, lg)
        assert GAME.engine.is_legal(p, st, lg, a).all()
        st, ev = GAME.engine.step(p, st, a, chance, inplace=True)
        ctrl.observe(ev)
    res = GAME.engine.result(p, st)
    assert np.allclose(res["win"].sum(axis=1), 1)
    assert res["score"][:, 1].mean() > res["score"][:, 0].mean()  # the greedy beats random play


def test_reference_result_and_play_random():
    p = GAME.rules()
    chance = engine.draw_chance(p, 3, 4, np.random.default_rng(1))
    game = reference.start(p, 4, chance, 2)
    assert reference.observe(game) == reference.observe_batch(engine.init(p, 3, 4, chance), 2)
    scores = reference.play_random(p, 4, np.random.default_rng(2))
    assert len(scores) == 4 and sum(scores) > 0
