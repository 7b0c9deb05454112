"""STRAND's GAME record: registered, and its parts agree with each other."""

import numpy as np
import pytest

from gamelab.core import contract, registry
from gamelab.strand import agents, engine, reference, sim
from gamelab.strand.agents import AgentParams, knobs
from gamelab.strand.rules import StrandParams

GAME = registry.get("strand")


def test_registered_and_its_default_lineup_is_the_style_mix():
    assert isinstance(GAME, contract.Game) and GAME.knobs is AgentParams and GAME.rules is StrandParams
    # the default table seats a different style on every seat (appendix B's mix)
    for n in range(GAME.players[0], GAME.players[1] + 1):
        lineup = GAME.default_lineup(n)
        assert len(set(lineup)) == n and set(lineup) <= set(GAME.agents)
    assert GAME.max_steps >= 3 * StrandParams().rounds
    assert GAME.params_for_variant("short").rounds == 5  # variant A: five rounds


def test_knobs_give_rules_only_params_the_model_defaults():
    k = knobs(StrandParams(sum_cap=8))
    assert isinstance(k, AgentParams) and k.sum_cap == 8 and k.reneging == 0.22
    assert knobs(k) is k


@pytest.mark.parametrize(
    "seating,roles", [(["mix1", "mix2", "mix3", "mix4"], "first_p"), (["heavy", "random", "stay", "mix1"], "none")]
)
def test_controller_plays_like_the_fast_path(seating, roles):
    """Engine + controller, step by step, give the runner's play_games table."""
    params = AgentParams(roles=roles)
    G, P = 300, 4
    deal = np.random.default_rng(1)
    chance = agents.deal_chance(
        params, G, P, agents.deal_roles(params, G, P, deal), np.random.default_rng(2), np.random.default_rng(3)
    )
    ctrl = GAME.controller(params, seating, G, np.random.default_rng(4))
    st = engine.init(params, G, P, chance)
    steps = 0
    while not engine.done(params, st).all():
        legal = engine.legal(params, st)
        acts = ctrl.act(st, legal)
        assert engine.is_legal(params, st, legal, acts).all()
        st, ev = engine.step(params, st, acts, chance, inplace=True)
        ctrl.observe(ev)
        steps += 1
    assert steps <= GAME.max_steps
    rng = np.random.default_rng(4)
    fast = sim.play_games(params, agents.deal_styles(seating, G, rng), chance, rng)
    res = engine.result(params, st)
    assert np.array_equal(res["score"], fast["score"]) and np.array_equal(res["win"], fast["win"])


def test_reference_drives_like_the_engine():
    """The contract's reference functions: start, advance, observe, result."""
    params = StrandParams(time_rain=True)
    rng = np.random.default_rng(11)
    chance = engine.draw_chance(params, 20, 5, rng)
    st = engine.init(params, 20, 5, chance)
    games = [GAME.reference.start(params, 5, chance, g) for g in range(20)]
    while not st.done.all():
        acts = engine.random_actions(params, st, engine.legal(params, st), rng)
        new, _ = engine.step(params, st, acts, chance)
        for g, game in enumerate(games):
            reference.advance(params, game, st, acts, chance, g)
            assert reference.observe(game) == reference.observe_batch(new, g)
        st = new
    res = engine.result(params, st)
    assert [reference.result(game)["score"] for game in games] == res["score"].tolist()


def test_replay_chance_leaves_hands_unknown():
    chance = engine.replay_chance(StrandParams(), 2, 3, roles=["bb", None, "porter"])
    st = engine.init(StrandParams(), 2, 3, chance)
    assert not st.tracked and st.role.tolist() == [[2, 0, 4]] * 2
    assert reference.observe_batch(st, 1)["hand"] is None
    assert reference.observe(reference.start(StrandParams(), 3, chance, 1))["hand"] is None


def test_state_take_and_chance_take():
    params = StrandParams()
    chance = engine.draw_chance(params, 6, 4, np.random.default_rng(0))
    st = engine.init(params, 6, 4, chance)
    one = st.take(3)
    assert one.n_games == 1 and np.array_equal(one.hand[0], st.hand[3])
    one.hand[0, 0, 0] += 1
    assert not np.array_equal(one.hand[0], st.hand[3])  # a copy
    two = st.take(np.array([True, False, False, False, False, True]))
    assert two.score.shape == (2, 4) and np.array_equal(chance.take([0, 5]).roles, two.role)
    assert chance.take(3).draws.shape == (params.rounds, 1, 4, engine.DRAWS)


def test_take_gives_what_indexing_gives_for_every_kind_of_index():
    """State.take / Chance.take (``np.take`` for indices) equal ``a[idx]`` copies for ints,
    lists, index arrays (repeats, negatives), slices, bool masks and an empty list."""
    params = StrandParams().replace(time_rain=True)
    chance = engine.draw_chance(params, 10, 4, np.random.default_rng(1))
    st = engine.init(params, 10, 4, chance)
    for idx in (
        3,
        np.int64(2),
        [1, 5],
        np.array([9, 0, 0]),
        np.array([-1, 2]),
        slice(2, 7),
        np.arange(10) % 3 == 0,
        [],
    ):
        rows = [int(idx)] if isinstance(idx, (int, np.integer)) else idx
        got = st.take(idx)
        for name, a in st.per_game().items():
            assert np.array_equal(getattr(got, name), a[rows]) and not np.shares_memory(getattr(got, name), a), name
        part = chance.take(idx)
        assert np.array_equal(part.draws, chance.draws[:, rows]) and np.array_equal(part.hands, chance.hands[rows])
        assert np.array_equal(part.rain_order, chance.rain_order[rows]) and np.array_equal(
            part.roles, chance.roles[rows]
        )


def test_value_counts_is_colsum_of_onehot():
    """arrays.value_counts (one bincount) counts each game's card values as colsum(onehot(v)) does."""
    from gamelab.core.arrays import colsum
    from gamelab.strand.cards import onehot, value_counts

    v = np.random.default_rng(2).integers(0, 6, (1000, 5)).astype(np.int8)  # 0: no card
    assert np.array_equal(value_counts(v), colsum(onehot(v)))
    assert value_counts(v).sum() == (v > 0).sum()
