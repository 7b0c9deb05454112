"""The player model keeps the rules' symmetries (issue 38): the declarations, the
metamorphic checks of ``gamelab.decide.symmetry`` over every game and agent family,
the issue's table decided fair at 3-6 players, the checks catching a planted
seat-order tie-break, and STRAND's table decisions equivariant under a relabelling
of the seats (their tie-break draws relabelled alike)."""

import itertools

import numpy as np
import pytest

from gamelab.core import registry, symmetry
from gamelab.decide import symmetry as checks
from gamelab.sim.run import RunConfig
from gamelab.sim.store import ChunkStore
from gamelab.strand import heuristic
from gamelab.strand.rules import team_of_seat

STRAND = registry.get("strand")


def test_orbits_and_transitivity():
    assert symmetry.orbits((), 3) == ((0,), (1,), (2,))
    assert symmetry.orbits(((1, 0, 2, 3),), 4) == ((0, 1), (2,), (3,))
    assert symmetry.transitive(symmetry.every_permutation(5), 5)
    assert not symmetry.transitive(((1, 0, 2),), 3)
    assert symmetry.keeps((2, 1, 0, 3), ((0, 2), (1, 3))) and not symmetry.keeps((1, 0, 2, 3), ((0, 2), (1, 3)))


@pytest.mark.parametrize("P", [3, 4, 5, 6])
def test_strand_declares_every_permutation_and_its_team_variant_only_those_that_keep_the_teams(P):
    """The generators give the whole group without teams (every transposition is in it)
    and, with teams, only permutations that map teams onto teams, still moving every seat
    to every other."""
    gens = STRAND.symmetry.seats(STRAND.knobs(), P)
    assert symmetry.transitive(gens, P) and len(gens) == 2
    if P in (4, 6):
        teams = [[s for s in range(P) if team_of_seat(s, P) == t] for t in range(P // 2)]
        team_gens = STRAND.symmetry.seats(STRAND.knobs().replace(teams=True), P)
        assert all(symmetry.keeps(g, teams) for g in team_gens)
        assert symmetry.transitive(team_gens, P)
        assert not all(symmetry.keeps(g, teams) for g in gens)


@pytest.mark.parametrize("name", ["sbr", "pig"])
def test_games_whose_acting_order_is_a_rule_declare_no_seat_symmetry(name):
    game = registry.get(name)
    assert checks.cases(game) == []
    assert "no seat symmetry" in checks.describe(game)


def _quiet(tmp_path):
    return RunConfig(store=ChunkStore(tmp_path / "cache"), progress=False)


# the issue's table: rules and lineups under which seat 1 won up to 66 % before the fix
ISSUE_ROWS = [
    ({"silent": True}, None),  # variant B, the style mix
    ({"time_rain": True, "rain_cards": ("fog",)}, None),  # the fog card alone
    ({"negotiation": False, "roles": "none"}, "heavy"),
    ({"roles": "none"}, "heavy"),
    ({}, None),  # the rulebook
    ({"roles": "none"}, "random"),
]


@pytest.mark.parametrize("P", [3, 4, 5, 6])
@pytest.mark.parametrize("changes, agent", ISSUE_ROWS)
def test_the_issue_table_is_fair_at_every_player_count(changes, agent, P, tmp_path):
    """Every seat within 1.5 points of fair, decided "yes" by the sequential test."""
    from gamelab.decide import sequential

    lineup = [agent] * P if agent else None
    d = sequential.decide(
        STRAND,
        f"seat_gap < {checks.TOLERANCE}",
        n_players=P,
        params=STRAND.knobs().replace(**changes),
        lineup=lineup,
        seed=2,
        max_games=checks.MAX_GAMES,
        run=_quiet(tmp_path),
    )
    assert d.decision == "yes", d


SEARCHES = ("best@1", "heavy@1", "level2@1")  # tests/test_symmetry_search.py: minutes, a file of their own


@pytest.mark.parametrize("agent", [a for a in STRAND.symmetry.agents if a not in SEARCHES])
def test_every_agent_family_keeps_the_seat_symmetry(agent, tmp_path):
    """Each style and random play on every seat of the standard rules at 4 players."""
    verdicts = checks.check_symmetry(
        STRAND, agents_=[agent], variants=["standard"], players=[4], run=_quiet(tmp_path), seed=1
    )
    assert [v.decision for v in verdicts] == ["yes"]


@pytest.mark.parametrize("variant", list(STRAND.variants))
def test_every_variant_keeps_the_seat_symmetry_with_tying_styles(variant, tmp_path):
    """The styles whose choices tie most (identical heavy and mirror seats) in every variant,
    at the fewest players it seats and at six (the team variant: at 4 and 6): every case
    decided "yes"."""
    counts = [n for n in range(3, 7) if checks.cases(STRAND, variants=[variant], players=[n], agents_=["x"])]
    verdicts = checks.check_symmetry(
        STRAND,
        agents_=["heavy", "mirror"],
        variants=[variant],
        players=sorted({counts[0], counts[-1]}),
        run=_quiet(tmp_path),
        seed=3,
    )
    assert len(verdicts) == 2 * len({counts[0], counts[-1]}) and all(v.decision == "yes" for v in verdicts)


def test_the_check_catches_a_planted_seat_order_tie_break(monkeypatch, tmp_path):
    """The model as it was: ties between partners go to the lowest seat and pairs of equal
    keys to the lowest seats.  The check answers "no" and names the case."""
    monkeypatch.setattr(
        heuristic.Table,
        "ties",
        lambda self, G, P: np.ascontiguousarray(
            np.broadcast_to(-np.arange(P, dtype=np.float32)[None, :, None], (P, P, G))
        ),
    )
    real = heuristic.pair_order
    monkeypatch.setattr(heuristic, "pair_order", lambda order, rnd, P, rng: real("fixed", rnd, P, rng))
    with pytest.raises(checks.SymmetryError, match=r"heavy on every seat, silent, 4 players.*\? no after"):
        checks.check_symmetry(STRAND, agents_=["heavy"], variants=["silent"], players=[4], run=_quiet(tmp_path))


# --- exact: the table's decisions commute with a relabelling of the seats -------------------
def _relabel(U, perm):
    """U[i, j] of seats relabelled by ``perm`` (seat s becomes perm[s]): V[perm[i], perm[j]] = U[i, j]."""
    inv = np.argsort(perm)
    return U[inv][:, inv]


@pytest.mark.parametrize("P", [3, 4, 6])
def test_best_partner_and_matching_commute_with_a_relabelling(P):
    """With many exact ties, the chosen partner (its tie-break draws relabelled alike) and
    the negotiated pairs (the pairs' speaking-order draws relabelled alike) move with the
    seats: no decision depends on where a seat sits in the array."""
    rng = np.random.default_rng(P)
    G = 2000
    table = heuristic.Table(STRAND.knobs().replace(accept=-0.5), np.zeros((G, P), np.int8), rng)
    U = rng.integers(0, 3, (P, P, G)).astype(np.float32)  # three values: ties everywhere
    for i in range(P):
        U[i, i] = heuristic.NEVER
    tie = table.ties(G, P)
    I, J, _ = heuristic._pairs(P)
    prio = heuristic.pair_order("none", np.zeros(G, np.int64), P, rng)
    top, _ = heuristic.best_partner(U, tie)
    mate = table.match(U, prio)
    for perm in itertools.islice(itertools.permutations(range(P)), 1, 8):
        perm = np.array(perm)
        top2, _ = heuristic.best_partner(_relabel(U, perm), _relabel(tie, perm))
        assert np.array_equal(top2[perm], perm[top])  # seat perm[i] picks perm[i's pick]
        pair_of = {(min(a, b), max(a, b)): q for q, (a, b) in enumerate(zip(I, J, strict=True))}
        prio2 = np.empty_like(prio)
        for q, (a, b) in enumerate(zip(I, J, strict=True)):
            pa, pb = perm[a], perm[b]
            prio2[pair_of[(min(pa, pb), max(pa, pb))]] = prio[q]
        mate2 = table.match(_relabel(U, perm), prio2)
        expect = np.where(mate >= 0, perm[np.maximum(mate, 0)], -1)
        assert np.array_equal(mate2[perm], expect)


# --- a run that breaks a declared symmetry is flagged as a fault of the model -------------------
def _frame(seat_one_share: float, n_deals=3000, P=4, seed=0):
    """Deals of one game each: seat 1 wins with the given chance, the others share the rest."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    first = rng.random(n_deals) < seat_one_share
    other = rng.integers(1, P, n_deals)
    winner = np.where(first, 0, other)
    win = (np.arange(P)[None, :] == winner[:, None]).astype(float)
    return pd.DataFrame(
        {
            "deal": np.repeat(np.arange(n_deals), P),
            "game": np.repeat(np.arange(n_deals), P),
            "seat": np.tile(np.arange(1, P + 1), n_deals),
            "win": win.ravel(),
        }
    )


def test_a_run_whose_seats_differ_where_the_rules_treat_them_alike_is_flagged():
    from gamelab.report.compute import model_warnings
    from gamelab.stats.symmetry import seat_warning
    from gamelab.ui.balance_panel import model_warning

    gens = symmetry.every_permutation(4)
    assert seat_warning(_frame(0.25), gens, 4) is None
    flagged = seat_warning(_frame(0.30), gens, 4)
    assert flagged is not None and flagged.seat == 1 and flagged.rate > flagged.share
    assert "player model, not the rules" in flagged.words()
    assert seat_warning(_frame(0.30), (), 4) is None  # no symmetry declared (a race): no warning
    params = STRAND.knobs()
    assert model_warnings(STRAND, params, {4: _frame(0.25)}) == ()
    assert model_warnings(STRAND, params, {4: _frame(0.30)})[0][1].startswith("4 players: Warning about the")
    assert model_warning(STRAND, _frame(0.30), params, 4) and not model_warning(registry.get("sbr"), _frame(0.3), {}, 4)


def test_a_fair_model_run_raises_no_warning_and_the_planted_one_does(monkeypatch, tmp_path):
    from gamelab.sim import runner
    from gamelab.stats.symmetry import seat_warning

    params = STRAND.knobs().replace(roles="none", silent=True)
    gens = STRAND.symmetry.seats(params, 4)

    def play():
        return runner.simulate(
            STRAND,
            n_games=4000,
            seed=4,
            params=params,
            lineup=["heavy"] * 4,
            progress=False,
            store=ChunkStore(tmp_path / f"c{len(list(tmp_path.iterdir()))}"),
        )

    assert seat_warning(play(), gens, 4) is None
    monkeypatch.setattr(
        heuristic.Table,
        "ties",
        lambda self, G, P: np.ascontiguousarray(
            np.broadcast_to(-np.arange(P, dtype=np.float32)[None, :, None], (P, P, G))
        ),
    )
    warning = seat_warning(play(), gens, 4)
    assert warning is not None and abs(warning.z) > 10  # seat 1 about 60 %, seat 4 about 4 %


def test_a_searchs_playouts_negotiate_in_the_rounds_own_speaking_order(monkeypatch):
    """The speaking order is public: a search deciding its rope plays out the pairs the table
    agreed, not pairs of another random order (which cost ``best`` a third of its wins among
    identical styles).  Every play-out made for a rope decision negotiates that round in the
    table's own order."""
    from gamelab.strand import agents, engine
    from gamelab.strand.state import ROPE

    seen, deciding = [], {}
    real = heuristic.Table.speaking

    def spy(self, st, P):
        prio = real(self, st, P)
        seen.append((self, st.rnd.copy(), prio.copy(), deciding.get("phase"), deciding.get("round")))
        return prio

    monkeypatch.setattr(heuristic.Table, "speaking", spy)
    params = STRAND.knobs().replace(roles="none", best_rollouts=2)
    chance = engine.draw_chance(params, 1, 4, np.random.default_rng(0))
    st = engine.init(params, 1, 4, chance)
    ctl = agents.controller(params, ["best", "heavy", "heavy", "heavy"], 1, np.random.default_rng(1))
    while not st.done.all():
        deciding.update(phase=None)
        acts = ctl.table.ropes(st) if st.phase == ROPE else None  # the table's own order first, as act does
        deciding.update(phase=st.phase, round=int(st.rnd[0]))
        acts = ctl.act(st)
        st, ev = engine.step(params, st, acts, chance)
        ctl.observe(ev)
    real_orders = {int(r[0]): p[:, 0] for t, r, p, phase, _ in seen if t is ctl.table and phase is None}
    compared = 0
    for t, rnd, prio, phase, rnd_decided in seen:
        if t is not ctl.table and phase == ROPE and (rnd == rnd_decided).all():
            compared += 1
            assert all(np.array_equal(prio[:, k], real_orders[rnd_decided]) for k in range(prio.shape[1]))
    assert compared > 0
