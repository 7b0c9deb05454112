"""SBR agents: legality, determinism, the engine query they use, golden decisions."""

import numpy as np
import pytest
from sbr_helpers import play

from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.sbr import agents, engine
from gamelab.sbr.rules import HEART, SPINE, SbrParams
from gamelab.sim import runner

P = agents.AgentParams()
FAST_LA = agents.AgentParams(lookahead_k=2, lookahead_beats=1)


def _states(params, n_games, n_players, seed, stops=(0, 3, 7, 11, 16)):
    """Random games stopped at several beats and slots: (state, rider, legal, slot)."""
    rng = np.random.default_rng(seed)
    chance = engine.draw_chance(params, n_games, n_players, rng)
    st = engine.init(params, n_games, n_players, chance)
    while not engine.done(params, st).all():
        rider, lg, slot = engine.to_move(st), engine.legal(params, st), st.slot
        if st.beat in stops and lg.acting.any():
            yield st.copy(), rider, lg, slot
        st, _ = engine.step(params, st, agents.random_policy(params, st, rider, lg, rng), chance, inplace=True)


def _check_legal(a, lg):
    on = lg.acting
    G = on.size
    assert lg.card[np.arange(G), a.card - 1][on].all()
    assert lg.spin[np.arange(G), a.spin][on].all()
    assert lg.seal[np.arange(G), a.seal][on].all()
    assert engine.is_legal(P, None, lg, a).all()


@pytest.mark.parametrize("n_players", [2, 5])
def test_a_custom_function_agent_is_legal_in_random_states(n_players):
    """A designer's one-game function, wrapped (the registered agents are held
    to legality by tests/test_conformance.py)."""
    custom = agents.from_function(lambda v: (max(v.cards), max(v.spins), v.seals[-1], True))
    rng = np.random.default_rng(1)
    for st, rider, lg, _ in _states(P, 400, n_players, seed=n_players):
        _check_legal(custom(P, st, rider, lg, rng), lg)


def test_options_query_is_what_act_does():
    """The greedy's query (engine.options/outcome) agrees with act, seals and all."""
    rng = np.random.default_rng(3)
    card_k, spin_k = engine.option_list(P.max_spin_per_beat)
    checked = 0
    for st, rider, lg, slot in _states(P, 600, 4, seed=3, stops=(1, 4, 5, 10, 14)):
        brk = bool(rng.random() < 0.5)
        opt = engine.options(P, st, rider, brk)
        gen = engine.outcome(
            P, st, rider, np.broadcast_to(card_k, opt["end"].shape), np.broadcast_to(spin_k, opt["end"].shape), brk
        )
        for k in opt:
            assert np.array_equal(opt[k], gen[k]), k
        mask = rng.random(opt["end"].shape) < 0.4
        part = engine.options(P, st, rider, brk, mask=mask)
        for k in opt:
            assert np.array_equal(part[k], opt[k][mask]), k
        a = agents.random_policy(P, st, rider, lg, rng)
        a = a._replace(seal=np.zeros_like(a.seal), brk=np.full(a.brk.shape, brk))
        after, ev = engine.act(P, st, a, slot)
        ok = lg.acting & lg.card[np.arange(st.n_games), a.card - 1] & lg.spin[np.arange(st.n_games), a.spin]
        j = (a.card - 1) * (P.max_spin_per_beat + 1) + a.spin
        g = np.nonzero(ok)[0]
        assert np.array_equal(after.pos[g, rider[g]], opt["end"][g, j[g]])
        assert np.array_equal(after.spin[g, rider[g]], opt["spin"][g, j[g]])
        assert np.array_equal(ev["relic"][g], opt["relic"][g, j[g]])
        checked += g.size
    assert checked > 5000


def _one(params, n_players=2):
    return engine.init(params, 1, n_players, engine.draw_chance(params, 1, n_players, np.random.default_rng(0)))


def test_greedy_takes_an_exactly_reachable_relic():
    st = _one(P)
    st.pos[0] = [3, 0]
    st.hand[0, 0] = [0, 0, 0, 1, 1]  # a 4 lands on 7, a 5 on the town at 8
    st.relic[0, :] = -1
    st.relic[0, 7] = SPINE
    st.order[0] = [1, 0]
    lg = engine.legal_for(P, st, np.array([0]))
    a = agents.greedy_policy(P, st, np.array([0]), lg)
    assert a.card[0] == 4 and a.spin[0] == 0
    st.relic[0, 7] = -1  # gone: the 5 is better
    assert agents.greedy_policy(P, st, np.array([0]), lg).card[0] == 5


def test_greedy_uses_spin_to_reach_a_heart_and_is_deterministic():
    st = _one(P)
    st.pos[0] = [29, 0]
    st.spin[0] = [2, 0]
    st.hand[0, 0] = [0, 1, 0, 0, 0]  # only a 2: one spin more reaches the heart on 32
    st.relic[0, :] = -1
    st.relic[0, 32] = HEART
    st.order[0] = [1, 0]
    lg = engine.legal_for(P, st, np.array([0]))
    a = agents.greedy_policy(P, st, np.array([0]), lg)
    b = agents.greedy_policy(P, st, np.array([0]), lg)
    assert (a.card[0], a.spin[0]) == (2, 1)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_greedy_seals_in_front_of_a_pursuer_but_not_on_a_segment_end():
    st = _one(P)
    st.pos[0] = [20, 18]
    lg = engine.legal_for(P, st, np.array([0]))
    assert agents.greedy_policy(P, st, np.array([0]), lg).seal[0] == 1
    st.beat = 2  # beat 3 ends segment 1: seals would be cleared
    assert agents.greedy_policy(P, st, np.array([0]), lg).seal[0] == 0


def test_lookahead_beats_the_greedy():
    r = play(P, [agents.lookahead_policy, agents.greedy_policy], 60, np.random.default_rng(5))
    base = play(P, [agents.greedy_policy] * 2, 60, np.random.default_rng(5))
    assert r["win"][:, 0].mean() > base["win"][:, 0].mean()


def test_custom_function_agent_and_its_errors():
    fives = agents.from_function(lambda v: (max(v.cards),))
    out = play(P, [fives, agents.greedy_policy], 5, np.random.default_rng(0))
    assert out["score"].shape == (5, 2)
    bad = agents.from_function(lambda v: (9,))
    with pytest.raises(GamelabError, match="chose card 9"):
        play(P, [bad, bad], 2, np.random.default_rng(0))
    seen = []
    peek = agents.from_function(lambda v: seen.append(v.preview(v.cards[0])) or (v.cards[0],))
    play(P, [peek, peek], 1, np.random.default_rng(0))
    assert {"stop", "end", "spin", "relic"} <= set(seen[0])


def test_game_names_defaults_and_diagnostics():
    ad = registry.get("sbr")
    budgeted = {f"lookahead@{b}" for b in (1, 2, 4, 8, 16)}  # the skill trace's per-seat budgets
    assert set(ad.agents) == {"greedy", "random", "lookahead", "deep", "learned"} | budgeted
    assert list(ad.default_lineup(3)) == ["greedy"] * 3
    assert ad.knobs is agents.AgentParams and issubclass(ad.knobs, SbrParams)
    df = runner.simulate(registry.get("sbr"), n_games=300, seed=2, lineup=["greedy", "random", "greedy"])
    assert (df["finished"] == df["arrival_beat"].notna()).all()
    assert (df.groupby("game")["seal_hits"].sum() == df.groupby("game")["seal_triggers"].first()).all()
    assert np.allclose(df["mean_card"], df["card_sum"] / df["cards_played"])
    assert np.allclose(df.groupby("game")["win"].sum(), 1)
    g = df[df.agent == "greedy"]["win"].mean()
    assert g > df[df.agent == "random"]["win"].mean()
    changes = ad.derived["relic_scale"](agents.AgentParams(), 2.0)
    assert changes == {"relic_points": (4, 4, 6, 2)}


@pytest.mark.parametrize(
    "reading,n_players,lineup",
    [
        (dict(), 4, None),
        (dict(start_player="random"), 4, None),
        (dict(start_player="random", seat_order="from_start"), 3, ["greedy", "random", "greedy"]),
        (dict(start_player="random", riders_per_player=2, max_players=2), 2, None),
    ],
)
def test_start_player_column_marks_one_player_per_game(reading, n_players, lineup):
    p = agents.AgentParams(**reading)
    df = runner.simulate(registry.get("sbr"), n_games=400, seed=3, params=p, n_players=n_players, lineup=lineup)
    assert df["start_player"].dtype == bool
    assert (df.groupby("game")["start_player"].sum() == 1).all()
    starts = df[df["start_player"]]
    if reading.get("start_player", "seat") == "seat":
        assert (starts["seat"] == 1).all()
    else:
        assert set(starts["seat"]) == set(range(1, n_players + 1))
        # the same deal played under each rotation of the lineup keeps its start seat
        assert (starts.groupby("deal")["seat"].nunique() == 1).all()


def test_knobs_are_declared_parameters():
    from gamelab.core.params import specs

    names = {s.name for s in specs(agents.AgentParams)}
    assert {"greedy_relic", "greedy_seal_min", "lookahead_k"} <= names
    assert agents.knobs(SbrParams()) == agents.AgentParams()


@pytest.mark.parametrize("variant", ["short", "no_relics", "forward_seals", "solo", "dual"])
def test_greedy_plays_every_variant(variant):
    from gamelab.sbr.rules import params_for_variant

    p = agents.AgentParams(**params_for_variant(variant).as_dict())
    n = 1 if variant == "solo" else 2 if variant == "dual" else 3
    for st, rider, lg, _ in _states(p, 60, n, seed=9, stops=(1, 8)):
        _check_legal(agents.greedy_policy(p, st, rider, lg), lg)
    out = play(p, [agents.greedy_policy] * n, 60, np.random.default_rng(1), n)
    assert out["score"].shape == (60, n)


def test_lead_changes_and_game_length_are_reported():
    from gamelab.sim import runner

    f = runner.simulate(registry.get("sbr"), n_games=300, seed=4, n_players=3).groupby("game").first()
    assert (f["lead_changes"] >= 0).all() and (f["lead_changes"] <= 17).all() and f["lead_changes"].max() >= 2
    done = f["finished"].astype(bool)
    assert (f.loc[~done, "game_length"] == 18).all()
    assert (f["game_length"] <= 18).all() and (f["game_length"] >= 12).all()
