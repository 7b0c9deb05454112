"""The conformance suite: every registered game against the game contract
(gamelab/contract.py), after Pgx's ``api_test``.  A new game that passes it
works with the runner, sweeps, reports, notebooks and the command line.

Per game: random games reach their end within ``max_steps``; the same seed
gives the same table; a batch of N equals N games of one; every registered
agent returns legal actions on thousands of states; the batch engine equals
``reference.py`` step by step; one worker equals two; parameter validation
refuses out-of-range values; records replay and survive a JSON round trip.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from gamelab import playtest, registry, runner
from gamelab.errors import ParamError
from gamelab.params import from_mapping, specs

GAMES = registry.shipped_games()


def game_ids():
    return [pytest.param(name, id=name) for name in GAMES]


def player_counts(game) -> list[int]:
    lo, hi = game.players
    return sorted({lo, (lo + hi) // 2, hi})


def drive(game, params, n_games, n_players, rng, *, chance=None, on_step=None):
    """Random legal play through the contract alone; ``on_step(state, legal,
    actions)`` sees every decision before it is made.  Returns (state,
    chance, steps)."""
    eng = game.engine
    chance = chance if chance is not None else eng.draw_chance(params, n_games, n_players, rng)
    state = eng.init(params, n_games, n_players, chance)
    steps = 0
    while not eng.done(params, state).all():
        assert steps < game.max_steps, f"{game.name}: not over after {steps} steps"
        legal = eng.legal(params, state)
        actions = eng.random_actions(params, state, legal, rng)
        assert eng.is_legal(params, state, legal, actions).all(), "random_actions gave an illegal action"
        if on_step is not None:
            on_step(state, legal, actions)
        state, _ = eng.step(params, state, actions, chance, inplace=True)
        steps += 1
    return state, chance, steps


def same_state(a, b) -> bool:
    """Two states hold equal arrays (and equal plain fields)."""
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            if not np.array_equal(x, y):
                return False
        elif isinstance(x, dict):
            if x.keys() != y.keys() or not all(np.array_equal(x[k], y[k]) for k in x):
                return False
        elif x != y:
            return False
    return True


@pytest.mark.parametrize("name", game_ids())
def test_random_games_end_within_the_limit_with_a_full_result(name):
    game = registry.get(name)
    params = game.knobs()
    for n_players in player_counts(game):
        G = 200
        state, _, steps = drive(game, params, G, n_players, np.random.default_rng(n_players))
        assert 0 < steps <= game.max_steps
        res = game.engine.result(params, state)
        for key in ("score", "win", "rank"):
            assert np.asarray(res[key]).shape == (G, n_players), key
        assert np.allclose(np.asarray(res["win"]).sum(axis=1), 1.0)  # one game, one win, ties split
        rank = np.asarray(res["rank"])
        assert rank.min() >= 1 and rank.max() <= n_players and (rank == 1).any(axis=1).all()


@pytest.mark.parametrize("name", game_ids())
def test_the_same_seed_gives_the_same_table(name):
    game = registry.get(name)
    n = game.players[0]
    a = runner.simulate(name, n_games=400, seed=11, n_players=n, progress=False)
    b = runner.simulate(name, n_games=400, seed=11, n_players=n, progress=False)
    c = runner.simulate(name, n_games=400, seed=12, n_players=n, progress=False)
    pd.testing.assert_frame_equal(a, b)
    assert not a["score"].equals(c["score"])
    assert {"game", "deal", "seat", "agent", "score", "win"} <= set(a.columns)


@pytest.mark.parametrize("name", game_ids())
def test_one_worker_equals_two(name):
    game = registry.get(name)
    kw = dict(n_games=600, seed=5, n_players=game.players[0], chunk_deals=100, progress=False)
    pd.testing.assert_frame_equal(runner.simulate(name, workers=1, **kw), runner.simulate(name, workers=2, **kw))


@pytest.mark.parametrize("name", game_ids())
def test_a_batch_of_n_equals_n_games_of_one(name):
    game = registry.get(name)
    eng, params = game.engine, game.knobs()
    G, n_players = 24, game.players[1]
    rng = np.random.default_rng(3)
    chance = eng.draw_chance(params, G, n_players, rng)
    singles = [(eng.init(params, 1, n_players, chance.take([g])), chance.take([g])) for g in range(G)]

    def check(state, legal, actions):
        for g, (one, one_chance) in enumerate(singles):
            assert same_state(one, state.take([g])), f"game {g} differs from its batch of one"
            if not eng.done(params, one)[0]:
                singles[g] = (eng.step(params, one, _take_actions(actions, g), one_chance)[0], one_chance)

    state, _, _ = drive(game, params, G, n_players, rng, chance=chance, on_step=check)
    whole = eng.result(params, state)
    for g, (one, _) in enumerate(singles):
        alone = eng.result(params, one)
        for key in ("score", "win", "rank"):
            assert np.array_equal(np.asarray(alone[key])[0], np.asarray(whole[key])[g]), (g, key)


def _take_actions(actions, g):
    """Game ``g``'s actions, as a batch of one (arrays or a NamedTuple of arrays)."""
    if isinstance(actions, tuple):
        return type(actions)(*(np.asarray(a)[g : g + 1] for a in actions))
    return np.asarray(actions)[g : g + 1]


@pytest.mark.parametrize("name", game_ids())
def test_the_batch_engine_equals_the_reference_step_by_step(name):
    game = registry.get(name)
    eng, ref, params = game.engine, game.reference, game.knobs()
    for n_players in player_counts(game):
        G = 150
        rng = np.random.default_rng(100 + n_players)
        chance = eng.draw_chance(params, G, n_players, rng)
        refs = [ref.start(params, n_players, chance, g) for g in range(G)]
        state = eng.init(params, G, n_players, chance)
        for g in range(G):
            assert ref.observe(refs[g]) == ref.observe_batch(state, g), f"set-up of game {g}"
        while not eng.done(params, state).all():
            legal = eng.legal(params, state)
            actions = eng.random_actions(params, state, legal, rng)
            for g in range(G):
                ref.advance(params, refs[g], state, actions, chance, g)
            state, _ = eng.step(params, state, actions, chance)
            for g in range(G):
                assert ref.observe(refs[g]) == ref.observe_batch(state, g), f"game {g}"
        res = eng.result(params, state)
        for g in range(G):
            r = ref.result(refs[g])
            assert np.asarray(res["score"])[g].tolist() == list(r["score"])
            assert np.allclose(np.asarray(res["win"])[g], r["win"])


@pytest.mark.parametrize("name", game_ids())
def test_every_agent_acts_legally(name):
    """Each agent, asked at every state of random games (thousands of states:
    every decision of every game, so an agent that plans over a round sees
    the round in order), and on every state of games it plays on every seat
    itself."""
    game = registry.get(name)
    eng, params = game.engine, game.knobs()
    n_players = game.players[0]
    rng = np.random.default_rng(21)
    G = 128
    controllers = {a: game.controller(params, [a] * n_players, G, np.random.default_rng(1)) for a in game.agents}
    asked = {a: 0 for a in game.agents}

    def ask(state, legal, actions):
        for agent, ctl in controllers.items():
            mine = ctl.act(state, legal)
            ok = eng.is_legal(params, state, legal, mine)
            assert ok.all(), f"{agent}: illegal action in {int((~ok).sum())} of {G} games"
            asked[agent] += G

    drive(game, params, G, n_players, rng, on_step=ask)
    assert min(asked.values()) >= 2000
    for agent in game.agents:
        _own_games_are_legal(game, params, agent, n_players)


def variant_cases():
    """(game, variant, player count) for every shipped variant of every game,
    at the fewest players the variant allows."""
    cases = []
    for name in GAMES:
        game = registry.get(name)
        for variant in game.variants:
            params = game.params_for_variant(variant)
            for n in range(1, game.players[1] + 1):
                try:
                    game.engine.init(params, 1, n, game.engine.draw_chance(params, 1, n, np.random.default_rng(0)))
                except ParamError:
                    continue
                cases.append(pytest.param(name, variant, n, id=f"{name}-{variant}-{n}p"))
                break
    return cases


@pytest.mark.parametrize("name,variant,n_players", variant_cases())
def test_every_agent_acts_legally_under_every_variant(name, variant, n_players):
    """Each agent on every seat of a few games of each variant, every
    decision checked (the variants change what is legal)."""
    game = registry.get(name)
    changes = game.params_for_variant(variant).changed()
    params = from_mapping(game.knobs, changes, source=f"variant {variant}")
    for agent in game.agents:
        _own_games_are_legal(game, params, agent, n_players, n_games=12)


def _own_games_are_legal(game, params, agent, n_players, n_games=40):
    eng = game.engine
    rng = np.random.default_rng(9)
    chance = eng.draw_chance(params, n_games, n_players, rng)
    state = eng.init(params, n_games, n_players, chance)
    ctl = game.controller(params, [agent] * n_players, n_games, rng)
    steps = 0
    while not eng.done(params, state).all():
        legal = eng.legal(params, state)
        actions = ctl.act(state, legal)
        assert eng.is_legal(params, state, legal, actions).all(), f"{agent} played an illegal action"
        state, events = eng.step(params, state, actions, chance, inplace=True)
        ctl.observe(events)
        steps += 1
        assert steps <= game.max_steps


@pytest.mark.parametrize("name", game_ids())
def test_parameter_validation_refuses_out_of_range_values(name):
    game = registry.get(name)
    refused = 0
    for spec in specs(game.knobs):
        bad = []
        if spec.choices is not None:
            bad.append("no such choice")
        elif spec.kind in (int, float) and spec.high is not None:
            bad.append(spec.high + 1)
        elif spec.kind in (int, float) and spec.low is not None:
            bad.append(spec.low - 1)
        for value in bad:
            with pytest.raises(ParamError, match=spec.name):
                from_mapping(game.knobs, {spec.name: value})
            refused += 1
    assert refused >= 3
    with pytest.raises(ParamError, match="did you mean|unknown"):
        from_mapping(game.knobs, {"no_such_parameter": 1})
    rules = game.rules()
    lo, hi = game.players
    for n in (lo - 1, hi + 1):
        with pytest.raises(ParamError):
            game.engine.init(rules, 1, n, game.engine.draw_chance(rules, 1, max(n, 1), np.random.default_rng(0)))


@pytest.mark.parametrize("name", [n for n in GAMES if registry.get(n).record is not None])
def test_records_replay_and_survive_a_json_round_trip(name):
    fmt = registry.get(name).record
    assert fmt.examples, f"{name} ships no example record"
    for path in fmt.examples:
        record = playtest.load_record(path)
        assert record["game"] == name
        ledger = playtest.replay(record)
        again = playtest.replay(json.loads(json.dumps(record, ensure_ascii=False)))
        assert json.dumps(ledger, sort_keys=True, default=str) == json.dumps(again, sort_keys=True, default=str)
        assert isinstance(ledger["mismatches"], list)
        assert playtest.render(ledger).strip()
