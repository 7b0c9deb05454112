"""SBR search agents: the fast lookahead against a plain one, the memo, the
deep agent, the seat masks, the greedy's declared knobs and the bench's
extra lineups."""

import numpy as np
import pytest

from gamelab.core import registry
from gamelab.sbr import agents, engine, kernel, lookahead, memo
from gamelab.sbr.greedy import greedy_policy, greedy_values
from gamelab.sbr.options import option_index
from gamelab.sbr.rules import params_for_variant
from gamelab.sbr.state import Actions
from gamelab.sim import bench

P = agents.AgentParams()


def _plain_lookahead(params, state, rider, legal, rng=None):
    """The lookahead written plainly: every game one at a time, every one of
    the greedy's top options played out on its own copy to the end of the
    game with every rider greedy (no batching, no memo)."""
    kn = agents.knobs(params)
    base = greedy_policy(params, state, rider, legal)
    card_k, spin_k = engine.option_list(params.max_spin_per_beat)
    out = Actions(*(np.array(x, copy=True) for x in base))
    for g in np.nonzero(legal.acting)[0]:
        one = state.take(np.array([g]))
        r = rider[g : g + 1]
        val = greedy_values(params, state, r, legal, games=np.array([g]))[0]
        order = [int(o) for o in np.argsort(-val, kind="stable")[: kn.lookahead_k] if val[o] > -np.inf]
        pick = int(option_index(base.card[g], base.spin[g], params.max_spin_per_beat))
        own = pick if pick in order else order[0]  # the greedy's own option (its tie bonus, its break)
        best, best_m = None, -np.inf
        for o in order:
            sim = one.copy()
            brk = bool(base.brk[g]) and o == order[0]
            act = Actions(card_k[[o]], spin_k[[o]], base.seal[[g]], np.array([brk]), np.zeros(1, np.intp))
            engine.act(params, sim, act, int(engine.slot_of(one, r)[0]), inplace=True)
            lookahead._play_out(params, sim, sim.slot, params.beats)
            m = lookahead._margin(params, sim, r // params.riders_per_player)[0]
            m += lookahead.GREEDY_TIE_BONUS if o == own else 0.0
            if m > best_m:
                best, best_m = o, m
        out.card[g], out.spin[g] = card_k[best], spin_k[best]
        out.brk[g] = base.brk[g] and best == own
    return out


def _checked(calls):
    def policy(params, state, rider, legal, rng=None):
        fast = agents.lookahead_policy(params, state, rider, legal, rng)
        plain = _plain_lookahead(params, state, rider, legal)
        on = legal.acting
        for name, a, b in zip(Actions._fields, fast, plain):
            assert (np.asarray(a)[on] == np.asarray(b)[on]).all(), name
        calls.append(int(on.sum()))
        return fast

    return policy


@pytest.mark.parametrize(
    "params, n_players, n_games",
    [(P, 2, 10), (P, 4, 4), (agents.AgentParams(**params_for_variant("dual").as_dict()), 2, 2)],
)
def test_fast_lookahead_chooses_what_the_plain_one_chooses(params, n_players, n_games, monkeypatch):
    """Every decision of whole games (lookahead against greedy riders, so
    the memo hits) equals the plain lookahead's on the same state.  The
    batch search (the compiled kernel is held to it in test_sbr_kernel.py)."""
    monkeypatch.setattr(kernel, "ENABLED", False)
    memo.clear()
    hits = []
    get = memo.Memo.get

    def counted(self, key):
        got = get(self, key)
        hits.append(got is not None)
        return got

    monkeypatch.setattr(memo.Memo, "get", counted)
    calls = []
    seating = [_checked(calls)] + [agents.greedy_policy] * (n_players - 1)
    engine.play_batch(params, seating, n_games, np.random.default_rng(4), n_players)
    assert sum(calls) >= 0.8 * n_games * params.beats * params.riders_per_player  # finished riders wait
    assert sum(hits) > len(hits) / 4  # the memo answered a good share of the greedy's own options


def test_memo_changes_no_game(monkeypatch):
    """Whole games with and without the memo (cleared before every decision;
    the batch search: the compiled kernel keeps no memo)."""
    monkeypatch.setattr(kernel, "ENABLED", False)

    def forgetful(params, state, rider, legal, rng=None):
        memo.clear()
        return agents.lookahead_policy(params, state, rider, legal, rng)

    chance = engine.draw_chance(P, 150, 3, np.random.default_rng(8))
    memo.clear()
    a = engine.play_batch(
        P,
        [agents.lookahead_policy, agents.greedy_policy, agents.random_policy],
        150,
        np.random.default_rng(1),
        chance=chance,
    )
    b = engine.play_batch(
        P, [forgetful, agents.greedy_policy, agents.random_policy], 150, np.random.default_rng(1), chance=chance
    )
    for key in ("score", "position", "card_sum", "seals_placed"):
        assert np.array_equal(a[key], b[key]), key


def test_memo_keys_tell_states_apart():
    st = engine.init(P, 3, 2, engine.draw_chance(P, 3, 2, np.random.default_rng(0)))
    keys = memo.state_keys(st, np.array([0, 1, 0]), np.array([0, 0, 1]), 0)
    assert keys[0] != keys[1] and keys[0] != keys[2]  # other deal; other rider
    other = st.copy()
    other.hand[0, 0, 0] += 1
    assert memo.state_keys(other, np.array([0]), np.array([0]), 0)[0] != keys[0]
    assert memo.state_keys(st, np.array([0]), np.array([0]), 1)[0] != keys[0]  # other slot
    small = memo.Memo(size=2)
    small.put([b"a", b"b", b"c", b"d", b"e"], [1.0, 2.0, 3.0, 4.0, 5.0])  # two generations of two kept
    assert small.get(b"e") == 5.0 and small.get(b"c") == 3.0 and small.get(b"b") is None


def test_a_policy_sees_only_its_own_seats_games_as_acting():
    seen = []

    def spy(params, state, rider, legal, rng=None):
        seen.append((rider.copy(), legal.acting.copy()))
        return agents.greedy_policy(params, state, rider, legal)

    engine.play_batch(P, [spy, agents.greedy_policy, spy], 20, np.random.default_rng(2), 3)
    assert seen and all(((r % 3 != 1) | ~acting).all() for r, acting in seen)
    assert any(acting.any() for _, acting in seen)


def test_deep_is_legal_and_beats_the_lookahead():
    """Paired deals, both seatings (the ladder's top rung; docs/agents.md)."""
    n = 16
    chance = engine.draw_chance(P, n, 2, np.random.default_rng(3))
    a = engine.play_batch(P, [agents.deep_policy, agents.lookahead_policy], n, np.random.default_rng(1), chance=chance)
    b = engine.play_batch(P, [agents.lookahead_policy, agents.deep_policy], n, np.random.default_rng(1), chance=chance)
    assert (a["win"][:, 0].mean() + b["win"][:, 1].mean()) / 2 > 0.55
    assert registry.get("sbr").skill.ladder[-1] == "deep" and "deep" in agents.POLICIES


def test_declared_greedy_knobs_change_the_greedy():
    """greedy_break_margin and greedy_skull_card are read by the greedy."""
    kw = dict(n_games=400, seed=5, n_players=3, progress=False)
    from gamelab.sim import runner

    base = runner.simulate("sbr", params=P, **kw)
    never = runner.simulate("sbr", params=P.replace(greedy_break_margin=10.0), **kw)
    skull = runner.simulate("sbr", params=P.replace(greedy_skull_card=3.0), **kw)
    assert not base["score"].equals(never["score"]) and not base["score"].equals(skull["score"])
    assert P.greedy_skull_card == P.greedy_card and P.greedy_break_margin == 0.0


def test_bench_times_the_declared_extra_lineups(monkeypatch):
    monkeypatch.setattr(bench, "EXTRA_BATCH", 8)
    monkeypatch.setattr(bench, "STRONG_BATCH", 2)
    game = registry.get("sbr")
    rates = bench.extra_rates(game, P.replace(lookahead_beats=1), reps=1)  # short play-outs: a quick test
    assert set(rates) == {
        "lookahead_games_per_s",
        "lookahead_2p_games_per_s",
        "strong_games_per_s",
        "strong_lookahead_games_per_s",
    }
    assert all(v > 0 for v in rates.values())
    names = [row[0] for row in bench.verdicts({"sbr": {**_fixed_figures(), **rates}})]
    assert "sbr lookahead (4 players) >= 300 games/s" in names
    assert "sbr lookahead_2p (2 players) >= 1,500 games/s" in names
    assert "sbr strong (4 players) >= 1/300 of the agents' games/s" in names
    assert "sbr strong_lookahead (4 players) >= 1/10 of the agents' games/s" in names


def test_bench_strong_targets_are_shares_of_the_agents_rate():
    """A Fraction target is a share of the same run's agents' games/s."""
    figures = {**_fixed_figures(), "agent_games_per_s": 3000.0}
    rows = {row[0]: row[1:] for row in bench.verdicts({"sbr": {**figures, "strong_games_per_s": 10.5}})}
    ok, value = rows["sbr strong (4 players) >= 1/300 of the agents' games/s"]
    assert ok and value == "10.5 (1/286)"
    rows = {row[0]: row[1:] for row in bench.verdicts({"sbr": {**figures, "strong_games_per_s": 9.5}})}
    assert not rows["sbr strong (4 players) >= 1/300 of the agents' games/s"][0]


def _fixed_figures():
    return dict(agent_games_per_s=1.0, batch_over_reference=1.0, slider_update_s=0.1)
