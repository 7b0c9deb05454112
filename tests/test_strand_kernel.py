"""STRAND's compiled pieces against the numpy code they replace: the refill
(``kernel.refill`` / ``cards.refill_batch``), the negotiation's matching
(``kernel.match`` / ``heuristic.Table.match_batch``) and the reneging
(``kernel.renege`` / ``heuristic.Table.renege_batch``): random states, every
rule reading that reaches them, random and search-agent play, bit for bit."""

import numpy as np
import pytest

from gamelab.core import registry
from gamelab.sim import runner
from gamelab.strand import cards, engine, heuristic, kernel
from gamelab.strand.agent_params import SPEAKING_ORDERS
from gamelab.strand.rules import StrandParams
from gamelab.strand.state import N_VALUES

pytestmark = pytest.mark.skipif(not kernel.COMPILED, reason="numba is not installed")

FIELDS = ("hand", "limit", "deck", "discard")


def _random_state(rng, G, P):
    """A state with any hand sizes (some above the limit) and small decks
    (many run dry mid-refill and take the discards back); the deck and the
    discards together always hold the cards the refill needs (as in play)."""
    params = StrandParams()
    st = engine.init(params, G, P, engine.draw_chance(params, G, P, rng))
    st.hand[:] = rng.integers(0, 3, (G, P, N_VALUES)) * (rng.random((G, P, N_VALUES)) < 0.3)
    st.limit[:] = rng.integers(1, 6, (G, P))
    st.deck[:] = rng.integers(0, 4, (G, N_VALUES)) * (rng.random((G, N_VALUES)) < 0.5)
    st.discard[:] = rng.integers(0, 4, (G, N_VALUES))
    need = np.maximum(st.limit - st.hand.sum(2), 0).sum(1)
    st.discard[:, 0] += np.maximum(need - st.deck.sum(1) - st.discard.sum(1), 0)
    return st


def _both(st, draws, live):
    old, new = st.copy(), st.copy()
    cards.refill_batch(old, draws, live)
    kernel.refill(new, draws, live)
    for name in FIELDS:
        assert np.array_equal(getattr(old, name), getattr(new, name)), name
    return new


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(6))
def test_refill_matches_numpy_on_random_states(seed, dtype):
    rng = np.random.default_rng(seed)
    G, P = 3000, 3 + seed % 4
    st = _random_state(rng, G, P)
    draws = rng.random((G, P, 5), dtype=dtype)
    for live in (None, rng.random(G) < 0.6):
        new = _both(st, draws, live)
        assert (new.deck >= 0).all() and (new.discard >= 0).all()
    assert (new.hand != st.hand).any()  # cards were drawn


def test_refill_matches_numpy_where_a_draw_truncates():
    """Uniforms on and just below each r / total (float32's rounding of u x total decides the card)."""
    rng = np.random.default_rng(9)
    G, P = 4000, 4
    st = _random_state(rng, G, P)
    total = cards.rowsum(st.deck).astype(np.float32)[:, None, None]
    r = rng.integers(0, 40, (G, P, 5)).astype(np.float32)
    on = np.minimum(r / np.maximum(total, 1), np.float32(0.999))
    for u in (on, np.nextafter(on, np.float32(0)), np.nextafter(on, np.float32(1))):
        _both(st, u.astype(np.float32), None)


def test_refill_short_of_uniforms_raises_as_numpy():
    """A seat needing more cards than the uniforms given: both raise IndexError (no read past the array)."""
    rng = np.random.default_rng(5)
    st = _random_state(rng, 50, 4)
    st.hand[:] = 0
    st.limit[:] = 3
    for fill in (cards.refill_batch, kernel.refill):
        with pytest.raises(IndexError):
            fill(st.copy(), rng.random((50, 4, 2), dtype=np.float32))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("accept", [-50.0, -0.5, 0.0])
def test_match_matches_numpy_on_random_utilities(players, accept):
    """Random utilities with many exact ties (ranks and keys tie), refused pairs,
    seats that do not negotiate (random, custom), games with nobody to pair."""
    rng = np.random.default_rng(players * 1000 - int(accept * 10))
    G, P = 3000, players
    knobs = registry.get("strand").knobs().replace(accept=accept)
    table = heuristic.Table(knobs, rng.integers(0, heuristic.CUSTOM + 1, (G, P)), rng)
    U = rng.normal(size=(P, P, G)).astype(np.float32)
    U[rng.random(U.shape) < 0.3] = np.float32(0.5)  # ties
    U[rng.random(U.shape) < 0.1] = np.float32(-100)  # refused whatever ``accept``
    U[..., :100] = np.float32(-100)  # nobody acceptable
    for i in range(P):
        U[i, i] = heuristic.NEVER
    for order in SPEAKING_ORDERS:  # ties between pairs settled by each speaking order
        prio = heuristic.pair_order(order, rng.integers(0, 8, G), P, rng)
        old, new = table.match_batch(U, prio), table.match(U, prio)
        assert np.array_equal(old, new)
    paired = new >= 0
    assert paired.any() and (~paired[:, :100]).all()
    games = np.arange(G)
    for s in range(P):  # pairs are mutual
        mine = paired[s]
        assert (new[new[s, mine], games[mine]] == s).all()


@pytest.mark.parametrize("how", heuristic.RENEGE_TO)
@pytest.mark.parametrize("players", [3, 4, 6])
def test_renege_matches_numpy(how, players):
    """Every renege_to reading, on random utilities with ties (among equally good
    alternatives the draw decides), refusals, and renegers with and without a better partner."""
    rng = np.random.default_rng(players + 7 * heuristic.RENEGE_TO.index(how))
    G, P = 3000, players
    knobs = registry.get("strand").knobs().replace(renege_to=how, accept=-0.5)
    table = heuristic.Table(knobs, rng.integers(0, heuristic.RANDOM, (G, P)), rng)
    U = rng.normal(size=(P, P, G)).astype(np.float32)
    U[rng.random(U.shape) < 0.3] = np.float32(0.5)  # ties
    for i in range(P):
        U[i, i] = heuristic.NEVER
    mate = table.match_batch(U, heuristic.pair_order("fixed", np.zeros(G, np.int64), P, rng))
    reneg = (mate >= 0) & (rng.random((P, G)) < 0.5)
    tie = table.ties(G, P)
    old = table.renege_batch(U, mate, reneg, tie)
    new = kernel.renege(
        U, mate, reneg, engine.stay_action(P), table.accept, heuristic.SHUN, heuristic.RENEGE_TO.index(how), tie
    )
    assert np.array_equal(old, new)
    moved = reneg & (new != engine.stay_action(P))
    assert moved.any() == (how != "stay") and (new[reneg] != mate[reneg]).all()


READINGS = [
    ({}, 4, ["random"] * 4),
    ({"stay_bonus": "one_round", "stay_returns_cargo": True, "max_hand": 6}, 5, ["random"] * 5),
    ({"hand_size": 5, "max_hand": 5, "cargo_counts": (8, 7, 7, 7, 7)}, 6, ["random"] * 6),
    ({"time_rain": True, "clear_redraw": True}, 3, ["random"] * 3),
    ({"teams": True}, 4, None),
    ({"time_rain": True, "renege_to": "best"}, 4, ["best", "heavy", "greedy", "random"]),
    ({"stay_bonus": "one_round", "best_proxy": "mix"}, 3, ["best", "best", "key"]),
    ({"renege_to": "stay", "reneging": 0.5}, 5, ["best", "mirror", "steady", "random", "heavy"]),
]


def _play(params, lineup, players, compiled, monkeypatch):
    monkeypatch.setattr(kernel, "COMPILED", compiled)
    game = registry.get("strand")
    n = 30 if any(a in ("best", "greedy") for a in lineup or ()) else 2000
    seating = lineup or game.default_lineup(players)
    return runner.play_seated(game, params, seating, n, players, np.random.SeedSequence(4))


@pytest.mark.parametrize("changes,players,lineup", READINGS)
def test_games_identical_with_the_compiled_refill(changes, players, lineup, monkeypatch):
    """Whole games (the deal, every round's refill, the search agents'
    re-dealt hands) give the same frame with and without the kernel."""
    params = registry.get("strand").knobs().replace(**changes)
    old = _play(params, lineup, players, False, monkeypatch)
    new = _play(params, lineup, players, True, monkeypatch)
    assert list(old) == list(new)
    for key in old:
        assert np.array_equal(np.asarray(old[key]), np.asarray(new[key])), key


def test_engine_steps_identical_with_the_compiled_refill(monkeypatch):
    """Random play step by step: the state after every step is the same."""
    params = StrandParams().replace(stay_bonus="one_round", stay_returns_cargo=True)
    rng = np.random.default_rng(3)
    G, P = 2000, 5
    chance = engine.draw_chance(params, G, P, rng, roles="random")
    states = {}
    for compiled in (False, True):
        monkeypatch.setattr(kernel, "COMPILED", compiled)
        states[compiled] = engine.init(params, G, P, chance)
    while not states[True].done.all():
        acts = engine.random_actions(params, states[True], engine.legal(params, states[True]), rng)
        for compiled in (False, True):
            monkeypatch.setattr(kernel, "COMPILED", compiled)
            states[compiled], _ = engine.step(params, states[compiled], acts, chance)
        for name, a in states[False].per_game().items():
            assert np.array_equal(a, getattr(states[True], name)), name
