"""The meta-game solver on games whose equilibria are known by hand, and
STRAND's meta-game played through the runner and the chunk store."""

import itertools
import json

import numpy as np
import pytest
from metagame_helpers import two_seat_table

from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.models import metagame
from gamelab.sim.run import RunConfig
from gamelab.sim.store import ChunkStore
from gamelab.stats import metagame as mg


def three_seat_table(pay_a, pay_b):
    """Two strategies A, B at three seats: ``pay_a[j]`` an A seat's payoff with j other A seats, ``pay_b[j]`` a B's."""
    K = mg.profiles(2, 3)
    out = np.full(K.shape, np.nan)
    for k, (a, b) in enumerate(K):
        if a:
            out[k, 0] = pay_a[a - 1]
        if b:
            out[k, 1] = pay_b[a]
    return out


RPS = [[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]]  # win shares: a tie splits the win


def test_rock_paper_scissors_one_third_each():
    t = two_seat_table(RPS)
    eqs = mg.equilibria(t, 2)
    assert len(eqs) == 1
    np.testing.assert_allclose(eqs[0].shares, [1 / 3] * 3, atol=1e-9)
    assert eqs[0].value == pytest.approx(0.5)
    np.testing.assert_allclose(eqs[0].regret, 0, atol=1e-9)
    assert not mg.dominated(t, 2).any()
    np.testing.assert_allclose(mg.alpha_rank(t, 2), [1 / 3] * 3, atol=1e-9)
    # against a table of rock only, paper wins everything and scissors nothing
    np.testing.assert_allclose(mg.payoff_vs(t, np.array([1.0, 0, 0]), 2), [0.5, 1.0, 0.0])


def test_a_strategy_dominated_by_a_mixture_is_never_played():
    # C earns 1 against A and B (more than B against A, more than A against B), but half A half B earns more
    M = [[3, 0, 2], [0, 3, 2], [1, 1, 1]]
    t = two_seat_table(M)
    np.testing.assert_array_equal(mg.dominated(t, 2), [False, False, True])
    assert mg.undominated(t, 2) == [0, 1]
    eqs = mg.equilibria(t, 2)
    assert all(e.shares[2] == 0 for e in eqs)
    # A, B and the half-half mix are the equilibria of the coordination game that is left
    found = sorted(tuple(np.round(e.shares, 6)) for e in eqs)
    assert found == [(0.0, 1.0, 0.0), (0.5, 0.5, 0.0), (1.0, 0.0, 0.0)]
    half = next(e for e in eqs if e.shares[0] == pytest.approx(0.5))
    assert half.regret[2] == pytest.approx(0.5)  # C earns 1 where A and B earn 1.5


def test_three_seat_game_with_two_equilibria():
    # A seat of A earns 1, -1, 1 with 0, 1, 2 other A seats; B earns 0: u_A - u_B = (2p - 1)^2 >= 0,
    # so all-A is an equilibrium, all-B is not, and at p = 1/2 the two tie: exactly two equilibria
    t = three_seat_table(pay_a=[1.0, -1.0, 1.0], pay_b=[0.0, 0.0, 0.0])
    eqs = mg.equilibria(t, 3)
    assert len(eqs) == 2
    np.testing.assert_allclose(eqs[0].shares, [1.0, 0.0])
    np.testing.assert_allclose(eqs[1].shares, [0.5, 0.5], atol=1e-4)


def test_three_seat_coordination_game_its_two_pure_equilibria_and_the_mixed_one():
    # a seat earns 1 per other A seat when it plays A, 2 per other B seat when it plays B: 2p = 4(1 - p) at p = 2/3
    t = three_seat_table(pay_a=[0.0, 1.0, 2.0], pay_b=[4.0, 2.0, 0.0])
    found = sorted(tuple(np.round(e.shares, 6)) for e in mg.equilibria(t, 3))
    assert found == [(0.0, 1.0), (0.666667, 0.333333), (1.0, 0.0)]
    got = mg.payoff_vs(t, np.array([2 / 3, 1 / 3]), 3)
    np.testing.assert_allclose(got, [4 / 3, 4 / 3])


def test_alpha_rank_equals_openspiel_for_two_seats():
    alpharank = pytest.importorskip("open_spiel.python.egt.alpharank")
    from open_spiel.python.egt import heuristic_payoff_table as hpt

    rng = np.random.default_rng(3)
    for M in (np.array(RPS), rng.random((4, 4)), np.array([[0.5, 0.3, 0.6], [0.7, 0.5, 0.2], [0.4, 0.8, 0.5]])):
        table = hpt.PayoffTable(2, len(M))
        for i, j in itertools.combinations_with_replacement(range(len(M)), 2):
            counts = [0] * len(M)
            counts[i] += 1
            counts[j] += 1
            pay = np.zeros(len(M))
            pay[i], pay[j] = M[i, j], M[j, i]
            table[tuple(counts)] = pay
        ref = alpharank.compute([table], alpha=5, m=50, use_local_selection_model=False)[2]
        np.testing.assert_allclose(mg.alpha_rank(two_seat_table(M), 2, alpha=5), ref, atol=1e-9)


def test_strand_payoff_table_through_the_store(tmp_path):
    run = RunConfig(store=ChunkStore(tmp_path), progress=False)
    sums = metagame.payoff_table(registry.get("strand"), 3, deals=32, seed=5, run=run)
    assert sums.profiles.shape == (56, 6) and sums.wins.shape == (32, 56, 6)
    # every deal of a profile is played in every seat rotation: P seats a game, P games a deal (one if all alike)
    per_deal = sums.seats.sum(2)
    alike = sums.profiles.max(1) == 3
    assert (per_deal[:, alike] == 3).all() and (per_deal[:, ~alike] == 9).all()
    table = sums.payoffs()
    np.testing.assert_allclose(np.nanmax(table[alike], 1), 1 / 3)  # one style on every seat: a third each
    assert np.isnan(table[sums.profiles == 0]).all()
    files = sorted(p.name for p in tmp_path.rglob("*.npz"))  # each chunk's per-deal sums, not its games' rows
    assert len(files) == 56 and not list(tmp_path.rglob("*.parquet"))
    again = metagame.payoff_table(registry.get("strand"), 3, deals=32, seed=5, run=run)  # read back, nothing played
    assert sorted(p.name for p in tmp_path.rglob("*.npz")) == files
    np.testing.assert_array_equal(again.wins, sums.wins)
    a = metagame.analyse(sums, label="style", n_boot=40)
    assert a.equilibria and all(mg.exploitability(a.payoffs, e.shares, 3) <= mg.TOL for e in a.equilibria)
    for e, lo, hi in zip(a.equilibria, a.shares_low, a.shares_high):
        assert np.all(lo <= e.shares + 1e-9) and np.all(e.shares <= hi + 1e-9)
    assert metagame.sentence(a).startswith("If players adapt, at 3 players ")
    data = json.loads(json.dumps(metagame.as_json(a), allow_nan=False))
    assert len(data["payoff_table"]) == 56 and data["worth_playing"]
    assert set(data["alpha_rank"]) == set(a.names)


def test_metagame_command_json(capsys, tmp_path, monkeypatch):
    from gamelab.cli import commands as cli

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    assert cli.main(["metagame", "strand", "--players", "3", "--deals", "32", "--psro", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == 3 and data["equilibria"] and data["psro"] == []
    assert data["answer"].startswith("If players adapt")


def test_a_game_without_strategies_has_no_metagame():
    with pytest.raises(GamelabError, match="declares no strategies"):
        metagame.declared(registry.get("pig"))


def test_random_profiles_make_every_multiset_equally_likely():
    from gamelab.strand.agents import random_profiles

    styles = random_profiles(3, 56_000, np.random.default_rng(0))
    counts = {}
    for row in np.sort(styles, axis=1):
        counts[tuple(row)] = counts.get(tuple(row), 0) + 1
    assert len(counts) == 56  # every multiset of three of the six styles
    freq = np.array(list(counts.values())) / len(styles)
    assert np.abs(freq - 1 / 56).max() < 0.004  # about 1,000 games each, within a few standard errors
    ordered = np.sort(styles, 1)
    assert len({tuple(r) for r in styles[ordered[:, 0] != ordered[:, 2]]}) > 56  # the seat orders vary too


def test_metagame_metrics_in_the_catalogue_from_a_run_of_random_profiles():
    from gamelab.core import registry
    from gamelab.sim import runner
    from gamelab.stats import balance, bootstrap, metagame_metrics

    g = registry.get("strand")
    worth, spread = balance.metric(g, "styles_worth_playing"), balance.metric(g, "equilibrium_spread")
    frame = runner.simulate(registry.get("strand"), n_games=6000, seed=2, lineup=["any_profile"] * 3, progress=False)
    est = bootstrap.estimate(frame, [worth, spread, balance.metric(g, "style_spread")]).set_index("metric")
    w = est.loc["styles_worth_playing"]
    assert 1 <= w["value"] <= 6 and w["value"] == int(w["value"]) and w["low"] <= w["value"] <= w["high"]
    assert 0 <= est.loc["equilibrium_spread", "value"] <= 1
    # the same figure as solving the table of the run by hand
    sums = bootstrap.deal_sums(frame, [worth])
    table, P = metagame_metrics._payoff_tables({c: sums[c].sum() for c in sums.columns}, 6)
    eqs = mg.equilibria(table, P)
    assert w["value"] == len({s for e in eqs for s in range(6) if e.shares[s] >= mg.WORTH})
    mixed = runner.simulate(
        registry.get("strand"), n_games=300, seed=2, n_players=3, progress=False
    )  # the default style mix
    with pytest.raises(GamelabError, match="any_profile on every seat"):
        bootstrap.estimate(mixed, [worth])


def test_a_sequential_test_decides_a_metagame_metric_by_its_grouped_form(tmp_path):
    from gamelab.decide import grouped, sequential

    run = RunConfig(store=ChunkStore(tmp_path), progress=False)
    d = sequential.decide(registry.get("strand"), "equilibrium_spread < 0.3", n_players=3, max_games=8192, run=run)
    assert isinstance(d, grouped.Decision)  # no gradient to weigh: the group-sequential bootstrap test
    # at three players adapting players keep heavy alone (the full payoff table, docs/balance-findings.md
    # section 4); random profiles of a few thousand games may add node grabber, whose regret is about 2
    # points: either way the spread is far above 30 points
    assert d.decision == "no" and d.estimate > 0.5 and d.games <= 8192
    assert d.answer.startswith(f"No: the equilibrium spread is {d.estimate * 100:.1f} points (95 % interval ")
    # (the metric refuses any run but one of random profiles: the lineup defaulted to any_profile on every seat)


def test_payoff_table_sized_by_its_precision_keeps_common_deals(tmp_path):
    from gamelab.sim import profiles

    run = RunConfig(store=ChunkStore(tmp_path), progress=False)
    said = []
    sums = profiles.payoff_table(registry.get("strand"), 3, seed=4, run=run, target=0.08, pilot=64, say=said.append)
    played = (sums.seats.sum(2) > 0).sum(0)  # deals each profile was played on
    assert played.min() == 64 and played.max() > 64 and said  # some profiles topped up, in whole chunks
    assert (played % 64 == 0).all()
    # every win share of the table within the target now (the half-width that sized it)
    assert np.nanmax(profiles.half_widths(sums.wins, sums.seats)) <= 0.08
    # common random numbers: the pilot's 64 deals of every profile are the table of 64 deals
    pilot = profiles.payoff_table(registry.get("strand"), 3, seed=4, run=run, deals=64)
    np.testing.assert_array_equal(sums.wins[:64], pilot.wins)
    np.testing.assert_array_equal(sums.seats[:64], pilot.seats)
    files = sorted(p.name for p in tmp_path.rglob("*.npz"))
    assert len(files) == played.sum() // 64
    again = profiles.payoff_table(
        registry.get("strand"), 3, seed=4, run=run, target=0.08, pilot=64
    )  # read back, nothing played
    assert sorted(p.name for p in tmp_path.rglob("*.npz")) == files
    np.testing.assert_array_equal(again.wins, sums.wins)
    a = metagame.analyse(again, label="style", n_boot=40)
    assert a.deals_fewest == 64 and a.deals == played.max()
    assert metagame.table_sentence(a).startswith("The payoff table: 56 profiles, each on 64 to ")


def test_metagame_answer_in_words_with_one_psro_round(capsys, tmp_path, monkeypatch):
    """The command's plain answer (issue 31's words check): the styles by name, no code names,
    NaN, Python reprs or mojibake, with the PSRO line included."""
    from words import unreadable

    from gamelab.cli import commands as cli

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    assert cli.main(["metagame", "strand", "--players", "3", "--deals", "32", "--psro", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("If players adapt") or "If players adapt" in out.splitlines()[1], out
    assert unreadable(out, "strand") == [], unreadable(out, "strand")


def test_a_chunks_sums_are_the_sums_of_its_table_and_the_same_on_two_workers(tmp_path):
    """The reduction a worker keeps (``chunk_sums``) counts what ``sums_of`` counts from the
    chunk's table, and a table played on two workers (each writing its own chunks) is the one
    played in this process."""
    from gamelab.sim import profiles, runner

    names = profiles.declared(registry.get("strand")).names
    run = profiles.profile_runs(registry.get("strand"), 4, deals=40, seed=2)[7]
    (chunk,) = runner.plan(registry.get("strand"), **profiles.run_args(run), chunk_deals=40)
    got = profiles.chunk_sums(chunk, names)
    deal_ids = np.arange(40) + chunk.index * 10**7
    wins, seats = profiles.sums_of(runner.run_chunk(chunk), names, deal_ids)
    np.testing.assert_array_equal(got["wins"], wins)
    np.testing.assert_array_equal(got["seats"], seats)
    inline = profiles.payoff_table(
        registry.get("strand"), 3, deals=48, seed=3, run=RunConfig(store=ChunkStore(tmp_path / "a"), progress=False)
    )
    two = ChunkStore(tmp_path / "b")
    pooled = profiles.payoff_table(
        registry.get("strand"), 3, deals=48, seed=3, run=RunConfig(store=two, workers=2, progress=False)
    )
    np.testing.assert_array_equal(pooled.wins, inline.wins)
    np.testing.assert_array_equal(pooled.seats, inline.seats)
    assert two.computed == 56 and len(list((tmp_path / "b").rglob("*.npz"))) == 56  # written by the workers


def test_the_pilot_is_sized_by_the_target_in_whole_chunks():
    from gamelab.sim import profiles

    assert profiles.pilot_deals(profiles.TARGET) == profiles.PILOT_DEALS == 1024
    assert profiles.pilot_deals(0.02) == 512  # a quarter of the deals, rounded up to a whole chunk
    assert profiles.pilot_deals(0.005) == 4096


def test_the_solvers_shortcuts_give_the_plain_answers(monkeypatch):
    """equilibria's speed-ups against their plain forms on random tables of 2 to 4 players: the
    checks before each dominance LP against the LP alone, the gathered powers against np.power,
    the starts drawn per size against one draw per start, and Newton's rows set aside early
    against every row iterated to the end (STALL below 0: none is set aside)."""
    rng = np.random.default_rng(11)
    tables = []
    for P, S in ((2, 4), (3, 3), (4, 4)):
        for _ in range(4):
            K = mg.profiles(S, P)
            t = np.where(K > 0, np.round(rng.random(K.shape) * 20) / 20, np.nan)  # payoffs in steps of 1/20
            tables.append((P, t))
    rps_d = [[0.5, 0.3, 0.7, 0.52], [0.7, 0.5, 0.3, 0.52], [0.3, 0.7, 0.5, 0.52], [0.48] * 3 + [0.5]]
    tables.append((2, two_seat_table(rps_d)))  # its two-strategy supports are singular: rows set aside
    for P, t in tables:
        own = mg._own_payoffs(t, mg.opponents(t.shape[1], P))
        plain = [mg._mixed_margin(own, s) > mg.TOL for s in range(t.shape[1])]
        np.testing.assert_array_equal(mg.dominated(t, P), plain)
        x = rng.dirichlet(np.ones(t.shape[1]), size=5)
        counts = mg.opponents(t.shape[1], P).counts
        np.testing.assert_array_equal(mg._powers(x, counts), np.power(x[:, None, :], counts))
    assert np.diff([mg.dominated(t, P).sum() for P, t in tables]).any()  # some strategies dominated, some not
    keep, S, starts = [0, 2, 3], 4, 3
    a, b = np.random.default_rng(5), np.random.default_rng(5)
    plain = []
    for k in range(1, len(keep) + 1):
        for support in itertools.combinations(keep, k):
            for i in range(starts):
                x = np.zeros(S)
                x[list(support)] = 1.0 if i == 0 else b.dirichlet(np.ones(k))
                if k > 1 or i == 0:
                    plain.append(x)
    np.testing.assert_array_equal(mg._starting_mixtures(keep, S, starts, a), plain)
    fast = [mg.equilibria(t, P) for P, t in tables]
    monkeypatch.setattr(mg, "STALL", -1.0)
    for (P, t), got in zip(tables, fast):
        want = mg.equilibria(t, P)
        assert len(got) == len(want)
        for e, w in zip(got, want):
            np.testing.assert_allclose(e.shares, w.shares, rtol=0, atol=1e-9)
