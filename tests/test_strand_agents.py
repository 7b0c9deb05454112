"""STRAND agents: legality over random states, golden style choices, the
runner entry point's determinism and columns, the per-game wrapper."""

import numpy as np
import pytest

from gamelab.core import registry
from gamelab.core.driver import split_streams
from gamelab.sim import runner
from gamelab.strand import agents, engine, heuristic, sim
from gamelab.strand.agents import AgentParams, per_game, random_policy, uniform_choice


def test_uniform_choice_is_legal_and_uniform():
    rng = np.random.default_rng(0)
    mask = rng.random((20000, 13)) < 0.4
    mask[:, 3] = True
    a = uniform_choice(mask, rng.random(20000, dtype=np.float32))
    assert mask[np.arange(20000), a].all()
    row = np.zeros((60000, 10), bool)
    row[:, [1, 4, 7]] = True
    counts = np.bincount(uniform_choice(row, rng.random(60000)), minlength=10)
    assert set(np.flatnonzero(counts)) == {1, 4, 7} and counts[[1, 4, 7]].min() > 19000


@pytest.mark.parametrize(
    "setup",
    [
        AgentParams(),
        AgentParams(negotiation=False, bb_lock="yield"),
        AgentParams(time_rain=True, renege_to="best", reneging=0.5),
        AgentParams(silent=True, fragile_sum="half", renege_to="stay"),
    ],
)
@pytest.mark.parametrize("P", [3, 6])
def test_styles_answer_legally_under_every_reading(setup, P):
    """Style codes mixed per game (random and custom included) under model
    readings the conformance suite does not vary (reneging targets, silence,
    time rain): games driven half by the table, half at random."""
    rng = np.random.default_rng(P)
    G = 600
    codes = rng.integers(0, heuristic.RANDOM + 1, (G, P)).astype(np.int8)
    roles = np.argsort(rng.random((G, 6)), 1)[:, :P] + 1
    chance = engine.draw_chance(setup, G, P, rng, roles=roles)
    st = engine.init(setup, G, P, chance)
    table = heuristic.Table(setup, codes, np.random.default_rng(1))
    decide = (table.cargo, table.ropes, table.react)
    while not st.done.all():
        acts = decide[st.phase](st)
        mask = engine.legal(setup, st)
        assert engine.is_legal(setup, st, mask, acts).all(), st.phase
        wild = engine.random_actions(setup, st, mask, rng)
        acts = np.where(rng.random((G, P)) < 0.3, wild, acts)
        st, ev = engine.step(setup, st, acts, chance)
        if "partner" in ev:
            table.observe(ev)


NO_RENEGING = AgentParams(reneging=0.0)


def _ropes_for(cargo, codes, setup=NO_RENEGING, rope=None):
    G, P = 1, len(cargo)
    st = engine.init(setup, G, P, engine.draw_chance(setup, G, P, np.random.default_rng(0), roles=None))
    st = st.copy(cargo=np.array([cargo], np.int8), card=np.array([cargo], np.int8), phase=engine.ROPE)
    if rope is not None:
        st = st.copy(rope=np.array([rope], np.int8))
    table = heuristic.Table(setup, np.array([codes], np.int8), np.random.default_rng(0))
    return table.ropes(st)[0].tolist(), table


def test_cargo_choices_per_style():
    hand = np.array([2, 0, 1, 1, 1], np.int8)  # 1, 1, 3, 4, 5
    tab = heuristic.cargo_table(7, (12,) * 5, 4, AgentParams().steady_mate).reshape(8, -1)
    code = int((hand * 6 ** np.arange(5)).sum())
    assert tab[heuristic.HEAVY, code] == 4  # has a 5, plays the 5
    assert tab[heuristic.KEY, code] == 0  # the smallest
    assert tab[heuristic.STEADY, code] == 3  # the largest that fits a 3 (4)
    assert tab[heuristic.MIRROR, code] == 2  # the median (3)
    g = heuristic.grab_values(7, (12,) * 5, 4)
    # a 2 fits every card, so it reaches the largest expected full sum (7 with a 5)
    assert g.argmax() == 1 and g[1] > g[4]
    # a 5 needs a 1 or 2 among three cards: P = 1 - 0.6^3, sums 6 or 7 (heavier card 5)
    p2 = 1 - 0.8**3
    p1 = (1 - 0.6**3) - p2
    assert g[4] == pytest.approx(p2 * (7 + 5 / 8) + p1 * (6 + 5 / 8))


def test_negotiation_pairs_the_five_with_the_one():
    ropes, _ = _ropes_for([5, 1, 3, 3], [heuristic.HEAVY, heuristic.KEY, heuristic.GRABBER, heuristic.STEADY])
    assert ropes[0] == 1 and ropes[1] == 0  # 5+1: full, the heaviest node pair
    assert ropes[2] == 3 and ropes[3] == 2  # 3+3


def test_stay_style_refuses_an_overweight_partner_and_mirror_follows_its_pointer():
    ropes, _ = _ropes_for([5, 5, 4], [heuristic.STAY, heuristic.HEAVY, heuristic.HEAVY])
    assert ropes[0] == 3  # 5+5 or 5+4 would be overweight: stay
    ropes, _ = _ropes_for([2, 2, 2, 2], [heuristic.MIRROR] * 4, AgentParams(negotiation=False), rope=[2, 2, 3, 0])
    assert ropes[2] in (0, 1) and ropes[3] == 2  # seat 3 follows seat 2, who pointed at it


def test_no_reneging_means_no_lone_markers():
    out = sim.play(
        AgentParams(reneging=0.0, roles="none"),
        ["heavy", "key", "node_grabber", "mirror"],
        500,
        4,
        split_streams(np.random.SeedSequence(3), agents.STREAMS),
    )
    assert (out["lone_total"] == 0).all()
    assert out["win"].sum(1) == pytest.approx(1.0)


def test_default_lineup_rotates_distinct_styles_and_deals_the_first_roles():
    df = runner.simulate(registry.get("strand"), n_games=400, seed=2, n_players=4, chunk_deals=50)
    assert set(df["agent"]) == {"mix1", "mix2", "mix3", "mix4"}
    per_game = df.groupby("game")
    assert (per_game["style"].nunique() == 4).all()
    assert set(df["role"]) == {"veteran", "bb", "fragile", "porter"}
    # the same deal keeps its style set and its roles by seat under every rotation
    sets = df.groupby(["deal", "rotation"])["style"].apply(frozenset).groupby("deal").nunique()
    assert (sets == 1).all()
    roles = df.pivot_table(index=["deal", "seat"], columns="rotation", values="role", aggfunc="first")
    assert (roles.nunique(axis=1) == 1).all()
    for col in ("lone_total", "team_rounds", "void_nodes", "mutual_5", "ropes_1", "stay_then_pts"):
        assert col in df
    m = sim.measures(df)
    assert 0 < m["mutual_rate_1"].value <= 1 and 0 < m["node_share"].value < 1


def test_model_knobs_are_declared_and_derived_knobs_work():
    from gamelab.core.params import specs
    from gamelab.sim.sweep import cell_setting

    names = {s.name for s in specs(AgentParams)}
    assert {"reneging", "negotiation", "roles", "renege_to", "sum_cap"} <= names
    params, _, _ = cell_setting(registry.get("strand"), {"node_scale": 1.5, "n_players": 4})
    assert params.node_values == (5, 6, 6, 8, 8, 9, 11, 12)
    params, _, _ = cell_setting(registry.get("strand"), {"node_shift": -3, "reneging": 0.5, "n_players": 4})
    assert params.node_values == (0, 1, 1, 2, 2, 3, 4, 5) and params.reneging == 0.5


def test_role_policies_fire():
    out = sim.play(
        AgentParams(), sim.default_lineup(6), 400, 6, split_streams(np.random.SeedSequence(9), agents.STREAMS)
    )
    assert set(out["role"].ravel()) == {"veteran", "bb", "fragile", "porter", "musician", "engineer"}


def test_per_game_wrapper_plays_and_rejects_illegal_answers():
    def cautious(obs, legal):
        if obs["phase"] == "cargo":
            return min(obs["hand"]) - 1
        if obs["phase"] == "rope":
            return 0 if 0 in legal else legal[0]
        return 0

    rng = np.random.default_rng(1)
    out = sim.play_policies(AgentParams(), [per_game(cautious), random_policy, random_policy], 30, rng, 3)
    assert out["score"].shape == (30, 3)
    with pytest.raises(ValueError, match="legal actions are"):
        sim.play_policies(AgentParams(), [per_game(lambda obs, legal: 99)] * 3, 5, rng, 3)
    # a custom seat inside the style table
    chance = agents.deal_chance(AgentParams(), 20, 3, None, np.random.default_rng(2), np.random.default_rng(4))
    res = sim.play_games(
        AgentParams(),
        np.array([[heuristic.CUSTOM, 0, 1]] * 20, np.int8),
        chance,
        np.random.default_rng(3),
        custom={0: per_game(cautious)},
    )
    assert res["style"][0, 0] == "custom"
