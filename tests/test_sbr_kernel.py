"""The compiled SBR kernel (gamelab/sbr/kernel.py) held to the batch engine.

Step by step: every decision of random and agent play, under every rule
reading, the kernel's turn, beat end and agents' choices equal the batch
engine's and agents'.  Whole games: the kernel's results equal
``engine.play_batch``'s, bit for bit, for every agent it plays.
"""

import contextlib
import dataclasses

import numpy as np
import pytest

from gamelab.sbr import agents, engine, kernel, sim
from gamelab.sbr.knobs import AgentParams
from gamelab.sbr.rules import params_for_variant

pytestmark = pytest.mark.skipif(kernel.njit is None, reason="numba is not installed")

# Every variant and every reading of an unclear sentence (rules.py), each away from its default.
READINGS = {
    "standard": {},
    "short": dict(variant="short"),
    "no_relics": dict(variant="no_relics"),
    "forward_seals": dict(variant="forward_seals"),
    "dual": dict(variant="dual"),
    "dual_mates_seals": dict(variant="dual", team_seals_ignored=False),
    "seal_empty_no_rider": dict(seal_empty="no_seal_no_rider"),
    "seal_not_spent_on_stop": dict(seal_spent_on_stop=False),
    "break_on_stop": dict(break_on_stop=True),
    "stop_before": dict(extra_cost_rule="stop_before"),
    "random_start_from_start": dict(start_player="random", seat_order="from_start"),
    "heart_passes_seals": dict(heart_passes_seals=True),
    "skull_not_current": dict(skull_takes_current=False, skull_cards=2),
    "heavy_seals": dict(seal_penalty=4, seal_break_cost=1, seal_range=5, seals_per_player=8),
    "no_seals": dict(seals_per_player=0),
    "tight_hand": dict(hand_size=3, curve_penalty=3, big_card=3, max_spin_per_beat=3, spin_cap=5),
}


def params_of(reading: str, **knobs) -> AgentParams:
    changes = dict(READINGS[reading])
    variant = changes.pop("variant", "standard")
    rules = params_for_variant(variant, **changes)
    return AgentParams(**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}, **knobs)


def players_of(params) -> int:
    return 2 if params.riders_per_player == 2 else 4


@contextlib.contextmanager
def batch_only():
    """The batch engine's own agents (the kernel switched off)."""
    kernel.ENABLED = False
    try:
        yield
    finally:
        kernel.ENABLED = True


def assert_same_state(a, b, where=""):
    for name in kernel.Arrays._fields:
        if name == "stats":
            for k in a.stats:
                np.testing.assert_array_equal(a.stats[k], b.stats[k], err_msg=f"{where} stats[{k}]")
        else:
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=f"{where} {name}")
    assert (a.beat, a.slot) == (b.beat, b.slot), where


def step_by_step(params, n_players, n_games, choose, check_agents, seed=3):
    """Play with the batch engine, actions from ``choose``; at every slot the
    kernel's turn (and beat end) must give the same state, and the kernel's
    greedy and lookahead the batch agents' choices (``check_agents``)."""
    rng = np.random.default_rng(seed)
    chance = engine.draw_chance(params, n_games, n_players, rng)
    st = engine.init(params, n_games, n_players, chance)
    R = st.pos.shape[1]
    decisions = 0
    for _ in range(params.beats):
        for slot in range(R):
            st.slot = slot
            rider = st.order[:, slot].astype(np.intp)
            lg = engine.legal_for(params, st, rider)
            if not lg.acting.any():
                continue
            for name in check_agents:
                with batch_only():
                    want = agents.POLICIES[name](params, st, rider, lg)
                got = kernel.search_actions(params, st, rider, lg.acting, name)
                ok = lg.acting
                for field, value in zip(("card", "spin", "seal", "brk"), got):
                    np.testing.assert_array_equal(
                        value[ok], np.asarray(getattr(want, field))[ok], err_msg=f"{name} {field} beat {st.beat}"
                    )
                decisions += int(ok.sum())
            acts = choose(params, st, rider, lg, rng)
            mine = st.copy()
            engine.act(params, st, acts, slot, inplace=True)
            kernel.act_games(params, mine, acts, slot)
            assert_same_state(st, mine, f"act beat {st.beat} slot {slot}")
        mine = st.copy()
        engine.end_beat(params, st, inplace=True)
        if st.beat < params.beats:
            engine.begin_beat(params, st, inplace=True)
        kernel.next_beat(params, mine)
        assert_same_state(st, mine, f"end of beat {st.beat}")
    return decisions


def random_choice(params, st, rider, lg, rng):
    return engine.random_actions(params, st, lg, rng)


def greedy_choice(params, st, rider, lg, rng):
    return agents.greedy_policy(params, st, rider, lg)


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_random_play_step_by_step(reading):
    """Random play (seals, breaks and skull wishes at random): every turn
    and beat end, and the greedy's choice at every decision."""
    params = params_of(reading)
    assert step_by_step(params, players_of(params), 40, random_choice, ["greedy"]) > 0


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_agent_play_step_by_step(reading):
    """Greedy play: every turn, and the greedy's and the lookahead's choices
    (the lookahead to a 3-beat horizon, to keep the batch search quick)."""
    params = params_of(reading, lookahead_beats=3)
    assert step_by_step(params, players_of(params), 12, greedy_choice, ["greedy", "lookahead"]) > 0


@pytest.mark.parametrize("reading", ["standard", "forward_seals", "dual", "heart_passes_seals", "stop_before"])
def test_lookahead_to_the_end_and_deep_choices(reading):
    """The default lookahead (to the end of the game) and deep, on the
    decisions of a few greedy games."""
    params = params_of(reading, deep_reply_beats=0)
    n_players = players_of(params)
    rng = np.random.default_rng(5)
    st = engine.init(params, 3, n_players, engine.draw_chance(params, 3, n_players, rng))
    for _ in range(8):  # the first beats: the longest play-outs
        for slot in range(st.pos.shape[1]):
            st.slot = slot
            rider = st.order[:, slot].astype(np.intp)
            lg = engine.legal_for(params, st, rider)
            for name in ("lookahead", "deep"):
                with batch_only():
                    want = agents.POLICIES[name](params, st, rider, lg)
                got = kernel.search_actions(params, st, rider, lg.acting, name)
                for field, value in zip(("card", "spin", "seal", "brk"), got):
                    np.testing.assert_array_equal(value[lg.acting], np.asarray(getattr(want, field))[lg.acting])
            engine.act(params, st, agents.greedy_policy(params, st, rider, lg), slot, inplace=True)
        engine.end_beat(params, st, inplace=True)
        engine.begin_beat(params, st, inplace=True)


@pytest.mark.parametrize("reading", sorted(READINGS))
@pytest.mark.parametrize("lineup", [("greedy",), ("lookahead", "greedy")])
def test_whole_games_identical(reading, lineup):
    """``sim.play``'s compiled path: every result of engine.play_batch, bit for bit."""
    knobs = dict(lookahead_beats=2) if "lookahead" in lineup else {}
    params = params_of(reading, **knobs)
    n_players = players_of(params)
    seating = [lineup[s % len(lineup)] for s in range(n_players)]
    n = 300 if lineup == ("greedy",) else 16
    chance = engine.draw_chance(params, n, n_players, np.random.default_rng(11))
    with batch_only():
        want = engine.play_batch(
            params, [agents.POLICIES[a] for a in seating], n, np.random.default_rng(1), chance=chance
        )
    assert sim.compiled_lineup(params, seating, n_players) == (lineup != ("greedy",))
    got = sim.kernel_play(params, seating, n, n_players, chance)
    assert sorted(got) == sorted(want)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)


def test_deep_whole_games_identical():
    """Deep on every seat, whole (short) games: the kernel against the batch search."""
    params = params_of("short", deep_reply_beats=1, lookahead_beats=2)
    chance = engine.draw_chance(params, 3, 2, np.random.default_rng(4))
    with batch_only():
        want = engine.play_batch(params, [agents.deep_policy] * 2, 3, np.random.default_rng(1), chance=chance)
    got = sim.kernel_play(params, ["deep", "deep"], 3, 2, chance)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)


def test_unsupported_tables_fall_back():
    """More than SEQUENTIAL_SUM_RIDERS riders: the batch engine plays (its seal sums group terms)."""
    params = AgentParams(max_players=8, segment_points=(5, 3, 2, 1, 0, 0, 0, 0), final_points=(10, 6, 3, 1, 0, 0, 0, 0))
    assert not sim.compiled_lineup(params, ["lookahead"] * 8, 8)
    assert sim.compiled_lineup(params, ["lookahead"] * 4, 4)
    assert not sim.compiled_lineup(params, ["lookahead", "random"], 2)
    assert not sim.compiled_lineup(params, ["greedy"] * 4, 4)  # the batch engine is faster there


@pytest.mark.parametrize("reading", ["standard", "forward_seals", "dual", "random_start_from_start"])
def test_lookahead_on_every_seat_to_the_end(reading):
    """The default lookahead on every seat, whole games: the kernel's known
    continuations (a search reads its greedy option's margin from the
    play-out the game has followed) change no decision."""
    params = params_of(reading)
    n_players = players_of(params)
    chance = engine.draw_chance(params, 6, n_players, np.random.default_rng(21))
    with batch_only():
        want = engine.play_batch(
            params, [agents.lookahead_policy] * n_players, 6, np.random.default_rng(1), chance=chance
        )
    got = sim.kernel_play(params, ["lookahead"] * n_players, 6, n_players, chance)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)


def test_deep_to_the_end_identical():
    """Deep with lookahead play-outs to the end (the continuations inside its play-outs), short games."""
    params = params_of("short", deep_reply_beats=0)
    chance = engine.draw_chance(params, 2, 2, np.random.default_rng(6))
    with batch_only():
        want = engine.play_batch(params, [agents.deep_policy] * 2, 2, np.random.default_rng(1), chance=chance)
    got = sim.kernel_play(params, ["deep", "deep"], 2, 2, chance)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)
