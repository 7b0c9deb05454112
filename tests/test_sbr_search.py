"""SBR search agents: the compiled lookahead and deep against a plain search
written on the engine's own calls, whole games with and without the known
continuations, the seat masks, deep against the lookahead, the greedy's
declared knobs and the bench's extra lineups."""

import numpy as np
import pytest
from sbr_helpers import play

from gamelab.core import registry
from gamelab.sbr import agents, engine, search
from gamelab.sbr.game import GAME
from gamelab.sbr.options import option_index
from gamelab.sbr.rules import params_for_variant
from gamelab.sbr.state import Actions
from gamelab.sim import bench
from gamelab.sim.play import Tally, play_games

P = agents.AgentParams()
DUAL = agents.AgentParams(**params_for_variant("dual").as_dict())


def _play_out(params, st, slot, last, until):
    """Finish the beat from ``slot`` and play on until ``last`` beats are
    over, every rider greedy (the lookahead before beat ``until``)."""
    R = st.pos.shape[1]
    while True:
        for s in range(slot, R):
            rider = st.order[:, s].astype(np.intp)
            lg = engine.legal_for(params, st, rider)
            if lg.acting.any():
                policy = agents.lookahead_policy if st.beat < until else agents.greedy_policy
                engine.act(params, st, policy(params, st, rider, lg), s, inplace=True)
        engine.end_beat(params, st, inplace=True)
        if st.beat >= last:
            return
        engine.begin_beat(params, st, inplace=True)
        slot = 0


def _margin(params, st, player):
    """Points so far plus final points by the squares reached (twice before
    the end, as the search counts them), own minus the best opponent's."""
    res = engine.result(params, st)
    P_, k = st.n_players, params.riders_per_player
    score = res["score"][0].astype(np.float64)
    if st.beat < params.beats:
        score = score + res["final_points"][0].reshape(P_, k).sum(axis=1)
    others = [score[p] for p in range(P_) if p != player]
    return score[player] - (max(others) if others else 0.0)


def _plain_search(params, state, rider, legal, k, beats, reply=None):
    """The search written plainly: every game one at a time, every one of the
    greedy's ``k`` best options played out on its own copy through the
    engine's calls, to the end (``beats`` 0) or ``beats`` beats after this
    one, the riders greedy (the lookahead for this beat and ``reply`` more);
    the best margin, ties to the greedy's own option."""
    base = agents.greedy_policy(params, state, rider, legal)
    card_k, spin_k = engine.option_list(params.max_spin_per_beat)
    out = Actions(*(np.array(x, copy=True) for x in base))
    last = params.beats if beats == 0 else min(params.beats, state.beat + 1 + beats)
    until = 0 if reply is None else state.beat + 1 + reply
    for g in np.nonzero(legal.acting)[0]:
        one = state.take(np.array([g]))
        r = rider[g : g + 1]
        val = agents.greedy_values(params, state, r, games=np.array([g]))[0]
        order = [int(o) for o in np.argsort(-val, kind="stable")[:k] if val[o] > -np.inf]
        pick = int(option_index(base.card[g], base.spin[g], params.max_spin_per_beat))
        own = pick if pick in order else order[0]  # the greedy's own option (its tie bonus, its break)
        best, best_m = None, -np.inf
        for o in order:
            sim_ = one.copy()
            brk = bool(base.brk[g]) and o == order[0]
            act = Actions(card_k[[o]], spin_k[[o]], base.seal[[g]], np.array([brk]), np.zeros(1, np.intp))
            slot = int(engine.slot_of(one, r)[0])
            engine.act(params, sim_, act, slot, inplace=True)
            _play_out(params, sim_, slot + 1, last, until)
            m = _margin(params, sim_, int(r[0]) // params.riders_per_player)
            m += search.GREEDY_TIE_BONUS if o == own else 0.0
            if m > best_m:
                best, best_m = o, m
        out.card[g], out.spin[g] = card_k[best], spin_k[best]
        out.brk[g] = base.brk[g] and best == own
    return out


def _held_to_plain(policy, plain, decisions):
    def checked(params, state, rider, legal, rng=None):
        fast = policy(params, state, rider, legal, rng)
        want = plain(params, state, rider, legal)
        on = legal.acting
        for name, a, b in zip(Actions._fields, fast, want):
            assert (np.asarray(a)[on] == np.asarray(b)[on]).all(), name
        decisions.append(int(on.sum()))
        return fast

    return checked


@pytest.mark.parametrize("params, n_players, n_games", [(P, 2, 6), (P, 4, 3), (DUAL, 2, 2)])
def test_lookahead_chooses_what_the_plain_search_chooses(params, n_players, n_games):
    """Every decision of whole games (a lookahead against greedy riders)."""
    kn = agents.knobs(params)
    decisions = []
    plain = lambda *a: _plain_search(*a, kn.lookahead_k, kn.lookahead_beats)  # noqa: E731
    seating = [_held_to_plain(agents.lookahead_policy, plain, decisions)] + [agents.greedy_policy] * (n_players - 1)
    play(params, seating, n_games, np.random.default_rng(4), n_players)
    assert sum(decisions) >= 0.8 * n_games * params.beats * params.riders_per_player  # finished riders wait


@pytest.mark.parametrize("budget", [1, 4])
def test_a_budgeted_lookahead_chooses_what_the_plain_search_chooses(budget):
    decisions = []
    plain = lambda *a: _plain_search(*a, P.lookahead_k, budget)  # noqa: E731
    policy = _held_to_plain(search.lookahead_at(budget), plain, decisions)
    play(P, [policy, agents.random_policy, agents.greedy_policy], 4, np.random.default_rng(2), 3)
    assert sum(decisions) > 50


def test_deep_chooses_what_the_plain_search_chooses():
    """Deep's decisions in the first beats of short games (its play-outs play
    the lookahead for a beat and a half: the plain search is slow)."""
    params = agents.AgentParams(**params_for_variant("short").as_dict(), deep_reply_beats=1, lookahead_beats=2)
    decisions = []
    plain = lambda *a: _plain_search(*a, params.deep_k, 0, params.deep_reply_beats)  # noqa: E731
    policy = _held_to_plain(agents.deep_policy, plain, decisions)
    chance = engine.draw_chance(params, 2, 2, np.random.default_rng(4))
    st = engine.init(params, 2, 2, chance)
    for _ in range(4):
        st, _ = engine.step(params, st, policy(params, st, engine.to_move(st), engine.legal(params, st)), chance)
    assert sum(decisions) == 8


@pytest.mark.parametrize(
    "params, seating",
    [
        (P, ["lookahead", "greedy", "greedy", "lookahead"]),
        (P.replace(seal_direction="ahead", seal_owner_bonus=2), ["lookahead"] * 4),
        (DUAL, ["lookahead", "greedy"]),
        (P.replace(start_player="random", seat_order="from_start"), ["lookahead"] * 3),
        (agents.AgentParams(**params_for_variant("short").as_dict(), deep_reply_beats=1), ["deep", "lookahead"]),
        (agents.AgentParams(**params_for_variant("short").as_dict(), deep_reply_beats=0), ["deep", "greedy"]),
    ],
)
def test_whole_games_keep_their_decisions(params, seating):
    """Whole games played by ``search.play_games`` (a search reads the
    margin of the play-out the game has followed since, and deep the one of
    its own previous choice) equal the batch engine's loop of one search per
    decision (nothing carried over), bit for bit."""
    n, n_players = 6, len(seating)
    chance = engine.draw_chance(params, n, n_players, np.random.default_rng(21))
    tally = Tally(GAME.counts, engine, params, n, n_players)
    played = play_games(GAME, params, seating, n, n_players, np.random.default_rng(1), chance=chance, tally=tally)
    want = {**engine.result(params, played), **tally.columns()}
    state = engine.init(params, n, n_players, chance)
    counts = GAME.compiled(params, seating, state, chance, None)  # the shared play's compiled twin
    assert counts is not None
    got = {**engine.result(params, state), **counts}
    assert sorted(got) == sorted(want)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)


def test_a_policy_sees_only_its_own_seats_games_as_acting():
    seen = []

    def spy(params, state, rider, legal, rng=None):
        seen.append((rider.copy(), legal.acting.copy()))
        return agents.greedy_policy(params, state, rider, legal)

    play(P, [spy, agents.greedy_policy, spy], 20, np.random.default_rng(2), 3)
    assert seen and all(((r % 3 != 1) | ~acting).all() for r, acting in seen)
    assert any(acting.any() for _, acting in seen)


def test_deep_is_legal_and_beats_the_lookahead():
    """Paired deals, both seatings (the ladder's top rung; docs/agents.md)."""
    n = 16
    chance = engine.draw_chance(P, n, 2, np.random.default_rng(3))
    a = play(P, [agents.deep_policy, agents.lookahead_policy], n, np.random.default_rng(1), chance=chance)
    b = play(P, [agents.lookahead_policy, agents.deep_policy], n, np.random.default_rng(1), chance=chance)
    assert (a["win"][:, 0].mean() + b["win"][:, 1].mean()) / 2 > 0.55
    assert registry.get("sbr").skill.ladder[-1] == "deep" and "deep" in agents.POLICIES


def test_declared_greedy_knobs_change_the_greedy():
    """greedy_break_margin and greedy_skull_card are read by the greedy."""
    kw = dict(n_games=400, seed=5, n_players=3, progress=False)
    from gamelab.sim import runner

    base = runner.simulate(registry.get("sbr"), params=P, **kw)
    never = runner.simulate(registry.get("sbr"), params=P.replace(greedy_break_margin=10.0), **kw)
    skull = runner.simulate(registry.get("sbr"), params=P.replace(greedy_skull_card=3.0), **kw)
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
    names = [row[0] for row in bench.verdicts([game], {"sbr": {**_fixed_figures(), **rates}})]
    assert "sbr lookahead (4 players) >= 300 games/s" in names
    assert "sbr lookahead_2p (2 players) >= 1,500 games/s" in names
    assert "sbr strong (4 players) >= 1/300 of the agents' games/s" in names
    assert "sbr strong_lookahead (4 players) >= 1/10 of the agents' games/s" in names


def test_bench_strong_targets_are_shares_of_the_agents_rate():
    """A Fraction target is a share of the same run's agents' games/s."""
    figures = {**_fixed_figures(), "agent_games_per_s": 3000.0}
    rows = {
        row[0]: row[1:]
        for row in bench.verdicts([registry.get("sbr")], {"sbr": {**figures, "strong_games_per_s": 10.5}})
    }
    ok, value = rows["sbr strong (4 players) >= 1/300 of the agents' games/s"]
    assert ok and value == "10.5 (1/286)"
    rows = {
        row[0]: row[1:]
        for row in bench.verdicts([registry.get("sbr")], {"sbr": {**figures, "strong_games_per_s": 9.5}})
    }
    assert not rows["sbr strong (4 players) >= 1/300 of the agents' games/s"][0]


def _fixed_figures():
    return dict(agent_games_per_s=1.0, batch_over_reference=1.0, slider_update_s=0.1)
